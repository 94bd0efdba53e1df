//! Which mate scores are proofs: a node facing a threat searches only its
//! defences, a loss elsewhere is marked unproven, and the threat searches
//! at the root.

use super::params::{
    DEFENCE_VCF_NODES, DEFENCE_VCT_NODES, ROOT_VCF_NODES, ROOT_VCT_DEPTH, ROOT_VCT_NODES,
    STOP_VCT_TIME_SHARE, VCF_TIME_SHARE, VCT_AFTER_CLAIM_SHARE, VCT_TIME_SHARE,
};
use super::picker::Defence;
use super::{Proof, Search};
use crate::eval::{Threat, WIN};
use crate::game::{stone_key, Color};
use crate::players::tt::UNPROVEN_SHIFT;
use crate::threats::{makes, win_cells, Mode, Verdict};
use std::time::Instant;

impl Search {
    /// The value of a node where every move searched lost (`best`, a mate
    /// score). Facing a threat to win in two, the moves searched were all
    /// its defences ([`Search::defend_only`]), so the loss is proven; a
    /// move outside them loses within 4 plies, so the value is at most
    /// that. Otherwise, unless every empty cell was searched, the loss is
    /// only likely, and moved down by [`UNPROVEN_SHIFT`] so that it never
    /// reads as proven.
    pub(super) fn settle_loss(
        &self,
        best: f64,
        defence: Defence,
        searched: usize,
        ply: u32,
    ) -> f64 {
        match defence {
            Defence::Only | Defence::Lost => best.max(-(WIN - (ply + 4) as f64)),
            Defence::Free if searched < self.board.empty_count() => best + UNPROVEN_SHIFT,
            Defence::Free => best,
        }
    }

    /// The plies to the mover's forced win at a leaf, when a threat to
    /// win in two decides it without a search: the mover can make an open
    /// four or a double four (two cells to complete k) and the opponent
    /// cannot win at once, so whatever it replies, one completion is left.
    /// (The opponent's fours do not matter: the mover completes k before
    /// the opponent can.) Three plies: the threat, any reply, the win.
    /// Reading two sets of cells the evaluator keeps, it is nearly free,
    /// unlike a VCF at every leaf: a 32-node VCF at each leaf where the
    /// mover could make a four tripled the nodes and measured −53.1 ± 28.0
    /// Elo at 100 ms a move.
    ///
    /// Five plies when the mover can make a four-three or a double three
    /// ([`Threat::WinInThree`]) and the opponent has no four to make: the
    /// reply (the four's forced block, or any move against two threes)
    /// is off the line of a three that stays open, and it cannot make a
    /// four, so the mover's open four follows and nothing stops it.
    pub(super) fn leaf_win(&self, mover: Color) -> Option<u32> {
        let lines = self.eval.lines();
        let opp = mover.opponent();
        leaf_win_from(
            lines.has_threat_cell(mover, Threat::WinInTwo),
            || {
                lines.has_threat_cell(mover, Threat::WinInThree)
                    && !lines.has_threat_cell(opp, Threat::Four)
            },
            lines.can_win_now(opp),
        )
    }

    /// The threat searches at the root, before the main search, in two
    /// phases with budgets of their own:
    /// 1. the VCFs: the mover's (a win found is returned as (cell, plies,
    ///    proof)), then the opponent's, which, if it has one, cuts the root
    ///    order down to the moves that stop it (when any does);
    /// 2. with a time limit only, the VCTs: the mover's, then the
    ///    opponent's, with the same cut, which may also use what the
    ///    mover's VCT left of its share.
    ///
    /// The VCF phase always runs first and to the end of its node budgets:
    /// no VCT can spend its time (a VCT that ran first used to leave the
    /// opponent's VCF check no time at all, so the root walked into a VCF
    /// it could see). Each phase's deadline is a share of the move's time
    /// ([`super::params`]). Without a time limit only the VCF phase runs,
    /// and its node budgets keep the search deterministic. Returns the
    /// threat nodes searched too.
    pub(super) fn root_threats(&mut self) -> (u64, Option<(u16, u32, Proof)>) {
        // A node limit covers the threat searches too: half of it at most.
        self.threat_left = self.limits.nodes.map_or(u64::MAX, |n| n / 2);
        let time = self.limits.time;
        let deadline = |from: Instant, share: f64| time.map(|t| from + t.mul_f64(share));
        self.threats
            .set_deadline(deadline(self.start, VCF_TIME_SHARE));
        let mut nodes = 0;
        let mut found = self.own_threat(Mode::Vcf, 0, ROOT_VCF_NODES, Proof::Vcf, &mut nodes);
        if found.is_none() {
            nodes += self.stop_threat(Mode::Vcf, 0, ROOT_VCF_NODES, DEFENCE_VCF_NODES);
        }
        if found.is_none() && time.is_some() {
            let vct_start = Instant::now();
            let share = if self.root.claimed_last_move(self.board.ply()) {
                VCT_AFTER_CLAIM_SHARE
            } else {
                VCT_TIME_SHARE
            };
            self.threats.set_deadline(deadline(vct_start, share));
            found = self.own_threat(
                Mode::Vct,
                ROOT_VCT_DEPTH,
                ROOT_VCT_NODES,
                Proof::Vct,
                &mut nodes,
            );
            if found.is_none() {
                // Its own share, and what the mover's VCT left of its own.
                self.threats
                    .set_deadline(deadline(vct_start, share + STOP_VCT_TIME_SHARE));
                nodes +=
                    self.stop_threat(Mode::Vct, ROOT_VCT_DEPTH, ROOT_VCT_NODES, DEFENCE_VCT_NODES);
            }
        }
        self.threats.set_deadline(None);
        (nodes, found)
    }

    /// The mover's `mode` win within `budget` nodes, as (cell, plies,
    /// `proof`); adds the nodes searched to `nodes`.
    fn own_threat(
        &mut self,
        mode: Mode,
        depth: u32,
        budget: u64,
        proof: Proof,
        nodes: &mut u64,
    ) -> Option<(u16, u32, Proof)> {
        let mover = self.board.to_move();
        let hash = self.board.hash();
        let v = self.budgeted_solve(hash, mover, mode, depth, budget);
        *nodes += self.threats.nodes();
        match v {
            Verdict::Win { first, plies } => {
                Some((self.board.rules().index(first) as u16, plies, proof))
            }
            _ => None,
        }
    }

    /// A threat search within what is left of the node allowance
    /// (`Unknown` when nothing is).
    fn budgeted_solve(
        &mut self,
        hash: u64,
        attacker: Color,
        mode: Mode,
        depth: u32,
        budget: u64,
    ) -> Verdict {
        let budget = budget.min(self.threat_left);
        if budget == 0 {
            return Verdict::Unknown;
        }
        let v = self
            .threats
            .solve(&mut self.eval, hash, attacker, mode, depth, budget);
        self.threat_left = self.threat_left.saturating_sub(self.threats.nodes());
        v
    }

    /// If the opponent has a `mode` win (as if it were to move), keeps in
    /// the root order only the moves after which it has none: the moves
    /// cut are proven losses, so a loss against the rest stays proven. The
    /// moves tried are the root moves, the mover's fours, the opponent's
    /// first threat and every reply to it (for VCF, its whole line).
    /// Returns the nodes searched.
    ///
    /// Where the time goes: in depth-4 games these checks are about 40% of
    /// the instructions, nearly all of it the evaluator's play and undo
    /// inside the threat search. Replaying the VCF's line after each move
    /// tried, before searching, was measured and left out: the moves that
    /// leave the line standing are the cheap ones (its VCFs are 2–3 plies,
    /// about 55 cell updates a search); the cost is in the moves that break
    /// the line but lose to another VCF (about 2,600 updates each) and in
    /// proving that the moves that hold do hold (about 1,400).
    fn stop_threat(&mut self, mode: Mode, depth: u32, budget: u64, each: u64) -> u64 {
        let mover = self.board.to_move();
        let opp = mover.opponent();
        let hash = self.board.hash();
        let rules = *self.board.rules();
        let v = self.budgeted_solve(hash, opp, mode, depth, budget);
        let mut nodes = self.threats.nodes();
        let Verdict::Win { first, .. } = v else {
            return nodes;
        };
        let mut tried = self.root.order.clone();
        let mut extra: Vec<u16> = match mode {
            Mode::Vcf => self
                .threats
                .line(&mut self.eval, hash, opp)
                .iter()
                .map(|&m| rules.index(m) as u16)
                .collect(),
            Mode::Vct => {
                // The blocks of a four, or the defences against a three.
                let mut replies = Vec::new();
                self.eval.play_unscored(first, opp, hash);
                win_cells(self.eval.lines(), opp, &mut replies, usize::MAX);
                if replies.is_empty() {
                    let _ = self
                        .picker
                        .defences
                        .replies(self.eval.lines(), opp, &mut replies);
                }
                self.eval.undo();
                replies.push(rules.index(first) as u16);
                replies
            }
        };
        extra.extend(
            self.eval
                .lines()
                .threat_cells(mover, Threat::Four)
                .map(|c| c as u16),
        );
        for cell in extra {
            if self.board.cells()[cell as usize].is_empty() && !tried.contains(&cell) {
                tried.push(cell);
            }
        }
        // Moves after which the threat search ran out of time or nodes
        // (`Unknown`) are kept apart from those it showed to hold: on a
        // loaded machine the checks may not reach every move, and a move
        // not checked may still lose to the threat.
        let (mut holds, mut unchecked) = (Vec::new(), Vec::new());
        for &cell in &tried {
            let m = rules.move_at(cell as usize);
            self.eval.play_unscored(m, mover, hash);
            let after = hash ^ stone_key(mover, m);
            let v = self.budgeted_solve(after, opp, mode, depth, each);
            nodes += self.threats.nodes();
            self.eval.undo();
            match v {
                Verdict::NoWin => holds.push(cell),
                Verdict::Unknown => unchecked.push(cell),
                Verdict::Win { .. } => {}
            }
        }
        // Only the moves shown to hold when there are any; else every
        // move not shown to lose. Either way the moves cut lose to the
        // threat or may, so a loss against the rest is no proof unless
        // every move was checked.
        //
        // A forcing move of the mover's (a four or an open three) that
        // the check could not decide is kept too: it is the
        // move an attack wins with, and the checks after it are the ones
        // that run out (seen at 300 ms a move: a claimed win in 17 lost
        // because its next move, `i13`, left a VCT check that needs 1.3M
        // nodes, and was cut).
        if holds.is_empty() {
            holds = unchecked;
        } else if !unchecked.is_empty() {
            self.root.complete = false;
            let lines = self.eval.lines();
            holds.extend(
                unchecked
                    .into_iter()
                    .filter(|&c| makes(lines, c as usize, mover).forcing()),
            );
        }
        if !holds.is_empty() {
            self.root.order = holds;
            self.root.cut = true;
        }
        nodes
    }
}

/// [`Search::leaf_win`] from its facts, however they were read: the
/// mover has a cell that wins in two; it has one that wins in three and
/// the opponent has no four to make (asked only when needed); the
/// opponent can win at once.
#[inline]
pub(super) fn leaf_win_from(
    wins_in_two: bool,
    wins_in_three: impl FnOnce() -> bool,
    opponent_wins_now: bool,
) -> Option<u32> {
    if opponent_wins_now {
        None
    } else if wins_in_two {
        Some(3)
    } else if wins_in_three() {
        Some(5)
    } else {
        None
    }
}
