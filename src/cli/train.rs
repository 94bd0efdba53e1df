//! `mnk train`: self-play training into a run folder, with a progress bar,
//! plots and a closing verdict.

use crate::eval::{shipped_weights, Weights};
use crate::game::Rules;
use crate::train::{Observer, RoundEvent, RunConfig, StartWeights, Trainer};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: tictactoe, gomoku, or WxHxK such as 7x6x4 (-exact for the exact rule).
    #[arg(long, short, default_value = "gomoku", conflicts_with = "resume")]
    game: Rules,
    /// Rounds to play (default: 100).
    /// With --resume, a larger number continues a finished run.
    #[arg(long)]
    rounds: Option<u32>,
    /// Challengers per round (C); the incumbent and the C challengers play a round robin.
    #[arg(long, short = 'c', conflicts_with = "resume")]
    challengers: Option<u32>,
    /// Openings per pairing per round (G), each played with both colours
    /// (default: 2000 on large boards, 200 on small ones).
    #[arg(long, short = 'n', conflicts_with = "resume")]
    openings: Option<u32>,
    /// Draw each round's openings from a Gomocup offset-format file instead of at random.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    openings_file: Option<PathBuf>,
    /// Stones in each random opening (default: 4 on 9x9 and up, 2 on small boards).
    #[arg(long, conflicts_with = "resume")]
    stones: Option<u32>,
    /// The perturbation's σ in round 1: every weight is multiplied by exp(σ·N(0,1))
    /// and clamped to [1e-6, 1e9] (default: 0.3 on large boards, 0.5 on small ones).
    #[arg(long, conflicts_with = "resume")]
    sigma: Option<f64>,
    /// σ halves every this many rounds (0: constant; the default on every board).
    #[arg(long, value_name = "ROUNDS", conflicts_with = "resume")]
    sigma_half_life: Option<f64>,
    /// σ never shrinks below this.
    #[arg(long, conflicts_with = "resume")]
    sigma_min: Option<f64>,
    /// Start weights: shipped, flat (all equal: a deliberately poor start) or a weights file.
    #[arg(long, default_value = "shipped", conflicts_with = "resume")]
    start: StartWeights,
    /// The trained player: greedy, or search:depth=2,width=9 to train the search player's weights.
    #[arg(long, default_value = "greedy", conflicts_with = "resume")]
    player: String,
    /// Check the incumbent every R rounds (0: never; default: every round on
    /// tic-tac-toe, every 10 otherwise).
    #[arg(long, value_name = "R", conflicts_with = "resume")]
    check_every: Option<u32>,
    /// Openings (each played twice) per reference in large-board checks.
    #[arg(long, conflicts_with = "resume")]
    check_openings: Option<u32>,
    /// The run's name: its folder under --runs-dir (default: <game>-1, <game>-2, … the first free one).
    #[arg(long, conflicts_with = "resume")]
    name: Option<String>,
    /// Where run folders go.
    #[arg(long, default_value = "runs", conflicts_with = "resume")]
    runs_dir: PathBuf,
    /// Overwrite an existing run folder of the same name.
    #[arg(long, conflicts_with = "resume")]
    force: bool,
    /// Continue the run in this folder where it stopped.
    #[arg(long, value_name = "RUN_FOLDER")]
    resume: Option<PathBuf>,
    /// The seed every random choice derives from.
    #[arg(long, conflicts_with = "resume")]
    seed: Option<u64>,
    /// Openings (each played twice) of the closing match against the start weights (0: skip).
    #[arg(long, default_value_t = 1000)]
    verdict_openings: usize,
    /// Do not draw plots at the end.
    #[arg(long)]
    no_plots: bool,
}

fn config(a: &Args) -> Result<(RunConfig, Weights)> {
    let rules = a.game;
    let mut cfg = RunConfig::defaults(rules);
    if let Some(v) = a.rounds {
        cfg.rounds = v;
    }
    if let Some(v) = a.challengers {
        cfg.challengers = v;
    }
    if let Some(v) = a.openings {
        cfg.openings = v;
    }
    if let Some(v) = a.stones {
        cfg.opening_stones = v;
    }
    if let Some(v) = a.sigma {
        cfg.sigma = v;
    }
    if let Some(v) = a.sigma_half_life {
        cfg.sigma_half_life = v;
    }
    if let Some(v) = a.sigma_min {
        cfg.sigma_min = v;
    }
    if let Some(v) = a.check_every {
        cfg.check_every = v;
    }
    if let Some(v) = a.check_openings {
        cfg.check_openings = v;
    }
    if let Some(v) = a.seed {
        cfg.seed = v;
    }
    cfg.player = a.player.clone();
    cfg.openings_file = a.openings_file.as_ref().map(|p| p.display().to_string());
    cfg.start = a.start.to_string();
    cfg.name = match &a.name {
        Some(n) => n.clone(),
        None => free_name(&a.runs_dir, &rules.to_string()),
    };
    let start = match &a.start {
        StartWeights::Shipped => shipped_weights(rules),
        StartWeights::Flat => Weights::flat(rules),
        StartWeights::File(p) => {
            Weights::load(p, rules, false).with_context(|| format!("--start {}", p.display()))?
        }
    };
    Ok((cfg, start))
}

/// `<base>-1`, `<base>-2`, …: the first name not yet used in `runs_dir`.
fn free_name(runs_dir: &Path, base: &str) -> String {
    (1..)
        .map(|i| format!("{base}-{i}"))
        .find(|n| !runs_dir.join(n).exists())
        .unwrap_or_else(|| base.to_string())
}

pub fn run(a: Args) -> Result<()> {
    let mut trainer = match &a.resume {
        Some(dir) => {
            let mut t =
                Trainer::resume(dir).with_context(|| format!("cannot resume {}", dir.display()))?;
            if let Some(r) = a.rounds {
                t.set_rounds(r)?;
            }
            println!(
                "resuming {} at round {} of {}",
                t.dir().path().display(),
                t.next_round(),
                t.config().rounds
            );
            t
        }
        None => {
            let (cfg, start) = config(&a)?;
            let t = Trainer::create(cfg, start, &a.runs_dir, a.force)?;
            let c = t.config();
            println!(
                "training {} weights for {} in {}: {} rounds, {} challengers, {} openings x 2 colours per pairing, seed {}",
                c.player,
                c.game,
                t.dir().path().display(),
                c.rounds,
                c.challengers,
                c.openings,
                c.seed
            );
            t
        }
    };
    let started = Instant::now();
    let mut progress = Progress::new(&trainer, !a.no_plots);
    let result = trainer.run(&mut progress);
    progress.finish();
    result?;
    let secs = started.elapsed().as_secs_f64();
    let dir = trainer.dir().path().to_path_buf();
    println!("run folder: {}", dir.display());
    println!(
        "trained weights: {}",
        trainer.dir().best_weights().display()
    );
    if progress.games > 0 {
        println!(
            "{} training games in {:.1}s of round robins ({:.0} games/s; {:.1}s in all)",
            progress.games,
            progress.round_seconds,
            progress.games as f64 / progress.round_seconds.max(1e-9),
            secs
        );
    }
    if let Some(c) = trainer.checks().last() {
        println!("last check (round {}): {}", c.round, c.summary());
    }
    if !a.no_plots {
        let files = crate::plot::plot_run(&dir).context("cannot draw the plots")?;
        println!("plots: {}", trainer.dir().plots().display());
        for f in files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "png"))
        {
            println!("  {}", f.display());
        }
    }
    if a.verdict_openings > 0 {
        let v = trainer.verdict(a.verdict_openings)?;
        println!("verdict: {}", v.summary());
    }
    Ok(())
}

/// The progress bar (drawn only on a terminal; a log line per check
/// otherwise), and periodic plots.
struct Progress {
    bar: ProgressBar,
    terminal: bool,
    plots: bool,
    dir: PathBuf,
    last_plot: Instant,
    games: u64,
    round_seconds: f64,
    check: String,
}

impl Progress {
    fn new(t: &Trainer, plots: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = ProgressBar::with_draw_target(
            Some(u64::from(t.config().rounds) + 1),
            if terminal {
                ProgressDrawTarget::stderr()
            } else {
                ProgressDrawTarget::hidden()
            },
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] round {pos}/{len} eta {eta} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_position(u64::from(t.next_round()));
        bar.enable_steady_tick(Duration::from_millis(500));
        Progress {
            bar,
            terminal,
            plots,
            dir: t.dir().path().to_path_buf(),
            last_plot: Instant::now(),
            games: 0,
            round_seconds: 0.0,
            check: String::new(),
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Observer for Progress {
    fn phase(&mut self, what: &str) {
        self.bar.set_message(what.to_string());
        if !self.terminal {
            eprintln!("{what}");
        }
    }

    fn round(&mut self, e: &RoundEvent<'_>) {
        let r = e.result;
        self.games += r.games;
        self.round_seconds += e.round_seconds;
        if let Some(c) = e.latest_check {
            self.check = format!("check r{}: {}", c.round, c.summary());
        }
        let champion = if r.round == 0 {
            "start".to_string()
        } else if r.champion == 0 {
            format!("kept {:+}", r.score(0))
        } else {
            format!("c{} {:+}", r.champion, r.score(r.champion))
        };
        self.bar.set_position(u64::from(r.round) + 1);
        self.bar.set_message(format!(
            "| {:.0} games/s | champion {champion} | {}",
            e.games_per_second, self.check
        ));
        if let Some(c) = e.check {
            if !self.terminal {
                eprintln!(
                    "round {}: {} | check: {}",
                    r.round,
                    r.describe(),
                    c.summary()
                );
            }
            // Redraw the plots now and then, so a long run can be watched.
            if self.plots && self.last_plot.elapsed() > Duration::from_secs(60) {
                // A failed redraw is not worth stopping training for; the
                // final plots report their errors.
                let _ = crate::plot::plot_run(&self.dir);
                self.last_plot = Instant::now();
            }
        }
    }
}
