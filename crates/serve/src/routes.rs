//! The HTTP routes: the page and its assets, the views' routers merged,
//! and what every request passes first ([`guard`](super::guard)).

use super::assets;
use super::error::ApiError;
use super::guard::{self, Guard};
use super::safe_path::{clean_relative, PathError};
use axum::extract::DefaultBodyLimit;
use axum::http::{header, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::sync::{Arc, LazyLock};

/// The largest request body accepted (JSON requests are tiny).
pub const BODY_LIMIT: usize = 16 * 1024;

/// The server's routes: the page, and the views' routers `views` (games,
/// weights, runs, records), every request checked by `guard`.
pub fn router(guard: Guard, views: Vec<Router>) -> Router {
    let page = Router::new()
        .route("/", get(index))
        .route("/assets/{*path}", get(asset));
    views
        .into_iter()
        .fold(page, Router::merge)
        .fallback(no_route)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(guard),
            guard::check,
        ))
}

fn serve_bytes(content_type: &'static str, bytes: impl IntoResponse) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        bytes,
    )
        .into_response()
}

/// The page, written once from [`assets::page`].
static PAGE: LazyLock<String> = LazyLock::new(assets::page);

async fn index() -> Response {
    serve_bytes("text/html; charset=utf-8", PAGE.as_str())
}

/// An embedded asset. The raw (still encoded) path is checked as a file
/// path would be, so traversal attempts get a 400 rather than a 404.
async fn asset(uri: Uri) -> Result<Response, ApiError> {
    let raw = uri.path().strip_prefix("/assets/").unwrap_or_default();
    let parts = clean_relative(raw)?;
    let name = parts.join("/");
    match assets::find(&name) {
        Some(a) => Ok(serve_bytes(a.content_type, a.bytes)),
        None => Err(PathError::NotFound(name).into()),
    }
}

async fn no_route(uri: Uri) -> ApiError {
    ApiError::NoRoute(uri.path().to_string())
}
