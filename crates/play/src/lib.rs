//! Terminal play and game records for mnk, over the core crate.
//!
//! [`play`] is terminal play as a library (a session fed a line or an AI
//! move at a time, board rendering, the value map, replays) and
//! [`records`] reads and writes game records (CSV and SGF). Neither needs
//! training, plots or the web server, so they are a crate of their own,
//! built at a lower optimisation level than the hot crates: their work is
//! a person's pace, and what they ask of a player runs in `mnk_core`,
//! compiled there. The mnk library re-exports both (`mnk::play`,
//! `mnk::records`); use them through it.

// As in the other libraries: every public item is documented and can be
// printed with {:?}.
#![warn(missing_docs, missing_debug_implementations)]

// The core crate's modules, under the paths the mnk library gives them.
use mnk_core::{arena, eval, game, players, threats, util};

pub mod play;
pub mod records;
