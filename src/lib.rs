//! mnk: train, check and play pattern-weight evaluators for k-in-a-row
//! games.
//!
//! Data flows one way: [`game`] (rules) → [`eval`] (shapes, weights, the
//! incremental evaluator) → [`players`] → [`arena`] (games, matches,
//! statistics) → [`train`] → [`plot`]. The front ends ([`play`],
//! [`brain`], [`records`]) are libraries too; the command line that parses
//! flags, calls them and prints is the `mnk` binary (`src/main.rs`,
//! `src/cli/`), the only place that knows clap or anyhow.

// Every public item says what it is, and every public type can be printed
// with {:?}: both are part of the API (and `cargo clippy -D warnings` in
// .ci/run makes them errors).
#![warn(missing_docs, missing_debug_implementations)]

pub mod arena;
pub mod bench;
pub mod brain;
pub mod cluster;
pub mod eval;
pub mod game;
pub mod openings;
pub mod play;
pub mod players;
pub mod plot;
pub mod records;
#[cfg(feature = "serve")]
pub mod serve;
pub mod threats;
pub mod train;
pub mod util;
