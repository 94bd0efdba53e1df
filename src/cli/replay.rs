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
pub struct Args {
    /// The records file: the original CSV layout, or SGF if it ends in .sgf.
    file: PathBuf,
    /// Replay only game N (numbered from 1, as `mnk records list` shows them).
    #[arg(long, short = 'n', value_name = "N")]
    game: Option<usize>,
    /// Pause between moves in milliseconds (default: 500 on a terminal, 0 otherwise).
    #[arg(long, value_name = "MS")]
    speed: Option<u64>,
    /// Step through the moves: Enter shows the next one, q then Enter stops.
    #[arg(long)]
    step: bool,
    /// The game of records that do not name it (files of the original program).
    #[arg(long, default_value = "gomoku")]
    rules: Rules,
    /// Colour output: auto (a terminal, and NO_COLOR unset), always or never.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    color: ColorWhen,
    /// Print each position below the last instead of redrawing the screen.
    #[arg(long)]
    scroll: bool,
}

/// Shows the chosen games move by move.
pub fn run(a: Args) -> Result<()> {
    let records = read_records(&a.file, a.rules)?;
    let total = records.len();
    anyhow::ensure!(total > 0, "{}: no games to replay", a.file.display());
    let chosen: Vec<usize> = match a.game {
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
                write!(out, "{}", style.dim(&format!("Enter: {what}, q: stop > ")))?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    // End of input: show the rest without waiting.
                    writeln!(out)?;
                    stepping = false;
                } else if matches!(line.trim(), "q" | "quit") {
                    break 'games;
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
