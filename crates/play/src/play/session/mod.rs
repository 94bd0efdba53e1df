//! A play session: one or more games between two seats (humans or AI
//! players), driven one input line or one AI move at a time.
//!
//! The session never touches the terminal. It queues what should be shown
//! ([`Out`]) and says whose turn it is ([`Turn`]); a driver (see
//! [`super::run`]) reads lines, asks the AI to move, sleeps and prints.
//!
//! This file holds the state machine: whose turn it is, moves, commands
//! and games one after another. What it shows is worded in `text`, and
//! saving the game to the records files is in `saving`.

use super::command::{Command, CommandError, HELP};
use super::render::{glyph, Style};
use super::save::SaveTarget;
use crate::arena::{game_rng, play_move, GameError};
use crate::game::{Board, Color, Move, Outcome, Rules};
use crate::players::{Player, PlayerKind, PlayerSpec, Rng, SearchInfo, SpecError};
use crate::records::{utc_now, Record, RecordError};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

mod saving;
#[cfg(test)]
pub(super) mod tests;
mod text;

pub use text::describe_rules;

/// Who sits on one side of the board.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatKind {
    /// A person at the keyboard, with the name recorded for them.
    Human(String),
    /// An AI player.
    Ai(PlayerSpec),
}

impl SeatKind {
    /// Whether this seat is a person.
    pub fn is_human(&self) -> bool {
        matches!(self, SeatKind::Human(_))
    }
}

/// How to set a session up.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game.
    pub rules: Rules,
    /// Who plays black (moves first).
    pub black: SeatKind,
    /// Who plays white.
    pub white: SeatKind,
    /// The player that answers `hint`.
    pub hint: PlayerSpec,
    /// The records file every game is appended to (CSV, or SGF for `.sgf`).
    pub records: Option<PathBuf>,
    /// A second file the games also go to, normally SGF.
    pub sgf: Option<PathBuf>,
    /// Seed of the AI players' tie-breaks (each game derives its own).
    pub seed: u64,
    /// Colour or plain text.
    pub style: Style,
}

/// Something to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// The whole game screen: title, board and status. A terminal driver
    /// may clear the screen before it.
    Screen(String),
    /// A message line (or lines), shown below what is there.
    Text(String),
}

/// What the session waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A line from the human playing this colour.
    Human(Color),
    /// [`Session::ai_move`] for the AI playing this colour.
    Ai(Color),
    /// A line answering "play again?".
    PlayAgain,
    /// Nothing: the session is over.
    Done,
}

/// An AI player choosing its move away from the session: see
/// [`Session::take_ai_turn`].
pub struct AiTurn {
    color: Color,
    player: Box<dyn Player>,
    /// A copy of the session's position; the move is played on it.
    board: Board,
    /// The ply and hash of the position taken, to tell on return whether
    /// the session is still there.
    taken_at: (usize, u64),
    rng: Rng,
    choice: Option<Result<Move, GameError>>,
    /// What the player's search found for the move (none for players that
    /// do not search, and for the opening at the centre).
    info: Option<SearchInfo>,
    /// Whether it opens an empty board at the centre (every AI but the
    /// random player), as `mnk brain` does, instead of at one of the many
    /// cells whose scores tie there.
    centre_first: bool,
}

impl std::fmt::Debug for AiTurn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AiTurn")
            .field("color", &self.color)
            .field("player", &self.player.name())
            .field("board", &self.board)
            .field("choice", &self.choice)
            .finish_non_exhaustive()
    }
}

impl AiTurn {
    /// Chooses the move (the slow part) and plays it on the copy of the
    /// position, touching nothing of the session.
    pub fn think(&mut self) {
        if self.choice.is_none() {
            let (choice, info) = ai_move(
                &mut *self.player,
                &mut self.board,
                &mut self.rng,
                self.centre_first,
            );
            self.choice = Some(choice);
            self.info = info;
        }
    }

    /// Makes [`AiTurn::think`] return the best move found so far once
    /// `stop` holds `true`, set from any thread (see [`Player::set_stop`]):
    /// a page whose visitor left need not wait for the full search. The
    /// flag is dropped when the turn is finished.
    pub fn stop_on(&mut self, stop: Arc<AtomicBool>) {
        self.player.set_stop(Some(stop));
    }
}

/// The AI's move, played on `board`: the centre on an empty board when
/// `centre_first`, else the player's choice, with what its search found.
fn ai_move(
    player: &mut dyn Player,
    board: &mut Board,
    rng: &mut Rng,
    centre_first: bool,
) -> (Result<Move, GameError>, Option<SearchInfo>) {
    if centre_first && board.ply() == 0 {
        let centre = board.rules().center();
        if board.play(centre).is_ok() {
            return (Ok(centre), None);
        }
    }
    let choice = play_move(player, board, rng);
    let info = choice.is_ok().then(|| player.search_info().cloned());
    (choice, info.flatten())
}

/// Why a session could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// A player spec could not be built (bad weights file, exact player on
    /// a board too large…).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A records file is unreadable or corrupt.
    #[error("{0}\n(games are appended to this file, so it must read cleanly: fix or move it, or choose another file)")]
    Records(#[from] RecordError),
    /// An AI player failed to move or chose an illegal move.
    #[error(transparent)]
    Game(#[from] GameError),
    /// Reading input or writing output failed.
    #[error("terminal: {0}")]
    Io(#[from] std::io::Error),
}

/// One side of the board in a session.
struct Seat {
    kind: SeatKind,
    /// Built for AI seats; away while it thinks ([`Session::take_ai_turn`]).
    player: Option<Box<dyn Player>>,
    /// The AI player's name, kept here so that it can be shown while the
    /// player is away.
    ai_name: Option<String>,
}

impl Seat {
    fn new(kind: SeatKind, rules: Rules) -> Result<Seat, SpecError> {
        let player = match &kind {
            SeatKind::Ai(spec) => Some(spec.build(rules)?),
            SeatKind::Human(_) => None,
        };
        let ai_name = player.as_ref().map(|p| p.name());
        Ok(Seat {
            kind,
            player,
            ai_name,
        })
    }

    fn is_human(&self) -> bool {
        self.kind.is_human()
    }

    /// The name kept in records: the person's name, or the AI's spec.
    fn record_name(&self) -> String {
        match &self.kind {
            SeatKind::Human(name) => name.clone(),
            SeatKind::Ai(spec) => spec.to_string(),
        }
    }
}

/// Where the session is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Playing,
    PlayAgain,
    Done,
}

/// A play session (see the module docs).
pub struct Session {
    rules: Rules,
    seats: [Seat; 2],
    hint_player: Box<dyn Player>,
    hint_name: String,
    board: Board,
    rng: Rng,
    hint_rng: Rng,
    seed: u64,
    /// 1-based number of the current game in this session.
    game: usize,
    phase: Phase,
    /// A stated result that the board does not show (resignation).
    resigned: Option<Outcome>,
    hint: Option<Move>,
    /// The last AI move and what its search found.
    /// (Its `best` is the move; cleared when that move is taken back.)
    ai_search: Option<SearchInfo>,
    /// When the current game started.
    date: String,
    /// The session's records files.
    targets: Vec<SaveTarget>,
    /// Files named by `save FILE` during the current game.
    extra: Vec<SaveTarget>,
    style: Style,
    out: Vec<Out>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("rules", &self.rules)
            .field("game", &self.game)
            .field("phase", &self.phase)
            .field("board", &self.board)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Builds the players and checks the records files, then starts the
    /// first game (its screen is the first output).
    pub fn new(config: Config) -> Result<Session, SessionError> {
        let rules = config.rules;
        let black = Seat::new(config.black, rules)?;
        let white = Seat::new(config.white, rules)?;
        let hint_player = config.hint.build(rules)?;
        let mut targets = Vec::new();
        for path in config.records.iter().chain(config.sgf.iter()) {
            if targets.iter().any(|t: &SaveTarget| t.path() == path) {
                continue;
            }
            targets.push(SaveTarget::open(path, rules)?);
        }
        let mut s = Session {
            rules,
            seats: [black, white],
            hint_name: hint_player.name(),
            hint_player,
            board: Board::new(rules),
            rng: game_rng(config.seed, &[0]),
            hint_rng: game_rng(config.seed, &[0, 1]),
            seed: config.seed,
            game: 0,
            phase: Phase::Playing,
            resigned: None,
            hint: None,
            ai_search: None,
            date: String::new(),
            targets,
            extra: Vec::new(),
            style: config.style,
            out: Vec::new(),
        };
        s.start_game();
        if s.humans() > 0 {
            let c = rules.center();
            s.text(s.style.dim(&format!(
                "Type a cell such as {c} (or {}) to play there, or help for the commands.",
                c.to_xy()
            )));
        }
        Ok(s)
    }

    /// The position of the current game.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The number of the current game in this session (from 1).
    pub fn game_number(&self) -> usize {
        self.game
    }

    /// Whether both seats are AI players (the driver then paces the moves).
    pub fn watching(&self) -> bool {
        self.humans() == 0
    }

    /// The cell the last `hint` suggested, until the next move.
    pub fn hint(&self) -> Option<Move> {
        self.hint
    }

    /// Makes the hint player's search return its best move so far once
    /// `stop` holds `true` (see [`Player::set_stop`]); `None` removes it.
    pub fn stop_hints_on(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.hint_player.set_stop(stop);
    }

    /// The AI's last move in this game and what its search found (depth,
    /// nodes, score), for players that search.
    pub fn ai_search(&self) -> Option<(Move, &SearchInfo)> {
        self.ai_search.as_ref().and_then(|i| Some((i.best?, i)))
    }

    /// The result of the current game, if it has ended on the board or by
    /// resignation.
    pub fn outcome(&self) -> Option<Outcome> {
        self.board.outcome().or(self.resigned)
    }

    /// What the session waits for.
    pub fn turn(&self) -> Turn {
        match self.phase {
            Phase::Done => Turn::Done,
            Phase::PlayAgain => Turn::PlayAgain,
            Phase::Playing => {
                let c = self.board.to_move();
                if self.seat(c).is_human() {
                    Turn::Human(c)
                } else {
                    Turn::Ai(c)
                }
            }
        }
    }

    /// Takes what there is to show, oldest first.
    pub fn take_output(&mut self) -> Vec<Out> {
        std::mem::take(&mut self.out)
    }

    /// The record of the current game so far.
    pub fn record(&self) -> Record {
        let mut r = Record::from_board(
            &self.board,
            self.seat(Color::Black).record_name(),
            self.seat(Color::White).record_name(),
        );
        if r.result.is_none() {
            r.result = self.resigned;
        }
        r.date = Some(self.date.clone());
        r
    }

    /// Handles one input line (a move or command, or the answer to "play
    /// again?"). Does nothing when no line is expected.
    pub fn input(&mut self, line: &str) {
        match self.turn() {
            Turn::Human(_) => self.human_input(line),
            Turn::PlayAgain => self.play_again(line),
            Turn::Ai(_) | Turn::Done => {}
        }
    }

    /// The end of input: a game in progress is saved as unfinished and the
    /// session ends.
    pub fn end_of_input(&mut self) {
        self.stop("End of input: stopping.");
    }

    /// An interruption (Ctrl-C): as at the end of input, a game in progress
    /// is saved as unfinished and the session ends.
    pub fn interrupt(&mut self) {
        self.stop("Interrupted: stopping.");
    }

    fn stop(&mut self, why: &str) {
        let was = self.phase;
        self.phase = Phase::Done;
        if was != Phase::Done {
            self.text(why.to_string());
        }
        if was == Phase::Playing {
            self.save_all();
        }
    }

    /// Lets the AI whose turn it is move. On an error the game is saved as
    /// unfinished and the session ends.
    pub fn ai_move(&mut self) -> Result<(), SessionError> {
        match self.take_ai_turn() {
            Some(mut turn) => {
                turn.think();
                self.finish_ai_turn(turn)
            }
            None => Ok(()),
        }
    }

    /// [`Session::ai_move`] in two steps, so that the AI can think while the
    /// session stays free (to be saved on Ctrl-C, say): this takes the AI
    /// player whose turn it is out of the session, with a copy of the
    /// position and the game's generator; [`AiTurn::think`] chooses the
    /// move; [`Session::finish_ai_turn`] plays it. `None` when no AI is to
    /// move.
    pub fn take_ai_turn(&mut self) -> Option<AiTurn> {
        let Turn::Ai(color) = self.turn() else {
            return None;
        };
        let seat = &mut self.seats[color.index()];
        let centre_first = !matches!(
            &seat.kind,
            SeatKind::Ai(PlayerSpec {
                kind: PlayerKind::Random,
                ..
            })
        );
        let player = seat.player.take()?;
        let rng = std::mem::replace(&mut self.rng, game_rng(self.seed, &[]));
        Some(AiTurn {
            color,
            player,
            board: self.board.clone(),
            taken_at: (self.board.ply(), self.board.hash()),
            rng,
            choice: None,
            info: None,
            centre_first,
        })
    }

    /// Gives the player of [`Session::take_ai_turn`] back and plays its move
    /// (choosing it first if [`AiTurn::think`] was not called). If the
    /// session went on meanwhile (it was interrupted), the move is dropped.
    /// On an error the game is saved as unfinished and the session ends.
    pub fn finish_ai_turn(&mut self, turn: AiTurn) -> Result<(), SessionError> {
        let AiTurn {
            color,
            mut player,
            mut board,
            taken_at,
            mut rng,
            choice,
            info,
            centre_first,
        } = turn;
        let (choice, info) = match choice {
            Some(c) => (c, info),
            None => ai_move(&mut *player, &mut board, &mut rng, centre_first),
        };
        player.set_stop(None);
        let current =
            self.turn() == Turn::Ai(color) && (self.board.ply(), self.board.hash()) == taken_at;
        let seat = &mut self.seats[color.index()];
        if seat.player.is_some() {
            return Ok(());
        }
        if !current {
            // The game it thought about is over: it starts afresh.
            player.new_game();
            seat.player = Some(player);
            return Ok(());
        }
        seat.player = Some(player);
        self.rng = rng;
        if let Err(e) = choice {
            let e = SessionError::from(e);
            self.text(self.style.error(&format!("error: {e}")));
            self.phase = Phase::Done;
            self.save_all();
            return Err(e);
        }
        // The copy is the session's position (`current`) with the move played.
        self.board = board;
        self.ai_search = info;
        self.hint = None;
        self.after_move();
        Ok(())
    }

    fn seat(&self, c: Color) -> &Seat {
        &self.seats[c.index()]
    }

    fn humans(&self) -> usize {
        self.seats.iter().filter(|s| s.is_human()).count()
    }

    fn text(&mut self, s: String) {
        self.out.push(Out::Text(s));
    }

    fn start_game(&mut self) {
        self.game += 1;
        self.board = Board::new(self.rules);
        self.rng = game_rng(self.seed, &[self.game as u64]);
        self.hint_rng = game_rng(self.seed, &[self.game as u64, 1]);
        for seat in &mut self.seats {
            if let Some(p) = seat.player.as_mut() {
                p.new_game();
            }
        }
        self.hint_player.new_game();
        for t in &mut self.targets {
            t.new_game();
        }
        self.extra.clear();
        self.resigned = None;
        self.hint = None;
        self.ai_search = None;
        self.date = utc_now();
        self.phase = Phase::Playing;
        self.show();
    }

    /// Queues the screen.
    fn show(&mut self) {
        let s = self.screen();
        self.out.push(Out::Screen(s));
    }

    /// After any move: the screen, and the end of the game if it ended.
    fn after_move(&mut self) {
        self.show();
        if self.outcome().is_some() {
            self.finish_game();
        }
    }

    fn finish_game(&mut self) {
        self.save_all();
        self.phase = Phase::PlayAgain;
    }

    fn human_input(&mut self, line: &str) {
        let command = match Command::parse(line, self.rules) {
            Ok(c) => c,
            Err(e) => {
                self.refuse(e);
                return;
            }
        };
        match command {
            Command::Nothing => {}
            Command::Play(m) => self.human_move(m),
            Command::Undo => self.undo(),
            Command::Hint => self.give_hint(),
            Command::Save(file) => self.save_command(file.as_deref()),
            Command::Moves => self.list_moves(),
            Command::Board => self.show(),
            Command::Resign => {
                let c = self.board.to_move();
                self.resigned = Some(Outcome::Win(c.opponent()));
                self.hint = None;
                self.after_move();
            }
            Command::Quit => {
                self.phase = Phase::Done;
                self.save_all();
                self.text("Bye.".to_string());
            }
            Command::Help => self.text(HELP.to_string()),
        }
    }

    fn refuse(&mut self, e: CommandError) {
        let msg = e.message(self.rules);
        self.text(self.style.error(&msg));
    }

    fn human_move(&mut self, m: Move) {
        if let Some(c) = self.board.at(m) {
            let by = (0..self.board.ply())
                .find(|&i| self.board.move_at(i).0 == m)
                .map(|i| format!(" at move {}", i + 1))
                .unwrap_or_default();
            let msg = format!(
                "{m} ({}) is already taken by {}{by}: choose an empty cell.",
                m.to_xy(),
                glyph(c),
            );
            self.text(self.style.error(&msg));
            return;
        }
        if let Err(e) = self.board.play(m) {
            self.text(self.style.error(&format!("{e}.")));
            return;
        }
        self.hint = None;
        self.after_move();
    }

    /// Takes back moves until one of a human's is taken back and a human
    /// is to move: against an AI, your move and its reply.
    fn undo(&mut self) {
        if !self.human_has_moved() {
            self.text(self.style.error("There is no move of yours to take back."));
            return;
        }
        let mut taken = Vec::new();
        while let Some(i) = self.board.ply().checked_sub(1) {
            let (_, c) = self.board.move_at(i);
            if let Some(m) = self.board.undo() {
                taken.push(format!("{} {m}", glyph(c)));
                if self.ai_search.as_ref().and_then(|i| i.best) == Some(m) {
                    self.ai_search = None;
                }
            }
            if self.seat(c).is_human() {
                break;
            }
        }
        taken.reverse();
        self.hint = None;
        self.show();
        self.text(format!("Took back {}.", taken.join(" and ")));
    }

    /// Whether a person has moved in this game (there is a move to take
    /// back).
    pub fn human_has_moved(&self) -> bool {
        (0..self.board.ply()).any(|i| {
            let (_, c) = self.board.move_at(i);
            self.seat(c).is_human()
        })
    }

    fn give_hint(&mut self) {
        match self.hint_player.choose(&self.board, &mut self.hint_rng) {
            Ok(m) => {
                self.hint = Some(m);
                self.show();
                let msg = format!(
                    "Hint: {} would play {m} ({}), marked * on the board.",
                    self.hint_name,
                    m.to_xy()
                );
                self.text(self.style.good(&msg));
            }
            Err(e) => {
                let msg = format!("No hint: {e}.");
                self.text(self.style.error(&msg));
            }
        }
    }

    fn play_again(&mut self, line: &str) {
        // The finished game is still on the board: it can be saved again,
        // or taken back and played on (its saved entry is then updated).
        match Command::parse(line, self.rules) {
            Ok(Command::Save(file)) => {
                self.save_command(file.as_deref());
                return;
            }
            Ok(Command::Undo) => {
                if self.human_has_moved() {
                    self.phase = Phase::Playing;
                    self.resigned = None;
                }
                self.undo();
                return;
            }
            _ => {}
        }
        match line.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" | "again" => self.start_game(),
            "s" | "swap" => {
                self.seats.swap(0, 1);
                self.start_game();
            }
            "n" | "no" | "q" | "quit" | "exit" => {
                self.text("Bye.".to_string());
                self.phase = Phase::Done;
            }
            "" => {}
            _ => self.text(
                "Please answer y to play again, n to stop, or s to play again with colours swapped \
                 (undo takes moves back and goes on; save FILE keeps the game in one more file)."
                    .to_string(),
            ),
        }
    }
}
