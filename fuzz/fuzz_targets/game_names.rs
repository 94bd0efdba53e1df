//! Game names (`Rules` and `Rule` parsers): never panic; a parsed game's
//! `Display` form parses to the same game.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk_core::game::{Rule, Rules};

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    if let Ok(r) = text.parse::<Rules>() {
        assert_eq!(r.to_string().parse::<Rules>().expect("Display parses"), r);
    }
    if let Ok(r) = text.parse::<Rule>() {
        assert_eq!(r.to_string().parse::<Rule>().expect("Display parses"), r);
    }
});
