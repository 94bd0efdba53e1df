//! The run configuration: everything that decides a training run, saved as
//! `run.toml` so that a run can be resumed or repeated exactly.

use super::TrainError;
use crate::arena::OpeningStyle;
use crate::eval::Weights;
use crate::eval::MAX_WEIGHT;
use crate::game::Rules;
use crate::players::{Player, PlayerSpec, SearchLimits, Solver, SpecError};
use serde::{Deserialize, Serialize};

/// The version of the run folder layout written in `run.toml`.
pub const FORMAT: u32 = 1;

/// The smallest weight a perturbation may produce. Weights are multiplied
/// by `exp(σ·z)`, so they never reach 0 or change sign; this floor only
/// keeps a long downward random walk from underflowing into meaningless
/// tiny numbers.
pub const MIN_WEIGHT: f64 = 1e-6;

/// The player whose weights are trained: `greedy` or `search:…`, built
/// from a [`PlayerSpec`] without a weights file (the trainer supplies the
/// weights).
#[derive(Clone, Debug, PartialEq)]
pub struct TrainedPlayer {
    spec: PlayerSpec,
    /// The spec's `key=value` options (empty for greedy).
    options: Vec<(String, String)>,
}

impl TrainedPlayer {
    /// Parses a player spec and checks it can be trained.
    pub fn parse(text: &str) -> Result<TrainedPlayer, TrainError> {
        let spec: PlayerSpec = text.parse().map_err(|e: SpecError| TrainError::Config {
            field: "player".into(),
            message: e.to_string(),
        })?;
        let bad = |message: &str| TrainError::Config {
            field: "player".into(),
            message: format!("{text:?}: {message}"),
        };
        if spec.weights.is_some() || spec.any_game {
            return Err(bad(
                "the trainer supplies the weights; give the start weights with --start instead",
            ));
        }
        let canonical = spec.to_string();
        let (kind, rest) = canonical.split_once(':').unwrap_or((&canonical, ""));
        if kind != "greedy" && kind != "search" {
            return Err(bad("only greedy and search players have weights to train"));
        }
        let options: Vec<(String, String)> = rest
            .split(',')
            .filter(|p| !p.is_empty())
            .filter_map(|p| p.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        if options.iter().any(|(k, _)| k == "time") {
            return Err(bad(
                "a time limit makes games depend on the machine's speed; use depth or nodes",
            ));
        }
        Ok(TrainedPlayer { spec, options })
    }

    /// Whether this is the search player.
    pub fn is_search(&self) -> bool {
        matches!(self.spec.kind, crate::players::PlayerKind::Search(_))
    }

    /// The spec text (`greedy`, `search:depth=2,width=9`).
    pub fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// Builds the player with the given weights.
    pub fn build(&self, weights: Weights) -> Box<dyn Player> {
        match self.spec.build_with(weights.clone()) {
            Ok(p) => p,
            // Greedy and search players are built without fail; keep a
            // greedy player as the fallback rather than panic.
            Err(_) => Box::new(crate::players::Greedy::new(weights)),
        }
    }

    /// The search player at `depth` with this player's other search
    /// options (width, nodes, table size), or the default ones for greedy.
    pub fn search_at_depth(&self, depth: u32, tt_bits: u32) -> SearchLimits {
        let mut l = SearchLimits {
            depth,
            tt_bits,
            ..SearchLimits::default()
        };
        for (k, v) in &self.options {
            match (k.as_str(), v.parse::<u64>()) {
                ("width", Ok(w)) => l.width = w as usize,
                ("nodes", Ok(n)) => l.nodes = Some(n),
                _ => {}
            }
        }
        l
    }

    /// This player's search limits with a smaller table (for checks that
    /// clear the table before every move), if it is the search player.
    pub fn search_limits(&self, tt_bits: u32) -> Option<SearchLimits> {
        if !self.is_search() {
            return None;
        }
        let depth = self
            .options
            .iter()
            .find(|(k, _)| k == "depth")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(SearchLimits::default().depth);
        Some(self.search_at_depth(depth, tt_bits))
    }
}

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
    /// Number of rounds.
    pub rounds: u32,
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
            game,
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
    pub fn trained_player(&self) -> Result<TrainedPlayer, TrainError> {
        TrainedPlayer::parse(&self.player)
    }

    /// Checks every setting; the error names the setting.
    pub fn validate(&self) -> Result<(), TrainError> {
        let bad = |field: &str, message: String| {
            Err(TrainError::Config {
                field: field.into(),
                message,
            })
        };
        if self.format != FORMAT {
            return bad(
                "format",
                format!(
                    "run folder format {} is not supported (expected {FORMAT})",
                    self.format
                ),
            );
        }
        check_name(&self.name)?;
        self.trained_player()?;
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

    /// The TOML text of `run.toml`, with a comment header.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!(
            "# mnk training run: the whole configuration. `mnk train --resume <run folder>`\n\
             # continues the run; every random choice derives from `seed`.\n\
             # sigma schedule: sigma_r = max(sigma_min, sigma * 2^(-(r-1)/sigma_half_life)).\n\
             # Perturbation: w * exp(sigma_r * N(0,1)), clamped to [min_weight, max_weight].\n\n{body}"
        )
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
