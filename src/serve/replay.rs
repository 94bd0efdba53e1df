//! The Replay view's API: records files (CSV or SGF) under the allowed
//! folders, and their games move by move.

use axum::Router;
use std::path::PathBuf;

/// The Replay view's routes over the records files under `dirs`.
pub fn router(dirs: Vec<PathBuf>) -> Router {
    let _ = dirs;
    Router::new()
}
