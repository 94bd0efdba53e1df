//! The threat search's speed on positions from real games: the final
//! positions of `tests/data/must_stop_vct.txt` (mined from `mnk brain`
//! self-play), where the side not to move wins by continuous threats. Each
//! search starts from a fresh table, as the root's checks start from one a
//! move; `tests/it/threats.rs` pins the same searches' node counts.
//!
//! `cargo bench -p mnk-benches --bench threats`

use criterion::{criterion_group, criterion_main, Criterion};
use mnk::eval::{shipped_weights, Evaluator};
use mnk::game::{Board, Move, Rules};
use mnk::threats::{Mode, ThreatSearch, Verdict};
use std::time::Duration;

/// The final positions of a must-stop file.
fn positions(text: &str) -> Vec<Board> {
    let rules = Rules::GOMOKU;
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter(|moves| !moves.trim().is_empty())
        .map(|moves| {
            let mut board = Board::new(rules);
            for m in moves.split_whitespace() {
                board.play(m.parse::<Move>().unwrap()).unwrap();
            }
            board
        })
        .collect()
}

/// `mode` searches for the side not to move in each of `boards`; the
/// number of wins found.
fn solve_all(boards: &[Board], mode: Mode, depth: u32, budget: u64) -> usize {
    let rules = Rules::GOMOKU;
    let mut search = ThreatSearch::new(rules, 20);
    let mut eval = Evaluator::new(shipped_weights(rules));
    boards
        .iter()
        .filter(|board| {
            eval.sync(board);
            search.clear();
            let attacker = board.to_move().opponent();
            let v = search.solve(&mut eval, board.hash(), attacker, mode, depth, budget);
            matches!(v, Verdict::Win { .. })
        })
        .count()
}

fn threats(c: &mut Criterion) {
    let vct = positions(include_str!("../tests/data/must_stop_vct.txt"));
    let vcf = positions(include_str!("../tests/data/must_stop_vcf.txt"));
    let mut g = c.benchmark_group("threat search, must-stop positions");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("vct depth 6, 20k nodes", |b| {
        b.iter(|| solve_all(&vct, Mode::Vct, 6, 20_000))
    });
    g.bench_function("vcf, 20k nodes", |b| {
        b.iter(|| solve_all(&vcf, Mode::Vcf, 0, 20_000))
    });
    g.finish();
}

criterion_group!(benches, threats);
criterion_main!(benches);
