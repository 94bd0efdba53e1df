//! The empty cells where each side would make a threat, kept up to date as
//! stones are played, so that the search's move picker and the threat
//! searches never scan the board for them.
//!
//! A cell's threats are a function of its four shape pairs: per colour,
//! [`COUNTS`] gives each pair's contribution as nibble counts (a win, an
//! open four, a four, an open three), and the four directions add up
//! without carries. [`crate::eval::Lines`] changes a cell's pairs one
//! direction at a time, so each change subtracts the old pair's counts
//! and adds the new one's, and the cell's membership of each set follows
//! from the sum. Occupied cells are in no set.

use super::shape::{pair_shape, PairIndex, Shape};
use crate::game::Color;

/// For each colour and pair index, nibble counts of what the colour's shape
/// in it is: a win (bits 0–3), an open four (4–7), a four (8–11), an open
/// three (12–15).
pub(crate) static COUNTS: [[u16; 256]; 2] = {
    let mut t = [[0u16; 256]; 2];
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 256 {
            let s = pair_shape(p as u8, c);
            let mut v = 0;
            if s == Shape::Win as u8 {
                v |= 1;
            }
            if s == Shape::OpenIn1 as u8 {
                v |= 1 << 4;
            }
            if s == Shape::OpenIn1 as u8 || s == Shape::ClosedIn1 as u8 {
                v |= 1 << 8;
            }
            if s == Shape::OpenIn2 as u8 {
                v |= 1 << 12;
            }
            t[c][p] = v;
            p += 1;
        }
        c += 1;
    }
    t
};

/// [`COUNTS`] of both colours in one word, black's in the low half: a
/// cell's sum is then one load and one store (two half-word stores read
/// back as a word would stall on store forwarding), and subtracting a
/// pair's counts never borrows across fields, since they were added before.
static BOTH: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut p = 0;
    while p < 256 {
        t[p] = COUNTS[0][p] as u32 | (COUNTS[1][p] as u32) << 16;
        p += 1;
    }
    t
};

/// A kind of threat a stone on an empty cell would make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threat {
    /// k in a row: the cell wins at once.
    Win = 0,
    /// An open four, or two fours at once: the cell wins in two.
    WinInTwo = 1,
    /// A four in some direction (an empty cell then completes k).
    Four = 2,
    /// A four and an open three in two directions, or two open threes:
    /// against an opponent with no four to make, the cell wins in three
    /// (the four's block, or any reply, cannot touch the three's line,
    /// so an open four follows).
    WinInThree = 3,
}

/// Whether a cell with counts `sums` ([`BOTH`]) makes any threat for
/// black (bit 0) and for white (bit 1): a win, an open four, a four or
/// two open threes. Each kind implies this, so one set per colour holds
/// every cell of every kind, and a kind's cells are those of the set
/// whose counts make it: few cells, against four sets to write on every
/// change.
#[inline(always)]
fn flags(sums: u32) -> u8 {
    // `|`, not `||`: both tests are cheaper than a branch to skip one.
    let any = |s: u32| u8::from((s & 0x0FFF != 0) | (s >> 12 & 0xF >= 2));
    any(sums & 0xFFFF) | any(sums >> 16) << 1
}

/// Whether counts `sum` (see [`COUNTS`]) make threat `kind`.
#[inline(always)]
pub(crate) fn is_threat(sum: u16, kind: Threat) -> bool {
    match kind {
        Threat::Win => sum & 0xF != 0,
        Threat::WinInTwo => (sum >> 4) & 0xF != 0 || (sum >> 8) & 0xF >= 2,
        Threat::Four => (sum >> 8) & 0xF != 0,
        Threat::WinInThree => {
            let threes = sum >> 12;
            threes >= 2 || (threes != 0 && (sum >> 8) & 0xF != 0)
        }
    }
}

/// Per colour and [`Threat`], the set of empty cells where a stone of that
/// colour makes the threat; and per cell, both colours' counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ThreatCells {
    /// Per cell, both colours' counts ([`BOTH`]) summed over the four
    /// directions.
    sums: Vec<u32>,
    /// Words of each set.
    words: usize,
    /// Per colour, the empty cells that make any threat for it
    /// ([`flags`]): black's `words` words, then white's.
    sets: Vec<u64>,
}

impl ThreatCells {
    /// The sets of the empty board whose cells have `pairs`.
    pub(crate) fn new<'a>(pairs: impl Iterator<Item = &'a [PairIndex; 4]>) -> ThreatCells {
        let sums: Vec<u32> = pairs
            .map(|pairs| pairs.iter().map(|&p| BOTH[p as usize]).sum())
            .collect();
        let words = sums.len().div_ceil(64);
        let mut t = ThreatCells {
            sums,
            words,
            sets: vec![0; 2 * words],
        };
        for cell in 0..t.sums.len() {
            t.mark(cell, true);
        }
        t
    }

    /// Heap bytes of the counts and sets.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.sums.capacity() * std::mem::size_of::<u32>()
            + self.sets.capacity() * std::mem::size_of::<u64>()
    }

    /// Cell `cell`'s pair in one direction went from `old` to `new`;
    /// `empty` says whether the cell is empty. Most changes leave a cell's
    /// threats as they were, and then no set is written. (A stone's
    /// counts could go unkept, summed again from its pairs when it is
    /// taken back: 0.17% fewer instructions in depth-8 games, too little
    /// for sums that would be wrong on every stone.)
    ///
    /// # Safety
    /// `cell` must be a cell of the board these sets were made for.
    #[inline(always)]
    pub(crate) unsafe fn change(
        &mut self,
        cell: usize,
        old: PairIndex,
        new: PairIndex,
        empty: bool,
    ) {
        let (was, is) = (BOTH[old as usize], BOTH[new as usize]);
        // Most changes (a two to a three, a blocked shape) count no
        // threat either way.
        if was == is {
            return;
        }
        debug_assert!(cell < self.sums.len());
        // SAFETY: the caller's (a bounds check here cost two instructions
        // at every threat change a move makes).
        let s = unsafe { self.sums.get_unchecked_mut(cell) };
        let before = flags(*s);
        *s = s.wrapping_sub(was).wrapping_add(is);
        let after = flags(*s);
        if empty && after != before {
            self.write(cell, after);
        }
    }

    /// Puts `cell` in the sets its counts call for (`empty`), or in none.
    #[inline]
    pub(crate) fn mark(&mut self, cell: usize, empty: bool) {
        let f = if empty { flags(self.sums[cell]) } else { 0 };
        self.write(cell, f);
    }

    /// Sets `cell`'s bit in each colour's set to that colour's bit of `f`.
    #[inline]
    fn write(&mut self, cell: usize, f: u8) {
        let (w, bit) = (cell >> 6, 1u64 << (cell & 63));
        for c in 0..2 {
            let word = &mut self.sets[c * self.words + w];
            *word = (*word & !bit) | (u64::from((f >> c) & 1) * bit);
        }
    }

    /// The empty cells where a `color` stone makes `kind`, in cell order.
    #[inline]
    pub(crate) fn cells(&self, color: Color, kind: Threat) -> Cells<'_> {
        let c = color.index();
        let set = &self.sets[c * self.words..(c + 1) * self.words];
        Cells {
            bits: set.first().copied().unwrap_or(0),
            set,
            word: 0,
            sums: &self.sums,
            shift: 16 * c as u32,
            kind,
        }
    }

    /// Per cell, empty or not, both colours' counts ([`BOTH`]: black's
    /// in the low half), summed over the four directions: a colour's half
    /// is 0 where its stone would make no win, four or open three. Only
    /// lines that keep their counts (`tracked`) keep these.
    #[inline]
    pub(crate) fn sums(&self, tracked: bool) -> &[u32] {
        assert!(tracked, "threat cells of lines kept without counts");
        &self.sums
    }

    /// The number of empty cells where a `color` stone makes `kind`.
    #[inline]
    pub(crate) fn count(&self, color: Color, kind: Threat) -> usize {
        self.cells(color, kind).count()
    }

    /// Whether a `color` stone on `cell` makes `kind`, by its counts
    /// (whether the cell is empty is the caller's to know).
    #[inline(always)]
    pub(crate) fn makes(&self, cell: usize, color: Color, kind: Threat) -> bool {
        is_threat((self.sums[cell] >> (16 * color.index())) as u16, kind)
    }

    /// How [`ThreatCells::makes`] would change for `cell` if its pair in
    /// one direction went from `old` to `new`: −1 (no longer), 0 or +1
    /// (newly), read without writing. (Returning 0 at once when the
    /// colour's counts of `old` and `new` agree, as [`ThreatCells::change`]
    /// does, took 1.0% more instructions in depth-8 games: the compiler
    /// makes the test of a kind two masks and no branch.)
    ///
    /// # Safety
    /// `cell` must be a cell of the board these sets were made for.
    #[inline(always)]
    pub(crate) unsafe fn change_in(
        &self,
        cell: usize,
        (old, new): (PairIndex, PairIndex),
        color: Color,
        kind: Threat,
    ) -> i32 {
        debug_assert!(cell < self.sums.len());
        // SAFETY: the caller's (a bounds check here cost two
        // instructions at every cell a leaf reads).
        let s = unsafe { *self.sums.get_unchecked(cell) };
        let after = s
            .wrapping_sub(BOTH[old as usize])
            .wrapping_add(BOTH[new as usize]);
        let shift = 16 * color.index();
        i32::from(is_threat((after >> shift) as u16, kind))
            - i32::from(is_threat((s >> shift) as u16, kind))
    }

    /// Whether some empty cell makes `kind` for `color`.
    #[inline]
    pub(crate) fn any(&self, color: Color, kind: Threat) -> bool {
        self.cells(color, kind).next().is_some()
    }
}

/// The cells of one colour's set that make one kind of threat
/// ([`ThreatCells::cells`]), in cell order: the set's bits word by word,
/// each tested by its counts. (A `flat_map` of the words, filtered, was
/// not inlined and took 3.4% more of a depth-8 game's instructions: the
/// sets are read at most nodes and leaves, mostly to count or to test
/// for any.)
#[derive(Clone, Debug)]
pub(crate) struct Cells<'a> {
    /// The set's words.
    set: &'a [u64],
    /// The bits of word `word` not yet visited.
    bits: u64,
    word: usize,
    /// Per cell, both colours' counts ([`BOTH`]).
    sums: &'a [u32],
    /// The colour's counts' place in a sum.
    shift: u32,
    kind: Threat,
}

impl Iterator for Cells<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            while self.bits == 0 {
                self.word += 1;
                self.bits = *self.set.get(self.word)?;
            }
            let cell = self.word * 64 + self.bits.trailing_zeros() as usize;
            self.bits &= self.bits - 1;
            if is_threat((self.sums[cell] >> self.shift) as u16, self.kind) {
                return Some(cell);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::shape::{dense_table, radius};
    use crate::game::Rule;

    /// A stone only blocks the opponent's lines: on every window of every
    /// flat table (the games [`crate::eval::Lines::peek`] reads), a stone
    /// on an empty cell of the window never raises a count of the
    /// opponent's ([`COUNTS`]: wins, open fours, fours, open threes) at
    /// the centre. The threat kinds only grow with those counts, so a
    /// stone never gives the opponent a threat, which the peek relies on
    /// to skip the empty cells when the opponent has none.
    #[test]
    fn a_stone_never_gives_the_opponent_a_threat() {
        let games = [3, 4, 5, 6].map(|k| (k, Rule::Freestyle)).into_iter();
        for (k, rule) in games.chain([3, 4, 5].map(|k| (k, Rule::Exact))) {
            let fields = 2 * radius(k, rule);
            let table = dense_table(k, rule);
            assert_eq!(table.len(), 1 << (2 * fields));
            for (code, &old) in table.iter().enumerate() {
                for f in (0..fields).filter(|f| code >> (2 * f) & 3 == 0) {
                    // Field value 1 is a black stone, 2 a white one.
                    for (stone, opp) in [(1, 1), (2, 0)] {
                        let new = table[code | stone << (2 * f)];
                        let (was, is) = (COUNTS[opp][old as usize], COUNTS[opp][new as usize]);
                        for nibble in 0..4 {
                            assert!(
                                is >> (4 * nibble) & 0xF <= was >> (4 * nibble) & 0xF,
                                "k {k} {rule}: code {code:#x}, stone {stone} at {f}",
                            );
                        }
                    }
                }
            }
        }
    }
}
