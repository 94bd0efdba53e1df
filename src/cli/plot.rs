//! `mnk plot runs/<name> …`: redraw a run's charts from its files, or
//! overlay several runs in one picture.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The flags of `mnk plot`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
With one run, its charts are redrawn into RUN/plots/ (PNG and SVG): weights,
score or spsa and gains, checks. With several runs (or --out), one picture
overlays their check curves (Elo against each reference, or agreement with
the exact player) and their closing verdicts (trained vs start, with 95%
error bars, from RUN/verdict.toml); a run without checks or without a verdict
is listed with nothing to draw. The files written are printed.

Examples:
  mnk plot runs/a                        redraw runs/a/plots/
  mnk plot runs/a runs/b                 overlay, written to runs/compare-a-b.png
  mnk plot runs/a runs/b runs/c --out cmp.svg
  mnk plot runs/a --out a-checks.png     one run's checks and verdict alone")]
pub struct Args {
    /// The run folders (runs/<name>).
    #[arg(required = true, value_name = "RUN")]
    runs: Vec<PathBuf>,
    /// Write the overlay of the runs to FILE (.png or .svg). Default with
    /// several runs: compare-<names>.png next to the runs (in the current
    /// folder if they are in different folders).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Redraws the charts, or draws the overlay, and prints the files written.
pub fn run(a: Args) -> Result<()> {
    if let ([run], None) = (a.runs.as_slice(), &a.out) {
        let files =
            mnk::plot::plot_run(run).with_context(|| format!("cannot plot {}", run.display()))?;
        for f in files {
            println!("{}", f.display());
        }
        return Ok(());
    }
    let dirs: Vec<&Path> = a.runs.iter().map(PathBuf::as_path).collect();
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| mnk::plot::default_overlay_path(&dirs));
    let file = mnk::plot::plot_overlay(&dirs, &out).context("cannot draw the overlay")?;
    println!("{}", file.display());
    Ok(())
}
