//! The line state of one position, shared by every weight set that values
//! it.
//!
//! For every cell and direction, [`Lines`] keeps the line code of the window
//! around the cell and both players' shapes there (one table lookup, stored
//! as one byte, a *pair index*). The shapes do not depend on the weights, so
//! one `Lines` serves score sheets of any weight sets ([`Sheets`]): two
//! greedy players in one game share one `Lines` and one `Sheets` of two
//! sheets, each player's weights for its own side to move, which halves
//! the work of a move.
//!
//! A stone changes only the codes of the cells on its 4 lines within the
//! window radius, so a move updates at most 4 × 2r cells and never rescans
//! the board. Each changed cell is rescored on the sheets (a search's
//! lines skip the stones: a stone's shape-sheet entry stays −∞).
//!
//! Optionally (search needs it, the greedy player does not) `Lines` also
//! counts, per colour, the (stone, direction) pairs of each shape, which
//! gives the board value, and (for a combo model's board value) the stones
//! of each [`Combo`].
//!
//! For a combo model's sheets the lines also find each cell's *reply*
//! (`reply.rs`): where a stone makes exactly one closed (k−1), the
//! combination the opponent's forced block makes on its completion cell.
//! It depends on that cell's other lines too, so after a move every empty
//! cell whose (k−1) points at a cell whose combination over those lines
//! changed is rescored as well; shape-model sheets skip all of it, and
//! their loop is compiled apart from the combo sheets' (`score_combos`).

use super::combo::{combo_at, combo_in, Combo, LEVELS};
use super::geometry::{self, Geometry};
use super::reply::reply_at;
use super::shape::{LineClassifier, PairIndex, Pairs, Shape};
use super::sheet::Sheets;
use super::threat_cells::{Threat, ThreatCells};
use super::weights::Weights;
use crate::game::{self, Board, Color, Move, Rules};
use std::sync::Arc;

mod combos;
mod peek;
mod update;
pub(crate) use peek::Peek;
use update::update;

/// Set in a history entry's state for a move played without sheets.
const UNSCORED: u8 = 0x80;

/// Set in a history entry's state for a move whose rescoring the sheets
/// recorded ([`Sheets::begin_journal`]): its undo copies their entries
/// back instead of rescoring them.
const JOURNALED: u8 = 0x40;

/// A history entry's colour state without its flags.
const STATE: u8 = !(UNSCORED | JOURNALED);

/// `counts[cell as usize][shape]`: (stone, direction) pairs per shape, by
/// what the cell holds (row 0, empty cells, is a sink so updates need no
/// branch).
pub(crate) type ShapeCounts = [[i32; Shape::NUM]; 3];

/// `combos[cell as usize][combo]`: stones per combination, by what the
/// cell holds (row 0 unused).
pub(crate) type ComboCounts = [[i32; Combo::NUM]; 3];

/// Line codes and shapes of one position, independent of any weights: a
/// move updates them once and rescores every changed cell on a [`Sheets`]
/// (two weight sets' scores, each for one side to move).
///
/// ```
/// use mnk_core::eval::{shipped_weights, Lines, Shape};
/// use mnk_core::game::{Board, Color, Move, Rules};
/// let rules = Rules::GOMOKU;
/// let mut lines = Lines::new(rules);
/// // Two weight sets valuing the same position, each for its own mover.
/// let (a, b) = (shipped_weights(rules), mnk_core::eval::Weights::flat(rules));
/// let mut sheets = lines.sheets([(&a, Color::Black), (&b, Color::White)]);
/// let (h8, h9): (Move, Move) = ("h8".parse().unwrap(), "h9".parse().unwrap());
/// lines.play(h8, Color::Black, Board::new(rules).hash(), &mut sheets);
/// assert_eq!(lines.shapes_at(h9, Color::Black)[1], Shape::OpenIn3);
/// assert_eq!(sheets.scores(1)[rules.index(h8)], f64::NEG_INFINITY);
/// lines.undo(&mut sheets);
/// assert_eq!(lines.ply(), 0);
/// ```
#[derive(Clone)]
pub struct Lines {
    geo: Arc<Geometry>,
    classifier: LineClassifier,
    /// By cell: codes, shapes and owner, together so an update touches one
    /// place per cell.
    cells: Vec<Cell>,
    /// By cell, the high 64 bits of each direction's line code: empty
    /// unless windows exceed 32 cells (k ≥ 17).
    high: Vec<[u64; 4]>,
    counts: ShapeCounts,
    /// Stones per combination, kept with `counts` when `track_combos`.
    combos: ComboCounts,
    /// Whether `combos` is kept (a combo model's board value needs it).
    track_combos: bool,
    /// The empty cells where each side makes a win, a win in two or a
    /// four, kept with the counts.
    threats: ThreatCells,
    /// Whether `counts` and `threats` are kept up to date (a fifth of each
    /// update).
    track_counts: bool,
    /// (cell, colour state, board hash before the move) per move applied;
    /// the state has [`UNSCORED`] set for a move played without sheets,
    /// and [`JOURNALED`] for one whose rescoring the sheets recorded (a
    /// search's lines, which count shapes, have combo sheets record it:
    /// a search takes back nearly every move it makes, and rescoring a
    /// combo sheet reads replies).
    history: Vec<(u16, u8, u64)>,
    /// Moves in `history` played without sheets ([`Lines::play_unscored`]).
    unscored: usize,
    /// The cells whose threat levels those moves changed, when recorded.
    levels: LevelLog,
    updates: u64,
    /// What the peeks of one position share ([`Lines::peek`]): the
    /// position's `updates` (every move changes it: each cell of a board
    /// of k ≥ 3 touches another, and `reset` clears this), the colour
    /// index of the stone's opponent and the counts of
    /// `Lines::reply_threats` (in `peek.rs`); `u64::MAX` for none.
    peeked: std::cell::Cell<(u64, usize, [u32; 3])>,
    /// The empty board's state, copied in to start a new game: far cheaper
    /// than undoing the previous game move by move.
    blank: Arc<Blank>,
}

/// (cell, direction) of each change of threat levels.
type Changes = Vec<(u16, u8)>;

/// The cells whose threat levels (`LEVELS`) the moves played without
/// sheets changed in a way a reply can read, for
/// [`Lines::score_unscored`]: a combo model's reply term reads its
/// completion cell's combination over three lines, so the (k−1)s pointing
/// at those cells must be rescored too, and only at those (a middle game
/// has (k−1)s pointing at many of a move's touched cells). A change is
/// logged only where the cell has a win or a (k−1) along another line
/// and that line's reply would read another combination
/// (`reply::changes_replies`): rare.
///
/// Recording costs the moves of a shape-model search, so it is on only
/// while the sheets last scored here had reply terms. It changes only in
/// [`Lines::score_unscored`], when no move is unscored, so the unscored
/// moves are either all recorded or none. The first move of a run logs
/// nothing even then: scoring finds its touched cells' changes itself
/// (so a greedy player, which scores each move alone, keeps no log).
#[derive(Clone, Debug, Default)]
struct LevelLog {
    /// Whether unscored moves record their cells.
    on: bool,
    /// The cells and the direction of the change, move after move (a
    /// cell may repeat).
    cells: Changes,
    /// Per unscored move (when on): where its cells start in `cells`, so
    /// that taking it back drops them (its undo restores their levels).
    starts: Vec<u32>,
}

impl LevelLog {
    /// Forgets every move's cells.
    fn clear(&mut self) {
        self.cells.clear();
        self.starts.clear();
    }
}

/// Everything kept about one cell, in 40 bytes (a new game copies every
/// cell's, and a move reads and writes 4 × 2r of them), laid out as the
/// touches address it ([`geometry::CELL_WORDS`]).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Cell {
    /// Line code per direction, the low 64 bits (all of it for windows of
    /// up to 32 cells, k ≤ 16; the rest is in [`Lines`]' `high`).
    codes: [u64; 4],
    /// Both players' shapes per direction.
    pairs: Pairs,
    /// What the cell holds.
    state: game::Cell,
    /// `state` again, three times, filling the record: the byte 4 past
    /// each direction's pair holds it ([`geometry::Touch::pair`]), so a
    /// move's update reads a touched cell's state without its address.
    copies: [game::Cell; 3],
}

const _: () = assert!(
    std::mem::size_of::<Cell>() == 8 * geometry::CELL_WORDS
        && std::mem::align_of::<Cell>() == 8
        && std::mem::offset_of!(Cell, codes) == 0
        && std::mem::offset_of!(Cell, pairs) == geometry::PAIRS_AT
        && std::mem::offset_of!(Cell, state) == geometry::PAIRS_AT + 4
        && std::mem::offset_of!(Cell, copies) == geometry::PAIRS_AT + 5
);

/// A position's cells as the reply term reads them (`reply.rs`).
#[derive(Clone, Copy)]
struct View<'a> {
    cells: &'a [Cell],
    /// The high words of the codes, empty for windows of up to 32 cells.
    high: &'a [[u64; 4]],
}

impl super::reply::Cells for View<'_> {
    #[inline(always)]
    fn pairs(&self, q: usize) -> &Pairs {
        &self.cells[q].pairs
    }

    #[inline(always)]
    fn state(&self, q: usize) -> game::Cell {
        self.cells[q].state
    }

    #[inline(always)]
    fn code(&self, q: usize, d: usize) -> u128 {
        let high = self.high.get(q).map_or(0, |h| h[d]);
        (high as u128) << 64 | self.cells[q].codes[d] as u128
    }
}

#[derive(Debug)]
struct Blank {
    cells: Vec<Cell>,
    high: Vec<[u64; 4]>,
    threats: ThreatCells,
}

/// The game and the position's length: the arrays are too large to print
/// usefully.
impl std::fmt::Debug for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lines")
            .field("game", &self.geo.rules)
            .field("moves", &self.history.len())
            .field("track_counts", &self.track_counts)
            .finish_non_exhaustive()
    }
}

impl Lines {
    /// The empty board of `rules`, counting shapes (for board values).
    pub fn new(rules: Rules) -> Lines {
        let geo = Geometry::of(rules);
        let mut classifier = LineClassifier::new(rules.k, rules.rule);
        let n = rules.cells();
        let cells: Vec<Cell> = geo
            .empty_codes
            .iter()
            .map(|&codes| Cell {
                codes: codes.map(|c| c[0]),
                pairs: codes.map(|c| classifier.classify(c)),
                state: game::Cell::Empty,
                copies: [game::Cell::Empty; 3],
            })
            .collect();
        // Two bits for each of the 2r cells of a window.
        let wide = 4 * super::shape::radius(rules.k, rules.rule) > 64;
        let high: Vec<[u64; 4]> = if wide {
            geo.empty_codes.iter().map(|c| c.map(|c| c[1])).collect()
        } else {
            Vec::new()
        };
        let threats = ThreatCells::new(cells.iter().map(|c| &c.pairs));
        Lines {
            blank: Arc::new(Blank {
                cells: cells.clone(),
                high: high.clone(),
                threats: threats.clone(),
            }),
            threats,
            geo,
            classifier,
            cells,
            high,
            counts: [[0; Shape::NUM]; 3],
            combos: [[0; Combo::NUM]; 3],
            track_combos: false,
            track_counts: true,
            history: Vec::with_capacity(n),
            unscored: 0,
            levels: LevelLog::default(),
            updates: 0,
            peeked: std::cell::Cell::new((u64::MAX, 0, [0; 3])),
        }
    }

    /// The empty board of `rules`, without shape counts: for players that
    /// never ask for a board value (the greedy player). Counts asked for
    /// anyway are recomputed from the cells on every call.
    pub fn without_counts(rules: Rules) -> Lines {
        let mut l = Lines::new(rules);
        l.track_counts = false;
        l
    }

    /// The game.
    pub fn rules(&self) -> &Rules {
        &self.geo.rules
    }

    /// Number of (cell, direction) updates made so far: a speed measure.
    pub fn updates(&self) -> u64 {
        self.updates
    }

    /// Number of moves applied.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// Back to the empty board, with every sheet.
    pub fn reset(&mut self, sheets: &mut Sheets) {
        self.history.clear();
        self.unscored = 0;
        self.levels.clear();
        self.cells.copy_from_slice(&self.blank.cells);
        self.high.copy_from_slice(&self.blank.high);
        self.threats.clone_from(&self.blank.threats);
        // The empty board has no stones to count.
        self.counts = [[0; Shape::NUM]; 3];
        self.combos = [[0; Combo::NUM]; 3];
        self.peeked.set((u64::MAX, 0, [0; 3]));
        sheets.reset();
    }

    /// Plays `m` for `color` and rescores every changed cell on every sheet.
    /// `hash` is the board hash before the move (used by [`Lines::sync`]).
    #[inline]
    pub fn play(&mut self, m: Move, color: Color, hash: u64, sheets: &mut Sheets) {
        assert_eq!(
            self.unscored, 0,
            "a scored move on top of a move played without sheets"
        );
        let cell = self.geo.rules.index(m);
        let state = game::Cell::from(color);
        let journal = self.track_counts && sheets.has_combos();
        if journal {
            sheets.begin_journal(self.history.len());
        }
        let flag = if journal { JOURNALED } else { 0 };
        self.history.push((cell as u16, state as u8 | flag, hash));
        self.set_cell(cell, state, Some(sheets), false);
        sheets.end_journal();
    }

    /// Plays `m` for `color` without rescoring any sheet: for a search
    /// leaf, valued by its shape counts only and taken back at once. Until
    /// it is taken back the sheets are out of date, and a scored
    /// [`Lines::play`] panics. [`Lines::undo`] takes it back without the
    /// sheets, so they are right again.
    #[inline]
    pub fn play_unscored(&mut self, m: Move, color: Color, hash: u64) {
        let cell = self.geo.rules.index(m);
        let state = game::Cell::from(color);
        self.history
            .push((cell as u16, state as u8 | UNSCORED, hash));
        self.unscored += 1;
        if self.levels.on {
            self.levels.starts.push(self.levels.cells.len() as u32);
            self.set_cell_recorded(cell, state);
        } else {
            self.set_cell(cell, state, None, false);
        }
    }

    /// [`Lines::set_cell`] without sheets, recording the cells whose
    /// levels change where replies may read them (out of line, so that
    /// the other moves' code, inlined, holds no level tracking).
    ///
    /// The first move of a run is not recorded (its log is empty):
    /// [`Lines::score_unscored`] finds its dependents from its touched
    /// cells, as it rescores them anyway, so a greedy player, which
    /// scores every move on its own, pays for no log at all.
    #[inline(always)]
    fn set_cell_recorded(&mut self, cell: usize, state: game::Cell) {
        if self.unscored == 1 {
            self.set_cell(cell, state, None, false);
        } else {
            self.set_cell_logged(cell, state);
        }
    }

    /// [`Lines::set_cell`] without sheets, logging (`LevelLog`).
    #[inline(never)]
    fn set_cell_logged(&mut self, cell: usize, state: game::Cell) {
        self.set_cell(cell, state, None, true);
    }

    /// Rescores on `sheets` every cell that the moves played without them
    /// ([`Lines::play_unscored`]) changed, and counts those moves as
    /// played with them from then on: the sheets are then exactly what
    /// [`Lines::play`] would have left, and the moves are taken back like
    /// scored ones. A search plays its moves without the sheets and
    /// scores them only when a node reads its cell scores, so a node
    /// answered by its table entry costs no rescoring.
    ///
    /// Measured and dropped: rescoring only the touched cells whose pairs
    /// changed (a bit mask per move, kept by the update loop) took 5.5%
    /// more instructions in depth-8 games: the mask cost the unscored
    /// plays 200 instructions each, more than the rescoring saved. The
    /// empty cells read off each move's codes (as the peek finds stones),
    /// skipping the touched stones: 0.08% more. The sheets' addresses
    /// hoisted out of the loop: 0.14% fewer here, 0.5% more in `update`
    /// (1.2% in greedy games): too little for the unsafe writer.
    #[inline]
    pub fn score_unscored(&mut self, sheets: &mut Sheets) {
        if self.unscored == 0 {
            return;
        }
        assert_eq!(
            sheets.cells(),
            self.cells.len(),
            "score sheets of another game"
        );
        // One move (a search's usual case) is recorded, so that its undo
        // copies the sheets back; two or more are taken back one at a
        // time, which the record of their joint rescoring could not do.
        // Shape sheets are not: their undo rescores only the cells whose
        // pairs changed, fewer than this rescores, at a sum each.
        // Measured: recording shape sheets too took 5.3% more
        // instructions in depth-8 games (3,545.2M to 3,732.8M): the
        // records and copies cost as much as the sums they replaced.
        let journal = self.track_counts && sheets.has_combos() && self.unscored == 1;
        if journal {
            sheets.begin_journal(self.history.len() - 1);
        }
        let (geo, cells) = (&*self.geo, &self.cells);
        // The unscored moves are the last ones: a scored play on top of
        // an unscored one is refused.
        let unscored = self.history.len() - self.unscored..;
        let moves = &self.history[unscored.clone()];
        // A search scores one move or two at a time: no need to count.
        let many = self.unscored > 2
            && moves
                .iter()
                .map(|e| geo.touches(e.0 as usize).len() + 1)
                .sum::<usize>()
                >= cells.len();
        // Each cell's sheet entry depends only on its pairs, what it
        // holds and (combo sheets) its reply, all final now: the sums
        // `update` makes, whatever the order. Many moves (a position set
        // up from scratch): every cell once is less than each move's
        // cells.
        if sheets.has_combos() {
            self.score_combos(sheets, many);
        } else {
            each_changed(geo, moves, many, |q, d| {
                // A touched cell (`d` < 4) comes from the board's
                // geometry: its bounds check cost two instructions a
                // touched cell. (`d` is a constant wherever this is
                // inlined.)
                let c = if d == 4 {
                    &cells[q]
                } else {
                    debug_assert!(q < cells.len());
                    // SAFETY: a touched cell is a cell of this board.
                    unsafe { cells.get_unchecked(q) }
                };
                // A touched stone's entry is −∞ before and after.
                if d != 4 && !c.state.is_empty() {
                    return;
                }
                // SAFETY: `q` is a cell of this board, as many as the
                // sheets hold (asserted above), and the pairs are pair
                // indices.
                unsafe { sheets.apply_unchecked::<false>(q, &c.pairs, c.state, [0; 2]) };
            });
        }
        sheets.end_journal();
        let flag = if journal { JOURNALED } else { 0 };
        for entry in &mut self.history[unscored] {
            debug_assert!(entry.1 & UNSCORED != 0);
            entry.1 = entry.1 & !UNSCORED | flag;
        }
        self.unscored = 0;
        self.levels.clear();
        // Sheets with replies will read the cells the next unscored moves
        // change; others need none of it.
        self.levels.on = sheets.has_replies();
    }

    /// Takes back the last move (with the sheets if it was played with
    /// them).
    ///
    /// It recomputes the touched cells' pairs, as a play does. Measured
    /// and dropped: a journal of the pairs each move changed, put back by
    /// the undo without classifying, took 6.4% more instructions in
    /// depth-8 games: a move changes the pair of 26 of its 28 touched
    /// cells on average in a middle game, so the undo still visits nearly
    /// every cell, and the play paid a push for each.
    ///
    /// Also dropped: deferring the rescoring (marks in a bit set, each
    /// cell rescored once at the next read with the next move's), 2.2%
    /// more (3,545.2M to 3,624.1M): a sibling's four lines share few
    /// cells with the move taken back, so the marks cost more than the
    /// sums they saved.
    #[inline]
    pub fn undo(&mut self, sheets: &mut Sheets) {
        if let Some((cell, state, _)) = self.history.pop() {
            if state & UNSCORED != 0 {
                self.unscored -= 1;
                self.set_cell(cell as usize, game::Cell::Empty, None, false);
                if self.levels.on {
                    let start = self.levels.starts.pop().expect("a start per unscored move");
                    self.levels.cells.truncate(start as usize);
                }
            } else if state & JOURNALED != 0 && sheets.take_back(self.history.len()) {
                // The sheets are back as they were: only the lines' own
                // state is left to take back.
                self.set_cell(cell as usize, game::Cell::Empty, None, false);
            } else {
                self.set_cell(cell as usize, game::Cell::Empty, Some(sheets), false);
            }
        }
    }

    /// Brings the lines (and the sheets) to `board`'s position with the
    /// fewest undo/play steps (it keeps the longest common history prefix).
    pub fn sync(&mut self, board: &Board, sheets: &mut Sheets) {
        let mut n = self.history.len().min(board.ply());
        // Move i is shared when the position before it (by hash), its cell
        // and its colour agree; then every earlier move is shared too.
        while n > 0 && {
            let (m, c) = board.move_at(n - 1);
            let (cell, state, hash) = self.history[n - 1];
            hash != board.hash_at(n - 1)
                || cell as usize != self.geo.rules.index(m)
                || state & STATE != game::Cell::from(c) as u8
        } {
            n -= 1;
        }
        if n == 0 {
            self.reset(sheets);
        }
        while self.history.len() > n {
            self.undo(sheets);
        }
        // Scored once at the end (with any unscored moves kept): a position
        // set up from the empty board rescores each cell once, not once per
        // stone that touches it.
        for i in n..board.ply() {
            let (m, c) = board.move_at(i);
            self.play_unscored(m, c, board.hash_at(i));
        }
        self.score_unscored(sheets);
    }

    /// Sets (`state` a stone) or clears (empty) the stone at `cell`,
    /// updates every cell whose window sees it, and hands each changed cell
    /// to the sheets, or (without sheets, `record`) adds the cells whose
    /// threat levels changed to the level log.
    #[inline(always)]
    fn set_cell(
        &mut self,
        cell: usize,
        state: game::Cell,
        sheets: Option<&mut Sheets>,
        record: bool,
    ) {
        debug_assert!(!(record && sheets.is_some()));
        let combos = self.track_combos.then_some(&mut self.combos);
        let (geo, counts) = (&*self.geo, (&mut self.counts, &mut self.threats, combos));
        let cells = (&mut self.cells[..], &mut self.high[..]);
        let at = (cell, state);
        // One dispatch per move, so the per-cell loop is specialised for
        // the flat table (the case that matters for speed), for whether
        // counts are kept and for whether levels are followed (the sheets
        // add combinations, or the move is recorded).
        let combo = sheets.as_ref().map_or(record, |s| s.has_combos());
        let log = record.then_some(&mut self.levels.cells);
        macro_rules! run {
            ($count:literal, $wide:literal, $classify:expr) => {
                if combo {
                    let out = (sheets, log);
                    update::<$count, $wide, true>(geo, cells, counts, at, out, $classify)
                } else {
                    let out = (sheets, None);
                    update::<$count, $wide, false>(geo, cells, counts, at, out, $classify)
                }
            };
        }
        self.updates += match (&mut self.classifier, self.track_counts) {
            (LineClassifier::Dense(table), track) => {
                let table: &[PairIndex] = table;
                // SAFETY: a code's low word holds 2r two-bit fields, and
                // the flat table has an entry for each of the 4^2r values.
                let classify = |code: [u64; 2]| {
                    debug_assert!((code[0] as usize) < table.len());
                    unsafe { *table.get_unchecked(code[0] as usize) }
                };
                // A flat table's windows are at most 10 cells: never wide.
                if track {
                    run!(true, false, classify)
                } else {
                    run!(false, false, classify)
                }
            }
            (sparse, _) => {
                let classify = |code| sparse.classify(code);
                if cells.1.is_empty() {
                    run!(true, false, classify)
                } else {
                    run!(true, true, classify)
                }
            }
        };
    }

    /// Keeps (or stops keeping) the stones per combination for the board
    /// value of a combo model; starting recounts them from the cells.
    pub(crate) fn track_combos(&mut self, on: bool) {
        if on && !self.track_combos {
            self.combos = self.count_combos();
        }
        self.track_combos = on;
    }

    /// The stones per combination, counted from the cells.
    fn count_combos(&self) -> ComboCounts {
        let mut c = [[0; Combo::NUM]; 3];
        for cell in &self.cells {
            let st = cell.state as usize;
            if st != 0 {
                c[st][combo_at(&cell.pairs, st - 1) as usize] += 1;
            }
        }
        c
    }

    /// Calls `f` with the stones per combination: the maintained ones, or
    /// counts from the cells when they are not kept.
    #[inline]
    pub(crate) fn with_combo_counts<R>(&self, f: impl FnOnce(&ComboCounts) -> R) -> R {
        if self.track_counts && self.track_combos {
            f(&self.combos)
        } else {
            f(&self.count_combos())
        }
    }

    /// Stones of `color` whose four shapes make combination `c`.
    pub fn combo_count(&self, color: Color, c: Combo) -> i32 {
        self.with_combo_counts(|n| n[game::Cell::from(color) as usize][c as usize])
    }

    /// The combination a `color` stone at `cell` makes (or has, if it is
    /// there).
    #[inline]
    pub fn combo_at_cell(&self, cell: usize, color: Color) -> Combo {
        combo_at(&self.cells[cell].pairs, color.index())
    }

    /// Heap bytes this position owns, its empty-board copy included (the
    /// shape table and the board geometry are shared by every position of
    /// the game, and not counted).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        (self.cells.capacity() + self.blank.cells.capacity()) * size_of::<Cell>()
            + (self.high.capacity() + self.blank.high.capacity()) * size_of::<[u64; 4]>()
            + self.threats.heap_bytes()
            + self.blank.threats.heap_bytes()
            + self.history.capacity() * size_of::<(u16, u8, u64)>()
            + self.levels.cells.capacity() * size_of::<(u16, u8)>()
            + self.levels.starts.capacity() * size_of::<u32>()
    }

    /// Two score sheets on this position: sheet `i` scores with
    /// `sheets[i].0` for `sheets[i].1` to move. The lines keep them in
    /// step from then on, move by move.
    pub fn sheets(&self, sheets: [(&Weights, Color); 2]) -> Sheets {
        let movers = sheets.map(|(_, c)| c.index());
        // Shape sheets read no replies.
        let combo = sheets.iter().any(|(w, _)| w.combo.is_some());
        let geo = &*self.geo;
        fn of<'a>(
            geo: &'a Geometry,
            view: View<'a>,
            movers: Option<[usize; 2]>,
        ) -> impl ExactSizeIterator<Item = (&'a Pairs, game::Cell, [u8; 2])> {
            view.cells.iter().enumerate().map(move |(q, c)| {
                let reply = movers.map_or([0; 2], |m| m.map(|m| reply_at(geo, &view, q, m)));
                (&c.pairs, c.state, reply)
            })
        }
        let movers = combo.then_some(movers);
        let blank = View {
            cells: &self.blank.cells,
            high: &self.blank.high,
        };
        Sheets::new(sheets, of(geo, blank, movers), of(geo, self.view(), movers))
    }

    /// The cells as the reply term reads them.
    #[inline(always)]
    fn view(&self) -> View<'_> {
        View {
            cells: &self.cells,
            high: &self.high,
        }
    }

    /// One cell's shape pairs and what it holds.
    #[inline]
    pub(crate) fn cell(&self, cell: usize) -> (&Pairs, game::Cell) {
        let c = &self.cells[cell];
        (&c.pairs, c.state)
    }

    /// The shape a `color` stone at `m` makes (or has, if it is there) in
    /// each of the 4 directions.
    #[inline]
    pub fn shapes_at(&self, m: Move, color: Color) -> [Shape; 4] {
        self.shapes_at_cell(self.geo.rules.index(m), color)
    }

    /// [`Lines::shapes_at`] by cell index.
    #[inline]
    pub fn shapes_at_cell(&self, cell: usize, color: Color) -> [Shape; 4] {
        let p = self.cells[cell].pairs;
        std::array::from_fn(|d| Shape::ALL[super::shape::pair_shape(p[d], color.index()) as usize])
    }

    /// Whether a `color` stone at `cell` (empty, or just played) makes k in
    /// a row: a [`Shape::Win`] in some direction.
    #[inline]
    pub fn wins_at_cell(&self, cell: usize, color: Color) -> bool {
        let p = self.cells[cell].pairs;
        p.iter()
            .any(|&q| super::shape::pair_shape(q, color.index()) == Shape::Win as u8)
    }

    /// Calls `f` with the shape counts: the maintained ones, or counts
    /// recomputed from the cells when they are not tracked.
    #[inline]
    pub(crate) fn with_counts<R>(&self, f: impl FnOnce(&ShapeCounts) -> R) -> R {
        if self.track_counts {
            return f(&self.counts);
        }
        let mut c = [[0; Shape::NUM]; 3];
        for cell in &self.cells {
            let st = cell.state as usize;
            for &p in &cell.pairs {
                c[st][shape_for(st, p)] += 1;
            }
        }
        f(&c)
    }

    /// (stone, direction) pairs of `color` with shape `s`.
    pub fn shape_count(&self, color: Color, s: Shape) -> i32 {
        self.with_counts(|c| c[game::Cell::from(color) as usize][s as usize])
    }

    /// The empty cells where a `color` stone makes `kind`, in cell order,
    /// kept as stones are played (not scanned).
    ///
    /// # Panics
    /// On a `Lines` made by [`Lines::without_counts`] (which keeps none).
    #[inline]
    pub fn threat_cells(&self, color: Color, kind: Threat) -> impl Iterator<Item = usize> + '_ {
        assert!(
            self.track_counts,
            "threat cells of lines kept without counts"
        );
        self.threats.cells(color, kind)
    }

    /// Per cell, both colours' threat counts ([`ThreatCells::sums`]).
    pub(crate) fn threat_sums(&self) -> &[u32] {
        self.threats.sums(self.track_counts)
    }

    /// Whether some empty cell makes `kind` for `color` (see
    /// [`Lines::threat_cells`]).
    #[inline]
    pub fn has_threat_cell(&self, color: Color, kind: Threat) -> bool {
        assert!(
            self.track_counts,
            "threat cells of lines kept without counts"
        );
        self.threats.any(color, kind)
    }

    /// Whether `color` has a stone with a (k−1) shape: it could win at once.
    #[inline]
    pub fn can_win_now(&self, color: Color) -> bool {
        self.with_counts(|c| can_win(c, color))
    }
}

/// Calls `apply(q, d)` on every cell whose sheet entry the unscored
/// `moves` may have changed: every cell of the board (`all`, fewer than
/// the moves' cells when there are many), or each move's cell and every
/// cell it touches. `d` is the direction in which a touched cell's code
/// changed, 4 for the others.
#[inline(always)]
fn each_changed(
    geo: &Geometry,
    moves: &[(u16, u8, u64)],
    all: bool,
    mut apply: impl FnMut(usize, usize),
) {
    if all {
        (0..geo.rules.cells()).for_each(|q| apply(q, 4));
        return;
    }
    for entry in moves {
        let cell = entry.0 as usize;
        apply(cell, 4);
        for t in geo.touches(cell) {
            apply(t.cell as usize, (t.word >> 1) as usize & 3);
        }
    }
}

/// Moves a stone of state `qs` (a colour's) whose pair in one direction
/// went from `old` to `new` from its old shape to its new one in
/// `counts`, and, when they are kept, from its old combination to its new
/// one in `combos`; `now` gives its levels after the change (asked only
/// for `combos`). Shared by a move's update and [`Lines::peek`]'s read.
#[inline(always)]
fn recount_stone(
    counts: &mut ShapeCounts,
    combos: Option<&mut ComboCounts>,
    qs: usize,
    (old, new): (PairIndex, PairIndex),
    now: impl FnOnce() -> u32,
) {
    counts[qs][shape_for(qs, old)] -= 1;
    counts[qs][shape_for(qs, new)] += 1;
    if let Some(n) = combos {
        // The levels are a sum over the directions: one term changed.
        let now = now();
        let before = now
            .wrapping_sub(LEVELS[new as usize])
            .wrapping_add(LEVELS[old as usize]);
        n[qs][combo_in(before, qs - 1)] -= 1;
        n[qs][combo_in(now, qs - 1)] += 1;
    }
}

/// Whether shape counts `counts` give `color` a stone with a (k−1) shape:
/// it could win at once.
#[inline]
pub(crate) fn can_win(counts: &ShapeCounts, color: Color) -> bool {
    let c = &counts[game::Cell::from(color) as usize];
    c[Shape::OpenIn1 as usize] + c[Shape::ClosedIn1 as usize] > 0
}

/// The shape index that counts for a cell whose [`game::Cell`] code is
/// `state` (0 empty → sink 0):
/// black's shape is bits 4–6 of the pair index, white's bits 1–3, and an
/// empty cell shifts both out, so the choice needs no branch. The pair
/// (below 128) goes up by 3 × `state` and down by 7: the shift is one
/// `lea` of the state, where `7 − 3 × state` took four instructions at
/// every stone the update loops recount.
#[inline(always)]
pub(crate) fn shape_for(state: usize, pair: PairIndex) -> usize {
    debug_assert!(pair < 128 && state < 3);
    (((pair as usize) << (3 * state)) >> 7) & 7
}
