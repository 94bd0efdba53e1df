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
fn each_position(seed: u64, mut check: impl FnMut(&mut Search, &mut Rng)) {
    let mut rng = Rng::seed_from_u64(seed);
    for rules in games() {
        for game in 0..12 {
            let width = [1, 2, 5, 9, 9, 12, 20, 40][game % 8];
            let limits = SearchLimits {
                width,
                ..SearchLimits::default()
            };
            let mut s = Search::new(shipped_weights(rules), limits);
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

/// Whether the side to move in `board` wins by force within three plies,
/// by playing it out on the board: some move after which every reply
/// (none of which may win) leaves a move that completes k.
fn wins_in_three_by_play(board: &mut Board) -> bool {
    let rules = *board.rules();
    let empty = |b: &Board| -> Vec<Move> {
        (0..rules.cells())
            .filter(|&i| b.cells()[i].is_empty())
            .map(|i| rules.move_at(i))
            .collect()
    };
    let wins_now = |b: &mut Board| {
        empty(b).into_iter().any(|m| {
            let won = matches!(b.play(m), Ok(Some(Outcome::Win(_))));
            b.undo();
            won
        })
    };
    for first in empty(board) {
        if board.play(first).expect("an empty cell").is_some() {
            board.undo();
            continue;
        }
        let holds = empty(board).into_iter().all(|reply| {
            let outcome = board.play(reply).expect("an empty cell");
            let won = outcome.is_none() && wins_now(board);
            board.undo();
            won
        });
        board.undo();
        if holds {
            return true;
        }
    }
    false
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
        if let Some(plies) = s.leaf_win(mover) {
            assert_eq!(plies, 3);
            let mut board = s.board.clone();
            assert!(wins_in_three_by_play(&mut board), "{:?}", s.board);
            wins += 1;
        }
    });
    assert!(wins > 20, "{wins} leaf wins");
}
