//! Training the combo weight model: the run records the model and every
//! combination weight, its combination weights leave 0, a resume reads the
//! incumbent back exactly, the optimisers that cannot move a zero weight
//! are refused, and `mnk train --model combo` starts such a run.

use crate::common::{mnk, read};
use mnk::eval::{Model, Weights};
use mnk::game::Rules;
use mnk::train::{Field, NoObserver, Optimizer, RunConfig, TrainError, Trainer};

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
fn log_space_optimisers_refuse_the_combo_model() {
    let tmp = tempfile::tempdir().unwrap();
    for optimizer in [Optimizer::Spsa, Optimizer::Cmaes] {
        let mut cfg = config("refused");
        cfg.optimizer = optimizer;
        if optimizer == Optimizer::Cmaes {
            cfg.cmaes = Some(mnk::train::CmaesConfig::defaults(true));
        }
        let start = Weights::flat(Rules::TICTACTOE).with_model(Model::Combo);
        match Trainer::create(cfg, start, tmp.path(), false) {
            Err(TrainError::Config { field, problem }) => {
                assert_eq!(field, Field::Optimizer);
                assert!(problem.to_string().contains("combo model"), "{problem}");
            }
            Err(e) => panic!("{optimizer}: {e}"),
            Ok(_) => panic!("{optimizer}: a combo run was accepted"),
        }
    }
    assert!(!tmp.path().join("refused").exists());
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
