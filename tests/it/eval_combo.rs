//! The combo weight model: that combination weights of 0 play exactly as
//! the shape model (greedy, greedy duels and the search, move by move and
//! score by score), that nonzero ones change what is played where the
//! combination is the point (the tic-tac-toe fork, the gomoku four-three),
//! its TOML form and its errors, and the refusal to export it as
//! `ChessboardValue.txt`. The classification itself is checked against the
//! reference in `eval.rs` ([`reference_combo`]).

use crate::eval::{combo_default, reference_combo};
use mnk::arena::{game_rng, play_game, random_openings, Opening, OpeningStyle};
use mnk::eval::{
    shipped_search_weights, shipped_weights, Combo, ComboWeights, Evaluator, Model, Shape, Weights,
    WeightsError,
};
use mnk::game::{Board, Color, Move, Rule, Rules};
use mnk::players::{Greedy, Player, Rng, Search, SearchLimits};

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// `w` in the combo model with every combination weight 0.
fn zero_combo(w: &Weights) -> Weights {
    let z = w.clone().with_model(Model::Combo);
    assert_eq!(z.combo, Some(ComboWeights::default()));
    z
}

fn openings(rules: Rules, n: usize, seed: u64) -> Vec<Opening> {
    random_openings(
        rules,
        OpeningStyle::default_for(rules),
        n,
        &mut game_rng(seed, &[]),
    )
}

/// Plays each opening to the end with `a` choosing, and at every ply asks
/// `b` too (with the same generator state): their moves must agree. For
/// greedy players their evaluators' cell scores and board values must
/// agree bit for bit as well. Returns the plies compared.
fn same_moves(rules: Rules, a: &mut dyn Player, b: &mut dyn Player, openings: &[Opening]) -> u64 {
    let mut plies = 0;
    for (g, o) in openings.iter().enumerate() {
        let mut board = Board::new(rules);
        for &m in &o.moves {
            board.play(m).unwrap();
        }
        a.new_game();
        b.new_game();
        let mut rng = game_rng(99, &[g as u64]);
        while !board.is_over() {
            let mut rng_b = rng.clone();
            let ma = a.choose(&board, &mut rng).unwrap();
            let mb = b.choose(&board, &mut rng_b).unwrap();
            assert_eq!(ma, mb, "{rules} game {g} ply {}: {board:?}", board.ply());
            if let (Some(ga), Some(gb)) = (a.as_greedy(), b.as_greedy()) {
                let (ea, eb) = (ga.evaluator(), gb.evaluator());
                for c in [Color::Black, Color::White] {
                    let bits = |e: &Evaluator| -> Vec<u64> {
                        e.scores(c).iter().map(|v| v.to_bits()).collect()
                    };
                    assert_eq!(bits(ea), bits(eb), "scores, game {g} ply {}", board.ply());
                    assert_eq!(ea.evaluate(c).to_bits(), eb.evaluate(c).to_bits());
                }
            }
            board.play(ma).unwrap();
            plies += 1;
        }
    }
    plies
}

fn games() -> Vec<Rules> {
    vec![
        Rules::GOMOKU,
        Rules::TICTACTOE,
        Rules::new(7, 6, 4, Rule::Exact).unwrap(),
        Rules::new(12, 12, 7, Rule::Freestyle).unwrap(),
    ]
}

#[test]
fn zero_combinations_play_as_the_shape_model_greedy() {
    for rules in games() {
        let w = shipped_weights(rules);
        let mut a = Greedy::new(w.clone());
        let mut b = Greedy::new(zero_combo(&w));
        let plies = same_moves(rules, &mut a, &mut b, &openings(rules, 40, 1));
        assert!(plies > 100, "{rules}: {plies} plies");
    }
}

/// Through `play_game`, which runs two greedy players as one shared duel:
/// the same games whether either side is a zero combo model or not.
#[test]
fn zero_combinations_play_as_the_shape_model_in_duels() {
    for rules in games() {
        let w = shipped_weights(rules);
        let z = zero_combo(&w);
        let mut board = Board::new(rules);
        for (g, o) in openings(rules, 60, 2).iter().enumerate() {
            let mut games = Vec::new();
            for (bw, ww) in [(&w, &w), (&z, &z), (&z, &w), (&w, &z)] {
                let (mut black, mut white) = (Greedy::new(bw.clone()), Greedy::new(ww.clone()));
                let mut rng = game_rng(5, &[g as u64]);
                let outcome =
                    play_game(rules, o, &mut black, &mut white, &mut board, &mut rng).unwrap();
                games.push((outcome, board.clone()));
            }
            for other in &games[1..] {
                assert_eq!(other, &games[0], "{rules} opening {g}");
            }
        }
    }
}

#[test]
fn zero_combinations_play_as_the_shape_model_search() {
    for rules in [Rules::GOMOKU, Rules::new(9, 9, 4, Rule::Freestyle).unwrap()] {
        let w = shipped_search_weights(rules);
        let limits = SearchLimits {
            depth: 3,
            tt_bits: 12,
            ..SearchLimits::default()
        };
        let mut a = Search::new(w.clone(), limits.clone());
        let mut b = Search::new(zero_combo(&w), limits);
        let plies = same_moves(rules, &mut a, &mut b, &openings(rules, 8, 3));
        assert!(plies > 40, "{rules}: {plies} plies");
    }
}

/// Tic-tac-toe: X b2 and a1, O b1 and c3, X to move. Neither side has a
/// two to complete; X forks on a2 (column a and row 2) or a3 (column a
/// and the anti-diagonal). Those cells are X's `double2`, and an own
/// weight on it raises exactly them, by `attack ×` the weight, so the
/// greedy player forks whatever its shape weights.
#[test]
fn the_fork_is_the_double_two() {
    let rules = Rules::TICTACTOE;
    let mut board = Board::new(rules);
    for m in ["b2", "b1", "a1", "c3"] {
        board.play(mv(m)).unwrap();
    }
    assert_eq!(board.to_move(), Color::Black);
    let forks = [mv("a2"), mv("a3")];
    let mut fork = Weights::flat(rules).with_model(Model::Combo);
    let plain = Evaluator::new(fork.clone());
    fork.combo.as_mut().unwrap().own[0] = 10.0;
    fork.attack = 2.0;
    let mut plain = plain;
    plain.set_weights(Weights {
        attack: 2.0,
        ..plain.weights().clone()
    });
    let mut e = Evaluator::new(fork.clone());
    e.sync(&board);
    plain.sync(&board);
    assert_eq!(Combo::DoubleIn1.name(3), "double2");
    for i in 0..rules.cells() {
        let m = rules.move_at(i);
        let is_fork = forks.contains(&m);
        let want = if is_fork {
            Combo::DoubleIn1
        } else {
            Combo::None
        };
        if board.cells()[i].is_empty() {
            assert_eq!(e.combo_at(m, Color::Black), want, "{m}");
            let raise = e.score(m, Color::Black) - plain.score(m, Color::Black);
            assert_eq!(raise, if is_fork { 20.0 } else { 0.0 }, "{m}");
        }
    }
    let mut p = Greedy::new(fork);
    for s in 0..20 {
        let m = p.choose(&board, &mut game_rng(s, &[])).unwrap();
        assert!(forks.contains(&m), "{m}");
    }
}

/// Gomoku: a cell that makes a four and an open three at once is an
/// `4_open3`, and an own weight on it makes the greedy player prefer it to
/// a plain four elsewhere (which the hand-set shape weights prefer).
#[test]
fn the_four_three_is_seen_at_its_cell() {
    let rules = Rules::GOMOKU;
    let mut board = Board::new(rules);
    // Black: d4 e4 f4 (row 4) and g6 g7 (column g); white far away. A
    // black stone on g4 makes a four on row 4 (d4-g4, c4 or h4 open) and
    // an open three on column g (g4 g5 g6).
    let black = ["d4", "e4", "f4", "g6", "g7"];
    // (g4 then makes `.X.XX.` on column g: an open three.)
    let white = ["a15", "o15", "a13", "o13", "c15"];
    for (b, w) in black.iter().zip(&white) {
        board.play(mv(b)).unwrap();
        board.play(mv(w)).unwrap();
    }
    let mut e = Evaluator::new(combo_default(rules));
    e.sync(&board);
    let c4 = mv("c4");
    let shapes = e.shapes_at(c4, Color::Black);
    assert_eq!(reference_combo(shapes), e.combo_at(c4, Color::Black));
    let g4 = mv("g4");
    let shapes = e.shapes_at(g4, Color::Black);
    assert_eq!(shapes[0], Shape::OpenIn1, "{shapes:?}");
    assert_eq!(shapes[1], Shape::OpenIn2, "{shapes:?}");
    assert_eq!(e.combo_at(g4, Color::Black), Combo::In1OpenIn2);
    // And for white it is where black's four-three would be made: the
    // opp weight of 4_open3 raises white's score there.
    let mut w = shipped_weights(rules).with_model(Model::Combo);
    let base = Evaluator::new(w.clone());
    w.combo.as_mut().unwrap().opp[1] = 5e6;
    let mut blocked = Evaluator::new(w);
    let mut base = base;
    base.sync(&board);
    blocked.sync(&board);
    assert!(blocked.score(g4, Color::White) > base.score(g4, Color::White));
    assert_eq!(
        blocked.score(mv("m12"), Color::White),
        base.score(mv("m12"), Color::White)
    );
}

#[test]
fn combination_names() {
    let names = |k: u8| -> Vec<String> {
        Combo::WEIGHTED[..Combo::count(k)]
            .iter()
            .map(|c| c.name(k))
            .collect()
    };
    assert_eq!(
        names(5),
        [
            "double4",
            "4_open3",
            "double_open3",
            "open3_open2",
            "double_open2"
        ]
    );
    assert_eq!(names(3), ["double2", "2_open1", "double_open1"]);
    assert_eq!(names(4)[..2], ["double3", "3_open2"]);
}

#[test]
fn combo_toml_round_trips_and_names_every_number() {
    for rules in [
        Rules::GOMOKU,
        Rules::TICTACTOE,
        Rules::new(9, 9, 4, Rule::Exact).unwrap(),
    ] {
        let w = combo_default(rules);
        let text = w.to_toml("a combo set");
        assert!(text.contains("model = \"combo\""), "{text}");
        assert!(text.contains("[own_combo]") && text.contains("[opp_combo]"));
        let back = Weights::from_toml(&text, "memory").unwrap();
        assert_eq!(back, w, "{text}");
        assert_eq!(back.model(), Model::Combo);
        let n = Combo::count(rules.k);
        let names: Vec<String> = w.named_values().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names.len(), 2 + 2 * (Shape::count(rules.k) + n));
        assert_eq!(
            names[names.len() - 2 * n],
            format!("own_combo.{}", Combo::DoubleIn1.name(rules.k))
        );
        // The flat vector knows its model by its length.
        assert_eq!(Weights::from_vec(rules, &w.to_vec()).unwrap(), w);
        let shapes = w.clone().with_model(Model::Shapes);
        assert_eq!(Weights::from_vec(rules, &shapes.to_vec()).unwrap(), shapes);
        assert_eq!(Weights::from_vec(rules, &w.to_vec()[1..]), None);
    }
    // A shape model's text has no trace of the combo model (the shipped
    // files stay as they are).
    let text = shipped_weights(Rules::GOMOKU).to_toml("plain");
    assert!(!text.contains("model") && !text.contains("combo"), "{text}");
    // `model = "shapes"` may be written out.
    let plain = format!("model = \"shapes\"\n{text}");
    assert_eq!(
        Weights::from_toml(&plain, "p.toml").unwrap(),
        shipped_weights(Rules::GOMOKU)
    );
}

fn assert_field_error(text: &str, field: &str, needles: &[&str]) {
    match Weights::from_toml(text, "my.toml") {
        Ok(w) => panic!("accepted as {w:?}:\n{text}"),
        Err(e) => {
            let msg = e.to_string();
            assert!(
                matches!(&e, WeightsError::Field { field: f, .. } if f == field),
                "{e:?}"
            );
            assert!(msg.starts_with("my.toml: "), "{msg}");
            for n in needles {
                assert!(msg.contains(n), "{msg:?} does not mention {n:?}");
            }
        }
    }
}

#[test]
fn bad_combo_files_name_the_field() {
    let good = combo_default(Rules::GOMOKU).to_toml("good");
    Weights::from_toml(&good, "my.toml").unwrap();
    let plain = shipped_weights(Rules::GOMOKU).to_toml("plain");
    // An unknown model.
    let t = good.replace("model = \"combo\"", "model = \"neural\"");
    assert_field_error(&t, "model", &["neural", "shapes", "combo"]);
    let t = good.replace("model = \"combo\"", "model = 2");
    assert_field_error(&t, "model", &["expected"]);
    // A combo model without its tables.
    let t = good.replace("\n[opp_combo]", "\n[opp_combos]");
    assert_field_error(&t, "opp_combos", &["unknown key"]);
    let cut = good.rfind("[opp_combo]").unwrap();
    assert_field_error(&good[..cut], "opp_combo", &["missing", "double4"]);
    // A missing, unknown, negative or non-numeric combination weight.
    let t = good.replace("double_open2 = 200", "");
    assert_field_error(&t, "own_combo.double_open2", &["missing"]);
    let t = good.replace("double4 = 500000", "double5 = 500000");
    assert_field_error(&t, "own_combo.double5", &["not a combination of k = 5"]);
    let t = good.replace("4_open3 = 200000", "4_open3 = -1");
    assert_field_error(&t, "opp_combo.4_open3", &["out of range"]);
    let t = good.replace("double_open3 = 20000", "double_open3 = \"big\"");
    assert_field_error(&t, "own_combo.double_open3", &["expected a number"]);
    // Combination weights in a file of the shape model.
    let t = format!("{plain}\n[own_combo]\ndouble4 = 1\n");
    assert_field_error(&t, "own_combo", &["model = \"combo\""]);
    // k = 3 has no (k−3) combinations.
    let ttt = combo_default(Rules::TICTACTOE).to_toml("ttt");
    let t = ttt.replace("\n[own_combo]   #", "\n[own_combo]\nopen1_open0 = 3 #");
    assert_field_error(
        &t,
        "own_combo.open1_open0",
        &["double2, 2_open1, double_open1"],
    );
}

#[test]
fn a_combo_model_is_not_exported_as_chessboard_value_txt() {
    let w = combo_default(Rules::GOMOKU);
    let e = w.to_txt().unwrap_err();
    assert!(matches!(e, WeightsError::TxtModel { .. }), "{e:?}");
    let msg = e.to_string();
    for n in [
        "combo",
        "ChessboardValue.txt",
        "16 numbers",
        "10 combination",
    ] {
        assert!(msg.contains(n), "{msg:?} does not mention {n:?}");
    }
    // Even with every combination weight 0: the file would not say so.
    assert!(zero_combo(&shipped_weights(Rules::GOMOKU))
        .export_txt()
        .is_err());
    assert!(shipped_weights(Rules::GOMOKU).export_txt().is_ok());
}

/// Evaluators built fresh on a combo model and switched to it later agree,
/// and switching back to the shape model drops the combinations.
#[test]
fn set_weights_switches_models() {
    let rules = Rules::GOMOKU;
    let mut board = Board::new(rules);
    for m in &openings(rules, 1, 9)[0].moves {
        board.play(*m).unwrap();
    }
    let mut rng: Rng = game_rng(4, &[]);
    let mut p = Greedy::new(shipped_weights(rules));
    for _ in 0..30 {
        if board.is_over() {
            break;
        }
        let m = p.choose(&board, &mut rng).unwrap();
        board.play(m).unwrap();
    }
    let c = combo_default(rules);
    let mut fresh = Evaluator::new(c.clone());
    fresh.sync(&board);
    let mut switched = Evaluator::new(shipped_weights(rules));
    switched.sync(&board);
    let shape_value = switched.evaluate(Color::Black);
    switched.set_weights(c);
    for color in [Color::Black, Color::White] {
        assert_eq!(switched.scores(color), fresh.scores(color));
        assert_eq!(switched.evaluate(color), fresh.evaluate(color));
        for x in Combo::ALL {
            assert_eq!(switched.combo_count(color, x), fresh.combo_count(color, x));
        }
    }
    switched.set_weights(shipped_weights(rules));
    assert_eq!(switched.evaluate(Color::Black), shape_value);
}

/// The greedy player's evaluator keeps no counts and the duel shares one
/// set of lines: with nonzero combination weights their cell scores and
/// board values still equal a counting evaluator's, bit for bit.
#[test]
fn cell_score_only_evaluators_add_the_combinations_too() {
    for rules in games() {
        let w = combo_default(rules);
        let mut greedy = Greedy::new(w.clone());
        let mut full = Evaluator::new(w.clone());
        for (g, o) in openings(rules, 10, 6).iter().enumerate() {
            let mut board = Board::new(rules);
            for &m in &o.moves {
                board.play(m).unwrap();
            }
            let mut rng = game_rng(8, &[g as u64]);
            while !board.is_over() {
                let m = greedy.choose(&board, &mut rng).unwrap();
                full.sync(&board);
                let e = greedy.evaluator();
                for c in [Color::Black, Color::White] {
                    let bits = |e: &Evaluator| -> Vec<u64> {
                        e.scores(c).iter().map(|v| v.to_bits()).collect()
                    };
                    assert_eq!(bits(e), bits(&full), "{rules} game {g} ply {}", board.ply());
                    assert_eq!(e.evaluate(c).to_bits(), full.evaluate(c).to_bits());
                }
                board.play(m).unwrap();
            }
        }
    }
}

/// A duel (one shared set of lines, each sheet copied from its player)
/// plays a combo player against a shape player exactly as the two
/// players do on their own.
#[test]
fn duels_carry_the_combinations_of_either_side() {
    for rules in games() {
        let (c, s) = (combo_default(rules), shipped_weights(rules));
        let mut board = Board::new(rules);
        for (g, o) in openings(rules, 30, 10).iter().enumerate() {
            for (bw, ww) in [(&c, &s), (&s, &c), (&c, &c)] {
                let (mut black, mut white) = (Greedy::new(bw.clone()), Greedy::new(ww.clone()));
                let mut rng = game_rng(12, &[g as u64]);
                play_game(rules, o, &mut black, &mut white, &mut board, &mut rng).unwrap();
                // The same game, each player choosing on its own.
                let mut alone = Board::new(rules);
                for &m in &o.moves {
                    alone.play(m).unwrap();
                }
                let mut rng = game_rng(12, &[g as u64]);
                while !alone.is_over() {
                    let p = match alone.to_move() {
                        Color::Black => &mut black,
                        Color::White => &mut white,
                    };
                    alone.play(p.choose(&alone, &mut rng).unwrap()).unwrap();
                }
                assert_eq!(alone, board, "{rules} opening {g}");
            }
        }
    }
}

/// One forced reply ahead: on tic-tac-toe after `a1 c1 b3` (O to move; X
/// forks at a3, b2 and c3) the centre makes O's two on the diagonal, so X
/// must block on a3, its own fork cell, and wins. With the opponent's fork
/// weighed (`opp_combo.double2`), the cell score charges the centre for
/// that reply and O takes the fork cell c3, whose two sends X to c2 (the
/// exact player's only move). Without the reply term the centre scored 5
/// + W against c3's 3 + W, whatever W.
#[test]
fn a_four_that_forces_the_opponent_onto_its_fork_cell_is_charged() {
    let rules = Rules::TICTACTOE;
    let mut w = Weights::flat(rules).with_model(Model::Combo);
    w.combo.as_mut().unwrap().opp[0] = 5.0; // opp_combo.double2
    let board = Board::from_moves(rules, &[mv("a1"), mv("c1"), mv("b3")]).unwrap();
    let mut e = Evaluator::new(w.clone());
    e.sync(&board);
    let score = |s: &str| e.score(mv(s), Color::White);
    // b2: shapes 2 + 3, X's fork 5, the reply onto X's fork at a3 −5.
    assert_eq!(score("b2"), 5.0);
    // c3: shapes 1 + 2, X's fork 5; the reply on c2 makes X nothing.
    assert_eq!(score("c3"), 8.0);
    // a3: shapes 1 + 2, X's fork 5, the reply onto X's fork at b2 −5.
    assert_eq!(score("a3"), 3.0);
    let mut g = Greedy::new(w);
    let mut rng: Rng = game_rng(1, &[]);
    assert_eq!(g.choose(&board, &mut rng).unwrap(), mv("c3"));
    // Combination weights of 0 charge nothing: the shape model's centre.
    let mut flat = Greedy::new(Weights::flat(rules).with_model(Model::Combo));
    assert_eq!(flat.choose(&board, &mut rng).unwrap(), mv("b2"));
}
