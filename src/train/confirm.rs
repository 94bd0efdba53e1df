//! The confirmation match of `--select confirm`.
//!
//! The round robin's scores are noisy, and the challenger with the best of
//! C noisy scores is, more often than not, merely the luckiest: its score
//! overstates its strength (the winner's curse). So under `confirm` the
//! round robin only *nominates* a challenger; it takes over only if it then
//! beats the incumbent on openings that played no part in nominating it.
//!
//! - The openings come from the stream `(seed, CONFIRM, round)` and the
//!   games' tie-breaks from `(seed, CONFIRM_GAMES, round)`, apart from the
//!   round robin's streams.
//! - **SPRT** (the default, `elo0=-5,elo1=5`): openings are played in
//!   batches (each with both colours) and after each batch the pentanomial
//!   GSPRT's log-likelihood ratio is compared with its bounds. Accepting
//!   H1 adopts the challenger; accepting H0, or reaching the most openings
//!   undecided, keeps the incumbent. The games are seeded by opening index,
//!   so the batch size decides only where the test may stop.
//! - **Fixed games** (`--confirm-games N --confirm-threshold 0.55`): N/2
//!   openings with both colours; adopted if the challenger's score
//!   (W + D/2)/N is at least the threshold.

use super::config::{RunConfig, TrainedPlayer};
use super::round::{draw_openings, stream};
use super::TrainError;
use crate::arena::stats::{PairedTally, SprtStatus};
use crate::arena::{derive_seed, game_rng, run_match, MatchReport, Opening};
use crate::eval::Weights;
use crate::players::Player;

/// How a confirmation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfirmVerdict {
    /// The SPRT accepted H1: the challenger is stronger. Adopted.
    AcceptH1,
    /// The SPRT accepted H0: the challenger is not stronger. Rejected.
    AcceptH0,
    /// The SPRT reached the most openings undecided. Rejected.
    Inconclusive,
    /// The fixed-games score reached the threshold. Adopted.
    Pass,
    /// The fixed-games score fell short of the threshold. Rejected.
    Fail,
}

impl ConfirmVerdict {
    /// The word written in `rounds.csv`.
    pub fn as_str(self) -> &'static str {
        match self {
            ConfirmVerdict::AcceptH1 => "accept-h1",
            ConfirmVerdict::AcceptH0 => "accept-h0",
            ConfirmVerdict::Inconclusive => "inconclusive",
            ConfirmVerdict::Pass => "pass",
            ConfirmVerdict::Fail => "fail",
        }
    }

    /// Parses [`ConfirmVerdict::as_str`]'s words.
    pub fn parse(s: &str) -> Option<ConfirmVerdict> {
        Some(match s {
            "accept-h1" => ConfirmVerdict::AcceptH1,
            "accept-h0" => ConfirmVerdict::AcceptH0,
            "inconclusive" => ConfirmVerdict::Inconclusive,
            "pass" => ConfirmVerdict::Pass,
            "fail" => ConfirmVerdict::Fail,
            _ => return None,
        })
    }

    /// Whether the challenger is adopted.
    pub fn passed(self) -> bool {
        matches!(self, ConfirmVerdict::AcceptH1 | ConfirmVerdict::Pass)
    }
}

/// A confirmation match: challenger `candidate` against the incumbent.
#[derive(Clone, Debug, PartialEq)]
pub struct Confirmation {
    /// The challenger's index in the round robin.
    pub candidate: usize,
    /// W/D/L and pentanomial, from the challenger's view.
    pub tally: PairedTally,
    /// The SPRT's log-likelihood ratio when it stopped (None for fixed games).
    pub llr: Option<f64>,
    pub verdict: ConfirmVerdict,
}

impl Confirmation {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.tally.games.games()
    }

    /// Whether the challenger is adopted.
    pub fn passed(&self) -> bool {
        self.verdict.passed()
    }

    /// One phrase: verdict, score, games and LLR.
    pub fn describe(&self) -> String {
        let llr = self.llr.map_or(String::new(), |l| format!(", LLR {l:+.2}"));
        format!(
            "{} ({:.1}% over {} games{llr})",
            self.verdict.as_str(),
            100.0 * self.tally.games.score(),
            self.games()
        )
    }
}

/// The openings a confirmation of round `round` may use (the most it can
/// play), from the stream `(seed, CONFIRM, round)`.
pub fn confirm_openings(cfg: &RunConfig, pool: Option<&[Opening]>, round: u32) -> Vec<Opening> {
    let mut rng = game_rng(cfg.seed, &[stream::CONFIRM, u64::from(round)]);
    let n = cfg.confirm_config().max_openings() as usize;
    draw_openings(cfg, pool, n, &mut rng)
}

/// Plays the confirmation of round `round`: `challenger` (index `candidate`
/// in the round robin) against `incumbent` (see the module documentation).
pub fn confirm(
    cfg: &RunConfig,
    player: &TrainedPlayer,
    incumbent: &Weights,
    candidate: usize,
    challenger: &Weights,
    pool: Option<&[Opening]>,
    round: u32,
) -> Result<Confirmation, TrainError> {
    let cc = cfg.confirm_config();
    let openings = confirm_openings(cfg, pool, round);
    let seed = derive_seed(cfg.seed, &[stream::CONFIRM_GAMES, u64::from(round)]);
    let make_a = || -> Box<dyn Player> { player.build(challenger.clone()) };
    let make_b = || -> Box<dyn Player> { player.build(incumbent.clone()) };
    match cc.sprt {
        Some(sprt) => {
            let batch = cc.batch.max(1) as usize;
            let mut report = MatchReport::default();
            let mut llr = 0.0;
            let mut status = SprtStatus::Continue;
            for (i, chunk) in openings.chunks(batch).enumerate() {
                let part = run_match(cfg.game, chunk, i * batch, &make_a, &make_b, seed, false)?;
                report.merge(part);
                llr = sprt.llr_pentanomial(&report.tally.pairs);
                status = sprt.decide(llr);
                if status != SprtStatus::Continue {
                    break;
                }
            }
            let verdict = match status {
                SprtStatus::AcceptH1 => ConfirmVerdict::AcceptH1,
                SprtStatus::AcceptH0 => ConfirmVerdict::AcceptH0,
                SprtStatus::Continue => ConfirmVerdict::Inconclusive,
            };
            Ok(Confirmation {
                candidate,
                tally: report.tally,
                llr: Some(llr),
                verdict,
            })
        }
        None => {
            let report = run_match(cfg.game, &openings, 0, &make_a, &make_b, seed, false)?;
            let verdict = if report.tally.games.score() >= cc.threshold {
                ConfirmVerdict::Pass
            } else {
                ConfirmVerdict::Fail
            };
            Ok(Confirmation {
                candidate,
                tally: report.tally,
                llr: None,
                verdict,
            })
        }
    }
}
