//! `arena::parse_openings` (Gomocup offset files): never panics; every
//! opening it reads is written by `to_offsets` and read back equal.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk_core::arena::{parse_openings, Opening};

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choice_and_text(data) else {
        return;
    };
    let rules = common::rules_from(choice);
    if let Ok(openings) = parse_openings(&text, "fuzz.txt", rules) {
        for o in openings {
            let line = o.to_offsets(rules);
            let back = Opening::parse_offsets(&line, rules).expect("to_offsets output reads back");
            assert_eq!(back, o);
        }
    }
});
