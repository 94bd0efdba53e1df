//! What a Replay request can get wrong, and its HTTP answer, in the same
//! `{"error": "…"}` shape as [`crate::ApiError`]'s. A file is always named as the
//! page names it (`records/games.csv`), never by its path on the server.

use crate::error::error_response;
use crate::safe_path::PathError;
use axum::extract::rejection::QueryRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use mnk::game::{PlayError, RulesError};
use mnk::records::{CsvError, SgfError};

/// Why a Replay request failed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A path outside the folder, malformed, or naming no file: answered
    /// with the status [`crate::ApiError::Path`] has (400, 403 or 404).
    #[error(transparent)]
    Path(#[from] PathError),
    /// The folder index is not one of the served folders.
    #[error("no replay folder {index:?}: the folders are numbered 0 to {last}")]
    NoFolder {
        /// The index as given.
        index: String,
        /// The largest index.
        last: usize,
    },
    /// The path names a folder, or a file that is not `.csv` or `.sgf`.
    #[error("{0}: not a records file (a .csv or .sgf file)")]
    NotRecords(String),
    /// The file is larger than the server reads for the page.
    #[error("{name}: {bytes} bytes is too large to replay here (the limit is {limit} bytes)")]
    TooLarge {
        /// The file.
        name: String,
        /// Its size.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// A CSV records file does not parse (the library's error: line and why).
    #[error("{name}: {error}")]
    Csv {
        /// The file.
        name: String,
        /// Where and what.
        error: CsvError,
    },
    /// An SGF file does not parse (the library's error: byte, line, game).
    #[error("{name}: {error}")]
    Sgf {
        /// The file.
        name: String,
        /// Where and what.
        error: SgfError,
    },
    /// The file cannot be read (not UTF-8, or the server may not read it).
    #[error("{name}: {error}")]
    Unreadable {
        /// The file.
        name: String,
        /// Why.
        error: std::io::Error,
    },
    /// A game number the file does not have.
    #[error("{name}: there is no game {number}: the file holds {count} games (numbered from 1)")]
    NoSuchGame {
        /// The file.
        name: String,
        /// The number asked for.
        number: usize,
        /// How many games the file holds.
        count: usize,
    },
    /// A game whose moves do not replay (the readers check every move, so
    /// this is only a guard against a panic).
    #[error("{name}: game {number}: {error}")]
    BadGame {
        /// The file.
        name: String,
        /// The game.
        number: usize,
        /// Why.
        error: PlayError,
    },
    /// The `rules` query (the game of records that name none) does not parse.
    #[error("rules: {0}")]
    Rules(#[from] RulesError),
    /// The query string is malformed (`?game=x`).
    #[error("{}", .0.body_text())]
    Query(#[from] QueryRejection),
    /// The reading thread died.
    #[error("internal error: {0}")]
    Task(String),
    /// The file system did not answer in time, or the reading task died.
    #[error(transparent)]
    Fs(#[from] crate::files::FsError),
}

impl ReplayError {
    /// The HTTP status: bad input is a 4xx, a malformed file 422.
    pub fn status(&self) -> StatusCode {
        match self {
            // As every route answers it.
            ReplayError::Path(e) => e.status(),
            ReplayError::NoFolder { .. } | ReplayError::NoSuchGame { .. } => StatusCode::NOT_FOUND,
            ReplayError::NotRecords(_) | ReplayError::Rules(_) | ReplayError::Query(_) => {
                StatusCode::BAD_REQUEST
            }
            ReplayError::TooLarge { .. }
            | ReplayError::Csv { .. }
            | ReplayError::Sgf { .. }
            | ReplayError::BadGame { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            // Not UTF-8 is the file's fault, a file the server may not read
            // is forbidden; anything else (a disk error) is the server's.
            ReplayError::Unreadable { error, .. } => match error.kind() {
                std::io::ErrorKind::InvalidData => StatusCode::UNPROCESSABLE_ENTITY,
                std::io::ErrorKind::NotFound => StatusCode::NOT_FOUND,
                std::io::ErrorKind::PermissionDenied => StatusCode::FORBIDDEN,
                _ => StatusCode::INTERNAL_SERVER_ERROR,
            },
            ReplayError::Task(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ReplayError::Fs(e) => e.status(),
        }
    }
}

impl IntoResponse for ReplayError {
    fn into_response(self) -> Response {
        error_response(self.status(), &self)
    }
}
