//! The incremental evaluator of one weight set: a [`Lines`] (the shapes of
//! the position, shared state any number of weight sets could read) with
//! [`Sheets`] (the cell scores for either side to move), plus the board
//! value for search leaves, from the per-colour counts of (stone,
//! direction) pairs by shape that the lines keep.

use super::combo::Combo;
use super::lines::{can_win, ComboCounts, Lines, Peek, ShapeCounts};
use super::shape::{Shape, SHAPES};
use super::sheet::Sheets;
use super::weights::Weights;
use crate::game::{Board, Cell, Color, Move, Rules};

/// The value of a won position (before mate-distance adjustment).
pub const WIN: f64 = 1e15;
/// The value of a lost position.
pub const LOSS: f64 = -WIN;

/// Incrementally maintained shapes and cell scores for one weight set.
///
/// ```
/// use mnk_core::eval::{shipped_weights, Evaluator, Shape};
/// use mnk_core::game::{Board, Color, Move, Rules};
/// let mv = |s: &str| s.parse::<Move>().unwrap();
/// let mut e = Evaluator::new(shipped_weights(Rules::GOMOKU));
/// let before = e.scores(Color::White).to_vec();
/// e.play(mv("h8"), Color::Black, Board::new(Rules::GOMOKU).hash());
/// // An occupied cell can never be chosen; next to the stone, white
/// // breaks black's two-in-a-row, which a far corner does not.
/// assert_eq!(e.score(mv("h8"), Color::White), f64::NEG_INFINITY);
/// assert_eq!(e.shapes_at(mv("h9"), Color::Black)[1], Shape::OpenIn3);
/// assert!(e.score(mv("h9"), Color::White) > e.score(mv("a1"), Color::White));
/// // Taking the move back restores every score exactly.
/// e.undo();
/// assert_eq!(e.scores(Color::White), &before[..]);
/// assert_eq!(e.ply(), 0);
/// ```
#[derive(Clone)]
pub struct Evaluator {
    /// The position's line codes and shapes (with shape counts unless the
    /// evaluator is only for cell scores).
    lines: Lines,
    /// The cell scores: sheet 0 if black moves, 1 if white moves.
    sheets: Sheets,
    weights: Weights,
    /// `weights.own` indexed by shape (0 for [`Shape::None`]).
    own_by_shape: [f64; Shape::NUM],
    /// `weights.opp` indexed by shape (0 for [`Shape::None`]).
    opp_by_shape: [f64; Shape::NUM],
    /// The combination weights `[own, opp]` indexed by [`Combo`] (all 0 in
    /// the shape model).
    by_combo: [[f64; Combo::NUM]; 2],
}

/// The weights' game and the position's length: the arrays are too large
/// to print usefully.
impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("game", &self.weights.game)
            .field("lines", &self.lines)
            .finish_non_exhaustive()
    }
}

impl Evaluator {
    /// An evaluator on the empty board of the weights' game.
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator::on(Lines::new(weights.game), weights)
    }

    /// An evaluator that keeps only the cell scores up to date, for players
    /// that never ask for a board value (the greedy player). Board values
    /// still work but are recomputed from scratch on every call.
    pub fn for_cell_scores(weights: Weights) -> Evaluator {
        Evaluator::on(Lines::without_counts(weights.game), weights)
    }

    fn on(mut lines: Lines, weights: Weights) -> Evaluator {
        let [own_by_shape, opp_by_shape] = weights.by_shape();
        lines.track_combos(weights.combo.is_some());
        Evaluator {
            sheets: lines.sheets([(&weights, Color::Black), (&weights, Color::White)]),
            lines,
            by_combo: weights.by_combo(),
            weights,
            own_by_shape,
            opp_by_shape,
        }
    }

    /// Replaces the weights (same game) and rebuilds every score.
    pub fn set_weights(&mut self, weights: Weights) {
        debug_assert_eq!(weights.game, *self.lines.rules());
        [self.own_by_shape, self.opp_by_shape] = weights.by_shape();
        self.by_combo = weights.by_combo();
        self.lines.track_combos(weights.combo.is_some());
        self.sheets = self
            .lines
            .sheets([(&weights, Color::Black), (&weights, Color::White)]);
        self.weights = weights;
    }

    /// The weight set in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The game of the weights.
    pub fn rules(&self) -> &Rules {
        self.lines.rules()
    }

    /// The shared line state underneath.
    pub fn lines(&self) -> &Lines {
        &self.lines
    }

    /// The cell scores, sheet `c.index()` for mover `c` (to start another
    /// evaluation of the same weights from, see [`Sheets::reset_to`]).
    pub fn sheets(&self) -> &Sheets {
        &self.sheets
    }

    /// Heap bytes this evaluator owns (shared tables not counted, see
    /// [`Lines::heap_bytes`]).
    pub fn heap_bytes(&self) -> usize {
        self.lines.heap_bytes() + self.sheets.heap_bytes()
    }

    /// Number of (cell, direction) updates made so far: a speed measure.
    pub fn updates(&self) -> u64 {
        self.lines.updates()
    }

    /// Back to the empty board.
    pub fn reset(&mut self) {
        self.lines.reset(&mut self.sheets);
    }

    /// Plays `m` for `color`. `hash` is the board hash before the move (used
    /// by [`Evaluator::sync`]).
    #[inline]
    pub fn play(&mut self, m: Move, color: Color, hash: u64) {
        self.lines.play(m, color, hash, &mut self.sheets);
    }

    /// Plays `m` for `color` without updating the cell scores: for a search
    /// leaf, valued by [`Evaluator::evaluate`] alone and taken back at once
    /// with [`Evaluator::undo`] (the scores are out of date until then).
    #[inline]
    pub fn play_unscored(&mut self, m: Move, color: Color, hash: u64) {
        self.lines.play_unscored(m, color, hash);
    }

    /// Brings the cell scores up to date after moves played with
    /// [`Evaluator::play_unscored`] ([`Lines::score_unscored`]); they are
    /// then taken back like moves played with [`Evaluator::play`].
    #[inline]
    pub fn score_unscored(&mut self) {
        self.lines.score_unscored(&mut self.sheets);
    }

    /// Takes back the last move.
    #[inline]
    pub fn undo(&mut self) {
        self.lines.undo(&mut self.sheets);
    }

    /// Brings the evaluator to `board`'s position with the fewest
    /// undo/play steps (it keeps the longest common history prefix).
    pub fn sync(&mut self, board: &Board) {
        self.lines.sync(board, &mut self.sheets);
    }

    /// Number of moves applied.
    pub fn ply(&self) -> usize {
        self.lines.ply()
    }

    /// The flat score array for `mover`: one entry per cell, −∞ if occupied.
    #[inline]
    pub fn scores(&self, mover: Color) -> &[f64] {
        self.sheets.scores(mover.index())
    }

    /// [`Evaluator::scores`] as `f32`, rounded to nearest, which keeps
    /// their order ([`Sheets::keys`]).
    #[inline]
    pub fn keys(&self, mover: Color) -> &[f32] {
        self.sheets.keys(mover.index())
    }

    /// The score of one cell for `mover` (−∞ if occupied): the attack and
    /// defence values below times their multipliers, and in a combo
    /// model less `defence × opp_combo` of the cell's reply (the
    /// combination the opponent's forced block of a closed four makes;
    /// see [`Sheets`]).
    pub fn score(&self, m: Move, mover: Color) -> f64 {
        self.sheets.scores(mover.index())[self.lines.rules().index(m)]
    }

    /// The shape a `color` stone at `m` makes (or has, if it is there) in
    /// each of the 4 directions.
    #[inline]
    pub fn shapes_at(&self, m: Move, color: Color) -> [Shape; 4] {
        self.lines.shapes_at(m, color)
    }

    /// The combination a `color` stone at `m` makes (or has, if it is
    /// there).
    #[inline]
    pub fn combo_at(&self, m: Move, color: Color) -> Combo {
        self.lines.combo_at_cell(self.lines.rules().index(m), color)
    }

    /// A cell's attack value for `mover`: the own weights of the shapes a
    /// stone there makes for the mover, plus (combo model) the own weight
    /// of its combination.
    pub fn attack_value(&self, m: Move, mover: Color) -> f64 {
        let shapes: f64 = self
            .shapes_at(m, mover)
            .iter()
            .map(|&s| self.own_by_shape[s as usize])
            .sum();
        shapes + self.by_combo[0][self.combo_at(m, mover) as usize]
    }

    /// A cell's defence value for `mover`: the opp weights of the shapes a
    /// stone there would make for the opponent, plus (combo model) the opp
    /// weight of the opponent's combination there.
    pub fn defence_value(&self, m: Move, mover: Color) -> f64 {
        let shapes: f64 = self
            .shapes_at(m, mover.opponent())
            .iter()
            .map(|&s| self.opp_by_shape[s as usize])
            .sum();
        shapes + self.by_combo[1][self.combo_at(m, mover.opponent()) as usize]
    }

    /// Stones of `color` whose four shapes make combination `c`.
    pub fn combo_count(&self, color: Color, c: Combo) -> i32 {
        self.lines.combo_count(color, c)
    }

    /// (stone, direction) pairs of `color` with shape `s`.
    pub fn shape_count(&self, color: Color, s: Shape) -> i32 {
        self.lines.shape_count(color, s)
    }

    /// Whether `color` has a stone with a (k−1) shape: it could win at once.
    #[inline]
    pub fn can_win_now(&self, color: Color) -> bool {
        self.lines.can_win_now(color)
    }

    /// The board value for the side to move `mover`:
    ///
    /// - [`WIN`] if the mover has a (k−1) shape (it completes a win now);
    /// - else [`LOSS`] if the opponent has an open (k−1) (it cannot be
    ///   stopped);
    /// - else `Σ_s own[s]·n_mover(s)/stones(s) − Σ_s opp[s]·n_opp(s)/stones(s)`,
    ///   where `n_c(s)` counts (stone, direction) pairs of colour c whose
    ///   stone has shape s, and `stones(s)` is the number of stones of a
    ///   canonical instance (k−1 for a four when k = 5): every stone of an
    ///   instance has its shape, so the division counts each instance once;
    /// - in a combo model, plus `Σ_c own_combo[c]·m_mover(c) −
    ///   Σ_c opp_combo[c]·m_opp(c)`, where `m_c(x)` counts the stones of
    ///   colour c whose four shapes make combination x (the stone where a
    ///   four and a three cross, say), added after the shapes' sum.
    ///
    /// Swapping every stone's colour and the side to move leaves it unchanged.
    pub fn evaluate(&self, mover: Color) -> f64 {
        let v = self
            .lines
            .with_counts(|counts| self.value_from_counts(counts, mover));
        if !self.adds_combos(v) {
            return v;
        }
        self.lines
            .with_combo_counts(|n| self.add_combos(v, n, mover))
    }

    /// What a `color` stone on the empty `cell` would leave, without
    /// playing it ([`Lines::peek`]); `None` where the lines cannot.
    #[inline]
    pub(crate) fn peek(&self, cell: usize, color: Color) -> Option<Peek> {
        self.lines.peek(cell, color)
    }

    /// [`Evaluator::evaluate`] of the position `peek` describes, for the
    /// side to move `mover`.
    #[inline]
    pub(crate) fn evaluate_peek(&self, peek: &Peek, mover: Color) -> f64 {
        let v = self.value_from_counts(&peek.counts, mover);
        if !self.adds_combos(v) {
            return v;
        }
        self.add_combos(v, &peek.combos, mover)
    }

    /// Whether a shape value `v` takes the combination term: in a combo
    /// model, unless it is a win or a loss already.
    #[inline]
    fn adds_combos(&self, v: f64) -> bool {
        self.weights.combo.is_some() && v.abs() != WIN
    }

    /// A shape value `v` plus the combination term of `combos` for
    /// `mover` ([`Evaluator::evaluate`]).
    fn add_combos(&self, v: f64, combos: &ComboCounts, mover: Color) -> f64 {
        let me = &combos[Cell::from(mover) as usize];
        let them = &combos[Cell::from(mover.opponent()) as usize];
        let [own, opp] = &self.by_combo;
        let mut v = v;
        for c in 1..Combo::NUM {
            v += own[c] * me[c] as f64 - opp[c] * them[c] as f64;
        }
        v
    }

    /// [`Evaluator::evaluate`]'s shape value from `counts`. (Each shape's
    /// stone count held as an `f64` in the evaluator, not found at every
    /// leaf, took 0.3% more instructions in depth-8 games: the loop over
    /// constant shapes folds the counts better than the loads.)
    fn value_from_counts(&self, counts: &ShapeCounts, mover: Color) -> f64 {
        if can_win(counts, mover) {
            return WIN;
        }
        let me = &counts[Cell::from(mover) as usize];
        let them = &counts[Cell::from(mover.opponent()) as usize];
        if them[Shape::OpenIn1 as usize] > 0 {
            return LOSS;
        }
        let k = self.lines.rules().k;
        let mut v = 0.0;
        // Every shape below a win, strongest first (a win ends the game).
        for shape in &SHAPES[1..] {
            let s = *shape as usize;
            let stones = shape.stones(k).max(1) as f64;
            let (own, opp) = (self.own_by_shape[s], self.opp_by_shape[s]);
            v += (own * me[s] as f64 - opp * them[s] as f64) / stones;
        }
        v
    }
}
