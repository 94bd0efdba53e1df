//! A survey of exact-solver times, printed as a table (not a criterion
//! benchmark: each line is one board's mean and worst, or best of 3, which
//! is what a reader of the solver's limits wants to see).
//!
//! `cargo run --release --example solve_times [hard|empty]` (both by default)

use mnk::game::{Board, Rules};
use mnk::players::{Rng, Solver};
use rand::{Rng as _, SeedableRng};

fn main() {
    let which = std::env::args().nth(1);
    match which.as_deref() {
        Some("hard") => hard_positions(),
        Some("empty") => solve_times_from_empty(),
        None => {
            solve_times_from_empty();
            hard_positions();
        }
        Some(other) => {
            eprintln!("unknown survey {other:?}: expected hard or empty");
            std::process::exit(2);
        }
    }
}

fn rules(spec: &str) -> Rules {
    spec.parse().unwrap()
}

/// A position after `stones` random moves that never end the game (each
/// move is drawn among those that do not), or `None` if that gets stuck.
fn quiet_position(rules: Rules, stones: usize, rng: &mut Rng) -> Option<Board> {
    let mut b = Board::new(rules);
    while b.ply() < stones {
        let mut legal = b.legal_moves();
        loop {
            if legal.is_empty() {
                return None;
            }
            let m = legal.swap_remove(rng.gen_range(0..legal.len()));
            if b.play_unchecked(m).is_none() {
                break;
            }
            b.undo();
        }
    }
    Some(b)
}

/// Solve times on harder positions: 20 quiet positions per board, mean and
/// worst.
fn hard_positions() {
    use std::time::Instant;
    let mut rng = Rng::seed_from_u64(99);
    for (spec, stones) in [
        ("tictactoe", 0),
        ("4x4x4", 0),
        ("4x4x4-exact", 0),
        ("5x4x4", 0),
        ("5x4x4", 4),
        ("6x4x4", 8),
        ("5x5x4", 9),
        ("5x5x5", 9),
        ("6x6x4", 20),
        ("6x6x5", 20),
        ("6x6x6", 20),
        ("7x7x5", 33),
        ("gomoku", 209),
    ] {
        let r = rules(spec);
        let mut worst = (0.0f64, 0u64, String::new());
        let mut total = 0.0;
        let mut n = 0;
        while n < 20 {
            let Some(b) = quiet_position(r, stones, &mut rng) else {
                continue;
            };
            n += 1;
            let mut s = Solver::with_limit(r, 30);
            let t = Instant::now();
            let v = s.value(&b).unwrap();
            let e = t.elapsed().as_secs_f64();
            total += e;
            if e > worst.0 {
                worst = (e, s.stats().nodes, format!("{v} {b:?}"));
            }
            if stones == 0 {
                break;
            }
        }
        println!(
            "{spec} stones={stones} n={n} mean={:.4}s worst={:.4}s nodes={} {}",
            total / n as f64,
            worst.0,
            worst.1,
            worst.2
        );
    }
}

/// Solve times from the empty board, fresh table, best of 3, with both
/// table keys.
fn solve_times_from_empty() {
    use std::time::Instant;
    for (spec, plain_too) in [
        ("tictactoe", true),
        ("4x4x3", true),
        ("4x4x4", true),
        ("4x4x4-exact", true),
        ("5x4x4", true),
        ("5x5x4", false),
    ] {
        let r = rules(spec);
        for sym in [true, false] {
            if !sym && !plain_too {
                continue;
            }
            let mut best = f64::MAX;
            let mut report = String::new();
            for _ in 0..3 {
                let mut s = Solver::with_limit(r, r.cells()).with_symmetry(sym);
                let t = Instant::now();
                let v = s.value(&Board::new(r)).unwrap();
                best = best.min(t.elapsed().as_secs_f64());
                report = format!("{v}; {}", s.stats());
            }
            let key = if sym { "canonical" } else { "plain" };
            println!("{spec:12} {key:9} key: {:10.3} ms  {report}", best * 1e3);
        }
    }
}
