//! The CMA-ES settings (`optimizer = "cmaes"`, the `[cmaes]` table of
//! `run.toml`).

use crate::train::setting::{ensure, Field, Problem};
use crate::train::TrainError;
use crate::util::string_enum;
use serde::{Deserialize, Serialize};

string_enum! {
    /// Whom a CMA-ES generation's candidates play: its fitness.
    #[derive(Default)]
    pub enum CmaesOpponent("CMA-ES opponent") {
        /// The current mean (the incumbent): self-play against a moving
        /// opponent, the fitness of every run made before `opponent`.
        #[default]
        Mean = "mean",
        /// The run's start (round 0's weights, after any model
        /// conversion): a fixed opponent for the whole run.
        Start = "start",
    }
}

/// CMA-ES settings (`--optimizer cmaes`). Each generation samples
/// `lambda` candidates around the mean in log-weight space with step size
/// σ (from `sigma` at the start) and the adapted covariance (in mirrored
/// pairs `m ± σ·y` when `mirrored`), plays each against the mean (or the
/// run's start, `opponent`) over the same `openings` openings, both
/// colours, and moves the mean by
/// `mean_rate` times the selected candidates' weighted step.
///
/// The whole table is fixed when a run starts: its candidates are columns
/// of `rounds.csv`, and every generation's state is replayed from them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CmaesConfig {
    /// The starting step size σ₀ in log-space (0.3: a candidate's weights
    /// are the mean's times about `e^(±0.3)`).
    pub sigma: f64,
    /// Candidates per generation (λ); the best half (μ = ⌊λ/2⌋) moves the
    /// mean.
    pub lambda: u32,
    /// Openings each candidate plays against the mean, each with both
    /// colours; every candidate of a generation plays the same ones.
    pub openings: u32,
    /// Candidates in mirrored pairs: the generation's second half are the
    /// first half's draws negated (`m + σ·y` and `m − σ·y`). Absent (false)
    /// in runs made before it, which drew every candidate independently.
    #[serde(default, skip_serializing_if = "is_false")]
    pub mirrored: bool,
    /// The mean's learning rate `c_m` in (0, 1]: the mean moves by `c_m·σ`
    /// times the selected candidates' weighted step. Absent (1) in runs
    /// made before it.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub mean_rate: f64,
    /// Whom the candidates play: the mean (self-play) or the run's start.
    /// Absent (the mean) in runs made before it and in every run against
    /// the mean, so their files read and hash as before.
    #[serde(default, skip_serializing_if = "is_mean")]
    pub opponent: CmaesOpponent,
    /// Holds `attack` and `defence` at their start values: the strategy
    /// searches only the shape (and combination) weights. `attack` scales
    /// every own weight and `defence` every opponent's weight, so each is
    /// a direction the per-side weights already span (`attack × a` with
    /// the own weights `/ a` plays the same): a flat direction along which
    /// a noisy run's mean can drift into the bounds. Absent (false, both
    /// searched) in runs made before it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fixed_scales: bool,
    /// The largest σ the step-size adaptation may reach (σ is capped
    /// after every generation); absent (no cap) in runs made before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma_max: Option<f64>,
}

/// Whether the candidates play the mean, which `run.toml` leaves out.
fn is_mean(o: &CmaesOpponent) -> bool {
    *o == CmaesOpponent::Mean
}

/// `mirrored`'s value in runs made before it, which `run.toml` leaves out
/// (so their files read and hash as before).
fn is_false(b: &bool) -> bool {
    !*b
}

/// `mean_rate`'s value in runs made before it.
fn one() -> f64 {
    1.0
}

/// Whether `mean_rate` is 1, which `run.toml` leaves out.
fn is_one(x: &f64) -> bool {
    *x == 1.0
}

impl CmaesConfig {
    /// Defaults: σ₀ = 0.3, 10 candidates, 1000 openings (100 on small
    /// boards), as the outside CMA-ES of `docs/training.md` used, in
    /// mirrored pairs with the mean's learning rate 0.5 (measured there:
    /// both lower the noise of the mean's step).
    pub fn defaults(small: bool) -> CmaesConfig {
        CmaesConfig {
            sigma: 0.3,
            lambda: 10,
            openings: if small { 100 } else { 1000 },
            mirrored: true,
            mean_rate: 0.5,
            opponent: CmaesOpponent::Mean,
            fixed_scales: false,
            sigma_max: None,
        }
    }

    /// Checks the settings; errors name the setting.
    pub fn validate(&self) -> Result<(), TrainError> {
        ensure(
            Field::CmaesSigma,
            self.sigma.is_finite() && self.sigma > 0.0 && self.sigma <= 5.0,
            || {
                Problem::value(
                    self.sigma,
                    "sigma must be above 0 and at most 5 (a log-space step)",
                )
            },
        )?;
        ensure(Field::CmaesLambda, (2..=64).contains(&self.lambda), || {
            Problem::value(self.lambda, "lambda must be from 2 to 64 candidates")
        })?;
        ensure(Field::CmaesOpenings, self.openings >= 1, || Problem::Zero)?;
        ensure(
            Field::CmaesMeanRate,
            self.mean_rate.is_finite() && self.mean_rate > 0.0 && self.mean_rate <= 1.0,
            || {
                Problem::value(
                    self.mean_rate,
                    "mean_rate must be above 0 and at most 1 (the mean's learning rate)",
                )
            },
        )?;
        match self.sigma_max {
            None => Ok(()),
            Some(max) => ensure(
                Field::CmaesSigmaMax,
                max.is_finite() && max >= self.sigma && max <= 5.0,
                || {
                    Problem::value(
                        max,
                        format!(
                            "sigma_max must be at least sigma ({}) and at most 5 (a log-space step)",
                            self.sigma
                        ),
                    )
                },
            ),
        }
    }
}
