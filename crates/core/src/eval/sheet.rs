//! Cell scores kept in step with a [`Lines`](super::Lines): two score
//! sheets updated
//! together, each one weight set's scores for one side to move. An
//! evaluator holds one weight set for either mover; two greedy players in
//! one game hold black's weights for black and white's for white.
//!
//! A cell's score is the greedy rule of the brief, `attack × Σ own[mover's
//! shape] + defence × Σ opp[opponent's shape]` over the 4 directions. Each
//! direction's term depends only on the shape pair there, so [`Sheets`]
//! holds a 64-entry table of both sheets' terms by pair (one load gives
//! both, and both sums run side by side in one SIMD register) and, per
//! sheet, the flat array of sums. Occupied cells score −∞, so a max pass
//! over the array never picks them and needs no occupancy test.
//!
//! In the `combo` model a cell's score also adds, once per side, the
//! weight of the combination a stone there makes ([`Combo`]): `attack ×
//! own_combo[mover's] + defence × opp_combo[opponent's]`, from a second
//! table by both colours' combinations (36 entries), added last. Sheets
//! on shape models only skip it (the update loop is specialised per move,
//! not tested per cell); a shape model's entries in that table are 0, and
//! `x + 0.0` is `x`, so a shape model scores bit for bit the same either
//! way, and so does a combo model whose combination weights are 0.
//!
//! A combo model's cell score also looks one forced reply ahead: where a
//! stone at the cell makes exactly one (k−1) for the mover, closed (no
//! open one, no win, so not a [`Combo::DoubleIn1`]), the opponent must
//! block it on its one completion cell, and the score subtracts `defence
//! × opp_combo[c]` for the combination `c` the opponent's blocking stone
//! makes there (after the mover's stone). Forcing the opponent onto its
//! own fork cell costs what taking that cell would have gained. The
//! combination there is the *reply* of the cell; [`Lines`](super::Lines)
//! finds it, and a fourth table by reply holds both sheets' terms, added
//! after the combination term. A reply of [`Combo::None`] adds 0, and so
//! does a combo model whose `opp_combo` weights are 0.
//!
//! Scores are `f64` and always summed in direction order from the same
//! table, so a cell's score is a pure function of its four shape pairs and
//! its occupancy: incremental updates and a rebuild from scratch agree bit
//! for bit, and ties between cells are exact.

use super::combo::{combo_pair, levels, Combo};
use super::shape::{pair_shape, PairIndex, Pairs, Shape};
use super::weights::Weights;
use crate::game::{Cell, Color};
use journal::Journal;
use std::sync::Arc;

mod journal;

/// The number of shape pairs, the size of the term table.
const PAIRS: usize = Shape::NUM * Shape::NUM;

/// The number of pairs of combinations, the size of the combination table.
const COMBO_PAIRS: usize = Combo::NUM * Combo::NUM;

/// Two sheets of cell scores kept in step with a [`Lines`](super::Lines)
/// (which makes them, [`Lines::sheets`](super::Lines::sheets)), each one weight
/// set's `attack × Σ own + defence × Σ opp` per empty cell for one side to
/// move (−∞ on occupied cells), summed in a fixed order so that equal
/// shapes give bit-identical scores.
///
/// ```
/// use mnk_core::eval::{shipped_weights, Lines};
/// use mnk_core::game::{Board, Color, Move, Rules};
/// let rules = Rules::GOMOKU;
/// let mut lines = Lines::new(rules);
/// let w = shipped_weights(rules);
/// // Sheet 0: these weights with black to move; sheet 1: with white.
/// let mut sheets = lines.sheets([(&w, Color::Black), (&w, Color::White)]);
/// let h8: Move = "h8".parse().unwrap();
/// lines.play(h8, Color::Black, Board::new(rules).hash(), &mut sheets);
/// assert_eq!(sheets.scores(1)[rules.index(h8)], f64::NEG_INFINITY);
/// lines.undo(&mut sheets);
/// assert!(sheets.scores(1)[rules.index(h8)].is_finite());
/// ```
#[derive(Clone)]
pub struct Sheets {
    /// Both sheets' term of one direction, by shape pair.
    term: [[f64; 2]; PAIRS],
    /// Both sheets' combination term, by `black × Combo::NUM + white`.
    combo_term: [[f64; 2]; COMBO_PAIRS],
    /// Each sheet's forced-reply term, by the opponent's combination at
    /// the reply cell (the module's doc): `−defence × opp_combo[c]`.
    reply_term: [[f64; 2]; Combo::NUM],
    /// Both sheets' reply terms together, by sheet 0's reply ×
    /// `Combo::NUM` + sheet 1's: one load for a cell's pair of replies.
    reply_pairs: [[f64; 2]; COMBO_PAIRS],
    /// The side to move of each sheet, by [`Color::index`]: whose fours'
    /// replies [`Lines`](super::Lines) looks up for it.
    movers: [usize; 2],
    /// Whether some reply term is nonzero ([`Sheets::has_replies`]).
    replies: bool,
    /// Whether each sheet's weights are a combo model: if neither is, the
    /// combination term (all 0) is skipped.
    combo: [bool; 2],
    /// Score by cell, −∞ if occupied, per sheet.
    scores: [Vec<f64>; 2],
    /// The scores as `f32`, per sheet: see [`Sheets::keys`].
    keys: [Vec<f32>; 2],
    /// Each sheet's empty-board scores and keys, copied in to start a game.
    blank: [Arc<Blank>; 2],
    /// The entries that recorded moves overwrote ([`Sheets::begin_journal`]).
    journal: Journal,
}

/// One sheet's empty-board scores and keys.
#[derive(Debug)]
struct Blank {
    scores: Vec<f64>,
    keys: Vec<f32>,
}

impl std::fmt::Debug for Sheets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sheets")
            .field("cells", &self.scores[0].len())
            .finish_non_exhaustive()
    }
}

/// One sheet's term of one direction, by shape pair.
fn terms(weights: &Weights, mover: Color) -> [f64; PAIRS] {
    let [own, opp] = weights.by_shape();
    let me = mover.index();
    // Entry p is pair index 2p.
    std::array::from_fn(|p| {
        let p = 2 * p as u8;
        let (mine, theirs) = (pair_shape(p, me), pair_shape(p, 1 - me));
        weights.attack * own[mine as usize] + weights.defence * opp[theirs as usize]
    })
}

/// One sheet's combination term, by `black × Combo::NUM + white`.
fn combo_terms(weights: &Weights, mover: Color) -> [f64; COMBO_PAIRS] {
    let [own, opp] = weights.by_combo();
    let me = mover.index();
    std::array::from_fn(|p| {
        let both = [p / Combo::NUM, p % Combo::NUM];
        weights.attack * own[both[me]] + weights.defence * opp[both[1 - me]]
    })
}

/// One sheet's forced-reply term, by the opponent's combination at the
/// reply cell: `−defence × opp_combo[c]` (0 for [`Combo::None`] and in
/// the shape model).
fn reply_terms(weights: &Weights) -> [f64; Combo::NUM] {
    let [_, opp] = weights.by_combo();
    opp.map(|w| -(weights.defence * w))
}

impl Sheets {
    /// Sheet `i` scores with `sheets[i].0` for `sheets[i].1` to move, on
    /// the position whose cells (their shape pairs, what they hold and
    /// each sheet's reply combination, see [`Sheets::apply`]) are `now`,
    /// of a game whose empty board's cells are `blank`.
    pub(crate) fn new<'a>(
        sheets: [(&Weights, Color); 2],
        blank: impl ExactSizeIterator<Item = (&'a Pairs, Cell, [u8; 2])>,
        now: impl Iterator<Item = (&'a Pairs, Cell, [u8; 2])>,
    ) -> Sheets {
        let [a, b] = sheets.map(|(w, mover)| terms(w, mover));
        let [ca, cb] = sheets.map(|(w, mover)| combo_terms(w, mover));
        let [ra, rb] = sheets.map(|(w, _)| reply_terms(w));
        let cells = blank.len();
        let mut s = Sheets {
            term: std::array::from_fn(|p| [a[p], b[p]]),
            combo_term: std::array::from_fn(|p| [ca[p], cb[p]]),
            reply_term: std::array::from_fn(|c| [ra[c], rb[c]]),
            reply_pairs: [[0.0; 2]; COMBO_PAIRS],
            movers: sheets.map(|(_, mover)| mover.index()),
            replies: ra.iter().chain(&rb).any(|&t| t != 0.0),
            combo: sheets.map(|(w, _)| w.combo.is_some()),
            scores: [vec![0.0; cells], vec![0.0; cells]],
            keys: [vec![0.0; cells], vec![0.0; cells]],
            blank: [(); 2].map(|_| {
                Arc::new(Blank {
                    scores: Vec::new(),
                    keys: Vec::new(),
                })
            }),
            journal: Journal::default(),
        };
        s.pair_replies();
        for (cell, (pairs, state, reply)) in blank.enumerate() {
            s.apply(cell, pairs, state, reply);
        }
        s.blank = [0, 1].map(|i| {
            Arc::new(Blank {
                scores: s.scores[i].clone(),
                keys: s.keys[i].clone(),
            })
        });
        for (cell, (pairs, state, reply)) in now.enumerate() {
            s.apply(cell, pairs, state, reply);
        }
        s
    }

    /// Fills `reply_pairs` from `reply_term`.
    fn pair_replies(&mut self) {
        for (r0, row) in self.reply_pairs.chunks_exact_mut(Combo::NUM).enumerate() {
            for (r1, pair) in row.iter_mut().enumerate() {
                *pair = [self.reply_term[r0][0], self.reply_term[r1][1]];
            }
        }
    }

    /// Rescores one cell on both sheets from its shape pairs, what it
    /// holds and, per sheet, its reply (the combination index the
    /// opponent's forced reply makes, 0 if none; read only by combo
    /// sheets): always the same sum in the same order, so equal shapes
    /// give bit-identical scores.
    #[inline]
    pub(crate) fn apply(&mut self, cell: usize, pairs: &Pairs, state: Cell, reply: [u8; 2]) {
        assert!(cell < self.cells(), "cell {cell} of another game");
        assert!(pairs
            .iter()
            .all(|&p| (p as usize) < 2 * PAIRS && p % 2 == 0));
        assert!(reply.iter().all(|&r| (r as usize) < Combo::NUM));
        // SAFETY: all just checked.
        unsafe {
            if self.has_combos() {
                self.apply_unchecked::<true>(cell, pairs, state, reply)
            } else {
                self.apply_unchecked::<false>(cell, pairs, state, reply)
            }
        }
    }

    /// Whether either sheet's reply term is nonzero somewhere: else the
    /// lines need not find replies (a reply adds 0 either way).
    #[inline]
    pub(crate) fn has_replies(&self) -> bool {
        self.replies
    }

    /// The side to move of sheet `i`, by [`Color::index`].
    #[inline]
    pub(crate) fn mover(&self, i: usize) -> usize {
        self.movers[i]
    }

    /// Whether either sheet is of a combo model, so that the combination
    /// term must be added (with `COMBO` in [`Sheets::apply_unchecked`]).
    #[inline]
    pub(crate) fn has_combos(&self) -> bool {
        self.combo[0] | self.combo[1]
    }

    /// [`Sheets::apply`] without bounds checks, for the update loop, with
    /// the cell's pairs read in place: each a byte load, since one of them
    /// was just stored as a byte (a whole-word load would stall on store
    /// forwarding). `COMBO` adds the combination term and each sheet's
    /// reply term (`reply[i]` for sheet `i`); without it the sheets must
    /// have none ([`Sheets::has_combos`]) and `reply` is not read.
    ///
    /// # Safety
    /// `cell` must be below [`Sheets::cells`], the pairs must be pair
    /// indices (even, below 128), and with `COMBO` the replies below
    /// [`Combo::NUM`].
    #[inline(always)]
    pub(crate) unsafe fn apply_unchecked<const COMBO: bool>(
        &mut self,
        cell: usize,
        pairs: &Pairs,
        state: Cell,
        reply: [u8; 2],
    ) {
        if COMBO {
            let combo = combo_pair(levels(pairs));
            debug_assert!(reply.iter().all(|&r| (r as usize) < Combo::NUM));
            let replies = reply[0] as usize * Combo::NUM + reply[1] as usize;
            // SAFETY: the caller's; both indices are below COMBO_PAIRS,
            // as combinations and replies are below Combo::NUM.
            unsafe { self.apply_combo_unchecked(cell, pairs, state, combo, replies) }
            return;
        }
        debug_assert!(!self.has_combos());
        debug_assert!(cell < self.cells());
        // SAFETY: the caller's (pair indices).
        let t = |d: usize| unsafe { term(&self.term, pairs[d]) };
        let (s, k) = sum([t(0), t(1), t(2), t(3), penalty(state)]);
        // SAFETY: the caller's.
        unsafe { self.store(cell, s, k) };
    }

    /// [`Sheets::apply_unchecked`] with `COMBO`, given both colours'
    /// combinations at the cell as the index `combo` (`black ×
    /// Combo::NUM + white`, [`combo_pair`]) and both sheets' replies as
    /// `replies` (sheet 0's × Combo::NUM + sheet 1's): the lines find
    /// them from one sum over the cell's directions.
    ///
    /// # Safety
    /// As for [`Sheets::apply_unchecked`], and `combo` and `replies` below
    /// `Combo::NUM²`.
    #[inline(always)]
    pub(crate) unsafe fn apply_combo_unchecked(
        &mut self,
        cell: usize,
        pairs: &Pairs,
        state: Cell,
        combo: usize,
        replies: usize,
    ) {
        debug_assert!(cell < self.cells());
        debug_assert!(combo < COMBO_PAIRS && replies < COMBO_PAIRS);
        // SAFETY: the caller's.
        let combo = unsafe { self.combo_term.get_unchecked(combo) };
        // SAFETY: the caller's.
        let reply = unsafe { self.reply_pairs.get_unchecked(replies) };
        // SAFETY: the caller's (pair indices).
        let t = |d: usize| unsafe { term(&self.term, pairs[d]) };
        // A reply term of 0 is −0.0 (`reply_terms`), which changes no
        // sum: skipped when every one is 0.
        let (s, k) = if self.replies {
            sum([t(0), t(1), t(2), t(3), penalty(state), combo, reply])
        } else {
            sum([t(0), t(1), t(2), t(3), penalty(state), combo])
        };
        // Only combo sheets record (`Lines` has shape sheets rescore
        // instead): shape sheets pay nothing for it.
        if self.journal.on {
            // SAFETY: the caller's.
            let old = unsafe {
                (
                    [0, 1].map(|i| *self.scores[i].get_unchecked(cell)),
                    [0, 1].map(|i| *self.keys[i].get_unchecked(cell)),
                )
            };
            self.journal.record(cell, old.0, old.1);
        }
        // SAFETY: the caller's.
        unsafe { self.store(cell, s, k) };
    }

    /// Writes both sheets' score and key of `cell`.
    ///
    /// # Safety
    /// `cell` must be below [`Sheets::cells`].
    #[inline(always)]
    unsafe fn store(&mut self, cell: usize, [s0, s1]: [f64; 2], [k0, k1]: [f32; 2]) {
        // SAFETY: the caller's.
        unsafe {
            *self.scores[0].get_unchecked_mut(cell) = s0;
            *self.scores[1].get_unchecked_mut(cell) = s1;
            *self.keys[0].get_unchecked_mut(cell) = k0;
            *self.keys[1].get_unchecked_mut(cell) = k1;
        }
    }

    /// The number of cells both sheets hold.
    #[inline]
    pub(crate) fn cells(&self) -> usize {
        let n = self.scores[0].len().min(self.scores[1].len());
        n.min(self.keys[0].len()).min(self.keys[1].len())
    }

    /// Sheet `i`'s flat score array: one entry per cell, −∞ if occupied.
    #[inline]
    pub fn scores(&self, i: usize) -> &[f64] {
        &self.scores[i]
    }

    /// Sheet `i`'s scores as `f32`, rounded to nearest. Rounding keeps
    /// order (a ≤ b gives key(a) ≤ key(b)), so every best score has the
    /// best key: a choice scans the keys, four to an SSE2 register instead
    /// of two, and compares the exact scores of those few cells only
    /// ([`crate::players::argmax_keyed`]).
    #[inline]
    pub fn keys(&self, i: usize) -> &[f32] {
        &self.keys[i]
    }

    /// Records, until [`Sheets::end_journal`], what the writes of the move
    /// at `ply` (its index in the game) overwrite, for
    /// [`Sheets::take_back`]: a search takes back nearly every move it
    /// scores. Combo sheets only ([`Sheets::has_combos`]): writes without
    /// the combination term are not recorded.
    #[inline]
    pub(crate) fn begin_journal(&mut self, ply: usize) {
        debug_assert!(self.has_combos(), "a journal of shape sheets");
        self.journal.begin(ply);
    }

    /// Stops recording writes.
    #[inline]
    pub(crate) fn end_journal(&mut self) {
        self.journal.end();
    }

    /// Puts back every entry the move at `ply` overwrote, if its writes
    /// were recorded here ([`Sheets::begin_journal`]), and says whether
    /// they were; the sheets are then exactly as before the move.
    #[inline]
    pub(crate) fn take_back(&mut self, ply: usize) -> bool {
        let Some(entries) = self.journal.take(ply) else {
            return false;
        };
        for (cell, scores, keys) in entries {
            let cell = cell as usize;
            for i in 0..2 {
                self.scores[i][cell] = scores[i];
                self.keys[i][cell] = keys[i];
            }
        }
        true
    }

    /// Back to the empty board's scores.
    pub fn reset(&mut self) {
        self.journal.clear();
        for i in 0..2 {
            self.scores[i].copy_from_slice(&self.blank[i].scores);
            self.keys[i].copy_from_slice(&self.blank[i].keys);
        }
    }

    /// Sheet `i` becomes sheet `j` of `other` (another weight set or mover,
    /// same game) from the next [`Sheets::reset`] on ([`Lines::reset`](super::Lines::reset)
    /// calls it), reusing this one's memory. Until then its scores are
    /// those of the sheet it was.
    pub fn reset_to(&mut self, i: usize, other: &Sheets, j: usize) {
        // The recorded entries are the old weights' scores.
        self.journal.clear();
        for (mine, theirs) in self.term.iter_mut().zip(&other.term) {
            mine[i] = theirs[j];
        }
        for (mine, theirs) in self.combo_term.iter_mut().zip(&other.combo_term) {
            mine[i] = theirs[j];
        }
        for (mine, theirs) in self.reply_term.iter_mut().zip(&other.reply_term) {
            mine[i] = theirs[j];
        }
        self.movers[i] = other.movers[j];
        self.replies = self.reply_term.iter().any(|t| t[0] != 0.0 || t[1] != 0.0);
        self.combo[i] = other.combo[j];
        // Only combo sheets read the pairs (a greedy duel of shape models
        // starts every game here).
        if self.has_combos() {
            self.pair_replies();
        }
        if !Arc::ptr_eq(&self.blank[i], &other.blank[j]) {
            self.blank[i] = other.blank[j].clone();
        }
        let n = self.blank[i].scores.len();
        self.scores[i].resize(n, f64::NEG_INFINITY);
        self.keys[i].resize(n, f32::NEG_INFINITY);
    }

    /// Heap bytes these sheets own, their empty-board copies included.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        (0..2)
            .map(|i| {
                let b = &self.blank[i];
                (self.scores[i].capacity() + b.scores.capacity()) * size_of::<f64>()
                    + (self.keys[i].capacity() + b.keys.capacity()) * size_of::<f32>()
            })
            .sum::<usize>()
            + self.journal.heap_bytes()
    }
}

/// Both sheets' term of one direction whose pair is `pair`, read in
/// place: a pair index is the offset in f64s of its entry (twice the
/// entry's number), so no multiplication.
///
/// # Safety
/// `pair` must be a pair index (even, below 128).
#[inline(always)]
unsafe fn term(table: &[[f64; 2]; PAIRS], pair: PairIndex) -> &[f64; 2] {
    debug_assert!((pair as usize) < 2 * PAIRS && pair.is_multiple_of(2));
    let base = table.as_ptr().cast::<f64>();
    // SAFETY: the caller's: the entry at that offset is inside the table
    // and aligned like its entries.
    unsafe { &*base.add(pair as usize).cast::<[f64; 2]>() }
}

/// Both sheets' penalty for what a cell holds, by its code (0 empty, 1
/// or 2 a stone): occupied cells score −∞.
#[inline(always)]
fn penalty(state: Cell) -> &'static [f64; 2] {
    const PENALTY: [[f64; 2]; 4] = [
        [0.0; 2],
        [f64::NEG_INFINITY; 2],
        [f64::NEG_INFINITY; 2],
        [f64::NEG_INFINITY; 2],
    ];
    &PENALTY[state as usize & 3]
}

/// `((a + b) + c) + …`, lane by lane, and the sums as `f32`: both
/// sheets' sums in one SSE2 register on x86-64 (part of its baseline), the
/// same IEEE additions in the same order as the plain code elsewhere.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sum<const N: usize>(v: [&[f64; 2]; N]) -> ([f64; 2], [f32; 2]) {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86-64 baseline; each load reads one
    // `[f64; 2]`, the stores write into arrays of two and four.
    unsafe {
        let mut acc = _mm_loadu_pd(v[0].as_ptr());
        for x in &v[1..] {
            acc = _mm_add_pd(acc, _mm_loadu_pd(x.as_ptr()));
        }
        let (mut out, mut keys) = ([0.0; 2], [0.0f32; 4]);
        _mm_storeu_pd(out.as_mut_ptr(), acc);
        _mm_storeu_ps(keys.as_mut_ptr(), _mm_cvtpd_ps(acc));
        (out, [keys[0], keys[1]])
    }
}

/// `((a + b) + c) + …`, lane by lane, and the sums as `f32`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn sum<const N: usize>(v: [&[f64; 2]; N]) -> ([f64; 2], [f32; 2]) {
    let s: [f64; 2] = std::array::from_fn(|i| v[1..].iter().fold(v[0][i], |a, x| a + x[i]));
    (s, s.map(|x| x as f32))
}
