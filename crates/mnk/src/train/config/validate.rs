//! Checking a run configuration: every error names the setting
//! ([`Field`]) and says what is wrong with it ([`Problem`]).

use super::{RunConfig, FORMAT, OLDEST_FORMAT};
use crate::eval::MAX_WEIGHT;
use crate::train::setting::{ensure, Field, Problem};
use crate::train::{Optimizer, Select, TrainError};

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
            && self.cmaes.is_none()
            && self.plateau.is_none()
            && self.max_games == 0;
        ensure(
            Field::Format,
            self.format >= 2 || only_format_1,
            other(format!(
                "a format {} run folder only holds random search with best selection; start a new run to use other optimisers, selection modes, max_games or the plateau rule",
                self.format
            )),
        )?;
        if let Some(c) = &self.confirm {
            c.validate()?;
        }
        if let Some(s) = &self.spsa {
            s.validate()?;
        }
        if let Some(p) = &self.plateau {
            p.validate()?;
        }
        if let Some(c) = &self.cmaes {
            c.validate()?;
        }
        if let Some(z) = self.beats_z {
            ensure(
                Field::BeatsZ,
                z.is_finite() && (0.0..=10.0).contains(&z),
                || Problem::value(z, "must be a z-score from 0 (more wins than losses) to 10"),
            )?;
        }
        ensure(
            Field::Cmaes,
            self.optimizer != Optimizer::Cmaes || self.cmaes.is_some(),
            other(
                "a CMA-ES run needs its [cmaes] table from its start (its candidates are columns of rounds.csv); start a new run with the CMA-ES optimiser"
                    .into(),
            ),
        )?;
        // SPSA moves weights in log space, where a combination weight of
        // 0 (where a combo run starts) can never leave 0; random search
        // and CMA-ES move it in a shifted log space (`perturb.rs`,
        // `cmaes.rs`).
        ensure(
            Field::Optimizer,
            self.model != crate::eval::Model::Combo || self.optimizer != Optimizer::Spsa,
            other(format!(
                "{} cannot train the combo model's combination weights yet (they start at 0, which a log-space step never leaves); train it with random search or CMA-ES",
                self.optimizer
            )),
        )?;
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
        if let Some(max) = self.opening_stones_max {
            ensure(
                Field::OpeningStonesMax,
                self.opening_stones <= max && (max as usize) < self.game.cells(),
                other(format!(
                    "random openings of {} to {max} stones: the range must run from low to high and fit the {} cells of {}",
                    self.opening_stones,
                    self.game.cells(),
                    self.game
                )),
            )?;
        }
        ensure(Field::CheckOpenings, self.check_openings >= 1, || {
            Problem::Zero
        })
    }
}
