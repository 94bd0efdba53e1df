//! Zobrist keys: one fixed pseudo-random 64-bit key per (cell, colour).
//!
//! The keys come from a fixed SplitMix64 stream so hashes are identical
//! across runs, machines and thread counts.

use super::rules::MAX_SIDE;

const CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// Keys indexed by `[colour][cell index on a MAX_SIDE-wide grid]`.
pub(crate) static KEYS: [[u64; CELLS]; 2] = build();

/// One step of SplitMix64 (Steele, Lea and Flood 2014): the next state
/// and the output it gives. Every fixed stream of keys and every derived
/// seed in mnk comes from it, so they are identical on every machine.
///
/// ```
/// use mnk_core::game::splitmix64;
/// // The first output from state 0 (the reference implementation's).
/// assert_eq!(splitmix64(0), (0x9E37_79B9_7F4A_7C15, 0xE220_A839_7B1D_CDAF));
/// ```
#[inline]
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state = 0x6D6E_6B5F_7A6F_6272u64; // "mnk_zobr"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, v) = splitmix64(state);
            state = s;
            keys[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    keys
}

/// The key a stone of `color` at `m` adds to a position's hash
/// ([`Board::hash`](super::Board::hash) is the XOR of its stones' keys),
/// for searches that track a hash of their own.
#[inline]
pub fn stone_key(color: super::Color, m: super::Move) -> u64 {
    key(color.index(), m.x, m.y)
}

/// The key of a stone of colour index `color` at `(x, y)`.
#[inline]
pub(crate) fn key(color: usize, x: u8, y: u8) -> u64 {
    KEYS[color][y as usize * MAX_SIDE as usize + x as usize]
}

/// The hasher of mnk's hash maps keyed by 64-bit position keys (perft's
/// bit masks, far from random, and the exact solver's Zobrist keys): a
/// multiply and a shift spread every key bit over the whole word, so both
/// the high bits `HashMap` takes its tags from and the low bits it takes
/// its buckets from depend on all of the key.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ b as u64);
        }
    }
    #[inline]
    fn write_u64(&mut self, k: u64) {
        let z = (k ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = z ^ (z >> 29);
    }
}
