//! [`Tally`]: wins, draws and losses (the trinomial model), with the
//! brief's score, Elo and error bar.

use std::fmt;
use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

use super::GameResult;
use super::{elo_from_score, elo_interval, half_width, mean_variance, normalized_elo, EloRange};

/// Wins, draws and losses of player A against player B (the trinomial model).
///
/// ```
/// use mnk_core::arena::stats::Tally;
/// let t = Tally::new(60, 20, 20);
/// assert_eq!(t.score(), 0.7); // (W + D/2) / N
/// let elo = -400.0 * (1.0 / 0.7 - 1.0f64).log10();
/// assert_eq!(t.elo(), elo); // about +147.2
/// assert_eq!(t.to_string(), "W 60 D 20 L 20 (70.0%) Elo +147.2 ± 66.0");
/// // B's view of the same games.
/// assert!((t.reversed().elo() + elo).abs() < 1e-9);
/// ```
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
    pub fn add(&mut self, outcome: GameResult) {
        let slot = match outcome {
            GameResult::Win => &mut self.wins,
            GameResult::Draw => &mut self.draws,
            GameResult::Loss => &mut self.losses,
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

    /// The Elo estimate and its 95% interval as shown: `±` where both ends
    /// are finite, a bound when A won or lost every game.
    pub fn elo_range(&self) -> EloRange {
        EloRange::new(self.games(), self.score(), self.elo_interval95())
    }

    /// The likelihood that A is stronger, from the wins and losses
    /// ([`los`](super::los)).
    pub fn los(&self) -> f64 {
        super::los(self.wins, self.losses)
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

impl AddAssign<GameResult> for Tally {
    fn add_assign(&mut self, outcome: GameResult) {
        self.add(outcome);
    }
}

impl Extend<GameResult> for Tally {
    fn extend<I: IntoIterator<Item = GameResult>>(&mut self, iter: I) {
        for outcome in iter {
            self.add(outcome);
        }
    }
}

impl FromIterator<GameResult> for Tally {
    fn from_iter<I: IntoIterator<Item = GameResult>>(iter: I) -> Tally {
        let mut tally = Tally::default();
        tally.extend(iter);
        tally
    }
}

impl fmt::Display for Tally {
    /// `W 120 D 30 L 50 (67.5%) Elo +127.0 ± 47.2`,
    /// `W 50 D 0 L 0 (100.0%) Elo > +446.4 (all won)`, or
    /// `W 0 D 0 L 0 (no games)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "W {} D {} L {}", self.wins, self.draws, self.losses)?;
        if self.games() == 0 {
            return write!(f, " (no games)");
        }
        write!(f, " ({:.1}%) {}", 100.0 * self.score(), self.elo_range())
    }
}
