//! `rundir::parse_rounds` (`rounds.csv`, checked against a run's
//! configuration): never panics; accepted rows are written by the writer
//! (`rounds_header_line`, `round_line`) and read back equal.
#![no_main]
mod common;

use libfuzzer_sys::fuzz_target;
use mnk_core::game::Rules;
use mnk::train::{parse_rounds, round_line, rounds_header_line};
use mnk::train::RunConfig;
use std::path::Path;

/// The configurations a fuzz input is read against (its first byte picks
/// one): both formats, both optimisers, small and large boards; random
/// search with 2 challengers, SPSA with the default 4.
fn config(byte: u8) -> RunConfig {
    let game = if byte & 1 == 0 { Rules::TICTACTOE } else { Rules::GOMOKU };
    match byte / 2 % 3 {
        0 => RunConfig {
            challengers: 2,
            ..RunConfig::defaults(game)
        },
        1 => RunConfig::spsa_defaults(game),
        _ => RunConfig {
            format: 1,
            challengers: 2,
            ..RunConfig::defaults(game)
        },
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((choice, text)) = common::choice_and_text(data) else {
        return;
    };
    let cfg = config(choice);
    let path = Path::new("rounds.csv");
    if let Ok(rows) = parse_rounds(&text, path, &cfg) {
        if rows.is_empty() {
            return;
        }
        let mut again = rounds_header_line(&cfg);
        for r in &rows {
            again.push_str(&round_line(&cfg, r));
        }
        let back = parse_rounds(&again, path, &cfg).expect("the writer's rows read back");
        assert_eq!(back, rows);
    }
});
