//! Static evaluation: threat-based shapes for any k, weight sets, and the
//! incremental evaluator that values every empty cell and the whole board.
//!
//! The tunable numbers live in [`Weights`]; the code that uses them lives in
//! [`Evaluator`] (the Stockfish `tune`/`evaluate` split). Underneath, the
//! shapes of a position ([`Lines`]) are kept apart from one weight set's
//! cell scores ([`Sheets`]), so players that share a game share the shapes.

mod evaluator;
mod geometry;
mod lines;
pub mod shape;
mod sheet;
mod threat_cells;
mod weights;

pub use evaluator::{Evaluator, LOSS, WIN};
pub use lines::Lines;
pub use shape::{Shape, SHAPES, WEIGHTED};
pub use sheet::Sheets;
pub use threat_cells::Threat;
pub(crate) use threat_cells::COUNTS;
pub use weights::{
    shipped_search_weights, shipped_weights, GroupScale, TxtExport, TxtGroup, TxtImport, Weights,
    WeightsError, MAX_WEIGHT, TXT_DIGITS,
};
