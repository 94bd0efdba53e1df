//! Game records: CSV (the original layout plus metadata) and SGF round
//! trips, the original files, deletion that keeps other games' bytes, and
//! reader errors that say where and what.

use mnk::game::{Board, Color, Move, Outcome, Rule, Rules};
use mnk::records::{
    append_record, delete_records, list_line, parse_csv, parse_sgf, read_records, save_record,
    write_csv, write_sgf, CsvErrorKind, Record, RecordError, SgfErrorKind,
};
use proptest::prelude::*;
use std::fs;
use std::path::PathBuf;

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// A record of the given moves (`x,y` or `h8` forms) with the board's own
/// outcome.
fn game(rules: &str, moves: &[&str], black: &str, white: &str) -> Record {
    let rules: Rules = rules.parse().unwrap();
    let moves: Vec<Move> = moves.iter().map(|m| mv(m)).collect();
    let board = Board::from_moves(rules, &moves).unwrap();
    let mut r = Record::from_board(&board, black, white);
    r.date = Some("2026-11-22T10:00:00Z".to_string());
    r
}

/// Games of every kind of result on several boards.
fn sample_games() -> Vec<Record> {
    let gomoku_black = game(
        "gomoku",
        &["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"],
        "greedy:weights/gomoku.toml",
        "human",
    );
    let ttt_draw = game(
        "tictactoe",
        &["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"],
        "Ann Lee",
        "100% [bot] \\ x=y #1",
    );
    let c4_white = game(
        "7x6x4",
        &["a1", "b1", "a2", "b2", "c6", "b3", "g6", "b4"],
        "x",
        "y",
    );
    let mut c4_abandoned = game("7x6x4", &["d1", "d2", "e1"], "alice", "");
    c4_abandoned.date = None;
    let mut exact_resigned = game("15x15x5-exact", &["h8", "a1"], "", "名前");
    exact_resigned.result = Some(Outcome::Win(Color::White));
    let mut agreed_draw = game("4x4x3", &["a1"], "p", "q");
    agreed_draw.result = Some(Outcome::Draw);
    let empty_abandoned = Record::new(Rules::GOMOKU);
    assert_eq!(gomoku_black.result, Some(Outcome::Win(Color::Black)));
    assert_eq!(ttt_draw.result, Some(Outcome::Draw));
    assert_eq!(c4_white.result, Some(Outcome::Win(Color::White)));
    assert_eq!(c4_abandoned.result, None);
    vec![
        gomoku_black,
        ttt_draw,
        c4_white,
        c4_abandoned,
        exact_resigned,
        agreed_draw,
        empty_abandoned,
    ]
}

#[test]
fn csv_round_trip_in_memory_and_through_files() {
    let games = sample_games();
    let text: String = games.iter().map(Record::to_csv).collect();
    assert_eq!(parse_csv(&text, Rules::TICTACTOE).unwrap(), games);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b/games.csv");
    write_csv(&path, &games).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
    assert_eq!(read_records(&path, Rules::GOMOKU).unwrap(), games);

    let appended = dir.path().join("new/dir/appended.txt");
    for g in &games {
        append_record(&appended, g).unwrap();
    }
    assert_eq!(fs::read_to_string(&appended).unwrap(), text);
    assert_eq!(read_records(&appended, Rules::GOMOKU).unwrap(), games);
}

#[test]
fn csv_layout_is_the_original_plus_metadata() {
    let g = &sample_games()[0];
    assert_eq!(
        g.to_csv(),
        "# game=gomoku black=greedy:weights/gomoku.toml white=human date=2026-11-22T10:00:00Z\n\
         0\n7,7\n7,8\n8,7\n8,8\n9,7\n9,8\n10,7\n10,8\n11,7\n1,-1\n"
    );
    let games = sample_games();
    assert!(games[1]
        .to_csv()
        .contains("black=Ann%20Lee white=100%25%20[bot]%20\\%20x=y%20#1"));
    assert!(games[3].to_csv().ends_with("\n0\n3,0\n3,1\n4,0\n2,-1\n"));
    assert!(games[1].to_csv().ends_with("0,-1\n"));
    assert!(games[2].to_csv().ends_with("-1,-1\n"));
    // The original program's own layout has no `#` line.
    let original: String = games.iter().map(Record::to_original_csv).collect();
    assert!(!original.contains('#'));
    let back = parse_csv(&original, Rules::GOMOKU).unwrap();
    assert_eq!(back[0].moves, games[0].moves);
    assert_eq!(back[0].result, games[0].result);
    assert_eq!(back[0].black, "");
}

#[test]
fn sgf_round_trip_in_memory_and_through_files() {
    let games = sample_games();
    let text: String = games.iter().map(Record::to_sgf).collect();
    assert_eq!(parse_sgf(&text, Rules::TICTACTOE).unwrap(), games);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/games.SGF");
    write_sgf(&path, &games).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
    assert_eq!(read_records(&path, Rules::GOMOKU).unwrap(), games);
    // No temporary files are left behind.
    assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);

    let appended = dir.path().join("appended.sgf");
    for g in &games {
        append_record(&appended, g).unwrap();
    }
    assert_eq!(read_records(&appended, Rules::GOMOKU).unwrap(), games);
}

#[test]
fn sgf_layout() {
    let games = sample_games();
    let s = games[0].to_sgf();
    assert!(s.starts_with("(;GM[4]FF[4]CA[UTF-8]AP[mnk:"), "{s}");
    for part in [
        "SZ[15]",
        "MNK[15x15x5]",
        "PB[greedy:weights/gomoku.toml]",
        "PW[human]",
        "RE[B+]",
        "DT[2026-11-22T10:00:00Z]",
        ";B[hh];W[hi];B[ih]",
    ] {
        assert!(s.contains(part), "{part} missing from {s}");
    }
    assert!(s.ends_with(";B[lh])\n"));
    let c4 = games[2].to_sgf();
    assert!(
        c4.contains("SZ[7:6]MNK[7x6x4]") && c4.contains("RE[W+]"),
        "{c4}"
    );
    assert!(games[1]
        .to_sgf()
        .contains(r"PW[100% [bot\] \\ x=y #1]RE[Draw]"));
    assert!(games[3].to_sgf().contains("RE[?]"));
    assert!(games[4].to_sgf().contains("MNK[15x15x5-exact]"));
}

#[test]
fn sgf_from_other_tools() {
    // No MNK: size from SZ, k and rule from the default. Variations: the
    // main line is read. Lower-case FF[3] identifiers, escapes, soft line
    // breaks, results with reasons, RE missing.
    let text = "\u{feff}(;GM[4]FF[3]SZ[9]PlayerBlack[Ann\\\n Lee]PW[Bob\nSmith]RE[W+Resign]\n\
                ;B[ee](;W[ff];B[dd])(;W[aa]))\n\
                (;GM[4]RE[B+T];B[hh];W[ii];B[hi])";
    let games = parse_sgf(text, Rules::GOMOKU).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].rules,
        Rules::new(9, 9, 5, Rule::Freestyle).unwrap()
    );
    assert_eq!(games[0].moves, vec![mv("e5"), mv("f6"), mv("d4")]);
    assert_eq!(games[0].black, "Ann Lee");
    assert_eq!(games[0].white, "Bob Smith");
    assert_eq!(games[0].result, Some(Outcome::Win(Color::White)));
    // SZ[3] with the gomoku default gives k = 5 > 3: refused with a hint.
    let e = parse_sgf("(;SZ[3];B[bb])", Rules::GOMOKU).unwrap_err();
    assert!(e.to_string().contains("MNK"), "{e}");
    // With a tic-tac-toe default it is a black win found on the board (no
    // RE).
    let ttt = parse_sgf("(;SZ[3];B[bb];W[aa];B[ab];W[ac];B[cb])", Rules::TICTACTOE).unwrap();
    assert_eq!(ttt[0].result, Some(Outcome::Win(Color::Black)));
    assert_eq!(games[1].result, Some(Outcome::Win(Color::Black)));
    assert_eq!(games[1].rules, Rules::GOMOKU);
    assert_eq!(parse_sgf(" \n", Rules::GOMOKU).unwrap(), vec![]);
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name)
}

#[test]
fn reads_a_file_in_the_original_layout() {
    // As the original program wrote it: no metadata, CR LF line ends.
    let games = read_records(data("original.csv"), Rules::GOMOKU).unwrap();
    assert_eq!(games.len(), 3);
    for g in &games {
        assert_eq!(g.rules, Rules::GOMOKU);
        assert_eq!(
            (g.black.as_str(), g.white.as_str(), g.date.as_ref()),
            ("", "", None)
        );
    }
    assert_eq!(games[0].moves.len(), 9);
    assert_eq!(games[0].moves[0], Move::new(7, 7));
    assert_eq!(games[0].result, Some(Outcome::Win(Color::Black)));
    assert_eq!(games[1].moves.len(), 10);
    assert_eq!(games[1].result, Some(Outcome::Win(Color::White)));
    assert_eq!(games[2].moves, vec![Move::new(7, 7), Move::new(6, 6)]);
    assert_eq!(games[2].result, Some(Outcome::Draw));
    assert_eq!(
        list_line(2, &games[1]),
        "   2  ? vs ?  white wins  10 plies  gomoku"
    );
}

#[test]
fn list_lines() {
    let games = sample_games();
    assert_eq!(
        list_line(1, &games[0]),
        "   1  greedy:weights/gomoku.toml vs human  black wins  9 plies  gomoku"
    );
    assert_eq!(
        list_line(4, &games[3]),
        "   4  alice vs ?  unfinished  3 plies  7x6x4"
    );
    assert_eq!(
        list_line(12, &games[4]),
        "  12  ? vs 名前  white wins  2 plies  15x15x5-exact"
    );
}

/// A CSV file with irregular but valid formatting around its games.
fn messy_csv() -> Vec<&'static str> {
    vec![
        "# records kept by hand\n\n# game=tictactoe black=a\n0\n1,1\n0,0\n2,-1\n",
        "\n0\r\n 1 , 1 \r\n0,0\r\n1,0\r\n2,0\r\n1,2\r\n1,-1\r\n",
        "# game=7x6x4 white=Bob%20Smith date=2026-11-22T10:00:00Z\n0\n3,0\n-1,-1\n",
        "# game=tictactoe\n0\n0,-1\n",
    ]
}

#[test]
fn delete_from_the_middle_keeps_other_games_byte_for_byte() {
    let parts = messy_csv();
    let tail = "\n# trailing comment";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.csv");
    fs::write(&path, parts.concat() + tail).unwrap();
    assert_eq!(read_records(&path, Rules::TICTACTOE).unwrap().len(), 4);

    assert_eq!(delete_records(&path, &[2]).unwrap(), 3);
    let expected = [parts[0], parts[2], parts[3], tail].concat();
    assert_eq!(fs::read_to_string(&path).unwrap(), expected);
    let left = read_records(&path, Rules::TICTACTOE).unwrap();
    assert_eq!(left.len(), 3);
    assert_eq!(left[1].white, "Bob Smith");

    // Several at once, repeats ignored; nothing left but the tail.
    assert_eq!(delete_records(&path, &[3, 1, 3]).unwrap(), 1);
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        [parts[2], tail].concat()
    );
    assert_eq!(delete_records(&path, &[1]).unwrap(), 0);
    assert_eq!(fs::read_to_string(&path).unwrap(), tail);
    assert_eq!(read_records(&path, Rules::TICTACTOE).unwrap(), vec![]);
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary files left"
    );
}

#[test]
fn delete_out_of_range_names_the_number_and_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.csv");
    let text = messy_csv().concat();
    fs::write(&path, &text).unwrap();
    for bad in [0, 5, 99] {
        let e = delete_records(&path, &[1, bad]).unwrap_err();
        assert!(
            matches!(e, RecordError::NoSuchGame { number, count: 4, .. } if number == bad),
            "{e:?}"
        );
        let msg = e.to_string();
        assert!(
            msg.contains(&format!("no game {bad}")) && msg.contains("holds 4 games"),
            "{msg}"
        );
    }
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        text,
        "unchanged after an error"
    );
    // Nothing asked: nothing changes.
    assert_eq!(delete_records(&path, &[]).unwrap(), 4);
    // A broken file is not edited.
    fs::write(&path, "0\n1,1\n").unwrap();
    let e = delete_records(&path, &[1]).unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
}

#[test]
fn delete_from_an_sgf_collection() {
    let games = sample_games();
    let parts: Vec<String> = games.iter().map(Record::to_sgf).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sgf");
    // Hand-edited spacing between games is kept.
    let text = format!("{}\n  {}{}", parts[0], parts[1], parts[2]);
    fs::write(&path, &text).unwrap();
    assert_eq!(delete_records(&path, &[2]).unwrap(), 2);
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        format!("{}{}", parts[0], parts[2])
    );
    let left = read_records(&path, Rules::GOMOKU).unwrap();
    assert_eq!(left, vec![games[0].clone(), games[2].clone()]);
    let e = delete_records(&path, &[3]).unwrap_err();
    assert!(e.to_string().contains("holds 2 games"), "{e}");
}

#[test]
fn append_to_a_file_without_trailing_newline() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.csv");
    let old = "# game=tictactoe\n0\n1,1\n2,-1";
    fs::write(&path, old).unwrap();
    let g = game("7x6x4", &["d1"], "a", "b");
    append_record(&path, &g).unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        format!("{old}\n{}", g.to_csv())
    );
    let games = read_records(&path, Rules::GOMOKU).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1], g);

    // CR LF files keep their last line whole too.
    let path = dir.path().join("crlf.csv");
    fs::write(&path, "0\r\n7,7\r\n2,-1\r\n").unwrap();
    append_record(&path, &g).unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        format!("0\r\n7,7\r\n2,-1\r\n{}", g.to_csv())
    );
}

/// Parses `text` as CSV under tic-tac-toe and returns the error, checking
/// that it is at `line` and that its message says so.
fn csv_error(text: &str, line: usize) -> CsvErrorKind {
    let e = parse_csv(text, Rules::TICTACTOE).unwrap_err();
    assert_eq!(e.line, line, "{e}");
    assert!(e.to_string().starts_with(&format!("line {line}: ")), "{e}");
    e.kind
}

#[test]
fn csv_errors_name_the_line_and_what_was_expected() {
    let ok = "0\n1,1\n2,-1\n";
    let k = csv_error(&format!("{ok}0\n1,x\n2,-1\n"), 5);
    assert!(matches!(k, CsvErrorKind::BadCoordinates { ref found } if found == "1,x"));
    assert!(k.to_string().contains("expected a move `x,y`"));
    csv_error(&format!("{ok}0\n1 1\n"), 5);
    csv_error(&format!("{ok}0\n1,2,3\n"), 5);

    let k = csv_error(&format!("{ok}0\n3,0\n2,-1\n"), 5);
    assert!(
        matches!(k, CsvErrorKind::OffBoard { x: 3, y: 0, .. }),
        "{k}"
    );
    assert!(k.to_string().contains("off the 3x3 board"));
    csv_error("0\n-2,1\n2,-1\n", 2);
    // The metadata's game decides the board: 7,5 is on a 7x6 board.
    assert!(parse_csv("# game=7x6x4\n0\n6,5\n2,-1\n", Rules::TICTACTOE).is_ok());
    let k = csv_error("# game=7x6x4\n0\n6,6\n2,-1\n", 3);
    assert!(k.to_string().contains("7x6 board"));

    let k = csv_error("0\n1,1\n\n1,1\n2,-1\n", 4);
    assert!(
        matches!(k, CsvErrorKind::Occupied { earlier: 2, .. }),
        "{k}"
    );
    assert!(k.to_string().contains("line 2"));

    // The first error in the file is the one reported: an occupied cell in
    // a game that is also cut short.
    let k = csv_error("0\n1,1\n1,1\n", 3);
    assert!(matches!(k, CsvErrorKind::Occupied { .. }), "{k}");

    let k = csv_error("\n7,7\n1,-1\n", 2);
    assert!(matches!(k, CsvErrorKind::MissingStart { .. }));
    assert!(k.to_string().contains("expected `0`"));
    csv_error(&format!("{ok}1,-1\n"), 4);
    csv_error("# game=tictactoe\nx\n", 2);

    let k = csv_error(&format!("{ok}\n0\n1,1\n0,0"), 7);
    assert!(
        matches!(
            k,
            CsvErrorKind::Truncated {
                game: 2,
                start: 5,
                plies: 2
            }
        ),
        "{k}"
    );
    assert!(k.to_string().contains("started at line 5"));
    csv_error("0\n", 1);

    let k = csv_error("0\n1,1\n5,-1\n", 3);
    assert!(matches!(k, CsvErrorKind::UnknownResult { .. }));
    assert!(k.to_string().contains("1,-1 (black wins)"));

    // Black has three in a row at line 7; a further move is refused.
    let won = "0\n0,0\n0,1\n1,0\n1,1\n2,0\n";
    assert_eq!(
        parse_csv(&format!("{won}1,-1\n"), Rules::TICTACTOE).unwrap()[0].result,
        Some(Outcome::Win(Color::Black))
    );
    let k = csv_error(&format!("{won}2,2\n1,-1\n"), 7);
    assert!(matches!(k, CsvErrorKind::AfterEnd { ended: 6, .. }), "{k}");
    assert!(k.to_string().contains("black wins at line 6"));
    // ... and so is any result but the board's.
    for wrong in ["-1,-1", "0,-1", "2,-1"] {
        let k = csv_error(&format!("{won}{wrong}\n"), 7);
        assert!(matches!(k, CsvErrorKind::ResultMismatch { .. }), "{k}");
    }

    // A new game or metadata before the result line.
    let k = csv_error("0\n1,1\n0\n0,0\n2,-1\n", 3);
    assert!(
        matches!(k, CsvErrorKind::ResultMissing { start: 1, .. }),
        "{k}"
    );
    csv_error("0\n1,1\n# game=gomoku\n2,-1\n", 3);

    let k = csv_error("# note game=2x2x2\n0\n2,-1\n", 1);
    assert!(matches!(k, CsvErrorKind::BadGame { .. }), "{k}");

    // Abandoned games at the end of a file are fine, with or without a
    // final line break.
    let g = parse_csv("0\n1,1\n2,-1", Rules::TICTACTOE).unwrap();
    assert_eq!((g[0].plies(), g[0].result), (1, None));
}

#[test]
fn file_errors_name_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.csv");
    fs::write(&path, "0\n7,7\n7,7\n1,-1\n").unwrap();
    let msg = read_records(&path, Rules::GOMOKU).unwrap_err().to_string();
    assert!(
        msg.contains("bad.csv: line 3: move 7,7 (h8) is on a cell already taken at line 2"),
        "{msg}"
    );
    let missing = dir.path().join("missing.csv");
    let e = read_records(&missing, Rules::GOMOKU).unwrap_err();
    assert!(matches!(e, RecordError::Io { .. }) && e.to_string().contains("missing.csv"));
    let sgf = dir.path().join("bad.sgf");
    fs::write(&sgf, "(;GM[4];B[hh])\n(;GM[4];B[hh];W[hh])\n").unwrap();
    let msg = read_records(&sgf, Rules::GOMOKU).unwrap_err().to_string();
    assert!(
        msg.contains(
            "bad.sgf: byte 31 (line 2), game 2: move 2 (h8) is on a cell already taken by move 1"
        ),
        "{msg}"
    );
}

/// Parses `text` as SGF under gomoku and returns the error, checking its
/// game number and that its message names the offset.
fn sgf_error(text: &str, game: usize, offset: usize) -> SgfErrorKind {
    let e = parse_sgf(text, Rules::GOMOKU).unwrap_err();
    assert_eq!((e.game, e.offset), (game, offset), "{e}");
    assert!(e.to_string().starts_with(&format!("byte {offset} ")), "{e}");
    e.kind
}

#[test]
fn sgf_errors_name_the_offset_and_the_game() {
    let ok = "(;GM[4];B[hh])\n";
    let k = sgf_error(&format!("{ok}(;B[hh];W[ii]"), 2, 28);
    assert!(k.to_string().contains("expected `)`"), "{k}");
    sgf_error(&format!("{ok}(;B[hh"), 2, 21);
    sgf_error(&format!("{ok}x"), 2, 15);
    sgf_error(&format!("{ok}()"), 2, 16);
    sgf_error(&format!("{ok}(;B[hh];W)"), 2, 24);
    sgf_error(&format!("{ok}(;B[hh](;W[ii]);B[jj])"), 2, 30);

    let k = sgf_error("(;GM[1];B[hh])", 1, 5);
    assert!(matches!(k, SgfErrorKind::NotGomoku(_)));
    let k = sgf_error(&format!("{ok}(;B[h8])"), 2, 19);
    assert!(matches!(k, SgfErrorKind::BadCoordinate { .. }), "{k}");
    sgf_error("(;B[])", 1, 4);
    let k = sgf_error("(;B[hh];B[ii])", 1, 8);
    assert!(
        matches!(
            k,
            SgfErrorKind::WrongColor {
                ply: 2,
                expected: Color::White,
                ..
            }
        ),
        "{k}"
    );
    sgf_error("(;W[hh])", 1, 2);
    let k = sgf_error("(;B[hh];W[pa])", 1, 10);
    assert!(matches!(k, SgfErrorKind::OffBoard { ply: 2, .. }), "{k}");
    let k = sgf_error("(;B[hh];W[ii];B[hh])", 1, 16);
    assert!(
        matches!(
            k,
            SgfErrorKind::Occupied {
                ply: 3,
                earlier: 1,
                ..
            }
        ),
        "{k}"
    );
    let won = "(;MNK[3x3x3];B[aa];W[ab];B[ba];W[bb];B[ca]";
    let k = sgf_error(&format!("{won};W[cc])"), 1, 45);
    assert!(
        matches!(
            k,
            SgfErrorKind::AfterEnd {
                ply: 6,
                ended: 5,
                ..
            }
        ),
        "{k}"
    );
    let k = sgf_error("(;RE[W+]MNK[3x3x3];B[aa];W[ab];B[ba];W[bb];B[ca])", 1, 5);
    assert!(matches!(k, SgfErrorKind::ResultMismatch { .. }), "{k}");
    let k = sgf_error("(;RE[X];B[hh])", 1, 5);
    assert!(matches!(k, SgfErrorKind::BadResult(_)));
    let k = sgf_error("(;SZ[7:6]MNK[7x7x4])", 1, 5);
    assert!(matches!(k, SgfErrorKind::SizeMismatch { .. }), "{k}");
    let k = sgf_error("(;MNK[2x2x2])", 1, 6);
    assert!(matches!(k, SgfErrorKind::BadRules { .. }), "{k}");
    let k = sgf_error("(;SZ[40])", 1, 5);
    assert!(matches!(k, SgfErrorKind::BadSize { .. }), "{k}");
    let k = sgf_error("(;AB[aa][bb];W[cc])", 1, 2);
    assert!(matches!(k, SgfErrorKind::Setup(_)));
    // The line is given too.
    let e = parse_sgf("(;GM[4]\n;B[hh]\n;W[hh])", Rules::GOMOKU).unwrap_err();
    assert!(
        e.to_string().starts_with("byte 18 (line 3), game 1: "),
        "{e}"
    );
}

/// A random legal game: random rules, random moves, stopped at a random
/// length or at its end, with a result consistent with the board.
fn arb_record() -> impl Strategy<Value = Record> {
    let name = "[ -~éü名]{0,12}";
    (
        (3u32..=10, 3u32..=10, any::<u8>(), any::<bool>()),
        prop::collection::vec(any::<u16>(), 0..80),
        0u8..4,
        (name, name, prop::option::of("[ -~]{0,25}")),
    )
        .prop_map(|((w, h, kk, exact), choices, res, (black, white, date))| {
            let k = 3 + kk as u32 % (w.max(h) - 2);
            let rule = if exact { Rule::Exact } else { Rule::Freestyle };
            let rules = Rules::new(w, h, k, rule).unwrap();
            let mut board = Board::new(rules);
            for c in choices {
                if board.is_over() {
                    break;
                }
                let legal = board.legal_moves();
                board.play(legal[c as usize % legal.len()]).unwrap();
            }
            let mut r = Record::from_board(&board, black, white);
            r.date = date;
            if r.result.is_none() {
                r.result = match res {
                    0 => None,
                    1 => Some(Outcome::Win(Color::Black)),
                    2 => Some(Outcome::Win(Color::White)),
                    _ => Some(Outcome::Draw),
                };
            }
            r
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_games_round_trip(games in prop::collection::vec(arb_record(), 1..5)) {
        let csv: String = games.iter().map(Record::to_csv).collect();
        prop_assert_eq!(&parse_csv(&csv, Rules::GOMOKU).unwrap(), &games);
        let sgf: String = games.iter().map(Record::to_sgf).collect();
        prop_assert_eq!(&parse_sgf(&sgf, Rules::GOMOKU).unwrap(), &games);
        for g in &games {
            let replayed = g.replay().unwrap();
            prop_assert_eq!(replayed.ply(), g.plies());
        }
    }
}

/// The counts a match printed for `file`: "… (N games in the file)".
fn printed_counts(stdout: &str, file: &str) -> Vec<usize> {
    stdout
        .lines()
        .filter(|l| l.contains(file))
        .filter_map(|l| {
            let n = l.split(" (").nth(1)?.strip_suffix(" games in the file)")?;
            n.parse().ok()
        })
        .collect()
}

/// Several `mnk match` processes appending to the same records files (CSV
/// and SGF) at once keep every game, and each prints the file's true count
/// just after its own append: together the counts are every multiple of
/// one match's games above the file's start. The old read, add and rename
/// let the last process to finish win, losing the others' games.
#[test]
fn concurrent_matches_keep_every_game_and_count_them() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, sgf) = (dir.path().join("c.csv"), dir.path().join("c.sgf"));
    // A file of many games makes each append's read and check take a
    // while, so the processes' appends overlap.
    let start: Vec<Record> = (0..300)
        .map(|i| {
            let first = ["a1", "b2", "c3"][i % 3];
            game("tictactoe", &[first], "x", "y")
        })
        .collect();
    write_csv(&csv, &start).unwrap();
    write_sgf(&sgf, &start).unwrap();
    const PROCS: usize = 4;
    const REPS: usize = 3;
    const GAMES: usize = 6; // -n 3: three openings, both colours
    let mut counts = (Vec::new(), Vec::new());
    for rep in 0..REPS {
        let children: Vec<_> = (0..PROCS)
            .map(|i| {
                let seed = (10 * rep + i + 1).to_string();
                crate::common::mnk()
                    .current_dir(dir.path())
                    .args(["match", "greedy", "random", "-g", "tictactoe", "-n", "3"])
                    .args(["--random-openings", "--records", "c.csv", "--sgf", "c.sgf"])
                    .args(["--seed", &seed])
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{stdout}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            counts.0.extend(printed_counts(&stdout, "c.csv"));
            counts.1.extend(printed_counts(&stdout, "c.sgf"));
        }
    }
    let total = start.len() + REPS * PROCS * GAMES;
    let expected: Vec<usize> = (1..=REPS * PROCS)
        .map(|k| start.len() + k * GAMES)
        .collect();
    for (path, mut printed) in [(&csv, counts.0), (&sgf, counts.1)] {
        let games = read_records(path, Rules::TICTACTOE).unwrap();
        assert_eq!(games.len(), total, "{}", path.display());
        assert_eq!(games[..start.len()], start[..], "{}", path.display());
        printed.sort_unstable();
        assert_eq!(printed, expected, "{}: the printed counts", path.display());
    }
}

/// Sessions saving into one file from several threads (each its own open
/// file, as separate processes have): every game is kept once, in its
/// last saved form, and each save's number is the game's place in the
/// file.
#[test]
fn concurrent_saves_replace_only_their_own_game() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["s.csv", "s.sgf"] {
        let path = dir.path().join(name);
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let mut numbers = Vec::new();
                    for g in 0..10 {
                        let who = format!("t{t}g{g}");
                        let mut first = game("tictactoe", &["b2"], &who, "p");
                        first.date = None;
                        let at = save_record(&path, &first, None).unwrap();
                        assert!(!at.replaced);
                        let previous = if name.ends_with(".sgf") {
                            first.to_sgf()
                        } else {
                            first.to_csv()
                        };
                        let mut done = game("tictactoe", &["b2", "a1", "c3"], &who, "p");
                        done.date = None;
                        let again = save_record(&path, &done, Some(&previous)).unwrap();
                        // Replaced only if nobody appended in between.
                        if again.replaced {
                            assert_eq!(again.number, at.number);
                        }
                        let games = read_records(&path, Rules::TICTACTOE).unwrap();
                        assert_eq!(games[again.number - 1], done, "{who}");
                        numbers.push(who);
                    }
                    numbers
                })
            })
            .collect();
        let names: Vec<String> = threads
            .into_iter()
            .flat_map(|t| t.join().unwrap())
            .collect();
        let games = read_records(&path, Rules::TICTACTOE).unwrap();
        for who in &names {
            let last = games.iter().rposition(|g| &g.black == who).unwrap();
            assert_eq!(games[last].plies(), 3, "{name}: {who}'s last save");
        }
        // Each game at most twice (a replaced save, or an append after
        // someone else's), and never lost.
        assert!(games.len() >= names.len() && games.len() <= 2 * names.len());
    }
}
