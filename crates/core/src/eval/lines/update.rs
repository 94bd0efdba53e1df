//! A move's update of the lines
//! ([`Lines::set_cell`](super::Lines::set_cell)): the one loop over the
//! touched cells that every play and undo runs.

use super::{geometry, recount_stone, shape_for, Cell, Changes, ComboCounts, ShapeCounts, View};
use crate::eval::combo::{combo_in, levels};
use crate::eval::geometry::Geometry;
use crate::eval::reply::{changes_replies, combo_apply, dependents};
use crate::eval::shape::PairIndex;
use crate::eval::sheet::Sheets;
use crate::eval::threat_cells::ThreatCells;
use crate::game;

/// The body of [`Lines::set_cell`](super::Lines::set_cell), for one way
/// of classifying line codes; returns the number of (cell, direction)
/// updates. `combos` is `Some` when the stones per combination are kept
/// (with `COUNT` only); `COMBO` says whether threat levels are followed:
/// the sheets add combinations, or (without sheets) `log` receives the
/// touched cells whose levels changed.
#[inline(always)]
pub(super) fn update<const COUNT: bool, const WIDE: bool, const COMBO: bool>(
    geo: &Geometry,
    (cells, high): (&mut [Cell], &mut [[u64; 4]]),
    (counts, threats, mut combos): (&mut ShapeCounts, &mut ThreatCells, Option<&mut ComboCounts>),
    (cell, state): (usize, game::Cell),
    (mut sheets, mut log): (Option<&mut Sheets>, Option<&mut Changes>),
    mut classify: impl FnMut([u64; 2]) -> PairIndex,
) -> u64 {
    // The loop below indexes without checks: every touched cell comes from
    // the geometry of this board, whose cells `cells` holds, and the sheets
    // must hold as many (they could come from another game).
    if let Some(s) = &sheets {
        assert_eq!(s.cells(), cells.len(), "score sheets of another game");
        assert!(COMBO || !s.has_combos(), "combination sheets without COMBO");
    }
    let me = &mut cells[cell];
    let old_state = me.state as usize;
    // The cell itself: its codes are unchanged, only its owner.
    if COUNT {
        for d in 0..4 {
            let p = me.pairs[d];
            counts[old_state][shape_for(old_state, p)] -= 1;
            counts[state as usize][shape_for(state as usize, p)] += 1;
        }
        if let Some(n) = combos.as_deref_mut() {
            let l = levels(&me.pairs);
            if old_state != 0 {
                n[old_state][combo_in(l, old_state - 1)] -= 1;
            }
            if !state.is_empty() {
                n[state as usize][combo_in(l, state as usize - 1)] += 1;
            }
        }
    }
    me.state = state;
    me.copies = [state; 3];
    if COUNT {
        threats.mark(cell, state.is_empty());
    }
    if let Some(s) = sheets.as_deref_mut() {
        if COMBO {
            // A reply reads other cells: see `combo_apply`.
            let view = View { cells, high };
            combo_apply(geo, &view, cell, s, |_| {});
        } else {
            // SAFETY: `cell` is a cell of this board (see the assertion
            // above), and the classifier gives pair indices.
            unsafe { s.apply_unchecked::<COMBO>(cell, &me.pairs, state, [0; 2]) };
        }
    }
    // The played cell's field in each neighbour's code goes from the old
    // state to the new one: the two differ in exactly the bits of `flip`.
    let flip = (state as u8 ^ old_state as u8) as u64;
    let touches = geo.touches(cell);
    // With combo sheets: the empty touched cells whose threat levels
    // changed, by their place in `touches` (all of them past 128).
    let mut moved = [0u64; 2];
    for (i, t) in touches.iter().enumerate() {
        let (q, d) = (t.cell as usize, (t.word >> 1) as usize & 3);
        debug_assert!(q < cells.len());
        // The low word unless the field is past bit 64 (wide windows only).
        let (old, new, held) = if WIDE {
            // SAFETY: see the assertion above.
            let c = unsafe { cells.get_unchecked_mut(q) };
            if t.word & 1 == 0 {
                c.codes[d] ^= flip << t.shift;
            } else {
                high[q][d] ^= flip << t.shift;
            }
            let new = classify([c.codes[d], high[q][d]]);
            (std::mem::replace(&mut c.pairs[d], new), new, c.state)
        } else {
            // The code word and the pair by the touch's own offsets
            // (`geometry::Touch::code`).
            debug_assert_eq!(t.code as usize, q * geometry::CELL_WORDS + d);
            debug_assert_eq!(
                t.pair as usize,
                8 * t.code as usize + geometry::PAIRS_AT - 7 * d
            );
            let base = cells.as_mut_ptr();
            // SAFETY: the touch comes from this board's geometry (see the
            // assertion above), so both offsets fall in cell `q`'s record,
            // whose layout they follow (asserted where `Cell` is defined),
            // as does the state's copy 4 bytes past the pair (a valid
            // `game::Cell`, kept equal to the state); the pointers are
            // derived from `cells` here and dropped before `cells` is
            // borrowed again.
            unsafe {
                let code = base.cast::<u64>().add(t.code as usize);
                *code ^= flip << t.shift;
                let new = classify([*code, 0]);
                let pair = base.cast::<u8>().add(t.pair as usize);
                let held = pair.add(4).cast::<game::Cell>().read();
                (std::mem::replace(&mut *pair, new), new, held)
            }
        };
        // SAFETY: see the assertion above.
        let c = unsafe { cells.get_unchecked_mut(q) };
        // A touched cell may keep its shapes (the stone is too far, or
        // behind a block; about one in twelve in a middle game, see
        // `Lines::undo`): then its counts, threat sets, levels and
        // shape-sheet score are unchanged too. A combo sheet's reply
        // may still change (it reads other cells), so it is rescored.
        if old == new {
            if let Some(s) = sheets.as_deref_mut().filter(|_| COMBO) {
                combo_apply(geo, &View { cells, high }, q, s, |_| {});
            }
            continue;
        }
        // An occupied cell is no completion cell, and stays occupied
        // until this move is taken back (which drops its log entries).
        // Only changes that can change a reply reading the cell count.
        if COMBO && held.is_empty() && changes_replies(&c.pairs, d, old, new) {
            if let Some(log) = log.as_deref_mut() {
                log.push((q as u16, d as u8));
            } else if i < 128 {
                moved[i / 64] |= 1 << (i % 64);
            }
        }
        // Only stones count (an empty cell's pair would go to the sink row
        // and back): a branch, but a chain of read-modify-writes of one
        // counter cost more than its mispredictions. The same branch
        // keeps an empty cell's threat sets and shape-sheet entry (a
        // stone's sets stay empty, and its entry is −∞ either way), so
        // neither is tested again.
        if COUNT {
            if held.is_empty() {
                // SAFETY: `q` is a cell of this board (see above).
                unsafe { threats.change(q, old, new, true) };
                if let Some(s) = sheets.as_deref_mut().filter(|_| !COMBO) {
                    // SAFETY: `q` is a cell of this board (see the
                    // assertion above), and the classifier gives pair
                    // indices.
                    unsafe { s.apply_unchecked::<false>(q, &c.pairs, held, [0; 2]) };
                }
            } else {
                let qs = held as usize;
                recount_stone(counts, combos.as_deref_mut(), qs, (old, new), || {
                    levels(&c.pairs)
                });
                // SAFETY: as above.
                unsafe { threats.change(q, old, new, false) };
            }
        }
        // Lines without counts (a greedy player's) rewrite a stone's
        // entry rather than add a branch.
        if let Some(s) = sheets.as_deref_mut() {
            if COMBO {
                combo_apply(geo, &View { cells, high }, q, s, |_| {});
            } else if !COUNT {
                // SAFETY: as above.
                unsafe { s.apply_unchecked::<false>(q, &c.pairs, c.state, [0; 2]) };
            }
        }
    }
    // A reply read a completion cell's levels, which a later touched cell
    // of this loop may have changed: the (k−1)s pointing at a cell whose
    // levels changed are rescored now that all are final.
    if let Some(s) = sheets.filter(|s| COMBO && s.has_replies()) {
        for (i, t) in touches.iter().enumerate() {
            if i >= 128 || moved[i / 64] >> (i % 64) & 1 == 1 {
                let view = View { cells, high };
                let d = (t.word >> 1) as usize & 3;
                dependents(geo, &view, t.cell as usize, d, &mut |q| {
                    combo_apply(geo, &view, q, s, |_| {});
                });
            }
        }
    }
    touches.len() as u64
}
