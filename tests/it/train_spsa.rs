//! The SPSA optimiser (`--optimizer spsa`): determinism across thread
//! counts, resume equal to an uninterrupted run, the update rule, plots,
//! the game budget, and clear errors for bad settings.

use crate::common::{read, resume_cli, train_cli};
use mnk::eval::Weights;
use mnk::game::Rules;
use mnk::train::{NoObserver, Optimizer, Reason, RunConfig, SpsaConfig, TrainError, Trainer};
use std::path::Path;

fn rules() -> Rules {
    "7x7x4".parse().unwrap()
}

fn config(name: &str, steps: u32) -> RunConfig {
    let mut c = RunConfig::spsa_defaults(rules());
    c.name = name.into();
    c.start = "flat".into();
    c.rounds = steps;
    c.seed = 11;
    c.check_every = 5;
    c.check_openings = 20;
    c.spsa = Some(SpsaConfig {
        a: 4.0,
        c: 0.3,
        big_a: 2.0,
        alpha: 0.602,
        gamma: 0.101,
        openings: 40,
    });
    c
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

const FILES: [&str; 4] = [
    "rounds.csv",
    "checks.csv",
    "weights/best.toml",
    "weights/round-0012.toml",
];

fn files(dir: &Path, name: &str) -> Vec<String> {
    FILES
        .iter()
        .map(|f| read(dir.join(f)).replace(&format!("run {name}:"), "run NAME:"))
        .collect()
}

#[test]
fn spsa_is_identical_with_1_and_2_threads_and_follows_its_update_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let mut runs = Vec::new();
    for threads in [1, 2] {
        let name = format!("t{threads}");
        let t = in_pool(threads, || {
            let mut t =
                Trainer::create(config(&name, 12), Weights::flat(rules()), tmp.path(), false)
                    .unwrap();
            t.run(&mut NoObserver).unwrap();
            t
        });
        runs.push((files(t.dir().path(), &name), t));
    }
    assert_eq!(runs[0].0, runs[1].0, "files differ between 1 and 2 threads");

    let t = &runs[0].1;
    let cfg = t.config().clone();
    let sc = cfg.spsa_config();
    let rows = t.rounds();
    assert_eq!(rows.len(), 13);
    assert_eq!(rows[0].reason, Reason::Start);
    let mut moved = false;
    for (k, w) in rows.windows(2).enumerate() {
        let (prev, r) = (&w[0], &w[1]);
        let s = r.spsa.as_ref().expect("every round is an SPSA step");
        assert_eq!(r.optimizer, Optimizer::Spsa);
        assert_eq!(r.reason, Reason::SpsaStep);
        assert_eq!(s.k, k as u32);
        assert_eq!(s.a_k, sc.a / (sc.big_a + k as f64 + 1.0).powf(sc.alpha));
        assert_eq!(s.c_k, sc.c / (k as f64 + 1.0).powf(sc.gamma));
        assert_eq!(r.games, 80);
        assert_eq!(s.tally.games.games(), 80);
        assert_eq!(s.tally.pairs.pairs(), 40);
        // θ moved by ±a_k·d in log-space, every weight by the same amount.
        let step = s.a_k * s.score_diff();
        for (a, b) in prev.weights.to_vec().iter().zip(r.weights.to_vec()) {
            assert!(
                ((b / a).ln().abs() - step.abs()).abs() < 1e-9,
                "{a} -> {b}, step {step}"
            );
        }
        moved |= step != 0.0;
    }
    assert!(moved, "no step moved the weights");

    // The plots: weights, the θ+ − θ− chart, the gain schedule, checks.
    let out = mnk::plot::plot_run(t.dir().path()).unwrap();
    let names: Vec<String> = out
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for n in [
        "weights.png",
        "spsa.png",
        "gains.png",
        "gains.svg",
        "checks.png",
    ] {
        assert!(names.iter().any(|m| m == n), "{n} missing from {names:?}");
    }
    assert!(!names.iter().any(|m| m == "score.png"), "{names:?}");
}

#[test]
fn a_resumed_spsa_run_equals_an_uninterrupted_one() {
    let tmp = tempfile::tempdir().unwrap();
    let mut whole = Trainer::create(
        config("whole", 12),
        Weights::flat(rules()),
        tmp.path(),
        false,
    )
    .unwrap();
    whole.run(&mut NoObserver).unwrap();

    // Interrupted twice: after the start and 4 steps, then after 3 more
    // (a check round in between), each time resumed from the folder alone.
    let mut t =
        Trainer::create(config("cut", 12), Weights::flat(rules()), tmp.path(), false).unwrap();
    t.run_rounds(5, &mut NoObserver).unwrap();
    let dir = t.dir().path().to_path_buf();
    drop(t);
    let mut t = Trainer::resume(&dir).unwrap();
    assert_eq!(t.next_round(), 5);
    assert_eq!(t.next_spsa_k(), 4);
    t.run_rounds(3, &mut NoObserver).unwrap();
    drop(t);
    // A step left half-done: the next round's weight file and a check row
    // were written, rounds.csv (the commit point) was not.
    std::fs::write(dir.join("weights/round-0008.toml"), "garbage").unwrap();
    let checks = read(dir.join("checks.csv"));
    let last = checks.lines().last().unwrap();
    let extra = format!("8{}\n", &last[last.find(',').unwrap()..]);
    std::fs::write(dir.join("checks.csv"), checks.clone() + &extra).unwrap();
    let mut t = Trainer::resume(&dir).unwrap();
    t.run(&mut NoObserver).unwrap();
    assert!(t.is_finished());
    assert_eq!(
        files(whole.dir().path(), "whole"),
        files(&dir, "cut"),
        "the resumed run differs"
    );
}

#[test]
fn the_game_budget_stops_the_run_and_counts_every_game() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = config("budget", 100);
    cfg.max_games = 500; // 80 games a step: stops after step 7 (560 games)
    cfg.check_every = 0;
    let mut t = Trainer::create(cfg, Weights::flat(rules()), tmp.path(), false).unwrap();
    t.run(&mut NoObserver).unwrap();
    assert_eq!(t.next_round(), 8);
    assert_eq!(t.games_played(), 560);
    assert!(t.is_finished());
}

/// A 3-round run with `extra` flags: the exit code and stderr.
fn run_cli(runs: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let args: Vec<&str> = ["--rounds=3"].iter().chain(extra).copied().collect();
    train_cli(runs, &args)
}

#[test]
fn bad_spsa_settings_are_refused_naming_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let s = "--optimizer=spsa";
    for (extra, want) in [
        (&[s, "--spsa-a=0"][..], "--spsa-a"),
        (&[s, "--spsa-a=-1"][..], "--spsa-a"),
        (&[s, "--spsa-a=nan"][..], "--spsa-a"),
        (&[s, "--spsa-c=0"][..], "--spsa-c"),
        (&[s, "--spsa-c=-0.1"][..], "--spsa-c"),
        (&[s, "--spsa-c=9"][..], "--spsa-c"),
        (&[s, "--spsa-alpha=1"][..], "--spsa-alpha"),
        (&[s, "--spsa-alpha=1.5"][..], "--spsa-alpha"),
        (&[s, "--spsa-alpha=0"][..], "--spsa-alpha"),
        (&[s, "--spsa-gamma=-0.1"][..], "--spsa-gamma"),
        (&[s, "--spsa-gamma=0.7"][..], "--spsa-gamma"),
        (&[s, "--spsa-A=-1"][..], "--spsa-A"),
        (&[s, "--spsa-openings=0"][..], "--spsa-openings"),
        (
            &[s, "--sigma=0.2"][..],
            "--sigma applies to --optimizer random",
        ),
        (&[s, "--openings=10"][..], "--spsa-openings"),
        (&["--spsa-a=2"][..], "--spsa-a applies to --optimizer spsa"),
        (&["--optimizer=adam"][..], "expected random, spsa or cmaes"),
        (
            &[s, "--select=gauntlet"][..],
            "--select applies to --optimizer random",
        ),
    ] {
        let (code, err) = run_cli(tmp.path(), extra);
        assert!(code == Some(1) || code == Some(2), "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: wanted {want:?} in {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
    }

    // Through the library and run.toml: the error names the setting.
    let mut cfg = config("lib", 3);
    cfg.spsa.as_mut().unwrap().alpha = 1.0;
    let e = Trainer::create(cfg, Weights::flat(rules()), tmp.path(), false)
        .err()
        .unwrap();
    assert!(
        matches!(e, TrainError::Config { ref field, .. } if field == "spsa.alpha"),
        "{e}"
    );

    let (code, err) = run_cli(tmp.path(), &[s, "--name=toml"]);
    assert_eq!(code, Some(0), "{err}");
    let dir = tmp.path().join("toml");
    let toml = read(dir.join("run.toml"));
    assert!(
        toml.contains("[spsa]") && toml.contains("optimizer = \"spsa\""),
        "{toml}"
    );
    std::fs::write(dir.join("run.toml"), toml.replace("c = 0.2", "c = -0.2")).unwrap();
    let e = Trainer::resume(&dir).err().unwrap();
    assert!(
        e.to_string().contains("run.toml") && e.to_string().contains("spsa.c"),
        "{e}"
    );
    std::fs::write(dir.join("run.toml"), &toml).unwrap();

    // Resuming with the other optimiser is refused without --force, and
    // switches with it.
    let resume = |extra: &[&str]| resume_cli(&dir, extra);
    let (code, err) = resume(&["--rounds=4", "--optimizer=random"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--force") && err.contains("spsa"), "{err}");
    let (code, err) = resume(&["--rounds=4", "--spsa-a=3"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--force"), "{err}");
    assert_eq!(read(dir.join("run.toml")), toml);
    let (code, err) = resume(&["--rounds=5", "--optimizer=random", "--force"]);
    assert_eq!(code, Some(0), "{err}");
    let t = Trainer::resume(&dir).unwrap();
    let kinds: Vec<Optimizer> = t.rounds()[1..].iter().map(|r| r.optimizer).collect();
    assert_eq!(
        kinds,
        [
            Optimizer::Spsa,
            Optimizer::Spsa,
            Optimizer::Spsa,
            Optimizer::Random,
            Optimizer::Random
        ]
    );
    // A mixed run still plots: both the round robin and the SPSA charts.
    let out = mnk::plot::plot_run(&dir).unwrap();
    assert!(out.iter().any(|p| p.ends_with("score.png")));
    assert!(out.iter().any(|p| p.ends_with("gains.png")));
}
