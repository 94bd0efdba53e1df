//! A match that stops as soon as a sequential test decides: openings are
//! played in batches, and after each batch the pentanomial GSPRT's
//! log-likelihood ratio is compared with its bounds.
//!
//! Games are seeded by opening index (the caller's `play` numbers a batch's
//! openings from its first index), so a batched match plays the same games
//! as an unbatched one: the batch size decides only where the test may
//! stop.

use super::stats::{SprtParams, SprtStatus};
use super::{MatchReport, Opening};

/// How a batched SPRT match ended.
#[derive(Clone, Debug)]
pub struct SprtOutcome {
    /// Every game played, merged over the batches.
    pub report: MatchReport,
    /// The log-likelihood ratio after the last batch (0 without games).
    pub llr: f64,
    /// The test's decision; [`SprtStatus::Continue`] when the openings ran
    /// out undecided.
    pub status: SprtStatus,
}

/// Plays `openings` in batches of `batch` (at least 1) until `sprt`
/// decides or the openings run out.
///
/// `play(chunk, first)` plays one batch, whose openings are numbered from
/// `first` in the whole match (such as a [`super::MatchPlan`] of the chunk
/// numbered from `first`).
/// `on_batch(report, llr)` sees the merged report and the LLR after every
/// batch (for a progress line).
///
/// ```
/// use mnk_core::arena::sprt_match::run_sprt_match;
/// use mnk_core::arena::{random_openings, game_rng, MatchPlan, OpeningStyle};
/// use mnk_core::arena::stats::{SprtParams, SprtStatus};
/// use mnk_core::game::Rules;
/// use mnk_core::players::{Player, RandomPlayer};
/// let rules = Rules::TICTACTOE;
/// let openings = random_openings(rules, OpeningStyle::default_for(rules), 20, &mut game_rng(1, &[]));
/// let make = || -> Box<dyn Player> { Box::new(RandomPlayer) };
/// let sprt = SprtParams::default();
/// let mut looks = 0;
/// let out = run_sprt_match(
///     &openings,
///     5,
///     &sprt,
///     |chunk, first| MatchPlan::new(rules, chunk, &make, &make, 7).numbered_from(first).run(false),
///     |_, _| looks += 1,
/// )
/// .unwrap();
/// // Every batch of 5 openings is 10 games; the test stops early only on a decision.
/// assert_eq!(out.report.games_played(), 10 * looks);
/// assert!(looks == 4 || out.status != SprtStatus::Continue);
/// ```
pub fn run_sprt_match<E>(
    openings: &[Opening],
    batch: usize,
    sprt: &SprtParams,
    mut play: impl FnMut(&[Opening], usize) -> Result<MatchReport, E>,
    mut on_batch: impl FnMut(&MatchReport, f64),
) -> Result<SprtOutcome, E> {
    let batch = batch.max(1);
    let mut report = MatchReport::default();
    let mut llr = 0.0;
    let mut status = SprtStatus::Continue;
    for (i, chunk) in openings.chunks(batch).enumerate() {
        report.merge(play(chunk, i * batch)?);
        llr = sprt.llr_pentanomial(&report.tally.pairs);
        status = sprt.decide(llr);
        on_batch(&report, llr);
        if status != SprtStatus::Continue {
            break;
        }
    }
    Ok(SprtOutcome {
        report,
        llr,
        status,
    })
}
