//! Threat-space search: can one side win by a sequence of threats that the
//! other must answer, whatever it answers?
//!
//! - **VCF**, victory by continuous fours: every attacker move makes a
//!   *four*, so the defender's reply is forced (block the one completion
//!   cell) unless it can win at once. No depth limit: each move adds two
//!   stones, so the tree is finite; a node budget bounds the work.
//! - **VCT**, victory by continuous threats: attacker moves are fours or
//!   *threes*, and after a three every reply that does not lose at once is
//!   searched, the defender's own fours included (the `defence` module says which
//!   replies those are, and why no other can hold).
//!
//! Threats are read off the evaluator's shapes ([`crate::eval::Shape`]),
//! so they mean the same for every k and rule: a four is a move that makes
//! a (k−1) shape (an empty cell then completes k in a row), a three one
//! that makes an open (k−2) (one more stone then makes an open (k−1)).
//! Under the exact rule the shapes already leave out overlines, so a "win"
//! here is exactly k.
//!
//! A win found here is a proof: the search's mate scores may rest on it.
//! [`check_line`] replays a line on a plain [`Board`](crate::game::Board),
//! with its own win detection, as an independent check.

mod defence;
mod replay;
mod solver;

pub(crate) use defence::{makes, win_cells, Defences};
pub use replay::{check_line, LineError};
pub use solver::{Mode, ModeParseError, ThreatSearch, Verdict};
