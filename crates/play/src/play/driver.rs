//! Running a session over a line-based input and a text output: the
//! terminal in `mnk play`, a `Cursor` and a `Vec<u8>` in tests.
//!
//! A [`Driver`] keeps the session and the output behind one lock so that
//! another thread (the Ctrl-C handler of `mnk play`) can stop the session
//! at any moment and save the game, even while the playing thread waits for
//! a line or an AI player thinks.

use super::session::{Out, Session, SessionError, Turn};
use std::borrow::BorrowMut;
use std::io::{BufRead, Write};
use std::sync::{Mutex, MutexGuard, PoisonError};
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
    input: impl BufRead,
    output: impl Write,
    term: Terminal,
) -> Result<(), SessionError> {
    Driver::new(session, output, term).run(input)
}

/// A session (`S` is a [`Session`] or a `&mut Session`) and its output,
/// played by one thread with [`Driver::run`] and stoppable from another
/// with [`Driver::interrupt`].
///
/// The playing thread holds the lock while it works on the session or
/// writes, and lets go of it while it waits for a line, pauses between
/// moves, or an AI player thinks ([`Session::take_ai_turn`]). So an
/// interruption is served at once, never sees a half-written screen or
/// records file, and saves the position before a move being thought about.
pub struct Driver<S, W> {
    inner: Mutex<Inner<S, W>>,
    term: Terminal,
}

impl<S, W> std::fmt::Debug for Driver<S, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("term", &self.term)
            .finish_non_exhaustive()
    }
}

struct Inner<S, W> {
    session: S,
    output: W,
}

/// What the playing thread does once the lock is let go.
enum Step {
    Done,
    Think(Box<super::session::AiTurn>, Duration),
    Read,
}

impl<S: BorrowMut<Session>, W: Write> Driver<S, W> {
    /// A driver for `session` writing to `output`.
    pub fn new(session: S, output: W, term: Terminal) -> Self {
        Driver {
            inner: Mutex::new(Inner { session, output }),
            term,
        }
    }

    /// The session and the output back.
    pub fn into_inner(self) -> (S, W) {
        let inner = self
            .inner
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        (inner.session, inner.output)
    }

    /// A panic elsewhere must not stop the game from being saved, so a
    /// poisoned lock is used as it is.
    fn lock(&self) -> MutexGuard<'_, Inner<S, W>> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Plays the session to its end (see [`run`]), or until it is
    /// interrupted.
    pub fn run(&self, mut input: impl BufRead) -> Result<(), SessionError> {
        let term = self.term;
        let mut line = Vec::new();
        loop {
            let step = {
                let mut guard = self.lock();
                let Inner { session, output } = &mut *guard;
                let session: &mut Session = session.borrow_mut();
                show(session, output, term)?;
                match session.turn() {
                    Turn::Done => {
                        output.flush()?;
                        Step::Done
                    }
                    Turn::Ai(color) => {
                        let pause = if session.watching() && session.board().ply() > 0 {
                            term.delay
                        } else {
                            Duration::ZERO
                        };
                        if term.clear && !session.watching() {
                            write!(output, "{} is thinking...", session.actor(color))?;
                        }
                        output.flush()?;
                        match session.take_ai_turn() {
                            Some(turn) => Step::Think(Box::new(turn), pause),
                            // Only when another thread is running this
                            // session's AI player: nothing to do here.
                            None => Step::Done,
                        }
                    }
                    Turn::Human(_) | Turn::PlayAgain => {
                        write!(output, "{}", session.prompt())?;
                        output.flush()?;
                        Step::Read
                    }
                }
            };
            match step {
                Step::Done => return Ok(()),
                Step::Think(mut turn, pause) => {
                    if !pause.is_zero() {
                        std::thread::sleep(pause);
                    }
                    turn.think();
                    self.lock().session.borrow_mut().finish_ai_turn(*turn)?;
                }
                Step::Read => {
                    line.clear();
                    let n = input.read_until(b'\n', &mut line);
                    let mut guard = self.lock();
                    let Inner { session, output } = &mut *guard;
                    let session: &mut Session = session.borrow_mut();
                    if session.turn() == Turn::Done {
                        // Interrupted while waiting: the line is not for us.
                        continue;
                    }
                    if n? == 0 {
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

    /// Stops the session from any thread: a game in progress is saved as
    /// unfinished (as at the end of input) and the messages are written.
    /// The session stays locked while the returned guard lives, so the
    /// playing thread cannot go on meanwhile: a Ctrl-C handler writes what
    /// else it has to say to [`Interrupted::output`] and exits the process
    /// before letting go of it.
    pub fn interrupt(&self) -> Interrupted<'_, S, W> {
        let mut guard = self.lock();
        let Inner { session, output } = &mut *guard;
        let session: &mut Session = session.borrow_mut();
        let was_on = session.turn() != Turn::Done;
        // Saved first: a broken output must not cost the game.
        session.interrupt();
        let written = (|| {
            if was_on {
                // Leave the line of the prompt (and the ^C a terminal shows).
                writeln!(output)?;
            }
            show(session, output, self.term)?;
            output.flush()
        })();
        Interrupted {
            guard,
            error: written.err(),
        }
    }
}

/// The locked session after [`Driver::interrupt`].
pub struct Interrupted<'a, S, W> {
    guard: MutexGuard<'a, Inner<S, W>>,
    error: Option<std::io::Error>,
}

impl<S, W> std::fmt::Debug for Interrupted<'_, S, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interrupted")
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl<S, W> Interrupted<'_, S, W> {
    /// The output, to say more before exiting.
    pub fn output(&mut self) -> &mut W {
        &mut self.guard.output
    }

    /// Why the messages could not be written, if they could not (the game
    /// is saved all the same).
    pub fn output_error(&mut self) -> Option<std::io::Error> {
        self.error.take()
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
    use super::super::session::tests::config;
    use super::super::{Config, SeatKind, Style};
    use super::*;
    use std::io::Cursor;

    #[test]
    fn ai_against_ai_runs_to_the_end_without_input() {
        let config = config(
            SeatKind::Ai("greedy".parse().unwrap()),
            SeatKind::Ai("exact".parse().unwrap()),
        );
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
        let config = config(
            SeatKind::Human("me".into()),
            SeatKind::Ai("greedy".parse().unwrap()),
        );
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

    /// An output that the test can read while a driver writes to it.
    #[derive(Clone, Default)]
    struct Shared(std::sync::Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn interrupted_while_waiting_for_a_line() {
        let config = config(
            SeatKind::Human("me".into()),
            SeatKind::Ai("greedy".parse().unwrap()),
        );
        let out = Shared::default();
        let driver = Driver::new(
            Session::new(config).unwrap(),
            out.clone(),
            Terminal::default(),
        );
        let (reader, mut writer) = std::io::pipe().unwrap();
        std::thread::scope(|scope| {
            let playing = scope.spawn(|| driver.run(std::io::BufReader::new(reader)));
            writer.write_all(b"b2\n").unwrap();
            let start = std::time::Instant::now();
            while !out.text().contains("Move 3: your move") || !out.text().ends_with("> ") {
                assert!(start.elapsed().as_secs() < 60, "{}", out.text());
                std::thread::sleep(Duration::from_millis(5));
            }
            let mut stopped = driver.interrupt();
            assert!(stopped.output_error().is_none());
            write!(stopped.output(), "(the end)").unwrap();
            drop(stopped);
            // A line typed after the interruption is not played.
            writer.write_all(b"a1\n").unwrap();
            playing.join().unwrap().unwrap();
        });
        let (session, _) = driver.into_inner();
        assert_eq!(session.board().ply(), 2);
        assert_eq!(session.turn(), Turn::Done);
        assert!(
            out.text().ends_with(
                "Your move (X) > \nInterrupted: stopping.\n\
                 The game is not recorded (no records file).\n(the end)"
            ),
            "{}",
            out.text()
        );
    }

    #[test]
    fn a_terminal_gets_redrawn_screens() {
        let config = Config {
            style: Style::COLOR,
            ..config(
                SeatKind::Human("me".into()),
                SeatKind::Ai("greedy".parse().unwrap()),
            )
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
