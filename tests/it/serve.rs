//! `mnk serve`'s HTTP API, in process: the server runs on a tokio runtime
//! of the test, bound to a free port of 127.0.0.1, and a tiny blocking
//! HTTP/1.1 client talks to it over real sockets.

use mnk::game::{Outcome, Rules};
use mnk::records::read_records;
use mnk_serve::{start, Bounds, Limits, Options, Running};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;

/// A server on a free port, saving games to `dir/records/games.csv`.
pub(crate) struct Server {
    runtime: tokio::runtime::Runtime,
    running: Option<Running>,
    pub(crate) addr: SocketAddr,
}

/// Sends `head` (the request line and headers, without the blank line)
/// and `body` over a fresh connection; returns the status and the body.
/// The serve tests' one raw HTTP/1.1 client.
pub(crate) fn send(addr: std::net::SocketAddr, head: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    let head = format!(
        "{head}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // A server may answer (413) before reading a large body.
    let _ = s.write_all(body);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

impl Server {
    pub(crate) fn start(dir: &Path) -> Server {
        Server::start_with(dir, Limits::default())
    }

    /// [`Server::start`] with other limits.
    pub(crate) fn start_with(dir: &Path, limits: Limits) -> Server {
        Server::start_bounded(dir, limits, Bounds::default())
    }

    /// [`Server::start`] with other limits and connection bounds.
    pub(crate) fn start_bounded(dir: &Path, limits: Limits, bounds: Bounds) -> Server {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let options = Options {
            addr: "127.0.0.1:0".parse().unwrap(),
            allowed_hosts: Vec::new(),
            runs_dir: dir.join("runs"),
            records: Some(dir.join("records/games.csv")),
            weights_dir: dir.join("weights"),
            replay_dirs: vec![dir.join("records"), dir.join("runs")],
            limits,
            bounds,
        };
        let running = runtime.block_on(start(options)).unwrap();
        let addr = running.addr();
        assert!(addr.ip().is_loopback() && addr.port() != 0);
        Server {
            runtime,
            running: Some(running),
            addr,
        }
    }

    /// Stops the server; games in progress are saved.
    pub(crate) fn stop(mut self) {
        if let Some(r) = self.running.take() {
            self.runtime.block_on(r.shutdown()).unwrap();
        }
    }

    /// Sends a raw request target (not normalised) and returns the status
    /// and body.
    pub(crate) fn raw(
        &self,
        method: &str,
        target: &str,
        content_type: &str,
        body: &[u8],
    ) -> (u16, String) {
        let head = format!(
            "{method} {target} HTTP/1.1\r\nHost: {}\r\nContent-Type: {content_type}",
            self.addr
        );
        send(self.addr, &head, body)
    }

    /// A JSON request; returns the status and the parsed body (`null` when
    /// empty).
    pub(crate) fn json(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let bytes = body.map(|b| b.to_string()).unwrap_or_default();
        let (status, text) = self.raw(method, path, "application/json", bytes.as_bytes());
        let value = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text:?}"))
        };
        (status, value)
    }

    pub(crate) fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, v) = self.json(method, path, body);
        assert!(
            (200..300).contains(&status),
            "{method} {path}: {status} {v}"
        );
        v
    }
}

/// Plays a whole tic-tac-toe game against `perfect`, each of our moves the
/// hint (the perfect player's own choice), and returns the final state.
fn play_perfect_game(server: &Server, you: &str) -> Value {
    let g = server.ok(
        "POST",
        "/api/games",
        Some(json!({"game": "tictactoe", "you": you, "opponent": "perfect"})),
    );
    let id = g["id"].as_str().unwrap().to_string();
    let mut state = g;
    while state["turn"] == "you" {
        let hinted = server.ok("POST", &format!("/api/games/{id}/hint"), None);
        let cell = hinted["hint"].as_str().unwrap().to_string();
        state = server.ok(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "cell": cell })),
        );
    }
    assert_eq!(state["turn"], "over", "{state}");
    state
}

#[test]
fn a_perfect_game_is_a_draw_and_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let state = play_perfect_game(&server, "black");
    assert_eq!(state["result"], "draw", "{state}");
    assert_eq!(state["moves"].as_array().unwrap().len(), 9);
    assert_eq!(state["winning_line"], json!([]));
    assert!(
        state["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m.as_str().unwrap().starts_with("Saved the game")),
        "{state}"
    );
    let games = read_records(dir.path().join("records/games.csv"), Rules::TICTACTOE).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].plies(), 9);
    assert_eq!(games[0].result, Some(Outcome::Draw));

    // As white the AI opens, in the centre.
    let id = {
        let g = server.ok(
            "POST",
            "/api/games",
            Some(json!({"game": "tictactoe", "you": "white", "opponent": "perfect"})),
        );
        assert_eq!(g["moves"][0]["cell"], "b2", "{g}");
        assert_eq!(g["turn"], "you");
        g["id"].as_str().unwrap().to_string()
    };
    // Undo takes back our move and the answer; resign ends the game.
    let after = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"cell": "a1"})),
    );
    assert_eq!(after["moves"].as_array().unwrap().len(), 3);
    let undone = server.ok("POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(undone["moves"].as_array().unwrap().len(), 1);
    let resigned = server.ok("POST", &format!("/api/games/{id}/resign"), None);
    assert_eq!(resigned["result"], "black");
    assert_eq!(resigned["turn"], "over");
    let games = read_records(dir.path().join("records/games.csv"), Rules::TICTACTOE).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].result, Some(Outcome::Win(mnk::game::Color::Black)));
    server.stop();
}

#[test]
fn a_won_game_shows_its_line_and_an_abandoned_one_is_saved_at_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    // A 4x4 board, three in a row, against greedy, our moves its hints.
    let g = server.ok(
        "POST",
        "/api/games",
        Some(json!({"game": "4x4x3", "you": "black", "opponent": "greedy"})),
    );
    let id = g["id"].as_str().unwrap().to_string();
    let mut state = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"cell": "b2"})),
    );
    assert_eq!(state["last_move"], state["moves"][1]["cell"]);
    assert_eq!(state["to_move"], "black");
    // Play the hints of greedy until the game ends either way.
    while state["turn"] == "you" {
        let h = server.ok("POST", &format!("/api/games/{id}/hint"), None);
        state = server.ok(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({"cell": h["hint"]})),
        );
    }
    if state["result"] != "draw" {
        let line = state["winning_line"].as_array().unwrap();
        assert!(line.len() >= 3, "{state}");
        assert!(line.contains(&state["last_move"]), "{state}");
    }
    // An abandoned game: one move, then the server stops.
    let g = server.ok(
        "POST",
        "/api/games",
        Some(json!({"game": "gomoku", "you": "black", "opponent": "easy"})),
    );
    let id = g["id"].as_str().unwrap().to_string();
    server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"cell": "h8"})),
    );
    server.stop();
    let games = read_records(dir.path().join("records/games.csv"), Rules::GOMOKU).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].plies(), 2);
    assert_eq!(games[1].result, None);
}

#[test]
fn bad_input_gets_a_4xx_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let new = |body: Value| server.json("POST", "/api/games", Some(body));
    let refused = |(status, v): (u16, Value), want: u16, words: &str| {
        assert_eq!(status, want, "{v}");
        let e = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {v}"));
        assert!(e.contains(words), "{e:?} lacks {words:?}");
    };
    let game = |g: &str, you: &str, opp: &str| json!({"game": g, "you": you, "opponent": opp});
    refused(new(game("27x27x5", "black", "easy")), 400, "27");
    refused(new(game("2x2x2", "black", "easy")), 400, "out of range");
    refused(new(game("chess", "black", "easy")), 400, "chess");
    refused(new(game("tictactoe", "red", "easy")), 400, "red");
    refused(
        new(game("tictactoe", "black", "wizard")),
        400,
        "unknown player",
    );
    refused(new(game("gomoku", "black", "perfect")), 400, "cannot solve");
    refused(
        new(game("gomoku", "black", "exact:limit=200")),
        400,
        "at most",
    );
    refused(new(game("gomoku", "black", "search:tt=26")), 400, "tt=26");
    // No request may hold a thinker for long.
    refused(
        new(game("gomoku", "black", "search:time=60000")),
        400,
        "a move may take at most 10000 ms here",
    );
    refused(
        new(game("gomoku", "black", "search:nodes=999999999")),
        400,
        "a move may search at most 20000000 nodes here",
    );
    refused(
        new(game("gomoku", "black", "greedy:weights=/etc/passwd")),
        400,
        "absolute",
    );
    refused(
        new(game("gomoku", "black", "greedy:weights=../Cargo.toml")),
        400,
        "..",
    );
    refused(new(json!({"game": "tictactoe"})), 422, "missing field");
    refused(
        new(json!({"game": "tictactoe", "you": "black", "opponent": "easy", "x": 1})),
        422,
        "unknown field",
    );
    let (status, _) = server.raw("POST", "/api/games", "application/json", b"{not json");
    assert_eq!(status, 400);
    let (status, _) = server.raw("POST", "/api/games", "text/plain", b"{}");
    assert_eq!(status, 415);
    let huge = format!(
        r#"{{"game": "tictactoe", "you": "black", "opponent": "{}"}}"#,
        "e".repeat(100_000)
    );
    let (status, _) = server.raw("POST", "/api/games", "application/json", huge.as_bytes());
    assert_eq!(status, 413);

    let unknown = "0123456789abcdef0123456789abcdef";
    refused(
        server.json("GET", &format!("/api/games/{unknown}"), None),
        404,
        &format!("no game {unknown}"),
    );
    refused(
        server.json("GET", "/api/games/99", None),
        404,
        "32 hex digits",
    );
    refused(
        server.json("GET", "/api/games/x", None),
        404,
        "no such page",
    );
    refused(
        server.json("GET", "/api/nothing", None),
        404,
        "no such page",
    );

    let g = server.ok(
        "POST",
        "/api/games",
        Some(game("tictactoe", "black", "perfect")),
    );
    let id = g["id"].as_str().unwrap().to_string();
    let mv = |cell: &str| {
        server.json(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "cell": cell })),
        )
    };
    refused(
        server.json("POST", &format!("/api/games/{id}/undo"), None),
        409,
        "no move of yours",
    );
    refused(mv("d1"), 400, "off the board");
    refused(mv("zz"), 400, "not a cell");
    refused(mv("save /tmp/x.csv"), 400, "not a cell");
    refused(mv("undo"), 400, "not a cell");
    let (status, v) = mv("b2");
    assert_eq!(status, 200, "{v}");
    refused(mv("b2"), 400, "occupied");
    let ai = v["moves"][1]["cell"].as_str().unwrap().to_string();
    refused(mv(&ai), 400, "occupied");
    server.ok("POST", &format!("/api/games/{id}/resign"), None);
    refused(mv("c3"), 409, "over");
    refused(
        server.json("POST", &format!("/api/games/{id}/hint"), None),
        409,
        "over",
    );
    let (status, _) = server.json("DELETE", &format!("/api/games/{id}"), None);
    assert_eq!(status, 204);
    refused(
        server.json("GET", &format!("/api/games/{id}"), None),
        404,
        "no game",
    );
    server.stop();
}

#[test]
fn the_page_is_embedded_and_traversal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let (status, page) = server.raw("GET", "/", "text/plain", b"");
    assert_eq!(status, 200);
    for name in ["common.js", "play.js", "training.js", "replay.js"] {
        assert!(page.contains(&format!("/assets/{name}")), "{page}");
    }
    for name in ["common.js", "style.css", "play.js", "play.css"] {
        let (status, _) = server.raw("GET", &format!("/assets/{name}"), "text/plain", b"");
        assert_eq!(status, 200, "{name}");
    }
    assert_eq!(server.raw("GET", "/assets/nothing.js", "", b"").0, 404);
    for target in [
        "/assets/../Cargo.toml",
        "/assets/../../../../etc/passwd",
        "/assets/%2e%2e/Cargo.toml",
        "/assets/%2E%2E%2FCargo.toml",
        "/assets/..%2f..%2fetc/passwd",
        "/assets/%252e%252e/Cargo.toml",
        "/assets//etc/passwd",
        "/assets/%2fetc/passwd",
        "/assets/..%5c..%5cCargo.toml",
        "/assets/./play.js",
        "/assets/play.js%00",
        "/assets/%zz",
    ] {
        let (status, body) = server.raw("GET", target, "", b"");
        assert!(
            (400..500).contains(&status) && status != 404,
            "{target}: {status} {body}"
        );
    }
    server.stop();
}

#[test]
fn concurrent_clients_play_their_own_games() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let results: Vec<Value> = std::thread::scope(|s| {
        let handles: Vec<_> = ["black", "white", "black", "white"]
            .into_iter()
            .map(|you| {
                let server = &server;
                s.spawn(move || play_perfect_game(server, you))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for r in &results {
        assert_eq!(r["result"], "draw", "{r}");
    }
    let ids: std::collections::BTreeSet<&str> =
        results.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 4);
    let games = read_records(dir.path().join("records/games.csv"), Rules::TICTACTOE).unwrap();
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|g| g.plies() == 9));
    server.stop();
}

/// Polls the game until it is the person's turn again.
fn until_your_turn(server: &Server, id: &str, within: std::time::Duration) -> Value {
    let start = std::time::Instant::now();
    loop {
        let (status, g) = server.json("GET", &format!("/api/games/{id}"), None);
        if status == 200 && g["turn"] == "you" {
            return g;
        }
        assert!(
            start.elapsed() < within,
            "still {status} {g} after {within:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A server with one thinker (so a think left running would hold up every
/// game) and a gomoku game against a search that runs into the 20M-node
/// cap, about 20 s a move here, unless it is stopped.
fn slow_game(dir: &Path, you: &str) -> (Server, String) {
    let limits = Limits {
        thinkers: 1,
        ..Limits::default()
    };
    let server = Server::start_with(dir, limits);
    let g = server.ok(
        "POST",
        "/api/games",
        Some(json!({"game": "gomoku", "you": you, "opponent": "search:depth=12,width=20"})),
    );
    let id = g["id"].as_str().unwrap().to_string();
    (server, id)
}

/// Sends a POST and returns its connection 300 ms later, unanswered: the
/// client goes away when the caller drops it.
fn leave_after_300_ms(server: &Server, path: &str, body: &str) -> TcpStream {
    let mut s = TcpStream::connect(server.addr).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        server.addr,
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    s
}

#[test]
fn a_client_that_goes_away_stops_the_ai_think() {
    let dir = tempfile::tempdir().unwrap();
    let (server, id) = slow_game(dir.path(), "black");
    let s = leave_after_300_ms(
        &server,
        &format!("/api/games/{id}/move"),
        r#"{"cell":"h8"}"#,
    );
    // While it thinks, the game can be read (and is the AI's turn).
    let (status, during) = server.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(
        (status, during["turn"].as_str()),
        (200, Some("ai")),
        "{during}"
    );
    drop(s);
    let after = until_your_turn(&server, &id, std::time::Duration::from_secs(5));
    // The AI played the best move it had found: the game goes on.
    assert_eq!(after["moves"].as_array().unwrap().len(), 2, "{after}");
    let ai = &after["ai"];
    assert!(ai["nodes"].as_u64().unwrap() < 20_000_000, "{ai}");
    assert!(ai["ms"].as_u64().unwrap() < 5_000, "{ai}");
    // And the one thinker is free: another game's move is answered.
    let other = server.ok(
        "POST",
        "/api/games",
        Some(json!({"game": "tictactoe", "you": "black", "opponent": "greedy"})),
    );
    let other_id = other["id"].as_str().unwrap().to_string();
    let start = std::time::Instant::now();
    let next = server.ok(
        "POST",
        &format!("/api/games/{other_id}/move"),
        Some(json!({"cell": "a1"})),
    );
    assert_eq!(next["moves"].as_array().unwrap().len(), 2, "{next}");
    assert!(start.elapsed() < std::time::Duration::from_secs(3));
    // The stopped game is ended without waiting for a think.
    server.ok("DELETE", &format!("/api/games/{id}"), None);
    server.stop();
}

#[test]
fn the_value_map_and_the_ai_search_are_the_librarys() {
    use mnk::game::Board;
    use mnk::play::ValueMap;
    use mnk::players::PlayerSpec;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let g = server.ok(
        "POST",
        "/api/games",
        Some(json!({"game": "gomoku", "you": "black", "opponent": "search:depth=3"})),
    );
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["ai"], Value::Null);
    let g = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"cell": "h8"})),
    );
    let ai = &g["ai"];
    assert_eq!(ai["cell"], g["last_move"], "{g}");
    assert!(
        ai["depth"].as_u64().unwrap() >= 1 && ai["nodes"].as_u64().unwrap() > 1,
        "{ai}"
    );
    assert!(ai["eval"].is_string(), "{ai}");

    let v = server.ok("GET", &format!("/api/games/{id}/values"), None);
    let mut board = Board::new(Rules::GOMOKU);
    for m in g["moves"].as_array().unwrap() {
        board
            .play(m["cell"].as_str().unwrap().parse().unwrap())
            .unwrap();
    }
    let map = ValueMap::new(&board, PlayerSpec::greedy().shipped_weights(Rules::GOMOKU));
    assert_eq!(v["mover"], "black");
    assert_eq!(v["weights"], "shipped");
    let best: Vec<String> = map.best.iter().map(|m| m.to_string()).collect();
    assert_eq!(v["best"], json!(best));
    assert_eq!(v["scores"][7][7], Value::Null, "a stone has no score");
    assert_eq!(v["scores"][0][0], json!(map.scores[0]));
    assert_eq!(v["vcf"].as_array().unwrap().len(), 2);
    // Undoing the move hides the search of a move no longer on the board.
    let undone = server.ok("POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(undone["ai"], Value::Null, "{undone}");
    let (status, e) = server.json(
        "GET",
        &format!("/api/games/{}/values", "9".repeat(32)),
        None,
    );
    assert_eq!(status, 404, "{e}");
    server.stop();
}

#[test]
fn the_weights_files_are_listed_by_game_and_usable() {
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("weights");
    std::fs::create_dir_all(&weights).unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights");
    for f in ["tictactoe.toml", "gomoku.toml"] {
        std::fs::copy(shipped.join(f), weights.join(f)).unwrap();
    }
    std::fs::write(weights.join("broken.toml"), "not = [weights").unwrap();
    std::fs::write(weights.join("notes.txt"), "not weights").unwrap();
    let run = dir.path().join("runs/r1/weights");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::copy(shipped.join("tictactoe.toml"), run.join("best.toml")).unwrap();
    let server = Server::start(dir.path());

    let all = server.ok("GET", "/api/weights", None);
    let paths: Vec<String> = all["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(paths.len(), 4, "{all}");
    assert!(paths[0].ends_with("weights/broken.toml"), "{paths:?}");
    assert!(paths[3].ends_with("runs/r1/weights/best.toml"), "{paths:?}");
    let broken = &all["weights"][0];
    assert_eq!(broken["game"], Value::Null);
    assert!(
        broken["error"].as_str().unwrap().contains("broken.toml"),
        "{broken}"
    );

    let ttt = server.ok("GET", "/api/weights?game=tictactoe", None);
    let ttt = ttt["weights"].as_array().unwrap();
    assert_eq!(ttt.len(), 2, "{ttt:?}");
    assert!(ttt.iter().all(|w| w["game"] == "tictactoe"));
    let (status, e) = server.json("GET", "/api/weights?game=chess", None);
    assert_eq!(status, 400, "{e}");
    let (status, e) = server.json("GET", "/api/weights?colour=red", None);
    assert_eq!(status, 400, "{e}");

    // A listed run's weights play, and the value map uses them.
    let path = ttt[1]["path"].as_str().unwrap();
    let g = server.ok(
        "POST",
        "/api/games",
        Some(json!({"game": "tictactoe", "you": "black", "opponent": format!("greedy:weights={path}")})),
    );
    let id = g["id"].as_str().unwrap().to_string();
    let v = server.ok("GET", &format!("/api/games/{id}/values"), None);
    assert!(
        v["weights"]
            .as_str()
            .unwrap()
            .ends_with("runs/r1/weights/best.toml"),
        "{v}"
    );
    server.stop();
}

#[test]
fn a_client_that_goes_away_stops_a_hint_and_the_game_stays() {
    let dir = tempfile::tempdir().unwrap();
    // The hint asks the opponent's player. (The AI opens at the centre
    // without searching.)
    let (server, id) = slow_game(dir.path(), "white");
    let s = leave_after_300_ms(&server, &format!("/api/games/{id}/hint"), "");
    let (status, busy) = server.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 409, "the game is out for the hint: {busy}");
    drop(s);
    // The game comes back, and the one thinker is free for a real hint.
    let back = until_your_turn(&server, &id, std::time::Duration::from_secs(5));
    assert_eq!(back["moves"].as_array().unwrap().len(), 1, "{back}");
    assert!(
        back["hint"].is_string(),
        "the best hint found so far: {back}"
    );
    let start = std::time::Instant::now();
    let other = server.ok(
        "POST",
        "/api/games",
        Some(json!({"game": "tictactoe", "you": "black", "opponent": "greedy"})),
    );
    let other_id = other["id"].as_str().unwrap().to_string();
    let hinted = server.ok("POST", &format!("/api/games/{other_id}/hint"), None);
    assert!(hinted["hint"].is_string(), "{hinted}");
    assert!(start.elapsed() < std::time::Duration::from_secs(3));
    server.stop();
}

#[test]
fn search_tables_are_kept_within_the_memory_budget() {
    use mnk::players::table_bytes;
    let dir = tempfile::tempdir().unwrap();
    // Room for three games whose search opponent has 2^18-entry tables
    // (its own and its hint player's).
    let limits = Limits {
        table_memory: 3 * 2 * table_bytes(18),
        ..Limits::default()
    };
    let server = Server::start_with(dir.path(), limits);
    let new = |tt: u32| {
        server.json(
            "POST",
            "/api/games",
            Some(json!({"game": "gomoku", "you": "black", "opponent": format!("search:depth=2,tt={tt}")})),
        )
    };
    let mut ids = Vec::new();
    for _ in 0..4 {
        let (status, g) = new(18);
        assert_eq!(status, 201, "{g}");
        ids.push(g["id"].as_str().unwrap().to_string());
    }
    // The fourth ended the oldest, as the games' count limit does.
    let (status, _) = server.json("GET", &format!("/api/games/{}", ids[0]), None);
    assert_eq!(status, 404);
    for id in &ids[1..] {
        server.ok("GET", &format!("/api/games/{id}"), None);
    }
    // A game greedy for tables ends no other: it is refused.
    let (status, e) = new(22);
    assert_eq!(status, 400, "{e}");
    let why = e["error"].as_str().unwrap();
    let need = format!("need {} MiB", (2 * table_bytes(22)) >> 20);
    let budget = format!("hold {} MiB", limits.table_memory >> 20);
    assert!(why.contains(&need) && why.contains(&budget), "{why}");
    for id in &ids[1..] {
        server.ok("GET", &format!("/api/games/{id}"), None);
    }
    // Tableless opponents hold nothing.
    for _ in 0..3 {
        let (status, g) = server.json(
            "POST",
            "/api/games",
            Some(json!({"game": "gomoku", "you": "black", "opponent": "greedy"})),
        );
        assert_eq!(status, 201, "{g}");
    }
    for id in &ids[1..] {
        server.ok("GET", &format!("/api/games/{id}"), None);
    }
    server.stop();
}
