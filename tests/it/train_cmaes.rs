//! The CMA-ES optimiser (`--optimizer cmaes`): determinism across thread
//! counts, resume (in the library and after a kill) equal to an
//! uninterrupted run, the recorded generations, plots, the game budget,
//! the fixed opponent (`--cmaes-opponent start`), attack and defence held
//! fixed with σ capped (`--cmaes-fixed-scales`, `--cmaes-sigma-max`), and
//! clear errors for bad settings.

use crate::common::{mnk, read, train_cli};
use mnk::eval::Weights;
use mnk::game::Rules;
use mnk::train::{
    CmaesConfig, CmaesOpponent, NoObserver, Optimizer, Reason, RunConfig, TrainError, Trainer,
};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn rules() -> Rules {
    "7x7x4".parse().unwrap()
}

fn config(name: &str, generations: u32) -> RunConfig {
    let mut c = RunConfig::cmaes_defaults(rules());
    c.name = name.into();
    c.start = "flat".into();
    c.rounds = generations;
    c.seed = 13;
    c.check_every = 4;
    c.check_openings = 20;
    c.cmaes = Some(CmaesConfig {
        sigma: 0.4,
        lambda: 6,
        openings: 12,
        mirrored: true,
        mean_rate: 0.5,
        opponent: CmaesOpponent::Mean,
        fixed_scales: false,
        sigma_max: None,
    });
    c
}

/// [`config`] with the candidates playing the run's start.
fn against_start(name: &str, generations: u32) -> RunConfig {
    let mut c = config(name, generations);
    c.cmaes.as_mut().unwrap().opponent = CmaesOpponent::Start;
    c
}

/// [`against_start`] with attack and defence held and σ capped at σ₀.
fn fixed_scales(name: &str, generations: u32) -> RunConfig {
    let mut c = against_start(name, generations);
    let cc = c.cmaes.as_mut().unwrap();
    cc.fixed_scales = true;
    cc.sigma_max = Some(0.4);
    c
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

const FILES: [&str; 5] = [
    "run.toml",
    "rounds.csv",
    "checks.csv",
    "weights/best.toml",
    "weights/round-0010.toml",
];

fn files(dir: &Path, name: &str) -> Vec<String> {
    FILES
        .iter()
        .map(|f| {
            read(dir.join(f))
                .replace(&format!("run {name}:"), "run NAME:")
                .replace(&format!("name = \"{name}\""), "name = NAME")
        })
        .collect()
}

/// A run of `config` from `start` in `dir`, played to its end.
fn run_to_end(config: RunConfig, start: Weights, dir: &Path) -> Trainer {
    let mut t = Trainer::create(config, start, dir, false).unwrap();
    t.run(&mut NoObserver).unwrap();
    t
}

/// `rounds.csv` reads back to the run's rounds (the parser checks every
/// candidate's counts and the generation numbers).
fn assert_rounds_read_back(t: &Trainer) {
    let back = mnk::train::parse_rounds(
        &read(t.dir().rounds_csv()),
        &t.dir().rounds_csv(),
        t.config(),
    )
    .unwrap();
    assert_eq!(back, t.rounds());
}

/// Runs `config(name)` from `start` once with 1 worker thread and once
/// with 2 (names `{prefix}1`, `{prefix}2`) in `dir`, asserts that their
/// files are byte-identical, and returns the files (run.toml first) and
/// the trainers.
fn run_with_1_and_2_threads(
    dir: &Path,
    prefix: &str,
    config: impl Fn(&str) -> RunConfig + Sync,
    start: &Weights,
) -> Vec<(Vec<String>, Trainer)> {
    let runs: Vec<(Vec<String>, Trainer)> = [1, 2]
        .into_iter()
        .map(|threads| {
            let name = format!("{prefix}{threads}");
            let t = in_pool(threads, || run_to_end(config(&name), start.clone(), dir));
            (files(t.dir().path(), &name), t)
        })
        .collect();
    assert_eq!(runs[0].0, runs[1].0, "files differ between 1 and 2 threads");
    runs
}

#[test]
fn cmaes_is_identical_with_1_and_2_threads_and_records_its_generations() {
    let tmp = tempfile::tempdir().unwrap();
    let runs =
        run_with_1_and_2_threads(tmp.path(), "t", |n| config(n, 10), &Weights::flat(rules()));

    let t = &runs[0].1;
    let rows = t.rounds();
    assert_eq!(rows.len(), 11);
    assert_eq!(rows[0].reason, Reason::Start);
    let mut sigmas = Vec::new();
    for (g, r) in rows[1..].iter().enumerate() {
        let c = r.cmaes.as_ref().expect("every round is a generation");
        assert_eq!(r.optimizer, Optimizer::Cmaes);
        assert_eq!(r.reason, Reason::CmaesGeneration);
        assert_eq!(c.generation, g as u32);
        assert_eq!(c.tallies.len(), 6);
        assert!(c.tallies.iter().all(|t| t.games() == 24));
        assert_eq!(r.games, 6 * 24);
        assert!(!r.adopted());
        sigmas.push(c.sigma);
    }
    assert_eq!(sigmas[0], 0.4, "generation 0 draws with σ₀");
    assert!(sigmas.windows(2).any(|w| w[0] != w[1]), "σ never adapted");
    assert_ne!(rows[10].weights, rows[0].weights, "the mean never moved");
    assert_eq!(t.games_played(), 10 * 6 * 24);

    assert_rounds_read_back(t);

    // The plots: the weights (the mean's trajectory), σ and the
    // candidates, the checks; no round-robin score chart.
    let out = mnk::plot::plot_run(t.dir().path()).unwrap();
    let names: Vec<String> = out
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for n in ["weights.png", "cmaes.png", "cmaes.svg", "checks.png"] {
        assert!(names.iter().any(|m| m == n), "{n} missing from {names:?}");
    }
    assert!(!names.iter().any(|m| m == "score.png"), "{names:?}");
}

/// Against the start: byte-identical with 1 and 2 threads; `run.toml`
/// says so (a run against the mean has no `opponent` key); generation 0
/// is the mean run's (the mean is still the start), later ones differ;
/// the rows read back.
#[test]
fn cmaes_against_the_start_is_identical_with_1_and_2_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = run_with_1_and_2_threads(
        tmp.path(),
        "s",
        |n| against_start(n, 10),
        &Weights::flat(rules()),
    );
    let toml = &runs[0].0[0];
    assert!(toml.contains("opponent = \"start\""), "{toml}");

    let mean = run_to_end(config("mean", 10), Weights::flat(rules()), tmp.path());
    let plain = read(mean.dir().run_toml());
    for key in ["opponent", "fixed_scales", "sigma_max"] {
        assert!(!plain.contains(key), "{key} in {plain}");
    }
    let (start, mean) = (runs[0].1.rounds(), mean.rounds());
    assert_eq!(start[1], mean[1], "generation 0 plays the start either way");
    assert_ne!(start[2..], mean[2..], "the opponent made no difference");
    for r in &start[1..] {
        let c = r.cmaes.as_ref().unwrap();
        assert!(c.tallies.iter().all(|t| t.games() == 24));
    }
    // rounds.csv reads back to the same rounds (resume: the kill test below).
    assert_rounds_read_back(&runs[0].1);
}

/// Attack and defence held, σ capped: byte-identical with 1 and 2
/// threads; `run.toml` says so (a run without them has neither key, the
/// test above); every row keeps the start's attack and defence while the
/// other weights move; no generation draws with σ above the cap; the
/// rows read back; generation 0's candidates differ from a run that
/// searches attack and defence (fewer dimensions, other draws).
#[test]
fn cmaes_with_fixed_scales_is_identical_with_1_and_2_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = run_with_1_and_2_threads(
        tmp.path(),
        "f",
        |n| fixed_scales(n, 10),
        &Weights::default_for(rules()),
    );
    let toml = &runs[0].0[0];
    assert!(
        toml.contains("fixed_scales = true") && toml.contains("sigma_max = 0.4"),
        "{toml}"
    );
    let t = &runs[0].1;
    let rows = t.rounds();
    let start = &rows[0].weights;
    for r in &rows[1..] {
        assert_eq!(
            (r.weights.attack, r.weights.defence),
            (start.attack, start.defence),
            "round {}",
            r.round
        );
        assert!(r.cmaes.as_ref().unwrap().sigma <= 0.4, "round {}", r.round);
    }
    assert_ne!(
        rows[10].weights.own, start.own,
        "the own weights never moved"
    );
    assert_ne!(
        rows[10].weights.opp, start.opp,
        "the opp weights never moved"
    );
    assert_rounds_read_back(t);

    let free = run_to_end(
        against_start("free", 1),
        Weights::default_for(rules()),
        tmp.path(),
    );
    let free = free.rounds();
    assert_ne!(free[1].weights.attack, start.attack, "attack is searched");
    assert_ne!(
        free[1], rows[1],
        "holding attack and defence changed nothing"
    );
}

#[test]
fn a_resumed_cmaes_run_equals_an_uninterrupted_one() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = run_to_end(config("whole", 10), Weights::flat(rules()), tmp.path());

    // Interrupted twice; each time the state is replayed from the folder.
    let mut t =
        Trainer::create(config("cut", 10), Weights::flat(rules()), tmp.path(), false).unwrap();
    t.run_rounds(4, &mut NoObserver).unwrap();
    let dir = t.dir().path().to_path_buf();
    drop(t);
    let mut t = Trainer::resume(&dir).unwrap();
    assert_eq!(t.next_round(), 4);
    t.run_rounds(3, &mut NoObserver).unwrap();
    drop(t);
    let mut t = Trainer::resume(&dir).unwrap();
    t.run(&mut NoObserver).unwrap();
    assert!(t.is_finished());
    assert_eq!(
        files(whole.dir().path(), "whole"),
        files(&dir, "cut"),
        "the resumed run differs"
    );
    drop(t);

    // A row whose candidates were edited no longer replays to its weights:
    // refused, naming rounds.csv and the round.
    let csv = read(dir.join("rounds.csv"));
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let col = |n: String| header.iter().position(|h| *h == n).unwrap();
    let mut row: Vec<String> = lines[3].split(',').map(String::from).collect();
    // Swap a candidate's wins and losses: the counts still add up, the
    // ranking does not.
    let k = (1..=6)
        .find(|k| row[col(format!("cmaes_c{k}_wins"))] != row[col(format!("cmaes_c{k}_losses"))])
        .expect("a candidate that did not score 0");
    let (w, l, s) = (
        col(format!("cmaes_c{k}_wins")),
        col(format!("cmaes_c{k}_losses")),
        col(format!("cmaes_c{k}_score")),
    );
    row.swap(w, l);
    row[s] = (row[w].parse::<i64>().unwrap() - row[l].parse::<i64>().unwrap()).to_string();
    assert_ne!(lines[3], row.join(","), "the edit changed nothing");
    lines[3] = row.join(",");
    std::fs::write(dir.join("rounds.csv"), lines.join("\n") + "\n").unwrap();
    let resumed = Trainer::resume(&dir).and_then(|mut t| {
        t.reconfigure(
            RunConfig {
                rounds: 12,
                ..t.config().clone()
            },
            false,
        )?;
        t.run(&mut NoObserver)
    });
    let e = resumed.expect_err("an edited generation was replayed");
    let text = e.to_string();
    assert!(
        text.contains("rounds.csv") && text.contains("round 2"),
        "{text}"
    );
}

/// rounds.csv of a short shape-model run, as CMA-ES wrote it before the
/// combo model's shifted coordinates, mirrored pairs and the mean's
/// learning rate: FNV-1a of `mnk train --game=7x7x4 --check-every=0
/// --no-plots --verdict-openings=0 --optimizer cmaes --start flat --rounds
/// 10 --cmaes-lambda 6 --cmaes-openings 12 --cmaes-sigma 0.4 --seed 13`
/// (6,040 bytes), now with `--cmaes-mirrored false --cmaes-mean-rate 1`.
const SHAPE_RUN_FNV: u64 = 0xae96_a235_f676_05c6;

/// The pinned run's flags (`old`: the settings of runs made before
/// mirrored pairs and the mean's learning rate).
fn pin_run(dir: &Path, name: &str, old: bool) -> Vec<u8> {
    let name_arg = format!("--name={name}");
    let mut args = vec![
        name_arg.as_str(),
        "--optimizer=cmaes",
        "--start=flat",
        "--rounds=10",
        "--cmaes-lambda=6",
        "--cmaes-openings=12",
        "--cmaes-sigma=0.4",
        "--seed=13",
    ];
    if old {
        args.extend(["--cmaes-mirrored=false", "--cmaes-mean-rate=1"]);
    }
    let (code, err) = train_cli(dir, &args);
    assert_eq!(code, Some(0), "{err}");
    std::fs::read(dir.join(name).join("rounds.csv")).unwrap()
}

fn fnv(text: &[u8]) -> u64 {
    text.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn a_shape_model_cmaes_run_is_byte_identical_to_before_the_combo_model() {
    let tmp = tempfile::tempdir().unwrap();
    let text = pin_run(tmp.path(), "pin", true);
    assert_eq!(
        (fnv(&text), text.len()),
        (SHAPE_RUN_FNV, 6040),
        "{}",
        String::from_utf8_lossy(&text)
    );
    // Its run.toml names neither new setting, so it reads and hashes (its
    // fingerprint) as a run.toml written before them, and a run.toml
    // without them resumes with independent draws and c_m = 1.
    let toml = read(tmp.path().join("pin/run.toml"));
    assert!(
        !toml.contains("mirrored") && !toml.contains("mean_rate"),
        "{toml}"
    );
    let t = Trainer::resume(&tmp.path().join("pin")).unwrap();
    let c = t.config().cmaes_config();
    assert_eq!((c.mirrored, c.mean_rate), (false, 1.0));

    // The defaults of a new run: mirrored pairs, c_m = 0.5, both written;
    // its games differ from the old method's.
    let new = pin_run(tmp.path(), "new", false);
    let toml = read(tmp.path().join("new/run.toml"));
    assert!(
        toml.contains("mirrored = true") && toml.contains("mean_rate = 0.5"),
        "{toml}"
    );
    assert_ne!(new, text);
}

#[test]
fn a_killed_cmaes_run_resumes_to_the_same_files() {
    kill_and_resume(&["--start", "flat"]);
}

#[test]
fn a_killed_combo_cmaes_run_resumes_to_the_same_files() {
    kill_and_resume(&["--model", "combo", "--start", "shipped"]);
}

#[test]
fn a_killed_cmaes_run_against_the_start_resumes_to_the_same_files() {
    kill_and_resume(&[
        "--model",
        "combo",
        "--start",
        "shipped",
        "--cmaes-opponent",
        "start",
    ]);
}

#[test]
fn a_killed_cmaes_run_with_fixed_scales_resumes_to_the_same_files() {
    kill_and_resume(&[
        "--model",
        "combo",
        "--start",
        "shipped",
        "--cmaes-opponent",
        "start",
        "--cmaes-fixed-scales",
        "true",
        "--cmaes-sigma-max",
        "0.35",
    ]);
}

/// Runs a CMA-ES run on 7x7x4 (with `extra` flags) whole, and again
/// killed after a few generations and resumed: the files must be equal.
fn kill_and_resume(extra: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    let args = |name: &str| -> Vec<String> {
        let mut a: Vec<String> = [
            "train",
            "-g",
            "7x7x4",
            "--optimizer",
            "cmaes",
            "--rounds",
            "150",
            "--cmaes-lambda",
            "6",
            "--cmaes-openings",
            "40",
            "--check-every",
            "50",
            "--check-openings",
            "20",
            "--verdict-openings",
            "0",
            "--no-plots",
            "--seed",
            "4",
            "--name",
            name,
            "--runs-dir",
            runs.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let out = mnk().args(args("whole")).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut child = mnk()
        .args(args("killed"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let rounds = runs.join("killed/rounds.csv");
    let t0 = Instant::now();
    while std::fs::read_to_string(&rounds).map_or(0, |t| t.lines().count()) < 5 {
        assert!(t0.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done = read(&rounds).lines().count() - 1;
    assert!(done < 151, "the run finished before it was killed");
    let out = mnk()
        .args([
            "train".to_string(),
            format!("--resume={}", runs.join("killed").display()),
            "--verdict-openings=0".into(),
            "--no-plots".into(),
            "--threads=1".into(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for f in ["rounds.csv", "checks.csv", "weights/best.toml"] {
        let whole = read(runs.join("whole").join(f));
        let resumed = read(runs.join("killed").join(f)).replace("run killed", "run whole");
        assert_eq!(whole, resumed, "{f} differs after resume");
    }
}

#[test]
fn the_game_budget_stops_a_cmaes_run() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = config("budget", 100);
    cfg.max_games = 500; // 144 games a generation: stops after 4 (576)
    cfg.check_every = 0;
    let t = run_to_end(cfg, Weights::flat(rules()), tmp.path());
    assert_eq!(t.next_round(), 5);
    assert_eq!(t.games_played(), 576);
}

#[test]
fn bad_cmaes_settings_are_refused_naming_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let o = "--optimizer=cmaes";
    for (extra, want) in [
        (&[o, "--cmaes-sigma=0"][..], "--cmaes-sigma"),
        (&[o, "--cmaes-sigma=-1"][..], "--cmaes-sigma"),
        (&[o, "--cmaes-sigma=nan"][..], "--cmaes-sigma"),
        (&[o, "--cmaes-sigma=6"][..], "--cmaes-sigma"),
        (&[o, "--cmaes-lambda=1"][..], "--cmaes-lambda"),
        (&[o, "--cmaes-lambda=65"][..], "--cmaes-lambda"),
        (&[o, "--cmaes-openings=0"][..], "--cmaes-openings"),
        (&[o, "--cmaes-mean-rate=0"][..], "--cmaes-mean-rate"),
        (&[o, "--cmaes-mean-rate=1.5"][..], "--cmaes-mean-rate"),
        (&[o, "--cmaes-mean-rate=nan"][..], "--cmaes-mean-rate"),
        (&[o, "--cmaes-mirrored=maybe"][..], "--cmaes-mirrored"),
        (&[o, "--cmaes-opponent=best"][..], "--cmaes-opponent"),
        (&[o, "--cmaes-opponent=best"][..], "expected mean or start"),
        (
            &[o, "--cmaes-fixed-scales=maybe"][..],
            "--cmaes-fixed-scales",
        ),
        (&[o, "--cmaes-sigma-max=0.2"][..], "--cmaes-sigma-max"),
        (&[o, "--cmaes-sigma-max=0.2"][..], "at least sigma (0.3)"),
        (&[o, "--cmaes-sigma-max=6"][..], "--cmaes-sigma-max"),
        (&[o, "--cmaes-sigma-max=nan"][..], "--cmaes-sigma-max"),
        (
            &["--cmaes-fixed-scales=true"][..],
            "--cmaes-fixed-scales applies to --optimizer cmaes",
        ),
        (
            &["--cmaes-sigma-max=1"][..],
            "--cmaes-sigma-max applies to --optimizer cmaes",
        ),
        (
            &["--cmaes-opponent=start"][..],
            "--cmaes-opponent applies to --optimizer cmaes",
        ),
        (
            &["--cmaes-mean-rate=0.5"][..],
            "--cmaes-mean-rate applies to --optimizer cmaes",
        ),
        (&[o, "--sigma=0.2"][..], "--cmaes-sigma (step size)"),
        (&[o, "--challengers=3"][..], "--cmaes-lambda (candidates)"),
        (
            &["--cmaes-lambda=8"][..],
            "--cmaes-lambda applies to --optimizer cmaes",
        ),
        (&[o, "--select=confirm"][..], "CMA-ES has no selection"),
        (&["--optimizer=adam"][..], "expected random, spsa or cmaes"),
    ] {
        let args: Vec<&str> = ["--rounds=2"].iter().chain(extra).copied().collect();
        let (code, err) = train_cli(tmp.path(), &args);
        assert!(code == Some(1) || code == Some(2), "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: wanted {want:?} in {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
    }

    // Through the library: the error names the run.toml key.
    let mut cfg = config("lib", 3);
    cfg.cmaes.as_mut().unwrap().lambda = 1;
    let e = Trainer::create(cfg, Weights::flat(rules()), tmp.path(), false)
        .err()
        .unwrap();
    assert!(
        matches!(e, TrainError::Config { ref field, .. } if field == "cmaes.lambda"),
        "{e}"
    );
    let mut cfg = config("lib", 3);
    cfg.cmaes = None;
    let e = Trainer::create(cfg, Weights::flat(rules()), tmp.path(), false)
        .err()
        .unwrap();
    assert!(e.to_string().contains("[cmaes] table"), "{e}");

    // A run's [cmaes] table is fixed: an edited run.toml is refused
    // (its fingerprint), and a random-search run cannot switch to CMA-ES
    // even when forced.
    let (code, err) = train_cli(tmp.path(), &["--rounds=2", o, "--name=toml"]);
    assert_eq!(code, Some(0), "{err}");
    let dir = tmp.path().join("toml");
    let toml = read(dir.join("run.toml"));
    assert!(
        toml.contains("[cmaes]") && toml.contains("optimizer = \"cmaes\""),
        "{toml}"
    );
    std::fs::write(
        dir.join("run.toml"),
        toml.replace("lambda = 10", "lambda = 0"),
    )
    .unwrap();
    let e = Trainer::resume(&dir).err().unwrap();
    assert!(
        e.to_string().contains("run.toml") && e.to_string().contains("cmaes.lambda"),
        "{e}"
    );
    // The opponent too: an unknown one is refused naming the key and
    // the words expected, and switching a run to the start (an edited
    // run.toml, or the flag on a resume) is refused.
    for (edit, want) in [
        ("opponent = \"best\"\n", "opponent"),
        ("opponent = \"best\"\n", "mean"),
        ("opponent = \"start\"\n", "fingerprint"),
    ] {
        std::fs::write(
            dir.join("run.toml"),
            toml.replace("[cmaes]\n", &format!("[cmaes]\n{edit}")),
        )
        .unwrap();
        let e = Trainer::resume(&dir).err().unwrap().to_string();
        assert!(e.contains("run.toml") && e.contains(want), "{edit}: {e}");
    }
    std::fs::write(dir.join("run.toml"), &toml).unwrap();
    let (code, err) =
        crate::common::resume_cli(&dir, &["--rounds=3", "--cmaes-opponent=start", "--force"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--cmaes-opponent"), "{err}");
    for flag in ["--cmaes-fixed-scales=true", "--cmaes-sigma-max=1"] {
        let (code, err) = crate::common::resume_cli(&dir, &["--rounds=3", flag, "--force"]);
        assert_eq!(code, Some(2), "{flag}: {err}");
        assert!(err.contains(flag.split('=').next().unwrap()), "{err}");
    }
    let (code, err) = train_cli(tmp.path(), &["--rounds=2", "--name=plain"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, err) =
        crate::common::resume_cli(&tmp.path().join("plain"), &["--rounds=3", o, "--force"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("cmaes") && err.contains("start a new run"),
        "{err}"
    );
}
