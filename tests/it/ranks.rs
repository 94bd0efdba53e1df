//! Matches, round robins and whole training runs shared among several
//! ranks give exactly what one process gives. The ranks here are threads
//! of this test joined through shared memory ([`ThreadRanks`]), which
//! checks the library's sharing without MPI; `tests/it/mpi.rs` runs the
//! real thing under `mpirun`.

use crate::common::run_files;
use mnk::arena::ranks::{self, Ranks};
use mnk::arena::{self, random_openings, OpeningStyle};
use mnk::eval::Weights;
use mnk::game::Rules;
use mnk::players::{Greedy, Player};
use mnk::train::{NoObserver, RunConfig, Trainer};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::{Arc, Barrier, Mutex};

/// The meeting point of `n` threads playing the ranks of one job.
struct Hub {
    barrier: Barrier,
    sum: Mutex<Vec<u64>>,
    bytes: Mutex<Vec<u8>>,
}

/// One thread's view of a [`Hub`]: collective calls meet at the barrier.
struct ThreadRanks {
    hub: Arc<Hub>,
    rank: usize,
    size: usize,
}

impl Ranks for ThreadRanks {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.size
    }
    fn sum(&self, buf: &mut [u64]) {
        if self.rank == 0 {
            *self.hub.sum.lock().unwrap() = vec![0; buf.len()];
        }
        self.hub.barrier.wait();
        {
            let mut acc = self.hub.sum.lock().unwrap();
            assert_eq!(acc.len(), buf.len(), "ranks disagree on a buffer's length");
            for (a, b) in acc.iter_mut().zip(buf.iter()) {
                *a = a.wrapping_add(*b);
            }
        }
        self.hub.barrier.wait();
        buf.copy_from_slice(&self.hub.sum.lock().unwrap());
        self.hub.barrier.wait();
    }
    fn broadcast(&self, bytes: &mut Vec<u8>) {
        if self.rank == 0 {
            *self.hub.bytes.lock().unwrap() = bytes.clone();
        }
        self.hub.barrier.wait();
        *bytes = self.hub.bytes.lock().unwrap().clone();
        self.hub.barrier.wait();
    }
    fn abort(&self, message: &str) -> ! {
        panic!("rank {} aborted the job: {message}", self.rank)
    }
}

/// Runs `f` on `n` threads, each joined as one rank of a job, and returns
/// each rank's result in rank order.
fn on_ranks<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let hub = Arc::new(Hub {
        barrier: Barrier::new(n),
        sum: Mutex::new(Vec::new()),
        bytes: Mutex::new(Vec::new()),
    });
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|rank| {
                let (hub, f) = (Arc::clone(&hub), &f);
                s.spawn(move || {
                    ranks::join(Rc::new(ThreadRanks { hub, rank, size: n }));
                    let out = f(rank);
                    ranks::leave();
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn greedy(rules: Rules, seed: u64) -> Box<dyn Player> {
    let mut w = mnk::eval::shipped_weights(rules);
    // Two different players, so that the games are not all mirror images.
    w.attack *= 1.0 + seed as f64 / 10.0;
    Box::new(Greedy::new(w))
}

#[test]
fn a_shared_match_reports_what_one_process_plays() {
    let rules = Rules::GOMOKU;
    let mut rng = arena::game_rng(5, &[]);
    let openings = random_openings(rules, OpeningStyle::default_for(rules), 23, &mut rng);
    let play = |keep: bool| {
        let (a, b) = (|| greedy(rules, 1), || greedy(rules, 2));
        arena::MatchPlan::new(rules, &openings, &a, &b, 99)
            .numbered_from(7)
            .run(keep)
            .unwrap()
    };
    let alone = play(true);
    assert_eq!(alone.games.len(), 46);
    for n in [2, 3] {
        for (rank, shared) in on_ranks(n, |_| play(true)).into_iter().enumerate() {
            assert_eq!(shared.tally, alone.tally, "{n} ranks, rank {rank}");
            assert_eq!(shared.plies, alone.plies, "{n} ranks, rank {rank}");
            assert_eq!(shared.games, alone.games, "{n} ranks, rank {rank}");
        }
    }
    // Without keeping games, only the tallies travel.
    let lean = on_ranks(2, |_| play(false));
    assert_eq!(lean[1].tally, alone.tally);
    assert!(lean[1].games.is_empty());
}

#[test]
fn a_shared_round_robin_reports_what_one_process_plays() {
    let rules = Rules::GOMOKU;
    let mut rng = arena::game_rng(6, &[]);
    let openings = random_openings(rules, OpeningStyle::default_for(rules), 5, &mut rng);
    let pairs = [(0, 1), (0, 2), (1, 2), (2, 3), (0, 3)];
    let play = || {
        let make = |k: usize| greedy(rules, k as u64);
        arena::round_robin(rules, 4, &pairs, &openings, &make, 3).unwrap()
    };
    let alone = play();
    for n in [2, 3, 4] {
        let shared = on_ranks(n, |_| {
            let r = play();
            (r.pairs, r.plies, r.games, ranks::take_timing().batches)
        });
        for (rank, (pairs, plies, games, batches)) in shared.into_iter().enumerate() {
            assert_eq!(pairs, alone.pairs, "{n} ranks, rank {rank}");
            assert_eq!((plies, games), (alone.plies, alone.games));
            assert_eq!(batches, 1, "one all-reduce a round robin");
        }
    }
}

/// A short gomoku run on the shipped book with confirmation matches and
/// checks against the start and shipped weights.
fn config(name: &str) -> RunConfig {
    let mut cfg = RunConfig::defaults(Rules::GOMOKU);
    cfg.name = name.into();
    cfg.rounds = 3;
    cfg.challengers = 3;
    cfg.openings = 4;
    cfg.check_every = 2;
    cfg.check_openings = 6;
    cfg.select = mnk::train::Select::Confirm;
    cfg.start = "start".into();
    cfg
}

fn start_weights() -> Weights {
    let mut w = mnk::eval::shipped_weights(Rules::GOMOKU);
    w.defence *= 1.3;
    w
}

#[test]
fn a_run_shared_among_ranks_writes_the_same_folder_as_one_process() {
    let tmp = tempfile::tempdir().unwrap();
    let mut alone = Trainer::create(config("alone"), start_weights(), tmp.path(), false).unwrap();
    alone.run_rounds(2, &mut NoObserver).unwrap();
    // Resumed part-way, as a job restarted with another number of ranks.
    drop(alone);
    let mut alone = Trainer::resume(&tmp.path().join("alone")).unwrap();
    alone.run(&mut NoObserver).unwrap();
    let verdict = alone.verdict(5).unwrap();
    let expected = run_files(&tmp.path().join("alone"));
    assert!(expected.contains_key("checks.csv"));

    for (n, first) in [(3, 2), (2, 0)] {
        let name = format!("shared{n}");
        // The first rounds are played by one process, then the job goes
        // on with n ranks (rank 0 resumes and sends the others the run).
        let mut t = Trainer::create(config(&name), start_weights(), tmp.path(), false).unwrap();
        t.run_rounds(first, &mut NoObserver).unwrap();
        drop(t);
        let shared = on_ranks(n, |rank| {
            let mut t = None;
            let mut bytes = Vec::new();
            if rank == 0 {
                let t0 = Trainer::resume(&tmp.path().join(&name)).unwrap();
                bytes = t0.snapshot().unwrap().to_bytes();
                t = Some(t0);
            }
            ranks::current().unwrap().broadcast(&mut bytes);
            let mut t = t.unwrap_or_else(|| {
                let s = mnk::train::Snapshot::from_bytes(&bytes).unwrap();
                let t = Trainer::replica(&s).unwrap();
                assert!(!t.writes());
                t
            });
            t.run(&mut NoObserver).unwrap();
            let v = t.verdict(5).unwrap();
            (t.rounds().to_vec(), v.tally)
        });
        for (rank, (rounds, tally)) in shared.into_iter().enumerate() {
            assert_eq!(rounds, alone.rounds(), "{n} ranks, rank {rank}");
            assert_eq!(tally, verdict.tally, "{n} ranks, rank {rank}: the verdict");
        }
        let mut got = run_files(&tmp.path().join(&name));
        let run_toml = |m: &mut BTreeMap<String, Vec<u8>>, name: &str| {
            let t = String::from_utf8(m.remove("run.toml").unwrap()).unwrap();
            t.replace(&format!("\"{name}\""), "\"NAME\"")
        };
        let mut want = expected.clone();
        assert_eq!(run_toml(&mut got, &name), run_toml(&mut want, "alone"));
        let strip = |m: BTreeMap<String, Vec<u8>>, name: &str| -> BTreeMap<String, String> {
            m.into_iter()
                .map(|(k, v)| {
                    let t = String::from_utf8(v).unwrap();
                    (k, t.replace(&format!("run {name}"), "run NAME"))
                })
                .collect()
        };
        assert_eq!(strip(got, &name), strip(want, "alone"), "{n} ranks");
    }
}
