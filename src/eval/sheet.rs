//! One weight set's cell scores for one side to move, kept in step with a
//! [`Lines`].
//!
//! A cell's score is the greedy rule of the brief, `attack × Σ own[mover's
//! shape] + defence × Σ opp[opponent's shape]` over the 4 directions. Each
//! direction's term depends only on the shape pair there, so a sheet holds a
//! 64-entry table of terms by pair and, per cell, the sum. Occupied cells
//! score −∞, so a max pass over the flat array never picks them and needs
//! no occupancy test.
//!
//! Scores are `f64` and always summed in direction order from the same
//! table, so a cell's score is a pure function of its four shape pairs and
//! its occupancy: incremental updates and a rebuild from scratch agree bit
//! for bit, and ties between cells are exact.

use super::lines::{pair_at, Change, Lines};
use super::shape::{pair_shape, Shape};
use super::weights::Weights;
use crate::game::Color;
use std::sync::Arc;

/// The number of shape pairs, the size of a sheet's term table.
const PAIRS: usize = Shape::NUM * Shape::NUM;

/// One weight set's cell scores for one mover: see the [module docs](self).
#[derive(Clone)]
pub struct Sheet {
    /// A direction's term by shape pair.
    term: [f64; PAIRS],
    /// Score by cell, −∞ if occupied.
    scores: Vec<f64>,
    /// The empty board's scores, copied in to start a game.
    blank: Arc<[f64]>,
}

impl std::fmt::Debug for Sheet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sheet")
            .field("cells", &self.scores.len())
            .finish_non_exhaustive()
    }
}

impl Sheet {
    /// The scores of `weights` for `mover` on `lines`' position.
    pub fn new(weights: &Weights, mover: Color, lines: &Lines) -> Sheet {
        let n = weights.shape_count();
        let (mut own, mut opp) = ([0.0; Shape::NUM], [0.0; Shape::NUM]);
        own[1..=n].copy_from_slice(&weights.own[..n]);
        opp[1..=n].copy_from_slice(&weights.opp[..n]);
        let me = mover.index();
        let term = std::array::from_fn(|p| {
            let p = p as u8;
            let (mine, theirs) = (pair_shape(p, me), pair_shape(p, 1 - me));
            weights.attack * own[mine as usize] + weights.defence * opp[theirs as usize]
        });
        let cells = lines.rules().cells();
        let mut sheet = Sheet {
            term,
            scores: vec![0.0; cells],
            blank: Arc::from(vec![]),
        };
        for c in lines.blank_cells() {
            sheet.apply(&c);
        }
        sheet.blank = Arc::from(sheet.scores.as_slice());
        for c in lines.cells() {
            sheet.apply(&c);
        }
        sheet
    }

    /// Rescores one changed cell: always the same sum in the same order,
    /// so equal shapes give bit-identical scores.
    #[inline(always)]
    pub fn apply(&mut self, c: &Change) {
        let t = &self.term;
        // Pair indices are below 64; the mask lets the compiler see it.
        let p = |d: usize| pair_at(c.pairs, d) as usize & (PAIRS - 1);
        // A lookup, not a branch: occupancy is unpredictable.
        let penalty = [0.0, f64::NEG_INFINITY][c.occupied as usize];
        self.scores[c.cell] = t[p(0)] + t[p(1)] + t[p(2)] + t[p(3)] + penalty;
    }

    /// The flat score array: one entry per cell, −∞ if occupied.
    #[inline]
    pub fn scores(&self) -> &[f64] {
        &self.scores
    }

    /// One cell's score (−∞ if occupied).
    #[inline]
    pub fn score(&self, cell: usize) -> f64 {
        self.scores[cell]
    }

    /// Back to the empty board's scores.
    pub fn reset(&mut self) {
        self.scores.copy_from_slice(&self.blank);
    }

    /// Becomes `other` (another weight set or mover, same game) on the
    /// empty board, reusing this sheet's memory.
    pub fn reset_to(&mut self, other: &Sheet) {
        self.term = other.term;
        if !Arc::ptr_eq(&self.blank, &other.blank) {
            self.blank = other.blank.clone();
        }
        self.scores.clear();
        self.scores.extend_from_slice(&other.blank);
    }

    /// Heap bytes this sheet owns, its empty-board copy included.
    pub fn heap_bytes(&self) -> usize {
        (self.scores.capacity() + self.blank.len()) * std::mem::size_of::<f64>()
    }
}
