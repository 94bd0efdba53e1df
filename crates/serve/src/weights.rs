//! The weights files an opponent may use (`GET /api/weights`): the files
//! of the weights folder and each run's start and best weights, with the
//! game each is for, so the page offers only those of the game chosen.
//!
//! A file is named by its served folder's name and its place in it
//! (`weights/gomoku.toml`, `runs/r1/weights/best.toml`), the name a spec
//! takes ([`super::games::weights_path`]), never by the server's own path.
//! Only regular files inside the folders are read ([`regular_inside`]): a
//! link out is listed as refused, unread; a file that does not parse says
//! where, never what it holds ([`quiet_error`]).

use super::error::ApiError;
use super::files::{quiet_error, regular_inside, within};
use super::games::Root;
use axum::extract::rejection::QueryRejection;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use mnk::eval::Weights;
use mnk::game::Rules;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The most files listed (a runs folder may hold hundreds of runs).
pub const MAX_LISTED: usize = 1000;

/// One weights file.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct WeightsFile {
    /// The path to put in a spec (`weights=…`): the folder's name and the
    /// file's place in it.
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

/// The folders listed, and the time their reading may take.
#[derive(Debug)]
struct Folders {
    roots: Vec<Root>,
    fs_timeout: Duration,
}

/// The route `GET /api/weights` over the weights folder and the runs
/// folder (`roots`, in that order), each reading within `fs_timeout`.
pub fn router(roots: Vec<Root>, fs_timeout: Duration) -> Router {
    Router::new()
        .route("/api/weights", get(list))
        .with_state(Arc::new(Folders { roots, fs_timeout }))
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
    let limit = folders.fs_timeout;
    let mut list = within(limit, move || weights_files(&folders.roots)).await?;
    if let Some(rules) = game {
        let name = rules.to_string();
        list.weights
            .retain(|w| w.game.as_deref() == Some(name.as_str()));
    }
    Ok(Json(list))
}

/// Sorted names of a folder's entries that are not hidden (none if it
/// cannot be read).
fn entries(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The `.toml` files of the first root (the weights folder), then
/// `weights/start.toml` and `weights/best.toml` of each run in the second
/// (the runs folder).
pub fn weights_files(roots: &[Root]) -> WeightsList {
    // (the name shown, the folder's real path, the file's path)
    let mut found: Vec<(String, PathBuf, PathBuf)> = Vec::new();
    for (i, root) in roots.iter().enumerate() {
        let Ok(real_root) = root.dir.canonicalize() else {
            continue;
        };
        for name in entries(&real_root) {
            let files: Vec<String> = if i == 0 {
                vec![name]
                    .into_iter()
                    .filter(|n| n.ends_with(".toml"))
                    .collect()
            } else if real_root.join(&name).is_dir() {
                ["start.toml", "best.toml"]
                    .map(|f| format!("{name}/weights/{f}"))
                    .into()
            } else {
                Vec::new()
            };
            for rel in files {
                let path = real_root.join(&rel);
                found.push((format!("{}/{rel}", root.name), real_root.clone(), path));
            }
        }
    }
    let mut weights = Vec::new();
    for (shown, real_root, path) in found {
        if weights.len() == MAX_LISTED {
            return WeightsList {
                weights,
                truncated: true,
            };
        }
        let read = match regular_inside(&path, &real_root, &shown) {
            Ok(None) => continue,
            Ok(Some(real)) => Weights::read(&real).map_err(|e| {
                let root_name = shown.split('/').next().unwrap_or_default();
                quiet_error(&e.to_string(), &real_root, root_name)
            }),
            Err(refused) => Err(refused.to_string()),
        };
        weights.push(WeightsFile {
            path: shown,
            game: read.as_ref().ok().map(|w| w.game.to_string()),
            error: read.err(),
        });
    }
    WeightsList {
        weights,
        truncated: false,
    }
}
