//! The run configuration: everything that decides a training run, saved as
//! `run.toml` so that a run can be resumed or repeated exactly: defaults,
//! the σ schedule, pairings, and the TOML text.

mod cmaes;
mod confirm;
mod methods;
mod plateau;
mod spsa;
mod validate;

pub use cmaes::{CmaesConfig, CmaesOpponent};
pub use confirm::ConfirmConfig;
pub use methods::{Optimizer, Select, StartWeights};
pub use plateau::PlateauConfig;
pub use spsa::SpsaConfig;
pub use validate::check_name;

use super::player::TrainedPlayer;
use super::setting::{Field, Problem};
use super::TrainError;
use crate::arena::{Opening, OpeningStyle};
use crate::eval::{Model, MAX_WEIGHT};
use crate::game::Rules;
use crate::players::{PlayerSpec, Rng, Solver};
use rand::Rng as _;
use serde::{Deserialize, Serialize};

/// The version of the run folder layout written in `run.toml`.
///
/// - 1: random search with `best` selection only; `rounds.csv` has no mode,
///   confirmation or SPSA columns. Still read, shown, plotted and resumed
///   (in format 1), but not switched to another optimiser or selection mode.
/// - 2: adds the optimiser (`random`, `spsa`), the selection mode (`best`,
///   `confirm`, `gauntlet`), their settings, `max_games`, and the matching
///   `rounds.csv` columns. Later, still format 2: the optional `[plateau]`
///   table (random search's plateau rule); a `run.toml` without it keeps
///   σ as `sigma` and `sigma_half_life` say, as before the rule, and
///   `rounds.csv` is unchanged (it always recorded each round's σ). Also
///   format 2: the `[cmaes]` table of a run started with CMA-ES, whose
///   `rounds.csv` then has the `cmaes_*` columns (other runs' files are
///   unchanged).
pub const FORMAT: u32 = 2;

/// The header line of `run.toml` that records [`RunConfig::fingerprint`]
/// (a comment, so that older mnk versions still read the file).
const FINGERPRINT: &str = "# fingerprint of the settings a resume may not change: ";

/// The oldest run folder format this version reads.
pub const OLDEST_FORMAT: u32 = 1;

/// The `openings_file` of a run on the game's shipped book
/// ([`crate::arena::Book::shipped`]); its text is copied into the run
/// folder like any other openings file.
pub const SHIPPED_BOOK: &str = "shipped";

/// The z-score a `best-beats` champion's pairing with the incumbent must
/// exceed in new runs on large boards ([`RunConfig::beats_z`]).
///
/// With 2000 openings per pairing a pairing measures the challenger to
/// about ±5 Elo (one standard error), so "more wins than losses" (z > 0)
/// adopts a challenger no better than the incumbent half the time. Over
/// 5 seeds, past round 12 most adoptions of that rule were level with the
/// incumbent they replaced, and the runs random-walked among players
/// equal in self-play (one seed lost 12.5 Elo against the start in its
/// last 50 rounds that way). With the margin the 5 seeds end at +36 to
/// +43 Elo over the start, against +18 to +39 (`docs/training.md`).
const BEATS_Z: f64 = 2.0;

/// The smallest weight a perturbation may produce. Weights are multiplied
/// by `exp(σ·z)`, so they never reach 0 or change sign; this floor only
/// keeps a long downward random walk from underflowing into meaningless
/// tiny numbers.
pub const MIN_WEIGHT: f64 = 1e-6;

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
    /// The weight model trained, the start weights' (`shapes`, the
    /// default, is not written): it decides `rounds.csv`'s weight columns.
    #[serde(default, skip_serializing_if = "is_shapes")]
    pub model: Model,
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
    /// `best-beats`: the z-score the champion's pairing with the incumbent
    /// must exceed (its pentanomial score above ½, over its standard
    /// error; [`RunConfig::beats_z`]). Absent (runs made before it): 0,
    /// more wins than losses. Other selection modes do not read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beats_z: Option<f64>,
    /// Challengers per round (C); the round robin has C + 1 players.
    pub challengers: u32,
    /// Openings per pairing per round (G); each is played with both colours.
    pub openings: u32,
    /// The openings file the run draws from (informative; a copy is kept
    /// as `openings.txt` in the run folder and that copy is used).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings_file: Option<String>,
    /// Whether the openings file is a book split into a training part and
    /// a check part (every [`crate::arena::CHECK_EVERY`]th opening): rounds,
    /// confirmations and SPSA steps draw only from the training part, the
    /// checks and the closing verdict play the check part. Absent from
    /// older run.toml files: false (rounds draw from the whole file, the
    /// checks from random openings).
    #[serde(default)]
    pub book_split: bool,
    /// With a split book, rounds (and confirmations, SPSA steps) still
    /// draw random openings, and only the checks and the verdict play the
    /// book's check part. Absent from older run.toml files: false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub random_rounds: bool,
    /// Stones in each random opening (the fewest, with
    /// `opening_stones_max`).
    pub opening_stones: u32,
    /// The most stones in a random opening: each opening draws its stone
    /// count uniformly from `opening_stones` to this. Absent (every
    /// opening has `opening_stones`) in runs made before it and by
    /// default; `mnk train` sets it for a combo run on tic-tac-toe
    /// ([`RunConfig::default_stones_max`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_stones_max: Option<u32>,
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
    /// The player of the large-board checks and the closing verdict, such
    /// as `search:depth=4` (the search player's default depth) for a run
    /// that trains at depth 2; absent: the trained player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_player: Option<String>,
    /// Openings (each played twice) of the closing verdict, when the run
    /// was started or resumed with `--verdict-openings`; absent: the
    /// default, [`RunConfig::DEFAULT_VERDICT_OPENINGS`]. Kept here so that
    /// a resume plays the verdict the run was started with (a resumed
    /// `--verdict-openings 0` run used to play 1000 openings). It changes
    /// no round, so a resume may change it freely.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict_openings: Option<usize>,
    /// The confirmation match of `select = "confirm"` (defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<ConfirmConfig>,
    /// The SPSA settings of `optimizer = "spsa"` (defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spsa: Option<SpsaConfig>,
    /// The CMA-ES settings of `optimizer = "cmaes"`; present exactly in
    /// runs started with CMA-ES, whose `rounds.csv` has its columns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cmaes: Option<CmaesConfig>,
    /// Random search's plateau rule: σ shrinks after rounds without an
    /// adoption (absent: off, as in every run made before the rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plateau: Option<PlateauConfig>,
    /// The game.
    pub game: Rules,
}

/// Whether `model` is the default, which `run.toml` leaves out (so files
/// of the shape model read and hash as before the combo model).
fn is_shapes(model: &Model) -> bool {
    *model == Model::Shapes
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
    ///   games in all: about 20 seconds on 2 cores), a constant σ = 0.3,
    ///   a check against the references every 10 rounds on 500 paired
    ///   openings (1000 games each), on the shipped book's check part
    ///   where the game has one. A σ that shrinks by the round number to
    ///   near 0 made the selection a coin toss between near-identical
    ///   players, and the incumbent drifted (seen as lost Elo after round
    ///   60). Selection is `best-beats` with a margin of z > 2
    ///   (`BEATS_Z`): over 5 seeds on random openings it was ahead of
    ///   `best` at every budget (+31 against +15 Elo after 0.5M games,
    ///   +39.0 against +31.4 at 4M), with a seed spread of 2.7 Elo against
    ///   15.8. With the margin the plateau rule ([`PlateauConfig`]'s
    ///   defaults, `--patience 10`) is on: over 10 seeds the default run
    ///   ended at +41.5 with it against +40.3 without (spreads 2.4 and
    ///   4.1), and a short search-player run was not worse with it (+15.3
    ///   against +5.9 over 3 seeds). Without the margin (`best`) the rule
    ///   had made the default run weaker (+30.1 against +42.0 over 3
    ///   seeds; `docs/training.md`).
    /// - Boards the exact player solves (tic-tac-toe, 4×4): 100 rounds,
    ///   200 openings of 2 stones, a constant σ = 0.5, checked every round
    ///   (every 10 when over 9 cells). On tic-tac-toe from flat weights
    ///   this reached at least 95% agreement for 14 of 16 seeds (seed 1
    ///   included); a shrinking σ or 1-stone openings did worse, and the
    ///   plateau rule made no difference (14 of 16 too, mean 97.5%
    ///   either way), so it is off here. Those runs selected by `best`;
    ///   with `best-beats` all 16 seeds reach 96.9% or more (mean 98.3%),
    ///   and with the margin or the plateau rule fewer do (the worst seed
    ///   87.3% with the rule), so both stay off here.
    pub fn defaults(game: Rules) -> RunConfig {
        let style = OpeningStyle::default_for(game);
        let small = is_small(game);
        RunConfig {
            format: FORMAT,
            name: String::new(),
            player: "greedy".into(),
            start: "shipped".into(),
            model: Model::Shapes,
            seed: 1,
            rounds: 100,
            challengers: 4,
            openings: if small { 200 } else { 2000 },
            // The shipped balanced book where the game has one.
            openings_file: crate::arena::Book::has_shipped(game).then(|| SHIPPED_BOOK.to_string()),
            book_split: crate::arena::Book::has_shipped(game),
            random_rounds: false,
            opening_stones: if small { 2 } else { style.stones as u32 },
            opening_stones_max: None,
            opening_radius: style.radius as u32,
            sigma: if small { 0.5 } else { 0.3 },
            sigma_half_life: 0.0,
            sigma_min: 0.05,
            min_weight: MIN_WEIGHT,
            max_weight: MAX_WEIGHT,
            check_every: if small && game.cells() <= 9 { 1 } else { 10 },
            check_openings: if small { 200 } else { 500 },
            check_player: None,
            verdict_openings: None,
            max_games: 0,
            optimizer: Optimizer::Random,
            select: Select::BestBeats,
            beats_z: (!small).then_some(BEATS_Z),
            confirm: None,
            spsa: None,
            cmaes: None,
            plateau: (!small).then(PlateauConfig::default),
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
            // Unused by SPSA; `best` as before `best-beats`, so that
            // run.toml is unchanged.
            select: Select::Best,
            beats_z: None,
            // SPSA has no σ: the plateau rule does not apply.
            plateau: None,
            ..RunConfig::defaults(game)
        }
    }

    /// The defaults of a CMA-ES run on this game: as
    /// [`RunConfig::defaults`] but with `optimizer = "cmaes"` and the
    /// [`CmaesConfig::defaults`]: 200 generations of 10 candidates × 1000
    /// openings × 2 colours on large boards (4M games, the random search
    /// default's budget; 100 openings on small boards), a check every 20
    /// generations (every 10 on boards of at most 9 cells).
    pub fn cmaes_defaults(game: Rules) -> RunConfig {
        let small = is_small(game);
        RunConfig {
            optimizer: Optimizer::Cmaes,
            rounds: 200,
            check_every: if small && game.cells() <= 9 { 10 } else { 20 },
            cmaes: Some(CmaesConfig::defaults(small)),
            // Unused by CMA-ES; `best` as before `best-beats`, so that
            // run.toml is unchanged.
            select: Select::Best,
            beats_z: None,
            // CMA-ES adapts its own σ: the plateau rule does not apply.
            plateau: None,
            ..RunConfig::defaults(game)
        }
    }

    /// The most stones of a random opening for a run of `model` on `game`
    /// that sets none itself: 3 for the combo model on boards of 4 to 9
    /// cells (tic-tac-toe), so that its openings have 2 or 3 stones;
    /// otherwise none (every opening has `opening_stones`).
    ///
    /// Why: from 2-stone openings alone a position with the second player
    /// to move is reached only where the first player's own greedy move
    /// led to it, so self-play rewarded the combo model's block of `b1 a2
    /// c2` (and its symmetries) on some seeds only: CMA-ES at σ₀ = 1 from
    /// flat weights reached 99.16% agreement on 2 of 16 seeds. Openings of
    /// 3 stones alone fixed every block but lost the forks (positions with
    /// the first player to move after 2 stones); 2 or 3 reach 99.16% on
    /// 15 of 16 seeds. The shape model cannot tell those blocks from the
    /// centre, so it only loses fork positions by them (the default round
    /// robin's seed 1: 96.7% against 98.5%): it keeps 2-stone openings.
    /// Measured in `docs/training.md` ("The combo model").
    pub fn default_stones_max(game: Rules, model: Model) -> Option<u32> {
        (model == Model::Combo && (4..=9).contains(&game.cells())).then_some(3)
    }

    /// The CMA-ES settings (the defaults if run.toml has none).
    pub fn cmaes_config(&self) -> CmaesConfig {
        self.cmaes
            .clone()
            .unwrap_or_else(|| CmaesConfig::defaults(is_small(self.game)))
    }

    /// The z-score a `best-beats` champion's pairing with the incumbent
    /// must exceed: `beats_z`, or 0 (more wins than losses) where run.toml
    /// has none.
    pub fn beats_z(&self) -> f64 {
        self.beats_z.unwrap_or(0.0)
    }

    /// Openings of the closing verdict when `--verdict-openings` is not
    /// given: 1000, each played twice.
    pub const DEFAULT_VERDICT_OPENINGS: usize = 1000;

    /// Openings (each played twice) of the run's closing verdict: what
    /// `--verdict-openings` last said, else the default (0: no verdict).
    pub fn verdict_openings(&self) -> usize {
        self.verdict_openings
            .unwrap_or(Self::DEFAULT_VERDICT_OPENINGS)
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

    /// The perturbation's σ in round `round` (1-based) by the half-life
    /// alone; the plateau rule, if any, scales it
    /// ([`crate::train::SigmaSchedule`]):
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

    /// `n` random openings drawn with `rng`, as the run's rounds, checks
    /// and verdict draw them: of `opening_stones` stones each (exactly
    /// [`crate::arena::random_openings`]), or, with `opening_stones_max`,
    /// each of a stone count drawn uniformly from that range before its
    /// cells. Either way distinct openings first, repeats allowed once
    /// `20·n` draws found too few.
    pub fn random_openings(&self, n: usize, rng: &mut Rng) -> Vec<Opening> {
        let Some(max) = self.opening_stones_max else {
            return crate::arena::random_openings(self.game, self.opening_style(), n, rng);
        };
        let (min, max) = (self.opening_stones as usize, max as usize);
        crate::arena::distinct_openings(self.game, n, rng, |rng| OpeningStyle {
            stones: rng.gen_range(min..=max),
            ..self.opening_style()
        })
    }

    /// The random openings' stones as a reader says it: `2` or `2-3`.
    pub fn opening_stones_text(&self) -> String {
        match self.opening_stones_max {
            Some(max) if max != self.opening_stones => format!("{}-{max}", self.opening_stones),
            _ => self.opening_stones.to_string(),
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
                field: Field::Player,
                problem: Problem::Other(e.to_string()),
            }
        })?;
        Ok(player)
    }

    /// The player of the large-board checks and the verdict:
    /// `check_player`, or the trained player.
    pub fn checking_player(&self) -> Result<TrainedPlayer, TrainError> {
        match &self.check_player {
            None => self.trained_player(),
            Some(text) => {
                let bad = |problem| TrainError::Config {
                    field: Field::CheckPlayer,
                    problem,
                };
                let player = TrainedPlayer::parse(text).map_err(|e| match e {
                    TrainError::Config { problem, .. } => bad(problem),
                    e => e,
                })?;
                // Each worker thread plays a check with two such players.
                let copies = rayon::current_num_threads() * 2;
                PlayerSpec::ensure_memory(&[player.player_spec()], copies, "check players")
                    .map_err(|e| bad(Problem::Other(e.to_string())))?;
                Ok(player)
            }
        }
    }

    /// The TOML text of `run.toml`, with a comment header. Fails rather
    /// than write a file that could not be resumed (a setting TOML cannot
    /// hold; [`RunConfig::validate`] refuses the ones known).
    pub fn to_toml(&self) -> Result<String, TrainError> {
        let body = toml::to_string(self).map_err(|e| TrainError::BadRunToml {
            path: "run.toml".into(),
            message: format!("cannot be written as TOML: {e}"),
        })?;
        Ok(format!(
            "# mnk training run: the whole configuration. `mnk train --resume <run folder>`\n\
             # continues the run; every random choice derives from `seed`.\n\
             # sigma schedule: sigma_r = max(sigma_min, sigma * 2^(-(r-1)/sigma_half_life)).\n\
             # Perturbation: w * exp(sigma_r * N(0,1)), clamped to [min_weight, max_weight].\n\
             # [plateau]: after `patience` rounds without an adoption sigma_r is multiplied by\n\
             # `shrink` (not below sigma_min); `grow` undoes a shrink when more than patience/5\n\
             # of the rounds since the last change adopted; `stop` ends the run at a plateau at the floor.\n\
             # optimizer: random (perturb, play, select) or spsa; select: best, confirm or gauntlet.\n\
             # SPSA step k (from 0): a_k = a/(A+k+1)^alpha, c_k = c/(k+1)^gamma, in log-space:\n\
             # theta+- = ln w +- c_k*delta, ln w += a_k*(score difference of theta+ over theta-)*delta.\n\
             {}{FINGERPRINT}{:016x}\n\n{body}",
            match self.cmaes.as_ref().map(|c| c.opponent) {
                Some(CmaesOpponent::Mean) => {
                    "# [cmaes]: CMA-ES on ln w; each generation plays lambda candidates against the mean\n\
                     # on `openings` shared openings; sigma is the starting step size.\n"
                }
                Some(CmaesOpponent::Start) => {
                    "# [cmaes]: CMA-ES on ln w; each generation plays lambda candidates against the\n\
                     # run's start (round 0's weights, opponent = \"start\") on `openings` shared\n\
                     # openings; sigma is the starting step size.\n"
                }
                None => "",
            },
            self.fingerprint()
        ))
    }

    /// The configuration with the settings a resume may change (`rounds`,
    /// `max_games`, `optimizer`, `select` and their settings, and
    /// `verdict_openings`) set to fixed values: two configurations with
    /// equal frozen parts train the same rounds the same way.
    pub fn frozen(&self) -> RunConfig {
        RunConfig {
            rounds: 0,
            // Played after the rounds, never part of them (and absent, so
            // hashed as before, in every run.toml made before it).
            verdict_openings: None,
            max_games: 0,
            optimizer: Optimizer::default(),
            // Fixed words, not the defaults of new runs: the fingerprint
            // of every existing run.toml hashes them.
            select: Select::Best,
            beats_z: None,
            confirm: None,
            spsa: None,
            ..self.clone()
        }
    }

    /// A 64-bit FNV-1a hash of the TOML of [`RunConfig::frozen`] (but
    /// the informative `name`, `start` and `openings_file`): what
    /// `run.toml`'s header records, so that a folder whose seed, game or
    /// any other frozen setting was edited after its rounds were played
    /// is refused rather than resumed with rounds that do not follow from
    /// it.
    pub fn fingerprint(&self) -> u64 {
        // The informative fields (the run's name, where its start weights
        // and openings came from) do not change how it trains.
        let view = RunConfig {
            name: String::new(),
            start: String::new(),
            openings_file: self.openings_file.as_ref().map(|_| String::new()),
            ..self.frozen()
        };
        let text = toml::to_string(&view).unwrap_or_default();
        text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
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
        // Files written before the fingerprint have none: not checked.
        let recorded = text
            .lines()
            .find_map(|l| l.strip_prefix(FINGERPRINT))
            .map(|hex| u64::from_str_radix(hex.trim(), 16));
        match recorded {
            Some(Ok(f)) if f == cfg.fingerprint() => {}
            None => {}
            Some(_) => {
                return Err(TrainError::BadRunToml {
                    path: path.into(),
                    message: "its settings were edited after the run wrote them (the fingerprint in its header does not match): the rounds played do not follow from them; only rounds, max_games, optimizer, select and their settings may change".into(),
                })
            }
        }
        Ok(cfg)
    }
}
