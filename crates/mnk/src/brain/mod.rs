//! Gomocup engine mode: the "pbrain" protocol that managers and GUIs
//! (Piskvork, c-gomoku-cli, GomocupJudge, Yixin Board) use to drive an
//! engine over stdin/stdout.
//!
//! - [`lines`]: lines ending in CR LF, LF or CR.
//! - [`protocol`]: parsing commands (`START`, `TURN x,y`, `BOARD` lines, …).
//! - [`timing`]: per-move time budgets and the hash-table size from the
//!   manager's `INFO` values.
//! - [`session`]: the [`Brain`] that keeps the position and answers.
//!
//! [`serve`] runs a session over any reader and writer, so tests drive it
//! in memory; the binary (`mnk brain`, or the program started as
//! `pbrain-NAME`) parses the flags and wires it to stdin and stdout.
//! The engine plays five in a row with the search player on the given
//! weights (re-declared for the board size and rule the manager sets).

pub mod lines;
mod position;
pub mod protocol;
pub mod session;
mod think;
pub mod timing;

pub use session::{Brain, Flow, Settings};

use crate::eval::Weights;
use std::ffi::OsStr;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Weights made for another k: Gomocup games are five in a row (on any
/// board size, which the weights are re-declared for).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("these weights are for {k} in a row, but Gomocup games are five in a row")]
pub struct NotFiveInARow {
    /// The k the weights were made for.
    pub k: u8,
}

/// Checks that `weights` can play Gomocup games (five in a row).
pub fn check_weights(weights: &Weights) -> Result<(), NotFiveInARow> {
    match weights.game.k {
        5 => Ok(()),
        k => Err(NotFiveInARow { k }),
    }
}

/// Runs a session: reads commands from `input` until `END` or the end of
/// input, answering on `output` (one flushed line per reply).
pub fn serve<R: BufRead, W: Write>(
    settings: Settings,
    input: R,
    mut output: W,
) -> std::io::Result<()> {
    let mut brain = Brain::new(settings);
    let mut lines = lines::LineReader::new(input);
    while let Some(line) = lines.next_line()? {
        let received = Instant::now();
        if brain.handle(&line, received, &mut output)? == Flow::Exit {
            break;
        }
    }
    Ok(())
}

/// Whether the program was started under a name beginning with `pbrain-`
/// (the name managers look for), given its `argv[0]`.
pub fn is_pbrain_name(argv0: &OsStr) -> bool {
    Path::new(argv0)
        .file_name()
        .and_then(OsStr::to_str)
        .is_some_and(|n| n.to_ascii_lowercase().starts_with("pbrain-"))
}

/// The weights file a `pbrain-NAME` launcher picks up by default:
/// `pbrain-NAME.toml` in the launcher's folder (Piskvork cannot pass flags).
pub fn pbrain_weights_file(argv0: &OsStr) -> Option<PathBuf> {
    let p = Path::new(argv0);
    let stem = p.file_stem()?;
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty())?;
    let mut name = stem.to_os_string();
    name.push(".toml");
    let file = dir.join(name);
    file.is_file().then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::shipped_weights;
    use crate::game::Rules;

    fn run(input: &str) -> String {
        let settings = Settings {
            weights: shipped_weights(Rules::GOMOKU),
            depth: 4,
            width: 9,
            late: 16,
            verbose: false,
            seed: 1,
            default_turn: 200,
        };
        let mut out = Vec::new();
        serve(settings, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn in_memory_session() {
        let out = run("START 15\r\nBEGIN\r\nTURN 0,0\r\nFOO\r\nEND\r\nABOUT\r\n");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "OK");
        assert_eq!(lines[1], "7,7");
        assert!(lines[2].split(',').count() == 2, "{out}");
        assert_eq!(lines[3], "UNKNOWN command FOO");
        // Nothing after END.
        assert_eq!(lines.len(), 4, "{out}");
    }

    #[test]
    fn pbrain_names() {
        assert!(is_pbrain_name(OsStr::new("pbrain-mnk")));
        assert!(is_pbrain_name(OsStr::new("./engines/pbrain-mnk.exe")));
        assert!(is_pbrain_name(OsStr::new("C:/x/PBRAIN-mnk.exe")));
        assert!(!is_pbrain_name(OsStr::new("mnk")));
        assert!(!is_pbrain_name(OsStr::new("/usr/bin/pbrain")));
        assert_eq!(pbrain_weights_file(OsStr::new("pbrain-mnk")), None);
    }

    #[test]
    fn only_five_in_a_row_weights_play() {
        assert_eq!(check_weights(&shipped_weights(Rules::GOMOKU)), Ok(()));
        let err = check_weights(&shipped_weights(Rules::TICTACTOE)).unwrap_err();
        assert_eq!(err, NotFiveInARow { k: 3 });
        assert_eq!(
            err.to_string(),
            "these weights are for 3 in a row, but Gomocup games are five in a row"
        );
    }
}
