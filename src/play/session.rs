//! A play session: one or more games between two seats (humans or AI
//! players), driven one input line or one AI move at a time.
//!
//! The session never touches the terminal. It queues what should be shown
//! ([`Out`]) and says whose turn it is ([`Turn`]); a driver (see
//! [`super::run`]) reads lines, asks the AI to move, sleeps and prints.

use super::command::{Command, CommandError, HELP};
use super::render::{glyph, render_board, Marks, Style};
use super::save::{SaveTarget, Saved};
use crate::arena::{game_rng, play_move, GameError};
use crate::game::{Board, Color, Move, Outcome, Rule, Rules};
use crate::players::{Player, PlayerSpec, Rng, SpecError};
use crate::records::{utc_now, Record, RecordError};
use std::path::{Path, PathBuf};

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
}

impl AiTurn {
    /// Chooses the move (the slow part) and plays it on the copy of the
    /// position, touching nothing of the session.
    pub fn think(&mut self) {
        if self.choice.is_none() {
            self.choice = Some(play_move(&mut *self.player, &mut self.board, &mut self.rng));
        }
    }
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
    /// When the current game started.
    date: String,
    /// The session's records files.
    targets: Vec<SaveTarget>,
    /// Files named by `save FILE` during the current game.
    extra: Vec<SaveTarget>,
    style: Style,
    out: Vec<Out>,
}

/// A short description of a game: `tictactoe: 3x3, 3 in a row`.
pub fn describe_rules(rules: Rules) -> String {
    let exactly = if rules.rule == Rule::Exact {
        "exactly "
    } else {
        ""
    };
    format!(
        "{rules}: {}x{}, {exactly}{} in a row",
        rules.width, rules.height, rules.k
    )
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

    /// The prompt for the next input line.
    pub fn prompt(&self) -> String {
        let p = match self.turn() {
            Turn::Human(c) if self.humans() == 1 => format!("Your move ({}) > ", glyph(c)),
            Turn::Human(c) => format!("{}'s move ({}) > ", self.actor(c), glyph(c)),
            Turn::PlayAgain => "Play again? y(es), n(o) or s(wap colours) > ".to_string(),
            Turn::Ai(_) | Turn::Done => "> ".to_string(),
        };
        self.style.bold(&p)
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
            self.save_all("");
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
        let player = self.seats[color.index()].player.take()?;
        let rng = std::mem::replace(&mut self.rng, game_rng(self.seed, &[]));
        Some(AiTurn {
            color,
            player,
            board: self.board.clone(),
            taken_at: (self.board.ply(), self.board.hash()),
            rng,
            choice: None,
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
        } = turn;
        let choice = choice.unwrap_or_else(|| play_move(&mut *player, &mut board, &mut rng));
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
            self.save_all("");
            return Err(e);
        }
        // The copy is the session's position (`current`) with the move played.
        self.board = board;
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

    /// Who plays `c`, for messages: `you`, the AI's name, the person's
    /// name, or the colour when two people share the default name.
    pub fn actor(&self, c: Color) -> String {
        let seat = self.seat(c);
        match &seat.kind {
            SeatKind::Human(_) if self.humans() == 1 => "you".to_string(),
            SeatKind::Human(name) => {
                let other = &self.seat(c.opponent()).kind;
                if name.is_empty() || *other == SeatKind::Human(name.clone()) {
                    c.to_string()
                } else {
                    name.clone()
                }
            }
            SeatKind::Ai(_) => seat.ai_name.clone().unwrap_or_else(|| c.to_string()),
        }
    }

    /// `you (black, X)`, `greedy (white, O)` or `black (X)`.
    fn actor_with_side(&self, c: Color) -> String {
        let a = self.actor(c);
        if a == c.to_string() {
            format!("{a} ({})", self.style.stone(c))
        } else {
            format!("{a} ({c}, {})", self.style.stone(c))
        }
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
        self.date = utc_now();
        self.phase = Phase::Playing;
        self.show();
    }

    /// The result, if the game has ended on the board or by resignation.
    fn result(&self) -> Option<Outcome> {
        self.board.outcome().or(self.resigned)
    }

    /// Queues the screen.
    fn show(&mut self) {
        let s = self.screen();
        self.out.push(Out::Screen(s));
    }

    /// The title, the board and the status lines.
    pub fn screen(&self) -> String {
        let st = self.style;
        let mut s = String::new();
        let side = |c: Color| format!("{} {}", st.stone(c), st.bold(&self.actor(c)));
        s.push_str(&format!(
            "{}   {} vs {}   {}\n\n",
            st.bold(&describe_rules(self.rules)),
            side(Color::Black),
            side(Color::White),
            st.dim(&format!("game {}", self.game)),
        ));
        let mut marks = Marks::of(&self.board);
        marks.hint = self.hint;
        s.push_str(&render_board(&self.board, &marks, st));
        s.push('\n');
        match self.result() {
            Some(outcome) => {
                s.push_str(&st.bold(&self.result_text(outcome)));
                s.push('\n');
            }
            None => {
                let c = self.board.to_move();
                let status = if self.seat(c).is_human() && self.humans() == 1 {
                    format!("your move ({c}, {})", st.stone(c))
                } else {
                    format!("{} to play", self.actor_with_side(c))
                };
                s.push_str(&format!("Move {}: {status}", self.board.ply() + 1));
                if let Some(m) = self.board.last_move() {
                    let c = c.opponent();
                    s.push_str(&format!(
                        "   {}",
                        st.dim(&format!("last: {} {m} by {}", glyph(c), self.actor(c)))
                    ));
                }
                s.push('\n');
            }
        }
        s
    }

    /// The result in words, such as `You win! Five in a row at move 17.`
    fn result_text(&self, outcome: Outcome) -> String {
        let n = self.board.ply();
        let moves = |n: usize| format!("{n} move{}", if n == 1 { "" } else { "s" });
        match outcome {
            Outcome::Draw => format!("Draw: the board is full after {}.", moves(n)),
            Outcome::Win(c) => {
                let winner = self.actor(c);
                let how = if self.board.outcome().is_some() {
                    format!("{} in a row at move {n}", self.rules.k)
                } else {
                    let loser = self.actor(c.opponent());
                    let gives_up = if loser == "you" {
                        "you resign"
                    } else {
                        "resigns"
                    };
                    if loser == "you" {
                        format!("{gives_up} after {}", moves(n))
                    } else {
                        format!("{loser} {gives_up} after {}", moves(n))
                    }
                };
                if winner == "you" {
                    format!("You win ({}): {how}!", self.style.stone(c))
                } else {
                    format!("{} wins: {how}.", self.actor_with_side(c))
                }
            }
        }
    }

    /// After any move: the screen, and the end of the game if it ended.
    fn after_move(&mut self) {
        self.show();
        if self.result().is_some() {
            self.finish_game();
        }
    }

    fn finish_game(&mut self) {
        self.save_all("");
        self.phase = Phase::PlayAgain;
    }

    /// Saves the game to every records file of the session and of the
    /// game; `what` prefixes the report. A game without moves is not kept.
    fn save_all(&mut self, what: &str) {
        if self.board.ply() == 0 && self.resigned.is_none() {
            self.text("No moves were played, so there is nothing to save.".to_string());
            return;
        }
        let record = self.record();
        let mut done: Vec<Saved> = Vec::new();
        let mut failed: Vec<String> = Vec::new();
        for t in self.targets.iter_mut().chain(self.extra.iter_mut()) {
            match t.save(&record) {
                Ok(s) => done.push(s),
                Err(e) => failed.push(e.to_string()),
            }
        }
        self.report_saves(what, &record, &done, &failed);
    }

    fn report_saves(&mut self, what: &str, record: &Record, done: &[Saved], failed: &[String]) {
        let state = match record.result {
            Some(_) => "",
            None => " (unfinished)",
        };
        if !done.is_empty() {
            let places: Vec<String> = done
                .iter()
                .map(|s| format!("{} (game {})", s.path.display(), s.number))
                .collect();
            let msg = format!(
                "{what}Saved the game{state}, {}, to {}.",
                plural(record.plies(), "move"),
                places.join(" and ")
            );
            self.text(self.style.good(&msg));
        }
        for f in failed {
            self.text(self.style.error(&format!("Could not save the game: {f}")));
        }
        if done.is_empty() && failed.is_empty() {
            // Once the session is over there is no prompt to type at.
            let advice = match self.phase {
                Phase::Done => "",
                _ => ": type save FILE to keep it",
            };
            self.text(format!(
                "The game is not recorded (no records file){advice}."
            ));
        }
        if !failed.is_empty() {
            self.text(format!(
                "Here it is, so it is not lost (CSV records layout):\n{}",
                record.to_csv().trim_end()
            ));
        }
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
                self.save_all("");
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

    fn human_has_moved(&self) -> bool {
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

    fn save_command(&mut self, file: Option<&Path>) {
        if let Some(path) = file {
            let known = self
                .targets
                .iter()
                .chain(self.extra.iter())
                .any(|t| t.path() == path);
            if !known {
                match SaveTarget::open(path, self.rules) {
                    Ok(t) => self.extra.push(t),
                    Err(e) => {
                        let msg = format!("Not saved: {e}");
                        self.text(self.style.error(&msg));
                        return;
                    }
                }
            }
        }
        if self.board.ply() == 0 {
            self.text("No moves yet: nothing to save.".to_string());
            return;
        }
        let record = self.record();
        let mut done = Vec::new();
        let mut failed = Vec::new();
        for t in self.targets.iter_mut().chain(self.extra.iter_mut()) {
            let wanted = match file {
                Some(p) => t.path() == p,
                None => true,
            };
            if wanted {
                match t.save(&record) {
                    Ok(s) => done.push(s),
                    Err(e) => failed.push(e.to_string()),
                }
            }
        }
        self.report_saves("", &record, &done, &failed);
        if !done.is_empty() && self.phase == Phase::Playing {
            self.text(self.style.dim(
                "It will be updated in place as the game goes on (at its end, or when you quit).",
            ));
        }
    }

    fn list_moves(&mut self) {
        if self.board.ply() == 0 {
            self.text("No moves yet.".to_string());
            return;
        }
        let items: Vec<String> = (0..self.board.ply())
            .map(|i| {
                let (m, c) = self.board.move_at(i);
                format!("{:>3}. {} {:<4}", i + 1, glyph(c), m.to_string())
            })
            .collect();
        let lines: Vec<String> = items
            .chunks(6)
            .map(|chunk| chunk.join(" ").trim_end().to_string())
            .collect();
        self.text(lines.join("\n"));
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

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(black: SeatKind, white: SeatKind) -> Config {
        Config {
            rules: Rules::TICTACTOE,
            black,
            white,
            hint: "greedy".parse().unwrap(),
            records: None,
            sgf: None,
            seed: 3,
            style: Style::PLAIN,
        }
    }

    fn human() -> SeatKind {
        SeatKind::Human("human".into())
    }

    fn texts(s: &mut Session) -> String {
        s.take_output()
            .into_iter()
            .map(|o| match o {
                Out::Screen(t) | Out::Text(t) => t,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn two_humans_play_to_a_win() {
        let mut s = Session::new(config(human(), human())).unwrap();
        let first = texts(&mut s);
        assert!(first.contains("Move 1: black (X) to play"), "{first}");
        for m in ["a1", "a2", "b2", "a3"] {
            s.input(m);
        }
        s.input("a3");
        assert!(texts(&mut s).contains("already taken by O at move 4"));
        s.input("c3");
        let out = texts(&mut s);
        assert!(
            out.contains("black (X) wins: 3 in a row at move 5."),
            "{out}"
        );
        assert!(out.contains("(X)"), "{out}");
        assert_eq!(s.turn(), Turn::PlayAgain);
        s.input("maybe");
        assert!(texts(&mut s).contains("Please answer"));
        // Taken back after the end: the game goes on.
        s.input("undo");
        assert!(texts(&mut s).contains("Took back X c3."));
        assert_eq!(s.turn(), Turn::Human(Color::Black));
        s.input("c3");
        assert_eq!(s.turn(), Turn::PlayAgain);
        s.input("n");
        assert_eq!(s.turn(), Turn::Done);
    }

    #[test]
    fn undo_takes_back_the_ai_reply_too() {
        let ai = SeatKind::Ai("greedy".parse().unwrap());
        let mut s = Session::new(config(human(), ai)).unwrap();
        s.input("undo");
        assert!(texts(&mut s).contains("no move of yours"));
        s.input("b2");
        assert_eq!(s.turn(), Turn::Ai(Color::White));
        s.ai_move().unwrap();
        assert_eq!(s.board().ply(), 2);
        s.input("undo");
        assert_eq!(s.board().ply(), 0);
        assert!(texts(&mut s).contains("Took back X b2 and O "));
        assert_eq!(s.turn(), Turn::Human(Color::Black));
    }

    #[test]
    fn ai_first_and_hint() {
        let ai = SeatKind::Ai("greedy".parse().unwrap());
        let mut s = Session::new(config(ai, human())).unwrap();
        assert_eq!(s.turn(), Turn::Ai(Color::Black));
        s.ai_move().unwrap();
        texts(&mut s);
        s.input("hint");
        let out = texts(&mut s);
        assert!(out.contains("Hint: greedy would play"), "{out}");
        assert!(out.contains('*'), "{out}");
        assert_eq!(s.board().ply(), 1);
    }

    #[test]
    fn save_at_the_play_again_prompt() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Session::new(config(human(), human())).unwrap();
        for m in ["a1", "a2", "b1", "b2", "c1"] {
            s.input(m);
        }
        let out = texts(&mut s);
        assert!(out.contains("not recorded (no records file)"), "{out}");
        let path = dir.path().join("late.sgf");
        s.input(&format!("save {}", path.display()));
        let out = texts(&mut s);
        assert!(out.contains("Saved the game, 5 moves, to "), "{out}");
        assert!(!out.contains("updated in place"), "{out}");
        assert_eq!(s.turn(), Turn::PlayAgain);
        let games = crate::records::read_records(&path, Rules::GOMOKU).unwrap();
        assert_eq!(games[0].result, Some(Outcome::Win(Color::Black)));
    }

    #[test]
    fn interrupted_while_the_ai_thinks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let ai = SeatKind::Ai("greedy".parse().unwrap());
        let mut s = Session::new(Config {
            records: Some(path.clone()),
            ..config(human(), ai)
        })
        .unwrap();
        s.input("b2");
        let mut turn = s.take_ai_turn().expect("greedy is to move");
        assert!(s.take_ai_turn().is_none(), "the player is away");
        texts(&mut s);
        s.interrupt();
        assert_eq!(
            texts(&mut s),
            format!(
                "Interrupted: stopping.\nSaved the game (unfinished), 1 move, to {} (game 1).",
                path.display()
            )
        );
        turn.think();
        s.finish_ai_turn(turn).unwrap();
        assert_eq!(s.board().ply(), 1, "the move came too late");
        assert_eq!(s.turn(), Turn::Done);
        assert_eq!(s.actor(Color::White), "greedy");
        let games = crate::records::read_records(&path, Rules::TICTACTOE).unwrap();
        assert_eq!((games.len(), games[0].plies()), (1, 1));
    }

    #[test]
    fn resign_and_swap() {
        let ai = SeatKind::Ai("random".parse().unwrap());
        let mut s = Session::new(config(human(), ai)).unwrap();
        s.input("a1");
        s.ai_move().unwrap();
        s.input("resign");
        let out = texts(&mut s);
        assert!(
            out.contains("random (white, O) wins: you resign after 2 moves."),
            "{out}"
        );
        assert_eq!(s.record().result, Some(Outcome::Win(Color::White)));
        s.input("s");
        assert_eq!(s.game_number(), 2);
        assert_eq!(s.turn(), Turn::Ai(Color::Black));
        assert_eq!(s.record().white, "human");
    }
}
