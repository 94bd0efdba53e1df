//! One game between two players from an opening.
//!
//! Two greedy players play through a [`GreedyDuel`] (one shared set of
//! shapes instead of one per player): the same moves, the same draws, half
//! the work. Each worker thread keeps its duel between games, so a game
//! allocates nothing.

use super::openings::Opening;
use crate::game::{Board, Color, Move, Outcome, Rules};
use crate::players::{Greedy, GreedyDuel, Player, PlayerError, Rng};
use std::cell::RefCell;

/// Why a game could not be played to the end.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// A move of the opening cannot be played (off the board, on a taken
    /// cell, or after the game was over).
    #[error("the opening is not legal on this board: {0}")]
    Opening(#[from] crate::game::PlayError),
    /// A player failed to choose a move.
    #[error("{player} could not move: {source}")]
    Player {
        /// The player's name.
        player: String,
        /// Why it could not move.
        #[source]
        source: PlayerError,
    },
    /// A player chose a move the board refuses.
    #[error("{player} played an illegal move {mv}: {source}")]
    Illegal {
        /// The player's name.
        player: String,
        /// The move it chose.
        mv: Move,
        /// Why the board refuses it.
        #[source]
        source: crate::game::PlayError,
    },
}

/// Lets `player` choose a move on `board` and plays it there. On an error
/// the board is unchanged, and the error names the player.
pub fn play_move(
    player: &mut dyn Player,
    board: &mut Board,
    rng: &mut Rng,
) -> Result<Move, GameError> {
    let m = player
        .choose(board, rng)
        .map_err(|source| GameError::Player {
            player: player.name(),
            source,
        })?;
    board.play(m).map_err(|source| GameError::Illegal {
        player: player.name(),
        mv: m,
        source,
    })?;
    Ok(m)
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
    if let (Some(b), Some(w)) = (black.as_greedy(), white.as_greedy()) {
        if b.evaluator().rules() == &rules && w.evaluator().rules() == &rules {
            return play_duel(b, w, board, rng);
        }
    }
    while board.outcome().is_none() {
        let p: &mut dyn Player = match board.to_move() {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        play_move(p, board, rng)?;
    }
    Ok(board.outcome().unwrap_or(Outcome::Draw))
}

thread_local! {
    /// This thread's duel, kept from game to game (rebuilt only when the
    /// game changes).
    static DUEL: RefCell<Option<GreedyDuel>> = const { RefCell::new(None) };
}

/// The rest of a game between two greedy players, from `board`'s position
/// (the opening): what the loop of [`play_game`] does, on one shared set of
/// shapes.
fn play_duel(
    black: &Greedy,
    white: &Greedy,
    board: &mut Board,
    rng: &mut Rng,
) -> Result<Outcome, GameError> {
    DUEL.with_borrow_mut(|slot| {
        let duel = match slot {
            Some(d) if d.rules() == board.rules() => d,
            _ => slot.insert(GreedyDuel::new(*board.rules())),
        };
        duel.start(black, white);
        while board.outcome().is_none() {
            duel.sync(board);
            let mover = board.to_move();
            let player = || match mover {
                Color::Black => black.name(),
                Color::White => white.name(),
            };
            let m = duel.choose(mover, rng).ok_or_else(|| GameError::Player {
                player: player(),
                source: PlayerError::GameOver,
            })?;
            // The duel's choice is an empty cell of a game not over (a
            // taken cell scores −∞), so it is legal.
            board.play_known(m, duel.wins(m, mover));
        }
        Ok(board.outcome().unwrap_or(Outcome::Draw))
    })
}
