//! The run folder `runs/<name>/` and its file formats.
//!
//! ```text
//! runs/<name>/
//!   run.toml              the configuration (RunConfig), seed included
//!   rounds.csv            one row per completed round, round 0 = the start
//!   checks.csv            one row per check (per reference on large boards)
//!   progress.csv          timing per round (not deterministic; informative)
//!   openings.txt          copy of --openings-file, if one was given
//!   weights/start.toml    the start weights
//!   weights/round-NNNN.toml   the incumbent after round NNNN
//!   weights/best.toml     the incumbent after the last completed round
//!   plots/                drawn by `mnk plot`
//!   .lock                 held by the process working in the folder
//! ```
//!
//! **One process at a time.** A process that trains in a folder holds an
//! exclusive lock on its `.lock` file ([`RunLock`], an OS file lock, so
//! it is released when the process dies however it dies) and writes its
//! process id there; a second process is refused with
//! [`TrainError::Locked`] before it writes anything.
//!
//! **Creation is atomic.** A new run is built in a hidden sibling folder
//! (`.<name>~new-PID-N`: `~` is never part of a run name) holding
//! `run.toml`, the start weights and the openings, and renamed into place,
//! so `runs/<name>` either does not exist or can be resumed. A folder that
//! never completed round 0 (no row in `rounds.csv`) is replaced by a new
//! run of the same name without `--force`.
//!
//! **Writes.** Weight files and `run.toml` are written whole to a temporary
//! file and renamed ([`crate::util::write_atomic`]). The CSV files grow by
//! durable appends ([`RunDir::append`]: one write, then `fdatasync`; a
//! failed append is cut back), so a round costs its own bytes rather than
//! the whole file again. In a round the weight files, then `checks.csv` and
//! `progress.csv`, and last `rounds.csv` are written, so `rounds.csv` is
//! the commit point: a crash at any moment leaves the last complete round
//! in it, and rows of other files that belong to later rounds are dropped
//! on resume. A crash in the middle of an append leaves an incomplete last
//! line (no newline): readers ignore it and resume cuts it off. Resume also
//! deletes mnk's own temporary files left by an interrupted write
//! ([`crate::util::is_temp_name`]).
//!
//! # `rounds.csv`
//!
//! Header, then one row per round (an SPSA step is a round), in order
//! from 0. Format 2 (`format = 2` in `run.toml`):
//!
//! | column | meaning |
//! | --- | --- |
//! | `round` | 0 for the start weights, then 1, 2, … |
//! | `optimizer` | `random` or `spsa`: what played this round (a run switched with `--force` has both) |
//! | `select` | `best`, `confirm` or `gauntlet`: the selection mode of a random-search round |
//! | `sigma` | the perturbation's σ this round (0 in round 0; empty for SPSA steps) |
//! | `games`, `plies` | games and plies of the round robin (or gauntlet, or θ+ vs θ−), not counting a confirmation |
//! | `champion` | index of the new incumbent: 0 = the incumbent was kept, i = challenger i (empty for SPSA steps) |
//! | `reason` | `start`, `incumbent-best`, `incumbent-tied` (kept on a tie), `challenger-best`, `challenger-tied` (lowest index among tied challengers), `confirmed`, `not-confirmed`, `spsa-step` |
//! | `pI_wins`, `pI_draws`, `pI_losses`, `pI_score` | player I's W/D/L over the round robin and its score W − L (I = 0 the incumbent, 1..=C the challengers; under `gauntlet` the incumbent's are the sum of its C matches) |
//! | `confirm_candidate` | the challenger the confirmation match tested (empty: no confirmation) |
//! | `confirm_games`, `confirm_wins`, `confirm_draws`, `confirm_losses` | the confirmation match, from the challenger's view |
//! | `confirm_ptnml_0` … `confirm_ptnml_4` | its pentanomial: opening pairs where the challenger scored 0, ½, 1, 1½, 2 points |
//! | `confirm_score` | the challenger's score (W + D/2)/N |
//! | `confirm_llr` | the SPRT's log-likelihood ratio where it stopped (empty for fixed games) |
//! | `confirm_verdict`, `confirm_passed` | `accept-h1`, `accept-h0`, `inconclusive` (SPRT) or `pass`, `fail` (fixed games); `yes` if adopted |
//! | `spsa_k` | the step's index among the run's SPSA steps, from 0 (gains use it) |
//! | `spsa_a_k`, `spsa_c_k` | the step gain and perturbation size |
//! | `spsa_plus_wins`, `spsa_plus_draws`, `spsa_plus_losses`, `spsa_ptnml_0` … `spsa_ptnml_4`, `spsa_plus_score` | θ+ against θ−, from θ+'s view |
//! | `spsa_score_diff` | θ+'s score minus θ−'s, (W − L)/N: the `d` of the update |
//! | `attack`, `defence`, `own.<shape>`, `opp.<shape>` | every weight of the new incumbent (SPSA: θ after the step), by name |
//!
//! Columns that do not apply to a row are empty. Format 1 (mnk before the
//! selection modes and SPSA) has only `round,sigma,games,plies,champion,
//! reason`, the player columns and the weights; such folders are still
//! read, plotted and resumed in format 1.
//!
//! Numbers are printed in the shortest form that reads back to the same
//! `f64`, so the last row restores the incumbent exactly. Nothing depends
//! on time or thread count: the file is byte-identical for any number of
//! threads.
//!
//! # `checks.csv`
//!
//! On boards the exact player solves:
//! `round,positions,agreement,agreement_all_ties,lost_lines,lost_as_black,lost_as_white,no_loss_depth`
//! (agreement as a fraction; `no_loss_depth` is 1 to 4 or `none`; see
//! [`super::checks`]).
//!
//! On large boards, one row per reference:
//! `round,reference,games,wins,draws,losses,ptnml_0,ptnml_1,ptnml_2,ptnml_3,ptnml_4,score,elo,elo_lo,elo_hi`
//! (the trained player's view; `ptnml_i` counts opening pairs where it
//! scored i/2 points; Elo and the 95% interval are pentanomial).

use super::{Check, CheckRow, ExactCheck, RefCheck};
use super::{ConfirmVerdict, Confirmation, Reason, RoundResult, SpsaStep};
use super::{Optimizer, RunConfig, Select, TrainError};
use crate::arena::stats::{PairedTally, Pentanomial, Tally};
use crate::eval::Weights;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The entries a run folder may hold (so `--force` never deletes a folder
/// that is not a run).
const KNOWN_ENTRIES: [&str; 8] = [
    "run.toml",
    "rounds.csv",
    "checks.csv",
    "progress.csv",
    "openings.txt",
    "weights",
    "plots",
    "verdict.txt",
];

/// A run folder.
#[derive(Clone, Debug)]
pub struct RunDir {
    path: PathBuf,
}

impl RunDir {
    /// The folder at `path` (nothing is read or created).
    pub fn new(path: impl Into<PathBuf>) -> RunDir {
        RunDir { path: path.into() }
    }

    /// Creates the run folder `runs_dir/name`, atomically: `populate`
    /// writes the new folder's first files into a hidden temporary folder
    /// next to it, which is then renamed into place. Returns the folder,
    /// its lock (held from before the first file is written), and a note
    /// if a folder of that name was replaced.
    ///
    /// An existing folder is refused if another process holds it
    /// ([`TrainError::Locked`]), or if it completed round 0 and `force` is
    /// not given ([`TrainError::Exists`]); even then it is replaced only if
    /// it holds nothing but run files. The old folder is moved aside before
    /// the new one takes its name and deleted after, so a crash never
    /// leaves half of either at the name.
    pub fn create(
        runs_dir: &Path,
        name: &str,
        force: bool,
        populate: impl FnOnce(&RunDir) -> Result<(), TrainError>,
    ) -> Result<(RunDir, RunLock, Option<String>), TrainError> {
        super::config::check_name(name)?;
        std::fs::create_dir_all(runs_dir).map_err(|source| TrainError::Write {
            path: runs_dir.to_path_buf(),
            source,
        })?;
        remove_stale_siblings(runs_dir, name);
        let path = runs_dir.join(name);
        let mut old = None;
        let mut note = None;
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(TrainError::Read { path, source }),
            Ok(_) => {
                let entries = std::fs::read_dir(&path).map_err(|source| TrainError::Read {
                    path: path.clone(),
                    source,
                })?;
                for e in entries {
                    let e = e.map_err(|source| TrainError::Read {
                        path: path.clone(),
                        source,
                    })?;
                    let n = e.file_name().to_string_lossy().into_owned();
                    if !KNOWN_ENTRIES.contains(&n.as_str()) && !n.starts_with('.') {
                        return Err(TrainError::NotARun {
                            path: path.clone(),
                            entry: n,
                        });
                    }
                }
                // Held until the old folder is gone: no process may start
                // working in it meanwhile.
                let lock = RunLock::acquire(&path)?;
                let started = RunDir::new(&path).started()?;
                if started && !force {
                    return Err(TrainError::Exists { path });
                }
                note = Some(if started {
                    format!("replaced the run in {} (--force)", path.display())
                } else {
                    format!("replaced {}, which never completed round 0", path.display())
                });
                old = Some(lock);
            }
        }

        let n = SIBLINGS.fetch_add(1, Ordering::Relaxed);
        let pid = std::process::id();
        let tmp = runs_dir.join(format!(".{name}~new-{pid}-{n}"));
        let in_place = |e: TrainError| in_place(e, &tmp, &path);
        let built = (|| {
            std::fs::create_dir(&tmp).map_err(|source| TrainError::Write {
                path: path.clone(),
                source,
            })?;
            let lock = RunLock::acquire(&tmp)?;
            std::fs::create_dir(tmp.join("weights")).map_err(|source| TrainError::Write {
                path: tmp.join("weights"),
                source,
            })?;
            populate(&RunDir::new(&tmp))?;
            Ok(lock)
        })();
        let lock = match built {
            Ok(lock) => lock,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&tmp);
                return Err(in_place(e));
            }
        };
        let aside = match old {
            Some(_) => {
                let aside = runs_dir.join(format!(".{name}~old-{pid}-{n}"));
                if let Err(source) = std::fs::rename(&path, &aside) {
                    let _ = std::fs::remove_dir_all(&tmp);
                    return Err(TrainError::Write { path, source });
                }
                Some(aside)
            }
            None => None,
        };
        if let Err(source) = std::fs::rename(&tmp, &path) {
            let _ = std::fs::remove_dir_all(&tmp);
            if let Some(aside) = &aside {
                let _ = std::fs::rename(aside, &path);
            }
            // Another process created the folder first.
            if path.is_dir() {
                RunLock::acquire(&path)?;
                return Err(TrainError::Exists { path });
            }
            return Err(TrainError::Write { path, source });
        }
        if let Some(aside) = aside {
            // Left behind on failure; the next creation of this name
            // deletes it.
            let _ = std::fs::remove_dir_all(aside);
        }
        drop(old);
        Ok((RunDir { path }, lock, note))
    }

    /// Whether round 0 was completed: `rounds.csv` has a complete row.
    pub fn started(&self) -> Result<bool, TrainError> {
        let path = self.rounds_csv();
        match std::fs::read(&path) {
            Ok(bytes) => Ok(bytes.iter().filter(|&&b| b == b'\n').count() >= 2),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(source) => Err(TrainError::Read { path, source }),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A file of the folder.
    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    pub fn run_toml(&self) -> PathBuf {
        self.file("run.toml")
    }

    pub fn rounds_csv(&self) -> PathBuf {
        self.file("rounds.csv")
    }

    pub fn checks_csv(&self) -> PathBuf {
        self.file("checks.csv")
    }

    pub fn progress_csv(&self) -> PathBuf {
        self.file("progress.csv")
    }

    pub fn openings_txt(&self) -> PathBuf {
        self.file("openings.txt")
    }

    pub fn plots(&self) -> PathBuf {
        self.file("plots")
    }

    pub fn start_weights(&self) -> PathBuf {
        self.path.join("weights").join("start.toml")
    }

    pub fn best_weights(&self) -> PathBuf {
        self.path.join("weights").join("best.toml")
    }

    /// `weights/round-NNNN.toml`.
    pub fn round_weights(&self, round: u32) -> PathBuf {
        self.path
            .join("weights")
            .join(format!("round-{round:04}.toml"))
    }

    /// Writes a file atomically; errors name the path.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
        crate::util::write_atomic(path, bytes).map_err(|source| TrainError::Write {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Appends whole `lines` to a CSV file of the run: one write, then
    /// `fdatasync`, so a row is on disk once this returns. A failed append
    /// is cut back to the old length. A file that does not exist yet is
    /// created with `header` first, atomically.
    pub fn append(&self, path: &Path, header: &str, lines: &str) -> Result<(), TrainError> {
        let err = |source| TrainError::Write {
            path: path.to_path_buf(),
            source,
        };
        match OpenOptions::new().append(true).open(path) {
            Ok(mut f) => {
                let len = f.metadata().map_err(err)?.len();
                let written = f.write_all(lines.as_bytes()).and_then(|()| f.sync_data());
                if let Err(source) = written {
                    let _ = f.set_len(len);
                    return Err(err(source));
                }
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.write(path, format!("{header}{lines}").as_bytes())
            }
            Err(source) => Err(err(source)),
        }
    }

    /// Makes a file of the run hold exactly `text` (`None`: not exist),
    /// rewriting it atomically only if it differs. Returns whether it
    /// changed anything.
    pub fn set_contents(&self, path: &Path, text: Option<&str>) -> Result<bool, TrainError> {
        let now = match std::fs::read(path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => {
                return Err(TrainError::Read {
                    path: path.to_path_buf(),
                    source,
                })
            }
        };
        match (now, text) {
            (Some(now), Some(text)) if now == text.as_bytes() => Ok(false),
            (None, None) => Ok(false),
            (_, Some(text)) => self.write(path, text.as_bytes()).map(|()| true),
            (Some(_), None) => {
                std::fs::remove_file(path)
                    .map(|()| true)
                    .map_err(|source| TrainError::Write {
                        path: path.to_path_buf(),
                        source,
                    })
            }
        }
    }

    /// Deletes mnk's own temporary files ([`crate::util::is_temp_name`])
    /// from the folder, `weights/` and `plots/`: what an interrupted write
    /// left. Call it only while holding the folder's lock. Returns how
    /// many were deleted.
    pub fn remove_stale_temps(&self) -> usize {
        let mut removed = 0;
        for dir in [self.path.clone(), self.file("weights"), self.plots()] {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if crate::util::is_temp_name(&name)
                    && e.file_type().is_ok_and(|t| t.is_file())
                    && std::fs::remove_file(e.path()).is_ok()
                {
                    removed += 1;
                }
            }
        }
        removed
    }

    /// Reads a CSV file of the run up to its last complete line: a crash
    /// in the middle of an append leaves a last line without its newline,
    /// which is not part of the file's content. `None` if the file does not
    /// exist; otherwise the text and whether an incomplete line was dropped.
    pub fn read_complete(&self, path: &Path) -> Result<Option<(String, bool)>, TrainError> {
        Ok(self.read_optional(path)?.map(|mut text| {
            let keep = text.rfind('\n').map_or(0, |i| i + 1);
            let torn = keep < text.len();
            text.truncate(keep);
            (text, torn)
        }))
    }

    /// Reads a file; `None` if it does not exist.
    pub fn read_optional(&self, path: &Path) -> Result<Option<String>, TrainError> {
        match std::fs::read(path) {
            Ok(bytes) => {
                crate::util::text_from_bytes(bytes)
                    .map(Some)
                    .map_err(|e| TrainError::Corrupt {
                        path: path.to_path_buf(),
                        line: 0,
                        message: e.to_string(),
                    })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(TrainError::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// Reads and checks `run.toml`.
    pub fn read_config(&self) -> Result<RunConfig, TrainError> {
        let path = self.run_toml();
        let text = self
            .read_optional(&path)?
            .ok_or_else(|| TrainError::NoRun {
                path: self.path.clone(),
            })?;
        RunConfig::from_toml(&text, &path.display().to_string())
    }

    /// Reads `weights/start.toml`, which must be for the run's game.
    pub fn read_start(&self, cfg: &RunConfig) -> Result<Weights, TrainError> {
        let w = Weights::load(&self.start_weights(), cfg.game, false)?;
        w.validate(&self.start_weights().display().to_string())?;
        Ok(w)
    }

    /// Reads `rounds.csv` (empty if missing) and checks every row against
    /// the configuration.
    pub fn read_rounds(&self, cfg: &RunConfig) -> Result<Vec<RoundResult>, TrainError> {
        let path = self.rounds_csv();
        match self.read_complete(&path)? {
            None => Ok(Vec::new()),
            Some((text, _)) => parse_rounds(&text, &path, cfg),
        }
    }

    /// Reads `checks.csv` (empty if missing), up to its last complete line.
    pub fn read_checks(&self, cfg: &RunConfig) -> Result<Vec<CheckRow>, TrainError> {
        let path = self.checks_csv();
        match self.read_complete(&path)? {
            None => Ok(Vec::new()),
            Some((text, _)) => parse_checks(&text, &path, super::config::is_small(cfg.game)),
        }
    }
}

/// The name of a run folder's lock file.
pub const LOCK_FILE: &str = ".lock";

/// Numbers the temporary sibling folders of one process.
static SIBLINGS: AtomicU64 = AtomicU64::new(0);

/// An exclusive lock on a run folder, held for as long as one process
/// works in it: an OS lock on the folder's `.lock` file
/// ([`File::try_lock`]), released when the value is dropped or the process
/// ends, even by a crash or a kill, so a dead holder never blocks anyone.
/// The file holds the holder's process id, for the message another process
/// gives.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

impl RunLock {
    /// Locks the folder `dir` (creating its `.lock` file), or fails with
    /// [`TrainError::Locked`] if another process, or another `RunLock` of
    /// this one, holds it.
    pub fn acquire(dir: &Path) -> Result<RunLock, TrainError> {
        let path = dir.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|source| TrainError::Write {
                path: path.clone(),
                source,
            })?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let pid = file
                    .read_to_string(&mut text)
                    .ok()
                    .and_then(|_| text.trim().parse().ok());
                return Err(TrainError::Locked {
                    path: dir.to_path_buf(),
                    pid,
                });
            }
            Err(TryLockError::Error(source)) => return Err(TrainError::Lock { path, source }),
        }
        file.set_len(0)
            .and_then(|()| file.write_all(format!("{}\n", std::process::id()).as_bytes()))
            .map_err(|source| TrainError::Write { path, source })?;
        Ok(RunLock { _file: file })
    }
}

/// Deletes the hidden folders an interrupted creation of the run `name`
/// left in `runs_dir` (`.<name>~new-…`, `.<name>~old-…`), those whose lock
/// nobody holds: their process is gone.
pub(crate) fn remove_stale_siblings(runs_dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(runs_dir) else {
        return;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let ours = n
            .strip_prefix(&format!(".{name}~"))
            .and_then(|r| r.strip_prefix("new-").or_else(|| r.strip_prefix("old-")))
            .and_then(|r| r.split_once('-'))
            .is_some_and(|(pid, k)| digits(pid) && digits(k));
        if !ours || !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        // Only a folder with a lock file we can take: a creator between
        // making the folder and locking it is left alone.
        let Ok(file) = File::open(e.path().join(LOCK_FILE)) else {
            continue;
        };
        if file.try_lock().is_ok() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// An error about a file in the temporary folder `tmp`, told about the
/// same file in the folder it becomes.
fn in_place(e: TrainError, tmp: &Path, path: &Path) -> TrainError {
    let moved = |p: PathBuf| match p.strip_prefix(tmp) {
        Ok(rest) => path.join(rest),
        Err(_) => p,
    };
    match e {
        TrainError::Write { path, source } => TrainError::Write {
            path: moved(path),
            source,
        },
        TrainError::Read { path, source } => TrainError::Read {
            path: moved(path),
            source,
        },
        TrainError::Lock { path, source } => TrainError::Lock {
            path: moved(path),
            source,
        },
        e => e,
    }
}

/// Shortest text that reads back to the same number.
pub(crate) fn num(v: f64) -> String {
    format!("{v}")
}

/// The `rounds.csv` columns of one confirmation match (format 2).
const CONFIRM_COLUMNS: [&str; 14] = [
    "confirm_candidate",
    "confirm_games",
    "confirm_wins",
    "confirm_draws",
    "confirm_losses",
    "confirm_ptnml_0",
    "confirm_ptnml_1",
    "confirm_ptnml_2",
    "confirm_ptnml_3",
    "confirm_ptnml_4",
    "confirm_score",
    "confirm_llr",
    "confirm_verdict",
    "confirm_passed",
];

/// The `rounds.csv` columns of one SPSA step (format 2).
const SPSA_COLUMNS: [&str; 13] = [
    "spsa_k",
    "spsa_a_k",
    "spsa_c_k",
    "spsa_plus_wins",
    "spsa_plus_draws",
    "spsa_plus_losses",
    "spsa_ptnml_0",
    "spsa_ptnml_1",
    "spsa_ptnml_2",
    "spsa_ptnml_3",
    "spsa_ptnml_4",
    "spsa_plus_score",
    "spsa_score_diff",
];

/// The header of `rounds.csv` for a configuration (its format decides the
/// columns; see the module documentation).
pub fn rounds_header(cfg: &RunConfig) -> Vec<String> {
    let fixed: &[&str] = if cfg.format < 2 {
        &["round", "sigma", "games", "plies", "champion", "reason"]
    } else {
        &[
            "round",
            "optimizer",
            "select",
            "sigma",
            "games",
            "plies",
            "champion",
            "reason",
        ]
    };
    let mut h: Vec<String> = fixed.iter().map(|s| s.to_string()).collect();
    for i in 0..=cfg.challengers {
        for f in ["wins", "draws", "losses", "score"] {
            h.push(format!("p{i}_{f}"));
        }
    }
    if cfg.format >= 2 {
        h.extend(CONFIRM_COLUMNS.iter().map(|s| s.to_string()));
        h.extend(SPSA_COLUMNS.iter().map(|s| s.to_string()));
    }
    for (name, _) in Weights::flat(cfg.game).named_values() {
        h.push(name);
    }
    h
}

fn csv_line(fields: &[String]) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Writing to a Vec cannot fail.
    let _ = w.write_record(fields);
    let _ = w.flush();
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// The CSV header line of `rounds.csv`.
pub fn rounds_header_line(cfg: &RunConfig) -> String {
    csv_line(&rounds_header(cfg))
}

/// One `rounds.csv` row in the configuration's format. An SPSA row leaves
/// the random-search columns empty, a random-search row the SPSA columns,
/// and a round without a confirmation the confirmation columns.
pub fn round_line(cfg: &RunConfig, r: &RoundResult) -> String {
    let spsa_row = r.spsa.is_some();
    let mut f = vec![r.round.to_string()];
    if cfg.format >= 2 {
        f.push(r.optimizer.as_str().to_string());
        f.push(r.select.as_str().to_string());
    }
    f.push(if spsa_row {
        String::new()
    } else {
        num(r.sigma)
    });
    f.push(r.games.to_string());
    f.push(r.plies.to_string());
    f.push(if spsa_row {
        String::new()
    } else {
        r.champion.to_string()
    });
    f.push(r.reason.as_str().to_string());
    for i in 0..=cfg.challengers as usize {
        match r.tallies.get(i) {
            Some(t) => {
                f.push(t.wins.to_string());
                f.push(t.draws.to_string());
                f.push(t.losses.to_string());
                f.push(r.score(i).to_string());
            }
            None => f.extend(std::iter::repeat_n(String::new(), 4)),
        }
    }
    if cfg.format >= 2 {
        match &r.confirm {
            Some(c) => {
                let t = &c.tally;
                f.push(c.candidate.to_string());
                f.push(t.games.games().to_string());
                f.push(t.games.wins.to_string());
                f.push(t.games.draws.to_string());
                f.push(t.games.losses.to_string());
                f.extend(t.pairs.bins.iter().map(|b| b.to_string()));
                f.push(num(t.games.score()));
                f.push(c.llr.map_or(String::new(), num));
                f.push(c.verdict.as_str().to_string());
                f.push(if c.passed() { "yes" } else { "no" }.to_string());
            }
            None => f.extend(std::iter::repeat_n(String::new(), CONFIRM_COLUMNS.len())),
        }
        match &r.spsa {
            Some(s) => {
                let t = &s.tally;
                f.push(s.k.to_string());
                f.push(num(s.a_k));
                f.push(num(s.c_k));
                f.push(t.games.wins.to_string());
                f.push(t.games.draws.to_string());
                f.push(t.games.losses.to_string());
                f.extend(t.pairs.bins.iter().map(|b| b.to_string()));
                f.push(num(t.games.score()));
                f.push(num(s.score_diff()));
            }
            None => f.extend(std::iter::repeat_n(String::new(), SPSA_COLUMNS.len())),
        }
    }
    for v in r.weights.to_vec() {
        f.push(num(v));
    }
    csv_line(&f)
}

/// Splits CSV text into records, each with its 1-based line number.
/// The text must end with a newline (a missing one means a cut file).
fn records(text: &str, path: &Path) -> Result<Vec<(usize, Vec<String>)>, TrainError> {
    let corrupt = |line: usize, message: String| TrainError::Corrupt {
        path: path.to_path_buf(),
        line,
        message,
    };
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(corrupt(
            text.lines().count(),
            "the last line is incomplete (the file was cut short)".into(),
        ));
    }
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            corrupt(line, format!("not valid CSV: {e}"))
        })?;
        let line = rec.position().map_or(0, |p| p.line() as usize);
        out.push((line, rec.iter().map(str::to_string).collect()));
    }
    Ok(out)
}

fn parse_field<T: std::str::FromStr>(
    path: &Path,
    line: usize,
    name: &str,
    text: &str,
) -> Result<T, TrainError> {
    text.trim().parse().map_err(|_| TrainError::Corrupt {
        path: path.to_path_buf(),
        line,
        message: format!("column {name}: {text:?} is not a valid value"),
    })
}

/// One record of `rounds.csv`, read by column name.
struct Row<'a> {
    path: &'a Path,
    line: usize,
    header: &'a [String],
    rec: &'a [String],
}

impl Row<'_> {
    fn corrupt(&self, message: String) -> TrainError {
        TrainError::Corrupt {
            path: self.path.to_path_buf(),
            line: self.line,
            message,
        }
    }

    fn text(&self, name: &str) -> &str {
        self.header
            .iter()
            .position(|h| h == name)
            .map_or("", |i| self.rec[i].as_str())
    }

    fn req<T: std::str::FromStr>(&self, name: &str) -> Result<T, TrainError> {
        parse_field(self.path, self.line, name, self.text(name))
    }

    /// `None` for an empty field.
    fn opt<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, TrainError> {
        let t = self.text(name);
        if t.trim().is_empty() {
            Ok(None)
        } else {
            parse_field(self.path, self.line, name, t).map(Some)
        }
    }

    /// Whether every one of these columns is empty.
    fn all_empty(&self, names: &[&str]) -> bool {
        names.iter().all(|n| self.text(n).trim().is_empty())
    }

    fn pentanomial(&self, prefix: &str) -> Result<Pentanomial, TrainError> {
        let mut bins = [0u64; 5];
        for (i, b) in bins.iter_mut().enumerate() {
            *b = self.req(&format!("{prefix}{i}"))?;
        }
        Ok(Pentanomial::new(bins))
    }

    fn tally(&self, prefix: &str) -> Result<Tally, TrainError> {
        Ok(Tally::new(
            self.req(&format!("{prefix}wins"))?,
            self.req(&format!("{prefix}draws"))?,
            self.req(&format!("{prefix}losses"))?,
        ))
    }
}

/// Parses `rounds.csv` and checks it against the configuration: the
/// header, every field, rounds numbered 0, 1, 2, … and consistent counts.
pub fn parse_rounds(
    text: &str,
    path: &Path,
    cfg: &RunConfig,
) -> Result<Vec<RoundResult>, TrainError> {
    let corrupt = |line: usize, message: String| TrainError::Corrupt {
        path: path.to_path_buf(),
        line,
        message,
    };
    let recs = records(text, path)?;
    let header = rounds_header(cfg);
    let Some((hl, h)) = recs.first() else {
        return Ok(Vec::new());
    };
    if *h != header {
        let other = RunConfig {
            format: if cfg.format < 2 { 2 } else { 1 },
            ..cfg.clone()
        };
        let hint = if *h == rounds_header(&other) {
            format!(
                " (it is a format {} header, but run.toml says format {}: the files do not belong together)",
                other.format, cfg.format
            )
        } else {
            String::new()
        };
        return Err(corrupt(
            *hl,
            format!(
                "the header does not match run.toml (expected {} columns: {} …){hint}",
                header.len(),
                header[..6].join(",")
            ),
        ));
    }
    let players = cfg.challengers as usize + 1;
    let weight_names: Vec<String> = Weights::flat(cfg.game)
        .named_values()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let player_columns: Vec<String> = (0..players)
        .flat_map(|p| ["wins", "draws", "losses", "score"].map(|f| format!("p{p}_{f}")))
        .collect();
    let player_columns: Vec<&str> = player_columns.iter().map(String::as_str).collect();
    let mut out: Vec<RoundResult> = Vec::new();
    for (line, rec) in &recs[1..] {
        let line = *line;
        if rec.len() != header.len() {
            return Err(corrupt(
                line,
                format!(
                    "{} fields, expected {} (the row is cut or damaged)",
                    rec.len(),
                    header.len()
                ),
            ));
        }
        let row = Row {
            path,
            line,
            header: &header,
            rec,
        };
        let round: u32 = row.req("round")?;
        if round as usize != out.len() {
            return Err(corrupt(
                line,
                format!("round {round} where round {} was expected", out.len()),
            ));
        }
        let (optimizer, select) = if cfg.format < 2 {
            (Optimizer::Random, Select::Best)
        } else {
            let o: Optimizer = row
                .text("optimizer")
                .parse()
                .map_err(|e: String| corrupt(line, format!("column optimizer: {e}")))?;
            let s: Select = row
                .text("select")
                .parse()
                .map_err(|e: String| corrupt(line, format!("column select: {e}")))?;
            (o, s)
        };
        let games: u64 = row.req("games")?;
        let plies: u64 = row.req("plies")?;
        let reason = Reason::parse(row.text("reason"))
            .ok_or_else(|| corrupt(line, format!("unknown reason {:?}", row.text("reason"))))?;
        let spsa_row = reason == Reason::SpsaStep;
        if spsa_row != (optimizer == Optimizer::Spsa && reason != Reason::Start) {
            return Err(corrupt(
                line,
                format!(
                    "reason {} does not go with optimizer {optimizer}",
                    reason.as_str()
                ),
            ));
        }
        let mut result = RoundResult {
            round,
            optimizer,
            select,
            sigma: 0.0,
            games,
            plies,
            tallies: Vec::new(),
            champion: 0,
            reason,
            confirm: None,
            spsa: None,
            weights: Weights::flat(cfg.game),
        };
        if spsa_row {
            let mut not_empty = player_columns.clone();
            not_empty.extend(["sigma", "champion"]);
            not_empty.extend(CONFIRM_COLUMNS);
            if !row.all_empty(&not_empty) {
                return Err(corrupt(
                    line,
                    "an SPSA step has values in the random-search columns".into(),
                ));
            }
            let step = SpsaStep {
                k: row.req("spsa_k")?,
                a_k: row.req("spsa_a_k")?,
                c_k: row.req("spsa_c_k")?,
                tally: PairedTally {
                    games: row.tally("spsa_plus_")?,
                    pairs: row.pentanomial("spsa_ptnml_")?,
                },
            };
            for name in ["spsa_plus_score", "spsa_score_diff"] {
                let _: f64 = row.req(name)?;
            }
            if step.tally.games.games() != games || 2 * step.tally.pairs.pairs() != games {
                return Err(corrupt(
                    line,
                    format!("the SPSA step's results do not add up to its {games} games"),
                ));
            }
            if let Some(prev) = out.iter().rev().find_map(|r| r.spsa.as_ref()) {
                if step.k != prev.k + 1 {
                    return Err(corrupt(
                        line,
                        format!("SPSA step k = {} follows k = {}", step.k, prev.k),
                    ));
                }
            }
            result.spsa = Some(step);
        } else {
            if cfg.format >= 2 && !row.all_empty(&SPSA_COLUMNS) {
                return Err(corrupt(
                    line,
                    "a random-search row has values in the SPSA columns".into(),
                ));
            }
            result.sigma = row.req("sigma")?;
            result.champion = row.req("champion")?;
            if result.champion >= players {
                return Err(corrupt(
                    line,
                    format!(
                        "champion {} is not a player (0 to {})",
                        result.champion,
                        players - 1
                    ),
                ));
            }
            let mut total = 0u64;
            for p in 0..players {
                let t = row.tally(&format!("p{p}_"))?;
                let name = format!("p{p}_score");
                let s: i64 = row.req(&name)?;
                if s != t.wins as i64 - t.losses as i64 {
                    return Err(corrupt(line, format!("{name} = {s} is not wins - losses")));
                }
                total += t.games();
                result.tallies.push(t);
            }
            if total != 2 * games {
                return Err(corrupt(
                    line,
                    format!("the players' games add up to {total}, not twice the {games} games"),
                ));
            }
            if cfg.format >= 2 {
                result.confirm = parse_confirm(&row)?;
            }
            let confirm_reason = matches!(reason, Reason::Confirmed | Reason::NotConfirmed);
            match &result.confirm {
                None if confirm_reason => {
                    return Err(corrupt(
                        line,
                        format!("reason {} without a confirmation", reason.as_str()),
                    ))
                }
                Some(_) if !confirm_reason => {
                    return Err(corrupt(
                        line,
                        format!(
                            "a confirmation in a round whose reason is {}",
                            reason.as_str()
                        ),
                    ))
                }
                Some(c) => {
                    let ok = if reason == Reason::Confirmed {
                        c.passed() && result.champion == c.candidate
                    } else {
                        !c.passed() && result.champion == 0
                    };
                    if !ok {
                        return Err(corrupt(
                            line,
                            format!(
                                "champion {} and reason {} do not match the confirmation's verdict {}",
                                result.champion,
                                reason.as_str(),
                                c.verdict.as_str()
                            ),
                        ));
                    }
                }
                None => {}
            }
        }
        let mut v = Vec::with_capacity(weight_names.len());
        for name in &weight_names {
            let x: f64 = row.req(name)?;
            if !(x.is_finite() && (0.0..=crate::eval::MAX_WEIGHT).contains(&x)) {
                return Err(corrupt(
                    line,
                    format!("column {name}: weight {x} is out of range"),
                ));
            }
            v.push(x);
        }
        result.weights = Weights::from_vec(cfg.game, &v)
            .ok_or_else(|| corrupt(line, "wrong number of weights".into()))?;
        out.push(result);
    }
    Ok(out)
}

/// The confirmation columns of a random-search row (format 2): all empty,
/// or a complete and consistent confirmation.
fn parse_confirm(row: &Row<'_>) -> Result<Option<Confirmation>, TrainError> {
    if row.all_empty(&CONFIRM_COLUMNS) {
        return Ok(None);
    }
    let candidate: usize = row.req("confirm_candidate")?;
    let games: u64 = row.req("confirm_games")?;
    let tally = PairedTally {
        games: row.tally("confirm_")?,
        pairs: row.pentanomial("confirm_ptnml_")?,
    };
    let _: f64 = row.req("confirm_score")?;
    let llr: Option<f64> = row.opt("confirm_llr")?;
    let verdict = ConfirmVerdict::parse(row.text("confirm_verdict")).ok_or_else(|| {
        row.corrupt(format!(
            "column confirm_verdict: unknown verdict {:?}",
            row.text("confirm_verdict")
        ))
    })?;
    let passed = match row.text("confirm_passed") {
        "yes" => true,
        "no" => false,
        other => {
            return Err(row.corrupt(format!("column confirm_passed: {other:?} is not yes or no")))
        }
    };
    if passed != verdict.passed() {
        return Err(row.corrupt(format!(
            "confirm_passed does not match the verdict {}",
            verdict.as_str()
        )));
    }
    if candidate == 0 {
        return Err(row.corrupt("confirm_candidate 0 is the incumbent".into()));
    }
    if tally.games.games() != games || 2 * tally.pairs.pairs() != games {
        return Err(row.corrupt(format!(
            "the confirmation's results do not add up to its {games} games"
        )));
    }
    Ok(Some(Confirmation {
        candidate,
        tally,
        llr,
        verdict,
    }))
}

/// The header of `checks.csv`.
pub fn checks_header(small: bool) -> Vec<&'static str> {
    if small {
        vec![
            "round",
            "positions",
            "agreement",
            "agreement_all_ties",
            "lost_lines",
            "lost_as_black",
            "lost_as_white",
            "no_loss_depth",
        ]
    } else {
        vec![
            "round",
            "reference",
            "games",
            "wins",
            "draws",
            "losses",
            "ptnml_0",
            "ptnml_1",
            "ptnml_2",
            "ptnml_3",
            "ptnml_4",
            "score",
            "elo",
            "elo_lo",
            "elo_hi",
        ]
    }
}

/// The header line of `checks.csv`.
pub fn checks_header_line(small: bool) -> String {
    let h: Vec<String> = checks_header(small).iter().map(|s| s.to_string()).collect();
    csv_line(&h)
}

/// The `checks.csv` lines of one check.
pub fn check_lines(c: &CheckRow) -> String {
    match &c.check {
        Check::Exact(e) => csv_line(&[
            c.round.to_string(),
            e.positions.to_string(),
            num(e.agreement),
            num(e.agreement_all_ties),
            e.lost_lines().to_string(),
            e.lost_as_black.to_string(),
            e.lost_as_white.to_string(),
            e.no_loss_depth
                .map_or("none".to_string(), |d| d.to_string()),
        ]),
        Check::Match(refs) => refs
            .iter()
            .map(|r| {
                let t = &r.tally;
                let (lo, hi) = t.pairs.elo_interval95();
                let mut f = vec![
                    c.round.to_string(),
                    r.reference.clone(),
                    t.games.games().to_string(),
                    t.games.wins.to_string(),
                    t.games.draws.to_string(),
                    t.games.losses.to_string(),
                ];
                f.extend(t.pairs.bins.iter().map(|b| b.to_string()));
                f.extend([num(t.games.score()), num(t.pairs.elo()), num(lo), num(hi)]);
                csv_line(&f)
            })
            .collect(),
    }
}

/// Parses `checks.csv` (`small`: the exact-check layout).
pub fn parse_checks(text: &str, path: &Path, small: bool) -> Result<Vec<CheckRow>, TrainError> {
    let corrupt = |line: usize, message: String| TrainError::Corrupt {
        path: path.to_path_buf(),
        line,
        message,
    };
    let recs = records(text, path)?;
    let header = checks_header(small);
    let Some((hl, h)) = recs.first() else {
        return Ok(Vec::new());
    };
    if *h != header {
        return Err(corrupt(
            *hl,
            format!("the header is not the expected {}", header.join(",")),
        ));
    }
    let mut out: Vec<CheckRow> = Vec::new();
    for (line, rec) in &recs[1..] {
        let line = *line;
        if rec.len() != header.len() {
            return Err(corrupt(
                line,
                format!(
                    "{} fields, expected {} (the row is cut or damaged)",
                    rec.len(),
                    header.len()
                ),
            ));
        }
        let p = |i: usize| rec[i].as_str();
        let round: u32 = parse_field(path, line, "round", p(0))?;
        if let Some(last) = out.last() {
            let same_check = !small && last.round == round;
            if round < last.round || (round == last.round && !same_check) {
                return Err(corrupt(
                    line,
                    format!("round {round} follows round {}", last.round),
                ));
            }
        }
        if small {
            let e = ExactCheck {
                positions: parse_field(path, line, "positions", p(1))?,
                agreement: parse_field(path, line, "agreement", p(2))?,
                agreement_all_ties: parse_field(path, line, "agreement_all_ties", p(3))?,
                lost_as_black: parse_field(path, line, "lost_as_black", p(5))?,
                lost_as_white: parse_field(path, line, "lost_as_white", p(6))?,
                no_loss_depth: match p(7) {
                    "none" => None,
                    d => Some(parse_field(path, line, "no_loss_depth", d)?),
                },
            };
            let total: u64 = parse_field(path, line, "lost_lines", p(4))?;
            if total != e.lost_lines() {
                return Err(corrupt(
                    line,
                    "lost_lines is not lost_as_black + lost_as_white".into(),
                ));
            }
            out.push(CheckRow {
                round,
                check: Check::Exact(e),
            });
        } else {
            let mut bins = [0u64; 5];
            for (i, b) in bins.iter_mut().enumerate() {
                *b = parse_field(path, line, header[6 + i], p(6 + i))?;
            }
            let tally = PairedTally {
                games: Tally::new(
                    parse_field(path, line, "wins", p(3))?,
                    parse_field(path, line, "draws", p(4))?,
                    parse_field(path, line, "losses", p(5))?,
                ),
                pairs: Pentanomial::new(bins),
            };
            let games: u64 = parse_field(path, line, "games", p(2))?;
            if games != tally.games.games() {
                return Err(corrupt(line, "games is not wins + draws + losses".into()));
            }
            for (i, name) in [(11, "score"), (12, "elo"), (13, "elo_lo"), (14, "elo_hi")] {
                let _: f64 = parse_field(path, line, name, p(i))?;
            }
            let r = RefCheck {
                reference: p(1).to_string(),
                tally,
            };
            match out.last_mut() {
                Some(CheckRow {
                    round: lr,
                    check: Check::Match(v),
                }) if *lr == round => v.push(r),
                _ => out.push(CheckRow {
                    round,
                    check: Check::Match(vec![r]),
                }),
            }
        }
    }
    Ok(out)
}
