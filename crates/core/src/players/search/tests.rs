//! Unit tests of the search's candidates and winning cells against plain
//! scans.

use super::*;
use crate::eval::{shipped_weights, Shape};
use crate::game::{Rule, Rules};
use rand::SeedableRng;

/// The candidates as first written: every cell in `centre_out` order,
/// inserted into the best so far. `candidates` must match it exactly.
fn candidates_by_scan(s: &Search, mover: Color) -> Vec<(f64, u16)> {
    let width = s.limits.width.max(1);
    let scores = s.eval.scores(mover);
    let mut out: Vec<(f64, u16)> = Vec::new();
    for &cell in &s.centre_out {
        let sc = scores[cell as usize];
        if sc == f64::NEG_INFINITY {
            continue;
        }
        if out.len() < width {
            out.push((sc, cell));
        } else if sc > out[width - 1].0 {
            out[width - 1] = (sc, cell);
        } else {
            continue;
        }
        let mut j = out.len() - 1;
        while j > 0 && out[j - 1].0 < out[j].0 {
            out.swap(j - 1, j);
            j -= 1;
        }
    }
    out
}

/// Every empty cell where `color` completes a win, by its shapes.
fn win_cells_by_scan(s: &Search, color: Color) -> Vec<u16> {
    let rules = *s.board.rules();
    (0..rules.cells())
        .filter(|&i| {
            s.board.cells()[i].is_empty()
                && s.eval
                    .shapes_at(rules.move_at(i), color)
                    .contains(&Shape::Win)
        })
        .map(|i| i as u16)
        .collect()
}

fn games() -> Vec<Rules> {
    let r = |w, h, k, rule| Rules::new(w, h, k, rule).expect("valid rules");
    vec![
        Rules::GOMOKU,
        Rules::TICTACTOE,
        r(15, 15, 5, Rule::Exact),
        r(7, 6, 4, Rule::Freestyle),
        r(18, 18, 5, Rule::Freestyle),
        r(9, 9, 4, Rule::Exact),
        r(19, 19, 5, Rule::Freestyle),
    ]
}

/// Random games (random moves, or a cell near the last so that lines
/// form), checked at every position, the finished one included.
fn each_position(seed: u64, check: impl FnMut(&mut Search, &mut Rng)) {
    each_position_with(seed, shipped_weights, check);
}

/// [`each_position`] with the weights `weights` makes for each game.
fn each_position_with(
    seed: u64,
    weights: impl Fn(Rules) -> Weights,
    mut check: impl FnMut(&mut Search, &mut Rng),
) {
    let mut rng = Rng::seed_from_u64(seed);
    for rules in games() {
        for game in 0..12 {
            let width = [1, 2, 5, 9, 9, 12, 20, 40][game % 8];
            let limits = SearchLimits {
                width,
                ..SearchLimits::default()
            };
            let mut s = Search::new(weights(rules), limits);
            let mut board = Board::new(rules);
            loop {
                s.sync(&board);
                check(&mut s, &mut rng);
                if board.is_over() {
                    break;
                }
                let empty: Vec<usize> = (0..rules.cells())
                    .filter(|&i| board.cells()[i].is_empty())
                    .collect();
                let near = board.last_move().and_then(|m| {
                    let i = rules.index(m) as i64 + rng.gen_range(-2..=2);
                    let i = i + rules.width as i64 * rng.gen_range(-2..=2);
                    usize::try_from(i)
                        .ok()
                        .filter(|&i| i < rules.cells() && board.cells()[i].is_empty())
                });
                let cell = match near {
                    Some(i) if rng.gen_bool(0.8) => i,
                    _ => empty[rng.gen_range(0..empty.len())],
                };
                board.play(rules.move_at(cell)).expect("an empty cell");
            }
        }
    }
}

#[test]
fn candidates_are_the_best_cells_in_centre_out_order() {
    let mut checked = 0;
    each_position(1, |s, _| {
        // Twice: the second time the lists are remembered ones.
        for mover in [Color::Black, Color::White, Color::Black, Color::White] {
            let mut out = vec![(1.0, 0); 3];
            s.candidates(mover, &mut out);
            let want = candidates_by_scan(s, mover);
            assert_eq!(out.len(), want.len());
            for (a, b) in out.iter().zip(&want) {
                assert_eq!((a.0.to_bits(), a.1), (b.0.to_bits(), b.1));
            }
            checked += 1;
        }
    });
    assert!(checked > 1000, "{checked} positions");
}

/// A node free of threats searches every four of its mover, however
/// narrow its width: a four is never cut.
#[test]
fn fours_are_never_cut_by_the_width() {
    let mut added = 0;
    each_position(6, |s, _| {
        let mover = s.board.to_move();
        if s.board.is_over() {
            return;
        }
        let mut moves = Vec::new();
        let NodeMoves::Search {
            forced: false,
            defence: Defence::Free,
        } = s.node_moves(mover, &mut moves, 0)
        else {
            return;
        };
        let fours: Vec<u16> = s
            .eval
            .lines()
            .threat_cells(mover, Threat::Four)
            .map(|c| c as u16)
            .collect();
        for c in &fours {
            assert!(moves.iter().any(|m| m.1 == *c), "{c} in {:?}", s.board);
        }
        let width = s.limits.width.max(1);
        added += moves.len().saturating_sub(width);
        let mut unique: Vec<u16> = moves.iter().map(|m| m.1).collect();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), moves.len(), "a move twice");
    });
    assert!(added > 100, "{added} fours beyond the width");
}

#[test]
fn win_cells_are_every_winning_cell_in_cell_order() {
    let mut wins = 0;
    each_position(2, |s, _| {
        for color in [Color::Black, Color::White] {
            let want = win_cells_by_scan(s, color);
            wins += want.len();
            for max in [1, 2, usize::MAX] {
                let mut out = vec![(0.0, 7)];
                s.win_cells(color, &mut out, max);
                let got: Vec<u16> = out.iter().map(|&(_, c)| c).collect();
                assert_eq!(got, want[..want.len().min(max)]);
            }
        }
    });
    assert!(wins > 100, "{wins} winning cells");
}

/// Whether the side to move in `board` wins by force within `plies`
/// plies (odd), by playing every move out on the board: some move that
/// wins, or after which every reply (none of which may win or draw)
/// leaves a win within `plies − 2`.
fn wins_within_by_play(board: &mut Board, plies: u32) -> bool {
    let rules = *board.rules();
    let empty = |b: &Board| -> Vec<Move> {
        (0..rules.cells())
            .filter(|&i| b.cells()[i].is_empty())
            .map(|i| rules.move_at(i))
            .collect()
    };
    for first in empty(board) {
        let outcome = board.play(first).expect("an empty cell");
        let wins = match outcome {
            Some(Outcome::Win(_)) => true,
            Some(Outcome::Draw) => false,
            None if plies >= 3 => empty(board).into_iter().all(|reply| {
                let outcome = board.play(reply).expect("an empty cell");
                let held = outcome.is_none() && wins_within_by_play(board, plies - 2);
                board.undo();
                held
            }),
            None => false,
        };
        board.undo();
        if wins {
            return true;
        }
    }
    false
}

/// A mover with a four-three or a double three, against an opponent with
/// no four to make, wins in five: played out on boards small enough to
/// try every move.
#[test]
fn leaf_wins_in_five_are_played_out() {
    let mut wins = 0;
    for seed in 5..20 {
        each_position(seed, |s, _| {
            let mover = s.board.to_move();
            if s.board.rules().cells() > 81 || s.board.is_over() || s.eval.can_win_now(mover) {
                return;
            }
            if wins >= 25 {
                return;
            }
            if s.leaf_win(mover) == Some(5) {
                let mut board = s.board.clone();
                assert!(!wins_within_by_play(&mut board, 3), "{:?}", s.board);
                assert!(wins_within_by_play(&mut board, 5), "{:?}", s.board);
                wins += 1;
            }
        });
    }
    assert!(wins >= 20, "{wins} leaf wins in five");
}

#[test]
fn leaf_wins_are_wins_in_three_played_out() {
    let mut wins = 0;
    each_position(3, |s, _| {
        let mover = s.board.to_move();
        if s.board.is_over() || s.eval.can_win_now(mover) {
            return;
        }
        // Each check plays out tens of thousands of moves: enough of them.
        if wins >= 150 {
            return;
        }
        if s.leaf_win(mover) == Some(3) {
            let mut board = s.board.clone();
            assert!(wins_within_by_play(&mut board, 3), "{:?}", s.board);
            wins += 1;
        }
    });
    assert!(wins > 20, "{wins} leaf wins");
}

/// The score of `cell` for the side to move, its child a leaf, the way
/// the search found it before leaves were read without playing them: play
/// the move, value the child at depth 0, undo. With the nodes it counted.
fn leaf_score_by_play(s: &mut Search, cell: u16) -> (f64, u64) {
    let nodes = s.nodes;
    let score = match s.play(cell, false) {
        Some(Outcome::Win(_)) => WIN - 1.0,
        Some(Outcome::Draw) => 0.0,
        None => -s.negamax(0, f64::NEG_INFINITY, f64::INFINITY, 1),
    };
    s.undo();
    (score, s.nodes - nodes)
}

#[test]
fn leaves_read_without_playing_score_as_played() {
    leaves_score_as_played(shipped_weights);
}

#[test]
fn a_combo_models_leaves_read_without_playing_score_as_played() {
    // Combination weights unlike the shapes', so that a stone's
    // combination changes the value.
    leaves_score_as_played(|rules| {
        let mut w = shipped_weights(rules);
        w.combo = Some(crate::eval::ComboWeights {
            own: [5e4, 2e4, 9e3, 7e2, 3e2],
            opp: [3e4, 1e4, 4e3, 5e2, 1e2],
        });
        w
    });
}

/// Every leaf read without playing it ([`Search::leaf_score`]) scores,
/// bit for bit and with the same node count, as played, on positions of
/// random games with `weights`.
fn leaves_score_as_played(weights: impl Fn(Rules) -> Weights) {
    // Which branch of the leaf's value each case took: a win by the
    // move, the reply winning now, the reply's win in three, the reply
    // facing an open four (lost in two), a value, the reply's win in five.
    let mut seen = [0usize; 6];
    each_position_with(4, weights, |s, rng| {
        if s.board.is_over() {
            return;
        }
        let rules = *s.board.rules();
        let empty: Vec<u16> = (0..rules.cells())
            .filter(|&i| s.board.cells()[i].is_empty())
            .map(|i| i as u16)
            .collect();
        // Every cell on small boards, a sample on large ones.
        let take = empty.len().min(40);
        for k in 0..take {
            let cell = if take == empty.len() {
                empty[k]
            } else {
                empty[rng.gen_range(0..empty.len())]
            };
            let before = s.nodes;
            let Some(got) = s.leaf_score(cell, 0) else {
                panic!("no peek on {rules}");
            };
            let peeked = s.nodes - before;
            let (want, played) = leaf_score_by_play(s, cell);
            assert_eq!(
                (got.to_bits(), peeked),
                (want.to_bits(), played),
                "{rules}: {got} vs {want} at cell {cell} of {:?}",
                s.board
            );
            let case = match got {
                v if v == WIN - 1.0 => 0,
                v if v == -(WIN - 2.0) => 1,
                v if v == -(WIN - 4.0) => 2,
                v if v == WIN - 3.0 => 3,
                v if v == -(WIN - 6.0) => 5,
                _ => 4,
            };
            seen[case] += 1;
        }
    });
    // Each kind of leaf met often enough to mean something.
    assert!(seen.iter().all(|&n| n >= 50), "{seen:?}");
}

/// The floor's group count is whole lanes, never whole columns, and is
/// found on every board (a board 4 cells wide once made the search loop
/// for ever looking for one).
#[test]
fn floor_groups_are_whole_lanes_and_never_columns() {
    for side in 1..=26u8 {
        for height in [1u8, 4, 15, 26] {
            for width in 1..=40 {
                let Ok(rules) = format!("{side}x{height}x3").parse::<crate::game::Rules>() else {
                    continue;
                };
                let g = super::candidates::groups(width, &rules);
                if g == 0 {
                    continue;
                }
                let s = side as usize;
                assert!(g.is_multiple_of(4), "{rules} width {width}: {g} groups");
                assert!(g >= 2 * width, "{rules} width {width}: {g} groups");
                assert!(
                    !g.is_multiple_of(s) && !s.is_multiple_of(g),
                    "{rules} width {width}: {g} groups are columns"
                );
                assert!(4 * g <= rules.cells(), "{rules} width {width}: {g} groups");
            }
        }
    }
}

/// A proven win claimed at one root is remembered for the mover's next
/// root, two plies on, and forgotten after any other result or a new
/// game: that root gives its own threat search the larger share.
#[test]
fn a_claimed_win_is_remembered_for_the_next_move_only() {
    let rules = Rules::GOMOKU;
    let mut s = Search::new(shipped_weights(rules), SearchLimits::default());
    let mut rng = Rng::seed_from_u64(1);
    let mut board = Board::new(rules);
    for m in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"] {
        board.play(m.parse().unwrap()).unwrap();
    }
    s.choose(&board, &mut rng).unwrap();
    assert!(s.info().score >= MATE_BOUND && s.info().proof.is_some());
    assert_eq!(s.root.claimed, Some(8));
    assert!(s.root.claimed_last_move(10));
    assert!(!s.root.claimed_last_move(8) && !s.root.claimed_last_move(12));
    s.new_game();
    assert!(!s.root.claimed_last_move(10));
    s.choose(&board, &mut rng).unwrap();
    s.choose(&Board::new(rules), &mut rng).unwrap();
    assert_eq!(s.root.claimed, None);
}

/// Every win the quiescence at the horizon finds ([`super::quiescence`])
/// is a VCF: its line, replayed on a plain board with the board's own win
/// detection ([`crate::threats::check_line`]), is forcing and wins, from
/// the move it names, in the plies it claims. Both kinds are met.
#[test]
fn quiescence_wins_are_vcf_lines_replayed() {
    use crate::threats::{check_line, Mode};
    let (mut refuted, mut won) = (0, 0);
    each_position(6, |s, rng| {
        let mover = s.board.to_move();
        if s.board.is_over() || s.eval.can_win_now(mover) {
            return;
        }
        let rules = *s.board.rules();
        if let Some((value, first)) = s.own_vcf(mover, 0) {
            let line = s.threats.line(&mut s.eval, s.board.hash(), mover);
            assert_eq!(rules.index(line[0]) as u16, first, "{:?}", s.board);
            assert_eq!(value, WIN - line.len() as f64, "{:?}", s.board);
            check_line(&s.board, mover, Mode::Vcf, &line).expect("a VCF");
            won += 1;
        }
        let empty: Vec<u16> = (0..rules.cells())
            .filter(|&i| s.board.cells()[i].is_empty())
            .map(|i| i as u16)
            .collect();
        for _ in 0..empty.len().min(8) {
            let cell = empty[rng.gen_range(0..empty.len())];
            let Some(score) = s.leaf_score(cell, 0) else {
                continue;
            };
            let got = s.refute_leaf(cell, score, f64::NEG_INFINITY, 0);
            if got == score {
                continue;
            }
            assert!(score.abs() < UNPROVEN_BOUND && got <= -MATE_BOUND, "{got}");
            let opp = mover.opponent();
            let _ = s.play(cell, false);
            let line = s.threats.line(&mut s.eval, s.board.hash(), opp);
            check_line(&s.board, opp, Mode::Vcf, &line).expect("a VCF");
            assert_eq!(got, -(WIN - (1 + line.len()) as f64), "{:?}", s.board);
            s.undo();
            refuted += 1;
        }
    });
    assert!(refuted >= 20 && won >= 20, "{refuted} refuted, {won} won");
}
