//! Precomputed line tables for a board: for every cell and direction, the
//! cells whose line codes a stone there changes, and the empty-board codes.
//! Built once per rule set and shared.

use super::shape::{position, radius};
use crate::game::Rules;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The four line directions as (dx, dy).
pub(crate) const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// One entry of a neighbour list: the cell whose code changes, and where
/// the changed 2-bit field sits in its codes. A cell's codes are eight
/// 64-bit words, two per direction (so that updates are plain 64-bit
/// shifts; small windows use the first of each two only): direction `d`'s
/// are words `2d` and `2d + 1`.
///
/// (Measured and dropped: the direction in a byte of its own, saving the
/// shift and mask that unpack it, took 3.2% more instructions in depth-8
/// games: the leaf's inlined loop kept more values on the stack.)
///
/// A move's update reads and writes the low code word and the pair of the
/// touched cell in that direction, then reads what the cell holds (a
/// copy of it sits 4 bytes past each pair): `code` and `pair` address
/// them in the lines' cell records directly ([`CELL_WORDS`],
/// [`PAIRS_AT`]), which saves unpacking the direction and multiplying by
/// the record's size at every touched cell. With the touches at 4 bytes
/// (the cell's address computed from `cell` and `word`), depth-8 games
/// took 4.4% more instructions.
#[derive(Clone, Copy)]
pub(crate) struct Touch {
    pub cell: u16,
    /// The word: `2 × direction + bit / 64`.
    pub word: u8,
    /// The field's shift in the word: `bit % 64`.
    pub shift: u8,
    /// The low code word of this direction in the cell records, as an
    /// index of 64-bit words: `cell × CELL_WORDS + direction`.
    pub code: u16,
    /// The pair byte of this direction in the cell records, as a byte
    /// index: `cell × 8 × CELL_WORDS + PAIRS_AT + direction`.
    pub pair: u16,
}

/// The size in 64-bit words of the lines' record of one cell, whose first
/// four words are its low code words by direction ([`Touch::code`]).
pub(crate) const CELL_WORDS: usize = 5;

/// The byte offset of a cell record's four pair bytes ([`Touch::pair`]).
pub(crate) const PAIRS_AT: usize = 32;

pub(crate) struct Geometry {
    pub rules: Rules,
    /// `spans[cell]` is the range in `list` of the cells a stone on `cell`
    /// changes, all four directions in one run (one loop, one exit).
    pub spans: Vec<(u32, u32)>,
    pub list: Vec<Touch>,
    /// Line codes of the empty board, `[cell][dir]`.
    pub empty_codes: Vec<[[u64; 2]; 4]>,
    /// `fields[d][f]`: the cell index step from a window's centre to its
    /// field `f` in direction `d` (the offset `(f − r, or f − r + 1 past
    /// the centre) × (dx + dy × width)`), for windows of up to 32 fields.
    /// A field that a line code shows a stone on is on the board, so the
    /// step leads to a cell.
    pub fields: [[isize; 32]; 4],
    /// The window radius r: a window has 2r fields of two bits.
    pub radius: usize,
}

impl Geometry {
    fn build(rules: Rules) -> Geometry {
        // Every touch's byte offset fits its 16 bits (boards have at most
        // 26 × 26 cells).
        assert!(rules.cells() * 8 * CELL_WORDS <= 1 << 16, "board too large");
        let r = radius(rules.k, rules.rule) as i32;
        let (w, h) = (rules.width as i32, rules.height as i32);
        let on = |x: i32, y: i32| x >= 0 && x < w && y >= 0 && y < h;
        let mut spans = Vec::with_capacity(rules.cells());
        let mut list = Vec::new();
        let mut empty_codes = vec![[[0u64; 2]; 4]; rules.cells()];
        for y in 0..h {
            for x in 0..w {
                let cell = (y * w + x) as usize;
                let start = list.len() as u32;
                for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                    for i in -r..=r {
                        if i == 0 {
                            continue;
                        }
                        let (qx, qy) = (x + i * dx, y + i * dy);
                        if on(qx, qy) {
                            // This cell sits at offset -i in q's window.
                            let bit = 2 * position(-i, r as usize);
                            let q = (qy * w + qx) as usize;
                            list.push(Touch {
                                cell: q as u16,
                                word: (2 * d + bit / 64) as u8,
                                shift: (bit % 64) as u8,
                                code: (q * CELL_WORDS + d) as u16,
                                pair: (q * 8 * CELL_WORDS + PAIRS_AT + d) as u16,
                            });
                        } else {
                            let bit = 2 * position(i, r as usize);
                            empty_codes[cell][d][bit / 64] |= 3u64 << (bit % 64);
                        }
                    }
                }
                spans.push((start, list.len() as u32));
            }
        }
        let mut fields = [[0; 32]; 4];
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            for i in (-r..=r).filter(|&i| i != 0 && 2 * r <= 32) {
                fields[d][position(i, r as usize)] = (i * (dx + dy * w)) as isize;
            }
        }
        Geometry {
            rules,
            spans,
            list,
            empty_codes,
            fields,
            radius: r as usize,
        }
    }

    /// The shared geometry of a rule set.
    pub fn of(rules: Rules) -> Arc<Geometry> {
        static CACHE: OnceLock<Mutex<HashMap<Rules, Arc<Geometry>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        if let Some(g) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&rules) {
            return g.clone();
        }
        let g = Arc::new(Geometry::build(rules));
        cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(rules)
            .or_insert(g)
            .clone()
    }

    /// The cells (and directions) whose codes a stone on `cell` changes.
    #[inline]
    pub fn touches(&self, cell: usize) -> &[Touch] {
        let (a, b) = self.spans[cell];
        &self.list[a as usize..b as usize]
    }
}
