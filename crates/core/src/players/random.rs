//! The uniformly random player: a baseline and a fuzzing aid.

use super::{Player, PlayerError, Rng};
use crate::game::{Board, Move};
use rand::Rng as _;

/// Plays a uniformly random legal move.
#[derive(Clone, Debug, Default)]
pub struct RandomPlayer;

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, board: &Board, rng: &mut Rng) -> Result<Move, PlayerError> {
        if board.is_over() {
            return Err(PlayerError::GameOver);
        }
        let n = rng.gen_range(0..board.empty_count());
        let i = board
            .cells()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_empty())
            .nth(n)
            .map(|(i, _)| i)
            .ok_or(PlayerError::GameOver)?;
        Ok(board.rules().move_at(i))
    }
}
