//! The plateau rule's settings (random search; the `[plateau]` table of
//! `run.toml`): when rounds stop adopting challengers, σ shrinks.

use crate::train::setting::{ensure, Field, Problem};
use crate::train::TrainError;
use serde::{Deserialize, Serialize};

/// The plateau rule of random search: after `patience` rounds in a row
/// without an adopted challenger, σ is multiplied by `shrink` (never below
/// `sigma_min`); with `grow`, a shrink is undone when more than a fifth of
/// the rounds since the last change adopted one (the 1/5th success rule of
/// evolution strategies). The schedule itself is [`crate::train::SigmaSchedule`].
/// A `run.toml` without this table (every run made before the rule) keeps
/// σ as `sigma` and `sigma_half_life` say.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateauConfig {
    /// P: rounds in a row without an adoption that make a plateau.
    pub patience: u32,
    /// The factor σ is multiplied by at a plateau (above 0, below 1).
    #[serde(default = "PlateauConfig::default_shrink")]
    pub shrink: f64,
    /// Divide σ by `shrink` again (at most back to `sigma`) when more than
    /// patience/5 of the rounds since the last change adopted a challenger.
    #[serde(default = "PlateauConfig::default_grow")]
    pub grow: bool,
    /// End the run at a plateau reached with σ already at its floor
    /// (`sigma_min`): P more rounds without an adoption.
    #[serde(default)]
    pub stop: bool,
}

impl PlateauConfig {
    /// The most rounds `patience` may be: a plateau longer than that is
    /// no rule but a typo.
    pub const MAX_PATIENCE: u32 = 10_000;

    fn default_shrink() -> f64 {
        0.7
    }
    fn default_grow() -> bool {
        true
    }

    /// Checks the settings; errors name the setting.
    pub fn validate(&self) -> Result<(), TrainError> {
        let p = self.patience;
        ensure(
            Field::PlateauPatience,
            (1..=Self::MAX_PATIENCE).contains(&p),
            || {
                Problem::value(
                    p,
                    format!(
                        "must be a number of rounds from 1 to {}",
                        Self::MAX_PATIENCE
                    ),
                )
            },
        )?;
        let s = self.shrink;
        ensure(
            Field::PlateauShrink,
            s.is_finite() && s > 0.0 && s < 1.0,
            || Problem::value(s, "must be a factor above 0 and below 1 (such as 0.7)"),
        )
    }
}

impl Default for PlateauConfig {
    /// P = 10 rounds, σ × 0.7 (two shrinks about halve it), growing back
    /// on, no early stop: see `docs/training.md`.
    fn default() -> PlateauConfig {
        PlateauConfig {
            patience: 10,
            shrink: PlateauConfig::default_shrink(),
            grow: PlateauConfig::default_grow(),
            stop: false,
        }
    }
}
