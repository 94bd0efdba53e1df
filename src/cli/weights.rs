//! `mnk weights import|export`: the original 16-number format.

use anyhow::{Context, Result};
use mnk::eval::Weights;
use mnk::game::Rules;
use std::path::PathBuf;

/// The subcommands of `mnk weights`.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Read a ChessboardValue.txt and write an mnk TOML weight file.
    ///
    /// The file holds 16 integers (12 for k = 3), each 0 to 9223372036854775807:
    /// attack defence five_own five_opp open4_own open4_opp four_own four_opp
    /// open3_own open3_opp three_own three_opp open2_own open2_opp two_own two_opp.
    ///
    /// What is preserved: the best cell of every position and the order of
    /// search values. Only ratios matter within each group ({attack, defence}
    /// and {all own/opp shape weights}), so a group whose largest number is
    /// above mnk's limit 1e9 is divided by the smallest power of ten that fits;
    /// the TOML's comment says by what and keeps the numbers as read. Not
    /// preserved: the absolute scale of such a group.
    #[command(after_help = "Examples:
  mnk weights import ChessboardValue.txt -o weights/course.toml
  mnk weights import old.txt -o w.toml -g 15x15x5-exact
  mnk play --ai easy --weights weights/course.toml      play the imported weights")]
    #[command(verbatim_doc_comment)]
    Import {
        /// The ChessboardValue.txt to read.
        input: PathBuf,
        /// The TOML file to write.
        #[arg(long, short)]
        output: PathBuf,
        /// The game the numbers are for (the txt format does not say).
        #[arg(long, short, default_value = "gomoku")]
        game: Rules,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Write an mnk TOML weight file as a ChessboardValue.txt.
    ///
    /// What is preserved: the best cell of every position (up to near-exact
    /// ties, which rounding can tip) and the order of search values. Not
    /// preserved: the absolute scale. Only ratios matter within each group
    /// ({attack, defence} and {all own/opp shape weights}), so each group is
    /// multiplied by one power of ten: the smallest that writes every number
    /// exactly, or, if smaller, the smallest that writes every nonzero number
    /// with at least 9 significant digits (then rounded). So attack 0.638 and
    /// defence 0.282 become 638 and 282, a trained 0.6381726354819273 and
    /// 0.2823746102934 become 638172635 and 282374610, and a group of whole
    /// numbers is written as it is. Refuses, saying why, when a group's
    /// largest / smallest nonzero number is too large a ratio for 64-bit
    /// integers (ratios up to about 9.2e9 always fit). Notes on what was
    /// scaled go to standard error.
    #[command(after_help = "Examples:
  mnk weights export runs/gomoku-1/weights/best.toml                 print to stdout
  mnk weights export runs/gomoku-1/weights/best.toml -o ChessboardValue.txt")]
    #[command(verbatim_doc_comment)]
    Export {
        /// The TOML weight file to read.
        input: PathBuf,
        /// The txt file to write (default: standard output).
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

/// Why weights give every cell the same value, if they do: a cell's
/// value is attack × (its own shapes' weights) + defence × (the
/// opponent's), so it is 0 everywhere when neither side counts.
fn blind(w: &Weights) -> Option<&'static str> {
    let own = w.attack > 0.0 && w.own.iter().any(|&x| x > 0.0);
    let opp = w.defence > 0.0 && w.opp.iter().any(|&x| x > 0.0);
    if own || opp {
        None
    } else if w.attack == 0.0 && w.defence == 0.0 {
        Some("attack and defence are both 0")
    } else {
        Some("every shape that attack or defence weighs is 0")
    }
}

/// Converts the weights file and prints what was written.
pub fn run(c: Command) -> Result<()> {
    match c {
        Command::Import {
            input,
            output,
            game,
            force,
        } => {
            // As `train` and `openings generate` do: nothing is overwritten
            // unless asked.
            anyhow::ensure!(
                force || !output.exists(),
                "{} exists; pass --force to overwrite it",
                output.display()
            );
            let text = mnk::util::read_text(&input)
                .with_context(|| format!("{}: cannot read", input.display()))?;
            let imported = Weights::import_txt(&text, &input.display().to_string(), game)?;
            if let Some(why) = blind(&imported.weights) {
                eprintln!(
                    "warning: {}: {why}, so these weights value every move alike and cannot tell moves apart",
                    input.display()
                );
            }
            let toml = imported.to_toml(&input.display().to_string());
            mnk::util::write_atomic(&output, toml.as_bytes())
                .with_context(|| format!("{}: cannot write", output.display()))?;
            for note in imported.notes() {
                println!("note: {note}");
            }
            println!("wrote {} ({})", output.display(), game);
        }
        Command::Export { input, output } => {
            let w = Weights::read(&input)?;
            let export = w
                .export_txt()
                .with_context(|| format!("{}: cannot export", input.display()))?;
            for note in export.notes() {
                eprintln!("note: {note}");
            }
            let txt = export.text();
            match output {
                Some(p) => {
                    mnk::util::write_atomic(&p, txt.as_bytes())
                        .with_context(|| format!("{}: cannot write", p.display()))?;
                    println!("wrote {}", p.display());
                }
                None => print!("{txt}"),
            }
        }
    }
    Ok(())
}
