//! `mnk train`: self-play training into a run folder, with a progress bar,
//! plots and a closing verdict.
//!
//! [`run`] is a pipeline: open a new run or resume one (the flag groups of
//! [`Args`] apply themselves to its configuration either way), say what it
//! will do, train with a [`progress::Progress`] observer, report, draw the
//! plots, play the verdict.

mod args;
mod progress;
mod report;

pub use args::Args;

use super::job;
use anyhow::{Context, Result};
use args::worded;
use mnk::arena::ranks::Ranks;
use mnk::eval::{shipped_weights, Weights};
use mnk::train::{Observer, Snapshot, StartWeights, TrainError, TrainedPlayer, Trainer};
use progress::{stop_on_ctrl_c, Progress};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Runs `mnk train`.
pub fn run(a: Args) -> Result<()> {
    let trainer = match job::shared() {
        None => open(&a)?,
        Some(ranks) => join(&a, ranks.as_ref())?,
    };
    train(&a, trainer)
}

/// Opens the run: a new one or a resumed one, with its notes printed and
/// the verdict's size checked against the book.
fn open(a: &Args) -> Result<Trainer> {
    let trainer = match &a.run.resume {
        Some(dir) => resume(a, dir)?,
        None => create(a)?,
    };
    if let Some(old) = trainer.replaced_run() {
        eprintln!("note: replaced the run in {} (--force)", old.display());
    }
    for note in trainer.notes() {
        eprintln!("note: {note}");
    }
    // Refuse now, not after the training, a verdict the book cannot play
    // (a new run refused it before making its folder).
    if let Some(limit) = trainer.verdict_limit() {
        let openings = trainer.config().verdict_openings();
        anyhow::ensure!(
            openings <= limit,
            "--verdict-openings {openings}: the book's check part holds only {limit} openings",
        );
    }
    Ok(trainer)
}

/// In a job of several processes, rank 0 alone opens the run folder (and
/// reads the start weights and the book); it sends the other ranks what
/// they need to follow the run ([`Snapshot`]), so the folder may sit on
/// storage only rank 0 sees. An empty message says rank 0 could not open
/// the run, and says why itself.
fn join(a: &Args, ranks: &dyn Ranks) -> Result<Trainer> {
    let opened = (ranks.rank() == 0).then(|| open(a));
    let mut bytes = match &opened {
        Some(Ok(t)) => t.snapshot()?.to_bytes(),
        _ => Vec::new(),
    };
    ranks.broadcast(&mut bytes);
    let trainer = match opened {
        Some(t) => t,
        None if bytes.is_empty() => Err(job::Quiet.into()),
        None => Snapshot::from_bytes(&bytes)
            .and_then(|s| Trainer::replica(&s))
            .map_err(anyhow::Error::new),
    };
    let trainer = job::agree(trainer)?;
    let line = job::describe();
    if ranks.rank() == 0 {
        super::json::say(a.run.json, line);
    }
    Ok(trainer)
}

/// Trains, reports, draws the plots and plays the verdict. In a job, every
/// rank plays its share of each round and of the verdict, and rank 0
/// alone prints and writes.
fn train(a: &Args, mut trainer: Trainer) -> Result<()> {
    let lead = job::leads();
    // A finished run resumed: report::resuming said so, and how to extend
    // it; here is where it stands, and nothing is trained. Only a verdict
    // that was never recorded (a stop while it was played) is played now.
    // Every rank sees the same rounds and verdict, so all stop together.
    if trainer.is_finished() {
        if lead {
            report::print_summary(&trainer, 0, 0.0, 0.0, a.run.json);
        }
        let mut json = lead.then(|| report::SummaryJson::new(&trainer, (0, 0.0, 0.0)));
        if trainer.config().verdict_openings() > 0 && trainer.verdict_due() {
            verdict(a, &mut trainer, json.as_mut())?;
        }
        if let (Some(j), true) = (&json, a.run.json) {
            super::json::print("train", j)?;
        }
        return Ok(());
    }
    let started = Instant::now();
    let commit = trainer.commit_guard();
    let mut progress = match lead {
        true => Some(Progress::new(&trainer, !a.run.no_plots, commit.clone())),
        false => None,
    };
    let mut trained = || -> Result<()> {
        if let Some(p) = &progress {
            stop_on_ctrl_c(&trainer, p.bar.clone(), p.told.clone())?;
        }
        let result = match progress.as_mut() {
            Some(p) => trainer.run(p),
            None => trainer.run(&mut FaultInjection::from_env()),
        };
        if let Some(p) = &progress {
            p.finish();
        }
        Ok(result?)
    };
    job::fail_together(trained())?;
    let mut json = None;
    let plot_error = match &progress {
        Some(p) => {
            let session = (p.games, p.round_seconds, started.elapsed().as_secs_f64());
            report::print_summary(&trainer, session.0, session.1, session.2, a.run.json);
            let json = json.insert(report::SummaryJson::new(&trainer, session));
            // The run is complete and saved: plots that cannot be drawn (a
            // full disk) do not cost the verdict, but they make the exit
            // status 1.
            if a.run.no_plots {
                None
            } else {
                let _writing = commit.hold();
                plots(&trainer, a.run.json)
                    .map(|files| json.plots(&files))
                    .err()
            }
        }
        None => None,
    };
    if trainer.config().verdict_openings() > 0 {
        verdict(a, &mut trainer, json.as_mut())?;
    }
    if let (Some(j), true) = (&json, a.run.json) {
        super::json::print("train", j)?;
    }
    match plot_error {
        None => Ok(()),
        Some(e) => Err(anyhow::Error::new(e).context(format!(
            "the plots could not be drawn (the training is complete; draw them later with: mnk plot {})",
            trainer.dir().path().display()
        ))),
    }
}

/// Plays the closing verdict, says it and keeps it in the run folder (rank
/// 0), and adds it to the JSON summary.
fn verdict(a: &Args, trainer: &mut Trainer, json: Option<&mut report::SummaryJson>) -> Result<()> {
    let v = trainer
        .verdict(trainer.config().verdict_openings())
        .map_err(|e| worded(e, None));
    let v = job::fail_together(v)?;
    if job::leads() {
        super::json::say(a.run.json, format!("verdict: {}", v.summary()));
        trainer.record_verdict(&v)?;
    }
    if let Some(j) = json {
        j.verdict(&v);
    }
    Ok(())
}

/// The observer of the ranks other than 0, which print nothing. For the
/// tests of a job's failures, `MNK_TEST_PANIC=RANK:ROUND` makes rank RANK
/// panic when round ROUND is done.
struct FaultInjection {
    panic_after: Option<u32>,
}

impl FaultInjection {
    fn from_env() -> FaultInjection {
        let at = std::env::var("MNK_TEST_PANIC").ok().and_then(|v| {
            let (rank, round) = v.split_once(':')?;
            let rank: usize = rank.parse().ok()?;
            (rank == mnk::arena::ranks::rank()).then(|| round.parse().ok())?
        });
        FaultInjection { panic_after: at }
    }
}

impl Observer for FaultInjection {
    fn round(&mut self, e: &mnk::train::RoundEvent<'_>) {
        if self.panic_after == Some(e.result.round) {
            panic!(
                "MNK_TEST_PANIC: rank {} panics after round {}",
                mnk::arena::ranks::rank(),
                e.result.round
            );
        }
    }
}

/// Starts a new run from the flags.
fn create(a: &Args) -> Result<Trainer> {
    let rules = a.run.game;
    let mut cfg = a.run.defaults();
    cfg.player = a.run.player.clone();
    // On the shipped book, which rounds gained more from it was measured
    // per player (docs/training.md, "Training on a book"); the flags below
    // may say otherwise.
    cfg.random_rounds = cfg.book_split && !cfg.player.starts_with("search");
    a.apply(&mut cfg)?;
    // A search-trained run is judged in the player people face.
    cfg.check_player = match &a.run.check_player {
        Some(p) => Some(p.clone()),
        None if cfg.player.starts_with("search") => Some("search".to_string()),
        None => None,
    };
    cfg.start = a.run.start.to_string();
    cfg.verdict_openings = a.run.verdict_openings;
    cfg.name = match &a.run.name {
        Some(n) => n.clone(),
        None => report::free_name(&a.run.runs_dir, &rules.to_string()),
    };
    let start = match &a.run.start {
        StartWeights::Shipped => TrainedPlayer::parse(&cfg.player)
            .map(|p| p.shipped_weights(rules))
            .unwrap_or_else(|_| shipped_weights(rules)),
        StartWeights::Flat => Weights::flat(rules),
        StartWeights::File(p) => {
            Weights::load(p, rules, false).with_context(|| format!("--start {}", p.display()))?
        }
    };
    let start = match a.run.model {
        Some(model) => start.with_model(model),
        None => start,
    };
    if a.round.stones.is_none() {
        cfg.opening_stones_max = mnk::train::RunConfig::default_stones_max(rules, start.model());
    }
    let (runs, force, verdict) = (&a.run.runs_dir, a.run.force, cfg.verdict_openings());
    let t = Trainer::create_for_verdict(cfg, start, runs, force, verdict)
        .map_err(|e| worded(e, None))?;
    super::json::say(a.run.json, report::plan(&t));
    Ok(t)
}

/// Resumes the run in `dir`, with the flags that may change.
fn resume(a: &Args, dir: &Path) -> Result<Trainer> {
    let mut t = Trainer::resume(dir).map_err(|e| match e {
        // The message already names the folder and what to do.
        TrainError::Locked { .. } => anyhow::Error::new(e),
        e => worded(e, None).context(format!("cannot resume {}", dir.display())),
    })?;
    let mut cfg = t.config().clone();
    a.apply(&mut cfg)?;
    // Kept from the run unless given again.
    if let Some(n) = a.run.verdict_openings {
        cfg.verdict_openings = Some(n);
    }
    let (path, was) = (t.dir().path().to_path_buf(), t.config().clone());
    t.reconfigure(cfg.clone(), a.run.force)
        .map_err(|e| worded(e, Some((&path, &was, &cfg))))
        .with_context(|| format!("cannot resume {}", dir.display()))?;
    let verdict_due = t.config().verdict_openings() > 0 && t.verdict_due();
    super::json::say(a.run.json, report::resuming(&t, verdict_due));
    Ok(t)
}

/// Draws the run's plots and lists the PNG files (returned), or says they
/// were not drawn.
fn plots(t: &Trainer, json: bool) -> Result<Vec<PathBuf>, mnk::plot::PlotError> {
    match mnk::plot::plot_run(t.dir().path()) {
        Ok(files) => {
            super::json::say(json, format!("plots: {}", t.dir().plots().display()));
            let png: Vec<PathBuf> = files
                .into_iter()
                .filter(|f| f.extension().is_some_and(|e| e == "png"))
                .collect();
            for f in &png {
                super::json::say(json, format!("  {}", f.display()));
            }
            Ok(png)
        }
        Err(e) => {
            super::json::say(json, "plots: not drawn (see the error below)");
            Err(e)
        }
    }
}
