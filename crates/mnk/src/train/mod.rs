//! Self-play training of a weight set, the original program's trainer done
//! right: reproducible, resumable, checked.
//!
//! Three optimisers ([`Optimizer`]). Each round of **random search**:
//! 1. the incumbent is perturbed into C challengers (every weight times
//!    `exp(σ·N(0,1))`, clamped to `[min_weight, max_weight]`);
//! 2. the C + 1 players play a round robin: every pair plays G openings,
//!    each with both colours, in parallel over rayon (under `gauntlet`,
//!    only the C pairings with the incumbent, over ⌊G·(C+1)/2⌋ openings);
//! 3. each player scores wins − losses; the best becomes the incumbent, the
//!    incumbent staying on a tie ([`Reason`] says why); under `confirm` a
//!    winning challenger must also pass a confirmation match on fresh
//!    openings ([`Confirmation`], [`ConfirmConfig`]); under `gauntlet` it
//!    must beat the incumbent head to head ([`Select`]);
//!    rounds that stop adopting shrink σ ([`SigmaSchedule`], [`PlateauConfig`]);
//! 4. every R rounds the incumbent is checked ([`Check`]): against the
//!    exact player on boards it can solve, against the start and shipped
//!    weights on large boards;
//! 5. the round ([`RoundResult`]) is written to the run folder ([`RunDir`]).
//!
//! An **SPSA** step ([`SpsaStep`], [`SpsaConfig`]) instead plays θ+ against
//! θ− (all weights perturbed at once by ±c_k in log-space) and moves θ
//! along the result; it is checked and written like a round. A **CMA-ES**
//! generation ([`CmaesGen`], [`CmaesConfig`]) plays λ candidates drawn
//! around the mean against the mean (or the run's start,
//! [`CmaesOpponent`]) and adapts the mean, σ and the covariance.
//!
//! Every random choice derives from the run's seed and the round number, so
//! a run is a pure function of its [`RunConfig`] whatever the thread count,
//! and a run resumed after a crash ends exactly like one never interrupted.
//!
//! ```no_run
//! use mnk::game::Rules;
//! use mnk::train::{NoObserver, RunConfig, Trainer};
//! let mut cfg = RunConfig::defaults(Rules::TICTACTOE);
//! cfg.name = "ttt".into();
//! cfg.start = "flat".into();
//! let start = mnk::eval::Weights::flat(Rules::TICTACTOE);
//! let mut t = Trainer::create(cfg, start, "runs".as_ref(), false).unwrap();
//! t.run(&mut NoObserver).unwrap();
//! println!("{}", t.incumbent().to_toml("trained"));
//! ```

mod checks;
mod cmaes;
mod config;
mod confirm;
mod method;
mod perturb;
mod plateau;
mod player;
mod record;
mod round;
mod rundir;
mod seeds;
mod setting;
mod snapshot;
mod spsa;
mod trainer;

pub use checks::{Check, CheckRow, ExactCheck, Oracle, RefCheck};
pub use config::{
    CmaesConfig, CmaesOpponent, ConfirmConfig, Optimizer, PlateauConfig, RunConfig, Select,
    SpsaConfig, StartWeights, FORMAT, MIN_WEIGHT, SHIPPED_BOOK,
};
pub use method::{method, summary as method_summary, Method, Round, State};
pub use perturb::perturb;
pub use plateau::{grouped, BudgetUse, SigmaChange, SigmaMove, SigmaSchedule};
pub use player::TrainedPlayer;
pub use record::{CmaesGen, ConfirmVerdict, Confirmation, Reason, RoundResult, SpsaStep};
pub use rundir::{
    check_lines, checks_header_line, parse_checks, parse_rounds, round_line, rounds_header_line,
    RecordedVerdict, Replaced, RunDir, RunLock,
};
pub use setting::{BookNeed, Field, Problem};
pub use snapshot::Snapshot;
pub use trainer::{is_finished, CommitGuard, NoObserver, Observer, RoundEvent, Trainer, Verdict};

use std::path::PathBuf;

/// Why training could not start, go on, or resume.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A setting is out of range (σ ≤ 0, C < 1, G < 1, a bad name, …).
    #[error("bad setting {field}: {problem}")]
    Config {
        /// The setting, by its `run.toml` key.
        field: Field,
        /// What is wrong with it.
        problem: Problem,
    },
    /// A resumed run was given other settings than the number of rounds,
    /// `max_games`, the optimiser, the selection mode and their settings.
    #[error("bad setting resume: only rounds, max_games, optimizer, select and their settings, and verdict_openings, can change when a run is resumed")]
    Frozen,
    /// The run folder exists and replacing it was not asked for.
    #[error("{path} already exists", path = path.display())]
    Exists {
        /// The run folder.
        path: PathBuf,
    },
    /// `--force` was given for a folder that holds other files.
    #[error("{path} holds {entry:?}, which is not part of a run folder; not deleting it", path = path.display())]
    NotARun {
        /// The folder.
        path: PathBuf,
        /// The first entry that is not part of a run folder.
        entry: String,
    },
    /// Another process works in the run folder (it holds its lock).
    #[error("{path}: in use by another mnk process ({holder}); wait for it to finish or stop it", path = path.display(), holder = match pid { Some(p) => format!("pid {p}"), None => "pid unknown".to_string() })]
    Locked {
        /// The run folder.
        path: PathBuf,
        /// The process that holds the lock, if its lock file says.
        pid: Option<u32>,
    },
    /// The run folder's lock file could not be locked (a file system
    /// without locks).
    #[error("{path}: cannot lock: {source}", path = path.display())]
    Lock {
        /// The run folder.
        path: PathBuf,
        /// Why it could not be locked.
        #[source]
        source: std::io::Error,
    },
    /// The run folder's `.lock` is not a regular file (a symbolic link, a
    /// FIFO, a folder…): it is neither followed nor written, so no file
    /// elsewhere gets a process id and nothing waits on a FIFO.
    #[error("{path}: the lock file is {what}, not a regular file; remove it and mnk makes a new one", path = path.display())]
    BadLock {
        /// The lock file.
        path: PathBuf,
        /// What it is instead (`a symbolic link`, `a FIFO`, …).
        what: &'static str,
    },
    /// No `run.toml` where a run was expected.
    #[error("{path} is not a run folder: it has no run.toml", path = path.display())]
    NoRun {
        /// The folder.
        path: PathBuf,
    },
    /// A folder left by a run stopped before it wrote `run.toml` (mnk
    /// before run folders were created atomically).
    #[error("{path} has no run.toml: its run was stopped before it started", path = path.display())]
    NeverStarted {
        /// The folder.
        path: PathBuf,
    },
    /// `run.toml` is not valid.
    #[error("{path}: {message}")]
    BadRunToml {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// A CSV file of the run is damaged or cut short.
    #[error("{path}:{line}: {message}", path = path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The start weights do not match the rows of the run.
    #[error("{path}: {message}", path = path.display())]
    Inconsistent {
        /// The file whose rows disagree.
        path: PathBuf,
        /// How.
        message: String,
    },
    /// A file could not be written (unwritable folder, full disk, …).
    #[error("{path}: cannot write: {source}", path = path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why it could not be written.
        #[source]
        source: std::io::Error,
    },
    /// A file could not be read.
    #[error("{path}: cannot read: {source}", path = path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why it could not be read.
        #[source]
        source: std::io::Error,
    },
    /// Bad start weights (file unreadable, out of range, wrong game).
    #[error(transparent)]
    Weights(#[from] crate::eval::WeightsError),
    /// A bad openings file.
    #[error(transparent)]
    Openings(#[from] crate::arena::OpeningError),
    /// A bad book.
    #[error(transparent)]
    Book(#[from] crate::arena::BookError),
    /// A book whose part holds fewer openings than the run needs for
    /// `need` (the book's error says how many, and what to do).
    #[error("{book}")]
    TooFewOpenings {
        /// What the openings were needed for.
        need: BookNeed,
        /// The book's refusal ([`crate::arena::BookError::TooFew`]).
        book: crate::arena::BookError,
    },
    /// A game could not be played.
    #[error("a game could not be played: {0}")]
    Game(#[from] crate::arena::GameError),
    /// Rank 0's snapshot of the run did not arrive whole on another rank.
    #[error("cannot follow rank 0's run: {0}")]
    Replica(String),
    /// An exact check could not be made.
    #[error("check: {0}")]
    Check(String),
}
