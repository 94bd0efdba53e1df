//! Whole Gomocup protocol sessions: the input is split into lines by the
//! engine's own line reader and fed to `Brain::handle` one at a time.
//! Nothing may panic, and every reply must be one protocol line: `OK`,
//! `ERROR …`, `UNKNOWN …`, `MESSAGE …`, the `ABOUT` line, or a move `x,y`
//! on the board.
//!
//! To keep an input from thinking long, the session starts with
//! `INFO timeout_turn 0` (play at once, a depth-1 search) and
//! `INFO max_memory 1` (the smallest table); input lines that would raise
//! the turn limit past 60 ms (still instant: the margin is 60 ms), lift the
//! memory limit, or start a board over 20×20 are dropped.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mnk::brain::lines::LineReader;
use mnk::brain::protocol::{self, Command};
use mnk::brain::{Brain, Flow, Settings};
use mnk_core::eval::shipped_weights;
use mnk_core::game::Rules;
use std::time::Instant;

const PREAMBLE: [&str; 2] = ["INFO timeout_turn 0", "INFO max_memory 1"];

/// Whether a line is fed to the engine (see the module docs).
fn allowed(line: &str) -> bool {
    match protocol::parse(line) {
        Ok(Command::Info { key, value }) => match key.as_str() {
            "timeout_turn" => protocol::info_number(&value).is_none_or(|n| n <= 60),
            "max_memory" => protocol::info_number(&value).is_none_or(|n| (1..=10_000_000).contains(&n)),
            _ => true,
        },
        Ok(Command::Start { width, height }) => width.max(height) <= 20,
        _ => true,
    }
}

fuzz_target!(|data: &[u8]| {
    let settings = Settings {
        weights: shipped_weights(Rules::GOMOKU),
        depth: 2,
        width: 4,
        // The brain's own default (`mnk brain --late`).
        late: mnk::players::SearchLimits::default().late,
        verbose: true,
        seed: 1,
        default_turn: 0,
    };
    let mut brain = Brain::new(settings);
    let mut out: Vec<u8> = Vec::new();
    for line in PREAMBLE {
        brain.handle(line, Instant::now(), &mut out).expect("writing to memory");
    }
    assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    let mut reader = LineReader::new(data);
    let mut size: Option<(i64, i64)> = None;
    let mut in_block = false;
    while let Some(line) = reader.next_line().expect("reading from memory") {
        if !allowed(&line) {
            continue;
        }
        // Track the board size the engine accepted, to check its moves.
        let start = match protocol::parse(&line) {
            Ok(Command::Start { width, height }) if !in_block => Some((width, height)),
            _ => None,
        };
        let before = out.len();
        let flow = brain.handle(&line, Instant::now(), &mut out).expect("writing to memory");
        let reply = std::str::from_utf8(&out[before..]).expect("replies are UTF-8");
        if let Some(s) = start {
            if reply == "OK\n" {
                size = Some(s);
            }
        }
        if matches!(protocol::parse(&line), Ok(Command::Board)) && !in_block {
            in_block = true;
        } else if in_block && line.trim().eq_ignore_ascii_case("DONE") {
            in_block = false;
        }
        for r in reply.lines() {
            check_reply(r, size);
        }
        if flow == Flow::Exit {
            break;
        }
    }
});

fn check_reply(r: &str, size: Option<(i64, i64)>) {
    let known = ["OK", "ERROR ", "UNKNOWN ", "MESSAGE ", "name="];
    if r == "OK" || known[1..].iter().any(|p| r.starts_with(p)) {
        return;
    }
    let (x, y) = r.split_once(',').unwrap_or_else(|| panic!("not a protocol reply: {r:?}"));
    let (x, y): (i64, i64) = (
        x.parse().unwrap_or_else(|_| panic!("bad move reply {r:?}")),
        y.parse().unwrap_or_else(|_| panic!("bad move reply {r:?}")),
    );
    let (w, h) = size.unwrap_or_else(|| panic!("a move {r:?} without a board"));
    assert!((0..w).contains(&x) && (0..h).contains(&y), "move {r:?} off the {w}x{h} board");
}
