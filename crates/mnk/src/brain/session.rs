//! One engine session: the protocol's replies. It keeps the position as
//! the manager set it (`position.rs`), the time and memory settings, and
//! the search player, and leaves the move choice to `think.rs`.

use super::position::{from_board_line, Position, OPP, OWN};
use super::protocol::{self, BoardLine, Command};
use super::timing::TimeControl;
use crate::eval::Weights;
use crate::game::{Rule, Rules, MAX_SIDE};
use crate::players::{Rng, Search};
use rand::SeedableRng;
use std::io::{self, Write};
use std::time::Instant;

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
    /// Further moves where every candidate lost ([`SearchLimits::late`]).
    ///
    /// [`SearchLimits::late`]: crate::players::SearchLimits::late
    pub late: usize,
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
    /// Read the next line.
    Continue,
    /// `END` (or end of input): stop.
    Exit,
}

/// A Gomocup engine session. Feed it lines with [`Brain::handle`].
#[derive(Debug)]
pub struct Brain {
    pub(super) settings: Settings,
    pub(super) position: Option<Position>,
    pub(super) rule: Rule,
    pub(super) clock: TimeControl,
    pub(super) max_memory: Option<u64>,
    /// `INFO max_depth` and `INFO max_node` (Yixin-protocol extensions
    /// that c-gomoku-cli sends for `depth=` and `nodes=`); 0 is no limit.
    pub(super) max_depth: Option<u64>,
    pub(super) max_node: Option<u64>,
    /// The search player and the rules it was built for.
    pub(super) search: Option<(Rules, Search)>,
    /// The table must be emptied before the next search (new game, or the
    /// last search was from a position with irregular stone counts).
    pub(super) tt_dirty: bool,
    pub(super) rng: Rng,
    /// While reading a `BOARD` block: when the `BOARD` line arrived.
    pub(super) board_block: Option<Instant>,
    /// When the move being chosen planned to answer by (a timed search's
    /// hard limit), to measure how late the answer came.
    pub(super) answer_by: Option<Instant>,
}

impl Brain {
    /// A session before `START`: no board yet.
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
            answer_by: None,
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
        self.ready_search();
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
                        Ok(m) => p.place(m, from_board_line(field)),
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
        self.answer_by = None;
        let (m, report) = self.choose(start);
        if let Some(p) = &mut self.position {
            p.place(m, OWN);
        }
        if self.settings.verbose {
            say(out, &format!("MESSAGE {report}"))?;
        }
        say(out, &m.to_xy())?;
        self.clock.record(start.elapsed());
        if let Some(by) = self.answer_by.take() {
            self.clock
                .answered(Instant::now().saturating_duration_since(by));
        }
        Ok(())
    }
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
