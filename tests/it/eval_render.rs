//! `mnk eval` and `mnk solve` as shown: boards that fit an 80-column terminal, heat colours, JSON.
//!
//! The golden outputs were produced by the program and read for sense:
//! after h8 i9 j10 (full numbers fit in 77 columns) white's best cells are
//! j8 and h10, on white's own diagonal through i9 and next to both black
//! stones; after black's open three h8 i8 j8 (a
//! 20.4k block needs the 0-99 scale) white's best cells are the three's
//! ends, g8 (99) and k8 (98); tic-tac-toe's corners beat its edges once X
//! holds the centre.

use crate::common::mnk;
use mnk::eval::shipped_weights;
use mnk::game::{Board, Rules};
use mnk::players::{Greedy, Player, Rng};
use rand::SeedableRng;
use serde_json::Value;

/// `mnk args`: stdout, and stderr if it failed.
fn run(args: &[&str]) -> Result<String, String> {
    let out = mnk().args(args).env_remove("COLUMNS").output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn ok(args: &[&str]) -> String {
    run(args).unwrap_or_else(|e| panic!("mnk {args:?} failed: {e}"))
}

fn json(args: &[&str]) -> Value {
    crate::common::json(args).0
}

const GOMOKU_80: &str = "\
gomoku after 3 moves, white to move. Cell scores for white = attack x attack
value + defence x defence value; * marks the best cells.
      a    b    c    d    e    f    g    h    i    j    k    l    m    n    o
 1    0    0    0    0    0    0    0    0    0    0    0    0    0    0    0
 2    0    0    0    0    0    0    0    0    0    0    0    0    0    0    0
 3    0    0    0    0    0    0    0    0    0    0    0    0    0    0    0
 4    0    0    0   10    0    0    0   10    0    0    0   10    0    0    0
 5    0    0    0    0   10    0    0  100   30    0  100    0   30    0    0
 6    0    0    0    0    0   10    0  100  400  110    0  400    0   10    0
 7    0    0    0    0    0    0   10  100  500  100  400    0  100    0    0
 8    0    0    0   10  100  100  100    X  500 *600  100  110    0    0    0
 9    0    0    0    0   30  400  500  500    O  500  500  400   30    0    0
10    0    0    0    0    0  110  100 *600  500    X  100  100  100   10    0
11    0    0    0    0  100    0  400  100  500  100   10    0    0    0    0
12    0    0    0   10    0  400    0  110  400  100    0   10    0    0    0
13    0    0    0    0   30    0  100    0   30  100    0    0   10    0    0
14    0    0    0    0    0   10    0    0    0   10    0    0    0   10    0
15    0    0    0    0    0    0    0    0    0    0    0    0    0    0    0
best cell j8 (9,7) (and 1 more): score 600, attack value 400, defence value 200
board value for white: 0
VCF for white (to move): none
VCF for black (if it were to move): none
";

const GOMOKU_SCALED_80: &str = "\
gomoku after 5 moves, white to move. Cell scores for white = attack x attack
value + defence x defence value; scores scaled 0-99 on a log scale (99 = best,
marked *).
    a  b  c  d  e  f  g  h  i  j  k  l  m  n  o
 1  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0
 2  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0
 3  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0
 4  0  0  0 23 23 23  0 23 23 23  0 23 23 23  0
 5  0  0  0 34 23 46 46 23 23 46 46 23 23  0  0
 6  0  0  0  0 59 23 46 46 23 52 23 23  0  0  0
 7  0  0  0  0  0 59 23 46 53 46 23  0  0  0  0
 8  0  0  0 23 50 68*99  X  X  X 98 68 50 23  0
 9  0  0  0 34 62 84 85  O  O 85 85 62 34  0  0
10  0  0  0  0  0 46 34 41 60 48 46 46  0  0  0
11  0  0  0  0 46 34 34 34 34 62 34 46 46  0  0
12  0  0  0 23 34 34  0 34 34 23 59 34 23 23  0
13  0  0  0 34 34  0  0 34 34  0  0 34 34  0  0
14  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0
15  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0
best cell g8 (6,7): score 20.4k, attack value 400, defence value 20.0k
board value for white: -1100
VCF for white (to move): none
VCF for black (if it were to move): wins by continuous fours from g8 in 3 plies
(mnk solve --vcf shows the line)
";

const TICTACTOE_80: &str = "\
tictactoe after 1 move, white to move. Cell scores for white = attack x attack
value + defence x defence value; * marks the best cells.
    a   b   c
1 *16  13 *16
2  13   X  13
3 *16  13 *16
best cell a1 (0,0) (and 3 more): score 16, attack value 4, defence value 12
board value for white: -4
VCF for white (to move): none
VCF for black (if it were to move): wins by continuous fours from a1 in 5 plies
(mnk solve --vcf shows the line)
";

#[test]
fn eval_golden_at_80_columns() {
    let text = ok(&[
        "eval", "--width", "80", "--color", "never", "h8", "i9", "j10",
    ]);
    assert_eq!(text, GOMOKU_80, "{text}");
    let text = ok(&[
        "eval", "--width", "80", "--color", "never", "h8", "h9", "i8", "i9", "j8",
    ]);
    assert_eq!(text, GOMOKU_SCALED_80, "{text}");
    let text = ok(&[
        "eval",
        "--width",
        "80",
        "--color",
        "never",
        "-g",
        "tictactoe",
        "b2",
    ]);
    assert_eq!(text, TICTACTOE_80, "{text}");
    // Not a terminal: no colour unless asked, and 80 columns by default.
    assert_eq!(ok(&["eval", "h8", "i9", "j10"]), GOMOKU_80);
}

#[test]
fn eval_fits_80_columns_up_to_26_by_26() {
    for (game, moves) in [
        ("gomoku", vec!["h8", "i9", "j10", "a1", "o15"]),
        ("19x19x5", vec!["j10", "k11", "s19"]),
        ("26x26x5", vec!["m13", "n14", "z26", "a1", "l12"]),
        ("26x26x6-exact", vec!["a26", "z1"]),
        ("26x3x3", vec!["b2"]),
        ("3x26x3", vec!["b25"]),
    ] {
        let mut args = vec!["eval", "-g", game, "--width", "80"];
        args.extend(&moves);
        let text = ok(&args);
        for line in text.lines() {
            assert!(line.len() <= 80, "{game}: {} columns:\n{text}", line.len());
        }
        let rules: Rules = game.parse().unwrap();
        // A line per row, plus the column letters.
        let rows = text
            .lines()
            .filter(|l| {
                // A best cell's `*` may touch the number before it.
                let l = l.replace('*', " ");
                let t: Vec<&str> = l.split_whitespace().collect();
                t.len() == rules.width as usize + 1 && t[0].parse::<u8>().is_ok()
            })
            .count();
        assert_eq!(rows, rules.height as usize, "{game}:\n{text}");
    }
    // Colour adds escapes only: the visible text is the same.
    let plain = ok(&["eval", "-g", "26x26x5", "--width", "80", "m13"]);
    let colour = ok(&[
        "eval", "-g", "26x26x5", "--width", "80", "--color", "always", "m13",
    ]);
    assert!(colour.contains("\x1b[") && colour.contains(";48;5;"));
    assert_eq!(mnk::play::strip_ansi(&colour), plain);
    // Narrower than one digit a cell: a clear refusal naming the minimum.
    let e = run(&["eval", "-g", "26x26x5", "--width", "40"]).unwrap_err();
    assert!(
        e.contains("at least 54 columns") && e.contains("--width"),
        "{e}"
    );
    assert!(ok(&["eval", "-g", "26x26x5", "--width", "54"])
        .lines()
        .skip(3)
        .take(27)
        .all(|l| l.len() <= 54));
}

#[test]
fn eval_json_best_cell_is_the_greedy_choice() {
    for moves in [
        vec!["h8", "h9", "i8", "i9", "j8"],
        vec!["h8", "i9", "j10"],
        vec!["h8"],
    ] {
        let mut args = vec!["eval", "--json"];
        args.extend(&moves);
        let v = json(&args);
        assert_eq!(v["mnk_json"], 1);
        assert_eq!(v["command"], "eval");
        assert_eq!(v["game"], "gomoku");
        assert_eq!(v["moves"].as_array().unwrap().len(), moves.len());
        let rows = v["scores"].as_array().unwrap();
        assert_eq!(rows.len(), 15);
        assert!(rows.iter().all(|r| r.as_array().unwrap().len() == 15));
        let nulls = rows
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .filter(|s| s.is_null())
            .count();
        assert_eq!(nulls, moves.len(), "stones have no score");
        let best: Vec<&str> = v["best"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_str().unwrap())
            .collect();
        let top = v["best_score"].as_f64().unwrap();
        let max = rows
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .filter_map(|s| s.as_f64())
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(top, max);
        assert!(v["attack_value"].is_number() && v["defence_value"].is_number());
        assert!(v["board_value"].is_number());
        assert_eq!(v["vcf"].as_array().unwrap().len(), 2);
        let mut board = Board::new(Rules::GOMOKU);
        for m in &moves {
            board.play(m.parse().unwrap()).unwrap();
        }
        let mut greedy = Greedy::new(shipped_weights(Rules::GOMOKU));
        for seed in 0..8 {
            let m = greedy
                .choose(&board, &mut Rng::seed_from_u64(seed))
                .unwrap();
            assert!(
                best.contains(&m.to_string().as_str()),
                "{m} not in {best:?}"
            );
        }
    }
    // Black's open three h8-j8: white's one best cell is the block at g8,
    // and black's VCF starts there.
    let v = json(&["eval", "--json", "h8", "h9", "i8", "i9", "j8"]);
    assert_eq!(v["best"], serde_json::json!(["g8"]));
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["vcf"][1]["side"], "black");
    assert_eq!(v["vcf"][1]["result"], "win");
    assert_eq!(v["vcf"][1]["first"], "g8");
    assert_eq!(v["vcf"][1]["plies"], 3);
}

#[test]
fn solve_json_tictactoe() {
    let v = json(&["solve", "--json"]);
    assert_eq!(v["command"], "solve");
    assert_eq!(v["mode"], "exact");
    assert_eq!(v["game"], "tictactoe");
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["value"], "draw");
    assert_eq!(v["optimal_moves"].as_array().unwrap().len(), 9);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["table_entries"].as_u64().unwrap() > 0);
    assert!(v["millis"].as_f64().unwrap() >= 0.0);
    assert!(v["stats"].is_null());
    // X in the centre: only the corners hold the draw.
    let v = json(&["solve", "--json", "b2"]);
    assert_eq!(v["value"], "draw");
    assert_eq!(
        v["optimal_moves"],
        serde_json::json!(["a1", "c1", "a3", "c3"])
    );
    // O on an edge loses.
    let v = json(&["solve", "--json", "b2", "b1"]);
    assert_eq!(v["value"], "win");
    // 255168 games of tic-tac-toe: 4 × 27732 after a corner, 4 × 29592
    // after an edge and 25872 after the centre.
    let v = json(&["solve", "--json", "--stats", "b2"]);
    let st = &v["stats"];
    assert_eq!(st["games"], 25872);
    let sum: u64 = ["black_wins", "white_wins", "draws"]
        .iter()
        .map(|k| st[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 25872);
    assert!(st["positions"].as_u64() > st["up_to_symmetry"].as_u64());
    // A finished game: the outcome, no value.
    let v = json(&["solve", "--json", "a1", "a2", "b1", "b2", "c1"]);
    assert_eq!(v["outcome"], "black wins");
    assert!(v["value"].is_null());
}

#[test]
fn solve_json_vcf() {
    let v = json(&[
        "solve", "--json", "-g", "gomoku", "--vcf", "h8", "h9", "i8", "i9", "j8",
    ]);
    assert_eq!(v["mode"], "vcf");
    // White to move: it has no VCF of its own.
    assert_eq!(v["verdict"], "none");
    let v = json(&[
        "solve", "--json", "-g", "gomoku", "--vcf", "h8", "h9", "i8", "i9", "j8", "a1",
    ]);
    assert_eq!(v["verdict"], "win");
    assert_eq!(v["plies"], 3);
    assert_eq!(v["line"].as_array().unwrap().len(), 3);
}

#[test]
fn solve_marks_optimal_moves_on_the_board() {
    let text = ok(&["solve", "b2"]);
    let board: Vec<&str> = text.lines().take(4).collect();
    assert_eq!(
        board,
        ["    a b c", "  1 * . *", "  2 . X .", "  3 * . *"],
        "{text}"
    );
    assert!(
        text.contains("optimal moves (marked *): a1 (0,0), c1 (2,0), a3 (0,2), c3 (2,2)"),
        "{text}"
    );
    // Many moves: counted, not listed.
    let text = ok(&["solve"]);
    assert_eq!(text.matches('*').count(), 9 + 1, "{text}");
    assert!(
        text.contains("optimal moves: 9, marked * on the board"),
        "{text}"
    );
}

#[test]
fn eval_weights_error_names_the_flag_and_file() {
    let e = run(&["eval", "-w", "no/such/bad.toml"]).unwrap_err();
    assert!(e.starts_with("error: --weights no/such/bad.toml: "), "{e}");
    assert!(!e.contains("player spec") && !e.contains("greedy:"), "{e}");
}

#[test]
fn help_has_examples_and_defaults() {
    for cmd in ["eval", "solve"] {
        let text = ok(&[cmd, "--help"]);
        assert!(text.contains("Examples:\n  mnk "), "{text}");
        assert!(text.contains("--json"), "{text}");
        assert!(text.contains("[default: "), "{text}");
    }
    assert!(ok(&["eval", "--help"]).contains("[default: auto]"));
    assert!(ok(&["solve", "--help"]).contains("[default: 16]"));
}

#[test]
fn solver_progress_counter_follows_the_search() {
    // 5x4x4 from empty: some tens of thousands of nodes, milliseconds.
    let rules: Rules = "5x4x4".parse().unwrap();
    let mut solver = mnk::players::Solver::with_limit(rules, 20);
    let counter = solver.progress();
    assert_eq!(counter.load(std::sync::atomic::Ordering::Relaxed), 0);
    solver.value(&Board::new(rules)).unwrap();
    let seen = counter.load(std::sync::atomic::Ordering::Relaxed);
    let nodes = solver.stats().nodes;
    // Published every 4096 nodes: the last multiple reached.
    assert!(nodes >= 4096, "{nodes}");
    assert_eq!(seen, nodes / 4096 * 4096);
    solver.clear();
    assert_eq!(counter.load(std::sync::atomic::Ordering::Relaxed), 0);
}

#[test]
fn solve_refusal_names_the_limit_flag() {
    let e = run(&["solve", "-g", "5x4x4"]).unwrap_err();
    assert!(
        e.contains("20 empty cells") && e.contains("--limit 16") && e.contains("--limit 20"),
        "{e}"
    );
    assert!(!e.contains("exact:limit"), "{e}");
}

#[test]
fn eval_of_a_finished_game_gives_no_advice() {
    let text = ok(&["eval", "-g", "tictactoe", "a1", "a2", "b1", "b2", "c1"]);
    assert!(text.ends_with("the game is over: black wins\n"), "{text}");
    assert!(
        !text.lines().any(|l| l.starts_with("best cell")
            || l.starts_with("VCF")
            || l.starts_with("board value")),
        "{text}"
    );
    let v = json(&[
        "eval",
        "--json",
        "-g",
        "tictactoe",
        "a1",
        "a2",
        "b1",
        "b2",
        "c1",
    ]);
    assert_eq!(v["outcome"], "black wins");
    assert_eq!(v["vcf"], serde_json::json!([]));
}
