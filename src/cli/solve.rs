//! `mnk solve`: exact value and optimal moves of a position.

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mnk::game::perft::{self, Progress};
use mnk::game::Rules;
use mnk::players::Solver;
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
    /// The position: moves from the empty board, black first (b2 or 1,1).
    moves: Vec<String>,
}

/// Solves the position and prints its value and optimal moves.
pub fn run(a: Args) -> Result<()> {
    let board = super::position(a.game, &a.moves)?;
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
