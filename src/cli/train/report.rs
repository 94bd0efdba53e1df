//! What `mnk train` prints: the plan of a new run, and the closing lines
//! (folder, speed, what the optimiser did, the last check).

use mnk::train::{Optimizer, RunConfig, Trainer};
use std::path::Path;

/// The line that starts a new run: what is trained, where, and how.
pub fn plan(t: &Trainer) -> String {
    let c = t.config();
    let budget = if c.max_games > 0 {
        format!(", at most {} games", c.max_games)
    } else {
        String::new()
    };
    let main = match c.optimizer {
        Optimizer::Random => format!(
            "training {} weights for {} in {}: {} rounds, {} challengers, {} openings x 2 colours per pairing, select {}, {}{budget}, seed {}",
            c.player,
            c.game,
            t.dir().path().display(),
            c.rounds,
            c.challengers,
            c.openings_per_pairing(),
            c.select,
            sigma_plan(c),
            c.seed
        ),
        Optimizer::Spsa => {
            let s = c.spsa_config();
            format!(
                "training {} weights for {} in {} by SPSA: {} steps of {} openings x 2 colours, a {} c {} A {} alpha {} gamma {}{budget}, seed {}",
                c.player,
                c.game,
                t.dir().path().display(),
                c.rounds,
                s.openings,
                s.a,
                s.c,
                s.big_a,
                s.alpha,
                s.gamma,
                c.seed
            )
        }
    };
    main + &sources(c)
}

/// Where the openings come from, and who plays the checks if not the
/// trained player.
fn sources(c: &RunConfig) -> String {
    let book = match (&c.openings_file, c.book_split) {
        (None, _) => format!("; random openings of {} stones", c.opening_stones),
        (Some(f), split) => {
            let name = if f == mnk::train::SHIPPED_BOOK {
                "the shipped book".to_string()
            } else {
                f.clone()
            };
            if split && c.random_rounds {
                format!(
                    "; random openings of {} stones, checks on {name}'s check part",
                    c.opening_stones
                )
            } else if split {
                format!("; openings from {name}'s training part, checks on its check part")
            } else {
                format!("; openings from {name}")
            }
        }
    };
    match (&c.check_player, c.checking_player()) {
        (Some(_), Ok(p)) => format!("{book}; checks and verdict played by {}", p.spec()),
        _ => book,
    }
}

/// σ's schedule in words: its start, half-life and the plateau rule.
fn sigma_plan(c: &RunConfig) -> String {
    let mut s = format!("σ {}", c.sigma);
    if c.sigma_half_life > 0.0 {
        s += &format!(" halving every {} rounds", c.sigma_half_life);
    }
    match &c.plateau {
        Some(p) => {
            s += &format!(
                " x {} after {} rounds without an adoption (min {}{}{})",
                p.shrink,
                p.patience,
                c.sigma_min.min(c.sigma),
                if p.grow { ", grows back" } else { "" },
                if p.stop {
                    ", stops at a plateau at the min"
                } else {
                    ""
                }
            );
        }
        None => s += " (no plateau rule)",
    }
    s
}

/// The line that continues a resumed run.
pub fn resuming(t: &Trainer) -> String {
    format!(
        "resuming {} at round {} of {}",
        t.dir().path().display(),
        t.next_round(),
        t.config().rounds
    )
}

/// Prints where the run and its weights are, the speed of its rounds
/// (`games` played in `round_seconds` of rounds, `secs` in all), what the
/// optimiser did and the last check.
pub fn print_summary(t: &Trainer, games: u64, round_seconds: f64, secs: f64) {
    println!("run folder: {}", t.dir().path().display());
    println!("trained weights: {}", t.dir().best_weights().display());
    if games > 0 {
        println!(
            "{} training games in {:.1}s of rounds ({:.0} games/s; {:.1}s in all)",
            games,
            round_seconds,
            games as f64 / round_seconds.max(1e-9),
            secs
        );
    }
    println!("{}", method_summary(t));
    for line in t.budget_use().lines() {
        println!("{line}");
    }
    if let Some(r) = t.stopped_on_plateau() {
        println!(
            "stopped early after round {r} (--stop-on-plateau): no adoption with σ at its floor"
        );
    }
    if let Some(c) = t.checks().last() {
        println!("last check (round {}): {}", c.round, c.summary());
    }
}

/// One line on what the optimiser did over the whole run.
pub fn method_summary(t: &Trainer) -> String {
    let rounds = &t.rounds()[1.min(t.rounds().len())..];
    let played = rounds.len();
    let adopted = rounds
        .iter()
        .filter(|r| r.spsa.is_none() && r.champion != 0)
        .count();
    let confirms: Vec<_> = rounds.iter().filter_map(|r| r.confirm.as_ref()).collect();
    let spsa = rounds.iter().filter(|r| r.spsa.is_some()).count();
    let mut parts = vec![format!(
        "{played} rounds, {} games in all",
        t.games_played()
    )];
    if spsa > 0 {
        parts.push(format!("{spsa} SPSA steps"));
    }
    if spsa < played {
        parts.push(format!("{adopted} challengers adopted"));
    }
    if !confirms.is_empty() {
        let passed = confirms.iter().filter(|c| c.passed()).count();
        let games: u64 = confirms.iter().map(|c| c.games()).sum();
        parts.push(format!(
            "{} confirmations ({passed} passed, {games} games)",
            confirms.len()
        ));
    }
    parts.join(", ")
}

/// `<base>-1`, `<base>-2`, …: the first name not yet used in `runs_dir`.
pub fn free_name(runs_dir: &Path, base: &str) -> String {
    (1..)
        .map(|i| format!("{base}-{i}"))
        .find(|n| !runs_dir.join(n).exists())
        .unwrap_or_else(|| base.to_string())
}
