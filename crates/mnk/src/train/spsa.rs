//! SPSA (simultaneous perturbation stochastic approximation), the tuner
//! fishtest uses, on the weights in log-space.
//!
//! θ is the vector of `ln w` over every weight (attack, defence, each
//! shape's own and opp weight; a weight of exactly 0 stays 0). Step k
//! (k = 0, 1, … counts the run's SPSA steps; it is played as round k + 1 of
//! a pure SPSA run):
//!
//! 1. the gains are `a_k = a / (A + k + 1)^α` and `c_k = c / (k + 1)^γ`;
//! 2. a sign `δᵢ = ±1` per weight is drawn from the stream
//!    `(seed, PERTURB, round)`;
//! 3. `θ± = θ ± c_k·δ` (clamped to `[ln min_weight, ln max_weight]`) play
//!    a paired match of `openings` openings from `(seed, OPENINGS, round)`,
//!    each with both colours;
//! 4. with `d = (W − L)/N` the score difference of θ+ over θ− (its score
//!    minus θ−'s, in −1…1), every weight moves by `θᵢ ← θᵢ + a_k·d·δᵢ`,
//!    clamped to the bounds.
//!
//! The classic SPSA gradient estimate is `d/(2·c_k·δᵢ)`; here the
//! `1/(2c_k)` is folded into `a` (with ±1 signs `1/δᵢ = δᵢ`), so `a_k·d` is
//! directly the log-space step: `a_k = 0.02` and `d = 0.05` move every
//! weight by a factor `e^(±0.001)`.
//!
//! A step depends only on the configuration, the round number, k and θ,
//! and θ is stored in `rounds.csv` exactly (the weights, whose logarithm is
//! taken afresh each step), so a resumed run is identical to an
//! uninterrupted one.

use super::config::{Optimizer, RunConfig};
use super::player::TrainedPlayer;
use super::record::{Reason, RoundResult, SpsaStep};
use super::seeds::{round_openings, stream};
use super::TrainError;
use crate::arena::{derive_seed, game_rng, Opening};
use crate::eval::Weights;
use rand::Rng as _;

/// The signs δ of the step of round `round`: one ±1 per weight, in
/// [`Weights::to_vec`] order.
pub fn signs(cfg: &RunConfig, round: u32, n: usize) -> Vec<f64> {
    let mut rng = game_rng(cfg.seed, &[stream::PERTURB, u64::from(round)]);
    (0..n)
        .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
        .collect()
}

/// `w·e^x` computed as `exp(ln w + x)`, clamped to `[min, max]` (also
/// after the rounding of `exp`), keeping 0 at 0.
fn shift(w: f64, x: f64, min: f64, max: f64) -> f64 {
    if w == 0.0 {
        0.0
    } else {
        (w.ln() + x).clamp(min.ln(), max.ln()).exp().clamp(min, max)
    }
}

/// θ moved by `step·δᵢ` in log-space, clamped to the run's weight bounds.
fn moved(theta: &Weights, cfg: &RunConfig, step: f64, delta: &[f64]) -> Weights {
    let v: Vec<f64> = theta
        .to_vec()
        .iter()
        .zip(delta)
        .map(|(&w, &d)| shift(w, step * d, cfg.min_weight, cfg.max_weight))
        .collect();
    Weights::from_vec(theta.game, &v).unwrap_or_else(|| theta.clone())
}

/// θ+ and θ− of a step with signs `delta` and perturbation `c_k`.
pub fn perturbed(cfg: &RunConfig, theta: &Weights, delta: &[f64], c_k: f64) -> (Weights, Weights) {
    (
        moved(theta, cfg, c_k, delta),
        moved(theta, cfg, -c_k, delta),
    )
}

/// The index k of the next SPSA step after `rounds`: the number of SPSA
/// steps among them.
pub fn next_k(rounds: &[RoundResult]) -> u32 {
    rounds
        .iter()
        .rev()
        .find_map(|r| r.spsa.as_ref())
        .map_or(0, |s| s.k + 1)
}

/// Plays the SPSA step of round `round` (≥ 1), the `k`-th SPSA step of the
/// run, from θ = `theta`.
pub fn play_step(
    cfg: &RunConfig,
    player: &TrainedPlayer,
    theta: &Weights,
    pool: Option<&[Opening]>,
    round: u32,
    k: u32,
) -> Result<RoundResult, TrainError> {
    let sc = cfg.spsa_config();
    let (a_k, c_k) = (sc.a_k(k), sc.c_k(k));
    let delta = signs(cfg, round, theta.to_vec().len());
    let (plus, minus) = perturbed(cfg, theta, &delta, c_k);
    let openings = round_openings(cfg, pool, round, sc.openings as usize);
    let seed = derive_seed(cfg.seed, &[stream::GAMES, u64::from(round)]);
    let report = player.head_to_head(cfg.game, &plus, &minus, &openings, 0, seed)?;
    let step = SpsaStep {
        k,
        a_k,
        c_k,
        tally: report.tally,
    };
    let weights = moved(theta, cfg, a_k * step.score_diff(), &delta);
    Ok(RoundResult {
        round,
        optimizer: Optimizer::Spsa,
        select: cfg.select,
        sigma: 0.0,
        games: report.tally.games.games(),
        plies: report.plies,
        tallies: Vec::new(),
        champion: 0,
        reason: Reason::SpsaStep,
        confirm: None,
        spsa: Some(step),
        cmaes: None,
        weights,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    #[test]
    fn gains_follow_the_standard_schedule() {
        let mut cfg = RunConfig::spsa_defaults(Rules::GOMOKU);
        cfg.spsa = Some(crate::train::SpsaConfig {
            a: 2.0,
            c: 0.2,
            big_a: 100.0,
            alpha: 0.602,
            gamma: 0.101,
            openings: 10,
        });
        let s = cfg.spsa_config();
        assert!((s.a_k(0) - 2.0 / 101f64.powf(0.602)).abs() < 1e-15);
        assert!((s.c_k(0) - 0.2).abs() < 1e-15);
        assert!((s.c_k(9) - 0.2 / 10f64.powf(0.101)).abs() < 1e-15);
        assert!(s.a_k(1000) < s.a_k(10));
    }

    #[test]
    fn perturbations_are_symmetric_in_log_space_and_bounded() {
        let mut cfg = RunConfig::spsa_defaults(Rules::GOMOKU);
        cfg.max_weight = 2e7;
        let w = crate::eval::shipped_weights(Rules::GOMOKU);
        let delta = signs(&cfg, 3, w.to_vec().len());
        let (p, m) = perturbed(&cfg, &w, &delta, 0.2);
        for ((x, a), b) in w.to_vec().iter().zip(p.to_vec()).zip(m.to_vec()) {
            if *x * 0.2f64.exp() <= 2e7 {
                let r = (a / x).ln();
                assert!((r.abs() - 0.2).abs() < 1e-9, "{x} {a}");
                assert!(((b / x).ln() + r).abs() < 1e-9, "{x} {a} {b}");
            } else {
                assert!(a <= 2e7);
            }
        }
        // Signs come from (seed, round) alone.
        assert_eq!(signs(&cfg, 3, 16), signs(&cfg, 3, 16));
        assert_ne!(signs(&cfg, 3, 16), signs(&cfg, 4, 16));
    }
}
