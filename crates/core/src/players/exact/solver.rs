//! [`Solver`]: full-depth negamax with alpha-beta over [`Value`], and the
//! [`SolverStats`] it gathers. The bound convention and the exact pruning
//! are described in the [module documentation](super).

use super::tables::{SolverTables, Table};
use super::value::Value;
use crate::game::{Board, Color, Move, Outcome, Rules};
use crate::players::{Bound, PlayerError};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

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

/// Solves positions exactly: negamax with alpha-beta over [`Value`] and a
/// transposition table that keeps its contents across calls (clear it with
/// [`Solver::clear`]).
///
/// The solver is made for one set of rules; given a board of other rules it
/// switches to them and empties its table.
///
/// ```
/// use mnk_core::game::{Board, Rules};
/// use mnk_core::players::{PlayerError, Solver, Value};
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
    tables: SolverTables,
    table: Table,
    nodes: u64,
    /// `nodes`, copied every [`PROGRESS_EVERY`] nodes for another thread
    /// to read ([`Solver::progress`]).
    progress: Arc<AtomicU64>,
    hits: u64,
    board: Board,
    /// The cells empty at the root, in search order.
    order: Vec<u16>,
    /// Stones of each colour in each window.
    counts: Vec<[u8; 2]>,
    /// `need[c][j]`: the windows still winnable by colour `c` (no stone of
    /// the other colour) that lack `j` stones of `c`.
    need: [[i32; MAX_K + 1]; 2],
}

/// How often (in nodes) the search publishes its count: rarely enough that
/// the store costs nothing measurable, often enough for a display.
const PROGRESS_EVERY: u64 = 4096;

/// Longest winning line handled (the largest board side).
const MAX_K: usize = crate::game::MAX_SIDE as usize;

/// A table holding more entries than this (about 300 MB) is emptied before
/// the next solve, so a player kept across many games cannot grow without
/// bound. One solve may exceed it; 4×4×4 from empty needs a few thousand.
const MAX_TABLE_ENTRIES: usize = 1 << 24;

/// The settings and counts: the tables are too large to print usefully.
impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("rules", &self.rules)
            .field("limit", &self.limit)
            .field("symmetric", &self.symmetric)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

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
            tables: SolverTables::new(&rules, true),
            table: Table::default(),
            nodes: 0,
            progress: Arc::new(AtomicU64::new(0)),
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
        self.tables = SolverTables::new(&self.rules, on);
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
        self.progress.store(0, Ordering::Relaxed);
        self.hits = 0;
    }

    /// The node count as another thread sees it while a solve runs (to
    /// show progress), updated every 4096 nodes: a shared counter to poll,
    /// rather than a callback in the search.
    pub fn progress(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.progress)
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
            self.tables = SolverTables::new(&self.rules, self.symmetric);
            self.clear();
        }
        if self.table.len() > MAX_TABLE_ENTRIES {
            self.table = Table::default();
        }
        self.board.clone_from(board);
        let cells = self.board.cells();
        self.order.clear();
        self.order.extend(
            self.tables
                .order
                .iter()
                .copied()
                .filter(|&i| cells[i as usize].is_empty()),
        );
        self.counts.clear();
        self.counts.resize(self.tables.windows, [0, 0]);
        for (i, &c) in cells.iter().enumerate() {
            if let Some(color) = c.color() {
                for &w in self.tables.windows_at(i) {
                    self.counts[w as usize][color.index()] += 1;
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
        let n = self.tables.nsym;
        let cells = self.board.cells();
        for (i, &c) in cells.iter().enumerate() {
            if let Some(color) = c.color() {
                let base = (color.index() * cells.len() + i) * n;
                for (s, h) in hs[..n].iter_mut().enumerate() {
                    *h ^= self.tables.keys[base + s];
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
        let n = self.tables.nsym;
        let base = (c * self.rules.cells() + i) * n;
        for (s, h) in hs[..n].iter_mut().enumerate() {
            *h ^= self.tables.keys[base + s];
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
        for &w in self.tables.windows_at(i) {
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
        if self.nodes.is_multiple_of(PROGRESS_EVERY) {
            self.progress.store(self.nodes, Ordering::Relaxed);
        }
        let me = self.board.to_move();
        let opp = me.opponent();
        // Neither side can still fill a line with the stones it has left.
        let empty = self.board.empty_count();
        if !self.can_win(me.index(), empty.div_ceil(2)) && !self.can_win(opp.index(), empty / 2) {
            return 0;
        }
        let n = self.tables.nsym;
        let mut key = hs[..n].iter().copied().min().unwrap_or(0);
        if me == Color::White {
            key ^= self.tables.side_key;
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
                if !self.board.cells()[i].is_empty() {
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
            if !self.board.cells()[i].is_empty() {
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
