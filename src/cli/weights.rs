//! `mnk weights import|export`: the original 16-number format.

use crate::eval::Weights;
use crate::game::Rules;
use anyhow::{Context, Result};
use std::path::PathBuf;

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Read a ChessboardValue.txt and write an mnk TOML weight file.
    Import {
        /// The ChessboardValue.txt to read.
        input: PathBuf,
        /// The TOML file to write.
        #[arg(long, short)]
        output: PathBuf,
        /// The game the numbers are for (the txt format does not say).
        #[arg(long, short, default_value = "gomoku")]
        game: Rules,
    },
    /// Write an mnk TOML weight file as a ChessboardValue.txt.
    Export {
        /// The TOML weight file to read.
        input: PathBuf,
        /// The txt file to write (default: standard output).
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

pub fn run(c: Command) -> Result<()> {
    match c {
        Command::Import {
            input,
            output,
            game,
        } => {
            let text = crate::util::read_text(&input)
                .with_context(|| format!("{}: cannot read", input.display()))?;
            let w = Weights::from_txt(&text, &input.display().to_string(), game)?;
            w.save(&output, &format!("Imported from {}", input.display()))
                .with_context(|| format!("{}: cannot write", output.display()))?;
            println!("wrote {} ({})", output.display(), game);
        }
        Command::Export { input, output } => {
            let w = Weights::read(&input)?;
            let txt = w.to_txt()?;
            match output {
                Some(p) => {
                    crate::util::write_atomic(&p, txt.as_bytes())
                        .with_context(|| format!("{}: cannot write", p.display()))?;
                    println!("wrote {}", p.display());
                }
                None => print!("{txt}"),
            }
        }
    }
    Ok(())
}
