//! `mnk train`: self-play training into a run folder, with a progress bar,
//! plots and a closing verdict.

use crate::arena::stats::SprtParams;
use crate::eval::{shipped_weights, Weights};
use crate::game::Rules;
use crate::train::{
    CommitGuard, Field, Observer, Optimizer, Problem, RoundEvent, RunConfig, Select, StartWeights,
    TrainError, Trainer,
};
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
    /// Rounds to play (SPSA: steps; default: 100 rounds, or 2000 SPSA steps on
    /// large boards and 1000 on small ones).
    /// With --resume, a larger number continues a finished run.
    #[arg(long)]
    rounds: Option<u32>,
    /// Stop once the games played (round robins, confirmations, SPSA steps;
    /// not checks) reach N, even before --rounds (0: no limit). Use it to
    /// compare methods on an equal game budget. Allowed with --resume.
    #[arg(long, value_name = "N")]
    max_games: Option<u64>,
    /// How weights are improved. `random`: the original random search
    /// (perturb the incumbent into C challengers, play, keep the winner as
    /// --select says). `spsa`: simultaneous perturbation stochastic
    /// approximation in log-space: each step plays theta+ against theta- and
    /// moves every weight along the result (fast early gains, then a plateau
    /// below random search on gomoku; see docs/training.md). [default: random]
    #[arg(long, value_name = "NAME", help_heading = "Optimiser and selection")]
    optimizer: Option<Optimizer>,
    /// How random search picks the round's champion. `best`: highest
    /// wins - losses in a full round robin, incumbent kept on ties (the
    /// original rule; cheap, but with few openings per pairing the winner
    /// is often just the luckiest). `confirm`: as best, but the winning
    /// challenger must then beat the incumbent on fresh openings
    /// (--confirm-sprt or --confirm-games) to be adopted; use it when
    /// rounds are noisy (small --openings) and a wrong adoption is costly.
    /// `gauntlet`: challengers play only the incumbent, C pairings of
    /// G*(C+1)/2 openings instead of C(C+1)/2 of G (same games); a
    /// challenger must beat the incumbent head-to-head; use it for many
    /// challengers. Measured comparison: docs/training.md. [default: best]
    #[arg(long, value_name = "MODE", help_heading = "Optimiser and selection")]
    select: Option<Select>,
    /// --select confirm: decide the confirmation match by a pentanomial
    /// SPRT: elo0=X,elo1=Y[,alpha=0.05,beta=0.05,model=normalized|logistic]
    /// (default: elo0=-5,elo1=5, normalized Elo); the challenger is adopted
    /// only if H1 is accepted.
    #[arg(long, value_name = "PARAMS", help_heading = "Optimiser and selection")]
    confirm_sprt: Option<SprtParams>,
    /// --select confirm with SPRT: the most openings (each with both colours)
    /// before an undecided test counts as failed [default: 2000].
    #[arg(long, value_name = "N", help_heading = "Optimiser and selection")]
    confirm_max_openings: Option<u32>,
    /// --select confirm with SPRT: openings per batch between looks at the LLR [default: 200].
    #[arg(long, value_name = "N", help_heading = "Optimiser and selection")]
    confirm_batch: Option<u32>,
    /// --select confirm: decide by a fixed number of games instead (even;
    /// N/2 openings with both colours), adopted if the challenger's score
    /// reaches --confirm-threshold.
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "confirm_sprt",
        help_heading = "Optimiser and selection"
    )]
    confirm_games: Option<u32>,
    /// --confirm-games: the score (W + D/2)/N the challenger must reach [default: 0.55].
    #[arg(long, value_name = "SCORE", help_heading = "Optimiser and selection")]
    confirm_threshold: Option<f64>,
    /// SPSA step gain a: a_k = a/(A+k+1)^alpha, the log-space step per unit of
    /// score difference [default: 4].
    #[arg(long, value_name = "A", help_heading = "Optimiser and selection")]
    spsa_a: Option<f64>,
    /// SPSA perturbation c: c_k = c/(k+1)^gamma, in log-space [default: 0.2,
    /// i.e. theta+- = weights x e^(+-0.2)].
    #[arg(long, value_name = "C", help_heading = "Optimiser and selection")]
    spsa_c: Option<f64>,
    /// SPSA stability constant A [default: a tenth of the steps].
    #[arg(
        long = "spsa-A",
        value_name = "A",
        help_heading = "Optimiser and selection"
    )]
    spsa_big_a: Option<f64>,
    /// SPSA step gain exponent alpha, 0 < alpha < 1 [default: 0.602].
    #[arg(long, value_name = "ALPHA", help_heading = "Optimiser and selection")]
    spsa_alpha: Option<f64>,
    /// SPSA perturbation exponent gamma, 0 <= gamma < alpha [default: 0.101].
    #[arg(long, value_name = "GAMMA", help_heading = "Optimiser and selection")]
    spsa_gamma: Option<f64>,
    /// SPSA openings per step, each played with both colours by theta+ and
    /// theta- [default: 1000 on large boards, 100 on small ones].
    #[arg(long, value_name = "N", help_heading = "Optimiser and selection")]
    spsa_openings: Option<u32>,
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
    /// Overwrite an existing run folder of the same name; with --resume,
    /// allow switching the run to another --optimizer, --select or settings.
    #[arg(long)]
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
    let spsa = a.optimizer == Some(Optimizer::Spsa);
    let mut cfg = if spsa {
        RunConfig::spsa_defaults(rules)
    } else {
        RunConfig::defaults(rules)
    };
    if spsa {
        for (given, flag) in [
            (a.challengers.is_some(), "--challengers"),
            (a.openings.is_some(), "--openings"),
            (a.sigma.is_some(), "--sigma"),
            (a.sigma_half_life.is_some(), "--sigma-half-life"),
            (a.sigma_min.is_some(), "--sigma-min"),
        ] {
            anyhow::ensure!(
                !given,
                "{flag} applies to --optimizer random; SPSA uses --spsa-c (perturbation) and --spsa-openings (games per step)"
            );
        }
    }
    if let Some(v) = a.rounds {
        cfg.rounds = v;
        if let Some(s) = cfg.spsa.as_mut() {
            s.big_a = (f64::from(v) / 10.0).round();
        }
    }
    if let Some(v) = a.max_games {
        cfg.max_games = v;
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
    apply_method(&mut cfg, a)?;
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

/// Applies --optimizer, --select and their settings to `cfg` (a new run's
/// or a resumed run's configuration). Settings of a method that is not in
/// use are refused rather than ignored.
fn apply_method(cfg: &mut RunConfig, a: &Args) -> Result<()> {
    if let Some(o) = a.optimizer {
        cfg.optimizer = o;
    }
    if let Some(s) = a.select {
        anyhow::ensure!(
            cfg.optimizer == Optimizer::Random,
            "--select applies to --optimizer random; SPSA has no selection"
        );
        cfg.select = s;
    }
    let confirm_flags = [
        (a.confirm_sprt.is_some(), "--confirm-sprt"),
        (a.confirm_max_openings.is_some(), "--confirm-max-openings"),
        (a.confirm_batch.is_some(), "--confirm-batch"),
        (a.confirm_games.is_some(), "--confirm-games"),
        (a.confirm_threshold.is_some(), "--confirm-threshold"),
    ];
    let confirming = cfg.optimizer == Optimizer::Random && cfg.select == Select::Confirm;
    if let Some((_, flag)) = confirm_flags.iter().find(|(given, _)| *given) {
        anyhow::ensure!(confirming, "{flag} applies to --select confirm");
    }
    if confirming {
        let mut c = cfg.confirm.clone().unwrap_or_default();
        if let Some(p) = a.confirm_sprt {
            c.sprt = Some(p);
            c.games = None;
        }
        if let Some(g) = a.confirm_games {
            c.games = Some(g);
            c.sprt = None;
        }
        if let Some(v) = a.confirm_max_openings {
            c.max_openings = v;
        }
        if let Some(v) = a.confirm_batch {
            c.batch = v;
        }
        if let Some(v) = a.confirm_threshold {
            anyhow::ensure!(
                c.games.is_some(),
                "--confirm-threshold applies to --confirm-games (an SPRT decides by its own bounds)"
            );
            c.threshold = v;
        }
        cfg.confirm = Some(c);
    }
    let spsa_flags = [
        (a.spsa_a.is_some(), "--spsa-a"),
        (a.spsa_c.is_some(), "--spsa-c"),
        (a.spsa_big_a.is_some(), "--spsa-A"),
        (a.spsa_alpha.is_some(), "--spsa-alpha"),
        (a.spsa_gamma.is_some(), "--spsa-gamma"),
        (a.spsa_openings.is_some(), "--spsa-openings"),
    ];
    let spsa = cfg.optimizer == Optimizer::Spsa;
    if let Some((_, flag)) = spsa_flags.iter().find(|(given, _)| *given) {
        anyhow::ensure!(spsa, "{flag} applies to --optimizer spsa");
    }
    if spsa {
        let mut s = cfg.spsa_config();
        if let Some(v) = a.spsa_a {
            s.a = v;
        }
        if let Some(v) = a.spsa_c {
            s.c = v;
        }
        if let Some(v) = a.spsa_big_a {
            s.big_a = v;
        }
        if let Some(v) = a.spsa_alpha {
            s.alpha = v;
        }
        if let Some(v) = a.spsa_gamma {
            s.gamma = v;
        }
        if let Some(v) = a.spsa_openings {
            s.openings = v;
        }
        cfg.spsa = Some(s);
    }
    Ok(())
}

/// The flag that sets `field`, for the settings whose messages name it.
fn flag_for(field: Field) -> Option<&'static str> {
    Some(match field {
        Field::ConfirmSprt => "--confirm-sprt",
        Field::ConfirmMaxOpenings => "--confirm-max-openings",
        Field::ConfirmBatch => "--confirm-batch",
        Field::ConfirmGames => "--confirm-games",
        Field::ConfirmThreshold => "--confirm-threshold",
        Field::SpsaA => "--spsa-a",
        Field::SpsaC => "--spsa-c",
        Field::SpsaBigA => "--spsa-A",
        Field::SpsaAlpha => "--spsa-alpha",
        Field::SpsaGamma => "--spsa-gamma",
        Field::SpsaOpenings => "--spsa-openings",
        _ => return None,
    })
}

/// The flags that select a run's method and its settings, as a command
/// line would give them.
fn method_flags(c: &RunConfig) -> String {
    match c.optimizer {
        Optimizer::Spsa => {
            let s = c.spsa_config();
            format!(
                "--optimizer spsa --spsa-a {} --spsa-c {} --spsa-A {} --spsa-alpha {} --spsa-gamma {} --spsa-openings {}",
                s.a, s.c, s.big_a, s.alpha, s.gamma, s.openings
            )
        }
        Optimizer::Random if c.select == Select::Confirm => {
            let cc = c.confirm_config();
            match (cc.sprt, cc.games) {
                (Some(p), _) => format!(
                    "--select confirm --confirm-sprt {p} --confirm-max-openings {} --confirm-batch {}",
                    cc.max_openings, cc.batch
                ),
                (None, g) => format!(
                    "--select confirm --confirm-games {} --confirm-threshold {}",
                    g.unwrap_or(0),
                    cc.threshold
                ),
            }
        }
        Optimizer::Random => format!("--optimizer random --select {}", c.select),
    }
}

/// A training error in the command line's words: a setting is named by
/// its flag. `resumed` is the run folder, its configuration and the one
/// asked for, when a resumed run was reconfigured.
fn worded(e: TrainError, resumed: Option<(&Path, &RunConfig, &RunConfig)>) -> anyhow::Error {
    let (field, problem) = match &e {
        TrainError::Config { field, problem } => (*field, problem),
        TrainError::Frozen => {
            return anyhow::anyhow!("bad setting resume: only --rounds, --max-games, --optimizer, --select and their settings can change when a run is resumed")
        }
        _ => return anyhow::Error::new(e),
    };
    let key = |f: Field| flag_for(f).unwrap_or(f.as_str());
    let text = match (problem, flag_for(field)) {
        (Problem::Value { value, rule }, Some(flag)) => format!("{flag} {value}: {rule}"),
        (Problem::Zero, Some(flag)) => format!("{flag} must be at least 1"),
        (Problem::Other(text), Some(flag)) => format!("{flag}: {text}"),
        (Problem::Both(a, b), _) => format!("give either {} or {}, not both", key(*a), key(*b)),
        (Problem::Neither(a, b), _) => format!("give {} or {}", key(*a), key(*b)),
        (Problem::PlayerHasWeights { spec }, _) => format!(
            "{spec:?}: the trainer supplies the weights; give the start weights with --start instead"
        ),
        (Problem::Switch, _) => match resumed {
            Some((path, was, new)) => {
                let what = match field {
                    Field::Optimizer => format!("--optimizer {}", new.optimizer),
                    Field::Select => format!("--select {}", new.select),
                    Field::Spsa => "other SPSA settings".into(),
                    _ => "other confirmation settings".into(),
                };
                format!(
                    "{} was trained with {}; resuming it with {what} would change how the rest of the run trains: pass --force to switch, or start a new run",
                    path.display(),
                    method_flags(was)
                )
            }
            None => problem.to_string(),
        },
        _ => problem.to_string(),
    };
    anyhow::anyhow!("bad setting {field}: {text}")
}

/// One line on what the optimiser did over the whole run.
fn method_summary(t: &Trainer) -> String {
    let rounds = &t.rounds()[1.min(t.rounds().len())..];
    let played = rounds.len();
    let adopted = rounds
        .iter()
        .filter(|r| r.spsa.is_none() && r.champion != 0)
        .count();
    let confirms: Vec<_> = rounds.iter().filter_map(|r| r.confirm.as_ref()).collect();
    let spsa = rounds.iter().filter(|r| r.spsa.is_some()).count();
    let mut parts = vec![format!(
        "{played} rounds, {} games in all",
        t.games_played()
    )];
    if spsa > 0 {
        parts.push(format!("{spsa} SPSA steps"));
    }
    if spsa < played {
        parts.push(format!("{adopted} challengers adopted"));
    }
    if !confirms.is_empty() {
        let passed = confirms.iter().filter(|c| c.passed()).count();
        let games: u64 = confirms.iter().map(|c| c.games()).sum();
        parts.push(format!(
            "{} confirmations ({passed} passed, {games} games)",
            confirms.len()
        ));
    }
    parts.join(", ")
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
            let mut t = Trainer::resume(dir).map_err(|e| match e {
                // The message already names the folder and what to do.
                TrainError::Locked { .. } => anyhow::Error::new(e),
                e => worded(e, None).context(format!("cannot resume {}", dir.display())),
            })?;
            let mut cfg = t.config().clone();
            if let Some(r) = a.rounds {
                cfg.rounds = r;
            }
            if let Some(v) = a.max_games {
                cfg.max_games = v;
            }
            apply_method(&mut cfg, &a)?;
            let (path, was) = (t.dir().path().to_path_buf(), t.config().clone());
            t.reconfigure(cfg.clone(), a.force)
                .map_err(|e| worded(e, Some((&path, &was, &cfg))))
                .with_context(|| format!("cannot resume {}", dir.display()))?;
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
            let t =
                Trainer::create(cfg, start, &a.runs_dir, a.force).map_err(|e| worded(e, None))?;
            let c = t.config();
            let budget = if c.max_games > 0 {
                format!(", at most {} games", c.max_games)
            } else {
                String::new()
            };
            match c.optimizer {
                Optimizer::Random => println!(
                    "training {} weights for {} in {}: {} rounds, {} challengers, {} openings x 2 colours per pairing, select {}{budget}, seed {}",
                    c.player,
                    c.game,
                    t.dir().path().display(),
                    c.rounds,
                    c.challengers,
                    c.openings_per_pairing(),
                    c.select,
                    c.seed
                ),
                Optimizer::Spsa => {
                    let s = c.spsa_config();
                    println!(
                        "training {} weights for {} in {} by SPSA: {} steps of {} openings x 2 colours, a {} c {} A {} alpha {} gamma {}{budget}, seed {}",
                        c.player,
                        c.game,
                        t.dir().path().display(),
                        c.rounds,
                        s.openings,
                        s.a,
                        s.c,
                        s.big_a,
                        s.alpha,
                        s.gamma,
                        c.seed
                    )
                }
            }
            t
        }
    };
    for note in trainer.notes() {
        eprintln!("note: {note}");
    }
    let started = Instant::now();
    let commit = trainer.commit_guard();
    let mut progress = Progress::new(&trainer, !a.no_plots, commit.clone());
    stop_on_ctrl_c(&trainer, progress.bar.clone())?;
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
            "{} training games in {:.1}s of rounds ({:.0} games/s; {:.1}s in all)",
            progress.games,
            progress.round_seconds,
            progress.games as f64 / progress.round_seconds.max(1e-9),
            secs
        );
    }
    println!("{}", method_summary(&trainer));
    if let Some(c) = trainer.checks().last() {
        println!("last check (round {}): {}", c.round, c.summary());
    }
    // The run is complete and saved: plots that cannot be drawn (a full
    // disk) do not cost the verdict, but they make the exit status 1.
    let mut plot_error = None;
    if !a.no_plots {
        let drawn = {
            let _writing = commit.hold();
            crate::plot::plot_run(&dir)
        };
        match drawn {
            Ok(files) => {
                println!("plots: {}", trainer.dir().plots().display());
                for f in files
                    .iter()
                    .filter(|f| f.extension().is_some_and(|e| e == "png"))
                {
                    println!("  {}", f.display());
                }
            }
            Err(e) => {
                println!("plots: not drawn (see the error below)");
                plot_error = Some(e);
            }
        }
    }
    if a.verdict_openings > 0 {
        let v = trainer.verdict(a.verdict_openings)?;
        println!("verdict: {}", v.summary());
    }
    match plot_error {
        None => Ok(()),
        Some(e) => Err(anyhow::Error::new(e).context(format!(
            "the plots could not be drawn (the training is complete; draw them later with: mnk plot {})",
            dir.display()
        ))),
    }
}

/// Ctrl-C: wait until no round is being written, say where the run
/// stopped and how to continue it, and exit with 130 (128 + SIGINT).
/// Rounds are written whole under the trainer's [`CommitGuard`], so the
/// folder holds only complete rounds.
///
/// [`CommitGuard`]: crate::train::CommitGuard
fn stop_on_ctrl_c(t: &Trainer, bar: ProgressBar) -> Result<()> {
    let commit = t.commit_guard();
    let dir = t.dir().path().display().to_string();
    ctrlc::set_handler(move || {
        let last = commit.hold();
        bar.finish_and_clear();
        let stopped = match *last {
            Some(r) => format!("stopped after round {r}"),
            None => "stopped before round 0".to_string(),
        };
        // The terminal echoed "^C" without a newline.
        let newline = if std::io::stderr().is_terminal() {
            "\n"
        } else {
            ""
        };
        eprintln!("{newline}{stopped}; continue with: mnk train --resume {dir}");
        std::process::exit(130);
    })
    .context("cannot catch Ctrl-C")
}

/// The progress bar (drawn only on a terminal; a log line per check
/// otherwise), and periodic plots.
struct Progress {
    bar: ProgressBar,
    commit: CommitGuard,
    budget: bool,
    terminal: bool,
    plots: bool,
    dir: PathBuf,
    last_plot: Instant,
    games: u64,
    round_seconds: f64,
    check: String,
}

impl Progress {
    fn new(t: &Trainer, plots: bool, commit: CommitGuard) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let budget = t.config().max_games;
        let bar = ProgressBar::with_draw_target(
            Some(if budget > 0 {
                budget
            } else {
                u64::from(t.config().rounds) + 1
            }),
            if terminal {
                ProgressDrawTarget::stderr()
            } else {
                ProgressDrawTarget::hidden()
            },
        );
        bar.set_style(
            ProgressStyle::with_template(if budget > 0 {
                "{elapsed_precise} [{bar:30}] games {human_pos}/{human_len} eta {eta} {msg}"
            } else {
                "{elapsed_precise} [{bar:30}] round {pos}/{len} eta {eta} {msg}"
            })
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_position(if budget > 0 {
            t.games_played()
        } else {
            u64::from(t.next_round())
        });
        bar.enable_steady_tick(Duration::from_millis(500));
        Progress {
            bar,
            commit,
            budget: budget > 0,
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
        self.games += r.total_games();
        self.round_seconds += e.round_seconds;
        if let Some(c) = e.latest_check {
            self.check = format!("check r{}: {}", c.round, c.summary());
        }
        let champion = if r.round == 0 {
            "start".to_string()
        } else if let Some(s) = &r.spsa {
            format!("a_k {:.3} diff {:+.3}", s.a_k, s.score_diff())
        } else if let Some(c) = &r.confirm {
            format!(
                "c{} {} {}",
                c.candidate,
                if c.passed() { "confirmed" } else { "rejected" },
                c.tally.games
            )
        } else if r.champion == 0 {
            format!("kept {:+}", r.score(0))
        } else {
            format!("c{} {:+}", r.champion, r.score(r.champion))
        };
        if self.budget {
            self.bar.inc(r.total_games());
        } else {
            self.bar.set_position(u64::from(r.round) + 1);
        }
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
                let _writing = self.commit.hold();
                let _ = crate::plot::plot_run(&self.dir);
                self.last_plot = Instant::now();
            }
        }
    }
}
