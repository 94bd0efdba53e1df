//! The Play view's routes over [`Games`].

use super::{GameState, Games, MoveRequest, NewGame, Values};
use crate::error::ApiError;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;

/// The Play view's routes (`/api/games…`) over `games`.
pub fn router(games: Arc<Games>) -> Router {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(state).delete(end))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/stop", post(stop))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/values", get(values))
        .with_state(games)
}

type Shared = State<Arc<Games>>;

/// A game id from the path: 32 hex digits, or it names no game.
fn game_id(Path(id): Path<String>) -> Result<String, ApiError> {
    if id.len() == 32 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        Ok(id)
    } else {
        Err(ApiError::NoRoute(
            "/api/games/{id}: a game id is 32 hex digits".to_string(),
        ))
    }
}

async fn create(
    State(games): Shared,
    body: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<GameState>), ApiError> {
    let Json(req) = body?;
    Ok((StatusCode::CREATED, Json(games.create(req).await?)))
}

async fn state(State(games): Shared, id: Path<String>) -> Result<Json<GameState>, ApiError> {
    Ok(Json(games.get(&game_id(id)?).await?))
}

async fn end(State(games): Shared, id: Path<String>) -> Result<StatusCode, ApiError> {
    games.end(&game_id(id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn play(
    State(games): Shared,
    id: Path<String>,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Result<Json<GameState>, ApiError> {
    let id = game_id(id)?;
    let Json(req) = body?;
    Ok(Json(games.play(&id, &req.cell).await?))
}

async fn undo(State(games): Shared, id: Path<String>) -> Result<Json<GameState>, ApiError> {
    Ok(Json(games.undo(&game_id(id)?).await?))
}

async fn hint(State(games): Shared, id: Path<String>) -> Result<Json<GameState>, ApiError> {
    Ok(Json(games.hint(&game_id(id)?).await?))
}

/// The answer of `POST /api/games/{id}/stop`.
#[derive(serde::Serialize)]
struct Stopped {
    /// Whether a think was stopped.
    stopped: bool,
}

async fn stop(State(games): Shared, id: Path<String>) -> Result<Json<Stopped>, ApiError> {
    let stopped = games.stop(&game_id(id)?).await?;
    Ok(Json(Stopped { stopped }))
}

async fn resign(State(games): Shared, id: Path<String>) -> Result<Json<GameState>, ApiError> {
    Ok(Json(games.resign(&game_id(id)?).await?))
}

async fn values(State(games): Shared, id: Path<String>) -> Result<Json<Values>, ApiError> {
    Ok(Json(games.values(&game_id(id)?).await?))
}
