//! The vocabulary of stored search results, and the search player's
//! transposition table.
//!
//! - [`Bound`]: what a stored value means, shared by the search's table
//!   and the exact solver's (which packs it into the spare bits of a byte).
//! - [`MATE_BOUND`] and [`describe_score`]: which scores are forced wins
//!   and losses, and how they read.
//! - `Table`: a fixed array of 2^bits entries, one per slot. Each entry
//!   carries the table's *generation* when it was stored; a new game starts
//!   a new generation, so entries of older games read as empty without
//!   clearing the array (1.5 MiB at the default size, 52–56 µs a game). The
//!   generation is a byte: when it wraps, the array is cleared once, so an
//!   entry 256 games old can never pass for a current one.
//! - Replacement: a store replaces its slot's entry unless that entry is of
//!   another position, of this game, and worth more ([`Table::store`]):
//!   a proof of a win or loss stored in one of the last
//!   [`PROOF_KEPT_SEARCHES`] searches, or a result searched deeper than
//!   the new one by more than [`DEPTH_MARGIN`] plies once its age (two
//!   plies per search since) is taken off. A search of 300 ms visits about
//!   as many nodes as a brain's table has slots, so always replacing lost
//!   the deep results near the root, and with them the proof of a claimed
//!   win, by the next move. With this policy the brain's table for turns
//!   under a second (2^18 entries) is large enough: at 300 ms a move, 2^20
//!   entries measured −19.7 ± 37.3 Elo over 107 games against it (`mnk
//!   brains` on the shipped book, seed 510, load 5, stopped).
//! - Sizing: [`table_bytes`], [`check_tables`], [`ensure_tables`] keep a
//!   table within the memory the system has.

use crate::eval::WIN;
use std::fmt;

/// Scores at or above this are forced wins (and at or below its negation
/// forced losses): a win is scored `WIN − plies`, and no evaluation comes
/// within 10,000 of [`WIN`].
pub const MATE_BOUND: f64 = WIN - 10_000.0;

/// An unproven mate: a loss that a search found against every move it
/// looked at, where those were not every move that can hold, is moved down
/// by this much, so that it still ranks below every evaluation but never
/// reads (or stops a search) as proven. Scores between `UNPROVEN_BOUND`
/// and [`MATE_BOUND`] are such likely wins and losses.
pub const UNPROVEN_SHIFT: f64 = WIN / 2.0;

/// The least magnitude of an unproven mate score ([`UNPROVEN_SHIFT`]).
pub const UNPROVEN_BOUND: f64 = MATE_BOUND - UNPROVEN_SHIFT;

/// What a stored value says about the true value of its position, from a
/// fail-soft alpha-beta search with window `(alpha, beta)`.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The search failed low (`v <= alpha`): the true value is at most `v`.
    Upper,
    /// The search failed high (`v >= beta`): the true value is at least `v`.
    Lower,
    /// Inside the window: `v` is the true value.
    Exact,
}

impl Bound {
    /// The bound stored as `bound as u8`; other bytes read as [`Bound::Exact`].
    #[inline]
    pub fn from_u8(b: u8) -> Bound {
        match b {
            0 => Bound::Upper,
            1 => Bound::Lower,
            _ => Bound::Exact,
        }
    }
}

/// A search score for people: `win in 3`, `loss in 2` (plies), or the
/// evaluation rounded.
///
/// ```
/// use mnk_core::eval::WIN;
/// use mnk_core::players::describe_score;
/// assert_eq!(describe_score(WIN - 3.0), "win in 3");
/// assert_eq!(describe_score(-(WIN - 2.0)), "loss in 2");
/// assert_eq!(describe_score(1259.6), "1260");
/// // A loss found only among the moves searched: likely, not proven.
/// assert_eq!(describe_score(-(WIN - 6.0) + WIN / 2.0), "likely loss in 6");
/// ```
pub fn describe_score(score: f64) -> String {
    if score >= MATE_BOUND {
        format!("win in {:.0}", WIN - score)
    } else if score <= -MATE_BOUND {
        format!("loss in {:.0}", WIN + score)
    } else if score >= UNPROVEN_BOUND {
        format!("likely win in {:.0}", WIN - UNPROVEN_SHIFT - score)
    } else if score <= -UNPROVEN_BOUND {
        format!("likely loss in {:.0}", WIN - UNPROVEN_SHIFT + score)
    } else {
        format!("{score:.0}")
    }
}

/// A mate score stored relative to the node (`ply` plies below the root),
/// so that it stays correct where the position is met at another ply.
#[inline]
pub(crate) fn to_tt(score: f64, ply: u32) -> f64 {
    if score >= MATE_BOUND {
        score + ply as f64
    } else if score <= -MATE_BOUND {
        score - ply as f64
    } else {
        score
    }
}

/// The inverse of [`to_tt`]: a stored score seen from `ply` plies below the root.
#[inline]
pub(crate) fn from_tt(score: f64, ply: u32) -> f64 {
    if score >= MATE_BOUND {
        score - ply as f64
    } else if score <= -MATE_BOUND {
        score + ply as f64
    } else {
        score
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The position's full hash (the slot holds only its low bits).
    pub key: u64,
    /// The value, mate scores relative to the node ([`to_tt`]).
    pub score: f64,
    /// The best cell found, or [`NO_MOVE`].
    pub best: u16,
    /// Remaining depth the value was searched to.
    pub depth: u8,
    /// What `score` says about the true value.
    pub bound: Bound,
    /// The table's generation when stored; 0 is never current.
    generation: u8,
    /// The table's search count when stored (see [`Table::new_search`]).
    search: u8,
}

/// The `best` of an entry that has no move.
pub(crate) const NO_MOVE: u16 = u16::MAX;

impl Entry {
    const EMPTY: Entry = Entry {
        key: 0,
        score: 0.0,
        best: NO_MOVE,
        depth: 0,
        bound: Bound::Upper,
        generation: 0,
        search: 0,
    };

    /// Whether the entry proves its position won or lost: a mate score
    /// (likely wins and losses are shifted below [`MATE_BOUND`]) bounded on
    /// the side that makes it a proof.
    fn is_proof(&self) -> bool {
        match self.bound {
            Bound::Exact => self.score.abs() >= MATE_BOUND,
            Bound::Lower => self.score >= MATE_BOUND,
            Bound::Upper => self.score <= -MATE_BOUND,
        }
    }
}

/// Searches for which a stored proof is kept against entries of other
/// positions ([`Table::store`]): a claimed win is played over the next
/// moves, and each of them reads its proof back.
pub const PROOF_KEPT_SEARCHES: u8 = 4;

/// Plies by which an entry of another position, after its age is taken
/// off, must be deeper than a new result to be kept ([`Table::store`]).
pub const DEPTH_MARGIN: i32 = 2;

/// Bytes per transposition-table entry, for sizing tables to a memory budget.
pub const TT_ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// The search player's transposition table: 2^bits entries, one per slot,
/// aged by game (generation) and by search (see the module documentation).
#[derive(Clone)]
pub(crate) struct Table {
    entries: Vec<Entry>,
    /// Entries of this generation are current; 1 to 255.
    generation: u8,
    /// Searches started in this generation, wrapping (only differences
    /// are read, and an entry old enough to wrap has no weight left).
    search: u8,
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("entries", &self.entries.len())
            .field("generation", &self.generation)
            .finish()
    }
}

impl Table {
    /// An empty table of 2^`bits` entries.
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![Entry::EMPTY; 1 << bits],
            generation: 1,
            search: 0,
        }
    }

    /// An empty table of 2^`bits` entries, or an error if the system
    /// refuses the memory (rather than the abort of a failed allocation).
    pub fn try_new(bits: u32) -> Result<Table, TableError> {
        let n = 1usize << bits;
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(n)
            .map_err(|_| TableError::Refused {
                what: format!("tt={bits}"),
                bytes: table_bytes(bits),
            })?;
        entries.resize(n, Entry::EMPTY);
        Ok(Table {
            entries,
            generation: 1,
            search: 0,
        })
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Heap bytes of the entries.
    pub fn heap_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
    }

    /// Empties the table: every entry stored so far reads as empty.
    pub fn clear(&mut self) {
        self.search = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: entries 256 generations old would look current.
            self.entries.fill(Entry::EMPTY);
            self.generation = 1;
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    /// The current entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.slot(key)];
        (e.key == key && e.generation == self.generation).then_some(e)
    }

    /// Asks the processor to bring `key`'s slot into the cache, so that a
    /// probe soon after does not wait for memory. Only a hint: it changes
    /// nothing.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p: *const Entry = &self.entries[self.slot(key)];
            // SAFETY: SSE is part of x86-64, and a prefetch reads nothing
            // the program sees (it may not even fault); `p` is in bounds.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Starts a new search: entries stored before it age by one search.
    pub fn new_search(&mut self) {
        self.search = self.search.wrapping_add(1);
    }

    /// Stores a result for `key` searched `depth` plies deep, unless its
    /// slot holds a result worth more: one of another position, of this
    /// game, that is a proof stored in the last [`PROOF_KEPT_SEARCHES`]
    /// searches, or that is deeper than `depth` by more than
    /// [`DEPTH_MARGIN`] plies after two plies per search of age are taken
    /// off it. A result for the same position always replaces the old
    /// one: it is the newer search of that position.
    #[inline]
    pub fn store(&mut self, key: u64, score: f64, best: u16, depth: u8, bound: Bound) {
        let slot = self.slot(key);
        let old = &self.entries[slot];
        if old.key != key && old.generation == self.generation {
            let age = self.search.wrapping_sub(old.search);
            if old.is_proof() && age < PROOF_KEPT_SEARCHES {
                return;
            }
            if old.depth as i32 - 2 * age as i32 > depth as i32 + DEPTH_MARGIN {
                return;
            }
        }
        self.entries[slot] = Entry {
            key,
            score,
            best,
            depth,
            bound,
            generation: self.generation,
            search: self.search,
        };
    }
}

/// Bytes of a transposition table of 2^`bits` entries.
pub fn table_bytes(bits: u32) -> u128 {
    (TT_ENTRY_BYTES as u128) << bits.min(100)
}

/// Tables at least this large are checked against the memory available
/// before they are allocated (64 MiB, 2^22 entries and up).
pub const CHECKED_TABLE_BYTES: u128 = 64 << 20;

/// Why a table (or the tables of several players) could not be allocated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The tables would take more than half the memory available.
    #[error(
        "{what} needs {} for transposition tables, more than half of the {} of memory \
         available; use a smaller tt",
        crate::util::Bytes(*.bytes),
        crate::util::Bytes((*.available).into())
    )]
    NoRoom {
        /// The tables, as the user named them (`tt=24`).
        what: String,
        /// Bytes the tables need.
        bytes: u128,
        /// Bytes of memory available.
        available: u64,
    },
    /// The system refused to allocate the tables.
    #[error(
        "{what}: the system refused {} for transposition tables (a memory limit such as \
         ulimit -v?); use a smaller tt",
        crate::util::Bytes(*.bytes)
    )]
    Refused {
        /// The tables, as the user named them (`tt=24`).
        what: String,
        /// Bytes the tables need.
        bytes: u128,
    },
}

/// The memory the system can still give without swapping: `MemAvailable`
/// from `/proc/meminfo` on Linux; `None` elsewhere or when unreadable.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line
        .trim_start_matches("MemAvailable:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb.saturating_mul(1024))
}

/// Checks that tables of 2^`bits` entries, one per item, may be allocated
/// at once when `available` bytes are free: from [`CHECKED_TABLE_BYTES`]
/// in all, they may take at most half of it (the rest is for everything
/// else). `available` `None`: nothing known, nothing refused. `what` names
/// the tables in the error (`tt=24`).
///
/// ```
/// use mnk_core::players::check_tables;
/// assert!(check_tables("tt=16", &[16, 16], Some(1 << 30)).is_ok());
/// // 2^26 entries take 1.5 GiB: refused with 2 GiB available.
/// let e = check_tables("tt=26", &[26], Some(2 << 30)).unwrap_err();
/// assert!(e.to_string().contains("tt=26 needs 1.50 GiB"));
/// ```
pub fn check_tables(what: &str, bits: &[u32], available: Option<u64>) -> Result<(), TableError> {
    let bytes: u128 = bits.iter().map(|&b| table_bytes(b)).sum();
    match available {
        Some(available) if bytes >= CHECKED_TABLE_BYTES && bytes > available as u128 / 2 => {
            Err(TableError::NoRoom {
                what: what.into(),
                bytes,
                available,
            })
        }
        _ => Ok(()),
    }
}

/// [`check_tables`] against [`available_memory`], then asks the system
/// for the address space of all the tables together (without touching
/// it, so nothing is used): under a limit such as `ulimit -v` that request
/// fails up front rather than the allocation of a later table.
pub fn ensure_tables(what: &str, bits: &[u32]) -> Result<(), TableError> {
    let bytes: u128 = bits.iter().map(|&b| table_bytes(b)).sum();
    if bytes < CHECKED_TABLE_BYTES {
        return Ok(());
    }
    check_tables(what, bits, available_memory())?;
    let refused = || TableError::Refused {
        what: what.into(),
        bytes,
    };
    let n = usize::try_from(bytes).map_err(|_| refused())?;
    Vec::<u8>::new().try_reserve_exact(n).map_err(|_| refused())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_keeps_its_size() {
        // The memory figures (tt=26 is 1.5 GiB) assume 24 bytes.
        assert_eq!(TT_ENTRY_BYTES, 24);
    }

    #[test]
    fn a_new_generation_empties_the_table_even_after_wrapping() {
        let mut t = Table::new(4);
        t.store(5, 1.0, 3, 2, Bound::Lower);
        let e = t.probe(5).expect("stored");
        assert_eq!(
            (e.score, e.best, e.depth, e.bound),
            (1.0, 3, 2, Bound::Lower)
        );
        assert!(t.probe(21).is_none(), "same slot, other key");
        t.clear();
        assert!(t.probe(5).is_none());
        // An entry stored now must not come back 256 clears later.
        t.store(5, 1.0, 3, 2, Bound::Exact);
        for _ in 0..256 {
            t.clear();
            assert!(t.probe(5).is_none());
        }
    }

    /// Keys 5 and 21 share a slot of a 16-entry table.
    fn depth_of(t: &Table, key: u64) -> Option<u8> {
        t.probe(key).map(|e| e.depth)
    }

    #[test]
    fn a_deeper_result_of_another_position_is_kept_until_it_ages() {
        let mut t = Table::new(4);
        t.new_search();
        t.store(5, 1.0, 3, 8, Bound::Exact);
        // Within the margin of its depth, or the same position: replaced.
        t.store(5, 2.0, 3, 1, Bound::Lower);
        assert_eq!(depth_of(&t, 5), Some(1), "same position: newer wins");
        t.store(5, 1.0, 3, 8, Bound::Exact);
        t.store(21, 1.0, 3, 5, Bound::Exact);
        assert_eq!(depth_of(&t, 5), Some(8), "8 > 5 + 2: kept");
        assert_eq!(depth_of(&t, 21), None);
        t.store(21, 1.0, 3, 6, Bound::Exact);
        assert_eq!(depth_of(&t, 21), Some(6), "8 is not > 6 + 2: replaced");
        // Two plies of age a search: depth 8 two searches on weighs 4.
        t.store(5, 1.0, 3, 8, Bound::Exact);
        t.new_search();
        t.store(21, 1.0, 3, 3, Bound::Exact);
        assert_eq!(depth_of(&t, 5), Some(8), "8 - 2 > 3 + 2: kept");
        t.new_search();
        t.store(21, 1.0, 3, 3, Bound::Exact);
        assert_eq!(depth_of(&t, 21), Some(3), "8 - 4 is not > 3 + 2");
        // Another game's entry never stands in the way.
        t.store(5, 1.0, 3, 60, Bound::Exact);
        t.clear();
        t.store(21, 1.0, 3, 0, Bound::Upper);
        assert_eq!(depth_of(&t, 21), Some(0));
    }

    #[test]
    fn a_proof_is_kept_for_a_few_searches() {
        let win = to_tt(WIN - 9.0, 0);
        for (score, bound, proof) in [
            (win, Bound::Exact, true),
            (win, Bound::Lower, true),
            (-win, Bound::Upper, true),
            (-win, Bound::Exact, true),
            // The bound on the wrong side proves nothing.
            (win, Bound::Upper, false),
            (-win, Bound::Lower, false),
            // A likely win is no proof.
            (win - UNPROVEN_SHIFT, Bound::Exact, false),
        ] {
            let mut t = Table::new(4);
            t.new_search();
            t.store(5, score, 3, 1, bound);
            for searches in 0..PROOF_KEPT_SEARCHES {
                t.store(21, 0.0, 3, 40, Bound::Exact);
                let kept = t.probe(5).is_some();
                assert_eq!(kept, proof, "{score} {bound:?} after {searches} searches");
                if !kept {
                    break;
                }
                t.new_search();
            }
            t.store(21, 0.0, 3, 40, Bound::Exact);
            assert!(t.probe(5).is_none(), "{score} {bound:?}: replaced at last");
        }
    }

    #[test]
    fn bounds_round_trip_through_a_byte() {
        for b in [Bound::Upper, Bound::Lower, Bound::Exact] {
            assert_eq!(Bound::from_u8(b as u8), b);
        }
    }
}
