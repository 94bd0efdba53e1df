//! One engine session: the position as the manager set it, the time and
//! memory settings, and the search player that picks the moves.

use super::protocol::{self, BoardLine, Command, Coord};
use super::timing::{self, Budget, TimeControl, MIN_SEARCH};
use crate::eval::{Evaluator, Weights};
use crate::game::{Board, Color, Move, Rule, Rules, MAX_SIDE};
use crate::players::{describe_score, Player, Rng, Search, SearchLimits};
use rand::SeedableRng;
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// The smallest board side accepted (five in a row must fit).
pub const MIN_BOARD: i64 = 5;
/// The largest board side accepted.
pub const MAX_BOARD: i64 = MAX_SIDE as i64;

/// What the session is set up with; fixed for its lifetime.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Weights for five in a row; re-declared for each board size and rule.
    pub weights: Weights,
    /// Deepest search in plies.
    pub depth: u32,
    /// Candidate moves per node.
    pub width: usize,
    /// Print a `MESSAGE` with depth, nodes and evaluation after each search.
    pub verbose: bool,
    /// Seed of the tie-breaking generator, re-seeded for every game.
    pub seed: u64,
    /// Turn limit (ms) assumed until the manager sends `timeout_turn`.
    pub default_turn: u64,
}

/// Whether to keep reading commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Exit,
}

/// Cell contents, as in the protocol's `BOARD` fields.
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const OPP: u8 = 2;
const SPECIAL: u8 = 3;

/// The position as the manager set it, with the order stones arrived in.
#[derive(Clone, Debug)]
struct Position {
    width: u8,
    height: u8,
    cells: Vec<u8>,
    stones: Vec<(Move, u8)>,
}

impl Position {
    fn new(width: u8, height: u8) -> Position {
        Position {
            width,
            height,
            cells: vec![EMPTY; width as usize * height as usize],
            stones: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.cells.fill(EMPTY);
        self.stones.clear();
    }

    fn index(&self, m: Move) -> usize {
        m.y as usize * self.width as usize + m.x as usize
    }

    /// The cell `c` names, if it is on the board.
    fn on_board(&self, c: Coord) -> Result<Move, String> {
        if c.x < 0 || c.y < 0 || c.x >= self.width as i64 || c.y >= self.height as i64 {
            return Err(format!(
                "{c} is off the {}x{} board (x 0 to {}, y 0 to {})",
                self.width,
                self.height,
                self.width - 1,
                self.height - 1
            ));
        }
        Ok(Move::new(c.x as u8, c.y as u8))
    }

    /// The cell `c` names, if it is on the board and empty.
    fn empty_cell(&self, c: Coord) -> Result<Move, String> {
        let m = self.on_board(c)?;
        if self.cells[self.index(m)] != EMPTY {
            return Err(format!("{c} is already occupied"));
        }
        Ok(m)
    }

    fn place(&mut self, m: Move, field: u8) {
        let i = self.index(m);
        self.cells[i] = field;
        self.stones.push((m, field));
    }

    fn remove(&mut self, m: Move) -> bool {
        let i = self.index(m);
        if self.cells[i] == EMPTY {
            return false;
        }
        self.cells[i] = EMPTY;
        if let Some(p) = self.stones.iter().rposition(|&(s, _)| s == m) {
            self.stones.remove(p);
        }
        true
    }

    fn empties(&self) -> usize {
        self.cells.iter().filter(|&&c| c == EMPTY).count()
    }

    fn count(&self, field: u8) -> usize {
        self.cells.iter().filter(|&&c| c == field).count()
    }

    /// The empty cell nearest the centre (the first such in row-major
    /// order): the answer when there is nothing better to go on.
    fn central_empty(&self) -> Option<Move> {
        let (cx, cy) = (
            (self.width as i32 - 1) as f64 / 2.0,
            (self.height as i32 - 1) as f64 / 2.0,
        );
        let dist = |m: Move| (m.x as f64 - cx).powi(2) + (m.y as f64 - cy).powi(2);
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == EMPTY)
            .map(|i| {
                Move::new(
                    (i % self.width as usize) as u8,
                    (i / self.width as usize) as u8,
                )
            })
            .min_by(|&a, &b| dist(a).total_cmp(&dist(b)))
    }
}

/// A Gomocup engine session. Feed it lines with [`Brain::handle`].
pub struct Brain {
    settings: Settings,
    position: Option<Position>,
    rule: Rule,
    clock: TimeControl,
    max_memory: Option<u64>,
    /// `INFO max_depth` and `INFO max_node` (Yixin-protocol extensions
    /// that c-gomoku-cli sends for `depth=` and `nodes=`); 0 is no limit.
    max_depth: Option<u64>,
    max_node: Option<u64>,
    /// The search player and the rules it was built for.
    search: Option<(Rules, Search)>,
    /// The table must be emptied before the next search (new game, or the
    /// last search was from a position with irregular stone counts).
    tt_dirty: bool,
    rng: Rng,
    /// While reading a `BOARD` block: when the `BOARD` line arrived.
    board_block: Option<Instant>,
}

impl Brain {
    pub fn new(settings: Settings) -> Brain {
        let clock = TimeControl::new(settings.default_turn);
        let rng = Rng::seed_from_u64(settings.seed);
        Brain {
            settings,
            position: None,
            rule: Rule::Freestyle,
            clock,
            max_memory: None,
            max_depth: None,
            max_node: None,
            search: None,
            tt_dirty: true,
            rng,
            board_block: None,
        }
    }

    /// The `ABOUT` reply.
    pub fn about() -> String {
        format!(
            "name=\"mnk\", version=\"{}\", author=\"the mnk authors\", country=\"n/a\"",
            env!("CARGO_PKG_VERSION")
        )
    }

    /// Handles one input line (without its line end), writing the replies
    /// to `out` and flushing after each. `received` is when the line
    /// arrived: move budgets count from it.
    pub fn handle(
        &mut self,
        line: &str,
        received: Instant,
        out: &mut dyn Write,
    ) -> io::Result<Flow> {
        let t = line.trim();
        if t.is_empty() {
            return Ok(Flow::Continue);
        }
        if let Some(start) = self.board_block {
            return self.board_line(t, start, out);
        }
        let cmd = match protocol::parse(t) {
            Ok(c) => c,
            Err(e) => {
                say(out, &format!("ERROR {e}"))?;
                return Ok(Flow::Continue);
            }
        };
        match cmd {
            Command::Start { width, height } => self.start(width, height, out)?,
            Command::Restart => match &mut self.position {
                Some(p) => {
                    p.clear();
                    self.new_game();
                    say(out, "OK")?;
                }
                None => say(out, "ERROR no board to restart: send START first")?,
            },
            Command::Begin => self.reply_move(received, out)?,
            Command::Turn(c) => {
                let Some(p) = &mut self.position else {
                    return no_board(out);
                };
                match p.empty_cell(c) {
                    Ok(m) => {
                        p.place(m, OPP);
                        self.reply_move(received, out)?;
                    }
                    Err(e) => say(out, &format!("ERROR TURN {e}"))?,
                }
            }
            Command::Board => {
                if let Some(p) = &mut self.position {
                    p.clear();
                }
                self.board_block = Some(received);
            }
            Command::Info { key, value } => self.info(&key, &value, out)?,
            Command::Takeback(c) => {
                let Some(p) = &mut self.position else {
                    return no_board(out);
                };
                match p.on_board(c) {
                    Ok(m) if p.remove(m) => say(out, "OK")?,
                    Ok(_) => say(out, &format!("ERROR TAKEBACK {c}: there is no stone there"))?,
                    Err(e) => say(out, &format!("ERROR TAKEBACK {e}"))?,
                }
            }
            Command::About => say(out, &Brain::about())?,
            Command::End => return Ok(Flow::Exit),
            Command::Unknown(word) => {
                say(out, &format!("UNKNOWN command {}", word.escape_debug()))?
            }
        }
        Ok(Flow::Continue)
    }

    fn start(&mut self, width: i64, height: i64, out: &mut dyn Write) -> io::Result<()> {
        let ok = |s: i64| (MIN_BOARD..=MAX_BOARD).contains(&s);
        if !ok(width) || !ok(height) {
            return say(
                out,
                &format!(
                    "ERROR unsupported board size {width}x{height}: mnk plays boards from \
                     {MIN_BOARD}x{MIN_BOARD} to {MAX_BOARD}x{MAX_BOARD}"
                ),
            );
        }
        self.position = Some(Position::new(width as u8, height as u8));
        self.board_block = None;
        self.new_game();
        say(out, "OK")
    }

    /// Starts a game on the current board: the generator is re-seeded, and
    /// the search player is built (or its table emptied) now, while the
    /// manager waits for `OK`, rather than during the first move.
    fn new_game(&mut self) {
        self.rng = Rng::seed_from_u64(self.settings.seed);
        self.clock.new_game();
        if let Some(rules) = self.rules() {
            let limits = self.instant_limits();
            let rebuilt = self.search_for(rules, limits, None);
            if !rebuilt {
                if let Some((_, s)) = &mut self.search {
                    s.clear();
                }
            }
            self.tt_dirty = false;
        }
    }

    /// The rules of the current board under the current `INFO rule`.
    fn rules(&self) -> Option<Rules> {
        let p = self.position.as_ref()?;
        Rules::new(p.width as u32, p.height as u32, 5, self.rule).ok()
    }

    /// Depth-1 limits with the table size the settings call for.
    fn instant_limits(&self) -> SearchLimits {
        SearchLimits {
            depth: 1,
            width: self.settings.width,
            nodes: None,
            time: None,
            tt_bits: timing::tt_bits(self.max_memory, self.clock.turn_limit()),
        }
    }

    /// Makes `self.search` a player for `rules` with `limits`. During a
    /// move (`budget` given) its table grows only as far as allocating it
    /// fits the budget (see [`timing::affordable_bits`]); it always shrinks
    /// at once. Returns whether the player was built anew.
    fn search_for(
        &mut self,
        rules: Rules,
        mut limits: SearchLimits,
        budget: Option<Duration>,
    ) -> bool {
        let current = match &self.search {
            Some((r, s)) if *r == rules => Some(s.limits().tt_bits),
            _ => None,
        };
        if let Some(b) = budget {
            let have = current.unwrap_or(timing::MIN_TT_BITS);
            limits.tt_bits = timing::affordable_bits(have, limits.tt_bits, b);
        }
        match (&mut self.search, current) {
            (Some((_, s)), Some(_)) => {
                s.set_limits(limits);
                false
            }
            (slot, _) => {
                let w = self.settings.weights.clone().for_game(rules);
                *slot = Some((rules, Search::new(w, limits).named("mnk brain")));
                true
            }
        }
    }

    fn board_line(&mut self, t: &str, start: Instant, out: &mut dyn Write) -> io::Result<Flow> {
        match protocol::parse_board_line(t) {
            Ok(BoardLine::Done) => {
                self.board_block = None;
                self.reply_move(start, out)?;
            }
            Ok(BoardLine::Stone(c, field)) => {
                // Without a board the block is read and refused at DONE.
                if let Some(p) = &mut self.position {
                    match p.empty_cell(c) {
                        Ok(m) => p.place(m, field),
                        Err(e) => say(out, &format!("ERROR BOARD {e}"))?,
                    }
                }
            }
            Err(e) => {
                // A manager that gives up mid-block may still say END.
                if t.split_whitespace().next().map(str::to_ascii_uppercase) == Some("END".into()) {
                    return Ok(Flow::Exit);
                }
                say(out, &format!("ERROR BOARD {e}"))?;
            }
        }
        Ok(Flow::Continue)
    }

    fn info(&mut self, key: &str, value: &str, out: &mut dyn Write) -> io::Result<()> {
        let number = || protocol::info_number(value);
        let slot = match key {
            "timeout_turn" => &mut self.clock.timeout_turn,
            "timeout_match" => &mut self.clock.timeout_match,
            "time_left" => {
                return match number() {
                    Some(n) => {
                        self.clock.set_time_left(n);
                        Ok(())
                    }
                    None => say(
                        out,
                        &format!("ERROR INFO time_left needs a whole number, found {value:?}"),
                    ),
                };
            }
            "max_memory" => &mut self.max_memory,
            "max_depth" => &mut self.max_depth,
            "max_node" => &mut self.max_node,
            "rule" => {
                let Some(bits) = number() else {
                    return say(
                        out,
                        &format!("ERROR INFO rule needs a number, found {value:?}"),
                    );
                };
                return self.set_rule(bits, out);
            }
            // game_type, folder, evaluate and anything else: not needed.
            _ => return Ok(()),
        };
        match number() {
            Some(n) => {
                *slot = Some(n);
                Ok(())
            }
            None => say(
                out,
                &format!("ERROR INFO {key} needs a whole number, found {value:?}"),
            ),
        }
    }

    /// `INFO rule`: bit 1 exact five, bit 2 continuous game, bit 4 renju.
    fn set_rule(&mut self, bits: u64, out: &mut dyn Write) -> io::Result<()> {
        if bits & 4 != 0 {
            self.rule = Rule::Freestyle;
            say(
                out,
                "MESSAGE renju is not supported: mnk plays freestyle (five or more in a row wins, no forbidden moves)",
            )?;
        } else {
            self.rule = if bits & 1 != 0 {
                Rule::Exact
            } else {
                Rule::Freestyle
            };
        }
        if bits & 2 != 0 {
            say(
                out,
                "MESSAGE continuous games are not supported: mnk plays as if the game ends at the first five",
            )?;
        }
        if bits & !7 != 0 {
            say(
                out,
                &format!(
                    "MESSAGE rule bits {} are not supported and are ignored",
                    bits & !7
                ),
            )?;
        }
        Ok(())
    }

    /// Picks a move, records it and sends it.
    fn reply_move(&mut self, start: Instant, out: &mut dyn Write) -> io::Result<()> {
        let Some(p) = &self.position else {
            return no_board(out).map(|_| ());
        };
        if p.empties() == 0 {
            return say(out, "ERROR the board is full: there is no move to make");
        }
        let (m, report) = self.choose(start);
        if let Some(p) = &mut self.position {
            p.place(m, OWN);
        }
        if self.settings.verbose {
            say(out, &format!("MESSAGE {report}"))?;
        }
        say(out, &m.to_xy())?;
        self.clock.record(start.elapsed());
        Ok(())
    }

    /// The move to play and a one-line report of how it was found.
    fn choose(&mut self, start: Instant) -> (Move, String) {
        let rules = self.rules().expect("board sizes are checked at START");
        let p = self.position.as_ref().expect("a board");
        if p.stones.is_empty() {
            return (rules.center(), "empty board: the centre".into());
        }
        // Colours: the side with fewer or equal stones moved first
        // (black). "Opponent" counts special stones, which are blocked for
        // us and treated as the opponent's.
        let own = p.count(OWN);
        let opp = p.count(OPP) + p.count(SPECIAL);
        let me = if own == opp {
            Color::Black
        } else {
            Color::White
        };
        let regular = opp == own || opp == own + 1;
        let board = match build_board(p, rules, me) {
            Ok(b) => b,
            Err(why) => {
                let m = p.central_empty().expect("an empty cell");
                return (m, format!("{why}: the empty cell nearest the centre"));
            }
        };
        if board.to_move() != me {
            // Only our stones on the board: no position the search can
            // take (the last stone placed must be the opponent's), so the
            // best cell by static score.
            let mut eval = Evaluator::new(self.settings.weights.clone().for_game(rules));
            eval.sync(&board);
            let scores = eval.scores(me);
            let best = (0..scores.len())
                .filter(|&i| p.cells[i] == EMPTY)
                .max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)))
                .map(|i| rules.move_at(i))
                .expect("an empty cell");
            return (
                best,
                "no opponent stones: the best cell by static score".into(),
            );
        }
        let budget = self.clock.budget(p.empties());

        // Build or resize the player first: that time counts against the
        // budget, which runs from when the command arrived.
        let mut instant = self.instant_limits();
        let think = match budget {
            Budget::Think(d) => d,
            Budget::Instant => Duration::ZERO,
        };
        let rebuilt = self.search_for(rules, instant.clone(), Some(think));
        let (_, search) = self.search.as_mut().expect("built above");
        instant.tt_bits = search.limits().tt_bits;
        // The table is sound across positions whose side to move follows
        // from the stone counts; an irregular set-up breaks that, so its
        // entries are dropped before and after.
        if (self.tt_dirty || !regular) && !rebuilt {
            search.clear();
        }
        self.tt_dirty = !regular;
        let depth = match self.max_depth {
            Some(d) if d > 0 => (self.settings.depth as u64).min(d) as u32,
            _ => self.settings.depth,
        };
        let nodes = self.max_node.filter(|&n| n > 0);
        let limits = match budget {
            Budget::Think(d) => {
                let left = d.saturating_sub(start.elapsed());
                if left >= MIN_SEARCH {
                    SearchLimits {
                        depth: depth.max(1),
                        time: Some(left),
                        nodes,
                        ..instant
                    }
                } else {
                    instant
                }
            }
            Budget::Instant => instant,
        };
        let limit_text = match limits.time {
            Some(t) => format!("{} ms", t.as_millis()),
            None => "instant".into(),
        };
        search.set_limits(limits);
        let chosen = search.choose(&board, &mut self.rng).ok();
        let info = search.info().clone();
        let p = self.position.as_ref().expect("a board");
        let m = match chosen {
            Some(m) if p.cells[p.index(m)] == EMPTY => m,
            _ => {
                let m = p.central_empty().expect("an empty cell");
                return (
                    m,
                    "the search found no move: the empty cell nearest the centre".into(),
                );
            }
        };
        let report = format!(
            "depth {} nodes {} eval {} time {} ms limit {} move {}",
            info.depth,
            info.nodes,
            describe_score(info.score),
            start.elapsed().as_millis(),
            limit_text,
            m.to_xy()
        );
        (m, report)
    }
}

/// The search's board: the stones in the order they arrived, own stones in
/// colour `me`. The last stone placed must be the opponent's, so that `me`
/// is to move: if the order ends with an own stone, the last opponent stone
/// is moved to the end (the colours, not the order, decide a position).
fn build_board(p: &Position, rules: Rules, me: Color) -> Result<Board, String> {
    let mut order = p.stones.clone();
    if order.last().is_some_and(|&(_, f)| f == OWN) {
        if let Some(i) = order.iter().rposition(|&(_, f)| f != OWN) {
            let s = order.remove(i);
            order.push(s);
        }
    }
    let mut board = Board::new(rules);
    for (m, f) in order {
        let color = if f == OWN { me } else { me.opponent() };
        match board.play_as(m, color) {
            Ok(None) => {}
            Ok(Some(o)) => return Err(format!("the game is already over ({o} at {})", m.to_xy())),
            Err(e) => return Err(format!("cannot set up the position ({e})")),
        }
    }
    Ok(board)
}

fn no_board(out: &mut dyn Write) -> io::Result<Flow> {
    say(out, "ERROR no board: send START first")?;
    Ok(Flow::Continue)
}

/// Writes one line and flushes it.
fn say(out: &mut dyn Write, line: &str) -> io::Result<()> {
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}
