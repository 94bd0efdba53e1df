//! `mnk play` driven through a pipe, as a script would drive it.

use crate::common::live::Live;
use crate::common::run_in;
use mnk::game::{Color, Outcome, Rules};
use mnk::records::read_records;

/// Every cell of a board in row-major order, one per line: whatever the AI
/// does, the human always finds an empty cell further down the list.
fn all_cells(rules: Rules, xy: bool) -> String {
    let mut s = String::new();
    for y in 0..rules.height {
        for x in 0..rules.width {
            let m = mnk::game::Move::new(x, y);
            s.push_str(&if xy { m.to_xy() } else { m.to_string() });
            s.push('\n');
        }
    }
    s
}

#[test]
fn full_game_against_greedy_on_tictactoe_with_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!(
        "zz\nd4\n3,3\nb2\nb2\nhelp\n\n{}n\n",
        all_cells(Rules::TICTACTOE, false)
    );
    let r = run_in(
        dir.path(),
        &["play", "-g", "tictactoe", "--ai", "easy", "--seed", "7"],
        &input,
    );
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let out = &r.stdout;
    assert!(!out.contains('\x1b'), "colour in a pipe");
    assert!(out.contains("\"zz\" is not a cell or a command"), "{out}");
    assert!(out.contains("d4 is off the board"), "{out}");
    assert!(out.contains("3,3 is off the board"), "{out}");
    assert!(
        out.contains("b2 (1,1) is already taken by X at move 1"),
        "{out}"
    );
    assert!(
        out.contains("hint         ask the AI"),
        "help is shown:\n{out}"
    );
    assert!(out.contains("Move 1: your move (black, X)"), "{out}");
    assert!(out.contains("Move 2: greedy (white, O) to play"), "{out}");
    assert!(out.contains("    a  b  c\n 1 "), "{out}");
    assert!(
        out.contains("You win") || out.contains("greedy (white, O) wins") || out.contains("Draw"),
        "{out}"
    );
    assert!(out.contains("Saved the game, "), "{out}");
    assert!(out.contains("records/games.csv (game 1)"), "{out}");
    assert!(out.contains("Play again?"), "{out}");
    assert!(out.trim_end().ends_with("Bye."), "{out}");

    let games = read_records(dir.path().join("records/games.csv"), Rules::GOMOKU).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.rules, Rules::TICTACTOE);
    assert_eq!((g.black.as_str(), g.white.as_str()), ("human", "greedy"));
    assert!(g.date.as_deref().is_some_and(|d| d.ends_with('Z')));
    assert!(g.result.is_some());
    assert_eq!(g.moves[0].to_string(), "b2");
    assert_eq!(g.replay().unwrap().outcome(), g.result);
}

#[test]
fn full_game_on_gomoku_as_white_with_xy_input_and_sgf() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("h8\n-1,0\n15,15\n{}n\n", all_cells(Rules::GOMOKU, true));
    let r = run_in(
        dir.path(),
        &[
            "play",
            "--you",
            "white",
            "--seed",
            "3",
            "--records",
            "mine.csv",
            "--sgf",
            "mine.sgf",
            "--name",
            "Ann Lee",
        ],
        &input,
    );
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let out = &r.stdout;
    // The AI (black) opens; the centre is probably taken, and the
    // off-board cells are refused either way.
    assert!(out.contains("Move 1: greedy (black, X) to play"), "{out}");
    assert!(out.contains("-1,0 is off the board"), "{out}");
    assert!(out.contains("15,15 is off the board"), "{out}");
    assert!(out.contains("     a  b  c  d  e  f  g  h"), "{out}");
    assert!(out.contains(" 15  "), "{out}");
    assert!(out.contains("Saved the game"), "{out}");
    let csv = read_records(dir.path().join("mine.csv"), Rules::TICTACTOE).unwrap();
    let sgf = read_records(dir.path().join("mine.sgf"), Rules::TICTACTOE).unwrap();
    assert_eq!(csv, sgf);
    let g = &csv[0];
    assert_eq!(g.rules, Rules::GOMOKU);
    assert_eq!((g.black.as_str(), g.white.as_str()), ("greedy", "Ann Lee"));
    assert!(matches!(
        g.result,
        Some(Outcome::Win(_)) | Some(Outcome::Draw)
    ));
    assert!(g.plies() >= 9);
}

#[test]
fn end_of_input_mid_game_still_saves() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_in(
        dir.path(),
        &["play", "-g", "tictactoe", "--seed", "1", "--sgf", "g.sgf"],
        "b2\n",
    );
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("End of input"), "{}", r.stdout);
    assert!(
        r.stdout.contains("Saved the game (unfinished), 2 moves"),
        "{}",
        r.stdout
    );
    let text = std::fs::read_to_string(dir.path().join("records/games.csv")).unwrap();
    assert!(text.ends_with("\n2,-1\n"), "{text}");
    for file in ["records/games.csv", "g.sgf"] {
        let games = read_records(dir.path().join(file), Rules::GOMOKU).unwrap();
        assert_eq!(games.len(), 1, "{file}");
        assert_eq!(games[0].plies(), 2);
        assert_eq!(games[0].result, None);
    }
}

#[test]
fn undo_hint_moves_and_quit() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_in(
        dir.path(),
        &["play", "-g", "4x4x3", "--seed", "2", "--no-records"],
        "undo\nb2\nhint\nmoves\nundo\nmoves\nquit\n",
    );
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let out = &r.stdout;
    assert!(
        out.contains("There is no move of yours to take back."),
        "{out}"
    );
    assert!(out.contains("Hint: greedy would play "), "{out}");
    assert!(out.contains("marked * on the board"), "{out}");
    assert!(out.contains("  1. X b2     2. O "), "{out}");
    assert!(out.contains("Took back X b2 and O "), "{out}");
    assert!(out.contains("No moves yet."), "{out}");
    assert!(out.contains("nothing to save"), "{out}");
    assert!(!dir.path().join("records").exists());
}

#[test]
fn save_then_finish_keeps_one_entry() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!(
        "b2\nsave\nsave extra.sgf\n{}n\n",
        all_cells(Rules::TICTACTOE, false)
    );
    let r = run_in(
        dir.path(),
        &[
            "play",
            "-g",
            "tictactoe",
            "--seed",
            "9",
            "--records",
            "r.csv",
        ],
        &input,
    );
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("Saved the game (unfinished), 2 moves, to r.csv (game 1)."),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("to extra.sgf (game 1)"), "{}", r.stdout);
    for file in ["r.csv", "extra.sgf"] {
        let games = read_records(dir.path().join(file), Rules::GOMOKU).unwrap();
        assert_eq!(games.len(), 1, "{file}: {games:?}");
        assert!(
            games[0].result.is_some(),
            "{file}: the final save replaced the early one"
        );
    }
}

#[test]
fn two_humans_then_play_again_with_swapped_colours() {
    let dir = tempfile::tempdir().unwrap();
    // Ann (X) wins along the top row; then a second game with colours
    // swapped is resigned at once.
    let r = run_in(
        dir.path(),
        &[
            "play",
            "-g",
            "tictactoe",
            "-m",
            "hvh",
            "--name",
            "Ann",
            "--name",
            "Bob",
            "--records",
            "r.csv",
        ],
        "a1\na2\nb1\nb2\nc1\ns\nb2\nresign\nn\n",
    );
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let out = &r.stdout;
    assert!(out.contains("Ann's move (X) > "), "{out}");
    assert!(
        out.contains("Ann (black, X) wins: 3 in a row at move 5."),
        "{out}"
    );
    assert!(out.contains(" 1 (X)(X)(X)"), "{out}");
    assert!(out.contains("game 2"), "{out}");
    assert!(out.contains("Bob's move (X) > "), "{out}");
    assert!(
        out.contains("Bob (black, X) wins: Ann resigns after 1 move."),
        "{out}"
    );
    let games = read_records(dir.path().join("r.csv"), Rules::GOMOKU).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result, Some(Outcome::Win(Color::Black)));
    assert_eq!(
        (games[1].black.as_str(), games[1].white.as_str()),
        ("Bob", "Ann")
    );
    assert_eq!(games[1].result, Some(Outcome::Win(Color::Black)));
}

#[test]
fn ai_against_ai_needs_no_input() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_in(
        dir.path(),
        &[
            "play",
            "-g",
            "tictactoe",
            "-m",
            "ava",
            "--black",
            "perfect",
            "--white",
            "easy",
            "--delay",
            "0",
            "--seed",
            "4",
            "--color",
            "always",
        ],
        "",
    );
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains('\x1b'), "--color always");
    assert!(r.stdout.contains("exact"), "{}", r.stdout);
    let games = read_records(dir.path().join("records/games.csv"), Rules::GOMOKU).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(
        (games[0].black.as_str(), games[0].white.as_str()),
        ("exact", "greedy")
    );
    // Perfect play never loses.
    assert_ne!(games[0].result, Some(Outcome::Win(Color::White)));
}

#[test]
fn bad_setups_fail_before_the_game() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.csv"), "0\n1,1\nhello\n").unwrap();
    let r = run_in(
        dir.path(),
        &["play", "-g", "tictactoe", "--records", "bad.csv"],
        "b2\n",
    );
    assert!(!r.ok);
    assert!(r.stderr.contains("bad.csv: line 3"), "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("bad.csv")).unwrap(),
        "0\n1,1\nhello\n",
        "a corrupt file is left alone"
    );

    let r = run_in(dir.path(), &["play", "--ai", "perfect"], "");
    assert!(!r.ok);
    assert!(r.stderr.contains("cannot solve gomoku"), "{}", r.stderr);

    let r = run_in(dir.path(), &["play", "--ai", "clever"], "");
    assert!(!r.ok);
    assert!(r.stderr.contains("unknown player"), "{}", r.stderr);
}

#[test]
fn undo_after_the_end_plays_on_and_updates_the_saved_game() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_in(
        dir.path(),
        &["play", "-g", "tictactoe", "-m", "hvh", "--records", "r.csv"],
        "a1\na2\nb1\nb2\nc1\nundo\nc3\nc2\nn\n",
    );
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Took back X c1."), "{}", r.stdout);
    assert!(
        r.stdout.contains("white (O) wins: 3 in a row at move 6."),
        "{}",
        r.stdout
    );
    let games = read_records(dir.path().join("r.csv"), Rules::GOMOKU).unwrap();
    assert_eq!(games.len(), 1, "the entry was updated, not duplicated");
    assert_eq!(games[0].result, Some(Outcome::Win(Color::White)));
}

#[cfg(unix)]
#[test]
fn ctrl_c_saves_the_game_as_unfinished() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "-g",
        "tictactoe",
        "--seed",
        "1",
        "--records",
        "r.csv",
        "--sgf",
        "r.sgf",
    ];
    let mut p = Live::start(dir.path(), &args);
    p.wait_for("Your move (X) > ");
    p.send("b2");
    // Greedy has answered and the prompt waits for the next move.
    p.wait_until("the second prompt", |out| {
        out.contains("Move 3: your move") && out.ends_with("Your move (X) > ")
    });
    p.interrupt();
    let end = p.finish();
    assert_eq!(end.status.code(), Some(130), "{}{}", end.stdout, end.stderr);
    assert!(
        end.stdout.ends_with(
            "Your move (X) > \nInterrupted: stopping.\n\
             Saved the game (unfinished), 2 moves, to r.csv (game 1) and r.sgf (game 1).\n"
        ),
        "{}",
        end.stdout
    );
    let csv = std::fs::read_to_string(dir.path().join("r.csv")).unwrap();
    assert!(csv.ends_with("\n0\n1,1\n2,2\n2,-1\n"), "{csv}");
    for file in ["r.csv", "r.sgf"] {
        let games = read_records(dir.path().join(file), Rules::GOMOKU).unwrap();
        assert_eq!(games.len(), 1, "{file}");
        let g = &games[0];
        assert_eq!(g.rules, Rules::TICTACTOE);
        assert_eq!(g.result, None, "{file}: unfinished");
        let moves: Vec<String> = g.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["b2", "c3"], "{file}");
    }

    // Before any move there is nothing to save; the clock seed is still
    // shown, so the AI's choices can be repeated.
    let mut p = Live::start(
        dir.path(),
        &["play", "-g", "tictactoe", "--records", "n.csv"],
    );
    p.wait_for("Your move (X) > ");
    p.interrupt();
    let end = p.finish();
    assert_eq!(end.status.code(), Some(130));
    assert!(
        end.stdout.contains(
            "\nInterrupted: stopping.\nNo moves were played, so there is nothing to save.\n(AI seed "
        ),
        "{}",
        end.stdout
    );
    assert!(
        end.stdout.ends_with(" repeats its choices)\n"),
        "{}",
        end.stdout
    );
    assert!(!dir.path().join("n.csv").exists());
}

#[cfg(unix)]
#[test]
fn ctrl_c_at_play_again_keeps_the_saved_game_once() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["play", "-g", "tictactoe", "-m", "hvh", "--records", "r.csv"];
    let mut p = Live::start(dir.path(), &args);
    for m in ["a1", "a2", "b1", "b2", "c1"] {
        p.send(m);
    }
    p.wait_for("Play again? y(es), n(o) or s(wap colours) > ");
    p.interrupt();
    let end = p.finish();
    assert_eq!(end.status.code(), Some(130), "{}{}", end.stdout, end.stderr);
    assert!(
        end.stdout
            .contains("Saved the game, 5 moves, to r.csv (game 1).\n"),
        "{}",
        end.stdout
    );
    assert!(
        end.stdout
            .ends_with("s(wap colours) > \nInterrupted: stopping.\n"),
        "{}",
        end.stdout
    );
    let games = read_records(dir.path().join("r.csv"), Rules::GOMOKU).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].result, Some(Outcome::Win(Color::Black)));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_ai_against_ai_and_saves_the_moves_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let watch = |delay: &str, records: &str| {
        let args = [
            "play",
            "-m",
            "ava",
            "--seed",
            "3",
            "--delay",
            delay,
            "--records",
            records,
        ];
        args.map(String::from)
    };
    let args = watch("200", "stopped.csv");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut p = Live::start(dir.path(), &args);
    p.wait_for("Move 4: ");
    p.interrupt();
    let end = p.finish();
    assert_eq!(end.status.code(), Some(130), "{}{}", end.stdout, end.stderr);
    let (_, tail) = end
        .stdout
        .rsplit_once("\nInterrupted: stopping.\nSaved the game (unfinished), ")
        .unwrap_or_else(|| panic!("no save message:\n{}", end.stdout));
    let (n, rest) = tail.split_once(" moves, ").unwrap();
    assert_eq!(rest, "to stopped.csv (game 1).\n");
    let n: usize = n.parse().unwrap();
    assert!(n >= 3, "{n} moves");
    let stopped = read_records(dir.path().join("stopped.csv"), Rules::GOMOKU).unwrap();
    assert_eq!(stopped.len(), 1);
    assert_eq!(stopped[0].result, None);
    assert_eq!(stopped[0].plies(), n);

    // The same game played to its end begins with the saved moves.
    let args = watch("0", "full.csv");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = run_in(dir.path(), &args, "");
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let full = read_records(dir.path().join("full.csv"), Rules::GOMOKU).unwrap();
    assert!(full[0].result.is_some());
    assert!(full[0].plies() > n);
    assert_eq!(stopped[0].moves[..], full[0].moves[..n]);
}

/// An AI opens an empty board at the centre, as `mnk brain` does, not at
/// one of the many cells whose scores tie there; the random player stays
/// random.
#[test]
fn ais_open_at_the_centre() {
    let first_moves = |game: &str, black: &str, seed: &str| -> Vec<mnk::game::Move> {
        let dir = tempfile::tempdir().unwrap();
        let r = run_in(
            dir.path(),
            &[
                "play", "-g", game, "-m", "ava", "--black", black, "--white", "easy", "--delay",
                "0", "--seed", seed,
            ],
            "",
        );
        assert!(r.ok, "{}", r.stderr);
        let games = read_records(dir.path().join("records/games.csv"), Rules::GOMOKU).unwrap();
        games.iter().map(|g| g.moves[0]).collect()
    };
    for (game, centre) in [("gomoku", "h8"), ("tictactoe", "b2"), ("8x8x4", "d4")] {
        let rules: Rules = game.parse().unwrap();
        assert_eq!(rules.center().to_string(), centre);
        for black in ["easy", "search:depth=2", "perfect"] {
            if black == "perfect" && game != "tictactoe" {
                continue;
            }
            for seed in ["1", "2", "3"] {
                assert_eq!(
                    first_moves(game, black, seed),
                    [rules.center()],
                    "{black} on {game}, seed {seed}"
                );
            }
        }
    }
    let random: std::collections::BTreeSet<_> = (1..=8)
        .flat_map(|s| first_moves("gomoku", "random", &s.to_string()))
        .collect();
    assert!(
        random.len() > 1,
        "the random player opens anywhere: {random:?}"
    );
}
