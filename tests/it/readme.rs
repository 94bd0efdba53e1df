//! The docs' examples are tests: every ```` ```console ```` block of the
//! README and of the command pages (`docs/commands/*.md`, [`PAGES`]) runs
//! its `$ mnk …` commands and compares what they print with the lines
//! below them, so a page that drifts from the program fails `cargo test`.
//!
//! The syntax is trycmd's (the matching is snapbox's):
//! - `$ mnk ARGS` runs the binary under test (split like a shell would);
//!   the lines up to the next `$` are its stdout and stderr as one stream,
//!   in the order written (stderr is unbuffered and stdout line-buffered,
//!   so a line is never split);
//! - `? 1` right after a command expects that exit status (0 otherwise);
//! - `...` on a line of its own stands for any lines, and `[..]` for any
//!   text within a line: timings, dates, speeds;
//! - ```` ```console slow ```` blocks (training, long matches) run only in
//!   [`slow_examples`] (ignored by the plain `cargo test`; `.ci/run` runs
//!   it), and ```` ```console ignore ```` blocks never run (interactive
//!   sessions, other machines).
//!
//! All blocks run in [`PAGES`] order, and in page order within a page, in
//! one scratch folder that holds a copy of `weights/`, so a later example
//! may use what an earlier one wrote. A fast block must not depend on a
//! slow one.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The pages whose examples run, in the order they run: the README's
/// tour first, then the command pages in the order a reader meets the
/// commands (later pages use the run folders earlier ones train). Every
/// page in `docs/commands/` must be listed
/// ([`every_command_page_is_tested`]).
const PAGES: &[&str] = &[
    "README.md",
    "docs/commands/specs.md",
    "docs/commands/train.md",
    "docs/commands/mpi.md",
    "docs/commands/plot.md",
    "docs/commands/match.md",
    "docs/commands/openings.md",
    "docs/commands/brains.md",
    "docs/commands/solve.md",
    "docs/commands/eval.md",
    "docs/commands/weights.md",
    "docs/commands/play.md",
    "docs/commands/serve.md",
    "docs/commands/replay.md",
    "docs/commands/brain.md",
    "docs/commands/bench.md",
];

/// One `$ mnk …` of a block and what it must print.
#[derive(Debug)]
struct Example {
    /// The page and line of the `$` (`docs/commands/train.md:16`).
    line: String,
    args: Vec<String>,
    status: i32,
    expected: String,
    slow: bool,
}

/// A page's examples, in order; `page` names it in messages.
fn examples(page: &str, readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut block: Option<bool> = None; // Some(slow) inside a tested block
    let mut fence_skip = false;
    for (i, line) in readme.lines().enumerate() {
        let n = i + 1;
        if let Some(info) = line.strip_prefix("```") {
            if block.is_some() || fence_skip {
                block = None;
                fence_skip = false;
                continue;
            }
            let mut words = info.split_whitespace();
            match words.next() {
                Some("console") => {
                    let attrs: Vec<&str> = words.collect();
                    if attrs.contains(&"ignore") {
                        fence_skip = true;
                    } else {
                        block = Some(attrs.contains(&"slow"));
                    }
                }
                _ => fence_skip = true,
            }
            continue;
        }
        let Some(slow) = block else { continue };
        if let Some(cmd) = line.strip_prefix("$ ") {
            let words =
                shlex::split(cmd).unwrap_or_else(|| panic!("{page}:{n}: cannot split {cmd:?}"));
            let (program, args) = words
                .split_first()
                .unwrap_or_else(|| panic!("{page}:{n}: an empty command"));
            assert_eq!(
                program, "mnk",
                "{page}:{n}: console blocks run mnk only (use a sh block for other commands)"
            );
            out.push(Example {
                line: format!("{page}:{n}"),
                args: args.to_vec(),
                status: 0,
                expected: String::new(),
                slow,
            });
        } else if let Some(code) = line.strip_prefix("? ") {
            let last = out
                .last_mut()
                .unwrap_or_else(|| panic!("{page}:{n}: `?` before any command"));
            last.status = code
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{page}:{n}: bad exit status {code:?}"));
        } else {
            let last = out
                .last_mut()
                .unwrap_or_else(|| panic!("{page}:{n}: output before any command"));
            last.expected.push_str(line);
            last.expected.push('\n');
        }
    }
    assert!(block.is_none(), "{page}: a console block is not closed");
    out
}

/// Runs `mnk args` in `dir` with stdout and stderr on one pipe: the exit
/// status and everything printed, in order.
fn run(dir: &Path, args: &[String]) -> (i32, String) {
    let (mut reader, writer) = std::io::pipe().unwrap();
    let mut child = crate::common::mnk()
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .env_remove("OMPI_COMM_WORLD_SIZE")
        .stdin(Stdio::null())
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .spawn()
        .unwrap();
    let mut text = String::new();
    let reading = std::thread::spawn(move || {
        reader.read_to_string(&mut text).unwrap();
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(600) {
            let _ = child.kill();
            panic!("mnk {args:?} ran past 10 minutes");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (status.code().unwrap_or(-1), reading.join().unwrap())
}

/// A scratch folder with a copy of the repository's `weights/`.
fn sandbox() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let weights = Path::new(env!("CARGO_MANIFEST_DIR")).join("weights");
    std::fs::create_dir(dir.path().join("weights")).unwrap();
    for e in std::fs::read_dir(weights).unwrap() {
        let p: PathBuf = e.unwrap().path();
        std::fs::copy(&p, dir.path().join("weights").join(p.file_name().unwrap())).unwrap();
    }
    dir
}

/// Every page's examples, in [`PAGES`] order.
fn all_examples() -> Vec<Example> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    PAGES
        .iter()
        .flat_map(|page| {
            let text =
                std::fs::read_to_string(root.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
            examples(page, &text)
        })
        .collect()
}

/// Runs the examples (the slow ones too if `slow`) and lists every one
/// whose output or status differs, with its page and line.
fn check(slow: bool) {
    let all = all_examples();
    assert!(!all.is_empty(), "the docs have no console examples");
    let dir = sandbox();
    let assert = snapbox::Assert::new();
    let mut failures = Vec::new();
    for ex in all.iter().filter(|e| slow || !e.slow) {
        let (status, actual) = run(dir.path(), &ex.args);
        let expected = snapbox::Data::text(ex.expected.clone());
        let same = assert
            .try_eq(Some(&"mnk"), snapbox::Data::text(actual.clone()), expected)
            .is_ok();
        if !same || status != ex.status {
            failures.push(format!(
                "{}: mnk {}\n  exit status {status} (docs: {})\n--- docs ---\n{}--- mnk printed ---\n{actual}",
                ex.line,
                ex.args.join(" "),
                ex.status,
                ex.expected
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} docs example(s) differ from what mnk prints:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn readme_examples_print_what_the_readme_says() {
    check(false);
}

/// The examples that take a while (training runs, long matches): `cargo
/// test --release --test it -- --ignored readme::slow_examples`.
#[test]
#[ignore = "minutes: run by .ci/run"]
fn slow_examples() {
    check(true);
}

/// A command page nobody runs would drift unseen: every page in
/// `docs/commands/` is in [`PAGES`], and every page there exists.
#[test]
fn every_command_page_is_tested() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut on_disk: Vec<String> = std::fs::read_dir(root.join("docs/commands"))
        .unwrap()
        .map(|e| format!("docs/commands/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|p| p.ends_with(".md"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = PAGES[1..].iter().map(|p| p.to_string()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "docs/commands/ and readme.rs's PAGES differ"
    );
}

#[test]
fn the_example_syntax_is_read_as_documented() {
    let text = "intro\n```sh\n$ cargo run\n```\n```console\n$ mnk eval -g tictactoe\nline [..]\n...\n$ mnk bad\n? 2\nerror: [..]\n```\n```console slow\n$ mnk train\n```\n```console ignore\n$ mnk play\n```\n";
    let ex = examples("page.md", text);
    let summary: Vec<(String, String, i32, bool)> = ex
        .iter()
        .map(|e| (e.line.clone(), e.args.join(" "), e.status, e.slow))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "page.md:6".to_string(),
                "eval -g tictactoe".to_string(),
                0,
                false
            ),
            ("page.md:9".to_string(), "bad".to_string(), 2, false),
            ("page.md:14".to_string(), "train".to_string(), 0, true),
        ]
    );
    assert_eq!(ex[0].expected, "line [..]\n...\n");
    assert_eq!(ex[1].expected, "error: [..]\n");
}
