//! `mnk solve`: exact value and optimal moves of a position, or, with
//! `--vcf`/`--vct`, whether the side to move wins by threats on any board.

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mnk::eval::{shipped_weights, Evaluator};
use mnk::game::perft::{self, Progress};
use mnk::game::{Board, Move, Rules};
use mnk::players::Solver;
use mnk::threats::{check_line, Mode, ThreatSearch, Verdict};
use std::time::{Duration, Instant};

/// The flags of `mnk solve`.
#[derive(clap::Args, Debug)]
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
    /// The position: moves from the empty board, black first (b2 or 1,1).
    moves: Vec<String>,
}

/// Solves the position and prints its value and optimal moves.
pub fn run(a: Args) -> Result<()> {
    let board = super::position(a.game, &a.moves)?;
    if a.vcf || a.vct {
        let mode = if a.vcf { Mode::Vcf } else { Mode::Vct };
        return threat_solve(&board, mode, a.budget, a.depth);
    }
    // Refuse a count that cannot finish before solving anything.
    if a.stats && !board.is_over() {
        let est = perft::estimate(&board);
        if !est.fits() {
            return Err(perft::PerftError::TooLarge(est).into());
        }
    }
    print!("{board}");
    if let Some(o) = board.outcome() {
        println!("the game is over: {o}");
        return Ok(());
    }
    let mover = board.to_move();
    let mut solver = Solver::with_limit(a.game, a.limit);
    let t = Instant::now();
    let value = solver.value(&board)?;
    let moves = solver.optimal_moves(&board)?;
    let elapsed = t.elapsed();
    let list: Vec<String> = moves
        .iter()
        .map(|m| format!("{m} ({})", m.to_xy()))
        .collect();
    println!("{} to move: {} with perfect play", mover, value);
    println!("optimal moves: {}", list.join(", "));
    let st = solver.stats();
    println!(
        "solved in {:.3} ms, {} nodes, {} table entries",
        elapsed.as_secs_f64() * 1e3,
        st.nodes,
        st.entries
    );
    if a.stats {
        let mut bar = LateBar::new();
        let c = perft::count_with_progress(&board, |p| bar.update(p))?;
        bar.finish();
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
fn threat_solve(board: &Board, mode: Mode, budget: u64, depth: u32) -> Result<()> {
    print!("{board}");
    if let Some(o) = board.outcome() {
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
    match verdict {
        Verdict::Win { plies, .. } => {
            let line = search.line(&mut eval, board.hash(), mover);
            // The line is replayed on a plain board before it is shown.
            check_line(board, mover, mode, &line).map_err(|e| {
                anyhow::anyhow!("internal error: the {what} line fails its check: {e}")
            })?;
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
