//! The search table's generations: a search player kept across games
//! (whose table is aged, not cleared, at each new game) searches exactly
//! as a fresh player would, node for node, also after the generation
//! counter has wrapped.

use mnk::arena::game_rng;
use mnk::eval::shipped_weights;
use mnk::game::{Board, Rules};
use mnk::players::{Player, RandomPlayer, Search, SearchInfo, SearchLimits};

/// Depth, nodes, score and move of every search of one game between two
/// players, from a random 4-stone opening of seed `game`.
fn play(players: &mut [Search; 2], rules: Rules, game: u64) -> Vec<(u32, u64, u64, String)> {
    let mut rng = game_rng(99, &[game]);
    let mut board = Board::new(rules);
    while board.ply() < 4 {
        let m = RandomPlayer.choose(&board, &mut rng).unwrap();
        board.play(m).unwrap();
    }
    for p in players.iter_mut() {
        p.new_game();
    }
    let mut out = Vec::new();
    while !board.is_over() {
        let p = &mut players[board.ply() % 2];
        let m = p.choose(&board, &mut rng).unwrap();
        let SearchInfo {
            depth,
            nodes,
            score,
            ..
        } = *p.info();
        out.push((depth, nodes, score.to_bits(), m.to_string()));
        board.play(m).unwrap();
    }
    out
}

#[test]
fn a_player_kept_across_300_games_searches_as_a_fresh_one() {
    let rules: Rules = "9x9x5".parse().unwrap();
    let w = shipped_weights(rules);
    // A small table, so later games meet many slots of earlier ones.
    let limits = SearchLimits {
        depth: 3,
        width: 6,
        tt_bits: 8,
        ..SearchLimits::default()
    };
    let make = || Search::new(w.clone(), limits.clone());
    let mut kept = [make(), make()];
    for game in 0..300 {
        let mut fresh = [make(), make()];
        assert_eq!(
            play(&mut kept, rules, game),
            play(&mut fresh, rules, game),
            "game {game}"
        );
    }
}
