//! The Training view's API: the run folders under `--runs-dir`, their
//! state and chart data, and live updates as rounds land.

use axum::Router;
use std::path::PathBuf;

/// The Training view's routes over the runs folder `runs_dir`.
pub fn router(runs_dir: PathBuf) -> Router {
    let _ = runs_dir;
    Router::new()
}
