//! mnk: train, check and play pattern-weight evaluators for k-in-a-row
//! games.
//!
//! The rules, evaluator, threat search, players and matches live in the
//! core crate, `mnk_core`, re-exported here under the same names:
//! [`game`] → [`eval`] → [`threats`] → [`players`] → [`arena`]. This crate
//! builds on them, data still flowing one way: [`train`] → [`plot`], and
//! the front ends ([`play`], [`brain`], [`records`]). `mnk serve`'s web
//! server is the `mnk-serve` crate (`crates/serve/`), built on this one.
//! The command line that parses flags, calls them and prints is the `mnk`
//! binary (`src/main.rs`, `src/cli/`), the only place that knows clap or
//! anyhow.

// Every public item says what it is, and every public type can be printed
// with {:?}: both are part of the API (and `cargo clippy -D warnings` in
// .ci/run makes them errors).
#![warn(missing_docs, missing_debug_implementations)]

// The core crate's modules, under the paths every user of mnk knows.
pub use mnk_core::{arena, bench, eval, game, players, threats, util};
// Terminal play and game records, a crate of their own (mnk-play,
// `crates/play/`) only for its optimisation level.
pub use mnk_play::{play, records};

pub mod brain;
pub mod cluster;
pub mod openings;
pub mod plot;
pub mod train;
