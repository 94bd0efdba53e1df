//! Scoring a combo model's sheets after moves played without them
//! ([`Lines::score_unscored`]): every changed cell with its reply, and
//! the cells whose replies read a cell whose combinations changed. Kept
//! apart (and out of line) from the shape model's loop, which the
//! callers inline.

use super::{Lines, View, STATE};
use crate::eval::reply::{changes_replies, combo_apply, dependents, Cells as _};
use crate::eval::sheet::Sheets;

impl Lines {
    /// [`Lines::score_unscored`] on sheets with combinations (`many`: the
    /// moves touched at least every cell once, so every cell is
    /// rescored). Out of line, so that the shape model's loop, inlined
    /// in the callers, is compiled as if this were not there.
    #[inline(never)]
    pub(super) fn score_combos(&mut self, sheets: &mut Sheets, many: bool) {
        let geo = &*self.geo;
        // The fields apart: the classifier is borrowed mutably below.
        let view = View {
            cells: &self.cells,
            high: &self.high,
        };
        let cells = view.cells;
        let moves = &self.history[self.history.len() - self.unscored..];
        if many {
            // Every reply is found afresh: no dependents to look for.
            (0..cells.len()).for_each(|q| combo_apply(geo, &view, q, sheets, |_| {}));
        } else {
            let deps = sheets.has_replies();
            // Which touched cells' reply-relevant levels changed is
            // recorded only once sheets with replies were scored here, and
            // not for the run's first move (`LevelLog`). For a move not
            // recorded, the (k−1)s pointing at a touched cell are rescored
            // when the cell's sum (it is rescored anyway) shows a win or a
            // (k−1) for some side, and, if the move is the only one, when
            // the change its stone made can change a reply reading the
            // cell (`changes_replies`, the cell's pair before the move
            // reclassified from its code without the stone): few cells.
            let recorded = self.levels.on;
            debug_assert!(!recorded || self.levels.starts.len() == self.unscored);
            let classifier = &mut self.classifier;
            let single = moves.len() == 1;
            for (i, &(cell, stone, _)) in moves.iter().enumerate() {
                let cell = cell as usize;
                // The stone's bits in a line code's field.
                let stone = u64::from(stone & STATE);
                combo_apply(geo, &view, cell, sheets, |_| {});
                let unlogged = deps && (i == 0 || !recorded);
                for t in geo.touches(cell) {
                    let q = t.cell as usize;
                    // An occupied cell scores −∞ whatever its pairs (the
                    // terms are finite: weights are), as it has since its
                    // stone was played, and is no completion cell: its
                    // entry stands. (The shape loop rescores it rather
                    // than branch; a combo cell costs more.) Read through
                    // `view`, as `combo_apply` reads the pairs: one bounds
                    // check for both.
                    if !view.state(q).is_empty() {
                        continue;
                    }
                    combo_apply(geo, &view, q, sheets, |sheets| {
                        if !unlogged {
                            return;
                        }
                        let (c, d) = (&cells[q], (t.word >> 1) as usize & 3);
                        let changed = !single || {
                            let high = view.high.get(q).map_or(0, |h| h[d]);
                            let mut before = [c.codes[d], high];
                            before[usize::from(t.word & 1)] ^= stone << t.shift;
                            let old = classifier.classify(before);
                            changes_replies(&c.pairs, d, old, c.pairs[d])
                        };
                        if changed {
                            dependents(geo, &view, q, d, &mut |q| {
                                combo_apply(geo, &view, q, sheets, |_| {})
                            });
                        }
                    });
                }
            }
            if deps && recorded {
                let mut apply = |q: usize| combo_apply(geo, &view, q, sheets, |_| {});
                for &(r, d) in &self.levels.cells {
                    dependents(geo, &view, r as usize, d as usize, &mut apply);
                }
            }
        }
    }
}
