//! The Replay view's API: the records files (CSV or SGF) under the allowed
//! folders (`Options::replay_dirs`), and their games move by move.
//!
//! ```text
//! GET /api/records                          → {folders: [{index, name, files: [{path, bytes}], truncated}]}
//! GET /api/records/{folder}/{*path}         → {folder, file, count, games: [summary], truncated}
//! GET /api/records/{folder}/{*path}?game=N  → one game: summary, moves, winning_line, end
//! ```
//!
//! `{folder}` is the folder's index in the list; `{*path}` a file inside
//! it, percent-encoded per component. A summary is `{number, game, width,
//! height, k, rule, rules, black, white, result ("black", "white", "draw"
//! or null), result_text, moves (a count), date}`; one game adds `moves:
//! [{cell, x, y, color}]`, `winning_line` (cell names, empty unless the
//! last move made k in a row) and `end` (the result line `mnk replay`
//! prints). `?rules=GAME` is the game of records that name none (the
//! original program's files), gomoku by default as in `mnk replay`.
//!
//! Files are read with the library's readers ([`read_records`]), games are
//! picked and described as `mnk replay` does ([`Replay`]), and the winning
//! line comes from [`winning_line`] on the replayed [`Board`]; nothing
//! here knows a file format. Paths go through [`safe_join`] (no `..`,
//! absolute paths, encoded variants or links out); the listing finds only
//! files whose start looks like records, so a run's `rounds.csv` is not
//! offered. A malformed file is a 422 naming the file as the page does
//! (`records/bad.csv`) and the line, as the reader's error says.

mod error;
mod list;

pub use error::ReplayError;
pub use list::{FileEntry, Folder, MAX_DEPTH, MAX_ENTRIES, MAX_FILES};

use super::files::within;
use super::games::{result_name, Stone};
use super::safe_path::{clean_relative, safe_join};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use mnk::game::{Board, Rules};
use mnk::play::{winning_line, Replay, Style};
use mnk::records::{read_records, Record, RecordError};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The largest records file the server reads for the page.
pub const MAX_FILE_BYTES: u64 = 32 << 20;
/// The most game summaries a file's listing holds (any game can still be
/// asked for by number).
pub const MAX_LISTED_GAMES: usize = 5000;

/// How many requests read files at once; others wait their turn, so a
/// burst of requests for large files cannot hold many copies in memory.
pub const MAX_READERS: usize = 2;

/// The Replay view's routes over the records files under `dirs`.
/// Each request's file work takes at most `fs_timeout`.
pub fn router(dirs: Vec<PathBuf>, fs_timeout: Duration) -> Router {
    let shared = Shared {
        dirs,
        readers: Semaphore::new(MAX_READERS),
        fs_timeout,
    };
    Router::new()
        .route("/api/records", get(folders))
        .route("/api/records/{*rest}", get(file))
        .with_state(Arc::new(shared))
}

/// The routes' state.
#[derive(Debug)]
struct Shared {
    /// The folders served, in order (a folder's index is its place here).
    dirs: Vec<PathBuf>,
    /// Turns to read the file system.
    readers: Semaphore,
    /// The longest a request's file work may take.
    fs_timeout: Duration,
}

type Dirs = State<Arc<Shared>>;

/// Runs `work` on a blocking thread once a reader's turn is free, for at
/// most the routes' file time.
async fn read_turn<T: Send + 'static>(
    shared: &Shared,
    work: impl FnOnce() -> Result<T, ReplayError> + Send + 'static,
) -> Result<T, ReplayError> {
    let _turn = shared
        .readers
        .acquire()
        .await
        .map_err(|e| ReplayError::Task(e.to_string()))?;
    within(shared.fs_timeout, work).await?
}

/// The answer of `GET /api/records`.
#[derive(Debug, Serialize)]
pub struct Folders {
    /// Every served folder, in the server's order.
    pub folders: Vec<Folder>,
}

/// What a game is, in a listing and in a game's answer.
#[derive(Debug, Serialize)]
pub struct GameInfo {
    /// 1-based, as `mnk records list` numbers it.
    pub number: usize,
    /// The rules' name (`gomoku`, `7x6x4-exact`).
    pub game: String,
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Stones in a row that win.
    pub k: u8,
    /// `freestyle` or `exact`.
    pub rule: String,
    /// The rules in words, as `mnk play` says them.
    pub rules: String,
    /// Black's name or spec; may be empty.
    pub black: String,
    /// White's.
    pub white: String,
    /// `black`, `white`, `draw`, or null for an unfinished game.
    pub result: Option<String>,
    /// `black wins`, `white wins`, `draw` or `unfinished`.
    pub result_text: String,
    /// When it was played, if the file says.
    pub date: Option<String>,
}

/// A game in a file's listing.
#[derive(Debug, Serialize)]
pub struct GameSummary {
    /// What it is.
    #[serde(flatten)]
    pub info: GameInfo,
    /// How many moves.
    pub moves: usize,
}

/// The answer for a file: its games.
#[derive(Debug, Serialize)]
pub struct FileGames {
    /// The folder's index.
    pub folder: usize,
    /// The file, relative to the folder.
    pub file: String,
    /// How many games the file holds.
    pub count: usize,
    /// The first [`MAX_LISTED_GAMES`] of them.
    pub games: Vec<GameSummary>,
    /// Whether some were left out.
    pub truncated: bool,
}

/// The answer for one game.
#[derive(Debug, Serialize)]
pub struct GameJson {
    /// The folder's index.
    pub folder: usize,
    /// The file, relative to the folder.
    pub file: String,
    /// How many games the file holds.
    pub count: usize,
    /// What the game is.
    #[serde(flatten)]
    pub info: GameInfo,
    /// Its moves, black first.
    pub moves: Vec<Stone>,
    /// The cells of the winning line on the final board, if any.
    pub winning_line: Vec<String>,
    /// The result line `mnk replay` ends with.
    pub end: String,
}

/// The query of the file route.
#[derive(Debug, Deserialize)]
struct FileQuery {
    /// A game number: answer that game instead of the listing.
    game: Option<usize>,
    /// The game of records that name none.
    rules: Option<String>,
}

async fn folders(State(shared): Dirs) -> Result<Json<Folders>, ReplayError> {
    let dirs = Arc::clone(&shared);
    let listed = read_turn(&shared, move || {
        Ok(Folders {
            folders: dirs
                .dirs
                .iter()
                .enumerate()
                .map(|(i, d)| list::list_folder(i, d))
                .collect(),
        })
    })
    .await?;
    Ok(Json(listed))
}

/// A file's games, or one game with `?game=N`. The path is taken from the
/// raw URI, still encoded, so `safe_join` sees `%2e%2e` as sent.
async fn file(
    State(shared): Dirs,
    uri: Uri,
    query: Result<Query<FileQuery>, QueryRejection>,
) -> Result<Response, ReplayError> {
    let Query(query) = query?;
    let default_rules = match &query.rules {
        Some(r) => r.parse::<Rules>()?,
        None => Rules::GOMOKU,
    };
    let raw = uri
        .path()
        .strip_prefix("/api/records/")
        .unwrap_or_default()
        .to_string();
    let dirs = Arc::clone(&shared);
    read_turn(&shared, move || {
        let opened = read_file(&dirs.dirs, &raw, default_rules)?;
        match query.game {
            Some(n) => one_game(opened, n).map(|g| Json(g).into_response()),
            None => Ok(Json(listing(opened)).into_response()),
        }
    })
    .await
}

/// A records file read for a request.
struct Opened {
    /// The folder's index.
    folder: usize,
    /// The file relative to the folder, decoded.
    rel: String,
    /// The file as errors name it: the folder's name and `rel`.
    shown: String,
    /// Its games.
    records: Vec<Record>,
}

/// Resolves `{folder}/{path}` (raw, still encoded) and reads its games.
fn read_file(dirs: &[PathBuf], raw: &str, default_rules: Rules) -> Result<Opened, ReplayError> {
    let (index, path) = raw.split_once('/').unwrap_or((raw, ""));
    let folder = index
        .parse::<usize>()
        .ok()
        .filter(|&i| i < dirs.len())
        .ok_or_else(|| ReplayError::NoFolder {
            index: index.to_string(),
            last: dirs.len().saturating_sub(1),
        })?;
    let dir = &dirs[folder];
    let rel = clean_relative(path)?.join("/");
    // As the page names the file: never the server's own paths.
    let shown = format!("{}/{rel}", list::folder_name(dir));
    let real = safe_join(dir, path)?;
    if !real.is_file() || !list::is_records_name(&rel) {
        return Err(ReplayError::NotRecords(shown));
    }
    let unreadable = |error| ReplayError::Unreadable {
        name: shown.clone(),
        error,
    };
    let bytes = std::fs::metadata(&real).map_err(unreadable)?.len();
    if bytes > MAX_FILE_BYTES {
        return Err(ReplayError::TooLarge {
            name: shown,
            bytes,
            limit: MAX_FILE_BYTES,
        });
    }
    let records = read_records(&real, default_rules).map_err(|e| match e {
        RecordError::Csv { error, .. } => ReplayError::Csv {
            name: shown.clone(),
            error,
        },
        RecordError::Sgf { error, .. } => ReplayError::Sgf {
            name: shown.clone(),
            error,
        },
        RecordError::Io { error, .. } => ReplayError::Unreadable {
            name: shown.clone(),
            error,
        },
        RecordError::NoSuchGame { number, count, .. } => ReplayError::NoSuchGame {
            name: shown.clone(),
            number,
            count,
        },
    })?;
    Ok(Opened {
        folder,
        rel,
        shown,
        records,
    })
}

fn info(number: usize, r: &Record) -> GameInfo {
    GameInfo {
        number,
        game: r.rules.to_string(),
        width: r.rules.width,
        height: r.rules.height,
        k: r.rules.k,
        rule: r.rules.rule.to_string(),
        rules: mnk::play::describe_rules(r.rules),
        black: r.black.clone(),
        white: r.white.clone(),
        result: r.result.map(result_name),
        result_text: r.result_text(),
        date: r.date.clone(),
    }
}

fn listing(opened: Opened) -> FileGames {
    let records = &opened.records;
    FileGames {
        folder: opened.folder,
        count: records.len(),
        games: records
            .iter()
            .take(MAX_LISTED_GAMES)
            .enumerate()
            .map(|(i, r)| GameSummary {
                info: info(i + 1, r),
                moves: r.plies(),
            })
            .collect(),
        truncated: records.len() > MAX_LISTED_GAMES,
        file: opened.rel,
    }
}

/// Game `number` (from 1), picked as `mnk replay -n` picks it.
fn one_game(opened: Opened, number: usize) -> Result<GameJson, ReplayError> {
    let records = &opened.records;
    let count = records.len();
    let no_such_game = || ReplayError::NoSuchGame {
        name: opened.shown.clone(),
        number,
        count,
    };
    let record = number
        .checked_sub(1)
        .and_then(|i| records.get(i))
        .ok_or_else(no_such_game)?;
    // The readers checked every move, so these cannot fail; a failure is
    // still the file's, never a panic.
    let bad_game = |error| ReplayError::BadGame {
        name: opened.shown.clone(),
        number,
        error,
    };
    let end = Replay::new(record, number, count, Style::PLAIN)
        .map_err(bad_game)?
        .result_line();
    let board: Board = record.replay().map_err(bad_game)?;
    Ok(GameJson {
        folder: opened.folder,
        count,
        info: info(number, record),
        moves: Stone::all(&board),
        winning_line: winning_line(&board).iter().map(|m| m.to_string()).collect(),
        end,
        file: opened.rel.clone(),
    })
}
