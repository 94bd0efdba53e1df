//! The search player: negamax with alpha-beta and iterative deepening over
//! the best few cells by static score, with a transposition table.
//!
//! - Candidates at every node are the `width` empty cells with the highest
//!   static score for the side to move, equal scores taken centre-out, best
//!   first; the table's move for the node goes first. At the root, equal
//!   scores are then ordered by a seeded shuffle, and the next few cells
//!   past the width are root moves too, searched a ply shallower first
//!   ([`params::ROOT_EXTRA`]).
//! - Threats are handled exactly before any heuristic: a side that can
//!   complete k now wins (scored as a win one ply away); a side facing one
//!   completion must block it (the only candidates are the opponent's
//!   winning cells, and two of them lose).
//! - Mate scores are proofs (`search/proofs.rs`): a side facing a threat
//!   to win in two (an open four or a double four to come) searches
//!   exactly its defences ([`crate::threats`]), and a node that lost
//!   against every candidate without such a threat reports a *likely*
//!   loss, shifted below the mate band, never a proven one. Before the
//!   alpha-beta search, threat searches look for the mover's VCF (and VCT,
//!   when the search has a time limit), played at once when found, and
//!   cut the root moves to those that stop the opponent's. A win the
//!   table already proves for the root (stored by the last move's
//!   search) is played at once, before either.
//! - Leaves are valued by [`Evaluator::evaluate`], except that a mover
//!   who can make an open four or a double four, against an opponent who
//!   cannot win at once, wins three plies on, and one who can make a
//!   four-three or a double three, against an opponent with no four to
//!   make, five plies on (`Search::leaf_win`). Wins
//!   are `WIN − ply` so that faster wins score higher; the table stores
//!   them relative to the node so they stay correct when found at another
//!   ply.
//! - A node at the horizon (depth 1) whose mover faces a threat to win
//!   in two searches its defences a ply deeper (a threat extension,
//!   [`params::THREAT_EXTENSION_DEPTH`]), so that the attack's next
//!   threat is seen.
//! - At the horizon, a cheap VCF quiescence (`search/quiescence.rs`): a
//!   move at a node of depth 1 whose leaf value would raise alpha scores
//!   a proven loss when the leaf's mover has a VCF, and such a node that
//!   failed low scores a proven win when its own mover has one; each is
//!   asked only where that side has a four to make, within
//!   [`params::QUIESCENCE_VCF_NODES`] nodes, counted as the search's.
//! - A node of depth 1 or 2 whose mover faces no threat returns beta
//!   unsearched when its static value beats beta by a margin a ply
//!   (static null move, `Search::static_null`; never a mate score).
//! - The table stores each value with its bound type (exact, lower, upper),
//!   so a cutoff is never reused as an exact value (the original program's
//!   defect).
//!
//! Speed: a node's own work (beside the evaluator's play and undo) is
//! mostly choosing its candidates (the `candidates` submodule), done from
//! a floor that only a few cells reach ([`Search::compute_candidates`])
//! rather than by visiting every
//! cell in centre-out order, and remembered by position, since iterative
//! deepening meets most positions again; a node takes its first move
//! alone (the table move or the best cell, [`Search::pick`]) and the
//! rest of its list only if it goes on; the winning cells are looked for
//! only next to stones that could win; the child's table slot is
//! prefetched while the evaluator plays the move; a move whose child is a
//! leaf is not played at all, its leaf read off the evaluator's lines
//! (`Search::leaf_score`: a fifth fewer instructions a search); nor is a
//! move whose child's table entry answers it, and a child that goes on
//! is handed its entry (`search/answered.rs`); a node the static null
//! move cuts off reads no cell score, so its move is played and taken
//! back unscored; nothing is allocated per node or per move.
//! None of it changes which nodes are searched: unit tests compare the
//! candidates and winning cells with plain scans, and `mnk bench`'s
//! signature pins the node count.

use super::tt::{
    available_memory, check_tables, from_tt, table_bytes, to_tt, Bound, Entry, Table, TableError,
    CHECKED_TABLE_BYTES, MATE_BOUND, NO_MOVE, UNPROVEN_BOUND, UNPROVEN_SHIFT,
};
use super::{Player, PlayerError, Rng};
use crate::eval::{Evaluator, Threat, Weights, WIN};
use crate::game::{Board, Color, Move, Outcome};
use crate::threats::ThreatSearch;
use candidates::{groups, Remembered};
use rand::Rng as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod answered;
mod candidates;
mod params;
mod picker;
mod proofs;
mod quiescence;
mod root;
#[cfg(test)]
mod tests;

use answered::Child;
use params::{
    STATIC_NULL_DEPTH, STATIC_NULL_MARGIN, THREAT_EXTENSION_DEPTH, THREAT_EXTENSION_PLIES,
};
use picker::{Defence, NodeMoves, Picker};
use proofs::leaf_win_from;
use root::Root;

/// When to stop searching.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchLimits {
    /// Maximum depth in plies (iterative deepening goes 1, 2, …, depth).
    pub depth: u32,
    /// Candidate moves per node (the best by static score; moves that
    /// answer a threat are never cut).
    pub width: usize,
    /// Further moves by static score searched at a node where every one of
    /// the `width` candidates lost (0: none), at reduced depth first.
    pub late: usize,
    /// Stop after about this many nodes (the last full iteration counts).
    pub nodes: Option<u64>,
    /// Stop after about this long: the hard limit.
    pub time: Option<Duration>,
    /// Start no new iteration after about this long, unless the last one
    /// changed the best move or lowered the score (then up to a few times
    /// this, never past `time`). Set by `mnk brain` when a match clock
    /// makes time saved on one move worth having on the next.
    pub soft_time: Option<Duration>,
    /// log2 of the transposition table's entry count, from
    /// [`SearchLimits::MIN_TT_BITS`] to [`SearchLimits::MAX_TT_BITS`].
    pub tt_bits: u32,
}

impl SearchLimits {
    /// The limits of `hard`, the player people face in `mnk play` and
    /// `mnk serve`: the full engine as `mnk brain` plays it, deepening
    /// until [`SearchLimits::HARD_TIME`] a move (so the root's VCT runs
    /// too). Not reproducible from run to run; training uses depth limits.
    pub fn hard() -> SearchLimits {
        SearchLimits {
            depth: Self::MAX_DEPTH,
            time: Some(Self::HARD_TIME),
            ..SearchLimits::default()
        }
    }

    /// `hard`'s time a move: about what a person waits for a reply
    /// without noticing, and enough for depth 8 to 10 in the middle game.
    pub const HARD_TIME: Duration = Duration::from_millis(1000);

    /// The deepest search a spec may ask for.
    pub const MAX_DEPTH: u32 = 64;

    /// The smallest table: 2^4 entries.
    pub const MIN_TT_BITS: u32 = 4;
    /// The largest table: 2^26 entries, 1.5 GiB per player. A depth-4
    /// search visits thousands of positions a move and the brain's longest
    /// turns fill 2^22, so a larger table only costs memory (each game of a
    /// match runs its own players, two per thread).
    pub const MAX_TT_BITS: u32 = 26;
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            depth: 4,
            width: 9,
            late: 16,
            nodes: None,
            time: None,
            soft_time: None,
            tt_bits: 16,
        }
    }
}

/// What the last search found.
#[derive(Clone, Debug, Default)]
pub struct SearchInfo {
    /// Deepest completed iteration.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// From the mover's view; at or above [`MATE_BOUND`] a forced win, at
    /// or below its negation a forced loss ([`describe_score`] words it).
    ///
    /// [`describe_score`]: super::describe_score
    pub score: f64,
    /// The move chosen; `None` when there was none to choose.
    pub best: Option<Move>,
    /// Time the search took.
    pub elapsed: Duration,
    /// What proved a win or loss score (`None` for an evaluation).
    pub proof: Option<Proof>,
}

/// What proved a mate score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The alpha-beta tree, complete for the losing side.
    Search,
    /// A threat search by continuous fours.
    Vcf,
    /// A threat search by threes and fours.
    Vct,
}

impl std::fmt::Display for Proof {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Proof::Search => "search",
            Proof::Vcf => "vcf",
            Proof::Vct => "vct",
        })
    }
}

/// Negamax alpha-beta player.
#[derive(Clone)]
pub struct Search {
    eval: Evaluator,
    board: Board,
    limits: SearchLimits,
    tt: Table,
    name: String,
    nodes: u64,
    start: Instant,
    stopped: bool,
    /// Set by another thread to cut the search short ([`Player::set_stop`]).
    stop: Option<Arc<AtomicBool>>,
    info: SearchInfo,
    /// The move picker's buffers.
    picker: Picker,
    /// Cells from the centre outwards: among equal static scores the more
    /// central cells become candidates (on an empty board, the centre
    /// rather than the first row).
    centre_out: Vec<u16>,
    /// Each cell's place in `centre_out`, so [`Search::candidates`] can
    /// scan the scores in memory order and still break ties centre-out.
    rank: Vec<u16>,
    /// The groups of the floor of [`Search::candidates`] ([`groups`]).
    groups: usize,
    /// Each cell's move, looked up rather than divided out at every node.
    cell_moves: Vec<Move>,
    /// Candidate lists of positions met before ([`Search::candidates`]).
    remembered: Remembered,
    /// The root's moves, their order and what the threat searches said.
    root: Root,
    /// Threat searches at the root.
    threats: ThreatSearch,
    /// Nodes the root's threat searches may still use (a node limit).
    threat_left: u64,
    /// Whether the static null move ([`Search::static_null`]) and the
    /// threat extension ([`params::THREAT_EXTENSION_DEPTH`]) are on: off
    /// for [`Search::alphabeta_value`], whose minimax oracle has neither.
    prune: bool,
}

/// The name, limits, table and last result: the search's buffers and
/// board are working state.
impl std::fmt::Debug for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("name", &self.name)
            .field("limits", &self.limits)
            .field("tt", &self.tt)
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

impl Search {
    /// A search player; `limits.tt_bits` is clamped to the allowed range.
    /// For tables that may not fit in memory use [`Search::try_new`].
    pub fn new(weights: Weights, limits: SearchLimits) -> Search {
        let bits = clamp_bits(limits.tt_bits);
        Search::with_table(weights, limits, Table::new(bits))
    }

    /// A search player whose table is checked against the memory available
    /// ([`check_tables`]) and allocated without aborting on failure.
    /// `limits.tt_bits` is clamped to the allowed range.
    pub fn try_new(weights: Weights, limits: SearchLimits) -> Result<Search, TableError> {
        let bits = clamp_bits(limits.tt_bits);
        if table_bytes(bits) >= CHECKED_TABLE_BYTES {
            check_tables(&format!("tt={bits}"), &[bits], available_memory())?;
        }
        let tt = Table::try_new(bits)?;
        Ok(Search::with_table(weights, limits, tt))
    }

    fn with_table(weights: Weights, limits: SearchLimits, tt: Table) -> Search {
        let rules = weights.game;
        let centre_out = centre_out(&rules);
        let groups = groups(limits.width, &rules);
        let remembered = Remembered::new(limits.width);
        let mut rank = vec![0; centre_out.len()];
        for (r, &cell) in centre_out.iter().enumerate() {
            rank[cell as usize] = r as u16;
        }
        Search {
            eval: Evaluator::new(weights),
            board: Board::new(rules),
            tt,
            limits,
            name: "search".into(),
            nodes: 0,
            start: Instant::now(),
            stopped: false,
            stop: None,
            info: SearchInfo::default(),
            picker: Picker::new(rules),
            groups,
            cell_moves: (0..rules.cells()).map(|i| rules.move_at(i)).collect(),
            centre_out,
            rank,
            remembered,
            root: Root::default(),
            threats: ThreatSearch::new(rules, params::THREAT_TABLE_BITS),
            threat_left: 0,
            prune: true,
        }
    }

    /// Sets the name shown in reports.
    pub fn named(mut self, name: impl Into<String>) -> Search {
        self.name = name.into();
        self
    }

    /// The limits it searches to.
    pub fn limits(&self) -> &SearchLimits {
        &self.limits
    }

    /// Changes the limits (the table is resized if `tt_bits` changed).
    pub fn set_limits(&mut self, limits: SearchLimits) {
        let bits = clamp_bits(limits.tt_bits);
        if self.tt.len() != 1 << bits {
            self.tt = Table::new(bits);
        }
        self.groups = groups(limits.width, self.board.rules());
        if limits.width != self.limits.width {
            self.remembered = Remembered::new(limits.width);
        }
        self.limits = limits;
    }

    /// What the last `choose` found.
    pub fn info(&self) -> &SearchInfo {
        &self.info
    }

    /// Heap bytes this player owns: its transposition table, evaluator,
    /// board, remembered candidate lists and buffers (the shape table and
    /// the board geometry, shared by every player of a game, are not
    /// counted).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.tt.heap_bytes()
            + self.eval.heap_bytes()
            + self.board.heap_bytes()
            + self.remembered.heap_bytes()
            + self.picker.heap_bytes()
            + self.root.heap_bytes()
            + (self.centre_out.capacity() + self.rank.capacity()) * size_of::<u16>()
            + self.cell_moves.capacity() * size_of::<Move>()
            + self.name.capacity()
            + self.threats.heap_bytes()
    }

    /// Empties the transposition table (by starting a new generation of
    /// entries, so the table is not rewritten).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.threats.clear();
        self.root.claimed = None;
    }

    fn sync(&mut self, board: &Board) {
        if self.board.rules() != board.rules() {
            self.board = Board::new(*board.rules());
        }
        // Replay onto our own board so the search can play and undo.
        let mut n = self.board.ply().min(board.ply());
        while n > 0
            && (self.board.hash_at(n) != board.hash_at(n)
                || self.board.move_at(n - 1) != board.move_at(n - 1))
        {
            n -= 1;
        }
        while self.board.ply() > n {
            self.board.undo();
        }
        for i in n..board.ply() {
            let (m, c) = board.move_at(i);
            let _ = self.board.play_as(m, c);
        }
        self.eval.sync(&self.board);
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
        // Every 64 nodes: a clock read costs far less than 64 nodes, and
        // this function is not called at every node, so a coarser stride
        // lets the search overrun its time by several milliseconds.
        if self.nodes.is_multiple_of(64) {
            if let Some(t) = self.limits.time {
                if self.start.elapsed() >= t {
                    self.stopped = true;
                }
            }
            if let Some(stop) = &self.stop {
                if stop.load(Ordering::Relaxed) {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// The cells where `color` would complete a win, in cell order, up to
    /// `max`: kept by the evaluator's lines as stones are played
    /// ([`crate::eval::Lines::threat_cells`]), not scanned.
    fn win_cells(&self, color: Color, out: &mut Vec<(f64, u16)>, max: usize) {
        out.clear();
        out.extend(
            self.eval
                .lines()
                .threat_cells(color, Threat::Win)
                .take(max)
                .map(|c| (0.0, c as u16)),
        );
    }

    /// Plays `cell` for the side to move; `probed` when the child will be
    /// searched with depth left, so will probe the table (a leaf does
    /// not).
    ///
    /// The cell scores are not updated here: only a node that picks its
    /// moves by them needs them, and it brings them up to date then
    /// ([`Search::node_moves`]). A child answered by its table entry, by a
    /// win, by a forced block or by the static null move never pays for
    /// them, and the undo of a move never scored restores nothing.
    fn play(&mut self, cell: u16, probed: bool) -> Option<Outcome> {
        self.play_known(cell, self.wins_at(cell), probed)
    }

    /// Whether `cell` completes k for the side to move: read off the
    /// evaluator's shapes at the cell (unchanged by a stone on the cell
    /// itself), not scanned.
    #[inline]
    fn wins_at(&self, cell: u16) -> bool {
        let color = self.board.to_move();
        self.eval.lines().wins_at_cell(cell as usize, color)
    }

    /// [`Search::play`] of a move whose win, `wins`, is known.
    #[inline]
    fn play_known(&mut self, cell: u16, wins: bool, probed: bool) -> Option<Outcome> {
        let m = self.cell_moves[cell as usize];
        let (color, hash) = (self.board.to_move(), self.board.hash());
        let o = self.board.play_known(m, wins);
        if probed {
            // The child probes its table slot first thing; fetch it while
            // the evaluator updates (a probe missed the cache often enough
            // to be most of a node's own time). Leaves never probe.
            self.tt.prefetch(self.board.hash());
        }
        self.eval.play_unscored(m, color, hash);
        o
    }

    fn undo(&mut self) {
        self.board.undo();
        self.eval.undo();
    }

    /// The value of a node without searching it, when it has one: a win
    /// if the mover completes k now, else the board value at depth 0 (an
    /// unstoppable opponent threat scored as a loss two plies on).
    #[inline]
    fn static_value(&self, depth: u32, ply: u32) -> Option<f64> {
        let mover = self.board.to_move();
        if self.eval.can_win_now(mover) {
            return Some(WIN - (ply + 1) as f64);
        }
        if depth > 0 {
            return None;
        }
        Some(leaf_value(ply, self.leaf_win(mover), || {
            self.eval.evaluate(mover)
        }))
    }

    fn negamax(&mut self, depth: u32, alpha: f64, beta: f64, ply: u32) -> f64 {
        self.nodes += 1;
        if let Some(v) = self.static_value(depth, ply) {
            return v;
        }
        let key = self.board.hash();
        let entry = self.tt.probe(key);
        self.probed(depth, alpha, beta, ply, key, entry)
    }

    /// [`Search::negamax`] past its static value, of the node whose hash
    /// is `key` and whose table entry is `entry`.
    fn probed(
        &mut self,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
        key: u64,
        entry: Option<Entry>,
    ) -> f64 {
        let mover = self.board.to_move();
        let mut tt_move = NO_MOVE;
        if let Some(e) = entry {
            tt_move = e.best;
            if e.depth as u32 >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut moves = self.picker.take_moves(ply as usize);
        // A node free of threats takes its first move alone, and the rest
        // only if it goes on: most nodes cut off after their first move.
        // The static null move is tried in it, before any cell score is
        // read.
        let null = Some((depth, beta));
        let (forced, defence, mut partial) =
            match self.pick(mover, &mut moves, ply, Some(tt_move), null) {
                (NodeMoves::Search { forced, defence }, partial) => (forced, defence, partial),
                (NodeMoves::Known(v), _) => {
                    self.picker.moves[ply as usize] = moves;
                    return v;
                }
            };
        if !forced && tt_move != NO_MOVE {
            if let Some(p) = moves.iter().position(|&(_, c)| c == tt_move) {
                moves[..=p].rotate_right(1);
            }
        }
        // Facing a threat to win in two at the horizon: the defences are
        // searched a ply deeper ([`THREAT_EXTENSION_DEPTH`]).
        let depth = if self.prune
            && defence == Defence::Only
            && depth <= THREAT_EXTENSION_DEPTH
            && ply < THREAT_EXTENSION_PLIES
        {
            depth + 1
        } else {
            depth
        };
        let alpha0 = alpha;
        let mut node = NodeBest::new(alpha);
        let mut i = 0;
        while let Some(&(_, cell)) = moves.get(i) {
            let score = self.child_score(cell, depth, node.alpha, beta, ply);
            if self.stopped || node.take(score, cell, beta) || self.out_of_budget() {
                break;
            }
            i += 1;
            if partial {
                self.rest_of_moves(mover, &mut moves, tt_move);
                partial = false;
            }
        }
        // A loss settled below counts the moves a full list would have.
        if partial && node.best <= -MATE_BOUND && !self.stopped {
            self.rest_of_moves(mover, &mut moves, tt_move);
        }
        let mut searched = moves.len();
        // Late moves only where every move lost and none cut the node off
        // (a cutoff below the mate bound happens when beta is a loss).
        if node.best <= -MATE_BOUND
            && node.alpha < beta
            && !forced
            && defence == Defence::Free
            && !self.stopped
        {
            let mut late = self.picker.take_late(ply as usize);
            self.late_moves(mover, &moves, &mut late);
            searched += late.len();
            for &(_, cell) in late.iter() {
                let score = self.late_score(cell, depth, node.alpha, beta, ply);
                if self.stopped || node.take(score, cell, beta) || self.out_of_budget() {
                    break;
                }
            }
            self.picker.late[ply as usize] = late;
        }
        let NodeBest {
            mut best,
            mut best_move,
            ..
        } = node;
        // At the horizon, a node that failed low may still win by fours.
        if depth == 1 && best < beta && best < MATE_BOUND && !self.stopped {
            if let Some((v, cell)) = self.own_vcf(mover, ply) {
                (best, best_move) = (v, cell);
            }
        }
        if best <= -MATE_BOUND && !forced && !self.stopped {
            best = self.settle_loss(best, defence, searched, ply);
        }
        self.picker.moves[ply as usize] = moves;
        if best == f64::NEG_INFINITY {
            // No candidate (cannot happen on a non-full board): a draw.
            return 0.0;
        }
        if !self.stopped {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let depth = depth.min(255) as u8;
            self.tt
                .store(key, to_tt(best, ply), best_move, depth, bound);
        }
        best
    }

    /// Static null move (reverse futility pruning): `beta`, cutting the
    /// node off unsearched, when its depth is at most
    /// [`STATIC_NULL_DEPTH`], `beta` is an evaluation (not a mate, proven
    /// or likely) and the static value beats it by [`STATIC_NULL_MARGIN`]
    /// a ply. Only called where the mover faces no threat (no completion
    /// cell of the opponent, no threat to win in two) and cannot win at
    /// once, so the static value is not blind to a forced line. The value
    /// is a bound, never a mate: no proof comes of it.
    ///
    /// Against the search without it, at 100 ms a move (`mnk brains` on
    /// the shipped book): +39.1 ± 30.1 Elo over 232 games (SPRT elo0=0,
    /// elo1=30 accepted H1; seed 401, load 6–7), then +15.6 ± 25.3 over
    /// 400 (seed 406, load 5–6). It saves a fifth of the nodes at depth
    /// 8. Against `ad7d8df` the two score alike (+81.4 ± 26.9 and
    /// +87.8 ± 25.7 over 400 games on the same openings, seed 405; at
    /// 300 ms, +15.6 ± 35.6 and +31.4 ± 36.6 over 200, seed 407). Measured
    /// and left out: up to depth 3, −44.8 ± 47.5 over 156 games against
    /// depth 2 (H0, seed 402). A null move (the mover passes; the
    /// opponent's search, two plies shallower with a null window at beta,
    /// cuts the node if it still fails low), at depth 3 or more, where the
    /// static value beats beta by 1000: +4.3 ± 21.8 over 400 games on top
    /// of this (seed 403, inconclusive). A pass costs the tempo, and in
    /// gomoku a tempo is most of a position's value: without the margin
    /// only one null search in five cut, and the depth-8 bench searched
    /// 9% more nodes, not fewer. The other side of it, razoring (a node of
    /// depth 1 free of threats whose static value is 400 or more below
    /// alpha returns it unsearched): −81.1 ± 58.6 over 96 games against
    /// `96102f9`'s search (seed 506, load 3, SPRT elo0=0, elo1=30
    /// accepted H0). One move can gain more than that.
    #[inline]
    fn static_null(&self, mover: Color, depth: u32, beta: f64) -> Option<f64> {
        if !self.prune || depth > STATIC_NULL_DEPTH || beta.abs() >= UNPROVEN_BOUND {
            return None;
        }
        let stand = self.eval.evaluate(mover);
        let cut = stand.abs() < UNPROVEN_BOUND && stand - STATIC_NULL_MARGIN * depth as f64 >= beta;
        cut.then_some(beta)
    }

    /// The score of move `cell` at a node of `depth` with window
    /// (`alpha`, `beta`): a win or draw it makes, else the child's search.
    ///
    /// Measured and left out (each against the search without it, at
    /// 100 ms a move with `mnk brains` on the shipped book, on a loaded
    /// 2-core machine): late-move reductions of the quiet moves after the
    /// third, re-searched when they beat alpha, −35.7 ± 19.5 Elo over 586
    /// games, though they saved a fifth of the nodes at depth 8; with a
    /// null window for every move after the first (principal variation
    /// search), −19.1 ± 33.9 over 400, the re-searches costing more than
    /// the null windows saved when scores differ by fractions. Killer moves
    /// ahead of the static order searched more nodes, not fewer. A four
    /// extension at the horizon (a depth-1 move that makes a four searched
    /// through its forced block, so that a four-three there is seen),
    /// −6.9 ± 23.0 over 400: it added 7% of nodes to `mnk bench`, and
    /// 100 depth-4 games took 1.9 times the instructions (their games
    /// were a quarter longer: each side defended more), for no gain the
    /// match could see. A *tail* of 7 moves below the width, searched at
    /// every node of depth 2 or more at two plies less and again at full
    /// depth when they beat alpha (and at full depth at the root, a root
    /// of 16), −17.4 ± 24.5 over 400. A history table (cutoffs per side
    /// and cell, depth² each, halved every search) ordering the moves
    /// after the first, the static order among equals: +12.2 ± 21.4 over
    /// 400 on top of the static null move (seed 408, load 2–5; SPRT
    /// elo0=0, elo1=30 inconclusive), with 3% more nodes at depth 8. Null
    /// moves: [`Search::static_null`].
    ///
    /// Measured and left out since, against `96102f9`'s search (same method,
    /// `--sprt elo0=0,elo1=30,model=logistic` unless said): the history table
    /// again, −11.5 ± 30.7 over 212 games (seed 502, load 3–4, H0), so nothing
    /// over the two runs. Internal iterative reduction (a node of depth 4 or
    /// more without a table move searched a ply shallower): −55.7 ± 50.7 over
    /// 132 (seed 503, load 3, H0), though depth-8 games took half the time.
    /// Four more moves past the width at ply 1 (the replies to the root
    /// moves), a ply shallower first and again at full depth when they beat
    /// alpha: −13.0 ± 32.3 over 240 (seed 504, load 3, H0). Six more root
    /// moves past the width (the next best by static score), searched the same
    /// way from depth 3 on: kept after a longer run ([`params::ROOT_EXTRA`]).
    /// A width of 7 at nodes of depth 1 (whose children
    /// are leaves; the table move and the fours kept): +10.4 ± 20.4 over 400
    /// (seed 505, load 2–4, inconclusive), then −27.6 ± 32.9 over 242 (seed
    /// 508, load 3–4, elo1=15, stopped), 3 of its games lost after a `likely
    /// win` claim against none; both together, −31.4 ± 38.6 over 100 (seed
    /// 507, load 3–5, H0). At 100 ms no width schedule measured better than
    /// the fixed width; a width of 10 at `3f5b443`'s search, −1.7 ± 21.3
    /// over 400 (seed 1701, load 1–3). A threat extension (a node of depth 1 facing a threat
    /// to win in two searches its defences a ply deeper): +21.7 ± 24.9 over
    /// 400 (seed 512, load 2–4) and +16.5 ± 16.2 over 800 (seed 513, load
    /// 1–3), both inconclusive, its `likely win` claims followed by a loss in
    /// 5 of 116 games against 2 of 139: kept all the same
    /// ([`params::THREAT_EXTENSION_DEPTH`]).
    fn child_score(&mut self, cell: u16, depth: u32, alpha: f64, beta: f64, ply: u32) -> f64 {
        if depth == 1 {
            if let Some(score) = self.leaf_score(cell, ply) {
                return self.refute_leaf(cell, score, alpha, ply);
            }
        }
        let wins = self.wins_at(cell);
        if depth > 1 && !wins {
            match self.answered(cell, depth, alpha, beta, ply) {
                Child::Answered(score) => return score,
                Child::Probed(key, entry) => {
                    // Neither a win nor a draw; the slot is fetched.
                    let outcome = self.play_known(cell, false, false);
                    debug_assert!(outcome.is_none());
                    debug_assert_eq!(key, self.board.hash());
                    debug_assert!(!self.eval.can_win_now(self.board.to_move()));
                    self.nodes += 1;
                    let score = -self.probed(depth - 1, -beta, -alpha, ply + 1, key, entry);
                    self.undo();
                    return score;
                }
                Child::Unknown => {}
            }
        }
        let score = match self.play_known(cell, wins, depth > 1) {
            Some(Outcome::Win(_)) => WIN - (ply + 1) as f64,
            Some(Outcome::Draw) => 0.0,
            None => -self.negamax(depth - 1, -beta, -alpha, ply + 1),
        };
        self.undo();
        score
    }

    /// The score of move `cell` when its child is a leaf, read off the
    /// evaluator without playing the move ([`Evaluator::peek`]): exactly
    /// what playing it, [`Search::negamax`] at depth 0 and the undo would
    /// give (a win or draw it makes, else the leaf's static value, counted
    /// as a node), at a fraction of the cost, since leaves are most of the
    /// nodes and a play and an undo were most of a leaf's time. `None`
    /// where the evaluator cannot peek (a k whose windows are too long for
    /// a flat table of shapes): play it then.
    fn leaf_score(&mut self, cell: u16, ply: u32) -> Option<f64> {
        let color = self.board.to_move();
        if self.eval.lines().wins_at_cell(cell as usize, color) {
            return Some(WIN - (ply + 1) as f64);
        }
        if self.board.empty_count() == 1 {
            return Some(0.0);
        }
        let peek = self.eval.peek(cell as usize, color)?;
        self.nodes += 1;
        // `static_value` at depth 0 for the leaf's mover, one ply down.
        let (mover, ply) = (color.opponent(), ply + 1);
        let value = if peek.can_win_now(mover) {
            WIN - (ply + 1) as f64
        } else {
            let win = leaf_win_from(
                peek.reply_wins_in_two,
                || peek.reply_wins_in_three,
                peek.can_win_now(color),
            );
            leaf_value(ply, win, || self.eval.evaluate_peek(&peek, mover))
        };
        Some(-value)
    }

    /// The score of late move `cell` at a node of `depth`: searched one ply
    /// shallower first, and again at full depth only if it holds there (a
    /// move that loses at reduced depth is taken to lose).
    fn late_score(&mut self, cell: u16, depth: u32, alpha: f64, beta: f64, ply: u32) -> f64 {
        let child = depth - 1;
        let score = match self.play(cell, child > 0) {
            Some(Outcome::Win(_)) => WIN - (ply + 1) as f64,
            Some(Outcome::Draw) => 0.0,
            None => {
                let mut reduced = -self.negamax(child.saturating_sub(1), -beta, -alpha, ply + 1);
                if child == 0 {
                    reduced = self.refute_played(reduced, alpha, ply);
                }
                if reduced > -MATE_BOUND && child > 0 && !self.stopped {
                    -self.negamax(child, -beta, -alpha, ply + 1)
                } else {
                    reduced
                }
            }
        };
        self.undo();
        score
    }

    /// The value of `board` for the side to move from one alpha-beta search
    /// of exactly `depth` plies with a full window and an empty table. The
    /// differential tests compare it with [`Search::minimax_value`]: every
    /// transposition of a position has the same stone count, so it is met at
    /// the same ply and remaining depth, and a sound table changes nothing.
    pub fn alphabeta_value(&mut self, board: &Board, depth: u32) -> f64 {
        self.clear();
        self.sync(board);
        self.nodes = 0;
        self.stopped = false;
        self.start = Instant::now();
        self.prune = false;
        let v = self.negamax(depth, f64::NEG_INFINITY, f64::INFINITY, 0);
        self.prune = true;
        v
    }

    /// The same value by plain minimax over the same candidates: no
    /// pruning, no table. Slow; the oracle of the differential tests.
    pub fn minimax_value(&mut self, board: &Board, depth: u32) -> f64 {
        self.sync(board);
        self.minimax(depth, 0)
    }

    fn minimax(&mut self, depth: u32, ply: u32) -> f64 {
        let mover = self.board.to_move();
        if let Some(v) = self.static_value(depth, ply) {
            return v;
        }
        let mut moves = Vec::new();
        let (forced, defence) = match self.node_moves(mover, &mut moves, ply) {
            NodeMoves::Search { forced, defence } => (forced, defence),
            NodeMoves::Known(v) => return v,
        };
        let mut best = f64::NEG_INFINITY;
        for &(_, cell) in &moves {
            let score = match self.play(cell, depth > 1) {
                Some(Outcome::Win(_)) => WIN - (ply + 1) as f64,
                Some(Outcome::Draw) => 0.0,
                None => -self.minimax(depth - 1, ply + 1),
            };
            self.undo();
            best = best.max(score);
        }
        let mut searched = moves.len();
        if best <= -MATE_BOUND && !forced && defence == Defence::Free {
            let mut late = Vec::new();
            self.late_moves(mover, &moves, &mut late);
            searched += late.len();
            for &(_, cell) in &late {
                let child = depth - 1;
                let score = match self.play(cell, child > 0) {
                    Some(Outcome::Win(_)) => WIN - (ply + 1) as f64,
                    Some(Outcome::Draw) => 0.0,
                    None => {
                        let reduced = -self.minimax(child.saturating_sub(1), ply + 1);
                        if reduced > -MATE_BOUND && child > 0 {
                            -self.minimax(child, ply + 1)
                        } else {
                            reduced
                        }
                    }
                };
                self.undo();
                best = best.max(score);
            }
        }
        if best <= -MATE_BOUND && !forced {
            best = self.settle_loss(best, defence, searched, ply);
        }
        if best == f64::NEG_INFINITY {
            0.0
        } else {
            best
        }
    }
}

/// The value at `ply` of a leaf whose mover cannot win at once: a win in
/// `win` plies when a threat decides it ([`Search::leaf_win`]), else the
/// board value `evaluate` gives, an unstoppable opponent threat scored as
/// a loss two plies on. One rule for leaves played and leaves read.
#[inline]
fn leaf_value(ply: u32, win: Option<u32>, evaluate: impl FnOnce() -> f64) -> f64 {
    if let Some(plies) = win {
        return WIN - (ply + plies) as f64;
    }
    let v = evaluate();
    if v <= -MATE_BOUND {
        -(WIN - (ply + 2) as f64)
    } else {
        v
    }
}

/// A node's best score and move so far, and its raised alpha.
struct NodeBest {
    best: f64,
    best_move: u16,
    alpha: f64,
}

impl NodeBest {
    fn new(alpha: f64) -> NodeBest {
        NodeBest {
            best: f64::NEG_INFINITY,
            best_move: NO_MOVE,
            alpha,
        }
    }

    /// Takes the score of one move; true when it cuts the node off.
    #[inline]
    fn take(&mut self, score: f64, cell: u16, beta: f64) -> bool {
        if score > self.best {
            self.best = score;
            self.best_move = cell;
        }
        if score > self.alpha {
            self.alpha = score;
        }
        self.alpha >= beta
    }
}

/// Every cell of the board, nearest the centre first (Chebyshev distance,
/// then Euclidean, then row-major order).
fn centre_out(rules: &crate::game::Rules) -> Vec<u16> {
    // The centre in doubled coordinates, exact on even boards too.
    let (cx, cy) = (rules.width as i32 - 1, rules.height as i32 - 1);
    let key = |i: usize| {
        let m = rules.move_at(i);
        let (dx, dy) = ((2 * m.x as i32 - cx).abs(), (2 * m.y as i32 - cy).abs());
        (dx.max(dy), dx * dx + dy * dy, i)
    };
    let mut cells: Vec<usize> = (0..rules.cells()).collect();
    cells.sort_by_key(|&i| key(i));
    cells.into_iter().map(|i| i as u16).collect()
}

fn clamp_bits(bits: u32) -> u32 {
    bits.clamp(SearchLimits::MIN_TT_BITS, SearchLimits::MAX_TT_BITS)
}

impl Player for Search {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, board: &Board, rng: &mut Rng) -> Result<Move, PlayerError> {
        if board.is_over() {
            return Err(PlayerError::GameOver);
        }
        self.sync(board);
        self.search_root(rng).ok_or(PlayerError::GameOver)
    }

    fn new_game(&mut self) {
        self.clear();
    }

    fn search_info(&self) -> Option<&SearchInfo> {
        Some(&self.info)
    }

    fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }
}
