//! One training round: challengers, a round robin, and the selection.

use super::config::{RunConfig, TrainedPlayer};
use super::perturb::perturb;
use super::TrainError;
use crate::arena::{derive_seed, game_rng, random_openings, round_robin, stats::Tally, Opening};
use crate::eval::Weights;
use crate::players::Player;
use rand::seq::SliceRandom;

/// Seed streams: each kind of random choice has its own, so that adding
/// one never shifts another.
pub(crate) mod stream {
    /// The challengers' perturbations of round r: `(seed, PERTURB, r)`.
    pub const PERTURB: u64 = 1;
    /// The training openings of round r: `(seed, OPENINGS, r)`.
    pub const OPENINGS: u64 = 2;
    /// The games' tie-breaks of round r: `(seed, GAMES, r)`.
    pub const GAMES: u64 = 3;
    /// The fixed check openings of a large-board run: `(seed, CHECK)`.
    pub const CHECK: u64 = 4;
    /// The check games' tie-breaks: `(seed, CHECK_GAMES)`.
    pub const CHECK_GAMES: u64 = 5;
    /// The closing verdict's openings and games: `(seed, VERDICT)`.
    pub const VERDICT: u64 = 6;
    /// The search player's root tie-breaks in exact checks.
    pub const EXACT_CHECK: u64 = 7;
}

/// Why the round's champion was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Round 0: the starting weights.
    Start,
    /// The incumbent has the best score alone.
    IncumbentBest,
    /// The incumbent shares the best score with a challenger and is kept.
    IncumbentTied,
    /// One challenger has the best score alone.
    ChallengerBest,
    /// Several challengers share the best score, above the incumbent; the
    /// lowest-numbered one wins.
    ChallengerTied,
}

impl Reason {
    /// The word written in `rounds.csv`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Start => "start",
            Reason::IncumbentBest => "incumbent-best",
            Reason::IncumbentTied => "incumbent-tied",
            Reason::ChallengerBest => "challenger-best",
            Reason::ChallengerTied => "challenger-tied",
        }
    }

    /// Parses [`Reason::as_str`]'s words.
    pub fn parse(s: &str) -> Option<Reason> {
        Some(match s {
            "start" => Reason::Start,
            "incumbent-best" => Reason::IncumbentBest,
            "incumbent-tied" => Reason::IncumbentTied,
            "challenger-best" => Reason::ChallengerBest,
            "challenger-tied" => Reason::ChallengerTied,
            _ => return None,
        })
    }
}

/// The result of a round: what `rounds.csv` records.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundResult {
    /// 0 for the start, then 1, 2, …
    pub round: u32,
    /// The perturbation's σ this round (0 in round 0).
    pub sigma: f64,
    /// Games played.
    pub games: u64,
    /// Plies played over all games.
    pub plies: u64,
    /// W/D/L of every player over the whole round robin: index 0 is the
    /// incumbent, 1..=C the challengers.
    pub tallies: Vec<Tally>,
    /// Index of the player that becomes the incumbent.
    pub champion: usize,
    pub reason: Reason,
    /// The new incumbent.
    pub weights: Weights,
}

impl RoundResult {
    /// Wins minus losses of player `i`.
    pub fn score(&self, i: usize) -> i64 {
        score(&self.tallies[i])
    }

    /// The start row (round 0).
    pub fn start(weights: Weights, players: usize) -> RoundResult {
        RoundResult {
            round: 0,
            sigma: 0.0,
            games: 0,
            plies: 0,
            tallies: vec![Tally::default(); players],
            champion: 0,
            reason: Reason::Start,
            weights,
        }
    }

    /// A sentence saying who won and why.
    pub fn describe(&self) -> String {
        let best = self.score(self.champion);
        match self.reason {
            Reason::Start => "the starting weights".into(),
            Reason::IncumbentBest => format!("incumbent kept: best score {best:+}"),
            Reason::IncumbentTied => {
                format!("incumbent kept: ties the best score {best:+}")
            }
            Reason::ChallengerBest => format!(
                "challenger {} takes over: {best:+} against the incumbent's {:+}",
                self.champion,
                self.score(0)
            ),
            Reason::ChallengerTied => format!(
                "challenger {} takes over: {best:+} (tied with another challenger; lowest number wins) against the incumbent's {:+}",
                self.champion,
                self.score(0)
            ),
        }
    }
}

/// A player's score in the round robin: wins minus losses.
pub fn score(t: &Tally) -> i64 {
    t.wins as i64 - t.losses as i64
}

/// Picks the champion: the best score; on a tie the incumbent (index 0)
/// stays, and among tied challengers the lowest index wins.
pub fn select(tallies: &[Tally]) -> (usize, Reason) {
    let scores: Vec<i64> = tallies.iter().map(score).collect();
    let best = scores.iter().copied().max().unwrap_or(0);
    let tied: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] == best).collect();
    match (tied.first(), tied.len()) {
        (Some(0), 1) => (0, Reason::IncumbentBest),
        (Some(0), _) => (0, Reason::IncumbentTied),
        (Some(&i), 1) => (i, Reason::ChallengerBest),
        (Some(&i), _) => (i, Reason::ChallengerTied),
        (None, _) => (0, Reason::IncumbentBest),
    }
}

/// The openings of round `round`: `G` random openings from the stream
/// `(seed, OPENINGS, round)`, or, when the run has an openings file, `G` of
/// its openings chosen by a shuffle from that stream (all of them, in file
/// order, when it has at most `G`).
pub fn round_openings(cfg: &RunConfig, pool: Option<&[Opening]>, round: u32) -> Vec<Opening> {
    let mut rng = game_rng(cfg.seed, &[stream::OPENINGS, u64::from(round)]);
    let g = cfg.openings as usize;
    match pool {
        Some(pool) if pool.len() <= g => pool.to_vec(),
        Some(pool) => pool.choose_multiple(&mut rng, g).cloned().collect(),
        None => random_openings(cfg.game, cfg.opening_style(), g, &mut rng),
    }
}

/// Plays round `round` (≥ 1) from `incumbent`: makes the challengers,
/// plays the round robin over rayon, and selects the champion. The result
/// depends only on the configuration, the round number and the incumbent,
/// never on the thread count.
pub fn play_round(
    cfg: &RunConfig,
    player: &TrainedPlayer,
    incumbent: &Weights,
    pool: Option<&[Opening]>,
    round: u32,
) -> Result<RoundResult, TrainError> {
    let sigma = cfg.sigma_at(round);
    let mut rng = game_rng(cfg.seed, &[stream::PERTURB, u64::from(round)]);
    let mut players = vec![incumbent.clone()];
    for _ in 0..cfg.challengers {
        players.push(perturb(
            incumbent,
            sigma,
            cfg.min_weight,
            cfg.max_weight,
            &mut rng,
        ));
    }
    let n = players.len();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let openings = round_openings(cfg, pool, round);
    let make = |k: usize| -> Box<dyn Player> { player.build(players[k].clone()) };
    let report = round_robin(
        cfg.game,
        n,
        &pairs,
        &openings,
        &make,
        derive_seed(cfg.seed, &[stream::GAMES, u64::from(round)]),
    )?;
    let tallies = report.per_player(n);
    let (champion, reason) = select(&tallies);
    Ok(RoundResult {
        round,
        sigma,
        games: report.games,
        plies: report.plies,
        tallies,
        champion,
        reason,
        weights: players.swap_remove(champion),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_keeps_the_incumbent_on_ties() {
        let t = |w, l| Tally::new(w, 0, l);
        assert_eq!(select(&[t(5, 1), t(3, 3)]), (0, Reason::IncumbentBest));
        assert_eq!(select(&[t(5, 1), t(4, 0)]), (0, Reason::IncumbentTied));
        assert_eq!(select(&[t(1, 5), t(4, 0)]), (1, Reason::ChallengerBest));
        assert_eq!(
            select(&[t(1, 5), t(0, 1), t(4, 0), t(5, 1)]),
            (2, Reason::ChallengerTied)
        );
    }
}
