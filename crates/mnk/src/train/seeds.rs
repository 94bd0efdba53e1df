//! Where a run's randomness comes from: the seed streams and the opening
//! draws. Every random choice derives from `(seed, stream, round)`
//! ([`crate::arena::derive_seed`]), so a run is a pure function of its
//! configuration whatever the thread count.

use super::config::RunConfig;
use crate::arena::{game_rng, Opening};
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
        None => cfg.random_openings(n, rng),
    }
}

/// The openings a confirmation of round `round` may use (the most it can
/// play), from the stream `(seed, CONFIRM, round)`.
pub fn confirm_openings(cfg: &RunConfig, pool: Option<&[Opening]>, round: u32) -> Vec<Opening> {
    let mut rng = game_rng(cfg.seed, &[stream::CONFIRM, u64::from(round)]);
    let n = cfg.confirm_config().max_openings() as usize;
    draw_openings(cfg, pool, n, &mut rng)
}
