//! `mnk serve` under attack, against a real server as a client would
//! attack it: links out of the served folders, content of files that do
//! not parse, forged Host and Origin, cross-site POSTs, guessed game ids,
//! slow and oversized requests, a FIFO where a lock should be, a flood of
//! game creations against the table budget, and folders that do not
//! exist. Each test prints what it tried and how the server answered (the
//! figures of issue 28: `cargo test --release --test it -- serve_security
//! --nocapture`).

use crate::serve::{send, Server};
use mnk_serve::{Bounds, Limits};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

/// Counts answers by class (`2xx`, `4xx`, `5xx`) for the report.
#[derive(Default)]
struct Tally(BTreeMap<String, [u32; 4]>);

impl Tally {
    fn add(&mut self, class: &str, status: u16) {
        let e = self.0.entry(class.to_string()).or_default();
        e[0] += 1;
        match status {
            200..=299 => e[1] += 1,
            400..=499 => e[2] += 1,
            _ => e[3] += 1,
        }
    }

    fn print(&self, what: &str) {
        for (class, [n, ok, c4, c5]) in &self.0 {
            eprintln!("{what}: {class}: {n} requests, {ok} 2xx, {c4} 4xx, {c5} 5xx");
        }
    }
}

#[cfg(unix)]
#[test]
fn links_out_of_the_folders_and_unparsed_files_never_leak() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let secret = d.join("secret.env");
    std::fs::write(&secret, "API_KEY=hunter2\n").unwrap();
    std::fs::create_dir_all(d.join("weights")).unwrap();
    std::fs::create_dir_all(d.join("runs/linked/weights")).unwrap();
    std::fs::create_dir_all(d.join("runs/broken")).unwrap();
    symlink(&secret, d.join("weights/env.toml")).unwrap();
    symlink(&secret, d.join("runs/linked/run.toml")).unwrap();
    symlink(&secret, d.join("runs/linked/weights/best.toml")).unwrap();
    symlink(d, d.join("runs/up")).unwrap();
    // Inside the folders, but not what they should be.
    std::fs::write(d.join("weights/broken.toml"), "API_KEY=\"hunter2\" [").unwrap();
    std::fs::write(d.join("runs/broken/run.toml"), "API_KEY = hunter2\n").unwrap();
    let server = Server::start(d);
    let root = d.canonicalize().unwrap().display().to_string();
    let mut tally = Tally::default();
    let mut check = |class: &str, (status, v): (u16, Value)| {
        let text = v.to_string();
        assert!(!text.contains("hunter2"), "{class}: leaks {text}");
        assert!(
            !text.contains(&root),
            "{class}: names the server's path: {text}"
        );
        tally.add(class, status);
        (status, v)
    };
    let (_, w) = check("weights", server.json("GET", "/api/weights", None));
    let listed: Vec<&str> = w["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    // Links out are listed as refused, unread.
    for p in ["weights/env.toml", "runs/linked/weights/best.toml"] {
        assert!(listed.contains(&p), "{w}");
    }
    for f in w["weights"].as_array().unwrap() {
        if f["path"] != "weights/broken.toml" {
            assert_eq!(f["game"], Value::Null, "{f}");
            assert!(
                f["error"].as_str().unwrap().contains("leads outside"),
                "{f}"
            );
        }
    }
    let broken = w["weights"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "weights/broken.toml")
        .unwrap_or_else(|| panic!("{w}"));
    let why = broken["error"].as_str().unwrap();
    assert!(
        why.contains("broken.toml") && why.contains("line 1"),
        "{why}"
    );

    let (_, runs) = check("runs", server.json("GET", "/api/runs", None));
    for name in ["linked", "broken"] {
        let run = runs["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name}: {runs}"));
        assert_eq!(run["state"], "damaged", "{run}");
        let (status, detail) = check(
            "runs",
            server.json("GET", &format!("/api/runs/{name}"), None),
        );
        assert_eq!(status, 200, "{detail}");
        assert_eq!(detail["state"], "damaged", "{detail}");
    }
    let linked = &runs["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "linked")
        .unwrap()["error"];
    assert!(linked.as_str().unwrap().contains("outside"), "{linked}");
    let (status, _) = check("runs", server.json("GET", "/api/runs/up", None));
    assert_eq!(status, 403);
    for spec in [
        "greedy:weights=weights/env.toml",
        "greedy:weights=env.toml",
        "greedy:weights=runs/linked/weights/best.toml",
        "greedy:weights=weights/broken.toml",
    ] {
        let (status, e) = check(
            "opponents",
            server.json(
                "POST",
                "/api/games",
                Some(json!({"game": "gomoku", "you": "black", "opponent": spec})),
            ),
        );
        assert_eq!(status, 400, "{spec}: {e}");
    }
    tally.print("leaks");
    server.stop();
}

#[test]
fn other_sites_cannot_drive_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let addr = server.addr;
    let g = server.ok(
        "POST",
        "/api/games",
        Some(json!({"game": "tictactoe", "you": "white", "opponent": "greedy"})),
    );
    let id = g["id"].as_str().unwrap().to_string();
    let mut tally = Tally::default();
    let json_post = |host: &str, extra: &str, path: &str| {
        send(
            addr,
            &format!(
                "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json{extra}"
            ),
            b"",
        )
    };
    let port = addr.port();
    // DNS rebinding: a name that is not this server's, on any route.
    for host in [
        "evil.example.com".to_string(),
        format!("evil.example.com:{port}"),
        format!("localhost.evil.example.com:{port}"),
        format!("10.1.2.3:{port}"),
        String::new(),
    ] {
        for target in [
            "/",
            "/api/weights",
            &format!("/api/games/{id}"),
            "/api/runs",
        ] {
            let (status, body) = send(addr, &format!("GET {target} HTTP/1.1\r\nHost: {host}"), b"");
            assert!(
                status == 403 || (host.is_empty() && status == 400),
                "{host} {target}: {status} {body}"
            );
            tally.add("foreign Host", status);
        }
        let (status, _) = json_post(&host, "", &format!("/api/games/{id}/resign"));
        assert!(status == 403 || status == 400, "{host}: {status}");
        tally.add("foreign Host", status);
    }
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        "localhost".into(),
        format!("[::1]:{port}"),
    ] {
        let (status, body) = send(
            addr,
            &format!("GET /api/games/{id} HTTP/1.1\r\nHost: {host}"),
            b"",
        );
        assert_eq!(status, 200, "{host}: {body}");
        tally.add("own Host", status);
    }
    // Another site's page: its Origin on anything that changes a game.
    let here = format!("127.0.0.1:{port}");
    for origin in [
        "http://evil.example.com",
        "null",
        "http://localhost.evil.example.com",
        "https://evil.example.com:8080",
    ] {
        for action in ["undo", "hint", "resign", "move"] {
            let (status, body) = json_post(
                &here,
                &format!("\r\nOrigin: {origin}"),
                &format!("/api/games/{id}/{action}"),
            );
            assert_eq!(status, 403, "{origin} {action}: {body}");
            tally.add("foreign Origin", status);
        }
        let (status, _) = send(
            addr,
            &format!("DELETE /api/games/{id} HTTP/1.1\r\nHost: {here}\r\nOrigin: {origin}"),
            b"",
        );
        assert_eq!(status, 403);
        tally.add("foreign Origin", status);
    }
    // A plain form of another site: no JSON content type, no custom header.
    for content_type in [
        "",
        "\r\nContent-Type: text/plain",
        "\r\nContent-Type: application/x-www-form-urlencoded",
        "\r\nContent-Type: multipart/form-data; boundary=x",
    ] {
        for action in ["undo", "hint", "resign"] {
            let (status, body) = send(
                addr,
                &format!("POST /api/games/{id}/{action} HTTP/1.1\r\nHost: {here}{content_type}"),
                b"",
            );
            assert_eq!(status, 415, "{content_type:?} {action}: {body}");
            tally.add("POST without JSON", status);
        }
    }
    // The page's own requests: same Origin, or a script's header.
    let (status, body) = json_post(
        &here,
        &format!("\r\nOrigin: http://{here}"),
        &format!("/api/games/{id}/hint"),
    );
    assert_eq!(status, 200, "{body}");
    tally.add("own Origin", status);
    let (status, body) = send(
        addr,
        &format!("POST /api/games/{id}/hint HTTP/1.1\r\nHost: {here}\r\nX-Requested-With: mnk"),
        b"",
    );
    assert_eq!(status, 200, "{body}");
    tally.add("own Origin", status);
    // Game ids are 128 random bits: none follows from another.
    let ids: Vec<String> = (0..8)
        .map(|_| {
            server.ok(
                "POST",
                "/api/games",
                Some(json!({"game": "tictactoe", "you": "black", "opponent": "greedy"})),
            )["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    for i in &ids {
        assert!(
            i.len() == 32 && i.bytes().all(|b| b.is_ascii_hexdigit()),
            "{i}"
        );
    }
    let distinct: std::collections::BTreeSet<_> = ids.iter().collect();
    assert_eq!(distinct.len(), ids.len());
    for guess in ["1", "2", "00000000000000000000000000000001"] {
        let (status, _) = server.json("GET", &format!("/api/games/{guess}"), None);
        assert_eq!(status, 404);
        tally.add("guessed id", status);
    }
    tally.print("cross-site");
    server.stop();
}

/// Opens a connection and sends `bytes`, then keeps it open.
fn hold(addr: SocketAddr, bytes: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(bytes.as_bytes()).unwrap();
    s
}

/// Whether the server closed `s` (it reads the end of the stream or an
/// error; whatever the server answered first is skipped).
fn closed(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn slow_and_oversized_requests_are_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let bounds = Bounds {
        connections: 8,
        header_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        ..Bounds::default()
    };
    let server = Server::start_bounded(dir.path(), Limits::default(), bounds);
    let addr = server.addr;
    let host = format!("Host: {addr}");
    // A declared body over the limit: 413 at once, nothing read.
    let start = Instant::now();
    let mut big = hold(addr, &format!("POST /api/games HTTP/1.1\r\n{host}\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{{"));
    let mut answer = String::new();
    big.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = big.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );

    // 24 half-sent heads and 8 half-sent bodies, against a cap of 8
    // connections: each is closed by the timeout, the queued ones in turn.
    let start = Instant::now();
    let mut slow: Vec<TcpStream> = (0..24)
        .map(|_| hold(addr, &format!("GET /api/runs HTTP/1.1\r\n{host}\r\nX-Slow")))
        .collect();
    slow.extend((0..8).map(|_| {
        hold(
            addr,
            &format!("POST /api/games HTTP/1.1\r\n{host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"game\""),
        )
    }));
    let n = slow.len();
    let cut = slow
        .iter_mut()
        .map(|s| closed(s, Duration::from_secs(8)))
        .filter(|&c| c)
        .count();
    let took = start.elapsed();
    eprintln!("timeouts: {n} slow connections (cap 8, 1 s timeouts): {cut} closed by the server in {took:?}");
    assert_eq!(cut, n);
    assert!(took < Duration::from_secs(12), "{took:?}");
    // And the server still answers.
    server.ok("GET", "/api/weights", None);
    server.stop();
}

#[cfg(unix)]
#[test]
fn a_fifo_in_a_run_folder_never_hangs_the_runs() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    for name in ["lock", "config"] {
        std::fs::create_dir_all(runs.join(name)).unwrap();
    }
    let fifo = |p: &Path| {
        let ok = std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .unwrap();
        assert!(ok.success());
    };
    std::fs::write(runs.join("lock/run.toml"), "not a run").unwrap();
    fifo(&runs.join("lock/.lock"));
    fifo(&runs.join("config/run.toml"));
    let server = Server::start(dir.path());
    let start = Instant::now();
    let mut tally = Tally::default();
    for _ in 0..20 {
        let (status, list) = server.json("GET", "/api/runs", None);
        assert_eq!(status, 200, "{list}");
        tally.add("runs with FIFOs", status);
        let config = list["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == "config")
            .unwrap();
        assert!(
            config["error"]
                .as_str()
                .unwrap()
                .contains("not a regular file"),
            "{config}"
        );
        for name in ["lock", "config"] {
            let (status, _) = server.json("GET", &format!("/api/runs/{name}"), None);
            tally.add("runs with FIFOs", status);
        }
    }
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    tally.print("fifo");
    server.stop();
}

/// `mnk serve` as a process of its own (its memory is its own), on a free
/// port; killed when dropped.
struct Process {
    child: std::process::Child,
    addr: SocketAddr,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Process {
    fn start(dir: &Path, extra: &[&str]) -> Process {
        use std::io::BufRead;
        let mut child = crate::common::mnk()
            .current_dir(dir)
            .args(["serve", "--port", "0", "--no-records"])
            .args(extra)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap();
        Process { child, addr }
    }

    /// A line of `/proc/PID/status` in KiB (`VmHWM`: the high-water mark
    /// of its resident memory).
    fn status_kib(&self, key: &str) -> u64 {
        let text = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = text.lines().find(|l| l.starts_with(key)).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_table_budget_holds_under_a_creation_flood() {
    use mnk::players::table_bytes;
    let dir = tempfile::tempdir().unwrap();
    // Room for three games of 2^21-entry tables (two each): 288 MiB with
    // 24-byte entries.
    let per_game = (2 * table_bytes(21)) as u64;
    let budget_mib = (3 * per_game) >> 20;
    let server = Process::start(dir.path(), &["--table-memory", &budget_mib.to_string()]);
    let before = server.status_kib("VmRSS:");
    let clients = 16;
    let mut tally = Tally::default();
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..clients)
            .map(|_| {
                let addr = server.addr;
                s.spawn(move || {
                    let body = json!({"game": "gomoku", "you": "black", "opponent": "search:depth=1,tt=21"}).to_string();
                    (0..3)
                        .map(|_| {
                            send(
                                addr,
                                &format!("POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json"),
                                body.as_bytes(),
                            )
                            .0
                        })
                        .collect::<Vec<u16>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    for &s in &statuses {
        assert!(s == 201 || s == 503, "{s}");
        tally.add("tt=21 creations from 16 clients", s);
    }
    assert!(statuses.contains(&201));
    let peak = server.status_kib("VmHWM:");
    let margin = 64 << 10;
    eprintln!(
        "flood: {} creations from {clients} clients, budget {budget_mib} MiB: RSS {} MiB before, high-water {} MiB (bound {} MiB)",
        statuses.len(),
        before >> 10,
        peak >> 10,
        (before + (budget_mib << 10) + margin) >> 10
    );
    tally.print("flood");
    assert!(peak <= before + (budget_mib << 10) + margin, "{peak} KiB");
}

#[test]
fn folders_that_do_not_exist_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for flag in ["--runs-dir", "--replay-dir", "--weights-dir"] {
        let out = crate::common::mnk()
            .current_dir(dir.path())
            .args(["serve", "--port", "0", "--no-records", flag, "/nope/mnk"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flag}: {err}");
        assert!(
            err.contains(flag) && err.contains("/nope/mnk"),
            "{flag}: {err}"
        );
    }
}
