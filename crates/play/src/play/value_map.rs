//! A position's value map: each empty cell's score for the side to move
//! (what the greedy player maximises), the best cells, the board value and
//! each side's VCF. `mnk eval` prints it and `mnk serve` overlays it on the
//! board, so both show the same numbers.

use crate::eval::{Evaluator, Weights};
use crate::game::{Board, Color, Move};
use crate::threats::{Mode, ThreatSearch, Verdict};

/// Nodes for each side's VCF under a value map.
pub const VCF_NODES: u64 = 1_000_000;

/// One side's VCF (a win by continuous fours), as if it were to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vcf {
    /// A forced win from `first` in `plies` plies.
    Win {
        /// The first move of the line.
        first: Move,
        /// The line's length.
        plies: u32,
    },
    /// There is none.
    None,
    /// Not settled within [`VCF_NODES`].
    Unknown,
}

/// One side's VCF as `mnk eval --json` and `mnk serve` write it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct VcfReport {
    /// `black` or `white`.
    pub side: String,
    /// `win`, `none` or `unknown`.
    pub result: &'static str,
    /// The line's first move, for a win.
    pub first: Option<String>,
    /// The line's length in plies, for a win.
    pub plies: Option<u32>,
}

impl From<(Color, Vcf)> for VcfReport {
    fn from((side, v): (Color, Vcf)) -> VcfReport {
        let (result, first, plies) = match v {
            Vcf::Win { first, plies } => ("win", Some(first.to_string()), Some(plies)),
            Vcf::None => ("none", None, None),
            Vcf::Unknown => ("unknown", None, None),
        };
        VcfReport {
            side: side.to_string(),
            result,
            first,
            plies,
        }
    }
}

/// What [`ValueMap::new`] finds in a position.
#[derive(Clone, Debug)]
pub struct ValueMap {
    /// The side to move, whose scores these are.
    pub mover: Color,
    /// One score per cell, row-major (occupied cells hold whatever the
    /// evaluator keeps there; see [`ValueMap::rows`]).
    pub scores: Vec<f64>,
    /// The empty cells with the highest score, in row-major order.
    pub best: Vec<Move>,
    /// The first best cell's attack and defence values.
    pub attack_value: Option<f64>,
    /// See `attack_value`.
    pub defence_value: Option<f64>,
    /// The board value for the mover (at or beyond `WIN`/`LOSS` when won
    /// or lost).
    pub board_value: f64,
    /// The mover's VCF, then the opponent's; empty when the game is over.
    pub vcf: Vec<(Color, Vcf)>,
}

impl ValueMap {
    /// The value map of `board` under `weights`.
    ///
    /// ```
    /// use mnk::game::{Board, Rules};
    /// use mnk::play::ValueMap;
    /// use mnk::players::PlayerSpec;
    /// let mut b = Board::new(Rules::TICTACTOE);
    /// b.play("b2".parse().unwrap()).unwrap();
    /// let map = ValueMap::new(&b, PlayerSpec::greedy().shipped_weights(Rules::TICTACTOE));
    /// assert_eq!(map.rows(&b)[1][1], None); // b2 holds a stone
    /// assert_eq!(map.best.len(), 4); // the corners
    /// ```
    pub fn new(board: &Board, weights: Weights) -> ValueMap {
        let rules = *board.rules();
        let mut ev = Evaluator::new(weights);
        ev.sync(board);
        let mover = board.to_move();
        let scores = ev.scores(mover).to_vec();
        let empty = |i: &usize| board.cells()[*i].is_empty();
        let top = (0..scores.len())
            .filter(empty)
            .map(|i| scores[i])
            .fold(f64::NEG_INFINITY, f64::max);
        let best: Vec<Move> = (0..scores.len())
            .filter(empty)
            .filter(|&i| scores[i] == top)
            .map(|i| rules.move_at(i))
            .collect();
        let first = best.first().copied();
        let vcf = if board.is_over() {
            Vec::new()
        } else {
            let mut threats = ThreatSearch::new(rules, 18);
            [mover, mover.opponent()]
                .into_iter()
                .map(|side| {
                    let v =
                        match threats.solve(&mut ev, board.hash(), side, Mode::Vcf, 0, VCF_NODES) {
                            Verdict::Win { first, plies } => Vcf::Win { first, plies },
                            Verdict::NoWin => Vcf::None,
                            Verdict::Unknown => Vcf::Unknown,
                        };
                    (side, v)
                })
                .collect()
        };
        ValueMap {
            mover,
            attack_value: first.map(|m| ev.attack_value(m, mover)),
            defence_value: first.map(|m| ev.defence_value(m, mover)),
            board_value: ev.evaluate(mover),
            scores,
            best,
            vcf,
        }
    }

    /// The scores row by row, `None` for a stone (as `mnk eval --json` and
    /// `mnk serve` write them).
    pub fn rows(&self, board: &Board) -> Vec<Vec<Option<f64>>> {
        let w = board.rules().width as usize;
        let cells = board.cells();
        self.scores
            .chunks(w)
            .zip(cells.chunks(w))
            .map(|(s, c)| {
                s.iter()
                    .zip(c)
                    .map(|(&v, c)| c.is_empty().then_some(v))
                    .collect()
            })
            .collect()
    }
}
