//! `records::parse_sgf`: never panics; every game it reads is written by
//! `Record::to_sgf` and read back equal.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk::records::parse_sgf;

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choice_and_text(data) else {
        return;
    };
    let rules = common::rules_from(choice);
    if let Ok(games) = parse_sgf(&text, rules) {
        for g in games {
            let back = parse_sgf(&g.to_sgf(), rules).expect("to_sgf output reads back");
            assert_eq!(back, vec![g]);
        }
    }
});
