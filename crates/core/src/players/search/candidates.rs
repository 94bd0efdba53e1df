//! Choosing a node's candidates: the `width` best cells by static score,
//! equal scores centre-out, found from a floor that only a few cells reach
//! and remembered by position (see [`Search::compute_candidates`] and
//! [`Search::candidates`]).

use super::Search;
use crate::eval::Threat;
use crate::game::Color;

impl Search {
    /// Fills `out` with the candidates of the position, best first
    /// ([`Search::compute_candidates`]), remembered by position: iterative
    /// deepening searches the shallower plies again at every depth, and the
    /// next move's search much of this one's tree, so many lists (two in
    /// five in depth-4 games) are found rather than computed. A list is a
    /// function of the position (its scores are: the evaluator sums each
    /// cell's terms in a fixed order), so a remembered one is the same list.
    pub(super) fn candidates(&mut self, mover: Color, out: &mut Vec<(f64, u16)>) {
        let key = self.board.hash();
        if let Some(cells) = self.remembered.get(key, mover) {
            let scores = self.eval.scores(mover);
            out.clear();
            out.extend(cells.iter().map(|&c| (scores[c as usize], c)));
            return;
        }
        self.compute_candidates(mover, out);
        self.remembered.put(key, mover, out);
    }

    /// Whether the candidates of the position with `mover` to move are
    /// remembered ([`Search::candidates`] would find them).
    pub(super) fn remembers(&self, mover: Color) -> bool {
        self.remembered.get(self.board.hash(), mover).is_some()
    }

    /// The first of the candidates ([`Search::compute_candidates`]), if
    /// any: the best cell by static score, the more central of equals.
    /// Its key is the largest, so it is among the few cells of that key:
    /// two passes over the keys, against the floor, pool and places of a
    /// whole list.
    pub(super) fn best_candidate(&self, mover: Color) -> Option<(f64, u16)> {
        let (scores, keys) = (self.eval.scores(mover), self.eval.keys(mover));
        let top = maxima::<BLOCK>(keys)
            .iter()
            .fold(f32::NEG_INFINITY, |m, &k| if k > m { k } else { m });
        // Only occupied cells (−∞): none, as `compute_candidates`'s floor
        // leaves none.
        if top < -f32::MAX {
            return None;
        }
        let (mut best, mut place) = (f64::NEG_INFINITY, u16::MAX);
        for (b, block) in keys.chunks(BLOCK).enumerate() {
            let mut reach = block_mask(block, top);
            while reach != 0 {
                let cell = b * BLOCK + reach.trailing_zeros() as usize;
                reach &= reach - 1;
                let (s, r) = (scores[cell], self.rank[cell]);
                if s > best || (s == best && r < place) {
                    (best, place) = (s, r);
                }
            }
        }
        Some((best, self.centre_out[place as usize]))
    }

    /// Whether `cell` is among the candidates of a node free of threats
    /// ([`Search::compute_candidates`], then the mover's fours that the
    /// width left out): fewer than `width` cells ahead of it, or a four.
    /// A pass over the keys, where a list takes the floor, pool and places.
    pub(super) fn is_candidate(&self, mover: Color, cell: u16) -> bool {
        let (scores, keys) = (self.eval.scores(mover), self.eval.keys(mover));
        let cell = cell as usize;
        let (Some(&s), Some(&key)) = (scores.get(cell), keys.get(cell)) else {
            return false;
        };
        // Occupied, as no candidate is.
        if key < -f32::MAX {
            return false;
        }
        let lines = self.eval.lines();
        if lines.has_threat_cell(mover, Threat::Four)
            && lines.threat_cells(mover, Threat::Four).any(|c| c == cell)
        {
            return true;
        }
        // A higher key is a higher score; an equal one is compared exactly.
        let width = self.limits.width.max(1);
        let mut ahead = keys.iter().map(|&k| u32::from(k > key)).sum::<u32>() as usize;
        if ahead >= width {
            return false;
        }
        let r = self.rank[cell];
        for (b, block) in keys.chunks(BLOCK).enumerate() {
            let mut reach = block_mask(block, key);
            while reach != 0 {
                let q = b * BLOCK + reach.trailing_zeros() as usize;
                reach &= reach - 1;
                let t = scores[q];
                if keys[q] == key && (t > s || (t == s && self.rank[q] < r)) {
                    ahead += 1;
                }
            }
        }
        ahead < width
    }

    /// Fills `out` with the best `width` cells by static score, best first,
    /// equal scores centre-out (the more central first).
    ///
    /// That is the first `width` cells in the order (score descending, place
    /// in `centre_out` ascending), found without visiting every cell in
    /// that order (that scan was a quarter of a depth-4 game's time):
    /// 1. A floor: the scores' `f32` keys ([`Evaluator::keys`], half the
    ///    bytes to read, twice the lanes) are dealt into `2 × width`
    ///    interleaved groups ([`groups`]), and the `width`-th best group
    ///    maximum is a key that at least `width` distinct cells reach. No
    ///    cell below it can be a candidate: rounding keeps order, so the
    ///    `width` cells above a lower key all score higher. Each group
    ///    spans the board, so the floor is high: in depth-4 games about 11
    ///    cells reach it, against 9 at best.
    /// 2. The cells that reach it, a block of [`BLOCK`] keys at a time: a
    ///    bit mask of the block's by packed compares, taken bit by bit.
    /// 3. Each of those cells goes to its place by exact score, the number
    ///    of others ahead of it: no data-dependent branches, which an
    ///    insertion sort of cells in board order mispredicts.
    ///
    /// The floor's count and steps 2 and 3 are SSE2 on x86-64 (its
    /// baseline): 6.9% fewer instructions in depth-8 games than the
    /// portable loops, which the compiler did not pack as well.
    ///
    /// When more than [`POOL`] cells reach the floor (many equal scores, or
    /// a board too small for groups), they are inserted one by one instead.
    ///
    /// [`Evaluator::keys`]: crate::eval::Evaluator::keys
    pub(super) fn compute_candidates(&self, mover: Color, out: &mut Vec<(f64, u16)>) {
        out.clear();
        let width = self.limits.width.max(1);
        let (scores, keys) = (self.eval.scores(mover), self.eval.keys(mover));
        let rank = &self.rank;
        let floor = floor(keys, width, self.groups);
        // The pool's places as floats, so that comparing pool entries is
        // one packed operation; −∞ pads it to whole lanes, and is never
        // ahead of a cell that reached the floor.
        let mut pool_score = [f64::NEG_INFINITY; POOL];
        let mut pool_rank = [0.0; POOL];
        let mut n = 0;
        for (b, block) in keys.chunks(BLOCK).enumerate() {
            // A block is tested at once (a block with none is skipped),
            // then its cells that reach the floor are taken bit by bit.
            let mut reach = block_mask(block, floor);
            while reach != 0 {
                if n == POOL {
                    self.insert_all(scores, keys, floor, out);
                    return;
                }
                let cell = b * BLOCK + reach.trailing_zeros() as usize;
                reach &= reach - 1;
                (pool_score[n], pool_rank[n]) = (scores[cell], rank[cell] as f64);
                n += 1;
            }
        }
        out.resize(width.min(n), (0.0, 0));
        let pairs = n.div_ceil(2);
        for i in 0..n {
            let (s, r) = (pool_score[i], pool_rank[i]);
            let ahead = ahead(&pool_score, &pool_rank, pairs, s, r);
            if ahead < width {
                out[ahead] = (s, self.centre_out[r as usize]);
            }
        }
    }

    /// [`Search::candidates`] by inserting every cell whose key reaches
    /// `key_floor` into the best so far, for when too many do to place
    /// them at once.
    #[cold]
    fn insert_all(&self, scores: &[f64], keys: &[f32], key_floor: f32, out: &mut Vec<(f64, u16)>) {
        out.clear();
        let width = self.limits.width.max(1);
        let mut floor = f64::NEG_INFINITY;
        for ((&s, &k), &r) in scores.iter().zip(keys).zip(&self.rank) {
            if k < key_floor || s < floor {
                continue;
            }
            // Held as (score, place) until the end.
            if out.len() == width {
                let (ws, wr) = out[width - 1];
                if s < ws || (s == ws && r > wr) {
                    continue;
                }
                out.pop();
            }
            let mut j = out.len();
            out.push((s, r));
            while j > 0 && (out[j - 1].0 < s || (out[j - 1].0 == s && out[j - 1].1 > r)) {
                out[j] = out[j - 1];
                j -= 1;
            }
            out[j] = (s, r);
            if out.len() == width {
                floor = out[width - 1].0;
            }
        }
        for c in out.iter_mut() {
            c.1 = self.centre_out[c.1 as usize];
        }
    }
}

/// Candidate lists by position: a direct-mapped table of 2^[`REMEMBERED_BITS`]
/// lists, each replaced by the next position that maps to its slot. A slot
/// is `[key (4 words), colour to move + 1 (0: empty), length, cells…]`.
#[derive(Clone)]
pub(super) struct Remembered {
    /// Words per slot: 6 + the width; no table (nothing remembered) for
    /// widths over [`MAX_GROUPS`].
    stride: usize,
    slots: Vec<u16>,
}

/// log2 of the slots of [`Remembered`]: 4096 slots, 120 KiB at width 9,
/// which stays in the second-level cache (2^14 slots found more lists but
/// made `mnk bench`, whose positions are all new, 15% slower).
const REMEMBERED_BITS: u32 = 12;

impl Remembered {
    pub(super) fn new(width: usize) -> Remembered {
        let width = width.max(1);
        if width > MAX_GROUPS {
            return Remembered {
                stride: 0,
                slots: Vec::new(),
            };
        }
        let stride = 6 + width;
        Remembered {
            stride,
            slots: vec![0; stride << REMEMBERED_BITS],
        }
    }

    /// Heap bytes of the slots.
    pub(super) fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<u16>()
    }

    fn slot(&self, key: u64) -> std::ops::Range<usize> {
        let i = (key as usize) & ((1 << REMEMBERED_BITS) - 1);
        i * self.stride..(i + 1) * self.stride
    }

    /// The list remembered for the position of hash `key` with `mover` to
    /// move.
    #[inline]
    fn get(&self, key: u64, mover: Color) -> Option<&[u16]> {
        if self.slots.is_empty() {
            return None;
        }
        let s = &self.slots[self.slot(key)];
        let stored = s[..4]
            .iter()
            .rev()
            .fold(0u64, |k, &w| (k << 16) | u64::from(w));
        (stored == key && s[4] == mover.index() as u16 + 1).then(|| &s[6..6 + s[5] as usize])
    }

    /// Remembers `list` for the position of hash `key` with `mover` to move.
    #[inline]
    fn put(&mut self, key: u64, mover: Color, list: &[(f64, u16)]) {
        if self.slots.is_empty() || list.len() + 6 > self.stride {
            return;
        }
        let range = self.slot(key);
        let s = &mut self.slots[range];
        for (j, w) in s[..4].iter_mut().enumerate() {
            *w = (key >> (16 * j)) as u16;
        }
        s[4] = mover.index() as u16 + 1;
        s[5] = list.len() as u16;
        for (w, &(_, c)) in s[6..].iter_mut().zip(list) {
            *w = c;
        }
    }
}

/// Cells per block when [`Search::candidates`] looks for those reaching
/// its floor: 16 keys, a cache line.
const BLOCK: usize = 16;

/// Packed comparisons in [`Search::candidates`] go this many at a time.
const LANES: usize = 4;

/// At most this many cells reaching the floor are placed at once by
/// [`Search::candidates`] (more are inserted one by one).
const POOL: usize = 32;

/// At most this many groups for the floor (widths up to 32); wider
/// searches have none.
const MAX_GROUPS: usize = 64;

/// How many interleaved groups (cell index modulo the count) the floor of
/// [`Search::candidates`] deals the keys into: `2 × width` rounded up to
/// whole [`LANES`], so that the maxima stay in registers, and a lane more
/// while that count and the board's width divide one another, since the
/// groups would then be whole columns (one far from the stones has no good
/// cell); 0 (no floor) where a group would have fewer than 4 cells.
pub(super) fn groups(width: usize, rules: &crate::game::Rules) -> usize {
    let (cells, side) = (rules.cells(), rules.width as usize);
    let mut g = (2 * width.max(1)).next_multiple_of(LANES);
    // Bounded: on a board 1, 2 or 4 cells wide every count of whole
    // lanes is a multiple of the width.
    while g <= MAX_GROUPS && (g.is_multiple_of(side) || side.is_multiple_of(g)) {
        g += LANES;
    }
    if g > MAX_GROUPS || 4 * g > cells {
        0
    } else {
        g
    }
}

/// A key below which no cell is among the best `width` (−f32::MAX, which
/// only occupied cells are below, when `groups` is 0): the `width`-th best
/// of the maxima of `groups` interleaved groups of cells, which `width`
/// distinct cells reach.
fn floor(keys: &[f32], width: usize, groups: usize) -> f32 {
    // One copy per group count, so that each group's maximum has a
    // register lane of its own.
    macro_rules! by_groups {
        ($($g:literal)*) => {
            match groups {
                $($g => floor_of(&maxima::<$g>(keys), width),)*
                _ => -f32::MAX,
            }
        };
    }
    by_groups!(4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64)
}

/// The maximum key of each of `G` interleaved groups (cell index modulo
/// `G`).
#[inline(always)]
fn maxima<const G: usize>(keys: &[f32]) -> [f32; G] {
    let mut best = [f32::NEG_INFINITY; G];
    let mut parts = keys.chunks_exact(G);
    // Not `f32::max`, whose NaN rule keeps it from compiling to a packed
    // max.
    let fold = |best: &mut [f32; G], part: &[f32]| {
        for (b, &k) in best.iter_mut().zip(part) {
            *b = if k > *b { k } else { *b };
        }
    };
    for part in &mut parts {
        fold(&mut best, part);
    }
    fold(&mut best, parts.remainder());
    best
}

/// The largest of `maxima` that `width` of them reach: counting rather
/// than sorting, which vectorises. Four candidates' counts at a time, one
/// maximum broadcast against them per step, so that no count needs a
/// horizontal sum (a count per candidate took twice the instructions).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn floor_of<const G: usize>(maxima: &[f32; G], width: usize) -> f32 {
    use std::arch::x86_64::*;
    const REGS: usize = MAX_GROUPS / LANES;
    // SAFETY: SSE2 is part of the x86-64 baseline; every load reads four
    // f32 of `maxima` (G is whole lanes, at most MAX_GROUPS).
    unsafe {
        let p = maxima.as_ptr();
        let mut reach = [_mm_setzero_si128(); REGS];
        for &u in maxima {
            let u = _mm_set1_ps(u);
            for (b, r) in reach.iter_mut().enumerate().take(G / LANES) {
                let v = _mm_loadu_ps(p.add(b * LANES));
                // All ones (−1) where `u` reaches `v`.
                *r = _mm_sub_epi32(*r, _mm_castps_si128(_mm_cmple_ps(v, u)));
            }
        }
        let need = _mm_set1_epi32(width as i32 - 1);
        let none = _mm_set1_ps(f32::NEG_INFINITY);
        let mut best = none;
        for (b, r) in reach.iter().enumerate().take(G / LANES) {
            let v = _mm_loadu_ps(p.add(b * LANES));
            let ok = _mm_castsi128_ps(_mm_cmpgt_epi32(*r, need));
            best = _mm_max_ps(best, _mm_or_ps(_mm_and_ps(ok, v), _mm_andnot_ps(ok, none)));
        }
        let mut lanes = [0.0f32; LANES];
        _mm_storeu_ps(lanes.as_mut_ptr(), best);
        let floor = lanes.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
        floor.max(-f32::MAX)
    }
}

/// The largest of `maxima` that `width` of them reach: counting rather
/// than sorting, which vectorises.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn floor_of<const G: usize>(maxima: &[f32; G], width: usize) -> f32 {
    let mut floor = f32::NEG_INFINITY;
    for &v in maxima {
        let mut reach = 0;
        for u in maxima.chunks_exact(LANES) {
            for &u in u {
                reach += (u >= v) as usize;
            }
        }
        floor = if reach >= width && v > floor {
            v
        } else {
            floor
        };
    }
    floor.max(-f32::MAX)
}

/// Bit j set where `block[j]` reaches `floor`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn reaching(block: &[f32; BLOCK], floor: f32) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86-64 baseline; each load reads four
    // f32 of the block.
    unsafe {
        let (p, f) = (block.as_ptr(), _mm_set1_ps(floor));
        let mask = |i: usize| _mm_movemask_ps(_mm_cmpge_ps(_mm_loadu_ps(p.add(i)), f)) as u32;
        mask(0) | mask(4) << 4 | mask(8) << 8 | mask(12) << 12
    }
}

/// Bit j set where `block[j]` reaches `floor`, for a whole block
/// ([`reaching`]) or the board's last, shorter one.
#[inline(always)]
fn block_mask(block: &[f32], floor: f32) -> u32 {
    match <&[f32; BLOCK]>::try_from(block) {
        Ok(full) => reaching(full, floor),
        Err(_) => (block.iter().enumerate()).fold(0, |m, (j, &k)| m | u32::from(k >= floor) << j),
    }
}

/// Bit j set where `block[j]` reaches `floor`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn reaching(block: &[f32; BLOCK], floor: f32) -> u32 {
    (block.iter().enumerate()).fold(0, |m, (j, &k)| m | u32::from(k >= floor) << j)
}

/// How many of the first `2 × pairs` pool entries (`scores`, `ranks`)
/// are ahead of (`s`, `r`): a higher score, or an equal one nearer the
/// centre. Packed comparisons, two entries at a time; the padding (−∞)
/// is ahead of nothing. (Comparing each entry with all the others at
/// once, the counts added in place, took more instructions: the pool's
/// scores, ranks and counts do not fit in the registers together.)
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn ahead(scores: &[f64; POOL], ranks: &[f64; POOL], pairs: usize, s: f64, r: f64) -> usize {
    use std::arch::x86_64::*;
    debug_assert!(2 * pairs <= POOL);
    // SAFETY: SSE2 is part of the x86-64 baseline; each load reads two
    // f64 within the first `2 × pairs` of a pool array.
    unsafe {
        let (s, r) = (_mm_set1_pd(s), _mm_set1_pd(r));
        let mut acc = _mm_setzero_si128();
        for j in 0..pairs.min(POOL / 2) {
            let t = _mm_loadu_pd(scores.as_ptr().add(2 * j));
            let q = _mm_loadu_pd(ranks.as_ptr().add(2 * j));
            let tie = _mm_and_pd(_mm_cmpeq_pd(t, s), _mm_cmplt_pd(q, r));
            let m = _mm_or_pd(_mm_cmpgt_pd(t, s), tie);
            // All ones (−1) where the entry is ahead.
            acc = _mm_sub_epi64(acc, _mm_castpd_si128(m));
        }
        let both = _mm_add_epi64(acc, _mm_unpackhi_epi64(acc, acc));
        _mm_cvtsi128_si64(both) as usize
    }
}

/// How many of the first `2 × pairs` pool entries are ahead of (`s`,
/// `r`).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn ahead(scores: &[f64; POOL], ranks: &[f64; POOL], pairs: usize, s: f64, r: f64) -> usize {
    let m = (2 * pairs).min(POOL);
    (scores[..m].iter().zip(&ranks[..m]))
        .map(|(&t, &q)| ((t > s) | ((t == s) & (q < r))) as usize)
        .sum()
}
