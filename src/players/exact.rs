//! The exact player (being written).
use super::{Player, PlayerError, Rng};
use crate::game::{Board, Move};

/// A game-theoretic value from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Loss,
    Draw,
    Win,
}

/// Counts gathered while solving.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolverStats {
    pub nodes: u64,
}

/// Solves positions exactly.
pub struct Solver;

/// A perfect player.
pub struct Exact;

impl Player for Exact {
    fn name(&self) -> String {
        "exact".into()
    }
    fn choose(&mut self, _board: &Board, _rng: &mut Rng) -> Result<Move, PlayerError> {
        Err(PlayerError::GameOver)
    }
}
