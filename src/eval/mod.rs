//! Static evaluation: threat-based shapes for any k, weight sets, and the
//! incremental evaluator that values every empty cell and the whole board.
//!
//! The tunable numbers live in [`Weights`]; the code that uses them lives in
//! [`Evaluator`] (the Stockfish `tune`/`evaluate` split).

mod evaluator;
mod geometry;
pub mod shape;
mod weights;

pub use evaluator::{Evaluator, LOSS, WIN};
pub use shape::{Shape, SHAPES, WEIGHTED};
pub use weights::{
    shipped_weights, GroupScale, TxtExport, TxtGroup, TxtImport, Weights, WeightsError, MAX_WEIGHT,
    TXT_DIGITS,
};
