//! `records::parse_csv`: never panics; every game it reads is written by
//! `Record::to_csv` and read back equal.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk::records::parse_csv;

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choice_and_text(data) else {
        return;
    };
    let rules = common::rules_from(choice);
    if let Ok(games) = parse_csv(&text, rules) {
        for g in games {
            let back = parse_csv(&g.to_csv(), rules).expect("to_csv output reads back");
            assert_eq!(back, vec![g]);
        }
    }
});
