//! One random-search round: challengers, a round robin (or a gauntlet),
//! and the selection (with a confirmation match under `confirm`).
//!
//! # Selection modes
//!
//! - `best`: every pair of the C + 1 players plays G openings (both
//!   colours); the best wins − losses takes over, the incumbent staying on
//!   a tie ([`select`]).
//! - `best-beats` (the default of new runs): as `best`, but the champion
//!   must also have beaten the incumbent in their own pairing: more wins
//!   than losses over their 2G games, and a pentanomial z-score (score
//!   above ½ over its standard error) above `beats_z` (2 in new runs on
//!   large boards, 0 in runs made before it); otherwise the incumbent
//!   stays ([`select_beating`]). The round robin's total rewards beating
//!   the other challengers too, so a challenger that crushes weak
//!   siblings can top the table while losing to the incumbent; and a
//!   challenger level with the incumbent wins more than it loses half the
//!   time, so without the margin the incumbent random-walks among equals.
//!   The rule costs no games, the pairing being part of the round robin.
//! - `confirm`: as `best`, but a challenger that would take over must then
//!   beat the incumbent in a confirmation match on fresh openings
//!   ([`super::confirm`]); it is adopted only if the confirmation passes.
//! - `gauntlet`: only the C pairings (incumbent, challenger i) are played,
//!   each over ⌊G·(C+1)/2⌋ openings (the same games per round as `best`);
//!   the challenger with the best wins − losses against the incumbent takes
//!   over if that is above 0 ([`select_gauntlet`]).

use super::config::{Optimizer, RunConfig, Select};
use super::confirm::confirm;
use super::perturb::perturb;
use super::player::TrainedPlayer;
use super::record::{best_challenger, score, Reason, RoundResult};
use super::seeds::{round_openings, stream};
use super::TrainError;
use crate::arena::stats::{PairedTally, Pentanomial, Tally};
use crate::arena::{derive_seed, game_rng, round_robin, Opening};
use crate::eval::Weights;
use crate::players::Player;

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

/// Picks the champion under `best-beats`: the champion of [`select`] is
/// adopted only if it beat the incumbent in their own pairing,
/// `against_incumbent[champion]` (challenger i's results against the
/// incumbent, from i's view; index 0 is not read): more wins than losses,
/// and a z-score (`pairing_z`) above `beats_z` (0: the wins alone decide, the rule
/// of runs made before the margin). A champion that fell short leaves the
/// incumbent in place ([`Reason::LostPairing`]).
pub fn select_beating(
    tallies: &[Tally],
    against_incumbent: &[PairedTally],
    beats_z: f64,
) -> (usize, Reason) {
    let (champion, reason) = select(tallies);
    let beats = |i: usize| {
        against_incumbent.get(i).is_some_and(|t| {
            score(&t.games) > 0 && (beats_z <= 0.0 || pairing_z(&t.pairs) > beats_z)
        })
    };
    if champion != 0 && !beats(champion) {
        return (0, Reason::LostPairing);
    }
    (champion, reason)
}

/// How far a pairing's score is above ½, in standard errors of the mean
/// pair score: `(s − ½) / √(v / n)` over its n pairs, with `s` and `v` the
/// pentanomial score and pair variance. ±∞ when every pair scored the
/// same on one side of ½, 0 with no pairs or at exactly ½.
fn pairing_z(p: &Pentanomial) -> f64 {
    let n = p.pairs();
    let lead = p.score() - 0.5;
    if n == 0 || lead == 0.0 {
        return 0.0;
    }
    let se = (p.pair_variance() / n as f64).sqrt();
    if se > 0.0 {
        lead / se
    } else {
        lead.signum() * f64::INFINITY
    }
}

/// Each player's results against the incumbent (index 0) over the round
/// robin's pairings `(0, i)`, from player i's view; index 0 is empty.
fn against_incumbent(report: &crate::arena::RoundRobinReport, n: usize) -> Vec<PairedTally> {
    let mut out = vec![PairedTally::default(); n];
    for &((i, j), t) in &report.pairs {
        if i == 0 {
            out[j].merge(&t.reversed());
        }
    }
    out
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

/// Plays random-search round `round` (≥ 1) from `incumbent` with the
/// perturbation's `sigma` (the schedule's, [`super::SigmaSchedule`]): makes the
/// challengers, plays the round robin (or gauntlet) over rayon, selects
/// the champion and, under `confirm`, plays the confirmation match. The
/// result depends only on the configuration, the round number, σ and the
/// incumbent, never on the thread count.
pub fn play_round(
    cfg: &RunConfig,
    player: &TrainedPlayer,
    incumbent: &Weights,
    pool: Option<&[Opening]>,
    round: u32,
    sigma: f64,
) -> Result<RoundResult, TrainError> {
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
        Select::BestBeats => {
            select_beating(&tallies, &against_incumbent(&report, n), cfg.beats_z())
        }
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
        cmaes: None,
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

    /// A pairing from the challenger's view: `w` wins and `l` losses, and
    /// its pairs in the five pentanomial bins.
    fn pairing(w: u64, l: u64, bins: [u64; 5]) -> PairedTally {
        PairedTally {
            games: Tally::new(w, 0, l),
            pairs: Pentanomial::new(bins),
        }
    }

    #[test]
    fn best_beats_keeps_the_incumbent_when_the_top_total_lost_its_pairing() {
        let t = |w, l| Tally::new(w, 0, l);
        // Games only (no pairs): the rule of runs made before the margin.
        let p = |w, l| pairing(w, l, [0; 5]);
        let none = PairedTally::default();
        // Seed 4's round 95 in small: challenger 2 tops the round robin by
        // crushing the other challengers, yet loses to the incumbent.
        let totals = [t(60, 40), t(30, 70), t(75, 45), t(35, 65)];
        let vs_incumbent = [none, p(8, 12), p(9, 11), p(10, 10)];
        assert_eq!(select(&totals), (2, Reason::ChallengerBest));
        assert_eq!(
            select_beating(&totals, &vs_incumbent, 0.0),
            (0, Reason::LostPairing)
        );
        // A drawn pairing (as many wins as losses) does not beat it either.
        let level = [none, p(8, 12), p(10, 10), p(10, 10)];
        assert_eq!(
            select_beating(&totals, &level, 0.0),
            (0, Reason::LostPairing)
        );
        // Won: the top total takes over, with select's reason.
        let won = [none, p(8, 12), p(11, 9), p(10, 10)];
        assert_eq!(
            select_beating(&totals, &won, 0.0),
            (2, Reason::ChallengerBest)
        );
        // The incumbent on top stays whatever the pairings say.
        let kept = [t(80, 20), t(30, 70), t(75, 45), t(35, 65)];
        assert_eq!(select_beating(&kept, &won, 2.0), (0, Reason::IncumbentBest));
        // Among tied challengers the lowest index is the one that must win.
        let tied = [t(40, 60), t(70, 40), t(70, 40), t(20, 60)];
        let first_won = [none, p(6, 4), p(4, 6), p(5, 5)];
        let first_lost = [none, p(4, 6), p(6, 4), p(5, 5)];
        assert_eq!(
            select_beating(&tied, &first_won, 0.0),
            (1, Reason::ChallengerTied)
        );
        assert_eq!(
            select_beating(&tied, &first_lost, 0.0),
            (0, Reason::LostPairing)
        );
    }

    #[test]
    fn best_beats_with_a_margin_needs_the_pairing_z_above_it() {
        let t = |w, l| Tally::new(w, 0, l);
        let none = PairedTally::default();
        let totals = [t(60, 40), t(30, 70), t(75, 45), t(35, 65)];
        // 2,000 pairs, 60% of them 1-1 and 20 more won 2-0 than lost 0-2:
        // more wins than losses (the old rule adopts it), z = 0.71, well
        // within the noise of a challenger level with the incumbent.
        let close = pairing(2015, 1975, [385, 5, 1200, 5, 405]);
        let z = pairing_z(&close.pairs);
        assert!(z > 0.6 && z < 0.8, "z = {z}");
        let with = |c: PairedTally| [none, pairing(0, 1, [1, 0, 0, 0, 0]), c, none];
        assert_eq!(
            select_beating(&totals, &with(close), 0.0),
            (2, Reason::ChallengerBest)
        );
        assert_eq!(
            select_beating(&totals, &with(close), 2.0),
            (0, Reason::LostPairing)
        );
        // 60 more pairs won than lost: z = 2.13, adopted at 2, not above.
        let clear = pairing(2055, 1935, [365, 5, 1200, 5, 425]);
        let z = pairing_z(&clear.pairs);
        assert!(z > 2.1 && z < 2.2, "z = {z}");
        assert_eq!(
            select_beating(&totals, &with(clear), 2.0),
            (2, Reason::ChallengerBest)
        );
        assert_eq!(
            select_beating(&totals, &with(clear), z),
            (0, Reason::LostPairing)
        );
        // The z-score by hand: s = 0.515, v = E[x^2] - s^2 over the pairs.
        let s = (5.0 * 0.25 + 1200.0 * 0.5 + 5.0 * 0.75 + 425.0) / 2000.0;
        let m2 = (5.0 * 0.0625 + 1200.0 * 0.25 + 5.0 * 0.5625 + 425.0) / 2000.0;
        let want = (s - 0.5) / ((m2 - s * s) / 2000.0_f64).sqrt();
        assert!((pairing_z(&clear.pairs) - want).abs() < 1e-9);
        // Every pair alike: infinitely sure either way, 0 at ½ or none.
        assert_eq!(pairing_z(&Pentanomial::new([0, 0, 0, 0, 7])), f64::INFINITY);
        assert_eq!(
            pairing_z(&Pentanomial::new([7, 0, 0, 0, 0])),
            f64::NEG_INFINITY
        );
        assert_eq!(pairing_z(&Pentanomial::new([0, 0, 7, 0, 0])), 0.0);
        assert_eq!(pairing_z(&Pentanomial::default()), 0.0);
        // More wins than losses is still needed whatever the pairs say.
        let odd = pairing(3, 5, [0, 0, 0, 0, 7]);
        assert_eq!(
            select_beating(&totals, &with(odd), 2.0),
            (0, Reason::LostPairing)
        );
    }

    #[test]
    fn against_incumbent_reads_the_pairings_with_player_0_from_the_other_side() {
        let report = crate::arena::RoundRobinReport {
            pairs: vec![
                ((0, 1), pairing(7, 3, [1, 0, 2, 0, 3])),
                ((0, 2), pairing(2, 9, [4, 1, 0, 0, 0])),
                ((1, 2), pairing(1, 1, [0, 0, 1, 0, 0])),
            ],
            ..Default::default()
        };
        let v = against_incumbent(&report, 3);
        assert_eq!(v[0], PairedTally::default());
        assert_eq!((v[1].games.wins, v[1].games.losses), (3, 7));
        assert_eq!(v[1].pairs, Pentanomial::new([3, 0, 2, 0, 1]));
        assert_eq!((v[2].games.wins, v[2].games.losses), (9, 2));
        assert_eq!(v[2].pairs, Pentanomial::new([0, 0, 0, 1, 4]));
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
