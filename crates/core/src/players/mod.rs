//! Players: everything that picks a move. All of them are deterministic
//! given the random generator they are handed (ties are broken by it, never
//! by the clock), so a game is a pure function of its seed.
//!
//! - [`Greedy`]: the static player of the brief (best cell score, chosen as
//!   [`argmax_random`] would); [`GreedyDuel`]: two of them in one game on one
//!   shared set of shapes, the same moves for half the work.
//! - [`Search`]: negamax alpha-beta over the best cells, iterative deepening,
//!   a transposition table with sound bounds.
//! - [`Exact`]: a perfect player for boards small enough to solve.
//! - [`RandomPlayer`]: uniform over legal moves.
//!
//! The search's table and the solver's share one vocabulary ([`Bound`],
//! [`MATE_BOUND`], [`describe_score`]) from `tt.rs`, which also sizes
//! tables to the memory available ([`check_tables`]).
//!
//! [`PlayerSpec`] parses the command-line form (`greedy:weights/gomoku.toml`,
//! `search:depth=4,width=9,weights=…`) and builds players.

mod argmax;
mod exact;
mod greedy;
mod random;
mod search;
mod spec;
mod tt;

pub use argmax::{argmax_keyed, argmax_random};
pub use exact::{Exact, Solver, SolverStats, Value};
pub use greedy::{Greedy, GreedyDuel};
pub use random::RandomPlayer;
pub use search::{Proof, Search, SearchInfo, SearchLimits};
pub use spec::{PlayerKind, PlayerSpec, SpecError, EXACT_LIMIT};
pub use tt::{
    available_memory, check_tables, describe_score, ensure_tables, table_bytes, Bound, TableError,
    CHECKED_TABLE_BYTES, MATE_BOUND, TT_ENTRY_BYTES, UNPROVEN_BOUND, UNPROVEN_SHIFT,
};

use crate::game::{Board, Move};
use rand_xoshiro::Xoshiro256PlusPlus;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The seeded generator every random choice uses.
pub type Rng = Xoshiro256PlusPlus;

/// Why a player could not move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The position is finished (or the board is full).
    #[error("the game is over: there is no move to make")]
    GameOver,
    /// The position has more empty cells than the exact player's limit;
    /// the text says how many and how to raise it.
    #[error("the exact player cannot solve this position: {0}")]
    TooLarge(String),
}

/// Anything that picks a move for the side to move.
pub trait Player: Send + std::fmt::Debug {
    /// A short description for reports (the spec it was built from).
    fn name(&self) -> String;

    /// Picks a legal move in a position that is not over.
    fn choose(&mut self, board: &Board, rng: &mut Rng) -> Result<Move, PlayerError>;

    /// Forgets per-game state (caches may be kept).
    fn new_game(&mut self) {}

    /// This player as a greedy player, if it is one: two of them in one
    /// game can share the game's shapes ([`GreedyDuel`]).
    fn as_greedy(&self) -> Option<&Greedy> {
        None
    }

    /// What the last [`Player::choose`] found, for a player that searches
    /// (depth, nodes, score), to show beside its move.
    fn search_info(&self) -> Option<&SearchInfo> {
        None
    }

    /// Lets another thread cut this player's thinking short: once `stop`
    /// holds `true`, [`Player::choose`] returns the best move found so far
    /// (a search player finishes depth 1 first). Players that answer at
    /// once ignore it. `None` removes the flag.
    fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        let _ = stop;
    }
}
