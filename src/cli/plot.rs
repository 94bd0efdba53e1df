//! `mnk plot runs/<name>`: redraw a run's charts from its files.

use anyhow::{Context, Result};
use std::path::PathBuf;

/// The flags of `mnk plot`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The run folder (runs/<name>).
    run: PathBuf,
}

/// Redraws the charts and prints the files written.
pub fn run(a: Args) -> Result<()> {
    let files =
        mnk::plot::plot_run(&a.run).with_context(|| format!("cannot plot {}", a.run.display()))?;
    for f in files {
        println!("{}", f.display());
    }
    Ok(())
}
