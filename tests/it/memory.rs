//! Players allocate what they need once: a worker's players hold the same
//! number of bytes after one game as after many (the figures `mnk bench`
//! prints are per worker, not per game).

use mnk::arena::{game_rng, play_game, random_openings, OpeningStyle};
use mnk::eval::shipped_weights;
use mnk::game::{Board, Rules};
use mnk::players::{Greedy, GreedyDuel, Player, RandomPlayer};

/// Plays `n` games of `a` against `b` from random openings on one board.
fn play(rules: Rules, a: &mut dyn Player, b: &mut dyn Player, n: usize, seed: u64) {
    let ops = random_openings(
        rules,
        OpeningStyle::default_for(rules),
        n,
        &mut game_rng(seed, &[0]),
    );
    let mut board = Board::new(rules);
    for (i, op) in ops.iter().enumerate() {
        let (black, white): (&mut dyn Player, &mut dyn Player) = if i % 2 == 0 {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        play_game(
            rules,
            op,
            black,
            white,
            &mut board,
            &mut game_rng(seed, &[1, i as u64]),
        )
        .unwrap();
    }
}

#[test]
fn a_greedy_player_does_not_grow_from_game_to_game() {
    for rules in [Rules::GOMOKU, Rules::TICTACTOE, "12x12x7".parse().unwrap()] {
        let mut g = Greedy::new(shipped_weights(rules));
        play(rules, &mut g, &mut RandomPlayer, 2, 1);
        let after_two = g.heap_bytes();
        assert!(after_two > 0);
        play(rules, &mut g, &mut RandomPlayer, 60, 2);
        assert_eq!(g.heap_bytes(), after_two, "{rules}");
    }
}

#[test]
fn a_duel_reused_for_many_games_does_not_grow() {
    let rules = Rules::GOMOKU;
    let (a, b) = (
        Greedy::new(shipped_weights(rules)),
        Greedy::new(mnk::eval::Weights::flat(rules)),
    );
    let mut duel = GreedyDuel::new(rules);
    let mut board = Board::new(rules);
    let mut rng = game_rng(5, &[0]);
    let mut sizes = Vec::new();
    for game in 0..40 {
        let (black, white) = if game % 2 == 0 { (&a, &b) } else { (&b, &a) };
        duel.start(black, white);
        board.reset();
        while !board.is_over() {
            duel.sync(&board);
            let m = duel.choose(board.to_move(), &mut rng).unwrap();
            board.play(m).unwrap();
        }
        sizes.push(duel.heap_bytes());
    }
    assert!(sizes.iter().all(|&s| s == sizes[0]), "{sizes:?}");
}

#[test]
fn a_search_player_does_not_grow_from_game_to_game() {
    use mnk::players::{Search, SearchLimits};
    let rules: Rules = "9x9x5".parse().unwrap();
    let limits = SearchLimits {
        depth: 2,
        tt_bits: 12,
        ..SearchLimits::default()
    };
    let mut s = Search::new(shipped_weights(rules), limits);
    play(rules, &mut s, &mut RandomPlayer, 30, 3);
    let warm = s.heap_bytes();
    // The table alone is 2^12 entries.
    assert!(warm >= 4096 * mnk::players::TT_ENTRY_BYTES);
    play(rules, &mut s, &mut RandomPlayer, 30, 4);
    // The move buffers are kept at the longest list each ply has held,
    // and the threat extension lets a rare line reach a ply or a list
    // longer than any before (about 700 bytes over these 30 games): a
    // high-water mark that stops where the board does. A leak grows with
    // every game, by more than this over 30 of them.
    let grown = s.heap_bytes().saturating_sub(warm);
    assert!(grown <= 2048, "grew by {grown} bytes over 30 games");
}
