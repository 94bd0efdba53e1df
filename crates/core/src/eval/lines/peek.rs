//! Reading a position one stone ahead without playing it
//! ([`Lines::peek`]): what a search leaf needs, at a fraction of a play and
//! an undo.

use super::{can_win, recount_stone, shape_for, Cell, ComboCounts, Lines, ShapeCounts};
use crate::eval::combo::{combo_at, levels, Combo, LEVELS};
use crate::eval::shape::{pair_shape, position, LineClassifier, PairIndex, Shape};
use crate::eval::threat_cells::{is_threat, Threat, COUNTS};
use crate::game::{self, Color};

/// What a stone on an empty cell would leave, read off the lines without
/// playing it ([`Lines::peek`]): what a search leaf needs, at a fraction
/// of a play and an undo.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Peek {
    /// The shape counts after the stone.
    pub(crate) counts: ShapeCounts,
    /// The stones per combination after the stone, where the lines keep
    /// them (a combo model's board value); else unread.
    pub(crate) combos: ComboCounts,
    /// Whether the stone's opponent then has an empty cell that wins in
    /// two ([`Threat::WinInTwo`]).
    pub(crate) reply_wins_in_two: bool,
    /// Whether the stone's opponent then has an empty cell that wins in
    /// three ([`Threat::WinInThree`]) while the stone's side has no four
    /// to make; read only where the opponent has no cell that wins in
    /// two (false there).
    pub(crate) reply_wins_in_three: bool,
}

impl Peek {
    /// Whether `color` then has a stone with a (k−1) shape
    /// ([`Lines::can_win_now`]).
    #[inline]
    pub(crate) fn can_win_now(&self, color: Color) -> bool {
        can_win(&self.counts, color)
    }
}

impl Lines {
    /// What a `color` stone on the empty `cell` would leave ([`Peek`]),
    /// without playing it: the same counts and threat cells that
    /// [`Lines::play_unscored`] would make, read rather than written, so no
    /// undo is needed. `None` where the lines cannot (counts not kept, or
    /// codes classified by a memoising classifier): play the stone instead.
    ///
    /// Each cell a stone touches shares one line with it, so each changes
    /// in one direction: its new pair is one table lookup, and the counts
    /// and the opponent's cells that win in two follow from the old and
    /// new pairs alone.
    #[inline]
    pub(crate) fn peek(&self, cell: usize, color: Color) -> Option<Peek> {
        let LineClassifier::Dense(table) = &self.classifier else {
            return None;
        };
        if !self.track_counts || !self.high.is_empty() {
            return None;
        }
        // Specialised, so that a shape model's leaves pay nothing for the
        // combinations.
        Some(if self.track_combos {
            self.peek_with::<true>(cell, color, table)
        } else {
            self.peek_with::<false>(cell, color, table)
        })
    }

    /// [`Lines::peek`] on a flat table, counting the stones per
    /// combination too when `COMBOS` (they are left 0 otherwise).
    #[inline(always)]
    fn peek_with<const COMBOS: bool>(
        &self,
        cell: usize,
        color: Color,
        table: &[PairIndex],
    ) -> Peek {
        let state = game::Cell::from(color) as usize;
        let reply = color.opponent();
        let mut counts = self.counts;
        let me = &self.cells[cell];
        debug_assert!(me.state.is_empty(), "peek at an occupied cell");
        for &p in &me.pairs {
            counts[state][shape_for(state, p)] += 1;
        }
        let mut combos = [[0; Combo::NUM]; 3];
        if COMBOS {
            combos = self.combos;
            combos[state][combo_at(&me.pairs, state - 1) as usize] += 1;
        }
        let [twos, threes, fours] = self.reply_threats(reply);
        let mut wins_in_two = twos as i32;
        if self.threats.makes(cell, reply, Threat::WinInTwo) {
            wins_in_two -= 1;
        }
        // A touched stone's shapes are recounted (its pairs are as
        // before: its levels after the peeked stone have one direction's
        // term replaced).
        let mut recount = |c: &Cell, old: PairIndex, new: PairIndex| {
            recount_stone(
                &mut counts,
                COMBOS.then_some(&mut combos),
                c.state as usize,
                (old, new),
                || levels(&c.pairs) - LEVELS[old as usize] + LEVELS[new as usize],
            );
        };
        if wins_in_two == 0 {
            // A stone never gives the opponent a threat (it only blocks
            // its lines; `threat_cells.rs` tests it on every flat table),
            // so with no cell that wins in two left there is none after:
            // the empty touched cells need no look, only the stones. Most
            // leaves: 4.2% fewer instructions in depth-8 games.
            self.for_each_touched_stone(cell, color, table, |c, old, new| recount(c, old, new));
        } else {
            self.for_each_touched(cell, color, table, |q, c, old, new| {
                if !c.state.is_empty() {
                    recount(c, old, new);
                } else {
                    // SAFETY: `q` is a touched cell of this board.
                    wins_in_two += unsafe {
                        self.threats
                            .change_in(q, (old, new), reply, Threat::WinInTwo)
                    };
                }
            });
        }
        let reply_wins_in_three = wins_in_two == 0
            && threes > 0
            && self.wins_in_three_after(cell, color, table, (threes, fours));
        Peek {
            counts,
            combos,
            reply_wins_in_two: wins_in_two > 0,
            reply_wins_in_three,
        }
    }

    /// How many cells `reply` has that win in two and that win in three,
    /// and (where it has the latter) how many its opponent has that make
    /// a four: the same for every peek of a position (a node's leaves),
    /// so counted at its first and remembered until a move.
    #[inline(always)]
    fn reply_threats(&self, reply: Color) -> [u32; 3] {
        let (at, c, counts) = self.peeked.get();
        if at == self.updates && c == reply.index() {
            return counts;
        }
        let count = |c: Color, kind| self.threats.count(c, kind) as u32;
        let threes = count(reply, Threat::WinInThree);
        let fours = if threes > 0 {
            count(reply.opponent(), Threat::Four)
        } else {
            0
        };
        let counts = [count(reply, Threat::WinInTwo), threes, fours];
        self.peeked.set((self.updates, reply.index(), counts));
        counts
    }

    /// For [`Lines::peek`]: whether, after a `color` stone on `cell`, the
    /// opponent still has a cell that wins in three and `color` has no
    /// four to make. A second pass over the touched cells, taken only
    /// where the opponent had such a cell before (a stone never gives
    /// the opponent one). `counts` are the opponent's cells that win in
    /// three and `color`'s that make a four before the stone.
    #[cold]
    fn wins_in_three_after(
        &self,
        cell: usize,
        color: Color,
        table: &[PairIndex],
        counts: (u32, u32),
    ) -> bool {
        let reply = color.opponent();
        let count = |n: u32, c: Color, kind: Threat| {
            n as i32 - i32::from(self.threats.makes(cell, c, kind))
        };
        let (mut threes, mut fours) = (
            count(counts.0, reply, Threat::WinInThree),
            count(counts.1, color, Threat::Four),
        );
        self.for_each_touched(cell, color, table, |q, c, old, new| {
            if c.state.is_empty() {
                // SAFETY: `q` is a touched cell of this board.
                unsafe {
                    threes += self
                        .threats
                        .change_in(q, (old, new), reply, Threat::WinInThree);
                    fours += self.threats.change_in(q, (old, new), color, Threat::Four);
                }
            }
        });
        threes > 0 && fours == 0
    }

    /// The one cell that completes k after a `color` stone on the empty
    /// `cell`, where that stone makes one four and no more (a closed
    /// (k−1) in one direction, [`Shape::ClosedIn1`], and no (k−1) in
    /// another): read off the line codes without playing it, for the
    /// threat search to look up the position after the four and its
    /// forced block. `None` where the lines cannot say (codes classified
    /// by a memoising classifier): play the stone instead.
    ///
    /// The completion cell is an empty field of `cell`'s code in the
    /// four's direction (the win runs through both), the one whose pair
    /// there, reclassified with the stone, shows a win: one lookup each.
    /// No other direction has one: a win through `cell` and an empty cell
    /// of another line would make the stone a (k−1) there too.
    #[inline]
    pub(crate) fn four_completion(&self, cell: usize, color: Color) -> Option<usize> {
        let LineClassifier::Dense(table) = &self.classifier else {
            return None;
        };
        if !self.high.is_empty() {
            return None;
        }
        let geo = &*self.geo;
        let me = &self.cells[cell];
        debug_assert!(me.state.is_empty(), "a four on an occupied cell");
        let closed = |p: PairIndex| pair_shape(p, color.index()) == Shape::ClosedIn1 as u8;
        let d = me.pairs.iter().position(|&p| closed(p))?;
        let flip = game::Cell::from(color) as u64;
        let top = 2 * (2 * geo.radius - 1);
        let code = me.codes[d];
        // Empty fields are 00 (stones 01 or 10, off the board 11); the
        // code's 2r fields are its low 4r bits.
        let mask = (1u64 << (4 * geo.radius)) - 1;
        let mut empty = !(code | code >> 1) & 0x5555_5555_5555_5555 & mask;
        let mut found = None;
        while empty != 0 {
            let bit = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let q = cell.wrapping_add_signed(geo.fields[d][bit / 2]);
            debug_assert!(q < self.cells.len());
            // SAFETY: an empty field is on the board, so `q` is a cell of
            // it, and a flat table has an entry for every code of 2r
            // fields (as in `for_each_touched_stone`).
            let new = unsafe {
                let c = self.cells.get_unchecked(q);
                *table.get_unchecked((c.codes[d] ^ (flip << (top - bit))) as usize)
            };
            if pair_shape(new, color.index()) == Shape::Win as u8 {
                debug_assert!(found.is_none(), "a closed four with two completions");
                found = Some(q);
                if !cfg!(debug_assertions) {
                    break;
                }
            }
        }
        found
    }

    /// Whether a `color` stone `i` steps along direction `d` (the order
    /// of [`crate::eval::geometry::DIRS`]) from the empty `cell`, where
    /// the opponent makes a four now, would leave it making none
    /// ([`Threat::Four`]): one lookup of the cell's code with the stone.
    /// False where it would not, where the stone's cell is off `cell`'s
    /// window, and where the lines cannot say (as for a peek).
    #[inline]
    pub(crate) fn stone_blocks_four(&self, cell: usize, d: usize, i: i32, color: Color) -> bool {
        let LineClassifier::Dense(table) = &self.classifier else {
            return false;
        };
        let r = self.geo.radius;
        if !self.track_counts || !self.high.is_empty() || i == 0 || i.unsigned_abs() as usize > r {
            return false;
        }
        let c = &self.cells[cell];
        let shift = 2 * position(i, r);
        debug_assert!(c.codes[d] >> shift & 3 == 0, "a stone on an occupied cell");
        let code = c.codes[d] ^ ((game::Cell::from(color) as u64) << shift);
        debug_assert!((code as usize) < table.len());
        // SAFETY: a flat table has an entry for every code of 2r fields,
        // and `cell` is a cell of this board (indexed above).
        unsafe {
            let new = *table.get_unchecked(code as usize);
            self.threats
                .change_in(cell, (c.pairs[d], new), color.opponent(), Threat::Four)
                < 0
        }
    }

    /// Whether the empty `cell` would make a four for `color`
    /// ([`Threat::Four`]) with `stones` added, each `(d, i, stone)` a
    /// stone of colour `stone` `i` steps from `cell` along direction `d`
    /// (the order of [`crate::eval::geometry::DIRS`]; one off the window
    /// changes nothing, two in one direction share its code). `None`
    /// where the lines cannot say (as for a peek).
    #[inline]
    pub(crate) fn four_with(
        &self,
        cell: usize,
        color: Color,
        stones: [(usize, i32, Color); 2],
    ) -> Option<bool> {
        let LineClassifier::Dense(table) = &self.classifier else {
            return None;
        };
        if !self.track_counts || !self.high.is_empty() {
            return None;
        }
        let r = self.geo.radius;
        let c = &self.cells[cell];
        let mut codes = c.codes;
        for (d, i, stone) in stones {
            if i != 0 && i.unsigned_abs() as usize <= r {
                let shift = 2 * position(i, r);
                debug_assert!(codes[d] >> shift & 3 == 0, "a stone on an occupied cell");
                codes[d] ^= (game::Cell::from(stone) as u64) << shift;
            }
        }
        let counts = &COUNTS[color.index()];
        let mut sum = (self.threats.sums(true)[cell] >> (16 * color.index())) as u16;
        for d in (0..4).filter(|&d| codes[d] != c.codes[d]) {
            let new = table[codes[d] as usize];
            // Each pair's counts were added to the sum: no borrow.
            sum = sum
                .wrapping_sub(counts[c.pairs[d] as usize])
                .wrapping_add(counts[new as usize]);
        }
        Some(is_threat(sum, Threat::Four))
    }

    /// Calls `f(cell, old, new)` for each stone that a `color` stone on
    /// the empty `cell` would touch, as [`Lines::for_each_touched`] does,
    /// without visiting the touched cells that are empty: the stones are
    /// the fields of `cell`'s own line codes that hold one (01 or 10; 00
    /// is empty, 11 off the board), each a step from `cell` along the
    /// line ([`Geometry::fields`](crate::eval::geometry::Geometry)). A
    /// flat table's windows fit one word.
    #[inline(always)]
    fn for_each_touched_stone(
        &self,
        cell: usize,
        color: Color,
        table: &[PairIndex],
        mut f: impl FnMut(&Cell, PairIndex, PairIndex),
    ) {
        debug_assert!(self.high.is_empty());
        let flip = game::Cell::from(color) as u64;
        let geo = &*self.geo;
        // The centre's field in a touched cell's code is the mirror of
        // the cell's field in the centre's: shift 2 × (2r − 1 − f).
        let top = 2 * (2 * geo.radius - 1);
        let me = &self.cells[cell];
        for d in 0..4 {
            let code = me.codes[d];
            let mut stones = (code ^ code >> 1) & 0x5555_5555_5555_5555;
            while stones != 0 {
                let bit = stones.trailing_zeros() as usize;
                stones &= stones - 1;
                let q = cell.wrapping_add_signed(geo.fields[d][bit / 2]);
                debug_assert!(q < self.cells.len());
                // SAFETY: a stone's field is on the board, so `q` is a
                // cell of it.
                let c = unsafe { self.cells.get_unchecked(q) };
                debug_assert!(!c.state.is_empty());
                let code = c.codes[d] ^ (flip << (top - bit));
                debug_assert!((code as usize) < table.len());
                // SAFETY: a flat table has an entry for every code of 2r
                // fields (as in `set_cell`).
                let new = unsafe { *table.get_unchecked(code as usize) };
                f(c, c.pairs[d], new);
            }
        }
    }

    /// Calls `f(q, cell, old, new)` for each cell `q` that a `color` stone
    /// on the empty `cell` would touch, with `q`'s pair in the direction
    /// they share before (`old`) and after (`new`) it: the one walk behind
    /// [`Lines::peek`]'s reads. Each touched cell shares one line with the
    /// stone, so its new pair is one lookup of the flat `table`.
    #[inline(always)]
    fn for_each_touched(
        &self,
        cell: usize,
        color: Color,
        table: &[PairIndex],
        mut f: impl FnMut(usize, &Cell, PairIndex, PairIndex),
    ) {
        let flip = game::Cell::from(color) as u64;
        for t in self.geo.touches(cell) {
            let (q, d) = (t.cell as usize, (t.word >> 1) as usize & 3);
            // SAFETY: the geometry's cells are this board's, and a flat
            // table has an entry for every low word (as in `set_cell`).
            let c = unsafe { self.cells.get_unchecked(q) };
            let code = c.codes[d] ^ (flip << t.shift);
            debug_assert!((code as usize) < table.len());
            let new = unsafe { *table.get_unchecked(code as usize) };
            f(q, c, c.pairs[d], new);
        }
    }
}
