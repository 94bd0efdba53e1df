//! Solve times of the exact solver from the empty board, each from a fresh
//! table: tic-tac-toe (target < 10 ms) and 4×4×4 (target < 10 s).
//!
//! `cargo bench -p mnk-benches --bench solver`

use criterion::{criterion_group, criterion_main, Criterion};
use mnk::game::{Board, Rules};
use mnk::players::{Solver, Value};
use std::hint::black_box;
use std::time::Duration;

fn solve(rules: Rules, symmetric: bool) -> Value {
    let mut solver = Solver::new(rules).with_symmetry(symmetric);
    solver.value(black_box(&Board::new(rules))).unwrap()
}

fn tictactoe(c: &mut Criterion) {
    let t = Rules::TICTACTOE;
    assert_eq!(solve(t, true), Value::Draw);
    let mut g = c.benchmark_group("solve tictactoe");
    g.measurement_time(Duration::from_secs(3));
    g.bench_function("canonical key", |b| b.iter(|| solve(t, true)));
    g.bench_function("plain key", |b| b.iter(|| solve(t, false)));
    g.finish();
}

fn four_by_four(c: &mut Criterion) {
    let r: Rules = "4x4x4".parse().unwrap();
    assert_eq!(solve(r, true), Value::Draw);
    let mut g = c.benchmark_group("solve 4x4x4");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("canonical key", |b| b.iter(|| solve(r, true)));
    g.bench_function("plain key", |b| b.iter(|| solve(r, false)));
    g.finish();
}

fn exact_player_game(c: &mut Criterion) {
    use mnk::players::{Exact, Player, Rng};
    use rand::SeedableRng;
    let r: Rules = "4x4x4".parse().unwrap();
    let mut g = c.benchmark_group("exact vs exact 4x4x4 game");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("fresh players", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let mut players = [Exact::new(r), Exact::new(r)];
            let mut rng = Rng::seed_from_u64(seed);
            let mut board = Board::new(r);
            while !board.is_over() {
                let m = players[board.ply() % 2].choose(&board, &mut rng).unwrap();
                board.play_unchecked(m);
            }
            board.outcome()
        })
    });
    g.finish();
}

criterion_group!(benches, tictactoe, four_by_four, exact_player_game);
criterion_main!(benches);
