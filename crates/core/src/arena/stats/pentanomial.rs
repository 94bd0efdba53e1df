//! [`Pentanomial`]: game pairs counted by A's pair score, and
//! [`PairedTally`], which keeps the per-game and the per-pair view together.
//! Why pairs give tighter error bars is told in the [module docs](super).

use std::fmt;
use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

use super::{elo_from_score, elo_interval, half_width, mean_variance, normalized_elo, EloRange};
use super::{GameResult, ScoreError, Tally};

/// Game pairs (same opening, colours swapped) counted by A's pair score.
///
/// `bins[i]` counts the pairs in which A scored `i/2` points out of 2:
/// `[LL, LD+DL, LW+DD+WL, DW+WD, WW]`. The five bins cannot give back the
/// wins, draws and losses (the middle bin mixes LW and DD); use
/// [`PairedTally`] to keep both.
///
/// When the opening decides most pairs, the pair scores vary less than the
/// single games do, and the error bar is tighter than the [`Tally`]'s:
///
/// ```
/// use mnk_core::arena::stats::{GameResult::{Loss, Win}, PairedTally, Pentanomial, Tally};
/// let mut m = PairedTally::default();
/// for _ in 0..30 {
///     m.add_pair(Win, Loss); // whoever had black won
/// }
/// for _ in 0..5 {
///     m.add_pair(Win, Win);
///     m.add_pair(Loss, Loss);
/// }
/// assert_eq!(m.games, Tally::new(40, 0, 40));
/// assert_eq!(m.pairs, Pentanomial::new([5, 0, 30, 0, 5]));
/// assert_eq!((m.pairs.score(), m.pairs.elo()), (0.5, 0.0));
/// assert!(m.pairs.elo_error95() < 0.75 * m.games.elo_error95());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pair counts by pair score 0, ½, 1, 1½, 2.
    pub bins: [u64; 5],
}

/// Per-game scores of the pentanomial bins (pair score / 2).
pub(super) const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

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
        let first = GameResult::from_score(first)?;
        let second = GameResult::from_score(second)?;
        self.add_outcomes(first, second);
        Ok(())
    }

    /// Counts one pair from the outcomes of its two games.
    pub fn add_outcomes(&mut self, first: GameResult, second: GameResult) {
        let half_points = |o: GameResult| match o {
            GameResult::Loss => 0,
            GameResult::Draw => 1,
            GameResult::Win => 2,
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

    /// The Elo estimate and its 95% interval as shown: `±` where both ends
    /// are finite, a bound when A won (lost) both games of every pair.
    pub fn elo_range(&self) -> EloRange {
        EloRange::new(self.pairs(), self.score(), self.elo_interval95())
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
        write!(f, " ({:.1}%) {}", 100.0 * self.score(), self.elo_range())
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
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.games.add(first);
        self.games.add(second);
        self.pairs.add_outcomes(first, second);
    }

    /// Counts a pair from A's two game scores (each 0, 0.5 or 1); nothing is
    /// counted if either is invalid.
    pub fn add_pair_scores(&mut self, first: f64, second: f64) -> Result<(), ScoreError> {
        let first = GameResult::from_score(first)?;
        let second = GameResult::from_score(second)?;
        self.add_pair(first, second);
        Ok(())
    }

    /// Counts a game that has no partner (only in `games`).
    pub fn add_single(&mut self, outcome: GameResult) {
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
