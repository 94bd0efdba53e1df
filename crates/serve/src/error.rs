//! What a request can get wrong, and its HTTP answer: a status and a JSON
//! body `{"error": "…"}`. Bad input is always a 4xx; a 5xx means the
//! server itself failed (a records file it cannot write, a worker that
//! died).

use super::files::FsError;
use super::safe_path::PathError;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use mnk::game::{PlayError, RulesError};
use mnk::play::SessionError;
use mnk::players::SpecError;

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not the JSON the route takes (or too large).
    #[error("{}", .0.body_text())]
    Json(#[from] JsonRejection),
    /// The query string is not the one the route takes.
    #[error("{}", .0.body_text())]
    Query(#[from] QueryRejection),
    /// No game has this id (never had, or it was ended).
    #[error("no game {0}")]
    UnknownGame(String),
    /// The game name does not parse, or its board is smaller than 3×3 or
    /// larger than 26×26 ([`mnk::game::MIN_SIDE`], [`mnk::game::MAX_SIDE`]).
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The colour is neither black nor white.
    #[error("you: {0:?}: expected black or white")]
    Colour(String),
    /// The opponent spec does not parse or cannot be built.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The opponent spec asks for more than the server gives one player.
    #[error("opponent {spec:?}: {why}")]
    SpecRefused {
        /// The spec as given.
        spec: String,
        /// What is refused.
        why: String,
    },
    /// The text is not a cell of this board.
    #[error("{0}")]
    Cell(String),
    /// The cell is taken, or the game is over.
    #[error(transparent)]
    Illegal(#[from] PlayError),
    /// The request does not fit the game's state (an AI is thinking, the
    /// game has ended, nothing to take back).
    #[error("{0}")]
    Conflict(&'static str),
    /// A path outside the served folders, or a missing file.
    #[error(transparent)]
    Path(#[from] PathError),
    /// No route has this path.
    #[error("no such page: {0}")]
    NoRoute(String),
    /// The session failed: a records file that cannot be read or written,
    /// or an AI player that failed.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// A worker thread died.
    #[error("internal error: {0}")]
    Worker(String),
    /// The server is at a limit for now (the search tables' memory held
    /// by games being started or thinking): try again shortly.
    #[error("{0}")]
    Busy(String),
    /// The file system did not answer in time.
    #[error(transparent)]
    Fs(#[from] FsError),
}

impl ApiError {
    /// The HTTP status of the error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Json(r) => r.status(),
            ApiError::Query(r) => r.status(),
            ApiError::UnknownGame(_) | ApiError::NoRoute(_) => StatusCode::NOT_FOUND,
            ApiError::Rules(_)
            | ApiError::Colour(_)
            | ApiError::Spec(_)
            | ApiError::SpecRefused { .. }
            | ApiError::Cell(_)
            | ApiError::Illegal(_) => StatusCode::BAD_REQUEST,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Path(e) => e.status(),
            // A spec is checked before its session starts, so a spec error
            // here is still the request's fault.
            ApiError::Session(SessionError::Spec(_)) => StatusCode::BAD_REQUEST,
            ApiError::Session(_) | ApiError::Worker(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Fs(e) => e.status(),
        }
    }
}

/// An error answer in the API's shape: `status` and `{"error": "…"}`.
pub(crate) fn error_response(status: StatusCode, error: &impl std::fmt::Display) -> Response {
    #[derive(serde::Serialize)]
    struct ErrorBody {
        error: String,
    }
    let body = ErrorBody {
        error: error.to_string(),
    };
    (status, Json(body)).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error_response(self.status(), &self)
    }
}
