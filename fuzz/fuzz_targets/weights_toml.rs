//! `Weights::from_toml`: never panics; what it reads is written back by
//! `to_toml` and read again unchanged.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk_core::eval::Weights;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    if let Ok(w) = Weights::from_toml(&text, "fuzz.toml") {
        let back = Weights::from_toml(&w.to_toml("fuzz"), "again.toml")
            .expect("to_toml output reads back");
        assert_eq!(back, w);
    }
});
