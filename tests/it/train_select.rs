//! Selection modes of random search (`--select
//! best|best-beats|confirm|gauntlet`):
//! determinism across thread counts, the confirmation gate, the gauntlet's
//! pairings, run folder formats, and clear errors for bad settings.

use crate::common::{mnk, read, resume_cli, train_cli, train_in_pool};
use mnk::arena::stats::SprtParams;
use mnk::eval::Weights;
use mnk::game::Rules;
use mnk::train::{
    ConfirmConfig, ConfirmVerdict, NoObserver, Reason, RunConfig, Select, TrainError, Trainer,
};
use std::path::Path;

/// The board of these runs: 7x7, four in a row.
fn rules7() -> Rules {
    "7x7x4".parse().unwrap()
}

/// A small-board random-search run (7x7, four in a row, flat start).
fn config(name: &str, select: Select, rounds: u32, openings: u32) -> RunConfig {
    let mut c = RunConfig::defaults(rules7());
    c.name = name.into();
    c.start = "flat".into();
    c.rounds = rounds;
    c.openings = openings;
    c.check_every = 0;
    c.seed = 7;
    c.select = select;
    c
}

fn sprt(text: &str) -> ConfirmConfig {
    ConfirmConfig {
        sprt: Some(text.parse::<SprtParams>().unwrap()),
        max_openings: 300,
        batch: 40,
        ..ConfirmConfig::default()
    }
}

fn fixed(games: u32, threshold: f64) -> ConfirmConfig {
    ConfirmConfig {
        sprt: None,
        games: Some(games),
        threshold,
        ..ConfirmConfig::default()
    }
}

#[test]
fn confirm_and_gauntlet_are_identical_with_1_and_2_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&str, Select, Option<ConfirmConfig>); 4] = [
        ("beats", Select::BestBeats, None),
        ("sprt", Select::Confirm, Some(sprt("elo0=0,elo1=20"))),
        ("fixed", Select::Confirm, Some(fixed(120, 0.52))),
        ("gauntlet", Select::Gauntlet, None),
    ];
    for (name, select, confirm) in cases {
        let mut texts = Vec::new();
        for threads in [1, 2] {
            let mut cfg = config(&format!("{name}-{threads}"), select, 8, 40);
            cfg.confirm = confirm.clone();
            cfg.check_every = 4;
            cfg.check_openings = 20;
            let t = train_in_pool(threads, cfg, Weights::flat(rules7()), tmp.path());
            let dir = t.dir().path().to_path_buf();
            texts.push((read(dir.join("rounds.csv")), read(dir.join("checks.csv"))));
        }
        assert_eq!(texts[0].0, texts[1].0, "{name}: rounds.csv differs");
        assert_eq!(texts[0].1, texts[1].1, "{name}: checks.csv differs");
        assert!(
            texts[0]
                .0
                .lines()
                .all(|l| l.starts_with("round,") || l.contains(&format!(",random,{select},"))),
            "{name}: every row records the mode"
        );
    }
}

/// Every adoption in a confirm run comes with a passing confirmation, and
/// every rejected nominee leaves the incumbent unchanged.
#[test]
fn best_beats_differs_from_best_only_where_the_top_challenger_lost_its_pairing() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, select| {
        let cfg = config(name, select, 12, 12);
        let t = train_in_pool(2, cfg, Weights::flat(rules7()), tmp.path());
        let dir = t.dir().path().to_path_buf();
        let rounds = t.rounds().to_vec();
        drop(t);
        // rounds.csv reads back to the same rounds (lost-pairing rows too).
        assert_eq!(Trainer::resume(&dir).unwrap().rounds(), &rounds[..]);
        rounds
    };
    let (beats, best) = (run("beats", Select::BestBeats), run("best", Select::Best));
    // Both play the same rounds until best-beats first keeps an incumbent
    // that `best` replaces: the same challengers, games and totals.
    let first = beats
        .iter()
        .position(|r| r.reason == Reason::LostPairing)
        .expect("a round whose top challenger lost its pairing");
    for (a, b) in beats[..first].iter().zip(&best[..first]) {
        assert_eq!(
            (a.champion, a.reason, &a.tallies, &a.weights),
            (b.champion, b.reason, &b.tallies, &b.weights),
            "round {}",
            a.round
        );
        assert_eq!((a.select, b.select), (Select::BestBeats, Select::Best));
    }
    let (a, b) = (&beats[first], &best[first]);
    assert_eq!(a.tallies, b.tallies, "round {}", a.round);
    assert_eq!(a.champion, 0);
    assert_ne!(
        b.champion, 0,
        "round {}: best adopted the top total",
        b.round
    );
    assert!(matches!(
        b.reason,
        Reason::ChallengerBest | Reason::ChallengerTied
    ));
    assert_eq!(a.weights, beats[first - 1].weights);
    assert!(
        a.describe()
            .contains(&format!("challenger {} had the best score", b.champion)),
        "{}",
        a.describe()
    );
    // Every adoption of best-beats was also the top total.
    for r in beats.iter().filter(|r| r.adopted()) {
        let top = (1..r.tallies.len()).map(|i| r.score(i)).max().unwrap();
        assert_eq!(r.score(r.champion), top, "round {}", r.round);
        assert!(r.score(r.champion) > r.score(0), "round {}", r.round);
    }
}

#[test]
fn new_runs_select_best_beats_and_old_runs_resume_with_their_own_rule() {
    let tmp = tempfile::tempdir().unwrap();
    // A run made before best-beats: its run.toml says `best`.
    let cfg = config("old", Select::Best, 2, 10);
    let dir = train_in_pool(1, cfg, Weights::flat(rules7()), tmp.path())
        .dir()
        .path()
        .to_path_buf();
    let (code, err) = resume_cli(&dir, &["--rounds=4"]);
    assert_eq!(code, Some(0), "{err}");
    let text = read(dir.join("rounds.csv"));
    assert_eq!(text.lines().count(), 6, "{text}");
    assert!(
        text.lines().skip(1).all(|l| l.contains(",random,best,")),
        "{text}"
    );
    assert!(read(dir.join("run.toml")).contains("select = \"best\""));
    // A new run without --select.
    let (code, err) = run_cli(tmp.path(), &["--name=new"]);
    assert_eq!(code, Some(0), "{err}");
    let dir = tmp.path().join("new");
    assert!(read(dir.join("run.toml")).contains("select = \"best-beats\""));
    let text = read(dir.join("rounds.csv"));
    assert!(
        text.lines()
            .skip(1)
            .all(|l| l.contains(",random,best-beats,")),
        "{text}"
    );
    // A lost-pairing row in a `best` round does not follow from its rule.
    let lines: Vec<String> = text.lines().map(String::from).collect();
    let mut row = lines[2].replace(",best-beats,", ",best,");
    let fields: Vec<&str> = row.split(',').collect();
    let reason_at = lines[0].split(',').position(|h| h == "reason").unwrap();
    let mut f: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
    f[reason_at] = "lost-pairing".into();
    row = f.join(",");
    let corrupt = format!("{}\n{}\n{row}\n", lines[0], lines[1]);
    let cfg = RunConfig::from_toml(&read(dir.join("run.toml")), "run.toml").unwrap();
    let e = mnk::train::parse_rounds(&corrupt, Path::new("rounds.csv"), &cfg).unwrap_err();
    assert!(
        e.to_string()
            .contains("reason lost-pairing in a round of select best"),
        "{e}"
    );
}

fn assert_confirmation_gate(t: &Trainer) -> (usize, usize) {
    let (mut adopted, mut rejected) = (0, 0);
    for w in t.rounds().windows(2) {
        let (prev, r) = (&w[0], &w[1]);
        match r.reason {
            Reason::Confirmed => {
                let c = r
                    .confirm
                    .as_ref()
                    .expect("a confirmed round has a confirmation");
                assert!(c.passed(), "round {}: adopted without passing", r.round);
                assert_eq!(r.champion, c.candidate);
                assert_ne!(r.weights, prev.weights);
                adopted += 1;
            }
            Reason::NotConfirmed => {
                let c = r.confirm.as_ref().unwrap();
                assert!(!c.passed(), "round {}", r.round);
                assert_ne!(c.candidate, 0);
                assert_eq!(r.champion, 0);
                assert_eq!(
                    r.weights, prev.weights,
                    "round {}: rejected but changed",
                    r.round
                );
                rejected += 1;
            }
            Reason::IncumbentBest | Reason::IncumbentTied => {
                assert!(r.confirm.is_none(), "round {}: nothing to confirm", r.round);
                assert_eq!(r.weights, prev.weights);
            }
            other => panic!("round {}: reason {other:?} in a confirm run", r.round),
        }
    }
    (adopted, rejected)
}

#[test]
fn confirm_never_adopts_a_challenger_without_a_passing_confirmation() {
    let tmp = tempfile::tempdir().unwrap();

    // A gate no challenger can pass: 40 games where the challenger must
    // score 100%. On 7x7 four-in-a-row the colour decides most games, so
    // every nominee drops games as white. The round robins (few openings,
    // flat start) nominate challengers all the same.
    let mut cfg = config("closed", Select::Confirm, 12, 20);
    cfg.confirm = Some(fixed(40, 1.0));
    let mut t = Trainer::create(cfg, Weights::flat(cfg_rules()), tmp.path(), false).unwrap();
    t.run(&mut NoObserver).unwrap();
    let (adopted, rejected) = assert_confirmation_gate(&t);
    assert_eq!(adopted, 0);
    assert!(rejected >= 3, "the round robins nominated only {rejected}");
    assert!(t.rounds().iter().all(|r| r.weights == *t.start_weights()));
    for r in &t.rounds()[1..] {
        if let Some(c) = &r.confirm {
            assert_eq!(c.verdict, ConfirmVerdict::Fail);
            assert!(c.tally.games.score() < 1.0);
            assert_eq!(c.games(), 40);
        }
    }

    // An SPRT that cannot accept H1 (the challenger would have to be
    // hundreds of Elo stronger) rejects every nominee too.
    let mut cfg = config("sprt-closed", Select::Confirm, 8, 20);
    cfg.confirm = Some(sprt("elo0=400,elo1=500"));
    let mut t = Trainer::create(cfg, Weights::flat(cfg_rules()), tmp.path(), false).unwrap();
    t.run(&mut NoObserver).unwrap();
    let (adopted, rejected) = assert_confirmation_gate(&t);
    assert_eq!(adopted, 0);
    assert!(rejected >= 2);
    for r in &t.rounds()[1..] {
        if let Some(c) = &r.confirm {
            assert_eq!(c.verdict, ConfirmVerdict::AcceptH0);
            assert!(c.llr.unwrap() < 0.0);
        }
    }

    // An open gate: some nominees pass, some fail, and the rule holds for
    // every round, also as read back from rounds.csv.
    let mut cfg = config("open", Select::Confirm, 16, 20);
    cfg.confirm = Some(sprt("elo0=0,elo1=30"));
    let mut t = Trainer::create(cfg, Weights::flat(cfg_rules()), tmp.path(), false).unwrap();
    t.run(&mut NoObserver).unwrap();
    let (adopted, rejected) = assert_confirmation_gate(&t);
    assert!(adopted >= 1 && rejected >= 1, "{adopted} {rejected}");
    // Confirmation games count towards the budget.
    let confirm_games: u64 = t
        .rounds()
        .iter()
        .filter_map(|r| r.confirm.as_ref())
        .map(|c| c.games())
        .sum();
    let rr: u64 = t.rounds().iter().map(|r| r.games).sum();
    assert_eq!(t.games_played(), rr + confirm_games);
    // Read back (once the trainer let go of the folder).
    let dir = t.dir().path().to_path_buf();
    let rounds = t.rounds().to_vec();
    drop(t);
    let back = Trainer::resume(&dir).unwrap();
    assert_eq!(back.rounds(), rounds);
    assert_confirmation_gate(&back);
    drop(back);

    // A confirmation row whose verdict was edited to contradict the
    // adoption is refused on resume.
    let path = dir.join("rounds.csv");
    let text = read(&path);
    let bad = text.replacen(",accept-h1,yes,", ",accept-h0,no,", 1);
    assert_ne!(bad, text);
    std::fs::write(&path, bad).unwrap();
    let e = Trainer::resume(&dir).expect_err("refused");
    assert!(e.to_string().contains("rounds.csv:"), "{e}");
    assert!(e.to_string().contains("confirmation"), "{e}");
}

fn cfg_rules() -> Rules {
    "7x7x4".parse().unwrap()
}

#[test]
fn gauntlet_plays_exactly_c_pairings_with_the_same_games_per_round() {
    let tmp = tempfile::tempdir().unwrap();
    for c in [1u32, 3, 4] {
        let mut best = config(&format!("best-{c}"), Select::Best, 2, 30);
        best.challengers = c;
        let mut g = best.clone();
        g.name = format!("gauntlet-{c}");
        g.select = Select::Gauntlet;
        let pairs = g.pairings();
        assert_eq!(pairs.len(), c as usize);
        assert!(pairs.iter().all(|&(i, _)| i == 0));
        assert_eq!(best.pairings().len(), (c * (c + 1) / 2) as usize);
        let per = g.openings_per_pairing();
        assert_eq!(per, 30 * (c + 1) / 2);

        let tb = train_in_pool(2, best, Weights::flat(rules7()), tmp.path());
        let tg = train_in_pool(2, g, Weights::flat(rules7()), tmp.path());
        for (rb, rg) in tb.rounds()[1..].iter().zip(&tg.rounds()[1..]) {
            // C pairings of G*(C+1)/2 openings: as many games as the
            // C(C+1)/2 pairings of G openings of a full round robin.
            assert_eq!(rg.games, u64::from(c) * u64::from(per) * 2);
            assert_eq!(rb.games, u64::from(c * (c + 1) / 2) * 30 * 2);
            assert_eq!(rg.games, rb.games);
            // Each challenger played only the incumbent: 2 games per opening.
            for i in 1..=c as usize {
                assert_eq!(rg.tallies[i].games(), 2 * u64::from(per));
            }
            assert_eq!(rg.tallies[0].games(), 2 * u64::from(c * per));
            // The incumbent's results are the mirror of the challengers'.
            let w: u64 = rg.tallies[1..].iter().map(|t| t.losses).sum();
            assert_eq!(rg.tallies[0].wins, w);
            // Adopted only with a positive head-to-head score.
            if rg.champion != 0 {
                assert!(rg.score(rg.champion) > 0);
            } else {
                assert!(rg.tallies[1..].iter().all(|t| t.wins <= t.losses));
            }
        }
    }
}

#[test]
fn format_1_run_folders_are_read_and_resumed_in_their_format() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = RunConfig::defaults(Rules::TICTACTOE);
    cfg.name = "old".into();
    cfg.rounds = 2;
    cfg.openings = 10;
    cfg.check_every = 0;
    cfg.format = 1;
    cfg.select = Select::Best;
    let mut t = Trainer::create(cfg, Weights::flat(Rules::TICTACTOE), tmp.path(), false).unwrap();
    t.run_rounds(2, &mut NoObserver).unwrap();
    let dir = t.dir().path().to_path_buf();
    drop(t);
    // The layout of format 1 (mnk before the selection modes).
    let text = read(dir.join("rounds.csv"));
    let header = text.lines().next().unwrap();
    assert!(
        header.starts_with(
            "round,sigma,games,plies,champion,reason,p0_wins,p0_draws,p0_losses,p0_score,p1_wins,"
        ) && header.contains(",p4_score,attack,defence,own.win,"),
        "{header}"
    );
    // Strip the keys format 1 did not have, as an old mnk wrote it.
    let toml: String = read(dir.join("run.toml"))
        .lines()
        .filter(|l| {
            !l.starts_with("max_games") && !l.starts_with("optimizer") && !l.starts_with("select")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("run.toml"), toml).unwrap();
    let mut t = Trainer::resume(&dir).unwrap();
    assert_eq!(t.config().format, 1);
    assert_eq!(t.config().select, Select::Best);
    t.run(&mut NoObserver).unwrap();
    assert_eq!(read(dir.join("rounds.csv")).lines().next().unwrap(), header);
    mnk::plot::plot_run(&dir).unwrap();
    drop(t);

    // Switching a format 1 run to another mode is refused even with --force.
    let out = mnk()
        .args([
            "train",
            "--no-plots",
            "--verdict-openings=0",
            "--force",
            "--select=confirm",
            "--resume",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("format 1"), "{err}");

    // A newer format than this mnk reads.
    let toml = read(dir.join("run.toml")).replace("format = 1", "format = 3");
    std::fs::write(dir.join("run.toml"), toml).unwrap();
    let e = Trainer::resume(&dir).err().unwrap();
    assert!(e.to_string().contains("newer mnk"), "{e}");
}

/// A 2-round run with `extra` flags: the exit code and stderr.
fn run_cli(runs: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let args: Vec<&str> = ["--rounds=2", "--openings=10"]
        .iter()
        .chain(extra)
        .copied()
        .collect();
    train_cli(runs, &args)
}

#[test]
fn bad_selection_settings_are_refused_naming_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let c = ["--select=confirm"];
    for (extra, want) in [
        (
            &[&c[..], &["--confirm-sprt=elo0=0,elo1=-5"]].concat()[..],
            "--confirm-sprt",
        ),
        (
            &[&c[..], &["--confirm-sprt=elo0=0,elo1=0"]].concat()[..],
            "elo1 must be greater than elo0",
        ),
        (
            &[&c[..], &["--confirm-sprt=elo0=0,elo1=10,alpha=1"]].concat()[..],
            "alpha",
        ),
        (
            &[&c[..], &["--confirm-sprt=elo0=0,elo1=10,beta=0"]].concat()[..],
            "beta",
        ),
        (&[&c[..], &["--confirm-sprt=elo1=10"]].concat()[..], "elo0"),
        (
            &[&c[..], &["--confirm-games=3"]].concat()[..],
            "--confirm-games",
        ),
        (
            &[&c[..], &["--confirm-games=0"]].concat()[..],
            "--confirm-games",
        ),
        (
            &[&c[..], &["--confirm-games=40", "--confirm-threshold=1.5"]].concat()[..],
            "--confirm-threshold",
        ),
        (
            &[&c[..], &["--confirm-games=40", "--confirm-threshold=0"]].concat()[..],
            "--confirm-threshold",
        ),
        (
            &[&c[..], &["--confirm-threshold=0.6"]].concat()[..],
            "--confirm-threshold applies to --confirm-games",
        ),
        (
            &[&c[..], &["--confirm-max-openings=0"]].concat()[..],
            "--confirm-max-openings",
        ),
        (
            &[&c[..], &["--confirm-batch=0"]].concat()[..],
            "--confirm-batch",
        ),
        (
            &[
                &c[..],
                &["--confirm-games=40", "--confirm-sprt=elo0=0,elo1=5"],
            ]
            .concat()[..],
            "--confirm-sprt",
        ),
        (
            &["--confirm-games=40"][..],
            "--confirm-games applies to --select confirm",
        ),
        (
            &["--select=gauntlet", "--confirm-sprt=elo0=0,elo1=5"][..],
            "applies to --select confirm",
        ),
        (
            &["--select=worst"][..],
            "expected best, best-beats, confirm or gauntlet",
        ),
        (
            &["--select=gauntlet", "--optimizer=spsa"][..],
            "applies to --optimizer random",
        ),
    ] {
        let (code, err) = run_cli(tmp.path(), extra);
        // 1: refused by mnk; 2: refused by the argument parser.
        assert!(code == Some(1) || code == Some(2), "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: wanted {want:?} in {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
    }

    // The same through the library: the error names the setting (by its
    // run.toml key; the command line names the flag).
    let mut cfg = config("lib", Select::Confirm, 1, 5);
    cfg.confirm = Some(fixed(41, 0.55));
    let e = Trainer::create(cfg, Weights::flat(cfg_rules()), tmp.path(), false)
        .err()
        .unwrap();
    assert!(
        matches!(e, TrainError::Config { ref field, .. } if field == "confirm.games"),
        "{e}"
    );
    assert!(e.to_string().contains("confirm.games: 41"), "{e}");
}

#[test]
fn resuming_with_another_selection_mode_needs_force() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, err) = run_cli(tmp.path(), &["--name=r", "--select=gauntlet"]);
    assert_eq!(code, Some(0), "{err}");
    let dir = tmp.path().join("r");
    let resume = |extra: &[&str]| resume_cli(&dir, extra);
    let toml = read(dir.join("run.toml"));
    for extra in [
        &["--rounds=3", "--select=best"][..],
        &["--rounds=3", "--select=confirm"][..],
        &["--rounds=3", "--optimizer=spsa"][..],
    ] {
        let (code, err) = resume(extra);
        assert_eq!(code, Some(1), "{extra:?}: {err}");
        assert!(err.contains("--force"), "{extra:?}: {err}");
        assert!(err.contains("gauntlet"), "{extra:?}: {err}");
        assert_eq!(read(dir.join("run.toml")), toml, "run.toml changed");
    }
    // The same mode is fine, and so are more rounds.
    let (code, err) = resume(&["--rounds=3", "--select=gauntlet"]);
    assert_eq!(code, Some(0), "{err}");
    // With --force the run switches, and rows record each round's mode.
    let (code, err) = resume(&[
        "--rounds=5",
        "--select=confirm",
        "--confirm-games=20",
        "--force",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let text = read(dir.join("rounds.csv"));
    assert!(text.lines().nth(3).unwrap().contains(",random,gauntlet,"));
    assert!(text.lines().nth(5).unwrap().contains(",random,confirm,"));
    assert!(read(dir.join("run.toml")).contains("select = \"confirm\""));
    // Settings of the run that are not about the method cannot change.
    let (code, err) = resume(&["--rounds=6", "--seed=3"]);
    assert_eq!(code, Some(2), "{err}");
}

/// `best-beats` with a margin (`beats_z`, 2 in new runs on large boards):
/// a champion whose pairing with the incumbent was won by fewer standard
/// errors is not adopted; runs made before the margin keep "more wins
/// than losses".
#[test]
fn best_beats_margin_keeps_a_champion_that_won_its_pairing_by_too_little() {
    assert_eq!(RunConfig::defaults(rules7()).beats_z, Some(2.0));
    assert_eq!(
        RunConfig::defaults("gomoku".parse().unwrap()).beats_z,
        Some(2.0)
    );
    // Boards the exact player solves keep the old rule (not measured there).
    assert_eq!(RunConfig::defaults("3x3x3".parse().unwrap()).beats_z, None);
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, z: Option<f64>| {
        let mut cfg = config(name, Select::BestBeats, 12, 12);
        cfg.beats_z = z;
        let t = train_in_pool(2, cfg, Weights::flat(rules7()), tmp.path());
        let dir = t.dir().path().to_path_buf();
        let rounds = t.rounds().to_vec();
        drop(t);
        assert_eq!(Trainer::resume(&dir).unwrap().rounds(), &rounds[..]);
        (dir, rounds)
    };
    let (old_dir, old) = run("old", None);
    let (new_dir, new) = run("margin", Some(2.0));
    assert!(!read(old_dir.join("run.toml")).contains("beats_z"));
    assert!(read(new_dir.join("run.toml")).contains("beats_z = 2.0"));
    // The same rounds until the margin keeps an incumbent that the old
    // rule replaces: the same challengers, so the same round robin.
    let first = old
        .iter()
        .zip(&new)
        .position(|(a, b)| a.champion != b.champion)
        .expect("a round whose champion won its pairing by less than z = 2");
    for (a, b) in old[..first].iter().zip(&new[..first]) {
        assert_eq!((&a.tallies, &a.weights), (&b.tallies, &b.weights));
    }
    let (a, b) = (&old[first], &new[first]);
    assert_eq!(a.tallies, b.tallies, "round {}", a.round);
    assert_ne!(a.champion, 0, "round {}: the old rule adopted", a.round);
    assert_eq!((b.champion, b.reason), (0, Reason::LostPairing));
    assert_eq!(b.weights, new[first - 1].weights);
    // The margin adopts less: only clearer wins pass.
    let adopted = |rs: &[mnk::train::RoundResult]| rs.iter().filter(|r| r.adopted()).count();
    assert!(adopted(&new[..=first]) < adopted(&old[..=first]));

    // An old run resumes without a margin, written or applied.
    let (code, err) = resume_cli(&old_dir, &["--rounds=13"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!read(old_dir.join("run.toml")).contains("beats_z"));
    // Changing the margin of a run is switching its method: --force.
    let (code, err) = resume_cli(&new_dir, &["--rounds=13", "--beats-z=3"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("--beats-z 3") && err.contains("--force"),
        "{err}"
    );
    assert!(err.contains("--select best-beats --beats-z 2"), "{err}");
    let (code, err) = resume_cli(&new_dir, &["--rounds=13", "--beats-z=3", "--force"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(read(new_dir.join("run.toml")).contains("beats_z = 3.0"));
    // Another selection mode drops the margin.
    let (code, err) = resume_cli(&new_dir, &["--rounds=14", "--select=best", "--force"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!read(new_dir.join("run.toml")).contains("beats_z"));

    // Bad margins are refused, naming the flag (the library: the key).
    for (extra, want) in [
        (&["--beats-z=-1"][..], "--beats-z -1"),
        (&["--beats-z=nan"][..], "--beats-z NaN"),
        (&["--beats-z=11"][..], "--beats-z 11"),
        (
            &["--select=best", "--beats-z=1"][..],
            "--beats-z applies to --optimizer random with --select best-beats",
        ),
        (
            &["--select=gauntlet", "--beats-z=1"][..],
            "--beats-z applies",
        ),
    ] {
        let (code, err) = run_cli(tmp.path(), extra);
        assert!(code == Some(1) || code == Some(2), "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: wanted {want:?} in {err}");
    }
    for z in [-0.5, f64::INFINITY] {
        let mut cfg = config("lib", Select::BestBeats, 1, 5);
        cfg.beats_z = Some(z);
        let e = Trainer::create(cfg, Weights::flat(rules7()), tmp.path(), false)
            .err()
            .unwrap();
        assert!(
            matches!(e, TrainError::Config { ref field, .. } if field == "beats_z"),
            "{e}"
        );
    }
}
