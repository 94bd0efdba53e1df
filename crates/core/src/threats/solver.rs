//! The threat search itself: an AND/OR search over the attacker's threats
//! and every reply that can hold, with a table of solved positions.

use super::defence::{is_empty, makes, may_make_fours, win_cells, Defences, DIRS};
use crate::eval::shape::{pair_shape, radius};
use crate::eval::{Evaluator, Lines, Shape, Threat};
use crate::game::{stone_key, Color, Move, Rules};
use std::fmt;
use std::str::FromStr;

/// Which threats the attacker may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Fours only: victory by continuous fours.
    Vcf,
    /// Fours and threes: victory by continuous threats.
    Vct,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Vcf => "vcf",
            Mode::Vct => "vct",
        })
    }
}

/// A threat-search mode that is neither `vcf` nor `vct`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown threat search '{0}' (expected vcf or vct)")]
pub struct ModeParseError(pub String);

impl FromStr for Mode {
    type Err = ModeParseError;
    fn from_str(s: &str) -> Result<Mode, ModeParseError> {
        match s.to_ascii_lowercase().as_str() {
            "vcf" => Ok(Mode::Vcf),
            "vct" => Ok(Mode::Vct),
            _ => Err(ModeParseError(s.into())),
        }
    }
}

/// What a threat search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker wins `plies` plies from now at the latest, whatever
    /// the defender does, starting with `first`.
    Win {
        /// The attacker's first move.
        first: Move,
        /// Plies to the win (both sides' moves), the defender's longest
        /// resistance.
        plies: u32,
    },
    /// No such win: every sequence of threats is refuted (within the
    /// depth, for a depth-limited VCT).
    NoWin,
    /// The node budget ran out first.
    Unknown,
}

impl Verdict {
    /// Whether this is a proven win.
    pub fn is_win(&self) -> bool {
        matches!(self, Verdict::Win { .. })
    }
}

/// A node's result inside the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum R {
    Win(u32),
    NoWin,
    Unknown,
}

/// A table entry: a solved attacker-to-move position.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    /// 0 empty, 1 win, 2 no win.
    result: u8,
    /// For a win, plies to it; for no win, the depth it holds to.
    plies: u8,
    /// For a win, the attacker's move.
    best: u16,
    /// For no win, the attacker moves it was searched to.
    depth: u8,
    /// The table's generation when stored.
    generation: u16,
}

const EMPTY: u8 = 0;
const WIN: u8 = 1;
const NO_WIN: u8 = 2;

/// Depth that never runs out (VCF needs none).
const UNLIMITED: u32 = u8::MAX as u32;

/// The threat searcher: its table and scratch space. It searches on the
/// caller's [`Evaluator`] (moves played without rescoring, and all taken
/// back), so inside the main search it costs no copy of the position.
#[derive(Clone, Debug)]
pub struct ThreatSearch {
    rules: Rules,
    /// The line windows' radius.
    radius: usize,
    /// The move at each cell: a play and an undo each need one (for the
    /// evaluator and the stone's key), and a cell's coordinates took a
    /// division.
    moves: Vec<Move>,
    table: Vec<Entry>,
    defences: Defences,
    /// The move lists of the nodes on the current path, one above the
    /// other (a flat stack: no allocation per node, and none from game to
    /// game once it has the room).
    stack: Vec<u16>,
    wins: Vec<u16>,
    hash: u64,
    mode: Mode,
    nodes: u64,
    budget: u64,
    aborted: bool,
    /// The attacker-move depth of the last [`ThreatSearch::solve`].
    depth: u32,
    /// Mixed into every key: changed by [`ThreatSearch::clear`], so that
    /// older entries stop matching without rewriting the table.
    era: u64,
    /// Counts clears: entries of older generations count as empty.
    generation: u16,
    /// Stop when this time has passed, checked at the start of each
    /// search and every 256 nodes counted over all searches.
    deadline: Option<std::time::Instant>,
    /// Nodes over all searches, for the deadline's stride.
    total: u64,
}

impl ThreatSearch {
    /// A searcher for `rules` with a table of 2^`bits` entries (16 bytes
    /// each).
    pub fn new(rules: Rules, bits: u32) -> ThreatSearch {
        ThreatSearch {
            rules,
            radius: radius(rules.k, rules.rule),
            moves: (0..rules.cells()).map(|c| rules.move_at(c)).collect(),
            table: vec![Entry::default(); 1 << bits.clamp(4, 26)],
            defences: Defences::new(rules),
            stack: Vec::with_capacity(16 * rules.cells()),
            wins: Vec::with_capacity(rules.cells()),
            hash: 0,
            mode: Mode::Vcf,
            nodes: 0,
            budget: 0,
            aborted: false,
            depth: UNLIMITED,
            era: 0,
            generation: 0,
            deadline: None,
            total: 0,
        }
    }

    /// The game it searches.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Nodes of the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Heap bytes: the table, the cells' moves and scratch space.
    pub fn heap_bytes(&self) -> usize {
        self.table.capacity() * std::mem::size_of::<Entry>()
            + (self.stack.capacity() + self.wins.capacity()) * std::mem::size_of::<u16>()
            + self.moves.capacity() * std::mem::size_of::<Move>()
            + self.defences.heap_bytes()
    }

    /// Forgets every solved position.
    pub fn clear(&mut self) {
        // A new generation and key salt: older entries stop matching
        // without the table being rewritten, except once when the
        // generation wraps, so that no entry outlives 65,536 clears.
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.fill(Entry::default());
        }
        self.era = crate::game::splitmix64(u64::from(self.generation)).1;
    }

    /// Can `attacker` win by `mode` threats in the position of `eval`
    /// (whose board hash is `hash`), as if it were to move? `depth` bounds
    /// the attacker's moves for VCT (VCF has no bound); `budget` the nodes.
    ///
    /// # Panics
    /// If `eval` is not for this searcher's game.
    pub fn solve(
        &mut self,
        eval: &mut Evaluator,
        hash: u64,
        attacker: Color,
        mode: Mode,
        depth: u32,
        budget: u64,
    ) -> Verdict {
        assert_eq!(
            eval.rules(),
            &self.rules,
            "a threat search for another game"
        );
        self.hash = hash;
        self.mode = mode;
        self.nodes = 0;
        self.budget = budget;
        self.aborted = false;
        if self.deadline_passed() {
            return Verdict::Unknown;
        }
        // VCT deepens one attacker move at a time: short wins are found
        // first and cheaply, and each depth's refutations are in the table
        // for the next.
        let depths = match mode {
            Mode::Vcf => UNLIMITED..=UNLIMITED,
            Mode::Vct => 1..=depth.clamp(1, UNLIMITED - 1),
        };
        let mut found = R::NoWin;
        for d in depths {
            self.depth = d;
            found = self.attack(eval, attacker, 0, d);
            if found != R::NoWin {
                break;
            }
        }
        match found {
            R::Win(plies) => {
                let first = self.first_move(eval, attacker).expect("a win has a move");
                Verdict::Win {
                    first: self.rules.move_at(first as usize),
                    plies,
                }
            }
            R::NoWin => Verdict::NoWin,
            R::Unknown => Verdict::Unknown,
        }
    }

    /// The main line of a win [`ThreatSearch::solve`] just found (from
    /// the same position): the attacker's moves and the defender's
    /// replies, the longest-resisting reply where there is a choice, up to
    /// the winning move. Empty if the position is not a win.
    pub fn line(&mut self, eval: &mut Evaluator, hash: u64, attacker: Color) -> Vec<Move> {
        self.hash = hash;
        let mut line = Vec::new();
        let defender = attacker.opponent();
        let mut replies = Vec::new();
        // Each step is solved again to the full depth: a win from the
        // table may rest on a deeper search than the depth left.
        let depth = self.depth;
        loop {
            // The attacker's move (solved again if the table lost it).
            let mut first = self.first_move(eval, attacker);
            if first.is_none() {
                self.aborted = false;
                self.budget = self.nodes + 1_000_000;
                self.attack(eval, attacker, 0, depth);
                first = self.first_move(eval, attacker);
            }
            let Some(a) = first else {
                break;
            };
            let won = eval.lines().wins_at_cell(a as usize, attacker);
            self.play(eval, a, attacker);
            line.push(a);
            if won || line.len() > self.rules.cells() {
                break;
            }
            // The defender's reply: forced, or the one resisting longest.
            win_cells(eval.lines(), attacker, &mut self.wins, 2);
            let reply = match self.wins.first() {
                Some(&w) => Some(w),
                None => self.longest_reply(eval, attacker, depth, &mut replies),
            };
            let Some(r) = reply else {
                break;
            };
            self.play(eval, r, defender);
            line.push(r);
        }
        for (i, &c) in line.iter().enumerate().rev() {
            let color = if i % 2 == 0 { attacker } else { defender };
            self.undo(eval, c, color);
        }
        line.into_iter()
            .map(|c| self.rules.move_at(c as usize))
            .collect()
    }

    /// The defender's reply to a three in a won line that resists longest
    /// (`None` if no threat is pending, or none could be solved again).
    fn longest_reply(
        &mut self,
        eval: &mut Evaluator,
        attacker: Color,
        depth: u32,
        replies: &mut Vec<u16>,
    ) -> Option<u16> {
        replies.clear();
        self.defences.replies(eval.lines(), attacker, replies)?;
        if replies.is_empty() {
            // Every reply loses: show one of them.
            replies.extend(
                (0..self.rules.cells())
                    .filter(|&c| is_empty(eval.lines(), c))
                    .map(|c| c as u16),
            );
        }
        let defender = attacker.opponent();
        let mut best: Option<(u32, u16)> = None;
        for &r in replies.iter() {
            self.play(eval, r, defender);
            self.aborted = false;
            self.budget = self.nodes + 1_000_000;
            let res = self.attack(eval, attacker, 0, depth);
            self.undo(eval, r, defender);
            if let R::Win(p) = res {
                if best.is_none_or(|(bp, _)| p > bp) {
                    best = Some((p, r));
                }
            }
        }
        best.map(|(_, r)| r)
    }

    /// The attacker's winning move in a position solved as a win: a cell
    /// completing k, or the table's move.
    fn first_move(&mut self, eval: &mut Evaluator, attacker: Color) -> Option<u16> {
        win_cells(eval.lines(), attacker, &mut self.wins, 1);
        if let Some(&w) = self.wins.first() {
            return Some(w);
        }
        let e = self.probe(attacker)?;
        (e.result == WIN).then_some(e.best)
    }

    /// Whether the deadline has passed (read every 256 nodes).
    fn past_deadline(&mut self) -> bool {
        self.total += 1;
        self.total.is_multiple_of(256) && self.deadline_passed()
    }

    fn deadline_passed(&self) -> bool {
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
    }

    /// Sets a time after which searches give up (as for an exhausted
    /// budget), or none.
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }

    fn key(&self, attacker: Color) -> u64 {
        self.key_at(self.hash, attacker)
    }

    /// The table key of the position of board hash `hash`.
    #[inline]
    fn key_at(&self, hash: u64, attacker: Color) -> u64 {
        const SALT: [[u64; 2]; 2] = [
            [0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344],
            [0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89],
        ];
        hash ^ self.era ^ SALT[self.mode as usize][attacker.index()]
    }

    fn probe(&self, attacker: Color) -> Option<Entry> {
        self.probe_at(self.key(attacker))
    }

    /// The table's entry under `key`, if any.
    #[inline]
    fn probe_at(&self, key: u64) -> Option<Entry> {
        let e = self.table[key as usize & (self.table.len() - 1)];
        (e.result != EMPTY && e.key == key).then_some(e)
    }

    /// Stores a solved position. A win is never replaced by a no-win: the
    /// wins are what [`ThreatSearch::line`] walks again, and a lost one
    /// must be searched anew.
    fn store(&mut self, attacker: Color, e: Entry) {
        let key = self.key(attacker);
        let len = self.table.len();
        let slot = &mut self.table[key as usize & (len - 1)];
        if slot.result == WIN
            && slot.generation == self.generation
            && e.result == NO_WIN
            && slot.key != key
        {
            return;
        }
        *slot = Entry {
            key,
            generation: self.generation,
            ..e
        };
    }

    /// Stores the position as no win for `attacker` to `depth`.
    fn store_no_win(&mut self, attacker: Color, depth: u32) {
        self.store(
            attacker,
            Entry {
                key: 0,
                result: NO_WIN,
                plies: 0,
                depth: depth as u8,
                ..Entry::default()
            },
        );
    }

    fn play(&mut self, eval: &mut Evaluator, cell: u16, color: Color) {
        let m = self.moves[cell as usize];
        eval.play_unscored(m, color, self.hash);
        self.hash ^= stone_key(color, m);
    }

    fn undo(&mut self, eval: &mut Evaluator, cell: u16, color: Color) {
        eval.undo();
        self.hash ^= stone_key(color, self.moves[cell as usize]);
    }

    /// The attacker to move: a win if some threat wins against every reply.
    fn attack(&mut self, eval: &mut Evaluator, a: Color, ply: usize, depth: u32) -> R {
        self.nodes += 1;
        if self.aborted || self.nodes > self.budget || self.past_deadline() {
            self.aborted = true;
            return R::Unknown;
        }
        if eval.lines().can_win_now(a) {
            return R::Win(1);
        }
        if let Some(e) = self.probe(a) {
            if e.result == WIN {
                return R::Win(e.plies as u32);
            }
            if e.depth as u32 >= depth {
                return R::NoWin;
            }
        }
        if depth == 0 {
            return R::NoWin;
        }
        let d = a.opponent();
        let base = self.stack.len();
        if eval.lines().can_win_now(d) {
            // The defender threatens to win: the attacker must block (two
            // such cells cannot both be blocked).
            win_cells(eval.lines(), d, &mut self.wins, 2);
            if self.wins.len() == 1 {
                self.stack.push(self.wins[0]);
            }
        } else {
            self.threats(eval, a);
        }
        let end = self.stack.len();
        let next = if depth == UNLIMITED { depth } else { depth - 1 };
        let mut result = R::NoWin;
        let mut best = 0;
        for i in base..end {
            let m = self.stack[i];
            let r = match self.four_unplayed(eval, a, m, next) {
                Some(r) => r,
                None => {
                    self.play(eval, m, a);
                    let r = self.defend(eval, a, ply + 1, next);
                    self.undo(eval, m, a);
                    r
                }
            };
            match r {
                R::Win(p) => {
                    result = R::Win(p + 1);
                    best = m;
                    break;
                }
                R::Unknown => {
                    result = R::Unknown;
                    if self.aborted {
                        break;
                    }
                }
                R::NoWin => {}
            }
        }
        self.stack.truncate(base);
        match result {
            R::Win(p) => self.store(
                a,
                Entry {
                    key: 0,
                    result: WIN,
                    plies: p.min(255) as u8,
                    best,
                    ..Entry::default()
                },
            ),
            R::NoWin => self.store_no_win(a, depth),
            R::Unknown => {}
        }
        result
    }

    /// The attacker's threats in the position, most forcing first: moves
    /// that win in two (open or double fours), then fours with a three,
    /// fours, and (VCT) threes.
    /// They are pushed on the stack, each class in cell order.
    fn threats(&mut self, eval: &Evaluator, a: Color) {
        let lines = eval.lines();
        let base = self.stack.len();
        let vct = self.mode == Mode::Vct;
        if !vct && !may_make_fours(lines, a) {
            return;
        }
        let class_of = |cell: usize| {
            if !is_empty(lines, cell) {
                return None;
            }
            let mk = makes(lines, cell, a);
            if mk.wins_in_two() {
                Some(0)
            } else if mk.fours > 0 && mk.threes > 0 {
                Some(1)
            } else if mk.fours > 0 {
                Some(2)
            } else if vct && mk.threes > 0 {
                Some(3)
            } else {
                None
            }
        };
        if vct {
            // Only cells whose counts name some threat for the attacker
            // can make one: most cells are skipped on one load.
            let shift = 16 * a.index() as u32;
            for (cell, &sum) in lines.threat_sums().iter().enumerate() {
                if (sum >> shift) as u16 == 0 {
                    continue;
                }
                if let Some(c) = class_of(cell) {
                    self.stack.push(((c as u16) << 12) | cell as u16);
                }
            }
        } else {
            // Every VCF class makes a four: only the cells kept as making
            // one are looked at (in the same cell order).
            for cell in lines.threat_cells(a, Threat::Four) {
                if let Some(c) = class_of(cell) {
                    self.stack.push(((c as u16) << 12) | cell as u16);
                }
            }
        }
        // Boards have at most 26 × 26 cells, under 2^12: the class sorts
        // in the top bits.
        self.stack[base..].sort_unstable();
        for m in &mut self.stack[base..] {
            *m &= 0x0FFF;
        }
    }

    /// [`ThreatSearch::defend`]'s result after the attacker's move `m`,
    /// when it follows without playing `m` (else `None`): `m` makes an
    /// open or a double four (two completion cells: a win in two), or it
    /// makes one four and the table answers for the position after it and
    /// its forced block, which `attack` would read first thing after
    /// counting its node (the attacker then has no cell completing k: a
    /// block fills its only one, and a defender's stone makes none). The
    /// defender cannot win at once after `m` in either case: `attack` tries
    /// only the block where it could before, and a stone never gives the
    /// opponent a threat. At `depth` 0 the table is all the reply's value
    /// ([`ThreatSearch::reply_value`]). Where the table has no answer, a
    /// VCF's pair after which the attacker has no move
    /// ([`ThreatSearch::pair_ends`]) is stored as the no-win `attack`
    /// would store. Results, node counts and the table are exactly those
    /// of playing `m` and the block, without either.
    #[inline]
    fn four_unplayed(&mut self, eval: &mut Evaluator, a: Color, m: u16, depth: u32) -> Option<R> {
        let lines = eval.lines();
        let mk = makes(lines, m as usize, a);
        if mk.fours == 0 {
            return None;
        }
        if mk.wins_in_two() {
            #[cfg(debug_assertions)]
            self.check_four(eval, a, m, usize::MAX);
            return Some(R::Win(2));
        }
        let c = lines.four_completion(m as usize, a)?;
        let d = a.opponent();
        #[cfg(debug_assertions)]
        self.check_four(eval, a, m, c);
        let after = self.hash ^ stone_key(a, self.moves[m as usize]) ^ stone_key(d, self.moves[c]);
        let mut ends = false;
        let known = match self.probe_at(self.key_at(after, a)) {
            Some(e) if e.result == WIN => R::Win(e.plies as u32 + 1),
            Some(e) if e.depth as u32 >= depth => R::NoWin,
            _ if depth == 0 => R::NoWin,
            _ if self.mode == Mode::Vcf && self.pair_ends(eval.lines(), a, m, c) => {
                #[cfg(debug_assertions)]
                {
                    self.play(eval, m, a);
                    self.check_no_move(eval, a, c as u16);
                    self.undo(eval, m, a);
                }
                // `attack` would find no move, and store a no-win.
                ends = true;
                R::NoWin
            }
            _ => return None,
        };
        self.nodes += 1;
        if self.aborted || self.nodes > self.budget || self.past_deadline() {
            self.aborted = true;
            return Some(R::Unknown);
        }
        if ends {
            let hash = std::mem::replace(&mut self.hash, after);
            self.store_no_win(a, depth);
            self.hash = hash;
        }
        Some(known)
    }

    /// Whether the attacker's four `m`, with one completion cell `c`, and
    /// the defender's block on `c` leave the attacker no four to make and
    /// the defender no cell completing k: `attack` after them would find
    /// no move ([`ThreatSearch::block_ends`] after the four is played).
    /// Read before either stone: the block gives the defender a completion
    /// cell only where it makes a four now (the four only takes fours
    /// away); the four gives the attacker a new four off its own line
    /// only in a direction where it makes a (k−2) or more, so there may be
    /// none; and each four the attacker has now, and each empty cell of
    /// the four's line in its window, must make none with both stones.
    fn pair_ends(&self, lines: &Lines, a: Color, m: u16, c: usize) -> bool {
        let d = a.opponent();
        if makes(lines, c, d).fours > 0 {
            return false;
        }
        let (pairs, _) = lines.cell(m as usize);
        let mut dir = 4;
        for (k, &p) in pairs.iter().enumerate() {
            let s = pair_shape(p, a.index());
            if s == Shape::ClosedIn1 as u8 {
                dir = k;
            } else if s != Shape::None as u8 && s < Shape::OpenIn3 as u8 {
                return false;
            }
        }
        if dir == 4 {
            return false;
        }
        let (m, at) = (m as usize, [self.moves[m as usize], self.moves[c]]);
        // The direction and steps from a cell to `m` and to `c`, as the
        // stones they are (direction 0 and 0 steps: not on a line).
        let stones = |q: usize| {
            let from = self.moves[q];
            let [sm, sc] = at.map(|to| line_step(from, to).unwrap_or((0, 0)));
            [(sm.0, sm.1, a), (sc.0, sc.1, d)]
        };
        let four_after = |q: usize| lines.four_with(q, a, stones(q)) != Some(false);
        if lines
            .threat_cells(a, Threat::Four)
            .any(|q| q != m && q != c && four_after(q))
        {
            return false;
        }
        let (dx, dy) = DIRS[dir];
        let r = self.radius as i32;
        let (w, h) = (self.rules.width as i32, self.rules.height as i32);
        let (x, y) = (i32::from(at[0].x), i32::from(at[0].y));
        !(-r..=r).any(|t| {
            let (px, py) = (x + t * dx, y + t * dy);
            if t == 0 || px < 0 || py < 0 || px >= w || py >= h {
                return false;
            }
            let p = (py * w + px) as usize;
            p != c && is_empty(lines, p) && four_after(p)
        })
    }

    /// Checks what [`ThreatSearch::four_unplayed`] reads by playing `m`:
    /// the defender cannot win at once, and `c` is the attacker's one
    /// completion cell (`usize::MAX`: it has two or more).
    #[cfg(debug_assertions)]
    fn check_four(&mut self, eval: &mut Evaluator, a: Color, m: u16, c: usize) {
        self.play(eval, m, a);
        assert!(!eval.lines().can_win_now(a.opponent()));
        win_cells(eval.lines(), a, &mut self.wins, 2);
        if c == usize::MAX {
            assert_eq!(self.wins.len(), 2);
        } else {
            assert_eq!(self.wins, [c as u16]);
        }
        self.undo(eval, m, a);
    }

    /// Checks by playing it that the defender's `block` leaves the
    /// attacker no four to make and neither side a cell completing k:
    /// what [`ThreatSearch::pair_ends`] and [`ThreatSearch::block_ends`]
    /// read without playing.
    #[cfg(debug_assertions)]
    fn check_no_move(&mut self, eval: &mut Evaluator, a: Color, block: u16) {
        let d = a.opponent();
        self.play(eval, block, d);
        let lines = eval.lines();
        assert!(!lines.can_win_now(a) && !lines.can_win_now(d));
        assert!(!lines.has_threat_cell(a, Threat::Four));
        self.undo(eval, block, d);
    }

    /// Whether the defender's `block` of a four leaves the VCF's attacker
    /// no four to make and the defender no cell completing k (so no threat
    /// to answer): `attack` after it would find no move. A defender's
    /// stone makes the attacker no four, so every four it has now must
    /// be on a line through `block`, within a window of it, and blocked
    /// there; and the defender gets a completion cell only where `block`
    /// makes it a four (it has none now: a four was just made against
    /// it, and `attack` makes none while the defender has one).
    fn block_ends(&self, lines: &Lines, a: Color, block: u16) -> bool {
        let d = a.opponent();
        if makes(lines, block as usize, d).fours > 0 {
            return false;
        }
        let at = self.moves[block as usize];
        lines.threat_cells(a, Threat::Four).all(|q| {
            if q == block as usize {
                return true;
            }
            // The direction and steps from `q` to the block.
            match line_step(self.moves[q], at) {
                Some((dir, i)) => lines.stone_blocks_four(q, dir, i, d),
                None => false,
            }
        })
    }

    /// [`ThreatSearch::attack`]'s result after the defender's `reply`.
    ///
    /// With no attacker move left (`depth` 0) the reply is not played:
    /// `attack` would only count its node, find no cell where the attacker
    /// completes k (it had none but the one a block fills, and a
    /// defender's stone makes none) and read the table, and so does this,
    /// under the key the reply would make. The results and node counts
    /// are exactly those of playing it, without the play and the undo,
    /// which were most of the work: the replies at depth 0 are most of a
    /// VCT's nodes.
    ///
    /// Nor is a VCF's block after which the attacker has no four to make
    /// and the defender no completion cell ([`ThreatSearch::block_ends`]):
    /// `attack` would count its node, read the table and, finding no
    /// move, store a no-win, and so does this. Such blocks were rare when
    /// the VCF ran only at the root (depth-4 games took 0.04% more
    /// instructions), but the quiescence VCFs end half their blocks so
    /// (95k of 196k played in depth-8 games): 4.1% fewer there.
    ///
    /// Measured and dropped: deciding that by the threat counts after the
    /// block, summed over every cell it touches as [`Lines::peek`] sums
    /// them: 1,200 instructions a block, more than the plays it saved
    /// (depth-8 games 4,302.4M to 4,318.4M, depth-4 1,564.9M to
    /// 1,607.0M). The fours are few, and each is one lookup.
    #[inline]
    fn reply_value(
        &mut self,
        eval: &mut Evaluator,
        a: Color,
        reply: u16,
        ply: usize,
        depth: u32,
    ) -> R {
        let d = a.opponent();
        let bare =
            depth == 0 || (self.mode == Mode::Vcf && self.block_ends(eval.lines(), a, reply));
        if !bare {
            self.play(eval, reply, d);
            let r = self.attack(eval, a, ply + 1, depth);
            self.undo(eval, reply, d);
            return r;
        }
        #[cfg(debug_assertions)]
        if depth > 0 {
            self.check_no_move(eval, a, reply);
        }
        self.nodes += 1;
        if self.aborted || self.nodes > self.budget || self.past_deadline() {
            self.aborted = true;
            return R::Unknown;
        }
        let hash = self.hash;
        self.hash ^= stone_key(d, self.moves[reply as usize]);
        let r = match self.probe(a) {
            Some(e) if e.result == WIN => R::Win(e.plies as u32),
            Some(e) if e.depth as u32 >= depth => R::NoWin,
            _ if depth == 0 => R::NoWin,
            _ => {
                self.store_no_win(a, depth);
                R::NoWin
            }
        };
        self.hash = hash;
        r
    }

    /// The defender to move after an attacker's threat: a win for the
    /// attacker if every reply that can hold loses.
    fn defend(&mut self, eval: &mut Evaluator, a: Color, ply: usize, depth: u32) -> R {
        let d = a.opponent();
        if eval.lines().can_win_now(d) {
            return R::NoWin;
        }
        let base = self.stack.len();
        let result = if eval.lines().can_win_now(a) {
            // A four: the one block, unless there are two completion cells.
            win_cells(eval.lines(), a, &mut self.wins, 2);
            if self.wins.len() > 1 {
                R::Win(2)
            } else if let Some(&c) = self.wins.first() {
                let r = self.reply_value(eval, a, c, ply, depth);
                match r {
                    R::Win(p) => R::Win(p + 1),
                    other => other,
                }
            } else {
                R::NoWin
            }
        } else if self.mode == Mode::Vcf
            || self
                .defences
                .replies(eval.lines(), a, &mut self.stack)
                .is_none()
        {
            R::NoWin
        } else {
            // A reply outside the defences loses in 4 plies: the attacker
            // makes its open (or double) four, one block, the win.
            let mut worst = 4;
            let mut result = R::Win(0);
            for i in base..self.stack.len() {
                let c = self.stack[i];
                let r = self.reply_value(eval, a, c, ply, depth);
                match r {
                    R::Win(p) => worst = worst.max(p + 1),
                    other => {
                        result = other;
                        break;
                    }
                }
            }
            match result {
                R::Win(_) => R::Win(worst),
                other => other,
            }
        };
        self.stack.truncate(base);
        result
    }
}

/// The direction (the order of [`DIRS`]) and the signed steps along it
/// from `from` to `to`, where the two share a line; `None` where they
/// do not.
#[inline]
fn line_step(from: Move, to: Move) -> Option<(usize, i32)> {
    let (dx, dy) = (
        i32::from(to.x) - i32::from(from.x),
        i32::from(to.y) - i32::from(from.y),
    );
    if dy == 0 {
        Some((0, dx))
    } else if dx == 0 {
        Some((1, dy))
    } else if dx == dy {
        Some((2, dx))
    } else if dx == -dy {
        Some((3, dx))
    } else {
        None
    }
}
