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
//! of 1 (or 0) gives an Elo of `+∞` (or `−∞`). When the score interval reaches
//! 0 or 1 the matching end of the Elo interval is infinite and so is the
//! half-width. When every game has the same result the normal approximation
//! gives a zero-width interval around a finite Elo (all draws: `0 ± 0`); that
//! is what the brief's formula says, and it is small samples that make it
//! look overconfident. The SPRT returns an LLR of 0 for no games.

use std::fmt;
use std::ops::AddAssign;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The two-sided 95% normal quantile used for error bars (the brief's 1.96).
pub const Z95: f64 = 1.96;

/// Normalized Elo per unit of t-value: `800 / ln 10` (about 347.4).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The count that stands in for a zero count when computing an LLR
/// (fishtest's and fastchess's regularization).
const REGULARIZATION: f64 = 1e-3;

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

/// A game score that is not 0, ½ or 1.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[error("a game score must be 0, 0.5 or 1, got {0}")]
pub struct ScoreError(pub f64);

/// The result of one game from player A's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// A won.
    Win,
    /// The game was drawn.
    Draw,
    /// A lost.
    Loss,
}

impl Outcome {
    /// A's score: 1, ½ or 0.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The outcome with score exactly 1, ½ or 0.
    pub fn from_score(score: f64) -> Result<Outcome, ScoreError> {
        if score == 1.0 {
            Ok(Outcome::Win)
        } else if score == 0.5 {
            Ok(Outcome::Draw)
        } else if score == 0.0 {
            Ok(Outcome::Loss)
        } else {
            Err(ScoreError(score))
        }
    }

    /// The same game from B's point of view.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// Wins, draws and losses of player A against player B (the trinomial model).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tally {
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
}

impl Tally {
    /// A tally with the given counts.
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    /// Number of games, `W + D + L` (saturating).
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// Counts one game.
    pub fn add(&mut self, outcome: Outcome) {
        let slot = match outcome {
            Outcome::Win => &mut self.wins,
            Outcome::Draw => &mut self.draws,
            Outcome::Loss => &mut self.losses,
        };
        *slot = slot.saturating_add(1);
    }

    /// Adds another tally's counts to this one (saturating).
    pub fn merge(&mut self, other: &Tally) {
        self.wins = self.wins.saturating_add(other.wins);
        self.draws = self.draws.saturating_add(other.draws);
        self.losses = self.losses.saturating_add(other.losses);
    }

    /// The same games from B's point of view (wins and losses swapped).
    pub fn reversed(&self) -> Tally {
        Tally::new(self.losses, self.draws, self.wins)
    }

    /// Counts as weights over the scores 0, ½, 1 (L, D, W).
    fn weights(&self) -> [f64; 3] {
        [self.losses as f64, self.draws as f64, self.wins as f64]
    }

    /// A's mean score `(W + D/2)/N`, in `[0, 1]`; ½ when there are no games.
    pub fn score(&self) -> f64 {
        mean_variance(&[0.0, 0.5, 1.0], &self.weights()).0
    }

    /// Variance of a single game's score,
    /// `[W(1−s)² + L·s² + D(½−s)²]/N`; 0 when there are no games.
    pub fn variance(&self) -> f64 {
        mean_variance(&[0.0, 0.5, 1.0], &self.weights()).1
    }

    /// Logistic Elo difference of A over B, `−400·log10(1/s − 1)`: `+∞` when
    /// A won every game, `−∞` when A lost every game, 0 with no games.
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// The 95% Elo interval `(lo, hi)`: Elo at `s ± 1.96σ`, with
    /// `σ² = variance()/N` the variance of the mean score and the score
    /// clamped to `[0, 1]` (so an end may be infinite). With no games it is
    /// `(−∞, +∞)`.
    pub fn elo_interval95(&self) -> (f64, f64) {
        let n = self.games();
        if n == 0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        elo_interval(self.score(), (self.variance() / n as f64).sqrt())
    }

    /// Half-width of [`Tally::elo_interval95`], `(hi − lo)/2`: never
    /// negative, and infinite when either end is infinite (including no
    /// games and all wins or all losses).
    pub fn elo_error95(&self) -> f64 {
        half_width(self.elo_interval95())
    }

    /// Normalized Elo estimate, `(s − ½)/σ_game · 800/ln 10` with `σ_game`
    /// the per-game standard deviation. 0 with no games or all draws; `±∞`
    /// when every game was won (lost).
    pub fn normalized_elo(&self) -> f64 {
        normalized_elo(self.score(), self.variance().sqrt())
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.merge(&other);
    }
}

impl AddAssign<Outcome> for Tally {
    fn add_assign(&mut self, outcome: Outcome) {
        self.add(outcome);
    }
}

impl Extend<Outcome> for Tally {
    fn extend<I: IntoIterator<Item = Outcome>>(&mut self, iter: I) {
        for outcome in iter {
            self.add(outcome);
        }
    }
}

impl FromIterator<Outcome> for Tally {
    fn from_iter<I: IntoIterator<Item = Outcome>>(iter: I) -> Tally {
        let mut tally = Tally::default();
        tally.extend(iter);
        tally
    }
}

impl fmt::Display for Tally {
    /// `W 120 D 30 L 50 (67.5%) Elo +127.0 ± 47.2`, or
    /// `W 0 D 0 L 0 (no games)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "W {} D {} L {}", self.wins, self.draws, self.losses)?;
        if self.games() == 0 {
            return write!(f, " (no games)");
        }
        write!(
            f,
            " ({:.1}%) Elo {} ± {:.1}",
            100.0 * self.score(),
            fmt_elo(self.elo()),
            self.elo_error95()
        )
    }
}

/// Game pairs (same opening, colours swapped) counted by A's pair score.
///
/// `bins[i]` counts the pairs in which A scored `i/2` points out of 2:
/// `[LL, LD+DL, LW+DD+WL, DW+WD, WW]`. The five bins cannot give back the
/// wins, draws and losses (the middle bin mixes LW and DD); use
/// [`PairedTally`] to keep both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pair counts by pair score 0, ½, 1, 1½, 2.
    pub bins: [u64; 5],
}

/// Per-game scores of the pentanomial bins (pair score / 2).
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Pentanomial {
    /// Counts from the five bins `[LL, LD+DL, LW+DD+WL, DW+WD, WW]`.
    pub const fn new(bins: [u64; 5]) -> Pentanomial {
        Pentanomial { bins }
    }

    /// Number of pairs (saturating).
    pub fn pairs(&self) -> u64 {
        self.bins.iter().fold(0u64, |acc, &b| acc.saturating_add(b))
    }

    /// Number of games, twice the pairs (saturating).
    pub fn games(&self) -> u64 {
        self.pairs().saturating_mul(2)
    }

    /// Counts one pair from A's scores in its two games (each 0, 0.5 or 1).
    /// Nothing is counted if either score is invalid.
    pub fn add_pair(&mut self, first: f64, second: f64) -> Result<(), ScoreError> {
        let first = Outcome::from_score(first)?;
        let second = Outcome::from_score(second)?;
        self.add_outcomes(first, second);
        Ok(())
    }

    /// Counts one pair from the outcomes of its two games.
    pub fn add_outcomes(&mut self, first: Outcome, second: Outcome) {
        let half_points = |o: Outcome| match o {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        };
        let bin = &mut self.bins[half_points(first) + half_points(second)];
        *bin = bin.saturating_add(1);
    }

    /// Adds another count's bins to this one (saturating).
    pub fn merge(&mut self, other: &Pentanomial) {
        for (a, b) in self.bins.iter_mut().zip(other.bins) {
            *a = a.saturating_add(b);
        }
    }

    /// The same pairs from B's point of view (bins reversed).
    pub fn reversed(&self) -> Pentanomial {
        let mut bins = self.bins;
        bins.reverse();
        Pentanomial { bins }
    }

    fn weights(&self) -> [f64; 5] {
        self.bins.map(|b| b as f64)
    }

    /// A's mean score per game, in `[0, 1]`; ½ when there are no pairs.
    pub fn score(&self) -> f64 {
        mean_variance(&PAIR_SCORES, &self.weights()).0
    }

    /// Variance of one pair's mean score (pair score / 2) about
    /// [`Pentanomial::score`]; 0 when there are no pairs.
    pub fn pair_variance(&self) -> f64 {
        mean_variance(&PAIR_SCORES, &self.weights()).1
    }

    /// Logistic Elo difference of A over B from [`Pentanomial::score`]
    /// (`±∞` at a score of 1 or 0, 0 with no pairs).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// The 95% Elo interval `(lo, hi)`: Elo at `s ± 1.96σ` with
    /// `σ² = pair_variance()/pairs` the variance of the mean score, the score
    /// clamped to `[0, 1]`. With no pairs it is `(−∞, +∞)`.
    pub fn elo_interval95(&self) -> (f64, f64) {
        let n = self.pairs();
        if n == 0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        elo_interval(self.score(), (self.pair_variance() / n as f64).sqrt())
    }

    /// Half-width of [`Pentanomial::elo_interval95`]: never negative,
    /// infinite when either end is.
    pub fn elo_error95(&self) -> f64 {
        half_width(self.elo_interval95())
    }

    /// Normalized Elo estimate with the per-game standard deviation taken as
    /// `√(2·pair_variance())` (fishtest's convention). 0 with no pairs.
    pub fn normalized_elo(&self) -> f64 {
        normalized_elo(self.score(), (2.0 * self.pair_variance()).sqrt())
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Pentanomial) {
        self.merge(&other);
    }
}

impl fmt::Display for Pentanomial {
    /// `Ptnml(0-2) [3, 12, 50, 25, 10] (56.8%) Elo +47.2 ± 31.4`, or
    /// `Ptnml(0-2) [0, 0, 0, 0, 0] (no pairs)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.bins;
        write!(f, "Ptnml(0-2) [{a}, {b}, {c}, {d}, {e}]")?;
        if self.pairs() == 0 {
            return write!(f, " (no pairs)");
        }
        write!(
            f,
            " ({:.1}%) Elo {} ± {:.1}",
            100.0 * self.score(),
            fmt_elo(self.elo()),
            self.elo_error95()
        )
    }
}

/// Both views of a paired match: every game in a [`Tally`] and every complete
/// pair in a [`Pentanomial`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PairedTally {
    /// Every game counted, paired or not.
    pub games: Tally,
    /// Complete pairs.
    pub pairs: Pentanomial,
}

impl PairedTally {
    /// Counts a pair of games (both in `games`, and the pair in `pairs`).
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        self.games.add(first);
        self.games.add(second);
        self.pairs.add_outcomes(first, second);
    }

    /// Counts a pair from A's two game scores (each 0, 0.5 or 1); nothing is
    /// counted if either is invalid.
    pub fn add_pair_scores(&mut self, first: f64, second: f64) -> Result<(), ScoreError> {
        let first = Outcome::from_score(first)?;
        let second = Outcome::from_score(second)?;
        self.add_pair(first, second);
        Ok(())
    }

    /// Counts a game that has no partner (only in `games`).
    pub fn add_single(&mut self, outcome: Outcome) {
        self.games.add(outcome);
    }

    /// Adds another paired tally to this one.
    pub fn merge(&mut self, other: &PairedTally) {
        self.games.merge(&other.games);
        self.pairs.merge(&other.pairs);
    }

    /// The same match from B's point of view.
    pub fn reversed(&self) -> PairedTally {
        PairedTally {
            games: self.games.reversed(),
            pairs: self.pairs.reversed(),
        }
    }
}

impl fmt::Display for PairedTally {
    /// The tally, then the pentanomial, separated by `"; "`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; {}", self.games, self.pairs)
    }
}

/// The Elo scale an SPRT's `elo0` and `elo1` are expressed in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Normalized Elo (`t·800/ln 10`, independent of the draw rate); the
    /// default, as in fishtest and fastchess.
    #[default]
    Normalized,
    /// Logistic Elo (the score `1/(1 + 10^(−elo/400))`).
    Logistic,
}

impl SprtModel {
    /// The name used in the string form: `normalized` or `logistic`.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        }
    }
}

impl fmt::Display for SprtModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
                model = Some(match value.to_ascii_lowercase().as_str() {
                    "normalized" => SprtModel::Normalized,
                    "logistic" => SprtModel::Logistic,
                    _ => {
                        return Err(SprtError::UnknownModel {
                            value: value.to_string(),
                        })
                    }
                });
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
