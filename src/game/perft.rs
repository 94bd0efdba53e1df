//! Exact enumeration of games and positions, the m,n,k analogue of a
//! chess engine's perft: these counts pin the rules down.

use super::{Board, Color, Outcome};
use std::collections::HashSet;

/// Numbers of complete games by result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameCounts {
    pub black_wins: u64,
    pub white_wins: u64,
    pub draws: u64,
}

impl GameCounts {
    pub fn total(&self) -> u64 {
        self.black_wins + self.white_wins + self.draws
    }
}

/// Counts every complete game (move sequence to a result) from `board`.
pub fn count_games(board: &mut Board) -> GameCounts {
    let mut counts = GameCounts::default();
    walk_games(board, &mut counts);
    counts
}

fn walk_games(board: &mut Board, counts: &mut GameCounts) {
    match board.outcome() {
        Some(Outcome::Win(Color::Black)) => counts.black_wins += 1,
        Some(Outcome::Win(Color::White)) => counts.white_wins += 1,
        Some(Outcome::Draw) => counts.draws += 1,
        None => {
            for m in board.legal_moves() {
                board.play_unchecked(m);
                walk_games(board, counts);
                board.undo();
            }
        }
    }
}

/// Numbers of distinct positions reachable from a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionCounts {
    /// All distinct reachable positions, the start included.
    pub positions: u64,
    /// Those where the game is not over.
    pub non_terminal: u64,
    /// Distinct positions up to the board's symmetries.
    pub up_to_symmetry: u64,
}

/// Counts the distinct positions reachable from `board` (by hash).
pub fn count_positions(board: &mut Board) -> PositionCounts {
    let mut seen = HashSet::new();
    let mut canon = HashSet::new();
    let mut counts = PositionCounts::default();
    walk_positions(board, &mut seen, &mut canon, &mut counts);
    counts
}

fn walk_positions(
    board: &mut Board,
    seen: &mut HashSet<u64>,
    canon: &mut HashSet<u64>,
    counts: &mut PositionCounts,
) {
    if !seen.insert(board.hash()) {
        return;
    }
    counts.positions += 1;
    if canon.insert(board.canonical_hash()) {
        counts.up_to_symmetry += 1;
    }
    if board.is_over() {
        return;
    }
    counts.non_terminal += 1;
    for m in board.legal_moves() {
        board.play_unchecked(m);
        walk_positions(board, seen, canon, counts);
        board.undo();
    }
}
