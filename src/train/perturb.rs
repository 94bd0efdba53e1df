//! Perturbation: how challengers are made from the incumbent.
//!
//! Every tunable number `w` (attack, defence and each shape's own and opp
//! weight) becomes `w × exp(σ·z)` with `z` a standard normal draw, then is
//! clamped to `[min, max]`. The factor is always positive, so a weight
//! keeps its sign and can never overflow; a step of +σ and one of −σ are
//! equally likely in log space, so weights that differ by orders of
//! magnitude move by the same *relative* amount. A weight that is exactly
//! 0 stays 0 (nothing to multiply); the trainer's starting points have no
//! zero weight.

use crate::eval::Weights;
use crate::players::Rng;
use rand::Rng as _;

/// A standard normal draw (Box–Muller over two uniform draws), so the
/// sequence depends only on the generator's seed.
pub fn standard_normal(rng: &mut Rng) -> f64 {
    // u1 in (0, 1] so that ln(u1) is finite.
    let u1 = 1.0 - rng.gen::<f64>();
    let u2 = rng.gen::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A challenger: every weight multiplied by `exp(σ·N(0,1))` and clamped to
/// `[min, max]` (see the module documentation).
pub fn perturb(incumbent: &Weights, sigma: f64, min: f64, max: f64, rng: &mut Rng) -> Weights {
    let v: Vec<f64> = incumbent
        .to_vec()
        .into_iter()
        .map(|w| {
            let z = standard_normal(rng);
            if w == 0.0 {
                0.0
            } else {
                (w * (sigma * z).exp()).clamp(min, max)
            }
        })
        .collect();
    // `from_vec` only fails on a length mismatch, impossible here.
    Weights::from_vec(incumbent.game, &v).unwrap_or_else(|| incumbent.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game_rng;
    use crate::game::Rules;

    #[test]
    fn perturbation_keeps_bounds_and_signs() {
        let w = Weights::default_for(Rules::GOMOKU);
        let mut rng = game_rng(1, &[]);
        for _ in 0..200 {
            let c = perturb(&w, 3.0, 1e-3, 1e9, &mut rng);
            for v in c.to_vec() {
                assert!((1e-3..=1e9).contains(&v), "{v}");
            }
        }
    }

    #[test]
    fn normal_draws_have_unit_variance() {
        let mut rng = game_rng(2, &[]);
        let n = 100_000;
        let xs: Vec<f64> = (0..n).map(|_| standard_normal(&mut rng)).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.02, "{mean}");
        assert!((var - 1.0).abs() < 0.03, "{var}");
    }
}
