//! What a player types at the prompt: a cell or a command.

use crate::game::{Move, Rules};
use std::path::PathBuf;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line: ask again.
    Nothing,
    /// Place a stone.
    Play(Move),
    /// Take back the last own move (and the AI's reply).
    Undo,
    /// Ask the AI for a move.
    Hint,
    /// Save the game so far: to the session's files, or to this file.
    Save(Option<PathBuf>),
    /// List the moves so far.
    Moves,
    /// Draw the board again.
    Board,
    /// Give up this game.
    Resign,
    /// Save and leave.
    Quit,
    /// List the commands.
    Help,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// It looks like a cell, but that cell is not on the board.
    OffBoard(String),
    /// Neither a cell nor a command.
    Unknown(String),
}

impl CommandError {
    /// The message to show, for a board of `rules`.
    pub fn message(&self, rules: Rules) -> String {
        match self {
            CommandError::OffBoard(text) => format!(
                "{text} is off the board: columns run from a to {}, rows from 1 to {} (or x,y from 0,0 to {},{}).",
                (b'a' + rules.width - 1) as char,
                rules.height,
                rules.width - 1,
                rules.height - 1
            ),
            CommandError::Unknown(text) => format!(
                "{text:?} is not a cell or a command. Type a cell such as {} (or {}), or help.",
                rules.center(),
                rules.center().to_xy()
            ),
        }
    }
}

/// The commands, for `help`.
pub const HELP: &str = "\
Type a cell to play there: a column letter and a row number (h8), or 0-based
x,y numbers (7,7), counted from the top-left corner.

  undo         take back your last move (and the AI's reply)
  hint         ask the AI which move it would play for you
  save [FILE]  save the game so far (to FILE if given: .sgf for SGF)
  moves        list the moves so far
  board        draw the board again
  resign       give up this game
  quit         save the game and stop (end of input, Ctrl-D, does the same)
  help         show this list";

impl Command {
    /// Reads one line, for a board of `rules`. Words are case-insensitive;
    /// cells are `h8` (also `H8`, `h 8`) or `7,7`.
    ///
    /// ```
    /// use mnk::game::{Move, Rules};
    /// use mnk::play::{Command, CommandError};
    /// let r = Rules::TICTACTOE;
    /// assert_eq!(Command::parse("b2", r), Ok(Command::Play(Move::new(1, 1))));
    /// assert_eq!(Command::parse(" 1,1 ", r), Ok(Command::Play(Move::new(1, 1))));
    /// assert_eq!(Command::parse("UNDO", r), Ok(Command::Undo));
    /// assert!(matches!(Command::parse("d4", r), Err(CommandError::OffBoard(_))));
    /// assert!(matches!(Command::parse("hello", r), Err(CommandError::Unknown(_))));
    /// ```
    pub fn parse(line: &str, rules: Rules) -> Result<Command, CommandError> {
        let text = line.trim();
        if text.is_empty() {
            return Ok(Command::Nothing);
        }
        let (word, rest) = match text.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (text, ""),
        };
        let word = word.to_ascii_lowercase();
        let command = match word.as_str() {
            "undo" | "u" | "takeback" | "back" => Some(Command::Undo),
            "hint" => Some(Command::Hint),
            "save" => Some(Command::Save(
                (!rest.is_empty()).then(|| PathBuf::from(rest)),
            )),
            "moves" | "history" => Some(Command::Moves),
            "board" | "show" => Some(Command::Board),
            "resign" => Some(Command::Resign),
            "quit" | "q" | "exit" => Some(Command::Quit),
            "help" | "?" | "commands" => Some(Command::Help),
            _ => None,
        };
        if let Some(c) = command {
            // Only `save` takes an argument.
            if rest.is_empty() || matches!(c, Command::Save(_)) {
                return Ok(c);
            }
            return Err(CommandError::Unknown(text.to_string()));
        }
        parse_cell(text, rules)
    }
}

/// A cell, `h8` or `x,y`, checked against the board size.
fn parse_cell(text: &str, rules: Rules) -> Result<Command, CommandError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let lower = compact.to_ascii_lowercase();
    let off = || Err(CommandError::OffBoard(text.to_string()));
    if let Some((a, b)) = lower.split_once(',') {
        let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) else {
            return Err(CommandError::Unknown(text.to_string()));
        };
        if x < 0 || y < 0 || x >= i64::from(rules.width) || y >= i64::from(rules.height) {
            return off();
        }
        return Ok(Command::Play(Move::new(x as u8, y as u8)));
    }
    let mut chars = lower.chars();
    let Some(col) = chars.next().filter(char::is_ascii_lowercase) else {
        return Err(CommandError::Unknown(text.to_string()));
    };
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CommandError::Unknown(text.to_string()));
    }
    let x = col as u8 - b'a';
    let row = digits.parse::<u64>().unwrap_or(u64::MAX);
    if x >= rules.width || row == 0 || row > u64::from(rules.height) {
        return off();
    }
    Ok(Command::Play(Move::new(x, (row - 1) as u8)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells() {
        let g = Rules::GOMOKU;
        let play = |x, y| Ok(Command::Play(Move::new(x, y)));
        assert_eq!(Command::parse("h8", g), play(7, 7));
        assert_eq!(Command::parse("H8", g), play(7, 7));
        assert_eq!(Command::parse("h 8", g), play(7, 7));
        assert_eq!(Command::parse("7,7", g), play(7, 7));
        assert_eq!(Command::parse("7, 7", g), play(7, 7));
        assert_eq!(Command::parse("o15", g), play(14, 14));
        assert_eq!(Command::parse("14,14", g), play(14, 14));
        for bad in [
            "p1",
            "a0",
            "a16",
            "15,0",
            "-1,3",
            "a99999999999999999999",
            "0,300",
        ] {
            assert_eq!(
                Command::parse(bad, g),
                Err(CommandError::OffBoard(bad.into())),
                "{bad}"
            );
        }
        for bad in ["zz", "8", "a1b", ",", "x,y", "h8!", "1,2,3", "ä1"] {
            assert_eq!(
                Command::parse(bad, g),
                Err(CommandError::Unknown(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn commands() {
        let r = Rules::TICTACTOE;
        assert_eq!(Command::parse("", r), Ok(Command::Nothing));
        assert_eq!(Command::parse("  \t", r), Ok(Command::Nothing));
        assert_eq!(Command::parse("Hint", r), Ok(Command::Hint));
        assert_eq!(Command::parse("save", r), Ok(Command::Save(None)));
        assert_eq!(
            Command::parse("save my game.sgf", r),
            Ok(Command::Save(Some(PathBuf::from("my game.sgf"))))
        );
        assert_eq!(Command::parse("q", r), Ok(Command::Quit));
        assert_eq!(Command::parse("?", r), Ok(Command::Help));
        assert!(Command::parse("undo 3", r).is_err());
    }

    #[test]
    fn messages_name_the_board() {
        let r = Rules::TICTACTOE;
        let m = CommandError::OffBoard("d4".into()).message(r);
        assert!(
            m.contains("a to c") && m.contains("1 to 3") && m.contains("2,2"),
            "{m}"
        );
        let m = CommandError::Unknown("zz".into()).message(r);
        assert!(m.contains("\"zz\"") && m.contains("b2"), "{m}");
    }
}
