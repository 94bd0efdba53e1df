//! A combo model's forced-reply term, for [`Lines`](super::Lines): where
//! a stone makes exactly one closed (k−1), the opponent must block on its
//! completion cell, and the cell's score is charged the opponent's
//! `opp_combo` weight of the combination that block makes there (over
//! its three other lines; `sheet.rs` adds the term). Finding that cell
//! reads the stones of the cell's window along the line, and the
//! combination reads the completion cell's pairs, so besides every cell a
//! move touches, the lines rescore the closed (k−1)s that point at a
//! touched cell whose threat levels changed ([`dependents`]).

use super::combo::{by_pair, combo_in, LEVELS};
use super::geometry::{Geometry, DIRS};
use super::shape::{pair_shape, radius, Pairs, Shape};
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

/// Rescores cell `q` on combo sheets, with its replies.
#[inline(always)]
pub(super) fn combo_apply(geo: &Geometry, cells: &impl Cells, q: usize, s: &mut Sheets) {
    let reply = replies(geo, cells, q, s);
    // SAFETY: the caller's `q` is a cell of this board, as many as the
    // sheets hold (asserted in `update` and `score_unscored`), the pairs
    // are pair indices, and a reply is a combination index.
    unsafe { s.apply_unchecked::<true>(q, cells.pairs(q), cells.state(q), reply) };
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
#[inline]
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
static FOURS: [u32; 128] = by_pair(
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
static CLOSED: [u32; 128] = by_pair(
    {
        let mut v = [0; Shape::NUM];
        v[Shape::ClosedIn1 as usize] = 1;
        v[Shape::Win as usize] = 8;
        v[Shape::OpenIn1 as usize] = 8;
        v
    },
    8,
);

/// Each sheet's reply at cell `q` ([`reply_at`] for the sheet's mover),
/// or none where the sheets' reply terms are all 0.
#[inline]
pub(super) fn replies(geo: &Geometry, cells: &impl Cells, q: usize, sheets: &Sheets) -> [u8; 2] {
    if !sheets.has_replies() || !cells.state(q).is_empty() {
        return [0; 2];
    }
    let p = cells.pairs(q);
    let sum = CLOSED[p[0] as usize]
        + CLOSED[p[1] as usize]
        + CLOSED[p[2] as usize]
        + CLOSED[p[3] as usize];
    // Exactly one closed (k−1) and no win or open (k−1): the colour's
    // field (closed + 8 × the others, at most 36) is 1.
    if sum & 0x3f != 1 && (sum >> 8) & 0x3f != 1 {
        return [0; 2];
    }
    [0, 1].map(|i| {
        let mover = sheets.mover(i);
        match (sum >> (8 * mover)) & 0x3f {
            1 => reply_at(geo, cells, q, mover),
            _ => 0,
        }
    })
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
    if !cells.state(q).is_empty() {
        return 0;
    }
    let mut dir = None;
    for (d, &p) in cells.pairs(q).iter().enumerate() {
        let s = pair_shape(p, color);
        if s == Shape::ClosedIn1 as u8 {
            if dir.is_some() {
                return 0;
            }
            dir = Some(d);
        } else if s == Shape::OpenIn1 as u8 || s == Shape::Win as u8 {
            return 0;
        }
    }
    let Some(d) = dir else { return 0 };
    // A closed (k−1) has one completion cell; the negative side's first.
    let [left, right] = completions(geo, cells.code(q, d), q, d, color);
    let Some(r) = left.or(right) else { return 0 };
    let p = cells.pairs(r);
    let others: u32 = (0..4)
        .filter(|&e| e != d)
        .map(|e| LEVELS[p[e] as usize])
        .sum();
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
    // Per side: the stones next to `q`, the empty cell after them (if
    // within k − 1, so inside the window) and the stones past it.
    let side = |sign: i32| {
        let near = run(sign, sign);
        let gap = sign * (near + 1);
        let empty = near + 1 < k && field(gap) == 0;
        let far = if empty { run(gap + sign, sign) } else { 0 };
        (near, empty.then_some(gap), far)
    };
    let wins = |n: i32| match rules.rule {
        game::Rule::Freestyle => n >= k,
        game::Rule::Exact => n == k,
    };
    let ((ln, le, lf), (rn, re, rf)) = (side(-1), side(1));
    let (dx, dy) = DIRS[d];
    let step = dy as isize * rules.width as isize + dx as isize;
    // An empty field is a cell of the board, at that offset.
    let cell = |i: i32| (q as isize + i as isize * step) as usize;
    [
        le.filter(|_| wins(ln + 2 + lf + rn)).map(cell),
        re.filter(|_| wins(rn + 2 + rf + ln)).map(cell),
    ]
}
