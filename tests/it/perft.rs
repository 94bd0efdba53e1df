//! Exact counts that pin the rules: tic-tac-toe's game tree, and the
//! counting by dynamic programming checked against walking every game.

use mnk::game::perft::{
    self, count, enumerate_games, enumerate_positions, Counts, GameCounts, PerftError,
    PositionCounts,
};
use mnk::game::{Board, Move, Rules};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const TICTACTOE_GAMES: GameCounts = GameCounts {
    black_wins: 131_184,
    white_wins: 77_904,
    draws: 46_080,
};
const TICTACTOE_POSITIONS: PositionCounts = PositionCounts {
    positions: 5_478,
    non_terminal: 4_520,
    up_to_symmetry: 765,
};

#[test]
fn tictactoe_game_count() {
    let mut b = Board::new(Rules::TICTACTOE);
    let c = enumerate_games(&mut b);
    assert_eq!(c, TICTACTOE_GAMES);
    assert_eq!(c.total(), 255_168);
    assert_eq!(count(&b).unwrap().games, TICTACTOE_GAMES);
}

#[test]
fn tictactoe_position_count() {
    let mut b = Board::new(Rules::TICTACTOE);
    assert_eq!(enumerate_positions(&mut b), TICTACTOE_POSITIONS);
    assert_eq!(count(&b).unwrap().positions, TICTACTOE_POSITIONS);
}

/// Both ways of counting from `board`.
fn check(board: &Board) -> Counts {
    let mut b = board.clone();
    let brute = Counts {
        games: enumerate_games(&mut b),
        positions: enumerate_positions(&mut b),
    };
    let dp = count(board).unwrap();
    assert_eq!(dp, brute, "{} after {} moves", board.rules(), board.ply());
    dp
}

fn board(game: &str, moves: &[&str]) -> Board {
    let moves: Vec<Move> = moves.iter().map(|m| m.parse().unwrap()).collect();
    Board::from_moves(game.parse().unwrap(), &moves).unwrap()
}

#[test]
fn counting_equals_walking_every_game_on_small_boards() {
    // From the empty board where walking is quick enough, else after a
    // few moves; both rules, both sides to move, square and not.
    for game in ["3x3x3", "3x3x3-exact"] {
        check(&board(game, &[]));
    }
    for (game, moves) in [
        ("4x3x3", &["b2", "a1"][..]),
        ("3x4x3", &["b2", "a1", "c4"]),
        ("3x4x3-exact", &["b1"]),
        ("4x4x3", &["b2", "c3", "a1", "d4", "b3", "c1"]),
        ("4x4x3-exact", &["a1", "d4", "b2", "c3", "c1", "b3"]),
        ("4x4x4", &["b2", "c3", "a1", "d4", "b3", "c2"]),
        ("5x3x3", &["c2", "b2", "a1", "e3", "d1"]),
        ("4x4x4-exact", &["a1", "b1", "c1", "a2", "b2", "d2"]),
        ("4x3x4", &["b2", "c2"]),
        ("4x3x4-exact", &["a1", "d3"]),
    ] {
        check(&board(game, moves));
    }
    // A finished game is one game and one position.
    let over = board("tictactoe", &["a1", "a2", "b1", "b2", "c1"]);
    let c = check(&over);
    assert_eq!((c.games.black_wins, c.games.total()), (1, 1));
    assert_eq!(c.positions.non_terminal, 0);
}

#[test]
fn counting_equals_walking_late_in_large_games() {
    // Random games on large boards stopped with 9 to 11 empty cells, no
    // line completed: stones already on the board take part in the lines.
    let mut checked = 0;
    for (i, game) in ["7x6x4", "7x6x4-exact", "9x9x5-exact", "8x8x5"]
        .iter()
        .enumerate()
    {
        let rules: Rules = game.parse().unwrap();
        for seed in 0..6u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed * 10 + i as u64);
            let mut b = Board::new(rules);
            let target = rng.gen_range(9..=11);
            while b.empty_count() > target {
                let safe: Vec<Move> = b
                    .legal_moves()
                    .into_iter()
                    .filter(|&m| !b.wins_at(m, b.to_move()))
                    .collect();
                if safe.is_empty() {
                    break;
                }
                b.play(safe[rng.gen_range(0..safe.len())]).unwrap();
            }
            if b.empty_count() > target {
                continue;
            }
            let c = check(&b);
            assert!(c.games.total() > 0);
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} positions reached");
}

#[test]
fn four_by_four_counts() {
    // Counted by this program; the tic-tac-toe counts above and the
    // comparisons with walking every game vouch for the method.
    let c = count(&Board::new("4x4x4".parse().unwrap())).unwrap();
    assert_eq!(
        c.games,
        GameCounts {
            black_wins: 3_225_291_101_568,
            white_wins: 3_106_180_802_304,
            draws: 8_707_262_054_400,
        }
    );
    assert_eq!(
        c.positions,
        PositionCounts {
            positions: 9_722_011,
            non_terminal: 9_062_619,
            up_to_symmetry: 1_217_977,
        }
    );
    // Draws fill the board: at most 8! · 8! orders of the same stones.
    assert!(c.games.draws <= 12_870 * 40_320 * 40_320);
}

#[test]
fn too_large_counts_are_refused_up_front() {
    assert_eq!(perft::max_empty_cells(), 18);
    let e = count(&Board::new("5x5x4".parse().unwrap())).unwrap_err();
    let PerftError::TooLarge(est) = &e;
    assert_eq!(est.empty, 25);
    assert!(!est.fits() && est.positions > perft::MAX_POSITIONS);
    let text = e.to_string();
    assert!(
        text.contains("25 empty cells") && text.contains(&est.positions.to_string()),
        "{text}"
    );
    // The bound is exact when no line can be completed: tic-tac-toe with
    // k = 3 has lines, so fewer positions than the bound.
    let e = perft::estimate(&Board::new(Rules::TICTACTOE));
    assert_eq!(e.positions, 6_046);
    assert!(TICTACTOE_POSITIONS.positions < e.positions as u64);
}

/// One block of `tests/data/perft.txt`.
struct Entry {
    line: usize,
    game: String,
    moves: Vec<String>,
    slow: bool,
    counts: Counts,
}

impl Entry {
    fn board(&self) -> Board {
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        board(&self.game, &moves)
    }
}

/// The blocks of `tests/data/perft.txt`; a malformed file fails naming the
/// line.
fn perft_file() -> Vec<Entry> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut entries: Vec<Entry> = Vec::new();
    let numbers = |n: usize, rest: &[&str], line: usize| -> Vec<u64> {
        assert_eq!(rest.len(), n, "perft.txt:{line}: expected {n} numbers");
        rest.iter()
            .map(|s| {
                s.parse()
                    .unwrap_or_else(|_| panic!("perft.txt:{line}: {s:?}"))
            })
            .collect()
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let words: Vec<&str> = raw.split_whitespace().collect();
        let Some((&key, rest)) = words.split_first() else {
            continue;
        };
        if key.starts_with('#') {
            continue;
        }
        if key == "game" {
            assert_eq!(rest.len(), 1, "perft.txt:{line}: game <rules>");
            entries.push(Entry {
                line,
                game: rest[0].to_string(),
                moves: Vec::new(),
                slow: false,
                counts: Counts::default(),
            });
            continue;
        }
        let e = entries
            .last_mut()
            .unwrap_or_else(|| panic!("perft.txt:{line}: {key} before any game"));
        match key {
            "moves" => e.moves = rest.iter().map(|m| m.to_string()).collect(),
            "slow" => e.slow = true,
            "games" => {
                let n = numbers(3, rest, line);
                e.counts.games = GameCounts {
                    black_wins: n[0],
                    white_wins: n[1],
                    draws: n[2],
                };
            }
            "positions" => {
                let n = numbers(3, rest, line);
                e.counts.positions = PositionCounts {
                    positions: n[0],
                    non_terminal: n[1],
                    up_to_symmetry: n[2],
                };
            }
            _ => panic!("perft.txt:{line}: unknown key {key:?}"),
        }
    }
    entries
}

/// Checks the entries, counting by dynamic programming, and also by walking
/// every game when at most `walk_empty` cells are empty.
fn check_file(slow: bool, walk_empty: usize) {
    let entries: Vec<Entry> = perft_file()
        .into_iter()
        .filter(|e| e.slow == slow)
        .collect();
    assert!(!entries.is_empty());
    for e in &entries {
        let b = e.board();
        let what = format!("perft.txt:{} {} {:?}", e.line, e.game, e.moves);
        assert_ne!(e.counts.games.total(), 0, "{what}: no games line");
        assert_ne!(e.counts.positions.positions, 0, "{what}: no positions line");
        let got = if b.rules().cells() - b.ply() <= walk_empty {
            check(&b)
        } else {
            count(&b).unwrap()
        };
        assert_eq!(got, e.counts, "{what}");
    }
}

#[test]
fn counts_in_the_perft_file() {
    check_file(false, 9);
}

/// The counts that take seconds each (`cargo test --release --test it --
/// --ignored perft::slow`).
#[test]
#[ignore = "seconds per count: run on demand"]
fn slow_counts_in_the_perft_file() {
    check_file(true, 0);
}
