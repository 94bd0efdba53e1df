//! Generating a balanced book: draw many distinct random openings, assess
//! them all, keep the most informative.
//!
//! Candidates are random openings of a few stones near the centre (as
//! `mnk match` draws them), distinct up to the board's symmetries, and
//! never with a win on the board or a win in one for either side. They are
//! ranked by their share of informative pairs, then by how close black's
//! score is to ½, then by the order they were drawn; the best `keep` are
//! the book, best first.

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
        let order = rank(&stats);
        let kept: Vec<usize> = order.into_iter().take(self.keep).collect();
        Ok(Generated {
            openings: kept.iter().map(|&i| candidates[i].clone()).collect(),
            stats: kept.iter().map(|&i| stats[i]).collect(),
            drawn: candidates.len(),
            candidates: stats,
        })
    }
}

/// The candidates' indices, best first: most informative pairs, then
/// black's score nearest ½, then the order drawn.
pub fn rank(stats: &[OpeningStats]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..stats.len()).collect();
    order.sort_by(|&i, &j| {
        let (a, b) = (&stats[i], &stats[j]);
        b.discrimination()
            .total_cmp(&a.discrimination())
            .then(b.informative().total_cmp(&a.informative()))
            .then(
                (a.black_score() - 0.5)
                    .abs()
                    .total_cmp(&(b.black_score() - 0.5).abs()),
            )
            .then(i.cmp(&j))
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Color, Outcome};

    #[test]
    fn ranking_prefers_informative_then_even() {
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
        assert_eq!(rank(&s), vec![1, 2, 0]);
    }
}
