//! Checking a run configuration: every error names the setting by its
//! `run.toml` key ([`Field`]) and says what is wrong with it ([`Problem`]),
//! so a front end can name the setting its own way (the CLI by its flag).

use super::{RunConfig, FORMAT, OLDEST_FORMAT};
use crate::eval::MAX_WEIGHT;
use crate::train::{Optimizer, Select, TrainError};
use crate::util::string_enum;

string_enum! {
    /// A setting of a run, by its `run.toml` key (`confirm.games` is the
    /// `games` key of the `[confirm]` table).
    pub enum Field("setting") {
        /// The run folder format.
        Format = "format",
        /// The run's name.
        Name = "name",
        /// The trained player's spec.
        Player = "player",
        /// The seed.
        Seed = "seed",
        /// The number of rounds (SPSA steps).
        Rounds = "rounds",
        /// Challengers per round.
        Challengers = "challengers",
        /// Openings per pairing.
        Openings = "openings",
        /// Stones per random opening.
        OpeningStones = "opening_stones",
        /// The perturbation's σ.
        Sigma = "sigma",
        /// σ's half-life in rounds.
        SigmaHalfLife = "sigma_half_life",
        /// σ's floor.
        SigmaMin = "sigma_min",
        /// The weight bounds.
        MinWeight = "min_weight",
        /// Openings per reference of a match check.
        CheckOpenings = "check_openings",
        /// The optimiser.
        Optimizer = "optimizer",
        /// The selection mode.
        Select = "select",
        /// The confirmation settings as a whole.
        Confirm = "confirm",
        /// The confirmation's SPRT.
        ConfirmSprt = "confirm.sprt",
        /// The confirmation SPRT's most openings.
        ConfirmMaxOpenings = "confirm.max_openings",
        /// Openings per confirmation SPRT batch.
        ConfirmBatch = "confirm.batch",
        /// Games of a fixed-games confirmation.
        ConfirmGames = "confirm.games",
        /// The score a fixed-games confirmation must reach.
        ConfirmThreshold = "confirm.threshold",
        /// The SPSA settings as a whole.
        Spsa = "spsa",
        /// SPSA's step gain `a`.
        SpsaA = "spsa.a",
        /// SPSA's perturbation `c`.
        SpsaC = "spsa.c",
        /// SPSA's stability constant `A`.
        SpsaBigA = "spsa.A",
        /// SPSA's step gain exponent.
        SpsaAlpha = "spsa.alpha",
        /// SPSA's perturbation exponent.
        SpsaGamma = "spsa.gamma",
        /// SPSA's openings per step.
        SpsaOpenings = "spsa.openings",
    }
}

/// A field equals its `run.toml` key.
impl PartialEq<str> for Field {
    fn eq(&self, key: &str) -> bool {
        self.as_str() == key
    }
}

/// What is wrong with a setting. The words name settings by their
/// `run.toml` keys, never by a command-line flag.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The setting's `value` (as written) breaks `rule`.
    Value {
        /// The value given.
        value: String,
        /// What the value must be.
        rule: String,
    },
    /// The setting is 0 and must be at least 1.
    Zero,
    /// Both of two settings that exclude each other are set.
    Both(Field, Field),
    /// Neither of two settings, one of which is needed, is set.
    Neither(Field, Field),
    /// The trained player's spec names a weights file: the trainer
    /// supplies the weights.
    PlayerHasWeights {
        /// The spec as given.
        spec: String,
    },
    /// A resumed run would switch to this optimiser, selection mode or
    /// settings, which changes how the rest of the run trains: allowed
    /// only when forced.
    Switch,
    /// Anything else, in words.
    Other(String),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Value { value, rule } => write!(f, "{value}: {rule}"),
            Problem::Zero => f.write_str("must be at least 1"),
            Problem::Both(a, b) => write!(f, "give either {a} or {b}, not both"),
            Problem::Neither(a, b) => write!(f, "give {a} or {b}"),
            Problem::PlayerHasWeights { spec } => write!(
                f,
                "{spec:?}: the trainer supplies the weights; give the start weights as the run's start instead"
            ),
            Problem::Switch => f.write_str(
                "a resumed run keeps its optimiser, selection mode and their settings unless forced: changing them changes how the rest of the run trains",
            ),
            Problem::Other(text) => f.write_str(text),
        }
    }
}

impl Problem {
    /// A value that breaks a rule.
    pub fn value(value: impl std::fmt::Display, rule: impl Into<String>) -> Problem {
        Problem::Value {
            value: value.to_string(),
            rule: rule.into(),
        }
    }
}

/// `Ok` when `ok`, otherwise the error that `field` has `problem()`.
pub(crate) fn ensure(
    field: Field,
    ok: bool,
    problem: impl FnOnce() -> Problem,
) -> Result<(), TrainError> {
    if ok {
        Ok(())
    } else {
        Err(TrainError::Config {
            field,
            problem: problem(),
        })
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
    ensure(Field::Name, ok, || {
        Problem::Other(format!(
            "{name:?} is not a usable run name: use letters, digits, '-', '_', '.' or '+'"
        ))
    })
}

/// A number that must be finite and above 0.
fn positive(x: f64) -> bool {
    x.is_finite() && x > 0.0
}

impl RunConfig {
    /// Checks every setting; the error names the setting.
    pub fn validate(&self) -> Result<(), TrainError> {
        let other = |text: String| move || Problem::Other(text);
        ensure(
            Field::Format,
            self.format <= FORMAT,
            other(format!(
                "run folder format {} was written by a newer mnk (this one reads formats {OLDEST_FORMAT} to {FORMAT}); use a newer mnk to resume it",
                self.format
            )),
        )?;
        ensure(
            Field::Format,
            self.format >= OLDEST_FORMAT,
            other(format!(
                "run folder format {} is not supported (this mnk reads formats {OLDEST_FORMAT} to {FORMAT})",
                self.format
            )),
        )?;
        let only_format_1 = self.optimizer == Optimizer::Random
            && self.select == Select::Best
            && self.confirm.is_none()
            && self.spsa.is_none()
            && self.max_games == 0;
        ensure(
            Field::Format,
            self.format >= 2 || only_format_1,
            other(format!(
                "a format {} run folder only holds random search with best selection; start a new run to use other optimisers, selection modes or max_games",
                self.format
            )),
        )?;
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
        ensure(
            Field::Seed,
            self.seed <= i64::MAX as u64,
            other(format!(
                "{} is too large: run.toml holds seeds from 0 to {}",
                self.seed,
                i64::MAX
            )),
        )?;
        ensure(Field::Rounds, self.rounds >= 1, || Problem::Zero)?;
        ensure(
            Field::Challengers,
            self.challengers >= 1,
            other(format!("C = {} must be at least 1", self.challengers)),
        )?;
        ensure(
            Field::Challengers,
            self.challengers <= 64,
            other(format!("C = {} is more than 64", self.challengers)),
        )?;
        ensure(
            Field::Openings,
            self.openings >= 1,
            other(format!("G = {} must be at least 1", self.openings)),
        )?;
        ensure(
            Field::Sigma,
            positive(self.sigma),
            other(format!("σ = {} must be a number above 0", self.sigma)),
        )?;
        ensure(
            Field::Sigma,
            self.sigma <= 5.0,
            other(format!("σ = {} is too large (at most 5)", self.sigma)),
        )?;
        ensure(
            Field::SigmaHalfLife,
            self.sigma_half_life.is_finite() && self.sigma_half_life >= 0.0,
            other(format!(
                "{} must be 0 (constant σ) or a number of rounds",
                self.sigma_half_life
            )),
        )?;
        ensure(
            Field::SigmaMin,
            positive(self.sigma_min),
            other(format!("{} must be a number above 0", self.sigma_min)),
        )?;
        ensure(
            Field::MinWeight,
            positive(self.min_weight)
                && self.max_weight.is_finite()
                && self.min_weight < self.max_weight
                && self.max_weight <= MAX_WEIGHT,
            other(format!(
                "the bounds [{}, {}] must satisfy 0 < min < max <= {MAX_WEIGHT:e}",
                self.min_weight, self.max_weight
            )),
        )?;
        ensure(
            Field::OpeningStones,
            (self.opening_stones as usize) < self.game.cells(),
            other(format!(
                "{} stones do not fit the {} cells of {}",
                self.opening_stones,
                self.game.cells(),
                self.game
            )),
        )?;
        ensure(Field::CheckOpenings, self.check_openings >= 1, || {
            Problem::Zero
        })
    }
}
