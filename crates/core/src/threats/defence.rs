//! What a move threatens, read off the shapes, and which replies can stop
//! a threat.
//!
//! The defence set is what makes the threat search (and the main search's
//! proven losses) sound. When the attacker has no four but has cells `W`
//! where one more stone wins in two (an open four, or two fours at once),
//! a reply that is not
//! - a win, a four of the defender's own,
//! - or a cell in the *critical set* of every `w` in `W`
//!
//! loses: the attacker then plays a `w` outside whose critical set the
//! reply fell, which still makes two completion cells, and the defender,
//! who has no four to win with first, can block only one. The critical set
//! of `w` is `w` and the cells within the window radius of `w` along each
//! direction in which `w` makes a four: a stone anywhere else leaves the
//! shapes of `w` in those directions, and their completion cells, as they
//! were (a shape is a function of its window). So the replies worth
//! searching are the intersection of the critical sets, plus the
//! defender's fours.

use crate::eval::shape::{pair_shape, radius};
use crate::eval::{Lines, Shape, Threat, COUNTS};
use crate::game::{Color, Rules};

/// What a stone of one colour would make on an empty cell, from its shapes
/// in the four directions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Makes {
    /// k in a row: it wins.
    pub win: bool,
    /// Directions in which it makes a four (a (k−1) shape).
    pub fours: u8,
    /// It makes an open four (two or more completion cells on one line).
    pub open_four: bool,
    /// Directions in which it makes an open three (an open (k−2) shape).
    pub threes: u8,
}

impl Makes {
    /// One more stone here wins in two: an open four, or two fours.
    #[inline]
    pub fn wins_in_two(self) -> bool {
        self.open_four || self.fours >= 2
    }

    /// One more stone here makes a four or an open three: an attacking
    /// move of a VCT (an open four is a four too).
    #[inline]
    pub fn forcing(self) -> bool {
        self.fours > 0 || self.threes > 0
    }
}

/// What a `color` stone on `cell` makes.
///
/// (Measured and dropped: reading the cell's threat counts that the
/// lines keep, `ThreatCells`' sum of the same counts over the four
/// pairs, instead of summing them here: 4,791.7M instructions in depth-8
/// games against 4,790.5M, the slice's bounds check costing what the
/// saved loads did.)
#[inline(always)]
pub(crate) fn makes(lines: &Lines, cell: usize, color: Color) -> Makes {
    let (pairs, _) = lines.cell(cell);
    let table = &COUNTS[color.index()];
    // Each direction's counts in its own nibble: four directions add up
    // without carries.
    let sum: u16 = pairs.iter().map(|&p| table[p as usize]).sum();
    Makes {
        win: sum & 0xF != 0,
        open_four: (sum >> 4) & 0xF != 0,
        fours: ((sum >> 8) & 0xF) as u8,
        threes: (sum >> 12) as u8,
    }
}

/// Whether `color` has a stone one move from a four (an open or closed
/// (k−2) shape): without one, no move of its makes a four, nor wins in
/// two (the other stones of a four's line were each one move from it).
#[inline]
pub(crate) fn may_make_fours(lines: &Lines, color: Color) -> bool {
    lines.shape_count(color, Shape::OpenIn2) + lines.shape_count(color, Shape::ClosedIn2) > 0
}

/// Whether `cell` is empty.
#[inline]
pub(crate) fn is_empty(lines: &Lines, cell: usize) -> bool {
    lines.cell(cell).1.is_empty()
}

/// Fills `out` with the empty cells where `color` completes k, in cell
/// order, stopping at `max`.
pub(crate) fn win_cells(lines: &Lines, color: Color, out: &mut Vec<u16>, max: usize) {
    out.clear();
    out.extend(
        lines
            .threat_cells(color, Threat::Win)
            .take(max)
            .map(|c| c as u16),
    );
}

/// The four line directions as (dx, dy), in the order of a cell's shapes.
pub(super) const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Scratch space for [`Defences::replies`], sized for one board.
#[derive(Clone, Debug)]
pub(crate) struct Defences {
    rules: Rules,
    radius: i32,
    /// How many critical sets each cell is in (zero between calls).
    hits: Vec<u16>,
    /// The cells whose `hits` are not zero, in the order first hit.
    hit: Vec<u16>,
    wins: Vec<u16>,
}

impl Defences {
    pub fn new(rules: Rules) -> Defences {
        Defences {
            rules,
            radius: radius(rules.k, rules.rule) as i32,
            hits: vec![0; rules.cells()],
            hit: Vec::with_capacity(rules.cells()),
            wins: Vec::with_capacity(rules.cells()),
        }
    }

    /// Heap bytes of the scratch space.
    pub fn heap_bytes(&self) -> usize {
        (self.hits.capacity() + self.hit.capacity() + self.wins.capacity())
            * std::mem::size_of::<u16>()
    }

    /// The replies of `defender` that can stop `attacker`'s threats, when
    /// the attacker has no four (no cell completing k) and the defender
    /// cannot win at once; see the module doc. `None` when the attacker
    /// has no cell that wins in two (no threat to answer: any reply holds
    /// for now). Otherwise the replies are appended to `out`: the direct
    /// defences (cells in every critical set) first, then the defender's
    /// other fours, each in cell order; none means every reply loses.
    pub fn replies(&mut self, lines: &Lines, attacker: Color, out: &mut Vec<u16>) -> Option<()> {
        if !may_make_fours(lines, attacker) {
            return None;
        }
        // Most nodes' attacker has no such cell: the first look says so
        // without the list (its out-of-line `extend` was 1.9% of a
        // depth-8 game's instructions).
        let mut wins = lines.threat_cells(attacker, Threat::WinInTwo);
        let first = wins.next()?;
        self.wins.clear();
        self.wins.push(first as u16);
        self.wins.extend(wins.map(|c| c as u16));
        self.hit.clear();
        let (w, h) = (self.rules.width as i32, self.rules.height as i32);
        for &cell in &self.wins {
            let c = cell as usize;
            if self.hits[c] == 0 {
                self.hit.push(cell);
            }
            self.hits[c] += 1;
            let (pairs, _) = lines.cell(c);
            let (x, y) = (c as i32 % w, c as i32 / w);
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                let s = pair_shape(pairs[d], attacker.index());
                if s != Shape::OpenIn1 as u8 && s != Shape::ClosedIn1 as u8 {
                    continue;
                }
                for sign in [-1, 1] {
                    for t in 1..=self.radius {
                        let (px, py) = (x + sign * t * dx, y + sign * t * dy);
                        if px < 0 || py < 0 || px >= w || py >= h {
                            break;
                        }
                        let p = (py * w + px) as usize;
                        if is_empty(lines, p) {
                            if self.hits[p] == 0 {
                                self.hit.push(p as u16);
                            }
                            self.hits[p] += 1;
                        }
                    }
                }
            }
        }
        let all = self.wins.len() as u16;
        let defender = attacker.opponent();
        self.hit.sort_unstable();
        let hits = &self.hits;
        out.extend(self.hit.iter().filter(|&&c| hits[c as usize] == all));
        out.extend(
            lines
                .threat_cells(defender, Threat::Four)
                .filter(|&c| hits[c] != all)
                .map(|c| c as u16),
        );
        for &c in &self.hit {
            self.hits[c as usize] = 0;
        }
        Some(())
    }
}
