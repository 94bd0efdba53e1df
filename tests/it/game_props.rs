//! Properties of the rules layer: play/undo, hashing, symmetry, win
//! detection and the parsers of moves and games.

use mnk::game::{Board, Cell, Color, Move, Outcome, Rule, Rules, Symmetry};
use proptest::prelude::*;
use proptest::sample::{select, Index};

fn games() -> Vec<Rules> {
    let mut v = Vec::new();
    for rule in [Rule::Freestyle, Rule::Exact] {
        for (w, h, k) in [
            (3, 3, 3),
            (4, 4, 3),
            (4, 4, 4),
            (5, 5, 4),
            (7, 6, 4),
            (6, 7, 5),
            (9, 9, 5),
            (15, 15, 5),
            (12, 12, 7),
            (3, 10, 5),
        ] {
            v.push(Rules::new(w, h, k, rule).unwrap());
        }
    }
    v
}

fn square_games() -> Vec<Rules> {
    games().into_iter().filter(|r| r.is_square()).collect()
}

/// Plays random legal moves until the picks run out or the game ends.
fn random_game(rules: Rules, picks: &[Index]) -> Board {
    let mut b = Board::new(rules);
    for p in picks {
        if b.is_over() {
            break;
        }
        let legal = b.legal_moves();
        b.play(legal[p.index(legal.len())]).unwrap();
    }
    b
}

fn game_strategy(games: Vec<Rules>) -> impl Strategy<Value = (Rules, Vec<Index>)> {
    select(games).prop_flat_map(|r| {
        (
            Just(r),
            proptest::collection::vec(any::<Index>(), 0..=r.cells()),
        )
    })
}

/// Everything play/undo must restore.
#[derive(Debug, PartialEq)]
struct State {
    cells: Vec<Cell>,
    hash: u64,
    to_move: Color,
    outcome: Option<Outcome>,
    ply: usize,
    empty: usize,
    moves: Vec<Move>,
    legal: Vec<Move>,
}

fn state(b: &Board) -> State {
    State {
        cells: b.cells().to_vec(),
        hash: b.hash(),
        to_move: b.to_move(),
        outcome: b.outcome(),
        ply: b.ply(),
        empty: b.empty_count(),
        moves: b.moves().collect(),
        legal: b.legal_moves(),
    }
}

/// A brute-force winner: scan every cell and direction for a maximal run
/// of one colour whose length wins under the rule.
fn brute_force_winner(b: &Board) -> Option<Color> {
    let r = b.rules();
    let (w, h, k) = (r.width as i32, r.height as i32, r.k as i32);
    let at = |x: i32, y: i32| -> Cell {
        if x < 0 || y < 0 || x >= w || y >= h {
            Cell::Empty
        } else {
            b.cells()[(y * w + x) as usize]
        }
    };
    let mut winner = None;
    for y in 0..h {
        for x in 0..w {
            let c = at(x, y);
            let Some(color) = c.color() else {
                continue;
            };
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                // Only from the start of a maximal run.
                if at(x - dx, y - dy) == c {
                    continue;
                }
                let mut n = 0;
                while at(x + n * dx, y + n * dy) == c {
                    n += 1;
                }
                let wins = match r.rule {
                    Rule::Freestyle => n >= k,
                    Rule::Exact => n == k,
                };
                if wins {
                    assert!(
                        winner.is_none() || winner == Some(color),
                        "both sides have a win on {b:?}"
                    );
                    winner = Some(color);
                }
            }
        }
    }
    winner
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn play_undo_restores_the_board(
        (rules, picks) in game_strategy(games()),
        extra in any::<Index>(),
        as_color in any::<bool>(),
    ) {
        let mut b = random_game(rules, &picks);
        // Undo everything, checking each step against the saved states.
        let mut states = Vec::new();
        let mut replay = Board::new(rules);
        states.push(state(&replay));
        for m in b.moves().collect::<Vec<_>>() {
            replay.play(m).unwrap();
            states.push(state(&replay));
        }
        prop_assert_eq!(&state(&b), states.last().unwrap());
        // One more move (with play, or play_as for the side to move) and back.
        if !b.is_over() {
            let before = state(&b);
            let legal = b.legal_moves();
            let m = legal[extra.index(legal.len())];
            if as_color {
                b.play_as(m, b.to_move()).unwrap();
            } else {
                b.play(m).unwrap();
            }
            prop_assert_eq!(b.undo(), Some(m));
            prop_assert_eq!(state(&b), before);
        }
        while b.ply() > 0 {
            let ply = b.ply();
            b.undo().unwrap();
            prop_assert_eq!(&state(&b), &states[ply - 1]);
        }
        prop_assert_eq!(b.undo(), None);
        prop_assert_eq!(&b, &Board::new(rules));
    }

    /// The incremental hash equals the hash recomputed from the stones
    /// (`hash_under(Identity)` rebuilds it cell by cell), after every move,
    /// and does not depend on the move order.
    #[test]
    fn zobrist_hash_matches_recomputation(
        (rules, picks) in game_strategy(games()),
        order in any::<u64>(),
    ) {
        let b = random_game(rules, &picks);
        let moves: Vec<(Move, Color)> = (0..b.ply()).map(|i| b.move_at(i)).collect();
        let mut replay = Board::new(rules);
        prop_assert_eq!(replay.hash(), 0);
        for (i, &(m, _)) in moves.iter().enumerate() {
            prop_assert_eq!(replay.hash_at(i), replay.hash());
            replay.play(m).unwrap();
            prop_assert_eq!(replay.hash(), replay.hash_under(Symmetry::Identity));
            prop_assert_eq!(replay.hash(), b.hash_at(i + 1));
        }
        prop_assert_eq!(replay.hash(), b.hash());
        // The same stones placed in another order (play_as keeps colours).
        let mut shuffled = moves.clone();
        let mut s = order;
        for i in (1..shuffled.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        let mut other = Board::new(rules);
        let mut ok = true;
        for &(m, c) in &shuffled {
            if other.is_over() {
                ok = false; // a win came early in this order
                break;
            }
            other.play_as(m, c).unwrap();
        }
        if ok {
            prop_assert_eq!(other.hash(), b.hash());
            prop_assert_eq!(other.cells(), b.cells());
        }
        // The colour matters.
        if let Some(&(m, c)) = moves.first() {
            let mut one = Board::new(rules);
            one.play_as(m, c.opponent()).unwrap();
            let mut two = Board::new(rules);
            two.play_as(m, c).unwrap();
            prop_assert_ne!(one.hash(), two.hash());
        }
    }

    /// `canonical_hash` is the same for a game and its image under each
    /// symmetry (all 8 on square boards).
    #[test]
    fn canonical_hash_is_symmetry_invariant((rules, picks) in game_strategy(square_games())) {
        let b = random_game(rules, &picks);
        prop_assert_eq!(Symmetry::of(&rules).len(), 8);
        let canon = b.canonical_hash();
        for &s in Symmetry::of(&rules) {
            let mut t = Board::new(rules);
            for m in b.moves() {
                t.play(s.apply(&rules, m)).unwrap();
            }
            prop_assert_eq!(t.canonical_hash(), canon, "{:?}", s);
            prop_assert_eq!(t.outcome(), b.outcome());
            prop_assert_eq!(t.hash(), b.hash_under(s));
        }
    }

    /// The 4 symmetries of a rectangle keep canonical hashes equal too.
    #[test]
    fn canonical_hash_on_rectangles((rules, picks) in game_strategy(vec![
        Rules::new(7, 6, 4, Rule::Freestyle).unwrap(),
        Rules::new(3, 10, 5, Rule::Exact).unwrap(),
    ])) {
        let b = random_game(rules, &picks);
        for &s in Symmetry::of(&rules) {
            let mut t = Board::new(rules);
            for m in b.moves() {
                t.play(s.apply(&rules, m)).unwrap();
            }
            prop_assert_eq!(t.canonical_hash(), b.canonical_hash(), "{:?}", s);
        }
    }

    /// Win detection (which only looks at the last move's lines) equals a
    /// full-board scan after every move, under both rules.
    #[test]
    fn win_detection_matches_brute_force((rules, picks) in game_strategy(games())) {
        let mut b = Board::new(rules);
        for p in &picks {
            let legal = b.legal_moves();
            let m = legal[p.index(legal.len())];
            let mover = b.to_move();
            let result = b.play(m).unwrap();
            prop_assert_eq!(result, b.outcome());
            match brute_force_winner(&b) {
                Some(c) => {
                    prop_assert_eq!(c, mover);
                    prop_assert_eq!(b.outcome(), Some(Outcome::Win(c)), "{:?}", b);
                }
                None if b.empty_count() == 0 => {
                    prop_assert_eq!(b.outcome(), Some(Outcome::Draw), "{:?}", b)
                }
                None => prop_assert_eq!(b.outcome(), None, "{:?}", b),
            }
            if b.is_over() {
                // Nothing more may be played.
                let empty = (0..rules.cells()).map(|i| rules.move_at(i)).find(|&m| b.at(m).is_none());
                if let Some(m) = empty {
                    prop_assert!(b.play(m).is_err());
                    prop_assert!(b.play_as(m, mover).is_err());
                }
                prop_assert!(b.legal_moves().is_empty());
                break;
            }
        }
    }

    #[test]
    fn move_display_parse_round_trip(x in 0u8..26, y in 0u8..=254) {
        let m = Move::new(x, y);
        let shown = m.to_string();
        prop_assert_eq!(shown.parse::<Move>().unwrap(), m);
        prop_assert_eq!(m.to_xy().parse::<Move>().unwrap(), m);
        prop_assert_eq!(format!(" {} , {} ", x, y).parse::<Move>().unwrap(), m);
        prop_assert_eq!(shown.to_uppercase().parse::<Move>().unwrap(), m);
    }

    /// Any text parses or fails, never panics.
    #[test]
    fn move_parse_never_panics(s in "\\PC{0,12}") {
        let _ = s.parse::<Move>();
        let _ = s.parse::<Rules>();
    }
}

/// A set-up stone of the colour *not* to move (`play_as`, as for a Gomocup
/// `BOARD`), taken back, must give the side to move back as well.
#[test]
fn undo_after_play_as_restores_the_side_to_move() {
    let a1: Move = "a1".parse().unwrap();
    let mut b = Board::new(Rules::TICTACTOE);
    b.play_as(a1, Color::White).unwrap();
    b.undo();
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(b, Board::new(Rules::TICTACTOE));

    let mut b = Board::new(Rules::TICTACTOE);
    b.play(a1).unwrap();
    b.play_as("b1".parse().unwrap(), Color::Black).unwrap();
    b.undo();
    assert_eq!(b.to_move(), Color::White);
}

#[test]
fn move_notation() {
    let m: Move = "h8".parse().unwrap();
    assert_eq!((m.x, m.y), (7, 7));
    assert_eq!("7,7".parse::<Move>().unwrap(), m);
    assert_eq!(m.to_string(), "h8");
    assert_eq!(m.to_xy(), "7,7");
    assert_eq!("a1".parse::<Move>().unwrap(), Move::new(0, 0));
    assert_eq!("o15".parse::<Move>().unwrap(), Move::new(14, 14));
    assert_eq!("z26".parse::<Move>().unwrap(), Move::new(25, 25));
    assert_eq!("0,14".parse::<Move>().unwrap(), Move::new(0, 14));
}

#[test]
fn bad_moves_are_rejected() {
    for bad in [
        "",
        " ",
        "h",
        "8",
        "h0",
        "h-1",
        "hh",
        "8h",
        "h8x",
        "1,",
        ",1",
        "1,2,3",
        "-1,2",
        "256,0",
        "a,b",
        "1.5,2",
        "é5",
        "h256",
        "h99999999999",
        "?1",
        "1 2",
    ] {
        let r = bad.parse::<Move>();
        assert!(r.is_err(), "{bad:?} parsed as {r:?}");
        let e = r.unwrap_err();
        assert!(e.to_string().contains("bad move"), "{e}");
    }
}

#[test]
fn rules_parse_presets_and_free_forms() {
    let p = |s: &str| s.parse::<Rules>().unwrap();
    assert_eq!(p("tictactoe"), Rules::TICTACTOE);
    assert_eq!(p("gomoku"), Rules::GOMOKU);
    assert_eq!(p("GOMOKU"), Rules::GOMOKU);
    assert_eq!(
        p("gomoku-exact"),
        Rules {
            rule: Rule::Exact,
            ..Rules::GOMOKU
        }
    );
    let c4 = p("7x6x4");
    assert_eq!(
        (c4.width, c4.height, c4.k, c4.rule),
        (7, 6, 4, Rule::Freestyle)
    );
    let e = p("15x15x5-exact");
    assert_eq!((e.width, e.height, e.k, e.rule), (15, 15, 5, Rule::Exact));
    assert_eq!(p("3x3x3"), Rules::TICTACTOE);
    assert_eq!(p("15x15x5"), Rules::GOMOKU);
    assert_eq!(
        p("9x9x5-freestyle"),
        Rules::new(9, 9, 5, Rule::Freestyle).unwrap()
    );
    // Display round-trips.
    for r in [
        Rules::TICTACTOE,
        Rules::GOMOKU,
        c4,
        e,
        Rules::new(26, 3, 26, Rule::Exact).unwrap(),
    ] {
        assert_eq!(p(&r.to_string()), r, "{r}");
    }
}

#[test]
fn bad_rules_are_rejected() {
    for bad in [
        "2x2x2",
        "30x30x5",
        "5x5x9",
        "abc",
        "7x6",
        "",
        "7x6x4x1",
        "7x6x2",
        "7x6x4-renju",
        "0x0x0",
        "-7x6x4",
        "7x6x",
        "x6x4",
        "27x3x3",
        "99999999999x9x5",
    ] {
        let r = bad.parse::<Rules>();
        assert!(r.is_err(), "{bad:?} parsed as {r:?}");
        assert!(!r.unwrap_err().to_string().is_empty());
    }
    assert!(Rules::new(2, 2, 2, Rule::Freestyle).is_err());
    assert!(Rules::new(5, 5, 6, Rule::Freestyle).is_err());
}

#[test]
fn play_refuses_bad_moves_without_changing_the_board() {
    let mut b = Board::new(Rules::TICTACTOE);
    b.play("b2".parse().unwrap()).unwrap();
    let before = format!("{b:?}{b}");
    let hash = b.hash();
    assert!(b.play("b2".parse().unwrap()).is_err());
    assert!(b.play(Move::new(3, 0)).is_err());
    assert!(b.play(Move::new(0, 3)).is_err());
    assert!(b.play_as(Move::new(1, 1), Color::Black).is_err());
    assert_eq!(format!("{b:?}{b}"), before);
    assert_eq!(b.hash(), hash);
    assert_eq!(b.to_move(), Color::White);
}
