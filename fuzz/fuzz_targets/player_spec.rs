//! `PlayerSpec`'s parser (and the trainer's check of it): never panics;
//! a parsed spec's `Display` form parses to the same spec.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk_core::players::PlayerSpec;
use mnk::train::TrainedPlayer;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    if let Ok(spec) = text.parse::<PlayerSpec>() {
        let shown = spec.to_string();
        let back: PlayerSpec = shown.parse().expect("Display output parses");
        assert_eq!(back, spec, "{shown}");
    }
    if let Ok(t) = TrainedPlayer::parse(&text) {
        let back = TrainedPlayer::parse(&t.spec()).expect("a trained player's spec parses");
        assert_eq!(back.spec(), t.spec());
    }
});
