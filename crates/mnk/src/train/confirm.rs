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

use super::config::RunConfig;
use super::player::TrainedPlayer;
use super::record::{ConfirmVerdict, Confirmation};
use super::seeds::{confirm_openings, stream};
use super::TrainError;
use crate::arena::sprt_match::{run_sprt_match, SprtOutcome};
use crate::arena::stats::SprtStatus;
use crate::arena::{derive_seed, Opening};
use crate::eval::Weights;

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
    match cc.sprt {
        Some(sprt) => {
            let play = |chunk: &[Opening], first: usize| {
                player.head_to_head(cfg.game, challenger, incumbent, chunk, first, seed)
            };
            let SprtOutcome {
                report,
                llr,
                status,
            } = run_sprt_match(&openings, cc.batch as usize, &sprt, play, |_, _| {})?;
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
            let report =
                player.head_to_head(cfg.game, challenger, incumbent, &openings, 0, seed)?;
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
