//! `mnk brain`, and the program started as `pbrain-NAME`: Gomocup engine
//! mode on stdin/stdout. The protocol lives in [`mnk::brain`]; this parses
//! the engine's flags, loads its weights and hands it the process's
//! streams.

use super::error_text;
use anyhow::{Context, Result};
use mnk::brain::{check_weights, pbrain_weights_file, serve, Settings};
use mnk::eval::{shipped_search_weights, Weights};
use mnk::game::Rules;
use std::path::{Path, PathBuf};

/// Engine options (the flags of `mnk brain` and of `pbrain-mnk`).
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Examples:
  mnk brain                                   speak the pbrain protocol on stdin/stdout
  mnk brain --verbose                         plus MESSAGE lines: depth, nodes, eval
  mnk brain --weights runs/x/weights/best.toml
  cp target/release/mnk pbrain-mnk            a Gomocup engine file: Piskvork and
                                              c-gomoku-cli start it with no flags
  mnk brains \"mnk brain\" \"mnk brain --depth 4\" -n 50    two engines, paired openings")]
pub struct Args {
    /// Weights file (TOML) for five in a row [default: the shipped search
    /// weights, weights/gomoku-search.toml; as pbrain-NAME,
    /// pbrain-NAME.toml next to the program if it exists].
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
    /// Further moves searched at a node where every one of the width's
    /// candidates lost (0: none).
    #[arg(long, default_value_t = 16, value_name = "N",
          value_parser = clap::value_parser!(u64).range(0..=676))]
    pub late: u64,
    /// Turn limit assumed until the manager sends INFO timeout_turn.
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    pub default_turn: u64,
    /// Seed for breaking ties between equal moves (each game starts from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl Args {
    /// Loads the weights and fixes the settings.
    fn settings(&self) -> Result<Settings> {
        let weights = match &self.weights {
            Some(path) => load_weights(path)?,
            None => shipped_search_weights(Rules::GOMOKU),
        };
        Ok(Settings {
            weights,
            depth: self.depth,
            width: self.width as usize,
            late: self.late as usize,
            verbose: self.verbose,
            seed: self.seed,
            default_turn: self.default_turn,
        })
    }
}

/// Reads a weight file for five in a row (made for any board size).
fn load_weights(path: &Path) -> Result<Weights> {
    let w =
        Weights::read(path).with_context(|| format!("cannot load weights {}", path.display()))?;
    check_weights(&w).with_context(|| path.display().to_string())?;
    Ok(w)
}

/// Runs a session on stdin and stdout. A weights file that cannot be
/// loaded is reported as an `ERROR` line (which GUIs show) and as an error.
pub fn run(a: Args) -> Result<()> {
    let settings = match a.settings() {
        Ok(s) => s,
        Err(e) => {
            println!("ERROR {}", error_text(&e).replace(['\r', '\n'], " "));
            return Err(e);
        }
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(settings, stdin.lock(), stdout.lock()).context("engine input/output failed")
}

/// The command line of the program started as `pbrain-NAME`.
#[derive(clap::Parser, Debug)]
#[command(
    version,
    about = "mnk as a Gomocup engine (pbrain protocol on stdin/stdout)"
)]
struct PbrainCli {
    /// The same flags as `mnk brain`.
    #[command(flatten)]
    options: Args,
}

/// The whole program when started as `pbrain-…`: `mnk brain` with the
/// same flags, plus the `pbrain-NAME.toml` weights default.
pub fn pbrain_main() -> std::process::ExitCode {
    use clap::Parser;
    let mut options = PbrainCli::parse().options;
    if options.weights.is_none() {
        if let Some(argv0) = std::env::args_os().next() {
            options.weights = pbrain_weights_file(&argv0);
        }
    }
    super::exit_code(run(options))
}
