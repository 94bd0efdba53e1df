//! One random-search round: challengers, a round robin (or a gauntlet),
//! and the selection (with a confirmation match under `confirm`).
//!
//! # Selection modes
//!
//! - `best`: every pair of the C + 1 players plays G openings (both
//!   colours); the best wins − losses takes over, the incumbent staying on
//!   a tie ([`select`]).
//! - `confirm`: as `best`, but a challenger that would take over must then
//!   beat the incumbent in a confirmation match on fresh openings
//!   ([`super::confirm`]); it is adopted only if the confirmation passes.
//! - `gauntlet`: only the C pairings (incumbent, challenger i) are played,
//!   each over ⌊G·(C+1)/2⌋ openings (the same games per round as `best`);
//!   the challenger with the best wins − losses against the incumbent takes
//!   over if that is above 0 ([`select_gauntlet`]).

use super::config::{Optimizer, RunConfig, Select, TrainedPlayer};
use super::confirm::{confirm, Confirmation};
use super::perturb::perturb;
use super::spsa::SpsaStep;
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
    /// The confirmation openings of round r: `(seed, CONFIRM, r)`.
    pub const CONFIRM: u64 = 8;
    /// The confirmation games' tie-breaks of round r: `(seed, CONFIRM_GAMES, r)`.
    pub const CONFIRM_GAMES: u64 = 9;
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
    /// `confirm`: the round robin's winning challenger passed the
    /// confirmation match and takes over.
    Confirmed,
    /// `confirm`: the round robin's winning challenger failed the
    /// confirmation match; the incumbent stays.
    NotConfirmed,
    /// An SPSA step: θ moved along the step's gradient estimate.
    SpsaStep,
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
            Reason::Confirmed => "confirmed",
            Reason::NotConfirmed => "not-confirmed",
            Reason::SpsaStep => "spsa-step",
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
            "confirmed" => Reason::Confirmed,
            "not-confirmed" => Reason::NotConfirmed,
            "spsa-step" => Reason::SpsaStep,
            _ => return None,
        })
    }
}

/// The result of a round (a random-search round or an SPSA step): what
/// `rounds.csv` records.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundResult {
    /// 0 for the start, then 1, 2, …
    pub round: u32,
    /// The optimiser that played this round.
    pub optimizer: Optimizer,
    /// The selection mode of a random-search round.
    pub select: Select,
    /// The perturbation's σ this round (0 in round 0 and SPSA steps).
    pub sigma: f64,
    /// Games played in the round robin (SPSA: between θ+ and θ−), not
    /// counting a confirmation match.
    pub games: u64,
    /// Plies played over those games.
    pub plies: u64,
    /// W/D/L of every player over the whole round robin: index 0 is the
    /// incumbent, 1..=C the challengers (empty for SPSA steps).
    pub tallies: Vec<Tally>,
    /// Index of the player that becomes the incumbent (0 for SPSA steps).
    pub champion: usize,
    pub reason: Reason,
    /// The confirmation match, if one was played.
    pub confirm: Option<Confirmation>,
    /// The SPSA step, for SPSA rounds.
    pub spsa: Option<SpsaStep>,
    /// The new incumbent (SPSA: θ after the step).
    pub weights: Weights,
}

impl RoundResult {
    /// Wins minus losses of player `i` (0 if there is no such player).
    pub fn score(&self, i: usize) -> i64 {
        self.tallies.get(i).map_or(0, score)
    }

    /// Every game of the round: the round robin or SPSA step plus the
    /// confirmation match.
    pub fn total_games(&self) -> u64 {
        self.games + self.confirm.as_ref().map_or(0, |c| c.games())
    }

    /// The start row (round 0).
    pub fn start(cfg: &RunConfig, weights: Weights) -> RoundResult {
        RoundResult {
            round: 0,
            optimizer: cfg.optimizer,
            select: cfg.select,
            sigma: 0.0,
            games: 0,
            plies: 0,
            tallies: vec![Tally::default(); cfg.challengers as usize + 1],
            champion: 0,
            reason: Reason::Start,
            confirm: None,
            spsa: None,
            weights,
        }
    }

    /// A sentence saying who won and why.
    pub fn describe(&self) -> String {
        let best = self.score(self.champion);
        if self.select == Select::Gauntlet && self.reason != Reason::Start {
            let (top, _) = best_challenger(&self.tallies);
            return match self.reason {
                Reason::IncumbentBest => format!(
                    "incumbent kept: every challenger lost to it (best {:+})",
                    self.score(top)
                ),
                Reason::IncumbentTied => {
                    format!("incumbent kept: the best challenger only drew level ({:+})", self.score(top))
                }
                Reason::ChallengerTied => format!(
                    "challenger {} takes over: {best:+} against the incumbent (tied with another challenger; lowest number wins)",
                    self.champion
                ),
                _ => format!(
                    "challenger {} takes over: {best:+} against the incumbent",
                    self.champion
                ),
            };
        }
        match self.reason {
            Reason::SpsaStep => match &self.spsa {
                Some(s) => s.describe(),
                None => "SPSA step".into(),
            },
            Reason::Confirmed | Reason::NotConfirmed => {
                let c = self.confirm.as_ref();
                let what = c.map_or(String::new(), |c| c.describe());
                let cand = c.map_or(0, |c| c.candidate);
                if self.reason == Reason::Confirmed {
                    format!(
                        "challenger {cand} takes over: {:+} in the round robin, confirmed: {what}",
                        self.score(cand)
                    )
                } else {
                    format!(
                        "incumbent kept: challenger {cand} won the round robin ({:+}) but failed the confirmation: {what}",
                        self.score(cand)
                    )
                }
            }
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

/// The challenger with the best wins − losses (lowest index among ties)
/// and whether it shares that score with another challenger; `(0, false)`
/// without challengers.
pub fn best_challenger(tallies: &[Tally]) -> (usize, bool) {
    let mut best: Option<(usize, i64)> = None;
    let mut tied = false;
    for (i, t) in tallies.iter().enumerate().skip(1) {
        let s = score(t);
        match best {
            Some((_, b)) if s < b => {}
            Some((_, b)) if s == b => tied = true,
            _ => {
                best = Some((i, s));
                tied = false;
            }
        }
    }
    (best.map_or(0, |(i, _)| i), tied)
}

/// Picks the champion of a gauntlet (every challenger played only the
/// incumbent): the challenger with the best wins − losses against the
/// incumbent takes over if that is above 0 (lowest index among ties);
/// otherwise the incumbent stays (`IncumbentTied` if the best challenger
/// scored exactly 0).
pub fn select_gauntlet(tallies: &[Tally]) -> (usize, Reason) {
    let (i, tied) = best_challenger(tallies);
    if i == 0 {
        return (0, Reason::IncumbentBest);
    }
    let s = score(&tallies[i]);
    match (s.cmp(&0), tied) {
        (std::cmp::Ordering::Greater, false) => (i, Reason::ChallengerBest),
        (std::cmp::Ordering::Greater, true) => (i, Reason::ChallengerTied),
        (std::cmp::Ordering::Equal, _) => (0, Reason::IncumbentTied),
        (std::cmp::Ordering::Less, _) => (0, Reason::IncumbentBest),
    }
}

/// `n` openings for round `round` from the stream `(seed, OPENINGS,
/// round)`: random ones, or, when the run has an openings file, `n` of its
/// openings chosen by a shuffle from that stream (all of them, in file
/// order, when it has at most `n`).
pub fn round_openings(
    cfg: &RunConfig,
    pool: Option<&[Opening]>,
    round: u32,
    n: usize,
) -> Vec<Opening> {
    let mut rng = game_rng(cfg.seed, &[stream::OPENINGS, u64::from(round)]);
    draw_openings(cfg, pool, n, &mut rng)
}

/// `n` openings drawn with `rng` (see [`round_openings`]).
pub(crate) fn draw_openings(
    cfg: &RunConfig,
    pool: Option<&[Opening]>,
    n: usize,
    rng: &mut crate::players::Rng,
) -> Vec<Opening> {
    match pool {
        Some(pool) if pool.len() <= n => pool.to_vec(),
        Some(pool) => pool.choose_multiple(rng, n).cloned().collect(),
        None => random_openings(cfg.game, cfg.opening_style(), n, rng),
    }
}

/// Plays random-search round `round` (≥ 1) from `incumbent`: makes the
/// challengers, plays the round robin (or gauntlet) over rayon, selects
/// the champion and, under `confirm`, plays the confirmation match. The
/// result depends only on the configuration, the round number and the
/// incumbent, never on the thread count.
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
    let pairs = cfg.pairings();
    let openings = round_openings(cfg, pool, round, cfg.openings_per_pairing() as usize);
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
    let (mut champion, mut reason) = match cfg.select {
        Select::Gauntlet => select_gauntlet(&tallies),
        Select::Best | Select::Confirm => select(&tallies),
    };
    let mut confirmation = None;
    if cfg.select == Select::Confirm && champion != 0 {
        let c = confirm(
            cfg,
            player,
            incumbent,
            champion,
            &players[champion],
            pool,
            round,
        )?;
        (champion, reason) = if c.passed() {
            (champion, Reason::Confirmed)
        } else {
            (0, Reason::NotConfirmed)
        };
        confirmation = Some(c);
    }
    Ok(RoundResult {
        round,
        optimizer: Optimizer::Random,
        select: cfg.select,
        sigma,
        games: report.games,
        plies: report.plies,
        tallies,
        champion,
        reason,
        confirm: confirmation,
        spsa: None,
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

    #[test]
    fn gauntlet_adopts_only_a_challenger_that_beat_the_incumbent() {
        let t = |w, l| Tally::new(w, 0, l);
        // The incumbent's tally (index 0) is the sum of its games; only the
        // challengers' own results against it count.
        assert_eq!(
            select_gauntlet(&[t(9, 3), t(1, 5), t(2, 4)]),
            (0, Reason::IncumbentBest)
        );
        assert_eq!(
            select_gauntlet(&[t(6, 4), t(1, 5), t(3, 3)]),
            (0, Reason::IncumbentTied)
        );
        assert_eq!(
            select_gauntlet(&[t(6, 8), t(1, 5), t(5, 1)]),
            (2, Reason::ChallengerBest)
        );
        assert_eq!(
            select_gauntlet(&[t(2, 10), t(5, 1), t(5, 1)]),
            (1, Reason::ChallengerTied)
        );
        assert_eq!(select_gauntlet(&[t(2, 10)]), (0, Reason::IncumbentBest));
    }
}
