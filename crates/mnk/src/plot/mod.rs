//! Charts of a training run, drawn from the run folder's files alone
//! (`run.toml`, `rounds.csv`, `checks.csv`), so they can be redrawn at any
//! time without retraining.
//!
//! [`plot_run`] writes into `runs/<name>/plots/`, each as PNG and SVG:
//!
//! - `weights`: every weight divided by its start value, against the round,
//!   on a log scale (so weights of very different sizes share one chart);
//!   the legend gives each weight's final factor.
//! - `score` (random search): the round robin's scores (wins − losses) per round: the
//!   champion's and the incumbent's, challengers' takeovers marked; below,
//!   which player won each round.
//!   Under `--select confirm`, the bottom panel also marks the challengers
//!   that won the round robin but failed the confirmation match.
//! - `spsa` (SPSA runs): θ+'s score minus θ−'s (d) per step, with a
//!   running mean of |d| (the mean of d is 0 by the random signs; |d|
//!   falls to the noise level as the gradient fades), and the step sizes
//!   `a_k·d` actually taken.
//! - `gains` (SPSA runs): the gain schedule, `a_k` and `c_k` against the
//!   step.
//! - `cmaes` (CMA-ES runs): the step size σ per generation, and the best
//!   and average candidate's (W − L)/N against the mean (or the run's start,
//!   `opponent = "start"`); the mean itself is the `weights` chart's
//!   incumbent.
//! - `checks`: on boards the exact player solves, optimal-move agreement,
//!   lines lost against the exact player and the smallest safe search
//!   depth per check; on large boards, Elo against each reference with its
//!   95% error bar.
//!
//! [`plot_overlay`] draws several runs into one file: their check curves
//! and their closing verdicts (`overlay.rs`).
//!
//! Text is drawn with DejaVu Sans, compiled into the binary
//! (`assets/fonts/`), so plots render on machines without system fonts.
//!
//! This file holds the registry of charts (`Chart`: name, size, whether a
//! run wants it, how it is drawn) and the run data they share; each chart
//! lives in its own file, the look they share in `style.rs`, and the
//! writing of PNG and SVG files in `output.rs`.

mod checks;
mod cmaes;
mod font;
mod output;
mod overlay;
mod score;
mod spsa;
mod style;
mod weights;

use crate::train::{CheckRow, RoundResult, RunConfig, RunDir, TrainError};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Why plots could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The run folder could not be read.
    #[error(transparent)]
    Run(#[from] TrainError),
    /// The run has no completed round yet.
    #[error("{0}: no completed rounds to plot yet")]
    Empty(String),
    /// `mnk plot --out` was given a file that is neither PNG nor SVG.
    #[error("{path}: the overlay is drawn as .png or .svg; name the file so", path = path.display())]
    Format {
        /// The file asked for.
        path: PathBuf,
    },
    /// The embedded font could not be loaded.
    #[error("the embedded font could not be loaded")]
    Font,
    /// Drawing or writing a chart failed.
    #[error("{path}: cannot draw: {message}", path = path.display())]
    Draw {
        /// The chart file (or the plots folder) that could not be written.
        path: PathBuf,
        /// What went wrong, from plotters or the file system.
        message: String,
    },
}

/// Why one chart could not be drawn: the message of a plotters error,
/// given its file by [`output`] when it becomes a [`PlotError::Draw`].
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct DrawError(String);

// Every plotters drawing call fails with this one generic error, whatever
// the backend: converting it here lets the charts use `?` bare.
impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for DrawError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        DrawError(e.to_string())
    }
}

/// Everything the charts need, read from a run folder.
struct RunData {
    cfg: RunConfig,
    rounds: Vec<RoundResult>,
    checks: Vec<CheckRow>,
}

impl RunData {
    /// Reads the run folder `dir`: its config, rounds and checks; errors
    /// name the file that is missing or damaged.
    fn read(dir: &Path) -> Result<RunData, PlotError> {
        let run = RunDir::new(dir);
        let cfg = run.read_config()?;
        let rounds = run.read_rounds(&cfg)?;
        let checks = run.read_checks(&cfg)?;
        Ok(RunData {
            cfg,
            rounds,
            checks,
        })
    }

    /// Whether any round was played by random search.
    fn has_random(&self) -> bool {
        self.rounds.iter().any(|r| r.is_random_search())
    }

    /// Whether any round was a CMA-ES generation.
    fn has_cmaes(&self) -> bool {
        self.rounds.iter().any(|r| r.cmaes.is_some())
    }

    /// Whether any round was an SPSA step.
    fn has_spsa(&self) -> bool {
        self.rounds.iter().any(|r| r.spsa.is_some())
    }

    /// "step" for a pure SPSA run, "generation" for a pure CMA-ES run,
    /// "round" otherwise.
    fn x_name(&self) -> &'static str {
        if self.has_spsa() && !self.has_random() && !self.has_cmaes() {
            "step"
        } else if self.has_cmaes() && !self.has_random() && !self.has_spsa() {
            "generation"
        } else {
            "round"
        }
    }

    /// The last round, at least 1: the right end of every x axis.
    fn last_round(&self) -> f64 {
        self.rounds
            .last()
            .map_or(1.0, |r| f64::from(r.round))
            .max(1.0)
    }
}

crate::util::string_enum! {
    /// The charts, in the order they are drawn and listed; the word is the
    /// file name without its extension.
    enum Chart("chart") {
        /// The weights' evolution.
        Weights = "weights",
        /// The round robins' scores and winners.
        Score = "score",
        /// SPSA's θ+ − θ− results and steps.
        Spsa = "spsa",
        /// SPSA's gain schedules.
        Gains = "gains",
        /// CMA-ES's step size and candidates.
        Cmaes = "cmaes",
        /// The checks: exact-player agreement or Elo.
        Checks = "checks",
    }
}

impl Chart {
    /// Width and height in pixels.
    fn size(self) -> (u32, u32) {
        match self {
            Chart::Weights => (1200, 700),
            Chart::Score => (1100, 750),
            Chart::Spsa => (1100, 700),
            Chart::Gains => (1100, 700),
            Chart::Cmaes => (1100, 700),
            Chart::Checks => (1100, 800),
        }
    }

    /// Whether the run has anything for this chart to show.
    fn wanted(self, data: &RunData) -> bool {
        match self {
            Chart::Weights => true,
            // A run with no round played yet still gets an (empty) score chart.
            Chart::Score => data.has_random() || !(data.has_spsa() || data.has_cmaes()),
            Chart::Spsa | Chart::Gains => data.has_spsa(),
            Chart::Cmaes => data.has_cmaes(),
            Chart::Checks => !data.checks.is_empty(),
        }
    }

    /// Draws the chart on a white `root`.
    fn draw<DB: DrawingBackend>(
        self,
        root: &DrawingArea<DB, Shift>,
        data: &RunData,
    ) -> Result<(), DrawError> {
        root.fill(&WHITE)?;
        match self {
            Chart::Weights => weights::draw(root, data),
            Chart::Score => score::draw(root, data),
            Chart::Spsa => spsa::draw_spsa(root, data),
            Chart::Gains => spsa::draw_gains(root, data),
            Chart::Cmaes => cmaes::draw(root, data),
            Chart::Checks => checks::draw(root, data),
        }
    }
}

/// Draws every chart of the run in `dir` into `dir/plots/` as PNG and SVG
/// and returns the files written.
pub fn plot_run(dir: &Path) -> Result<Vec<PathBuf>, PlotError> {
    font::register()?;
    let data = RunData::read(dir)?;
    if data.rounds.is_empty() {
        return Err(PlotError::Empty(dir.display().to_string()));
    }
    let plots = RunDir::new(dir).plots();
    std::fs::create_dir_all(&plots).map_err(|e| PlotError::Draw {
        path: plots.clone(),
        message: e.to_string(),
    })?;
    let mut out = Vec::new();
    for chart in Chart::ALL.iter().copied().filter(|c| c.wanted(&data)) {
        out.push(output::write_png(&plots, chart, &data)?);
        out.push(output::write_svg(&plots, chart, &data)?);
    }
    Ok(out)
}

/// Draws the overlay of the runs in `dirs` (check curves and closing
/// verdicts) into `out`, a `.png` or `.svg` file, and returns it. Every
/// run is read before anything is drawn, so a damaged run leaves no file.
pub fn plot_overlay(dirs: &[&Path], out: &Path) -> Result<PathBuf, PlotError> {
    let svg = match out.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("svg") => true,
        Some(e) if e.eq_ignore_ascii_case("png") => false,
        _ => {
            return Err(PlotError::Format {
                path: out.to_path_buf(),
            })
        }
    };
    font::register()?;
    let mut runs = dirs
        .iter()
        .map(|d| overlay::OverlayRun::read(d))
        .collect::<Result<Vec<_>, _>>()?;
    overlay::distinct_labels(&mut runs, dirs);
    if svg {
        output::svg_file(out, OVERLAY_SIZE, |root| overlay::draw(root, &runs))?;
    } else {
        output::png_file(out, OVERLAY_SIZE, |root| overlay::draw(root, &runs))?;
    }
    Ok(out.to_path_buf())
}

/// The overlay's size in pixels.
const OVERLAY_SIZE: (u32, u32) = (1300, 900);

/// Where `mnk plot A B …` writes the overlay unless told: next to the
/// runs if they share a folder (else in the current one), named after
/// them: `compare-A-B.png`.
pub fn default_overlay_path(dirs: &[&Path]) -> PathBuf {
    let name = |d: &Path| {
        d.file_name()
            .map_or_else(|| "run".into(), |n| n.to_string_lossy().into_owned())
    };
    let names: Vec<String> = dirs.iter().map(|d| name(d)).collect();
    let mut file = format!("compare-{}.png", names.join("-"));
    if file.len() > 100 {
        file = format!("compare-{}-runs.png", dirs.len());
    }
    let parent = |d: &Path| d.parent().map(Path::to_path_buf);
    let first = dirs.first().and_then(|d| parent(d));
    match first {
        Some(p) if dirs.iter().all(|d| parent(d).as_ref() == Some(&p)) => p.join(file),
        _ => PathBuf::from(file),
    }
}
