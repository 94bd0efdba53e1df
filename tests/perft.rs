//! Exact counts that pin the rules: tic-tac-toe's game tree.

use mnk::game::perft::{count_games, count_positions, GameCounts, PositionCounts};
use mnk::game::{Board, Rules};

#[test]
fn tictactoe_game_count() {
    let mut b = Board::new(Rules::TICTACTOE);
    let c = count_games(&mut b);
    assert_eq!(
        c,
        GameCounts {
            black_wins: 131_184,
            white_wins: 77_904,
            draws: 46_080
        }
    );
    assert_eq!(c.total(), 255_168);
}

#[test]
fn tictactoe_position_count() {
    let mut b = Board::new(Rules::TICTACTOE);
    assert_eq!(
        count_positions(&mut b),
        PositionCounts {
            positions: 5_478,
            non_terminal: 4_520,
            up_to_symmetry: 765
        }
    );
}
