//! Records through the command line: `mnk match --records/--sgf`,
//! `mnk records list|delete` and `mnk replay`.

use crate::common::run_in;
use mnk::game::Rules;
use mnk::records::read_records;

#[test]
fn match_records_round_trip_through_csv_and_sgf() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_in(
        dir.path(),
        &[
            "match",
            "greedy",
            "random",
            "-g",
            "7x7x4",
            "-n",
            "3",
            "--records",
            "m.csv",
            "--sgf",
            "m.sgf",
        ],
        "",
    );
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("6 games appended to m.csv"),
        "{}",
        r.stdout
    );
    let csv = read_records(dir.path().join("m.csv"), Rules::GOMOKU).unwrap();
    let sgf = read_records(dir.path().join("m.sgf"), Rules::GOMOKU).unwrap();
    assert_eq!(csv.len(), 6);
    assert_eq!(csv, sgf);
    for (i, g) in csv.iter().enumerate() {
        assert_eq!(g.rules, "7x7x4".parse().unwrap());
        let (black, white) = if i % 2 == 0 {
            ("greedy", "random")
        } else {
            ("random", "greedy")
        };
        assert_eq!((g.black.as_str(), g.white.as_str()), (black, white));
        assert!(g.result.is_some());
    }

    let list_csv = run_in(dir.path(), &["records", "list", "m.csv"], "");
    let list_sgf = run_in(dir.path(), &["records", "list", "m.sgf"], "");
    assert!(list_csv.ok && list_sgf.ok, "{}", list_csv.stderr);
    assert_eq!(list_csv.stdout, list_sgf.stdout);
    let lines: Vec<&str> = list_csv.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", list_csv.stdout);
    assert!(
        lines[0].starts_with("   1  greedy vs random  "),
        "{}",
        lines[0]
    );
    assert!(
        lines[5].starts_with("   6  random vs greedy  "),
        "{}",
        lines[5]
    );
    assert!(lines[0].contains(&format!("{} plies", csv[0].plies())));
    assert!(list_csv.stderr.contains("m.csv: 6 games"));

    // A second match appends.
    let r = run_in(
        dir.path(),
        &[
            "match",
            "greedy",
            "greedy",
            "-g",
            "7x7x4",
            "-n",
            "1",
            "--records",
            "m.csv",
        ],
        "",
    );
    assert!(r.ok, "{}", r.stderr);
    assert!(r.stdout.contains("(8 games in the file)"), "{}", r.stdout);
}

/// A file written by hand, with comments, blank lines and CR LF in places.
const FILE: &str = "\
# my games\n\
0\n1,1\n0,0\n2,2\n-1,-1\n\
\n\
# game=tictactoe black=Ann white=Bob\r\n\
0\r\n1,1\r\n0,0\r\n1,0\r\n2,0\r\n1,2\r\n1,-1\r\n\
# game=4x4x3\n\
0\n 0 , 0 \n1,1\n2,-1\n\
0\n2,2\n2,-1\n\
# trailing comment\n";

#[test]
fn delete_from_the_middle_keeps_the_rest_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hand.csv");
    std::fs::write(&path, FILE).unwrap();
    let list = run_in(
        dir.path(),
        &["records", "list", "hand.csv", "--game", "tictactoe"],
        "",
    );
    assert!(list.ok, "{}", list.stderr);
    assert_eq!(list.stdout.lines().count(), 4, "{}", list.stdout);
    assert!(list
        .stdout
        .contains("   2  Ann vs Bob  black wins  5 plies  tictactoe"));
    assert!(list
        .stdout
        .contains("   3  ? vs ?  unfinished  2 plies  4x4x3"));

    let r = run_in(dir.path(), &["records", "delete", "hand.csv", "2", "3"], "");
    assert!(r.ok, "{}", r.stderr);
    assert!(
        r.stdout.contains("deleted games 2, 3; 2 games left"),
        "{}",
        r.stdout
    );
    let expected = "\
# my games\n\
0\n1,1\n0,0\n2,2\n-1,-1\n\
0\n2,2\n2,-1\n\
# trailing comment\n";
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);

    // Bad numbers change nothing.
    let r = run_in(dir.path(), &["records", "delete", "hand.csv", "1", "9"], "");
    assert!(!r.ok);
    assert!(r.stderr.contains("there is no game 9"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
}

#[test]
fn corrupt_records_name_the_line_and_fail() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "0\n1,1\n0,0\n1,1\n1,-1\n";
    std::fs::write(dir.path().join("bad.csv"), bad).unwrap();
    for args in [
        &["records", "list", "bad.csv"][..],
        &["replay", "bad.csv"][..],
    ] {
        let r = run_in(dir.path(), args, "");
        assert!(!r.ok, "{args:?}");
        assert!(
            r.stderr.contains("bad.csv: line 4"),
            "{args:?}: {}",
            r.stderr
        );
    }
    // Deleting checks only the framing (so a broken game can be removed);
    // a file cut short inside a game is refused and left alone.
    std::fs::write(dir.path().join("cut.csv"), "0\n1,1\n").unwrap();
    let r = run_in(dir.path(), &["records", "delete", "cut.csv", "1"], "");
    assert!(!r.ok);
    assert!(r.stderr.contains("cut.csv: line 2"), "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("cut.csv")).unwrap(),
        "0\n1,1\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("bad.csv")).unwrap(),
        bad
    );
}

#[test]
fn replay_prints_the_moves() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hand.csv"), FILE).unwrap();
    let r = run_in(
        dir.path(),
        &["replay", "hand.csv", "--number", "2", "--speed", "0"],
        "",
    );
    assert!(r.ok, "{}", r.stderr);
    let out = &r.stdout;
    assert!(!out.contains('\x1b'));
    assert!(out.contains("Game 2 of 4: X Ann vs O Bob"), "{out}");
    assert!(out.contains("Start: 5 moves to play."), "{out}");
    for line in [
        "Move 1 of 5: X b2 (1,1)",
        "Move 2 of 5: O a1 (0,0)",
        "Move 3 of 5: X b1 (1,0)",
        "Move 4 of 5: O c1 (2,0)",
        "Move 5 of 5: X b3 (1,2)",
        "Result: black wins (X), 3 in a row at move 5.",
        " 3  . (X) .",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
    assert!(!out.contains("Game 1 of"), "{out}");

    // All games, original-program games taken as the --game game.
    let r = run_in(
        dir.path(),
        &["replay", "hand.csv", "--speed", "0", "-g", "tictactoe"],
        "",
    );
    assert!(r.ok, "{}", r.stderr);
    for n in 1..=4 {
        assert!(r.stdout.contains(&format!("Game {n} of 4")), "{}", r.stdout);
    }
    assert!(r.stdout.contains("Unfinished after 2 moves."));

    let r = run_in(dir.path(), &["replay", "hand.csv", "-n", "5"], "");
    assert!(!r.ok);
    assert!(r.stderr.contains("there is no game 5"), "{}", r.stderr);
}

/// `--game` names the game in every command; in `replay` it used to be the
/// game number, and `--rules` the game. The old spellings still work for a
/// release, with a warning naming the new one.
#[test]
fn old_flag_spellings_work_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hand.csv"), FILE).unwrap();
    // The old spelling prints what the new one does, and warns.
    let same_with_warning = |new: &[&str], old: &[&str], warning: &str| {
        let new = run_in(dir.path(), new, "");
        let old = run_in(dir.path(), old, "");
        assert!(old.ok, "{}", old.stderr);
        assert_eq!(old.stdout, new.stdout);
        assert!(old.stderr.contains(warning), "{}", old.stderr);
    };
    same_with_warning(
        &["replay", "hand.csv", "-n", "2", "--speed", "0"],
        &["replay", "hand.csv", "--game", "2", "--speed", "0"],
        "warning: --game 2 for a game number is deprecated: use --number 2 (-n)",
    );
    let both = run_in(
        dir.path(),
        &["replay", "hand.csv", "--game", "2", "-n", "3"],
        "",
    );
    assert!(!both.ok);
    assert!(
        both.stderr.contains("give the game number once"),
        "{}",
        both.stderr
    );

    same_with_warning(
        &["replay", "hand.csv", "-g", "tictactoe", "--speed", "0"],
        &["replay", "hand.csv", "--rules", "tictactoe", "--speed", "0"],
        "warning: --rules is deprecated: use --game tictactoe (-g)",
    );
    same_with_warning(
        &["records", "list", "hand.csv", "-g", "tictactoe"],
        &["records", "list", "hand.csv", "--rules", "tictactoe"],
        "warning: --rules is deprecated",
    );

    let bad = run_in(dir.path(), &["replay", "hand.csv", "--game", "chess"], "");
    assert!(!bad.ok);
    assert!(bad.stderr.contains("--game"), "{}", bad.stderr);
}

/// Without a file, `replay` and `records list` read what `play` writes.
#[test]
fn the_records_file_defaults_to_plays() {
    let dir = tempfile::tempdir().unwrap();
    let none = run_in(dir.path(), &["records", "list"], "");
    assert!(!none.ok);
    assert!(none.stderr.contains("records/games.csv"), "{}", none.stderr);
    std::fs::create_dir(dir.path().join("records")).unwrap();
    std::fs::write(dir.path().join("records/games.csv"), FILE).unwrap();
    let list = run_in(dir.path(), &["records", "list", "-g", "tictactoe"], "");
    assert!(list.ok, "{}", list.stderr);
    assert_eq!(list.stdout.lines().count(), 4, "{}", list.stdout);
    let r = run_in(dir.path(), &["replay", "-n", "2", "--speed", "0"], "");
    assert!(r.ok, "{}", r.stderr);
    assert!(r.stdout.contains("Game 2 of 4"), "{}", r.stdout);
}

#[test]
fn replay_steps_on_enter_and_stops_on_q() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hand.csv"), FILE).unwrap();
    let r = run_in(
        dir.path(),
        &["replay", "hand.csv", "-n", "2", "--step"],
        "\n\nq\n",
    );
    assert!(r.ok, "{}", r.stderr);
    assert!(r.stdout.contains("Move 2 of 5"), "{}", r.stdout);
    assert!(!r.stdout.contains("Move 3 of 5"), "{}", r.stdout);
    assert!(
        r.stdout.contains("Enter: next move, b: back, q: stop"),
        "{}",
        r.stdout
    );
    // b steps back: moves 1, 2, back to 1, then 2 and 3.
    let r = run_in(
        dir.path(),
        &["replay", "hand.csv", "-n", "2", "--step", "--scroll"],
        "\n\nb\n\n\nq\n",
    );
    assert!(r.ok, "{}", r.stderr);
    let moves: Vec<&str> = r
        .stdout
        .lines()
        .filter_map(|l| {
            l.split(": ")
                .next()
                .filter(|m| m.starts_with("Move ") || m.starts_with("Start"))
        })
        .collect();
    assert_eq!(
        moves,
        [
            "Start",
            "Move 1 of 5",
            "Move 2 of 5",
            "Move 1 of 5",
            "Move 2 of 5",
            "Move 3 of 5"
        ],
        "{}",
        r.stdout
    );

    // End of input while stepping shows the rest.
    let r = run_in(
        dir.path(),
        &["replay", "hand.csv", "-n", "2", "--step"],
        "\n",
    );
    assert!(r.ok, "{}", r.stderr);
    assert!(r.stdout.contains("Move 5 of 5"), "{}", r.stdout);
}

#[test]
fn replay_sgf_from_play() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_in(
        dir.path(),
        &[
            "play",
            "-g",
            "tictactoe",
            "-m",
            "ava",
            "--delay",
            "0",
            "--seed",
            "5",
            "--no-records",
            "--sgf",
            "w.sgf",
        ],
        "y\nn\n",
    );
    assert!(r.ok, "{}", r.stderr);
    let games = read_records(dir.path().join("w.sgf"), Rules::GOMOKU).unwrap();
    assert_eq!(games.len(), 2);
    let r = run_in(dir.path(), &["replay", "w.sgf", "--speed", "0"], "");
    assert!(r.ok, "{}", r.stderr);
    let n = games[1].plies();
    assert!(
        r.stdout.contains(&format!("Move {n} of {n}: ")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Game 2 of 2: X greedy vs O greedy"),
        "{}",
        r.stdout
    );
}
