//! Stepping through a recorded game, one screen per position.

use super::render::{glyph, render_board, Marks, Style};
use super::session::describe_rules;
use crate::game::{Board, Color, Outcome, PlayError};
use crate::records::Record;

/// A recorded game being replayed: the position after `ply` moves, from 0
/// (the empty board) to the whole game.
///
/// ```
/// use mnk::game::Rules;
/// use mnk::play::{Replay, Style};
/// let games = mnk::records::parse_csv("0\n1,1\n0,0\n1,0\n2,0\n1,2\n1,-1\n", Rules::TICTACTOE).unwrap();
/// let mut r = Replay::new(&games[0], 1, 1, Style::PLAIN).unwrap();
/// assert!(r.screen().contains("5 moves to play"));
/// while r.step() {}
/// assert!(r.screen().contains("Move 5 of 5: X b3"));
/// assert!(r.screen().contains("Result: black wins"));
/// assert!(r.back() && r.back());
/// assert!(r.screen().contains("Move 3 of 5"));
/// while r.back() {}
/// assert_eq!(r.ply(), 0);
/// ```
#[derive(Debug)]
pub struct Replay<'a> {
    record: &'a Record,
    board: Board,
    number: usize,
    total: usize,
    style: Style,
    /// The outcome on the board at the end of the game.
    board_outcome: Option<Outcome>,
}

impl<'a> Replay<'a> {
    /// Starts at the empty board. `number` and `total` place the game in
    /// its file for the title. Fails if the record's moves are illegal
    /// (records read from files were checked already).
    pub fn new(
        record: &'a Record,
        number: usize,
        total: usize,
        style: Style,
    ) -> Result<Replay<'a>, PlayError> {
        // Check the whole game up front so stepping cannot fail.
        let end = record.replay()?;
        Ok(Replay {
            board_outcome: end.outcome(),
            record,
            board: Board::new(record.rules),
            number,
            total,
            style,
        })
    }

    /// Moves played so far.
    pub fn ply(&self) -> usize {
        self.board.ply()
    }

    /// Whether every move has been played.
    pub fn at_end(&self) -> bool {
        self.board.ply() == self.record.moves.len()
    }

    /// Plays the next move; `false` if there is none.
    pub fn step(&mut self) -> bool {
        match self.record.moves.get(self.board.ply()) {
            Some(&m) => {
                self.board.play_unchecked(m);
                true
            }
            None => false,
        }
    }

    /// Takes the last move back; `false` at the empty board.
    pub fn back(&mut self) -> bool {
        self.board.undo().is_some()
    }

    /// The title line: game number, players, game and date.
    pub fn title(&self) -> String {
        let r = self.record;
        let name = |c: Color| {
            let n = r.player(c);
            let n = if n.is_empty() { "?" } else { n };
            format!("{} {}", self.style.stone(c), self.style.bold(n))
        };
        let mut s = format!(
            "Game {} of {}: {} vs {}   {}",
            self.number,
            self.total,
            name(Color::Black),
            name(Color::White),
            describe_rules(r.rules)
        );
        if let Some(d) = &r.date {
            s.push_str(&self.style.dim(&format!("   {d}")));
        }
        s
    }

    /// The result line for the end of the game.
    pub fn result_line(&self) -> String {
        let r = self.record;
        let n = r.plies();
        let text = match r.result {
            None => format!("Unfinished after {n} moves."),
            Some(Outcome::Draw) => format!("Result: draw after {n} moves."),
            Some(Outcome::Win(c)) => {
                let how = if self.board_outcome.is_some() {
                    format!("{} in a row at move {n}", r.rules.k)
                } else {
                    format!("{} resigned after {n} moves", c.opponent())
                };
                format!("Result: {c} wins ({}), {how}.", glyph(c))
            }
        };
        self.style.bold(&text)
    }

    /// The screen for the current position: title, board and status.
    pub fn screen(&self) -> String {
        let mut s = self.title();
        s.push_str("\n\n");
        s.push_str(&render_board(
            &self.board,
            &Marks::of(&self.board),
            self.style,
        ));
        s.push('\n');
        let n = self.record.moves.len();
        match self.board.ply() {
            0 => s.push_str(&format!("Start: {n} moves to play.")),
            p => {
                let (m, c) = self.board.move_at(p - 1);
                s.push_str(&format!(
                    "Move {p} of {n}: {} {m}{}",
                    self.style.stone(c),
                    self.style.dim(&format!(" ({})", m.to_xy()))
                ));
            }
        }
        s.push('\n');
        if self.at_end() {
            s.push_str(&self.result_line());
            s.push('\n');
        }
        s
    }
}
