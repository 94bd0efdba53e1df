//! The settings of a run as errors name them: each by its `run.toml` key
//! ([`Field`]), with what is wrong with it ([`Problem`]), so a front end
//! can name a setting its own way (the CLI by its flag).

use super::TrainError;
use crate::util::string_enum;

/// What a run takes openings from its book for, so that a book too small
/// for it ([`TrainError::TooFewOpenings`]) says which need it failed and
/// a front end can name the setting behind it its own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookNeed {
    /// The openings of one pairing of a round ([`Field::Openings`]).
    Openings,
    /// The openings of an SPSA step (`spsa.openings`).
    SpsaOpenings,
    /// The openings of a CMA-ES generation (`cmaes.openings`).
    CmaesOpenings,
    /// The most openings a confirmation match can play.
    Confirmation,
    /// The openings of a large-board check ([`Field::CheckOpenings`]).
    CheckOpenings,
    /// The openings of the closing verdict (not a run setting: asked for
    /// each time).
    Verdict,
}

impl BookNeed {
    /// The need in words, without naming how it is set.
    pub fn describe(self) -> &'static str {
        match self {
            BookNeed::Openings => "openings per pairing",
            BookNeed::SpsaOpenings => "SPSA openings per step",
            BookNeed::CmaesOpenings => "CMA-ES openings per candidate",
            BookNeed::Confirmation => "the most openings of a confirmation",
            BookNeed::CheckOpenings => "check openings",
            BookNeed::Verdict => "the verdict's openings",
        }
    }
}

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
        /// The player of the checks and the verdict.
        CheckPlayer = "check_player",
        /// The openings file or book.
        OpeningsFile = "openings_file",
        /// Stones per random opening.
        OpeningStones = "opening_stones",
        /// The most stones per random opening.
        OpeningStonesMax = "opening_stones_max",
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
        /// The z-score a best-beats champion's pairing must exceed.
        BeatsZ = "beats_z",
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
        /// The CMA-ES settings as a whole.
        Cmaes = "cmaes",
        /// CMA-ES's starting step size.
        CmaesSigma = "cmaes.sigma",
        /// CMA-ES's candidates per generation.
        CmaesLambda = "cmaes.lambda",
        /// CMA-ES's openings per candidate.
        CmaesOpenings = "cmaes.openings",
        /// CMA-ES's mean learning rate.
        CmaesMeanRate = "cmaes.mean_rate",
        /// CMA-ES's cap on σ.
        CmaesSigmaMax = "cmaes.sigma_max",
        /// Rounds without an adoption that make a plateau.
        PlateauPatience = "plateau.patience",
        /// σ's factor at a plateau.
        PlateauShrink = "plateau.shrink",
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
