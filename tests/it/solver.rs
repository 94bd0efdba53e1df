//! The exact solver and player: known m,n,k results, agreement with plain
//! minimax, and the player's behaviour.

use mnk::game::{Board, Move, Outcome, Rules};
use mnk::players::{Exact, Player, PlayerError, RandomPlayer, Rng, Solver, Value};
use proptest::prelude::*;
use rand::{Rng as _, SeedableRng};
use std::collections::HashSet;

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn board(rules: Rules, moves: &[&str]) -> Board {
    let moves: Vec<Move> = moves.iter().map(|s| mv(s)).collect();
    Board::from_moves(rules, &moves).unwrap()
}

fn rules(spec: &str) -> Rules {
    spec.parse().unwrap()
}

/// The optimal moves by plain minimax, with the solver's convention for lost
/// positions (moves that do not let the opponent win at once, else all).
fn minimax_optimal(b: &Board) -> Vec<Move> {
    let legal = b.legal_moves();
    let values: Vec<Value> = legal
        .iter()
        .map(|&m| {
            let mut c = b.clone();
            c.play_unchecked(m);
            Solver::minimax_value(&c).negate()
        })
        .collect();
    let best = *values.iter().max().unwrap();
    if best > Value::Loss {
        return legal
            .iter()
            .zip(&values)
            .filter(|(_, &v)| v == best)
            .map(|(&m, _)| m)
            .collect();
    }
    let resisting: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| {
            let mut c = b.clone();
            c.play_unchecked(m);
            let them = c.to_move();
            c.is_over() || !c.legal_moves().iter().any(|&r| c.wins_at(r, them))
        })
        .collect();
    if resisting.is_empty() {
        legal
    } else {
        resisting
    }
}

/// Every distinct position reachable from `b` (by hash), finished ones too.
fn reachable(b: &mut Board, seen: &mut HashSet<u64>, out: &mut Vec<Board>) {
    if !seen.insert(b.hash()) {
        return;
    }
    out.push(b.clone());
    if b.is_over() {
        return;
    }
    for m in b.legal_moves() {
        b.play_unchecked(m);
        reachable(b, seen, out);
        b.undo();
    }
}

/// A position after `stones` random moves, or `None` if the game ended first.
fn random_position(rules: Rules, stones: usize, rng: &mut Rng) -> Option<Board> {
    let mut b = Board::new(rules);
    for _ in 0..stones {
        let legal = b.legal_moves();
        b.play_unchecked(legal[rng.gen_range(0..legal.len())]);
        if b.is_over() {
            return None;
        }
    }
    Some(b)
}

/// A position after `stones` random moves that never end the game (each
/// move is drawn among those that do not), or `None` if that gets stuck.
fn quiet_position(rules: Rules, stones: usize, rng: &mut Rng) -> Option<Board> {
    let mut b = Board::new(rules);
    while b.ply() < stones {
        let mut legal = b.legal_moves();
        loop {
            if legal.is_empty() {
                return None;
            }
            let m = legal.swap_remove(rng.gen_range(0..legal.len()));
            if b.play_unchecked(m).is_none() {
                break;
            }
            b.undo();
        }
    }
    Some(b)
}

// ---------------------------------------------------------------- values

#[test]
fn value_basics() {
    assert!(Value::Loss < Value::Draw && Value::Draw < Value::Win);
    for v in [Value::Loss, Value::Draw, Value::Win] {
        assert_eq!(v.negate().negate(), v);
    }
    assert_eq!(Value::Loss.negate(), Value::Win);
    assert_eq!(Value::Draw.negate(), Value::Draw);
    assert_eq!(
        [Value::Loss, Value::Draw, Value::Win].map(|v| v.to_string()),
        ["loss", "draw", "win"]
    );
}

#[test]
fn tictactoe_is_a_draw() {
    let b = Board::new(Rules::TICTACTOE);
    assert_eq!(
        Solver::new(Rules::TICTACTOE).value(&b).unwrap(),
        Value::Draw
    );
    assert_eq!(Solver::minimax_value(&b), Value::Draw);
    // Every first move keeps the draw.
    let mut s = Solver::new(Rules::TICTACTOE);
    assert_eq!(s.optimal_moves(&b).unwrap(), b.legal_moves());
    assert!(s
        .move_values(&b)
        .unwrap()
        .iter()
        .all(|&(_, v)| v == Value::Draw));
}

#[test]
fn tictactoe_known_optimal_sets() {
    let t = Rules::TICTACTOE;
    let mut s = Solver::new(t);
    // (moves so far, value for the side to move, its optimal moves), each
    // set checked against plain minimax as well as listed.
    let cases: &[(&[&str], Value, &[&str])] = &[
        // X in a corner: the centre is O's only draw.
        (&["a1"], Value::Draw, &["b2"]),
        // X in the centre: O must take a corner.
        (&["b2"], Value::Draw, &["a1", "c1", "a3", "c3"]),
        // X on an edge: O draws with the adjacent corners, the centre or the
        // opposite edge.
        (&["b1"], Value::Draw, &["a1", "c1", "b2", "b3"]),
        // X centre, O edge: X wins, with any corner or the other edges
        // beside O's row.
        (
            &["b2", "b1"],
            Value::Win,
            &["a1", "c1", "a2", "c2", "a3", "c3"],
        ),
        // X corner, O opposite corner: X wins by a third corner.
        (&["a1", "c3"], Value::Win, &["c1", "a3"]),
        // X corner, O edge next to it: X wins.
        (&["a1", "b1"], Value::Win, &["a2", "b2", "a3"]),
        // X corner, O centre: X draws anywhere.
        (
            &["a1", "b2"],
            Value::Draw,
            &["b1", "c1", "a2", "c2", "a3", "b3", "c3"],
        ),
        // Lost for O, who must still block c3 (the lost-position convention).
        (&["b2", "b1", "a1"], Value::Loss, &["c3"]),
    ];
    for (moves, value, expected) in cases {
        let b = board(t, moves);
        let exp: Vec<Move> = expected.iter().map(|s| mv(s)).collect();
        assert_eq!(Solver::minimax_value(&b), *value, "minimax after {moves:?}");
        assert_eq!(minimax_optimal(&b), exp, "minimax set after {moves:?}");
        assert_eq!(s.value(&b).unwrap(), *value, "value after {moves:?}");
        assert_eq!(s.optimal_moves(&b).unwrap(), exp, "optimal after {moves:?}");
        // A fresh solver agrees with the one carrying a table.
        assert_eq!(Solver::new(t).optimal_moves(&b).unwrap(), exp);
    }
}

#[test]
fn known_mnk_results() {
    for (spec, value) in [
        ("3x3x3", Value::Draw),
        ("4x4x3", Value::Win),
        ("4x4x4", Value::Draw),
        ("3x4x3", Value::Win),
        ("4x3x3", Value::Win),
        ("4x4x4-exact", Value::Draw),
    ] {
        let r = rules(spec);
        let b = Board::new(r);
        assert_eq!(Solver::new(r).value(&b).unwrap(), value, "{spec}");
        assert_eq!(
            Solver::new(r).with_symmetry(false).value(&b).unwrap(),
            value,
            "{spec} without symmetry"
        );
    }
}

#[test]
fn finished_games_are_valued_by_outcome() {
    let t = Rules::TICTACTOE;
    let won = board(t, &["a1", "a2", "b1", "b2", "c1"]);
    assert_eq!(won.outcome(), Some(Outcome::Win(mnk::game::Color::Black)));
    let mut s = Solver::new(t);
    assert_eq!(s.value(&won).unwrap(), Value::Loss);
    assert!(s.optimal_moves(&won).unwrap().is_empty());
    assert!(s.move_values(&won).unwrap().is_empty());
    assert_eq!(
        Exact::new(t).choose(&won, &mut Rng::seed_from_u64(0)),
        Err(PlayerError::GameOver)
    );
    // Finished games are valued whatever their size.
    let g = Rules::GOMOKU;
    let five = board(g, &["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"]);
    assert!(five.is_over());
    assert_eq!(Solver::new(g).value(&five).unwrap(), Value::Loss);
}

#[test]
fn stats_and_clear() {
    let r = rules("4x4x4");
    let mut s = Solver::new(r);
    assert_eq!(s.stats().nodes, 0);
    s.value(&Board::new(r)).unwrap();
    let first = s.stats();
    assert!(first.nodes > 0 && first.entries > 0, "{first:?}");
    // Solving again is answered by the table.
    s.value(&Board::new(r)).unwrap();
    let second = s.stats();
    assert_eq!(second.nodes, first.nodes + 1);
    assert_eq!(second.hits, first.hits + 1);
    assert!(!second.to_string().is_empty());
    s.clear();
    assert_eq!(s.stats(), Default::default());
}

#[test]
fn solver_follows_the_board_rules() {
    let mut s = Solver::new(Rules::TICTACTOE);
    s.value(&Board::new(Rules::TICTACTOE)).unwrap();
    let r = rules("4x4x3");
    assert_eq!(s.value(&Board::new(r)).unwrap(), Value::Win);
    assert_eq!(s.rules(), r);
    assert_eq!(s.value(&Board::new(Rules::TICTACTOE)).unwrap(), Value::Draw);
}

// ---------------------------------------------------------- refusal

#[test]
fn gomoku_is_refused_with_a_helpful_message() {
    let g = Rules::GOMOKU;
    let b = Board::new(g);
    for err in [
        Solver::new(g).value(&b).unwrap_err(),
        Solver::new(g).optimal_moves(&b).unwrap_err(),
        Exact::new(g)
            .choose(&b, &mut Rng::seed_from_u64(1))
            .unwrap_err(),
    ] {
        let PlayerError::TooLarge(msg) = &err else {
            panic!("expected TooLarge, got {err:?}");
        };
        assert!(msg.contains("225 empty cells"), "{msg}");
        assert!(msg.contains("limit is 16"), "{msg}");
        assert!(msg.contains("exact:limit=225"), "{msg}");
        assert!(msg.contains("with_limit"), "{msg}");
        assert!(err.to_string().contains("cannot solve"), "{err}");
    }
    assert_eq!(Solver::new(g).limit(), Solver::DEFAULT_LIMIT);
    // One stone over the limit is refused; at the limit it is solved.
    let r = rules("4x4x4");
    assert!(matches!(
        Solver::with_limit(r, 15).value(&Board::new(r)),
        Err(PlayerError::TooLarge(_))
    ));
    assert_eq!(
        Solver::with_limit(r, 15).value(&board(r, &["a1"])).unwrap(),
        Value::Draw
    );
}

#[test]
fn late_gomoku_positions_are_solved() {
    // The end of a large game fits the limit.
    let g = Rules::GOMOKU;
    let mut rng = Rng::seed_from_u64(5);
    let mut solved = 0;
    while solved < 5 {
        let Some(b) = quiet_position(g, g.cells() - 14, &mut rng) else {
            continue;
        };
        let mut s = Solver::new(g);
        s.value(&b).unwrap();
        let moves = s.optimal_moves(&b).unwrap();
        assert!(!moves.is_empty());
        assert!(moves.iter().all(|&m| b.is_legal(m)));
        let m = Exact::new(g).choose(&b, &mut rng).unwrap();
        assert!(moves.contains(&m));
        solved += 1;
    }
}

// ------------------------------------------------------------ players

fn play_game(
    black: &mut dyn Player,
    white: &mut dyn Player,
    rules: Rules,
    rng: &mut Rng,
) -> Outcome {
    let mut b = Board::new(rules);
    while !b.is_over() {
        let p: &mut dyn Player = if b.ply().is_multiple_of(2) {
            black
        } else {
            white
        };
        let m = p.choose(&b, rng).unwrap();
        b.play(m).unwrap();
    }
    b.outcome().unwrap()
}

#[test]
fn exact_vs_exact_draws_tictactoe() {
    let t = Rules::TICTACTOE;
    let mut a = Exact::new(t);
    let mut b = Exact::new(t);
    assert_eq!(a.name(), "exact");
    let mut games = HashSet::new();
    for seed in 0..200 {
        let mut rng = Rng::seed_from_u64(seed);
        let (black, white): (&mut dyn Player, &mut dyn Player) = if seed.is_multiple_of(2) {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        assert_eq!(
            play_game(black, white, t, &mut rng),
            Outcome::Draw,
            "seed {seed}"
        );
        // Record the game to check the players vary their play.
        let mut rng = Rng::seed_from_u64(seed);
        let mut bd = Board::new(t);
        while !bd.is_over() {
            let m = a.choose(&bd, &mut rng).unwrap();
            bd.play(m).unwrap();
        }
        games.insert(bd.moves().collect::<Vec<_>>());
    }
    assert!(games.len() > 20, "only {} distinct games", games.len());
}

#[test]
fn exact_never_loses_to_random() {
    for (spec, win_as_black) in [("tictactoe", false), ("4x4x3", true), ("4x3x3", true)] {
        let r = rules(spec);
        let mut exact = Exact::new(r);
        let mut random = RandomPlayer;
        for seed in 0..100 {
            let mut rng = Rng::seed_from_u64(seed);
            let o = play_game(&mut exact, &mut random, r, &mut rng);
            assert_ne!(
                o,
                Outcome::Win(mnk::game::Color::White),
                "{spec} seed {seed}"
            );
            if win_as_black {
                assert_eq!(
                    o,
                    Outcome::Win(mnk::game::Color::Black),
                    "{spec} seed {seed}"
                );
            }
            // As second player exact is only safe where the game is a draw.
            let o = play_game(&mut random, &mut exact, r, &mut rng);
            if !win_as_black {
                assert_ne!(
                    o,
                    Outcome::Win(mnk::game::Color::Black),
                    "{spec} seed {seed}"
                );
            }
        }
    }
}

#[test]
fn exact_is_reproducible() {
    let r = rules("4x4x4");
    let game = |seed| {
        let mut a = Exact::new(r);
        let mut rng = Rng::seed_from_u64(seed);
        let mut b = Board::new(r);
        while !b.is_over() {
            let m = a.choose(&b, &mut rng).unwrap();
            b.play(m).unwrap();
        }
        assert_eq!(b.outcome(), Some(Outcome::Draw));
        b.moves().collect::<Vec<_>>()
    };
    assert_eq!(game(3), game(3));
}

// ------------------------------------------------------- differential

#[test]
fn agrees_with_minimax_on_every_tictactoe_position() {
    let t = Rules::TICTACTOE;
    let mut all = Vec::new();
    reachable(&mut Board::new(t), &mut HashSet::new(), &mut all);
    assert_eq!(all.len(), 5478);
    // One solver for all (its table carries over), one without symmetry,
    // and a fresh one per position.
    let mut shared = Solver::new(t);
    let mut plain = Solver::new(t).with_symmetry(false);
    for b in &all {
        let expected = Solver::minimax_value(b);
        assert_eq!(shared.value(b).unwrap(), expected, "{b:?}");
        assert_eq!(plain.value(b).unwrap(), expected, "{b:?}");
        assert_eq!(Solver::new(t).value(b).unwrap(), expected, "{b:?}");
        if !b.is_over() {
            assert_eq!(
                shared.optimal_moves(b).unwrap(),
                minimax_optimal(b),
                "{b:?}"
            );
            for (m, v) in shared.move_values(b).unwrap() {
                let mut c = b.clone();
                c.play_unchecked(m);
                assert_eq!(v, Solver::minimax_value(&c).negate(), "{b:?} then {m}");
            }
        }
    }
}

/// Solves `count` random positions of `spec` with at least `min_stones`
/// stones and at most `max_empty` empty cells, with a shared table, without
/// symmetry and with a fresh solver, and compares each value (and every 4th
/// position's optimal move set) with plain minimax. Plain minimax is quick
/// up to 9 empty cells; 10 cost about 25 ms a position.
fn agrees_with_minimax(spec: &str, seed: u64, min_stones: usize, max_empty: usize, count: usize) {
    let mut rng = Rng::seed_from_u64(seed);
    let r = rules(spec);
    let mut shared = Solver::new(r);
    let mut plain = Solver::new(r).with_symmetry(false);
    let mut tested = 0usize;
    while tested < count {
        let stones = rng.gen_range(min_stones.max(r.cells() - max_empty)..r.cells());
        let Some(b) = random_position(r, stones, &mut rng) else {
            continue;
        };
        tested += 1;
        let expected = Solver::minimax_value(&b);
        assert_eq!(shared.value(&b).unwrap(), expected, "{spec} {b:?}");
        assert_eq!(plain.value(&b).unwrap(), expected, "{spec} {b:?}");
        assert_eq!(Solver::new(r).value(&b).unwrap(), expected, "{spec} {b:?}");
        if tested.is_multiple_of(4) {
            let set = minimax_optimal(&b);
            assert_eq!(shared.optimal_moves(&b).unwrap(), set, "{spec} {b:?}");
        }
    }
}

/// One test per board (cozy-chess's `make_perft_test!` idea): libtest runs
/// them in parallel and a failure names its board.
macro_rules! agrees_with_minimax_on {
    ($($name:ident: $spec:literal, $seed:literal, $min_stones:literal, $max_empty:literal, $count:literal;)*) => {$(
        #[test]
        fn $name() {
            agrees_with_minimax($spec, $seed, $min_stones, $max_empty, $count);
        }
    )*};
}

mod agrees_with_minimax_on_random_positions {
    use super::agrees_with_minimax;

    // name: rules, seed, fewest stones, most empty cells, positions.
    agrees_with_minimax_on! {
        b4x3x3: "4x3x3", 2024, 6, 6, 300;
        b3x4x3: "3x4x3", 2025, 6, 6, 300;
        b4x3x3_exact: "4x3x3-exact", 2026, 6, 6, 300;
        b5x3x3: "5x3x3", 2027, 6, 9, 150;
        b5x3x3_exact: "5x3x3-exact", 2028, 6, 9, 150;
        b4x4x3: "4x4x3", 2029, 6, 10, 100;
        b4x4x3_exact: "4x4x3-exact", 2030, 6, 10, 100;
        b4x4x4_deep: "4x4x4", 2031, 6, 10, 40;
        b4x4x4: "4x4x4", 2032, 6, 9, 200;
        b4x4x4_exact: "4x4x4-exact", 2033, 6, 9, 200;
        b5x4x4: "5x4x4", 2034, 11, 9, 150;
        b5x4x4_exact: "5x4x4-exact", 2035, 11, 9, 150;
        b5x5x4: "5x5x4", 2036, 16, 9, 60;
        b5x5x4_exact: "5x5x4-exact", 2037, 16, 9, 60;
    }
}

// ------------------------------------------------------------ properties

fn small_rules() -> impl Strategy<Value = Rules> {
    prop::sample::select(vec![
        "tictactoe",
        "4x3x3",
        "3x4x3",
        "4x4x3",
        "4x4x4",
        "5x3x3",
        "4x4x3-exact",
        "5x4x4",
    ])
    .prop_map(rules)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn optimal_moves_are_legal_and_keep_the_value(
        r in small_rules(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 0..16),
        seed in any::<u64>(),
    ) {
        let mut b = Board::new(r);
        for p in &picks {
            if b.is_over() || b.empty_count() <= 1 {
                break;
            }
            let legal = b.legal_moves();
            b.play_unchecked(*p.get(&legal));
        }
        prop_assume!(!b.is_over());
        let mut s = Solver::with_limit(r, 20);
        let v = s.value(&b).unwrap();
        let moves = s.optimal_moves(&b).unwrap();
        prop_assert!(!moves.is_empty());
        for &m in &moves {
            prop_assert!(b.is_legal(m), "illegal {} in {:?}", m, b);
            let mut c = b.clone();
            c.play_unchecked(m);
            let after = match c.outcome() {
                Some(o) => Value::of_outcome(o, b.to_move()),
                None => s.value(&c).unwrap().negate(),
            };
            prop_assert_eq!(after, v, "{} in {:?}", m, b);
        }
        let mut p = Exact::with_limit(r, 20);
        let m = p.choose(&b, &mut Rng::seed_from_u64(seed)).unwrap();
        prop_assert!(b.is_legal(m));
        prop_assert!(moves.contains(&m));
    }
}
