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
//! in memory; [`run_stdio`] wires it to the process's stdin and stdout.
//! The engine plays five in a row with the search player on the given
//! weights (re-declared for the board size and rule the manager sets).

pub mod lines;
mod position;
pub mod protocol;
pub mod session;
mod think;
pub mod timing;

pub use session::{Brain, Flow, Settings};

use crate::eval::{shipped_weights, Weights};
use crate::game::Rules;
use anyhow::{bail, Context, Result};
use std::ffi::OsStr;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Engine options (the flags of `mnk brain` and of `pbrain-mnk`).
#[derive(clap::Args, Debug, Clone)]
pub struct Options {
    /// Weights file (TOML) for five in a row [default: the shipped gomoku
    /// weights; as pbrain-NAME, pbrain-NAME.toml next to the program if it
    /// exists].
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// After each move, send a MESSAGE line with search depth, nodes,
    /// evaluation and time.
    #[arg(short, long)]
    pub verbose: bool,
    /// Deepest search in plies (the time limit usually stops it first).
    #[arg(long, default_value_t = 60, value_name = "PLIES",
          value_parser = clap::value_parser!(u32).range(1..=200))]
    pub depth: u32,
    /// Candidate moves searched at each node.
    #[arg(long, default_value_t = 9, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=64))]
    pub width: u64,
    /// Turn limit assumed until the manager sends INFO timeout_turn.
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    pub default_turn: u64,
    /// Seed for breaking ties between equal moves (each game starts from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl Options {
    /// Loads the weights and fixes the settings.
    pub fn settings(&self) -> Result<Settings> {
        let weights = match &self.weights {
            Some(path) => load_weights(path)?,
            None => shipped_weights(Rules::GOMOKU),
        };
        Ok(Settings {
            weights,
            depth: self.depth,
            width: self.width as usize,
            verbose: self.verbose,
            seed: self.seed,
            default_turn: self.default_turn,
        })
    }
}

/// Reads a weight file for five in a row (made for any board size).
pub fn load_weights(path: &Path) -> Result<Weights> {
    let w =
        Weights::read(path).with_context(|| format!("cannot load weights {}", path.display()))?;
    if w.game.k != 5 {
        bail!(
            "{}: these weights are for {} in a row, but Gomocup games are five in a row",
            path.display(),
            w.game.k
        );
    }
    Ok(w)
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

/// Runs a session on stdin and stdout. A weights file that cannot be
/// loaded is reported as an `ERROR` line (which GUIs show) and as an error.
pub fn run_stdio(options: &Options) -> Result<()> {
    let settings = match options.settings() {
        Ok(s) => s,
        Err(e) => {
            println!("ERROR {}", format!("{e:#}").replace(['\r', '\n'], " "));
            return Err(e);
        }
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(settings, stdin.lock(), stdout.lock()).context("engine input/output failed")
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

#[derive(clap::Parser, Debug)]
#[command(
    version,
    about = "mnk as a Gomocup engine (pbrain protocol on stdin/stdout)"
)]
struct PbrainCli {
    #[command(flatten)]
    options: Options,
}

/// The whole program when started as `pbrain-…`: `mnk brain` with the
/// same flags, plus the `pbrain-NAME.toml` weights default.
pub fn pbrain_main() -> std::process::ExitCode {
    use clap::Parser;
    let cli = PbrainCli::parse();
    let mut options = cli.options;
    if options.weights.is_none() {
        if let Some(argv0) = std::env::args_os().next() {
            options.weights = pbrain_weights_file(&argv0);
        }
    }
    match run_stdio(&options) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> String {
        let settings = Settings {
            weights: shipped_weights(Rules::GOMOKU),
            depth: 4,
            width: 9,
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
}
