//! The run configuration: everything that decides a training run, saved as
//! `run.toml` so that a run can be resumed or repeated exactly.

use super::TrainError;
use crate::arena::stats::SprtParams;
use crate::arena::OpeningStyle;
use crate::eval::MAX_WEIGHT;
use crate::game::Rules;
use super::player::TrainedPlayer;
use crate::players::{PlayerSpec, Solver};
use crate::util::string_enum;
use serde::{Deserialize, Serialize};

/// The version of the run folder layout written in `run.toml`.
///
/// - 1: random search with `best` selection only; `rounds.csv` has no mode,
///   confirmation or SPSA columns. Still read, shown, plotted and resumed
///   (in format 1), but not switched to another optimiser or selection mode.
/// - 2: adds the optimiser (`random`, `spsa`), the selection mode (`best`,
///   `confirm`, `gauntlet`), their settings, `max_games`, and the matching
///   `rounds.csv` columns.
pub const FORMAT: u32 = 2;

/// The oldest run folder format this version reads.
pub const OLDEST_FORMAT: u32 = 1;

/// The smallest weight a perturbation may produce. Weights are multiplied
/// by `exp(σ·z)`, so they never reach 0 or change sign; this floor only
/// keeps a long downward random walk from underflowing into meaningless
/// tiny numbers.
pub const MIN_WEIGHT: f64 = 1e-6;

/// Where the starting weights come from.
#[derive(Clone, Debug, PartialEq)]
pub enum StartWeights {
    /// The shipped weights for the game ([`crate::eval::shipped_weights`]).
    Shipped,
    /// Every weight 1 ([`crate::eval::Weights::flat`]): a deliberately poor start.
    Flat,
    /// A weights file.
    File(std::path::PathBuf),
}

impl std::str::FromStr for StartWeights {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "shipped" => StartWeights::Shipped,
            "flat" => StartWeights::Flat,
            _ => StartWeights::File(s.into()),
        })
    }
}

impl std::fmt::Display for StartWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartWeights::Shipped => f.write_str("shipped"),
            StartWeights::Flat => f.write_str("flat"),
            StartWeights::File(p) => write!(f, "{}", p.display()),
        }
    }
}

string_enum! {
    /// How the weights are improved.
    #[derive(Default)]
    pub enum Optimizer("optimiser") {
        /// The original program's random search: perturb the incumbent into C
        /// challengers, play them, keep the winner ([`Select`] says how).
        #[default]
        Random = "random",
        /// Simultaneous perturbation stochastic approximation: every step moves
        /// all weights at once along a noisy gradient estimate from one paired
        /// match between θ+ and θ− ([`SpsaConfig`]).
        Spsa = "spsa",
    }
}

string_enum! {
    /// How random search picks the round's champion.
    #[derive(Default)]
    pub enum Select("selection mode") {
        /// The original rule: a full round robin, the best wins − losses takes
        /// over, the incumbent stays on a tie.
        #[default]
        Best = "best",
        /// As `best`, but a challenger that wins the round robin must then beat
        /// the incumbent in a confirmation match on fresh openings (SPRT or a
        /// fixed number of games with a score threshold) to be adopted.
        Confirm = "confirm",
        /// The challengers play the incumbent only (C pairings instead of
        /// C(C+1)/2), each over more openings for the same games per round;
        /// the challenger with the best wins − losses against the incumbent
        /// takes over if that is above 0.
        Gauntlet = "gauntlet",
    }
}

/// The confirmation match of `--select confirm`: the round robin's winning
/// challenger against the incumbent, on openings of its own seed stream.
/// Exactly one of `sprt` and `games` is set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfirmConfig {
    /// Decide by a pentanomial GSPRT (`elo0=-5,elo1=5,alpha=0.05,beta=0.05,
    /// model=normalized`): adopted only when H1 is accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtParams>,
    /// The SPRT's most openings (each played with both colours); a test
    /// still undecided then is a failure.
    #[serde(default = "ConfirmConfig::default_max_openings")]
    pub max_openings: u32,
    /// Openings per SPRT batch: the LLR is looked at after every batch.
    #[serde(default = "ConfirmConfig::default_batch")]
    pub batch: u32,
    /// Decide by a fixed number of games (even: games/2 openings, both
    /// colours): adopted when the challenger's score reaches `threshold`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u32>,
    /// The score (0 to 1) a fixed-games confirmation must reach.
    #[serde(default = "ConfirmConfig::default_threshold")]
    pub threshold: f64,
}

impl ConfirmConfig {
    fn default_max_openings() -> u32 {
        2000
    }
    fn default_batch() -> u32 {
        200
    }
    fn default_threshold() -> f64 {
        0.55
    }
    /// The default SPRT: `elo0=-5,elo1=5` in normalized Elo, α = β = 0.05:
    /// "is the challenger better or worse than the incumbent?". The
    /// round robin's winners are rarely more than a few Elo better, so
    /// `elo0=0,elo1=10` ran to its most openings undecided and rejected
    /// almost every one (see `docs/training.md`).
    pub fn default_sprt() -> SprtParams {
        SprtParams {
            elo0: -5.0,
            elo1: 5.0,
            ..SprtParams::default()
        }
    }

    /// Checks the settings; errors name the command-line flag.
    pub fn validate(&self) -> Result<(), TrainError> {
        let bad = |field: &str, message: String| {
            Err(TrainError::Config {
                field: field.into(),
                message,
            })
        };
        match (&self.sprt, self.games) {
            (Some(_), Some(_)) => {
                return bad(
                    "confirm",
                    "give either --confirm-sprt or --confirm-games, not both".into(),
                )
            }
            (None, None) => return bad("confirm", "give --confirm-sprt or --confirm-games".into()),
            (Some(s), None) => {
                if let Err(e) = s.validate() {
                    return bad("confirm.sprt", format!("--confirm-sprt: {e}"));
                }
                if self.max_openings < 1 {
                    return bad(
                        "confirm.max_openings",
                        "--confirm-max-openings must be at least 1".into(),
                    );
                }
                if self.batch < 1 {
                    return bad("confirm.batch", "--confirm-batch must be at least 1".into());
                }
            }
            (None, Some(g)) => {
                if g < 2 || g % 2 != 0 {
                    return bad(
                        "confirm.games",
                        format!("--confirm-games {g}: must be an even number of at least 2 (each opening is played with both colours)"),
                    );
                }
                if !(self.threshold.is_finite() && self.threshold > 0.0 && self.threshold <= 1.0) {
                    return bad(
                        "confirm.threshold",
                        format!(
                            "--confirm-threshold {}: must be a score above 0 and at most 1 (such as 0.55)",
                            self.threshold
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    /// The most openings a confirmation plays.
    pub fn max_openings(&self) -> u32 {
        match self.games {
            Some(g) => g / 2,
            None => self.max_openings,
        }
    }
}

impl Default for ConfirmConfig {
    fn default() -> ConfirmConfig {
        ConfirmConfig {
            sprt: Some(ConfirmConfig::default_sprt()),
            max_openings: ConfirmConfig::default_max_openings(),
            batch: ConfirmConfig::default_batch(),
            games: None,
            threshold: ConfirmConfig::default_threshold(),
        }
    }
}

/// SPSA settings (`--optimizer spsa`). Step k = 0, 1, … (the k-th SPSA
/// step of the run) has the gains
/// `a_k = a / (A + k + 1)^alpha` and `c_k = c / (k + 1)^gamma`;
/// each step plays θ± = θ·e^(±c_k·δ) against each other and moves θ by
/// `a_k·d·δ` in log-space, `d` being θ+'s score minus θ−'s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpsaConfig {
    /// Step gain numerator `a` (log-space weight change per unit of score
    /// difference, before the schedule's divisor).
    pub a: f64,
    /// Perturbation size `c` in log-space (`c = 0.2`: θ± are the weights
    /// times `e^(±0.2)` ≈ ×1.22 or ×0.82).
    pub c: f64,
    /// The stability constant `A` (by convention about 10% of the steps).
    #[serde(rename = "A")]
    pub big_a: f64,
    /// The step gain's decay exponent (0.602 in Spall's recommendation).
    pub alpha: f64,
    /// The perturbation's decay exponent (0.101 in Spall's recommendation).
    pub gamma: f64,
    /// Openings per step, each played with both colours by θ+ and θ−.
    pub openings: u32,
}

impl SpsaConfig {
    /// Defaults for `steps` steps: see `docs/training.md` for how they
    /// were chosen.
    pub fn defaults(steps: u32, small: bool) -> SpsaConfig {
        SpsaConfig {
            a: 4.0,
            c: 0.2,
            big_a: (f64::from(steps) / 10.0).round(),
            alpha: 0.602,
            gamma: 0.101,
            openings: if small { 100 } else { 1000 },
        }
    }

    /// `a_k` of the k-th step (k from 0).
    pub fn a_k(&self, k: u32) -> f64 {
        self.a / (self.big_a + f64::from(k) + 1.0).powf(self.alpha)
    }

    /// `c_k` of the k-th step (k from 0).
    pub fn c_k(&self, k: u32) -> f64 {
        self.c / (f64::from(k) + 1.0).powf(self.gamma)
    }

    /// Checks the settings; errors name the command-line flag.
    pub fn validate(&self) -> Result<(), TrainError> {
        let bad = |field: &str, message: String| {
            Err(TrainError::Config {
                field: field.into(),
                message,
            })
        };
        if !(self.a.is_finite() && self.a > 0.0) {
            return bad(
                "spsa.a",
                format!("--spsa-a {}: a must be a number above 0", self.a),
            );
        }
        if !(self.c.is_finite() && self.c > 0.0 && self.c <= 5.0) {
            return bad(
                "spsa.c",
                format!(
                    "--spsa-c {}: c must be above 0 and at most 5 (a log-space step)",
                    self.c
                ),
            );
        }
        if !(self.big_a.is_finite() && self.big_a >= 0.0) {
            return bad(
                "spsa.A",
                format!("--spsa-A {}: A must be 0 or more", self.big_a),
            );
        }
        if !(self.alpha.is_finite() && self.alpha > 0.0 && self.alpha < 1.0) {
            return bad(
                "spsa.alpha",
                format!(
                    "--spsa-alpha {}: alpha must be above 0 and below 1 (Spall: 0.602)",
                    self.alpha
                ),
            );
        }
        if !(self.gamma.is_finite() && self.gamma >= 0.0 && self.gamma < self.alpha) {
            return bad(
                "spsa.gamma",
                format!(
                    "--spsa-gamma {}: gamma must be at least 0 and below alpha = {} (Spall: 0.101)",
                    self.gamma, self.alpha
                ),
            );
        }
        if self.openings < 1 {
            return bad("spsa.openings", "--spsa-openings must be at least 1".into());
        }
        Ok(())
    }
}

/// Everything that decides a run. Written to `run.toml`; the start weights
/// themselves are in `rounds.csv` (round 0) and `weights/round-0000.toml`,
/// so a run folder does not depend on files outside it.
///
/// Every random choice of round `r` comes from generators seeded with
/// `(seed, stream, r)` ([`crate::arena::derive_seed`]), so a run is a pure
/// function of this configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// Run folder layout version ([`FORMAT`]).
    pub format: u32,
    /// The run's name (its folder under the runs directory).
    pub name: String,
    /// The trained player's spec: `greedy` or `search:depth=2,width=9`.
    pub player: String,
    /// Where the start weights came from: `shipped`, `flat` or a file path
    /// (informative; the weights are copied into the run folder).
    pub start: String,
    /// The seed every random choice derives from.
    pub seed: u64,
    /// Number of rounds (SPSA: steps).
    pub rounds: u32,
    /// Stop after the first round at which the games played so far
    /// (round robins, confirmations and SPSA steps; not checks) reach this
    /// many; 0: no limit, `rounds` alone decides.
    #[serde(default)]
    pub max_games: u64,
    /// How the weights are improved: `random` search or `spsa`.
    #[serde(default)]
    pub optimizer: Optimizer,
    /// How random search picks the champion: `best`, `confirm` or
    /// `gauntlet` (ignored by SPSA).
    #[serde(default)]
    pub select: Select,
    /// Challengers per round (C); the round robin has C + 1 players.
    pub challengers: u32,
    /// Openings per pairing per round (G); each is played with both colours.
    pub openings: u32,
    /// The openings file the run draws from (informative; a copy is kept
    /// as `openings.txt` in the run folder and that copy is used).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings_file: Option<String>,
    /// Stones in each random opening.
    pub opening_stones: u32,
    /// Random opening stones lie within this Chebyshev distance of the centre.
    pub opening_radius: u32,
    /// The perturbation's σ in round 1: each weight is multiplied by
    /// `exp(σ·N(0,1))`.
    pub sigma: f64,
    /// σ halves every this many rounds (0: σ stays constant).
    pub sigma_half_life: f64,
    /// σ never shrinks below this.
    pub sigma_min: f64,
    /// Perturbed weights are clamped to `[min_weight, max_weight]`.
    pub min_weight: f64,
    /// See `min_weight`; at most [`MAX_WEIGHT`].
    pub max_weight: f64,
    /// Check the incumbent every this many rounds (and after round 0 and the
    /// last round); 0 never checks.
    pub check_every: u32,
    /// Openings (each played twice) per reference in the checks of large
    /// boards.
    pub check_openings: u32,
    /// The confirmation match of `select = "confirm"` (defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<ConfirmConfig>,
    /// The SPSA settings of `optimizer = "spsa"` (defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spsa: Option<SpsaConfig>,
    /// The game.
    pub game: Rules,
}

/// Whether the exact-player checks apply to a game: its board is small
/// enough for the solver from the empty board.
pub fn is_small(rules: Rules) -> bool {
    rules.cells() <= Solver::DEFAULT_LIMIT
}

impl RunConfig {
    /// The embedded defaults for a game.
    ///
    /// - Large boards (gomoku): 100 rounds of 4 challengers, 2000 openings
    ///   per pairing (10 pairings × 4000 games = 40,000 games a round, 4M
    ///   games in all: about 3 minutes on 2 cores), a constant σ = 0.3, a
    ///   check against the references every 10 rounds on 500 paired
    ///   openings (1000 games each). A σ that shrinks to near 0 made the
    ///   selection a coin toss between near-identical players, and the
    ///   incumbent drifted (seen as lost Elo after round 60); with a
    ///   constant σ the challengers differ enough that a noisy win rarely
    ///   unseats the incumbent.
    /// - Boards the exact player solves (tic-tac-toe, 4×4): 100 rounds,
    ///   200 openings of 2 stones, a constant σ = 0.5, checked every round
    ///   (every 10 when over 9 cells). On tic-tac-toe from flat weights
    ///   this reached at least 95% agreement for 14 of 16 seeds (seed 1
    ///   included); a shrinking σ or 1-stone openings did worse.
    pub fn defaults(game: Rules) -> RunConfig {
        let style = OpeningStyle::default_for(game);
        let small = is_small(game);
        RunConfig {
            format: FORMAT,
            name: String::new(),
            player: "greedy".into(),
            start: "shipped".into(),
            seed: 1,
            rounds: 100,
            challengers: 4,
            openings: if small { 200 } else { 2000 },
            openings_file: None,
            opening_stones: if small { 2 } else { style.stones as u32 },
            opening_radius: style.radius as u32,
            sigma: if small { 0.5 } else { 0.3 },
            sigma_half_life: 0.0,
            sigma_min: 0.05,
            min_weight: MIN_WEIGHT,
            max_weight: MAX_WEIGHT,
            check_every: if small && game.cells() <= 9 { 1 } else { 10 },
            check_openings: if small { 200 } else { 500 },
            max_games: 0,
            optimizer: Optimizer::Random,
            select: Select::Best,
            confirm: None,
            spsa: None,
            game,
        }
    }

    /// The defaults of an SPSA run on this game: as [`RunConfig::defaults`]
    /// but with `optimizer = "spsa"`, 2000 steps of 1000 openings on large
    /// boards (4M games, as many as the random search defaults; 1000 steps
    /// of 100 openings on small boards), a check every 200 (small: 100)
    /// steps, and the [`SpsaConfig::defaults`].
    pub fn spsa_defaults(game: Rules) -> RunConfig {
        let small = is_small(game);
        let steps = if small { 1000 } else { 2000 };
        RunConfig {
            optimizer: Optimizer::Spsa,
            rounds: steps,
            check_every: if small && game.cells() > 9 {
                200
            } else if small {
                50
            } else {
                200
            },
            spsa: Some(SpsaConfig::defaults(steps, small)),
            ..RunConfig::defaults(game)
        }
    }

    /// The confirmation settings (the defaults if run.toml has none).
    pub fn confirm_config(&self) -> ConfirmConfig {
        self.confirm.clone().unwrap_or_default()
    }

    /// The SPSA settings (the defaults for `rounds` steps if run.toml has none).
    pub fn spsa_config(&self) -> SpsaConfig {
        self.spsa
            .clone()
            .unwrap_or_else(|| SpsaConfig::defaults(self.rounds, is_small(self.game)))
    }

    /// Openings per pairing of a random-search round: G, or under
    /// `gauntlet` ⌊G·(C+1)/2⌋, so that its C pairings play as many games
    /// as the C(C+1)/2 pairings of a full round robin.
    pub fn openings_per_pairing(&self) -> u32 {
        match self.select {
            Select::Gauntlet => {
                let g = u64::from(self.openings) * (u64::from(self.challengers) + 1) / 2;
                g.clamp(1, u64::from(u32::MAX)) as u32
            }
            _ => self.openings,
        }
    }

    /// The pairings of a random-search round among the incumbent (0) and
    /// the challengers (1..=C): every pair for `best` and `confirm`, only
    /// (0, i) for `gauntlet`.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.challengers as usize + 1;
        match self.select {
            Select::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            _ => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
        }
    }

    /// The perturbation's σ in round `round` (1-based):
    /// `max(sigma_min, sigma · 2^(−(round − 1)/sigma_half_life))`, or
    /// `sigma` when the half-life is 0. Round 0 (the start) has σ = 0.
    pub fn sigma_at(&self, round: u32) -> f64 {
        if round == 0 {
            return 0.0;
        }
        if self.sigma_half_life <= 0.0 {
            return self.sigma;
        }
        let decayed = self.sigma * (-(f64::from(round - 1)) / self.sigma_half_life).exp2();
        decayed.max(self.sigma_min.min(self.sigma))
    }

    /// The random-opening style.
    pub fn opening_style(&self) -> OpeningStyle {
        OpeningStyle {
            stones: self.opening_stones as usize,
            radius: self.opening_radius.min(255) as u8,
        }
    }

    /// Whether a check follows round `round`.
    pub fn checks_after(&self, round: u32) -> bool {
        self.check_every > 0 && (round.is_multiple_of(self.check_every) || round == self.rounds)
    }

    /// The trained player.
    ///
    /// A search player's tables must fit in memory for every player a round
    /// builds at once: each worker thread keeps its own copy of the
    /// incumbent and every challenger. Checked here, before any game, so a
    /// table too large is refused with `player` named rather than aborting
    /// the process part-way through a round.
    pub fn trained_player(&self) -> Result<TrainedPlayer, TrainError> {
        let player = TrainedPlayer::parse(&self.player)?;
        let per_thread = (self.challengers as usize + 1).max(2);
        let copies = rayon::current_num_threads() * per_thread;
        let holders = format!("players ({per_thread} per worker thread)");
        PlayerSpec::ensure_memory(&[player.player_spec()], copies, &holders).map_err(|e| {
            TrainError::Config {
                field: "player".into(),
                message: e.to_string(),
            }
        })?;
        Ok(player)
    }

    /// Checks every setting; the error names the setting.
    pub fn validate(&self) -> Result<(), TrainError> {
        let bad = |field: &str, message: String| {
            Err(TrainError::Config {
                field: field.into(),
                message,
            })
        };
        if self.format > FORMAT {
            return bad(
                "format",
                format!(
                    "run folder format {} was written by a newer mnk (this one reads formats {OLDEST_FORMAT} to {FORMAT}); use a newer mnk to resume it",
                    self.format
                ),
            );
        }
        if self.format < OLDEST_FORMAT {
            return bad(
                "format",
                format!(
                    "run folder format {} is not supported (this mnk reads formats {OLDEST_FORMAT} to {FORMAT})",
                    self.format
                ),
            );
        }
        if self.format < 2
            && (self.optimizer != Optimizer::Random
                || self.select != Select::Best
                || self.confirm.is_some()
                || self.spsa.is_some()
                || self.max_games != 0)
        {
            return bad(
                "format",
                format!(
                    "a format {} run folder only holds random search with best selection; start a new run to use other optimisers, selection modes or max_games",
                    self.format
                ),
            );
        }
        if let Some(c) = &self.confirm {
            c.validate()?;
        }
        if let Some(s) = &self.spsa {
            s.validate()?;
        }
        check_name(&self.name)?;
        self.trained_player()?;
        // TOML integers are 64-bit signed: a larger seed could not be
        // written to run.toml, and the run could not be resumed.
        if self.seed > i64::MAX as u64 {
            return bad(
                "seed",
                format!(
                    "{} is too large: run.toml holds seeds from 0 to {}",
                    self.seed,
                    i64::MAX
                ),
            );
        }
        if self.rounds < 1 {
            return bad("rounds", "must be at least 1".into());
        }
        if self.challengers < 1 {
            return bad(
                "challengers",
                format!("C = {} must be at least 1", self.challengers),
            );
        }
        if self.challengers > 64 {
            return bad(
                "challengers",
                format!("C = {} is more than 64", self.challengers),
            );
        }
        if self.openings < 1 {
            return bad(
                "openings",
                format!("G = {} must be at least 1", self.openings),
            );
        }
        if !(self.sigma.is_finite() && self.sigma > 0.0) {
            return bad(
                "sigma",
                format!("σ = {} must be a number above 0", self.sigma),
            );
        }
        if self.sigma > 5.0 {
            return bad(
                "sigma",
                format!("σ = {} is too large (at most 5)", self.sigma),
            );
        }
        if !(self.sigma_half_life.is_finite() && self.sigma_half_life >= 0.0) {
            return bad(
                "sigma_half_life",
                format!(
                    "{} must be 0 (constant σ) or a number of rounds",
                    self.sigma_half_life
                ),
            );
        }
        if !(self.sigma_min.is_finite() && self.sigma_min > 0.0) {
            return bad(
                "sigma_min",
                format!("{} must be a number above 0", self.sigma_min),
            );
        }
        if !(self.min_weight.is_finite()
            && self.min_weight > 0.0
            && self.max_weight.is_finite()
            && self.min_weight < self.max_weight
            && self.max_weight <= MAX_WEIGHT)
        {
            return bad(
                "min_weight",
                format!(
                    "the bounds [{}, {}] must satisfy 0 < min < max <= {MAX_WEIGHT:e}",
                    self.min_weight, self.max_weight
                ),
            );
        }
        if self.opening_stones as usize >= self.game.cells() {
            return bad(
                "opening_stones",
                format!(
                    "{} stones do not fit the {} cells of {}",
                    self.opening_stones,
                    self.game.cells(),
                    self.game
                ),
            );
        }
        if self.check_openings < 1 {
            return bad("check_openings", "must be at least 1".into());
        }
        Ok(())
    }

    /// The TOML text of `run.toml`, with a comment header. Fails rather
    /// than write a file that could not be resumed (a setting TOML cannot
    /// hold; [`RunConfig::validate`] refuses the ones known).
    pub fn to_toml(&self) -> Result<String, TrainError> {
        let body = toml::to_string(self).map_err(|e| TrainError::Config {
            field: "run.toml".into(),
            message: format!("cannot be written as TOML: {e}"),
        })?;
        Ok(format!(
            "# mnk training run: the whole configuration. `mnk train --resume <run folder>`\n\
             # continues the run; every random choice derives from `seed`.\n\
             # sigma schedule: sigma_r = max(sigma_min, sigma * 2^(-(r-1)/sigma_half_life)).\n\
             # Perturbation: w * exp(sigma_r * N(0,1)), clamped to [min_weight, max_weight].\n\
             # optimizer: random (perturb, play, select) or spsa; select: best, confirm or gauntlet.\n\
             # SPSA step k (from 0): a_k = a/(A+k+1)^alpha, c_k = c/(k+1)^gamma, in log-space:\n\
             # theta+- = ln w +- c_k*delta, ln w += a_k*(score difference of theta+ over theta-)*delta.\n\n{body}"
        ))
    }

    /// Parses `run.toml`; `path` names the file in errors.
    pub fn from_toml(text: &str, path: &str) -> Result<RunConfig, TrainError> {
        let cfg: RunConfig = toml::from_str(text).map_err(|e| TrainError::BadRunToml {
            path: path.into(),
            message: e.to_string().trim().replace('\n', " "),
        })?;
        cfg.validate().map_err(|e| TrainError::BadRunToml {
            path: path.into(),
            message: e.to_string(),
        })?;
        Ok(cfg)
    }
}

/// Checks a run name: one plain folder name.
pub fn check_name(name: &str) -> Result<(), TrainError> {
    let ok = !name.is_empty()
        && name != "."
        && name != ".."
        && name.len() <= 100
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c));
    if ok {
        Ok(())
    } else {
        Err(TrainError::Config {
            field: "name".into(),
            message: format!(
                "{name:?} is not a usable run name: use letters, digits, '-', '_', '.' or '+'"
            ),
        })
    }
}
