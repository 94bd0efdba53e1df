//! The run folder: one process at a time (an OS lock, released by a dead
//! holder), atomic creation, appended CSV files, what resume puts in order
//! (stale temporary files, `best.toml`, folders that never started), an
//! openings file read once from a pipe, plots that fail without costing
//! the verdict, and Ctrl-C between rounds.

use crate::common::{args_7x7, mnk, read, Tmpfs};
use mnk::eval::Weights;
use mnk::game::Rules;
use mnk::train::{NoObserver, RunConfig, TrainError, Trainer};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every file of a run folder by its path inside it, with the run's name
/// replaced; without the lock file (it holds a process id) and
/// `progress.csv` (timings).
fn folder(dir: &Path, name: &str) -> BTreeMap<String, String> {
    fn walk(base: &Path, dir: &Path, name: &str, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(base).unwrap().display().to_string();
            if p.is_dir() {
                walk(base, &p, name, out);
            } else if rel != ".lock" && rel != "progress.csv" {
                let text = read(&p)
                    .replace(&format!("run {name}"), "run NAME")
                    .replace(&format!("name = \"{name}\""), "name = \"NAME\"");
                out.insert(rel, text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, name, &mut out);
    out
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A quick tic-tac-toe run (no checks).
fn args_ttt(runs: &Path, name: &str) -> Vec<String> {
    vec![
        "train".into(),
        "--game=tictactoe".into(),
        "--rounds=3".into(),
        "--openings=10".into(),
        "--check-every=0".into(),
        "--seed=3".into(),
        format!("--name={name}"),
        format!("--runs-dir={}", runs.display()),
        "--verdict-openings=0".into(),
        "--no-plots".into(),
    ]
}

fn resume_args(dir: &Path) -> Vec<String> {
    vec![
        "train".into(),
        format!("--resume={}", dir.display()),
        "--verdict-openings=0".into(),
        "--no-plots".into(),
    ]
}

fn run_ok(args: &[String]) -> Output {
    let out = mnk().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    out
}

/// Rows in `rounds.csv` (0 if it does not exist yet).
fn rows(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("rounds.csv")).map_or(0, |t| t.lines().count().max(1) - 1)
}

/// Waits until the run in `dir` has written `n` rounds (round 0 counts).
fn wait_for_rows(child: &mut Child, dir: &Path, n: usize) {
    let t0 = Instant::now();
    while rows(dir) < n {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before round {n}"
        );
        assert!(t0.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig} failed");
}

fn spawn(args: &[String]) -> Child {
    mnk()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_trainer_holds_its_folder_against_any_other() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = RunConfig::defaults(Rules::TICTACTOE);
    cfg.name = "held".into();
    cfg.rounds = 2;
    cfg.openings = 10;
    cfg.check_every = 0;
    let t = Trainer::create(
        cfg.clone(),
        Weights::flat(Rules::TICTACTOE),
        tmp.path(),
        false,
    )
    .unwrap();
    let dir = t.dir().path().to_path_buf();
    assert_eq!(read(dir.join(".lock")), format!("{}\n", std::process::id()));
    let e = Trainer::resume(&dir).expect_err("held");
    assert!(
        matches!(e, TrainError::Locked { pid: Some(p), .. } if p == std::process::id()),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "{}: in use by another mnk process (pid {}); wait for it to finish or stop it",
            dir.display(),
            std::process::id()
        )
    );
    // Not even --force takes a folder in use.
    let e = Trainer::create(
        cfg.clone(),
        Weights::flat(Rules::TICTACTOE),
        tmp.path(),
        true,
    )
    .expect_err("held");
    assert!(matches!(e, TrainError::Locked { .. }), "{e}");
    assert_eq!(names(tmp.path()), ["held"]);
    drop(t);
    let mut t = Trainer::resume(&dir).unwrap();
    t.run(&mut NoObserver).unwrap();
    assert_eq!(t.next_round(), 3);
}

#[test]
fn a_second_process_is_refused_and_the_first_ends_as_if_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    run_ok(&args_7x7(runs, "alone"));

    let dir = runs.join("first");
    let mut first = spawn(&args_7x7(runs, "first"));
    wait_for_rows(&mut first, &dir, 1);
    let held = format!(
        "{}: in use by another mnk process (pid {}); wait for it to finish or stop it",
        dir.display(),
        first.id()
    );
    let mut other_settings = args_7x7(runs, "first");
    other_settings[6] = "--seed=9".into();
    let mut forced = other_settings.clone();
    forced.push("--force".into());
    let mut more_rounds = resume_args(&dir);
    more_rounds.push("--rounds=30".into());
    for args in [more_rounds, other_settings, forced] {
        let out = mnk().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), format!("error: {held}\n"), "{args:?}");
    }
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first run ended before the others tried: the test proves nothing"
    );
    let out = first.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(folder(&runs.join("alone"), "alone"), folder(&dir, "first"));
    // The refused new runs left no temporary folder behind.
    assert_eq!(names(runs), ["alone", "first"]);
}

#[test]
fn ctrl_c_stops_after_a_whole_round_and_a_dead_holder_blocks_nobody() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    run_ok(&args_7x7(runs, "whole"));
    let dir = runs.join("stopped");

    // Ctrl-C: the round being written is finished, nothing of a later one
    // is left, and the message says where the run stopped.
    let mut child = spawn(&args_7x7(runs, "stopped"));
    wait_for_rows(&mut child, &dir, 4);
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let n = rows(&dir) - 1;
    assert!(n < 24, "the run finished before Ctrl-C");
    // (Before it, a log line per check: stderr is not a terminal.)
    let err = stderr(&out);
    assert!(
        err.ends_with(&format!(
            "\nstopped after round {n}; continue with: mnk train --resume {}\n",
            dir.display()
        )),
        "{err}"
    );
    assert!(dir.join(format!("weights/round-{n:04}.toml")).exists());
    assert!(!dir
        .join(format!("weights/round-{:04}.toml", n + 1))
        .exists());
    assert_eq!(read(dir.join("progress.csv")).lines().count(), n + 2);
    for f in names(&dir).iter().chain(&names(&dir.join("weights"))) {
        assert!(!mnk::util::is_temp_name(f), "left {f}");
    }

    // A resume killed outright: its lock dies with it.
    let mut child = spawn(&resume_args(&dir));
    wait_for_rows(&mut child, &dir, n + 3);
    signal(&child, "-KILL");
    child.wait().unwrap();
    assert_eq!(read(dir.join(".lock")), format!("{}\n", child.id()));
    assert!(rows(&dir) < 25, "the run finished before the kill");

    run_ok(&resume_args(&dir));
    assert_eq!(
        folder(&runs.join("whole"), "whole"),
        folder(&dir, "stopped")
    );
}

#[test]
fn a_new_run_killed_at_any_moment_leaves_no_folder_or_one_that_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    run_ok(&args_ttt(runs, "ref"));
    let reference = folder(&runs.join("ref"), "ref");
    let (mut absent, mut resumed) = (0, 0);
    for i in 0..16u64 {
        let name = format!("k{i}");
        let mut child = spawn(&args_ttt(runs, &name));
        std::thread::sleep(Duration::from_micros(1500 * i));
        let _ = child.kill();
        child.wait().unwrap();
        let dir = runs.join(&name);
        if dir.exists() {
            // Resumable, whatever the moment of the kill.
            run_ok(&resume_args(&dir));
            resumed += 1;
        } else {
            // Started again under the same name, without --force.
            run_ok(&args_ttt(runs, &name));
            absent += 1;
        }
        assert_eq!(folder(&dir, &name), reference, "{name}");
    }
    eprintln!("{absent} kills before the folder existed, {resumed} after");
    // Folders left by a creation that was killed are gone.
    let mut want: Vec<String> = (0..16).map(|i| format!("k{i}")).collect();
    want.push("ref".into());
    want.sort();
    assert_eq!(names(runs), want);
}

#[test]
fn folders_that_never_completed_round_0_are_resumed_or_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    run_ok(&args_ttt(runs, "ref"));
    let reference = folder(&runs.join("ref"), "ref");

    // What an older mnk left when killed in its first milliseconds.
    let dir = runs.join("early");
    std::fs::create_dir_all(dir.join("weights")).unwrap();
    let out = mnk().args(resume_args(&dir)).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "error: cannot resume {0}: {0} has no run.toml: its run was stopped before it started; start it again with the same --name, which replaces the folder\n",
            dir.display()
        )
    );
    assert_eq!(names(&dir), ["weights"], "resume wrote into it");
    let out = run_ok(&args_ttt(runs, "early"));
    assert_eq!(
        stderr(&out),
        format!(
            "note: replaced {}, which never completed round 0\n",
            dir.display()
        )
    );
    assert_eq!(folder(&dir, "early"), reference);

    // Created, but stopped before round 0 was written: it resumes…
    let mut cfg = RunConfig::defaults(Rules::TICTACTOE);
    cfg.name = "zero".into();
    cfg.rounds = 3;
    cfg.openings = 10;
    cfg.check_every = 0;
    cfg.seed = 3;
    cfg.start = "shipped".into();
    // As `--verdict-openings=0` of `args_ttt` records it.
    cfg.verdict_openings = Some(0);
    let start = mnk::eval::shipped_weights(Rules::TICTACTOE);
    let t = Trainer::create(cfg.clone(), start.clone(), runs, false).unwrap();
    let dir = t.dir().path().to_path_buf();
    drop(t);
    assert_eq!(names(&dir), [".lock", "run.toml", "weights"]);
    let mut t = Trainer::resume(&dir).unwrap();
    assert_eq!(t.next_round(), 0);
    t.run(&mut NoObserver).unwrap();
    drop(t);
    assert_eq!(folder(&dir, "zero"), reference);

    // …and a new run of its name replaces it, also with an incomplete
    // round 0 row, but not once round 0 is complete.
    let rounds = read(dir.join("rounds.csv"));
    let row0 = rounds.lines().take(2).collect::<Vec<_>>().join("\n") + "\n";
    std::fs::write(dir.join("rounds.csv"), &row0[..row0.len() - 5]).unwrap();
    let t = Trainer::create(cfg.clone(), start.clone(), runs, false).unwrap();
    assert_eq!(
        t.notes(),
        [format!(
            "replaced {}, which never completed round 0",
            dir.display()
        )]
    );
    drop(t);
    std::fs::write(dir.join("rounds.csv"), &row0).unwrap();
    let e = Trainer::create(cfg, start, runs, false).expect_err("kept");
    assert!(matches!(e, TrainError::Exists { .. }), "{e}");
}

#[test]
fn resume_deletes_stale_temporaries_and_repairs_best_toml() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    run_ok(&args_ttt(runs, "t"));
    let dir = runs.join("t");
    let round3 = read(dir.join("weights/round-0003.toml"));
    let best = dir.join("weights/best.toml");
    assert_eq!(read(&best), round3);

    std::fs::create_dir(dir.join("plots")).unwrap();
    let stale = [
        ".rounds.csv.tmp4242-0",
        "weights/.best.toml.tmp4242-7",
        "plots/.tmp-weights-4242.png",
    ];
    for f in stale {
        std::fs::write(dir.join(f), "half").unwrap();
    }
    // Folders of an interrupted creation or replacement of the run, next
    // to it: deleted when nobody holds them.
    // Without a lock file: a live creator's (this process's id) is kept,
    // a dead one's (an id no process has) is deleted where /proc tells.
    let unlocked_live = format!(".t~new-{}-0", std::process::id());
    let unlocked_dead = ".t~new-4294967295-0";
    for f in [
        ".t~old-4242-0",
        ".t~new-4242-1",
        ".t~new-4243-0",
        &unlocked_live,
        unlocked_dead,
    ] {
        std::fs::create_dir(runs.join(f)).unwrap();
        std::fs::write(runs.join(f).join("run.toml"), "x").unwrap();
    }
    for f in [".t~old-4242-0", ".t~new-4242-1", ".t~new-4243-0"] {
        std::fs::write(runs.join(f).join(".lock"), "4242\n").unwrap();
    }
    let held = mnk::train::RunLock::acquire(&runs.join(".t~new-4243-0")).unwrap();
    // Not mnk's temporary names: kept.
    std::fs::write(dir.join(".notes.tmp"), "mine").unwrap();
    std::fs::write(dir.join("plots/.tmp-weights.png"), "mine").unwrap();
    std::fs::write(&best, "attack = \"cut").unwrap();
    let out = run_ok(&resume_args(&dir));
    let err = stderr(&out);
    assert_eq!(
        err,
        format!(
            "note: deleted 3 temporary files left by an interrupted write\nnote: rewrote {}: it was damaged\n",
            best.display()
        )
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("trained weights: {}", best.display())),
        "{stdout}"
    );
    assert_eq!(read(&best), round3);
    for f in stale {
        assert!(!dir.join(f).exists(), "{f} left");
    }
    assert!(dir.join(".notes.tmp").exists() && dir.join("plots/.tmp-weights.png").exists());
    // Held by a live creator, or not yet locked by it: kept.
    let mut kept = vec![".t~new-4243-0".to_string(), unlocked_live, "t".into()];
    if !Path::new("/proc/self").exists() {
        kept.push(unlocked_dead.into());
    }
    kept.sort();
    assert_eq!(names(runs), kept);
    drop(held);

    // Valid weights of another round, and a missing last round file.
    std::fs::write(&best, Weights::flat(Rules::TICTACTOE).to_toml("other")).unwrap();
    std::fs::remove_file(dir.join("weights/round-0003.toml")).unwrap();
    let t = Trainer::resume(&dir).unwrap();
    assert_eq!(
        t.notes(),
        [
            format!(
                "rewrote {}: it was missing",
                dir.join("weights/round-0003.toml").display()
            ),
            format!(
                "rewrote {}: it did not hold round 3's weights",
                best.display()
            )
        ]
    );
    assert_eq!(read(&best), round3);
    assert_eq!(read(dir.join("weights/round-0003.toml")), round3);
    drop(t);
    // Nothing left to repair.
    assert!(Trainer::resume(&dir).unwrap().notes().is_empty());
}

#[test]
fn an_openings_file_from_a_fifo_is_read_once() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let text = "# two openings\n0,0, 1,0\n1,1, -1,-1\n";
    let file = tmp.path().join("openings.txt");
    std::fs::write(&file, text).unwrap();
    let fifo = tmp.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no mkfifo here");
        return;
    }
    let args = |name: &str, openings: &Path| {
        let mut a = args_ttt(&runs, name);
        // A book is never cut short or repeated: a round of this 2-opening
        // book plays 2 openings per pairing.
        a.retain(|x| x != "--openings=10");
        a.push("--openings=2".into());
        a.push(format!("--openings-file={}", openings.display()));
        a
    };
    run_ok(&args("file", &file));
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, text).unwrap())
    };
    run_ok(&args("fifo", &fifo));
    writer.join().unwrap();
    assert_eq!(read(runs.join("fifo/openings.txt")), text);
    // The run can be resumed and goes on as one from a regular file.
    for name in ["file", "fifo"] {
        let mut a = resume_args(&runs.join(name));
        a.push("--rounds=5".into());
        run_ok(&a);
    }
    let mut fifo_run = folder(&runs.join("fifo"), "fifo");
    let toml = fifo_run.get_mut("run.toml").unwrap();
    *toml = toml.replace(&fifo.display().to_string(), &file.display().to_string());
    assert_eq!(fifo_run, folder(&runs.join("file"), "file"));
}

#[test]
fn plots_that_cannot_be_drawn_keep_the_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    run_ok(&args_ttt(runs, "t"));
    let dir = runs.join("t");
    // A file where the plots folder should be.
    std::fs::write(dir.join("plots"), "in the way").unwrap();
    let out = mnk()
        .args([
            "train".to_string(),
            format!("--resume={}", dir.display()),
            "--rounds=4".into(),
            "--verdict-openings=20".into(),
        ])
        .output()
        .unwrap();
    let (stdout, err) = (String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        stdout.contains("plots: not drawn (see the error below)\nverdict: trained vs start: "),
        "{stdout}"
    );
    assert!(
        err.starts_with(&format!(
            "error: the plots could not be drawn (the training is complete; draw them later with: mnk plot {0}): {0}/plots: cannot draw: ",
            dir.display()
        )),
        "{err}"
    );
    assert_eq!(rows(&dir), 5);
}

/// A full disk while a plot is drawn: no partial picture is left. Needs a
/// small tmpfs (root).
#[test]
fn a_plot_that_fills_the_disk_leaves_no_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    run_ok(&args_ttt(tmp.path(), "t"));
    let Some(small) = Tmpfs::mount(tmp.path(), "256k") else {
        return;
    };
    let mnt = small.path();
    let dir = mnt.join("t");
    let copied = Command::new("cp")
        .arg("-r")
        .arg(tmp.path().join("t"))
        .arg(&dir)
        .status()
        .unwrap();
    // Leave about 40 KB free: less than one PNG chart.
    let df = Command::new("df")
        .args(["-B1", "--output=avail"])
        .arg(mnt)
        .output()
        .unwrap();
    let avail: Option<u64> = String::from_utf8_lossy(&df.stdout)
        .lines()
        .nth(1)
        .and_then(|l| l.trim().parse().ok());
    let filled = avail.map(|a| std::fs::write(mnt.join("fill"), vec![0u8; a as usize - 40_000]));
    let out = mnk().arg("plot").arg(&dir).output().unwrap();
    let plots = names(&dir.join("plots"));
    assert!(
        copied.success() && filled.is_some_and(|r| r.is_ok()),
        "setup failed"
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("No space left on device"),
        "{}",
        stderr(&out)
    );
    assert!(
        !plots.iter().any(|f| mnk::util::is_temp_name(f)),
        "{plots:?}"
    );
}

/// The CSV files grow by appends: a run writes a small multiple of the
/// folder's size, not the square of its rounds (the bytes the process
/// wrote, from `/proc/<pid>/io` of a shell that waited for it).
#[test]
fn a_long_run_writes_a_small_multiple_of_its_folder() {
    if !Path::new("/proc/self/io").exists() {
        eprintln!("skipped: no /proc/self/io");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut args = args_ttt(tmp.path(), "long");
    args[2] = "--rounds=300".into();
    args[3] = "--openings=2".into();
    args[4] = "--check-every=1".into();
    let out = Command::new("sh")
        .arg("-c")
        .arg(r#""$0" "$@" >/dev/null 2>&1 || exit 9; cat /proc/$$/io"#)
        .arg(env!("CARGO_BIN_EXE_mnk"))
        .args(&args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let io = String::from_utf8_lossy(&out.stdout);
    let wchar: u64 = io
        .lines()
        .find_map(|l| l.strip_prefix("wchar: "))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    fn size(p: &Path) -> u64 {
        std::fs::read_dir(p)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let m = e.metadata().unwrap();
                if m.is_dir() {
                    size(&e.path())
                } else {
                    m.len()
                }
            })
            .sum()
    }
    let folder_size = size(&tmp.path().join("long"));
    assert_eq!(rows(&tmp.path().join("long")), 301);
    assert!(
        wchar <= 3 * folder_size,
        "wrote {wchar} bytes for a folder of {folder_size}"
    );
    eprintln!("wrote {wchar} bytes for a folder of {folder_size}");
}

/// A `.lock` planted as a symbolic link to another file is neither followed
/// nor written (the old lock wrote its process id into the victim), and a
/// FIFO named `.lock` is refused at once rather than waited on.
#[cfg(unix)]
#[test]
fn a_lock_that_is_not_a_regular_file_is_refused_untouched() {
    let runs = tempfile::tempdir().unwrap();
    run_ok(&args_ttt(runs.path(), "x"));
    let dir = runs.path().join("x");
    let before = folder(&dir, "x");
    let victim = runs.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let lock = dir.join(".lock");
    std::fs::remove_file(&lock).unwrap();
    std::os::unix::fs::symlink(&victim, &lock).unwrap();
    let mut args = resume_args(&dir);
    args.push("--rounds=4".into());
    let out = mnk().args(&args).output().unwrap();
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(
        e.contains(".lock: the lock file is a symbolic link, not a regular file"),
        "{e}"
    );
    assert_eq!(read(&victim), "precious\n");
    assert_eq!(
        folder(&dir, "x"),
        before,
        "the refused resume changed the run"
    );

    std::fs::remove_file(&lock).unwrap();
    let made = Command::new("mkfifo").arg(&lock).status().unwrap();
    assert!(made.success());
    let t0 = Instant::now();
    let out = mnk().args(&args).output().unwrap();
    assert!(t0.elapsed() < Duration::from_secs(20), "waited on the FIFO");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the lock file is a FIFO"),
        "{}",
        stderr(&out)
    );
}

/// A run stopped while it played its closing verdict (after its last
/// round's row landed) has no `verdict.toml`: the resume plays the verdict
/// and records it, rather than saying there is nothing to do; once it is
/// recorded, a resume has nothing to do again.
#[test]
fn a_finished_run_without_its_verdict_plays_it_on_resume() {
    let runs = tempfile::tempdir().unwrap();
    let mut args = args_ttt(runs.path(), "v");
    args.retain(|a| a != "--verdict-openings=0");
    args.push("--verdict-openings=5".into());
    run_ok(&args);
    let dir = runs.path().join("v");
    let verdict = dir.join("verdict.toml");
    let recorded = read(&verdict);
    // As the kill just after the last row leaves it.
    std::fs::remove_file(&verdict).unwrap();
    let resume = [
        "train".to_string(),
        format!("--resume={}", dir.display()),
        "--verdict-openings=5".into(),
        "--no-plots".into(),
    ];
    let out = run_ok(&resume);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("its closing verdict was not recorded: playing it now"),
        "{said}"
    );
    assert!(said.contains("verdict: trained vs start: "), "{said}");
    // The same verdict as the one that was lost: it depends on the seed only.
    assert_eq!(read(&verdict), recorded);
    let out = run_ok(&resume);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("is finished, nothing to do"), "{said}");
    assert!(!said.contains("verdict: "), "{said}");
}

/// `--verdict-openings` is the run's, kept in `run.toml` when given: a run
/// started with 0 and resumed without the flag plays no verdict (it used
/// to play the default 1000 openings), and a resume that gives it again
/// changes it for that resume and the ones after.
#[test]
fn a_resume_keeps_the_runs_verdict_openings() {
    let runs = tempfile::tempdir().unwrap();
    let mut args = args_ttt(runs.path(), "kv");
    args.retain(|a| a != "--rounds=3");
    args.push("--rounds=1".into());
    run_ok(&args);
    let dir = runs.path().join("kv");
    assert!(read(dir.join("run.toml")).contains("verdict_openings = 0"));
    let resume = |more: &[&str]| {
        let mut a = vec![
            "train".to_string(),
            format!("--resume={}", dir.display()),
            "--no-plots".into(),
        ];
        a.extend(more.iter().map(|s| s.to_string()));
        run_ok(&a)
    };
    let out = resume(&["--rounds=2"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!said.contains("verdict: "), "{said}");
    assert!(!dir.join("verdict.toml").exists());
    let out = resume(&["--rounds=3", "--verdict-openings=4"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("verdict: trained vs start: "), "{said}");
    assert!(read(dir.join("verdict.toml")).contains("openings = 4"));
    assert!(read(dir.join("run.toml")).contains("verdict_openings = 4"));
    // A run started without the flag plays the default and keeps
    // run.toml as it always was.
    let mut args = args_ttt(runs.path(), "dv");
    args.retain(|a| a != "--verdict-openings=0" && a != "--rounds=3");
    args.push("--rounds=1".into());
    run_ok(&args);
    let dv = runs.path().join("dv");
    assert!(read(dv.join("verdict.toml")).contains("openings = 1000"));
    assert!(!read(dv.join("run.toml")).contains("verdict_openings"));
}

/// Resume trusts nothing it did not write: a run.toml whose seed was
/// edited, a round row whose weight, σ or derived score was edited, and a
/// check row with an impossible value are each refused naming the file,
/// and the refused resume changes nothing. (The old resume checked only
/// the last round and accepted and rewrote all of these.)
#[test]
fn resume_refuses_a_history_edited_after_it_was_written() {
    let runs = tempfile::tempdir().unwrap();
    let mut args = args_ttt(runs.path(), "h");
    args.retain(|a| a != "--check-every=0");
    args.push("--check-every=1".into());
    run_ok(&args);
    let dir = runs.path().join("h");
    let mut resume = resume_args(&dir);
    resume.push("--rounds=4".into());
    let refused = |file: &str, edit: &dyn Fn(&str) -> String, says: &str| {
        let path = dir.join(file);
        let good = read(&path);
        std::fs::write(&path, edit(&good)).unwrap();
        let before = folder(&dir, "h");
        let out = mnk().args(&resume).output().unwrap();
        let e = stderr(&out);
        assert!(!out.status.success(), "{file}: an edit was accepted");
        assert!(e.contains(file) && e.contains(says), "{file}: {e}");
        assert_eq!(
            folder(&dir, "h"),
            before,
            "{file}: the refused resume wrote"
        );
        std::fs::write(&path, good).unwrap();
    };
    // A changed seed: the rounds played no longer follow from run.toml.
    refused(
        "run.toml",
        &|t| t.replace("seed = 3", "seed = 4"),
        "its settings were edited after the run wrote them",
    );
    // A column of row `round` of a CSV file, set to `value`.
    fn set(text: &str, round: usize, column: &str, value: &str) -> String {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let i = lines[0].split(',').position(|c| c == column).unwrap();
        let row = lines
            .iter()
            .position(|l| l.split(',').next() == Some(&round.to_string()))
            .unwrap();
        let mut fields: Vec<String> = lines[row].split(',').map(String::from).collect();
        fields[i] = value.to_string();
        lines[row] = fields.join(",");
        lines.join("\n") + "\n"
    }
    refused(
        "rounds.csv",
        &|t| set(t, 2, "attack", "0.123"),
        "the weights of round 2 differ",
    );
    refused(
        "rounds.csv",
        &|t| set(t, 2, "sigma", "nan"),
        "column sigma: NaN is not a finite number 0 or more",
    );
    refused(
        "checks.csv",
        &|t| set(t, 2, "agreement", "2.5"),
        "column agreement: 2.5 is not a finite number from 0 to 1",
    );
    // Untouched, it resumes.
    run_ok(&resume);
}

/// A setting refused at the start leaves no folder behind: a verdict the
/// book's check part cannot play was refused only after `runs/V` was made,
/// and a later `--resume` trained that folder without complaint.
#[test]
fn a_refused_new_run_leaves_no_folder() {
    let runs = tempfile::tempdir().unwrap();
    let args = [
        "train",
        "--rounds=2",
        "--verdict-openings=20000",
        "--name=V",
        "--no-plots",
    ];
    let out = mnk()
        .args(args)
        .arg(format!("--runs-dir={}", runs.path().display()))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(
        e.contains("--verdict-openings 20000: the book's check part holds only 10000 openings"),
        "{e}"
    );
    assert!(
        !runs.path().join("V").exists(),
        "the refused run left its folder"
    );
}
