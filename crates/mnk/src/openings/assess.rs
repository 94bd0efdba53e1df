//! Assessing openings: how even, and how informative, the games from each
//! opening are between two players of nearly equal strength.
//!
//! A *trial* draws two weight sets near a reference set (each weight
//! multiplied by `exp(σ·N(0,1))`, as training's challengers are made) and
//! plays every opening twice between them, once with each colour. Over the
//! trials, an opening collects black's score and its pairs' kinds:
//!
//! - **1–1**: each side won with the same colour: the colour decided, and
//!   the pair says nothing about which weights are better;
//! - **0–0**: both games drawn: no information either;
//! - **informative**: every other pair (2–0, 1.5–0.5, …).
//!
//! Each trial's weight sets and games come from `(seed, trial)`, so the
//! result is the same with any number of threads.

use crate::arena::{derive_seed, game_rng, GameError, MatchPlan, Opening};
use crate::eval::Weights;
use crate::game::{Color, Outcome, Rules};
use crate::train::{perturb, TrainedPlayer};
use std::fmt;

/// How openings are assessed.
#[derive(Clone, Debug)]
pub struct Assessor {
    /// The game.
    pub rules: Rules,
    /// The player that plays the games (greedy or search), without weights.
    pub player: TrainedPlayer,
    /// The weights the trials' players are drawn around.
    pub reference: Weights,
    /// Trials: pairs of games per opening.
    pub trials: u32,
    /// The perturbation's σ.
    pub sigma: f64,
    /// The seed every trial derives from.
    pub seed: u64,
}

/// What the trials found for one opening.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpeningStats {
    /// Games black won.
    pub black_wins: u32,
    /// Games white won.
    pub white_wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Pairs where each side won with the same colour (1–1).
    pub same_colour: u32,
    /// Pairs with both games drawn (0–0).
    pub both_drawn: u32,
    /// Pairs played.
    pub pairs: u32,
    /// How often the pair went to the trial's stronger player: per pair,
    /// its margin in half points (−2 to 2) from the view of whichever
    /// player scored better over all the trial's openings (0 on a tie).
    pub agreement: i32,
}

impl OpeningStats {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.black_wins + self.white_wins + self.draws
    }

    /// Black's score, 0 to 1 (½ with no games).
    pub fn black_score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            g => (f64::from(self.black_wins) + 0.5 * f64::from(self.draws)) / f64::from(g),
        }
    }

    /// The share of pairs that were neither 1–1 nor 0–0 (0 with no pairs).
    pub fn informative(&self) -> f64 {
        match self.pairs {
            0 => 0.0,
            p => f64::from(p - self.same_colour - self.both_drawn) / f64::from(p),
        }
    }

    /// The mean margin, in games, of the pairs for each trial's stronger
    /// player (−1 to 1): how well the opening tells the better player.
    pub fn discrimination(&self) -> f64 {
        match self.pairs {
            0 => 0.0,
            p => f64::from(self.agreement) / 2.0 / f64::from(p),
        }
    }

    /// Adds another count of the same kind.
    pub fn merge(&mut self, o: &OpeningStats) {
        self.black_wins += o.black_wins;
        self.white_wins += o.white_wins;
        self.draws += o.draws;
        self.same_colour += o.same_colour;
        self.both_drawn += o.both_drawn;
        self.pairs += o.pairs;
        self.agreement += o.agreement;
    }

    /// Counts one pair: the outcomes of the game with A black, then with A
    /// white.
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        for o in [first, second] {
            match o {
                Outcome::Win(Color::Black) => self.black_wins += 1,
                Outcome::Win(Color::White) => self.white_wins += 1,
                Outcome::Draw => self.draws += 1,
            }
        }
        self.pairs += 1;
        match (first, second) {
            (Outcome::Draw, Outcome::Draw) => self.both_drawn += 1,
            (Outcome::Win(a), Outcome::Win(b)) if a == b => self.same_colour += 1,
            _ => {}
        }
    }
}

impl fmt::Display for OpeningStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = |n: u32| 100.0 * f64::from(n) / f64::from(self.pairs.max(1));
        write!(
            f,
            "{} pairs: black scores {:.1}%, 1-1 {:.1}%, 0-0 {:.1}%, informative {:.1}%, discrimination {:+.3}",
            self.pairs,
            100.0 * self.black_score(),
            share(self.same_colour),
            share(self.both_drawn),
            100.0 * self.informative(),
            self.discrimination()
        )
    }
}

/// The seed stream of a trial's two weight sets: `(seed, WEIGHTS, trial)`.
const WEIGHTS: u64 = 1;
/// The seed stream of a trial's games: `(seed, GAMES, trial)`.
const GAMES: u64 = 2;

impl Assessor {
    /// Plays every trial over `openings` and returns each opening's
    /// stats, in order. `on_trial` is called after each trial with the
    /// number done.
    pub fn assess(
        &self,
        openings: &[Opening],
        on_trial: &mut dyn FnMut(u32),
    ) -> Result<Vec<OpeningStats>, GameError> {
        let mut stats = vec![OpeningStats::default(); openings.len()];
        for t in 0..self.trials {
            let mut rng = game_rng(self.seed, &[WEIGHTS, u64::from(t)]);
            let (lo, hi) = (crate::train::MIN_WEIGHT, crate::eval::MAX_WEIGHT);
            let a = perturb(&self.reference, self.sigma, lo, hi, &mut rng);
            let b = perturb(&self.reference, self.sigma, lo, hi, &mut rng);
            let make_a = || self.player.build(a.clone());
            let make_b = || self.player.build(b.clone());
            let seed = derive_seed(self.seed, &[GAMES, u64::from(t)]);
            let report = MatchPlan::new(self.rules, openings, &make_a, &make_b, seed).run(true)?;
            // Games come in match order: each opening's A-black game, then
            // its A-white game.
            let a_score = report.tally.games.score();
            let stronger = if a_score > 0.5 {
                1
            } else if a_score < 0.5 {
                -1
            } else {
                0
            };
            for pair in report.games.chunks_exact(2) {
                let s = &mut stats[pair[0].opening];
                s.add_pair(pair[0].outcome, pair[1].outcome);
                let half_points = |o: Outcome, a: Color| match o {
                    Outcome::Win(c) if c == a => 2,
                    Outcome::Draw => 1,
                    Outcome::Win(_) => 0,
                };
                let margin = half_points(pair[0].outcome, Color::Black)
                    + half_points(pair[1].outcome, Color::White)
                    - 2;
                s.agreement += stronger * margin;
            }
            on_trial(t + 1);
        }
        Ok(stats)
    }
}

/// The stats of a whole book: the sum over its openings.
pub fn total(stats: &[OpeningStats]) -> OpeningStats {
    let mut t = OpeningStats::default();
    for s in stats {
        t.merge(s);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_classified() {
        let mut s = OpeningStats::default();
        let (b, w, d) = (
            Outcome::Win(Color::Black),
            Outcome::Win(Color::White),
            Outcome::Draw,
        );
        s.add_pair(b, b); // 1-1: black won both
        s.add_pair(w, w); // 1-1: white won both
        s.add_pair(d, d); // 0-0
        s.add_pair(b, w); // A won both: informative
        s.add_pair(b, d); // informative
        assert_eq!(
            s,
            OpeningStats {
                black_wins: 4,
                white_wins: 3,
                draws: 3,
                same_colour: 2,
                both_drawn: 1,
                pairs: 5,
                agreement: 0
            }
        );
        assert!((s.informative() - 0.4).abs() < 1e-12);
        assert!((s.black_score() - 5.5 / 10.0).abs() < 1e-12);
    }
}
