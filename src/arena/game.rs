//! One game between two players from an opening.

use super::openings::Opening;
use crate::game::{Board, Color, Move, Outcome, Rules};
use crate::players::{Player, PlayerError, Rng};

/// Why a game could not be played to the end.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("the opening is not legal on this board: {0}")]
    Opening(#[from] crate::game::PlayError),
    #[error("{player} could not move: {source}")]
    Player {
        player: String,
        #[source]
        source: PlayerError,
    },
    #[error("{player} played an illegal move {mv}: {source}")]
    Illegal {
        player: String,
        mv: Move,
        #[source]
        source: crate::game::PlayError,
    },
}

/// Plays a game to the end and returns its result; `board` then holds the
/// whole game. The board is reused (reset first) so a worker does not
/// allocate per game.
pub fn play_game(
    rules: Rules,
    opening: &Opening,
    black: &mut dyn Player,
    white: &mut dyn Player,
    board: &mut Board,
    rng: &mut Rng,
) -> Result<Outcome, GameError> {
    if board.rules() != &rules {
        *board = Board::new(rules);
    }
    board.reset();
    for &m in &opening.moves {
        board.play(m)?;
    }
    black.new_game();
    white.new_game();
    while board.outcome().is_none() {
        let p: &mut dyn Player = match board.to_move() {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let m = p.choose(board, rng).map_err(|source| GameError::Player {
            player: p.name(),
            source,
        })?;
        board.play(m).map_err(|source| GameError::Illegal {
            player: p.name(),
            mv: m,
            source,
        })?;
    }
    Ok(board.outcome().unwrap_or(Outcome::Draw))
}
