//! A running `mnk` process, driven through pipes while it runs: its output
//! is read as it comes, so a test can wait for a prompt or a line before it
//! types or sends SIGINT, instead of sleeping for a fixed time.

#![allow(dead_code)] // each test file uses a part of it

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long anything may take before the test fails (a loaded machine is
/// slow, but not this slow).
pub const TIMEOUT: Duration = Duration::from_secs(120);

pub struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Arc<Mutex<String>>,
    readers: Vec<JoinHandle<()>>,
    stderr: Arc<Mutex<String>>,
}

/// What a finished process left.
pub struct Ended {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

fn reader(mut from: impl Read + Send + 'static, to: Arc<Mutex<String>>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 {
                break;
            }
            to.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    })
}

/// `mnk args` in `dir` with piped stdin, stdout and stderr, not started.
pub fn command(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mnk"));
    c.args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

impl Live {
    /// Starts `mnk args` in `dir` with piped stdin, stdout and stderr.
    pub fn start(dir: &Path, args: &[&str]) -> Live {
        let mut child = command(dir, args).spawn().expect("mnk runs");
        let stdout = Arc::new(Mutex::new(String::new()));
        let stderr = Arc::new(Mutex::new(String::new()));
        let readers = vec![
            reader(child.stdout.take().unwrap(), Arc::clone(&stdout)),
            reader(child.stderr.take().unwrap(), Arc::clone(&stderr)),
        ];
        Live {
            stdin: child.stdin.take(),
            child,
            stdout,
            readers,
            stderr,
        }
    }

    /// The standard output so far.
    pub fn stdout(&self) -> String {
        self.stdout.lock().unwrap().clone()
    }

    /// Waits until `done` holds for the standard output so far.
    pub fn wait_until(&mut self, what: &str, done: impl Fn(&str) -> bool) {
        let start = Instant::now();
        while !done(&self.stdout()) {
            if let Ok(Some(status)) = self.child.try_wait() {
                // Let the readers take the last of the output.
                std::thread::sleep(Duration::from_millis(100));
                if done(&self.stdout()) {
                    return;
                }
                panic!(
                    "mnk ended ({status}) before {what}:\n{}\n{}",
                    self.stdout(),
                    self.stderr.lock().unwrap()
                );
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "no {what} after {TIMEOUT:?}:\n{}",
                self.stdout()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits until the standard output contains `text`.
    pub fn wait_for(&mut self, text: &str) {
        self.wait_until(&format!("{text:?}"), |out| out.contains(text));
    }

    /// Types a line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does.
    pub fn interrupt(&self) {
        let status = Command::new("kill")
            .args(["-INT", &self.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -INT failed");
    }

    /// Seconds of CPU time the process has used so far (Linux: from
    /// `/proc/PID/stat`, in clock ticks of 1/100 s).
    #[cfg(target_os = "linux")]
    pub fn cpu_seconds(&self) -> f64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap_or_default();
        // Fields after the command name (which may hold spaces), from the
        // state (field 3): utime and stime are fields 14 and 15.
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let fields: Vec<u64> = rest
            .split_whitespace()
            .skip(11)
            .take(2)
            .map(|f| f.parse().unwrap_or(0))
            .collect();
        fields.iter().sum::<u64>() as f64 / 100.0
    }

    /// Waits for the process to end, with stdin still open (closing it
    /// first would race an interruption with the end of input).
    pub fn finish(mut self) -> Ended {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > TIMEOUT {
                let _ = self.child.kill();
                panic!("mnk did not end:\n{}", self.stdout());
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        drop(self.stdin.take());
        for r in self.readers.drain(..) {
            r.join().unwrap();
        }
        Ended {
            status,
            stdout: self.stdout(),
            stderr: self.stderr.lock().unwrap().clone(),
        }
    }
}
