//! Training the combo weight model: the run records the model and every
//! combination weight, its combination weights leave 0, a resume reads the
//! incumbent back exactly, CMA-ES moves them too (the same in any thread
//! count and after a resume), SPSA, which cannot move a zero weight, is
//! refused, `mnk train --model combo` starts such a run, and the shipped
//! `weights/gomoku-combo.toml` is a trained combo set.

use crate::common::{mnk, read, train_in_pool};
use mnk::eval::{Model, Weights};
use mnk::game::Rules;
use mnk::train::{Check, Field, NoObserver, Optimizer, RunConfig, TrainError, Trainer};

fn config(name: &str) -> RunConfig {
    let mut c = RunConfig::defaults(Rules::TICTACTOE);
    c.name = name.into();
    c.rounds = 8;
    c.openings = 20;
    c.check_every = 4;
    c.seed = 7;
    c
}

#[test]
fn a_combo_run_trains_and_resumes_its_combination_weights() {
    let tmp = tempfile::tempdir().unwrap();
    let start = Weights::flat(Rules::TICTACTOE).with_model(Model::Combo);
    let mut t = Trainer::create(config("combo"), start, tmp.path(), false).unwrap();
    assert_eq!(t.config().model, Model::Combo);
    t.run(&mut NoObserver).unwrap();
    let dir = t.dir().path().to_path_buf();
    assert!(read(dir.join("run.toml")).contains("model = \"combo\""));
    let csv = read(dir.join("rounds.csv"));
    let header = csv.lines().next().unwrap();
    assert!(
        header.ends_with(
            "own_combo.double2,own_combo.2_open1,own_combo.double_open1,\
             opp_combo.double2,opp_combo.2_open1,opp_combo.double_open1"
        ),
        "{header}"
    );
    // Some challenger moved a combination weight away from 0 and won.
    let moved = t.rounds().iter().any(|r| {
        let c = r.weights.combo.as_ref().unwrap();
        c.own.iter().chain(&c.opp).any(|&x| x > 0.0)
    });
    assert!(moved, "no combination weight ever left 0");
    let last = t.incumbent().clone();
    assert_eq!(last.model(), Model::Combo);
    drop(t);
    // A resume reads the same incumbent back from the folder.
    let again = Trainer::resume(&dir).unwrap();
    assert_eq!(again.incumbent(), &last);
    assert_eq!(again.config().model, Model::Combo);
}

/// A shape-model run writes no `model` key and no combination columns, as
/// before the combo model.
#[test]
fn a_shape_run_writes_what_it_did_before() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = config("shapes");
    cfg.rounds = 1;
    let mut t = Trainer::create(cfg, Weights::flat(Rules::TICTACTOE), tmp.path(), false).unwrap();
    t.run(&mut NoObserver).unwrap();
    let dir = t.dir().path();
    assert!(!read(dir.join("run.toml")).contains("model"));
    assert!(!read(dir.join("rounds.csv")).contains("combo"));
}

#[test]
fn spsa_refuses_the_combo_model() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = config("refused");
    cfg.optimizer = Optimizer::Spsa;
    let start = Weights::flat(Rules::TICTACTOE).with_model(Model::Combo);
    match Trainer::create(cfg, start, tmp.path(), false) {
        Err(TrainError::Config { field, problem }) => {
            assert_eq!(field, Field::Optimizer);
            assert!(problem.to_string().contains("combo model"), "{problem}");
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a combo SPSA run was accepted"),
    }
    assert!(!tmp.path().join("refused").exists());
}

/// A CMA-ES combo run on 7x7x4 from gomoku's shipped shape weights.
fn cmaes_config(name: &str, generations: u32) -> RunConfig {
    let rules: Rules = "7x7x4".parse().unwrap();
    let mut c = RunConfig::cmaes_defaults(rules);
    c.name = name.into();
    c.rounds = generations;
    c.seed = 5;
    c.check_every = 0;
    c.model = Model::Combo;
    c.cmaes = Some(mnk::train::CmaesConfig {
        sigma: 0.5,
        lambda: 6,
        openings: 12,
        mirrored: true,
        mean_rate: 0.5,
        opponent: mnk::train::CmaesOpponent::Mean,
        fixed_scales: false,
        sigma_max: None,
    });
    c
}

#[test]
fn cmaes_moves_combination_weights_identically_in_any_threads_and_resumed() {
    let tmp = tempfile::tempdir().unwrap();
    let rules: Rules = "7x7x4".parse().unwrap();
    let start = Weights::default_for(rules).with_model(Model::Combo);
    let whole = train_in_pool(1, cmaes_config("whole", 8), start.clone(), tmp.path());
    let want = read(whole.dir().rounds_csv());
    // Some generation's mean left 0 (CMA-ES in plain log space never can).
    let moved = whole.rounds().iter().any(|r| {
        let c = r.weights.combo.as_ref().unwrap();
        c.own.iter().chain(&c.opp).any(|&x| x > 0.0)
    });
    assert!(moved, "no combination weight ever left 0");
    assert!(read(whole.dir().path().join("run.toml")).contains("model = \"combo\""));

    // In 2 threads, stopped twice and resumed from the folder: the same file.
    let dir = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(|| {
            let mut t = Trainer::create(cmaes_config("cut", 8), start, tmp.path(), false).unwrap();
            t.run_rounds(3, &mut NoObserver).unwrap();
            let dir = t.dir().path().to_path_buf();
            drop(t);
            let mut t = Trainer::resume(&dir).unwrap();
            t.run_rounds(2, &mut NoObserver).unwrap();
            drop(t);
            let mut t = Trainer::resume(&dir).unwrap();
            t.run(&mut NoObserver).unwrap();
            dir
        });
    assert_eq!(
        read(dir.join("rounds.csv")),
        want,
        "the resumed run differs"
    );
}

#[test]
fn mnk_train_model_combo_starts_a_combo_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = mnk()
        .args(["train", "--game", "tictactoe", "--start", "flat"])
        .args(["--model", "combo", "--rounds", "1", "--openings", "5"])
        .args(["--name", "c", "--verdict-openings", "0", "--no-plots"])
        .arg("--runs-dir")
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let start = Weights::read(&tmp.path().join("c/weights/round-0000.toml")).unwrap();
    assert_eq!(
        start,
        Weights::flat(Rules::TICTACTOE).with_model(Model::Combo)
    );
    // Its openings have 2 or 3 stones unless --stones says otherwise; a
    // shape run's keep 2.
    let stones = |name: &str, extra: &[&str]| {
        let out = mnk()
            .args(["train", "--game", "tictactoe", "--start", "flat"])
            .args(["--rounds", "1", "--openings", "5", "--check-every", "0"])
            .args(["--name", name, "--verdict-openings", "0", "--no-plots"])
            .args(extra)
            .arg("--runs-dir")
            .arg(tmp.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        let toml = read(tmp.path().join(name).join("run.toml"));
        let max = toml.lines().find(|l| l.starts_with("opening_stones_max"));
        max.map(str::to_string)
    };
    assert!(read(tmp.path().join("c/run.toml")).contains("opening_stones_max = 3"));
    assert_eq!(stones("s", &[]), None);
    assert_eq!(stones("c2", &["--model", "combo", "--stones", "2"]), None);
    assert_eq!(
        stones("s3", &["--stones", "1-3"]).as_deref(),
        Some("opening_stones_max = 3")
    );
    // A model that does not exist is refused by name.
    let out = mnk()
        .args(["train", "--game", "tictactoe", "--model", "neural"])
        .arg("--runs-dir")
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("neural") && err.contains("combo"), "{err}");
}

/// Issue 29's tic-tac-toe goal: greedy from flat weights with the combo
/// model agrees with the exact player in at least 99.0% of the reachable
/// positions after CMA-ES at σ₀ = 1 (`mnk train --game tictactoe --start
/// flat --model combo --optimizer cmaes --cmaes-sigma 1`; 15 of 16 seeds
/// reach 99.16%, docs/training.md). What made it reliable is the openings
/// of 2 or 3 stones, so the run also pins that they replay the same in 2
/// threads, stopped and resumed, as in 1.
#[test]
fn cmaes_combo_from_flat_reaches_99_percent_on_tictactoe() {
    let tmp = tempfile::tempdir().unwrap();
    let config = |name: &str| {
        let mut c = RunConfig::cmaes_defaults(Rules::TICTACTOE);
        c.name = name.into();
        c.start = "flat".into();
        c.model = Model::Combo;
        c.opening_stones_max = RunConfig::default_stones_max(c.game, c.model);
        c.check_every = 100;
        let mut cm = c.cmaes_config();
        cm.sigma = 1.0;
        c.cmaes = Some(cm);
        c
    };
    assert_eq!(config("x").opening_stones_max, Some(3));
    let start = Weights::flat(Rules::TICTACTOE).with_model(Model::Combo);
    let whole = train_in_pool(1, config("whole"), start.clone(), tmp.path());
    let agreement = |c: &mnk::train::CheckRow| match &c.check {
        Check::Exact(e) => e.agreement,
        other => panic!("tic-tac-toe has exact checks, not {other:?}"),
    };
    let checks = whole.checks();
    assert!(agreement(&checks[0]) < 0.9, "flat weights already agree");
    let last = agreement(checks.last().unwrap());
    assert!(last >= 0.99, "agreement {:.2}%", 100.0 * last);

    let dir = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(|| {
            let mut t = Trainer::create(config("cut"), start, tmp.path(), false).unwrap();
            t.run_rounds(70, &mut NoObserver).unwrap();
            let dir = t.dir().path().to_path_buf();
            drop(t);
            let mut t = Trainer::resume(&dir).unwrap();
            t.run(&mut NoObserver).unwrap();
            dir
        });
    for f in ["rounds.csv", "checks.csv"] {
        assert_eq!(
            read(dir.join(f)),
            read(whole.dir().path().join(f)),
            "{f}: the resumed 2-thread run differs"
        );
    }
}

/// The trained combo set shipped as `weights/gomoku-combo.toml` (issue
/// 29's greedy goal, docs/training.md "Attack and defence held"): a gomoku
/// combo model whose combination weights were learnt, whose header says how
/// it was made and measured, that the greedy player plays, and that is no
/// player's default (the default gomoku weights stay the shape model).
#[test]
fn the_shipped_combo_set_is_a_trained_gomoku_combo_model() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/gomoku-combo.toml");
    let w = Weights::load(&path, Rules::GOMOKU, false).unwrap();
    assert_eq!(w.model(), Model::Combo);
    assert_eq!(w.combo_count(), 5);
    let combo = w.combo.as_ref().unwrap();
    // Trained from 0: the fours' combinations carry weight on both sides.
    assert!(combo.own[..2].iter().all(|&x| x > 1000.0), "{combo:?}");
    assert!(combo.opp[..2].iter().all(|&x| x > 1000.0), "{combo:?}");
    let text = read(&path);
    for want in [
        "--model combo",
        "--cmaes-opponent start",
        "--cmaes-fixed-scales true",
        "--rounds 400",
        "mnk match",
        "model = \"combo\"",
    ] {
        assert!(text.contains(want), "{want:?} not in the header");
    }
    assert_eq!(Weights::default_for(Rules::GOMOKU).model(), Model::Shapes);
    let out = mnk()
        .args([
            "match",
            "greedy:weights=weights/gomoku-combo.toml",
            "greedy",
        ])
        .args(["-n", "5", "--threads", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("10 games"), "{text}");
}
