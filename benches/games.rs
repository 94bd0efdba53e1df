//! Criterion benchmarks of the hot path: greedy self-play on 15×15 (two
//! greedy players share one set of shapes; the same players on their own
//! evaluators, for the ratio) and a random-player baseline measured in the
//! same run, depth-2 search games and the search player's per-game reset.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mnk::arena::{game_rng, play_game, random_openings, Opening, OpeningStyle};
use mnk::eval::shipped_weights;
use mnk::game::{Board, Outcome, Rules};
use mnk::players::{Greedy, Player, PlayerError, RandomPlayer, Rng, Search, SearchLimits};

/// A greedy player that does not say it is one, so that games take the
/// general path: each player keeps its own evaluator.
#[derive(Debug)]
struct Alone(Greedy);

impl Player for Alone {
    fn name(&self) -> String {
        self.0.name()
    }
    fn choose(&mut self, board: &Board, rng: &mut Rng) -> Result<mnk::game::Move, PlayerError> {
        self.0.choose(board, rng)
    }
}

/// Plays the next game of the benchmark: a fresh opening and seed each call.
fn next_game(
    openings: &[Opening],
    n: &mut u64,
    black: &mut dyn Player,
    white: &mut dyn Player,
    board: &mut Board,
) -> Outcome {
    *n += 1;
    let op = &openings[*n as usize % openings.len()];
    play_game(
        Rules::GOMOKU,
        op,
        black,
        white,
        board,
        &mut game_rng(2, &[*n]),
    )
    .unwrap()
}

fn games(c: &mut Criterion) {
    let rules = Rules::GOMOKU;
    let openings = random_openings(
        rules,
        OpeningStyle::default_for(rules),
        256,
        &mut game_rng(1, &[0]),
    );
    let mut board = Board::new(rules);
    let mut n = 0u64;
    let w = shipped_weights(rules);

    let mut g = c.benchmark_group("15x15 game");
    g.throughput(Throughput::Elements(1));
    let (mut a, mut b) = (Greedy::new(w.clone()), Greedy::new(w.clone()));
    g.bench_function("greedy vs greedy", |bench| {
        bench.iter(|| next_game(&openings, &mut n, &mut a, &mut b, &mut board))
    });
    let (mut a, mut b) = (Alone(Greedy::new(w.clone())), Alone(Greedy::new(w.clone())));
    g.bench_function("greedy vs greedy, own evaluators", |bench| {
        bench.iter(|| next_game(&openings, &mut n, &mut a, &mut b, &mut board))
    });
    let (mut a, mut b) = (RandomPlayer, RandomPlayer);
    g.bench_function("random vs random (baseline)", |bench| {
        bench.iter(|| next_game(&openings, &mut n, &mut a, &mut b, &mut board))
    });
    g.finish();

    let mut s = c.benchmark_group("search");
    s.sample_size(10);
    let depth2 = SearchLimits {
        depth: 2,
        ..Default::default()
    };
    let (mut a, mut b) = (
        Search::new(w.clone(), depth2.clone()),
        Search::new(w, depth2),
    );
    s.bench_function("depth-2 search game", |bench| {
        bench.iter(|| next_game(&openings, &mut n, &mut a, &mut b, &mut board))
    });
    // What a new game costs the search player: its table (2^16 entries,
    // 1.5 MiB) is aged by a generation byte, not cleared.
    s.bench_function("search new_game", |bench| bench.iter(|| a.new_game()));
    s.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
