//! The Training view's API: the run folders under `--runs-dir`, their
//! state and chart data, and live updates as rounds land.
//!
//! ```text
//! GET /api/runs               → {"runs": [summary, …]} sorted by name
//! GET /api/runs/{name}        → summary + "charts" (columnar chart data)
//! GET /api/runs/{name}/events → text/event-stream: an `update` event
//!                               (data: the summary) at once and whenever
//!                               the run's files or running state change
//! ```
//!
//! A summary is `{name, state, running, error, game, player, optimizer,
//! planned_rounds, round, games, last_check, verdict, updated}` ([`Summary`]);
//! `state` is `running`, `stopped`, `finished` or `damaged`. A run is
//! running while a process holds its lock ([`RunLock::is_held`], which
//! neither writes nor creates the lock file). A run whose files cannot be
//! read is `damaged`, with the reader's error (file, line, what) in
//! `error`, and the other runs are served as usual; a damaged run can be
//! running too (`running: true`).
//!
//! `charts` ([`Charts`]) holds one array per series: `weights.values[i]`
//! per round, the round robin's scores, σ, SPSA steps, and the checks
//! (exact-player agreement and lost lines on small boards, Elo with 95%
//! intervals per reference on large ones, clamped to ±[`ELO_LIMIT`]).
//!
//! A run name is one path component, checked like any requested path
//! ([`clean_relative`], then [`safe_join`] for links that lead out):
//! `..`, `%2e%2e`, `a%2fb` and absolute paths are a 400, a link out of
//! the runs folder a 403, an unknown run a 404. Folders are read through a
//! cache keyed by their files' lengths and times, so a request costs
//! a few `stat`s unless a round landed.
//!
//! A run's files are read, and its lock probed, only when they are regular
//! files inside its folder ([`regular_inside`]): a link out makes the run
//! damaged, unread, and a FIFO cannot block a request. Every request's
//! file work has a deadline (a 503 after it), and a damaged run's error
//! names its file from the run's folder and quotes nothing of it
//! ([`super::files::quiet_error`]).

mod data;
mod events;

pub use data::{Charts, RunInfo, State, ELO_LIMIT};

use super::error::error_response;
use super::files::{regular_inside, within, FsError};
use super::safe_path::{clean_relative, safe_join, PathError};
use axum::extract::State as Extract;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use data::{Cache, Reading};
use mnk::train::RunLock;
use rayon::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// What the routes share: the runs folder, the readings of its runs and
/// the time a request's file work may take.
#[derive(Debug)]
struct Runs {
    root: PathBuf,
    cache: Cache,
    fs_timeout: Duration,
}

/// The Training view's routes over the runs folder `runs_dir`, each
/// request's file work within `fs_timeout`.
pub fn router(runs_dir: PathBuf, fs_timeout: Duration) -> Router {
    let runs = Arc::new(Runs {
        root: runs_dir,
        cache: Cache::default(),
        fs_timeout,
    });
    Router::new()
        .route("/api/runs", get(list))
        .route("/api/runs/{name}", get(detail))
        .route("/api/runs/{name}/events", get(events::events))
        .with_state(runs)
}

/// Why a runs request failed; the body is `{"error": "…"}` like every
/// other API error.
#[derive(Debug, thiserror::Error)]
enum RunsError {
    /// The name is not one safe path component, or leads out.
    #[error(transparent)]
    Path(#[from] PathError),
    /// No run folder has this name.
    #[error("no run named {0:?}")]
    NoRun(String),
    /// The file system did not answer in time, or its task died.
    #[error(transparent)]
    Fs(#[from] FsError),
}

impl IntoResponse for RunsError {
    fn into_response(self) -> Response {
        let status = match &self {
            RunsError::Path(e) => e.status(),
            RunsError::NoRun(_) => StatusCode::NOT_FOUND,
            RunsError::Fs(e) => e.status(),
        };
        error_response(status, &self)
    }
}

/// A run in the list, or the head of a run's detail.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// The folder's name.
    name: String,
    /// Running, stopped, finished or damaged.
    state: State,
    /// Whether a process holds the run's lock (also when damaged).
    running: bool,
    /// Why the run is damaged.
    error: Option<String>,
    #[serde(flatten)]
    info: RunInfo,
}

impl Summary {
    /// The summary of `reading`, given whether the run's lock is held.
    fn new(name: &str, reading: &Reading, running: bool) -> Summary {
        let state = if reading.error.is_some() {
            State::Damaged
        } else if running {
            State::Running
        } else if reading.finished {
            State::Finished
        } else {
            State::Stopped
        };
        Summary {
            name: name.to_string(),
            state,
            running,
            error: reading.error.clone(),
            info: reading.info.clone(),
        }
    }

    /// A folder that cannot be read at all (a link out of the runs folder).
    fn refused(name: &str, why: String) -> Summary {
        Summary {
            name: name.to_string(),
            state: State::Damaged,
            running: false,
            error: Some(why),
            info: RunInfo::default(),
        }
    }

    /// The round it has reached and whether it runs: what live updates
    /// compare.
    fn progress(&self) -> (State, Option<u32>) {
        (self.state, self.info.round)
    }
}

/// Whether the run in `dir` is held by a process; a lock that cannot be
/// tested counts as not held (the files still tell the rest). Only a
/// regular file is probed: opening a FIFO would block.
fn running(dir: &Path) -> bool {
    // `.lock`: RunLock's file.
    matches!(
        regular_inside(&dir.join(".lock"), dir, ".lock"),
        Ok(Some(_))
    ) && RunLock::is_held(dir).unwrap_or(false)
}

/// The summary of the run folder `dir` named `name`, its lock probed now.
fn summary(runs: &Runs, name: &str, dir: &Path) -> (Summary, Arc<Reading>) {
    let reading = runs.cache.get(dir);
    (Summary::new(name, &reading, running(dir)), reading)
}

#[derive(Serialize)]
struct List {
    runs: Vec<Summary>,
}

/// `GET /api/runs`.
async fn list(Extract(runs): Extract<Arc<Runs>>) -> Result<Json<List>, RunsError> {
    let list = within(runs.fs_timeout, move || list_runs(&runs)).await?;
    Ok(Json(List { runs: list }))
}

/// Every run folder under the runs folder (hidden entries, such as a run
/// being created, and plain files are not runs), by name.
fn list_runs(runs: &Runs) -> Vec<Summary> {
    // A runs folder not made yet holds no runs.
    let Ok(real_root) = runs.root.canonicalize() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(&real_root) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    // Runs are read side by side: a first listing of fifty long runs
    // parses each once, on every core.
    let found: Vec<(Summary, Option<PathBuf>)> = names
        .par_iter()
        .filter_map(|name| {
            let path = real_root.join(name);
            // Links are followed only within the runs folder: one that
            // leads out is listed as refused, and never read.
            let real = path.canonicalize().ok()?;
            if !real.starts_with(&real_root) {
                let why = PathError::Outside(name.clone()).to_string();
                return Some((Summary::refused(name, why), None));
            }
            if !real.is_dir() {
                return None;
            }
            Some((summary(runs, name, &real).0, Some(real)))
        })
        .collect();
    let (out, seen): (Vec<Summary>, Vec<Option<PathBuf>>) = found.into_iter().unzip();
    let seen: Vec<PathBuf> = seen.into_iter().flatten().collect();
    runs.cache.retain(&seen);
    out
}

/// The run folder a request path names: `raw` is the still-encoded name
/// from the URL, which must be one safe path component naming a folder.
fn resolve(root: &Path, raw: &str) -> Result<(String, PathBuf), RunsError> {
    let parts = clean_relative(raw)?;
    let name = parts.join("/");
    if parts.len() != 1 {
        return Err(PathError::Forbidden {
            path: name,
            what: "a / (a run name is one folder name)",
        }
        .into());
    }
    if name.starts_with('.') {
        return Err(RunsError::NoRun(name));
    }
    let dir = safe_join(root, raw).map_err(|e| match e {
        PathError::NotFound(_) => RunsError::NoRun(name.clone()),
        e => e.into(),
    })?;
    if !dir.is_dir() {
        return Err(RunsError::NoRun(name));
    }
    Ok((name, dir))
}

/// The raw run name of a request under `/api/runs/`, before `suffix`.
fn raw_name<'u>(uri: &'u Uri, suffix: &str) -> &'u str {
    let path = uri.path();
    let rest = path.strip_prefix("/api/runs/").unwrap_or(path);
    rest.strip_suffix(suffix).unwrap_or(rest)
}

/// A run's detail: its summary and chart data.
#[derive(Serialize)]
struct Detail {
    #[serde(flatten)]
    summary: Summary,
    charts: Option<ChartsRef>,
}

/// The charts of a cached reading, serialised without a copy.
struct ChartsRef(Arc<Reading>);

impl Serialize for ChartsRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.charts.serialize(s)
    }
}

/// `GET /api/runs/{name}`.
async fn detail(Extract(runs): Extract<Arc<Runs>>, uri: Uri) -> Result<Json<Detail>, RunsError> {
    let raw = raw_name(&uri, "").to_string();
    let detail = within(runs.fs_timeout, move || {
        let (name, dir) = resolve(&runs.root, &raw)?;
        let (summary, reading) = summary(&runs, &name, &dir);
        let charts = reading.charts.is_some().then_some(ChartsRef(reading));
        Ok::<_, RunsError>(Detail { summary, charts })
    })
    .await??;
    Ok(Json(detail))
}
