//! `mnk brain`, the Gomocup engine mode, driven through the built binary
//! as a manager would: protocol transcripts, forced moves, malformed input,
//! line ends, END, time limits, a full self-play game between two engine
//! processes, and the `pbrain-` launcher name.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mnk");

/// Starts `program args` with piped stdin and stdout.
///
/// A freshly copied launcher can briefly fail with "text file busy" while
/// another test thread forks a child that still holds the copy's write
/// handle, so that error is retried.
fn spawn(program: &Path, args: &[&str]) -> Child {
    let mut tries = 0;
    loop {
        match Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(c) => return c,
            Err(e) if e.raw_os_error() == Some(26) && tries < 100 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("cannot start {}: {e}", program.display()),
        }
    }
}

/// Runs `program args` on `input` (written at once, then stdin closed) and
/// returns its stdout lines and exit status. Fails after 20 s.
fn run_with(program: &Path, args: &[&str], input: &str) -> (Vec<String>, ExitStatus) {
    let mut child = spawn(program, args);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // The engine may exit (END) before reading everything: ignore EPIPE.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).unwrap();
        s
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the engine did not finish the transcript within 20 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    writer.join().unwrap();
    let out = reader.join().unwrap();
    (out.lines().map(str::to_string).collect(), status)
}

/// `mnk brain` on a transcript whose lines end in CR LF.
fn transcript(lines: &[&str]) -> Vec<String> {
    let input: String = lines.iter().map(|l| format!("{l}\r\n")).collect();
    let (out, status) = run_with(Path::new(BIN), &["brain"], &input);
    assert!(status.success(), "exit status {status}: {out:?}");
    out
}

/// An engine process driven one command at a time.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    fn start(program: &Path, args: &[&str]) -> Engine {
        let mut child = spawn(program, args);
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    fn brain(args: &[&str]) -> Engine {
        let mut all = vec!["brain"];
        all.extend_from_slice(args);
        Engine::start(Path::new(BIN), &all)
    }

    /// Sends one line (CR LF, as managers do) and returns when it was sent.
    fn send(&mut self, line: &str) -> Instant {
        self.stdin
            .write_all(format!("{line}\r\n").as_bytes())
            .unwrap();
        self.stdin.flush().unwrap();
        Instant::now()
    }

    /// The next line, within `timeout`.
    fn recv(&self, timeout: Duration) -> (Instant, String) {
        match self.lines.recv_timeout(timeout) {
            Ok(x) => x,
            Err(RecvTimeoutError::Timeout) => panic!("no answer within {timeout:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// The next line that is not MESSAGE or DEBUG.
    fn answer(&self, timeout: Duration) -> (Instant, String) {
        loop {
            let (t, l) = self.recv(timeout);
            if !(l.starts_with("MESSAGE") || l.starts_with("DEBUG")) {
                return (t, l);
            }
        }
    }

    /// Sends a move command and returns the move and how long it took.
    fn play(&mut self, command: &str, timeout: Duration) -> ((u8, u8), Duration) {
        let sent = self.send(command);
        let (at, line) = self.answer(timeout);
        let m = parse_move(&line).unwrap_or_else(|| panic!("{command}: not a move: {line:?}"));
        (m, at.saturating_duration_since(sent))
    }

    /// Sends END and waits for the process to exit; returns how long that took.
    fn end(mut self) -> Duration {
        let sent = self.send("END");
        let deadline = sent + Duration::from_secs(5);
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                assert!(s.success(), "exit status {s}");
                return sent.elapsed();
            }
            assert!(Instant::now() < deadline, "no exit within 5 s of END");
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_move(line: &str) -> Option<(u8, u8)> {
    let (a, b) = line.trim().split_once(',')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn is_move(line: &str) -> bool {
    parse_move(line).is_some()
}

/// A `BOARD … DONE` block: own stones (field 1), then the opponent's (2).
fn board(own: &[(u8, u8)], opp: &[(u8, u8)]) -> Vec<String> {
    let mut v = vec!["BOARD".to_string()];
    v.extend(own.iter().map(|(x, y)| format!("{x},{y},1")));
    v.extend(opp.iter().map(|(x, y)| format!("{x},{y},2")));
    v.push("DONE".into());
    v
}

/// The engine's answer to a position set up with BOARD.
fn answer_to(setup: &[&str], own: &[(u8, u8)], opp: &[(u8, u8)]) -> String {
    let mut lines: Vec<String> = setup.iter().map(|s| s.to_string()).collect();
    lines.push("INFO timeout_turn 300".into());
    lines.extend(board(own, opp));
    lines.push("END".into());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = transcript(&refs);
    assert_eq!(out.len(), 2, "{out:?}");
    out[1].clone()
}

#[test]
fn transcript_covers_every_command() {
    let out = transcript(&[
        "ABOUT",
        "START 15",
        "INFO timeout_turn 150",
        "INFO timeout_match 60000",
        "INFO time_left 60000",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO folder /tmp/some folder",
        "INFO evaluate 3,4",
        "INFO some_future_key 7",
        "BEGIN",
        "TURN 8,8",
        "TAKEBACK 8,8",
        "RESTART",
        "TURN 0,0",
        "RECTSTART 20,12",
        "BOARD",
        "10,5,2",
        "DONE",
        "YXSHOWFORBID",
        "END",
        "ABOUT",
    ]);
    // Nothing after END is answered; INFO is never answered.
    assert_eq!(out.len(), 10, "{out:?}");
    assert!(out[0].starts_with("name=\"mnk\", version=\""), "{out:?}");
    assert!(out[0].contains("author=") && out[0].contains("country="));
    assert_eq!(out[1], "OK");
    assert_eq!(out[2], "7,7", "the first move is the centre");
    assert!(
        is_move(&out[3]) && out[3] != "7,7" && out[3] != "8,8",
        "{out:?}"
    );
    assert_eq!(out[4], "OK", "TAKEBACK");
    assert_eq!(out[5], "OK", "RESTART");
    assert!(is_move(&out[6]) && out[6] != "0,0", "{out:?}");
    assert_eq!(out[7], "OK", "RECTSTART");
    let (x, y) = parse_move(&out[8]).unwrap();
    assert!(x < 20 && y < 12 && (x, y) != (10, 5), "{out:?}");
    assert!(out[9].starts_with("UNKNOWN"), "{out:?}");
}

#[test]
fn wins_in_one() {
    // A closed four on row 7 (blocked at 2,7): only 7,7 wins.
    let own = [(3, 7), (4, 7), (5, 7), (6, 7)];
    let opp = [(2, 7), (10, 10), (11, 3), (0, 14)];
    assert_eq!(answer_to(&["START 15"], &own, &opp), "7,7");
    // A win beats blocking the opponent's four.
    let own = [(1, 1), (2, 2), (3, 3), (4, 4), (10, 0)];
    let opp = [(0, 0), (10, 1), (10, 2), (10, 3), (10, 4)];
    assert_eq!(answer_to(&["START 15"], &own, &opp), "5,5");
    // Far corner of a 20x20 board.
    let own = [(15, 19), (16, 19), (17, 19), (18, 19)];
    let opp = [(14, 19), (3, 3), (6, 9), (12, 0)];
    assert_eq!(answer_to(&["START 20"], &own, &opp), "19,19");
    // A rectangular board, the win in the first column.
    let own = [(0, 1), (0, 2), (0, 3), (0, 4)];
    let opp = [(0, 0), (5, 5), (9, 2), (7, 7)];
    assert_eq!(answer_to(&["RECTSTART 10,8"], &own, &opp), "0,5");
}

#[test]
fn must_blocks() {
    // The opponent's closed four on column 5: only 5,6 stops it. Own
    // stones come last in the block (the order must not matter).
    let own = [(5, 1), (9, 9), (12, 4)];
    let opp = [(5, 2), (5, 3), (5, 4), (5, 5)];
    let mut lines = vec!["START 15".to_string(), "INFO timeout_turn 300".into()];
    lines.push("BOARD".into());
    lines.extend(opp.iter().map(|(x, y)| format!("{x},{y},2")));
    lines.extend(own.iter().map(|(x, y)| format!("{x},{y},1")));
    lines.extend(["DONE".into(), "END".into()]);
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    assert_eq!(transcript(&refs), ["OK", "5,6"]);
    // A broken four (X X . X X) on a diagonal: the gap.
    let own = [(0, 14), (14, 14), (14, 0)];
    let opp = [(3, 3), (4, 4), (6, 6), (7, 7)];
    assert_eq!(answer_to(&["START 15"], &own, &opp), "5,5");
    // Two forced blocks in a row, the second after a TURN: the
    // opponent's four on row 2 (blocked at 1,2), then its three on column
    // 9 (blocked at 9,4) becomes a four with TURN 9,8.
    let mut lines = vec!["START 15".to_string(), "INFO timeout_turn 300".into()];
    lines.extend(board(
        &[(1, 2), (9, 4), (0, 14), (14, 14), (14, 0), (12, 12)],
        &[(2, 2), (3, 2), (4, 2), (5, 2), (9, 5), (9, 6), (9, 7)],
    ));
    lines.extend(["TURN 9,8".into(), "END".into()]);
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    assert_eq!(transcript(&refs), ["OK", "6,2", "9,9"]);
}

#[test]
fn exact_five_rule() {
    // Row 0: X X X X . X — 4,0 makes six, which wins only in freestyle.
    // Column 10: a closed four that makes exactly five at 10,6.
    let own = [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (5, 0),
        (10, 2),
        (10, 3),
        (10, 4),
        (10, 5),
    ];
    let opp = [
        (10, 1),
        (14, 14),
        (12, 14),
        (14, 12),
        (12, 10),
        (8, 13),
        (2, 12),
        (0, 9),
        (5, 10),
    ];
    assert_eq!(answer_to(&["START 15", "INFO rule 1"], &own, &opp), "10,6");
    let free = answer_to(&["START 15", "INFO rule 0"], &own, &opp);
    assert!(free == "4,0" || free == "10,6", "{free}");
    // Renju is refused with a MESSAGE, and the engine plays freestyle.
    let out = transcript(&["START 15", "INFO rule 4", "BEGIN", "END"]);
    assert_eq!(out[0], "OK");
    assert!(
        out[1].starts_with("MESSAGE") && out[1].contains("renju"),
        "{out:?}"
    );
    assert_eq!(out[2], "7,7");
}

#[test]
fn malformed_lines_get_errors_and_the_engine_goes_on() {
    let out = transcript(&[
        "TURN 7,7",     // no board yet
        "START",        // no size
        "START twenty", // not a number
        "START 4",      // too small
        "START 27",     // too large
        "RECTSTART 20", // no height
        "START 15",
        "INFO timeout_turn 100",
        "INFO timeout_turn soon",
        "TURN",
        "TURN a,b",
        "TURN 15,3",
        "TURN -1,3",
        "TURN 99999999999999999999,1",
        "TAKEBACK 3,3", // empty cell
        "BOARD",
        "7,7,2",
        "7,7,1",  // occupied
        "20,1,1", // off the board
        "1,1,5",  // bad field
        "hello",  // not a stone line
        "DONE",
        "TURN 7,7", // occupied (the opponent's stone from BOARD)
        "hello world",
        "BEGIN now",
        "ABOUT",
        "END",
    ]);
    for (i, line) in out.iter().enumerate().take(18) {
        if i != 6 {
            assert!(line.starts_with("ERROR "), "line {i}: {out:?}");
        }
    }
    assert_eq!(out[6], "OK");
    assert!(
        out[3].contains("4x4") && out[4].contains("27x27"),
        "{out:?}"
    );
    assert!(out[10].contains("off the 15x15 board"), "{out:?}");
    assert!(out[14].contains("occupied"), "{out:?}");
    assert!(is_move(&out[18]), "{out:?}");
    assert_ne!(out[18], "7,7");
    assert!(
        out[19].starts_with("ERROR") && out[19].contains("occupied"),
        "{out:?}"
    );
    assert_eq!(out[20], "UNKNOWN command hello");
    assert!(out[21].starts_with("ERROR"), "{out:?}");
    assert!(out[22].starts_with("name="), "{out:?}");
    assert_eq!(out.len(), 23, "{out:?}");
}

#[test]
fn every_line_end_is_accepted() {
    let script = [
        "START 15",
        "INFO timeout_turn 100",
        "BOARD",
        "3,7,1",
        "4,7,1",
        "5,7,1",
        "6,7,1",
        "2,7,2",
        "10,10,2",
        "11,3,2",
        "0,14,2",
        "DONE",
        "ABOUT",
        "END",
    ];
    let mut outputs = Vec::new();
    for end in ["\r\n", "\n", "\r"] {
        let input: String = script.iter().map(|l| format!("{l}{end}")).collect();
        let (out, status) = run_with(Path::new(BIN), &["brain"], &input);
        assert!(status.success());
        assert_eq!(out.len(), 3, "{end:?}: {out:?}");
        assert_eq!(out[..2], ["OK", "7,7"], "{end:?}");
        outputs.push(out);
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[1], outputs[2]);
    // No line end at all after the last command, and mixed ends.
    let (out, _) = run_with(
        Path::new(BIN),
        &["brain"],
        "START 9\nINFO timeout_turn 0\r\nBEGIN\rABOUT",
    );
    assert_eq!(out[..2], ["OK", "4,4"]);
    assert!(out[2].starts_with("name="));
}

#[test]
fn end_exits_promptly() {
    // Idle engine.
    let e = Engine::brain(&[]);
    let took = e.end();
    assert!(took < Duration::from_secs(1), "END took {took:?}");
    // In a game, right after a move.
    let mut e = Engine::brain(&[]);
    e.send("START 20");
    assert_eq!(e.recv(Duration::from_secs(5)).1, "OK");
    e.send("INFO timeout_turn 300");
    e.play("BEGIN", Duration::from_secs(2));
    e.play("TURN 10,10", Duration::from_secs(2));
    let took = e.end();
    assert!(took < Duration::from_secs(1), "END took {took:?}");
    // End of input also ends the engine.
    let (out, status) = run_with(Path::new(BIN), &["brain"], "START 15\r\n");
    assert!(status.success());
    assert_eq!(out, ["OK"]);
}

/// Wall-clock bounds: run alone, not beside other tests that load the
/// machine (`.ci/run` runs it on its own after the suite:
/// `cargo test --release --test it -- --ignored --exact brain::answers_within_the_turn_limit`).
#[test]
#[ignore = "wall-clock timing: run alone (see .ci/run)"]
fn answers_within_the_turn_limit() {
    // Two engines with a 200 ms turn limit play 30 plies (or to the end);
    // every answer must come well inside the limit.
    let limit = Duration::from_millis(200);
    // The engine keeps a margin of 15 ms at 200 ms (more after a late
    // answer); the manager still has to read the answer.
    let spare = Duration::from_millis(5);
    let mut e = [Engine::brain(&[]), Engine::brain(&["--seed", "7"])];
    for x in &mut e {
        x.send("START 20");
        assert_eq!(x.recv(Duration::from_secs(5)).1, "OK");
        x.send("INFO timeout_turn 200");
        x.send("INFO timeout_match 100000");
        x.send("INFO max_memory 104857600");
    }
    let mut times = Vec::new();
    let mut stones: [HashSet<(i32, i32)>; 2] = Default::default();
    let mut last: Option<(u8, u8)> = None;
    for ply in 0..30 {
        let who = ply % 2;
        e[who].send("INFO time_left 100000");
        let cmd = match last {
            None => "BEGIN".to_string(),
            Some((x, y)) => format!("TURN {x},{y}"),
        };
        let (m, took) = e[who].play(&cmd, Duration::from_secs(2));
        let p = (m.0 as i32, m.1 as i32);
        assert!(m.0 < 20 && m.1 < 20, "off the board: {m:?}");
        assert!(
            !stones[0].contains(&p) && !stones[1].contains(&p),
            "occupied: {m:?}"
        );
        stones[who].insert(p);
        times.push(took);
        last = Some(m);
        if five_through(&stones[who], p) {
            break;
        }
    }
    let worst = *times.iter().max().unwrap();
    eprintln!(
        "turn limit 200 ms: {} answers, worst {worst:?}, mean {:?}",
        times.len(),
        times.iter().sum::<Duration>() / times.len() as u32
    );
    assert!(worst + spare <= limit, "an answer took {worst:?}");

    // A nearly spent match clock binds harder than the turn limit.
    let mut x = Engine::brain(&[]);
    x.send("START 15");
    x.recv(Duration::from_secs(5));
    x.send("INFO timeout_turn 5000");
    x.send("INFO timeout_match 10000");
    x.send("INFO time_left 900");
    let (_, took) = x.play("BEGIN", Duration::from_secs(2));
    let (_, took2) = x.play("TURN 8,8", Duration::from_secs(2));
    assert!(
        took.max(took2) < Duration::from_millis(150),
        "{took:?} {took2:?}"
    );

    // timeout_turn 0: play at once.
    let mut x = Engine::brain(&[]);
    x.send("START 15");
    x.recv(Duration::from_secs(5));
    x.send("INFO timeout_turn 0");
    x.play("BEGIN", Duration::from_secs(2));
    let (_, took) = x.play("TURN 8,8", Duration::from_secs(2));
    assert!(
        took < Duration::from_millis(50),
        "instant move took {took:?}"
    );
}

/// Five or more in a row through `m` among `stones`.
fn five_through(stones: &HashSet<(i32, i32)>, m: (i32, i32)) -> bool {
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let run = |s: i32| {
            (1..)
                .take_while(|i| stones.contains(&(m.0 + s * i * dx, m.1 + s * i * dy)))
                .count()
        };
        1 + run(1) + run(-1) >= 5
    })
}

#[test]
fn self_play_game_to_the_end() {
    // A small manager: two engine processes, START, INFO, BEGIN to the
    // first and then TURN with the other's move, until five in a row or a
    // full board. Every move must be on the board and on an empty cell.
    let size = 15;
    let mut e = [Engine::brain(&[]), Engine::brain(&["--seed", "3"])];
    for x in &mut e {
        x.send("START 15");
        assert_eq!(x.recv(Duration::from_secs(5)).1, "OK");
        x.send("INFO timeout_turn 100");
        x.send("INFO rule 0");
    }
    let mut stones: [HashSet<(i32, i32)>; 2] = Default::default();
    let mut last: Option<(u8, u8)> = None;
    let mut winner = None;
    let mut plies = 0;
    while plies < size * size {
        let who = plies % 2;
        let cmd = match last {
            None => "BEGIN".to_string(),
            Some((x, y)) => format!("TURN {x},{y}"),
        };
        let (m, _) = e[who].play(&cmd, Duration::from_secs(2));
        let p = (m.0 as i32, m.1 as i32);
        assert!(
            m.0 < size as u8 && m.1 < size as u8,
            "ply {plies}: {m:?} is off the board"
        );
        assert!(
            !stones[0].contains(&p) && !stones[1].contains(&p),
            "ply {plies}: {m:?} is occupied"
        );
        stones[who].insert(p);
        plies += 1;
        last = Some(m);
        if five_through(&stones[who], p) {
            winner = Some(who);
            break;
        }
    }
    eprintln!("self-play: {plies} plies, winner {winner:?}");
    assert!(winner.is_some() || plies == size * size);
    for x in e {
        assert!(x.end() < Duration::from_secs(1));
    }
}

/// A copy of the binary named `name` in a fresh temporary folder.
fn launcher(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::copy(BIN, &p).unwrap();
    p
}

#[test]
fn pbrain_name_runs_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let p = launcher(dir.path(), "pbrain-mnk");
    let (out, status) = run_with(&p, &[], "ABOUT\r\nSTART 15\r\nBEGIN\r\nEND\r\n");
    assert!(status.success());
    assert!(out[0].starts_with("name=\"mnk\""), "{out:?}");
    assert_eq!(out[1..], ["OK", "7,7"]);
    // Flags work too.
    let (out, _) = run_with(&p, &["--verbose"], "START 15\r\nBEGIN\r\nEND\r\n");
    assert!(out[1].starts_with("MESSAGE"), "{out:?}");
    // A symbolic link is the one-line launcher on Unix.
    #[cfg(unix)]
    {
        let link = dir.path().join("pbrain-mnk-link");
        std::os::unix::fs::symlink(BIN, &link).unwrap();
        let (out, status) = run_with(&link, &[], "ABOUT\r\nEND\r\n");
        assert!(status.success());
        assert!(out[0].starts_with("name=\"mnk\""), "{out:?}");
    }
    // Under its own name it is the usual CLI.
    let (out, status) = run_with(Path::new(BIN), &[], "ABOUT\r\n");
    assert!(!status.success() && out.is_empty());
}

#[test]
fn pbrain_weights_file_next_to_the_launcher() {
    let dir = tempfile::tempdir().unwrap();
    // A valid weights file is picked up and used.
    let good = launcher(dir.path(), "pbrain-good");
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/gomoku.toml"))
            .unwrap();
    std::fs::write(dir.path().join("pbrain-good.toml"), text).unwrap();
    let (out, status) = run_with(&good, &[], "START 15\r\nBEGIN\r\nEND\r\n");
    assert!(status.success());
    assert_eq!(out, ["OK", "7,7"]);
    // A broken one is reported (as ERROR, which GUIs show) and stops it.
    let bad = launcher(dir.path(), "pbrain-bad");
    std::fs::write(dir.path().join("pbrain-bad.toml"), "attack = [").unwrap();
    let (out, status) = run_with(&bad, &[], "START 15\r\nEND\r\n");
    assert!(!status.success());
    assert!(out[0].starts_with("ERROR cannot load weights"), "{out:?}");
}

#[test]
fn weights_must_be_for_five_in_a_row() {
    let ttt = Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/tictactoe.toml");
    let (out, status) = run_with(
        Path::new(BIN),
        &["brain", "--weights", ttt.to_str().unwrap()],
        "START 15\r\nEND\r\n",
    );
    assert!(!status.success());
    assert!(
        out[0].starts_with("ERROR") && out[0].contains("five"),
        "{out:?}"
    );
    let gomoku = Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/gomoku.toml");
    let (out, status) = run_with(
        Path::new(BIN),
        &["brain", "--weights", gomoku.to_str().unwrap()],
        "START 20\r\nBEGIN\r\nEND\r\n",
    );
    assert!(status.success());
    assert_eq!(out, ["OK", "9,9"]);
}

#[test]
fn special_stones_are_never_played_on() {
    // Field 3 cells block both sides; the engine answers a legal move.
    let out = transcript(&[
        "START 9",
        "INFO timeout_turn 100",
        "BOARD",
        "4,4,3",
        "3,3,3",
        "5,5,3",
        "4,3,2",
        "DONE",
        "END",
    ]);
    assert_eq!(out.len(), 2, "{out:?}");
    let m = parse_move(&out[1]).unwrap();
    assert!(m.0 < 9 && m.1 < 9 && ![(4, 4), (3, 3), (5, 5), (4, 3)].contains(&m));
}

#[test]
fn info_before_start_and_depth_and_node_limits() {
    // Upper-case keys before START (as some GUIs send them), and the
    // Yixin extensions max_depth / max_node that c-gomoku-cli sends for
    // depth= and nodes=: the search stops there, long before the 5 s turn.
    let input = "INFO TIMEOUT_TURN 5000\r\nINFO MAX_DEPTH 2\r\nSTART 15\r\n\
                 BOARD\r\n7,7,2\r\nDONE\r\nINFO max_depth 0\r\nINFO max_node 2000\r\n\
                 TURN 9,9\r\nEND\r\n";
    let t = Instant::now();
    let (out, status) = run_with(Path::new(BIN), &["brain", "--verbose"], input);
    assert!(status.success());
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(out.len(), 5, "{out:?}");
    assert_eq!(out[0], "OK");
    assert!(out[1].starts_with("MESSAGE depth 2 nodes "), "{out:?}");
    assert!(is_move(&out[2]));
    let nodes: u64 = out[3]
        .split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(nodes <= 2000 + 64, "{out:?}");
    assert!(is_move(&out[4]));
}

/// The `limit L ms` of a `--verbose` MESSAGE line.
fn limit_ms(message: &str) -> u64 {
    field_ms(message, "limit")
}

/// The number after `name` in a `--verbose` MESSAGE line, in ms.
fn field_ms(message: &str, name: &str) -> u64 {
    message
        .split_whitespace()
        .skip_while(|w| *w != name)
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {message:?}"))
}

#[test]
fn absurd_time_limits_are_clamped() {
    // Turn and match limits of 2^31 ms and more, up to past u64: the
    // budget is the documented maximum (1 h less 5%), a forced win comes
    // at once, and a node limit still ends a search long before.
    for (turn, matc, left) in [
        ("2147483648", "0", "0"),
        ("9999999999", "9223372036854775808", "9223372036854775807"),
        ("99999999999999999999999", "99999999999999999999999", "-1"),
    ] {
        let own = [(3, 7), (4, 7), (5, 7), (6, 7)];
        let opp = [(2, 7), (10, 10), (11, 3), (0, 14)];
        let mut lines: Vec<String> = [
            "START 15".to_string(),
            format!("INFO timeout_turn {turn}"),
            format!("INFO timeout_match {matc}"),
            format!("INFO time_left {left}"),
        ]
        .into();
        lines.extend(board(&own, &opp));
        // A quiet middle game: only the node limit ends the search.
        lines.push("INFO max_node 3000".into());
        lines.extend(board(&[(7, 7), (8, 8), (6, 8)], &[(7, 8), (9, 9), (8, 6)]));
        lines.push("END".into());
        let input: String = lines.iter().map(|l| format!("{l}\r\n")).collect();
        let t = Instant::now();
        let (out, status) = run_with(Path::new(BIN), &["brain", "--verbose"], &input);
        assert!(status.success(), "{out:?}");
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
        assert_eq!(out.len(), 5, "{out:?}");
        assert_eq!(out[0], "OK");
        assert_eq!(out[2], "7,7", "the win in one: {out:?}");
        assert!(is_move(&out[4]), "{out:?}");
        for m in [&out[1], &out[3]] {
            if left == "-1" {
                // A negative time_left is 0 with a match limit: no time.
                assert!(m.contains("limit instant"), "{out:?}");
            } else {
                // The search's limit is the budget less what the move
                // spent before it (building a 96 MiB table, a second on a
                // loaded machine): the budget is the limit plus at most
                // the move's whole time.
                let (l, t) = (limit_ms(m), field_ms(m, "time"));
                assert!(l <= 3_420_000 && l + t >= 3_419_999, "{out:?}");
            }
        }
    }
}

/// `--verbose` says what proved a win: an open three with room for an open
/// four is a win by continuous fours, found before any alpha-beta search;
/// and a position the engine cannot prove never reads as a plain win.
#[test]
fn verbose_names_the_proof_of_a_win() {
    let mut lines = vec!["START 15".to_string(), "INFO timeout_turn 300".into()];
    lines.extend(board(&[(6, 7), (7, 7), (8, 7)], &[(0, 0), (0, 2), (0, 4)]));
    lines.push("END".into());
    let input = lines.join("\r\n") + "\r\n";
    let (out, status) = run_with(Path::new(BIN), &["brain", "--verbose"], &input);
    assert!(status.success());
    let message = out
        .iter()
        .find(|l| l.starts_with("MESSAGE depth"))
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(message.contains("eval win in 3 (proven: vcf)"), "{message}");
    let m = parse_move(out.last().unwrap()).unwrap_or_else(|| panic!("{out:?}"));
    // Either end of the three makes the open four.
    assert!(m == (5, 7) || m == (9, 7), "{out:?}");

    // A quiet opening: an evaluation, no proof.
    let mut lines = vec!["START 15".to_string(), "INFO timeout_turn 300".into()];
    lines.extend(board(&[(7, 7)], &[(8, 8)]));
    lines.push("END".into());
    let input = lines.join("\r\n") + "\r\n";
    let (out, _) = run_with(Path::new(BIN), &["brain", "--verbose"], &input);
    let message = out
        .iter()
        .find(|l| l.starts_with("MESSAGE depth"))
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(
        !message.contains("win in") && !message.contains("proven"),
        "{message}"
    );
}

/// The positions of a `tests/data/must_stop_*.txt` file: moves from the
/// empty board, one position a line, each with the comment that may
/// follow its moves (after `#`).
fn must_stop_positions(text: &str) -> Vec<(Vec<mnk::game::Move>, &str)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (moves, comment) = l.split_once('#').unwrap_or((l, ""));
            let moves = moves
                .split_whitespace()
                .map(|m| m.parse().unwrap_or_else(|e| panic!("{l}: {e}")))
                .collect();
            (moves, comment.trim())
        })
        .collect()
}

/// In every position where the opponent could win by continuous fours and
/// some move stops it, the engine at 300 ms a move plays a stop: the
/// opponent's VCF check runs before the engine's own VCT and has a budget
/// of its own (before, the VCT used up the threat searches' shared time,
/// so in the first position, issue 25's, the engine played e9 and black
/// won by VCF in 25 plies). Each answer is checked with the threat search.
#[test]
fn stops_every_vcf_it_can_see() {
    use mnk::eval::{shipped_weights, Evaluator};
    use mnk::game::{Board, Rules};
    use mnk::threats::{Mode, ThreatSearch, Verdict};
    let rules = Rules::GOMOKU;
    let positions: Vec<_> = must_stop_positions(include_str!("../data/must_stop_vcf.txt"))
        .into_iter()
        .map(|(moves, _)| moves)
        .collect();
    assert!(positions.len() >= 20, "{} positions", positions.len());
    let mut search = ThreatSearch::new(rules, 20);
    let mut eval = Evaluator::new(shipped_weights(rules));
    // The opponent's VCF in `board`, as if the opponent of `mover` were
    // to move.
    let vcf = |board: &Board, mover, search: &mut ThreatSearch, eval: &mut Evaluator| {
        eval.sync(board);
        search.clear();
        let opp = mnk::game::Color::opponent(mover);
        search.solve(eval, board.hash(), opp, Mode::Vcf, 0, 1_000_000)
    };
    let mut failed = Vec::new();
    let asked: Vec<&[mnk::game::Move]> = positions.iter().map(Vec::as_slice).collect();
    let answers = brain_answers(&asked, 300);
    for (moves, &m) in positions.iter().zip(&answers) {
        let mut b = Board::new(rules);
        for &m in moves {
            b.play(m).unwrap();
        }
        let mover = b.to_move();
        // The position is what the file says: a VCF of 8 plies or more
        // against the side to move, and a move that stops it.
        let threat = vcf(&b, mover, &mut search, &mut eval);
        assert!(
            matches!(threat, Verdict::Win { plies, .. } if plies >= 8),
            "{moves:?}: {threat:?}"
        );
        let stops = b.legal_moves().into_iter().any(|m| {
            let mut c = b.clone();
            c.play(m).unwrap();
            !vcf(&c, mover, &mut search, &mut eval).is_win()
        });
        assert!(stops, "{moves:?}: no move stops the VCF");
        b.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        if let Verdict::Win { plies, .. } = vcf(&b, mover, &mut search, &mut eval) {
            failed.push(format!(
                "after {m} (ply {n}) VCF in {plies}",
                n = moves.len()
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {}: {failed:?}",
        failed.len(),
        positions.len()
    );
}

/// A win claimed as proven is kept to the end. In a game at 300 ms a move
/// on a loaded machine the engine proved a win in 15 by search (from the
/// position below, black to move), played one more move from its table,
/// and then lost the win: the table no longer held it, the alpha-beta did
/// not see it again, and the root's VCT, which finds it in 20-100 ms, had
/// a 37.5 ms share. After a claim the VCT now gets most of the turn.
/// Here the engine, black, claims the win (with time enough to be sure
/// to), then plays it out at 300 ms a move against itself as white, and
/// must win. Run alone by `.ci/run`, as it is timed.
#[test]
#[ignore = "timed: run alone"]
fn keeps_a_claimed_win() {
    use mnk::game::{Board, Move, Outcome, Rules};
    let start = "8,7 10,10 5,10 7,8 5,8 8,8 7,7 10,8 9,8 10,9 10,7 9,7 5,7 5,9 6,7 4,7 \
                 7,6 8,5 4,9 3,10 3,8 2,7";
    let moves: Vec<(u8, u8)> = start
        .split_whitespace()
        .map(|m| parse_move(m).unwrap())
        .collect();
    let mut game = Board::new(Rules::GOMOKU);
    for &(x, y) in &moves {
        game.play(Move { x, y }).unwrap();
    }
    let (black_stones, white_stones): (Vec<_>, Vec<_>) = (
        moves.iter().step_by(2).copied().collect(),
        moves.iter().skip(1).step_by(2).copied().collect(),
    );
    let wait = Duration::from_secs(10);
    let mut engines = [Engine::brain(&["--verbose"]), Engine::brain(&[])];
    for e in &mut engines {
        e.send("START 15");
        assert_eq!(e.answer(wait).1, "OK");
        e.send("INFO timeout_turn 2000");
    }
    // Black's first answer, with its claim.
    let mut claim = String::new();
    engines[0].send(&board(&black_stones, &white_stones).join("\r\n"));
    let first = loop {
        let (_, l) = engines[0].recv(wait);
        if l.starts_with("MESSAGE") {
            claim = l;
        } else if let Some(m) = parse_move(&l) {
            break m;
        }
    };
    assert!(claim.contains("win in"), "no claim: {claim}");
    for e in &mut engines {
        e.send("INFO timeout_turn 300");
    }
    let mut last = first;
    let mut played = vec![format!("{},{}", first.0, first.1)];
    let mut outcome = game
        .play(Move {
            x: first.0,
            y: first.1,
        })
        .unwrap();
    let mut white_setup = Some(board(&white_stones, &black_stones));
    let mut turn = 1;
    while outcome.is_none() && played.len() < 80 {
        let m = if let Some(mut setup) = white_setup.take() {
            // White starts from the position with black's first move.
            setup.insert(setup.len() - 1, format!("{},{},2", last.0, last.1));
            engines[1].send(&setup.join("\r\n"));
            parse_move(&engines[1].answer(wait).1).unwrap()
        } else {
            engines[turn]
                .play(&format!("TURN {},{}", last.0, last.1), wait)
                .0
        };
        played.push(format!("{},{}", m.0, m.1));
        outcome = game.play(Move { x: m.0, y: m.1 }).unwrap();
        last = m;
        turn = 1 - turn;
    }
    assert!(
        matches!(outcome, Some(Outcome::Win(mnk::game::Color::Black))),
        "claimed {claim:?}, then {outcome:?} after {}",
        played.join(" ")
    );
}

/// `mnk brain`'s answers at `turn_ms` a move to each of `positions`
/// (moves from the empty board), a few positions to an engine process.
fn brain_answers(positions: &[&[mnk::game::Move]], turn_ms: u32) -> Vec<mnk::game::Move> {
    let mut answers = Vec::new();
    for chunk in positions.chunks(8) {
        let mut lines = vec![
            "START 15".to_string(),
            format!("INFO timeout_turn {turn_ms}"),
        ];
        for moves in chunk {
            let n = moves.len();
            // The side to move's stones are its own (field 1).
            let (mut own, mut opp) = (Vec::new(), Vec::new());
            for (i, m) in moves.iter().enumerate() {
                let side = if (n - i) % 2 == 0 { &mut own } else { &mut opp };
                side.push((m.x, m.y));
            }
            lines.extend(board(&own, &opp));
        }
        lines.push("END".into());
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let out = transcript(&refs);
        assert_eq!(out.len(), chunk.len() + 1, "{out:?}");
        for answer in &out[1..] {
            let (x, y) = parse_move(answer).unwrap_or_else(|| panic!("{out:?}"));
            answers.push(mnk::game::Move::new(x, y));
        }
    }
    answers
}

/// The threat searches' limits for `tests/data/must_stop_vct.txt`, as its
/// header states them: a VCT of at most 6 attacker moves (the depth of
/// the engine's root VCTs) within 1,000,000 nodes.
const STOP_VCT_DEPTH: u32 = 6;
const STOP_VCT_NODES: u64 = 1_000_000;

/// Each position of `tests/data/must_stop_vct.txt`, mined from the
/// engine's self-play at 100 ms a move, is one where the opponent, were
/// it to move, wins by continuous threats (threes and fours) in 8 plies
/// or more, but not by fours alone; the side to move has no VCF of its
/// own and no VCT found within the budget; and some move leaves the
/// opponent no VCT. They were chosen for the nodes the side to move's own
/// VCT search takes, the search a root that runs it first may spend its
/// time on. At 300 ms a move the engine must play a stop: its root checks
/// the opponent's VCT and keeps only the moves after which it has none.
///
/// Positions marked `# known miss` are ones the engine does not stop yet
/// (issue 25's root work): they are checked to be what the file says and
/// their answers are reported (unmark one the engine stops every time),
/// but only the others must be stopped. The checks run within a share of
/// the move's wall-clock time, and the whole suite runs on 2 cores in CI:
/// a position missed is asked again, alone in its process, up to twice,
/// and only a miss in all three tries fails.
#[test]
fn stops_every_vct_it_can_see() {
    use mnk::eval::{shipped_weights, Evaluator};
    use mnk::game::{Board, Color, Move, Rules};
    use mnk::threats::{Mode, ThreatSearch, Verdict};
    let rules = Rules::GOMOKU;
    let positions = must_stop_positions(include_str!("../data/must_stop_vct.txt"));
    let known: Vec<bool> = positions
        .iter()
        .map(|(_, c)| c.starts_with("known miss"))
        .collect();
    let required = known.iter().filter(|&&k| !k).count();
    assert!(
        positions.len() >= 20 && required * 4 >= positions.len() * 3,
        "{} positions, {required} of them required",
        positions.len()
    );
    // The table of `mnk solve --vct`, which mined the positions.
    let mut search = ThreatSearch::new(rules, 22);
    let mut eval = Evaluator::new(shipped_weights(rules));
    // `attacker`'s `mode` win in `board`, as if it were to move.
    let mut threat = |board: &Board, attacker: Color, mode: Mode| {
        eval.sync(board);
        search.clear();
        let depth = if mode == Mode::Vct { STOP_VCT_DEPTH } else { 0 };
        search.solve(
            &mut eval,
            board.hash(),
            attacker,
            mode,
            depth,
            STOP_VCT_NODES,
        )
    };
    let boards: Vec<Board> = positions
        .iter()
        .map(|(moves, _)| {
            let mut b = Board::new(rules);
            for &m in moves {
                b.play(m).unwrap();
            }
            b
        })
        .collect();
    // The positions are what the file says.
    for ((moves, _), b) in positions.iter().zip(&boards) {
        let mover = b.to_move();
        let opp = mover.opponent();
        let vct = threat(b, opp, Mode::Vct);
        assert!(
            matches!(vct, Verdict::Win { plies, .. } if plies >= 8),
            "{moves:?}: the opponent's VCT: {vct:?}"
        );
        let vcf = threat(b, opp, Mode::Vcf);
        assert_eq!(vcf, Verdict::NoWin, "{moves:?}: the opponent's VCF");
        let own = threat(b, mover, Mode::Vcf);
        assert_eq!(own, Verdict::NoWin, "{moves:?}: the mover's own VCF");
        let own = threat(b, mover, Mode::Vct);
        assert!(!own.is_win(), "{moves:?}: the mover's own VCT: {own:?}");
    }
    // The engine's answers. A position is missed when the opponent still
    // wins by VCT after the answer, or the search cannot show it does not.
    let mut missed: Vec<usize> = (0..positions.len()).collect();
    let mut last = Vec::new();
    for attempt in 0..3 {
        let asked: Vec<&[Move]> = missed.iter().map(|&i| positions[i].0.as_slice()).collect();
        let answers = if attempt == 0 {
            brain_answers(&asked, 300)
        } else {
            // Alone in its process: one position a transcript.
            asked
                .iter()
                .flat_map(|p| brain_answers(std::slice::from_ref(p), 300))
                .collect()
        };
        let mut still = Vec::new();
        last.clear();
        for (&i, &m) in missed.iter().zip(&answers) {
            let mut b = boards[i].clone();
            let mover = b.to_move();
            b.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            let after = threat(&b, mover.opponent(), Mode::Vct);
            if after != Verdict::NoWin {
                still.push(i);
                last.push(format!("position {}: after {m}, {after:?}", i + 1));
            }
        }
        missed = still;
        // The known misses are asked once.
        if missed.iter().all(|&i| known[i]) {
            break;
        }
    }
    // Every position missed has a move that stops the threat (the file's
    // promise), so the miss is the engine's.
    for &i in &missed {
        let b = &boards[i];
        let mover = b.to_move();
        // The cell of the opponent's first threat first: it often stops it.
        let first = match threat(b, mover.opponent(), Mode::Vct) {
            Verdict::Win { first, .. } => first,
            v => panic!("position {}: {v:?}", i + 1),
        };
        let mut moves = b.legal_moves();
        moves.sort_by_key(|&m| m != first);
        let stop = moves.into_iter().any(|m| {
            let mut c = b.clone();
            c.play(m).unwrap();
            threat(&c, mover.opponent(), Mode::Vct) == Verdict::NoWin
        });
        assert!(stop, "position {}: no move stops the VCT", i + 1);
    }
    let now_stopped: Vec<usize> = (0..positions.len())
        .filter(|&i| known[i] && !missed.contains(&i))
        .map(|i| i + 1)
        .collect();
    eprintln!(
        "must_stop_vct: {} of {} stopped at 300 ms; missed: {last:?}; \
         known misses stopped this time: {now_stopped:?}",
        positions.len() - missed.len(),
        positions.len()
    );
    let required_missed: Vec<&String> = missed
        .iter()
        .zip(&last)
        .filter(|(&i, _)| !known[i])
        .map(|(_, l)| l)
        .collect();
    assert!(
        required_missed.is_empty(),
        "{} of the {required} required positions missed in 3 tries: {required_missed:?}",
        required_missed.len()
    );
}
