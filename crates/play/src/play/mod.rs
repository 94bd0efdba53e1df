//! Playing in the terminal: sessions between humans and AI players, the
//! commands typed at the prompt, drawing boards, saving games and
//! replaying records.
//!
//! This is a library so that it can be tested without a terminal:
//! [`Session`] holds the games of one `mnk play` run and is driven one
//! input line or one AI move at a time; [`run`] drives it over any
//! `BufRead` and `Write`, and a [`Driver`] does so while letting another
//! thread (Ctrl-C) stop it and save the game; [`render_board`] draws a
//! board as a `String`, [`ValueMap`] computes a position's value map and
//! [`render_heat`] draws one that fits a width;
//! [`Replay`] steps through a [`Record`](crate::records::Record). The
//! command line (`src/cli/play.rs`, `replay.rs`) only wires them to stdin
//! and stdout.
//!
//! Games are saved when they end, when the player quits, at the end of
//! input and on Ctrl-C, to the session's records file (the CSV layout of
//! [`crate::records`]) and optionally an SGF file; `save` during a game
//! writes it early and later saves update that entry ([`SaveTarget`]).

mod command;
mod driver;
mod heat;
mod render;
mod replay;
mod save;
mod session;
mod value_map;

pub use command::{Command, CommandError, HELP};
pub use driver::{run, Driver, Interrupted, Terminal, CLEAR_SCREEN};
pub use heat::{render_heat, Heat, Scale, TooNarrow};
pub use render::{glyph, render_board, strip_ansi, winning_line, Marks, Style};
pub use replay::Replay;
pub use save::{append_games, SaveTarget, Saved};
pub use session::{describe_rules, AiTurn, Config, Out, SeatKind, Session, SessionError, Turn};
pub use value_map::{ValueMap, Vcf, VcfReport, VCF_NODES};
