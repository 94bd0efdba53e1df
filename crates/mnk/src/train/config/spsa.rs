//! The SPSA settings (`optimizer = "spsa"`, the `[spsa]` table of
//! `run.toml`).

use crate::train::setting::{ensure, Field, Problem};
use crate::train::TrainError;
use serde::{Deserialize, Serialize};

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

    /// Checks the settings; errors name the setting.
    pub fn validate(&self) -> Result<(), TrainError> {
        let finite = |x: f64, ok: bool| x.is_finite() && ok;
        ensure(Field::SpsaA, finite(self.a, self.a > 0.0), || {
            Problem::value(self.a, "a must be a number above 0")
        })?;
        ensure(
            Field::SpsaC,
            finite(self.c, self.c > 0.0 && self.c <= 5.0),
            || Problem::value(self.c, "c must be above 0 and at most 5 (a log-space step)"),
        )?;
        ensure(
            Field::SpsaBigA,
            finite(self.big_a, self.big_a >= 0.0),
            || Problem::value(self.big_a, "A must be 0 or more"),
        )?;
        ensure(
            Field::SpsaAlpha,
            finite(self.alpha, self.alpha > 0.0 && self.alpha < 1.0),
            || {
                Problem::value(
                    self.alpha,
                    "alpha must be above 0 and below 1 (Spall: 0.602)",
                )
            },
        )?;
        ensure(
            Field::SpsaGamma,
            finite(self.gamma, self.gamma >= 0.0 && self.gamma < self.alpha),
            || {
                Problem::value(
                    self.gamma,
                    format!(
                        "gamma must be at least 0 and below alpha = {} (Spall: 0.101)",
                        self.alpha
                    ),
                )
            },
        )?;
        ensure(Field::SpsaOpenings, self.openings >= 1, || Problem::Zero)
    }
}
