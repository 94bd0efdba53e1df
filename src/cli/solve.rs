//! `mnk solve`: exact value and optimal moves of a position.

use crate::game::perft::{count_games, count_positions};
use crate::game::Rules;
use crate::players::Solver;
use anyhow::Result;
use std::time::Instant;

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

pub fn run(a: Args) -> Result<()> {
    let mut board = super::position(a.game, &a.moves)?;
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
        let g = count_games(&mut board);
        let p = count_positions(&mut board);
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
