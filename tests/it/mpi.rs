//! `mnk train` and `mnk match` under `mpirun` (the cargo feature `mpi`):
//! the same files and output as one process for any number of ranks and
//! threads, every optimiser and selection mode, a killed or panicking rank
//! ending the job at once, a resume with another rank count, and ranks
//! that disagree or cannot start naming themselves.
//!
//! Needs Open MPI's `mpirun` (`openmpi-bin`); `.ci/run` installs it.

use crate::common::{launcher, read, run_files, SPRT_MATCH};
use std::path::Path;
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

const MNK: &str = env!("CARGO_BIN_EXE_mnk");

/// `mpirun` for `np` ranks, bound to no core, any number of ranks on this
/// machine, as root if need be.
fn mpirun(np: usize) -> Command {
    let mut c = launcher();
    c.args(["--oversubscribe", "--bind-to", "none", "-np"])
        .arg(np.to_string());
    c
}

/// Waits for a job, failing the test if it runs past `limit` (a job that
/// hangs must not hang the tests).
fn finish(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "the job ran past {limit:?}; stderr:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Waits for a job that must fail within 30 s: its stderr.
fn failed(child: Child) -> String {
    let out = finish(child, Duration::from_secs(30));
    assert!(!out.status.success());
    text(&out.stderr)
}

/// `mpirun` with one app context per entry: (ranks, working directory,
/// arguments), as for ranks on machines that differ.
fn mpmd(apps: &[(usize, Option<&Path>, &[String])]) -> Command {
    let mut c = launcher();
    c.arg("--oversubscribe");
    for (i, (np, wdir, args)) in apps.iter().enumerate() {
        if i > 0 {
            c.arg(":");
        }
        c.args(["-np", &np.to_string()]);
        if let Some(d) = wdir {
            c.arg("-wdir").arg(d);
        }
        c.arg(MNK).args(*args);
    }
    c
}

fn spawn(mut c: Command) -> Child {
    c.spawn()
        .expect("mpirun runs (install openmpi-bin: apt-get install openmpi-bin libopenmpi-dev)")
}

/// `mnk args` as one process, without a launcher.
fn alone(args: &[String]) -> Output {
    let out = Command::new(MNK).args(args).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

/// `mpirun -np np mnk args`, which must succeed within a minute.
fn shared(np: usize, args: &[String]) -> Output {
    let mut c = mpirun(np);
    c.arg(MNK).args(args);
    let out = finish(spawn(c), Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The lines of a run's output that do not depend on timing or on the
/// folder's path: the rounds' log, the summary's counts and the verdict.
fn deterministic_lines(out: &Output, runs: &Path) -> Vec<String> {
    text(&out.stdout)
        .lines()
        .chain(text(&out.stderr).lines())
        .filter(|l| !l.starts_with("job: ") && !l.contains("games/s") && !l.contains(" in all"))
        // A job's log lines end with the ranks' waiting and sums.
        .map(|l| l.split(" | idle ").next().unwrap_or(l))
        .map(|l| l.replace(&runs.display().to_string(), "RUNS"))
        .collect()
}

/// A short training run in `runs`; `extra` flags replace the defaults of
/// the same name, and `--NAME=-` drops flag NAME.
fn train_args(runs: &Path, extra: &[&str]) -> Vec<String> {
    let key = |f: &str| f.split('=').next().unwrap_or(f).to_string();
    let mut v: Vec<String> = [
        "train",
        "--rounds=4",
        "--challengers=3",
        "--openings=6",
        "--check-every=2",
        "--check-openings=8",
        "--verdict-openings=10",
        "--no-plots",
        "--name=run",
    ]
    .iter()
    .filter(|f| !extra.iter().any(|e| key(e) == key(f)))
    .map(|s| s.to_string())
    .collect();
    v.push(format!("--runs-dir={}", runs.display()));
    v.extend(
        extra
            .iter()
            .filter(|e| !e.ends_with("=-"))
            .map(|s| s.to_string()),
    );
    v
}

fn assert_same_run(
    expected: &Path,
    expected_out: &Output,
    got: &Path,
    got_out: &Output,
    what: &str,
) {
    assert_eq!(
        run_files(&expected.join("run")),
        run_files(&got.join("run")),
        "{what}: the run folders differ"
    );
    assert_eq!(
        deterministic_lines(expected_out, expected),
        deterministic_lines(got_out, got),
        "{what}: the output differs"
    );
}

#[test]
fn a_run_is_the_same_for_any_number_of_ranks_and_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let solo = tmp.path().join("solo");
    let expected = alone(&train_args(&solo, &["--select=confirm"]));
    assert!(solo.join("run/checks.csv").exists());
    for (np, threads) in [(2, 1), (2, 2), (3, 1), (3, 2)] {
        let runs = tmp.path().join(format!("np{np}t{threads}"));
        let mut args = vec![format!("--threads={threads}")];
        args.extend(train_args(&runs, &["--select=confirm"]));
        let out = shared(np, &args);
        let stdout = text(&out.stdout);
        let threads_line = vec![threads.to_string(); np].join(", ");
        assert!(
            stdout.contains(&format!(
                "job: {np} MPI ranks, rayon threads per rank: {threads_line}"
            )),
            "{stdout}"
        );
        assert_same_run(
            &solo,
            &expected,
            &runs,
            &out,
            &format!("{np} ranks × {threads} threads"),
        );
    }
}

#[test]
fn every_optimiser_and_selection_mode_is_shared() {
    let tmp = tempfile::tempdir().unwrap();
    let modes: [&[&str]; 5] = [
        &["--select=best"],
        &["--select=gauntlet"],
        &[
            "--optimizer=spsa",
            "--spsa-openings=6",
            "--challengers=-",
            "--openings=-",
        ],
        &[
            "--optimizer=cmaes",
            "--cmaes-lambda=4",
            "--cmaes-openings=6",
            "--challengers=-",
            "--openings=-",
        ],
        // Exact checks on a board small enough to solve.
        &["--game=tictactoe", "--start=flat"],
    ];
    for (i, extra) in modes.into_iter().enumerate() {
        let solo = tmp.path().join(format!("solo{i}"));
        let expected = alone(&train_args(&solo, extra));
        let runs = tmp.path().join(format!("shared{i}"));
        let out = shared(3, &train_args(&runs, extra));
        assert_same_run(&solo, &expected, &runs, &out, &extra.join(" "));
    }
}

/// The processes whose parent is `pid` (the ranks `mpirun` started).
fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid …: comm may hold spaces, so read after ')'.
        let after = &stat[stat.rfind(')').unwrap_or(0) + 1..];
        if after.split_whitespace().nth(1) == Some(&pid.to_string()) {
            out.push(child);
        }
    }
    out.sort_unstable();
    out
}

#[test]
fn a_killed_rank_ends_the_job_and_the_run_resumes_on_another_rank_count() {
    let tmp = tempfile::tempdir().unwrap();
    let long = [
        "--rounds=30",
        "--openings=30",
        "--challengers=5",
        "--check-every=5",
    ];
    let solo = tmp.path().join("solo");
    let expected = alone(&train_args(&solo, &long));
    let runs = tmp.path().join("killed");
    let mut c = mpirun(2);
    c.arg(MNK).args(train_args(&runs, &long));
    let job = spawn(c);
    let rounds = runs.join("run/rounds.csv");
    let start = Instant::now();
    while std::fs::read_to_string(&rounds).map_or(0, |t| t.lines().count()) < 4 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no round was written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let ranks = children(job.id());
    assert_eq!(ranks.len(), 2, "mpirun's children: {ranks:?}");
    Command::new("kill")
        .args(["-9", &ranks[1].to_string()])
        .status()
        .unwrap();
    let killed = Instant::now();
    let stderr = failed(job);
    assert!(
        killed.elapsed() < Duration::from_secs(10),
        "the job took {:?} to end",
        killed.elapsed()
    );
    // mpirun stops rank 0 with SIGTERM, which it takes as Ctrl-C: it
    // finishes writing the round in hand and says how to go on.
    assert!(
        stderr.contains("; continue with: mnk train --resume"),
        "{stderr}"
    );
    let done = read(&rounds).lines().count();
    assert!(
        done < 32,
        "the job ended before its last round ({done} lines)"
    );
    // Resumed on three ranks, it ends as the uninterrupted run did.
    let resume = [
        "train".to_string(),
        format!("--resume={}", runs.join("run").display()),
        "--no-plots".into(),
        "--verdict-openings=10".into(),
    ];
    let out = shared(3, &resume);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("resuming"), "{stdout}");
    assert_eq!(run_files(&solo.join("run")), run_files(&runs.join("run")));
    let verdict = |o: &Output| {
        text(&o.stdout)
            .lines()
            .find(|l| l.starts_with("verdict:"))
            .map(str::to_string)
    };
    assert_eq!(verdict(&expected), verdict(&out));
}

#[test]
fn a_panicking_rank_ends_the_job_within_seconds() {
    let tmp = tempfile::tempdir().unwrap();
    let mut c = mpirun(3);
    c.arg(MNK)
        .args(train_args(tmp.path(), &["--rounds=50"]))
        .env("MNK_TEST_PANIC", "2:1");
    let start = Instant::now();
    let stderr = failed(spawn(c));
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert!(
        stderr.contains("mnk: rank 2 panicked: ending the whole job"),
        "{stderr}"
    );
}

#[test]
fn ranks_with_other_arguments_fail_naming_the_rank_and_the_argument() {
    let tmp = tempfile::tempdir().unwrap();
    let args = |seed: &str| {
        let mut v = train_args(tmp.path(), &[]);
        v.push(format!("--seed={seed}"));
        v
    };
    let c = mpmd(&[(2, None, &args("1")), (1, None, &args("2"))]);
    let stderr = failed(spawn(c));
    assert!(
        stderr.contains("error: rank 2 was started with other arguments than rank 0: argument 11 is `--seed=2` here and `--seed=1` on rank 0"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "error: rank 2 was started with other arguments than rank 0 (see its message)"
        ),
        "{stderr}"
    );
    assert!(
        !tmp.path().join("run").exists(),
        "a refused job wrote a run"
    );
}

#[test]
fn a_rank_that_cannot_read_a_weights_file_fails_the_job_naming_itself() {
    let tmp = tempfile::tempdir().unwrap();
    let (d0, d1) = (tmp.path().join("a"), tmp.path().join("b"));
    std::fs::create_dir_all(&d0).unwrap();
    std::fs::create_dir_all(&d1).unwrap();
    let w = mnk::eval::shipped_weights(mnk::game::Rules::GOMOKU).to_toml("w");
    std::fs::write(d0.join("w.toml"), w).unwrap();
    let args = ["match", "greedy:weights=w.toml", "greedy", "-n", "4"].map(String::from);
    // The same command on two machines, one without the file: -wdir sets
    // each rank's working directory.
    let c = mpmd(&[(1, Some(&d0), &args), (1, Some(&d1), &args)]);
    let out = finish(spawn(c), Duration::from_secs(30));
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("error: rank 1 could not start (see its message)"),
        "{stderr}"
    );
    assert!(
        stderr
            .contains("error: rank 1: player spec \"greedy:weights=w.toml\": w.toml: cannot read"),
        "{stderr}"
    );
    assert!(!text(&out.stdout).contains("A's result"));
}

#[test]
fn a_shared_match_prints_and_records_what_one_process_does() {
    let tmp = tempfile::tempdir().unwrap();
    let args = |records: &str| -> Vec<String> {
        SPRT_MATCH
            .iter()
            .chain(&["--records"])
            .map(|s| s.to_string())
            .chain([tmp.path().join(records).display().to_string()])
            .collect()
    };
    let expected = alone(&args("alone.csv"));
    let out = shared(3, &args("shared.csv"));
    let lines = |o: &Output| -> Vec<String> {
        text(&o.stdout)
            .lines()
            .chain(text(&o.stderr).lines())
            .filter(|l| !l.starts_with("job: ") && !l.contains("games/s"))
            .map(|l| l.replace("shared.csv", "FILE").replace("alone.csv", "FILE"))
            .collect()
    };
    assert_eq!(lines(&expected), lines(&out));
    let games = |f: &str| -> String {
        read(tmp.path().join(f))
            .lines()
            .map(|l| match l.find(" date=") {
                Some(i) => &l[..i],
                None => l,
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(games("alone.csv"), games("shared.csv"));
}

#[test]
fn other_commands_refuse_to_run_as_several_processes() {
    let mut c = mpirun(2);
    c.args([MNK, "bench"]);
    let stderr = failed(spawn(c));
    assert!(
        stderr.contains("error: `mnk bench` runs as one process; only `mnk train` and `mnk match` share their games among MPI ranks"),
        "{stderr}"
    );
    // Said once, not once a rank.
    assert_eq!(stderr.matches("runs as one process").count(), 1, "{stderr}");
}

/// Open MPI binds each rank to one core by default, and rayon then runs
/// one thread: a rank whose share of its machine is larger says so. Here
/// each rank is told it is alone on the machine (as with one rank a
/// machine), where the machine has cores to spare.
#[test]
fn a_rank_bound_below_its_share_of_the_cores_is_warned_about() {
    if mnk::cluster::cores_online().unwrap_or(1) < 2 {
        eprintln!("one core here: no binding to warn about");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for bind in ["core", "none"] {
        let runs = tmp.path().join(bind);
        let script = format!(
            "OMPI_COMM_WORLD_LOCAL_SIZE=1 exec {MNK} train --rounds=1 --no-plots --verdict-openings=0 --runs-dir={}",
            runs.display()
        );
        let mut c = launcher();
        c.args([
            "--oversubscribe",
            "--bind-to",
            bind,
            "-np",
            "2",
            "sh",
            "-c",
            &script,
        ])
        .env_remove("SLURM_JOB_ID");
        let out = finish(spawn(c), Duration::from_secs(60));
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stderr = text(&out.stderr);
        let warned =
            stderr.contains("is bound to 1 core where its share of its machine's cores is");
        assert_eq!(warned, bind == "core", "--bind-to {bind}: {stderr}");
    }
}
