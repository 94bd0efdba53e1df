//! `RunConfig::from_toml` (`run.toml`, with its validation): never panics;
//! an accepted configuration is written by `to_toml` and read back equal.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk::train::RunConfig;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    if let Ok(cfg) = RunConfig::from_toml(&text, "run.toml") {
        let back =
            RunConfig::from_toml(&cfg.to_toml().expect("a valid config writes"), "again.toml")
                .expect("to_toml reads back");
        assert_eq!(back, cfg);
    }
});
