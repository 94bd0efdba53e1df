//! `mnk serve`'s latencies, end to end over a real localhost socket:
//!
//! - `serve/state`: `GET /api/games/{id}`, the round trip with no work (the
//!   baseline of this run);
//! - `serve/greedy_move`: `POST /api/games/{id}/move` in gomoku against
//!   greedy, the person's move and the AI's answer (the issue's goal: under
//!   50 ms); each move is taken back, untimed, before the next;
//! - `serve/training_view`: what the Training view loads for a 2,000-round
//!   run: the page, its assets, `GET /api/runs` and `GET /api/runs/{name}`
//!   (goal: under a second), with the server's cache warm, and
//!   `serve/training_view_cold` from a fresh server. The run is trained
//!   once on 9×9 (about 30 s) by the mnk binary and kept in
//!   `target/bench-fixtures/`.
//!
//! Run: `cargo build --release && cargo bench -p mnk-benches --bench serve`
//! (a benchmark of another package cannot have Cargo build mnk's binary).

use criterion::{criterion_group, criterion_main, Criterion};
use mnk_serve::{start, Bounds, Limits, Options, Running};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// One HTTP/1.1 request on a fresh connection; returns the status and body.
fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_nodelay(true).ok();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("send");
    let mut out = Vec::new();
    s.read_to_end(&mut out).expect("receive");
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// A request that must succeed.
fn ok(addr: SocketAddr, method: &str, path: &str, body: &str) -> String {
    let (status, text) = request(addr, method, path, body);
    assert!(
        (200..300).contains(&status),
        "{method} {path}: {status} {text}"
    );
    text
}

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// The target folder's `release/`, where this benchmark runs from (in
/// `deps/`) and where `cargo build --release` puts the mnk binary.
fn release_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the benchmark's path");
    exe.parent().and_then(Path::parent).unwrap().to_path_buf()
}

/// The 2,000-round run the Training view loads, trained once.
fn run_fixture() -> PathBuf {
    let runs = release_dir().join("../bench-fixtures/runs");
    let run = runs.join("r2000");
    if run.join("weights/round-2000.toml").exists() {
        return runs;
    }
    let mnk = release_dir().join(format!("mnk{}", std::env::consts::EXE_SUFFIX));
    assert!(
        mnk.exists(),
        "{} is missing: this benchmark trains its fixture with it, so run `cargo build --release` first",
        mnk.display()
    );
    eprintln!("training the 2,000-round fixture run (about 30 s) …");
    let status = Command::new(mnk)
        .args([
            "train",
            "-g",
            "9x9x5",
            "--rounds",
            "2000",
            "-n",
            "2",
            "-c",
            "2",
            "--random-openings",
            "--check-every",
            "100",
            "--check-openings",
            "10",
            "--verdict-openings",
            "0",
            "--no-plots",
            "--force",
            "--name",
            "r2000",
            "--runs-dir",
        ])
        .arg(&runs)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("mnk train");
    assert!(status.success(), "training the fixture failed");
    runs
}

fn server(runtime: &tokio::runtime::Runtime, runs_dir: PathBuf) -> Running {
    let options = Options {
        addr: "127.0.0.1:0".parse().unwrap(),
        allowed_hosts: Vec::new(),
        replay_dirs: vec![runs_dir.clone()],
        runs_dir,
        records: None,
        weights_dir: root().join("weights"),
        limits: Limits::default(),
        bounds: Bounds::default(),
    };
    runtime.block_on(start(options)).expect("server")
}

/// What the page fetches to show the Training view of the run `r2000`.
fn load_training_view(addr: SocketAddr) {
    for path in [
        "/",
        "/assets/style.css",
        "/assets/common.js",
        "/assets/training.js",
        "/assets/training.css",
        "/api/runs",
        "/api/runs/r2000",
    ] {
        ok(addr, "GET", path, "");
    }
}

fn latencies(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let running = server(&runtime, run_fixture());
    let addr = running.addr();
    let game = ok(
        addr,
        "POST",
        "/api/games",
        r#"{"game":"gomoku","you":"black","opponent":"greedy"}"#,
    );
    let id: String = game
        .split("\"id\":\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .map(str::to_string)
        .expect("a game id");

    let mut g = c.benchmark_group("serve");
    g.sample_size(50);
    g.bench_function("state", |b| {
        b.iter(|| ok(addr, "GET", &format!("/api/games/{id}"), ""))
    });
    // Moves at different cells, so the AI's answer is not always the same.
    let cells = ["h8", "c3", "m12", "e10", "k5"];
    g.bench_function("greedy_move", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for i in 0..iters {
                let cell = cells[i as usize % cells.len()];
                let body = format!(r#"{{"cell":"{cell}"}}"#);
                let start = Instant::now();
                ok(addr, "POST", &format!("/api/games/{id}/move"), &body);
                spent += start.elapsed();
                ok(addr, "POST", &format!("/api/games/{id}/undo"), "");
            }
            spent
        })
    });
    g.sample_size(20);
    g.bench_function("training_view", |b| b.iter(|| load_training_view(addr)));
    // Cold: a fresh server each time, so nothing of the run is cached.
    let runs = run_fixture();
    g.bench_function("training_view_cold", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                let fresh = server(&runtime, runs.clone());
                let start = Instant::now();
                load_training_view(fresh.addr());
                spent += start.elapsed();
                runtime.block_on(fresh.shutdown()).unwrap();
            }
            spent
        })
    });
    g.finish();
    runtime.block_on(running.shutdown()).unwrap();
}

criterion_group!(benches, latencies);
criterion_main!(benches);
