//! mnk's integration tests, one module per area, built as ONE test binary:
//! after a library change there is one crate to compile and link instead of
//! one per file. Shared helpers live in [`common`].
//!
//! Run one area with `cargo test --release --test it -- train_spsa::`.

mod common;

mod bench;
mod brain;
mod brains;
#[cfg(feature = "serve")]
mod browser;
#[cfg(feature = "serve")]
mod browser_replay;
#[cfg(feature = "serve")]
mod browser_training;
mod cli;
mod duel;
mod eval;
mod eval_combo;
mod eval_render;
mod game_props;
mod json_output;
mod lines;
mod matches;
mod memory;
#[cfg(feature = "mpi")]
mod mpi;
mod parser_props;
mod perft;
mod plateau;
mod play;
mod players;
mod plot_cli;
mod ranks;
mod readme;
mod records;
mod replay;
mod search_generations;
#[cfg(feature = "serve")]
mod serve;
#[cfg(feature = "serve")]
mod serve_replay;
#[cfg(feature = "serve")]
mod serve_runs;
#[cfg(feature = "serve")]
mod serve_security;
#[cfg(feature = "serve")]
mod slow_link;
mod solver;
mod stats;
mod threats;
mod tidy;
mod train;
mod train_cmaes;
mod train_combo;
mod train_rundir;
mod train_select;
mod train_spsa;
mod weights;
