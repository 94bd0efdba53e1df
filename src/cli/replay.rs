//! `mnk replay FILE`: shows the games of a records file move by move.

use super::play::ColorWhen;
use anyhow::{Context, Result};
use mnk::game::Rules;
use mnk::play::{Replay, CLEAR_SCREEN};
use mnk::records::read_records;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

/// The flags of `mnk replay`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  mnk replay                          the games `mnk play` saved (records/games.csv)
  mnk replay -n 3 --step              game 3, a move at a time (Enter: next, b: back, q: quit)
  mnk replay runs.sgf --speed 100     every game of an SGF file, 10 moves a second
  mnk replay old.csv -g 15x15x5       a file of the original program, which names no game")]
pub struct Args {
    /// The records file: the original CSV layout, or SGF if it ends in .sgf.
    #[arg(default_value = super::play::RECORDS, value_name = "FILE")]
    file: PathBuf,
    /// Replay only game N (numbered from 1, as `mnk records list` shows them).
    #[arg(long, short = 'n', value_name = "N")]
    number: Option<usize>,
    /// Pause between moves in milliseconds (default: 500 on a terminal, 0 otherwise).
    #[arg(long, value_name = "MS")]
    speed: Option<u64>,
    /// Step through the moves: Enter shows the next one, b the one before, q stops.
    #[arg(long)]
    step: bool,
    /// The game of records that do not name it (files of the original program).
    /// A number here is the deprecated spelling of --number.
    #[arg(long, short = 'g', default_value = "gomoku", value_name = "GAME")]
    game: GameOrNumber,
    /// Deprecated spelling of --game.
    #[arg(long, hide = true, value_name = "GAME", conflicts_with = "game")]
    rules: Option<Rules>,
    /// Colour output: auto (a terminal, and NO_COLOR unset), always or never.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    color: ColorWhen,
    /// Print each position below the last instead of redrawing the screen.
    #[arg(long)]
    scroll: bool,
}

/// `--game`'s value: the game, or (as before `--number`) a game number.
#[derive(Clone, Debug)]
enum GameOrNumber {
    Game(Rules),
    Number(usize),
}

impl std::str::FromStr for GameOrNumber {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.parse::<usize>() {
            Ok(n) => Ok(GameOrNumber::Number(n)),
            Err(_) => s
                .parse::<Rules>()
                .map(GameOrNumber::Game)
                .map_err(|e| e.to_string()),
        }
    }
}

impl Args {
    /// The game of records that do not name it, and the game number asked
    /// for, taking the old spellings (`--game N`, `--rules GAME`) with a
    /// warning.
    fn game_and_number(&self) -> Result<(Rules, Option<usize>)> {
        let mut rules = match self.rules {
            Some(r) => {
                super::warn_rules_deprecated(r);
                r
            }
            None => Rules::GOMOKU,
        };
        let mut number = self.number;
        match self.game {
            GameOrNumber::Game(r) => {
                if self.rules.is_none() {
                    rules = r;
                }
            }
            GameOrNumber::Number(n) => {
                anyhow::ensure!(
                    self.number.is_none(),
                    "--game {n} and --number: give the game number once, as --number {n}"
                );
                eprintln!("warning: --game {n} for a game number is deprecated: use --number {n} (-n); --game names the game, as in the other commands");
                number = Some(n);
            }
        }
        Ok((rules, number))
    }
}

/// Shows the chosen games move by move.
pub fn run(a: Args) -> Result<()> {
    let (rules, number) = a.game_and_number()?;
    let records = read_records(&a.file, rules)?;
    let total = records.len();
    anyhow::ensure!(total > 0, "{}: no games to replay", a.file.display());
    let chosen: Vec<usize> = match number {
        Some(n) => {
            anyhow::ensure!(
                (1..=total).contains(&n),
                "{}: there is no game {n}: the file holds {total} games (numbered from 1)",
                a.file.display()
            );
            vec![n]
        }
        None => (1..=total).collect(),
    };
    let stdout = std::io::stdout();
    let out_tty = stdout.is_terminal();
    let style = a.color.style(out_tty);
    let clear = out_tty && !a.scroll && std::env::var("TERM").ok().as_deref() != Some("dumb");
    let speed = Duration::from_millis(a.speed.unwrap_or(if out_tty { 500 } else { 0 }));
    let mut out = stdout.lock();
    let mut input = std::io::stdin().lock();
    let mut stepping = a.step;
    let show = |out: &mut std::io::StdoutLock, screen: &str| -> std::io::Result<()> {
        if clear {
            write!(out, "{CLEAR_SCREEN}")?;
        } else {
            writeln!(out)?;
        }
        write!(out, "{screen}")?;
        out.flush()
    };
    'games: for (i, &n) in chosen.iter().enumerate() {
        let record = &records[n - 1];
        let mut replay = Replay::new(record, n, total, style)
            .with_context(|| format!("{}: game {n}", a.file.display()))?;
        loop {
            show(&mut out, &replay.screen())?;
            let last_game = i + 1 == chosen.len();
            if replay.at_end() && last_game {
                break;
            }
            if stepping {
                let what = if replay.at_end() {
                    "next game"
                } else {
                    "next move"
                };
                let prompt = format!("Enter: {what}, b: back, q: stop > ");
                write!(out, "{}", style.dim(&prompt))?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    // End of input: show the rest without waiting.
                    writeln!(out)?;
                    stepping = false;
                } else {
                    match line.trim() {
                        "q" | "quit" => break 'games,
                        // Back a move (staying at the empty board).
                        "b" | "p" | "back" | "prev" => {
                            replay.back();
                            continue;
                        }
                        _ => {}
                    }
                }
            } else if replay.at_end() {
                // Leave the final position up a while before the next game.
                std::thread::sleep(speed * 4);
            } else {
                std::thread::sleep(speed);
            }
            if !replay.step() {
                break;
            }
        }
    }
    Ok(())
}
