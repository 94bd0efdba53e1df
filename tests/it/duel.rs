//! Two greedy players share one set of shapes ([`GreedyDuel`], which
//! `play_game` uses whenever both players are greedy). That must be an
//! optimisation only: every game, move for move and draw for draw, equals
//! the game the two players play on their own evaluators, and the duel's
//! win detection (read off the shapes) equals the board's.

use crate::common::strategies::{rules_of, weights_from};
use mnk::arena::{game_rng, play_game, random_openings, OpeningStyle};
use mnk::eval::{shipped_weights, Weights};
use mnk::game::{Board, Move, Rules};
use mnk::players::{Greedy, Player, PlayerError, Rng};
use proptest::prelude::*;

/// A greedy player that does not say it is one, so `play_game` takes the
/// general path: each player syncs its own evaluator.
#[derive(Debug)]
struct Plain(Greedy);

impl Player for Plain {
    fn name(&self) -> String {
        self.0.name()
    }
    fn choose(&mut self, board: &Board, rng: &mut Rng) -> Result<Move, PlayerError> {
        self.0.choose(board, rng)
    }
}

/// Rule sets covering the flat shape table (k ≤ 6) and the memoised one
/// (k = 7), both rules, small and non-square boards.
fn rules() -> impl Strategy<Value = Rules> {
    rules_of(&[
        "tictactoe",
        "gomoku",
        "7x7x4",
        "9x6x4",
        "11x11x5-exact",
        "10x10x6",
        "12x12x7",
    ])
}

/// Weights from a few small values, so that equal scores (and the seeded
/// draw between them) are common.
fn weights(rules: Rules) -> impl Strategy<Value = Weights> {
    weights_from(rules, &[0.0, 1.0, 2.0, 5.0, 40.0], &[0.5, 1.0, 2.0], &[1.0])
}

fn game_pair() -> impl Strategy<Value = (Rules, Weights, Weights, u64)> {
    rules().prop_flat_map(|r| (Just(r), weights(r), weights(r), any::<u64>()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_duel_plays_the_games_of_two_separate_players((rules, wb, ww, seed) in game_pair()) {
        let openings = random_openings(rules, OpeningStyle::default_for(rules), 6, &mut game_rng(seed, &[0]));
        let (mut b1, mut w1) = (Greedy::new(wb.clone()), Greedy::new(ww.clone()));
        let (mut b2, mut w2) = (Plain(Greedy::new(wb)), Plain(Greedy::new(ww)));
        let (mut board1, mut board2) = (Board::new(rules), Board::new(rules));
        for (i, op) in openings.iter().enumerate() {
            let (mut r1, mut r2) = (game_rng(seed, &[1, i as u64]), game_rng(seed, &[1, i as u64]));
            let o1 = play_game(rules, op, &mut b1, &mut w1, &mut board1, &mut r1).unwrap();
            let o2 = play_game(rules, op, &mut b2, &mut w2, &mut board2, &mut r2).unwrap();
            prop_assert_eq!(o1, o2);
            let moves = |b: &Board| (0..b.ply()).map(|i| b.move_at(i)).collect::<Vec<_>>();
            prop_assert_eq!(moves(&board1), moves(&board2), "{} game {}", rules, i);
            prop_assert_eq!(board1.outcome(), board2.outcome());
            // The same draws were made: the generators are in step.
            prop_assert_eq!(rand::Rng::gen::<u64>(&mut r1), rand::Rng::gen::<u64>(&mut r2));
        }
    }
}

/// One thread plays games of several rule sets in turn through its one
/// duel (rebuilt when the game changes): each equals the general path.
#[test]
fn a_thread_switching_games_keeps_its_duel_right() {
    for (i, name) in ["gomoku", "tictactoe", "gomoku", "7x7x4", "12x12x7"]
        .iter()
        .enumerate()
    {
        let rules: Rules = name.parse().unwrap();
        let w = shipped_weights(rules);
        let op = &random_openings(
            rules,
            OpeningStyle::default_for(rules),
            1,
            &mut game_rng(9, &[i as u64]),
        )[0];
        let (mut a, mut b) = (Board::new(rules), Board::new(rules));
        let o1 = play_game(
            rules,
            op,
            &mut Greedy::new(w.clone()),
            &mut Greedy::new(w.clone()),
            &mut a,
            &mut game_rng(3, &[i as u64]),
        )
        .unwrap();
        let o2 = play_game(
            rules,
            op,
            &mut Plain(Greedy::new(w.clone())),
            &mut Plain(Greedy::new(w)),
            &mut b,
            &mut game_rng(3, &[i as u64]),
        )
        .unwrap();
        assert_eq!((o1, a.ply()), (o2, b.ply()), "{name}");
        assert_eq!(a, b, "{name}");
    }
}
