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
//!
//! Combination weights (the combo model) start at 0, so that round 0 is
//! the shape player, and must be able to leave it. Each is moved in log
//! space shifted by its scale `s`, the incumbent's weight of the
//! combination's anchor shape ([`Combo::anchor`], same side): `w' =
//! (w + s)·exp(σ·z) − s`, clamped to `[0, max]`. From 0 a step is about
//! `±σ·s` (a negative one stays at 0); once `w ≫ s` it is the same
//! relative step as any weight's. The shape weights draw their normals
//! first, in the same order as in the shape model, so a shape model's
//! challengers are unchanged.

use crate::eval::{Combo, Weights, SHAPES};
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
    let scales = combo_scales(incumbent);
    let v: Vec<f64> = incumbent
        .to_vec()
        .into_iter()
        .enumerate()
        .map(|(i, w)| {
            let z = standard_normal(rng);
            match scales.get(i).copied().flatten() {
                Some(s) => ((w + s) * (sigma * z).exp() - s).clamp(0.0, max),
                None if w == 0.0 => 0.0,
                None => (w * (sigma * z).exp()).clamp(min, max),
            }
        })
        .collect();
    // `from_vec` only fails on a length mismatch, impossible here.
    Weights::from_vec(incumbent.game, &v).unwrap_or_else(|| incumbent.clone())
}

/// Per number of [`Weights::to_vec`], the shift of a combination weight
/// (its anchor shape's weight on the same side, at least [`f64::MIN_POSITIVE`]
/// so that a zero anchor still moves it) or `None` for the others. CMA-ES
/// shifts its coordinates by the same scales (`cmaes.rs`).
pub(super) fn combo_scales(w: &Weights) -> Vec<Option<f64>> {
    let n = w.shape_count();
    let mut out = vec![None; 2 + 2 * n];
    let combos = &Combo::WEIGHTED[..w.combo_count()];
    for side in [&w.own, &w.opp] {
        for c in combos {
            let anchor = SHAPES.iter().position(|&s| s == c.anchor());
            let s = anchor.map_or(0.0, |i| side[i]).max(f64::MIN_POSITIVE);
            out.push(Some(s));
        }
    }
    out
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

    /// A combo model's zero combination weights leave 0 about half the
    /// time, on the scale of their anchor shapes, and stay in range; its
    /// shape weights move exactly as the shape model's do.
    #[test]
    fn combination_weights_leave_zero() {
        use crate::eval::Model;
        let shapes = Weights::default_for(Rules::GOMOKU);
        let combo = shapes.clone().with_model(Model::Combo);
        let (mut a, mut b) = (game_rng(3, &[]), game_rng(3, &[]));
        let mut moved = 0;
        for _ in 0..400 {
            let p = perturb(&shapes, 0.3, 1e-3, 1e9, &mut a);
            let c = perturb(&combo, 0.3, 1e-3, 1e9, &mut b);
            // The shape model draws 16 normals, the combo model 26: resync.
            for _ in 0..10 {
                standard_normal(&mut a);
            }
            assert_eq!(c.clone().with_model(Model::Shapes), p);
            let cw = c.combo.unwrap();
            for (i, (&own, &opp)) in cw.own.iter().zip(&cw.opp).enumerate() {
                let anchor = SHAPES
                    .iter()
                    .position(|&s| s == Combo::WEIGHTED[i].anchor())
                    .unwrap();
                // exp(0.3·z) − 1 > 4 needs z > 5.4.
                assert!((0.0..=4.0 * shapes.own[anchor]).contains(&own), "{own}");
                assert!((0.0..=4.0 * shapes.opp[anchor]).contains(&opp), "{opp}");
                moved += usize::from(own > 0.0) + usize::from(opp > 0.0);
            }
        }
        // 400 × 10 weights, each positive with probability ½.
        assert!((1800..2200).contains(&moved), "{moved}");
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
