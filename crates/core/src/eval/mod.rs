//! Static evaluation: threat-based shapes for any k, weight sets, and the
//! incremental evaluator that values every empty cell and the whole board.
//!
//! The tunable numbers live in [`Weights`]; the code that uses them lives in
//! [`Evaluator`] (the Stockfish `tune`/`evaluate` split). Underneath, the
//! shapes of a position ([`Lines`]) are kept apart from one weight set's
//! cell scores ([`Sheets`]), so players that share a game share the shapes.
//!
//! Two weight models ([`Model`]): `shapes`, a sum over a cell's four
//! directions of per-shape weights, and `combo`, which adds a weight for
//! the [`Combo`] a stone makes across the four (a four-three, a double
//! three), once per side. A combo model's cell score also looks one
//! forced reply ahead: a stone that makes one closed (k−1) is charged the
//! opponent's `opp_combo` weight of the combination its forced block makes
//! (`sheet.rs`; `lines.rs` finds that cell).
//!
//! # Adding a shape or a combination
//!
//! **A line shape** is closed by its encoding: a [`Shape`] index takes 3
//! bits, a direction's *pair index* (black's and white's shapes) is one
//! byte `2 × (8 × black + white)` that doubles as the offset into the
//! score sheets' 64-entry term table (`sheet.rs`), and `lines.rs`'s
//! `shape_for` extracts a colour's shape with a shift by 3. A ninth shape
//! needs 4 bits a colour: a 256-entry pair table, pair indices that no
//! longer fit a byte as offsets (or a table of 16-byte entries and a shift
//! per lookup), and new masks in `shape_for` and in `threat_cells.rs`'s
//! and `combo.rs`'s per-pair tables. Then: the classifier (`shape.rs`),
//! `Shape::ALL`/`NUM`/`name`, `threats/defence.rs`'s count table,
//! `Weights` (which follows `WEIGHTED`), the weight files and
//! `rounds.csv`'s columns (which follow the names), the original 16-number
//! txt format (which has no place for it: export must refuse, as for
//! combinations), the bench signature, and `tests/it/eval.rs`'s reference
//! classifier.
//!
//! **A cell combination** goes through the seam in `combo.rs`: a cell's
//! features are a function of the sum over its four directions of a
//! per-pair-index word (`LEVELS`: per colour, 3-bit counts of fours,
//! open threes and open twos, with room for two more counts in each
//! colour's 16 bits), and a colour's counts map to its [`Combo`] by a
//! 512-entry table. A combination over the counts already there is a
//! [`Combo`] variant (with `NUM`, `ALL`, `WEIGHTED`, `count`, `name` and
//! `describe`) and a row in `combo_of_levels`; one that needs another
//! count also adds its field to `LEVELS` (and widens the table's index)
//! and a base-5 digit to `DIGITS`, the form the sheets' update loop reads
//! (three counts per colour fit its table; see `combo.rs`).
//! The sheets' combination table, the reply term (which reads the
//! opponent's combination at the completion cell), the board value's
//! stones per combination, the TOML tables `[own_combo]`/`[opp_combo]`,
//! `Weights::to_vec` (so training and `rounds.csv`) follow from those;
//! `tests/it/eval.rs`'s `reference_combo` must learn the new row.

pub mod combo;
mod evaluator;
mod geometry;
mod lines;
mod reply;
pub mod shape;
mod sheet;
mod threat_cells;
mod weights;

pub use combo::{Combo, COMBOS};
pub use evaluator::{Evaluator, LOSS, WIN};
pub use lines::Lines;
pub use shape::{Shape, SHAPES, WEIGHTED};
pub use sheet::Sheets;
pub use threat_cells::Threat;
pub(crate) use threat_cells::COUNTS;
pub use weights::{
    shipped_search_weights, shipped_weights, ComboWeights, GroupScale, Model, TxtExport, TxtGroup,
    TxtImport, Weights, WeightsError, MAX_WEIGHT, TXT_DIGITS,
};
