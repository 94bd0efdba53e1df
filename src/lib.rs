//! mnk: train, check and play pattern-weight evaluators for k-in-a-row
//! games.
//!
//! Data flows one way: [`game`] (rules) → [`eval`] (shapes, weights, the
//! incremental evaluator) → [`players`] → [`arena`] (games, matches,
//! statistics) → [`train`] → [`plot`]. The front ends ([`play`],
//! [`brain`], [`cli`]) parse, call the library and print.

pub mod arena;
pub mod brain;
pub mod cli;
pub mod eval;
pub mod game;
pub mod play;
pub mod players;
pub mod plot;
pub mod records;
pub mod train;
pub mod util;
