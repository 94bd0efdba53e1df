//! `mnk plot`: what the plots show, and several runs overlaid.

use crate::common::{mnk, read, resume_cli};
use std::path::{Path, PathBuf};

/// Trains a short 7x7x4 run `name` in `runs` with `extra` flags and
/// returns its folder.
fn train(runs: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let mut args = vec![
        "train".to_string(),
        "--game=7x7x4".into(),
        "--rounds=4".into(),
        "--openings=40".into(),
        "--check-openings=10".into(),
        "--no-plots".into(),
        format!("--name={name}"),
        format!("--runs-dir={}", runs.display()),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = mnk().args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    runs.join(name)
}

/// A run with checks every 2 rounds and a verdict (`a`), and one with
/// neither (`b`), in a new folder.
fn two_runs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let a = train(&runs, "a", &["--check-every=2", "--verdict-openings=10"]);
    let b = train(
        &runs,
        "b",
        &["--check-every=0", "--verdict-openings=0", "--seed=2"],
    );
    (tmp, a, b)
}

#[test]
fn train_records_its_verdict_for_plot() {
    let (_tmp, a, b) = two_runs();
    let v = mnk::train::RunDir::new(&a).read_verdict().unwrap().unwrap();
    assert_eq!(v.round, 4);
    assert_eq!(v.verdict.openings, 10);
    // Each opening with both colours.
    assert_eq!(v.verdict.tally.games.games(), 20);
    assert!(read(a.join("verdict.toml")).contains("pentanomial = ["));
    assert!(mnk::train::RunDir::new(&b)
        .read_verdict()
        .unwrap()
        .is_none());
}

#[test]
fn plot_of_several_runs_writes_the_overlay_it_prints() {
    let (tmp, a, b) = two_runs();
    let out = mnk().arg("plot").arg(&a).arg(&b).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Next to the runs, named after them.
    let file = tmp.path().join("runs").join("compare-a-b.png");
    assert_eq!(stdout.trim(), file.display().to_string());
    let png = std::fs::read(&file).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    // The runs' own plots are not drawn by an overlay.
    assert!(!a.join("plots").exists());

    // --out picks the file and, by its extension, the format.
    let svg = tmp.path().join("cmp.svg");
    let out = mnk()
        .arg("plot")
        .arg(&a)
        .arg(&b)
        .arg("--out")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = read(&svg);
    // Run a's checks and verdict are drawn; b has neither and says so.
    assert!(text.contains("a vs "), "no check curve of a");
    assert!(text.contains("b: no checks"), "b's missing checks unnamed");
    assert!(text.contains("no verdict"), "b's missing verdict unnamed");
    let v = mnk::train::RunDir::new(&a).read_verdict().unwrap().unwrap();
    let games = format!("({} games)", v.verdict.tally.games.games());
    assert!(text.contains(&games), "a's verdict not labelled {games}");

    // One run with no --out still redraws its own charts.
    let out = mnk().arg("plot").arg(&b).output().unwrap();
    assert!(out.status.success());
    assert!(b.join("plots/score.png").exists() && !b.join("plots/checks.png").exists());
}

#[test]
fn a_damaged_run_is_refused_naming_its_file() {
    let (tmp, a, b) = two_runs();
    let out_file = tmp.path().join("cmp.png");
    let plot = |runs: &[&Path]| {
        let out = mnk()
            .arg("plot")
            .args(runs)
            .arg("--out")
            .arg(&out_file)
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let verdict = a.join("verdict.toml");
    let good = read(&verdict);
    std::fs::write(&verdict, good.replace("wins = ", "wins = x")).unwrap();
    let err = plot(&[&b, &a]);
    assert!(
        err.contains(&format!("{}:", verdict.display())),
        "the damaged verdict is not named: {err}"
    );
    std::fs::write(&verdict, good).unwrap();

    let checks = a.join("checks.csv");
    let text = read(&checks);
    std::fs::write(&checks, text.replacen(",", ",oops", 3)).unwrap();
    let err = plot(&[&a, &b]);
    assert!(
        err.contains(&format!("{}:", checks.display())),
        "the damaged checks are not named: {err}"
    );
    // Nothing is drawn from a damaged set of runs.
    assert!(!out_file.exists());
    std::fs::write(&checks, text).unwrap();

    let err = plot(&[&a, &tmp.path().join("nowhere")]);
    assert!(err.contains("nowhere"), "{err}");
}

#[test]
fn plot_help_has_examples() {
    let out = mnk().args(["plot", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("Examples:"), "{help}");
    assert!(help.contains("mnk plot runs/a runs/b"), "{help}");
    assert!(help.contains("--out"), "{help}");
}

#[test]
fn a_verdict_of_earlier_rounds_says_so_and_force_replaces_its_run() {
    let (tmp, a, _) = two_runs();
    // Two rounds more without a new verdict: the old one judged round 4.
    let (code, err) = resume_cli(&a, &["--rounds=6"]);
    assert_eq!(code, Some(0), "{err}");
    let svg = tmp.path().join("a.svg");
    let out = mnk()
        .arg("plot")
        .arg(&a)
        .arg("--out")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        read(&svg).contains(", of round 4)"),
        "a stale verdict unmarked"
    );

    // verdict.toml is part of a run folder: --force replaces the run.
    let runs = tmp.path().join("runs");
    train(
        &runs,
        "a",
        &["--force", "--check-every=0", "--verdict-openings=0"],
    );
    assert!(!a.join("verdict.toml").exists());
}
