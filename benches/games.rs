//! Criterion benchmarks of the hot path: greedy self-play on 15×15 and a
//! random-player baseline measured in the same run.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mnk::arena::{game_rng, play_game, random_openings, OpeningStyle};
use mnk::eval::shipped_weights;
use mnk::game::{Board, Rules};
use mnk::players::{Greedy, RandomPlayer, Search, SearchLimits};

fn games(c: &mut Criterion) {
    let rules = Rules::GOMOKU;
    let openings = random_openings(
        rules,
        OpeningStyle::default_for(rules),
        256,
        &mut game_rng(1, &[0]),
    );
    let mut board = Board::new(rules);
    let mut g = c.benchmark_group("15x15 game");
    g.throughput(Throughput::Elements(1));
    let w = shipped_weights(rules);
    let (mut a, mut b) = (Greedy::new(w.clone()), Greedy::new(w.clone()));
    let mut n = 0u64;
    g.bench_function("greedy vs greedy", |bench| {
        bench.iter(|| {
            n += 1;
            let op = &openings[n as usize % openings.len()];
            play_game(
                rules,
                op,
                &mut a,
                &mut b,
                &mut board,
                &mut game_rng(2, &[n]),
            )
            .unwrap()
        })
    });
    g.bench_function("random vs random (baseline)", |bench| {
        bench.iter(|| {
            n += 1;
            let op = &openings[n as usize % openings.len()];
            play_game(
                rules,
                op,
                &mut RandomPlayer,
                &mut RandomPlayer,
                &mut board,
                &mut game_rng(2, &[n]),
            )
            .unwrap()
        })
    });
    g.finish();
    let mut s = c.benchmark_group("search");
    s.sample_size(10);
    let (mut a, mut b) = (
        Search::new(
            w.clone(),
            SearchLimits {
                depth: 2,
                ..Default::default()
            },
        ),
        Search::new(
            w,
            SearchLimits {
                depth: 2,
                ..Default::default()
            },
        ),
    );
    s.bench_function("depth-2 search game", |bench| {
        bench.iter(|| {
            n += 1;
            let op = &openings[n as usize % openings.len()];
            play_game(
                rules,
                op,
                &mut a,
                &mut b,
                &mut board,
                &mut game_rng(2, &[n]),
            )
            .unwrap()
        })
    });
    s.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
