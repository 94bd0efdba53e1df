//! Exact counts of games and positions, the m,n,k analogue of a chess
//! engine's perft: these counts pin the rules down.
//!
//! [`count`] counts by dynamic programming over positions, one ply at a
//! time: the number of move sequences that reach a position is the sum over
//! the positions one move earlier, so each distinct position is expanded
//! once, however many orders of moves lead to it. A game ends at a win or a
//! full board; the games are the sequences that reach such an end. Only two
//! plies are held in memory at once. Tic-tac-toe's 255,168 games pass
//! through 5,478 positions; the 15 trillion games of 4×4×4 through fewer
//! than 10 million.
//!
//! The work grows with the number of positions, which [`estimate`] bounds
//! before starting; [`count`] refuses positions whose bound exceeds
//! [`MAX_POSITIONS`] (18 empty cells or more, from an empty board) with
//! [`PerftError::TooLarge`], rather than run for hours.
//!
//! [`enumerate_games`] and [`enumerate_positions`] walk every line of play
//! one by one: slow (exponential in the number of moves), the oracles the
//! tests compare [`count`] against.
//!
//! ```
//! use mnk_core::game::{perft, Board, Rules};
//!
//! let c = perft::count(&Board::new(Rules::TICTACTOE)).unwrap();
//! assert_eq!(c.games.total(), 255_168);
//! assert_eq!(c.positions.positions, 5_478);
//! ```

use super::{zobrist, Board, Cell, Color, KeyHasher, Outcome, Rule, Symmetry};
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

/// Numbers of complete games by result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameCounts {
    /// Games black won.
    pub black_wins: u64,
    /// Games white won.
    pub white_wins: u64,
    /// Games that filled the board with no winner.
    pub draws: u64,
}

impl GameCounts {
    /// Every game counted.
    pub fn total(&self) -> u64 {
        self.black_wins + self.white_wins + self.draws
    }
}

/// Numbers of distinct positions reachable from a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionCounts {
    /// All distinct reachable positions, the start included.
    pub positions: u64,
    /// Those where the game is not over.
    pub non_terminal: u64,
    /// Distinct positions up to the board's symmetries.
    pub up_to_symmetry: u64,
}

/// Both counts from one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Complete games (move sequences) by result.
    pub games: GameCounts,
    /// Distinct positions.
    pub positions: PositionCounts,
}

/// The largest number of positions [`count`] takes on, as bounded by
/// [`Estimate::positions`]: 2^27, about 134 million, which admits up to 18
/// empty cells (bounded by 87 million positions; 20 would be 741 million).
/// Measured on one core (release build): 4x4x4 from empty, 16 cells and
/// 9.7 million positions, in 5 s; 5x4x4 after two moves, 18 cells and 77
/// million positions, in 85 s with 0.9 GB of memory.
pub const MAX_POSITIONS: u128 = 1 << 27;

/// Bytes of memory per position held in a ply (hash map slot, key and
/// count, with the map's spare room).
pub const BYTES_PER_POSITION: u128 = 40;

/// Why [`count`] refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    /// The bound on the positions is above [`MAX_POSITIONS`].
    #[error(
        "counting from a position with {} empty cells is too large: up to {} positions \
         (up to {} in one ply: about {} of memory and {} minutes at a million \
         positions a second), more than the limit of {} ({} empty cells or fewer always fit)",
        .0.empty, .0.positions, .0.widest_ply,
        crate::util::Bytes(.0.memory_bytes()),
        .0.positions / 60_000_000, MAX_POSITIONS, max_empty_cells()
    )]
    TooLarge(Estimate),
}

/// An upper bound on the work of [`count`], from the number of empty
/// cells alone: every way of filling some of them with the right number of
/// stones of each colour, as if no line were ever completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Empty cells of the start position.
    pub empty: usize,
    /// At most this many distinct positions (the start included).
    pub positions: u128,
    /// At most this many positions at the busiest ply.
    pub widest_ply: u128,
}

impl Estimate {
    /// Memory for the two busiest plies.
    pub fn memory_bytes(&self) -> u128 {
        2 * self.widest_ply * BYTES_PER_POSITION
    }

    /// Whether [`count`] takes this on.
    pub fn fits(&self) -> bool {
        self.positions <= MAX_POSITIONS
    }
}

/// Bounds the positions reachable from `board` (see [`Estimate`]).
///
/// ```
/// use mnk_core::game::{perft, Board, Rules};
/// let e = perft::estimate(&Board::new("4x4x4".parse().unwrap()));
/// assert_eq!((e.empty, e.positions), (16, 10_165_779));
/// assert!(e.fits());
/// ```
pub fn estimate(board: &Board) -> Estimate {
    estimate_empty(board.empty_count())
}

fn estimate_empty(empty: usize) -> Estimate {
    let binom = |n: usize, k: usize| -> u128 {
        let k = k.min(n - k);
        (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
    };
    let (mut positions, mut widest_ply) = (0u128, 0u128);
    for p in 0..=empty {
        // p more stones: the side to move placed ⌈p/2⌉ of them.
        let n = binom(empty, p).saturating_mul(binom(p, p.div_ceil(2)));
        positions = positions.saturating_add(n);
        widest_ply = widest_ply.max(n);
    }
    Estimate {
        empty,
        positions,
        widest_ply,
    }
}

/// The most empty cells whose [`Estimate`] fits [`MAX_POSITIONS`].
pub fn max_empty_cells() -> usize {
    (0..64)
        .take_while(|&e| estimate_empty(e).fits())
        .last()
        .unwrap_or(0)
}

/// How far [`count_with_progress`] has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Plies fully expanded (of `plies`).
    pub ply: usize,
    /// Plies to expand in all: the empty cells of the start position.
    pub plies: usize,
    /// Distinct positions found so far.
    pub positions: u64,
}

/// Counts the games and the distinct positions reachable from `board`.
pub fn count(board: &Board) -> Result<Counts, PerftError> {
    count_with_progress(board, |_| {})
}

/// [`count`], calling `progress` after every ply and every 65,536
/// positions expanded.
pub fn count_with_progress(
    board: &Board,
    mut progress: impl FnMut(Progress),
) -> Result<Counts, PerftError> {
    let est = estimate(board);
    // The bound also keeps the encoding (32 cells per colour) and the
    // counts (at most 18! games, far below u64::MAX) in range.
    if !est.fits() {
        return Err(PerftError::TooLarge(est));
    }
    let geo = Geometry::new(board);
    let mut counts = Counts::default();
    counts.positions.positions = 1;
    counts.positions.up_to_symmetry = 1;
    if board.is_over() {
        match board.outcome() {
            Some(Outcome::Win(Color::Black)) => counts.games.black_wins = 1,
            Some(Outcome::Win(Color::White)) => counts.games.white_wins = 1,
            _ => counts.games.draws = 1,
        }
        return Ok(counts);
    }
    counts.positions.non_terminal = 1;
    let plies = geo.empty;
    let mut layer: Map = Map::default();
    layer.insert(0, 1);
    let mut mover = board.to_move();
    let mut done = 0u64;
    for ply in 0..plies {
        let mut next = Map::default();
        let mut ended: Set = Set::default();
        let shift = 32 * mover.index() as u32;
        for (&key, &paths) in &layer {
            let full = (key as u32) | (key >> 32) as u32;
            let own = (key >> shift) as u32;
            let mut free = geo.all & !full;
            while free != 0 {
                let j = free.trailing_zeros() as usize;
                free &= free - 1;
                let bit = 1u32 << j;
                let child = key | (bit as u64) << shift;
                if geo.wins(mover.index(), j, own | bit) {
                    match mover {
                        Color::Black => counts.games.black_wins += paths,
                        Color::White => counts.games.white_wins += paths,
                    }
                    ended.insert(child);
                } else if full | bit == geo.all {
                    counts.games.draws += paths;
                    ended.insert(child);
                } else {
                    *next.entry(child).or_insert(0) += paths;
                }
            }
            done += 1;
            if done.is_multiple_of(1 << 16) {
                progress(Progress {
                    ply,
                    plies,
                    positions: counts.positions.positions + next.len() as u64,
                });
            }
        }
        // A position either ends the game or not, whatever the order of
        // the moves that led to it (a completed line holds the last stone
        // played, or the game would have ended earlier), so `next` and
        // `ended` do not overlap.
        let found = (next.len() + ended.len()) as u64;
        counts.positions.positions += found;
        counts.positions.non_terminal += next.len() as u64;
        // Positions a ply apart differ in their number of stones, so
        // symmetric copies only meet within a ply.
        let canon: Set = next
            .keys()
            .chain(ended.iter())
            .map(|&k| geo.canonical_hash(k))
            .collect();
        counts.positions.up_to_symmetry += canon.len() as u64;
        layer = next;
        mover = mover.opponent();
        progress(Progress {
            ply: ply + 1,
            plies,
            positions: counts.positions.positions,
        });
        if layer.is_empty() {
            break;
        }
    }
    Ok(counts)
}

type Map = HashMap<u64, u64, BuildHasherDefault<KeyHasher>>;
type Set = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// The counting's view of the start position: its empty cells numbered
/// 0…E−1, a position as a bit per (colour, empty cell) in a `u64` (black
/// in the low half), and for each empty cell and colour the lines a stone
/// there could complete.
struct Geometry {
    empty: usize,
    /// A bit for every empty cell.
    all: u32,
    /// `lines[c][start[c][j]..start[c][j + 1]]`: `(cells, flanks)` of the
    /// windows through empty cell `j` that colour `c` could complete: the
    /// window's empty cells, and under the exact rule the empty cells just
    /// beyond its ends (which must not hold `c`).
    lines: [Vec<(u32, u32)>; 2],
    start: [Vec<usize>; 2],
    /// Per symmetry: the start position's Zobrist hash under it, and per
    /// colour and byte of the colour's mask, the hash of those stones.
    root_hash: Vec<u64>,
    byte_hash: Vec<[[[u64; 256]; 4]; 2]>,
}

impl Geometry {
    fn new(board: &Board) -> Geometry {
        let rules = *board.rules();
        let cells = board.cells();
        let empties: Vec<usize> = (0..cells.len()).filter(|&i| cells[i].is_empty()).collect();
        assert!(empties.len() <= 32, "checked by the estimate");
        let mut slot = vec![usize::MAX; cells.len()];
        for (j, &i) in empties.iter().enumerate() {
            slot[i] = j;
        }
        let (w, h, k) = (rules.width as i32, rules.height as i32, rules.k as i32);
        let at = |x: i32, y: i32| -> Option<usize> {
            (x >= 0 && y >= 0 && x < w && y < h).then(|| (y * w + x) as usize)
        };
        let mut per: [Vec<Vec<(u32, u32)>>; 2] = [
            vec![Vec::new(); empties.len()],
            vec![Vec::new(); empties.len()],
        ];
        for (dx, dy) in super::board::DIRECTIONS {
            for y in 0..h {
                for x in 0..w {
                    let window: Option<Vec<usize>> =
                        (0..k).map(|t| at(x + dx * t, y + dy * t)).collect();
                    let Some(window) = window else { continue };
                    let flanks = [at(x - dx, y - dy), at(x + dx * k, y + dy * k)];
                    for color in [Color::Black, Color::White] {
                        let stone = Cell::from(color);
                        if window
                            .iter()
                            .any(|&i| !cells[i].is_empty() && cells[i] != stone)
                        {
                            continue;
                        }
                        let mut flank = 0u32;
                        if rules.rule == Rule::Exact {
                            if flanks.iter().flatten().any(|&i| cells[i] == stone) {
                                continue;
                            }
                            for &i in flanks.iter().flatten() {
                                if cells[i].is_empty() {
                                    flank |= 1 << slot[i];
                                }
                            }
                        }
                        let mask = window
                            .iter()
                            .filter(|&&i| cells[i].is_empty())
                            .fold(0u32, |m, &i| m | 1 << slot[i]);
                        for &i in window.iter().filter(|&&i| cells[i].is_empty()) {
                            per[color.index()][slot[i]].push((mask, flank));
                        }
                    }
                }
            }
        }
        let flatten = |lists: &Vec<Vec<(u32, u32)>>| {
            let mut start = vec![0];
            let mut flat = Vec::new();
            for l in lists {
                flat.extend_from_slice(l);
                start.push(flat.len());
            }
            (flat, start)
        };
        let (l0, s0) = flatten(&per[0]);
        let (l1, s1) = flatten(&per[1]);
        let syms = Symmetry::of(&rules);
        let mut root_hash = Vec::with_capacity(syms.len());
        let mut byte_hash = Vec::with_capacity(syms.len());
        for &s in syms {
            let key = |c: usize, i: usize| {
                let m = s.apply(&rules, rules.move_at(i));
                zobrist::key(c, m.x, m.y)
            };
            root_hash.push((0..cells.len()).fold(0, |h, i| match cells[i].color() {
                Some(c) => h ^ key(c.index(), i),
                None => h,
            }));
            let mut table = [[[0u64; 256]; 4]; 2];
            for (c, per_colour) in table.iter_mut().enumerate() {
                for (b, per_byte) in per_colour.iter_mut().enumerate() {
                    for (v, hash) in per_byte.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let j = 8 * b + bit;
                            if v >> bit & 1 == 1 && j < empties.len() {
                                *hash ^= key(c, empties[j]);
                            }
                        }
                    }
                }
            }
            byte_hash.push(table);
        }
        Geometry {
            empty: empties.len(),
            all: ((1u64 << empties.len()) - 1) as u32,
            lines: [l0, l1],
            start: [s0, s1],
            root_hash,
            byte_hash,
        }
    }

    /// Whether colour `c`, owning the cells `own` after playing empty
    /// cell `j`, completed a line there.
    #[inline]
    fn wins(&self, c: usize, j: usize, own: u32) -> bool {
        self.lines[c][self.start[c][j]..self.start[c][j + 1]]
            .iter()
            .any(|&(cells, flanks)| own & cells == cells && own & flanks == 0)
    }

    /// The position's [`Board::canonical_hash`].
    fn canonical_hash(&self, key: u64) -> u64 {
        let bytes = key.to_le_bytes();
        self.root_hash
            .iter()
            .zip(&self.byte_hash)
            .map(|(&root, table)| {
                bytes
                    .iter()
                    .enumerate()
                    .fold(root, |h, (n, &b)| h ^ table[n / 4][n % 4][b as usize])
            })
            .min()
            .unwrap_or(0)
    }
}

/// Counts every complete game from `board` by walking each one: slow
/// (tic-tac-toe's 255,168 games take milliseconds, a 4×4 board's
/// trillions would take days). The oracle for [`count`].
pub fn enumerate_games(board: &mut Board) -> GameCounts {
    let mut counts = GameCounts::default();
    walk_games(board, &mut counts);
    counts
}

fn walk_games(board: &mut Board, counts: &mut GameCounts) {
    match board.outcome() {
        Some(Outcome::Win(Color::Black)) => counts.black_wins += 1,
        Some(Outcome::Win(Color::White)) => counts.white_wins += 1,
        Some(Outcome::Draw) => counts.draws += 1,
        None => {
            for m in board.legal_moves() {
                board.play_unchecked(m);
                walk_games(board, counts);
                board.undo();
            }
        }
    }
}

/// Counts the distinct positions reachable from `board` (by hash) with a
/// depth-first walk that skips positions already seen. The oracle for
/// [`count`].
pub fn enumerate_positions(board: &mut Board) -> PositionCounts {
    let mut seen = HashSet::new();
    let mut canon = HashSet::new();
    let mut counts = PositionCounts::default();
    walk_positions(board, &mut seen, &mut canon, &mut counts);
    counts
}

fn walk_positions(
    board: &mut Board,
    seen: &mut HashSet<u64>,
    canon: &mut HashSet<u64>,
    counts: &mut PositionCounts,
) {
    if !seen.insert(board.hash()) {
        return;
    }
    counts.positions += 1;
    if canon.insert(board.canonical_hash()) {
        counts.up_to_symmetry += 1;
    }
    if board.is_over() {
        return;
    }
    counts.non_terminal += 1;
    for m in board.legal_moves() {
        board.play_unchecked(m);
        walk_positions(board, seen, canon, counts);
        board.undo();
    }
}
