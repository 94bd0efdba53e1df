//! Checks of the incumbent: against the exact player on boards it can
//! solve, and against fixed reference players on large boards.
//!
//! # Exact checks (boards of at most 16 cells, such as tic-tac-toe)
//!
//! [`Oracle::build`] visits every position reachable from the empty board
//! by legal play (4,520 non-terminal ones for tic-tac-toe) and asks the
//! [`Solver`] for its optimal moves. In a won or drawn position these are
//! the moves that keep the value; in a lost position, where every move
//! loses against perfect play, they are the solver's convention: the moves
//! after which the opponent cannot win at once.
//!
//! - **Agreement** is the mean, over all those positions, of the share of
//!   the player's candidate moves that are optimal. The greedy player's
//!   candidates are all cells tied for the best score (it breaks ties at
//!   random, so this is the probability that it plays an optimal move);
//!   the search player's candidate is the one move it picks, its root ties
//!   broken by a generator seeded from the position. **Strict agreement**
//!   counts only positions where *every* candidate is optimal.
//! - **Lost lines**: the game tree where the trained player plays every
//!   one of its candidates and the exact player every optimal move; the
//!   number of leaves the trained player loses, once as black and once as
//!   white. 0 means no tie-break and no optimal reply ever beats it.
//! - **No-loss depth**: the smallest search depth from 1 to 4 at which the
//!   search player with the incumbent's weights (and the trained player's
//!   width) loses no line as either colour, if any.
//!
//! # Match checks (large boards)
//!
//! The trained player with the incumbent's weights plays the same player
//! with each reference's weights (the run's start weights and the shipped
//! ones, named `start` and `shipped`, or `start=shipped` once when they
//! are the same) over a fixed set of paired openings drawn from their own seed
//! stream, not the training streams. The result is W/D/L, the score and
//! the pentanomial Elo with its 95% error bar.

use super::player::TrainedPlayer;
use super::seeds::stream;
use super::TrainError;
use crate::arena::{derive_seed, game_rng, stats::PairedTally, Opening};
use crate::eval::{Evaluator, Weights};
use crate::game::{Board, Color, Outcome, Rules};
use crate::players::{Player, Search, Solver};
use std::collections::HashMap;

/// Table size (log2) of the search players built for exact checks: they
/// clear their table before every move, so a small table keeps that cheap.
const CHECK_TT_BITS: u32 = 12;

/// The exact player's optimal moves in every reachable non-terminal
/// position of a small board.
#[derive(Debug)]
pub struct Oracle {
    rules: Rules,
    /// Board hash → bit mask of optimal cells.
    optimal: HashMap<u64, u64>,
}

impl Oracle {
    /// Solves every position reachable from the empty board. Fails if the
    /// board has more cells than the solver's limit.
    pub fn build(rules: Rules) -> Result<Oracle, TrainError> {
        if rules.cells() > Solver::DEFAULT_LIMIT {
            return Err(TrainError::Check(format!(
                "{rules} has {} cells; exact checks need at most {}",
                rules.cells(),
                Solver::DEFAULT_LIMIT
            )));
        }
        let mut solver = Solver::new(rules);
        let mut optimal = HashMap::new();
        let mut board = Board::new(rules);
        fn visit(
            b: &mut Board,
            solver: &mut Solver,
            optimal: &mut HashMap<u64, u64>,
        ) -> Result<(), TrainError> {
            if b.is_over() || optimal.contains_key(&b.hash()) {
                return Ok(());
            }
            let moves = solver
                .optimal_moves(b)
                .map_err(|e| TrainError::Check(e.to_string()))?;
            let rules = *b.rules();
            let mask = moves.iter().fold(0u64, |m, &mv| m | 1 << rules.index(mv));
            optimal.insert(b.hash(), mask);
            for mv in b.legal_moves() {
                b.play_unchecked(mv);
                visit(b, solver, optimal)?;
                b.undo();
            }
            Ok(())
        }
        visit(&mut board, &mut solver, &mut optimal)?;
        Ok(Oracle { rules, optimal })
    }

    /// Number of reachable non-terminal positions.
    pub fn positions(&self) -> usize {
        self.optimal.len()
    }

    /// The optimal cells of a reachable position (a bit per cell index).
    pub fn optimal_mask(&self, board: &Board) -> u64 {
        self.optimal.get(&board.hash()).copied().unwrap_or(0)
    }

    /// Mean and strict agreement of `chooser` over every position.
    fn agreement(&self, chooser: &mut dyn Chooser) -> Result<(f64, f64), TrainError> {
        let mut seen = std::collections::HashSet::new();
        let (mut sum, mut strict) = (0.0, 0u64);
        let mut board = Board::new(self.rules);
        fn visit(
            o: &Oracle,
            b: &mut Board,
            c: &mut dyn Chooser,
            seen: &mut std::collections::HashSet<u64>,
            sum: &mut f64,
            strict: &mut u64,
        ) -> Result<(), TrainError> {
            if b.is_over() || !seen.insert(b.hash()) {
                return Ok(());
            }
            let cand = c.candidates(b)?;
            let good = cand & o.optimal_mask(b);
            if cand != 0 {
                *sum += f64::from(good.count_ones()) / f64::from(cand.count_ones());
                *strict += u64::from(good == cand);
            }
            for mv in b.legal_moves() {
                b.play_unchecked(mv);
                visit(o, b, c, seen, sum, strict)?;
                b.undo();
            }
            Ok(())
        }
        visit(self, &mut board, chooser, &mut seen, &mut sum, &mut strict)?;
        let n = seen.len().max(1) as f64;
        Ok((sum / n, strict as f64 / n))
    }

    /// Lines `chooser` loses as `side` when it plays every candidate and
    /// the exact player every optimal move.
    fn lost_lines(&self, chooser: &mut dyn Chooser, side: Color) -> Result<u64, TrainError> {
        let mut memo = HashMap::new();
        let mut board = Board::new(self.rules);
        fn visit(
            o: &Oracle,
            b: &mut Board,
            c: &mut dyn Chooser,
            side: Color,
            memo: &mut HashMap<u64, u64>,
        ) -> Result<u64, TrainError> {
            if let Some(out) = b.outcome() {
                return Ok(u64::from(out == Outcome::Win(side.opponent())));
            }
            if let Some(&n) = memo.get(&b.hash()) {
                return Ok(n);
            }
            let mask = if b.to_move() == side {
                c.candidates(b)?
            } else {
                o.optimal_mask(b)
            };
            let mut lost = 0u64;
            for i in 0..o.rules.cells() {
                if mask >> i & 1 == 1 {
                    b.play_unchecked(o.rules.move_at(i));
                    lost = lost.saturating_add(visit(o, b, c, side, memo)?);
                    b.undo();
                }
            }
            memo.insert(b.hash(), lost);
            Ok(lost)
        }
        visit(self, &mut board, chooser, side, &mut memo)
    }
}

/// The moves a player might make in a position, as a bit mask of cells.
trait Chooser {
    fn candidates(&mut self, board: &Board) -> Result<u64, TrainError>;
}

/// The greedy player: every cell tied for the best score.
struct GreedyChooser {
    eval: Evaluator,
}

impl Chooser for GreedyChooser {
    fn candidates(&mut self, board: &Board) -> Result<u64, TrainError> {
        self.eval.sync(board);
        let scores = self.eval.scores(board.to_move());
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if best == f64::NEG_INFINITY {
            return Ok(0);
        }
        Ok(scores
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s == best)
            .fold(0u64, |m, (i, _)| m | 1 << i))
    }
}

/// The search player: the one move it picks with a cleared table and root
/// ties broken by a generator seeded from the position.
struct SearchChooser {
    search: Search,
    seed: u64,
}

impl Chooser for SearchChooser {
    fn candidates(&mut self, board: &Board) -> Result<u64, TrainError> {
        self.search.new_game();
        let mut rng = game_rng(self.seed, &[stream::EXACT_CHECK, board.hash()]);
        let m = self
            .search
            .choose(board, &mut rng)
            .map_err(|e| TrainError::Check(e.to_string()))?;
        Ok(1 << board.rules().index(m))
    }
}

/// The result of an exact check.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactCheck {
    /// Reachable non-terminal positions checked.
    pub positions: u64,
    /// Mean share of the player's candidate moves that are optimal.
    pub agreement: f64,
    /// Share of positions where every candidate move is optimal.
    pub agreement_all_ties: f64,
    /// Lines lost against the exact player, playing black.
    pub lost_as_black: u64,
    /// Lines lost against the exact player, playing white.
    pub lost_as_white: u64,
    /// Smallest search depth (1 to 4) with these weights that loses no
    /// line, if any.
    pub no_loss_depth: Option<u32>,
}

impl ExactCheck {
    /// Lines lost as either colour.
    pub fn lost_lines(&self) -> u64 {
        self.lost_as_black.saturating_add(self.lost_as_white)
    }
}

fn lost_both(oracle: &Oracle, c: &mut dyn Chooser) -> Result<(u64, u64), TrainError> {
    Ok((
        oracle.lost_lines(c, Color::Black)?,
        oracle.lost_lines(c, Color::White)?,
    ))
}

/// Checks `weights` for `player` against the exact player.
pub fn exact_check(
    oracle: &Oracle,
    player: &TrainedPlayer,
    weights: &Weights,
    seed: u64,
) -> Result<ExactCheck, TrainError> {
    let mut chooser: Box<dyn Chooser> = match player.search_limits(CHECK_TT_BITS) {
        Some(l) => Box::new(SearchChooser {
            search: Search::new(weights.clone(), l),
            seed,
        }),
        None => Box::new(GreedyChooser {
            eval: Evaluator::new(weights.clone()),
        }),
    };
    let (agreement, agreement_all_ties) = oracle.agreement(chooser.as_mut())?;
    let (lost_as_black, lost_as_white) = lost_both(oracle, chooser.as_mut())?;
    let mut no_loss_depth = None;
    for depth in 1..=4 {
        let mut c = SearchChooser {
            search: Search::new(
                weights.clone(),
                player.search_at_depth(depth, CHECK_TT_BITS),
            ),
            seed,
        };
        let (b, w) = lost_both(oracle, &mut c)?;
        if b == 0 && w == 0 {
            no_loss_depth = Some(depth);
            break;
        }
    }
    Ok(ExactCheck {
        positions: oracle.positions() as u64,
        agreement,
        agreement_all_ties,
        lost_as_black,
        lost_as_white,
        no_loss_depth,
    })
}

/// The result of a match against one reference, from the trained
/// player's view.
#[derive(Clone, Debug, PartialEq)]
pub struct RefCheck {
    /// `start` or `shipped`.
    pub reference: String,
    /// W/D/L and pentanomial, from the trained weights' view.
    pub tally: PairedTally,
}

/// Plays the trained player with `weights` against the same player with
/// each reference's weights over `openings` (each with both colours).
pub fn match_check(
    player: &TrainedPlayer,
    weights: &Weights,
    references: &[(&str, &Weights)],
    openings: &[Opening],
    seed: u64,
) -> Result<Vec<RefCheck>, TrainError> {
    let mut out = Vec::new();
    for &(name, reference) in references {
        let seed = derive_seed(seed, &[stream::CHECK_GAMES]);
        let report = player.head_to_head(weights.game, weights, reference, openings, 0, seed)?;
        out.push(RefCheck {
            reference: name.to_string(),
            tally: report.tally,
        });
    }
    Ok(out)
}

/// A check after a round, as recorded in `checks.csv`.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// Against the exact player (a board it solves).
    Exact(ExactCheck),
    /// Against each reference's weights (a large board).
    Match(Vec<RefCheck>),
}

/// A check and the round it followed.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckRow {
    /// The round after which the check was made.
    pub round: u32,
    /// What it found.
    pub check: Check,
}

impl CheckRow {
    /// A short summary for progress displays.
    pub fn summary(&self) -> String {
        match &self.check {
            Check::Exact(e) => format!(
                "agreement {:.1}%, lost lines {}, no-loss depth {}",
                100.0 * e.agreement,
                e.lost_lines(),
                e.no_loss_depth
                    .map_or("none <= 4".to_string(), |d| d.to_string())
            ),
            Check::Match(refs) => refs
                .iter()
                .map(|r| {
                    format!(
                        "vs {} {:.1}% Elo {}",
                        r.reference,
                        100.0 * r.tally.games.score(),
                        r.tally.pairs.elo_range().short()
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// The fixed openings of a large board's match checks: the first of the
/// book's check part when the run splits a book, else random ones from
/// their own stream, not the training openings'.
pub fn check_openings(cfg: &super::RunConfig, check_part: Option<&[Opening]>) -> Vec<Opening> {
    if let Some(part) = check_part {
        // The trainer refused a check part smaller than this.
        return part
            .iter()
            .take(cfg.check_openings as usize)
            .cloned()
            .collect();
    }
    let mut rng = game_rng(cfg.seed, &[stream::CHECK]);
    cfg.random_openings(cfg.check_openings as usize, &mut rng)
}
