//! Combinations: what a stone makes at one cell across its four lines,
//! the cell-level features of the `combo` weight model.
//!
//! A [`Shape`] sees one line, so a cell's score as a sum over its four
//! directions cannot tell a four-three (a win in two) from a four and an
//! unrelated three. A combination is read off the four shapes a stone of
//! one colour makes (or has) at a cell, by threat level like the shapes,
//! so that it means the same for every k. With *fours* the directions
//! whose shape is a (k−1), open or closed, *threes* those with an open
//! (k−2), and *twos* those with an open (k−3), a cell's combination is
//! the first of these that holds:
//!
//! | combination | k = 5 name | k = 3 name | holds when |
//! | --- | --- | --- | --- |
//! | [`Combo::DoubleIn1`] | `double4` | `double2` | two or more fours |
//! | [`Combo::In1OpenIn2`] | `4_open3` | `2_open1` | a four and an open three |
//! | [`Combo::DoubleOpenIn2`] | `double_open3` | `double_open1` | two or more open threes |
//! | [`Combo::OpenIn2OpenIn3`] | `open3_open2` | — | an open three and an open two |
//! | [`Combo::DoubleOpenIn3`] | `double_open2` | — | two or more open twos |
//!
//! A win through the cell is no four (the shape's weight already decides
//! such a cell), and closed threes and twos take part in none. The first
//! three are the threats that win by force when the opponent has none
//! (a double four and a four-three win in two, a double three in three);
//! the last two are the shapes that lead to them. On tic-tac-toe (k = 3)
//! the double two is the fork; there are no (k−3) shapes there, so only
//! the first three exist ([`Combo::count`]).
//!
//! # The cell-feature seam
//!
//! Each direction's pair index maps to both colours' *level counts*
//! (`LEVELS`: fours, threes, twos, 3 bits each), and a cell's four
//! directions add up without carries (each count is at most 4). A colour's
//! counts give its combination through `COMBO_OF`. So a cell-level
//! feature is a function of the sum of per-direction contributions: adding
//! one that needs another count takes a field in `LEVELS` (16 bits per
//! colour leave room for two more), a row in the classification
//! (`combo_of_levels`) and a [`Combo`] variant with its name; the score
//! sheets, the board value and the weight files follow from
//! [`Combo::NUM`] and [`Combo::count`].
//!
//! The combo sheets' update loop reads both colours' combinations with
//! one lookup instead of two: the same counts as base-5 digits
//! (`DIGITS`, each colour's below 125) index `COMBO_PAIR_OF` (125² entries),
//! which is built from `combo_of_levels`. A new count is a digit there
//! too; a fourth would make 625 per colour, too large a table, and the
//! loop would go back to two `COMBO_OF` lookups (`combo_pair`).

use super::shape::{pair_shape, Pairs, Shape};
use std::fmt;

/// The combination a stone of one colour makes at a cell: the first row of
/// the module's table that holds. The numbers in the names are the moves
/// still needed to win, as in [`Shape`]; [`Combo::name`] gives the usual
/// name, which counts stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Combo {
    /// None of the combinations (index 0, which carries no weight).
    None = 0,
    /// Two or more (k−1) shapes, open or closed: a double four, which wins
    /// in two unless the opponent wins first.
    DoubleIn1 = 1,
    /// One (k−1) shape and an open (k−2): a four-three.
    In1OpenIn2 = 2,
    /// Two or more open (k−2) shapes and no (k−1): a double three.
    DoubleOpenIn2 = 3,
    /// One open (k−2) and an open (k−3) (k ≥ 4 only): a three-two.
    OpenIn2OpenIn3 = 4,
    /// Two or more open (k−3) shapes and no open (k−2) (k ≥ 4 only): a
    /// double two.
    DoubleOpenIn3 = 5,
}

/// How many combinations carry weights: every [`Combo`] but
/// [`Combo::None`].
pub const COMBOS: usize = Combo::NUM - 1;

impl Combo {
    /// How many combinations there are, [`Combo::None`] included.
    pub const NUM: usize = 6;

    /// Every combination, indexed by its `u8` value.
    pub const ALL: [Combo; Combo::NUM] = [
        Combo::None,
        Combo::DoubleIn1,
        Combo::In1OpenIn2,
        Combo::DoubleOpenIn2,
        Combo::OpenIn2OpenIn3,
        Combo::DoubleOpenIn3,
    ];

    /// The combinations that carry weights, strongest first:
    /// `Combo::WEIGHTED[i]` is `Combo::ALL[i + 1]`, and a weight set's
    /// `combo_own[i]` is its weight.
    pub const WEIGHTED: [Combo; COMBOS] = [
        Combo::DoubleIn1,
        Combo::In1OpenIn2,
        Combo::DoubleOpenIn2,
        Combo::OpenIn2OpenIn3,
        Combo::DoubleOpenIn3,
    ];

    /// How many combinations a stone can make for this k: those built from
    /// shapes the game has (3 for k = 3, else 5).
    pub fn count(k: u8) -> usize {
        if k < 4 {
            3
        } else {
            COMBOS
        }
    }

    /// The readable name for a given k: `double4`, `4_open3`, … for k = 5,
    /// by stone count like [`Shape::name`].
    ///
    /// ```
    /// use mnk_core::eval::Combo;
    /// assert_eq!(Combo::In1OpenIn2.name(5), "4_open3");
    /// assert_eq!(Combo::DoubleIn1.name(3), "double2");
    /// ```
    pub fn name(self, k: u8) -> String {
        let (four, three, two) = (k - 1, k.saturating_sub(2), k.saturating_sub(3));
        match self {
            Combo::None => "none".into(),
            Combo::DoubleIn1 => format!("double{four}"),
            Combo::In1OpenIn2 => format!("{four}_open{three}"),
            Combo::DoubleOpenIn2 => format!("double_open{three}"),
            Combo::OpenIn2OpenIn3 => format!("open{three}_open{two}"),
            Combo::DoubleOpenIn3 => format!("double_open{two}"),
        }
    }

    /// The shape whose weight sets the scale of this combination's: its
    /// weakest threat (the (k−1) for a double four and a four-three, the
    /// open (k−2) for the threes, the open (k−3) for the double two).
    /// Training moves a combination weight from 0 by steps of about σ
    /// times its anchor's weight.
    pub fn anchor(self) -> Shape {
        match self {
            Combo::None => Shape::None,
            Combo::DoubleIn1 | Combo::In1OpenIn2 => Shape::ClosedIn1,
            Combo::DoubleOpenIn2 | Combo::OpenIn2OpenIn3 => Shape::OpenIn2,
            Combo::DoubleOpenIn3 => Shape::OpenIn3,
        }
    }

    /// What the combination is, in words, for a weight file's comments.
    pub fn describe(self, k: u8) -> String {
        let (four, three, two) = (k - 1, k.saturating_sub(2), k.saturating_sub(3));
        match self {
            Combo::None => String::new(),
            Combo::DoubleIn1 => format!("two or more {four}s (open or closed) through the cell"),
            Combo::In1OpenIn2 => format!("a {four} and an open{three} through the cell"),
            Combo::DoubleOpenIn2 => format!("two or more open{three}s, no {four}"),
            Combo::OpenIn2OpenIn3 => format!("an open{three} and an open{two}, no {four}"),
            Combo::DoubleOpenIn3 => format!("two or more open{two}s, no open{three}"),
        }
    }
}

impl fmt::Display for Combo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// Bit offsets of one colour's level counts in a [`LEVELS`] word: fours,
/// open threes, open twos (3 bits each; a colour's half is 16 bits).
const FOURS: u32 = 0;
const THREES: u32 = 3;
const TWOS: u32 = 6;
/// One colour's level counts: 9 bits.
pub(crate) const LEVEL_BITS: u32 = 9;
/// White's counts start here; black's at 0.
pub(crate) const WHITE_LEVELS: u32 = 16;

/// A table by pair index of both colours' values of one direction,
/// `of_shape[black's shape] | of_shape[white's shape] << white`: the
/// per-direction contributions that a cell's four directions add up
/// ([`LEVELS`] here, the reply's tables in `reply.rs`). Odd indices, which
/// no pair has, repeat the even index below them, and the table has an
/// entry for every byte ([`PAIR_TABLE`]), so that a lookup by a pair index
/// needs no bounds check.
pub(crate) const fn by_pair(of_shape: [u32; Shape::NUM], white: u32) -> [u32; PAIR_TABLE] {
    let mut t = [0u32; PAIR_TABLE];
    let mut p = 0;
    while p < PAIR_TABLE {
        // Past 127 (no pair index is): the entry 128 below.
        let q = (p % 128) as u8;
        let (b, w) = (pair_shape(q, 0), pair_shape(q, 1));
        t[p] = of_shape[b as usize] | of_shape[w as usize] << white;
        p += 1;
    }
    t
}

/// The length of a table by pair index: one entry per byte value, though
/// pair indices stay below 128.
pub(crate) const PAIR_TABLE: usize = 256;

/// By pair index, both colours' level counts of one direction: black's
/// in bits 0–8, white's in 16–24.
pub(crate) static LEVELS: [u32; PAIR_TABLE] = by_pair(
    {
        let mut v = [0; Shape::NUM];
        v[Shape::OpenIn1 as usize] = 1 << FOURS;
        v[Shape::ClosedIn1 as usize] = 1 << FOURS;
        v[Shape::OpenIn2 as usize] = 1 << THREES;
        v[Shape::OpenIn3 as usize] = 1 << TWOS;
        v
    },
    WHITE_LEVELS,
);

/// The combination of one colour's level counts (a 9-bit field of a
/// [`LEVELS`] sum): the module's table, row by row.
const fn combo_of_levels(levels: u32) -> Combo {
    let fours = (levels >> FOURS) & 7;
    let threes = (levels >> THREES) & 7;
    let twos = (levels >> TWOS) & 7;
    if fours >= 2 {
        Combo::DoubleIn1
    } else if fours == 1 && threes >= 1 {
        Combo::In1OpenIn2
    } else if threes >= 2 {
        Combo::DoubleOpenIn2
    } else if threes == 1 && twos >= 1 {
        Combo::OpenIn2OpenIn3
    } else if twos >= 2 {
        Combo::DoubleOpenIn3
    } else {
        Combo::None
    }
}

/// [`combo_of_levels`] for every 9-bit field, as combination indices.
pub(crate) static COMBO_OF: [u8; 1 << LEVEL_BITS] = {
    let mut t = [0u8; 1 << LEVEL_BITS];
    let mut i = 0;
    while i < t.len() {
        t[i] = combo_of_levels(i as u32) as u8;
        i += 1;
    }
    t
};

/// By pair index, both colours' level counts of one direction as base-5
/// digits, `black × 125 + white` with each colour's `fours × 25 + threes
/// × 5 + twos`: a cell's four directions add up without carries (each
/// count is at most 4), and the sum, below 125², indexes
/// [`COMBO_PAIR_OF`], one lookup for both colours' combinations where the
/// [`LEVELS`] words take two. The combo sheets' update loop reads a
/// cell's combinations this way.
pub(crate) static DIGITS: [u32; PAIR_TABLE] = {
    let mut v = [0; Shape::NUM];
    v[Shape::OpenIn1 as usize] = 25;
    v[Shape::ClosedIn1 as usize] = 25;
    v[Shape::OpenIn2 as usize] = 5;
    v[Shape::OpenIn3 as usize] = 1;
    let mut t = [0u32; PAIR_TABLE];
    let mut p = 0;
    while p < PAIR_TABLE {
        let q = (p % 128) as u8;
        t[p] = v[pair_shape(q, 0) as usize] * 125 + v[pair_shape(q, 1) as usize];
        p += 1;
    }
    t
};

/// The bits of a [`DIGITS`] sum (below 125² = 15,625).
pub(crate) const DIGIT_BITS: u32 = 14;

/// [`combo_pair`] by [`DIGITS`] sum (entries past 125² are never read).
pub(crate) static COMBO_PAIR_OF: [u8; 1 << DIGIT_BITS] = {
    let mut t = [0u8; 1 << DIGIT_BITS];
    let mut i = 0;
    while i < 125 * 125 {
        // One colour's base-5 digits as its LEVELS field.
        const fn field(n: usize) -> u32 {
            ((n / 25) as u32) << FOURS | ((n / 5 % 5) as u32) << THREES | ((n % 5) as u32) << TWOS
        }
        let (b, w) = (
            combo_of_levels(field(i / 125)),
            combo_of_levels(field(i % 125)),
        );
        t[i] = b as u8 * Combo::NUM as u8 + w as u8;
        i += 1;
    }
    t
};

/// The sum of a cell's four directions' [`LEVELS`].
#[inline(always)]
pub(crate) fn levels(pairs: &Pairs) -> u32 {
    LEVELS[pairs[0] as usize]
        + LEVELS[pairs[1] as usize]
        + LEVELS[pairs[2] as usize]
        + LEVELS[pairs[3] as usize]
}

/// Colour `color`'s (0 black, 1 white) combination index in a [`levels`]
/// sum.
#[inline(always)]
pub(crate) fn combo_in(levels: u32, color: usize) -> usize {
    let field = (levels >> (color as u32 * WHITE_LEVELS)) & ((1 << LEVEL_BITS) - 1);
    COMBO_OF[field as usize] as usize
}

/// Both colours' combinations at a cell whose [`levels`] sum is `l`, as
/// the index `black × Combo::NUM + white` of a table of pairs of
/// combinations.
#[inline(always)]
pub(crate) fn combo_pair(l: u32) -> usize {
    combo_in(l, 0) * Combo::NUM + combo_in(l, 1)
}

/// The combination a `color` (0 black, 1 white) stone makes at a cell
/// with these pairs.
pub(crate) fn combo_at(pairs: &Pairs, color: usize) -> Combo {
    Combo::ALL[combo_in(levels(pairs), color)]
}

/// A cell's combination from its four shapes directly (the definition,
/// for tests inside the crate).
#[cfg(test)]
fn combo_of_shapes(shapes: [Shape; 4]) -> Combo {
    let n = |f: fn(Shape) -> bool| shapes.iter().filter(|&&s| f(s)).count() as u32;
    let fours = n(|s| matches!(s, Shape::OpenIn1 | Shape::ClosedIn1));
    let threes = n(|s| s == Shape::OpenIn2);
    let twos = n(|s| s == Shape::OpenIn3);
    combo_of_levels(fours << FOURS | threes << THREES | twos << TWOS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::shape::pair_index;

    /// Calls `f` on pairs of every combination of shapes in the first
    /// two directions, with the other two derived from them: what the
    /// tests below try.
    fn each_pairs(mut f: impl FnMut(Pairs)) {
        for a in 0..64usize {
            for b in 0..64usize {
                for c in 0..8usize {
                    f([
                        pair_index((a / 8) as u8, (a % 8) as u8),
                        pair_index((b / 8) as u8, (b % 8) as u8),
                        pair_index(c as u8, (7 - c) as u8),
                        pair_index(((a + b) % 8) as u8, c as u8),
                    ]);
                }
            }
        }
    }

    /// The base-5 path (digits summed, then one lookup) gives both
    /// colours' combinations as the [`LEVELS`] path does, on every
    /// combination of shapes the other test tries.
    #[test]
    fn digits_match_the_levels() {
        each_pairs(|pairs| {
            let sum = pairs.iter().map(|&p| DIGITS[p as usize]).sum::<u32>();
            assert!(sum < 125 * 125);
            assert_eq!(
                COMBO_PAIR_OF[sum as usize] as usize,
                combo_pair(levels(&pairs))
            );
        });
    }

    /// The packed path (per-direction counts summed, then looked up) gives
    /// the combination of the four shapes, for both colours, on every
    /// combination of shapes.
    #[test]
    fn packed_levels_match_the_shapes() {
        let all = Shape::ALL;
        each_pairs(|pairs| {
            for color in 0..2 {
                let shapes = pairs.map(|p| all[pair_shape(p, color) as usize]);
                assert_eq!(combo_at(&pairs, color), combo_of_shapes(shapes));
            }
        });
    }
}
