//! The sequential probability ratio test ([`SprtParams`]) on a [`Tally`] or
//! a [`Pentanomial`]: the generalized LLR and its maximum-likelihood fits.
//! The statistic and normalized Elo are described in the [module docs](super).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::pentanomial::PAIR_SCORES;
use super::{mean_variance, score_from_elo, Pentanomial, Tally, NELO_PER_T};

/// The count that stands in for a zero count when computing an LLR
/// (fishtest's and fastchess's regularization).
const REGULARIZATION: f64 = 1e-3;

crate::util::string_enum! {
    /// The Elo scale an SPRT's `elo0` and `elo1` are expressed in.
    #[derive(Default)]
    pub enum SprtModel("SPRT model") {
        /// Normalized Elo (`t·800/ln 10`, independent of the draw rate); the
        /// default, as in fishtest and fastchess.
        #[default]
        Normalized = "normalized",
        /// Logistic Elo (the score `1/(1 + 10^(−elo/400))`).
        Logistic = "logistic",
    }
}

/// What is wrong with SPRT parameters or their string form.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SprtError {
    /// The string was empty.
    #[error("empty SPRT parameters; expected elo0=<number>,elo1=<number>[,alpha=<p>,beta=<p>,model=normalized|logistic]")]
    Empty,
    /// An item is not `key=value`.
    #[error("SPRT item `{item}` is not of the form key=value")]
    NotKeyValue {
        /// The offending item.
        item: String,
    },
    /// A key that is not `elo0`, `elo1`, `alpha`, `beta` or `model`.
    #[error("unknown SPRT key `{key}`; expected elo0, elo1, alpha, beta or model")]
    UnknownKey {
        /// The key as written.
        key: String,
    },
    /// A key given twice.
    #[error("SPRT key `{key}` is given more than once")]
    DuplicateKey {
        /// The repeated key.
        key: &'static str,
    },
    /// A required key is missing.
    #[error("SPRT key `{key}` is missing; expected elo0=<number>,elo1=<number>")]
    MissingKey {
        /// The missing key.
        key: &'static str,
    },
    /// A value that does not parse as a number.
    #[error("SPRT {key}: `{value}` is not a number")]
    NotANumber {
        /// The field.
        key: &'static str,
        /// The value as written.
        value: String,
    },
    /// A model name other than `normalized` or `logistic`.
    #[error("SPRT model: `{value}` is not a model; expected normalized or logistic")]
    UnknownModel {
        /// The value as written.
        value: String,
    },
    /// An infinite or NaN value.
    #[error("SPRT {key} must be a finite number, got {value}")]
    NotFinite {
        /// The field.
        key: &'static str,
        /// The value.
        value: f64,
    },
    /// `alpha` or `beta` not strictly between 0 and 1.
    #[error("SPRT {key} must be strictly between 0 and 1, got {value}")]
    ProbabilityOutOfRange {
        /// `alpha` or `beta`.
        key: &'static str,
        /// The value.
        value: f64,
    },
    /// `alpha + beta ≥ 1`, which leaves no room to continue.
    #[error("SPRT alpha + beta must be less than 1, got {alpha} + {beta}")]
    ErrorsTooLarge {
        /// The type I error.
        alpha: f64,
        /// The type II error.
        beta: f64,
    },
    /// `elo1 ≤ elo0`.
    #[error("SPRT elo1 must be greater than elo0, got elo0={elo0}, elo1={elo1}")]
    EloOrder {
        /// H0's Elo.
        elo0: f64,
        /// H1's Elo.
        elo1: f64,
    },
}

/// Where an SPRT stands after an LLR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SprtStatus {
    /// Neither bound reached: play more games.
    Continue,
    /// The LLR fell to the lower bound: accept H0 (Elo is `elo0` or less).
    AcceptH0,
    /// The LLR rose to the upper bound: accept H1 (Elo is `elo1` or more).
    AcceptH1,
}

impl fmt::Display for SprtStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtStatus::Continue => "continue",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        })
    }
}

/// Parameters of a sequential probability ratio test: H0 `Elo = elo0`
/// against H1 `Elo = elo1`, with type I error `alpha` and type II error
/// `beta`, in the Elo scale `model`.
///
/// The fields are public; [`SprtParams::new`], [`SprtParams::validate`] and
/// the string form (`FromStr`) check them. With invalid fields the LLR
/// functions still return a number (possibly NaN) without panicking, and
/// [`SprtParams::decide`] treats NaN as [`SprtStatus::Continue`].
///
/// The string form is `elo0=0,elo1=10[,alpha=0.05,beta=0.05,model=normalized]`
/// (items in any order, spaces allowed around them); `Display` writes it back
/// with every key. Serde uses the same string.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtParams {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1 (greater than `elo0`).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds, in `(0, 1)`.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds, in `(0, 1)`.
    pub beta: f64,
    /// The Elo scale of `elo0` and `elo1`.
    pub model: SprtModel,
}

impl SprtParams {
    /// Default `alpha` of the string form.
    pub const DEFAULT_ALPHA: f64 = 0.05;
    /// Default `beta` of the string form.
    pub const DEFAULT_BETA: f64 = 0.05;

    /// Checked parameters in normalized Elo (see [`SprtParams::with_model`]).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<SprtParams, SprtError> {
        let params = SprtParams {
            elo0,
            elo1,
            alpha,
            beta,
            model: SprtModel::Normalized,
        };
        params.validate()?;
        Ok(params)
    }

    /// The same parameters in another Elo scale.
    pub fn with_model(self, model: SprtModel) -> SprtParams {
        SprtParams { model, ..self }
    }

    /// Checks that every number is finite, `alpha` and `beta` lie strictly
    /// between 0 and 1 with `alpha + beta < 1`, and `elo1 > elo0`.
    pub fn validate(&self) -> Result<(), SprtError> {
        for (key, value) in [
            ("elo0", self.elo0),
            ("elo1", self.elo1),
            ("alpha", self.alpha),
            ("beta", self.beta),
        ] {
            if !value.is_finite() {
                return Err(SprtError::NotFinite { key, value });
            }
        }
        for (key, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::ProbabilityOutOfRange { key, value });
            }
        }
        if self.alpha + self.beta >= 1.0 {
            return Err(SprtError::ErrorsTooLarge {
                alpha: self.alpha,
                beta: self.beta,
            });
        }
        if self.elo1 <= self.elo0 {
            return Err(SprtError::EloOrder {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        Ok(())
    }

    /// The stopping bounds on the LLR, `(ln(β/(1−α)), ln((1−β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Generalized log-likelihood ratio of H1 against H0 for a W/D/L tally
    /// (0 with no games).
    pub fn llr_trinomial(&self, tally: &Tally) -> f64 {
        let counts = [tally.losses, tally.draws, tally.wins];
        self.llr(&counts, &[0.0, 0.5, 1.0], 1.0)
    }

    /// Generalized log-likelihood ratio of H1 against H0 for game pairs
    /// (0 with no pairs). In normalized Elo the t-values are scaled by `√2`
    /// because the per-game σ is `√2` times that of the pair mean.
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        self.llr(&pairs.bins, &PAIR_SCORES, std::f64::consts::SQRT_2)
    }

    /// Compares an LLR with [`SprtParams::bounds`]: at or above the upper
    /// bound accepts H1, at or below the lower bound accepts H0, otherwise
    /// (and for NaN) continues.
    pub fn decide(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }

    /// The LLR for counts over `scores` (ascending, from 0 to 1).
    /// `t_scale` converts normalized Elo t-values to the sample's unit.
    fn llr<const N: usize>(&self, counts: &[u64; N], scores: &[f64; N], t_scale: f64) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regularized = counts.map(|c| if c == 0 { REGULARIZATION } else { c as f64 });
        let total: f64 = regularized.iter().sum();
        let phat = regularized.map(|c| c / total);
        let fits = match self.model {
            SprtModel::Logistic => {
                let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
                mle_with_mean(scores, &phat, s0).zip(mle_with_mean(scores, &phat, s1))
            }
            SprtModel::Normalized => {
                let t0 = t_scale * self.elo0 / NELO_PER_T;
                let t1 = t_scale * self.elo1 / NELO_PER_T;
                mle_with_t_value(scores, &phat, 0.5, t0)
                    .zip(mle_with_t_value(scores, &phat, 0.5, t1))
            }
        };
        match fits {
            Some((p0, p1)) => {
                total
                    * phat
                        .iter()
                        .zip(p0.iter().zip(&p1))
                        .map(|(q, (a, b))| q * (b.ln() - a.ln()))
                        .sum::<f64>()
            }
            None => total * self.llr_approximation(scores, &phat, t_scale),
        }
    }

    /// Closed-form approximations of the per-sample LLR, used only if the
    /// exact maximum-likelihood fit fails numerically (extreme parameters):
    /// Van den Bergh's `½·ln(Σp̂(a−s0)²/Σp̂(a−s1)²)` for logistic Elo, and
    /// `½·ln((1+(t−t0)²)/(1+(t−t1)²))` per game for normalized Elo.
    fn llr_approximation<const N: usize>(
        &self,
        scores: &[f64; N],
        phat: &[f64; N],
        t_scale: f64,
    ) -> f64 {
        let (mu, var) = mean_variance(scores, phat);
        match self.model {
            SprtModel::Logistic => {
                let spread = |s: f64| {
                    scores
                        .iter()
                        .zip(phat)
                        .map(|(a, p)| p * (a - s) * (a - s))
                        .sum::<f64>()
                };
                let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
                0.5 * (spread(s0) / spread(s1)).ln()
            }
            SprtModel::Normalized => {
                // Per game: sigma_game = t_scale * sd of the sample mean unit.
                let sigma = t_scale * var.sqrt();
                let t = (mu - 0.5) / sigma;
                let (t0, t1) = (self.elo0 / NELO_PER_T, self.elo1 / NELO_PER_T);
                let games_per_sample = t_scale * t_scale;
                games_per_sample
                    * 0.5
                    * ((1.0 + (t - t0) * (t - t0)) / (1.0 + (t - t1) * (t - t1))).ln()
            }
        }
    }
}

/// Solves the secular equation `Σ p̂ᵢ φᵢ/(1 + θφᵢ) = 0` for `θ` on the
/// interval where every `1 + θφᵢ > 0`. The left side decreases in `θ` from
/// `+∞` to `−∞` there, so bisection finds the single root. Needs
/// `min φ < 0 < max φ`; returns `None` otherwise.
fn solve_secular<const N: usize>(phat: &[f64; N], phi: &[f64; N]) -> Option<f64> {
    let min = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let max = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let f = |x: f64| {
        phat.iter()
            .zip(phi)
            .map(|(p, a)| p * a / (1.0 + x * a))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..400 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// `p̂ᵢ/(1 + θφᵢ)` for the root `θ` of the secular equation, if every
/// probability comes out positive and finite.
fn reweight<const N: usize>(phat: &[f64; N], phi: &[f64; N]) -> Option<[f64; N]> {
    let theta = solve_secular(phat, phi)?;
    let mut p = [0.0; N];
    for i in 0..N {
        p[i] = phat[i] / (1.0 + theta * phi[i]);
        if !(p[i] > 0.0 && p[i].is_finite()) {
            return None;
        }
    }
    Some(p)
}

/// The most likely distribution over `scores` with mean `s`, given the
/// empirical distribution `phat` (all entries positive): `p̂ᵢ/(1 + θ(aᵢ − s))`
/// (Van den Bergh, "support_MLE_multinomial", Proposition 1.1).
fn mle_with_mean<const N: usize>(scores: &[f64; N], phat: &[f64; N], s: f64) -> Option<[f64; N]> {
    let phi = scores.map(|a| a - s);
    reweight(phat, &phi)
}

/// The most likely distribution over `scores` with t-value
/// `(μ − reference)/σ = t`, given the empirical distribution `phat` (all
/// entries positive). Fixed-point iteration from the uniform distribution:
/// with μ and σ of the current guess, `φᵢ = aᵢ − reference − t·σ·(1 +
/// ((aᵢ − μ)/σ)²)/2`, and the next guess is `p̂ᵢ/(1 + θφᵢ)` (Van den Bergh,
/// "Comments on normalized Elo", section 4.1). Iterates to a change below
/// 1e-13 (at most 1000 rounds).
fn mle_with_t_value<const N: usize>(
    scores: &[f64; N],
    phat: &[f64; N],
    reference: f64,
    t: f64,
) -> Option<[f64; N]> {
    let mut p = [1.0 / N as f64; N];
    for _ in 0..1000 {
        let (mu, var) = mean_variance(scores, &p);
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let phi = scores.map(|a| {
            let z = (a - mu) / sigma;
            a - reference - t * sigma * (1.0 + z * z) / 2.0
        });
        let next = reweight(phat, &phi)?;
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-13 {
            break;
        }
    }
    Some(p)
}

impl Default for SprtParams {
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized`.
    fn default() -> SprtParams {
        SprtParams {
            elo0: 0.0,
            elo1: 5.0,
            alpha: SprtParams::DEFAULT_ALPHA,
            beta: SprtParams::DEFAULT_BETA,
            model: SprtModel::Normalized,
        }
    }
}

impl fmt::Display for SprtParams {
    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={},model={}",
            self.elo0, self.elo1, self.alpha, self.beta, self.model
        )
    }
}

impl FromStr for SprtParams {
    type Err = SprtError;

    /// Parses `elo0=<x>,elo1=<y>[,alpha=<a>][,beta=<b>][,model=<m>]` and
    /// validates the result. `alpha` and `beta` default to 0.05 and `model`
    /// to `normalized`.
    fn from_str(text: &str) -> Result<SprtParams, SprtError> {
        if text.trim().is_empty() {
            return Err(SprtError::Empty);
        }
        let mut numbers: [Option<f64>; 4] = [None; 4];
        let mut model: Option<SprtModel> = None;
        const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        for item in text.split(',') {
            let item = item.trim();
            let Some((key, value)) = item.split_once('=') else {
                return Err(SprtError::NotKeyValue {
                    item: item.to_string(),
                });
            };
            let (key, value) = (key.trim(), value.trim());
            if key == "model" {
                if model.is_some() {
                    return Err(SprtError::DuplicateKey { key: "model" });
                }
                model = Some(value.to_ascii_lowercase().parse().map_err(|_| {
                    SprtError::UnknownModel {
                        value: value.to_string(),
                    }
                })?);
                continue;
            }
            let Some(index) = KEYS.iter().position(|k| *k == key) else {
                return Err(SprtError::UnknownKey {
                    key: key.to_string(),
                });
            };
            let name = KEYS[index];
            if numbers[index].is_some() {
                return Err(SprtError::DuplicateKey { key: name });
            }
            let number = value.parse::<f64>().map_err(|_| SprtError::NotANumber {
                key: name,
                value: value.to_string(),
            })?;
            numbers[index] = Some(number);
        }
        let [elo0, elo1, alpha, beta] = numbers;
        let params = SprtParams {
            elo0: elo0.ok_or(SprtError::MissingKey { key: "elo0" })?,
            elo1: elo1.ok_or(SprtError::MissingKey { key: "elo1" })?,
            alpha: alpha.unwrap_or(SprtParams::DEFAULT_ALPHA),
            beta: beta.unwrap_or(SprtParams::DEFAULT_BETA),
            model: model.unwrap_or_default(),
        };
        params.validate()?;
        Ok(params)
    }
}

impl Serialize for SprtParams {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SprtParams {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SprtParams, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
