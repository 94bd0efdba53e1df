//! A combo model's forced-reply term, for [`Lines`](super::Lines): where
//! a stone makes exactly one closed (k−1), the opponent must block on its
//! completion cell, and the cell's score is charged the opponent's
//! `opp_combo` weight of the combination that block makes there (over
//! its three other lines; `sheet.rs` adds the term). Finding that cell
//! reads the stones of the cell's window along the line, and the
//! combination reads the completion cell's pairs, so besides every cell a
//! move touches, the lines rescore the closed (k−1)s that point at a
//! touched cell whose threat levels changed ([`dependents`]).

use super::combo::{combo_in, LEVELS};
use super::geometry::Geometry;
use super::shape::{pair_shape, Pairs, Shape};
use super::sheet::Sheets;
use crate::game;

/// What the reply reads of a cell: its shape pairs and what it holds
/// (`lines.rs`'s cells, which import this module, not the other way).
pub(super) trait Cell {
    /// Both players' shapes per direction.
    fn pairs(&self) -> &Pairs;
    /// What the cell holds.
    fn state(&self) -> game::Cell;
}

/// Rescores cell `q` on combo sheets, with its replies.
#[inline(always)]
pub(super) fn combo_apply(geo: &Geometry, cells: &[impl Cell], q: usize, s: &mut Sheets) {
    let reply = replies(geo, cells, q, s);
    let c = &cells[q];
    // SAFETY: the caller's `q` is a cell of this board, as many as the
    // sheets hold (asserted in `update` and `score_unscored`), the pairs
    // are pair indices, and a reply is a combination index.
    unsafe { s.apply_unchecked::<true>(q, c.pairs(), c.state(), reply) };
}

/// Calls `apply` on every empty cell whose reply may be empty cell `r`:
/// those within k−1 of `r` with a closed (k−1) along the line through
/// `r`. That line then gives `r` a win or a (k−1) of the same colour (the
/// same stones with `r` in place of the other cell), so only those of
/// `r`'s lines are walked, and most cells have none.
#[inline]
pub(super) fn dependents(
    geo: &Geometry,
    cells: &[impl Cell],
    r: usize,
    apply: &mut impl FnMut(usize),
) {
    let c = &cells[r];
    if !c.state().is_empty() || fours(c.pairs()) == 0 {
        return;
    }
    let rules = &geo.rules;
    let (w, h, k) = (rules.width as i32, rules.height as i32, rules.k as i32);
    let (x, y) = (r as i32 % w, r as i32 / w);
    let closed = Shape::ClosedIn1 as u8;
    for (d, &(dx, dy)) in super::geometry::DIRS.iter().enumerate() {
        let colours = FOURS[c.pairs()[d] as usize];
        if colours == 0 {
            continue;
        }
        for i in (1 - k..k).filter(|&i| i != 0) {
            let (qx, qy) = (x + i * dx, y + i * dy);
            if qx < 0 || qx >= w || qy < 0 || qy >= h {
                continue;
            }
            let q = (qy * w + qx) as usize;
            let p = cells[q].pairs()[d];
            let fours =
                (pair_shape(p, 0) == closed) as u8 | ((pair_shape(p, 1) == closed) as u8) << 1;
            if cells[q].state().is_empty() && fours & colours != 0 {
                apply(q);
            }
        }
    }
}

/// By pair index: bit 0 set if black's shape is a win or a (k−1), bit 1
/// if white's is (shapes 1 to 3). A cell with none in its four directions
/// has no reply and is no one's completion cell.
static FOURS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut p = 0;
    while p < 128 {
        let (b, w) = (pair_shape(p as u8, 0), pair_shape(p as u8, 1));
        t[p] = ((b >= 1 && b <= 3) as u8) | ((w >= 1 && w <= 3) as u8) << 1;
        p += 1;
    }
    t
};

/// [`FOURS`] of a cell's four directions together.
#[inline(always)]
fn fours(pairs: &Pairs) -> u8 {
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
static CLOSED: [u16; 128] = {
    let mut t = [0u16; 128];
    let mut p = 0;
    while p < 128 {
        let mut c = 0;
        while c < 2 {
            let s = pair_shape(p as u8, c);
            let v = if s == Shape::ClosedIn1 as u8 {
                1
            } else if s == Shape::Win as u8 || s == Shape::OpenIn1 as u8 {
                8
            } else {
                0
            };
            t[p] |= v << (8 * c);
            c += 1;
        }
        p += 1;
    }
    t
};

/// Each sheet's reply at cell `q` ([`reply_at`] for the sheet's mover),
/// or none where the sheets' reply terms are all 0.
#[inline]
pub(super) fn replies(geo: &Geometry, cells: &[impl Cell], q: usize, sheets: &Sheets) -> [u8; 2] {
    let c = &cells[q];
    if !sheets.has_replies() || !c.state().is_empty() {
        return [0; 2];
    }
    let p = c.pairs();
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
/// the mover's); else 0. It reads the cells of `q`'s window on that line
/// and the completion cell's pairs, so it changes only with `q`'s codes
/// or the completion cell's levels.
#[inline]
pub(super) fn reply_at(geo: &Geometry, cells: &[impl Cell], q: usize, color: usize) -> u8 {
    let me = &cells[q];
    if !me.state().is_empty() {
        return 0;
    }
    let mut dir = None;
    for (d, &p) in me.pairs().iter().enumerate() {
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
    let Some(r) = completion(geo, cells, q, d, color) else {
        return 0;
    };
    let p = cells[r].pairs();
    let others: u32 = (0..4)
        .filter(|&e| e != d)
        .map(|e| LEVELS[p[e] as usize])
        .sum();
    combo_in(others, 1 - color) as u8
}

/// The empty cell within k−1 of `q` along direction `d` where a `color`
/// stone, with one on `q`, makes a winning line through `q` (the one on
/// the negative side first; a closed (k−1) has one). Only the first cell
/// past `q`'s own run on either side can be it: any later one leaves a
/// gap. Runs are counted to k + 1 stones a side, past which neither
/// rule's verdict changes, so the answer depends on `q`'s window only.
fn completion(
    geo: &Geometry,
    cells: &[impl Cell],
    q: usize,
    d: usize,
    color: usize,
) -> Option<usize> {
    let rules = &geo.rules;
    let (w, h, k) = (rules.width as i32, rules.height as i32, rules.k as i32);
    let (x, y) = (q as i32 % w, q as i32 / w);
    let (dx, dy) = super::geometry::DIRS[d];
    let at = |i: i32| {
        let (cx, cy) = (x + i * dx, y + i * dy);
        (cx >= 0 && cx < w && cy >= 0 && cy < h).then_some((cy * w + cx) as usize)
    };
    let stone = color as u8 + 1;
    // From offset `i` on, the `color` stones in a row (at most k + 1).
    let run = |mut i: i32, sign: i32| {
        let mut n = 0;
        while n <= k && at(i).is_some_and(|c| cells[c].state() as u8 == stone) {
            n += 1;
            i += sign;
        }
        n
    };
    // Per side: the stones next to `q`, the empty cell after them (if
    // within k − 1) and the stones past it.
    let side = |sign: i32| {
        let near = run(sign, sign);
        let gap = sign * (near + 1);
        let empty = (near + 1 < k)
            .then(|| at(gap))
            .flatten()
            .filter(|&c| cells[c].state().is_empty());
        let far = empty.map_or(0, |_| run(gap + sign, sign));
        (near, empty, far)
    };
    let (left, right) = (side(-1), side(1));
    let wins = |n: i32| match rules.rule {
        game::Rule::Freestyle => n >= k,
        game::Rule::Exact => n == k,
    };
    let (ln, le, lf) = left;
    let (rn, re, rf) = right;
    if let Some(r) = le.filter(|_| wins(ln + 2 + lf + rn)) {
        return Some(r);
    }
    re.filter(|_| wins(rn + 2 + rf + ln))
}
