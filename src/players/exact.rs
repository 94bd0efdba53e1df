//! The exact player: perfect play by solving the game tree to the end.
//!
//! It is the yardstick of the brief's third use: a trained evaluator can be
//! checked against a player that never errs, on boards small enough to
//! solve (tic-tac-toe, 4×4, small rectangles, or the last moves of any game).
//!
//! - [`Value`] is a game-theoretic result, always from the view of the side
//!   to move: [`Value::Loss`] < [`Value::Draw`] < [`Value::Win`].
//! - [`Solver`] computes it with full-depth negamax and alpha-beta over the
//!   three values, plus a transposition table. It refuses positions with
//!   more empty cells than its limit ([`Solver::DEFAULT_LIMIT`] = 16).
//! - [`Exact`] is the [`Player`]: it plays uniformly at random (with the
//!   generator it is given) among the optimal moves.
//! - [`Solver::minimax_value`] is plain minimax (no pruning, no table): slow,
//!   the oracle the tests compare the solver against.
//!
//! # The bound convention
//!
//! A search with window `(alpha, beta)` returns a value `v` (fail-soft) that
//! is only exact when `alpha < v < beta`:
//!
//! - `v <= alpha`: the true value is **at most** `v` (an *upper* bound);
//! - `v >= beta`: the true value is **at least** `v` (a *lower* bound).
//!
//! The table stores each result with that flag, so a cutoff is never reused
//! as an exact value (the defect of the original C++ program). Because
//! `Loss` and `Win` are the extremes, an upper bound of `Loss` and a lower
//! bound of `Win` are stored as exact. A stored bound only ends a later
//! search when it already decides that search's window; otherwise it narrows
//! the window.
//!
//! # The table key
//!
//! The table is keyed by a Zobrist hash of the stones (the solver's own keys)
//! with the side to move mixed in, so set-up positions that do not alternate
//! are still told apart. By default the key is **canonical**: the smallest of
//! the hashes of the position under every symmetry of the board (8 on a
//! square board, 4 on a rectangle), kept up to date incrementally (one XOR per
//! symmetry per move) rather than by [`Board::canonical_hash`], which costs
//! O(cells) per call (about 0.5 µs on 4×4, more than a whole node of the
//! search). Measured on 4×4×4 from empty (release build): canonical keys
//! search 13k nodes in about 2 ms, the plain hash 72k nodes in about 7 ms;
//! on 5×5×4, 4.5 s against 78 s. See
//! [`Solver::with_symmetry`] to switch it off.
//!
//! # Pruning that is exact
//!
//! Before branching, every node checks facts that hold in every line of
//! play, so they never change a value (the first before the table look-up,
//! the others after it):
//!
//! - if neither side has a *live* window it can still fill (k cells in a
//!   line with no stone of the other side, lacking no more stones than that
//!   side has moves left), no one can ever win: a draw;
//! - if the side to move can complete a win now: a win;
//! - if the opponent can complete a win on two cells: a loss (one block is
//!   not enough); on one cell: that block is the only move searched.
//!
//! Moves are then tried in a fixed order: cells on the most lines first,
//! then nearest the centre.
//!
//! ```
//! use mnk::game::{Board, Rules};
//! use mnk::players::{Solver, Value};
//!
//! let mut solver = Solver::new(Rules::TICTACTOE);
//! let board = Board::new(Rules::TICTACTOE);
//! assert_eq!(solver.value(&board).unwrap(), Value::Draw);
//! // Every first move of tic-tac-toe keeps the draw.
//! assert_eq!(solver.optimal_moves(&board).unwrap().len(), 9);
//!
//! // 4×4 with 3 in a row is a first-player win.
//! let rules = "4x4x3".parse().unwrap();
//! assert_eq!(Solver::new(rules).value(&Board::new(rules)).unwrap(), Value::Win);
//! ```

use super::tt::Bound;
use super::{Player, PlayerError, Rng};
use crate::game::{splitmix64, Board, Color, Move, Outcome, Rules, Symmetry};
use rand::Rng as _;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

/// A game-theoretic value from the side to move's view.
///
/// Ordered `Loss < Draw < Win`.
///
/// ```
/// use mnk::players::Value;
/// assert!(Value::Loss < Value::Draw && Value::Draw < Value::Win);
/// assert_eq!(Value::Win.negate(), Value::Loss);
/// assert_eq!(Value::Draw.to_string(), "draw");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Loss,
    Draw,
    Win,
}

impl Value {
    /// The same result seen from the other side.
    #[inline]
    pub fn negate(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }

    /// The value of a finished game for `side`.
    pub fn of_outcome(outcome: Outcome, side: Color) -> Value {
        match outcome {
            Outcome::Draw => Value::Draw,
            Outcome::Win(c) if c == side => Value::Win,
            Outcome::Win(_) => Value::Loss,
        }
    }

    #[inline]
    fn to_i8(self) -> i8 {
        self as i8 - 1
    }

    #[inline]
    fn from_i8(v: i8) -> Value {
        match v {
            i8::MIN..=-1 => Value::Loss,
            0 => Value::Draw,
            _ => Value::Win,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        })
    }
}

/// Counts gathered while solving, since the solver was made or cleared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Positions searched (each call of the search on a position not over).
    pub nodes: u64,
    /// Positions held in the transposition table now.
    pub entries: usize,
    /// Table look-ups that found the position (exact value or bound).
    pub hits: u64,
}

impl fmt::Display for SolverStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} nodes, {} table entries, {} table hits",
            self.nodes, self.entries, self.hits
        )
    }
}

// Table entries: the value (−1, 0, 1 stored as 0, 1, 2) in the low two bits
// and the `Bound` above them.

/// A hasher for keys that are already random 64-bit Zobrist hashes: one
/// multiply spreads every key bit into the high bits that `HashMap` uses for
/// its tags (a minimum over symmetries leaves the top bits of the key biased
/// towards zero).
#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    #[inline]
    fn write_u64(&mut self, k: u64) {
        self.0 = (k ^ (k >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Table = HashMap<u64, u8, BuildHasherDefault<ZobristHasher>>;

/// What the solver precomputes for one set of rules.
struct Geometry {
    /// Number of symmetries used in the key (1 when symmetry is off).
    nsym: usize,
    /// `keys[(colour * cells + cell) * nsym + s]`: the key of a stone of
    /// `colour` on `cell` once the board is mapped by symmetry `s`.
    keys: Vec<u64>,
    /// Mixed into the key when white is to move.
    side_key: u64,
    /// The windows (k cells in a line) through each cell: indices into the
    /// window list, flattened, `cell_windows[start[c]..start[c + 1]]`.
    cell_windows: Vec<u32>,
    start: Vec<usize>,
    windows: usize,
    /// Every cell, in the order moves are tried.
    order: Vec<u16>,
}

impl Geometry {
    fn new(rules: &Rules, symmetric: bool) -> Geometry {
        let cells = rules.cells();
        let (w, h, k) = (rules.width as i32, rules.height as i32, rules.k as i32);
        let syms: &[Symmetry] = if symmetric {
            Symmetry::of(rules)
        } else {
            &[Symmetry::Identity]
        };
        let nsym = syms.len();
        // The solver's own Zobrist keys, from a fixed SplitMix64 stream.
        let mut state = 0x05EE_D0FE_8AC7_u64;
        let mut next = || {
            let (s, v) = splitmix64(state);
            state = s;
            v
        };
        let base: Vec<u64> = (0..2 * cells).map(|_| next()).collect();
        let side_key = next();
        let mut keys = vec![0; 2 * cells * nsym];
        for c in 0..2 {
            for i in 0..cells {
                for (s, sym) in syms.iter().enumerate() {
                    let j = rules.index(sym.apply(rules, rules.move_at(i)));
                    keys[(c * cells + i) * nsym + s] = base[c * cells + j];
                }
            }
        }
        // Windows.
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); cells];
        let mut windows = 0u32;
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for y in 0..h {
                for x in 0..w {
                    let (ex, ey) = (x + dx * (k - 1), y + dy * (k - 1));
                    if ex < 0 || ex >= w || ey < 0 || ey >= h {
                        continue;
                    }
                    for t in 0..k {
                        per_cell[((y + dy * t) * w + x + dx * t) as usize].push(windows);
                    }
                    windows += 1;
                }
            }
        }
        let mut start = Vec::with_capacity(cells + 1);
        let mut cell_windows = Vec::new();
        for list in &per_cell {
            start.push(cell_windows.len());
            cell_windows.extend_from_slice(list);
        }
        start.push(cell_windows.len());
        // Move order: most lines through the cell, then nearest the centre
        // (doubled coordinates keep it exact on even sides), then index.
        let mut order: Vec<u16> = (0..cells as u16).collect();
        order.sort_by_key(|&i| {
            let m = rules.move_at(i as usize);
            let dx = (2 * m.x as i32 - (w - 1)).abs();
            let dy = (2 * m.y as i32 - (h - 1)).abs();
            (
                std::cmp::Reverse(per_cell[i as usize].len()),
                dx * dx + dy * dy,
                i,
            )
        });
        Geometry {
            nsym,
            keys,
            side_key,
            cell_windows,
            start,
            windows: windows as usize,
            order,
        }
    }
}

/// Solves positions exactly: negamax with alpha-beta over [`Value`] and a
/// transposition table that keeps its contents across calls (clear it with
/// [`Solver::clear`]).
///
/// The solver is made for one set of rules; given a board of other rules it
/// switches to them and empties its table.
///
/// ```
/// use mnk::game::{Board, Rules};
/// use mnk::players::{PlayerError, Solver, Value};
///
/// let mut solver = Solver::new(Rules::TICTACTOE);
/// // X in the centre, O on an edge: X wins.
/// let b = Board::from_moves(Rules::TICTACTOE, &["b2".parse().unwrap(), "b1".parse().unwrap()]).unwrap();
/// assert_eq!(solver.value(&b).unwrap(), Value::Win);
/// println!("{}", solver.stats());
///
/// // Gomoku from empty is far too large.
/// let g = Board::new(Rules::GOMOKU);
/// assert!(matches!(Solver::new(Rules::GOMOKU).value(&g), Err(PlayerError::TooLarge(_))));
/// ```
pub struct Solver {
    rules: Rules,
    limit: usize,
    symmetric: bool,
    geo: Geometry,
    table: Table,
    nodes: u64,
    hits: u64,
    // Search state.
    board: Board,
    /// The cells empty at the root, in search order.
    order: Vec<u16>,
    /// Stones of each colour in each window.
    counts: Vec<[u8; 2]>,
    /// `need[c][j]`: the windows still winnable by colour `c` (no stone of
    /// the other colour) that lack `j` stones of `c`.
    need: [[i32; MAX_K + 1]; 2],
}

/// Longest winning line handled (the largest board side).
const MAX_K: usize = crate::game::MAX_SIDE as usize;

/// A table holding more entries than this (about 300 MB) is emptied before
/// the next solve, so a player kept across many games cannot grow without
/// bound. One solve may exceed it; 4×4×4 from empty needs a few thousand.
const MAX_TABLE_ENTRIES: usize = 1 << 24;

impl Solver {
    /// The default limit on empty cells: 16, a 4×4 board from empty.
    ///
    /// The limit is about time (and the table's memory): a solve from
    /// scratch grows several-fold with every further empty cell. Measured
    /// on a release build: 4×4×4 from empty (16 cells) about 2 ms, 5×4×4
    /// (20) about 20 ms, 5×5×4 (25) about 5 s with 5.6M table entries,
    /// 6×5×4 (30) minutes. At 16 every position, including the last 16
    /// moves of a large game, is solved well within a move's time; raise
    /// it with [`Solver::with_limit`] when you know the positions are easy.
    pub const DEFAULT_LIMIT: usize = 16;

    /// A solver for these rules with the default limit of
    /// [`Solver::DEFAULT_LIMIT`] empty cells.
    pub fn new(rules: Rules) -> Solver {
        Solver::with_limit(rules, Solver::DEFAULT_LIMIT)
    }

    /// A solver that refuses positions with more than `max_empty_cells`
    /// empty cells.
    pub fn with_limit(rules: Rules, max_empty_cells: usize) -> Solver {
        Solver {
            rules,
            limit: max_empty_cells,
            symmetric: true,
            geo: Geometry::new(&rules, true),
            table: Table::default(),
            nodes: 0,
            hits: 0,
            board: Board::new(rules),
            order: Vec::new(),
            counts: Vec::new(),
            need: [[0; MAX_K + 1]; 2],
        }
    }

    /// Whether the table key is canonical under the board's symmetries (the
    /// default) or the plain hash. Both give the same values; this only
    /// changes speed and table size. Empties the table.
    pub fn with_symmetry(mut self, on: bool) -> Solver {
        self.symmetric = on;
        self.geo = Geometry::new(&self.rules, on);
        self.clear();
        self
    }

    /// The rules the table belongs to.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The largest number of empty cells the solver accepts.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Counts since the solver was made or last cleared.
    pub fn stats(&self) -> SolverStats {
        SolverStats {
            nodes: self.nodes,
            entries: self.table.len(),
            hits: self.hits,
        }
    }

    /// Empties the table and zeroes the counts.
    pub fn clear(&mut self) {
        self.table = Table::default();
        self.nodes = 0;
        self.hits = 0;
    }

    /// The value of the position for the side to move.
    ///
    /// A finished game is valued by its outcome, whatever its size. A game
    /// in progress with more empty cells than the limit is refused with
    /// [`PlayerError::TooLarge`].
    pub fn value(&mut self, board: &Board) -> Result<Value, PlayerError> {
        if let Some(o) = board.outcome() {
            return Ok(Value::of_outcome(o, board.to_move()));
        }
        self.setup(board)?;
        let hs = self.root_hashes();
        let v = self.search(&hs, -1, 1);
        Ok(Value::from_i8(v))
    }

    /// The value of every legal move, from the view of the side that plays
    /// it, in row-major order. Empty when the game is over.
    pub fn move_values(&mut self, board: &Board) -> Result<Vec<(Move, Value)>, PlayerError> {
        if board.is_over() {
            return Ok(Vec::new());
        }
        self.setup(board)?;
        let hs = self.root_hashes();
        let me = self.board.to_move();
        let mut out = Vec::new();
        for m in board.legal_moves() {
            let v = self.child_value(&hs, me, m, -1, 1);
            out.push((m, Value::from_i8(v)));
        }
        Ok(out)
    }

    /// The optimal moves, in row-major order. Empty when the game is over.
    ///
    /// In a won or drawn position these are exactly the moves that keep the
    /// value. In a lost position every move loses against perfect play; the
    /// convention is then to return the moves after which the opponent
    /// cannot win at once (so the player still resists a fallible
    /// opponent), or every legal move if there are none.
    pub fn optimal_moves(&mut self, board: &Board) -> Result<Vec<Move>, PlayerError> {
        if board.is_over() {
            return Ok(Vec::new());
        }
        let best = self.value(board)?.to_i8();
        // `value` left the solver set up on this board.
        let hs = self.root_hashes();
        let me = self.board.to_move();
        let legal = board.legal_moves();
        let mut out = Vec::new();
        if best == -1 {
            for &m in &legal {
                let mut b = board.clone();
                b.play_unchecked(m);
                let them = b.to_move();
                let loses_at_once =
                    b.outcome().is_none() && b.legal_moves().iter().any(|&r| b.wins_at(r, them));
                if !loses_at_once {
                    out.push(m);
                }
            }
            if out.is_empty() {
                out = legal;
            }
            return Ok(out);
        }
        for m in legal {
            // A null window around `best`: the move is optimal iff its
            // value is not below `best` (it cannot be above).
            if self.child_value(&hs, me, m, best - 1, best) >= best {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// Plain minimax over every line of play, without pruning or table:
    /// exponentially slow (tic-tac-toe from empty visits 549,946 positions),
    /// meant only as the oracle for tests of [`Solver`].
    pub fn minimax_value(board: &Board) -> Value {
        fn minimax(b: &mut Board) -> i8 {
            match b.outcome() {
                Some(o) => Value::of_outcome(o, b.to_move()).to_i8(),
                None => {
                    let mut best = -1;
                    for m in b.legal_moves() {
                        b.play_unchecked(m);
                        best = best.max(-minimax(b));
                        b.undo();
                    }
                    best
                }
            }
        }
        Value::from_i8(minimax(&mut board.clone()))
    }

    /// Checks the limit and loads `board` into the search state.
    fn setup(&mut self, board: &Board) -> Result<(), PlayerError> {
        let empty = board.empty_count();
        if empty > self.limit {
            return Err(PlayerError::TooLarge(format!(
                "the position has {empty} empty cells and the solver's limit is {}; \
                 solving time grows several-fold with each empty cell (4x4 from empty, \
                 16 cells, takes milliseconds; 5x5, 25 cells, seconds; 30 cells, minutes), \
                 so raise the limit only for positions you expect to finish: \
                 `exact:limit={empty}` on the command line, \
                 `Exact::with_limit` or `Solver::with_limit` in code",
                self.limit
            )));
        }
        if *board.rules() != self.rules {
            self.rules = *board.rules();
            self.geo = Geometry::new(&self.rules, self.symmetric);
            self.clear();
        }
        if self.table.len() > MAX_TABLE_ENTRIES {
            self.table = Table::default();
        }
        self.board.clone_from(board);
        let cells = self.board.cells();
        self.order.clear();
        self.order.extend(
            self.geo
                .order
                .iter()
                .copied()
                .filter(|&i| cells[i as usize] == 0),
        );
        self.counts.clear();
        self.counts.resize(self.geo.windows, [0, 0]);
        for (i, &c) in cells.iter().enumerate() {
            if c != 0 {
                for &w in &self.geo.cell_windows[self.geo.start[i]..self.geo.start[i + 1]] {
                    self.counts[w as usize][c as usize - 1] += 1;
                }
            }
        }
        let k = self.rules.k;
        self.need = [[0; MAX_K + 1]; 2];
        for &cnt in &self.counts {
            for c in 0..2 {
                if cnt[1 - c] == 0 {
                    self.need[c][(k - cnt[c]) as usize] += 1;
                }
            }
        }
        Ok(())
    }

    /// The hashes of the loaded position under each symmetry.
    fn root_hashes(&self) -> [u64; 8] {
        let mut hs = [0u64; 8];
        let n = self.geo.nsym;
        let cells = self.board.cells();
        for (i, &c) in cells.iter().enumerate() {
            if c != 0 {
                let base = ((c as usize - 1) * cells.len() + i) * n;
                for (s, h) in hs[..n].iter_mut().enumerate() {
                    *h ^= self.geo.keys[base + s];
                }
            }
        }
        hs
    }

    /// The value for `me` of playing `m` in the loaded position, searched
    /// with window `(alpha, beta)` from `me`'s view.
    fn child_value(&mut self, hs: &[u64; 8], me: Color, m: Move, alpha: i8, beta: i8) -> i8 {
        let i = self.rules.index(m);
        let mut child = *hs;
        let v = match self.play(i, me.index(), &mut child) {
            Some(o) => Value::of_outcome(o, me).to_i8(),
            None => -self.search(&child, -beta, -alpha),
        };
        self.unplay(i, me.index());
        v
    }

    #[inline]
    fn play(&mut self, i: usize, c: usize, hs: &mut [u64; 8]) -> Option<Outcome> {
        let outcome = self.board.play_unchecked(self.rules.move_at(i));
        let n = self.geo.nsym;
        let base = (c * self.rules.cells() + i) * n;
        for (s, h) in hs[..n].iter_mut().enumerate() {
            *h ^= self.geo.keys[base + s];
        }
        self.count(i, c, true);
        outcome
    }

    #[inline]
    fn unplay(&mut self, i: usize, c: usize) {
        self.board.undo();
        self.count(i, c, false);
    }

    /// Adds (`add`) or removes a stone of colour `c` on cell `i` in the
    /// counts of the windows through it, keeping `need` up to date.
    #[inline]
    fn count(&mut self, i: usize, c: usize, add: bool) {
        let k = self.rules.k;
        for &w in &self.geo.cell_windows[self.geo.start[i]..self.geo.start[i + 1]] {
            let cnt = &mut self.counts[w as usize];
            let (own, other) = (cnt[c], cnt[1 - c]);
            if add {
                cnt[c] += 1;
                // Still winnable for `c`, one stone nearer.
                if other == 0 {
                    self.need[c][(k - own) as usize] -= 1;
                    self.need[c][(k - own - 1) as usize] += 1;
                }
                // No longer winnable for the other colour.
                if own == 0 {
                    self.need[1 - c][(k - other) as usize] -= 1;
                }
            } else {
                cnt[c] -= 1;
                if other == 0 {
                    self.need[c][(k - own) as usize] -= 1;
                    self.need[c][(k - own + 1) as usize] += 1;
                }
                if own == 1 {
                    self.need[1 - c][(k - other) as usize] += 1;
                }
            }
        }
    }

    /// Whether colour `c`, with `moves` stones still to place, has a window
    /// it could fill.
    #[inline]
    fn can_win(&self, c: usize, moves: usize) -> bool {
        let top = moves.min(self.rules.k as usize);
        self.need[c][1..=top].iter().any(|&n| n > 0)
    }

    /// Negamax with alpha-beta on the loaded position, which is not over.
    /// Fail-soft: see the module documentation for what the result means
    /// outside `(alpha, beta)`.
    fn search(&mut self, hs: &[u64; 8], mut alpha: i8, mut beta: i8) -> i8 {
        self.nodes += 1;
        let me = self.board.to_move();
        let opp = me.opponent();
        // Neither side can still fill a line with the stones it has left.
        let empty = self.board.empty_count();
        if !self.can_win(me.index(), empty.div_ceil(2)) && !self.can_win(opp.index(), empty / 2) {
            return 0;
        }
        let n = self.geo.nsym;
        let mut key = hs[..n].iter().copied().min().unwrap_or(0);
        if me == Color::White {
            key ^= self.geo.side_key;
        }
        let (alpha0, beta0) = (alpha, beta);
        if let Some(&e) = self.table.get(&key) {
            self.hits += 1;
            let v = (e & 3) as i8 - 1;
            match Bound::from_u8(e >> 2) {
                Bound::Exact => return v,
                Bound::Lower => alpha = alpha.max(v),
                Bound::Upper => beta = beta.min(v),
            }
            if alpha >= beta {
                return v;
            }
        }

        // Wins now, and the opponent's winning cells. A winning cell needs
        // a window with k − 1 stones of its side and no other stone, so the
        // scan is skipped when there is none.
        let mut threats = 0;
        let mut block = 0usize;
        let (hot_me, hot_opp) = (self.need[me.index()][1] > 0, self.need[opp.index()][1] > 0);
        if hot_me || hot_opp {
            for &i in &self.order {
                let i = i as usize;
                if self.board.cells()[i] != 0 {
                    continue;
                }
                let m = self.rules.move_at(i);
                if hot_me && self.board.wins_at(m, me) {
                    return 1;
                }
                if hot_opp && threats < 2 && self.board.wins_at(m, opp) {
                    threats += 1;
                    block = i;
                }
            }
            if threats >= 2 {
                return -1;
            }
        }

        let c = me.index();
        let mut best = -1;
        let mut k = 0;
        loop {
            let i = if threats == 1 {
                if k > 0 {
                    break;
                }
                block
            } else {
                match self.order.get(k) {
                    Some(&i) => i as usize,
                    None => break,
                }
            };
            k += 1;
            if self.board.cells()[i] != 0 {
                continue;
            }
            let mut child = *hs;
            let v = match self.play(i, c, &mut child) {
                // The side to move has no winning cell, so only a draw
                // (a full board) can end the game here.
                Some(o) => Value::of_outcome(o, me).to_i8(),
                None => -self.search(&child, -beta, -alpha),
            };
            self.unplay(i, c);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        let bound = if best <= alpha0 && best > -1 {
            Bound::Upper
        } else if best >= beta0 && best < 1 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table
            .insert(key, (bound as u8) << 2 | (best + 1) as u8);
        best
    }
}

/// The perfect player: plays uniformly at random among
/// [`Solver::optimal_moves`], using the generator it is given.
///
/// It keeps its solver's table across moves and games of the same rules,
/// so after the first solve from empty the rest of a game costs little.
///
/// ```
/// use mnk::game::{Board, Rules};
/// use mnk::players::{Exact, Player, Rng};
/// use rand::SeedableRng;
///
/// let mut board = Board::new(Rules::TICTACTOE);
/// let mut players = [Exact::new(Rules::TICTACTOE), Exact::new(Rules::TICTACTOE)];
/// let mut rng = Rng::seed_from_u64(7);
/// while !board.is_over() {
///     let side = board.ply() % 2;
///     let m = players[side].choose(&board, &mut rng).unwrap();
///     board.play(m).unwrap();
/// }
/// assert_eq!(board.outcome(), Some(mnk::game::Outcome::Draw));
/// ```
pub struct Exact {
    solver: Solver,
}

impl Exact {
    /// A perfect player with the default limit of
    /// [`Solver::DEFAULT_LIMIT`] empty cells.
    pub fn new(rules: Rules) -> Exact {
        Exact {
            solver: Solver::new(rules),
        }
    }

    /// A perfect player that refuses positions with more than
    /// `max_empty_cells` empty cells.
    pub fn with_limit(rules: Rules, max_empty_cells: usize) -> Exact {
        Exact {
            solver: Solver::with_limit(rules, max_empty_cells),
        }
    }

    /// The solver, for its statistics or values.
    pub fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }
}

impl Player for Exact {
    fn name(&self) -> String {
        "exact".into()
    }

    fn choose(&mut self, board: &Board, rng: &mut Rng) -> Result<Move, PlayerError> {
        if board.is_over() {
            return Err(PlayerError::GameOver);
        }
        let moves = self.solver.optimal_moves(board)?;
        match moves.len() {
            0 => Err(PlayerError::GameOver),
            1 => Ok(moves[0]),
            n => Ok(moves[rng.gen_range(0..n)]),
        }
    }
}
