//! The shared representation under the evaluator: one [`Lines`] (shapes)
//! serving [`Sheets`] of any two weight sets. Whatever the mode (with or
//! without shape counts, the flat or the memoising classifier), after any
//! sequence of moves and take-backs every cell score equals, bit for bit,
//! the score of a separate [`Evaluator`] of that weight set (which
//! `tests/it/eval.rs` holds to the reference classifier), and the shapes
//! agree.

use crate::common::strategies::{rules_of, weights_from};
use mnk::eval::{ComboWeights, Evaluator, Lines, Shape, Threat, Weights};
use mnk::game::{Board, Color, Rules};
use proptest::prelude::*;

fn rules() -> impl Strategy<Value = Rules> {
    rules_of(&[
        "tictactoe",
        "gomoku",
        "7x7x4",
        "9x6x4-exact",
        "10x10x6",
        "11x11x5-exact",
        "12x12x7",
        "13x13x8-exact",
    ])
}

/// A shape-model set, or (half the time) a combo set, whose cell scores
/// also read other cells (the combination of a forced reply).
fn weights(rules: Rules) -> impl Strategy<Value = Weights> {
    let c = || prop::array::uniform5(prop::sample::select(&[0.0, 1.0, 3.0, 7e5][..]));
    (
        weights_from(
            rules,
            &[0.0, 0.5, 1.0, 3.0, 1e-7, 7e5],
            &[0.25, 1.0, 3.0],
            &[0.5, 1.0],
        ),
        any::<bool>(),
        c(),
        c(),
    )
        .prop_map(move |(mut w, combo, own, opp)| {
            if combo {
                w.combo = Some(ComboWeights { own, opp });
            }
            w.for_game(rules)
        })
}

/// A game's worth of steps: a cell index to play (taken modulo the empty
/// cells), or a take-back.
fn steps() -> impl Strategy<Value = Vec<Option<usize>>> {
    prop::collection::vec(
        prop_oneof![4 => any::<usize>().prop_map(Some), 1 => Just(None)],
        0..60,
    )
}

/// The empty cell `i` (modulo their number) of a board that has one.
fn nth_empty(board: &Board, i: usize) -> mnk::game::Move {
    let rules = board.rules();
    let empty: Vec<usize> = (0..rules.cells())
        .filter(|&c| board.cells()[c].is_empty())
        .collect();
    rules.move_at(empty[i % empty.len()])
}

fn bits(s: &[f64]) -> Vec<u64> {
    s.iter().map(|v| v.to_bits()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn shared_lines_score_like_separate_evaluators(
        (rules, wb, ww, steps, counts) in rules().prop_flat_map(|r| (Just(r), weights(r), weights(r), steps(), any::<bool>()))
    ) {
        let mut lines = if counts { Lines::new(rules) } else { Lines::without_counts(rules) };
        let mut sheets = lines.sheets([(&wb, Color::Black), (&ww, Color::White)]);
        let (mut eb, mut ew) = (Evaluator::new(wb.clone()), Evaluator::for_cell_scores(ww.clone()));
        // Synced to the board after every step (one move or a take-back at
        // a time, as a greedy player syncs).
        let mut synced = Lines::without_counts(rules);
        let mut synced_sheets = synced.sheets([(&wb, Color::Black), (&ww, Color::White)]);
        let mut board = Board::new(rules);
        for step in steps {
            match step {
                Some(i) if !board.is_over() => {
                    let m = nth_empty(&board, i);
                    let (color, hash) = (board.to_move(), board.hash());
                    lines.play(m, color, hash, &mut sheets);
                    eb.play(m, color, hash);
                    ew.play(m, color, hash);
                    board.play(m).unwrap();
                }
                Some(_) => {}
                None => {
                    if board.undo().is_some() {
                        lines.undo(&mut sheets);
                        eb.undo();
                        ew.undo();
                    }
                }
            }
            prop_assert_eq!(bits(sheets.scores(0)), bits(eb.scores(Color::Black)));
            prop_assert_eq!(bits(sheets.scores(1)), bits(ew.scores(Color::White)));
            synced.sync(&board, &mut synced_sheets);
            prop_assert_eq!(bits(synced_sheets.scores(0)), bits(sheets.scores(0)));
            prop_assert_eq!(bits(synced_sheets.scores(1)), bits(sheets.scores(1)));
            // A greedy player's path (one move scored at a time, its
            // dependents found at scoring, no level log) against sheets
            // built from scratch on the position, every cell's reply
            // looked up afresh.
            let scratch = synced.sheets([(&wb, Color::Black), (&ww, Color::White)]);
            prop_assert_eq!(bits(scratch.scores(0)), bits(synced_sheets.scores(0)));
            prop_assert_eq!(bits(scratch.scores(1)), bits(synced_sheets.scores(1)));
            for c in 0..rules.cells() {
                let m = rules.move_at(c);
                for color in [Color::Black, Color::White] {
                    prop_assert_eq!(lines.shapes_at(m, color), eb.shapes_at(m, color));
                    prop_assert_eq!(lines.shapes_at(m, color), ew.shapes_at(m, color));
                }
            }
            for color in [Color::Black, Color::White] {
                prop_assert_eq!(lines.can_win_now(color), eb.can_win_now(color));
            }
        }
        // Syncing a fresh pair to the final board gives the same scores.
        let mut fresh = Lines::without_counts(rules);
        let mut fresh_sheets = fresh.sheets([(&wb, Color::Black), (&ww, Color::White)]);
        fresh.sync(&board, &mut fresh_sheets);
        prop_assert_eq!(bits(fresh_sheets.scores(0)), bits(sheets.scores(0)));
        prop_assert_eq!(bits(fresh_sheets.scores(1)), bits(sheets.scores(1)));
    }
}

/// Sheets built on a position part-way through a game (not the empty
/// board) start from that position's scores, and a reset returns both to
/// the empty board.
#[test]
fn sheets_built_mid_game_and_reset_agree_with_evaluators() {
    let rules = Rules::GOMOKU;
    let (wb, ww) = (mnk::eval::shipped_weights(rules), Weights::flat(rules));
    let mut lines = Lines::new(rules);
    let mut empty = lines.sheets([(&wb, Color::Black), (&ww, Color::White)]);
    let mut board = Board::new(rules);
    for s in ["h8", "h9", "i9", "g7", "j10"] {
        let m = s.parse().unwrap();
        lines.play(m, board.to_move(), board.hash(), &mut empty);
        board.play(m).unwrap();
    }
    let mid = lines.sheets([(&wb, Color::Black), (&ww, Color::White)]);
    assert_eq!(bits(mid.scores(0)), bits(empty.scores(0)));
    assert_eq!(bits(mid.scores(1)), bits(empty.scores(1)));
    let mut eb = Evaluator::new(wb.clone());
    eb.sync(&board);
    assert_eq!(bits(mid.scores(0)), bits(eb.scores(Color::Black)));
    let mut mid = mid;
    lines.reset(&mut mid);
    assert_eq!(
        bits(mid.scores(0)),
        bits(Evaluator::new(wb).scores(Color::Black))
    );
    assert_eq!(
        bits(mid.scores(1)),
        bits(Evaluator::new(ww).scores(Color::White))
    );
}

/// Sheets of another game are refused with a clear message, never written
/// out of bounds.
#[test]
#[should_panic(expected = "score sheets of another game")]
fn sheets_of_another_game_are_refused() {
    let mut lines = Lines::new(Rules::GOMOKU);
    let w = Weights::default_for(Rules::TICTACTOE);
    let small = Lines::new(Rules::TICTACTOE);
    let mut sheets = small.sheets([(&w, Color::Black), (&w, Color::White)]);
    lines.play("h8".parse().unwrap(), Color::Black, 0, &mut sheets);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A leaf played without sheets has the same shapes, counts and board
    /// value as one played with them, and taking it back leaves every
    /// score as it was, bit for bit.
    #[test]
    fn an_unscored_leaf_values_like_a_scored_one_and_undoes_cleanly(
        (rules, w, steps) in rules().prop_flat_map(|r| (Just(r), weights(r), steps()))
    ) {
        let (mut fast, mut full) = (Evaluator::new(w.clone()), Evaluator::new(w));
        let mut board = Board::new(rules);
        for step in steps.into_iter().flatten() {
            if board.is_over() {
                break;
            }
            let m = nth_empty(&board, step);
            let (color, hash) = (board.to_move(), board.hash());
            let before = bits(fast.scores(color));
            fast.play_unscored(m, color, hash);
            full.play(m, color, hash);
            for c in [Color::Black, Color::White] {
                prop_assert_eq!(fast.evaluate(c).to_bits(), full.evaluate(c).to_bits());
                prop_assert_eq!(fast.can_win_now(c), full.can_win_now(c));
            }
            fast.undo();
            full.undo();
            prop_assert_eq!(bits(fast.scores(color)), before);
            // Then the move for real, on both.
            fast.play(m, color, hash);
            full.play(m, color, hash);
            board.play(m).unwrap();
            prop_assert_eq!(bits(fast.scores(Color::Black)), bits(full.scores(Color::Black)));
        }
    }
}

/// Rescoring on top of a move played without sheets would leave them out of
/// date: refused.
#[test]
#[should_panic(expected = "a scored move on top of a move played without sheets")]
fn a_scored_move_on_an_unscored_one_is_refused() {
    let mut e = Evaluator::new(Weights::default_for(Rules::GOMOKU));
    e.play_unscored("h8".parse().unwrap(), Color::Black, 0);
    e.play("h9".parse().unwrap(), Color::White, 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A search's pattern: runs of moves played without sheets, some of
    /// them taken back, each run then scored at once. The scores equal,
    /// bit for bit, those of an evaluator that played the same moves
    /// scored, and those of one synced from scratch. The first run is
    /// scored with every (k−1) near a touched cell rescored; once sheets
    /// with reply terms were scored, the lines record which cells' threat
    /// levels each move changed (and drop a taken-back move's), and only
    /// the (k−1)s pointing at those are rescored.
    #[test]
    fn unscored_runs_with_take_backs_score_like_scored_moves(
        (rules, w, runs) in rules().prop_flat_map(|r| {
            let step = prop_oneof![3 => any::<usize>().prop_map(Some), 1 => Just(None)];
            (Just(r), weights(r), prop::collection::vec(prop::collection::vec(step, 1..9), 1..8))
        })
    ) {
        let (mut fast, mut full) = (Evaluator::new(w.clone()), Evaluator::new(w.clone()));
        let mut board = Board::new(rules);
        for run in runs {
            // Take-backs stay within the run: earlier moves are scored.
            let start = board.ply();
            for step in run {
                match step {
                    Some(i) if !board.is_over() => {
                        let m = nth_empty(&board, i);
                        let (color, hash) = (board.to_move(), board.hash());
                        fast.play_unscored(m, color, hash);
                        full.play(m, color, hash);
                        board.play(m).unwrap();
                    }
                    None if board.ply() > start => {
                        board.undo();
                        fast.undo();
                        full.undo();
                    }
                    _ => {}
                }
            }
            fast.score_unscored();
            let mut fresh = Evaluator::new(w.clone());
            fresh.sync(&board);
            for c in [Color::Black, Color::White] {
                prop_assert_eq!(bits(fast.scores(c)), bits(full.scores(c)));
                prop_assert_eq!(bits(fast.scores(c)), bits(fresh.scores(c)));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A search's take-backs of scored moves: runs of moves played without
    /// sheets and scored at once (a run of one move has a combo sheet
    /// record what its rescoring overwrote, and its undo copies it back;
    /// longer runs are rescored on undo), then take-backs past the runs,
    /// and now and then the weights set again mid-game (new sheets, which
    /// recorded none of the earlier moves). After each step the scores
    /// equal, bit for bit, those of an evaluator synced from scratch.
    #[test]
    fn take_backs_of_scored_moves_restore_the_scores(
        (rules, w, runs) in rules().prop_flat_map(|r| {
            let run = (1..4usize, prop::collection::vec(any::<usize>(), 3), 0..5usize, any::<bool>());
            (Just(r), weights(r), prop::collection::vec(run, 1..10))
        })
    ) {
        let mut e = Evaluator::new(w.clone());
        let mut board = Board::new(rules);
        for (len, cells, back, reweigh) in runs {
            for &i in &cells[..len] {
                if board.is_over() {
                    break;
                }
                let m = nth_empty(&board, i);
                e.play_unscored(m, board.to_move(), board.hash());
                board.play(m).unwrap();
            }
            e.score_unscored();
            if reweigh {
                e.set_weights(w.clone());
            }
            for _ in 0..back {
                if board.undo().is_some() {
                    e.undo();
                }
            }
            let mut fresh = Evaluator::new(w.clone());
            fresh.sync(&board);
            for c in [Color::Black, Color::White] {
                prop_assert_eq!(bits(e.scores(c)), bits(fresh.scores(c)), "{:?}", board);
                prop_assert_eq!(e.keys(c), fresh.keys(c), "{:?}", board);
            }
        }
    }
}

/// The threat cells by a plain scan of the shapes: the empty cells where a
/// `color` stone makes `kind`.
fn threat_cells_by_scan(lines: &Lines, board: &Board, color: Color, kind: Threat) -> Vec<usize> {
    (0..board.rules().cells())
        .filter(|&c| board.cells()[c].is_empty())
        .filter(|&c| {
            let shapes = lines.shapes_at_cell(c, color);
            let fours = shapes
                .iter()
                .filter(|&&s| matches!(s, Shape::OpenIn1 | Shape::ClosedIn1))
                .count();
            let threes = shapes.iter().filter(|&&s| s == Shape::OpenIn2).count();
            match kind {
                Threat::Win => shapes.contains(&Shape::Win),
                Threat::Four => fours > 0,
                Threat::WinInTwo => shapes.contains(&Shape::OpenIn1) || fours >= 2,
                Threat::WinInThree => threes >= 2 || (threes >= 1 && fours >= 1),
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The threat cells kept as stones are played and taken back (scored
    /// or not, and after a reset) are exactly those a scan of the shapes
    /// finds, for both colours and every kind.
    #[test]
    fn threat_cells_are_kept_exactly(
        (rules, steps, unscored) in rules().prop_flat_map(|r| (Just(r), steps(), any::<bool>()))
    ) {
        let w = Weights::default_for(rules);
        let mut e = Evaluator::new(w);
        let mut board = Board::new(rules);
        let check = |e: &Evaluator, board: &Board| -> Result<(), TestCaseError> {
            for color in [Color::Black, Color::White] {
                for kind in [Threat::Win, Threat::WinInTwo, Threat::Four, Threat::WinInThree] {
                    let kept: Vec<usize> = e.lines().threat_cells(color, kind).collect();
                    prop_assert_eq!(&kept, &threat_cells_by_scan(e.lines(), board, color, kind), "{:?} {:?}", color, kind);
                    prop_assert_eq!(e.lines().has_threat_cell(color, kind), !kept.is_empty());
                }
            }
            Ok(())
        };
        for step in steps {
            match step {
                Some(i) if !board.is_over() => {
                    let m = nth_empty(&board, i);
                    let (color, hash) = (board.to_move(), board.hash());
                    if unscored {
                        // A leaf's move, taken back at once.
                        e.play_unscored(m, color, hash);
                        let mut leaf = board.clone();
                        leaf.play(m).unwrap();
                        check(&e, &leaf)?;
                        e.undo();
                    }
                    e.play(m, color, hash);
                    board.play(m).unwrap();
                }
                Some(_) => {}
                None => {
                    if board.ply() > 0 {
                        board.undo();
                        e.undo();
                    }
                }
            }
            check(&e, &board)?;
        }
        e.reset();
        check(&e, &Board::new(rules))?;
    }
}
