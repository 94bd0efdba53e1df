//! mnk-core: the rules, evaluator, threat search, players and matches of
//! mnk, the tool that trains pattern-weight evaluators for k-in-a-row
//! games.
//!
//! Data flows one way: [`game`] (rules) → [`eval`] (shapes, weights, the
//! incremental evaluator) → [`threats`] (VCF/VCT proofs) → [`players`] →
//! [`arena`] (games, matches, statistics, external brains), with [`bench`](mod@bench)
//! (the fixed benchmark and its signature) on top.
//!
//! This crate knows no command line, no plotting and no web server: its
//! dependency list is rayon, rand, serde/toml, thiserror and shlex. The
//! `mnk` crate (training, records, plots, the front ends and the binary)
//! builds on it and re-exports its modules, so `mnk::game` and
//! `mnk_core::game` are the same module.

// Every public item says what it is, and every public type can be printed
// with {:?}: both are part of the API (and `cargo clippy -D warnings` in
// .ci/run makes them errors).
#![warn(missing_docs, missing_debug_implementations)]

pub mod arena;
pub mod bench;
pub mod eval;
pub mod game;
pub mod players;
pub mod threats;
pub mod util;
