//! One Gomocup engine process, driven from the manager's side: spawn it,
//! send commands, read its answers with deadlines, end it.
//!
//! Engines are untrusted. A reader thread turns the engine's output into
//! lines (CR, LF or CR LF; each cut at [`MAX_LINE`] bytes) and hands them
//! over a bounded channel stamped with the time they arrived, so a silent
//! engine never blocks the runner past its deadline, a chatty one cannot
//! fill memory (it blocks on its own output and times out), and the answer
//! time does not include the runner's own delays.

use super::errors::{BrainsError, Fault};
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest line kept from an engine, in bytes; the rest of a longer line
/// is dropped (no protocol line comes near it).
pub const MAX_LINE: usize = 4096;

/// Lines buffered between the reader thread and the game.
const CHANNEL_LINES: usize = 1024;

/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(20);

/// How long an engine may take to exit after `END` before it is killed.
pub const END_GRACE: Duration = Duration::from_secs(1);

/// An engine's command line, split into program and arguments as a POSIX
/// shell would (quotes and backslashes; no variables or globs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    /// The command line as given.
    pub line: String,
    /// The program to start.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

impl FromStr for EngineCommand {
    type Err = BrainsError;

    fn from_str(line: &str) -> Result<EngineCommand, BrainsError> {
        let bad = |problem| BrainsError::BadCommand {
            line: line.to_string(),
            problem,
        };
        let words = shlex::split(line).ok_or_else(|| bad("unbalanced quotes or a trailing \\"))?;
        let (program, args) = words.split_first().ok_or_else(|| bad("no program named"))?;
        Ok(EngineCommand {
            line: line.to_string(),
            program: program.clone(),
            args: args.to_vec(),
        })
    }
}

/// What the reader thread saw.
enum Event {
    /// A whole line (without its end), and when it arrived.
    Line(String, Instant),
    /// The engine's output closed (or could not be read).
    Closed(String),
}

/// A line read from the engine, and when it arrived.
#[derive(Debug)]
pub(crate) struct Line {
    pub text: String,
    pub at: Instant,
}

/// Why a wait for a line ended without one.
#[derive(Debug)]
pub(crate) enum NoLine {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output.
    Closed(String),
    /// The match is being stopped.
    Stopped,
}

/// A running engine. Dropping it kills the process if it still runs.
#[derive(Debug)]
pub(crate) struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    /// Set once the output closed, so later waits fail at once.
    closed: Option<String>,
}

impl Engine {
    /// Starts the engine with piped input and output; its stderr is
    /// inherited when `show_stderr`, else discarded.
    pub fn spawn(cmd: &EngineCommand, show_stderr: bool) -> std::io::Result<Engine> {
        let mut command = Command::new(&cmd.program);
        command
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if show_stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        // A process group of its own: Ctrl-C in the terminal reaches the
        // runner only, which then ends its games and kills the engines,
        // instead of every engine dying mid-game and being scored as a crash.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = sync_channel(CHANNEL_LINES);
        // Not joined: a grandchild holding the pipe open could keep it
        // reading after the engine is killed; it ends when the pipe closes
        // or the receiver is dropped.
        std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || read_lines(stdout, |e| tx.send(e).is_ok()))?;
        Ok(Engine {
            child,
            stdin,
            lines: rx,
            closed: None,
        })
    }

    /// Sends one command line (CR LF ended, as managers do) and flushes.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        let stdin = self.stdin.as_mut().ok_or_else(|| Fault::Crashed {
            what: "its input is closed".into(),
        })?;
        let sent = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\r\n"))
            .and_then(|()| stdin.flush());
        sent.map_err(|e| Fault::Crashed {
            what: format!("cannot write {line:?} to it: {e}"),
        })
    }

    /// The next line, waiting until `deadline` at most; gives up early
    /// when `stop` is set.
    pub fn next_line(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<Line, NoLine> {
        if let Some(what) = &self.closed {
            return Err(NoLine::Closed(what.clone()));
        }
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(NoLine::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(NoLine::Timeout);
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(Event::Line(text, at)) => return Ok(Line { text, at }),
                Ok(Event::Closed(what)) => {
                    let what = self.exit_note(what);
                    self.closed = Some(what.clone());
                    return Err(NoLine::Closed(what));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    let what = self.exit_note("end of output".into());
                    self.closed = Some(what.clone());
                    return Err(NoLine::Closed(what));
                }
            }
        }
    }

    /// `what`, with the exit status if the process has exited by now.
    fn exit_note(&mut self, what: String) -> String {
        // The output closes a moment before the process is reaped.
        for _ in 0..10 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!("{what} ({status})");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        what
    }

    /// Sends `END` (when `polite`) and closes the engine's input.
    pub fn begin_end(&mut self, polite: bool) {
        if polite {
            let _ = self.send("END");
        }
        self.stdin = None;
    }

    /// Waits until `deadline` for the process to exit, then kills it.
    pub fn finish(&mut self, deadline: Instant) {
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) if Instant::now() >= deadline => break,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        self.kill();
    }

    /// Kills the engine and whatever it started (a shell script's
    /// children would otherwise live on), then reaps it. Called only while
    /// the process is unreaped, so its process group id cannot have been
    /// reused.
    fn kill(&mut self) {
        #[cfg(unix)]
        {
            extern "C" {
                fn kill(pid: i32, sig: i32) -> i32;
            }
            const SIGKILL: i32 = 9;
            if let Ok(pid) = i32::try_from(self.child.id()) {
                // SAFETY: kill(2) has no memory preconditions; the negative
                // pid names the group the engine leads (see `spawn`).
                unsafe {
                    kill(-pid, SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// Ends several engines: `END` to each, then one shared grace period for
/// all to exit before the rest are killed.
pub(crate) fn end_all(engines: &mut [Option<Engine>], polite: bool) {
    for e in engines.iter_mut().flatten() {
        e.begin_end(polite);
    }
    let deadline = Instant::now() + if polite { END_GRACE } else { Duration::ZERO };
    for e in engines.iter_mut().flatten() {
        e.finish(deadline);
    }
}

/// Splits `from` into lines for `deliver` (which returns false when no one
/// listens any more). CR, LF and CR LF end a line; empty lines are
/// skipped; bytes past [`MAX_LINE`] in a line are dropped; a last line
/// without its end is not a line.
fn read_lines(mut from: impl Read, mut deliver: impl FnMut(Event) -> bool) {
    let mut buf = [0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => {
                deliver(Event::Closed("end of output".into()));
                return;
            }
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                deliver(Event::Closed(format!("cannot read its output: {e}")));
                return;
            }
        };
        let at = Instant::now();
        for &b in &buf[..n] {
            if b == b'\n' || b == b'\r' {
                if !line.is_empty() {
                    let text = String::from_utf8_lossy(&line).into_owned();
                    line.clear();
                    if !deliver(Event::Line(text, at)) {
                        return;
                    }
                }
            } else if line.len() < MAX_LINE {
                line.push(b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(input: &[u8]) -> (Vec<String>, bool) {
        let mut out = Vec::new();
        let mut closed = false;
        read_lines(input, |e| {
            match e {
                Event::Line(t, _) => out.push(t),
                Event::Closed(_) => closed = true,
            }
            true
        });
        (out, closed)
    }

    #[test]
    fn lines_end_in_cr_lf_or_both_and_long_ones_are_cut() {
        let (lines, closed) = lines_of(b"OK\r\n7,7\n\nMESSAGE x\r8,8\r\npartial");
        assert_eq!(lines, ["OK", "7,7", "MESSAGE x", "8,8"]);
        assert!(closed);
        let long = vec![b'9'; 3 * MAX_LINE];
        let (lines, _) = lines_of(&[&long[..], b"\n1,2\n"].concat());
        assert_eq!(lines[0].len(), MAX_LINE);
        assert_eq!(lines[1], "1,2");
        let (lines, _) = lines_of(b"\xff\xfe,\x00\n");
        assert_eq!(lines.len(), 1, "invalid UTF-8 is still a line");
    }

    #[test]
    fn commands_split_like_a_shell() {
        let c: EngineCommand = "'/tmp/my dir/mnk' brain --weights \"a b.toml\""
            .parse()
            .unwrap();
        assert_eq!(c.program, "/tmp/my dir/mnk");
        assert_eq!(c.args, ["brain", "--weights", "a b.toml"]);
        assert!("".parse::<EngineCommand>().is_err());
        assert!("  ".parse::<EngineCommand>().is_err());
        let e = "mnk 'brain".parse::<EngineCommand>().unwrap_err();
        assert!(e.to_string().contains("quotes"), "{e}");
    }
}
