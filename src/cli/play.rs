//! `mnk play`: human vs AI, human vs human, or AI vs AI in the terminal.
//! The game itself lives in [`mnk::play`]; this file turns the options
//! into a [`Config`], wires stdin and stdout to a [`Driver`], and lets
//! Ctrl-C save the game in progress.

use anyhow::{Context, Result};
use mnk::game::{Color, Rules};
use mnk::play::{Config, Driver, SeatKind, Session, Style, Terminal};
use mnk::players::PlayerSpec;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// The records file `play` appends to, and `replay` and `records list` read
/// when given no file.
pub(super) const RECORDS: &str = "records/games.csv";

/// The flags of `mnk play`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  mnk play                                   you (black) against the easy AI on gomoku
  mnk play -g tictactoe --ai perfect --you white
  mnk play --ai hard --weights runs/x/weights/best.toml
  mnk play --mode human-vs-human -g 7x6x4
  mnk play --mode ai-vs-ai --black hard --white easy --delay 300
  mnk play --black human --white search:depth=6,width=12

At the prompt, type a cell (h8, or 0-based x,y such as 7,7) or a command:
undo, hint, save [FILE], moves, board, resign, quit, help.")]
pub struct Args {
    /// The game: tictactoe, gomoku, or WxHxK such as 7x6x4 (add -exact for the exact rule).
    #[arg(long, short, default_value = "gomoku")]
    game: Rules,
    /// Who plays.
    #[arg(long, short, value_enum, default_value_t = Mode::HumanVsAi)]
    mode: Mode,
    /// The AI: easy (greedy), hard (search), perfect (exact; boards of up to 16 cells), or any player spec.
    #[arg(long, default_value = "easy", value_name = "LEVEL|SPEC")]
    ai: PlayerSpec,
    /// Your colour against the AI: black (moves first) or white; `first` and `second` work too.
    #[arg(long, default_value = "black", value_name = "COLOUR")]
    you: Color,
    /// Who plays black: `human` or a player spec (overrides --mode, --you and --ai for black).
    #[arg(long, value_name = "human|SPEC")]
    black: Option<SeatArg>,
    /// Who plays white: `human` or a player spec.
    #[arg(long, value_name = "human|SPEC")]
    white: Option<SeatArg>,
    /// Weights for AI players whose spec names none (default: the shipped weights of the player:
    /// weights/gomoku-search.toml for hard on five in a row, weights/gomoku.toml for easy).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// The player that answers `hint` (default: the --ai player).
    #[arg(long, value_name = "SPEC")]
    hint: Option<PlayerSpec>,
    /// Name recorded for a human player; give it twice for black and white.
    #[arg(long, value_name = "NAME")]
    name: Vec<String>,
    /// Pause between moves when two AI players play each other (milliseconds).
    #[arg(long, default_value_t = 500, value_name = "MS")]
    delay: u64,
    /// Append every game to this records file (the original CSV layout; SGF if it ends in .sgf).
    #[arg(long, default_value = RECORDS, value_name = "FILE")]
    records: PathBuf,
    /// Do not write the records file.
    #[arg(long, conflicts_with = "records")]
    no_records: bool,
    /// Also append every game to this SGF file.
    #[arg(long, value_name = "FILE")]
    sgf: Option<PathBuf>,
    /// Seed for the AI players' tie-breaks (default: from the clock, shown at the end).
    #[arg(long)]
    seed: Option<u64>,
    /// Colour output: auto (a terminal, and NO_COLOR unset), always or never.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    color: ColorWhen,
    /// Print each board below the last instead of redrawing the screen.
    #[arg(long)]
    scroll: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// You against the AI.
    #[value(alias = "hva", alias = "ai")]
    HumanVsAi,
    /// Two people at one keyboard.
    #[value(alias = "hvh", alias = "humans")]
    HumanVsHuman,
    /// Watch two AI players.
    #[value(alias = "ava", alias = "watch")]
    AiVsAi,
}

/// When to colour the output.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ColorWhen {
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// The style for stdout: `auto` colours a terminal unless `NO_COLOR` is
    /// set (to anything but the empty string) or `TERM=dumb`.
    pub(crate) fn style(self, stdout_is_terminal: bool) -> Style {
        match self {
            ColorWhen::Always => Style::COLOR,
            ColorWhen::Never => Style::PLAIN,
            ColorWhen::Auto => Style::auto(
                stdout_is_terminal,
                std::env::var("NO_COLOR").ok().as_deref(),
                std::env::var("TERM").ok().as_deref(),
            ),
        }
    }
}

/// `human` or a player spec.
#[derive(Clone, Debug)]
enum SeatArg {
    Human,
    Ai(PlayerSpec),
}

impl FromStr for SeatArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "human" | "you" | "me" => Ok(SeatArg::Human),
            _ => s
                .parse()
                .map(SeatArg::Ai)
                .map_err(|e| format!("{e} (or `human`)")),
        }
    }
}

/// The spec with `--weights` filled in where it names no weights (greedy
/// and search players only: exact and random use none).
fn with_default_weights(spec: PlayerSpec, weights: Option<&Path>) -> PlayerSpec {
    let uses_weights = spec.kind.takes_weights();
    match weights {
        Some(w) if spec.weights.is_none() && uses_weights => spec.with_weights(w),
        _ => spec,
    }
}

/// Runs the game in the terminal until it ends, the input ends or Ctrl-C.
pub fn run(a: Args) -> Result<()> {
    let weights = a.weights.as_deref();
    let ai = with_default_weights(a.ai.clone(), weights);
    let (mut black, mut white) = match a.mode {
        Mode::HumanVsAi => {
            if a.you == Color::Black {
                (SeatArg::Human, SeatArg::Ai(ai.clone()))
            } else {
                (SeatArg::Ai(ai.clone()), SeatArg::Human)
            }
        }
        Mode::HumanVsHuman => (SeatArg::Human, SeatArg::Human),
        Mode::AiVsAi => (SeatArg::Ai(ai.clone()), SeatArg::Ai(ai.clone())),
    };
    if let Some(b) = a.black.clone() {
        black = b;
    }
    if let Some(w) = a.white.clone() {
        white = w;
    }
    let mut names = a.name.iter();
    let mut seat = |s: SeatArg| match s {
        SeatArg::Human => SeatKind::Human(names.next().cloned().unwrap_or_else(|| "human".into())),
        SeatArg::Ai(spec) => SeatKind::Ai(with_default_weights(spec, weights)),
    };
    let (black, white) = (seat(black), seat(white));
    let any_ai = !black.is_human() || !white.is_human();
    let watching = !black.is_human() && !white.is_human();
    let hint = with_default_weights(a.hint.clone().unwrap_or(ai), weights);

    let stdout = std::io::stdout();
    let stdin = std::io::stdin();
    let out_tty = stdout.is_terminal();
    let style = a.color.style(out_tty);
    let seed = a.seed.unwrap_or_else(clock_seed);
    let config = Config {
        rules: a.game,
        black,
        white,
        hint,
        records: (!a.no_records).then(|| a.records.clone()),
        sgf: a.sgf.clone(),
        seed,
        style,
    };
    let session = Session::new(config).context("cannot start the game")?;
    let term = Terminal {
        clear: out_tty && !a.scroll && std::env::var("TERM").ok().as_deref() != Some("dumb"),
        echo: !stdin.is_terminal(),
        delay: if watching {
            Duration::from_millis(a.delay)
        } else {
            Duration::ZERO
        },
    };
    let seed_note = (any_ai && a.seed.is_none()).then(|| {
        style.dim(&format!(
            "(AI seed {seed}: --seed {seed} repeats its choices)"
        ))
    });
    let driver = Arc::new(Driver::new(session, stdout, term));
    // Ctrl-C saves the game as unfinished, as the end of input does, and
    // exits with the conventional 130 (128 + SIGINT).
    let on_ctrl_c = Arc::clone(&driver);
    let note = seed_note.clone();
    ctrlc::set_handler(move || {
        let mut stopped = on_ctrl_c.interrupt();
        if let Some(e) = stopped.output_error() {
            eprintln!("error: interrupted: cannot write to the terminal: {e}");
        }
        if let Some(note) = &note {
            let _ = writeln!(stopped.output(), "{note}");
            let _ = stopped.output().flush();
        }
        // Exits with the session still locked: the playing thread never
        // goes on after the save.
        std::process::exit(130);
    })
    .context("cannot handle Ctrl-C")?;
    driver.run(stdin.lock())?;
    if let Some(note) = seed_note {
        println!("{note}");
    }
    Ok(())
}

/// A seed from the clock, for variety between sessions (each session
/// prints it so that it can be repeated).
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 % 1_000_000_000)
        .unwrap_or(1)
}
