//! Which mate scores are proofs: a node facing a threat searches only its
//! defences, a loss elsewhere is marked unproven, and the threat searches
//! at the root.

use super::{
    Proof, Search, DEFENCE_VCF_NODES, DEFENCE_VCT_NODES, ROOT_VCF_NODES, ROOT_VCT_DEPTH,
    ROOT_VCT_NODES,
};
use crate::eval::WIN;
use crate::game::{stone_key, Color};
use crate::players::tt::UNPROVEN_SHIFT;
use crate::threats::{is_empty, makes, win_cells, Mode, Verdict};

/// What a node's mover faces ([`Search::defend_only`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Defence {
    /// No threat to win in two: any move may hold.
    Free,
    /// A threat: the moves are exactly its defences.
    Only,
    /// A threat with no defence: lost within 4 plies.
    Lost,
}

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

    /// When the opponent threatens to win in two (and cannot win at once),
    /// `moves` becomes its defences ([`crate::threats`]): the candidates
    /// among them first, then the others by static score. Every other move
    /// loses within 4 plies, so searching it would only cost time.
    pub(super) fn defend_only(&mut self, mover: Color, moves: &mut Vec<(f64, u16)>) -> Defence {
        let opp = mover.opponent();
        let base = self.extra.len();
        if self
            .defences
            .replies(self.eval.lines(), opp, &mut self.extra)
            .is_none()
        {
            return Defence::Free;
        }
        if self.extra.len() == base {
            return Defence::Lost;
        }
        let defences = &self.extra[base..];
        moves.retain(|&(_, c)| defences.contains(&c));
        let kept = moves.len();
        let scores = self.eval.scores(mover);
        for &c in defences {
            if !moves[..kept].iter().any(|&(_, m)| m == c) {
                moves.push((scores[c as usize], c));
            }
        }
        moves[kept..].sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        self.extra.truncate(base);
        Defence::Only
    }

    /// The threat searches at the root, before the main search: the mover's
    /// VCF, then its VCT (a win found is returned as (cell, plies, proof));
    /// else the opponent's VCF, which, if it has one, the root order is cut
    /// down to the moves that stop it (when any does). Returns the threat
    /// nodes searched too.
    ///
    /// A search with a time limit gives them a quarter of it, and runs the
    /// VCT too; without one, only the VCFs run (their node budgets keep
    /// the search deterministic).
    pub(super) fn root_threats(&mut self) -> (u64, Option<(u16, u32, Proof)>) {
        let deadline = self.limits.time.map(|t| self.start + t / 4);
        // A node limit covers the threat searches too: half of it at most.
        self.threat_left = self.limits.nodes.map_or(u64::MAX, |n| n / 2);
        self.threats.set_deadline(deadline);
        let found = self.root_threats_within();
        self.threats.set_deadline(None);
        found
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

    fn root_threats_within(&mut self) -> (u64, Option<(u16, u32, Proof)>) {
        let mover = self.board.to_move();
        let hash = self.board.hash();
        let rules = *self.board.rules();
        let mut nodes = 0;
        let vct = if self.limits.time.is_some() {
            ROOT_VCT_NODES
        } else {
            0
        };
        for (mode, budget, depth, proof) in [
            (Mode::Vcf, ROOT_VCF_NODES, 0, Proof::Vcf),
            (Mode::Vct, vct, ROOT_VCT_DEPTH, Proof::Vct),
        ] {
            if budget == 0 {
                continue;
            }
            let v = self.budgeted_solve(hash, mover, mode, depth, budget);
            nodes += self.threats.nodes();
            if let Verdict::Win { first, plies } = v {
                return (nodes, Some((rules.index(first) as u16, plies, proof)));
            }
        }
        // The opponent's threats, as if it were to move: the root moves
        // are cut down to those that stop them (when any does).
        nodes += self.stop_threat(Mode::Vcf, 0, ROOT_VCF_NODES, DEFENCE_VCF_NODES);
        if vct > 0 {
            nodes += self.stop_threat(Mode::Vct, ROOT_VCT_DEPTH, vct, DEFENCE_VCT_NODES);
        }
        (nodes, None)
    }

    /// If the opponent has a `mode` win (as if it were to move), keeps in
    /// the root order only the moves after which it has none: the moves
    /// cut are proven losses, so a loss against the rest stays proven. The
    /// moves tried are the root moves, the mover's fours, the opponent's
    /// first threat and every reply to it (for VCF, its whole line).
    /// Returns the nodes searched.
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
        let mut tried = self.order.clone();
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
                    let _ = self.defences.replies(self.eval.lines(), opp, &mut replies);
                }
                self.eval.undo();
                replies.push(rules.index(first) as u16);
                replies
            }
        };
        let lines = self.eval.lines();
        extra.extend(
            (0..rules.cells() as u16).filter(|&c| {
                is_empty(lines, c as usize) && makes(lines, c as usize, mover).fours > 0
            }),
        );
        for cell in extra {
            if self.board.cells()[cell as usize] == 0 && !tried.contains(&cell) {
                tried.push(cell);
            }
        }
        let mut holds = Vec::new();
        for &cell in &tried {
            let m = rules.move_at(cell as usize);
            self.eval.play_unscored(m, mover, hash);
            let after = hash ^ stone_key(mover, m);
            let v = self.budgeted_solve(after, opp, mode, depth, each);
            nodes += self.threats.nodes();
            self.eval.undo();
            if !v.is_win() {
                holds.push(cell);
            }
        }
        if !holds.is_empty() {
            self.order = holds;
        }
        nodes
    }
}
