//! The greedy player's move choice: the index of a maximum of a flat score
//! array, ties broken by one seeded draw.
//!
//! [`argmax_random`] states the rule plainly: the `pick`-th cell (in index
//! order) whose score equals the maximum, `pick` drawn uniformly when there
//! are several. [`argmax_keyed`] makes the same choice fast, once a ply
//! over every cell in a game: it scans `f32` copies of the scores with SSE2
//! (part of the x86-64 baseline, so a plain release build uses it; plain
//! code elsewhere) and compares exact scores only where the best key is.

use super::Rng;

/// Index of a maximum of `scores`, ties broken uniformly by `rng` (one
/// draw, and only when there are ties). Returns `None` if every score is
/// −∞ (no empty cell). Scores must not be NaN.
///
/// ```
/// use mnk_core::players::{argmax_random, Rng};
/// use rand::SeedableRng;
/// let mut rng = Rng::seed_from_u64(1);
/// assert_eq!(argmax_random(&[1.0, 3.0, 2.0], &mut rng), Some(1));
/// assert_eq!(argmax_random(&[f64::NEG_INFINITY; 4], &mut rng), None);
/// let tie = argmax_random(&[5.0, 0.0, 5.0], &mut rng).unwrap();
/// assert!(tie == 0 || tie == 2);
/// ```
#[inline]
pub fn argmax_random(scores: &[f64], rng: &mut Rng) -> Option<usize> {
    use rand::Rng as _;
    let best = max(scores);
    if best == f64::NEG_INFINITY {
        return None;
    }
    let ties = count_equal(scores, best);
    let pick = if ties > 1 { rng.gen_range(0..ties) } else { 0 };
    nth_equal(scores, best, pick)
}

/// [`argmax_random`] of `scores`, the same cell and the same draws, given
/// `keys`, the scores rounded to `f32` ([`crate::eval::Sheets::keys`]).
/// Rounding keeps order, so every best score has the best key: one pass
/// finds the best key four to an SSE2 register, one more collects the
/// cells that have it (usually one or two), and only their exact scores
/// are compared.
///
/// ```
/// use mnk_core::players::{argmax_keyed, Rng};
/// use rand::SeedableRng;
/// // 1 + 2⁻⁴⁰ and 1 round to the same f32: the exact scores decide.
/// let scores = [1.0, 1.0 + 2f64.powi(-40), 0.5];
/// let keys = scores.map(|s| s as f32);
/// let mut rng = Rng::seed_from_u64(1);
/// assert_eq!(argmax_keyed(&scores, &keys, &mut rng), Some(1));
/// ```
pub fn argmax_keyed(scores: &[f64], keys: &[f32], rng: &mut Rng) -> Option<usize> {
    use rand::Rng as _;
    let top = max_key(keys);
    let mut found = [0u16; 64];
    let n = if top == f32::NEG_INFINITY || keys.len() != scores.len() || keys.len() > 1 << 16 {
        // Every key −∞ (a finite score below −f32::MAX would round there
        // too, though no weights make one), or a caller's slip: the plain
        // scan decides.
        None
    } else {
        collect_keys(keys, top, &mut found)
    };
    let Some(n) = n else {
        return argmax_random(scores, rng);
    };
    let cells = &found[..n];
    let best = cells
        .iter()
        .fold(f64::NEG_INFINITY, |m, &c| m.max(scores[c as usize]));
    let ties = cells
        .iter()
        .filter(|&&c| scores[c as usize] == best)
        .count();
    let pick = if ties > 1 { rng.gen_range(0..ties) } else { 0 };
    cells
        .iter()
        .filter(|&&c| scores[c as usize] == best)
        .nth(pick)
        .map(|&c| c as usize)
}

/// Writes the indices of the keys equal to `top`, in order, to `out` and
/// returns how many; `None` if there are more than `out` holds.
#[inline]
fn collect_keys(keys: &[f32], top: f32, out: &mut [u16; 64]) -> Option<usize> {
    let chunks = keys.chunks_exact(8);
    let done = keys.len() - chunks.remainder().len();
    let mut n = 0;
    let mut push = |i: usize| {
        if n == out.len() {
            return false;
        }
        out[n] = i as u16;
        n += 1;
        true
    };
    for (k, c) in chunks.enumerate() {
        let mut mask = eq_mask8(c, top);
        // Most chunks hold no best key: one test skips them.
        while mask != 0 {
            if !push(8 * k + mask.trailing_zeros() as usize) {
                return None;
            }
            mask &= mask - 1;
        }
    }
    for (i, &key) in keys[done..].iter().enumerate() {
        if key == top && !push(done + i) {
            return None;
        }
    }
    Some(n)
}

/// Bit i set where `c[i] == top`, for a chunk of eight.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn eq_mask8(c: &[f32], top: f32) -> u32 {
    use std::arch::x86_64::*;
    debug_assert_eq!(c.len(), 8);
    // SAFETY: SSE2 is part of the x86-64 baseline; the loads read the
    // chunk's eight f32.
    unsafe {
        let t = _mm_set1_ps(top);
        let p = c.as_ptr();
        let lo = _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(p), t)) as u32;
        let hi = _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(p.add(4)), t)) as u32;
        lo | hi << 4
    }
}

/// Bit i set where `c[i] == top`, for a chunk of eight.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn eq_mask8(c: &[f32], top: f32) -> u32 {
    c.iter()
        .enumerate()
        .fold(0, |m, (i, &k)| m | ((k == top) as u32) << i)
}

/// The largest key (−∞ for an empty slice).
#[cfg(target_arch = "x86_64")]
#[inline]
fn max_key(keys: &[f32]) -> f32 {
    use std::arch::x86_64::*;
    let chunks = keys.chunks_exact(16);
    let rest = chunks.remainder();
    // SAFETY: SSE2 is part of the x86-64 baseline, and every load reads
    // four f32 inside a chunk of sixteen.
    let best = unsafe {
        let mut m = [_mm_set1_ps(f32::NEG_INFINITY); 4];
        for c in chunks {
            let p = c.as_ptr();
            for (i, m) in m.iter_mut().enumerate() {
                *m = _mm_max_ps(*m, _mm_loadu_ps(p.add(4 * i)));
            }
        }
        let m = _mm_max_ps(_mm_max_ps(m[0], m[1]), _mm_max_ps(m[2], m[3]));
        let mut lanes = [0.0f32; 4];
        _mm_storeu_ps(lanes.as_mut_ptr(), m);
        lanes.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b))
    };
    rest.iter().fold(best, |m, &s| if s > m { s } else { m })
}

/// The largest key (−∞ for an empty slice).
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn max_key(keys: &[f32]) -> f32 {
    keys.iter()
        .fold(f32::NEG_INFINITY, |m, &s| if s > m { s } else { m })
}

/// The largest score (−∞ for an empty slice).
fn max(scores: &[f64]) -> f64 {
    scores
        .iter()
        .fold(f64::NEG_INFINITY, |m, &s| if s > m { s } else { m })
}

/// How many scores equal `best`.
fn count_equal(scores: &[f64], best: f64) -> usize {
    scores.iter().filter(|&&s| s == best).count()
}

/// The index of the `pick`-th score (from 0) equal to `best`.
fn nth_equal(scores: &[f64], best: f64, pick: usize) -> Option<usize> {
    scores
        .iter()
        .enumerate()
        .filter(|&(_, &s)| s == best)
        .nth(pick)
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng as _, SeedableRng};

    /// The plain two-pass reference the fast paths must equal.
    fn reference(scores: &[f64], rng: &mut Rng) -> Option<usize> {
        let best = scores
            .iter()
            .fold(f64::NEG_INFINITY, |m, &s| if s > m { s } else { m });
        if best == f64::NEG_INFINITY {
            return None;
        }
        let ties = scores.iter().filter(|&&s| s == best).count();
        let pick = if ties > 1 { rng.gen_range(0..ties) } else { 0 };
        nth_equal(scores, best, pick)
    }

    #[test]
    fn equals_the_plain_reference_on_every_length_and_tie_pattern() {
        let mut gen = Rng::seed_from_u64(7);
        for len in (0..70).chain([225, 361, 700]) {
            for _ in 0..200 {
                // Few distinct values so that ties, −∞ and ±0 are common.
                let values = [
                    f64::NEG_INFINITY,
                    -0.0,
                    0.0,
                    1.5,
                    2.0,
                    -3.0,
                    2.0 + 1e-12,
                    2.0 - 1e-12,
                    1e300,
                    -1e300,
                ];
                let scores: Vec<f64> = (0..len)
                    .map(|_| values[gen.gen_range(0..values.len())])
                    .collect();
                let seed = gen.gen();
                let (mut a, mut b) = (Rng::seed_from_u64(seed), Rng::seed_from_u64(seed));
                assert_eq!(
                    argmax_random(&scores, &mut a),
                    reference(&scores, &mut b),
                    "{scores:?}"
                );
                let keys: Vec<f32> = scores.iter().map(|&s| s as f32).collect();
                let (mut c, mut d) = (Rng::seed_from_u64(seed), Rng::seed_from_u64(seed));
                assert_eq!(
                    argmax_keyed(&scores, &keys, &mut c),
                    reference(&scores, &mut d)
                );
                assert_eq!(c.gen::<u64>(), d.gen::<u64>());
                // The same number of draws, so later choices agree too.
                assert_eq!(a.gen::<u64>(), b.gen::<u64>());
            }
        }
    }
}
