//! The Training view's API over HTTP, in process: runs made by the
//! library's trainer in `dir/runs`, listed with their states, their chart
//! data against what the library reads, damaged runs, refused names, and
//! server-sent events while a run advances round by round.

use crate::serve::Server;
use mnk::eval::Weights;
use mnk::game::Rules;
use mnk::train::{Check, NoObserver, RunConfig, RunDir, Trainer};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// A tic-tac-toe run of `rounds` rounds, checked after every round,
/// created in `runs` with `played` rounds played (round 0 counts); the
/// trainer holds the folder's lock until dropped.
fn ttt(runs: &Path, name: &str, rounds: u32, played: u32) -> Trainer {
    let mut cfg = RunConfig::defaults(Rules::TICTACTOE);
    cfg.name = name.into();
    cfg.start = "flat".into();
    cfg.rounds = rounds;
    cfg.openings = 10;
    cfg.check_every = 1;
    cfg.seed = 7;
    let mut t = Trainer::create(cfg, Weights::flat(Rules::TICTACTOE), runs, false).unwrap();
    t.run_rounds(played, &mut NoObserver).unwrap();
    t
}

/// The run named `name` in a `GET /api/runs` answer.
fn listed<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("{name} not listed: {list}"))
}

/// A JSON array of numbers as `f64`s.
fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn runs_are_listed_with_their_state_and_chart_data() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    drop(ttt(&runs, "done", 3, 10));
    drop(ttt(&runs, "half", 4, 2));
    let held = ttt(&runs, "held", 4, 1);
    // Not runs: a hidden folder (a run being created) and a plain file.
    std::fs::create_dir(runs.join(".made~new-1-1")).unwrap();
    std::fs::write(runs.join("compare-a-b.png"), "png").unwrap();
    // A run made before locks has no lock file; listing must not make one.
    std::fs::remove_file(runs.join("done/.lock")).unwrap();
    let held_lock = std::fs::read(runs.join("held/.lock")).unwrap();
    let server = Server::start(dir.path());

    let list = server.ok("GET", "/api/runs", None);
    let names: Vec<&str> = list["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["done", "half", "held"], "{list}");
    let done = listed(&list, "done");
    assert_eq!(done["state"], "finished", "{done}");
    assert_eq!(done["running"], false);
    assert_eq!(done["round"], 3);
    assert_eq!(done["planned_rounds"], 3);
    assert_eq!(done["game"], "tictactoe");
    assert_eq!(done["error"], Value::Null);
    assert_eq!(done["last_check"]["kind"], "exact", "{done}");
    assert_eq!(done["last_check"]["round"], 3);
    let half = listed(&list, "half");
    assert_eq!(
        (&half["state"], &half["round"]),
        (&"stopped".into(), &1.into())
    );
    let running = listed(&list, "held");
    assert_eq!(running["state"], "running", "{running}");
    assert_eq!(running["running"], true);
    assert_eq!(running["round"], 0);
    // Telling a lock held changes nothing in the folders.
    assert!(!runs.join("done/.lock").exists());
    assert_eq!(std::fs::read(runs.join("held/.lock")).unwrap(), held_lock);

    // The chart data is what the library reads, column by column.
    let run = RunDir::new(runs.join("done"));
    let cfg = run.read_config().unwrap();
    let rounds = run.read_rounds(&cfg).unwrap();
    let checks = run.read_checks(&cfg).unwrap();
    let games: u64 = rounds.iter().map(|r| r.total_games()).sum();
    assert_eq!(done["games"], games);
    let d = server.ok("GET", "/api/runs/done", None);
    assert_eq!(d["state"], "finished");
    let c = &d["charts"];
    assert_eq!(numbers(&c["rounds"]["round"]), [0.0, 1.0, 2.0, 3.0]);
    let names = c["weights"]["names"].as_array().unwrap();
    let values = c["weights"]["values"].as_array().unwrap();
    let expected = rounds[0].weights.named_values();
    assert_eq!(names.len(), expected.len());
    assert_eq!(values.len(), expected.len());
    for (i, (name, _)) in expected.iter().enumerate() {
        assert_eq!(names[i], name.as_str());
        let got = numbers(&values[i]);
        for (k, r) in rounds.iter().enumerate() {
            let want = r.weights.to_vec()[i];
            assert!((got[k] - want).abs() <= want.abs() * 1e-5, "{name} {k}");
        }
    }
    assert_eq!(c["rounds"]["sigma"][0], Value::Null, "round 0 has no σ");
    assert!((c["rounds"]["sigma"][1].as_f64().unwrap() - rounds[1].sigma).abs() < 1e-9);
    for k in 1..4 {
        let r = &rounds[k];
        let t = &r.tallies[r.champion];
        let pct = 100.0 * (t.wins as f64 + t.draws as f64 / 2.0) / t.games() as f64;
        let got = c["rounds"]["champion_score"][k].as_f64().unwrap();
        assert!((got - pct).abs() < 1e-3, "round {k}: {got} vs {pct}");
        assert_eq!(c["rounds"]["champion"][k], r.champion);
    }
    let exact = &c["checks"]["exact"];
    assert_eq!(numbers(&exact["round"]), [0.0, 1.0, 2.0, 3.0], "{exact}");
    for (k, row) in checks.iter().enumerate() {
        let Check::Exact(e) = &row.check else {
            panic!("tic-tac-toe checks are exact")
        };
        let got = exact["agreement"][k].as_f64().unwrap();
        assert!((got - 100.0 * e.agreement).abs() < 1e-3);
        assert_eq!(exact["lost_as_black"][k], e.lost_as_black);
        assert_eq!(exact["lost_as_white"][k], e.lost_as_white);
    }
    assert_eq!(c["checks"]["elo"], Value::Array(vec![]));

    // The lock released, the run is no longer running.
    drop(held);
    let list = server.ok("GET", "/api/runs", None);
    assert_eq!(listed(&list, "held")["state"], "stopped");
    server.stop();
}

#[test]
fn a_damaged_run_is_shown_with_its_error_and_the_others_still_work() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    drop(ttt(&runs, "good", 2, 10));
    drop(ttt(&runs, "torn", 2, 10));
    drop(ttt(&runs, "badconf", 2, 10));
    // A field of round 2 that is not a number, and a run.toml cut short.
    let rounds_csv = runs.join("torn/rounds.csv");
    let text = std::fs::read_to_string(&rounds_csv).unwrap();
    let last = text.lines().last().unwrap().to_string();
    assert!(last.starts_with("2,"), "{last}");
    let broken = format!("two{}", &last[1..]);
    std::fs::write(&rounds_csv, text.replace(&last, &broken)).unwrap();
    std::fs::write(runs.join("badconf/run.toml"), "format = 2\nname = [").unwrap();
    // A folder that is not a run at all.
    std::fs::create_dir(runs.join("empty")).unwrap();
    let server = Server::start(dir.path());

    let list = server.ok("GET", "/api/runs", None);
    let torn = listed(&list, "torn");
    assert_eq!(torn["state"], "damaged", "{torn}");
    let error = torn["error"].as_str().unwrap();
    assert!(
        error.contains("rounds.csv") && error.contains(":4"),
        "the error names the file and line: {error}"
    );
    // What could be read is still shown.
    assert_eq!(torn["game"], "tictactoe");
    assert_eq!(torn["round"], Value::Null);
    let badconf = listed(&list, "badconf");
    assert_eq!(badconf["state"], "damaged");
    assert!(
        badconf["error"].as_str().unwrap().contains("run.toml"),
        "{badconf}"
    );
    assert_eq!(listed(&list, "empty")["state"], "damaged");
    assert_eq!(listed(&list, "good")["state"], "finished");

    let (status, d) = server.json("GET", "/api/runs/torn", None);
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["state"], "damaged");
    assert_eq!(d["error"], torn["error"]);
    assert_eq!(d["charts"], Value::Null);
    let good = server.ok("GET", "/api/runs/good", None);
    assert_eq!(numbers(&good["charts"]["rounds"]["round"]), [0.0, 1.0, 2.0]);

    // Mended, it is read again (the cache follows the files).
    std::fs::write(&rounds_csv, &text).unwrap();
    let d = server.ok("GET", "/api/runs/torn", None);
    assert_eq!(d["state"], "finished", "{d}");
    server.stop();
}

#[test]
fn names_that_leave_the_runs_folder_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    drop(ttt(&runs, "inside", 1, 10));
    // A real run outside the runs folder, and a link to it from inside.
    drop(ttt(&dir.path().join("elsewhere"), "secret", 1, 10));
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("elsewhere/secret"), runs.join("leak")).unwrap();
    let server = Server::start(dir.path());

    for (target, status) in [
        ("/api/runs/..", 400),
        ("/api/runs/.", 400),
        ("/api/runs/%2e%2e", 400),
        ("/api/runs/%2E%2E/events", 400),
        ("/api/runs/..%2felsewhere%2fsecret", 400),
        ("/api/runs/%252e%252e", 400),
        ("/api/runs/%2fetc%2fpasswd", 400),
        ("/api/runs/inside%2f..", 400),
        ("/api/runs/inside%5c..", 400),
        ("/api/runs/%zz", 400),
        ("/api/runs/.hidden", 404),
        ("/api/runs/nope", 404),
        ("/api/runs/nope/events", 404),
        ("/api/runs//etc/passwd", 404),
        ("/api/runs/inside/rounds.csv", 404),
        #[cfg(unix)]
        ("/api/runs/leak", 403),
        #[cfg(unix)]
        ("/api/runs/leak/events", 403),
    ] {
        let (got, body) = server.raw("GET", target, "application/json", b"");
        assert_eq!(got, status, "{target}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{target}: {e}"));
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{target}: {v}"
        );
        assert!(!body.contains("tictactoe"), "{target} served a run: {body}");
    }
    // A name with a harmless escape is the same name.
    let d = server.ok("GET", "/api/runs/insid%65", None);
    assert_eq!(d["name"], "inside");
    // The link is listed as refused, and nothing of the run it leads to.
    let list = server.ok("GET", "/api/runs", None);
    #[cfg(unix)]
    {
        let leak = listed(&list, "leak");
        assert_eq!(leak["state"], "damaged", "{leak}");
        assert_eq!(leak["game"], Value::Null, "{leak}");
        assert!(leak["error"].as_str().unwrap().contains("outside"));
    }
    assert_eq!(listed(&list, "inside")["state"], "finished");
    server.stop();
}

/// A server-sent event stream read over a raw socket.
struct Events {
    stream: TcpStream,
    text: String,
    /// How far `text` has been handed out as events.
    used: usize,
}

impl Events {
    /// Opens `GET target` and checks that it is an event stream.
    fn open(server: &Server, target: &str) -> Events {
        let mut stream = TcpStream::connect(server.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        let head = format!(
            "GET {target} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            server.addr
        );
        stream.write_all(head.as_bytes()).unwrap();
        let mut e = Events {
            stream,
            text: String::new(),
            used: 0,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !e.text.contains("\r\n\r\n") {
            assert!(e.read_some(deadline), "no answer: {:?}", e.text);
        }
        let (head, _) = e.text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: text/event-stream"),
            "{head}"
        );
        e.used = head.len() + 4;
        e
    }

    /// Reads what has arrived; false once `deadline` has passed.
    fn read_some(&mut self, deadline: Instant) -> bool {
        if Instant::now() > deadline {
            return false;
        }
        let mut buf = [0u8; 65536];
        match self.stream.read(&mut buf) {
            Ok(0) => panic!("the server closed the stream: {:?}", self.text),
            Ok(n) => self.text.push_str(&String::from_utf8_lossy(&buf[..n])),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => panic!("{e}"),
        }
        true
    }

    /// The next `update` event's data, waiting at most `within`.
    fn next(&mut self, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let rest = &self.text[self.used..];
            if let Some(at) = rest.find("event: update\ndata: ") {
                let start = at + "event: update\ndata: ".len();
                if let Some(len) = rest[start..].find('\n') {
                    let data = &rest[start..start + len];
                    let v = serde_json::from_str(data).unwrap_or_else(|e| panic!("{e}: {data}"));
                    self.used += start + len;
                    return v;
                }
            }
            assert!(
                self.read_some(deadline),
                "no update within {within:?}; the stream so far: {:?}",
                &self.text[self.used..]
            );
        }
    }
}

#[test]
fn events_deliver_each_new_round_while_a_run_advances() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let mut trainer = ttt(&runs, "live", 5, 1);
    let server = Server::start(dir.path());
    let mut events = Events::open(&server, "/api/runs/live/events");
    let first = events.next(Duration::from_secs(10));
    assert_eq!(
        (&first["round"], &first["state"]),
        (&0.into(), &"running".into()),
        "{first}"
    );
    for round in 1..=2u32 {
        let t0 = Instant::now();
        trainer.run_rounds(1, &mut NoObserver).unwrap();
        // Checks land before the round's row: skip updates of the old round.
        let mut e = events.next(Duration::from_secs(10));
        while e["round"] != round {
            assert_eq!(e["round"], round - 1, "{e}");
            e = events.next(Duration::from_secs(10));
        }
        assert_eq!(e["state"], "running");
        assert_eq!(e["last_check"]["round"], round, "{e}");
        eprintln!("round {round} reached the stream in {:?}", t0.elapsed());
    }
    // The trainer gone, the stream says the run stopped, without a new round.
    drop(trainer);
    let mut e = events.next(Duration::from_secs(10));
    while e["state"] == "running" {
        e = events.next(Duration::from_secs(10));
    }
    assert_eq!(
        (&e["round"], &e["state"]),
        (&2.into(), &"stopped".into()),
        "{e}"
    );
    // The page's fetch after an event gets the new round's data.
    let d = server.ok("GET", "/api/runs/live", None);
    assert_eq!(numbers(&d["charts"]["rounds"]["round"]), [0.0, 1.0, 2.0]);
    drop(events);
    server.stop();
}
