//! `mnk records list|delete FILE`: inspect and prune a records file.

use anyhow::{Context, Result};
use mnk::game::Rules;
use mnk::records::{delete_records, list_line, read_records};
use std::path::PathBuf;

/// The flags of `mnk records`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    #[command(after_help = "Examples:
  mnk records list                       the games `mnk play` saved (records/games.csv)
  mnk records list m.sgf                 a match's games (mnk match --sgf m.sgf)
  mnk records list old.csv -g 15x15x5    a file of the original program, which names no game")]
    /// One line per game: number, players, result, length in moves, game.
    List {
        /// The records file: the original CSV layout, or SGF if it ends in .sgf.
        #[arg(default_value = super::play::RECORDS, value_name = "FILE")]
        file: PathBuf,
        /// The game of records that do not name it (files of the original program).
        #[arg(long, short = 'g', default_value = "gomoku", value_name = "GAME")]
        game: Rules,
        /// Deprecated spelling of --game.
        #[arg(long, hide = true, value_name = "GAME", conflicts_with = "game")]
        rules: Option<Rules>,
    },
    /// Remove games by number (as `list` shows them), atomically; every other
    /// game stays byte for byte.
    #[command(after_help = "Examples:
  mnk records delete records/games.csv 3          game 3
  mnk records delete m.csv 2 5-9                  games 2 and 5 to 9")]
    Delete {
        /// The records file.
        file: PathBuf,
        /// Game numbers from 1, or ranges such as 3-7.
        #[arg(required = true, value_name = "N")]
        numbers: Vec<String>,
    },
}

/// Lists or deletes the games.
pub fn run(a: Args) -> Result<()> {
    match a.command {
        Command::List { file, game, rules } => {
            if let Some(r) = rules {
                super::warn_rules_deprecated(r);
            }
            let records = read_records(&file, rules.unwrap_or(game))?;
            for (i, r) in records.iter().enumerate() {
                println!("{}", list_line(i + 1, r));
            }
            let n = records.len();
            eprintln!(
                "{}: {n} game{}",
                file.display(),
                if n == 1 { "" } else { "s" }
            );
            Ok(())
        }
        Command::Delete { file, numbers } => {
            let mut wanted = Vec::new();
            for text in &numbers {
                wanted.extend(parse_numbers(text)?);
            }
            wanted.sort_unstable();
            wanted.dedup();
            let left = delete_records(&file, &wanted)?;
            let list: Vec<String> = wanted.iter().map(|n| n.to_string()).collect();
            println!(
                "{}: deleted game{} {}; {left} game{} left",
                file.display(),
                if wanted.len() == 1 { "" } else { "s" },
                list.join(", "),
                if left == 1 { "" } else { "s" }
            );
            Ok(())
        }
    }
}

/// `7` or `3-7`.
fn parse_numbers(text: &str) -> Result<Vec<usize>> {
    let num = |s: &str| {
        s.trim().parse::<usize>().with_context(|| {
            format!("bad game number {text:?}: expected N or A-B, such as 3 or 3-7")
        })
    };
    match text.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (num(a)?, num(b)?);
            anyhow::ensure!(a <= b, "bad range {text:?}: expected A-B with A <= B");
            Ok((a..=b).collect())
        }
        None => Ok(vec![num(text)?]),
    }
}
