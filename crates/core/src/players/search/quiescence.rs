//! A cheap VCF quiescence at the horizon: threat searches where the
//! alpha-beta stops, so that a forced win by fours just past the leaves
//! is not valued as a quiet position.
//!
//! - A move at a node of depth 1 whose leaf value would raise alpha is
//!   refuted (scored as a proven loss) when the leaf's mover has a VCF
//!   ([`Search::refute_leaf`]). Only such a move pays: a lower value
//!   for a move that does not raise alpha changes nothing, so most
//!   leaves are never asked, unlike a VCF at every leaf.
//! - A node of depth 1 whose moves all failed low is scored a win when
//!   its mover has a VCF ([`Search::own_vcf`]).
//!
//! Each is asked only where that side has a four to make (read off the
//! evaluator's lines), within [`QUIESCENCE_VCF_NODES`] nodes of the
//! root's threat solver and its table. A win found is a forcing line,
//! so a proof. Their nodes count as the search's.

use super::params::QUIESCENCE_VCF_NODES;
use super::Search;
use crate::eval::{Threat, WIN};
use crate::game::{stone_key, Color};
use crate::players::tt::UNPROVEN_BOUND;
use crate::threats::{Mode, Verdict};

impl Search {
    /// The score of move `cell` at a node of depth 1 and `ply` whose
    /// child is a leaf, from its leaf value `score`: a proven loss when
    /// the leaf's mover has a VCF, asked only when `score` would raise
    /// `alpha` and is no mate score (the move is not played on the board,
    /// only on the evaluator).
    pub(super) fn refute_leaf(&mut self, cell: u16, score: f64, alpha: f64, ply: u32) -> f64 {
        let color = self.board.to_move();
        let opp = color.opponent();
        // A stone of the mover only takes fours away from the opponent.
        if !self.asks(score, alpha, opp) {
            return score;
        }
        let m = self.cell_moves[cell as usize];
        let hash = self.board.hash();
        self.eval.play_unscored(m, color, hash);
        let won = self.vcf(hash ^ stone_key(color, m), opp);
        self.eval.undo();
        won.map_or(score, |(plies, _)| -(WIN - (ply + 1 + plies) as f64))
    }

    /// [`Search::refute_leaf`] for a move already played (a late move at
    /// depth 1): `score` is its value at `ply`, the leaf at `ply + 1`.
    pub(super) fn refute_played(&mut self, score: f64, alpha: f64, ply: u32) -> f64 {
        let opp = self.board.to_move();
        if !self.asks(score, alpha, opp) {
            return score;
        }
        let won = self.vcf(self.board.hash(), opp);
        won.map_or(score, |(plies, _)| -(WIN - (ply + 1 + plies) as f64))
    }

    /// The value and first move of the mover's VCF at a node of depth 1
    /// and `ply` that failed low, when it has a four to make and a VCF.
    pub(super) fn own_vcf(&mut self, mover: Color, ply: u32) -> Option<(f64, u16)> {
        if !self.prune || !self.eval.lines().has_threat_cell(mover, Threat::Four) {
            return None;
        }
        let (plies, first) = self.vcf(self.board.hash(), mover)?;
        Some((WIN - (ply + plies) as f64, first))
    }

    /// Whether a leaf value `score` for the side whose move it is should be
    /// checked against `side`'s VCF: it would raise `alpha`, it is an
    /// evaluation (not a win or loss, proven or likely), and `side` has a
    /// four to make. Never in the minimax oracle's comparisons.
    fn asks(&self, score: f64, alpha: f64, side: Color) -> bool {
        self.prune
            && score > alpha
            && score.abs() < UNPROVEN_BOUND
            && self.eval.lines().has_threat_cell(side, Threat::Four)
    }

    /// `attacker`'s VCF in the evaluator's position (board hash `hash`),
    /// as (plies, first cell), within [`QUIESCENCE_VCF_NODES`] nodes,
    /// which are counted as the search's.
    fn vcf(&mut self, hash: u64, attacker: Color) -> Option<(u32, u16)> {
        let v = self.threats.solve(
            &mut self.eval,
            hash,
            attacker,
            Mode::Vcf,
            0,
            QUIESCENCE_VCF_NODES,
        );
        self.nodes += self.threats.nodes();
        match v {
            Verdict::Win { first, plies } => Some((plies, self.board.rules().index(first) as u16)),
            _ => None,
        }
    }
}
