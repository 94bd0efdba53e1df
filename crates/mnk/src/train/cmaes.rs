//! CMA-ES (the covariance matrix adaptation evolution strategy) on the
//! weights in log-space, with self-play as its noisy fitness.
//!
//! The mean `m` is `ln w` over every non-zero weight (a weight of exactly
//! 0 stays 0); the incumbent is always `e^m`. Generation g (round r):
//!
//! 1. λ candidates `x_k = m + σ·B·D·z_k`, with `z_k` standard normal
//!    draws from the stream `(seed, PERTURB, r)` and `C = B·D²·Bᵀ`; when
//!    mirrored, only the first ⌈λ/2⌉ are drawn and candidate ⌈λ/2⌉ + i
//!    uses `−z_i`;
//! 2. every candidate plays the incumbent (or, with `opponent = "start"`,
//!    the run's round-0 weights: a fixed opponent) over the same
//!    `openings` openings from `(seed, OPENINGS, r)`, each with both
//!    colours and the same tie-break seed `(seed, GAMES, r)`: paired
//!    games, so the ranking compares candidates on equal terms;
//! 3. ranked by wins − losses (ties: the lower index first), the best
//!    μ = ⌊λ/2⌋ move the mean by `c_m·σ·y_w`, and σ, the paths `p_σ`,
//!    `p_c` and `C` adapt as in Hansen's tutorial ("The CMA Evolution
//!    Strategy: A Tutorial", 2016, the default parameters with positive
//!    weights only; its eq. 9 for `c_m`).
//!
//! Why mirrored pairs and `c_m` = 0.5 by default: the fitness is noisy
//! (2,000 games tell a candidate from the mean to about ±14 Elo, the size
//! of the differences the ranking must find), so much of the mean's step
//! is a random walk. Mirrored pairs are antithetic draws: a pair selected
//! together cancels, so selection by noise moves the mean less, while a
//! real slope still ranks `m + σ·y` above `m − σ·y`. A mean learning rate
//! below 1 is the rescaled mutation of noisy evolution strategies (Beyer,
//! Arnold): candidates explore at σ, where their differences are large
//! enough to rank, and the mean takes a shorter step. Both measured on
//! gomoku in `docs/training.md`. Runs made before them keep independent
//! draws and `c_m` = 1 (their `run.toml` has neither key).
//!
//! The mean is clamped to `[ln min_weight, ln max_weight]` after each
//! step, so the incumbent stays in the weight bounds.
//!
//! The combo model's combination weights start at 0, which no log-space
//! step leaves. Their coordinate is the shifted log `x = ln(w + s)`, so
//! `w = eˣ − s` clamped to `[0, max_weight]`, with `s` the weight of the
//! combination's anchor shape (same side) where the strategy starts, as
//! random search's perturbation shifts it (`perturb.rs`): from 0 a step
//! of σ is about `±σ·s` (about half the candidates keep 0), far above `s`
//! it is the usual relative step. `s` is fixed for the strategy's life
//! (a fixed map from coordinates to weights), and the mean's coordinate
//! is clamped to `[ln s, ln(max_weight + s)]`. Every other weight keeps
//! the plain `ln w` coordinate and its arithmetic, so a shape-model run
//! is unchanged to the bit.
//!
//! Why a fixed opponent as well: against the mean, a candidate is
//! rewarded for beating the current mean, and the mean moves with the
//! candidates, so the run can settle where no nearby candidate beats the
//! mean without that point beating much else (`docs/training.md`
//! measures it on gomoku's combo model). Against the start the fitness
//! does not move. The replay needs neither: the tallies are recorded.
//!
//! Why `fixed_scales` and `sigma_max`: `attack` multiplies every own
//! weight and `defence` every opponent's weight, so each is a direction
//! the per-side weights already span (`attack × a` with the own weights
//! divided by `a` plays the same). Along such a direction the ranking is
//! noise, and the mean of a run against the start drifted along one until
//! weights met their bounds while σ grew (`docs/training.md`, seed 2).
//! `fixed_scales` leaves both out of the space; `sigma_max` caps σ after
//! each generation (an infinite cap, the default, leaves σ's bits as they
//! were). Runs made before them have neither and replay unchanged.
//!
//! Why not the `cmaes` crate: it drives the objective itself and keeps
//! its state (paths, covariance) private, so a run could not be stopped
//! and resumed exactly. Here the state is never stored: it is *replayed*
//! from `rounds.csv`, which records every candidate's result
//! ([`replay`]), and the replay repeats the live run's arithmetic
//! operation for operation, so a resumed run (or another rank of a job)
//! holds the same state to the bit. The eigendecomposition is nalgebra's
//! `SymmetricEigen`, which is sequential and deterministic.

use super::config::{CmaesConfig, CmaesOpponent, Optimizer, RunConfig};
use super::perturb::{combo_scales, standard_normal};
use super::player::TrainedPlayer;
use super::record::{CmaesGen, Reason, RoundResult};
use super::seeds::{round_openings, stream};
use super::TrainError;
use crate::arena::{derive_seed, game_rng, stats::Tally, Opening};
use crate::eval::Weights;
use crate::players::Rng;
use nalgebra::{DMatrix, DVector, SymmetricEigen};

/// The strategy's constants for `n` dimensions and λ candidates.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Dimensions.
    pub n: usize,
    /// Candidates per generation.
    pub lambda: usize,
    /// Recombination weights of the best μ = ⌊λ/2⌋, summing to 1.
    pub weights: Vec<f64>,
    /// The variance-effective selection mass `1/Σwᵢ²`.
    pub mueff: f64,
    /// `p_σ`'s learning rate.
    pub cs: f64,
    /// σ's damping.
    pub ds: f64,
    /// `p_c`'s learning rate.
    pub cc: f64,
    /// The rank-one update's learning rate.
    pub c1: f64,
    /// The rank-μ update's learning rate.
    pub cmu: f64,
    /// E‖N(0, I)‖.
    pub chi_n: f64,
    /// The mean's learning rate `c_m` (1 in the tutorial's defaults).
    pub cm: f64,
    /// Whether the candidates come in mirrored pairs.
    pub mirrored: bool,
    /// The cap on σ after each generation (infinite: none, as in the
    /// tutorial).
    pub sigma_max: f64,
}

impl Params {
    /// The tutorial's defaults (`c_m` = 1, independent draws).
    pub fn new(n: usize, lambda: usize) -> Params {
        let nf = n as f64;
        let half = (lambda as f64 + 1.0) / 2.0;
        let raw: Vec<f64> = (1..=lambda / 2)
            .map(|i| half.ln() - (i as f64).ln())
            .collect();
        let sum: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / sum).collect();
        let mueff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let cs = (mueff + 2.0) / (nf + mueff + 5.0);
        let ds = 1.0 + 2.0 * (((mueff - 1.0) / (nf + 1.0)).sqrt() - 1.0).max(0.0) + cs;
        let cc = (4.0 + mueff / nf) / (nf + 4.0 + 2.0 * mueff / nf);
        let c1 = 2.0 / ((nf + 1.3).powi(2) + mueff);
        let cmu = (1.0 - c1).min(2.0 * (mueff - 2.0 + 1.0 / mueff) / ((nf + 2.0).powi(2) + mueff));
        let chi_n = nf.sqrt() * (1.0 - 1.0 / (4.0 * nf) + 1.0 / (21.0 * nf * nf));
        Params {
            n,
            lambda,
            weights,
            mueff,
            cs,
            ds,
            cc,
            c1,
            cmu,
            chi_n,
            cm: 1.0,
            mirrored: false,
            sigma_max: f64::INFINITY,
        }
    }
}

/// The strategy's state: mean, step size, covariance (with its
/// eigendecomposition) and the two evolution paths.
#[derive(Clone, Debug, PartialEq)]
pub struct Cmaes {
    /// The constants.
    pub params: Params,
    /// The mean.
    pub mean: DVector<f64>,
    /// The step size σ.
    pub sigma: f64,
    /// The covariance matrix C.
    pub cov: DMatrix<f64>,
    /// C's eigenvectors (columns).
    b: DMatrix<f64>,
    /// The square roots of C's eigenvalues.
    d: DVector<f64>,
    /// The step-size path `p_σ`.
    pub ps: DVector<f64>,
    /// The covariance path `p_c`.
    pub pc: DVector<f64>,
    /// Generations told so far.
    pub generation: u32,
}

impl Cmaes {
    /// A fresh strategy at `mean` with step size `sigma`, C = I.
    pub fn new(mean: Vec<f64>, sigma: f64, lambda: usize) -> Cmaes {
        let n = mean.len();
        Cmaes {
            params: Params::new(n, lambda),
            mean: DVector::from_vec(mean),
            sigma,
            cov: DMatrix::identity(n, n),
            b: DMatrix::identity(n, n),
            d: DVector::from_element(n, 1.0),
            ps: DVector::zeros(n),
            pc: DVector::zeros(n),
            generation: 0,
        }
    }

    /// λ standard normal vectors for a generation, drawn in order
    /// (candidate by candidate, coordinate by coordinate); when mirrored,
    /// the first ⌈λ/2⌉ are drawn and the rest are the first ⌊λ/2⌋ negated.
    pub fn draw(&self, rng: &mut Rng) -> Vec<DVector<f64>> {
        let (n, lambda) = (self.params.n, self.params.lambda);
        let drawn = if self.params.mirrored {
            lambda.div_ceil(2)
        } else {
            lambda
        };
        let mut zs: Vec<DVector<f64>> = (0..drawn)
            .map(|_| DVector::from_iterator(n, (0..n).map(|_| standard_normal(rng))))
            .collect();
        let mirrors: Vec<DVector<f64>> = zs[..lambda - drawn].iter().map(|z| -z).collect();
        zs.extend(mirrors);
        zs
    }

    /// `B·D·z`: a draw shaped by the covariance.
    fn shape(&self, z: &DVector<f64>) -> DVector<f64> {
        &self.b * z.component_mul(&self.d)
    }

    /// The candidate of draw `z`: `m + σ·B·D·z`.
    pub fn candidate(&self, z: &DVector<f64>) -> DVector<f64> {
        &self.mean + self.shape(z) * self.sigma
    }

    /// Tells the strategy the ranking of the draws `zs` (`order`: indices
    /// best first) and moves it to the next generation.
    pub fn tell(&mut self, zs: &[DVector<f64>], order: &[usize]) {
        let p = self.params.clone();
        let n = p.n;
        let mut zw = DVector::zeros(n);
        let mut yw = DVector::zeros(n);
        let mut rank_mu = DMatrix::zeros(n, n);
        for (w, &i) in p.weights.iter().zip(order) {
            let y = self.shape(&zs[i]);
            zw += &zs[i] * *w;
            yw += &y * *w;
            rank_mu += (&y * y.transpose()) * *w;
        }
        self.mean += &yw * (p.cm * self.sigma);
        // The paths take (m' − m)/(c_m·σ) = y_w, and C^(-1/2)·y_w = B·z_w.
        self.ps =
            &self.ps * (1.0 - p.cs) + (&self.b * &zw) * (p.cs * (2.0 - p.cs) * p.mueff).sqrt();
        let norm = self.ps.norm();
        let fade = 1.0 - (1.0 - p.cs).powi(2 * (self.generation as i32 + 1));
        let hsig = norm / fade.sqrt() / p.chi_n < 1.4 + 2.0 / (n as f64 + 1.0);
        let h = if hsig { 1.0 } else { 0.0 };
        self.pc = &self.pc * (1.0 - p.cc) + &yw * (h * (p.cc * (2.0 - p.cc) * p.mueff).sqrt());
        let c1a = p.c1 * (1.0 - (1.0 - h * h) * p.cc * (2.0 - p.cc));
        let rank_one = &self.pc * self.pc.transpose();
        self.cov = &self.cov * (1.0 - c1a - p.cmu) + rank_one * p.c1 + rank_mu * p.cmu;
        self.sigma *= ((p.cs / p.ds) * (norm / p.chi_n - 1.0)).exp();
        // `min` with an infinite cap leaves σ's bits as they were.
        self.sigma = self.sigma.min(p.sigma_max);
        self.generation += 1;
        self.decompose();
    }

    /// B and D from C, made exactly symmetric first.
    fn decompose(&mut self) {
        self.cov = (&self.cov + self.cov.transpose()) * 0.5;
        let eig = SymmetricEigen::new(self.cov.clone());
        self.d = eig.eigenvalues.map(|v| v.max(1e-30).sqrt());
        self.b = eig.eigenvectors;
    }
}

/// The ranking of a generation's candidates by wins − losses, best first,
/// the lower index first on a tie.
pub fn ranking(tallies: &[Tally]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..tallies.len()).collect();
    order.sort_by_key(|&i| (-super::record::score(&tallies[i]), i));
    order
}

/// Where the strategy's coordinates live: per coordinate, the index of
/// its weight in [`Weights::to_vec`] and, for a combination weight, the
/// shift `s` of its shifted log `ln(w + s)` (see the module
/// documentation). Fixed when the strategy starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Space {
    /// The weights moved: every combination weight, and every other
    /// weight that is not 0 (a 0 shape weight stays 0), but `attack` and
    /// `defence` when the run holds them fixed.
    index: Vec<usize>,
    /// Per coordinate, `Some(s)` for a combination weight.
    shift: Vec<Option<f64>>,
}

impl Space {
    /// The space of a strategy starting at `w`; with `fixed_scales`,
    /// without `attack` and `defence` ([`Weights::to_vec`]'s first two).
    pub fn of(w: &Weights, fixed_scales: bool) -> Space {
        let shifts = combo_scales(w);
        let held = if fixed_scales { 2 } else { 0 };
        let (index, shift) = w
            .to_vec()
            .iter()
            .enumerate()
            .filter(|&(i, &x)| i >= held && (x != 0.0 || shifts[i].is_some()))
            .map(|(i, _)| (i, shifts[i]))
            .unzip();
        Space { index, shift }
    }

    /// The coordinates of `w`.
    fn point(&self, w: &Weights) -> Vec<f64> {
        let v = w.to_vec();
        self.index
            .iter()
            .zip(&self.shift)
            .map(|(&i, s)| match s {
                None => v[i].ln(),
                Some(s) => (v[i] + s).ln(),
            })
            .collect()
    }

    /// The weights at point `x`, over `like` (its weights outside the
    /// space stay as they are), clamped to the run's bounds.
    fn weights_at(&self, cfg: &RunConfig, like: &Weights, x: &DVector<f64>) -> Weights {
        let mut v = like.to_vec();
        let (lo, hi) = (cfg.min_weight.ln(), cfg.max_weight.ln());
        for (k, (&i, s)) in self.index.iter().zip(&self.shift).enumerate() {
            v[i] = match s {
                None => x[k]
                    .clamp(lo, hi)
                    .exp()
                    .clamp(cfg.min_weight, cfg.max_weight),
                // At or below ln s (where a clamped mean sits) exactly 0,
                // whatever the rounding of e^(ln s) − s.
                Some(s) if x[k] <= s.ln() => 0.0,
                Some(s) => (x[k].exp() - s).clamp(0.0, cfg.max_weight),
            };
        }
        Weights::from_vec(like.game, &v).unwrap_or_else(|| like.clone())
    }

    /// Clamps a mean to the weight bounds: `[ln min, ln max]`, or
    /// `[ln s, ln(max + s)]` (weights 0 to max) for a shifted coordinate.
    fn clamp(&self, cfg: &RunConfig, mean: &mut DVector<f64>) {
        let (lo, hi) = (cfg.min_weight.ln(), cfg.max_weight.ln());
        for (m, s) in mean.iter_mut().zip(&self.shift) {
            *m = match s {
                None => m.clamp(lo, hi),
                Some(s) => m.clamp(s.ln(), (cfg.max_weight + s).ln()),
            };
        }
    }
}

/// A running strategy and the space it searches.
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy {
    /// The strategy in its coordinates.
    pub cmaes: Cmaes,
    /// Its coordinates' map to weights.
    pub space: Space,
}

/// A fresh strategy at the weights `w` with the run's settings.
pub fn start(cfg: &CmaesConfig, w: &Weights) -> Strategy {
    let space = Space::of(w, cfg.fixed_scales);
    let mean = space.point(w);
    let mut cmaes = Cmaes::new(mean, cfg.sigma, cfg.lambda as usize);
    cmaes.params.cm = cfg.mean_rate;
    cmaes.params.mirrored = cfg.mirrored;
    if let Some(max) = cfg.sigma_max {
        cmaes.params.sigma_max = max;
    }
    Strategy { cmaes, space }
}

/// The generation's draws for round `round`.
fn draws(cfg: &RunConfig, state: &Cmaes, round: u32) -> Vec<DVector<f64>> {
    let mut rng = game_rng(cfg.seed, &[stream::PERTURB, u64::from(round)]);
    state.draw(&mut rng)
}

/// Tells `state` the results of a generation and clamps its mean to the
/// weight bounds.
fn advance(cfg: &RunConfig, state: &mut Strategy, zs: &[DVector<f64>], tallies: &[Tally]) {
    state.cmaes.tell(zs, &ranking(tallies));
    state.space.clamp(cfg, &mut state.cmaes.mean);
}

/// Plays generation `round` (≥ 1) of `state`, whose mean is the
/// incumbent `incumbent`, and moves `state` on. The candidates play the
/// incumbent, or `start` (the run's round 0) when the run's `opponent`
/// is the start.
pub fn play_generation(
    cfg: &RunConfig,
    player: &TrainedPlayer,
    state: &mut Strategy,
    (incumbent, start): (&Weights, &Weights),
    pool: Option<&[Opening]>,
    round: u32,
) -> Result<RoundResult, TrainError> {
    let cc = cfg.cmaes_config();
    let opponent = match cc.opponent {
        CmaesOpponent::Mean => incumbent,
        CmaesOpponent::Start => start,
    };
    let (generation, sigma) = (state.cmaes.generation, state.cmaes.sigma);
    let zs = draws(cfg, &state.cmaes, round);
    let openings = round_openings(cfg, pool, round, cc.openings as usize);
    let seed = derive_seed(cfg.seed, &[stream::GAMES, u64::from(round)]);
    let (mut games, mut plies, mut tallies) = (0, 0, Vec::new());
    for z in &zs {
        let candidate = state
            .space
            .weights_at(cfg, incumbent, &state.cmaes.candidate(z));
        let report = player.head_to_head(cfg.game, &candidate, opponent, &openings, 0, seed)?;
        games += report.tally.games.games();
        plies += report.plies;
        tallies.push(report.tally.games);
    }
    advance(cfg, state, &zs, &tallies);
    Ok(RoundResult {
        round,
        optimizer: Optimizer::Cmaes,
        select: cfg.select,
        sigma: 0.0,
        games,
        plies,
        tallies: Vec::new(),
        champion: 0,
        reason: Reason::CmaesGeneration,
        confirm: None,
        spsa: None,
        cmaes: Some(CmaesGen {
            generation,
            sigma,
            tallies,
        }),
        weights: state.space.weights_at(cfg, incumbent, &state.cmaes.mean),
    })
}

/// The strategy after `rounds` (round 0 first), replayed from the
/// recorded results: `None` when the last round is not a CMA-ES
/// generation (the next one starts afresh at the incumbent). A
/// generation that follows another optimiser's round starts afresh at
/// that round's weights. Every replayed mean must give its row's weights
/// exactly; otherwise the rows do not follow from `run.toml`, and the
/// error says which round.
pub fn replay(cfg: &RunConfig, rounds: &[RoundResult]) -> Result<Option<Strategy>, String> {
    let cc = cfg.cmaes_config();
    let mut state: Option<Strategy> = None;
    for pair in rounds.windows(2) {
        let (prev, r) = (&pair[0], &pair[1]);
        let Some(g) = &r.cmaes else {
            state = None;
            continue;
        };
        let s = state.get_or_insert_with(|| start(&cc, &prev.weights));
        let c = &s.cmaes;
        if c.generation != g.generation || c.sigma != g.sigma || g.tallies.len() != c.params.lambda
        {
            return Err(format!(
                "round {}: CMA-ES generation {} with σ {} does not follow from run.toml and the earlier rounds (generation {}, σ {} expected)",
                r.round, g.generation, g.sigma, c.generation, c.sigma
            ));
        }
        let zs = draws(cfg, c, r.round);
        advance(cfg, s, &zs, &g.tallies);
        if s.space.weights_at(cfg, &prev.weights, &s.cmaes.mean) != r.weights {
            return Err(format!(
                "round {}: the CMA-ES mean replayed from run.toml and the earlier rounds is not the row's weights",
                r.round
            ));
        }
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// The first generation from m = 0, σ = 0.5, C = I in 2 dimensions
    /// with λ = 4, against values worked out by hand from the tutorial's
    /// formulas (μ = 2, w = (0.80416…, 0.19583…)).
    #[test]
    fn the_first_generation_matches_the_hand_computed_update() {
        let mut s = Cmaes::new(vec![0.0, 0.0], 0.5, 4);
        let p = &s.params;
        assert!(close(p.weights[0], 0.8041628599327295));
        assert!(close(p.weights[1], 0.19583714006727054));
        assert!(close(p.mueff, 1.4597898888525862));
        assert!(close(p.cs, 0.4089687727837697));
        assert!(close(p.ds, 1.4089687727837696));
        assert!(close(p.cc, 0.6340520329526083));
        assert!(close(p.c1, 0.16194607503446515));
        assert!(close(p.cmu, 0.016588971631321035));
        assert!(close(p.chi_n, 1.254272742818995));
        let v = |a: f64, b: f64| DVector::from_vec(vec![a, b]);
        let zs = [v(1.0, 0.0), v(0.0, 1.0), v(-1.0, 0.0), v(0.0, -1.0)];
        // Candidate 1 best, then 0, 3, 2.
        s.tell(&zs, &[1, 0, 3, 2]);
        assert!(close(s.mean[0], 0.09791857003363527));
        assert!(close(s.mean[1], 0.40208142996636476));
        assert!(close(s.ps[0], 0.19086428063771693));
        assert!(close(s.ps[1], 0.7837428882177647));
        assert!(close(s.pc[0], 0.22020124067499805));
        assert!(close(s.pc[1], 0.9042087695986323));
        assert!(close(s.cov[(0, 0)], 0.8325662263457576));
        assert!(close(s.cov[(0, 1)], 0.032244741762700764));
        assert!(close(s.cov[(1, 0)], 0.03224474176270076));
        assert!(close(s.cov[(1, 1)], 0.9672112463444336));
        assert!(close(s.sigma, 0.45079825601536017));
        assert_eq!(s.generation, 1);
    }

    /// With `c_m` = 0.5 the first generation's mean moves half as far as
    /// the hand-computed one above, and the paths, C and σ are the same:
    /// they take (m' − m)/(c_m·σ), which is y_w whatever c_m is.
    #[test]
    fn the_mean_rate_scales_only_the_mean_step() {
        let v = |a: f64, b: f64| DVector::from_vec(vec![a, b]);
        let zs = [v(1.0, 0.0), v(0.0, 1.0), v(-1.0, 0.0), v(0.0, -1.0)];
        let mut full = Cmaes::new(vec![0.0, 0.0], 0.5, 4);
        let mut half = full.clone();
        half.params.cm = 0.5;
        full.tell(&zs, &[1, 0, 3, 2]);
        half.tell(&zs, &[1, 0, 3, 2]);
        assert!(close(half.mean[0], 0.09791857003363527 / 2.0));
        assert!(close(half.mean[1], 0.40208142996636476 / 2.0));
        assert_eq!(
            (&half.ps, &half.pc, &half.cov, half.sigma),
            (&full.ps, &full.pc, &full.cov, full.sigma)
        );
    }

    /// Mirrored draws: the first ⌈λ/2⌉ as independent draws would give
    /// them, then the first ⌊λ/2⌋ negated (an odd λ leaves the last
    /// drawn one unpaired); the stream is left after ⌈λ/2⌉ draws.
    #[test]
    fn mirrored_draws_are_the_first_half_negated() {
        for lambda in [2, 7, 10] {
            let plain = Cmaes::new(vec![0.0; 3], 0.3, lambda);
            let mut mirrored = plain.clone();
            mirrored.params.mirrored = true;
            let (mut a, mut b) = (Rng::seed_from_u64(9), Rng::seed_from_u64(9));
            let zs = mirrored.draw(&mut b);
            let independent = plain.draw(&mut a);
            let drawn = lambda.div_ceil(2);
            assert_eq!(zs.len(), lambda);
            assert_eq!(zs[..drawn], independent[..drawn]);
            for i in 0..lambda / 2 {
                assert_eq!(zs[drawn + i], -&zs[i], "λ {lambda}, pair {i}");
            }
            let mut c = Rng::seed_from_u64(9);
            for _ in 0..drawn * 3 {
                standard_normal(&mut c);
            }
            assert_eq!(standard_normal(&mut b), standard_normal(&mut c));
        }
    }

    /// On a noiseless, ill-scaled quadratic in 16 dimensions (the weights'
    /// count) the mean reaches the optimum within 1e-6 in a bounded number
    /// of generations, σ shrinks, and the covariance learns the scaling.
    #[test]
    fn it_converges_on_a_noiseless_quadratic() {
        let n = 16;
        let target: Vec<f64> = (0..n).map(|i| (i as f64 - 7.5) / 10.0).collect();
        let scale: Vec<f64> = (0..n).map(|i| 10f64.powf(i as f64 / 15.0)).collect();
        let f = |x: &DVector<f64>| -> f64 {
            (0..n).map(|i| scale[i] * (x[i] - target[i]).powi(2)).sum()
        };
        let mut s = Cmaes::new(vec![0.0; n], 0.3, 10);
        let mut rng = Rng::seed_from_u64(5);
        let mut gens = 0;
        while (0..n)
            .map(|i| (s.mean[i] - target[i]).abs())
            .fold(0.0, f64::max)
            > 1e-6
        {
            let zs = s.draw(&mut rng);
            let fx: Vec<f64> = zs.iter().map(|z| f(&s.candidate(z))).collect();
            let mut order: Vec<usize> = (0..zs.len()).collect();
            order.sort_by(|&a, &b| fx[a].total_cmp(&fx[b]).then(a.cmp(&b)));
            s.tell(&zs, &order);
            gens += 1;
            assert!(gens <= 1500, "not converged after {gens} generations");
        }
        assert!(s.sigma < 1e-4, "σ = {}", s.sigma);
        // The covariance follows the inverse Hessian: the steepest axis
        // (scale 10) has the smallest variance, the flattest (1) the largest.
        assert!(s.cov[(n - 1, n - 1)] < s.cov[(0, 0)]);
        // The same draws give the same run, to the bit.
        let mut again = Cmaes::new(vec![0.0; n], 0.3, 10);
        let mut rng = Rng::seed_from_u64(5);
        for _ in 0..gens {
            let zs = again.draw(&mut rng);
            let fx: Vec<f64> = zs.iter().map(|z| f(&again.candidate(z))).collect();
            let mut order: Vec<usize> = (0..zs.len()).collect();
            order.sort_by(|&a, &b| fx[a].total_cmp(&fx[b]).then(a.cmp(&b)));
            again.tell(&zs, &order);
        }
        assert_eq!(again, s);
    }

    /// A shape model's coordinates are its non-zero weights' logs, as
    /// before the combo model; a combo model adds its combination weights
    /// (0 included) in the shifted log, which maps back exactly, keeps
    /// candidates below the shift at 0, and moves a 0 on the anchor's scale.
    #[test]
    fn combination_weights_get_a_shifted_log_coordinate() {
        use crate::eval::{Combo, Model, SHAPES};
        use crate::game::Rules;
        let mut cfg = RunConfig::cmaes_defaults(Rules::GOMOKU);
        cfg.min_weight = 1e-6;
        let mut shapes = Weights::default_for(Rules::GOMOKU);
        shapes.own[0] = 0.0;
        let space = Space::of(&shapes, false);
        let v = shapes.to_vec();
        assert_eq!(space.index.len(), v.len() - 1, "the zero weight stays out");
        assert!(space.shift.iter().all(Option::is_none));
        let x = DVector::from_vec(space.point(&shapes));
        assert_eq!(x[0], v[0].ln());
        let back = space.weights_at(&cfg, &shapes, &x).to_vec();
        for (a, b) in back.iter().zip(&v) {
            assert!((a - b).abs() <= 1e-12 * b, "{a} {b}");
        }

        let combo = shapes.clone().with_model(Model::Combo);
        let space = Space::of(&combo, false);
        let n = combo.combo_count();
        assert_eq!(space.index.len(), v.len() - 1 + 2 * n);
        let x = DVector::from_vec(space.point(&combo));
        let back = space.weights_at(&cfg, &combo, &x).combo.unwrap();
        assert!(
            back.own.iter().chain(&back.opp).all(|&w| w == 0.0),
            "0 maps back to 0"
        );
        let k = space.index.len() - 1; // opp_combo of the last combination
        let anchor = SHAPES
            .iter()
            .position(|&s| s == Combo::WEIGHTED[n - 1].anchor())
            .unwrap();
        let scale = combo.opp[anchor];
        assert_eq!(space.shift[k], Some(scale));
        assert_eq!(x[k], scale.ln());
        let at = |step: f64| {
            let mut y = x.clone();
            y[k] += step;
            space.weights_at(&cfg, &combo, &y).combo.unwrap().opp[n - 1]
        };
        assert_eq!(at(-0.3), 0.0, "a step down keeps 0");
        let up = at(0.3);
        assert!(
            (up - scale * (0.3f64.exp() - 1.0)).abs() <= 1e-9 * scale,
            "{up}"
        );
        // The mean's coordinate is clamped to weights 0 to max_weight.
        let mut m = x.clone();
        m[k] -= 5.0;
        m[0] = -1e3;
        space.clamp(&cfg, &mut m);
        assert_eq!((m[k], m[0]), (scale.ln(), cfg.min_weight.ln()));
    }

    /// Ranked by one coordinate (a slope), σ grows generation after
    /// generation; with a cap it stops at the cap, and the rest of the
    /// state is the uncapped run's until σ first differs.
    #[test]
    fn sigma_max_caps_the_step_size() {
        let mut free = Cmaes::new(vec![0.0; 4], 0.3, 6);
        let mut capped = free.clone();
        capped.params.sigma_max = 0.4;
        let (mut a, mut b) = (Rng::seed_from_u64(3), Rng::seed_from_u64(3));
        let slope = |s: &Cmaes, zs: &[DVector<f64>]| {
            let mut order: Vec<usize> = (0..zs.len()).collect();
            let x: Vec<f64> = zs.iter().map(|z| s.candidate(z)[0]).collect();
            order.sort_by(|&i, &j| x[j].total_cmp(&x[i]).then(i.cmp(&j)));
            order
        };
        for _ in 0..20 {
            let zs = free.draw(&mut a);
            let order = slope(&free, &zs);
            free.tell(&zs, &order);
            let zs = capped.draw(&mut b);
            let order = slope(&capped, &zs);
            capped.tell(&zs, &order);
            assert!(capped.sigma <= 0.4);
        }
        assert!(free.sigma > 1.0, "σ did not grow: {}", free.sigma);
        assert_eq!(capped.sigma, 0.4);
        // A cap above σ changes nothing, to the bit.
        let mut first = Cmaes::new(vec![0.0; 4], 0.3, 6);
        let mut high = first.clone();
        high.params.sigma_max = 5.0;
        let zs = first.draw(&mut Rng::seed_from_u64(3));
        first.tell(&zs, &[0, 1, 2, 3, 4, 5]);
        high.tell(&zs, &[0, 1, 2, 3, 4, 5]);
        assert_eq!(
            (&first.mean, first.sigma, &first.cov, &first.ps, &first.pc),
            (&high.mean, high.sigma, &high.cov, &high.ps, &high.pc)
        );
    }

    /// Held scales: the space leaves out `attack` and `defence` (the
    /// first two of `to_vec`), whose weights stay as `like` has them.
    #[test]
    fn fixed_scales_leave_attack_and_defence_out_of_the_space() {
        use crate::eval::Model;
        use crate::game::Rules;
        let cfg = RunConfig::cmaes_defaults(Rules::GOMOKU);
        let w = Weights::default_for(Rules::GOMOKU).with_model(Model::Combo);
        let (all, held) = (Space::of(&w, false), Space::of(&w, true));
        assert_eq!(&all.index[..2], &[0, 1]);
        assert_eq!(held.index, all.index[2..]);
        assert_eq!(held.shift, all.shift[2..]);
        let x = DVector::from_vec(held.point(&w)).map(|v| v + 0.5);
        let moved = held.weights_at(&cfg, &w, &x);
        assert_eq!((moved.attack, moved.defence), (w.attack, w.defence));
        assert!((moved.own[1] - w.own[1] * 0.5f64.exp()).abs() <= 1e-9 * moved.own[1]);
    }

    #[test]
    fn the_ranking_is_by_score_then_index() {
        let t = |w, l| Tally {
            wins: w,
            draws: 0,
            losses: l,
        };
        let order = ranking(&[t(5, 5), t(7, 3), t(3, 7), t(6, 2), t(4, 4)]);
        assert_eq!(order, vec![1, 3, 0, 4, 2]);
    }
}
