//! The confirmation match's settings (`select = "confirm"`, the
//! `[confirm]` table of `run.toml`).

use crate::arena::stats::SprtParams;
use crate::train::setting::{ensure, Field, Problem};
use crate::train::TrainError;
use serde::{Deserialize, Serialize};

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

    /// Checks the settings; errors name the setting.
    pub fn validate(&self) -> Result<(), TrainError> {
        match (&self.sprt, self.games) {
            (Some(_), Some(_)) => ensure(Field::Confirm, false, || {
                Problem::Both(Field::ConfirmSprt, Field::ConfirmGames)
            }),
            (None, None) => ensure(Field::Confirm, false, || {
                Problem::Neither(Field::ConfirmSprt, Field::ConfirmGames)
            }),
            (Some(s), None) => {
                if let Err(e) = s.validate() {
                    return ensure(Field::ConfirmSprt, false, || Problem::Other(e.to_string()));
                }
                ensure(Field::ConfirmMaxOpenings, self.max_openings >= 1, || {
                    Problem::Zero
                })?;
                ensure(Field::ConfirmBatch, self.batch >= 1, || Problem::Zero)
            }
            (None, Some(g)) => {
                ensure(Field::ConfirmGames, g >= 2 && g % 2 == 0, || {
                    Problem::value(g, "must be an even number of at least 2 (each opening is played with both colours)")
                })?;
                let t = self.threshold;
                ensure(
                    Field::ConfirmThreshold,
                    t.is_finite() && t > 0.0 && t <= 1.0,
                    || Problem::value(t, "must be a score above 0 and at most 1 (such as 0.55)"),
                )
            }
        }
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
