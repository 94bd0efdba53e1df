//! `mnk bench`: the speed figures the trainer depends on, each beside a
//! baseline measured in the same run.

use anyhow::Result;
use mnk::arena::{game_rng, play_game};
use mnk::bench::{bench_openings, bench_search, middle_games, search_nodes, signature};
use mnk::eval::{shipped_weights, Evaluator};
use mnk::game::{Board, Rules};
use mnk::players::{Greedy, GreedyDuel, Player, RandomPlayer, Solver};
use mnk::util::Bytes;
use std::time::{Duration, Instant};

/// The flags of `mnk bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Seconds to spend on each game-throughput figure.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Also solve (4,4,4) from the empty board (takes a few seconds).
    #[arg(long)]
    full: bool,
    /// Search depth for the nodes-per-second figure.
    #[arg(long, default_value_t = 4)]
    depth: u32,
}

/// Games per second of `black` vs `white` on one thread for about `secs`,
/// plies per game, and the first games played (for [`cell_updates`]).
fn games_per_second(
    rules: Rules,
    black: &mut dyn Player,
    white: &mut dyn Player,
    secs: f64,
) -> Result<(f64, f64, Vec<Board>)> {
    let openings = bench_openings(rules, 4096);
    let mut board = Board::new(rules);
    let mut sample = Vec::new();
    let start = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    let budget = Duration::from_secs_f64(secs);
    while start.elapsed() < budget {
        for _ in 0..64 {
            let op = &openings[games as usize % openings.len()];
            let mut rng = game_rng(11, &[games]);
            play_game(rules, op, black, white, &mut board, &mut rng)?;
            plies += board.ply() as u64;
            games += 1;
        }
        if sample.len() < 64 {
            sample.push(board.clone());
        }
    }
    let t = start.elapsed().as_secs_f64();
    Ok((games as f64 / t, plies as f64 / games as f64, sample))
}

/// Cell updates (one cell's line code and shapes in one direction) per ply over `games`,
/// counted by replaying them: the evaluator's unit of work, which two
/// greedy players in one game share.
fn cell_updates(rules: Rules, games: &[Board]) -> f64 {
    let mut e = Evaluator::for_cell_scores(shipped_weights(rules));
    let mut plies = 0;
    for b in games {
        e.sync(&Board::new(rules));
        e.sync(b);
        plies += b.ply();
    }
    e.updates() as f64 / plies.max(1) as f64
}

/// Measures and prints each speed beside its baseline.
pub fn run(a: Args) -> Result<()> {
    let rules = Rules::GOMOKU;
    println!("mnk bench (one thread unless stated; release build expected)");

    let (rps, rplies, _) =
        games_per_second(rules, &mut RandomPlayer, &mut RandomPlayer, a.seconds / 3.0)?;
    println!("baseline  random vs random, 15x15: {rps:>10.0} games/s, {rplies:.1} plies/game");

    let w = shipped_weights(rules);
    let mut g1 = Greedy::new(w.clone());
    let mut g2 = Greedy::new(w.clone());
    let (gps, plies, sample) = games_per_second(rules, &mut g1, &mut g2, a.seconds)?;
    let updates = gps * plies * cell_updates(rules, &sample);
    println!(
        "greedy vs greedy, 15x15 gomoku:     {gps:>10.0} games/s, {plies:.1} plies/game, {:.1}M plies/s, {:.0}M cell updates/s",
        gps * plies / 1e6,
        updates / 1e6
    );
    println!(
        "  = {:.2}x random-vs-random games/s; {:.1}x the 10,000 games/s floor",
        gps / rps,
        gps / 10_000.0
    );

    let mut solver = Solver::new(Rules::TICTACTOE);
    let t = Instant::now();
    let v = solver.value(&Board::new(Rules::TICTACTOE))?;
    let ttt = t.elapsed();
    println!(
        "solve tic-tac-toe from empty:       {:>10.3} ms ({v}), target < 10 ms",
        ttt.as_secs_f64() * 1e3
    );
    if a.full {
        let r444: Rules = "4x4x4".parse()?;
        let mut solver = Solver::new(r444);
        let t = Instant::now();
        let v = solver.value(&Board::new(r444))?;
        println!(
            "solve (4,4,4) from empty:           {:>10.3} s ({v}), target < 10 s",
            t.elapsed().as_secs_f64()
        );
    } else {
        println!("solve (4,4,4): skipped (pass --full)");
    }

    // Fixed middle-game positions: 20 plies of seeded greedy self-play.
    // One pass is a few milliseconds: passes repeat for a third of
    // `--seconds` so that the rate is not one timer tick's noise.
    let positions = middle_games(rules, 16)?;
    let mut search = bench_search(rules, a.depth);
    let t = Instant::now();
    let (mut passes, mut total) = (0u64, 0u64);
    let nodes = loop {
        let n = search_nodes(&mut search, &positions)?;
        passes += 1;
        total += n;
        if t.elapsed().as_secs_f64() >= a.seconds / 3.0 {
            break n;
        }
    };
    let s = t.elapsed().as_secs_f64();
    println!(
        "search depth {} width 9, {} middle games: {:>8.0} nodes/s ({} nodes, {:.2} ms/position)",
        a.depth,
        positions.len(),
        total as f64 / s,
        nodes,
        s * 1e3 / (passes as f64 * positions.len() as f64)
    );
    // What a worker holds: its players (and, for two greedy players, the
    // duel they share), measured after the games above.
    let duel = {
        let mut d = GreedyDuel::new(rules);
        d.start(&g1, &g2);
        d.heap_bytes()
    };
    println!(
        "memory per worker: greedy player {}, greedy duel {}, search player (depth {}) {}",
        Bytes(g1.heap_bytes() as u128),
        Bytes(duel as u128),
        a.depth,
        Bytes(search.heap_bytes() as u128)
    );
    // Last, so that it is the line to compare between builds.
    println!("signature: {}", signature()?);
    Ok(())
}
