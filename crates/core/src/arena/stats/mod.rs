//! Rating statistics for matches between two players: pure maths, no I/O.
//!
//! * [`Tally`] counts wins, draws and losses (the *trinomial* model) and turns
//!   them into a score, a logistic Elo difference and a 95% error bar, as the
//!   project brief defines them: `s = (W + D/2)/N`, `Elo = −400·log10(1/s − 1)`,
//!   and an interval from `s ± 1.96σ` with `σ² = [W(1−s)² + L·s² + D(½−s)²]/N²`
//!   (the variance of the mean score).
//! * [`Pentanomial`] counts *game pairs* (one opening played twice, colours
//!   swapped) by the pair's total score 0, ½, 1, 1½, 2. Its error bar uses the
//!   variance of the pair scores. [`PairedTally`] keeps both views.
//! * [`SprtParams`] runs a sequential probability ratio test (the generalized
//!   SPRT of fishtest and fastchess) on either kind of count, in normalized Elo
//!   (the default) or logistic Elo.
//!
//! # Why pairs give tighter error bars
//!
//! An opening, together with the colour each player gets, biases a game.
//! Playing every opening twice with colours swapped makes the two games of a
//! pair *negatively* correlated from A's point of view: an opening that favours
//! the first player tends to give A one win and one loss (pair score 1), not
//! two wins or two losses. (Seen from the side that moves first, the two
//! results are *positively* correlated; it is the same fact.) The trinomial
//! model treats every game as independent, so it counts that opening noise as
//! if it were noise in the players' strength and overestimates the variance of
//! the mean score. The pentanomial model measures the variance of the pair
//! scores directly, which removes the shared opening/colour part: its error
//! bar is smaller whenever the correlation is negative as above, and equal (up
//! to sampling) when the two games are independent.
//!
//! # SPRT
//!
//! H0 is "the Elo difference is `elo0`", H1 is "it is `elo1`". The statistic is
//! the generalized log-likelihood ratio of Michel Van den Bergh (used by
//! fishtest's `LLRcalc.py` and fastchess): the observed results form an
//! empirical distribution over the scores (0, ½, 1 per game, or 0, ¼, ½, ¾, 1
//! per game for pairs); under each hypothesis the most likely distribution
//! that satisfies it is found (a secular equation solved by bisection, and for
//! normalized Elo a fixed-point iteration around it), and the LLR is `N` times
//! the mean log ratio of the two. Zero counts are replaced by 1e-3 before this
//! (fishtest's regularization), so the LLR is finite for any sample.
//!
//! *Normalized Elo* (`nElo`) measures the score's distance from ½ in units of
//! the per-game standard deviation: `t = (μ − ½)/σ`, `nElo = t · 800/ln 10`.
//! It is insensitive to the draw rate, which makes bounds like `elo0=0,elo1=5`
//! mean the same thing for drawish and decisive games. For pairs, the
//! per-game σ is `√2` times the standard deviation of the pair mean, as in
//! fishtest.
//!
//! # Edge cases
//!
//! With no games the score is ½, the Elo 0 and the error bar infinite. A score
//! of 1 (or 0) gives an Elo of `+∞` (or `−∞`); what is shown then
//! ([`EloRange`]) is a bound instead, from the exact binomial probability
//! of winning (losing) every game. When the score interval reaches
//! 0 or 1 the matching end of the Elo interval is infinite and so is the
//! half-width. When every game has the same result the normal approximation
//! gives a zero-width interval around a finite Elo (all draws: `0 ± 0`); that
//! is what the brief's formula says, and it is small samples that make it
//! look overconfident. The SPRT returns an LLR of 0 for no games.

mod pentanomial;
mod sprt;
mod tally;

pub use pentanomial::{PairedTally, Pentanomial};
pub use sprt::{SprtError, SprtModel, SprtParams, SprtStatus};
pub use tally::Tally;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// The two-sided 95% normal quantile used for error bars (the brief's 1.96).
pub const Z95: f64 = 1.96;

/// Normalized Elo per unit of t-value: `800 / ln 10` (about 347.4).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Logistic Elo difference of an expected score `s` in `[0, 1]`:
/// `−400·log10(1/s − 1)`. Returns `−∞` for `s ≤ 0`, `+∞` for `s ≥ 1`, and NaN
/// for a NaN input.
pub fn elo_from_score(s: f64) -> f64 {
    if s.is_nan() {
        f64::NAN
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the −0 of s = ½ into +0 (so it prints as `+0.0`).
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// Expected score of a logistic Elo difference: `1/(1 + 10^(−elo/400))`.
/// The inverse of [`elo_from_score`]; `±∞` map to 1 and 0.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Normalized Elo of a mean score `mu` with per-game standard deviation
/// `sigma`: `(mu − ½)/sigma · 800/ln 10`. A zero `sigma` gives 0 if `mu` is ½
/// and `±∞` otherwise.
pub fn normalized_elo(mu: f64, sigma: f64) -> f64 {
    let d = mu - 0.5;
    if sigma > 0.0 {
        d / sigma * NELO_PER_T
    } else if d == 0.0 {
        0.0
    } else {
        f64::INFINITY.copysign(d)
    }
}

/// The Elo interval for a mean score `s` whose standard deviation is `sd`:
/// Elo at `s ± 1.96·sd`, the score clamped to `[0, 1]`.
fn elo_interval(s: f64, sd: f64) -> (f64, f64) {
    let lo = (s - Z95 * sd).max(0.0);
    let hi = (s + Z95 * sd).min(1.0);
    (elo_from_score(lo), elo_from_score(hi))
}

/// Half-width of an Elo interval; infinite if either end is.
fn half_width((lo, hi): (f64, f64)) -> f64 {
    if lo.is_infinite() || hi.is_infinite() {
        f64::INFINITY
    } else {
        (hi - lo) / 2.0
    }
}

/// Mean and variance of scores `a` weighted by counts or probabilities `w`
/// (normalized by their sum). Returns `(0.5, 0)` for an empty sample.
fn mean_variance<const N: usize>(a: &[f64; N], w: &[f64; N]) -> (f64, f64) {
    let total: f64 = w.iter().sum();
    if total <= 0.0 {
        return (0.5, 0.0);
    }
    let mu = a.iter().zip(w).map(|(x, p)| x * p).sum::<f64>() / total;
    let var = a
        .iter()
        .zip(w)
        .map(|(x, p)| p * (x - mu) * (x - mu))
        .sum::<f64>()
        / total;
    (mu, var)
}

/// Formats an Elo value with a sign and one decimal (`+88.7`, `+inf`).
fn fmt_elo(elo: f64) -> String {
    format!("{elo:+.1}")
}

/// The one-sided confidence of the bounds [`EloRange`] gives for a
/// one-sided result: 97.5%, so that, like the two-sided intervals, the
/// chance of missing on that side is 2.5%.
const ONE_SIDED_MISS: f64 = 0.025;

/// The lowest score still likely when all of `n` trials were won: the exact
/// binomial (Clopper–Pearson) bound `0.025^(1/n)`, the `p` for which
/// winning all `n` happens 2.5% of the time. The normal approximation
/// cannot give it: it sees zero variance.
fn all_won_score_bound(n: u64) -> f64 {
    ONE_SIDED_MISS.powf(1.0 / n.max(1) as f64)
}

/// An Elo estimate and its 95% interval, in the form people read: with
/// `±` when both ends are finite, and as a bound when a player won (or
/// lost) everything, where the estimate itself is infinite and `-inf ±
/// inf` would say nothing.
///
/// ```
/// use mnk_core::arena::stats::{EloRange, Tally};
/// assert_eq!(Tally::new(60, 20, 20).elo_range().to_string(), "Elo +147.2 ± 66.0");
/// let all = Tally::new(50, 0, 0).elo_range();
/// assert!(matches!(all, EloRange::AllWon { .. }));
/// assert_eq!(all.to_string(), "Elo > +446.4 (all won)");
/// assert_eq!(Tally::new(0, 0, 50).elo_range().to_string(), "Elo < -446.4 (all lost)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EloRange {
    /// Nothing was played.
    NoGames,
    /// `elo ± error`: both ends of the 95% interval are finite.
    Within {
        /// The estimate.
        elo: f64,
        /// Half-width of the 95% interval.
        error: f64,
    },
    /// A finite estimate whose 95% interval reaches a score of 0 or 1 at
    /// one end or both (so that end is infinite): few games, lopsided.
    Open {
        /// The estimate.
        elo: f64,
        /// The interval's lower end (may be `−∞`).
        lower: f64,
        /// The interval's upper end (may be `+∞`).
        upper: f64,
    },
    /// A won every game (or pair): the Elo difference is above `lower`
    /// with 97.5% confidence (the exact binomial bound).
    AllWon {
        /// The bound.
        lower: f64,
    },
    /// A lost every game (or pair): the Elo difference is below `upper`.
    AllLost {
        /// The bound.
        upper: f64,
    },
}

impl EloRange {
    /// The range of `n` trials (games or pairs) with mean score `score` and
    /// 95% Elo interval `interval`.
    fn new(n: u64, score: f64, interval: (f64, f64)) -> EloRange {
        let elo = elo_from_score(score);
        let (lower, upper) = interval;
        if n == 0 {
            EloRange::NoGames
        } else if score >= 1.0 {
            EloRange::AllWon {
                lower: elo_from_score(all_won_score_bound(n)),
            }
        } else if score <= 0.0 {
            EloRange::AllLost {
                upper: elo_from_score(1.0 - all_won_score_bound(n)),
            }
        } else if lower.is_finite() && upper.is_finite() {
            EloRange::Within {
                elo,
                error: half_width(interval),
            }
        } else {
            EloRange::Open { elo, lower, upper }
        }
    }

    /// The lower end of the 95% interval (`−∞` when there is none).
    pub fn lower(&self) -> f64 {
        match *self {
            EloRange::NoGames | EloRange::AllLost { .. } => f64::NEG_INFINITY,
            EloRange::Within { elo, error } => elo - error,
            EloRange::Open { lower, .. } | EloRange::AllWon { lower } => lower,
        }
    }

    /// The upper end of the 95% interval (`+∞` when there is none).
    pub fn upper(&self) -> f64 {
        match *self {
            EloRange::NoGames | EloRange::AllWon { .. } => f64::INFINITY,
            EloRange::Within { elo, error } => elo + error,
            EloRange::Open { upper, .. } | EloRange::AllLost { upper } => upper,
        }
    }
}

impl EloRange {
    /// The range in few characters, for a progress line or a table:
    /// `+17±19`, `>+446` (all won), `<-446` (all lost), `+338(>+68)` (an
    /// interval open at one end), `?` (no games).
    pub fn short(&self) -> String {
        let e = |x: f64| format!("{x:+.0}");
        match *self {
            EloRange::NoGames => "?".to_string(),
            EloRange::Within { elo, error } => format!("{}±{error:.0}", e(elo)),
            EloRange::AllWon { lower } if lower <= 0.0 => "?(all won)".to_string(),
            EloRange::AllLost { upper } if upper >= 0.0 => "?(all lost)".to_string(),
            EloRange::AllWon { lower } => format!(">{}", e(lower)),
            EloRange::AllLost { upper } => format!("<{}", e(upper)),
            EloRange::Open { elo, lower, upper } => match (lower.is_finite(), upper.is_finite()) {
                (true, _) => format!("{}(>{})", e(elo), e(lower)),
                (false, true) => format!("{}(<{})", e(elo), e(upper)),
                (false, false) => format!("{}±inf", e(elo)),
            },
        }
    }
}

impl fmt::Display for EloRange {
    /// `Elo +127.0 ± 47.2`, `Elo +338.0 (95% > +67.5)`, `Elo +0.0 ± inf`
    /// (interval open at both ends), `Elo > +446.4 (all won)`,
    /// `Elo < -446.4 (all lost)`, `Elo ? (all won, too few games for a
    /// bound)` (5 trials or fewer: no bound above 0), `Elo ? (no games)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EloRange::NoGames => write!(f, "Elo ? (no games)"),
            EloRange::Within { elo, error } => write!(f, "Elo {} ± {error:.1}", fmt_elo(elo)),
            EloRange::Open { elo, lower, upper } => {
                let elo = fmt_elo(elo);
                match (lower.is_finite(), upper.is_finite()) {
                    (true, _) => write!(f, "Elo {elo} (95% > {})", fmt_elo(lower)),
                    (false, true) => write!(f, "Elo {elo} (95% < {})", fmt_elo(upper)),
                    (false, false) => write!(f, "Elo {elo} ± inf"),
                }
            }
            // Up to 5 trials, winning them all is too likely even for an
            // equal player (0.5^5 > 2.5%): the bound is not even above 0,
            // and "Elo > -72.1 (all won)" would read as a weaker player.
            EloRange::AllWon { lower } if lower <= 0.0 => {
                write!(f, "Elo ? (all won, too few games for a bound)")
            }
            EloRange::AllLost { upper } if upper >= 0.0 => {
                write!(f, "Elo ? (all lost, too few games for a bound)")
            }
            EloRange::AllWon { lower } => write!(f, "Elo > {} (all won)", fmt_elo(lower)),
            EloRange::AllLost { upper } => write!(f, "Elo < {} (all lost)", fmt_elo(upper)),
        }
    }
}

/// The likelihood of superiority: the probability that A is the stronger
/// player given `wins` and `losses` (draws say nothing about it), as
/// cutechess computes it: `½·(1 + erf((W − L)/√(2(W + L))))`. ½ when
/// wins and losses are equal (none at all included).
pub fn los(wins: u64, losses: u64) -> f64 {
    let (w, l) = (wins as f64, losses as f64);
    if wins == losses {
        // Exactly: the fit below is 1.5e-8 off at 0.
        return 0.5;
    }
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// The error function, to within 1.2e-7 everywhere (Numerical Recipes'
/// `erfcc`, a Chebyshev fit of `erfc`): the standard library has none,
/// and LOS is shown to a tenth of a percent.
fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// A game score that is not 0, ½ or 1.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[error("a game score must be 0, 0.5 or 1, got {0}")]
pub struct ScoreError(pub f64);

/// The result of one game from player A's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// A won.
    Win,
    /// The game was drawn.
    Draw,
    /// A lost.
    Loss,
}

impl GameResult {
    /// A's score: 1, ½ or 0.
    pub fn score(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }

    /// The outcome with score exactly 1, ½ or 0.
    pub fn from_score(score: f64) -> Result<GameResult, ScoreError> {
        if score == 1.0 {
            Ok(GameResult::Win)
        } else if score == 0.5 {
            Ok(GameResult::Draw)
        } else if score == 0.0 {
            Ok(GameResult::Loss)
        } else {
            Err(ScoreError(score))
        }
    }

    /// The same game from B's point of view.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}
