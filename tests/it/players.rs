//! Player invariants: search and greedy never return illegal moves, the
//! search finds immediate wins and forced blocks, matches are reproducible
//! whatever the thread count, and bad specs are refused with clear errors.

use mnk::arena::{game_rng, random_openings, MatchPlan, OpeningStyle};
use mnk::eval::shipped_weights;
use mnk::game::{Board, Move, Rules};
use mnk::players::{Greedy, Player, PlayerKind, PlayerSpec, RandomPlayer, Search, SearchLimits};
use proptest::prelude::*;
use std::time::Duration;

fn board(rules: Rules, moves: &[&str]) -> Board {
    let ms: Vec<Move> = moves.iter().map(|m| m.parse().unwrap()).collect();
    Board::from_moves(rules, &ms).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn search_and_greedy_play_legal_moves(seed in any::<u64>(), plies in 0usize..40, depth in 1u32..4) {
        for rules in [Rules::GOMOKU, "7x6x4".parse().unwrap(), Rules::TICTACTOE, "9x9x5-exact".parse().unwrap()] {
            let mut rng = game_rng(seed, &[]);
            let mut b = Board::new(rules);
            while b.ply() < plies && !b.is_over() {
                let m = RandomPlayer.choose(&b, &mut rng).unwrap();
                b.play(m).unwrap();
            }
            if b.is_over() {
                continue;
            }
            let w = shipped_weights(rules);
            let mut s = Search::new(w.clone(), SearchLimits { depth, width: 5, ..Default::default() });
            let m = s.choose(&b, &mut rng).unwrap();
            prop_assert!(b.is_legal(m), "search played {m} in {b:?}");
            let m = Greedy::new(w).choose(&b, &mut rng).unwrap();
            prop_assert!(b.is_legal(m), "greedy played {m} in {b:?}");
        }
    }
}

#[test]
fn search_takes_an_immediate_win() {
    // Black has four in a row on row 8 (h8..k8) with l8 and g8 open.
    let b = board(
        Rules::GOMOKU,
        &["h8", "h1", "i8", "i1", "j8", "j1", "k8", "a15"],
    );
    let mut s = Search::new(shipped_weights(Rules::GOMOKU), SearchLimits::default());
    let m = s.choose(&b, &mut game_rng(1, &[])).unwrap();
    assert!(
        m == "g8".parse().unwrap() || m == "l8".parse().unwrap(),
        "played {m}"
    );
}

#[test]
fn search_blocks_a_four() {
    // White has a closed four a1..d1 against the edge: e1 completes it.
    let b = board(
        Rules::GOMOKU,
        &["h8", "a1", "o15", "b1", "o14", "c1", "n15", "d1"],
    );
    let mut s = Search::new(shipped_weights(Rules::GOMOKU), SearchLimits::default());
    let m = s.choose(&b, &mut game_rng(1, &[])).unwrap();
    assert_eq!(m, "e1".parse().unwrap());
}

#[test]
fn search_blocks_in_tictactoe() {
    let b = board(Rules::TICTACTOE, &["a1", "b1", "c1", "b2"]);
    // O threatens b3 (b1, b2): X must block there.
    let mut s = Search::new(
        shipped_weights(Rules::TICTACTOE),
        SearchLimits {
            depth: 6,
            ..Default::default()
        },
    );
    let m = s.choose(&b, &mut game_rng(1, &[])).unwrap();
    assert_eq!(m, "b3".parse().unwrap());
}

#[test]
fn matches_do_not_depend_on_thread_count() {
    let rules = Rules::GOMOKU;
    let openings = random_openings(
        rules,
        OpeningStyle::default_for(rules),
        40,
        &mut game_rng(9, &[]),
    );
    let a: PlayerSpec = "greedy".parse().unwrap();
    let b: PlayerSpec = "search:depth=2,width=5".parse().unwrap();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let ma = || a.build(rules).unwrap();
            let mb = || b.build(rules).unwrap();
            MatchPlan::new(rules, &openings, &ma, &mb, 42)
                .run(true)
                .unwrap()
        })
    };
    let (r1, r2) = (run(1), run(2));
    assert_eq!(r1.tally, r2.tally);
    assert_eq!(r1.games, r2.games);
    assert_eq!(r1.games.len(), 80);
}

#[test]
fn hard_is_the_timed_engine_and_search_the_depth_limited_one() {
    let limits = |spec: &str| match spec.parse::<PlayerSpec>().unwrap().kind {
        PlayerKind::Search(l) => l,
        other => panic!("{spec}: {other:?}"),
    };
    let hard = limits("hard");
    assert_eq!(hard.time, Some(Duration::from_millis(1000)));
    assert_eq!(hard.depth, SearchLimits::MAX_DEPTH);
    assert_eq!(
        limits("hard:time=250").time,
        Some(Duration::from_millis(250))
    );
    let search = limits("search");
    assert_eq!((search.depth, search.time), (4, None));
    assert_eq!(limits("search:late=0").late, 0);
    assert_eq!(search.late, 16);
    // A spec that sets late to its default does not write it back.
    let s: PlayerSpec = "search:depth=3,late=16".parse().unwrap();
    assert_eq!(s.to_string(), "search:depth=3,width=9");
    let s: PlayerSpec = "search:depth=3,late=4".parse().unwrap();
    assert_eq!(s.to_string(), "search:depth=3,width=9,late=4");
}

#[test]
fn bad_specs_are_refused_with_the_field_named() {
    for (spec, needle) in [
        ("gready", "unknown player"),
        ("search:depth=0", "depth"),
        ("search:depth=abc", "depth"),
        ("search:width=0", "width"),
        ("search:colour=red", "colour"),
        ("greedy:weights=", "weights"),
        ("random:depth=3", "depth"),
        ("search:tt=99", "tt"),
        ("search:tt=3", "tt"),
        ("search:late=677", "late"),
        ("search:depth=65", "depth"),
    ] {
        let e = spec.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(e.contains(needle), "{spec}: {e}");
    }
    let e = "exact"
        .parse::<PlayerSpec>()
        .unwrap()
        .build(Rules::GOMOKU)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("cannot solve"), "{e}");
    let e = "greedy:weights=/nonexistent/w.toml"
        .parse::<PlayerSpec>()
        .unwrap()
        .build(Rules::GOMOKU)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("/nonexistent/w.toml"), "{e}");
}

#[test]
fn specs_round_trip_through_display() {
    for s in [
        "greedy",
        "random",
        "exact",
        "search:depth=3,width=7",
        "search:depth=4,width=9,nodes=1000,time=50,weights=w.toml",
    ] {
        let p: PlayerSpec = s.parse().unwrap();
        assert_eq!(p.to_string().parse::<PlayerSpec>().unwrap(), p, "{s}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Alpha-beta with a full window and its table equals plain minimax over
    /// the same candidates. Small boards searched at full width have many
    /// transpositions, so the table's bounds are exercised; gomoku checks the
    /// threat handling at narrow width.
    #[test]
    fn alphabeta_equals_minimax(seed in any::<u64>(), plies in 0usize..8, depth in 2u32..6) {
        for (rules, width, max_depth) in [("4x4x3", 16, 5), ("4x4x4", 16, 5), ("5x5x4", 25, 3), ("9x9x5-exact", 5, 4), ("gomoku", 6, 4)] {
            let rules: Rules = rules.parse().unwrap();
            let depth = depth.min(max_depth);
            let mut rng = game_rng(seed, &[]);
            let mut b = Board::new(rules);
            let center = rules.center();
            b.play(center).unwrap();
            while b.ply() < plies.min(rules.cells() - 4) && !b.is_over() {
                // Stones near the centre so that shapes and threats appear.
                let m = RandomPlayer.choose(&b, &mut rng).unwrap();
                if (m.x as i32 - center.x as i32).abs() <= 3 && (m.y as i32 - center.y as i32).abs() <= 3 {
                    b.play(m).unwrap();
                }
            }
            if b.is_over() {
                continue;
            }
            let limits = SearchLimits { depth, width, ..Default::default() };
            let mut s = Search::new(shipped_weights(rules), limits);
            let ab = s.alphabeta_value(&b, depth);
            let mm = s.minimax_value(&b, depth);
            prop_assert_eq!(ab, mm, "{:?} depth {} width {}", b, depth, width);
        }
    }
}

/// Large k takes the memoising classifier path; a few greedy and search
/// moves on such boards must work (before the level-3 fix a single
/// evaluator on 26x26x12 took minutes to build).
#[test]
fn large_k_boards_play() {
    for g in ["26x26x26", "20x20x12", "12x12x8-exact"] {
        let rules: Rules = g.parse().unwrap();
        let mut b = Board::new(rules);
        let mut rng = game_rng(3, &[]);
        let w = shipped_weights(rules);
        let mut greedy = Greedy::new(w.clone());
        let mut search = Search::new(
            w,
            SearchLimits {
                depth: 2,
                width: 4,
                ..Default::default()
            },
        );
        for _ in 0..6 {
            let m = greedy.choose(&b, &mut rng).unwrap();
            b.play(m).unwrap();
            let m = search.choose(&b, &mut rng).unwrap();
            b.play(m).unwrap();
        }
        assert_eq!(b.ply(), 12, "{g}");
    }
}

#[test]
fn table_sizes_are_capped_with_the_bytes_named() {
    use mnk::players::{check_tables, table_bytes, SearchLimits, TableError};
    assert_eq!(SearchLimits::MAX_TT_BITS, 26);
    assert_eq!(table_bytes(26), 1_610_612_736);
    // Above the cap: refused when parsed, with the range and the bytes.
    let e = "search:tt=30"
        .parse::<PlayerSpec>()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("tt=\"30\"") && e.contains("4 to 26") && e.contains("24.00 GiB"),
        "{e}"
    );
    let e = "search:tt=27"
        .parse::<PlayerSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("3.00 GiB"), "{e}");
    // Sizes beyond 64 bits are named too, not wrapped to 0 B.
    let e = "search:tt=63"
        .parse::<PlayerSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("tt=63 would need 192.00 EiB"), "{e}");
    assert!("search:tt=26".parse::<PlayerSpec>().is_ok());
    // Within the cap but not within half the memory available.
    assert_eq!(
        check_tables("tt=26", &[26], Some(3 << 30)),
        Ok(()),
        "1.5 GiB is half of 3 GiB"
    );
    let e = check_tables("tt=26", &[26], Some((3 << 30) - 1)).unwrap_err();
    assert_eq!(
        e,
        TableError::NoRoom {
            what: "tt=26".into(),
            bytes: 1_610_612_736,
            available: (3 << 30) - 1
        }
    );
    assert!(e.to_string().contains("tt=26 needs 1.50 GiB"), "{e}");
    // Several tables count together; small ones are never refused.
    assert!(check_tables("x", &[25, 25], Some(3 << 30)).is_ok());
    assert!(check_tables("x", &[25, 25, 25], Some(3 << 30)).is_err());
    assert!(check_tables("x", &[16; 8], Some(1 << 20)).is_ok());
    assert!(check_tables("x", &[26], None).is_ok());
}

/// A soft time limit stops the deepening once the search has settled,
/// long before the hard limit; without one, a timed search deepens until
/// the hard limit.
#[test]
fn a_soft_time_limit_ends_a_settled_search_early() {
    let rules = Rules::GOMOKU;
    let mut board = Board::new(rules);
    for m in ["h8", "h9", "i9", "g7"] {
        board.play(m.parse().unwrap()).unwrap();
    }
    let timed = |soft: Option<u64>| {
        let limits = SearchLimits {
            depth: SearchLimits::MAX_DEPTH,
            time: Some(Duration::from_millis(400)),
            soft_time: soft.map(Duration::from_millis),
            ..SearchLimits::default()
        };
        let mut s = Search::new(shipped_weights(rules), limits);
        s.choose(&board, &mut game_rng(1, &[])).unwrap();
        s.info().clone()
    };
    let soft = timed(Some(5));
    let hard = timed(None);
    assert!(soft.elapsed < Duration::from_millis(200), "{soft:?}");
    assert!(hard.elapsed >= Duration::from_millis(350), "{hard:?}");
    assert!(soft.depth < hard.depth, "{soft:?} {hard:?}");
}

/// A win proven on one move is played on the next, whatever the root's
/// threat searches find: from a real game at 100 ms a move, where black
/// proved a win in 15 plies by search, the reply was the forced block,
/// and the next move's root cut to the moves that stop white's VCT
/// dropped the winning move (black played on quietly and lost). Since
/// the quiescence at the horizon, the search proves another win first
/// (g2, in 19 plies, at depth 6), so white's reply is its own search's.
#[test]
fn a_win_proven_on_one_move_is_played_on_the_next() {
    let mv = |s: &str| s.parse::<Move>().expect("a move");
    let line = "g5 f7 i8 g6 h5 f5 i6 f6 f4 h6 g4 j7 f3 e2 e4 d4";
    let mut board = Board::new(Rules::GOMOKU);
    for m in line.split(' ') {
        board.play(mv(m)).expect("a legal move");
    }
    let limits = SearchLimits {
        depth: 12,
        ..Default::default()
    };
    let mut s = Search::new(
        mnk::eval::shipped_search_weights(Rules::GOMOKU),
        limits.clone(),
    );
    let mut rng = game_rng(1, &[0]);
    let first = s.choose(&board, &mut rng).expect("a move");
    let proven = s.info().clone();
    assert!(proven.proof.is_some() && proven.score > 0.0, "{proven:?}");
    // White's reply (its own search's, the longest resistance), then the
    // next move: the win, read off the table, two plies nearer.
    board.play(first).expect("legal");
    let mut white = Search::new(mnk::eval::shipped_search_weights(Rules::GOMOKU), limits);
    let reply = white.choose(&board, &mut rng).expect("a move");
    board.play(reply).expect("legal");
    let next = s.choose(&board, &mut rng).expect("a move");
    let info = s.info();
    assert_eq!((info.depth, info.nodes), (0, 0), "{info:?}");
    assert_eq!(info.score, proven.score + 2.0, "{info:?}");
    // And it is a win: black still wins by threats after it.
    board.play(next).expect("legal");
    assert!(
        !board.is_over(),
        "{next} ends nothing yet: the proof is longer"
    );
}
