//! The plateau rule: σ as a pure function of the configuration and the
//! adoptions so far (exact values on synthetic histories), reproduced by
//! a resumed run and by any thread count; old `run.toml` files without
//! the rule; bad settings refused naming the flag; the adoption lines and
//! the closing report of how much of the budget changed nothing.

use crate::common::{read, train_cli, train_in_pool};
use mnk::arena::stats::{PairedTally, Pentanomial, Tally};
use mnk::eval::Weights;
use mnk::game::Rules;
use mnk::train::{
    BudgetUse, ConfirmVerdict, Confirmation, NoObserver, Optimizer, PlateauConfig, Reason,
    RoundResult, RunConfig, Select, SigmaChange, SigmaMove, SigmaSchedule, Trainer,
};

/// A gomoku configuration with the plateau rule `p` (σ 0.4, floor 0.05).
fn config(p: Option<PlateauConfig>) -> RunConfig {
    RunConfig {
        name: "p".into(),
        sigma: 0.4,
        sigma_min: 0.05,
        plateau: p,
        ..RunConfig::defaults(Rules::GOMOKU)
    }
}

fn rule(patience: u32, shrink: f64, grow: bool, stop: bool) -> Option<PlateauConfig> {
    Some(PlateauConfig {
        patience,
        shrink,
        grow,
        stop,
    })
}

/// σ of rounds 1, 2, … under `cfg` for the adoption history `adopted`
/// ('A' adopted, '.' kept; one σ more than the history: the next round's),
/// and the decisions taken (round, action).
fn replay(cfg: &RunConfig, adopted: &str) -> (Vec<f64>, Vec<(u32, SigmaMove)>) {
    let mut s = SigmaSchedule::new(cfg);
    let mut sigmas = vec![s.sigma()];
    let mut moves = Vec::new();
    for (i, c) in adopted.chars().enumerate() {
        let round = i as u32 + 1;
        assert_eq!(s.next_round(), round);
        if let Some(m) = s.record_adoption(round, c == 'A') {
            assert_eq!(m.round, round);
            // With a constant base σ, `from` is the σ it replaces.
            if cfg.sigma_half_life == 0.0 {
                assert_eq!(m.from, sigmas[i], "round {round}");
            }
            moves.push((round, m.action));
        }
        sigmas.push(s.sigma());
    }
    (sigmas, moves)
}

#[test]
fn sigma_shrinks_after_patience_quiet_rounds_and_grows_back_by_the_fifth_rule() {
    let cfg = config(rule(5, 0.5, true, false));
    // 5 quiet rounds: ×0.5 three times reaches the floor 0.05 exactly;
    // 5 more stay there; then 2 adoptions in 3 rounds (more than 5/5)
    // undo a shrink, and again after the window restarts.
    let history = concat!(
        ".....",
        ".....",
        ".....",
        ".....",
        "A.A",
        "A.A",
        "....A...."
    );
    let (sigmas, moves) = replay(&cfg, history);
    let mut want = Vec::new();
    want.extend([0.4; 5]);
    want.extend([0.2; 5]);
    want.extend([0.1; 5]);
    want.extend([0.05; 5]);
    want.extend([0.05; 3]); // rounds 21-23, at the floor
    want.extend([0.1; 3]); // after the grow at round 23
    want.extend([0.2; 10]); // after the grow at round 26; 4 quiet, A, 4 quiet: no shrink
    assert_eq!(sigmas, want);
    assert_eq!(
        moves,
        vec![
            (5, SigmaMove::Shrink),
            (10, SigmaMove::Shrink),
            (15, SigmaMove::Shrink),
            (20, SigmaMove::Floor),
            (23, SigmaMove::Grow),
            (26, SigmaMove::Grow),
        ]
    );
}

#[test]
fn the_default_factor_multiplies_to_the_bit_and_grows_no_higher_than_sigma() {
    let cfg = RunConfig {
        sigma: 0.3,
        ..config(rule(2, 0.7, true, false))
    };
    let (sigmas, _) = replay(&cfg, "....AA" /* two shrinks, then one grow */);
    assert_eq!(
        sigmas,
        vec![
            0.3,
            0.3,
            0.3 * 0.7,
            0.3 * 0.7,
            0.3 * 0.7 * 0.7,
            0.3 * 0.7,
            0.3
        ]
    );
    // ℓ never goes below 0: more adoptions leave σ at its start.
    let (sigmas, moves) = replay(&cfg, "AAAAAA");
    assert!(sigmas.iter().all(|&s| s == 0.3), "{sigmas:?}");
    assert!(moves.is_empty());
}

#[test]
fn without_grow_sigma_only_shrinks_and_stop_ends_the_run_at_the_floor() {
    let cfg = config(rule(2, 0.5, false, true));
    let mut s = SigmaSchedule::new(&cfg);
    let mut last = None;
    for (i, adopted) in [
        false, false, true, true, true, false, false, false, false, false, false,
    ]
    .into_iter()
    .enumerate()
    {
        last = s.record_adoption(i as u32 + 1, adopted).or(last);
        if s.stopped().is_some() {
            break;
        }
    }
    // Shrinks after rounds 2, 7, 9 (0.4 → 0.2 → 0.1 → 0.05); adoptions at
    // 3-5 grow nothing; rounds 10-11 at the floor stop the run.
    assert_eq!(s.stopped(), Some(11));
    assert_eq!(s.sigma(), 0.05);
    assert_eq!(s.level(), 3);
    let last = last.unwrap();
    assert_eq!(last.action, SigmaMove::Stop);
    assert_eq!(
        last.describe(),
        "no adoption for 2 rounds with σ at its floor 0.050: a plateau, the run stops here"
    );
    // Nothing changes after the stop.
    assert_eq!(s.record_adoption(12, false), None);
    assert_eq!(s.stopped(), Some(11));
}

#[test]
fn decisions_are_described_with_sigma_before_and_after() {
    let mut s = SigmaSchedule::new(&RunConfig {
        sigma: 0.3,
        ..config(rule(10, 0.7, true, false))
    });
    let mut changes = Vec::new();
    for r in 1..=13u32 {
        changes.extend(s.record_adoption(r, r > 10));
    }
    let texts: Vec<String> = changes.iter().map(|c| c.describe()).collect();
    assert_eq!(
        texts,
        vec![
            "no adoption for 10 rounds: σ 0.30 → 0.21",
            "3 adoptions in the last 3 rounds: σ 0.21 → 0.30",
        ]
    );
    // Two values that read the same at the usual precision get more
    // decimals: a shrink from just above the floor to it.
    let change = |from: f64, to: f64| SigmaChange {
        round: 20,
        action: SigmaMove::Shrink,
        rounds: 10,
        adoptions: 0,
        from,
        to,
    };
    assert_eq!(
        change(0.0504, 0.05).describe(),
        "no adoption for 10 rounds: σ 0.0504 → 0.0500"
    );
    assert_eq!(
        change(0.1004, 0.1).describe(),
        "no adoption for 10 rounds: σ 0.1004 → 0.1000"
    );
    assert_eq!(
        change(0.3, 0.21).describe(),
        "no adoption for 10 rounds: σ 0.30 → 0.21"
    );
}

#[test]
fn without_the_rule_sigma_is_the_half_life_schedule_to_the_bit() {
    let cfg = RunConfig {
        sigma_half_life: 7.0,
        ..config(None)
    };
    let mut s = SigmaSchedule::new(&cfg);
    for r in 1..=60u32 {
        assert_eq!(s.sigma().to_bits(), cfg.sigma_at(r).to_bits(), "round {r}");
        assert_eq!(s.record_adoption(r, r % 13 == 0), None);
    }
    // With the rule, σ is the half-life schedule times 0.5^ℓ, floored.
    let cfg = RunConfig {
        sigma_half_life: 7.0,
        ..config(rule(3, 0.5, false, false))
    };
    let (sigmas, _) = replay(&cfg, "...");
    assert_eq!(sigmas[3], (cfg.sigma_at(4) * 0.5).max(0.05));
}

/// A round of `games` games that kept the incumbent (champion 0) or
/// adopted challenger `champion`.
fn round(cfg: &RunConfig, r: u32, games: u64, champion: usize) -> RoundResult {
    RoundResult {
        round: r,
        games,
        champion,
        reason: if champion == 0 {
            Reason::IncumbentBest
        } else {
            Reason::ChallengerBest
        },
        ..RoundResult::start(cfg, Weights::flat(cfg.game))
    }
}

#[test]
fn the_budget_report_counts_games_that_changed_nothing() {
    let cfg = config(None);
    let mut rounds = vec![RoundResult::start(&cfg, Weights::flat(cfg.game))];
    for (r, champion) in [(1, 0), (2, 3), (3, 0), (4, 1), (5, 0), (6, 0)] {
        rounds.push(round(&cfg, r, 1000, champion));
    }
    // Round 7 kept the incumbent after a failed confirmation: its 600
    // confirmation games changed nothing either.
    let mut r7 = round(&cfg, 7, 1000, 0);
    r7.reason = Reason::NotConfirmed;
    r7.confirm = Some(Confirmation {
        candidate: 2,
        tally: PairedTally {
            games: Tally::new(250, 100, 250),
            pairs: Pentanomial::new([0, 50, 200, 50, 0]),
        },
        llr: Some(-2.95),
        verdict: ConfirmVerdict::AcceptH0,
    });
    rounds.push(r7);
    // An SPSA step (a run switched with --force) is not counted.
    let mut spsa = round(&cfg, 8, 500, 0);
    spsa.optimizer = Optimizer::Spsa;
    spsa.reason = Reason::SpsaStep;
    spsa.spsa = Some(mnk::train::SpsaStep {
        k: 0,
        a_k: 0.1,
        c_k: 0.2,
        tally: PairedTally::default(),
    });
    rounds.push(spsa);

    let b = BudgetUse::of(&rounds);
    assert_eq!(
        b,
        BudgetUse {
            rounds: 7,
            games: 7600,
            adopted: vec![2, 4],
            kept_rounds: 5,
            kept_games: 5600,
            after_last_rounds: 3,
            after_last_games: 3600,
        }
    );
    assert_eq!(
        b.lines(),
        vec![
            "adopted at rounds 2, 4 (2 of 7 rounds)",
            "games that changed nothing: 5,600 of 7,600 (73.7%) in the 5 rounds that kept the incumbent; 3,600 games (47.4%) in the 3 rounds after the last adoption (round 4)",
        ]
    );

    // No adoption at all: every game changed nothing.
    let none = BudgetUse::of(&rounds[..2]);
    assert_eq!((none.kept_games, none.after_last_games), (1000, 1000));
    assert_eq!(none.lines()[0], "no challenger adopted in 1 round");
    // No random-search rounds: nothing to say.
    assert!(BudgetUse::of(&rounds[..1]).lines().is_empty());
}

#[test]
fn an_adoption_is_one_line_with_its_score_and_reason() {
    let cfg = config(None);
    let mut r = round(&cfg, 12, 40_000, 3);
    r.tallies = vec![
        Tally::new(5000, 4000, 7000),
        Tally::new(5000, 6000, 5000),
        Tally::new(5000, 6000, 5000),
        Tally::new(6000, 4412, 5588),
        Tally::new(5000, 6000, 5000),
    ];
    assert_eq!(
        r.adoption().unwrap(),
        "adopted challenger 3 (wins − losses +412 of 16,000 games, 51.3%), best in the round robin, and beat the incumbent in their pairing"
    );
    r.select = Select::Best;
    assert_eq!(
        r.adoption().unwrap(),
        "adopted challenger 3 (wins − losses +412 of 16,000 games, 51.3%), best in the round robin"
    );
    r.reason = Reason::Confirmed;
    r.select = Select::Confirm;
    r.confirm = Some(Confirmation {
        candidate: 3,
        tally: PairedTally {
            games: Tally::new(900, 1800, 700),
            pairs: Pentanomial::new([100, 200, 900, 300, 200]),
        },
        llr: Some(2.9612),
        verdict: ConfirmVerdict::AcceptH1,
    });
    assert_eq!(
        r.adoption().unwrap(),
        "adopted challenger 3 (wins − losses +412 of 16,000 games, 51.3%), best in the round robin, confirmed by SPRT (LLR 2.96)"
    );
    r.champion = 0;
    r.reason = Reason::NotConfirmed;
    assert_eq!(r.adoption(), None);
}

/// A tic-tac-toe run of `rounds` rounds with a quick plateau rule.
fn ttt(name: &str, rounds: u32) -> RunConfig {
    RunConfig {
        name: name.into(),
        rounds,
        openings: 6,
        check_every: 0,
        seed: 3,
        plateau: rule(2, 0.7, true, false),
        // The σ replay is under test, not the selection: `best` adopts
        // often enough on this seed for the rule to shrink and grow σ.
        select: Select::Best,
        ..RunConfig::defaults(Rules::TICTACTOE)
    }
}

/// The σ column of a `rounds.csv`.
fn sigmas(csv: &str) -> Vec<String> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = header.iter().position(|&h| h == "sigma").unwrap();
    lines
        .map(|l| l.split(',').nth(col).unwrap().to_string())
        .collect()
}

#[test]
fn a_resumed_run_and_any_thread_count_replay_the_same_sigma() {
    let tmp = tempfile::tempdir().unwrap();
    let start = Weights::flat(Rules::TICTACTOE);
    let whole = train_in_pool(1, ttt("whole", 40), start.clone(), tmp.path());
    let want = read(whole.dir().rounds_csv());

    // The same run in 2 threads, stopped after 17 rounds (round 0 counts)
    // and resumed twice.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let dir = pool.install(|| {
        let mut t = Trainer::create(ttt("parts", 40), start, tmp.path(), false).unwrap();
        t.run_rounds(17, &mut NoObserver).unwrap();
        let dir = t.dir().path().to_path_buf();
        drop(t);
        let mut t = Trainer::resume(&dir).unwrap();
        assert_eq!(t.next_round(), 17);
        t.run_rounds(9, &mut NoObserver).unwrap();
        drop(t);
        let mut t = Trainer::resume(&dir).unwrap();
        t.run(&mut NoObserver).unwrap();
        dir
    });
    let got = read(dir.join("rounds.csv"));
    assert_eq!(got, want, "rounds.csv differs");

    // The rule acted, both ways, and rounds.csv records the σ it gave.
    let column = sigmas(&want);
    let distinct: std::collections::BTreeSet<&String> = column[1..].iter().collect();
    assert!(distinct.len() >= 3, "σ hardly moved: {column:?}");
    let schedule = SigmaSchedule::new(whole.config());
    let mut s = schedule.clone();
    let mut moves = Vec::new();
    for (r, text) in whole.rounds().iter().zip(&column).skip(1) {
        assert_eq!(text.parse::<f64>().unwrap(), s.sigma(), "round {}", r.round);
        moves.extend(s.record(r).map(|c| c.action));
    }
    assert!(moves.contains(&SigmaMove::Shrink), "{moves:?}");
    assert!(moves.contains(&SigmaMove::Grow), "{moves:?}");
    assert_eq!(whole.sigma_schedule().sigma(), s.sigma());
}

#[test]
fn stop_on_plateau_ends_the_run_and_checks_its_last_round() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = RunConfig {
        sigma_min: 0.3,
        check_every: 1000,
        plateau: rule(2, 0.5, false, true),
        ..ttt("stop", 200)
    };
    let t = train_in_pool(2, cfg, Weights::flat(Rules::TICTACTOE), tmp.path());
    let stopped = t
        .stopped_on_plateau()
        .expect("the run stopped on a plateau");
    assert!(stopped < 200);
    assert_eq!(t.next_round(), stopped + 1);
    assert!(t.is_finished());
    // The last round was checked like the last planned one.
    assert_eq!(t.checks().last().map(|c| c.round), Some(stopped));
    // Resuming it does nothing more.
    let dir = t.dir().path().to_path_buf();
    drop(t);
    let mut t = Trainer::resume(&dir).unwrap();
    assert!(t.is_finished());
    t.run(&mut NoObserver).unwrap();
    assert_eq!(t.next_round(), stopped + 1);
}

#[test]
fn a_run_toml_without_the_rule_still_loads_and_keeps_its_sigma() {
    let text = include_str!("../data/runs/ttt/run.toml");
    assert!(!text.contains("plateau"));
    let cfg = RunConfig::from_toml(text, "run.toml").unwrap();
    assert_eq!(cfg.plateau, None);
    let s = SigmaSchedule::new(&cfg);
    assert_eq!(s.sigma(), cfg.sigma);
    // Written back, it stays without the table.
    assert!(!cfg.to_toml().unwrap().contains("patience ="));

    // A [plateau] table with only the patience takes the other defaults.
    let with = format!("{text}\n[plateau]\npatience = 4\n");
    let cfg = RunConfig::from_toml(&with, "run.toml").unwrap();
    assert_eq!(
        cfg.plateau,
        Some(PlateauConfig {
            patience: 4,
            ..PlateauConfig::default()
        })
    );
    assert_eq!(
        RunConfig::from_toml(&cfg.to_toml().unwrap(), "run.toml").unwrap(),
        cfg
    );
    // Unknown keys and bad values are refused naming the key.
    let e = RunConfig::from_toml(&format!("{with}grows = true\n"), "run.toml").unwrap_err();
    assert!(e.to_string().contains("grows"), "{e}");
    let e = RunConfig::from_toml(&with.replace("= 4", "= 0"), "run.toml").unwrap_err();
    assert!(e.to_string().contains("plateau.patience"), "{e}");
    // A format 1 folder cannot hold the rule.
    let old = with.replace("format = 2", "format = 1");
    let old = old
        .lines()
        .filter(|l| {
            !l.starts_with("optimizer") && !l.starts_with("select") && !l.starts_with("max_games")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let e = RunConfig::from_toml(&old, "run.toml").unwrap_err();
    assert!(e.to_string().contains("plateau rule"), "{e}");
}

#[test]
fn the_rule_is_on_by_default_on_large_boards_only() {
    // With the margin of `best-beats` it made the default run stronger on
    // gomoku and tic-tac-toe's weaker (docs/training.md): on where the
    // exact player does not solve the board, for random search only.
    let d = PlateauConfig::default();
    for (game, large) in [
        (Rules::GOMOKU, true),
        ("7x7x4".parse().unwrap(), true),
        (Rules::TICTACTOE, false),
        ("4x4x3".parse().unwrap(), false),
    ] {
        let want = large.then(|| d.clone());
        assert_eq!(RunConfig::defaults(game).plateau, want, "{game:?}");
        assert_eq!(RunConfig::spsa_defaults(game).plateau, None);
        assert_eq!(RunConfig::cmaes_defaults(game).plateau, None);
    }
    assert_eq!(
        (d.patience, d.shrink, d.grow, d.stop),
        (10, 0.7, true, false)
    );
}

#[test]
fn bad_plateau_flags_are_refused_naming_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    for (extra, want) in [
        (&["--patience=20000"][..], "--patience 20000"),
        (&["--patience=-1"][..], "--patience"),
        (&["--patience", "-1"][..], "for '--patience <P>'"),
        (&["--patience=ten"][..], "--patience"),
        (&["--sigma-shrink=1"][..], "--sigma-shrink 1"),
        (&["--sigma-shrink=0"][..], "--sigma-shrink 0"),
        (&["--sigma-shrink=nan"][..], "--sigma-shrink"),
        (
            &["--patience=0", "--stop-on-plateau"][..],
            "--stop-on-plateau applies to the plateau rule, which --patience 0 turns off",
        ),
        (
            &["--optimizer=spsa", "--patience=5"][..],
            "--patience applies to --optimizer random",
        ),
    ] {
        // Every case is refused before a game is played.
        let args: Vec<&str> = ["--rounds=2"].iter().chain(extra).copied().collect();
        let (code, err) = train_cli(tmp.path(), &args);
        // 1: refused by mnk; 2: refused by the argument parser.
        assert!(code == Some(1) || code == Some(2), "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: wanted {want:?} in {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
    }
    // The library names the run.toml key.
    let cfg = config(rule(0, 0.7, true, false));
    let e = cfg.validate().unwrap_err().to_string();
    assert!(
        e.contains("plateau.patience") && e.contains("from 1 to 10000"),
        "{e}"
    );
}

#[test]
fn the_log_has_a_line_per_adoption_and_decision_and_the_end_reports_the_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().to_str().unwrap();
    let out = crate::common::mnk()
        .args([
            "train",
            "--game=7x7x4",
            "--rounds=16",
            "--openings=20",
            "--patience=2",
            "--check-every=0",
            "--verdict-openings=0",
            "--no-plots",
            "--seed=4",
            // 20 openings a pairing rarely show a z-score above 2: the
            // bar of more wins than losses gives adoptions to log.
            "--beats-z=0",
            "--name=log",
            "--runs-dir",
            runs,
        ])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    let t = Trainer::resume(&tmp.path().join("log")).unwrap();
    // stderr is not a terminal here: every adoption and decision is a line.
    let adoptions: Vec<String> = t
        .rounds()
        .iter()
        .filter_map(|r| Some(format!("round {}: {}", r.round, r.adoption()?)))
        .collect();
    let mut s = SigmaSchedule::new(t.config());
    let decisions: Vec<String> = t
        .rounds()
        .iter()
        .filter_map(|r| Some(format!("round {}: {}", r.round, s.record(r)?.describe())))
        .collect();
    assert!(!adoptions.is_empty() && !decisions.is_empty(), "{stderr}");
    let logged: Vec<&str> = stderr
        .lines()
        .filter(|l| {
            l.contains(": adopted challenger") || l.contains(": σ") || l.contains("adoption")
        })
        .collect();
    let mut want: Vec<&String> = adoptions.iter().chain(&decisions).collect();
    let mut got = logged.clone();
    want.sort();
    got.sort();
    assert_eq!(got, want, "{stderr}");
    assert!(
        adoptions[0].contains("best in the round robin"),
        "{adoptions:?}"
    );
    // The closing report.
    for line in t.budget_use().lines() {
        assert!(stdout.contains(&line), "{line:?} not in {stdout}");
    }
    assert!(stdout.contains("games that changed nothing: "), "{stdout}");
}

#[test]
fn counts_are_grouped_by_thousands() {
    let cases = [
        (0, "0"),
        (999, "999"),
        (1000, "1,000"),
        (16_000, "16,000"),
        (4_000_000, "4,000,000"),
        (u64::MAX, "18,446,744,073,709,551,615"),
    ];
    for (n, text) in cases {
        assert_eq!(mnk::train::grouped(n), text);
    }
}
