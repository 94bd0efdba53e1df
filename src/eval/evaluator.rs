//! The incremental evaluator.
//!
//! For every cell and direction it keeps the line code of the window
//! around the cell and both players' shapes there (one table lookup). A
//! stone changes only the codes of the cells on its 4 lines within the
//! window radius, so a move updates at most 4 × 2r cells and never rescans
//! the board. From the shapes it keeps:
//! - each empty cell's score for either side to move (the greedy rule of
//!   the brief: `attack × Σ own[mover's shape] + defence × Σ opp[opponent's
//!   shape]` over the 4 directions); occupied cells score −∞, so a max pass
//!   over the flat array never picks them and needs no occupancy test;
//! - per colour, how many (stone, direction) pairs have each shape, which
//!   gives the board value for search leaves.

use super::geometry::Geometry;
use super::shape::{LineClassifier, Shape, SHAPES};
use super::weights::Weights;
use crate::game::{Board, Color, Move, Rules};
use std::sync::Arc;

/// The value of a won position (before mate-distance adjustment).
pub const WIN: f64 = 1e15;
/// The value of a lost position.
pub const LOSS: f64 = -WIN;

/// Incrementally maintained shapes and cell scores for one weight set.
///
/// ```
/// use mnk::eval::{shipped_weights, Evaluator, Shape};
/// use mnk::game::{Board, Color, Move, Rules};
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
    geo: Arc<Geometry>,
    /// Line code → both players' shapes.
    lines: LineClassifier,
    weights: Weights,
    /// One direction's contribution to a cell's score, `[if black moves,
    /// if white moves]`, by the shape pair there ([`pair_index`]).
    dir_value: [[f64; 2]; Shape::NUM * Shape::NUM],
    /// `weights.own` indexed by shape (0 for [`Shape::None`]).
    own_by_shape: [f64; Shape::NUM],
    /// `weights.opp` indexed by shape (0 for [`Shape::None`]).
    opp_by_shape: [f64; Shape::NUM],
    /// Per-cell state, kept together so an update touches one cache line
    /// group per cell.
    slots: Vec<Slot>,
    /// Flat per-mover score arrays (the greedy player's argmax input).
    scores: [Vec<f64>; 2],
    /// `counts[state][shape]`: (stone, direction) pairs per shape, by cell
    /// state (row 0, empty cells, is a sink so updates need no branch).
    counts: ShapeCounts,
    /// (cell, colour state, board hash before the move) per move applied.
    history: Vec<(u16, u8, u64)>,
    updates: u64,
    /// Whether `counts` is kept up to date (search needs it; the greedy
    /// player only needs cell scores and saves a fifth of each update).
    track_counts: bool,
    /// The empty board's state, copied in to start a new game: far cheaper
    /// than undoing the previous game move by move.
    blank: Arc<Blank>,
}

struct Blank {
    slots: Vec<Slot>,
    scores: [Vec<f64>; 2],
    counts: ShapeCounts,
}

/// The weights' game and the position's length: the arrays are too large
/// to print usefully.
impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("game", &self.weights.game)
            .field("moves", &self.history.len())
            .field("track_counts", &self.track_counts)
            .finish_non_exhaustive()
    }
}

/// `counts[state][shape]`: (stone, direction) pairs per shape, by cell state.
type ShapeCounts = [[i32; Shape::NUM]; 3];

impl Evaluator {
    /// An evaluator on the empty board of the weights' game.
    pub fn new(weights: Weights) -> Evaluator {
        let rules = weights.game;
        let n = rules.cells();
        let mut e = Evaluator {
            geo: Geometry::of(rules),
            lines: LineClassifier::new(rules.k, rules.rule),
            weights: weights.clone(),
            dir_value: [[0.0; 2]; Shape::NUM * Shape::NUM],
            own_by_shape: [0.0; Shape::NUM],
            opp_by_shape: [0.0; Shape::NUM],
            slots: vec![Slot::default(); n],
            scores: [vec![0.0; n], vec![0.0; n]],
            counts: [[0; Shape::NUM]; 3],
            history: Vec::with_capacity(n),
            updates: 0,
            track_counts: true,
            blank: Arc::new(Blank {
                slots: Vec::new(),
                scores: [Vec::new(), Vec::new()],
                counts: [[0; Shape::NUM]; 3],
            }),
        };
        e.set_weights(weights);
        e
    }

    /// An evaluator that keeps only the cell scores up to date, for players
    /// that never ask for a board value (the greedy player). Board values
    /// still work but are recomputed from scratch on every call.
    pub fn for_cell_scores(weights: Weights) -> Evaluator {
        let mut e = Evaluator::new(weights);
        e.track_counts = false;
        e
    }

    /// Replaces the weights (same game) and rebuilds every score.
    pub fn set_weights(&mut self, weights: Weights) {
        debug_assert_eq!(weights.game, self.geo.rules);
        let n = weights.shape_count();
        self.own_by_shape = [0.0; Shape::NUM];
        self.opp_by_shape = [0.0; Shape::NUM];
        self.own_by_shape[1..=n].copy_from_slice(&weights.own[..n]);
        self.opp_by_shape[1..=n].copy_from_slice(&weights.opp[..n]);
        let (own, opp) = (&self.own_by_shape, &self.opp_by_shape);
        for b in 0..Shape::NUM {
            for w in 0..Shape::NUM {
                self.dir_value[pair_index([b as u8, w as u8])] = [
                    weights.attack * own[b] + weights.defence * opp[w],
                    weights.attack * own[w] + weights.defence * opp[b],
                ];
            }
        }
        self.weights = weights;
        let states: Vec<u8> = self.slots.iter().map(|s| s.state).collect();
        for s in &mut self.slots {
            s.state = 0;
        }
        self.rebuild();
        self.blank = Arc::new(Blank {
            slots: self.slots.clone(),
            scores: self.scores.clone(),
            counts: self.counts,
        });
        if states.iter().any(|&s| s != 0) {
            for (slot, s) in self.slots.iter_mut().zip(states) {
                slot.state = s;
            }
            self.rebuild();
        }
    }

    /// The weight set in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The game of the weights.
    pub fn rules(&self) -> &Rules {
        &self.geo.rules
    }

    /// Number of (cell, direction) updates made so far: a speed measure.
    pub fn updates(&self) -> u64 {
        self.updates
    }

    /// Back to the empty board.
    pub fn reset(&mut self) {
        self.history.clear();
        self.slots.copy_from_slice(&self.blank.slots);
        self.scores[0].copy_from_slice(&self.blank.scores[0]);
        self.scores[1].copy_from_slice(&self.blank.scores[1]);
        self.counts = self.blank.counts;
    }

    /// Recomputes everything from `cells` (used on reset and weight change).
    fn rebuild(&mut self) {
        let n = self.slots.len();
        self.counts = [[0; Shape::NUM]; 3];
        for c in 0..n {
            let mut code = self.geo.empty_codes[c];
            for (d, code) in code.iter_mut().enumerate() {
                let stones = self.line_code_from_cells(c, d);
                code[0] |= stones[0];
                code[1] |= stones[1];
            }
            self.slots[c].code = code;
        }
        for c in 0..n {
            let state = self.slots[c].state as usize;
            self.slots[c].penalty = if state == 0 { 0.0 } else { f64::NEG_INFINITY };
            for d in 0..4 {
                let pair = self.lines.classify(self.slots[c].code[d]);
                self.slots[c].shape[d] = pair;
                self.slots[c].val[d] = self.dir_value[pair_index(pair)];
                self.counts[state][shape_for(state, pair)] += 1;
            }
            rescore(&self.slots[c], &mut self.scores, c);
        }
    }

    /// The stones around `c` in direction `d` as code bits (edges excluded).
    fn line_code_from_cells(&self, c: usize, d: usize) -> [u64; 2] {
        let rules = &self.geo.rules;
        let (dx, dy) = super::geometry::DIRS[d];
        let r = super::shape::radius(rules.k, rules.rule) as i32;
        let (x, y) = (
            (c % rules.width as usize) as i32,
            (c / rules.width as usize) as i32,
        );
        let mut code = [0u64; 2];
        for i in -r..=r {
            let (qx, qy) = (x + i * dx, y + i * dy);
            if i == 0 || qx < 0 || qy < 0 || qx >= rules.width as i32 || qy >= rules.height as i32 {
                continue;
            }
            let s = self.slots[(qy * rules.width as i32 + qx) as usize].state as u64;
            let bit = 2 * super::shape::position(i, r as usize);
            code[bit / 64] |= s << (bit % 64);
        }
        code
    }

    /// Sets (`color = 1/2`) or clears (`0`) the stone at `cell` and updates
    /// every cell whose window sees it.
    #[inline]
    fn set_cell(&mut self, cell: usize, state: u8) {
        // Destructured so the line tables can be read while the per-cell
        // arrays are written, without cloning the shared geometry.
        let Evaluator {
            geo,
            lines,
            dir_value,
            slots,
            scores,
            counts,
            updates,
            track_counts,
            ..
        } = self;
        let me = &mut slots[cell];
        let old_state = me.state as usize;
        // The cell itself: its own code is unchanged, only its owner.
        if *track_counts {
            for pair in me.shape {
                counts[old_state][shape_for(old_state, pair)] -= 1;
                counts[state as usize][shape_for(state as usize, pair)] += 1;
            }
        }
        me.state = state;
        me.penalty = if state == 0 { 0.0 } else { f64::NEG_INFINITY };
        rescore(me, scores, cell);
        for d in 0..4 {
            let touches = geo.touches(cell, d);
            *updates += touches.len() as u64;
            for t in touches {
                let q = t.cell as usize;
                let slot = &mut slots[q];
                let word = &mut slot.code[d][t.word as usize];
                *word = (*word & !(3u64 << t.shift)) | ((state as u64) << t.shift);
                let new = lines.classify(slot.code[d]);
                let old = slot.shape[d];
                slot.shape[d] = new;
                if *track_counts {
                    let qs = slot.state as usize;
                    counts[qs][shape_for(qs, old)] -= 1;
                    counts[qs][shape_for(qs, new)] += 1;
                }
                slot.val[d] = dir_value[pair_index(new)];
                rescore(slot, scores, q);
            }
        }
    }

    /// Plays `m` for `color`. `hash` is the board hash before the move (used
    /// by [`Evaluator::sync`]).
    pub fn play(&mut self, m: Move, color: Color, hash: u64) {
        let cell = self.geo.rules.index(m);
        let state = color.index() as u8 + 1;
        self.history.push((cell as u16, state, hash));
        self.set_cell(cell, state);
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        if let Some((cell, _, _)) = self.history.pop() {
            self.set_cell(cell as usize, 0);
        }
    }

    /// Brings the evaluator to `board`'s position with the fewest
    /// undo/play steps (it keeps the longest common history prefix).
    pub fn sync(&mut self, board: &Board) {
        let mut n = self.history.len().min(board.ply());
        // Move i is shared when the position before it (by hash), its cell
        // and its colour agree; then every earlier move is shared too.
        while n > 0 && {
            let (m, c) = board.move_at(n - 1);
            let (cell, state, hash) = self.history[n - 1];
            hash != board.hash_at(n - 1)
                || cell as usize != self.geo.rules.index(m)
                || state != c.index() as u8 + 1
        } {
            n -= 1;
        }
        if n == 0 {
            self.reset();
        }
        while self.history.len() > n {
            self.undo();
        }
        for i in n..board.ply() {
            let (m, c) = board.move_at(i);
            self.play(m, c, board.hash_at(i));
        }
    }

    /// Number of moves applied.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The flat score array for `mover`: one entry per cell, −∞ if occupied.
    #[inline]
    pub fn scores(&self, mover: Color) -> &[f64] {
        &self.scores[mover.index()]
    }

    /// The score of one cell for `mover` (−∞ if occupied).
    pub fn score(&self, m: Move, mover: Color) -> f64 {
        self.scores[mover.index()][self.geo.rules.index(m)]
    }

    /// The shape a `color` stone at `m` makes (or has, if it is there) in
    /// each of the 4 directions.
    pub fn shapes_at(&self, m: Move, color: Color) -> [Shape; 4] {
        let c = self.geo.rules.index(m);
        std::array::from_fn(|d| Shape::ALL[self.slots[c].shape[d][color.index()] as usize])
    }

    /// A cell's attack value for `mover`: the own weights of the shapes a
    /// stone there makes for the mover.
    pub fn attack_value(&self, m: Move, mover: Color) -> f64 {
        self.shapes_at(m, mover)
            .iter()
            .map(|&s| self.own_by_shape[s as usize])
            .sum()
    }

    /// A cell's defence value for `mover`: the opp weights of the shapes a
    /// stone there would make for the opponent.
    pub fn defence_value(&self, m: Move, mover: Color) -> f64 {
        self.shapes_at(m, mover.opponent())
            .iter()
            .map(|&s| self.opp_by_shape[s as usize])
            .sum()
    }

    /// Calls `f` with the shape counts: the maintained ones, or counts
    /// recomputed from the cells when this evaluator does not track them.
    fn with_counts<R>(&self, f: impl FnOnce(&ShapeCounts) -> R) -> R {
        if self.track_counts {
            return f(&self.counts);
        }
        let mut c = [[0; Shape::NUM]; 3];
        for slot in &self.slots {
            let st = slot.state as usize;
            for pair in slot.shape {
                c[st][shape_for(st, pair)] += 1;
            }
        }
        f(&c)
    }

    /// (stone, direction) pairs of `color` with shape `s`.
    pub fn shape_count(&self, color: Color, s: Shape) -> i32 {
        self.with_counts(|c| c[color.index() + 1][s as usize])
    }

    /// Whether `color` has a stone with a (k−1) shape: it could win at once.
    #[inline]
    pub fn can_win_now(&self, color: Color) -> bool {
        if !self.track_counts {
            return self.with_counts(|c| {
                let c = &c[color.index() + 1];
                c[Shape::OpenIn1 as usize] + c[Shape::ClosedIn1 as usize] > 0
            });
        }
        let c = &self.counts[color.index() + 1];
        c[Shape::OpenIn1 as usize] + c[Shape::ClosedIn1 as usize] > 0
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
    ///   instance has its shape, so the division counts each instance once.
    ///
    /// Swapping every stone's colour and the side to move leaves it unchanged.
    pub fn evaluate(&self, mover: Color) -> f64 {
        self.with_counts(|counts| self.value_from_counts(counts, mover))
    }

    fn value_from_counts(&self, counts: &ShapeCounts, mover: Color) -> f64 {
        let me = &counts[mover.index() + 1];
        let them = &counts[mover.opponent().index() + 1];
        if me[Shape::OpenIn1 as usize] + me[Shape::ClosedIn1 as usize] > 0 {
            return WIN;
        }
        if them[Shape::OpenIn1 as usize] > 0 {
            return LOSS;
        }
        let k = self.geo.rules.k;
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

/// Where a `[black's, white's]` shape pair sits in `dir_value`.
#[inline(always)]
fn pair_index(pair: [u8; 2]) -> usize {
    pair[0] as usize * Shape::NUM + pair[1] as usize
}

/// Recomputes a cell's two scores from its direction values, always in
/// the same order so that equal shapes give bit-identical sums.
#[inline(always)]
fn rescore(slot: &Slot, scores: &mut [Vec<f64>; 2], c: usize) {
    let v = &slot.val;
    scores[0][c] = v[0][0] + v[1][0] + v[2][0] + v[3][0] + slot.penalty;
    scores[1][c] = v[0][1] + v[1][1] + v[2][1] + v[3][1] + slot.penalty;
}

/// Everything the evaluator keeps about one cell.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// Line code per direction, as (low, high) 64-bit words.
    code: [[u64; 2]; 4],
    /// `[black's, white's]` shape per direction.
    shape: [[u8; 2]; 4],
    /// `[value if black moves, if white moves]` per direction.
    val: [[f64; 2]; 4],
    /// 0 when empty, −∞ when occupied.
    penalty: f64,
    /// 0 empty, 1 black, 2 white.
    state: u8,
}

/// The shape index that counts for a cell in `state` (0 empty → sink 0):
/// the pair packed in a word with a zero byte first, shifted by the state,
/// so the choice needs neither a branch nor a stack array.
#[inline(always)]
fn shape_for(state: usize, pair: [u8; 2]) -> usize {
    let word = ((pair[1] as u32) << 16) | ((pair[0] as u32) << 8);
    ((word >> (8 * state)) & 0xFF) as usize
}
