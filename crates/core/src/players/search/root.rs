//! The root of a search: its moves and their order, iterative deepening
//! over them, and what a search reports.

use super::params::{
    ROOT_EXTRA, ROOT_EXTRA_REDUCTION, SCORE_DROP, SCORE_DROP_STRETCH, SOFT_START_SHARE,
    UNSTABLE_MOVE_STRETCH,
};
use super::*;

impl Search {
    /// Searches the current position to the limits and returns the best move.
    pub(super) fn search_root(&mut self, rng: &mut Rng) -> Option<Move> {
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.tt.new_search();
        // A win now: no search needed.
        if let Some(cell) = self.winning_move() {
            return self.report(1, 1, WIN - 1.0, cell, Some(Proof::Search));
        }
        if !self.order_root(rng) {
            return None;
        }
        // A win the table already proves: played at once, before a root
        // cut could drop it.
        if let Some((cell, score)) = self.table_win() {
            return self.report(0, 0, score, cell, Some(Proof::Search));
        }
        // A win by threats: played at once, as proven.
        let (threat_nodes, win) = self.root_threats();
        if let Some((cell, plies, proof)) = win {
            return self.report(0, threat_nodes, WIN - plies as f64, cell, Some(proof));
        }
        // The threat searches count against a node limit.
        self.nodes = threat_nodes;
        let mut order = std::mem::take(&mut self.root.order);
        let (depth, score, best) = self.iterate(&mut order);
        self.root.order = order;
        let proof = (score.abs() >= MATE_BOUND).then_some(Proof::Search);
        self.report(depth, self.nodes, score, best, proof)
    }

    /// Records what the search found in [`Search::info`] (the time taken
    /// too) and returns its move, `best`.
    fn report(
        &mut self,
        depth: u32,
        nodes: u64,
        score: f64,
        best: u16,
        proof: Option<Proof>,
    ) -> Option<Move> {
        let won = score >= MATE_BOUND && proof.is_some();
        self.root.claimed = won.then_some(self.board.ply());
        self.info = SearchInfo {
            depth,
            nodes,
            score,
            best: Some(self.board.rules().move_at(best as usize)),
            elapsed: self.start.elapsed(),
            proof,
        };
        self.info.best
    }

    /// The move and score of a win that the table proves for the root
    /// position, if it holds one: an earlier search (usually the last
    /// move's, which looked past the opponent's reply) stored a mate
    /// score, a proof ([`MATE_BOUND`]), with its move. Without it, a win
    /// proven on one move could be lost on the next: the root's threat
    /// searches may not re-find it in their share of a short turn, and
    /// their cut to the moves that stop the opponent's threat can drop
    /// the winning move, which no interior node would (seen at 100 ms a
    /// move: a win in 15 claimed, then a quiet move, then a loss).
    fn table_win(&self) -> Option<(u16, f64)> {
        let e = self.tt.probe(self.board.hash())?;
        let score = from_tt(e.score, 0);
        let proven = score >= MATE_BOUND && e.bound != Bound::Upper;
        let playable = e.best != NO_MOVE && self.board.cells().get(e.best as usize)?.is_empty();
        (proven && playable).then_some((e.best, score))
    }

    /// A cell where the side to move completes k now, if there is one.
    fn winning_move(&mut self) -> Option<u16> {
        let mut cells = std::mem::take(&mut self.root.cells);
        self.win_cells(self.board.to_move(), &mut cells, 1);
        let cell = cells.first().map(|&(_, c)| c);
        self.root.cells = cells;
        cell
    }

    /// Puts in `self.root.order` the root moves in the order the first iteration
    /// searches them: the candidates by static score, equal scores in a
    /// seeded shuffle; or, when the opponent threatens to complete k, every
    /// cell that blocks it (the shuffle still draws from `rng`, so the
    /// stream does not depend on the threat). False when there is no
    /// candidate. The buffers are the player's, reused from move to move.
    fn order_root(&mut self, rng: &mut Rng) -> bool {
        let mover = self.board.to_move();
        let mut root = std::mem::take(&mut self.root.cells);
        self.candidates(mover, &mut root);
        if root.is_empty() {
            self.root.cells = root;
            return false;
        }
        self.root.keyed.clear();
        self.root
            .keyed
            .extend(root.iter().map(|&(s, c)| (s, rng.gen::<u64>(), c)));
        self.root
            .keyed
            .sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        self.root.order.clear();
        self.root.cut = false;
        let opp = mover.opponent();
        if self.eval.can_win_now(opp) {
            self.win_cells(opp, &mut root, usize::MAX);
            self.root.order.extend(root.iter().map(|b| b.1));
            self.root.complete = true;
        } else {
            self.root.order.extend(self.root.keyed.iter().map(|k| k.2));
            // Against a threat to win in two, every defence is a root
            // move, so that a loss against all of them is proven.
            let mut extra = std::mem::take(&mut self.picker.extra);
            extra.clear();
            let threatened = self
                .picker
                .defences
                .replies(self.eval.lines(), opp, &mut extra)
                .is_some();
            for &cell in &extra {
                if !self.root.order.contains(&cell) {
                    self.root.order.push(cell);
                }
            }
            extra.clear();
            self.picker.extra = extra;
            // Past the width, a few more moves ([`ROOT_EXTRA`]).
            self.root.extra.clear();
            if !threatened {
                let mut late = std::mem::take(&mut self.root.late);
                root.clear();
                root.extend(self.root.order.iter().map(|&c| (0.0, c)));
                self.next_moves(mover, &root, &mut late, ROOT_EXTRA);
                self.root.extra.extend(late.iter().map(|&(_, c)| c));
                self.root.order.extend_from_slice(&self.root.extra);
                self.root.late = late;
            }
            self.root.complete = threatened || self.root.order.len() == self.board.empty_count();
        }
        self.root.cells = root;
        true
    }

    /// Iterative deepening over the root moves `order` (not empty), best
    /// move of each iteration first in the next. Returns the deepest
    /// completed depth with its score and move; depth 1 always completes,
    /// so there is always a move.
    ///
    /// When an iteration finds every root move lost and the order is
    /// neither complete nor cut to the stops of a threat, the root's late
    /// moves ([`Search::late_moves`]) join the order and the iteration is
    /// searched again (once): a defence outside the width is looked for
    /// before the root settles for a likely loss.
    ///
    /// Measured and left out: after each completed iteration, the root
    /// moves sorted by their scores in it (as Stockfish sorts its root
    /// moves) rather than only the best moved to the front, so that an
    /// iteration cut by the clock finishes the likelier moves first:
    /// +1.0 ± 13.7 Elo over 1,000 games at 100 ms against the search
    /// without it (pentanomial [49, 4, 391, 7, 49]; `mnk brains` on the
    /// shipped book, `--sprt elo0=0,elo1=15,model=logistic` inconclusive,
    /// LLR −1.97; seed 603, load 4–6). The moves after the first are
    /// searched against the best's score and fail low, so their scores
    /// are bounds that order little.
    fn iterate(&mut self, order: &mut Vec<u16>) -> (u32, f64, u16) {
        let mut best_move = order[0];
        let mut best_score = f64::NEG_INFINITY;
        let mut completed = 0;
        let mut widened = false;
        // The score and move of the last completed iteration.
        let mut last = (f64::NEG_INFINITY, best_move);
        let mut depth = 0;
        while depth < self.limits.depth.max(1) {
            depth += 1;
            let mut alpha = f64::NEG_INFINITY;
            let mut iter_best = (f64::NEG_INFINITY, order[0]);
            for &cell in order.iter() {
                let score = self.root_score(cell, depth, alpha);
                if self.stopped && depth > 1 {
                    break;
                }
                if score > iter_best.0 {
                    iter_best = (score, cell);
                }
                alpha = alpha.max(score);
                if depth > 1 && self.out_of_budget() {
                    break;
                }
            }
            if self.stopped && depth > 1 {
                // The moves searched to the end before the stop are
                // compared at this depth, the previous best among them
                // (it goes first): the best of them is the better choice.
                // A loss among them is not a loss against every move.
                if iter_best.0 > -MATE_BOUND {
                    (best_score, best_move) = iter_best;
                }
                break;
            }
            (best_score, best_move) = iter_best;
            if best_score <= -MATE_BOUND
                && !self.root.complete
                && !self.root.cut
                && !widened
                && self.widen_root(order)
            {
                widened = true;
                depth -= 1;
                continue;
            }
            if best_score <= -MATE_BOUND && !self.root.complete {
                best_score += UNPROVEN_SHIFT;
            }
            let previous = (completed, last);
            completed = depth;
            last = (best_score, best_move);
            if let Some(p) = order.iter().position(|&c| c == best_move) {
                order[..=p].rotate_right(1);
            }
            if previous.0 > 0 && self.soft_time_spent(previous.1, last) {
                break;
            }
            // A proven score, or a move that is forced: more depth
            // cannot change the move.
            if best_score >= MATE_BOUND
                || best_score <= -MATE_BOUND
                || order.len() == 1
                || self.out_of_budget()
            {
                break;
            }
        }
        (completed, best_score, best_move)
    }

    /// The score of root move `cell` at `depth` against the best so far,
    /// `alpha`: a move past the width ([`ROOT_EXTRA`]) is searched
    /// [`ROOT_EXTRA_REDUCTION`] plies shallower first from depth 3 on,
    /// and again at full depth only if it beats `alpha` there (a move
    /// that loses at reduced depth is taken to lose, as a late move is).
    fn root_score(&mut self, cell: u16, depth: u32, alpha: f64) -> f64 {
        let r = ROOT_EXTRA_REDUCTION;
        if depth > r + 1 && self.root.extra.contains(&cell) {
            let reduced = self.child_score(cell, depth - r, alpha, f64::INFINITY, 0);
            if reduced <= alpha || self.stopped {
                return reduced;
            }
        }
        self.child_score(cell, depth, alpha, f64::INFINITY, 0)
    }

    /// Whether, with a soft time limit, the search should start no new
    /// iteration: past [`SOFT_START_SHARE`] of the soft limit, stretched
    /// when the iteration just completed (`now`, as (score, move)) changed
    /// the best move of the one before (`before`) or lowered its score.
    fn soft_time_spent(&self, before: (f64, u16), now: (f64, u16)) -> bool {
        let Some(soft) = self.limits.soft_time else {
            return false;
        };
        let mut target = soft.as_secs_f64();
        if now.1 != before.1 {
            target *= UNSTABLE_MOVE_STRETCH;
        }
        if now.0 < before.0 - SCORE_DROP {
            target *= SCORE_DROP_STRETCH;
        }
        self.start.elapsed().as_secs_f64() >= SOFT_START_SHARE * target
    }

    /// Adds the root's late moves to `order`; false if there were none.
    fn widen_root(&mut self, order: &mut Vec<u16>) -> bool {
        let mover = self.board.to_move();
        let searched: Vec<(f64, u16)> = order.iter().map(|&c| (0.0, c)).collect();
        let mut late = Vec::new();
        self.late_moves(mover, &searched, &mut late);
        order.extend(late.iter().map(|&(_, c)| c));
        self.root.complete = order.len() == self.board.empty_count();
        !late.is_empty()
    }
}

/// The root's moves and what is known of them, kept from move to move so
/// that their buffers are reused.
#[derive(Clone, Debug, Default)]
pub(super) struct Root {
    /// The root candidates by static score.
    pub(super) cells: Vec<(f64, u16)>,
    /// Those with their shuffle keys.
    pub(super) keyed: Vec<(f64, u64, u16)>,
    /// The moves the iterations search, in order.
    pub(super) order: Vec<u16>,
    /// Whether the order holds every move that can hold (so a loss against
    /// all of them is proven).
    pub(super) complete: bool,
    /// Whether the order was cut to the moves that stop the opponent's
    /// threat (the others lose to it, and are never searched again).
    pub(super) cut: bool,
    /// The board ply of the last root whose search claimed a proven win
    /// for its mover (cleared by any other result and by a new game).
    pub(super) claimed: Option<usize>,
    /// The root moves past the width ([`ROOT_EXTRA`]), searched at
    /// reduced depth first.
    pub(super) extra: Vec<u16>,
    /// A buffer for them.
    pub(super) late: Vec<(f64, u16)>,
}

impl Root {
    /// Whether this side claimed a proven win on its last move, the root
    /// two plies back: the win is almost surely still there, and losing it
    /// costs the game, so the root's own threat search gets more time.
    pub(super) fn claimed_last_move(&self, ply: usize) -> bool {
        self.claimed.is_some_and(|c| c + 2 == ply)
    }

    /// Heap bytes of the buffers.
    pub(super) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.cells.capacity() * size_of::<(f64, u16)>()
            + self.keyed.capacity() * size_of::<(f64, u64, u16)>()
            + self.order.capacity() * size_of::<u16>()
            + self.extra.capacity() * size_of::<u16>()
            + self.late.capacity() * size_of::<(f64, u16)>()
    }
}
