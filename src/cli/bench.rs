//! `mnk bench`: the speed figures the trainer depends on, each beside a
//! baseline measured in the same run, with a spinner (or a line now and
//! then) while a step runs, and `--json` (docs/json/bench.md).

use super::json::say;
use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mnk::arena::{game_rng, play_game};
use mnk::bench::{bench_openings, bench_search, middle_games, search_nodes, signature};
use mnk::eval::{shipped_weights, Evaluator};
use mnk::game::{Board, Rules};
use mnk::players::{Greedy, GreedyDuel, Player, RandomPlayer, Solver};
use mnk::util::Bytes;
use serde::Serialize;
use std::io::IsTerminal;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The flags of `mnk bench`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  mnk bench                      about 10 s; the last line is the signature
  mnk bench --seconds 1          quicker, noisier figures
  mnk bench --full               also solve (4,4,4) from the empty board
  mnk bench --json               the figures as JSON (docs/json/bench.md)

Compare the signature between builds: a change that alters no move or node keeps it.")]
pub struct Args {
    /// Seconds to spend on each game-throughput figure.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Also solve (4,4,4) from the empty board (takes a few seconds).
    #[arg(long)]
    full: bool,
    /// Search depth for the nodes-per-second figure: at 8 a pass is tens
    /// of thousands of nodes, so the rate is the search's own, not the
    /// per-position set-up's (the signature's depth 4 is under a
    /// millisecond a position).
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Away from a terminal, a line on stderr every SECS seconds while a
    /// step runs (0: none). On a terminal a spinner shows it instead.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    progress_every: f64,
    /// Print the figures as one JSON object on stdout (fields:
    /// docs/json/bench.md); every other line goes to stderr.
    #[arg(long)]
    json: bool,
}

/// Runs one step of the bench, `label` saying what it does: under a
/// spinner on stderr when that is a terminal, else with a line on stderr
/// every `every` seconds, so a long step (a solve of minutes) shows it is
/// alive. The spinner's thread wakes a few times a second, too rarely to
/// move the figures.
fn step<T>(label: &str, every: f64, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let (done, wait) = channel::<()>();
    std::thread::scope(|scope| {
        let spinner = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} bench: {wide_msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_message(label.to_string());
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        if spinner.is_none() && every > 0.0 {
            let every = Duration::from_secs_f64(every);
            scope.spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(every) {
                    eprintln!(
                        "bench: {label}: {:.1}s so far",
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
        let out = f();
        drop(done);
        if let Some(s) = spinner {
            s.finish_and_clear();
        }
        out
    })
}

/// `mnk bench --json`'s object (docs/json/bench.md).
#[derive(Serialize, Default)]
struct BenchJson {
    random_games_per_second: f64,
    random_plies_per_game: f64,
    greedy_games_per_second: f64,
    greedy_plies_per_game: f64,
    greedy_plies_per_second: f64,
    cell_updates_per_second: f64,
    tictactoe_solve_ms: f64,
    tictactoe_value: String,
    solve_444_seconds: Option<f64>,
    solve_444_value: Option<String>,
    search_depth: u32,
    search_positions: usize,
    search_nodes_per_second: f64,
    search_nodes: u64,
    search_ms_per_position: f64,
    greedy_player_bytes: u64,
    greedy_duel_bytes: u64,
    search_player_bytes: u64,
    signature: String,
    signature_search_nodes: u64,
    signature_greedy_moves: String,
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
    let (json, every) = (a.json, a.progress_every);
    super::check_progress_every(every)?;
    // 0 measures nothing (NaN figures); a negative or NaN time is no time.
    anyhow::ensure!(
        a.seconds > 0.0 && a.seconds.is_finite(),
        "--seconds {}: give a number of seconds above 0",
        a.seconds
    );
    let mut out = BenchJson {
        search_depth: a.depth,
        ..BenchJson::default()
    };
    say(
        json,
        "mnk bench (one thread unless stated; release build expected)",
    );

    let (rps, rplies, _) = step("random vs random games", every, || {
        games_per_second(rules, &mut RandomPlayer, &mut RandomPlayer, a.seconds / 3.0)
    })?;
    (out.random_games_per_second, out.random_plies_per_game) = (rps, rplies);
    say(
        json,
        format!("baseline  random vs random, 15x15: {rps:>10.0} games/s, {rplies:.1} plies/game"),
    );

    let w = shipped_weights(rules);
    let mut g1 = Greedy::new(w.clone());
    let mut g2 = Greedy::new(w.clone());
    let (gps, plies, sample) = step("greedy vs greedy games", every, || {
        games_per_second(rules, &mut g1, &mut g2, a.seconds)
    })?;
    let updates = gps * plies * cell_updates(rules, &sample);
    (out.greedy_games_per_second, out.greedy_plies_per_game) = (gps, plies);
    (out.greedy_plies_per_second, out.cell_updates_per_second) = (gps * plies, updates);
    say(json, format!(
        "greedy vs greedy, 15x15 gomoku:     {gps:>10.0} games/s, {plies:.1} plies/game, {:.1}M plies/s, {:.0}M cell updates/s",
        gps * plies / 1e6,
        updates / 1e6
    ));
    say(
        json,
        format!(
            "  = {:.2}x random-vs-random games/s; {:.1}x the 10,000 games/s floor",
            gps / rps,
            gps / 10_000.0
        ),
    );

    let mut solver = Solver::new(Rules::TICTACTOE);
    let t = Instant::now();
    let v = solver.value(&Board::new(Rules::TICTACTOE))?;
    let ttt = t.elapsed();
    (out.tictactoe_solve_ms, out.tictactoe_value) = (ttt.as_secs_f64() * 1e3, v.to_string());
    say(
        json,
        format!(
            "solve tic-tac-toe from empty:       {:>10.3} ms ({v}), target < 10 ms",
            ttt.as_secs_f64() * 1e3
        ),
    );
    if a.full {
        let r444: Rules = "4x4x4".parse()?;
        let mut solver = Solver::new(r444);
        let t = Instant::now();
        let v = step("solving (4,4,4) from empty", every, || {
            solver.value(&Board::new(r444))
        })?;
        let secs = t.elapsed().as_secs_f64();
        (out.solve_444_seconds, out.solve_444_value) = (Some(secs), Some(v.to_string()));
        say(
            json,
            format!("solve (4,4,4) from empty:           {secs:>10.3} s ({v}), target < 10 s"),
        );
    } else {
        say(json, "solve (4,4,4): skipped (pass --full)");
    }

    // Fixed middle-game positions: 20 plies of seeded greedy self-play.
    // One pass is a few milliseconds: passes repeat for a third of
    // `--seconds` so that the rate is not one timer tick's noise.
    let positions = middle_games(rules, 16)?;
    let mut search = bench_search(rules, a.depth);
    let t = Instant::now();
    let (mut passes, mut total) = (0u64, 0u64);
    let nodes = step("search", every, || loop {
        let n = search_nodes(&mut search, &positions)?;
        passes += 1;
        total += n;
        if t.elapsed().as_secs_f64() >= a.seconds / 3.0 {
            break anyhow::Ok(n);
        }
    })?;
    let s = t.elapsed().as_secs_f64();
    out.search_positions = positions.len();
    out.search_nodes_per_second = total as f64 / s;
    out.search_nodes = nodes;
    out.search_ms_per_position = s * 1e3 / (passes as f64 * positions.len() as f64);
    say(
        json,
        format!(
            "search depth {} width 9, {} middle games: {:>8.0} nodes/s ({} nodes, {:.2} ms/position)",
            a.depth,
            positions.len(),
            out.search_nodes_per_second,
            nodes,
            out.search_ms_per_position
        ),
    );
    // What a worker holds: its players (and, for two greedy players, the
    // duel they share), measured after the games above.
    let duel = {
        let mut d = GreedyDuel::new(rules);
        d.start(&g1, &g2);
        d.heap_bytes()
    };
    out.greedy_player_bytes = g1.heap_bytes() as u64;
    out.greedy_duel_bytes = duel as u64;
    out.search_player_bytes = search.heap_bytes() as u64;
    say(
        json,
        format!(
            "memory per worker: greedy player {}, greedy duel {}, search player (depth {}) {}",
            Bytes(g1.heap_bytes() as u128),
            Bytes(duel as u128),
            a.depth,
            Bytes(search.heap_bytes() as u128)
        ),
    );
    let sig = step("signature", every, signature)?;
    // Last, so that it is the line to compare between builds.
    say(json, format!("signature: {sig}"));
    if json {
        out.signature = sig.to_string();
        out.signature_search_nodes = sig.search_nodes;
        out.signature_greedy_moves = format!("{:016x}", sig.greedy_moves);
        super::json::print("bench", &out)?;
    }
    Ok(())
}
