//! `mnk train`'s flags, in groups that each apply themselves to a run
//! configuration (a new run's or a resumed one's), and the wording of
//! training errors in terms of those flags.

use anyhow::Result;
use mnk::arena::stats::SprtParams;
use mnk::arena::{BookError, BookPart};
use mnk::game::Rules;
use mnk::train::{
    BookNeed, CmaesOpponent, Field, Optimizer, Problem, RunConfig, Select, StartWeights, TrainError,
};
use std::path::{Path, PathBuf};

/// `mnk train`'s arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  mnk train -g tictactoe --rounds 30              a quick run on a small board
  mnk train --rounds 200 --select confirm         gomoku, adoptions confirmed by a match
  mnk train --optimizer spsa --rounds 500
  mnk train --player search:depth=2,width=9 --name search-1
  mnk train --resume runs/gomoku-1                continue where it stopped
  mnk train --resume runs/gomoku-1 --rounds 400   play a finished run on to round 400
  mnk train -g 7x6x4 --rounds 50 --json           closing summary as JSON (docs/json/train.md)

Progress: a bar on a terminal (stderr), a line per check otherwise.
Ctrl-C stops after the round in hand; --resume continues.")]
pub struct Args {
    /// The run: its folder, game, length, trained player and closing match.
    #[command(flatten)]
    pub run: RunArgs,
    /// Worker threads.
    #[command(flatten)]
    pub threads: crate::cli::Threads,
    /// What a round plays.
    #[command(flatten, next_help_heading = "Rounds")]
    pub round: RoundArgs,
    /// Random search's perturbation and selection.
    #[command(flatten, next_help_heading = "Random search")]
    pub random: RandomSearchArgs,
    /// The confirmation match of --select confirm.
    #[command(flatten, next_help_heading = "Confirmation (--select confirm)")]
    pub confirm: ConfirmArgs,
    /// SPSA's gains and games.
    #[command(flatten, next_help_heading = "SPSA (--optimizer spsa)")]
    pub spsa: SpsaArgs,
    /// CMA-ES's step size, candidates and games.
    #[command(flatten, next_help_heading = "CMA-ES (--optimizer cmaes)")]
    pub cmaes: CmaesArgs,
}

/// The run as a whole.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The game: tictactoe, gomoku, or WxHxK such as 7x6x4 (-exact for the exact rule).
    #[arg(long, short, default_value = "gomoku", conflicts_with = "resume")]
    pub game: Rules,
    /// Rounds to play (SPSA: steps, CMA-ES: generations; default: 100
    /// rounds, 2000 SPSA steps on large boards and 1000 on small ones, or
    /// 200 CMA-ES generations).
    /// With --resume, a larger number continues a finished run.
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Stop once the games played (round robins, confirmations, SPSA steps;
    /// not checks) reach N, even before --rounds (0: no limit). Use it to
    /// compare methods on an equal game budget. Allowed with --resume.
    #[arg(long, value_name = "N")]
    pub max_games: Option<u64>,
    /// How weights are improved. `random`: the original random search
    /// (perturb the incumbent into C challengers, play, keep the winner as
    /// --select says). `spsa`: simultaneous perturbation stochastic
    /// approximation in log-space: each step plays theta+ against theta- and
    /// moves every weight along the result (fast early gains, then a plateau
    /// below random search on gomoku; see docs/training.md). `cmaes`: CMA-ES
    /// in log-space: each generation samples candidates around the mean,
    /// plays each against the mean on shared openings and adapts the mean,
    /// the step size and the covariance (the method for expensive players;
    /// see docs/training.md). [default: random]
    #[arg(long, value_name = "NAME")]
    pub optimizer: Option<Optimizer>,
    /// Start weights: shipped, flat (all equal: a deliberately poor start) or a weights file.
    #[arg(long, default_value = "shipped", conflicts_with = "resume")]
    pub start: StartWeights,
    /// The weight model trained: shapes (the 16 numbers), or combo (plus a
    /// weight per cell combination and side; those the start weights lack
    /// start at 0, so round 0 plays as the start weights; random search
    /// and CMA-ES train it, SPSA cannot). [default: the start weights'
    /// model]
    #[arg(long, value_name = "MODEL", conflicts_with = "resume")]
    pub model: Option<mnk::eval::Model>,
    /// The trained player: greedy, or search:depth=2,width=9 to train the search player's weights.
    #[arg(long, default_value = "greedy", conflicts_with = "resume")]
    pub player: String,
    /// Check the incumbent every R rounds (0: never; default: every round on
    /// tic-tac-toe, every 10 otherwise).
    #[arg(long, value_name = "R", conflicts_with = "resume")]
    pub check_every: Option<u32>,
    /// Openings (each played twice) per reference in large-board checks
    /// [default: 500 on large boards, 200 on small ones].
    #[arg(long, conflicts_with = "resume")]
    pub check_openings: Option<u32>,
    /// The player of the large-board checks and the closing verdict
    /// (default: `search`, the player of `play --ai hard`, when --player
    /// is a search; else the trained player).
    #[arg(long, value_name = "SPEC", conflicts_with = "resume")]
    pub check_player: Option<String>,
    /// The run's name: its folder under --runs-dir (default: <game>-1, <game>-2, … the first free one).
    #[arg(long, conflicts_with = "resume")]
    pub name: Option<String>,
    /// Where run folders go.
    #[arg(long, default_value = "runs", conflicts_with = "resume")]
    pub runs_dir: PathBuf,
    /// Overwrite an existing run folder of the same name; with --resume,
    /// allow switching the run to another --optimizer, --select or settings.
    #[arg(long)]
    pub force: bool,
    /// Continue the run in this folder where it stopped.
    #[arg(long, value_name = "RUN_FOLDER")]
    pub resume: Option<PathBuf>,
    /// The seed every random choice derives from [default: 1].
    #[arg(long, conflicts_with = "resume")]
    pub seed: Option<u64>,
    /// Openings (each played twice) of the closing match against the start
    /// weights (0: skip) [default: 1000, or what the resumed run was given].
    #[arg(long)]
    pub verdict_openings: Option<usize>,
    /// Do not draw plots at the end.
    #[arg(long)]
    pub no_plots: bool,
    /// Print the closing summary and verdict as one JSON object on stdout
    /// (fields: docs/json/train.md); every other line goes to stderr.
    #[arg(long)]
    pub json: bool,
}

impl RunArgs {
    /// The defaults of a new run of `--game` with `--optimizer` (SPSA's
    /// stability constant follows `--rounds`).
    pub fn defaults(&self) -> RunConfig {
        let mut cfg = mnk::train::method(self.optimizer.unwrap_or_default()).defaults(self.game);
        if let (Some(rounds), Some(s)) = (self.rounds, cfg.spsa.as_mut()) {
            s.big_a = (f64::from(rounds) / 10.0).round();
        }
        cfg
    }

    /// Applies the run's length, optimiser, seed and checks.
    pub fn apply(&self, cfg: &mut RunConfig) -> Result<()> {
        set(&mut cfg.rounds, self.rounds);
        set(&mut cfg.max_games, self.max_games);
        set(&mut cfg.optimizer, self.optimizer);
        set(&mut cfg.seed, self.seed);
        set(&mut cfg.check_every, self.check_every);
        set(&mut cfg.check_openings, self.check_openings);
        Ok(())
    }
}

/// What a round plays.
#[derive(clap::Args, Debug)]
pub struct RoundArgs {
    /// Challengers per round (C); the incumbent and the C challengers play
    /// a round robin [default: 4].
    #[arg(long, short = 'c', conflicts_with = "resume")]
    pub challengers: Option<u32>,
    /// Openings per pairing per round (G), each played with both colours
    /// (default: 2000 on large boards, 200 on small ones).
    #[arg(long, short = 'n', conflicts_with = "resume")]
    pub openings: Option<u32>,
    /// The opening book, a Gomocup offset-format file (default: the game's
    /// shipped balanced book, where mnk has one: gomoku, gomoku-exact,
    /// 20x20x5, 7x6x4). Rounds draw from its training part; the checks and
    /// the verdict play its check part (every 4th opening).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["resume", "random_openings"])]
    pub openings_file: Option<PathBuf>,
    /// Random openings instead of a book, for the rounds and the checks
    /// alike (the default on games without a shipped book).
    #[arg(long, conflicts_with = "resume")]
    pub random_openings: bool,
    /// Where the rounds draw their openings when the run has a book: `book`
    /// (its training part) or `random` (the checks and the verdict still
    /// play the book's check part) [default: on the shipped book, random
    /// for greedy and book for search, as measured in docs/training.md; on
    /// an --openings-file, book].
    #[arg(long, value_name = "FROM", value_parser = ["book", "random"],
          conflicts_with_all = ["resume", "random_openings"])]
    pub round_openings: Option<String>,
    /// Stones in each random opening: N, or a range such as 2-3 (each
    /// opening draws its count uniformly) (default: 4 on 9x9 and up, 2 on
    /// small boards, 2-3 for the combo model on tic-tac-toe); with a book,
    /// needs --random-openings.
    #[arg(long, conflicts_with = "resume", value_name = "N|LOW-HIGH")]
    pub stones: Option<Stones>,
}

/// `--stones`: a number of stones or an inclusive range of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stones {
    /// The fewest.
    pub low: u32,
    /// The most (`low` for a single number).
    pub high: u32,
}

impl std::str::FromStr for Stones {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (low, high) = crate::cli::openings::stone_counts(s, "2-3")?;
        let count = |n: usize| {
            u32::try_from(n)
                .map_err(|_| format!("expected at most {} stones, found {s:?}", u32::MAX))
        };
        Ok(Stones {
            low: count(low)?,
            high: count(high)?,
        })
    }
}

impl RoundArgs {
    /// Applies the challengers, openings and opening stones.
    pub fn apply(&self, cfg: &mut RunConfig) -> Result<()> {
        for (given, flag) in [
            (self.challengers.is_some(), "--challengers"),
            (self.openings.is_some(), "--openings"),
        ] {
            random_only(cfg, given, flag)?;
        }
        set(&mut cfg.challengers, self.challengers);
        set(&mut cfg.openings, self.openings);
        if let Some(st) = self.stones {
            cfg.opening_stones = st.low;
            cfg.opening_stones_max = (st.high > st.low).then_some(st.high);
        }
        if let Some(p) = &self.openings_file {
            cfg.openings_file = Some(p.display().to_string());
            cfg.book_split = true;
            // A book given is a book to train on.
            cfg.random_rounds = false;
        }
        if self.random_openings {
            cfg.openings_file = None;
            cfg.book_split = false;
            cfg.random_rounds = false;
        }
        if let Some(from) = &self.round_openings {
            anyhow::ensure!(
                cfg.book_split,
                "--round-openings: {} has no shipped book; give one with --openings-file",
                cfg.game
            );
            cfg.random_rounds = from == "random";
        }
        anyhow::ensure!(
            self.stones.is_none() || cfg.openings_file.is_none() || cfg.random_rounds,
            "--stones sets random openings' stones, but this run's rounds play {}: add --random-openings or --round-openings random",
            match &cfg.openings_file {
                Some(p) if p == mnk::train::SHIPPED_BOOK => "the shipped book".to_string(),
                Some(p) => p.clone(),
                None => String::new(),
            }
        );
        Ok(())
    }
}

/// Random search's perturbation and selection.
#[derive(clap::Args, Debug)]
pub struct RandomSearchArgs {
    /// How random search picks the round's champion. `best`: highest
    /// wins - losses in a full round robin, incumbent kept on ties (the
    /// original rule; cheap, but with few openings per pairing the winner
    /// is often just the luckiest). `best-beats` (the default): as best,
    /// but that challenger must also have beaten the incumbent in their
    /// own pairing of the same round robin (by --beats-z standard errors),
    /// at no extra games; runs made before it keep `best`. `confirm`: as best, but the winning
    /// challenger must then beat the incumbent on fresh openings
    /// (--confirm-sprt or --confirm-games) to be adopted; use it when
    /// rounds are noisy (small --openings) and a wrong adoption is costly.
    /// `gauntlet`: challengers play only the incumbent, C pairings of
    /// G*(C+1)/2 openings instead of C(C+1)/2 of G (same games); a
    /// challenger must beat the incumbent head-to-head; use it for many
    /// challengers. Measured comparison: docs/training.md. [default: best-beats]
    #[arg(long, value_name = "MODE")]
    pub select: Option<Select>,
    /// --select best-beats: the champion's pairing with the incumbent must
    /// beat it by more than this many standard errors (its pentanomial
    /// z-score); 0: more wins than losses is enough, the rule of runs made
    /// before it [default: 2 on large boards, 0 on small ones].
    #[arg(long, value_name = "Z")]
    pub beats_z: Option<f64>,
    /// The perturbation's σ in round 1: every weight is multiplied by exp(σ·N(0,1))
    /// and clamped to [1e-6, 1e9] (default: 0.3 on large boards, 0.5 on small ones).
    #[arg(long, conflicts_with = "resume")]
    pub sigma: Option<f64>,
    /// σ halves every this many rounds (0: constant; the default on every board).
    #[arg(long, value_name = "ROUNDS", conflicts_with = "resume")]
    pub sigma_half_life: Option<f64>,
    /// σ never shrinks below this (by the half-life or the plateau rule) [default: 0.05].
    #[arg(long, conflicts_with = "resume")]
    pub sigma_min: Option<f64>,
    /// The plateau rule: after P rounds in a row without an adopted
    /// challenger, σ is multiplied by --sigma-shrink (not below --sigma-min),
    /// and it grows back when more than P/5 of the rounds since the last
    /// change adopt one (the 1/5th success rule). 0: off, σ as --sigma and
    /// --sigma-half-life say. Random search only: SPSA has no σ and ignores
    /// the rule (the flag is refused with --optimizer spsa). [default: 10 on
    /// large boards; 0, off, on small ones (10 when another plateau flag
    /// turns the rule on there)]
    // A negative number is read as the (bad) value, so the error names
    // --patience rather than an unknown argument "-1".
    #[arg(
        long,
        value_name = "P",
        conflicts_with = "resume",
        allow_negative_numbers = true
    )]
    pub patience: Option<u32>,
    /// The plateau rule's factor: σ becomes σ x F after --patience rounds
    /// without an adoption, 0 < F < 1 [default: 0.7].
    #[arg(long, value_name = "F", conflicts_with = "resume")]
    pub sigma_shrink: Option<f64>,
    /// The plateau rule only shrinks σ, never grows it back.
    #[arg(long, conflicts_with = "resume")]
    pub no_sigma_grow: bool,
    /// End the run early when --patience more rounds pass without an
    /// adoption with σ already at --sigma-min; the closing verdict still runs.
    #[arg(long, conflicts_with = "resume")]
    pub stop_on_plateau: bool,
}

impl RandomSearchArgs {
    /// Applies σ's schedule and the selection mode.
    pub fn apply(&self, cfg: &mut RunConfig) -> Result<()> {
        for (given, flag) in [
            (self.sigma.is_some(), "--sigma"),
            (self.sigma_half_life.is_some(), "--sigma-half-life"),
            (self.sigma_min.is_some(), "--sigma-min"),
            (self.patience.is_some(), "--patience"),
            (self.sigma_shrink.is_some(), "--sigma-shrink"),
            (self.no_sigma_grow, "--no-sigma-grow"),
            (self.stop_on_plateau, "--stop-on-plateau"),
        ] {
            random_only(cfg, given, flag)?;
        }
        set(&mut cfg.sigma, self.sigma);
        set(&mut cfg.sigma_half_life, self.sigma_half_life);
        set(&mut cfg.sigma_min, self.sigma_min);
        self.apply_plateau(cfg)?;
        if let Some(s) = self.select {
            anyhow::ensure!(
                cfg.optimizer == Optimizer::Random,
                "--select applies to --optimizer random; {} has no selection",
                if cfg.optimizer == Optimizer::Spsa {
                    "SPSA"
                } else {
                    "CMA-ES"
                }
            );
            if s != cfg.select {
                // A run switched to best-beats gets the margin of new runs.
                let fresh = RunConfig::defaults(cfg.game);
                cfg.beats_z = (s == Select::BestBeats).then_some(fresh.beats_z).flatten();
            }
            cfg.select = s;
        }
        // The margin belongs to best-beats: a run switched to another
        // method (or optimiser) drops it.
        if cfg.optimizer != Optimizer::Random || cfg.select != Select::BestBeats {
            cfg.beats_z = None;
        }
        if let Some(z) = self.beats_z {
            anyhow::ensure!(
                cfg.optimizer == Optimizer::Random && cfg.select == Select::BestBeats,
                "--beats-z applies to --optimizer random with --select best-beats"
            );
            cfg.beats_z = Some(z);
        }
        Ok(())
    }
}

impl RandomSearchArgs {
    /// Applies the plateau rule's flags: `--patience 0` turns it off, and
    /// its other flags then have nothing to set.
    fn apply_plateau(&self, cfg: &mut RunConfig) -> Result<()> {
        let rest = [
            (self.sigma_shrink.is_some(), "--sigma-shrink"),
            (self.no_sigma_grow, "--no-sigma-grow"),
            (self.stop_on_plateau, "--stop-on-plateau"),
        ];
        if self.patience == Some(0) {
            if let Some((_, flag)) = rest.iter().find(|(given, _)| *given) {
                anyhow::bail!("{flag} applies to the plateau rule, which --patience 0 turns off");
            }
            cfg.plateau = None;
            return Ok(());
        }
        if self.patience.is_none() && !rest.iter().any(|(given, _)| *given) {
            return Ok(());
        }
        let mut p = cfg.plateau.clone().unwrap_or_default();
        set(&mut p.patience, self.patience);
        set(&mut p.shrink, self.sigma_shrink);
        if self.no_sigma_grow {
            p.grow = false;
        }
        if self.stop_on_plateau {
            p.stop = true;
        }
        cfg.plateau = Some(p);
        Ok(())
    }
}

/// The confirmation match of `--select confirm`.
#[derive(clap::Args, Debug)]
pub struct ConfirmArgs {
    /// --select confirm: decide the confirmation match by a pentanomial
    /// SPRT: elo0=X,elo1=Y[,alpha=0.05,beta=0.05,model=normalized|logistic]
    /// (default: elo0=-5,elo1=5, normalized Elo); the challenger is adopted
    /// only if H1 is accepted.
    #[arg(long, value_name = "PARAMS")]
    pub confirm_sprt: Option<SprtParams>,
    /// --select confirm with SPRT: the most openings (each with both colours)
    /// before an undecided test counts as failed [default: 2000].
    #[arg(long, value_name = "N")]
    pub confirm_max_openings: Option<u32>,
    /// --select confirm with SPRT: openings per batch between looks at the LLR [default: 200].
    #[arg(long, value_name = "N")]
    pub confirm_batch: Option<u32>,
    /// --select confirm: decide by a fixed number of games instead (even;
    /// N/2 openings with both colours), adopted if the challenger's score
    /// reaches --confirm-threshold.
    #[arg(long, value_name = "N", conflicts_with = "confirm_sprt")]
    pub confirm_games: Option<u32>,
    /// --confirm-games: the score (W + D/2)/N the challenger must reach [default: 0.55].
    #[arg(long, value_name = "SCORE")]
    pub confirm_threshold: Option<f64>,
}

impl ConfirmArgs {
    /// Applies the confirmation settings; refused unless the run selects
    /// by confirmation.
    pub fn apply(&self, cfg: &mut RunConfig) -> Result<()> {
        let flags = [
            (self.confirm_sprt.is_some(), "--confirm-sprt"),
            (
                self.confirm_max_openings.is_some(),
                "--confirm-max-openings",
            ),
            (self.confirm_batch.is_some(), "--confirm-batch"),
            (self.confirm_games.is_some(), "--confirm-games"),
            (self.confirm_threshold.is_some(), "--confirm-threshold"),
        ];
        let confirming = cfg.optimizer == Optimizer::Random && cfg.select == Select::Confirm;
        if let Some((_, flag)) = flags.iter().find(|(given, _)| *given) {
            anyhow::ensure!(confirming, "{flag} applies to --select confirm");
        }
        if !confirming {
            return Ok(());
        }
        let mut c = cfg.confirm.clone().unwrap_or_default();
        if let Some(p) = self.confirm_sprt {
            c.sprt = Some(p);
            c.games = None;
        }
        if let Some(g) = self.confirm_games {
            c.games = Some(g);
            c.sprt = None;
        }
        set(&mut c.max_openings, self.confirm_max_openings);
        set(&mut c.batch, self.confirm_batch);
        if let Some(v) = self.confirm_threshold {
            anyhow::ensure!(
                c.games.is_some(),
                "--confirm-threshold applies to --confirm-games (an SPRT decides by its own bounds)"
            );
            c.threshold = v;
        }
        cfg.confirm = Some(c);
        Ok(())
    }
}

/// SPSA's gains and games.
#[derive(clap::Args, Debug)]
pub struct SpsaArgs {
    /// SPSA step gain a: a_k = a/(A+k+1)^alpha, the log-space step per unit of
    /// score difference [default: 4].
    #[arg(long, value_name = "A")]
    pub spsa_a: Option<f64>,
    /// SPSA perturbation c: c_k = c/(k+1)^gamma, in log-space [default: 0.2,
    /// i.e. theta+- = weights x e^(+-0.2)].
    #[arg(long, value_name = "C")]
    pub spsa_c: Option<f64>,
    /// SPSA stability constant A [default: a tenth of the steps].
    #[arg(long = "spsa-A", value_name = "A")]
    pub spsa_big_a: Option<f64>,
    /// SPSA step gain exponent alpha, 0 < alpha < 1 [default: 0.602].
    #[arg(long, value_name = "ALPHA")]
    pub spsa_alpha: Option<f64>,
    /// SPSA perturbation exponent gamma, 0 <= gamma < alpha [default: 0.101].
    #[arg(long, value_name = "GAMMA")]
    pub spsa_gamma: Option<f64>,
    /// SPSA openings per step, each played with both colours by theta+ and
    /// theta- [default: 1000 on large boards, 100 on small ones].
    #[arg(long, value_name = "N")]
    pub spsa_openings: Option<u32>,
}

impl SpsaArgs {
    /// Applies the SPSA settings; refused unless the run uses SPSA.
    pub fn apply(&self, cfg: &mut RunConfig) -> Result<()> {
        let flags = [
            (self.spsa_a.is_some(), "--spsa-a"),
            (self.spsa_c.is_some(), "--spsa-c"),
            (self.spsa_big_a.is_some(), "--spsa-A"),
            (self.spsa_alpha.is_some(), "--spsa-alpha"),
            (self.spsa_gamma.is_some(), "--spsa-gamma"),
            (self.spsa_openings.is_some(), "--spsa-openings"),
        ];
        let spsa = cfg.optimizer == Optimizer::Spsa;
        if let Some((_, flag)) = flags.iter().find(|(given, _)| *given) {
            anyhow::ensure!(spsa, "{flag} applies to --optimizer spsa");
        }
        if !spsa {
            return Ok(());
        }
        let mut s = cfg.spsa_config();
        set(&mut s.a, self.spsa_a);
        set(&mut s.c, self.spsa_c);
        set(&mut s.big_a, self.spsa_big_a);
        set(&mut s.alpha, self.spsa_alpha);
        set(&mut s.gamma, self.spsa_gamma);
        set(&mut s.openings, self.spsa_openings);
        cfg.spsa = Some(s);
        Ok(())
    }
}

/// CMA-ES's step size, candidates and games.
#[derive(clap::Args, Debug)]
pub struct CmaesArgs {
    /// CMA-ES starting step size σ in log-space, 0 < σ <= 5 [default: 0.3].
    #[arg(long, value_name = "SIGMA", conflicts_with = "resume")]
    pub cmaes_sigma: Option<f64>,
    /// CMA-ES candidates per generation (lambda), 2 to 64; the best half
    /// move the mean [default: 10].
    #[arg(long, value_name = "N", conflicts_with = "resume")]
    pub cmaes_lambda: Option<u32>,
    /// CMA-ES openings each candidate plays against the mean, each with
    /// both colours; every candidate of a generation plays the same ones
    /// [default: 1000 on large boards, 100 on small ones].
    #[arg(long, value_name = "N", conflicts_with = "resume")]
    pub cmaes_openings: Option<u32>,
    /// CMA-ES candidates in mirrored pairs, m + σy and m − σy (false: every
    /// candidate drawn independently, as runs made before it) [default: true].
    #[arg(long, value_name = "BOOL", conflicts_with = "resume")]
    pub cmaes_mirrored: Option<bool>,
    /// CMA-ES mean learning rate c_m, 0 < c_m <= 1: the mean moves by c_m
    /// times the selected candidates' step (1: runs made before it)
    /// [default: 0.5].
    #[arg(long, value_name = "C", conflicts_with = "resume")]
    pub cmaes_mean_rate: Option<f64>,
    /// CMA-ES fitness: whom the candidates play. `mean`: the current mean
    /// (self-play); `start`: the run's start weights (round 0, after any
    /// --model conversion), a fixed opponent [default: mean].
    #[arg(long, value_name = "WHOM", conflicts_with = "resume")]
    pub cmaes_opponent: Option<CmaesOpponent>,
    /// CMA-ES holds attack and defence at their start values and searches
    /// only the shape and combination weights (attack and defence each
    /// scale one side's weights: directions the weights already span)
    /// [default: false].
    #[arg(long, value_name = "BOOL", conflicts_with = "resume")]
    pub cmaes_fixed_scales: Option<bool>,
    /// CMA-ES cap on the step size σ, from --cmaes-sigma to 5 [default:
    /// none].
    #[arg(long, value_name = "SIGMA", conflicts_with = "resume")]
    pub cmaes_sigma_max: Option<f64>,
}

impl CmaesArgs {
    /// Applies the CMA-ES settings; refused unless the run uses CMA-ES.
    pub fn apply(&self, cfg: &mut RunConfig) -> Result<()> {
        let flags = [
            (self.cmaes_sigma.is_some(), "--cmaes-sigma"),
            (self.cmaes_lambda.is_some(), "--cmaes-lambda"),
            (self.cmaes_openings.is_some(), "--cmaes-openings"),
            (self.cmaes_mirrored.is_some(), "--cmaes-mirrored"),
            (self.cmaes_mean_rate.is_some(), "--cmaes-mean-rate"),
            (self.cmaes_opponent.is_some(), "--cmaes-opponent"),
            (self.cmaes_fixed_scales.is_some(), "--cmaes-fixed-scales"),
            (self.cmaes_sigma_max.is_some(), "--cmaes-sigma-max"),
        ];
        if let Some((_, flag)) = flags.iter().find(|(given, _)| *given) {
            anyhow::ensure!(
                cfg.optimizer == Optimizer::Cmaes,
                "{flag} applies to --optimizer cmaes"
            );
        }
        if cfg.optimizer != Optimizer::Cmaes || cfg.cmaes.is_none() {
            return Ok(());
        }
        let mut c = cfg.cmaes_config();
        set(&mut c.sigma, self.cmaes_sigma);
        set(&mut c.lambda, self.cmaes_lambda);
        set(&mut c.openings, self.cmaes_openings);
        set(&mut c.mirrored, self.cmaes_mirrored);
        set(&mut c.mean_rate, self.cmaes_mean_rate);
        set(&mut c.opponent, self.cmaes_opponent);
        set(&mut c.fixed_scales, self.cmaes_fixed_scales);
        if self.cmaes_sigma_max.is_some() {
            c.sigma_max = self.cmaes_sigma_max;
        }
        cfg.cmaes = Some(c);
        Ok(())
    }
}

impl Args {
    /// Applies every group to `cfg`, in the order their refusals are
    /// checked: the run, the round, random search, confirmation, SPSA,
    /// CMA-ES.
    pub fn apply(&self, cfg: &mut RunConfig) -> Result<()> {
        self.run.apply(cfg)?;
        self.round.apply(cfg)?;
        self.random.apply(cfg)?;
        self.confirm.apply(cfg)?;
        self.spsa.apply(cfg)?;
        self.cmaes.apply(cfg)
    }
}

/// `*slot = value` when a flag gave one.
fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *slot = v;
    }
}

/// Refuses a random-search flag in an SPSA or CMA-ES run.
fn random_only(cfg: &RunConfig, given: bool, flag: &str) -> Result<()> {
    anyhow::ensure!(
        !given || cfg.optimizer != Optimizer::Spsa,
        "{flag} applies to --optimizer random; SPSA uses --spsa-c (perturbation) and --spsa-openings (games per step)"
    );
    anyhow::ensure!(
        !given || cfg.optimizer != Optimizer::Cmaes,
        "{flag} applies to --optimizer random; CMA-ES uses --cmaes-sigma (step size), --cmaes-lambda (candidates) and --cmaes-openings (games per candidate)"
    );
    Ok(())
}

/// The flag that sets `field`, for the settings whose messages name it.
fn flag_for(field: Field) -> Option<&'static str> {
    Some(match field {
        Field::ConfirmSprt => "--confirm-sprt",
        Field::ConfirmMaxOpenings => "--confirm-max-openings",
        Field::ConfirmBatch => "--confirm-batch",
        Field::ConfirmGames => "--confirm-games",
        Field::BeatsZ => "--beats-z",
        Field::ConfirmThreshold => "--confirm-threshold",
        Field::SpsaA => "--spsa-a",
        Field::SpsaC => "--spsa-c",
        Field::SpsaBigA => "--spsa-A",
        Field::SpsaAlpha => "--spsa-alpha",
        Field::SpsaGamma => "--spsa-gamma",
        Field::SpsaOpenings => "--spsa-openings",
        Field::CmaesSigma => "--cmaes-sigma",
        Field::CmaesLambda => "--cmaes-lambda",
        Field::CmaesOpenings => "--cmaes-openings",
        Field::CmaesMeanRate => "--cmaes-mean-rate",
        Field::CmaesSigmaMax => "--cmaes-sigma-max",
        Field::PlateauPatience => "--patience",
        Field::PlateauShrink => "--sigma-shrink",
        Field::CheckPlayer => "--check-player",
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
        Optimizer::Cmaes => {
            let s = c.cmaes_config();
            format!(
                "--optimizer cmaes --cmaes-sigma {} --cmaes-lambda {} --cmaes-openings {} --cmaes-mirrored {} --cmaes-mean-rate {}{}{}{}",
                s.sigma,
                s.lambda,
                s.openings,
                s.mirrored,
                s.mean_rate,
                match s.opponent {
                    CmaesOpponent::Mean => String::new(),
                    o => format!(" --cmaes-opponent {o}"),
                },
                if s.fixed_scales {
                    " --cmaes-fixed-scales true"
                } else {
                    ""
                },
                match s.sigma_max {
                    Some(m) => format!(" --cmaes-sigma-max {m}"),
                    None => String::new(),
                }
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
        Optimizer::Random if c.select == Select::BestBeats => {
            format!(
                "--optimizer random --select best-beats --beats-z {}",
                c.beats_z()
            )
        }
        Optimizer::Random => format!("--optimizer random --select {}", c.select),
    }
}

/// A training error in the command line's words: a setting is named by
/// its flag. `resumed` is the run folder, its configuration and the one
/// asked for, when a resumed run was reconfigured.
/// A book too small for what a run needs, said with the flag that sets
/// the need.
fn too_few_openings(
    need: BookNeed,
    book: &str,
    part: BookPart,
    have: usize,
    n: usize,
) -> anyhow::Error {
    let what = match need {
        BookNeed::Verdict => {
            return anyhow::anyhow!(
                "--verdict-openings {n}: the book's {part} holds only {have} openings"
            )
        }
        BookNeed::Openings => "openings per pairing (--openings)",
        BookNeed::SpsaOpenings => "SPSA openings per step (--spsa-openings)",
        BookNeed::CmaesOpenings => "CMA-ES openings per candidate (--cmaes-openings)",
        BookNeed::Confirmation => "the most openings of a confirmation",
        BookNeed::CheckOpenings => "check openings (--check-openings)",
    };
    anyhow::anyhow!("{book}: the book's {part} holds {have} openings, but {n} are needed ({what}); ask for at most {have}, or use a larger book (mnk openings generate)")
}

pub fn worded(e: TrainError, resumed: Option<(&Path, &RunConfig, &RunConfig)>) -> anyhow::Error {
    let (field, problem) = match &e {
        TrainError::Config { field, problem } => (*field, problem),
        TrainError::Frozen => {
            return anyhow::anyhow!("bad setting resume: only --rounds, --max-games, --optimizer, --select and their settings, and --verdict-openings, can change when a run is resumed")
        }
        // What to do next is said in flags, which only the command line
        // knows.
        TrainError::Exists { path } => {
            return anyhow::anyhow!(
                "{e}: pass --force to overwrite it, --resume {} to continue it, or choose another --name",
                path.display()
            )
        }
        TrainError::TooFewOpenings {
            need,
            book:
                BookError::TooFew {
                    source_name,
                    part,
                    have,
                    need: n,
                    ..
                },
        } => return too_few_openings(*need, source_name, *part, *have, *n),
        TrainError::NeverStarted { .. } => {
            return anyhow::anyhow!(
                "{e}; start it again with the same --name, which replaces the folder"
            )
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
                    Field::BeatsZ => format!("--beats-z {}", new.beats_z()),
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
