//! The HTTP routes: the page, its assets and the Play view's JSON API.

use super::assets::{self, Asset, INDEX};
use super::error::ApiError;
use super::games::{GameState, Games, MoveRequest, NewGame, Values};
use super::safe_path::{clean_relative, PathError};
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;

/// The largest request body accepted (JSON requests are tiny).
pub const BODY_LIMIT: usize = 16 * 1024;

/// The server's routes: the page, the Play view over `games`, and the
/// other routers `views` (weights, runs, records).
pub fn router(games: Arc<Games>, views: Vec<Router>) -> Router {
    let play = Router::new()
        .route("/", get(index))
        .route("/assets/{*path}", get(asset))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(state).delete(end))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/values", get(values))
        .with_state(games);
    views
        .into_iter()
        .fold(play, Router::merge)
        .fallback(no_route)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

fn serve_asset(a: &'static Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, a.content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        a.bytes,
    )
        .into_response()
}

async fn index() -> Response {
    serve_asset(&INDEX)
}

/// An embedded asset. The raw (still encoded) path is checked as a file
/// path would be, so traversal attempts get a 400 rather than a 404.
async fn asset(uri: Uri) -> Result<Response, ApiError> {
    let raw = uri.path().strip_prefix("/assets/").unwrap_or_default();
    let parts = clean_relative(raw)?;
    let name = parts.join("/");
    match assets::find(&name) {
        Some(a) => Ok(serve_asset(a)),
        None => Err(PathError::NotFound(name).into()),
    }
}

async fn no_route(uri: Uri) -> ApiError {
    ApiError::NoRoute(uri.path().to_string())
}

/// A game id from the path; a malformed one names no game.
fn game_id(Path(id): Path<String>) -> Result<u64, ApiError> {
    id.parse()
        .map_err(|_| ApiError::NoRoute(format!("/api/games/{id}")))
}

async fn create(
    State(games): State<Arc<Games>>,
    body: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<GameState>), ApiError> {
    let Json(req) = body?;
    Ok((StatusCode::CREATED, Json(games.create(req).await?)))
}

async fn state(
    State(games): State<Arc<Games>>,
    id: Path<String>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(games.get(game_id(id)?).await?))
}

async fn end(State(games): State<Arc<Games>>, id: Path<String>) -> Result<StatusCode, ApiError> {
    games.end(game_id(id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn play(
    State(games): State<Arc<Games>>,
    id: Path<String>,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Result<Json<GameState>, ApiError> {
    let id = game_id(id)?;
    let Json(req) = body?;
    Ok(Json(games.play(id, &req.cell).await?))
}

async fn undo(
    State(games): State<Arc<Games>>,
    id: Path<String>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(games.undo(game_id(id)?).await?))
}

async fn hint(
    State(games): State<Arc<Games>>,
    id: Path<String>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(games.hint(game_id(id)?).await?))
}

async fn resign(
    State(games): State<Arc<Games>>,
    id: Path<String>,
) -> Result<Json<GameState>, ApiError> {
    Ok(Json(games.resign(game_id(id)?).await?))
}

async fn values(
    State(games): State<Arc<Games>>,
    id: Path<String>,
) -> Result<Json<Values>, ApiError> {
    Ok(Json(games.values(game_id(id)?).await?))
}
