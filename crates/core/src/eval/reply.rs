//! A combo model's forced-reply term, for [`Lines`](super::Lines): where
//! a stone makes exactly one closed (k−1), the opponent must block on its
//! completion cell, and the cell's score is charged the opponent's
//! `opp_combo` weight of the combination that block makes there (over
//! its three other lines; `sheet.rs` adds the term). Finding that cell
//! reads the stones of the cell's window along the line, and the
//! combination reads the completion cell's pairs, so besides every cell a
//! move touches, the lines rescore the closed (k−1)s that point at a
//! touched cell whose combination over the other lines changed
//! ([`dependents`], [`changes_replies`]).
//!
//! The term is on every combo cell's path, so it is kept off the common
//! case: one sum over a cell's directions ([`CELL_SUMS`]) gives both
//! colours' combinations and says whether a stone there makes a win or a
//! (k−1) for either side; only such cells (a few of a move's touched
//! cells) look for replies and dependents, out of line, and a completion
//! cell is read off the line code by bit masks ([`runs_narrow`]).

use super::combo::{
    by_pair, combo_in, levels, Combo, COMBO_PAIR_OF, DIGITS, DIGIT_BITS, LEVELS, PAIR_TABLE,
};
use super::geometry::{Geometry, DIRS};
use super::shape::{pair_shape, radius, PairIndex, Pairs, Shape};
use super::sheet::Sheets;
use crate::game;

/// What the reply reads of a position's cells: their shape pairs, what
/// they hold and their line codes (`lines.rs`'s cells, which import this
/// module, not the other way).
pub(super) trait Cells {
    /// Both players' shapes per direction at cell `q`.
    fn pairs(&self, q: usize) -> &Pairs;
    /// What cell `q` holds.
    fn state(&self, q: usize) -> game::Cell;
    /// The line code of cell `q`'s window along direction `d`: its 2r
    /// two-bit fields (0 empty, 1 black, 2 white, 3 off the board), the
    /// high word's above bit 64.
    fn code(&self, q: usize, d: usize) -> u128;
}

/// Rescores cell `q` on combo sheets, with its replies, then, if a stone
/// there makes a win or a (k−1) for either side, calls `fourish` (else
/// the cell has no reply, and no reply reads its levels: see
/// [`dependents`]).
#[inline(always)]
pub(super) fn combo_apply(
    geo: &Geometry,
    cells: &impl Cells,
    q: usize,
    s: &mut Sheets,
    fourish: impl FnOnce(&mut Sheets),
) {
    // A copy: the pairs stay in registers for both sums.
    let (pairs, state) = (*cells.pairs(q), cells.state(q));
    // One sum gives both colours' combinations (the low word) and what
    // the reply needs to know (the high word): whether a stone there
    // makes a win or a (k−1), which few cells do, and whether exactly
    // one closed (k−1), the only case with a reply.
    let sums = CELL_SUMS[pairs[0] as usize]
        + CELL_SUMS[pairs[1] as usize]
        + CELL_SUMS[pairs[2] as usize]
        + CELL_SUMS[pairs[3] as usize];
    let combo = COMBO_PAIR_OF[sums as usize & ((1 << DIGIT_BITS) - 1)] as usize;
    if sums & FOURISH == 0 {
        // SAFETY: the caller's `q` is a cell of this board, as many as
        // the sheets hold (asserted in `update` and `score_unscored`),
        // the pairs are pair indices, and the combinations' index is
        // below Combo::NUM² (`COMBO_PAIR_OF`), as is 0.
        unsafe { s.apply_combo_unchecked(q, &pairs, state, combo, 0) };
    } else {
        let closed = (sums >> 32) as u32;
        let replies = if may_reply(closed) {
            cell_replies(geo, cells, q, closed, s)
        } else {
            0
        };
        // SAFETY: as above; replies are below Combo::NUM².
        unsafe { s.apply_combo_unchecked(q, &pairs, state, combo, replies) };
        fourish(s);
    }
}

/// Both sheets' replies at cell `q`, as sheet 0's × `Combo::NUM` + sheet
/// 1's, given its [`CLOSED`] sum: 0 unless the sheets have reply terms,
/// the cell is empty, and a stone there makes exactly one closed (k−1)
/// for some side (which the caller has seen in `closed`). Out of line:
/// few cells have a (k−1) at all.
#[inline(never)]
fn cell_replies(geo: &Geometry, cells: &impl Cells, q: usize, closed: u32, s: &Sheets) -> usize {
    debug_assert!(may_reply(closed));
    if !s.has_replies() || !cells.state(q).is_empty() {
        return 0;
    }
    let [r0, r1] = replies_of(geo, cells, q, closed, s);
    r0 as usize * Combo::NUM + r1 as usize
}

/// Whether the sheets must rescore the (k−1)s pointing at empty cell `r`
/// ([`dependents`]) after its pair in direction `d` went from `old` to
/// `new` (`pairs`, the cell's pairs, already hold `new`): whether for
/// some side with a win or a (k−1) along another direction `e`, the
/// opponent's combination over `r`'s lines other than `e` changed. A
/// reply of a cell `q` whose (k−1) along `e` points at `r` is that
/// combination and nothing else of `r`'s, so nothing else can change it.
///
/// Most changes fail the first test (the levels stay) or the second (no
/// win or (k−1) along the other lines), so a move's update pays two
/// lookups a touched cell, and the combinations are compared rarely.
///
/// Between two scorings a cell's (k−1) along `e` points at `r` only if
/// `r` keeps its win or (k−1) along `e` all the while (unless a stone
/// lands in the cell's own window, which rescores it anyway), so a test
/// against the position of the change misses no dependent.
#[inline(always)]
pub(super) fn changes_replies(pairs: &Pairs, d: usize, old: PairIndex, new: PairIndex) -> bool {
    let (before, after) = (LEVELS[old as usize], LEVELS[new as usize]);
    if before == after {
        return false;
    }
    // Direction `d`'s pair is in `pairs` too: mask it out.
    let fours = (0..4).fold(0, |a, e| {
        let mask = if e == d { 0 } else { !0 };
        a | (FOURS[pairs[e] as usize] & mask)
    });
    fours != 0 && combos_change(pairs, d, before, after)
}

/// The rest of [`changes_replies`]: for each side with a win or a (k−1)
/// along a direction `e` other than `d`, whether the opponent's
/// combination over the other three lines differs with `d`'s levels
/// `before` and `after`.
#[inline(never)]
fn combos_change(pairs: &Pairs, d: usize, before: u32, after: u32) -> bool {
    let total = levels(pairs);
    (0..4).filter(|&e| e != d).any(|e| {
        let colours = FOURS[pairs[e] as usize];
        let now = total.wrapping_sub(LEVELS[pairs[e] as usize]);
        let then = now.wrapping_sub(after).wrapping_add(before);
        (0..2).any(|c| colours >> c & 1 == 1 && combo_in(now, 1 - c) != combo_in(then, 1 - c))
    })
}

/// Set in a [`CELL_SUMS`] sum when the cell has a win, an open (k−1)
/// or a closed (k−1) for either side in some direction: else it is no
/// one's completion cell, and no reply reads its levels.
const FOURISH: u64 = 0x3f3f << 32;

/// Whether a [`CLOSED`] sum says that a stone of some side makes exactly
/// one closed (k−1) and nothing above it, the only case with a reply.
#[inline(always)]
fn may_reply(closed: u32) -> bool {
    closed & 0x3f == 1 || (closed >> 8) & 0x3f == 1
}

/// Calls `apply` on every empty cell whose reply may read empty cell `r`
/// after `r`'s threat levels changed in direction `changed` (4: in any):
/// the cells `q` with a closed (k−1) along a line `d` through `r` whose
/// completion cell is `r`. A stone of that colour on both `q` and `r`
/// makes a win, so `r` has a win or a (k−1) there too, and `q` is one of
/// `r`'s [`completions`] along `d`: at most two cells per direction and
/// colour, read off `r`'s line code. Direction `changed` itself is
/// skipped: `q`'s reply reads `r`'s three other lines, and a change on
/// the shared line that reached `q`'s window made `q` a touched cell,
/// rescored anyway.
///
/// Out of line: after a move few cells have such dependents, and the
/// loops that call it rescore every touched cell inline.
#[inline(never)]
pub(super) fn dependents(
    geo: &Geometry,
    cells: &impl Cells,
    r: usize,
    changed: usize,
    apply: &mut impl FnMut(usize),
) {
    let pairs = cells.pairs(r);
    if !cells.state(r).is_empty() || fours(pairs) == 0 {
        return;
    }
    let closed = Shape::ClosedIn1 as u8;
    for d in (0..4).filter(|&d| d != changed) {
        let colours = FOURS[pairs[d] as usize];
        if colours == 0 {
            continue;
        }
        let code = cells.code(r, d);
        for color in (0..2).filter(|&c| colours >> c & 1 == 1) {
            for q in completions(geo, code, r, d, color).into_iter().flatten() {
                if pair_shape(cells.pairs(q)[d], color) == closed {
                    apply(q);
                }
            }
        }
    }
}

/// By pair index: bit 0 set if black's shape is a win or a (k−1), bit 1
/// if white's is (shapes 1 to 3). A cell with none in its four directions
/// has no reply and is no one's completion cell.
static FOURS: [u32; PAIR_TABLE] = by_pair(
    {
        let mut v = [0; Shape::NUM];
        v[Shape::Win as usize] = 1;
        v[Shape::OpenIn1 as usize] = 1;
        v[Shape::ClosedIn1 as usize] = 1;
        v
    },
    1,
);

/// [`FOURS`] of a cell's four directions together.
#[inline(always)]
fn fours(pairs: &Pairs) -> u32 {
    FOURS[pairs[0] as usize]
        | FOURS[pairs[1] as usize]
        | FOURS[pairs[2] as usize]
        | FOURS[pairs[3] as usize]
}

/// By pair index, per colour (black's in bits 0–5, white's in 8–13): 1
/// if its shape is a closed (k−1), 8 if a win or an open (k−1). A cell's
/// four directions add up without carries, so one sum tells for both
/// colours whether a stone makes exactly one closed (k−1) and nothing
/// above it, the only case with a reply.
static CLOSED: [u32; PAIR_TABLE] = by_pair(
    {
        let mut v = [0; Shape::NUM];
        v[Shape::ClosedIn1 as usize] = 1;
        v[Shape::Win as usize] = 8;
        v[Shape::OpenIn1 as usize] = 8;
        v
    },
    8,
);

/// By pair index, [`DIGITS`] in the low word and [`CLOSED`] in the high
/// one: a cell's four directions add up without carries in either, so
/// one sum gives both its combinations and whether it may have a reply.
static CELL_SUMS: [u64; PAIR_TABLE] = {
    let mut t = [0u64; PAIR_TABLE];
    let mut p = 0;
    while p < PAIR_TABLE {
        t[p] = DIGITS[p] as u64 | (CLOSED[p] as u64) << 32;
        p += 1;
    }
    t
};

/// Each sheet's reply at empty cell `q` ([`reply_at`] for the sheet's
/// mover), given the cell's [`CLOSED`] sum.
#[inline]
fn replies_of(
    geo: &Geometry,
    cells: &impl Cells,
    q: usize,
    closed: u32,
    sheets: &Sheets,
) -> [u8; 2] {
    let reply = |i: usize| {
        let mover = sheets.mover(i);
        // Exactly one closed (k−1) and no win or open (k−1): the
        // colour's field (closed + 8 × the others, at most 36) is 1.
        match (closed >> (8 * mover)) & 0x3f {
            1 => reply_of_closed(geo, cells, q, mover),
            _ => 0,
        }
    };
    [reply(0), reply(1)]
}

/// The reply of empty cell `q` for mover `color` (by [`Color::index`](crate::game::Color::index)):
/// when a `color` stone there makes exactly one (k−1), closed, and no
/// open one or win, the combination index of the opponent's stone on its
/// completion cell over that cell's three other lines (the shared line is
/// the mover's); else 0. It reads `q`'s line code on that line and the
/// completion cell's pairs, so it changes only with `q`'s codes or the
/// completion cell's levels.
#[inline]
pub(super) fn reply_at(geo: &Geometry, cells: &impl Cells, q: usize, color: usize) -> u8 {
    let p = cells.pairs(q);
    let closed = CLOSED[p[0] as usize]
        + CLOSED[p[1] as usize]
        + CLOSED[p[2] as usize]
        + CLOSED[p[3] as usize];
    if !cells.state(q).is_empty() || (closed >> (8 * color)) & 0x3f != 1 {
        return 0;
    }
    reply_of_closed(geo, cells, q, color)
}

/// [`reply_at`] where a `color` stone on empty cell `q` is known to make
/// exactly one (k−1), closed, and nothing above it.
#[inline]
fn reply_of_closed(geo: &Geometry, cells: &impl Cells, q: usize, color: usize) -> u8 {
    let p = cells.pairs(q);
    // The (k−1)'s direction: the one whose shape is it (no other is).
    let closed = Shape::ClosedIn1 as u8;
    let d = (0..3)
        .find(|&d| pair_shape(p[d], color) == closed)
        .unwrap_or(3);
    debug_assert_eq!(pair_shape(p[d], color), closed);
    // A closed (k−1) has one completion cell; the negative side's first.
    let [left, right] = completions(geo, cells.code(q, d), q, d, color);
    let Some(r) = left.or(right) else { return 0 };
    // The completion cell's levels over its other three lines.
    let others = levels(cells.pairs(r)).wrapping_sub(LEVELS[cells.pairs(r)[d] as usize]);
    combo_in(others, 1 - color) as u8
}

/// The empty cells within k−1 of cell `q` along direction `d` (on its
/// negative side, then its positive side) where a `color` stone, with one
/// on `q`, makes a winning line through `q`, from `code`, `q`'s line code
/// along `d`. Only the first cell past `q`'s own run on either side can
/// be one: any later one leaves a gap. A run is read to the window's
/// edge: where the stones reach it, the line through the gap is at least
/// r + 1 long, which is k in freestyle (a win, however long it goes on)
/// and k + 1 in exact (none), so the cells past the window never change
/// the answer.
#[inline]
fn completions(geo: &Geometry, code: u128, q: usize, d: usize, color: usize) -> [Option<usize>; 2] {
    let rules = &geo.rules;
    let k = rules.k as i32;
    let r = radius(rules.k, rules.rule) as i32;
    let ((ln, le, lf), (rn, re, rf)) = if r <= NARROW {
        runs_narrow(code as u64, r, k, color)
    } else {
        runs(code, r, k, color)
    };
    let wins = |n: i32| match rules.rule {
        game::Rule::Freestyle => n >= k,
        game::Rule::Exact => n == k,
    };
    let (dx, dy) = DIRS[d];
    let step = dy as isize * rules.width as isize + dx as isize;
    // An empty field is a cell of the board, at that offset.
    let cell = |i: i32| (q as isize + i as isize * step) as usize;
    [
        le.filter(|_| wins(ln + 2 + lf + rn)).map(cell),
        re.filter(|_| wins(rn + 2 + rf + ln)).map(cell),
    ]
}

/// Per side of a cell (negative, then positive): the `color` stones next
/// to it, the offset of the empty cell after them (if within k − 1, so
/// inside the window) and the stones past that: what [`completions`]
/// reads of a line code.
type Runs = ((i32, Option<i32>, i32), (i32, Option<i32>, i32));

/// The largest radius whose windows (2r two-bit fields) [`runs_narrow`]
/// reads: below bit 62 of one word, so a field past the window is there,
/// and reads as empty.
const NARROW: i32 = 15;

/// [`Runs`] of line code `code` of a window of radius `r`, cell by cell:
/// the definition, for windows of any size.
fn runs(code: u128, r: i32, k: i32, color: usize) -> Runs {
    // The field of the cell at offset `i` (0 < |i| ≤ r), as in the
    // geometry's windows: the r cells before `q`, then the r after it.
    let field = |i: i32| {
        let pos = if i < 0 { i + r } else { i + r - 1 };
        (code >> (2 * pos)) as u32 & 3
    };
    let stone = color as u32 + 1;
    // From offset `i` on, the `color` stones in a row, to the window's
    // edge.
    let run = |mut i: i32, sign: i32| {
        let mut n = 0;
        while i.abs() <= r && field(i) == stone {
            n += 1;
            i += sign;
        }
        n
    };
    let side = |sign: i32| {
        let near = run(sign, sign);
        let gap = sign * (near + 1);
        let empty = near + 1 < k && field(gap) == 0;
        let far = if empty { run(gap + sign, sign) } else { 0 };
        (near, empty.then_some(gap), far)
    };
    (side(-1), side(1))
}

/// [`runs`] of a window of radius `r` ≤ [`NARROW`], by bit masks: a run
/// of stones is the distance to the next field that holds none, one
/// count of trailing (or leading) zeros instead of a loop. A reply's
/// completion cell is looked up on every rescored cell with one closed
/// (k−1), so this is the common case (`tests::narrow_runs_match`).
#[inline(always)]
fn runs_narrow(code: u64, r: i32, k: i32, color: usize) -> Runs {
    debug_assert!((1..=NARROW).contains(&r));
    // Each field's low bit, as in the code: positions 0 to 2r − 1, the r
    // cells before the centre then the r after it.
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let (lo, hi) = (code & EVEN, (code >> 1) & EVEN);
    // A `color` stone is 1 (black) or 2 (white); 3 is off the board.
    let own = if color == 0 { lo & !hi } else { hi & !lo };
    let empty = !(lo | hi) & EVEN;
    // Fields past the window (code 0 there) hold no stone, and stop a run.
    let other = !own & EVEN;
    // The stones from field `from` up.
    let up = |from: i32| (other >> (2 * from)).trailing_zeros() as i32 / 2;
    // The stones from field `from` down (none if `from` < 0), with a
    // stop below field 0: field p's bit moved to 2p + 2, a 1 at bit 0.
    let down = |from: i32| {
        if from < 0 {
            return 0;
        }
        let below = ((other << 2) | 1) & ((1u64 << (2 * from + 3)) - 1);
        (2 * from + 2 - (63 - below.leading_zeros() as i32)) / 2
    };
    let is_empty = |pos: i32| empty >> (2 * pos) & 1 == 1;
    // The negative side: fields r − 1 down to 0 (offsets −1, −2, …).
    let ln = down(r - 1);
    let lgap = ln + 1 < k && is_empty(r - 1 - ln);
    let lf = if lgap { down(r - 2 - ln) } else { 0 };
    // The positive side: fields r up to 2r − 1 (offsets 1, 2, …).
    let rn = up(r);
    let rgap = rn + 1 < k && is_empty(r + rn);
    let rf = if rgap { up(r + rn + 1) } else { 0 };
    (
        (ln, lgap.then_some(-(ln + 1)), lf),
        (rn, rgap.then_some(rn + 1), rf),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The bit-mask runs equal the cell-by-cell ones on every line code
    /// of windows up to radius 5 (both colours, every k the radius
    /// serves, both rules' k), and on random codes up to radius 15.
    #[test]
    fn narrow_runs_match() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(29);
        for r in 1..=NARROW {
            for k in [r, r + 1] {
                let fields = 2 * r as u32;
                let codes: Box<dyn Iterator<Item = u64>> = if r <= 5 {
                    Box::new(0..1u64 << (2 * fields))
                } else {
                    let mask = (1u64 << (2 * fields)) - 1;
                    let mut rng = rng.clone();
                    Box::new((0..200_000).map(move |_| rng.gen::<u64>() & mask))
                };
                for code in codes {
                    for color in 0..2 {
                        assert_eq!(
                            runs_narrow(code, r, k, color),
                            runs(code as u128, r, k, color),
                            "r {r}, k {k}, code {code:#x}, colour {color}"
                        );
                    }
                }
                rng.gen::<u64>();
            }
        }
    }
}
