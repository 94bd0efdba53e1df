//! `rundir::parse_checks` (`checks.csv`, both layouts): never panics;
//! accepted rows are written by `checks_header_line` and `check_lines`
//! and read back equal.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk::train::{check_lines, checks_header_line, parse_checks};
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choice_and_text(data) else {
        return;
    };
    let small = choice & 1 == 0;
    let path = Path::new("checks.csv");
    if let Ok(rows) = parse_checks(&text, path, small) {
        if rows.is_empty() {
            return;
        }
        let mut again = checks_header_line(small);
        for c in &rows {
            again.push_str(&check_lines(c));
        }
        let back = parse_checks(&again, path, small).expect("the writer's rows read back");
        assert_eq!(back, rows);
    }
});
