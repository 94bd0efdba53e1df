//! The static player: scores every empty cell with the weights and plays
//! the best one.

use super::{argmax_random, Player, PlayerError, Rng};
use crate::eval::{Evaluator, Weights};
use crate::game::{Board, Move};

/// Plays the empty cell with the highest score
/// (`attack × attack value + defence × defence value`), ties at random.
#[derive(Clone, Debug)]
pub struct Greedy {
    eval: Evaluator,
    name: String,
}

impl Greedy {
    /// A greedy player on `weights`, named `greedy`.
    pub fn new(weights: Weights) -> Greedy {
        Greedy {
            eval: Evaluator::for_cell_scores(weights),
            name: "greedy".into(),
        }
    }

    /// Sets the name shown in reports.
    pub fn named(mut self, name: impl Into<String>) -> Greedy {
        self.name = name.into();
        self
    }

    /// The evaluator, synced to the last position this player saw.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }
}

impl Player for Greedy {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, board: &Board, rng: &mut Rng) -> Result<Move, PlayerError> {
        if board.is_over() {
            return Err(PlayerError::GameOver);
        }
        self.eval.sync(board);
        let i =
            argmax_random(self.eval.scores(board.to_move()), rng).ok_or(PlayerError::GameOver)?;
        Ok(board.rules().move_at(i))
    }
}
