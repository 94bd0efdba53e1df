//! VCF and VCT solver speed on the puzzle set of the tests
//! (`tests/data/threat_puzzles.txt`): for each puzzle, the verdict for the
//! side to move, its plies, the nodes searched and the best of 3 times,
//! by VCF and by VCT (depth 8 attacker moves, budget 1e6 nodes).
//!
//! `cargo run --release --example threat_times`

use mnk::eval::{shipped_weights, Evaluator};
use mnk::game::{Board, Move, Rules};
use mnk::threats::{Mode, ThreatSearch, Verdict};
use std::time::Instant;

const PUZZLES: &str = include_str!("../tests/data/threat_puzzles.txt");
const DEPTH: u32 = 8;
const BUDGET: u64 = 1_000_000;

fn main() {
    println!(
        "{:<38} {:>5} {:>5} {:>8} {:>9}   {:>5} {:>5} {:>8} {:>9}",
        "puzzle", "vcf", "plies", "nodes", "ms", "vct", "plies", "nodes", "ms"
    );
    for line in PUZZLES.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let moves: Vec<Move> = f[3]
            .split_whitespace()
            .map(|s| s.parse().expect("a move"))
            .collect();
        let board = Board::from_moves(Rules::GOMOKU, &moves).expect("a legal puzzle");
        let mut cols = Vec::new();
        for mode in [Mode::Vcf, Mode::Vct] {
            let (verdict, nodes, ms) = time(&board, mode);
            let (what, plies) = match verdict {
                Verdict::Win { plies, .. } => ("win", plies.to_string()),
                Verdict::NoWin => ("no", "-".into()),
                Verdict::Unknown => ("?", "-".into()),
            };
            cols.push(format!("{what:>5} {plies:>5} {nodes:>8} {ms:>9.3}"));
        }
        println!("{:<38} {}   {}", f[0], cols[0], cols[1]);
    }
}

/// The verdict, nodes, and best of 3 times in milliseconds (a fresh table
/// each time, so that no run reuses another's work).
fn time(board: &Board, mode: Mode) -> (Verdict, u64, f64) {
    let rules = *board.rules();
    let mut best = f64::INFINITY;
    let mut out = (Verdict::Unknown, 0);
    for _ in 0..3 {
        let mut eval = Evaluator::new(shipped_weights(rules));
        eval.sync(board);
        let mut ts = ThreatSearch::new(rules, 20);
        let t = Instant::now();
        let v = ts.solve(
            &mut eval,
            board.hash(),
            board.to_move(),
            mode,
            DEPTH,
            BUDGET,
        );
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        out = (v, ts.nodes());
    }
    (out.0, out.1, best)
}
