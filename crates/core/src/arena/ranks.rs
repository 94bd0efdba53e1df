//! Sharing every match's games among the processes of a job (MPI ranks).
//!
//! A job of N processes plays each match and round robin together. Every
//! process builds the same list of games (from the same seed and
//! arguments); game `i` of a match is played by the process of rank
//! `i mod N`, with rayon threads inside each process. Each process counts
//! its games' results in the usual tallies (wins, draws, losses and the
//! pentanomial pair counts of every pairing), and one element-wise sum of
//! those counts over the processes (an MPI all-reduce of eight `u64` a
//! pairing) gives every process the tallies one process playing every
//! game would have counted: each game's seed depends only on its place in
//! the match, and integer sums do not depend on their order. Every process
//! then makes the same choices from the same numbers. A match whose games
//! are kept (for a records file) sends each game's result and moves
//! instead, in slots that belong to the game, zeros elsewhere.
//!
//! The library never calls MPI itself. The binary [`join`]s a [`Ranks`]
//! on its main thread; a match played on a thread without one (or in a job
//! of one) is played whole by this process, as before. Interleaving the
//! games by index, rather than cutting the list into blocks, gives every
//! rank the same mix of long and short games, so ranks finish together;
//! [`take_timing`] says how long the first to finish waited for the last.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The processes of a job, as seen from one of them.
///
/// Every process must make the same calls in the same order with buffers
/// of the same length: these are collective operations.
pub trait Ranks {
    /// This process's rank, from 0.
    fn rank(&self) -> usize;
    /// The number of processes (≥ 1).
    fn size(&self) -> usize;
    /// Replaces `buf` on every process by its element-wise sum over all
    /// processes (wrapping, as MPI's sum of unsigned integers does).
    fn sum(&self, buf: &mut [u64]);
    /// Replaces `bytes` on every process by rank 0's.
    fn broadcast(&self, bytes: &mut Vec<u8>);
    /// Ends the whole job at once, after printing `message` (naming this
    /// rank): for a failure that leaves the other processes waiting in a
    /// collective call this one will never make.
    fn abort(&self, message: &str) -> !;
}

thread_local! {
    static RANKS: RefCell<Option<Rc<dyn Ranks>>> = const { RefCell::new(None) };
    static TIMING: Cell<Timing> = const { Cell::new(Timing::ZERO) };
}

/// Makes the matches played on this thread shared among `ranks` (until
/// [`leave`]).
pub fn join(ranks: Rc<dyn Ranks>) {
    RANKS.with(|r| *r.borrow_mut() = Some(ranks));
}

/// Stops sharing this thread's matches: they are played whole again.
pub fn leave() {
    RANKS.with(|r| *r.borrow_mut() = None);
}

/// The ranks this thread's matches are shared among, if it joined a job.
pub fn current() -> Option<Rc<dyn Ranks>> {
    RANKS.with(|r| r.borrow().clone())
}

/// This process's rank in the job this thread joined (0 if none).
pub fn rank() -> usize {
    current().map_or(0, |r| r.rank())
}

/// The ranks this thread's matches are shared among, if it joined a job
/// of several processes (`None` alone or in a job of one).
pub fn shared() -> Option<Rc<dyn Ranks>> {
    current().filter(|r| r.size() > 1)
}

/// Where the time of shared matches went, summed over matches since the
/// last [`take_timing`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timing {
    /// Shared matches (each one all-reduce).
    pub batches: u32,
    /// The time the first rank to finish its share waited for the last,
    /// summed over matches: the cost of an uneven split.
    pub idle: Duration,
    /// This rank's time in the all-reduce beyond its wait for the slowest
    /// rank: the cost of communication.
    pub comm: Duration,
}

impl Timing {
    const ZERO: Timing = Timing {
        batches: 0,
        idle: Duration::ZERO,
        comm: Duration::ZERO,
    };
}

/// The timing of this thread's shared matches since the last call, reset.
pub fn take_timing() -> Timing {
    TIMING.with(|t| t.replace(Timing::ZERO))
}

/// One match's share of games for this process.
pub(crate) struct Share {
    ranks: Option<Rc<dyn Ranks>>,
    rank: usize,
    size: usize,
    started: Instant,
}

impl Share {
    /// The share of a match starting now on this thread.
    pub(crate) fn start() -> Share {
        let ranks = shared();
        let (rank, size) = ranks.as_ref().map_or((0, 1), |r| (r.rank(), r.size()));
        Share {
            ranks,
            rank,
            size,
            started: Instant::now(),
        }
    }

    /// Whether the games are split among several processes.
    pub(crate) fn is_split(&self) -> bool {
        self.size > 1
    }

    /// The indices of the `n` games (or tasks) this process plays.
    pub(crate) fn mine(&self, n: usize) -> Vec<usize> {
        (self.rank..n).step_by(self.size).collect()
    }

    /// Sums `slots` over the processes (each filled only the slots of its
    /// own games), and records how long each process took over its share.
    pub(crate) fn gather(&self, slots: &mut Vec<u64>) {
        let Some(ranks) = &self.ranks else { return };
        let busy = self.started.elapsed();
        let n = slots.len();
        slots.resize(n + self.size, 0);
        slots[n + self.rank] = u64::try_from(busy.as_nanos()).unwrap_or(u64::MAX);
        let t = Instant::now();
        ranks.sum(slots);
        let in_sum = t.elapsed();
        let times = slots.split_off(n);
        let (max, min) = (
            times.iter().copied().max().unwrap_or(0),
            times.iter().copied().min().unwrap_or(0),
        );
        let waited = Duration::from_nanos(max - times[self.rank]);
        TIMING.with(|cell| {
            let mut t = cell.get();
            t.batches += 1;
            t.idle += Duration::from_nanos(max - min);
            t.comm += in_sum.saturating_sub(waited);
            cell.set(t);
        });
    }

    /// Sums `slots` over the processes without timing (a second exchange
    /// of the same match, such as its games' moves).
    pub(crate) fn sum(&self, slots: &mut [u64]) {
        if let Some(ranks) = &self.ranks {
            ranks.sum(slots);
        }
    }

    /// Ends the job when a game of this process's share fails while the
    /// others wait for its results; returns `error` when playing alone.
    pub(crate) fn fail<E: std::fmt::Display>(&self, error: E) -> E {
        match &self.ranks {
            Some(r) => r.abort(&format!("a game could not be played: {error}")),
            None => error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_process_plays_every_game() {
        let s = Share::start();
        assert!(!s.is_split());
        assert_eq!(s.mine(4), [0, 1, 2, 3]);
        let mut v = vec![1, 2];
        s.gather(&mut v);
        assert_eq!(v, [1, 2]);
    }

    #[test]
    fn games_are_dealt_by_index() {
        let s = Share {
            ranks: None,
            rank: 1,
            size: 3,
            started: Instant::now(),
        };
        assert_eq!(s.mine(8), [1, 4, 7]);
        assert_eq!(s.mine(1), Vec::<usize>::new());
    }
}
