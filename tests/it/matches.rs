//! `mnk match`: the games of a match reach an observer as they end and can
//! be put back in match order, and Ctrl-C saves the games played so far,
//! the same games an uninterrupted match plays.

use crate::common::live::{self, Live};
use mnk::arena::{game_rng, random_openings, MatchPlan, MatchReport, OpeningStyle};
use mnk::game::Rules;
use mnk::players::PlayerSpec;
use mnk::records::{read_records, Record};
use std::sync::Mutex;

#[test]
fn observed_games_are_the_games_of_the_match() {
    let rules: Rules = "7x7x4".parse().unwrap();
    let openings = random_openings(
        rules,
        OpeningStyle::default_for(rules),
        24,
        &mut game_rng(9, &[]),
    );
    let a: PlayerSpec = "greedy".parse().unwrap();
    let b: PlayerSpec = "random".parse().unwrap();
    let ma = || a.build(rules).unwrap();
    let mb = || b.build(rules).unwrap();
    let kept = MatchPlan::new(rules, &openings, &ma, &mb, 42)
        .run(true)
        .unwrap();
    let seen = Mutex::new(Vec::new());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let observed = pool.install(|| {
        let on_game = |g: &mnk::arena::PlayedGame| seen.lock().unwrap().push(g.clone());
        MatchPlan::new(rules, &openings, &ma, &mb, 42)
            .run_observed(&on_game)
            .unwrap()
    });
    assert!(observed.games.is_empty(), "the observer has them");
    assert_eq!(observed.tally, kept.tally);
    assert_eq!(observed.plies, kept.plies);
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen.len(), 48);

    let rebuilt = MatchReport::from_games(seen.iter().rev().cloned());
    assert_eq!(rebuilt.games, kept.games);
    assert_eq!(rebuilt.tally, kept.tally);
    assert_eq!(rebuilt.plies, kept.plies);

    // A stopped match: one opening of three lacks A's white game.
    let some = seen
        .iter()
        .filter(|g| g.opening % 3 != 1 || g.a_black)
        .cloned();
    let part = MatchReport::from_games(some);
    assert_eq!(part.games.len(), 40);
    assert_eq!(part.tally.games.games(), 40);
    assert_eq!(part.tally.pairs.pairs(), 16);
    let expected: Vec<_> = kept
        .games
        .iter()
        .filter(|g| g.opening % 3 != 1 || g.a_black)
        .cloned()
        .collect();
    assert_eq!(part.games, expected);
}

/// The games of a records file without their dates (a stopped match and
/// a whole one are saved at different times).
fn undated(path: &std::path::Path) -> Vec<Record> {
    let mut games = read_records(path, Rules::GOMOKU).unwrap();
    for g in &mut games {
        assert!(g.date.take().is_some());
    }
    games
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_saves_the_games_played_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--threads",
        "1",
        "match",
        "greedy",
        "search:depth=1",
        "-n",
        "100000",
        "--random-openings",
        "--seed",
        "5",
        "--records",
        "m.csv",
        "--sgf",
        "m.sgf",
    ];
    let mut p = Live::start(dir.path(), &args);
    p.wait_for("100000 openings x 2 colours (random, 4 stones), seed 5\n");
    // Games are under way once the process has worked a while after the
    // header (the match itself prints nothing until it ends).
    let start = std::time::Instant::now();
    let cpu = p.cpu_seconds();
    while p.cpu_seconds() < cpu + 0.2 {
        assert!(start.elapsed() < live::TIMEOUT, "mnk does not work");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    p.interrupt();
    let end = p.finish();
    assert_eq!(end.status.code(), Some(130), "{}{}", end.stdout, end.stderr);
    let out = &end.stdout;
    let n: usize = out
        .split_once("Interrupted after ")
        .and_then(|(_, rest)| rest.split_once(" of 200000 games.\n"))
        .unwrap_or_else(|| panic!("{out}"))
        .0
        .parse()
        .unwrap();
    assert!(n >= 1, "{out}");
    for file in ["m.csv", "m.sgf"] {
        assert!(
            out.contains(&format!(
                "{n} games appended to {file} ({n} games in the file)\n"
            )),
            "{out}"
        );
    }
    let (_, result) = out.split_once("A's result: W ").expect(out);
    let wdl: Vec<usize> = result
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(3)
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(wdl.iter().sum::<usize>(), n, "{out}");
    assert!(out.contains("A's pairs:  Ptnml(0-2) ["), "{out}");

    // One thread plays the openings in order, so the saved games are the
    // first n of the same match played to its end.
    let stopped = undated(&dir.path().join("m.csv"));
    assert_eq!(stopped.len(), n);
    assert_eq!(undated(&dir.path().join("m.sgf")), stopped);
    let openings = n.div_ceil(2).to_string();
    let full_args = [
        "match",
        "greedy",
        "search:depth=1",
        "-n",
        &openings,
        "--random-openings",
        "--seed",
        "5",
        "--records",
        "full.csv",
    ];
    let full = Live::start(dir.path(), &full_args).finish();
    assert!(full.status.success(), "{}{}", full.stdout, full.stderr);
    let full = undated(&dir.path().join("full.csv"));
    assert_eq!(full.len(), 2 * n.div_ceil(2));
    assert_eq!(stopped[..], full[..n]);
}
