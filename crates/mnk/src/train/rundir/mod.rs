//! The run folder `runs/<name>/` and its file formats.
//!
//! ```text
//! runs/<name>/
//!   run.toml              the configuration (RunConfig), seed included
//!   rounds.csv            one row per completed round, round 0 = the start
//!   checks.csv            one row per check (per reference on large boards)
//!   progress.csv          timing per round (not deterministic; informative)
//!   openings.txt          copy of --openings-file, if one was given
//!   verdict.toml          the closing verdict (trained vs start), if played
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
//! so `runs/<name>` either does not exist or can be resumed; the next
//! creation of the name deletes the hidden folders of creations that died.
//! A folder that
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
//! # File formats
//!
//! Each CSV file has one column table that writes its header and rows and
//! that its reader checks them by: `rounds.csv` in `rounds.rs`
//! ([`rounds_header`], [`round_line`], [`parse_rounds`]), `checks.csv` in
//! `checks.rs` ([`checks_header`], [`check_lines`], [`parse_checks`]),
//! `progress.csv` in `progress.rs` ([`progress_line`]); the columns are
//! described there. Every value is checked on read (finite, in range, and
//! figures derived from counts agreeing with them).
//!
//! **Resume trusts nothing it did not write.** [`RunDir::recover`] (in
//! `recover.rs`) puts a folder in order after an interruption and refuses
//! one whose history no longer holds together: every round's row must
//! agree with its weights file, and `run.toml` records a fingerprint of the
//! settings a resume may not change ([`RunConfig::fingerprint`]), checked
//! when it is read. `csv.rs` holds what both share.
//! `verdict.toml` is described in `verdict.rs`; it is written once, after
//! the last round, and a resumed run that plays a new verdict replaces it.

mod checks;
mod csv;
mod progress;
mod recover;
mod rounds;
mod verdict;

pub use checks::{check_lines, checks_header_line, parse_checks};
pub use progress::{progress_header_line, progress_kept, progress_line, ProgressRow};
pub(crate) use recover::round_title;
pub use recover::Recovered;
pub use rounds::{parse_rounds, round_line, rounds_csv_text, rounds_header_line};
pub use verdict::RecordedVerdict;

use crate::eval::Weights;
use crate::train::{CheckRow, RoundResult, RunConfig, TrainError};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The entries a run folder may hold (so `--force` never deletes a folder
/// that is not a run).
const KNOWN_ENTRIES: [&str; 9] = [
    "run.toml",
    "rounds.csv",
    "checks.csv",
    "progress.csv",
    "openings.txt",
    "weights",
    "plots",
    "verdict.txt",
    "verdict.toml",
];

/// A folder that a new run of the same name replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replaced {
    /// A run that had completed round 0 (replaced only when asked to).
    Run(PathBuf),
    /// A folder whose run never completed round 0 (replaced freely).
    NeverStarted(PathBuf),
}

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
    /// its lock (held from before the first file is written), and what
    /// was replaced, if a folder of that name was.
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
    ) -> Result<(RunDir, RunLock, Option<Replaced>), TrainError> {
        super::config::check_name(name)?;
        std::fs::create_dir_all(runs_dir).map_err(|source| TrainError::Write {
            path: runs_dir.to_path_buf(),
            source,
        })?;
        remove_stale_siblings(runs_dir, name);
        let path = runs_dir.join(name);
        let (old, note) = replaceable(&path, force)?.unzip();

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

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A file of the folder.
    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// `run.toml`: the configuration.
    pub fn run_toml(&self) -> PathBuf {
        self.file("run.toml")
    }

    /// `rounds.csv`: one row per completed round.
    pub fn rounds_csv(&self) -> PathBuf {
        self.file("rounds.csv")
    }

    /// `checks.csv`: one row per check (per reference on large boards).
    pub fn checks_csv(&self) -> PathBuf {
        self.file("checks.csv")
    }

    /// `progress.csv`: timing per round.
    pub fn progress_csv(&self) -> PathBuf {
        self.file("progress.csv")
    }

    /// `openings.txt`: the copy of the openings file, if the run has one.
    pub fn openings_txt(&self) -> PathBuf {
        self.file("openings.txt")
    }

    /// `plots/`: the charts `mnk plot` draws.
    pub fn plots(&self) -> PathBuf {
        self.file("plots")
    }

    /// `weights/start.toml`: the start weights.
    pub fn start_weights(&self) -> PathBuf {
        self.path.join("weights").join("start.toml")
    }

    /// `weights/best.toml`: the incumbent after the last completed round.
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
        let path = self.start_weights().display().to_string();
        w.validate(&path)?;
        if w.model() != cfg.model {
            return Err(TrainError::Weights(crate::eval::WeightsError::Field {
                path,
                field: "model".into(),
                message: format!(
                    "the start weights are of the {} model, but run.toml trains the {} model",
                    w.model(),
                    cfg.model
                ),
            }));
        }
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

/// Whether an existing folder at `path` may be replaced by a new run:
/// `None` if there is no folder; otherwise its lock, held until the old
/// folder is gone so that no process starts working in it meanwhile, and
/// what is replaced. Refused if the folder holds files that are not a
/// run's, or if it completed round 0 and `force` is not given.
fn replaceable(path: &Path, force: bool) -> Result<Option<(RunLock, Replaced)>, TrainError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(TrainError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
        Ok(_) => {}
    }
    let read_err = |source| TrainError::Read {
        path: path.to_path_buf(),
        source,
    };
    for e in std::fs::read_dir(path).map_err(read_err)? {
        let n = e
            .map_err(read_err)?
            .file_name()
            .to_string_lossy()
            .into_owned();
        if !KNOWN_ENTRIES.contains(&n.as_str()) && !n.starts_with('.') {
            return Err(TrainError::NotARun {
                path: path.to_path_buf(),
                entry: n,
            });
        }
    }
    let lock = RunLock::acquire(path)?;
    let started = RunDir::new(path).started()?;
    if started && !force {
        return Err(TrainError::Exists {
            path: path.to_path_buf(),
        });
    }
    let replaced = if started {
        Replaced::Run(path.to_path_buf())
    } else {
        Replaced::NeverStarted(path.to_path_buf())
    };
    Ok(Some((lock, replaced)))
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
        let mut file = open_lock(&path, true)?;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) => {
                    let pid: Option<u32> = std::fs::read_to_string(&path)
                        .ok()
                        .and_then(|text| text.trim().parse().ok());
                    // A lock this process dropped can outlive the drop for
                    // a moment: a child spawned meanwhile (by any thread)
                    // holds a copy of the descriptor until it starts its
                    // program. So our own pid gets a short wait; another
                    // process's lock is refused at once.
                    if pid == Some(std::process::id()) && std::time::Instant::now() < deadline {
                        std::thread::sleep(std::time::Duration::from_millis(5));
                        continue;
                    }
                    return Err(TrainError::Locked {
                        path: dir.to_path_buf(),
                        pid,
                    });
                }
                Err(TryLockError::Error(source)) => return Err(TrainError::Lock { path, source }),
            }
        }
        file.set_len(0)
            .and_then(|()| file.write_all(format!("{}\n", std::process::id()).as_bytes()))
            .map_err(|source| TrainError::Write { path, source })?;
        Ok(RunLock { _file: file })
    }

    /// Whether some process (this one included) holds the lock of the run
    /// folder `dir`: a look that changes nothing. The `.lock` file is
    /// opened for reading only, never created, written or truncated, and
    /// a shared lock is tried and dropped at once; it fails exactly while
    /// an exclusive [`RunLock`] is held. A folder without a `.lock` file
    /// (never trained in, or made before locks) is not held.
    ///
    /// The shared lock lives for the length of one system call; an
    /// [`acquire`](RunLock::acquire) that falls in that instant is refused
    /// as if the folder were in use, so call this now and then, not in a
    /// tight loop.
    pub fn is_held(dir: &Path) -> Result<bool, TrainError> {
        let path = dir.join(LOCK_FILE);
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(source) => return Err(TrainError::Lock { path, source }),
        };
        match file.try_lock_shared() {
            Ok(()) => Ok(false),
            Err(TryLockError::WouldBlock) => Ok(true),
            Err(TryLockError::Error(source)) => Err(TrainError::Lock { path, source }),
        }
    }
}

/// Opens a run folder's lock file (`write`: for writing, creating it)
/// without following a symbolic link (`O_NOFOLLOW`) and without waiting on
/// a FIFO (`O_NONBLOCK`), and refuses anything that is not a regular file
/// ([`TrainError::BadLock`]): a `.lock` planted as a link to another file
/// would otherwise get this process's id written into that file.
fn open_lock(path: &Path, write: bool) -> Result<File, TrainError> {
    let mut options = OpenOptions::new();
    options
        .read(true)
        .write(write)
        .create(write)
        .truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let bad = |what| TrainError::BadLock {
        path: path.to_path_buf(),
        what,
    };
    let file = match options.open(path) {
        Ok(file) => file,
        Err(source) => {
            // A link (ELOOP under O_NOFOLLOW), a folder (EISDIR), a socket
            // (ENXIO): said as what they are.
            return Err(match std::fs::symlink_metadata(path) {
                Ok(m) if !m.file_type().is_file() => bad(file_kind(&m.file_type())),
                _ if write => TrainError::Write {
                    path: path.to_path_buf(),
                    source,
                },
                _ => TrainError::Lock {
                    path: path.to_path_buf(),
                    source,
                },
            });
        }
    };
    let meta = file.metadata().map_err(|source| TrainError::Lock {
        path: path.to_path_buf(),
        source,
    })?;
    if !meta.file_type().is_file() {
        return Err(bad(file_kind(&meta.file_type())));
    }
    Ok(file)
}

/// What a file that is not a regular file is, in words.
fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Deletes the hidden folders an interrupted creation of the run `name`
/// left in `runs_dir` (`.<name>~new-…`, `.<name>~old-…`), those whose lock
/// nobody holds, and those not locked yet whose creator (the PID in the
/// name) has ended: their process is gone.
pub(crate) fn remove_stale_siblings(runs_dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(runs_dir) else {
        return;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let creator = n
            .strip_prefix(&format!(".{name}~"))
            .and_then(|r| r.strip_prefix("new-").or_else(|| r.strip_prefix("old-")))
            .and_then(|r| r.split_once('-'))
            .filter(|(pid, k)| digits(pid) && digits(k))
            .map(|(pid, _)| pid.to_string());
        let Some(creator) = creator else {
            continue;
        };
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        // A folder with a lock file we can take, or without one when its
        // creator is gone (killed between making the folder and locking
        // it); a creator still between the two is left alone.
        let lock = e.path().join(LOCK_FILE);
        let stale = match open_lock(&lock, false) {
            Ok(file) => file.try_lock().is_ok(),
            // Something else at the lock's name: not mnk's, left alone.
            Err(TrainError::BadLock { .. }) => false,
            Err(_) => process_is_gone(&creator),
        };
        if stale {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Whether the process `pid` is known to have ended: where the system
/// shows its processes in `/proc`, and never elsewhere (a folder is then
/// left for its owner, as before). A reused pid only keeps a folder.
fn process_is_gone(pid: &str) -> bool {
    let proc = Path::new("/proc");
    proc.join("self").exists() && !proc.join(pid).exists()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unlocked_build_folder_goes_once_its_creator_is_gone() {
        let runs = tempfile::tempdir().unwrap();
        // Killed between making its folder and locking it: no lock file.
        // (No process has this id: it is above any pid_max.)
        let dead = runs.path().join(".r~new-4294967295-0");
        // This process, between the two: kept.
        let alive = runs.path().join(format!(".r~new-{}-0", std::process::id()));
        // Another run's: not touched.
        let other = runs.path().join(".s~new-4294967295-0");
        for d in [&dead, &alive, &other] {
            std::fs::create_dir(d).unwrap();
        }
        remove_stale_siblings(runs.path(), "r");
        assert_eq!(dead.exists(), !Path::new("/proc/self").exists());
        assert!(alive.exists());
        assert!(other.exists());
    }

    #[test]
    fn is_held_tells_a_held_lock_and_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let lock_file = dir.path().join(LOCK_FILE);
        // No lock file: not held, and none is made.
        assert!(!RunLock::is_held(dir.path()).unwrap());
        assert!(!lock_file.exists());

        let lock = RunLock::acquire(dir.path()).unwrap();
        let written = std::fs::read(&lock_file).unwrap();
        assert!(RunLock::is_held(dir.path()).unwrap());
        assert!(RunLock::is_held(dir.path()).unwrap());
        // The holder's pid is still there: the probe wrote nothing.
        assert_eq!(std::fs::read(&lock_file).unwrap(), written);

        drop(lock);
        assert!(!RunLock::is_held(dir.path()).unwrap());
        // The probe leaves no lock behind: the folder can be taken again.
        let _again = RunLock::acquire(dir.path()).unwrap();
        assert!(RunLock::is_held(dir.path()).unwrap());
    }
}
