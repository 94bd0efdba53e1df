//! The exact player: perfect play by solving the game tree to the end.
//!
//! It is the yardstick of the brief's third use: a trained evaluator can be
//! checked against a player that never errs, on boards small enough to
//! solve (tic-tac-toe, 4×4, small rectangles, or the last moves of any game).
//!
//! - [`Value`] is a game-theoretic result, always from the view of the side
//!   to move: [`Value::Loss`] < [`Value::Draw`] < [`Value::Win`].
//! - [`Solver`] computes it with full-depth negamax and alpha-beta over the
//!   three values, plus a transposition table. It refuses positions with
//!   more empty cells than its limit ([`Solver::DEFAULT_LIMIT`] = 16).
//! - [`Exact`] is the [`Player`]: it plays uniformly at random (with the
//!   generator it is given) among the optimal moves.
//! - [`Solver::minimax_value`] is plain minimax (no pruning, no table): slow,
//!   the oracle the tests compare the solver against.
//!
//! # The bound convention
//!
//! A search with window `(alpha, beta)` returns a value `v` (fail-soft) that
//! is only exact when `alpha < v < beta`:
//!
//! - `v <= alpha`: the true value is **at most** `v` (an *upper* bound);
//! - `v >= beta`: the true value is **at least** `v` (a *lower* bound).
//!
//! The table stores each result with that flag, so a cutoff is never reused
//! as an exact value (the defect of the original C++ program). Because
//! `Loss` and `Win` are the extremes, an upper bound of `Loss` and a lower
//! bound of `Win` are stored as exact. A stored bound only ends a later
//! search when it already decides that search's window; otherwise it narrows
//! the window.
//!
//! # The table key
//!
//! The table is keyed by a Zobrist hash of the stones (the solver's own keys)
//! with the side to move mixed in, so set-up positions that do not alternate
//! are still told apart. By default the key is **canonical**: the smallest of
//! the hashes of the position under every symmetry of the board (8 on a
//! square board, 4 on a rectangle), kept up to date incrementally (one XOR per
//! symmetry per move) rather than by [`Board::canonical_hash`], which costs
//! O(cells) per call (about 0.5 µs on 4×4, more than a whole node of the
//! search). Measured on 4×4×4 from empty (release build): canonical keys
//! search 13k nodes in about 2 ms, the plain hash 72k nodes in about 7 ms;
//! on 5×5×4, 4.5 s against 78 s. See
//! [`Solver::with_symmetry`] to switch it off.
//!
//! # Pruning that is exact
//!
//! Before branching, every node checks facts that hold in every line of
//! play, so they never change a value (the first before the table look-up,
//! the others after it):
//!
//! - if neither side has a *live* window it can still fill (k cells in a
//!   line with no stone of the other side, lacking no more stones than that
//!   side has moves left), no one can ever win: a draw;
//! - if the side to move can complete a win now: a win;
//! - if the opponent can complete a win on two cells: a loss (one block is
//!   not enough); on one cell: that block is the only move searched.
//!
//! Moves are then tried in a fixed order: cells on the most lines first,
//! then nearest the centre.
//!
//! ```
//! use mnk_core::game::{Board, Rules};
//! use mnk_core::players::{Solver, Value};
//!
//! let mut solver = Solver::new(Rules::TICTACTOE);
//! let board = Board::new(Rules::TICTACTOE);
//! assert_eq!(solver.value(&board).unwrap(), Value::Draw);
//! // Every first move of tic-tac-toe keeps the draw.
//! assert_eq!(solver.optimal_moves(&board).unwrap().len(), 9);
//!
//! // 4×4 with 3 in a row is a first-player win.
//! let rules = "4x4x3".parse().unwrap();
//! assert_eq!(Solver::new(rules).value(&Board::new(rules)).unwrap(), Value::Win);
//! ```

mod solver;
mod tables;
mod value;

pub use solver::{Solver, SolverStats};
pub use value::Value;

use super::{Player, PlayerError, Rng};
use crate::game::{Board, Move, Rules};
use rand::Rng as _;

/// The perfect player: plays uniformly at random among
/// [`Solver::optimal_moves`], using the generator it is given.
///
/// It keeps its solver's table across moves and games of the same rules,
/// so after the first solve from empty the rest of a game costs little.
///
/// ```
/// use mnk_core::game::{Board, Rules};
/// use mnk_core::players::{Exact, Player, Rng};
/// use rand::SeedableRng;
///
/// let mut board = Board::new(Rules::TICTACTOE);
/// let mut players = [Exact::new(Rules::TICTACTOE), Exact::new(Rules::TICTACTOE)];
/// let mut rng = Rng::seed_from_u64(7);
/// while !board.is_over() {
///     let side = board.ply() % 2;
///     let m = players[side].choose(&board, &mut rng).unwrap();
///     board.play(m).unwrap();
/// }
/// assert_eq!(board.outcome(), Some(mnk_core::game::Outcome::Draw));
/// ```
#[derive(Debug)]
pub struct Exact {
    solver: Solver,
}

impl Exact {
    /// A perfect player with the default limit of
    /// [`Solver::DEFAULT_LIMIT`] empty cells.
    pub fn new(rules: Rules) -> Exact {
        Exact {
            solver: Solver::new(rules),
        }
    }

    /// A perfect player that refuses positions with more than
    /// `max_empty_cells` empty cells.
    pub fn with_limit(rules: Rules, max_empty_cells: usize) -> Exact {
        Exact {
            solver: Solver::with_limit(rules, max_empty_cells),
        }
    }

    /// The solver, for its statistics or values.
    pub fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }
}

impl Player for Exact {
    fn name(&self) -> String {
        "exact".into()
    }

    fn choose(&mut self, board: &Board, rng: &mut Rng) -> Result<Move, PlayerError> {
        if board.is_over() {
            return Err(PlayerError::GameOver);
        }
        let moves = self.solver.optimal_moves(board)?;
        match moves.len() {
            0 => Err(PlayerError::GameOver),
            1 => Ok(moves[0]),
            n => Ok(moves[rng.gen_range(0..n)]),
        }
    }
}
