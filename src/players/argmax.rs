//! The greedy player's move choice: the index of a maximum of a flat score
//! array, ties broken by one seeded draw.
//!
//! It runs once a ply over every cell of the board, so it is written for
//! speed: a max pass and a tie-count pass with no data-dependent branch
//! (SSE2 on x86-64, where it is part of the baseline, so a plain release
//! build uses it; plain code elsewhere), then a scan for the drawn tie. The
//! result is the same on every path: the `pick`-th cell (in index order)
//! whose score equals the maximum, `pick` drawn uniformly when there are
//! several.

use super::Rng;

/// Index of a maximum of `scores`, ties broken uniformly by `rng` (one
/// draw, and only when there are ties). Returns `None` if every score is
/// −∞ (no empty cell). Scores must not be NaN.
///
/// ```
/// use mnk::players::{argmax_random, Rng};
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

/// The largest score (−∞ for an empty slice).
#[cfg(target_arch = "x86_64")]
#[inline]
fn max(scores: &[f64]) -> f64 {
    use std::arch::x86_64::*;
    let chunks = scores.chunks_exact(8);
    let rest = chunks.remainder();
    // SAFETY: SSE2 is part of the x86-64 baseline, and every load reads
    // two f64 inside a chunk of eight.
    let best = unsafe {
        // Four accumulators, so consecutive maxima do not wait on each other.
        let mut m = [_mm_set1_pd(f64::NEG_INFINITY); 4];
        for c in chunks {
            let p = c.as_ptr();
            for (i, m) in m.iter_mut().enumerate() {
                *m = _mm_max_pd(*m, _mm_loadu_pd(p.add(2 * i)));
            }
        }
        let m = _mm_max_pd(_mm_max_pd(m[0], m[1]), _mm_max_pd(m[2], m[3]));
        let mut lanes = [0.0; 2];
        _mm_storeu_pd(lanes.as_mut_ptr(), m);
        lanes[0].max(lanes[1])
    };
    rest.iter().fold(best, |m, &s| if s > m { s } else { m })
}

/// The largest score (−∞ for an empty slice).
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn max(scores: &[f64]) -> f64 {
    scores
        .iter()
        .fold(f64::NEG_INFINITY, |m, &s| if s > m { s } else { m })
}

/// How many scores equal `best`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn count_equal(scores: &[f64], best: f64) -> usize {
    use std::arch::x86_64::*;
    let chunks = scores.chunks_exact(8);
    let rest = chunks.remainder();
    // SAFETY: as in `max`.
    let n = unsafe {
        let b = _mm_set1_pd(best);
        // An equal lane compares to all ones, −1 as an integer: subtracting
        // the mask counts it.
        let mut n = [_mm_setzero_si128(); 2];
        for c in chunks {
            let p = c.as_ptr();
            for i in 0..4 {
                let eq = _mm_castpd_si128(_mm_cmpeq_pd(_mm_loadu_pd(p.add(2 * i)), b));
                n[i % 2] = _mm_sub_epi64(n[i % 2], eq);
            }
        }
        let mut lanes = [0u64; 2];
        _mm_storeu_si128(lanes.as_mut_ptr().cast(), _mm_add_epi64(n[0], n[1]));
        (lanes[0] + lanes[1]) as usize
    };
    n + rest.iter().filter(|&&s| s == best).count()
}

/// How many scores equal `best`.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn count_equal(scores: &[f64], best: f64) -> usize {
    scores.iter().map(|&s| (s == best) as usize).sum()
}

/// The index of the `pick`-th score (from 0) equal to `best`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn nth_equal(scores: &[f64], best: f64, mut pick: usize) -> Option<usize> {
    use std::arch::x86_64::*;
    let chunks = scores.chunks_exact(4);
    let done = scores.len() - chunks.remainder().len();
    // SAFETY: as in `max`, with chunks of four.
    unsafe {
        let b = _mm_set1_pd(best);
        for (k, c) in chunks.enumerate() {
            let p = c.as_ptr();
            let lo = _mm_movemask_pd(_mm_cmpeq_pd(_mm_loadu_pd(p), b));
            let hi = _mm_movemask_pd(_mm_cmpeq_pd(_mm_loadu_pd(p.add(2)), b));
            let mut mask = (lo | hi << 2) as u32;
            // Most chunks hold no maximum: one test skips them.
            while mask != 0 {
                if pick == 0 {
                    return Some(4 * k + mask.trailing_zeros() as usize);
                }
                pick -= 1;
                mask &= mask - 1;
            }
        }
    }
    nth_equal_plain(&scores[done..], best, pick).map(|i| done + i)
}

/// The index of the `pick`-th score (from 0) equal to `best`.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn nth_equal(scores: &[f64], best: f64, pick: usize) -> Option<usize> {
    nth_equal_plain(scores, best, pick)
}

#[inline]
fn nth_equal_plain(scores: &[f64], best: f64, pick: usize) -> Option<usize> {
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
        nth_equal_plain(scores, best, pick)
    }

    #[test]
    fn equals_the_plain_reference_on_every_length_and_tie_pattern() {
        let mut gen = Rng::seed_from_u64(7);
        for len in 0..70 {
            for _ in 0..200 {
                // Few distinct values so that ties, −∞ and ±0 are common.
                let values = [f64::NEG_INFINITY, -0.0, 0.0, 1.5, 2.0, -3.0];
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
                // The same number of draws, so later choices agree too.
                assert_eq!(a.gen::<u64>(), b.gen::<u64>());
            }
        }
    }
}
