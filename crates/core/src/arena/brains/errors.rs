//! What can go wrong in a brain-vs-brain match: errors that stop the match
//! before it starts ([`BrainsError`]) and an engine's faults in one game
//! ([`Fault`]), which lose that game for the engine and are counted.

use std::fmt;

/// Longest piece of an engine's output quoted in a message: engines are
/// untrusted, and a megabyte of garbage would bury the report.
const QUOTE_CHARS: usize = 60;

/// An engine's line, shortened for a message (`…` marks the cut).
pub(crate) fn quote(text: &str) -> String {
    let mut out: String = text.chars().take(QUOTE_CHARS).collect();
    if text.chars().nth(QUOTE_CHARS).is_some() {
        out.push('…');
    }
    format!("{out:?}")
}

/// Why a brain-vs-brain match cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum BrainsError {
    /// An engine's command line is empty or cannot be split into words.
    #[error("engine command {line:?}: {problem}")]
    BadCommand {
        /// The command line as given.
        line: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// The engine's program could not be started.
    #[error("engine {engine} ({line}): cannot start {program:?}: {source}")]
    CannotStart {
        /// `A` or `B`.
        engine: char,
        /// The command line as given.
        line: String,
        /// The program it names.
        program: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The engine started but did not accept the board (`START` or
    /// `RECTSTART`) when it was tried before the first game.
    #[error("engine {engine} ({line}): {command} was not accepted: {fault}")]
    Refused {
        /// `A` or `B`.
        engine: char,
        /// The command line as given.
        line: String,
        /// The command sent (`START 15`).
        command: String,
        /// What the engine did instead of answering `OK`.
        fault: Fault,
    },
    /// An opening cannot be played on the board (off it, or already won).
    #[error("opening {index} cannot be played on this board")]
    Opening {
        /// The opening's number, from 1.
        index: usize,
    },
    /// A worker thread for games could not be started.
    #[error("cannot start a game thread: {0}")]
    Thread(std::io::Error),
}

/// An engine's fault in one game: the engine loses that game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process could not be started for this game.
    CannotStart {
        /// What the system said.
        error: String,
    },
    /// No move arrived within the turn limit plus the tolerance.
    Time {
        /// Milliseconds waited (or taken, for a move that came too late).
        ms: u64,
        /// The limit with the tolerance, in milliseconds.
        limit_ms: u64,
        /// The engine's last non-move line, if any (`ERROR …` explains many
        /// silences).
        last: Option<String>,
    },
    /// A move off the board or on an occupied cell.
    Illegal {
        /// The answer as sent.
        answer: String,
        /// Why the board refuses it.
        why: String,
    },
    /// A line that is neither a move nor a known non-move line.
    Unparsable {
        /// The line (shortened when shown).
        line: String,
        /// What was expected instead (`a move x,y`, `OK`).
        expected: &'static str,
    },
    /// The engine closed its output (it exited or crashed) or its input.
    Crashed {
        /// What was seen: `end of output`, `cannot write`, an exit status.
        what: String,
    },
    /// `START` or `RECTSTART` answered with something other than `OK`.
    Refused {
        /// The engine's answer.
        line: String,
    },
}

impl Fault {
    /// Whether this is a time forfeit (counted apart from other faults).
    pub fn is_time(&self) -> bool {
        matches!(self, Fault::Time { .. })
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::CannotStart { error } => write!(f, "cannot start: {error}"),
            Fault::Time { ms, limit_ms, last } => {
                write!(
                    f,
                    "time forfeit: no move within {ms} ms (limit {limit_ms} ms)"
                )?;
                if let Some(last) = last {
                    write!(f, ", last said {}", quote(last))?;
                }
                Ok(())
            }
            Fault::Illegal { answer, why } => write!(f, "illegal move {}: {why}", quote(answer)),
            Fault::Unparsable { line, expected } => {
                write!(f, "unparsable answer {} (expected {expected})", quote(line))
            }
            Fault::Crashed { what } => write!(f, "crashed: {what}"),
            Fault::Refused { line } => write!(f, "refused the board: {}", quote(line)),
        }
    }
}
