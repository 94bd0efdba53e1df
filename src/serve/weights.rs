//! The weights files an opponent may use (`GET /api/weights`): the files
//! of the weights folder and each run's start and best weights, with the
//! game each is for, so the page offers only those of the game chosen.

use super::error::ApiError;
use crate::eval::Weights;
use crate::game::Rules;
use axum::extract::rejection::QueryRejection;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The most files listed (a runs folder may hold hundreds of runs).
pub const MAX_LISTED: usize = 1000;

/// One weights file.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct WeightsFile {
    /// The path to put in a spec (`weights=…`), as the folder was given
    /// to the server joined with the file's place in it.
    pub path: String,
    /// The game the weights are for (`15x15x5`); `None` when the file
    /// cannot be read.
    pub game: Option<String>,
    /// Why the file cannot be read.
    pub error: Option<String>,
}

/// The body of `GET /api/weights`.
#[derive(Debug, Serialize)]
pub struct WeightsList {
    /// The files, the weights folder's first, each folder sorted by name.
    pub weights: Vec<WeightsFile>,
    /// Whether [`MAX_LISTED`] cut the list short.
    pub truncated: bool,
}

/// The folders listed.
#[derive(Debug)]
struct Folders {
    weights_dir: PathBuf,
    runs_dir: PathBuf,
}

/// The route `GET /api/weights` over the two folders.
pub fn router(weights_dir: PathBuf, runs_dir: PathBuf) -> Router {
    Router::new()
        .route("/api/weights", get(list))
        .with_state(Arc::new(Folders {
            weights_dir,
            runs_dir,
        }))
}

/// The query of `GET /api/weights`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Query {
    /// Only the weights for this game (`gomoku`, `15x15x5`…).
    game: Option<String>,
}

async fn list(
    State(folders): State<Arc<Folders>>,
    query: Result<axum::extract::Query<Query>, QueryRejection>,
) -> Result<Json<WeightsList>, ApiError> {
    let query = query?;
    let game: Option<Rules> = query.game.as_deref().map(str::parse).transpose()?;
    let mut list =
        tokio::task::spawn_blocking(move || weights_files(&folders.weights_dir, &folders.runs_dir))
            .await
            .map_err(|e| ApiError::Worker(e.to_string()))?;
    if let Some(rules) = game {
        let name = rules.to_string();
        list.weights
            .retain(|w| w.game.as_deref() == Some(name.as_str()));
    }
    Ok(Json(list))
}

/// Sorted entries of a folder that are not hidden (none if it cannot be read).
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The `.toml` files of `weights_dir`, then `start.toml` and `best.toml`
/// of each run under `runs_dir`.
pub fn weights_files(weights_dir: &Path, runs_dir: &Path) -> WeightsList {
    let mut paths: Vec<PathBuf> = entries(weights_dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "toml") && p.is_file())
        .collect();
    for run in entries(runs_dir).into_iter().filter(|p| p.is_dir()) {
        for name in ["start.toml", "best.toml"] {
            let p = run.join("weights").join(name);
            if p.is_file() {
                paths.push(p);
            }
        }
    }
    let truncated = paths.len() > MAX_LISTED;
    paths.truncate(MAX_LISTED);
    let weights = paths
        .into_iter()
        .map(|p| {
            let read = Weights::read(&p);
            WeightsFile {
                path: p.display().to_string(),
                game: read.as_ref().ok().map(|w| w.game.to_string()),
                error: read.err().map(|e| e.to_string()),
            }
        })
        .collect();
    WeightsList { weights, truncated }
}
