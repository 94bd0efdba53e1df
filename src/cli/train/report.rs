//! What `mnk train` prints: the plan of a new run, and the closing lines
//! (folder, speed, what the optimiser did, the last check), as lines for
//! people or, with `--json`, one JSON object (docs/json/train.md).

use super::super::json::say;
use super::super::matches::TallyJson;
use mnk::train::{RunConfig, Trainer, Verdict};
use serde::Serialize;
use std::path::Path;

/// The line that starts a new run: what is trained, where, and how.
pub fn plan(t: &Trainer) -> String {
    let c = t.config();
    let budget = if c.max_games > 0 {
        format!(", at most {} games", c.max_games)
    } else {
        String::new()
    };
    let main = format!(
        "training {} weights for {} in {}{}{budget}, seed {}",
        c.player,
        c.game,
        t.dir().path().display(),
        mnk::train::method(c.optimizer).plan(c),
        c.seed
    );
    main + &sources(c)
}

/// Where the openings come from, and who plays the checks if not the
/// trained player.
fn sources(c: &RunConfig) -> String {
    let book = match (&c.openings_file, c.book_split) {
        (None, _) => format!("; random openings of {} stones", c.opening_stones_text()),
        (Some(f), split) => {
            let name = if f == mnk::train::SHIPPED_BOOK {
                "the shipped book".to_string()
            } else {
                f.clone()
            };
            if split && c.random_rounds {
                format!(
                    "; random openings of {} stones, checks on {name}'s check part",
                    c.opening_stones_text()
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

/// The line that continues a resumed run, or says that a finished one
/// has nothing left to do and how to extend it.
pub fn resuming(t: &Trainer, verdict_due: bool) -> String {
    let (dir, c) = (t.dir().path().display(), t.config());
    let played = t.next_round().saturating_sub(1);
    if !t.is_finished() {
        return format!("resuming {dir} at round {} of {}", t.next_round(), c.rounds);
    }
    let why = if let Some(r) = t.stopped_on_plateau() {
        format!(
            "it stopped on a plateau after round {r} of {} (--stop-on-plateau)",
            c.rounds
        )
    } else if c.max_games > 0 && t.games_played() >= c.max_games {
        format!(
            "its game budget is spent ({} games, --max-games {}, after {played} of {} rounds); to play on, resume with a larger --max-games",
            t.games_played(),
            c.max_games,
            c.rounds
        )
    } else {
        format!(
            "all {} rounds are played; to play on, resume with --rounds N, N larger than {}",
            c.rounds, c.rounds
        )
    };
    if verdict_due {
        // Stopped while the verdict was played: the rounds are all there.
        return format!(
            "{dir} is finished ({why}), but its closing verdict was not recorded: playing it now"
        );
    }
    format!("{dir} is finished, nothing to do: {why}")
}

/// Prints where the run and its weights are, the speed of its rounds
/// (`games` played in `round_seconds` of rounds, `secs` in all), what the
/// optimiser did and the last check; on stderr under `--json`.
pub fn print_summary(t: &Trainer, games: u64, round_seconds: f64, secs: f64, json: bool) {
    say(json, format!("run folder: {}", t.dir().path().display()));
    say(
        json,
        format!("trained weights: {}", t.dir().best_weights().display()),
    );
    if games > 0 {
        say(
            json,
            format!(
                "{} training games in {:.1}s of rounds ({:.0} games/s; {:.1}s in all)",
                games,
                round_seconds,
                games as f64 / round_seconds.max(1e-9),
                secs
            ),
        );
    }
    say(json, method_summary(t));
    for line in t.budget_use().lines() {
        say(json, line);
    }
    if let Some(r) = t.stopped_on_plateau() {
        say(
            json,
            format!(
                "stopped early after round {r} (--stop-on-plateau): no adoption with σ at its floor"
            ),
        );
    }
    if let Some(c) = t.checks().last() {
        say(
            json,
            format!("last check (round {}): {}", c.round, c.summary()),
        );
    }
}

/// What the optimiser did over the whole run, counted.
struct Method {
    /// Rounds played after round 0 (the start).
    played: usize,
    adopted: usize,
    spsa: usize,
    confirms: usize,
    passed: usize,
    confirm_games: u64,
}

fn method(t: &Trainer) -> Method {
    let rounds = &t.rounds()[1.min(t.rounds().len())..];
    let confirms: Vec<_> = rounds.iter().filter_map(|r| r.confirm.as_ref()).collect();
    Method {
        played: rounds.len(),
        adopted: rounds.iter().filter(|r| r.adopted()).count(),
        spsa: rounds.iter().filter(|r| r.spsa.is_some()).count(),
        confirms: confirms.len(),
        passed: confirms.iter().filter(|c| c.passed()).count(),
        confirm_games: confirms.iter().map(|c| c.games()).sum(),
    }
}

/// One line on what the optimiser did over the whole run.
pub fn method_summary(t: &Trainer) -> String {
    mnk::train::method_summary(t.rounds(), t.games_played())
}

/// `mnk train --json`'s object (docs/json/train.md).
#[derive(Serialize)]
pub struct SummaryJson {
    run_folder: String,
    trained_weights: String,
    game: String,
    player: String,
    optimizer: String,
    seed: u64,
    rounds_planned: u32,
    rounds_played: u32,
    games: u64,
    finished: bool,
    stopped_on_plateau: Option<u32>,
    challengers_adopted: usize,
    spsa_steps: usize,
    confirmations: usize,
    confirmations_passed: usize,
    confirmation_games: u64,
    session: SessionJson,
    last_check: Option<CheckJson>,
    plots: Vec<String>,
    verdict: Option<VerdictJson>,
}

/// What this process did (a resumed run counts only its own rounds).
#[derive(Serialize)]
struct SessionJson {
    games: u64,
    round_seconds: f64,
    seconds: f64,
}

#[derive(Serialize)]
struct CheckJson {
    round: u32,
    summary: String,
}

#[derive(Serialize)]
struct VerdictJson {
    openings: usize,
    summary: String,
    #[serde(flatten)]
    result: TallyJson,
}

impl SummaryJson {
    /// The run as it stands; `games`, `round_seconds` and `secs` are this
    /// process's, as for [`print_summary`].
    pub fn new(t: &Trainer, (games, round_seconds, secs): (u64, f64, f64)) -> SummaryJson {
        let (c, m) = (t.config(), method(t));
        SummaryJson {
            run_folder: t.dir().path().display().to_string(),
            trained_weights: t.dir().best_weights().display().to_string(),
            game: c.game.to_string(),
            player: c.player.clone(),
            optimizer: c.optimizer.to_string(),
            seed: c.seed,
            rounds_planned: c.rounds,
            rounds_played: m.played as u32,
            games: t.games_played(),
            finished: t.is_finished(),
            stopped_on_plateau: t.stopped_on_plateau(),
            challengers_adopted: m.adopted,
            spsa_steps: m.spsa,
            confirmations: m.confirms,
            confirmations_passed: m.passed,
            confirmation_games: m.confirm_games,
            session: SessionJson {
                games,
                round_seconds,
                seconds: secs,
            },
            last_check: t.checks().last().map(|c| CheckJson {
                round: c.round,
                summary: c.summary(),
            }),
            plots: Vec::new(),
            verdict: None,
        }
    }

    /// Adds the plot files drawn.
    pub fn plots(&mut self, files: &[std::path::PathBuf]) {
        self.plots = files.iter().map(|f| f.display().to_string()).collect();
    }

    /// Adds the closing verdict.
    pub fn verdict(&mut self, v: &Verdict) {
        self.verdict = Some(VerdictJson {
            openings: v.openings,
            summary: v.summary(),
            result: TallyJson::new(&v.tally),
        });
    }
}

/// `<base>-1`, `<base>-2`, …: the first name not yet used in `runs_dir`.
pub fn free_name(runs_dir: &Path, base: &str) -> String {
    (1..)
        .map(|i| format!("{base}-{i}"))
        .find(|n| !runs_dir.join(n).exists())
        .unwrap_or_else(|| base.to_string())
}
