//! The command line on bad input: every mistake gets a clear message that
//! names the file, line or field, and a non-zero exit — never a panic.

use std::path::Path;
use std::process::{Command, Output};

fn mnk(args: &[&str]) -> Output {
    crate::common::mnk()
        .args(args)
        .output()
        .expect("the mnk binary runs")
}

/// Runs `mnk args`, expects success, returns stdout.
fn succeeds(args: &[&str]) -> String {
    let out = mnk(args);
    assert!(
        out.status.success(),
        "mnk {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `mnk args`, expects failure without a panic, returns stderr.
fn fails(args: &[&str]) -> String {
    let out = mnk(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !out.status.success(),
        "mnk {args:?} should fail; stderr: {err}"
    );
    assert!(!err.contains("panicked"), "mnk {args:?} panicked: {err}");
    err
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn bad_positions_name_the_move() {
    let e = fails(&["eval", "h8", "h8"]);
    assert!(e.contains("move 2") && e.contains("occupied"), "{e}");
    let e = fails(&["eval", "--game", "tictactoe", "d4"]);
    assert!(e.contains("move 1") && e.contains("off the"), "{e}");
    let e = fails(&["solve", "b2", "zz"]);
    assert!(e.contains("move 2") && e.contains("\"zz\""), "{e}");
    let e = fails(&["solve", "a1", "a2", "b1", "b2", "c1", "c2"]);
    assert!(e.contains("move 6") && e.contains("over"), "{e}");
}

#[test]
fn bad_games_and_flags_are_refused() {
    let e = fails(&["eval", "--game", "2x2x2"]);
    assert!(e.contains("2x2x2") || e.contains("side"), "{e}");
    let e = fails(&["eval", "--game", "5x5x9"]);
    assert!(e.contains("k = 9"), "{e}");
    let e = fails(&["match", "greedy", "greedy", "--openings", "0"]);
    assert!(e.contains("--openings"), "{e}");
    let e = fails(&["match", "greedy", "gready"]);
    assert!(e.contains("unknown player"), "{e}");
    let e = fails(&["solve", "--game", "gomoku"]);
    assert!(
        e.contains("cannot solve") || e.contains("empty cells"),
        "{e}"
    );
}

#[test]
fn bad_weight_files_name_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string("weights/gomoku.toml").unwrap();
    let missing = write(
        dir.path(),
        "missing.toml",
        &good.replace("open3 = 5000", ""),
    );
    let e = fails(&["eval", "--weights", &missing]);
    assert!(e.contains("missing.toml") && e.contains("own.open3"), "{e}");
    let negative = write(
        dir.path(),
        "neg.toml",
        &good.replace("open3 = 5000", "open3 = -5"),
    );
    let e = fails(&["eval", "--weights", &negative]);
    assert!(
        e.contains("neg.toml") && e.contains("own.open3") && e.contains("out of range"),
        "{e}"
    );
    let broken = write(dir.path(), "broken.toml", "attack = [\n");
    let e = fails(&["eval", "--weights", &broken]);
    assert!(e.contains("broken.toml") && e.contains("TOML"), "{e}");
    let e = fails(&[
        "eval",
        "--game",
        "tictactoe",
        "--weights",
        "weights/gomoku.toml",
    ]);
    assert!(
        e.contains("made for gomoku") && e.contains("--any-game"),
        "{e}"
    );
    let e = fails(&["match", "greedy:weights=weights/tictactoe.toml", "greedy"]);
    assert!(
        e.contains("tictactoe.toml") && !e.contains("any-game"),
        "{e}"
    );
    // Each front end names its own way round (or none): a spec option for
    // a player spec, nothing for `play`, which has no such flag.
    let e = fails(&[
        "match",
        "-g",
        "20x20x5",
        "greedy:weights=weights/gomoku.toml",
        "greedy",
    ]);
    assert!(
        e.contains("made for gomoku") && e.contains("any-game=true") && !e.contains("--any-game"),
        "{e}"
    );
    // Another k: nothing can make them fit, so nothing is suggested.
    let e = fails(&[
        "play",
        "-g",
        "tictactoe",
        "--weights",
        "weights/gomoku.toml",
    ]);
    assert!(
        e.contains("made for gomoku") && !e.contains("any-game"),
        "{e}"
    );
}

#[test]
fn txt_import_errors_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.toml").display().to_string();
    let short = write(dir.path(), "short.txt", "1 1 100\n200 300\n");
    let e = fails(&["weights", "import", &short, "-o", &out]);
    assert!(
        e.contains("short.txt") && e.contains("found 5 numbers"),
        "{e}"
    );
    let bad = write(
        dir.path(),
        "bad.txt",
        "1 1 100 10\n1 x 1 1 1 1 1 1 1 1 1 1\n",
    );
    let e = fails(&["weights", "import", &bad, "-o", &out]);
    assert!(
        e.contains("bad.txt") && e.contains("line 2") && e.contains("open4_opp"),
        "{e}"
    );
    assert!(!Path::new(&out).exists(), "nothing is written on error");
}

#[test]
fn txt_round_trips_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let txt = "2 3 100000 90000 8000 7000 600 500 400 300 20 10 9 8 7 6\n";
    let src = write(dir.path(), "ChessboardValue.txt", txt);
    let toml = dir.path().join("w.toml").display().to_string();
    assert!(mnk(&["weights", "import", &src, "-o", &toml])
        .status
        .success());
    let out = mnk(&["weights", "export", &toml]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), txt);
}

#[test]
fn bad_openings_files_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    for (text, needle) in [
        ("0,0, 1,0\n0,0, 1\n", "line 2"),
        ("0,0, 9,9\n", "off the"),
        ("0,0, 0,0\n", "occupied"),
        ("0,0, a,1\n", "integer"),
        ("# only a comment\n\n", "no openings"),
        // Black to move with four in a row open: already decided.
        (
            "0,0\n0,0, 0,5, 1,0, 1,5, 2,0, 2,5, 3,0, 3,5\n",
            "line 2: the opening is already decided: black to move wins at once",
        ),
        (
            "# mnk opening book for 20x20x5, Gomocup offset format\n0,0\n",
            "line 1: the book was made for 20x20x5, not gomoku",
        ),
    ] {
        let f = write(dir.path(), "open.txt", text);
        let e = fails(&[
            "match",
            "greedy",
            "greedy",
            "-n",
            "2",
            "--openings-file",
            &f,
        ]);
        assert!(
            e.contains("open.txt") && e.contains(needle),
            "{text:?}: {e}"
        );
    }
    let e = fails(&[
        "match",
        "greedy",
        "greedy",
        "--openings-file",
        "/no/such/file.txt",
    ]);
    assert!(e.contains("/no/such/file.txt"), "{e}");
}

#[test]
fn a_good_openings_file_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "open.txt", "0,0, 1,0, 1,1\n-1,-1, 2,2\n");
    let text = succeeds(&["match", "greedy", "random", "--openings-file", &f]);
    assert!(text.contains("2 openings x 2 colours (from "), "{text}");
    // Asking for more openings than the file holds is an error, not a
    // silent cut.
    let e = fails(&[
        "match",
        "greedy",
        "random",
        "-n",
        "5",
        "--openings-file",
        &f,
    ]);
    assert!(
        e.contains("open.txt") && e.contains("holds 2 openings, but 5 are needed (-n 5)"),
        "{e}"
    );
}

#[test]
fn match_defaults_to_the_shipped_books_check_part() {
    let text = succeeds(&["match", "greedy", "random", "-n", "3"]);
    assert!(
        text.contains("3 openings x 2 colours (openings/gomoku.txt (shipped), check part)"),
        "{text}"
    );
    let e = fails(&["match", "greedy", "random", "-n", "100000"]);
    assert!(
        e.contains("check part holds") && e.contains("-n 100000"),
        "{e}"
    );
    let e = fails(&["match", "greedy", "random", "--stones", "3"]);
    assert!(e.contains("--random-openings"), "{e}");
    let text = succeeds(&[
        "match",
        "greedy",
        "random",
        "-n",
        "3",
        "--random-openings",
        "--stones",
        "3",
    ]);
    assert!(text.contains("(random, 3 stones)"), "{text}");
    // Games without a shipped book play random openings.
    let text = succeeds(&["match", "greedy", "random", "-g", "9x9x5", "-n", "3"]);
    assert!(text.contains("(random, 4 stones)"), "{text}");
}

#[test]
fn huge_tables_are_refused_before_any_game() {
    let e = fails(&["match", "search:tt=40", "greedy"]);
    assert!(
        e.contains("tt=\"40\"") && e.contains("4 to 26") && e.contains("24.00 TiB"),
        "{e}"
    );
}

/// Under an address-space limit (`ulimit -v`) a table that does not fit
/// is an error naming `tt`, not an abort.
#[cfg(target_os = "linux")]
#[test]
fn tables_beyond_a_memory_limit_are_refused_not_aborted() {
    let run = |args: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v 2097152 && exec \"$0\" {args}"))
            .arg(env!("CARGO_BIN_EXE_mnk"))
            .output()
            .expect("sh runs")
    };
    // One table of 1.5 GiB would fit in 2 GiB, but not the two players of
    // each worker thread as well.
    let out = run("match search:tt=26 greedy --openings 1 --threads 1");
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{e}");
    assert!(e.contains("tt=26: the system refused 1.50 GiB"), "{e}");
    let out = run("match search:tt=25 search:tt=26 --openings 1");
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{e}");
    assert!(e.contains("tt=26") && e.contains("refused"), "{e}");
    // Training keeps the incumbent and every challenger in every worker
    // thread: refused before the run folder exists.
    let dir = tempfile::tempdir().unwrap();
    let out = run(&format!(
        "--threads 2 train --player search:tt=24,depth=1 --challengers 4 --rounds 1 --openings 1 --verdict-openings 0 --check-every 0 --no-plots --runs-dir {}",
        dir.path().display()
    ));
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{e}");
    assert!(
        e.contains("bad setting player")
            && e.contains("tt=24 in each of 10 players (5 per worker thread)")
            && e.contains("3.75 GiB"),
        "{e}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A table that fits plays.
    let out = run("match search:tt=12 greedy --openings 1 --game tictactoe");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn solve_stats_finish_or_are_refused_up_front() {
    let t = std::time::Instant::now();
    let text = succeeds(&["solve", "--game", "5x3x3", "--stats"]);
    assert!(
        text.contains(
            "games from here: 138594609792 (73567585512 black wins, \
             58930640280 white wins, 6096384000 draws)"
        ) && text
            .contains("positions from here: 2286668 (1407070 non-terminal, 573900 up to symmetry)"),
        "{text}"
    );
    assert!(t.elapsed().as_secs() < 60);
    // 25 empty cells: the solver is allowed them, the count is not.
    let t = std::time::Instant::now();
    let e = fails(&["solve", "--game", "5x5x4", "--limit", "25", "--stats"]);
    assert!(
        e.contains("25 empty cells is too large")
            && e.contains("161995031226 positions")
            && e.contains("18 empty cells or fewer"),
        "{e}"
    );
    assert!(t.elapsed().as_secs() < 5, "refused up front");
}

#[test]
fn training_refuses_a_book_too_small_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs").display().to_string();
    let base = ["train", "--runs-dir", &runs, "--no-plots", "--rounds", "1"];
    // The shipped book's training part holds 30,000 openings.
    let e = fails(
        &[
            &base[..],
            &["--openings", "50000", "--round-openings", "book"],
        ]
        .concat(),
    );
    assert!(
        e.contains("openings/gomoku.txt")
            && e.contains("training part holds 30000 openings, but 50000 are needed"),
        "{e}"
    );
    // Greedy rounds draw random openings by default, so --stones applies;
    // on the book's rounds it has nothing to set.
    let e = fails(&[&base[..], &["--stones", "3", "--round-openings", "book"]].concat());
    assert!(e.contains("add --random-openings"), "{e}");
    let e = fails(
        &[
            &base[..],
            &["--openings", "2", "--verdict-openings", "10001"],
        ]
        .concat(),
    );
    assert!(
        e.contains("--verdict-openings 10001") && e.contains("check part holds only 10000"),
        "{e}"
    );
    // A small book file: 3 openings, so a training part of 3 and a check
    // part of none; 10 openings a round would silently repeat or cut.
    let f = write(dir.path(), "b.txt", "0,0\n1,1\n-1,-1\n");
    let e = fails(&[&base[..], &["--openings", "10", "--openings-file", &f]].concat());
    assert!(
        e.contains("b.txt") && e.contains("holds 3 openings, but 10 are needed"),
        "{e}"
    );
}

#[test]
fn a_search_trained_run_is_checked_by_the_hard_player() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs").display().to_string();
    let args = [
        "train",
        "--runs-dir",
        &runs,
        "--name",
        "s",
        "--no-plots",
        "--rounds",
        "1",
        "--player",
        "search:depth=1",
        "--openings",
        "4",
        "--check-openings",
        "4",
        "--verdict-openings",
        "4",
    ];
    let text = succeeds(&args);
    assert!(
        text.contains("checks and verdict played by search:depth=4,width=9"),
        "{text}"
    );
    let toml = std::fs::read_to_string(dir.path().join("runs/s/run.toml")).unwrap();
    assert!(toml.contains("check_player = \"search\""), "{toml}");
    let e = fails(&["train", "--runs-dir", &runs, "--check-player", "exact"]);
    assert!(
        e.contains("--check-player") && e.contains("\"exact\""),
        "{e}"
    );
}

#[test]
fn rounds_draw_from_the_book_or_at_random_as_measured() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs").display().to_string();
    let run = |name: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "--runs-dir",
            &runs,
            "--name",
            name,
            "--no-plots",
            "--rounds",
            "1",
            "--openings",
            "4",
            "--check-every",
            "0",
            "--verdict-openings",
            "0",
        ];
        args.extend_from_slice(extra);
        let text = succeeds(&args);
        let toml = std::fs::read_to_string(dir.path().join("runs").join(name).join("run.toml"));
        (text, toml.unwrap())
    };
    // Greedy: random rounds, checks on the shipped book.
    let (text, toml) = run("g", &[]);
    assert!(
        text.contains("random openings of 4 stones, checks on the shipped book's check part"),
        "{text}"
    );
    assert!(
        toml.contains("random_rounds = true") && toml.contains("book_split = true"),
        "{toml}"
    );
    // Greedy on the book's training part when asked.
    let (text, toml) = run("gb", &["--round-openings", "book"]);
    assert!(
        text.contains("openings from the shipped book's training part"),
        "{text}"
    );
    assert!(!toml.contains("random_rounds"), "{toml}");
    // The search player trains on the book.
    let (text, _) = run("s", &["--player", "search:depth=1"]);
    assert!(
        text.contains("openings from the shipped book's training part"),
        "{text}"
    );
    // No book at all.
    let (text, toml) = run("r", &["--random-openings", "--stones", "3"]);
    assert!(
        text.contains("seed 1; random openings of 3 stones\n"),
        "{text}"
    );
    assert!(!toml.contains("book_split = true"), "{toml}");
    let e = fails(&[
        "train",
        "--runs-dir",
        &runs,
        "-g",
        "9x9x5",
        "--round-openings",
        "book",
    ]);
    assert!(
        e.contains("--round-openings") && e.contains("no shipped book"),
        "{e}"
    );
}

/// An mnk built without MPI, started as one of several processes (by
/// `mpirun` or `srun`), refuses instead of N copies racing on one run
/// folder; only rank 0 says so.
#[cfg(not(feature = "mpi"))]
#[test]
fn an_mnk_without_mpi_refuses_to_run_as_one_of_several_processes() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let args = ["train", "--runs-dir", runs.to_str().unwrap()];
    for (size, rank) in [
        ("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"),
        ("PMI_SIZE", "PMI_RANK"),
        ("SLURM_STEP_NUM_TASKS", "SLURM_PROCID"),
    ] {
        for r in ["0", "1"] {
            let out = crate::common::mnk()
                .args(args)
                .env(size, "2")
                .env(rank, r)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2));
            let stderr = String::from_utf8_lossy(&out.stderr);
            if r == "0" {
                assert!(
                    stderr.contains(&format!("error: this mnk was built without MPI, but it runs as rank 0 of 2 processes ({size}=2)")),
                    "{stderr}"
                );
                assert!(stderr.contains("--features mpi"), "{stderr}");
            } else {
                assert_eq!(stderr, "", "rank 1 is silent");
            }
            assert!(!runs.exists());
        }
    }
    // A job of one process is just a process.
    let out = crate::common::mnk()
        .args(["eval", "-g", "tictactoe"])
        .env("OMPI_COMM_WORLD_SIZE", "1")
        .output()
        .unwrap();
    assert!(out.status.success());
    // And under a real mpirun, where there is one.
    let Ok(out) = crate::common::launcher()
        .args(["--oversubscribe", "-np", "2", env!("CARGO_BIN_EXE_mnk")])
        .args(args)
        .output()
    else {
        eprintln!("no mpirun here: checked with the launchers' variables only");
        return;
    };
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.matches("this mnk was built without MPI").count(),
        1,
        "{stderr}"
    );
    assert!(!runs.exists());
}

/// A negative count is a value clap judges, not an unknown flag: the
/// message says what the flag takes.
#[test]
fn negative_counts_say_what_was_expected() {
    for (args, expected) in [
        (
            &["train", "--rounds", "-5"][..],
            "invalid value '-5' for '--rounds <ROUNDS>': -5 is not in 0..=4294967295",
        ),
        (
            &["match", "greedy", "greedy", "-n", "-3"][..],
            "invalid value '-3' for '--openings <N>': expected a whole number, 0 or more",
        ),
        (
            &["play", "--delay", "-4"][..],
            "invalid value '-4' for '--delay <MS>': expected a whole number, 0 or more",
        ),
    ] {
        let out = mnk(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("unexpected argument"), "{stderr}");
    }
}

/// Shell completions that the shell accepts, and manual pages.
#[test]
fn completions_and_manual_pages() {
    let bash = mnk(&["completions", "bash"]);
    assert!(bash.status.success());
    let script = String::from_utf8(bash.stdout).unwrap();
    assert!(
        script.contains("_mnk()") && script.contains("train"),
        "{script}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mnk.bash");
    std::fs::write(&file, &script).unwrap();
    // `bash -n` parses the script without running it.
    if let Ok(out) = Command::new("bash").arg("-n").arg(&file).output() {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let out = mnk(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("mnk"),
            "{shell}"
        );
    }
    let bad = mnk(&["completions", "tcsh"]);
    assert_eq!(bad.status.code(), Some(2));

    let man = mnk(&["man"]);
    assert!(man.status.success());
    let page = String::from_utf8(man.stdout).unwrap();
    assert!(page.contains(".TH mnk 1"), "{page}");
    let pages = dir.path().join("man");
    let out = mnk(&["man", "--out", pages.to_str().unwrap()]);
    assert!(out.status.success());
    for name in ["mnk.1", "mnk-train.1", "mnk-openings-generate.1"] {
        let text = std::fs::read_to_string(pages.join(name)).unwrap();
        assert!(
            text.starts_with(".ie") && text.contains(".SH NAME"),
            "{name}"
        );
    }
}

/// `--threads` is a flag of the commands that play games in parallel
/// (train, match, openings); before the command it is still taken, with a
/// warning where it does nothing.
#[test]
fn threads_only_where_games_run_in_parallel() {
    for cmd in ["train", "match", "openings generate", "openings stats"] {
        let mut args: Vec<&str> = cmd.split(' ').collect();
        args.push("--help");
        let help = succeeds(&args);
        assert!(help.contains("--threads <N>"), "mnk {cmd} --help");
    }
    for cmd in [
        "solve",
        "eval",
        "plot",
        "records list",
        "weights export",
        "brain",
        "replay",
    ] {
        let mut args: Vec<&str> = cmd.split(' ').collect();
        args.push("--help");
        let help = succeeds(&args);
        assert!(!help.contains("--threads"), "mnk {cmd} --help");
    }
    let out = mnk(&["solve", "-g", "tictactoe", "--threads", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let out = mnk(&["--threads", "2", "solve", "-g", "tictactoe", "b2"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: --threads has no effect on `mnk solve`"),
        "{stderr}"
    );
    for args in [
        &["match", "greedy", "greedy", "-n", "2", "--threads", "1"][..],
        &["--threads", "1", "match", "greedy", "greedy", "-n", "2"][..],
    ] {
        let out = mnk(args);
        assert!(out.status.success(), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
    }
}

/// Every command's help ends with examples.
#[test]
fn every_command_has_help_examples() {
    for cmd in [
        "train",
        "plot",
        "play",
        "replay",
        "records list",
        "records delete",
        "brain",
        "solve",
        "eval",
        "match",
        "brains",
        "openings generate",
        "openings stats",
        "weights import",
        "weights export",
        "bench",
    ] {
        let mut args: Vec<&str> = cmd.split(' ').collect();
        args.push("--help");
        let help = succeeds(&args);
        let examples = help
            .split("Examples:")
            .nth(1)
            .unwrap_or_else(|| panic!("mnk {cmd} --help has no examples"));
        assert!(
            examples.contains(&format!("mnk {}", cmd.split(' ').next().unwrap())),
            "mnk {cmd} --help: {examples}"
        );
    }
}

#[test]
fn a_player_spec_with_a_key_twice_is_refused_naming_it() {
    // Accepted before, the last value silently winning.
    let e = fails(&[
        "match",
        "search:depth=2,depth=3",
        "random",
        "-g",
        "tictactoe",
    ]);
    assert!(
        e.contains("\"search:depth=2,depth=3\": depth is given twice"),
        "{e}"
    );
    // A bare weights path and weights= are the same key.
    let e = fails(&[
        "match",
        "greedy:weights/gomoku.toml,weights=weights/gomoku.toml",
        "random",
    ]);
    assert!(e.contains("weights is given twice"), "{e}");
}

#[test]
fn openings_of_no_stones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.txt").display().to_string();
    for stones in ["0", "0-2"] {
        let e = fails(&["openings", "generate", "--stones", stones, "-o", &out]);
        assert!(e.contains("expected at least 1 stone"), "{stones}: {e}");
    }
    assert!(!Path::new(&out).exists());
}

#[test]
fn bench_refuses_a_time_that_is_no_time() {
    // -1 and nan panicked (exit 101); 0 printed NaN figures.
    for secs in ["-1", "nan", "0", "inf"] {
        let out = mnk(&["bench", "--seconds", secs]);
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "--seconds {secs}: {e}");
        assert!(
            e.contains(&format!(
                "--seconds {}: give a number of seconds above 0",
                secs.parse::<f64>().unwrap()
            )),
            "{e}"
        );
    }
}

#[test]
fn weights_import_overwrites_only_when_asked_and_warns_of_blind_weights() {
    let dir = tempfile::tempdir().unwrap();
    let txt = "2 3 100000 90000 8000 7000 600 500 400 300 20 10 9 8 7 6\n";
    let src = write(dir.path(), "ChessboardValue.txt", txt);
    let out = write(dir.path(), "w.toml", "precious\n");
    let e = fails(&["weights", "import", &src, "-o", &out]);
    assert!(
        e.contains("w.toml exists; pass --force to overwrite it"),
        "{e}"
    );
    assert_eq!(crate::common::read(&out), "precious\n");
    let said = mnk(&["weights", "import", &src, "-o", &out, "--force"]);
    assert!(said.status.success());
    assert!(!String::from_utf8_lossy(&said.stderr).contains("warning"));
    assert!(crate::common::read(&out).contains("attack"));

    // All zero: every move is worth the same.
    let zero = write(dir.path(), "zero.txt", &"0 ".repeat(16));
    let said = mnk(&["weights", "import", &zero, "-o", &out, "--force"]);
    assert!(said.status.success());
    let e = String::from_utf8_lossy(&said.stderr);
    assert!(
        e.contains("warning: ")
            && e.contains("attack and defence are both 0")
            && e.contains("cannot tell moves apart"),
        "{e}"
    );
    // Shapes all 0 behind a nonzero attack and defence: the same.
    let flat = write(dir.path(), "flat.txt", &format!("1 1 {}", "0 ".repeat(14)));
    let said = mnk(&["weights", "import", &flat, "-o", &out, "--force"]);
    let e = String::from_utf8_lossy(&said.stderr);
    assert!(
        e.contains("every shape that attack or defence weighs is 0"),
        "{e}"
    );
}

#[test]
fn the_exact_player_on_random_openings_is_told_which_are_decided() {
    // Random openings can already be lost; the perfect player's losses on
    // them looked like a fault with nothing said.
    let out = succeeds(&[
        "match",
        "perfect",
        "greedy",
        "-g",
        "tictactoe",
        "-n",
        "50",
        "--random-openings",
        "--seed",
        "1",
    ]);
    assert!(
        out.contains(
            "note: 34 of the 50 random openings are already won for one side with perfect play"
        ),
        "{out}"
    );
    // Every opening of the empty board's book is a draw: nothing to say.
    let out = succeeds(&[
        "match",
        "perfect",
        "greedy",
        "-g",
        "tictactoe",
        "-n",
        "2",
        "--stones",
        "0",
    ]);
    assert!(!out.contains("already won"), "{out}");
}
