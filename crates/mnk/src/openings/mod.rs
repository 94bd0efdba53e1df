//! Balanced opening books: generating them and measuring them.
//!
//! Random openings hand most games to one colour: between two nearly equal
//! players, most pairs of games (one with each colour) end 1–1 and say
//! nothing about which player is better. This module finds openings whose
//! games depend on the players rather than the colour: [`Assessor`] plays
//! trials between perturbed copies of a reference weight set and counts,
//! per opening, black's score and the pairs that carry information;
//! [`Generator`] draws many distinct candidates and keeps the best. The
//! books it writes ([`crate::arena::Book`]) are used by default in
//! training, its checks and `mnk match`.

mod assess;
mod generate;

pub use assess::{total, Assessor, OpeningStats};
pub use generate::{rank, Generated, Generator, Rank};
