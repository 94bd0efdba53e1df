//! The command line: clap definitions and one handler per subcommand.
//! Handlers parse, call the library and print; they hold no game logic.
//! Library errors become `anyhow` errors here, and one printer
//! ([`error_text`]) turns them into the `error: …` line and exit code 1.

mod bench;
mod brain;
mod brains;
mod eval;
mod job;
mod json;
mod matches;
mod openings;
mod play;
mod plot;
mod records;
mod replay;
#[cfg(feature = "serve")]
mod serve;
mod solve;
mod train;
mod weights;

pub use brain::pbrain_main;

use anyhow::{Context, Result};
use clap::{CommandFactory, Parser, Subcommand};
use mnk::game::{Board, Move, Rules};

/// Train, check and play pattern-weight evaluators for k-in-a-row games.
#[derive(Parser, Debug)]
#[command(name = "mnk", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// Worker threads for parallel games, for `train`, `match` and
    /// `openings` (default, or 0: all cores); also a flag of those commands.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// `--threads`, a flag of the commands that play games in parallel (and
/// of `mnk` itself, before the command).
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct Threads {
    /// Worker threads for parallel games (default, or 0: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// The subcommands; each variant's doc is its line in `mnk --help`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Improve a weight set by self-play; progress goes to `runs/<name>/`.
    Train(train::Args),
    /// Redraw a run's plots, or overlay several runs' checks and verdicts.
    Plot(plot::Args),
    /// Play in the terminal: human vs AI, human vs human, or AI vs AI.
    Play(play::Args),
    /// Replay the games of a records file (CSV or SGF).
    Replay(replay::Args),
    /// List or delete games in a records file.
    Records(records::Args),
    /// Gomocup engine mode (pbrain protocol on stdin/stdout).
    Brain(brain::Args),
    /// Play in the browser: a local web server (http://127.0.0.1:8080/ by default).
    #[cfg(feature = "serve")]
    Serve(serve::Args),
    /// Solve a position exactly: its value and optimal moves (small boards).
    Solve(solve::Args),
    /// Show every empty cell's score (the value map) and the board value.
    Eval(eval::Args),
    /// Play two players against each other over paired openings.
    #[command(name = "match")]
    Match(matches::Args),
    /// Play two Gomocup engines against each other over paired openings.
    Brains(brains::Args),
    /// Generate balanced opening books, or measure one.
    #[command(subcommand)]
    Openings(openings::Command),
    /// Import or export weights in the original ChessboardValue.txt format.
    #[command(subcommand)]
    Weights(weights::Command),
    /// Measure the speed of games, solving and search.
    Bench(bench::Args),
    /// Print a shell completion script: mnk completions bash > ~/.local/share/bash-completion/completions/mnk
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): mnk man > mnk.1; man ./mnk.1
    Man {
        /// Write mnk.1 and a page per subcommand (mnk-train.1, …) into this folder instead.
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
}

impl Command {
    /// The `--threads` flag of a command that plays games in parallel;
    /// `None` for the others, which have no such flag.
    fn threads(&self) -> Option<Threads> {
        match self {
            Command::Train(a) => Some(a.threads),
            Command::Match(a) => Some(a.threads),
            Command::Openings(c) => Some(c.threads()),
            _ => None,
        }
    }

    /// The subcommand's name, as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Train(_) => "train",
            Command::Plot(_) => "plot",
            Command::Play(_) => "play",
            Command::Replay(_) => "replay",
            Command::Records(_) => "records",
            Command::Brain(_) => "brain",
            #[cfg(feature = "serve")]
            Command::Serve(_) => "serve",
            Command::Solve(_) => "solve",
            Command::Eval(_) => "eval",
            Command::Match(_) => "match",
            Command::Brains(_) => "brains",
            Command::Openings(_) => "openings",
            Command::Weights(_) => "weights",
            Command::Bench(_) => "bench",
            Command::Completions { .. } => "completions",
            Command::Man { .. } => "man",
        }
    }
}

/// Runs the command line and returns the process exit code.
pub fn main() -> std::process::ExitCode {
    restore_sigpipe();
    let cli = parse();
    let threads = match (cli.command.threads(), cli.threads) {
        (Some(flag), before) => flag.threads.or(before),
        (None, Some(_)) => {
            eprintln!(
                "warning: --threads has no effect on `mnk {}`: it plays no games in parallel",
                cli.command.name()
            );
            None
        }
        (None, None) => None,
    };
    if let Some(n) = threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
        {
            eprintln!("error: cannot set up {n} threads: {e}");
            return std::process::ExitCode::from(2);
        }
    }
    let name = cli.command.name();
    let shares = matches!(cli.command, Command::Train(_) | Command::Match(_));
    let job = match job::join(name, shares) {
        Ok(job) => job,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Train(a) => train::run(a),
        Command::Plot(a) => plot::run(a),
        Command::Play(a) => play::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Records(a) => records::run(a),
        Command::Brain(a) => brain::run(a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => serve::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Match(a) => matches::run(a),
        Command::Brains(a) => brains::run(a),
        Command::Openings(c) => openings::run(c),
        Command::Weights(c) => weights::run(c),
        Command::Bench(a) => bench::run(a),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "mnk", &mut std::io::stdout());
            Ok(())
        }
        Command::Man { out } => man_pages(out.as_deref()),
    };
    let code = exit_code(result);
    // Leaves the job (finalising MPI) after every rank's last collective.
    drop(job);
    code
}

/// The command line, parsed. A negative number where a count belongs
/// (`--rounds -5`) is read as a value, so that clap says which values the
/// flag takes ("-5 is not in 1..=…") instead of taking `-5` for an unknown
/// flag.
fn parse() -> Cli {
    use clap::FromArgMatches;
    fn allow_negatives(c: clap::Command) -> clap::Command {
        c.allow_negative_numbers(true)
            .mut_subcommands(allow_negatives)
    }
    allow_negatives(Cli::command())
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
        .unwrap_or_else(|e| exit_on_usage_error(e))
}

/// Prints clap's usage error and exits with 2, saying what a count flag
/// expects where Rust's integer parser would only say "invalid digit
/// found in string".
fn exit_on_usage_error(e: clap::Error) -> ! {
    if e.kind() != clap::error::ErrorKind::ValueValidation {
        e.exit()
    }
    let text = e.render().to_string().replace(
        "invalid digit found in string",
        "expected a whole number, 0 or more",
    );
    eprint!("{text}");
    std::process::exit(2)
}

/// The exit code of a finished command (0, or 1 after printing the error).
fn exit_code(result: Result<()>) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // Another rank said why already.
        Err(e) if e.downcast_ref::<job::Quiet>().is_some() => std::process::ExitCode::FAILURE,
        Err(e) => {
            // One write: under mpirun, ranks' lines must not interleave.
            job::say(&format!("error: {}", error_text(&e)));
            std::process::ExitCode::FAILURE
        }
    }
}

/// The manual: the main page on stdout, or with `out` every page
/// (`mnk.1`, `mnk-train.1`, …) written into that folder.
fn man_pages(out: Option<&std::path::Path>) -> Result<()> {
    let cli = Cli::command();
    let Some(dir) = out else {
        return clap_mangen::Man::new(cli)
            .render(&mut std::io::stdout())
            .context("cannot write the manual page");
    };
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    clap_mangen::generate_to(cli, dir)
        .with_context(|| format!("{}: cannot write the manual pages", dir.display()))?;
    println!("manual pages written to {}", dir.display());
    Ok(())
}

/// Plays a list of moves (`h8`, `7,7`) from the empty board, naming the
/// bad move and its position in the list on error.
pub(crate) fn position(rules: Rules, moves: &[String]) -> Result<Board> {
    let mut board = Board::new(rules);
    for (i, text) in moves.iter().enumerate() {
        let m: Move = text
            .parse()
            .with_context(|| format!("move {} of the position", i + 1))?;
        board
            .play(m)
            .with_context(|| format!("move {} of the position ({text})", i + 1))?;
    }
    Ok(board)
}

/// Compact number for grids: at most 6 characters (`12.3k`, `1.0M`).
pub(crate) fn compact(v: f64) -> String {
    let a = v.abs();
    let (x, suffix) = if a >= 1e12 {
        (v / 1e12, "T")
    } else if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e4 {
        (v / 1e3, "k")
    } else {
        return if v.fract() == 0.0 {
            format!("{v:.0}")
        } else {
            format!("{v:.1}")
        };
    };
    if x.abs() >= 100.0 {
        format!("{x:.0}{suffix}")
    } else {
        format!("{x:.1}{suffix}")
    }
}

/// Lets the process end quietly when its output is closed early
/// (`mnk records list FILE | head`), as command-line tools do, instead of
/// `println!` panicking on a broken pipe: Rust ignores SIGPIPE by default.
fn restore_sigpipe() {
    set_sigpipe(false);
}

/// Sets SIGPIPE to be ignored (`ignore`: a write to a closed pipe is an
/// error the writer handles) or to its default (the process ends).
pub(crate) fn set_sigpipe(ignore: bool) {
    #[cfg(unix)]
    {
        extern "C" {
            fn signal(signum: i32, handler: usize) -> usize;
        }
        const SIGPIPE: i32 = 13;
        // SIG_IGN and SIG_DFL.
        let handler = if ignore { 1 } else { 0 };
        // SAFETY: changing a signal's disposition has no preconditions;
        // it runs before any other thread of ours exists.
        unsafe {
            signal(SIGPIPE, handler);
        }
    }
    #[cfg(not(unix))]
    let _ = ignore;
}

/// The warning for the old `--rules GAME` of `mnk records list` and
/// `mnk replay`.
fn warn_rules_deprecated(r: Rules) {
    eprintln!("warning: --rules is deprecated: use --game {r} (-g), as in the other commands");
}

/// `--progress-every`'s seconds, refused unless 0 or more.
fn check_progress_every(every: f64) -> Result<()> {
    anyhow::ensure!(
        every >= 0.0 && every.is_finite(),
        "--progress-every {every}: give seconds, 0 or more"
    );
    Ok(())
}

/// An error and its causes on one line, each cause once: library errors
/// often name their cause in their own message already, and repeating it
/// ("No such file or directory: No such file or directory") helps no one.
pub(super) fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        // Weights made for another game in a player spec: the library
        // says so, and the spec option that overrides it is ours to name.
        if let Some(mnk::players::SpecError::Weights {
            source:
                mnk::eval::WeightsError::WrongGame {
                    found, expected, ..
                },
            ..
        }) = cause.downcast_ref()
        {
            if found.k == expected.k {
                let c = format!("{cause} (add any-game=true to the player spec to use it anyway)");
                if !text.is_empty() {
                    text.push_str(": ");
                }
                text.push_str(&c);
                continue;
            }
        }
        let c = cause.to_string();
        if text.contains(&c) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&c);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_text_names_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = anyhow::Error::new(io).context("w.toml: cannot read: no such file");
        let e = e.context("cannot load weights w.toml");
        assert_eq!(
            error_text(&e),
            "cannot load weights w.toml: w.toml: cannot read: no such file"
        );
    }

    #[test]
    fn library_bytes_print_as_indicatif_does() {
        // The library's messages printed indicatif::HumanBytes before they
        // moved to mnk::util::Bytes.
        let mut n: u64 = 1;
        for _ in 0..64 {
            for v in [n - 1, n, n + n / 3, n.saturating_mul(1000) / 1024] {
                assert_eq!(
                    mnk::util::Bytes(v.into()).to_string(),
                    indicatif::HumanBytes(v).to_string()
                );
            }
            n = n.wrapping_mul(2).max(1);
        }
    }
}
