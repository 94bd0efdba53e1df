//! Generating a balanced book: draw many distinct random openings, assess
//! them all, keep the most informative.
//!
//! Candidates are random openings of a few stones near the centre (as
//! `mnk match` draws them), distinct up to the board's symmetries, and
//! never with a win on the board or a win in one for either side. They are
//! ranked ([`Rank`]) by how close black's score is to ½ (the default: on
//! fresh players it kept the most informative pairs), or by how often the
//! trial's stronger player won; the best `keep` are the book, best first.

use super::assess::{Assessor, OpeningStats};
use crate::arena::{game_rng, random_opening, GameError, Opening, OpeningStyle};
use rand::Rng as _;
use std::collections::HashSet;
use std::ops::RangeInclusive;

/// How a book is generated.
#[derive(Clone, Debug)]
pub struct Generator {
    /// Plays the trials (its seed also draws the candidates).
    pub assessor: Assessor,
    /// Distinct candidates to draw and assess.
    pub candidates: usize,
    /// Openings to keep.
    pub keep: usize,
    /// Stones per opening, drawn uniformly from this range.
    pub stones: RangeInclusive<usize>,
    /// Stones lie within this Chebyshev distance of the centre.
    pub radius: u8,
    /// What makes a candidate better.
    pub rank: Rank,
}

/// What a book keeps first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rank {
    /// The openings whose pairs most often went to the trial's stronger
    /// player, then the most informative, then the most even.
    Discrimination,
    /// The openings with black's score nearest ½, then the most
    /// informative.
    Balance,
}

impl std::str::FromStr for Rank {
    type Err = String;
    fn from_str(s: &str) -> Result<Rank, String> {
        match s {
            "discrimination" => Ok(Rank::Discrimination),
            "balance" => Ok(Rank::Balance),
            _ => Err(format!("expected discrimination or balance, found {s:?}")),
        }
    }
}

impl std::fmt::Display for Rank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Rank::Discrimination => "discrimination",
            Rank::Balance => "balance",
        })
    }
}

/// A generated book: its openings, best first, and their stats in the
/// assessment that chose them.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The kept openings, best first.
    pub openings: Vec<Opening>,
    /// Their stats in the selecting assessment (optimistic: they were
    /// chosen for them; reassess on another seed for a fair figure).
    pub stats: Vec<OpeningStats>,
    /// Every candidate's stats, in the order drawn.
    pub candidates: Vec<OpeningStats>,
    /// Distinct candidates drawn (fewer than asked when the board has no
    /// more).
    pub drawn: usize,
}

/// The seed stream of the candidates: `(seed, CANDIDATES)`.
const CANDIDATES: u64 = 3;

impl Generator {
    /// Draws `candidates` distinct openings (up to symmetry), in order.
    pub fn draw(&self) -> Vec<Opening> {
        let rules = self.assessor.rules;
        let mut rng = game_rng(self.assessor.seed, &[CANDIDATES]);
        let mut seen = HashSet::new();
        let mut out = Vec::with_capacity(self.candidates);
        // Small boards run out of distinct openings: give up after many
        // draws in a row bring nothing new.
        let mut misses = 0;
        while out.len() < self.candidates && misses < 10_000 {
            let stones = rng.gen_range(self.stones.clone());
            let style = OpeningStyle {
                stones,
                radius: self.radius,
            };
            let o = random_opening(rules, style, &mut rng);
            let key = match o.board(rules) {
                Ok(b) if o.moves.len() == stones => b.canonical_hash(),
                _ => {
                    misses += 1;
                    continue;
                }
            };
            if seen.insert(key) {
                out.push(o);
                misses = 0;
            } else {
                misses += 1;
            }
        }
        out
    }

    /// Draws, assesses and ranks the candidates; keeps the best.
    pub fn generate(&self, on_trial: &mut dyn FnMut(u32)) -> Result<Generated, GameError> {
        let candidates = self.draw();
        let stats = self.assessor.assess(&candidates, on_trial)?;
        let order = rank(&stats, self.rank);
        let kept: Vec<usize> = order.into_iter().take(self.keep).collect();
        Ok(Generated {
            openings: kept.iter().map(|&i| candidates[i].clone()).collect(),
            stats: kept.iter().map(|&i| stats[i]).collect(),
            drawn: candidates.len(),
            candidates: stats,
        })
    }
}

/// The candidates' indices, best first, as `by` says; ties go to the
/// order drawn.
pub fn rank(stats: &[OpeningStats], by: Rank) -> Vec<usize> {
    let mut order: Vec<usize> = (0..stats.len()).collect();
    let uneven = |s: &OpeningStats| (s.black_score() - 0.5).abs();
    order.sort_by(|&i, &j| {
        let (a, b) = (&stats[i], &stats[j]);
        let informative = b.informative().total_cmp(&a.informative());
        match by {
            Rank::Discrimination => b
                .discrimination()
                .total_cmp(&a.discrimination())
                .then(informative)
                .then(uneven(a).total_cmp(&uneven(b))),
            Rank::Balance => uneven(a).total_cmp(&uneven(b)).then(informative),
        }
        .then(i.cmp(&j))
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Color, Outcome};

    #[test]
    fn ranking_by_balance_and_by_discrimination() {
        let (b, w) = (Outcome::Win(Color::Black), Outcome::Win(Color::White));
        let mut s = vec![OpeningStats::default(); 3];
        s[0].add_pair(b, b); // 1-1
        s[0].add_pair(b, w);
        s[1].add_pair(b, w); // informative, black 50%
        s[1].add_pair(w, b);
        // Informative, black 75%.
        s[2] = OpeningStats {
            black_wins: 3,
            white_wins: 1,
            pairs: 2,
            ..OpeningStats::default()
        };
        assert_eq!(rank(&s, Rank::Balance), vec![1, 2, 0]);
        // Opening 0's one informative pair went to the stronger player.
        s[0].agreement = 2;
        assert_eq!(rank(&s, Rank::Discrimination), vec![0, 1, 2]);
    }
}
