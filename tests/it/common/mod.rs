//! Helpers shared by the integration tests: the `mnk` binary as a
//! command, reading files with their path in the panic, training in a
//! thread pool of a given size, and a process driven while it runs
//! ([`live`]).

#![allow(dead_code)] // each test module uses a part of it

pub mod live;
pub mod strategies;

use mnk::eval::Weights;
use mnk::train::{NoObserver, RunConfig, Trainer};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The `mnk` binary built for these tests, not started.
pub fn mnk() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mnk"))
}

/// `mpirun` with no arguments yet, allowed to run as root (as in a
/// container), its stdout and stderr piped.
pub fn launcher() -> Command {
    let mut c = Command::new("mpirun");
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Runs mnk, expects success, and parses stdout as one JSON object (the
/// whole of stdout: any human line there fails the parse); with stderr.
pub fn json(args: &[&str]) -> (serde_json::Value, String) {
    let out = mnk().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {stderr}");
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: stdout is not one JSON object ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    (v, stderr)
}

/// `mnk match` with an SPRT that plays several batches of a short match.
pub const SPRT_MATCH: [&str; 11] = [
    "match",
    "greedy",
    "search:depth=2",
    "-n",
    "12",
    "--seed",
    "4",
    "--sprt",
    "elo0=0,elo1=100",
    "--batch",
    "5",
];

/// A file's text; a missing or unreadable file fails the test naming it.
pub fn read(p: impl AsRef<Path>) -> String {
    std::fs::read_to_string(p.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", p.as_ref().display()))
}

/// What a finished `mnk` run printed, and whether it succeeded.
pub struct Run {
    pub ok: bool,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `mnk args` in `dir` with `input` on stdin (then end of input) and
/// waits for it to end.
pub fn run_in(dir: &Path, args: &[&str], input: &str) -> Run {
    let mut child = live::command(dir, args).spawn().expect("mnk runs");
    let mut stdin = child.stdin.take().unwrap();
    // The program may end before all input is read; a broken pipe is fine.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `mnk args` run to its end: the exit code and stderr.
pub fn code_and_stderr(args: &[&str]) -> (Option<i32>, String) {
    let out = mnk().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Creates the run under `runs` and trains it to the end in a rayon pool of
/// `threads` threads (results must not depend on the count).
pub fn train_in_pool(threads: usize, cfg: RunConfig, start: Weights, runs: &Path) -> Trainer {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut t = Trainer::create(cfg, start, runs, false).unwrap();
        t.run(&mut NoObserver).unwrap();
        t
    })
}

/// `mnk train` on 7x7x4 in `runs` without checks, plots or verdict, with
/// `extra` flags: the exit code and stderr (for refused settings).
pub fn train_cli(runs: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec![
        "train",
        "--game=7x7x4",
        "--check-every=0",
        "--no-plots",
        "--verdict-openings=0",
        "--runs-dir",
        runs.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    code_and_stderr(&args)
}

/// A 7x7x4 run of 24 rounds with checks every 4 (a couple of seconds),
/// named `name` in `runs`, without plots or verdict.
pub fn args_7x7(runs: &Path, name: &str) -> Vec<String> {
    vec![
        "train".into(),
        "--game=7x7x4".into(),
        "--rounds=24".into(),
        "--openings=300".into(),
        "--check-every=4".into(),
        "--check-openings=20".into(),
        "--seed=5".into(),
        "--start=flat".into(),
        format!("--name={name}"),
        format!("--runs-dir={}", runs.display()),
        "--verdict-openings=0".into(),
        "--no-plots".into(),
    ]
}

/// A small tmpfs mounted on a new folder (a full disk on demand), unmounted
/// when dropped, also when the test fails.
pub struct Tmpfs(PathBuf);

impl Tmpfs {
    /// Mounts a tmpfs of `size` (as `mount -o size=` reads it) on
    /// `parent/small`; `None` where the machine does not allow it (not
    /// root).
    pub fn mount(parent: &Path, size: &str) -> Option<Tmpfs> {
        let dir = parent.join("small");
        std::fs::create_dir(&dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            eprintln!("skipped: cannot mount a small tmpfs here");
        }
        mounted.then_some(Tmpfs(dir))
    }

    /// The mounted folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// `mnk train --resume dir` without plots or verdict, with `extra` flags:
/// the exit code and stderr.
pub fn resume_cli(dir: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let dir = dir.to_str().unwrap();
    let args: Vec<&str> = [
        "train",
        "--no-plots",
        "--verdict-openings=0",
        "--resume",
        dir,
    ]
    .iter()
    .chain(extra)
    .copied()
    .collect();
    code_and_stderr(&args)
}

/// Every file of a run folder by its path inside it, as bytes, but the
/// lock file (it holds a process id) and `progress.csv` (timings): what
/// must be the same for two runs of the same configuration.
pub fn run_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(base).unwrap().display().to_string();
            if p.is_dir() {
                walk(base, &p, out);
            } else if rel != ".lock" && rel != "progress.csv" {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}
