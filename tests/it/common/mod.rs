//! Helpers shared by the integration tests: the `mnk` binary as a
//! command, reading files with their path in the panic, training in a
//! thread pool of a given size, and a process driven while it runs
//! ([`live`]).

#![allow(dead_code)] // each test module uses a part of it

pub mod live;

use mnk::eval::Weights;
use mnk::train::{NoObserver, RunConfig, Trainer};
use std::io::Write;
use std::path::Path;
use std::process::Command;

/// The `mnk` binary built for these tests, not started.
pub fn mnk() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mnk"))
}

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
