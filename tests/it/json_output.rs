//! `--json` of `match`, `train` and `bench` (docs/json/*.md): stdout is
//! one JSON object whose documented fields are there and agree with each
//! other; the progress of long work and the bounds shown for one-sided
//! results; a finished run resumed.

use crate::common::{json, mnk, SPRT_MATCH};
use serde_json::Value;
use std::process::Output;

fn int(v: &Value, field: &str) -> u64 {
    v[field]
        .as_u64()
        .unwrap_or_else(|| panic!("{field} is not an integer: {v}"))
}

fn num(v: &Value, field: &str) -> f64 {
    v[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} is not a number: {v}"))
}

fn envelope(v: &Value, command: &str) {
    assert_eq!(v["mnk_json"], 1, "{v}");
    assert_eq!(v["command"], command, "{v}");
}

/// The result fields of match.md, shared by train's verdict: counts that
/// add up, a score and LOS that follow from them, intervals that hold the
/// estimates.
fn check_result(v: &Value) {
    let (w, d, l) = (int(v, "wins"), int(v, "draws"), int(v, "losses"));
    let games = int(v, "games");
    assert_eq!(w + d + l, games, "{v}");
    let score = (w as f64 + d as f64 / 2.0) / games as f64;
    assert!((num(v, "score") - score).abs() < 1e-12, "{v}");
    let los = num(v, "los");
    assert!((0.0..=1.0).contains(&los), "{v}");
    assert_eq!(los > 0.5, w > l, "{v}");
    let bins: Vec<u64> = v["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .collect();
    assert_eq!(bins.len(), 5, "{v}");
    let pairs = int(v, "pairs");
    assert_eq!(bins.iter().sum::<u64>(), pairs, "{v}");
    assert!(2 * pairs <= games, "{v}");
    // Pair score: bin i is worth i/4 per game.
    let pair_score = bins
        .iter()
        .enumerate()
        .map(|(i, &b)| i as f64 / 4.0 * b as f64)
        .sum::<f64>()
        / pairs as f64;
    assert!((num(v, "pair_score") - pair_score).abs() < 1e-12, "{v}");
    for p in ["", "pair_"] {
        let elo = &v[format!("{p}elo")];
        let (lo, hi) = (&v[format!("{p}elo_lower95")], &v[format!("{p}elo_upper95")]);
        // Infinite values are null, never strings or huge numbers.
        for x in [elo, lo, hi] {
            assert!(x.is_null() || x.as_f64().is_some_and(f64::is_finite), "{v}");
        }
        if let (Some(e), Some(lo)) = (elo.as_f64(), lo.as_f64()) {
            assert!(lo <= e, "{v}");
        }
        if let (Some(e), Some(hi)) = (elo.as_f64(), hi.as_f64()) {
            assert!(e <= hi, "{v}");
        }
    }
}

#[test]
fn match_json_is_the_whole_stdout_and_adds_up() {
    let (v, stderr) = json(&[
        "match", "greedy", "random", "-g", "7x6x4", "-n", "6", "--seed", "3", "--json",
    ]);
    envelope(&v, "match");
    check_result(&v);
    assert_eq!(int(&v, "games"), 12, "{v}");
    assert_eq!(int(&v, "pairs"), 6, "{v}");
    assert_eq!(int(&v, "openings"), 6, "{v}");
    assert_eq!(int(&v, "seed"), 3, "{v}");
    assert_eq!(
        (&v["player_a"], &v["player_b"]),
        (&"greedy".into(), &"random".into())
    );
    assert_eq!(v["game"], "7x6x4");
    assert!(v["sprt"].is_null(), "{v}");
    assert!(int(&v, "plies") >= 12 * 7, "{v}");
    assert!(num(&v, "seconds") >= 0.0);
    // The lines for people went to stderr.
    assert!(stderr.contains("A's result: W "), "{stderr}");
    // Greedy beats random at 7x6x4: when every game is won the Elo is
    // null and the lower end holds the bound the text shows.
    if int(&v, "wins") == 12 {
        assert!(v["elo"].is_null() && v["elo_upper95"].is_null(), "{v}");
        let lo = num(&v, "elo_lower95");
        assert!(
            stderr.contains(&format!("Elo > {lo:+.1} (all won)")),
            "{stderr}"
        );
    }
}

#[test]
fn match_json_with_an_sprt_reports_the_test() {
    let (v, stderr) = json(&[&SPRT_MATCH[..], &["--json"]].concat());
    envelope(&v, "match");
    check_result(&v);
    let s = &v["sprt"];
    assert_eq!((num(s, "elo0"), num(s, "elo1")), (0.0, 100.0), "{s}");
    assert_eq!(s["model"], "normalized");
    let (llr, lower, upper) = (num(s, "llr"), num(s, "lower"), num(s, "upper"));
    assert!(lower < 0.0 && 0.0 < upper, "{s}");
    let status = s["status"].as_str().unwrap();
    match status {
        "H1" => assert!(llr >= upper, "{s}"),
        "H0" => assert!(llr <= lower, "{s}"),
        "continue" => assert!(lower < llr && llr < upper && int(&v, "games") == 24, "{s}"),
        _ => panic!("status {status}"),
    }
    // Batches of 5 openings: the games stop at a multiple of 10 or at the end.
    let games = int(&v, "games");
    assert!(games.is_multiple_of(10) || games == 24, "{v}");
    assert!(stderr.contains(&format!("LLR {llr:+.2}")), "{stderr}");
}

#[test]
fn a_match_away_from_a_terminal_prints_timed_progress_lines() {
    let out = mnk()
        .args(["match", "greedy", "greedy", "-g", "7x6x4", "-n", "200"])
        .args(["--random-openings", "--progress-every", "0.000001"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("/400 games"))
        .collect();
    assert!(!lines.is_empty(), "{stderr}");
    for l in &lines {
        // The time and speed, which tests comparing runs filter out.
        assert!(l.ends_with("games/s"), "{l}");
        assert!(
            l.contains(" W ") && l.contains("Elo") && l.contains("LOS"),
            "{l}"
        );
    }
    // No progress on stdout.
    assert!(!String::from_utf8_lossy(&out.stdout).contains("/400 games"));
    // And none at all with --progress-every 0.
    let quiet = mnk()
        .args(["match", "greedy", "greedy", "-g", "7x6x4", "-n", "50"])
        .args(["--random-openings", "--progress-every", "0"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("/100 games"));
}

fn train_args<'a>(runs: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "train",
        "-g",
        "tictactoe",
        "--rounds",
        "3",
        "--runs-dir",
        runs,
        "--name",
        "r",
        "--no-plots",
        "--openings",
        "20",
        "--verdict-openings",
        "10",
        "--json",
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn train_json_has_the_summary_and_the_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().to_str().unwrap();
    let (v, stderr) = json(&train_args(runs, &[]));
    envelope(&v, "train");
    assert_eq!(int(&v, "rounds_planned"), 3, "{v}");
    assert_eq!(int(&v, "rounds_played"), 3, "{v}");
    assert_eq!(v["finished"], true);
    assert_eq!(v["game"], "tictactoe");
    assert_eq!(v["optimizer"], "random");
    let folder = tmp.path().join("r");
    assert_eq!(v["run_folder"], folder.display().to_string());
    assert!(std::path::Path::new(v["trained_weights"].as_str().unwrap()).exists());
    // 3 rounds of 4 challengers and the incumbent in a round robin: 10
    // pairings of 20 openings x 2 colours.
    assert_eq!(int(&v, "games"), 3 * 10 * 40, "{v}");
    assert_eq!(int(&v["session"], "games"), int(&v, "games"), "{v}");
    assert!(v["last_check"]["round"].as_u64() == Some(3), "{v}");
    assert_eq!(v["plots"], Value::Array(Vec::new()));
    let verdict = &v["verdict"];
    assert_eq!(int(verdict, "openings"), 10, "{v}");
    assert_eq!(int(verdict, "games"), 20, "{v}");
    check_result(verdict);
    assert!(
        stderr.contains(verdict["summary"].as_str().unwrap()),
        "{stderr}"
    );
    assert!(stderr.contains("run folder: "), "{stderr}");

    // Resumed when finished: says so, how to play on, and succeeds
    // without playing.
    let resume = ["train", "--resume", folder.to_str().unwrap(), "--no-plots"];
    let out: Output = mnk().args(resume).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("is finished, nothing to do: all 3 rounds are played; to play on, resume with --rounds N, N larger than 3"),
        "{said}"
    );
    assert!(!said.contains("resuming"), "{said}");
    let (again, _) = json(&[&resume[..], &["--json"]].concat());
    assert_eq!(again["rounds_played"], 3);
    assert!(again["verdict"].is_null(), "{again}");
    // Extended, it plays on.
    let (more, _) = json(&[&resume[..], &["--json", "--rounds", "4"]].concat());
    assert_eq!(
        (int(&more, "rounds_played"), int(&more, "rounds_planned")),
        (4, 4)
    );
}

#[test]
fn bench_json_holds_the_signature() {
    let (v, stderr) = json(&["bench", "--seconds", "0.05", "--json"]);
    envelope(&v, "bench");
    let sig = mnk::bench::signature().unwrap();
    assert_eq!(int(&v, "signature_search_nodes"), sig.search_nodes);
    assert_eq!(
        v["signature_greedy_moves"],
        format!("{:016x}", sig.greedy_moves)
    );
    assert_eq!(v["signature"], sig.to_string());
    assert!(stderr.ends_with(&format!("signature: {sig}\n")), "{stderr}");
    for f in [
        "random_games_per_second",
        "greedy_games_per_second",
        "greedy_plies_per_second",
        "cell_updates_per_second",
        "search_nodes_per_second",
        "tictactoe_solve_ms",
    ] {
        assert!(num(&v, f) > 0.0, "{f}: {v}");
    }
    let plies = num(&v, "greedy_games_per_second") * num(&v, "greedy_plies_per_game");
    assert!((plies / num(&v, "greedy_plies_per_second") - 1.0).abs() < 1e-9);
    assert_eq!(v["tictactoe_value"], "draw");
    assert!(v["solve_444_seconds"].is_null() && v["solve_444_value"].is_null());
    assert_eq!(int(&v, "search_depth"), 8);
    assert!(int(&v, "search_player_bytes") > 0);
}

#[test]
fn help_shows_examples_and_defaults() {
    for (cmd, example) in [
        ("match", "mnk match greedy"),
        ("train", "mnk train --resume"),
        ("bench", "mnk bench --full"),
    ] {
        let out = mnk().args([cmd, "--help"]).output().unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            help.contains("Examples:") && help.contains(example),
            "{help}"
        );
        assert!(help.contains("--json"), "{help}");
    }
    let out = mnk().args(["train", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for default in [
        "round robin [default: 4]",
        "[default: 0.05]",
        "[default: 500 on large boards, 200 on small ones]",
        "derives from [default: 1]",
    ] {
        assert!(help.contains(default), "{default}: {help}");
    }
}
