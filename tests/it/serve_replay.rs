//! The Replay view's API (`/api/records`) over HTTP, in process: files
//! written by `mnk match` and by the library's writers are listed and read
//! back exactly as the library reads them; malformed files, traversal and
//! unknown names get a 4xx with a message.

use crate::serve::Server;
use mnk::game::{Board, Move, Outcome, Rules};
use mnk::play::{winning_line, Replay, Style};
use mnk::records::{read_records, write_csv, Record};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::Command;

/// `dir/records/games.csv` and `dir/runs/m.sgf` with the same games of
/// `mnk match` (gomoku, greedy against greedy), and what the library reads
/// from the CSV.
fn match_files(dir: &Path) -> Vec<Record> {
    fs::create_dir_all(dir.join("records")).unwrap();
    fs::create_dir_all(dir.join("runs")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mnk"))
        .args(["match", "greedy", "random", "-n", "2", "--threads", "1"])
        .args(["--progress-every", "0", "--records"])
        .arg(dir.join("records/games.csv"))
        .arg("--sgf")
        .arg(dir.join("runs/m.sgf"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    read_records(dir.join("records/games.csv"), Rules::GOMOKU).unwrap()
}

/// Asserts a 4xx (never 404 unless `not_found`) whose message holds `says`.
fn refused(server: &Server, target: &str, status: u16, says: &str) {
    let (got, body) = server.raw("GET", target, "", b"");
    let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{target}: {e}: {body}"));
    let msg = v["error"].as_str().unwrap_or_default();
    assert_eq!(got, status, "{target}: {body}");
    assert!(msg.contains(says), "{target}: {msg:?} lacks {says:?}");
}

/// Checks one game's answer against the library's own reading.
fn same_game(v: &Value, number: usize, count: usize, r: &Record) {
    assert_eq!(v["number"], number, "{v}");
    assert_eq!(v["count"], count);
    assert_eq!(v["game"], r.rules.to_string());
    assert_eq!(v["width"], r.rules.width);
    assert_eq!(v["height"], r.rules.height);
    assert_eq!(v["k"], r.rules.k);
    assert_eq!(v["black"], r.black.as_str());
    assert_eq!(v["white"], r.white.as_str());
    assert_eq!(v["result_text"], r.result_text());
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), r.plies());
    for (i, (m, want)) in moves.iter().zip(&r.moves).enumerate() {
        assert_eq!(m["cell"], want.to_string(), "move {i}");
        assert_eq!(
            (m["x"].as_u64(), m["y"].as_u64()),
            (Some(want.x as u64), Some(want.y as u64))
        );
        assert_eq!(m["color"], if i % 2 == 0 { "black" } else { "white" });
    }
    let board = Board::from_moves(r.rules, &r.moves).unwrap();
    let line: Vec<String> = winning_line(&board).iter().map(Move::to_string).collect();
    assert_eq!(v["winning_line"], serde_json::json!(line));
    let end = Replay::new(r, number, count, Style::PLAIN)
        .unwrap()
        .result_line();
    assert_eq!(v["end"], end);
}

#[test]
fn records_files_are_listed_only_inside_the_folders() {
    let dir = tempfile::tempdir().unwrap();
    match_files(dir.path());
    let game = Record::from_board(
        &Board::from_moves(Rules::TICTACTOE, &[Move::new(1, 1)]).unwrap(),
        "a",
        "b",
    );
    fs::create_dir_all(dir.path().join("runs/r1/.git")).unwrap();
    write_csv(
        dir.path().join("runs/r1/old games.csv"),
        std::slice::from_ref(&game),
    )
    .unwrap();
    write_csv(
        dir.path().join("runs/r1/.git/hidden.csv"),
        std::slice::from_ref(&game),
    )
    .unwrap();
    fs::write(dir.path().join("runs/r1/rounds.csv"), "round,elo\n1,0\n").unwrap();
    write_csv(dir.path().join("secret.csv"), &[game]).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(
            dir.path().join("secret.csv"),
            dir.path().join("records/leak.csv"),
        )
        .unwrap();
        symlink(dir.path(), dir.path().join("runs/up")).unwrap();
    }
    let server = Server::start(dir.path());
    let v = server.ok("GET", "/api/records", None);
    let folders = v["folders"].as_array().unwrap();
    assert_eq!(folders.len(), 2, "{v}");
    let names = |f: &Value| -> Vec<String> {
        f["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["path"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        (folders[0]["index"].as_u64(), folders[0]["name"].as_str()),
        (Some(0), Some("records"))
    );
    assert_eq!(names(&folders[0]), ["games.csv"]);
    assert_eq!(folders[1]["name"], "runs");
    assert_eq!(names(&folders[1]), ["m.sgf", "r1/old games.csv"]);
    let bytes = fs::metadata(dir.path().join("records/games.csv"))
        .unwrap()
        .len();
    assert_eq!(folders[0]["files"][0]["bytes"], bytes);
    assert_eq!(folders[0]["truncated"], false);
    server.stop();
}

#[test]
fn games_read_as_the_library_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let records = match_files(dir.path());
    let server = Server::start(dir.path());
    // The same games as CSV (folder 0) and as SGF (folder 1).
    for file in ["/api/records/0/games.csv", "/api/records/1/m.sgf"] {
        let list = server.ok("GET", file, None);
        assert_eq!(list["count"], records.len(), "{list}");
        assert_eq!(list["truncated"], false);
        let games = list["games"].as_array().unwrap();
        assert_eq!(games.len(), records.len());
        for (i, (g, r)) in games.iter().zip(&records).enumerate() {
            assert_eq!(g["number"], i + 1);
            assert_eq!(g["moves"], r.plies());
            assert_eq!(
                (g["black"].as_str(), g["white"].as_str()),
                (Some(r.black.as_str()), Some(r.white.as_str()))
            );
            let want = match r.result {
                Some(Outcome::Win(c)) => Value::from(c.to_string()),
                Some(Outcome::Draw) => Value::from("draw"),
                None => Value::Null,
            };
            assert_eq!(g["result"], want);
            assert_eq!(g["date"].as_str(), r.date.as_deref());
            let one = server.ok("GET", &format!("{file}?game={}", i + 1), None);
            same_game(&one, i + 1, records.len(), r);
        }
    }
    // A won game's line is k cells.
    let one = server.ok("GET", "/api/records/0/games.csv?game=1", None);
    assert_eq!(one["winning_line"].as_array().unwrap().len(), 5, "{one}");
    assert_eq!(one["file"], "games.csv");
    server.stop();
}

#[test]
fn files_of_the_original_program_take_the_rules_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("records/old")).unwrap();
    // A tic-tac-toe draw and an abandoned game, in the original layout
    // (no metadata), in a file name that needs encoding.
    let draw = "1,1 0,0 2,2 0,2 0,1 2,1 1,0 1,2 2,0";
    let moves: Vec<Move> = draw.split(' ').map(|m| m.parse().unwrap()).collect();
    let mut games = vec![Record::from_board(
        &Board::from_moves(Rules::TICTACTOE, &moves).unwrap(),
        "",
        "",
    )];
    games.push(Record::from_board(
        &Board::from_moves(Rules::TICTACTOE, &moves[..3]).unwrap(),
        "",
        "",
    ));
    let text: String = games.iter().map(Record::to_original_csv).collect();
    fs::write(dir.path().join("records/old/a b.csv"), text).unwrap();
    let server = Server::start(dir.path());
    let target = "/api/records/0/old/a%20b.csv";
    // Read as gomoku by default, as `mnk replay` does.
    assert_eq!(server.ok("GET", target, None)["games"][0]["game"], "gomoku");
    let list = server.ok("GET", &format!("{target}?rules=tictactoe"), None);
    assert_eq!(list["file"], "old/a b.csv");
    assert_eq!(list["games"][0]["result"], "draw");
    assert_eq!(list["games"][1]["result"], Value::Null);
    assert_eq!(list["games"][1]["result_text"], "unfinished");
    let read = read_records(dir.path().join("records/old/a b.csv"), Rules::TICTACTOE).unwrap();
    for n in [1, 2] {
        let one = server.ok("GET", &format!("{target}?rules=tictactoe&game={n}"), None);
        same_game(&one, n, 2, &read[n - 1]);
        assert_eq!(one["winning_line"], serde_json::json!([]));
    }
    refused(&server, &format!("{target}?rules=9x9x12"), 400, "rules:");
    refused(&server, &format!("{target}?rules=nonsense"), 400, "rules:");
    server.stop();
}

#[test]
fn malformed_files_are_a_422_naming_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    fs::create_dir_all(&records).unwrap();
    fs::write(
        records.join("bad.csv"),
        "# game=tictactoe\n0\n1,1\nfoo\n1,-1\n",
    )
    .unwrap();
    // Black's third stone does not make the stated white win.
    fs::write(
        records.join("liar.csv"),
        "# game=tictactoe\n0\n0,0\n1,1\n0,1\n2,2\n0,2\n-1,-1\n",
    )
    .unwrap();
    fs::write(records.join("bad.sgf"), "(;GM[4]SZ[15]\n;B[hh];W[hh])").unwrap();
    fs::write(records.join("cut.sgf"), "(;GM[4]SZ[15];B[hh]").unwrap();
    fs::write(records.join("latin1.csv"), b"# black=Jos\xe9\n0\n").unwrap();
    fs::write(records.join("unended.csv"), "0\n7,7\n").unwrap();
    let server = Server::start(dir.path());
    refused(
        &server,
        "/api/records/0/bad.csv",
        422,
        "records/bad.csv: line 4: ",
    );
    refused(
        &server,
        "/api/records/0/bad.csv?game=1",
        422,
        "found \"foo\"",
    );
    refused(
        &server,
        "/api/records/0/liar.csv",
        422,
        "records/liar.csv: line ",
    );
    refused(
        &server,
        "/api/records/0/bad.sgf",
        422,
        "records/bad.sgf: byte ",
    );
    refused(&server, "/api/records/0/bad.sgf", 422, "(line 2)");
    refused(&server, "/api/records/0/cut.sgf", 422, "records/cut.sgf:");
    refused(
        &server,
        "/api/records/0/latin1.csv",
        422,
        "records/latin1.csv: not UTF-8 text: line 1",
    );
    refused(
        &server,
        "/api/records/0/unended.csv",
        422,
        "records/unended.csv: line ",
    );
    // The server's own paths never show.
    let (_, body) = server.raw("GET", "/api/records/0/bad.csv", "", b"");
    assert!(!body.contains(&*dir.path().to_string_lossy()), "{body}");
    // Too large to read for the page (sparse: no disk used).
    let big = fs::File::create(records.join("big.csv")).unwrap();
    big.set_len(mnk_serve::replay::MAX_FILE_BYTES + 1).unwrap();
    refused(&server, "/api/records/0/big.csv", 422, "too large");
    server.stop();
}

#[test]
fn traversal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    match_files(dir.path());
    fs::copy(
        dir.path().join("records/games.csv"),
        dir.path().join("secret.csv"),
    )
    .unwrap();
    let server = Server::start(dir.path());
    for (target, status) in [
        ("/api/records/0/../secret.csv", 400),
        ("/api/records/1/../records/games.csv", 400),
        ("/api/records/0/%2e%2e/secret.csv", 400),
        ("/api/records/0/%2E%2E%2Fsecret.csv", 400),
        ("/api/records/0/..%2fsecret.csv", 400),
        ("/api/records/0/%252e%252e/secret.csv", 400),
        ("/api/records/0/%252e%252e%252fsecret.csv", 400),
        ("/api/records/0//etc/passwd", 400),
        ("/api/records/0/%2fetc/passwd", 400),
        ("/api/records/0/..%5csecret.csv", 400),
        ("/api/records/0/./games.csv", 400),
        ("/api/records/0/C:/secret.csv", 400),
        ("/api/records/0/games.csv%00", 400),
        ("/api/records/0/%zz", 400),
        ("/api/records/0/", 400),
        ("/api/records/..%2f..%2fsecret.csv", 404),
    ] {
        let (got, body) = server.raw("GET", target, "", b"");
        assert_eq!(got, status, "{target}: {body}");
        assert!(body.contains("\"error\""), "{target}: {body}");
        assert!(!body.contains("\"moves\""), "{target}: {body}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(
            dir.path().join("secret.csv"),
            dir.path().join("records/leak.csv"),
        )
        .unwrap();
        symlink(dir.path(), dir.path().join("records/up")).unwrap();
        refused(&server, "/api/records/0/leak.csv", 403, "leads outside");
        refused(
            &server,
            "/api/records/0/up/secret.csv",
            403,
            "leads outside",
        );
        // A link that stays inside is fine.
        symlink(
            dir.path().join("records/games.csv"),
            dir.path().join("records/same.csv"),
        )
        .unwrap();
        server.ok("GET", "/api/records/0/same.csv", None);
    }
    server.stop();
}

#[test]
fn unknown_files_folders_and_games_are_4xx() {
    let dir = tempfile::tempdir().unwrap();
    match_files(dir.path());
    fs::write(dir.path().join("records/notes.txt"), "0\n1,-1\n").unwrap();
    let server = Server::start(dir.path());
    refused(&server, "/api/records/0/nothing.csv", 404, "no such file");
    refused(
        &server,
        "/api/records/2/games.csv",
        404,
        "no replay folder \"2\"",
    );
    refused(&server, "/api/records/x/games.csv", 404, "no replay folder");
    refused(&server, "/api/records/0", 400, "no file named");
    refused(
        &server,
        "/api/records/0/games.csv?game=0",
        404,
        "there is no game 0: the file holds 4 games",
    );
    refused(
        &server,
        "/api/records/0/games.csv?game=5",
        404,
        "records/games.csv: there is no game 5",
    );
    refused(&server, "/api/records/0/games.csv?game=x", 400, "game");
    refused(&server, "/api/records/0/games.csv?game=-1", 400, "game");
    refused(
        &server,
        "/api/records/0/games.csv?game=99999999999999999999999",
        400,
        "game",
    );
    refused(
        &server,
        "/api/records/0/notes.txt",
        400,
        "records/notes.txt: not a records file",
    );
    fs::create_dir_all(dir.path().join("records/d.csv")).unwrap();
    refused(&server, "/api/records/0/d.csv", 400, "not a records file");
    // A missing folder lists nothing and names no file.
    fs::remove_dir_all(dir.path().join("runs")).unwrap();
    let v = server.ok("GET", "/api/records", None);
    assert_eq!(v["folders"][1]["files"], serde_json::json!([]));
    refused(&server, "/api/records/1/m.sgf", 404, "no such file");
    let (status, _) = server.raw(
        "POST",
        "/api/records/0/games.csv",
        "application/json",
        b"{}",
    );
    assert_eq!(status, 405);
    server.stop();
}

#[test]
fn a_long_file_lists_its_first_games_and_serves_every_one() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("records")).unwrap();
    let n = mnk_serve::replay::MAX_LISTED_GAMES + 1;
    let one = "# game=tictactoe\n0\n1,1\n2,-1\n";
    fs::write(dir.path().join("records/long.csv"), one.repeat(n)).unwrap();
    let server = Server::start(dir.path());
    let list = server.ok("GET", "/api/records/0/long.csv", None);
    assert_eq!(list["count"], n);
    assert_eq!(list["games"].as_array().unwrap().len(), n - 1);
    assert_eq!(list["truncated"], true);
    let last = server.ok("GET", &format!("/api/records/0/long.csv?game={n}"), None);
    assert_eq!(last["number"], n);
    assert_eq!(last["moves"][0]["cell"], "b2");
    server.stop();
}
