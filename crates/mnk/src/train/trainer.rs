//! The training loop over a run folder: create or resume, play rounds,
//! check, write.
//!
//! A [`Trainer`] holds its folder's lock ([`RunLock`]) for as long as it
//! lives, and a [`CommitGuard`] while it writes a round's files, so a
//! Ctrl-C handler can stop the process between rounds' writes.

use super::checks::{self, Check, CheckRow, Oracle};
use super::config::{is_small, RunConfig, SHIPPED_BOOK};
use super::method::{self, method};
use super::plateau::{BudgetUse, SigmaChange, SigmaSchedule};
use super::player::TrainedPlayer;
use super::record::RoundResult;
use super::rundir::{self, ProgressRow, Recovered, Replaced, RunDir, RunLock};
use super::seeds::stream;
use super::setting::{ensure, BookNeed, Field, Problem};
use super::snapshot::Snapshot;
use super::TrainError;
use crate::arena::ranks::{self, Timing};
use crate::arena::{derive_seed, game_rng, stats::PairedTally};
use crate::arena::{parse_openings, Book, BookError, BookPart, Opening, OpeningError};
use crate::eval::Weights;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// What the trainer reports as it goes (a progress bar, a log). All
/// methods default to doing nothing.
pub trait Observer {
    /// Training is about to start at `next_round`.
    fn started(&mut self, _cfg: &RunConfig, _next_round: u32) {}
    /// A slow step is starting (such as solving every position).
    fn phase(&mut self, _what: &str) {}
    /// A round was completed and written.
    fn round(&mut self, _event: &RoundEvent<'_>) {}
}

/// An observer that ignores everything.
#[derive(Debug)]
pub struct NoObserver;

impl Observer for NoObserver {}

/// A completed round, as reported to an [`Observer`].
#[derive(Debug)]
pub struct RoundEvent<'a> {
    /// The round.
    pub result: &'a RoundResult,
    /// The check made after this round, if one was due.
    pub check: Option<&'a CheckRow>,
    /// The latest check so far (this round's or an earlier one).
    pub latest_check: Option<&'a CheckRow>,
    /// Round-robin games per second of wall time.
    pub games_per_second: f64,
    /// Wall time of the round robin.
    pub round_seconds: f64,
    /// Wall time of the check.
    pub check_seconds: f64,
    /// What the plateau rule decided after this round (σ of the next).
    pub sigma_change: Option<SigmaChange>,
    /// In a job of several processes, the waiting and communication of
    /// the round's and the check's shared matches (zero for one process).
    pub sharing: Timing,
}

/// The closing match: trained weights against the start weights.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// From the trained weights' view.
    pub tally: PairedTally,
    /// Openings played (each with both colours).
    pub openings: usize,
}

impl Verdict {
    /// One line: score, W/D/L and pentanomial Elo ± 95% (a bound when
    /// every pair was won or lost), and what that says.
    pub fn summary(&self) -> String {
        let t = &self.tally;
        let range = t.pairs.elo_range();
        let word = if range.lower() > 0.0 {
            "stronger"
        } else if range.upper() < 0.0 {
            "weaker"
        } else {
            "no significant difference"
        };
        format!(
            "trained vs start: {:.1}% (W {} D {} L {}) {range} over {} games on unseen openings: {word}",
            100.0 * t.games.score(),
            t.games.wins,
            t.games.draws,
            t.games.losses,
            t.games.games(),
        )
    }
}

/// Lets another thread stop the process cleanly (a Ctrl-C handler): the
/// trainer holds it while it writes a round's files, and it holds the last
/// round written (`None` before round 0). Whoever holds it may end the
/// process knowing no file of the run is half-written.
#[derive(Clone, Debug, Default)]
pub struct CommitGuard(Arc<Mutex<Option<u32>>>);

impl CommitGuard {
    /// Waits until no round is being written, then holds off the next
    /// round's writes until the guard is dropped. The value is the last
    /// round completely written.
    pub fn hold(&self) -> MutexGuard<'_, Option<u32>> {
        // A panic while writing leaves nothing to protect: go on.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A training run attached to its folder.
#[derive(Debug)]
pub struct Trainer {
    dir: RunDir,
    /// The folder's lock; `None` for a replica, which writes nothing.
    lock: Option<RunLock>,
    commit: CommitGuard,
    notes: Vec<String>,
    cfg: RunConfig,
    player: TrainedPlayer,
    /// The player of the large-board checks and the verdict.
    checker: TrainedPlayer,
    start: Weights,
    shipped: Weights,
    rounds: Vec<RoundResult>,
    checks: Vec<CheckRow>,
    /// The openings rounds draw from (the training part of a split book).
    pool: Option<Vec<Opening>>,
    /// The check part of a split book: the checks' and verdict's openings.
    check_pool: Option<Vec<Opening>>,
    oracle: Option<Oracle>,
    check_openings: Option<Vec<Opening>>,
    /// The last round that the folder's `verdict.toml` judged, if any.
    verdict_round: Option<u32>,
    /// A started run that this new one replaced (as asked).
    replaced_run: Option<PathBuf>,
    /// What the optimiser keeps between rounds ([`method::State`]).
    state: method::State,
}

/// Whether a run with configuration `cfg` that has played `rounds` has
/// nothing left to do: every planned round played, the game budget
/// (`max_games`) spent, or the plateau rule stopped it. The trainer's own
/// test ([`Trainer::is_finished`]), for a run read from its folder.
pub fn is_finished(cfg: &RunConfig, rounds: &[RoundResult]) -> bool {
    let games: u64 = rounds.iter().map(RoundResult::total_games).sum();
    rounds.len() as u32 > cfg.rounds
        || (cfg.max_games > 0 && games >= cfg.max_games)
        || SigmaSchedule::replay(cfg, rounds).stopped().is_some()
}

/// A run's openings: those rounds draw from, and the check part.
struct Pools {
    /// `None`: random openings.
    train: Option<Vec<Opening>>,
    check: Option<Vec<Opening>>,
}

/// Splits a run's book as `cfg.book_split` says, and refuses a book too
/// small for the run: a part with fewer openings than a round, a
/// confirmation, an SPSA step or a check plays would be silently cut short.
fn split_pool(cfg: &RunConfig, book: &Book) -> Result<Pools, TrainError> {
    if !cfg.book_split {
        return Ok(Pools {
            train: Some(book.openings.clone()),
            check: None,
        });
    }
    let mut needs = vec![(cfg.openings_per_pairing() as usize, BookNeed::Openings)];
    needs.extend(method(cfg.optimizer).book_need(cfg));
    let (n, need) = needs
        .into_iter()
        .max_by_key(|n| n.0)
        .unwrap_or((1, BookNeed::Openings));
    // Only the sizes are checked here: rounds draw from the whole part.
    if !cfg.random_rounds {
        take(book, BookPart::Train, n, need)?;
    }
    if cfg.check_every > 0 && !is_small(cfg.game) {
        let n = cfg.check_openings as usize;
        take(book, BookPart::Check, n, BookNeed::CheckOpenings)?;
    }
    Ok(Pools {
        train: (!cfg.random_rounds).then(|| book.part(BookPart::Train)),
        check: Some(book.part(BookPart::Check)),
    })
}

/// The first `n` openings of a book's part, or the book's refusal told
/// with what they were needed for.
fn take(book: &Book, part: BookPart, n: usize, need: BookNeed) -> Result<Vec<Opening>, TrainError> {
    book.take(part, n, need.describe())
        .map_err(|book| TrainError::TooFewOpenings { need, book })
}

/// Refuses a verdict of `n` openings from a check part of `have`.
fn verdict_fits(have: usize, n: usize, book: &Path) -> Result<(), TrainError> {
    if have >= n {
        return Ok(());
    }
    Err(TrainError::TooFewOpenings {
        need: BookNeed::Verdict,
        book: BookError::TooFew {
            source_name: book.display().to_string(),
            part: BookPart::Check,
            have,
            need: n,
            what: BookNeed::Verdict.describe().into(),
        },
    })
}

/// The setting whose change from `old` to `new` changes how the rest of
/// a resumed run trains, if any: the optimiser, random search's selection
/// mode, or the settings of the method in use.
pub fn switched(old: &RunConfig, new: &RunConfig) -> Option<Field> {
    if new.optimizer != old.optimizer {
        Some(Field::Optimizer)
    } else {
        method(new.optimizer).switched(old, new)
    }
}

impl Trainer {
    /// Starts a new run in `runs_dir/<cfg.name>` from `start`. Refuses an
    /// existing folder that completed round 0 unless `force`, and a folder
    /// another process works in. If `cfg.openings_file` is set, that file
    /// is read once (it may be a pipe), checked and copied into the folder.
    pub fn create(
        cfg: RunConfig,
        start: Weights,
        runs_dir: &Path,
        force: bool,
    ) -> Result<Trainer, TrainError> {
        Trainer::create_for_verdict(cfg, start, runs_dir, force, 0)
    }

    /// [`Trainer::create`] for a run that will close with a verdict of
    /// `verdict` openings (0: none): a book whose check part cannot play
    /// it is refused before the folder is made, like every other setting,
    /// so a refused run leaves nothing behind to be resumed.
    pub fn create_for_verdict(
        mut cfg: RunConfig,
        start: Weights,
        runs_dir: &Path,
        force: bool,
        verdict: usize,
    ) -> Result<Trainer, TrainError> {
        // The start weights decide what is trained.
        cfg.model = start.model();
        cfg.validate()?;
        let player = cfg.trained_player()?;
        let checker = cfg.checking_player()?;
        if start.game != cfg.game {
            return Err(TrainError::Weights(crate::eval::WeightsError::WrongGame {
                path: cfg.start.clone(),
                found: start.game,
                expected: cfg.game,
            }));
        }
        start.validate(&cfg.start)?;
        // Read once: a pipe or FIFO (`<(...)`) gives its bytes only once.
        // The pool is parsed from these bytes, and the same bytes become
        // the folder's copy, which is what a resume reads.
        let mut pools = None;
        let openings = match &cfg.openings_file {
            Some(p) if p == SHIPPED_BOOK => {
                let book = Book::shipped(cfg.game).ok_or_else(|| TrainError::Config {
                    field: Field::OpeningsFile,
                    problem: Problem::Other(format!("mnk ships no opening book for {}", cfg.game)),
                })?;
                pools = Some(split_pool(&cfg, book)?);
                Some(
                    Book::shipped_text(cfg.game)
                        .unwrap_or_default()
                        .as_bytes()
                        .to_vec(),
                )
            }
            Some(p) => {
                let bytes = std::fs::read(p).map_err(|source| TrainError::Read {
                    path: p.into(),
                    source,
                })?;
                let text = crate::util::text_from_bytes(bytes.clone()).map_err(|source| {
                    OpeningError::Io {
                        path: p.clone(),
                        source,
                    }
                })?;
                let book = Book {
                    source: p.clone(),
                    openings: parse_openings(&text, p, cfg.game)?,
                };
                pools = Some(split_pool(&cfg, &book)?);
                Some(bytes)
            }
            None => None,
        };
        if let Some(check) = pools.as_ref().and_then(|p| p.check.as_ref()) {
            if verdict > 0 {
                let book = cfg.openings_file.as_deref().unwrap_or_default();
                verdict_fits(check.len(), verdict, Path::new(book))?;
            }
        }
        let (dir, lock, note) = RunDir::create(runs_dir, &cfg.name, force, |dir| {
            dir.write(
                &dir.start_weights(),
                start
                    .to_toml(&format!(
                        "start weights of run {} ({})",
                        cfg.name, cfg.start
                    ))
                    .as_bytes(),
            )?;
            if let Some(bytes) = &openings {
                dir.write(&dir.openings_txt(), bytes)?;
            }
            dir.write(&dir.run_toml(), cfg.to_toml()?.as_bytes())
        })?;
        let mut t = Trainer::assemble(dir, Some(lock), cfg, (player, checker), start, pools);
        match note {
            Some(Replaced::NeverStarted(p)) => t.notes.push(format!(
                "replaced {}, which never completed round 0",
                p.display()
            )),
            Some(Replaced::Run(p)) => t.replaced_run = Some(p),
            None => {}
        }
        Ok(t)
    }

    fn assemble(
        dir: RunDir,
        lock: Option<RunLock>,
        cfg: RunConfig,
        (player, checker): (TrainedPlayer, TrainedPlayer),
        start: Weights,
        pools: Option<Pools>,
    ) -> Trainer {
        let (pool, check_pool) = match pools {
            Some(p) => (p.train, p.check),
            None => (None, None),
        };
        Trainer {
            shipped: player.shipped_weights(cfg.game),
            dir,
            lock,
            commit: CommitGuard::default(),
            notes: Vec::new(),
            cfg,
            player,
            checker,
            start,
            rounds: Vec::new(),
            checks: Vec::new(),
            pool,
            check_pool,
            oracle: None,
            check_openings: None,
            verdict_round: None,
            replaced_run: None,
            state: None,
        }
    }

    /// Opens a run folder to continue it: takes its lock (before anything
    /// is written), reads `run.toml` and the start weights, and has the
    /// folder read its rounds and put itself in order
    /// ([`RunDir::recover`]). What it repaired is listed in
    /// [`Trainer::notes`].
    pub fn resume(path: &Path) -> Result<Trainer, TrainError> {
        let dir = RunDir::new(path);
        // A folder that is not a run gets no lock file.
        match dir.read_config() {
            Err(TrainError::NoRun { path }) if path.join("weights").is_dir() => {
                return Err(TrainError::NeverStarted { path })
            }
            r => r?,
        };
        let lock = RunLock::acquire(path)?;
        // Read again now that no other process can change it.
        let cfg = dir.read_config()?;
        let player = cfg.trained_player()?;
        let checker = cfg.checking_player()?;
        let start = dir.read_start(&cfg)?;
        let pools = if cfg.openings_file.is_some() {
            let book = Book::load(&dir.openings_txt(), cfg.game)?;
            Some(split_pool(&cfg, &book)?)
        } else {
            None
        };
        let Recovered {
            rounds,
            checks,
            notes,
            verdict_round,
        } = dir.recover(&lock, &cfg, &start)?;
        let done = rounds.last().map(|r| r.round);
        let mut t = Trainer::assemble(dir, Some(lock), cfg, (player, checker), start, pools);
        *t.commit.hold() = done;
        t.rounds = rounds;
        t.checks = checks;
        t.notes = notes;
        t.verdict_round = verdict_round;
        Ok(t)
    }

    /// What creating or resuming the run repaired or replaced (one line
    /// each), for the user to know.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The folder of a started run that creating this one replaced (which
    /// only happens when asked to), for the front end to say so.
    pub fn replaced_run(&self) -> Option<&Path> {
        self.replaced_run.as_deref()
    }

    /// The guard a Ctrl-C handler holds to stop the process between
    /// rounds' writes (see [`CommitGuard`]).
    pub fn commit_guard(&self) -> CommitGuard {
        self.commit.clone()
    }

    /// Changes the configuration of a resumed run and rewrites `run.toml`.
    ///
    /// Only the number of rounds, `max_games`, the optimiser, the selection
    /// mode and their settings may change; anything else is refused. A
    /// change of optimiser, selection mode or their settings changes how
    /// the rest of the run trains, so it is refused unless `force`. A
    /// format 1 run folder cannot take other optimisers or modes at all.
    pub fn reconfigure(&mut self, new: RunConfig, force: bool) -> Result<(), TrainError> {
        let done = self.rounds.last().map_or(0, |r| r.round);
        ensure(Field::Rounds, new.rounds >= done && new.rounds >= 1, || {
            Problem::Other(format!(
                "{} is fewer than the {done} rounds already played",
                new.rounds
            ))
        })?;
        // The [cmaes] table decides rounds.csv's columns and every
        // generation replayed: it never changes, forced or not.
        ensure(Field::Cmaes, new.cmaes == self.cfg.cmaes, || {
            Problem::Other(
                "a run's CMA-ES settings are fixed when it starts (its candidates are columns of rounds.csv), and only a run started with CMA-ES can use it: start a new run".into(),
            )
        })?;
        if new.frozen() != self.cfg.frozen() {
            return Err(TrainError::Frozen);
        }
        if let Some(field) = switched(&self.cfg, &new) {
            ensure(field, force, || Problem::Switch)?;
        }
        new.validate()?;
        if new != self.cfg {
            if self.writes() {
                self.dir
                    .write(&self.dir.run_toml(), new.to_toml()?.as_bytes())?;
            }
            self.cfg = new;
        }
        Ok(())
    }

    /// The run's configuration.
    pub fn config(&self) -> &RunConfig {
        &self.cfg
    }

    /// The run folder.
    pub fn dir(&self) -> &RunDir {
        &self.dir
    }

    /// The trained player.
    pub fn player(&self) -> &TrainedPlayer {
        &self.player
    }

    /// The next round to play (0 if even the start is not written yet).
    pub fn next_round(&self) -> u32 {
        self.rounds.len() as u32
    }

    /// Whether every planned round has been played, the game budget
    /// (`max_games`) is spent, or the plateau rule stopped the run.
    pub fn is_finished(&self) -> bool {
        is_finished(&self.cfg, &self.rounds)
    }

    /// Random search's σ schedule after the rounds played so far: σ of the
    /// next round, replayed from the configuration and the adoptions
    /// recorded in `rounds.csv` (so a resumed run gets the same σ).
    pub fn sigma_schedule(&self) -> SigmaSchedule {
        SigmaSchedule::replay(&self.cfg, &self.rounds)
    }

    /// The round after which the plateau rule ended the run (`stop`), if
    /// it did.
    pub fn stopped_on_plateau(&self) -> Option<u32> {
        self.sigma_schedule().stopped()
    }

    /// How much of the games played changed nothing (see [`BudgetUse`]).
    pub fn budget_use(&self) -> BudgetUse {
        BudgetUse::of(&self.rounds)
    }

    /// Games played so far by the optimiser (round robins, confirmations,
    /// SPSA steps; not checks).
    pub fn games_played(&self) -> u64 {
        self.rounds.iter().map(RoundResult::total_games).sum()
    }

    /// The index k of the next SPSA step: the number of SPSA steps so far.
    pub fn next_spsa_k(&self) -> u32 {
        super::spsa::next_k(&self.rounds)
    }

    /// The current incumbent (the start weights before round 1).
    pub fn incumbent(&self) -> &Weights {
        self.rounds.last().map_or(&self.start, |r| &r.weights)
    }

    /// The weights of round 0.
    pub fn start_weights(&self) -> &Weights {
        &self.start
    }

    /// Completed rounds, from round 0.
    pub fn rounds(&self) -> &[RoundResult] {
        &self.rounds
    }

    /// Checks made so far.
    pub fn checks(&self) -> &[CheckRow] {
        &self.checks
    }

    /// Plays every remaining round.
    pub fn run(&mut self, obs: &mut dyn Observer) -> Result<(), TrainError> {
        self.run_rounds(u32::MAX, obs)
    }

    /// Plays at most `max` more rounds (round 0, the start, counts as one).
    pub fn run_rounds(&mut self, max: u32, obs: &mut dyn Observer) -> Result<(), TrainError> {
        obs.started(&self.cfg, self.next_round());
        let mut played = 0;
        while !self.is_finished() && played < max {
            self.step(obs)?;
            played += 1;
        }
        Ok(())
    }

    /// Plays, checks and writes the next round.
    fn step(&mut self, obs: &mut dyn Observer) -> Result<(), TrainError> {
        let r = self.next_round();
        ranks::take_timing();
        let mut schedule = self.sigma_schedule();
        let t0 = Instant::now();
        let result = if r == 0 {
            RoundResult::start(&self.cfg, self.start.clone())
        } else {
            let round = method::Round {
                cfg: &self.cfg,
                player: &self.player,
                rounds: &self.rounds,
                pool: self.pool.as_deref(),
                sigma: schedule.sigma(),
                rounds_csv: &self.dir.rounds_csv(),
            };
            method(self.cfg.optimizer).play(&round, &mut self.state)?
        };
        let round_seconds = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let sigma_change = schedule.record(&result);
        // The last round of a run that stops on its game budget or on a
        // plateau is checked like the last planned round.
        let budget_spent = self.cfg.max_games > 0
            && self.games_played() + result.total_games() >= self.cfg.max_games;
        let last = budget_spent || schedule.stopped().is_some();
        let check = if self.cfg.checks_after(r) || (last && self.cfg.check_every > 0) {
            Some(self.check(r, &result.weights.clone(), obs)?)
        } else {
            None
        };
        let check_seconds = t1.elapsed().as_secs_f64();
        let games_per_second = result.total_games() as f64 / round_seconds.max(1e-9);

        let sharing = ranks::take_timing();
        if self.writes() {
            let progress = ProgressRow {
                round: r,
                round_seconds,
                games: result.total_games(),
                games_per_second,
                check_seconds,
                idle_seconds: sharing.idle.as_secs_f64(),
                comm_seconds: sharing.comm.as_secs_f64(),
            };
            self.commit_round(&result, check.as_ref(), &progress)?;
        }
        self.rounds.push(result);
        if let Some(c) = check {
            self.checks.push(c);
        }
        let event = RoundEvent {
            result: self.rounds.last().expect("just pushed"),
            check: self.checks.last().filter(|c| c.round == r),
            latest_check: self.checks.last(),
            games_per_second,
            round_seconds,
            check_seconds,
            sigma_change,
            sharing,
        };
        obs.round(&event);
        Ok(())
    }

    /// Writes a round's files: its weights, then the check and progress
    /// rows, then its `rounds.csv` row (the commit), all under the commit
    /// guard, so a Ctrl-C handler waits for the round to be written whole.
    fn commit_round(
        &self,
        result: &RoundResult,
        check: Option<&CheckRow>,
        progress: &ProgressRow,
    ) -> Result<(), TrainError> {
        let r = result.round;
        let mut committed = self.commit.hold();
        let toml = result.weights.to_toml(&rundir::round_title(&self.cfg, r));
        self.dir
            .write(&self.dir.round_weights(r), toml.as_bytes())?;
        self.dir.write(&self.dir.best_weights(), toml.as_bytes())?;
        if let Some(c) = check {
            self.dir.append(
                &self.dir.checks_csv(),
                &rundir::checks_header_line(is_small(self.cfg.game)),
                &rundir::check_lines(c),
            )?;
        }
        self.dir.append(
            &self.dir.progress_csv(),
            &rundir::progress_header_line(),
            &rundir::progress_line(progress),
        )?;
        self.dir.append(
            &self.dir.rounds_csv(),
            &rundir::rounds_header_line(&self.cfg),
            &rundir::round_line(&self.cfg, result),
        )?;
        *committed = Some(r);
        Ok(())
    }

    /// Whether this trainer writes its run folder: every trainer but a
    /// [`Trainer::replica`].
    pub fn writes(&self) -> bool {
        self.lock.is_some()
    }

    /// What the other ranks of a job need to follow this run from where
    /// it stands (see [`Snapshot`]): the texts of `run.toml`, the start
    /// weights, the run's book and `rounds.csv`, as a resume would read
    /// them.
    pub fn snapshot(&self) -> Result<Snapshot, TrainError> {
        let openings = match &self.cfg.openings_file {
            None => None,
            Some(_) => {
                let path = self.dir.openings_txt();
                let text = crate::util::read_text(&path)
                    .map_err(|source| TrainError::Read { path, source })?;
                Some(text)
            }
        };
        let rounds_csv = rundir::rounds_csv_text(&self.cfg, &self.rounds).unwrap_or_default();
        Ok(Snapshot {
            path: self.dir.path().display().to_string(),
            run_toml: self.cfg.to_toml()?,
            start_toml: self
                .start
                .to_toml(&format!("start weights of run {}", self.cfg.name)),
            openings,
            rounds_csv,
            verdict_round: self.verdict_round,
        })
    }

    /// A run that follows rank 0's (from its [`Trainer::snapshot`]) on
    /// another rank of a job: it plays its share of every round's games and
    /// makes the same choices, but reads and writes no file. Parsed with
    /// the code a resume uses, it holds the same configuration, weights
    /// and rounds bit for bit.
    pub fn replica(s: &Snapshot) -> Result<Trainer, TrainError> {
        let from = |file: &str| format!("{}/{file} (sent by rank 0)", s.path);
        let cfg = RunConfig::from_toml(&s.run_toml, &from("run.toml"))?;
        cfg.validate()?;
        let player = cfg.trained_player()?;
        let checker = cfg.checking_player()?;
        let start = Weights::from_toml(&s.start_toml, &from("weights/start.toml"))?;
        let pools = match &s.openings {
            Some(text) => {
                let source = from("openings.txt");
                let openings = parse_openings(text, &source, cfg.game)?;
                Some(split_pool(&cfg, &Book { source, openings })?)
            }
            None => None,
        };
        let dir = RunDir::new(&s.path);
        let rounds = rundir::parse_rounds(&s.rounds_csv, &dir.rounds_csv(), &cfg)?;
        let mut t = Trainer::assemble(dir, None, cfg, (player, checker), start, pools);
        *t.commit.hold() = rounds.last().map(|r| r.round);
        t.rounds = rounds;
        t.verdict_round = s.verdict_round;
        Ok(t)
    }

    /// Checks `weights` as after round `round` (see [`Check`]).
    pub fn check(
        &mut self,
        round: u32,
        weights: &Weights,
        obs: &mut dyn Observer,
    ) -> Result<CheckRow, TrainError> {
        let check = if is_small(self.cfg.game) {
            if self.oracle.is_none() {
                obs.phase("solving every reachable position for the exact checks");
                self.oracle = Some(Oracle::build(self.cfg.game)?);
            }
            let oracle = self.oracle.as_ref().expect("built above");
            Check::Exact(checks::exact_check(
                oracle,
                &self.player,
                weights,
                self.cfg.seed,
            )?)
        } else {
            if self.check_openings.is_none() {
                self.check_openings = Some(checks::check_openings(
                    &self.cfg,
                    self.check_pool.as_deref(),
                ));
            }
            let openings = self.check_openings.as_deref().unwrap_or(&[]);
            // When the run starts from the shipped weights, the two
            // references are one player: play it once.
            let refs: Vec<(&str, &Weights)> = if self.start == self.shipped {
                vec![("start=shipped", &self.start)]
            } else {
                vec![("start", &self.start), ("shipped", &self.shipped)]
            };
            Check::Match(checks::match_check(
                &self.checker,
                weights,
                &refs,
                openings,
                self.cfg.seed,
            )?)
        };
        Ok(CheckRow { round, check })
    }

    /// Keeps the closing verdict `v` in the run folder (`verdict.toml`),
    /// for `mnk plot`; nothing on the ranks that do not write the folder.
    pub fn record_verdict(&mut self, v: &Verdict) -> Result<(), TrainError> {
        if !self.writes() {
            return Ok(());
        }
        let round = self.rounds().last().map_or(0, |r| r.round);
        self.dir.write_verdict(round, v)?;
        self.verdict_round = Some(round);
        Ok(())
    }

    /// Whether the run is finished but its closing verdict was not
    /// recorded for its last round: the process was stopped while it
    /// played the verdict (after the last round's row landed), or the
    /// verdict was never played. A resume then plays it.
    pub fn verdict_due(&self) -> bool {
        self.is_finished() && self.verdict_round != self.rounds.last().map(|r| r.round)
    }

    /// The most openings the closing verdict can play: the size of the
    /// book's check part, or `None` (no limit) with random openings.
    pub fn verdict_limit(&self) -> Option<usize> {
        self.check_pool.as_ref().map(Vec::len)
    }

    /// The closing match: the incumbent against the start weights over
    /// `openings` openings no round played (each with both colours): the
    /// first of the book's check part, or random ones from a stream that
    /// neither training nor the checks use. Refuses more openings than
    /// the check part holds ([`Trainer::verdict_limit`]).
    pub fn verdict(&self, openings: usize) -> Result<Verdict, TrainError> {
        let ops = match &self.check_pool {
            Some(check) => {
                let n = openings.max(1);
                verdict_fits(check.len(), n, &self.dir.openings_txt())?;
                check[..n].to_vec()
            }
            None => {
                let mut rng = game_rng(self.cfg.seed, &[stream::VERDICT]);
                self.cfg.random_openings(openings.max(1), &mut rng)
            }
        };
        let seed = derive_seed(self.cfg.seed, &[stream::VERDICT, 1]);
        let report = self.checker.head_to_head(
            self.cfg.game,
            self.incumbent(),
            &self.start,
            &ops,
            0,
            seed,
        )?;
        Ok(Verdict {
            tally: report.tally,
            openings: ops.len(),
        })
    }
}
