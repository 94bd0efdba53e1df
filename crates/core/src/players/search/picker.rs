//! The move picker: which moves a node searches, and in what order.
//!
//! A node's moves come in stages, tactical ones first and never cut by the
//! width (as Rapfi's and Stockfish's move pickers generate them):
//! 1. facing the opponent's completion cell, that cell (forced);
//! 2. facing a threat to win in two (an open four or a double four to
//!    come), exactly the replies that can stop it ([`Search::defend_only`]);
//! 3. otherwise the `width` candidates by static score (the table's move
//!    first), then the mover's fours that the width left out; the first
//!    move alone when it may be all the node searches (most nodes cut
//!    off after it), the rest only if the node goes on ([`Search::pick`]);
//! 4. and, only when every one of those lost, the *late* moves: the next
//!    best cells by static score ([`Search::late_moves`]), each searched
//!    at reduced depth first. A fixed width must be large to see the
//!    defences and small to reach depth; searching further only where the
//!    width found nothing that holds keeps the depth and removes the
//!    "likely wins" that a defence outside the width would refute.

use super::{Search, NO_MOVE};
use crate::eval::{Threat, WIN};
use crate::game::Color;
use crate::threats::Defences;

/// The picker's buffers, reused from node to node so that the search does
/// not allocate: a node's moves, its late moves, and the defences of the
/// nodes on the current path.
#[derive(Clone, Debug)]
pub(super) struct Picker {
    /// Per-ply candidate buffers.
    pub(super) moves: Vec<Vec<(f64, u16)>>,
    /// Per-ply late-move buffers.
    pub(super) late: Vec<Vec<(f64, u16)>>,
    /// The replies that can stop a threat, for proving losses.
    pub(super) defences: Defences,
    /// Those replies at the nodes of the current path, one list above the
    /// other.
    pub(super) extra: Vec<u16>,
    /// Per cell, scratch marks of [`Search::keep_defences`] (all false
    /// between calls).
    marks: Vec<bool>,
}

impl Picker {
    pub(super) fn new(rules: crate::game::Rules) -> Picker {
        Picker {
            moves: Vec::new(),
            late: Vec::new(),
            defences: Defences::new(rules),
            extra: Vec::with_capacity(16 * rules.cells()),
            marks: vec![false; rules.cells()],
        }
    }

    /// Heap bytes of the buffers.
    pub(super) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let lists = |v: &Vec<Vec<(f64, u16)>>| {
            v.iter()
                .map(|b| b.capacity() * size_of::<(f64, u16)>())
                .sum::<usize>()
                + v.capacity() * size_of::<Vec<(f64, u16)>>()
        };
        lists(&self.moves)
            + lists(&self.late)
            + self.defences.heap_bytes()
            + self.extra.capacity() * size_of::<u16>()
            + self.marks.capacity()
    }

    /// Ply `ply`'s move buffer, taken out (put it back when done).
    pub(super) fn take_moves(&mut self, ply: usize) -> Vec<(f64, u16)> {
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
        }
        std::mem::take(&mut self.moves[ply])
    }

    /// Ply `ply`'s late-move buffer, taken out (put it back when done).
    pub(super) fn take_late(&mut self, ply: usize) -> Vec<(f64, u16)> {
        if self.late.len() <= ply {
            self.late.resize_with(ply + 1, Vec::new);
        }
        std::mem::take(&mut self.late[ply])
    }
}

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

/// What [`Search::node_moves`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum NodeMoves {
    /// The moves to search: `forced` when they are the one block of the
    /// opponent's completion cell; `defence` says what the mover faces.
    Search {
        /// The only move blocks the opponent's five.
        forced: bool,
        /// What the mover faces otherwise.
        defence: Defence,
    },
    /// The node's value is known without a search: a loss, or the beta
    /// of a static null move.
    Known(f64),
}

impl Search {
    /// A node's moves, put in `moves`, or its value when that is known
    /// without searching (two completion cells of the opponent, or a
    /// threat with no defence):
    /// - facing one completion cell of the opponent, that cell (forced);
    /// - facing a threat to win in two, exactly its defences
    ///   ([`Search::defend_only`]);
    /// - otherwise the candidates by static score.
    ///
    /// Shared by [`Search::negamax`] and the minimax oracle, so that the
    /// two search the same moves.
    pub(super) fn node_moves(
        &mut self,
        mover: Color,
        moves: &mut Vec<(f64, u16)>,
        ply: u32,
    ) -> NodeMoves {
        self.pick(mover, moves, ply, None, None).0
    }

    /// Completes the moves of a node that [`Search::pick`] gave
    /// only its first move: the same list [`Search::node_moves`] gives.
    /// `first` is the table's move, put first as [`Search::negamax`] puts
    /// it ([`NO_MOVE`] for none).
    pub(super) fn rest_of_moves(&mut self, mover: Color, moves: &mut Vec<(f64, u16)>, first: u16) {
        let given = moves.first().copied();
        self.candidates(mover, moves);
        self.add_fours(mover, moves);
        if first != NO_MOVE {
            if let Some(p) = moves.iter().position(|&(_, c)| c == first) {
                moves[..=p].rotate_right(1);
            }
        }
        debug_assert_eq!(moves.first().copied(), given);
    }

    /// [`Search::node_moves`], and whether `moves` holds only the first
    /// move. With `lazy` (the node's table move, [`NO_MOVE`] for none),
    /// where the mover faces no threat and the node's list is not
    /// remembered, `moves` gets only the move the list would start with:
    /// the table move if it is a candidate ([`Search::is_candidate`]),
    /// else the best cell by static score ([`Search::best_candidate`]);
    /// [`Search::rest_of_moves`] completes the list if the node goes on.
    ///
    /// Most nodes cut off after their first move (seven in ten frontier
    /// nodes in depth-8 games), so a full list was mostly wasted: 6.7%
    /// fewer instructions in depth-8 games (frontier nodes without a
    /// table move only, 3.4%; every node without one, 3.7%).
    ///
    /// With `null` (the node's depth and beta), a node free of threats
    /// that the static null move cuts off ([`Search::static_null`]) is
    /// `Known` as beta before any cell score is read: a third of the nodes
    /// that picked moves in depth-8 games were such cutoffs, and each paid
    /// for the catch-up of the scores ([`crate::eval::Evaluator::score_unscored`])
    /// and for taking it back at the undo: 5.6% fewer instructions in
    /// depth-8 games, 3.5% in depth-4 ones. Measured and dropped: a
    /// forced node of depth 2 or more bringing the scores up to date for
    /// its child, so that the child catches up one move (whose undo copies
    /// the scores back) rather than two (whose undos rescore): 0.26% more.
    #[inline(always)]
    pub(super) fn pick(
        &mut self,
        mover: Color,
        moves: &mut Vec<(f64, u16)>,
        ply: u32,
        lazy: Option<u16>,
        null: Option<(u32, f64)>,
    ) -> (NodeMoves, bool) {
        let opp = mover.opponent();
        if self.eval.can_win_now(opp) {
            self.win_cells(opp, moves, 2);
            if moves.len() >= 2 {
                return (NodeMoves::Known(-(WIN - (ply + 2) as f64)), false);
            }
            let forced = NodeMoves::Search {
                forced: true,
                defence: Defence::Free,
            };
            return (forced, false);
        }
        // The threats are read off the lines, not the cell scores.
        let base = self.picker.extra.len();
        let defence = self.defend_only(mover);
        if defence == Defence::Lost {
            return (NodeMoves::Known(-(WIN - (ply + 4) as f64)), false);
        }
        if defence == Defence::Free {
            if let Some(v) = null.and_then(|(depth, beta)| self.static_null(mover, depth, beta)) {
                return (NodeMoves::Known(v), false);
            }
        }
        // The first read of the cell scores below this node's move.
        self.eval.score_unscored();
        let free = NodeMoves::Search {
            forced: false,
            defence,
        };
        if let Some(first) = lazy.filter(|_| defence == Defence::Free && !self.remembers(mover)) {
            moves.clear();
            if first != NO_MOVE && self.is_candidate(mover, first) {
                moves.push((self.eval.scores(mover)[first as usize], first));
            } else {
                moves.extend(self.best_candidate(mover));
            }
            return (free, true);
        }
        self.candidates(mover, moves);
        if defence == Defence::Only {
            self.keep_defences(mover, moves, base);
        } else {
            self.add_fours(mover, moves);
        }
        (free, false)
    }

    /// Appends the mover's fours that the width left out, best first by
    /// static score: a four is never cut (its reply is forced, so it costs
    /// one narrow line, and a four-three outside the width is a win the
    /// width would miss).
    fn add_fours(&mut self, mover: Color, moves: &mut Vec<(f64, u16)>) {
        let lines = self.eval.lines();
        if !lines.has_threat_cell(mover, Threat::Four) {
            return;
        }
        let kept = moves.len();
        let scores = self.eval.scores(mover);
        for c in lines.threat_cells(mover, Threat::Four) {
            if !moves[..kept].iter().any(|&(_, m)| m as usize == c) {
                moves.push((scores[c], c as u16));
            }
        }
        moves[kept..].sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    }

    /// What the mover faces ([`Defence`]): when the opponent threatens to
    /// win in two (and cannot win at once), its defences
    /// ([`crate::threats`]) are left on `picker.extra` for
    /// [`Search::keep_defences`]. Every other move loses within 4 plies,
    /// so searching it would only cost time. (Testing first for a cell
    /// that wins in two, so that most nodes skip `replies`, took 1.7%
    /// more instructions in depth-8 games: `replies` tests the shape
    /// counts first, which is cheaper.)
    fn defend_only(&mut self, mover: Color) -> Defence {
        let opp = mover.opponent();
        let base = self.picker.extra.len();
        if self
            .picker
            .defences
            .replies(self.eval.lines(), opp, &mut self.picker.extra)
            .is_none()
        {
            return Defence::Free;
        }
        if self.picker.extra.len() == base {
            return Defence::Lost;
        }
        Defence::Only
    }

    /// `moves` becomes the defences that [`Search::defend_only`] left
    /// on `picker.extra` from `base`: the candidates among them first,
    /// then the others by static score.
    ///
    /// By marks per cell (the defences are distinct cells), not by
    /// searching one list for each entry of the other, which took 1.1% of
    /// a depth-8 game's instructions more.
    fn keep_defences(&mut self, mover: Color, moves: &mut Vec<(f64, u16)>, base: usize) {
        let Picker { extra, marks, .. } = &mut self.picker;
        let defences = &extra[base..];
        for &c in defences {
            marks[c as usize] = true;
        }
        moves.retain(|&(_, c)| marks[c as usize]);
        for &(_, c) in moves.iter() {
            marks[c as usize] = false;
        }
        let kept = moves.len();
        let scores = self.eval.scores(mover);
        for &c in defences {
            if std::mem::take(&mut marks[c as usize]) {
                moves.push((scores[c as usize], c));
            }
        }
        moves[kept..].sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        extra.truncate(base);
    }

    /// Fills `out` with the late moves of a node whose `moves` all lost:
    /// the next `limits.late` cells by static score, best first, equal
    /// scores centre-out, leaving out `moves`. Rare (only where the width
    /// found nothing that holds), so a plain selection over every cell.
    pub(super) fn late_moves(&self, mover: Color, moves: &[(f64, u16)], out: &mut Vec<(f64, u16)>) {
        self.next_moves(mover, moves, out, self.limits.late);
    }

    /// Fills `out` with the `late` best cells by static score outside
    /// `moves`, best first, equal scores centre-out.
    pub(super) fn next_moves(
        &self,
        mover: Color,
        moves: &[(f64, u16)],
        out: &mut Vec<(f64, u16)>,
        late: usize,
    ) {
        out.clear();
        if late == 0 {
            return;
        }
        let scores = self.eval.scores(mover);
        out.extend(
            scores
                .iter()
                .enumerate()
                .filter(|&(c, &s)| {
                    s > f64::NEG_INFINITY && !moves.iter().any(|m| m.1 as usize == c)
                })
                .map(|(c, &s)| (s, c as u16)),
        );
        let rank = &self.rank;
        let order = |a: &(f64, u16), b: &(f64, u16)| {
            b.0.total_cmp(&a.0)
                .then(rank[a.1 as usize].cmp(&rank[b.1 as usize]))
        };
        if out.len() > late {
            out.select_nth_unstable_by(late - 1, order);
            out.truncate(late);
        }
        out.sort_unstable_by(order);
    }
}
