//! Running a session over a line-based input and a text output: the
//! terminal in `mnk play`, a `Cursor` and a `Vec<u8>` in tests.

use super::session::{Out, Session, SessionError, Turn};
use std::io::{BufRead, Write};
use std::time::Duration;

/// How to talk to the terminal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terminal {
    /// Clear the screen before each board (output is an interactive
    /// terminal); otherwise boards follow one another.
    pub clear: bool,
    /// Repeat each input line after the prompt (input is not a terminal,
    /// so a log of the output reads like a session).
    pub echo: bool,
    /// Pause between moves when two AI players play each other.
    pub delay: Duration,
}

/// Clears the screen and puts the cursor at the top-left corner.
pub const CLEAR_SCREEN: &str = "\x1b[H\x1b[2J";

/// Plays the session to its end: reads a line whenever a human is to move
/// or "play again?" is asked, lets the AI players move, and prints what the
/// session shows. End of input ends the session cleanly (saving the game).
pub fn run(
    session: &mut Session,
    mut input: impl BufRead,
    mut output: impl Write,
    term: Terminal,
) -> Result<(), SessionError> {
    let mut line = Vec::new();
    loop {
        show(session, &mut output, term)?;
        match session.turn() {
            Turn::Done => {
                output.flush()?;
                return Ok(());
            }
            Turn::Ai(color) => {
                if session.watching() && session.board().ply() > 0 && !term.delay.is_zero() {
                    output.flush()?;
                    std::thread::sleep(term.delay);
                }
                if term.clear && !session.watching() {
                    write!(output, "{} is thinking...", session.actor(color))?;
                    output.flush()?;
                }
                session.ai_move()?;
            }
            Turn::Human(_) | Turn::PlayAgain => {
                write!(output, "{}", session.prompt())?;
                output.flush()?;
                line.clear();
                let n = input.read_until(b'\n', &mut line)?;
                if n == 0 {
                    writeln!(output)?;
                    session.end_of_input();
                    continue;
                }
                let text = String::from_utf8_lossy(&line);
                let text = text.trim_end_matches(['\n', '\r']);
                if term.echo {
                    writeln!(output, "{text}")?;
                }
                session.input(text);
            }
        }
    }
}

fn show(session: &mut Session, output: &mut impl Write, term: Terminal) -> std::io::Result<()> {
    for item in session.take_output() {
        match item {
            Out::Screen(s) => {
                if term.clear {
                    write!(output, "{CLEAR_SCREEN}")?;
                } else {
                    writeln!(output)?;
                }
                write!(output, "{s}")?;
            }
            Out::Text(t) => writeln!(output, "{t}")?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{Config, SeatKind, Style};
    use super::*;
    use crate::game::Rules;
    use std::io::Cursor;

    #[test]
    fn ai_against_ai_runs_to_the_end_without_input() {
        let config = Config {
            rules: Rules::TICTACTOE,
            black: SeatKind::Ai("greedy".parse().unwrap()),
            white: SeatKind::Ai("exact".parse().unwrap()),
            hint: "greedy".parse().unwrap(),
            records: None,
            sgf: None,
            seed: 5,
            style: Style::PLAIN,
        };
        let mut s = Session::new(config).unwrap();
        let mut out = Vec::new();
        run(&mut s, Cursor::new(""), &mut out, Terminal::default()).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("Play again?"), "{out}");
        assert!(
            out.contains("wins") || out.contains("Draw"),
            "no result announced:\n{out}"
        );
        assert_eq!(s.turn(), Turn::Done);
    }

    #[test]
    fn end_of_input_mid_game_is_clean() {
        let config = Config {
            rules: Rules::TICTACTOE,
            black: SeatKind::Human("me".into()),
            white: SeatKind::Ai("greedy".parse().unwrap()),
            hint: "greedy".parse().unwrap(),
            records: None,
            sgf: None,
            seed: 5,
            style: Style::PLAIN,
        };
        let mut s = Session::new(config).unwrap();
        let mut out = Vec::new();
        let term = Terminal {
            echo: true,
            ..Terminal::default()
        };
        run(&mut s, Cursor::new("b2\r\nzz\n"), &mut out, term).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(!out.contains(CLEAR_SCREEN));
        assert!(out.contains("Your move (X) > b2\n"), "{out}");
        assert!(out.contains("\"zz\" is not a cell or a command"), "{out}");
        assert!(out.contains("End of input"), "{out}");
        assert_eq!(s.board().ply(), 2);
    }

    #[test]
    fn a_terminal_gets_redrawn_screens() {
        let config = Config {
            rules: Rules::TICTACTOE,
            black: SeatKind::Human("me".into()),
            white: SeatKind::Ai("greedy".parse().unwrap()),
            hint: "greedy".parse().unwrap(),
            records: None,
            sgf: None,
            seed: 5,
            style: Style::COLOR,
        };
        let mut s = Session::new(config).unwrap();
        let mut out = Vec::new();
        let term = Terminal {
            clear: true,
            ..Terminal::default()
        };
        run(&mut s, Cursor::new("b2\nquit\n"), &mut out, term).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out.matches(CLEAR_SCREEN).count(), 3, "{out}");
        assert!(out.contains("greedy is thinking..."), "{out}");
        assert!(!out.contains("> b2"), "no echo on a terminal");
    }
}
