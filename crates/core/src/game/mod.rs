//! The rules of m,n,k games: board geometry, move legality, win detection,
//! Zobrist hashing, symmetries and exact move-path enumeration (perft).
//!
//! Everything above this module (evaluation, players, arenas, training) is
//! built on [`Board`], which only knows the rules; it has no notion of
//! weights or strategy.

mod board;
mod moves;
pub mod perft;
mod rules;
mod symmetry;
mod zobrist;

pub use board::{Board, PlayError};
pub use moves::{Cell, CellParseError, Color, Move, MoveParseError, Outcome};
pub use rules::{Rule, Rules, RulesError, MAX_SIDE, MIN_SIDE};
pub use symmetry::Symmetry;
pub use zobrist::{splitmix64, stone_key, KeyHasher};
