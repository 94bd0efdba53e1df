//! Moves whose child the transposition table answers, scored without
//! playing them ([`Search::answered`]).
//!
//! A child searched with depth left first counts its node, returns a win
//! if its mover can complete k, and then returns its table entry's value
//! when the entry's depth and bound allow. Each child that returned
//! there had cost its parent a play and an undo for nothing (one played
//! child in twenty in depth-8 games). Both things it looked at are known
//! before the play: the child's hash is the board's with the move's
//! stone key, and the child's mover can win at once only at a completion
//! cell of its own other than the move's (a stone takes completion cells
//! away from the opponent, never adds one). A child that goes on is
//! handed its hash and entry, so it does not probe again.
//!
//! Instructions of `mnk --threads 1 match search:depth=D search:depth=D
//! --seed 5 --random-openings` (cachegrind): 2.4% fewer at depth 8
//! (`-n 3`), 1.8% at depth 4 (`-n 20`); answering alone, without the
//! hand-over, saved 1.0% and 0.9%. The same nodes, values and moves.
//!
//! Measured and dropped: answering a late move's reduced search the same
//! way ([`Search::late_score`]) took 0.2% more instructions at depth 8
//! (late moves are rare, and the code around them grew). Reading a late
//! move's leaf without playing it, as `child_score` reads a move's,
//! is not exact: [`Search::refute_leaf`] asks whether the opponent has a
//! four to make before the stone, `refute_played` after it, so a VCF
//! can run (and count its nodes) where it did not (`mnk bench`: 4256
//! search nodes).

use super::*;
use crate::game::stone_key;

/// What [`Search::answered`] found of a move's child.
pub(super) enum Child {
    /// Its score, which its table entry gives: the move need not be played.
    Answered(f64),
    /// It goes on past its table probe: its hash and its entry, if any.
    Probed(u64, Option<Entry>),
    /// Not looked at (the move fills the board, or the child's mover can
    /// win at once): play the move.
    Unknown,
}

impl Search {
    /// The child of move `cell` (not a win) at a node of `depth` (2 or
    /// more: the child probes its table) with window (`alpha`, `beta`):
    /// answered when its table entry gives its value, exactly what playing
    /// the move, [`Search::negamax`]'s return at its probe and the undo
    /// would give, with the child's node counted.
    #[inline]
    pub(super) fn answered(
        &mut self,
        cell: u16,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
    ) -> Child {
        if self.board.empty_count() == 1 {
            return Child::Unknown;
        }
        let color = self.board.to_move();
        let opp = color.opponent();
        // The child's `static_value`: its mover wins at once at any
        // completion cell but this one.
        if self.eval.can_win_now(opp) && !self.only_win_cell(opp, cell) {
            return Child::Unknown;
        }
        let key = self.board.hash() ^ stone_key(color, self.cell_moves[cell as usize]);
        let entry = self.tt.probe(key);
        let Some(e) = entry.filter(|e| e.depth as u32 >= depth - 1) else {
            return Child::Probed(key, entry);
        };
        // The child's window is (−beta, −alpha).
        let s = from_tt(e.score, ply + 1);
        let returns = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= -alpha,
            Bound::Upper => s <= -beta,
        };
        if !returns {
            return Child::Probed(key, entry);
        }
        self.nodes += 1;
        Child::Answered(-s)
    }

    /// Whether `cell` is `color`'s one completion cell.
    fn only_win_cell(&self, color: Color, cell: u16) -> bool {
        let mut cells = self.eval.lines().threat_cells(color, Threat::Win);
        cells.next() == Some(cell as usize) && cells.next().is_none()
    }
}
