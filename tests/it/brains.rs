//! `mnk brains`, the engine-vs-engine match runner, through the built
//! binary: two `mnk brain` processes play colour-swapped pairs that the
//! records show, the report adds up, and engines that answer illegal
//! moves, stay silent, crash or cannot start lose or fail cleanly instead
//! of hanging the runner. Win claims made in lost games count as withdrawn.

use mnk::game::Rules;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_mnk");

/// `mnk brains ARGS`; fails the test if it runs over 60 s.
fn brains(args: &[&str]) -> Output {
    let child = Command::new(BIN)
        .arg("brains")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output().unwrap()));
    rx.recv_timeout(Duration::from_secs(60))
        .expect("mnk brains did not finish within 60 s")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The whole numbers in a line, in order.
fn numbers(line: &str) -> Vec<u64> {
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect()
}

/// The report line that starts with `prefix`.
fn line<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting with {prefix:?} in:\n{out}"))
}

/// The numbers of engine `label`'s row in the answer-time table.
fn row(out: &str, label: &str) -> Vec<u64> {
    let l = out
        .lines()
        .find(|l| {
            let mut words = l.split_whitespace();
            words.next() == Some(label) && words.next().is_some_and(|w| w.parse::<u64>().is_ok())
        })
        .unwrap_or_else(|| panic!("no table row for {label} in:\n{out}"));
    numbers(l)
}

/// An executable shell script in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.to_str().unwrap().to_string()
}

#[test]
fn two_brains_play_colour_swapped_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.csv");
    let a = format!("{BIN} brain --verbose");
    let b = format!("{BIN} brain --depth 2");
    let out = brains(&[
        &a,
        &b,
        "-n",
        "2",
        "--turn-ms",
        "40",
        "--board",
        "9",
        "--concurrency",
        "2",
        "--sprt",
        "elo0=0,elo1=50",
        "--records",
        records.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let wdl = numbers(line(&stdout, "A's result:"));
    assert_eq!(wdl[0] + wdl[1] + wdl[2], 4, "{stdout}");
    assert!(line(&stdout, "A's pairs:").contains("Ptnml(0-2)"));
    assert!(line(&stdout, "SPRT elo0=0,elo1=50").contains("LLR"));
    // A progress line per pair, with the LLR.
    let progress: Vec<_> = stderr.lines().filter(|l| l.contains("pairs")).collect();
    assert_eq!(progress.len(), 2, "{stderr}");
    assert!(progress[1].contains("4 games") && progress[1].contains("LLR"));
    // Answer times: both engines moved, none over the limit's tolerance.
    for engine in ["A", "B"] {
        let row = row(&stdout, engine);
        assert!(row[0] > 0, "{engine}moved: {stdout}");
        assert_eq!(
            row[row.len() - 2..],
            [0, 0],
            "no forfeits or faults: {stdout}"
        );
    }
    // The records: 4 games in match order, each opening's two games with
    // the same first stones and the engines' colours swapped.
    let games = mnk::records::read_records(
        &records,
        Rules::new(9, 9, 5, mnk::game::Rule::Freestyle).unwrap(),
    )
    .unwrap();
    assert_eq!(games.len(), 4);
    for pair in games.chunks(2) {
        assert_eq!(
            (pair[0].black.as_str(), pair[0].white.as_str()),
            (a.as_str(), b.as_str())
        );
        assert_eq!(
            (pair[1].black.as_str(), pair[1].white.as_str()),
            (b.as_str(), a.as_str())
        );
        assert_eq!(pair[0].moves[..4], pair[1].moves[..4]);
        assert!(pair.iter().all(|g| g.result.is_some()));
    }
    assert_ne!(games[0].moves[..4], games[2].moves[..4]);
}

#[test]
fn faulty_engines_lose_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let brain = format!("{BIN} brain");
    let illegal = script(
        dir.path(),
        "illegal.sh",
        "while read -r l; do case \"$l\" in START*) echo OK;; DONE*|TURN*|BEGIN*) echo 99,99;; END*) exit 0;; esac; done\n",
    );
    let garbage = script(
        dir.path(),
        "garbage.sh",
        "while read -r l; do case \"$l\" in START*) echo OK;; DONE*|TURN*|BEGIN*) echo 'MESSAGE thinking'; echo 'seven, seven';; esac; done\n",
    );
    // Silent after START, and deaf to END: it must be killed.
    let silent = script(
        dir.path(),
        "silent.sh",
        "read -r l; echo OK; while true; do sleep 1; done\n",
    );
    let dies = script(
        dir.path(),
        "dies.sh",
        "while read -r l; do case \"$l\" in START*) echo OK;; DONE*|TURN*|BEGIN*) printf '7,'; exit 3;; esac; done\n",
    );
    for (engine, reason) in [
        (&illegal, "illegal move \"99,99\": off the 9x9 board"),
        (&garbage, "unparsable answer \"seven, seven\""),
        (&silent, "time forfeit"),
        (&dies, "crashed: end of output"),
    ] {
        let out = brains(&[
            &brain,
            engine,
            "-n",
            "1",
            "--turn-ms",
            "20",
            "--tolerance-ms",
            "300",
            "--board",
            "9",
        ]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        assert!(
            line(&stdout, "A's result:").starts_with("A's result: W 2 D 0 L 0"),
            "{stdout}"
        );
        let reasons: Vec<_> = stdout
            .lines()
            .filter(|l| l.starts_with("B lost game"))
            .collect();
        assert_eq!(reasons.len(), 2, "{stdout}");
        assert!(reasons.iter().all(|r| r.contains(reason)), "{reasons:?}");
        let b = row(&stdout, "B");
        let (forfeits, faults) = (b[b.len() - 2], b[b.len() - 1]);
        let timed_out = reason == "time forfeit";
        assert_eq!((forfeits, faults), if timed_out { (2, 0) } else { (0, 2) });
    }
}

#[test]
fn claims_in_lost_games_are_withdrawn() {
    // Claims a proven win before every move, and plays along the top row,
    // far from the opening: it loses every game.
    let dir = tempfile::tempdir().unwrap();
    let boaster = script(
        dir.path(),
        "boaster.sh",
        "i=0\nwhile read -r l; do case \"$l\" in START*) echo OK;; DONE*|TURN*|BEGIN*) \
         echo \"MESSAGE depth 1 nodes 1 eval win in 3 (proven: vcf) time 0 ms limit 1 ms move $i,0\"; \
         echo \"$i,0\"; i=$((i+1));; END*) exit 0;; esac; done\n",
    );
    let brain = format!("{BIN} brain --verbose");
    let out = brains(&[
        &boaster,
        &brain,
        "-n",
        "1",
        "--turn-ms",
        "30",
        "--board",
        "15",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        line(&stdout, "A's result:").starts_with("A's result: W 0 D 0 L 2"),
        "{stdout}"
    );
    // Its claims say `win in`, never `likely win`.
    let likely = line(&stdout, "A      likely");
    assert_eq!(numbers(likely), [0, 0, 0, 0], "{likely}");
    let claims = line(&stdout, "A      claims");
    let [moves, withdrawn, games, games_withdrawn, proven, proven_withdrawn, pg, pgw] =
        numbers(claims)[..]
    else {
        panic!("{claims}")
    };
    assert!(moves >= 2, "{claims}");
    assert_eq!(
        (withdrawn, games, games_withdrawn),
        (moves, 2, 2),
        "{claims}"
    );
    assert_eq!(
        (proven, proven_withdrawn, pg, pgw),
        (moves, moves, 2, 2),
        "{claims}"
    );
}

#[test]
fn bad_commands_and_flags_fail_before_any_game() {
    let brain = format!("{BIN} brain");
    let out = brains(&["/nonexistent/engine --flag", &brain, "-n", "1"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "no header before the error");
    assert!(
        stderr.contains(
            "engine A (/nonexistent/engine --flag): cannot start \"/nonexistent/engine\""
        ),
        "{stderr}"
    );

    let out = brains(&[&brain, "mnk 'brain", "-n", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("unbalanced quotes"));

    let out = brains(&[&brain, &brain, "--sprt", "elo0=5,elo1=0"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("elo1 must be greater than elo0"));
    let out = brains(&[&brain, &brain, "--sprt", "elo0=0"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--sprt"));
}

/// Whether any process's command line contains `marker`.
fn process_with(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|p| {
        std::fs::read(p.path().join("cmdline"))
            .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
    })
}

#[test]
#[cfg(target_os = "linux")]
fn ctrl_c_reports_the_games_so_far_and_kills_the_engines() {
    use crate::common::live::Live;
    let dir = tempfile::tempdir().unwrap();
    // A seed no other test uses marks this test's engine processes.
    let a = format!("{BIN} brain --seed 914273");
    let b = format!("{BIN} brain --seed 914274 --depth 2");
    let args = [
        "brains",
        &a,
        &b,
        "-n",
        "50",
        "--turn-ms",
        "100",
        "--board",
        "9",
        "--concurrency",
        "2",
        "--records",
        "g.csv",
    ];
    let mut p = Live::start(dir.path(), &args);
    p.wait_for("50 openings x 2 colours");
    std::thread::sleep(Duration::from_millis(700));
    p.interrupt();
    let ended = p.finish();
    assert_eq!(ended.status.code(), Some(130), "{}", ended.stdout);
    let n: usize = numbers(line(&ended.stdout, "Interrupted after"))[0] as usize;
    assert!(n < 100, "{}", ended.stdout);
    let wdl = numbers(line(&ended.stdout, "A's result:"));
    assert_eq!((wdl[0] + wdl[1] + wdl[2]) as usize, n);
    if n > 0 {
        let rules = Rules::new(9, 9, 5, mnk::game::Rule::Freestyle).unwrap();
        let games = mnk::records::read_records(dir.path().join("g.csv"), rules).unwrap();
        assert_eq!(games.len(), n);
    }
    std::thread::sleep(Duration::from_millis(200));
    assert!(!process_with("914273"), "an engine outlived the runner");
    assert!(!process_with("914274"), "an engine outlived the runner");
}
