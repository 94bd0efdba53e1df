//! `mnk solve`: exact value and optimal moves of a position, or, with
//! `--vcf`/`--vct`, whether the side to move wins by threats on any board.
//! The optimal moves are marked on the board; `--json` prints one object
//! instead (docs/json/solve.md). A long solve shows its node count on
//! stderr while it runs.

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mnk::eval::{shipped_weights, Evaluator};
use mnk::game::perft::{self, Progress};
use mnk::game::{Board, Move, Rules};
use mnk::players::Solver;
use mnk::threats::{check_line, Mode, ThreatSearch, Verdict};
use serde::Serialize;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// The flags of `mnk solve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  mnk solve                             tic-tac-toe from empty: a draw, every move optimal
  mnk solve b2 b1                       after X b2, O b1: X wins; * marks the winning moves
  mnk solve -g 4x4x3 --stats            also count the games and positions from here
  mnk solve -g 5x5x4 --limit 25         25 empty cells: seconds, with progress on stderr
  mnk solve -g gomoku --vcf h8 i9 h9 i10 h10
                                        can black win by continuous fours?
  mnk solve --json b2                   for scripts (docs/json/solve.md)")]
pub struct Args {
    /// The game: tictactoe, or a small WxHxK such as 4x4x3.
    #[arg(long, short, default_value = "tictactoe")]
    game: Rules,
    /// Also count the games and distinct positions reachable from here.
    #[arg(long)]
    stats: bool,
    /// Refuse positions with more empty cells than this.
    #[arg(long, default_value_t = 16)]
    limit: usize,
    /// Instead of solving exactly: can the side to move win by continuous
    /// fours (any board)? Prints the winning line.
    #[arg(long, conflicts_with_all = ["vct", "stats"])]
    vcf: bool,
    /// Like --vcf, with threes as well as fours (every defence searched).
    #[arg(long, conflicts_with = "stats")]
    vct: bool,
    /// With --vcf/--vct: give up after this many nodes.
    #[arg(long, default_value_t = 10_000_000, value_name = "NODES",
          value_parser = clap::value_parser!(u64).range(1..))]
    budget: u64,
    /// With --vct: at most this many attacker moves (1 to 254).
    #[arg(long, default_value_t = 12, value_name = "MOVES",
          value_parser = clap::value_parser!(u32).range(1..=254))]
    depth: u32,
    /// Print one JSON object (fields in docs/json/solve.md) instead of text.
    #[arg(long)]
    json: bool,
    /// The position: moves from the empty board, black first (b2 or 1,1).
    moves: Vec<String>,
}

/// The JSON output of `mnk solve` (docs/json/solve.md).
#[derive(Serialize, Default)]
struct SolveJson {
    game: String,
    moves: Vec<String>,
    to_move: String,
    mode: &'static str,
    outcome: Option<String>,
    value: Option<String>,
    optimal_moves: Vec<String>,
    verdict: Option<&'static str>,
    plies: Option<u32>,
    line: Vec<String>,
    nodes: u64,
    table_entries: Option<usize>,
    millis: f64,
    stats: Option<StatsJson>,
}

/// `--stats` in the JSON output.
#[derive(Serialize)]
struct StatsJson {
    games: u64,
    black_wins: u64,
    white_wins: u64,
    draws: u64,
    positions: u64,
    non_terminal: u64,
    up_to_symmetry: u64,
}

impl SolveJson {
    /// The fields every mode shares.
    fn of(board: &Board, mode: &'static str) -> SolveJson {
        SolveJson {
            game: board.rules().to_string(),
            moves: board.moves().map(|m| m.to_string()).collect(),
            to_move: board.to_move().to_string(),
            mode,
            outcome: board.outcome().map(|o| o.to_string()),
            ..SolveJson::default()
        }
    }
}

/// A duration in milliseconds, to the microsecond (more digits are noise).
fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// Optimal moves listed in words up to this many; the board marks them all.
const LISTED: usize = 6;

/// Solves the position and prints its value and optimal moves.
pub fn run(a: Args) -> Result<()> {
    let board = super::position(a.game, &a.moves)?;
    if a.vcf || a.vct {
        let mode = if a.vcf { Mode::Vcf } else { Mode::Vct };
        return threat_solve(&board, mode, a.budget, a.depth, a.json);
    }
    // Refuse a count that cannot finish before solving anything.
    if a.stats && !board.is_over() {
        let est = perft::estimate(&board);
        if !est.fits() {
            return Err(perft::PerftError::TooLarge(est).into());
        }
    }
    let mut json = SolveJson::of(&board, "exact");
    if let Some(o) = board.outcome() {
        if a.json {
            return super::json::print("solve", &json);
        }
        print!("{board}");
        println!("the game is over: {o}");
        return Ok(());
    }
    let mover = board.to_move();
    // Said here in terms of the flag: the library's refusal names the
    // player spec `exact:limit=N`, which `solve` does not take.
    let empty = board.empty_count();
    if empty > a.limit {
        anyhow::bail!(
            "the position has {empty} empty cells, more than --limit {}: solving time grows \
             several-fold with each empty cell (16 cells take milliseconds, 25 seconds, 30 \
             minutes); pass --limit {empty} to solve it anyway",
            a.limit
        );
    }
    let mut solver = Solver::with_limit(a.game, a.limit);
    let t = Instant::now();
    let counter = solver.progress();
    let (value, moves) = with_progress(&counter, || -> Result<_> {
        Ok((solver.value(&board)?, solver.optimal_moves(&board)?))
    })?;
    let elapsed = t.elapsed();
    let st = solver.stats();
    let stats = if a.stats {
        let mut bar = LateBar::new();
        let c = perft::count_with_progress(&board, |p| bar.update(p))?;
        bar.finish();
        Some(c)
    } else {
        None
    };
    if a.json {
        json.value = Some(value.to_string());
        json.optimal_moves = moves.iter().map(|m| m.to_string()).collect();
        json.nodes = st.nodes;
        json.table_entries = Some(st.entries);
        json.millis = millis(elapsed);
        json.stats = stats.map(|c| StatsJson {
            games: c.games.total(),
            black_wins: c.games.black_wins,
            white_wins: c.games.white_wins,
            draws: c.games.draws,
            positions: c.positions.positions,
            non_terminal: c.positions.non_terminal,
            up_to_symmetry: c.positions.up_to_symmetry,
        });
        return super::json::print("solve", &json);
    }
    print!(
        "{}",
        board.render_marked(|m| moves.contains(&m).then_some('*'))
    );
    println!("{} to move: {} with perfect play", mover, value);
    if moves.len() <= LISTED {
        let list: Vec<String> = moves
            .iter()
            .map(|m| format!("{m} ({})", m.to_xy()))
            .collect();
        println!("optimal moves (marked *): {}", list.join(", "));
    } else {
        println!("optimal moves: {}, marked * on the board", moves.len());
    }
    println!(
        "solved in {:.3} ms, {} nodes, {} table entries",
        elapsed.as_secs_f64() * 1e3,
        st.nodes,
        st.entries
    );
    if let Some(c) = stats {
        let (g, p) = (c.games, c.positions);
        println!(
            "games from here: {} ({} black wins, {} white wins, {} draws)",
            g.total(),
            g.black_wins,
            g.white_wins,
            g.draws
        );
        println!(
            "positions from here: {} ({} non-terminal, {} up to symmetry)",
            p.positions, p.non_terminal, p.up_to_symmetry
        );
    }
    Ok(())
}

/// `solve --vcf` / `--vct`: the verdict, and a win's line on the board.
fn threat_solve(board: &Board, mode: Mode, budget: u64, depth: u32, json: bool) -> Result<()> {
    let mut out = SolveJson::of(board, if mode == Mode::Vcf { "vcf" } else { "vct" });
    if let Some(o) = board.outcome() {
        if json {
            return super::json::print("solve", &out);
        }
        print!("{board}");
        println!("the game is over: {o}");
        return Ok(());
    }
    let rules = *board.rules();
    let mover = board.to_move();
    let mut eval = Evaluator::new(shipped_weights(rules));
    eval.sync(board);
    let mut search = ThreatSearch::new(rules, 22);
    let t = Instant::now();
    let verdict = search.solve(&mut eval, board.hash(), mover, mode, depth, budget);
    let (elapsed, nodes) = (t.elapsed(), search.nodes());
    let took = format!("{nodes} nodes, {:.3} ms", elapsed.as_secs_f64() * 1e3);
    let what = mode.to_string().to_uppercase();
    // A win's line is replayed on a plain board before it is shown.
    let line = match verdict {
        Verdict::Win { .. } => {
            let line = search.line(&mut eval, board.hash(), mover);
            check_line(board, mover, mode, &line).map_err(|e| {
                anyhow::anyhow!("internal error: the {what} line fails its check: {e}")
            })?;
            line
        }
        Verdict::NoWin | Verdict::Unknown => Vec::new(),
    };
    if json {
        out.nodes = nodes;
        out.millis = millis(elapsed);
        out.verdict = Some(match verdict {
            Verdict::Win { plies, .. } => {
                out.plies = Some(plies);
                out.line = line.iter().map(|m| m.to_string()).collect();
                "win"
            }
            Verdict::NoWin => "none",
            Verdict::Unknown => "unknown",
        });
        return super::json::print("solve", &out);
    }
    print!("{board}");
    match verdict {
        Verdict::Win { plies, .. } => {
            println!("{mover} to move wins by {what} in {plies} plies ({took})");
            let text: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            println!("line: {}", text.join(" "));
            print!("{}", numbered(board, &line));
        }
        Verdict::NoWin => {
            let scope = match mode {
                Mode::Vcf => String::new(),
                Mode::Vct => format!(" within {depth} attacker moves"),
            };
            println!("{mover} to move has no {what}{scope} ({took})");
        }
        Verdict::Unknown => {
            println!(
                "{mover} to move: no {what} found within {budget} nodes (unknown; raise --budget)"
            );
        }
    }
    Ok(())
}

/// The board with the line's moves numbered in order (1–9, then a–z).
fn numbered(board: &Board, line: &[Move]) -> String {
    board.render_marked(|m| {
        line.iter().position(|&l| l == m).map(|i| match i {
            0..9 => (b'1' + i as u8) as char,
            9..35 => (b'a' + (i - 9) as u8) as char,
            _ => '*',
        })
    })
}

/// Runs `work` while another thread shows `nodes` on stderr: after a
/// second, a spinner on a terminal; elsewhere (a log), a line every few
/// seconds. Quick solves show nothing.
fn with_progress<T>(nodes: &AtomicU64, work: impl FnOnce() -> T) -> T {
    // Dropping the sender wakes the watcher at once, so a quick solve is
    // not held up by its sleep.
    let (done, stop) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            let start = Instant::now();
            let terminal = std::io::stderr().is_terminal();
            let mut bar: Option<ProgressBar> = None;
            let mut next_line = LOG_EVERY;
            while let Err(RecvTimeoutError::Timeout) = stop.recv_timeout(Duration::from_millis(50))
            {
                let elapsed = start.elapsed();
                let n = nodes.load(Ordering::Relaxed);
                if terminal && elapsed >= Duration::from_secs(1) {
                    let bar = bar.get_or_insert_with(|| {
                        let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                        b.set_style(
                            ProgressStyle::with_template("{spinner} solving {elapsed}: {msg}")
                                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                        );
                        b.enable_steady_tick(Duration::from_millis(200));
                        b
                    });
                    bar.set_message(format!("{n} nodes"));
                } else if !terminal && elapsed >= next_line {
                    eprintln!("solving: {n} nodes, {} s", elapsed.as_secs());
                    next_line += LOG_EVERY;
                }
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        let out = work();
        drop(done);
        out
    })
}

/// How often a solve reports its progress when stderr is not a terminal.
const LOG_EVERY: Duration = Duration::from_secs(2);

/// A progress bar on stderr that appears only once the count has taken a
/// second (and only on a terminal: indicatif draws nothing otherwise).
struct LateBar {
    start: Instant,
    bar: Option<ProgressBar>,
}

impl LateBar {
    fn new() -> LateBar {
        LateBar {
            start: Instant::now(),
            bar: None,
        }
    }

    fn update(&mut self, p: Progress) {
        if self.bar.is_none() && self.start.elapsed() >= Duration::from_secs(1) {
            let bar =
                ProgressBar::with_draw_target(Some(p.plies as u64), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "counting {elapsed_precise} [{bar:30}] ply {pos}/{len}, {msg} positions",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(p.ply as u64);
            bar.set_message(p.positions.to_string());
        }
    }

    fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
