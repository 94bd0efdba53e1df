//! A run folder read into what the Training view shows: the run's state
//! for the list ([`RunInfo`]) and its chart data, column by column
//! ([`Charts`]). Everything comes from the library's readers
//! ([`RunDir::read_config`], [`RunDir::read_rounds`],
//! [`RunDir::read_checks`], [`RunDir::read_verdict`]); nothing here parses
//! a file.
//!
//! A folder is read again only when one of its files changed
//! ([`Signature`]): [`Cache`] keeps the last reading of every run, so the
//! list of fifty runs and a 2,000-round run's charts are parsed once per
//! new round, not once per request.

use super::super::files::{quiet_error, regular_inside};
use mnk::arena::stats::PairedTally;
use mnk::train::{is_finished, Check, CheckRow, RoundResult, RunDir};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::UNIX_EPOCH;

/// Elo beyond this is sent as this: an estimate or an interval end is
/// infinite when every game went one way, and JSON has no infinity.
pub const ELO_LIMIT: f64 = 1000.0;

/// The files a reading depends on, by name in the run folder.
const WATCHED: [&str; 4] = ["run.toml", "rounds.csv", "checks.csv", "verdict.toml"];

/// What a file looked like: length, modification time and inode (a file
/// replaced by a rename has a new inode even within the clock's grain).
type Stamp = Option<(u64, u128, u64)>;

/// The stamps of a run folder's [`WATCHED`] files: equal signatures, equal
/// readings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature([Stamp; 4]);

/// The current [`Signature`] of the run folder `dir`.
pub fn signature(dir: &Path) -> Signature {
    Signature(WATCHED.map(|name| {
        let m = std::fs::metadata(dir.join(name)).ok()?;
        let time = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(&m);
        #[cfg(not(unix))]
        let inode = 0;
        Some((m.len(), time, inode))
    }))
}

/// A run's state, as the page's badges show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// A process holds the run's lock.
    Running,
    /// Nobody works in it, and rounds remain.
    Stopped,
    /// Every planned round is played (or the budget or plateau rule
    /// ended it).
    Finished,
    /// A file cannot be read; the error says which and why.
    Damaged,
}

/// What the runs list shows of a run (every field `null` that the run's
/// files could not give).
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunInfo {
    /// The game, as `mnk` names it (`tictactoe`, `7x7x4`).
    pub game: Option<String>,
    /// The trained player's spec.
    pub player: Option<String>,
    /// `random` or `spsa`.
    pub optimizer: Option<String>,
    /// The rounds `run.toml` asks for.
    pub planned_rounds: Option<u32>,
    /// The last completed round (0: only the start); `null` before round 0.
    pub round: Option<u32>,
    /// Games played by the optimiser so far (not the checks').
    pub games: u64,
    /// The last check, if any.
    pub last_check: Option<LastCheck>,
    /// The closing verdict, if played.
    pub verdict: Option<VerdictData>,
    /// When `rounds.csv` last changed, in seconds since 1970.
    pub updated: Option<u64>,
}

/// The last check of a run.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum LastCheck {
    /// Against the exact player (small boards).
    Exact {
        /// The round it followed.
        round: u32,
        /// Optimal-move agreement, a fraction.
        agreement: f64,
        /// Game lines lost against the exact player.
        lost_lines: u64,
    },
    /// Against the reference weights (large boards).
    Elo {
        /// The round it followed.
        round: u32,
        /// One entry per reference.
        refs: Vec<EloPoint>,
    },
}

/// Elo against one reference, with its 95% interval.
#[derive(Clone, Debug, Serialize)]
pub struct EloPoint {
    /// The reference's name.
    pub reference: String,
    /// The estimate.
    pub elo: f64,
    /// The interval's low end.
    pub lo: f64,
    /// The interval's high end.
    pub hi: f64,
}

/// The closing verdict (`verdict.toml`): trained against start weights.
#[derive(Clone, Debug, Serialize)]
pub struct VerdictData {
    /// The last round of the weights it judged.
    pub round: u32,
    /// Elo (pentanomial) and its 95% interval.
    pub elo: f64,
    /// The interval's low end.
    pub lo: f64,
    /// The interval's high end.
    pub hi: f64,
    /// Games won, drawn and lost by the trained weights.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

/// A run's chart data, one array per series (2,000 rounds of 16 weights
/// stay a few hundred kilobytes), every array indexed like `rounds.round`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Charts {
    /// `round` (x) or `step` (a pure SPSA run).
    pub x_name: &'static str,
    /// The weights' evolution.
    pub weights: WeightSeries,
    /// Per round: the optimiser's numbers.
    pub rounds: RoundSeries,
    /// SPSA steps, if the run made any.
    pub spsa: Option<SpsaSeries>,
    /// The checks.
    pub checks: CheckSeries,
}

/// Every weight per round.
#[derive(Clone, Debug, Default, Serialize)]
pub struct WeightSeries {
    /// The weights' names (`attack`, `own.win`, …).
    pub names: Vec<String>,
    /// `values[i][k]`: weight `i` after round `rounds.round[k]`.
    pub values: Vec<Vec<f64>>,
}

/// The rounds' numbers; a field that does not apply to a round (the
/// start, an SPSA step) is `null`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RoundSeries {
    /// The round numbers, 0 (the start) first.
    pub round: Vec<u32>,
    /// Random search's σ.
    pub sigma: Vec<Option<f64>>,
    /// Games played in the round.
    pub games: Vec<u64>,
    /// The round robin's winner (0: the incumbent stayed).
    pub champion: Vec<Option<usize>>,
    /// Why the champion was chosen (`rounds.csv`'s `reason`).
    pub reason: Vec<&'static str>,
    /// The champion's round robin score, % ((wins + draws/2) / games).
    pub champion_score: Vec<Option<f64>>,
    /// The incumbent's round robin score, %.
    pub incumbent_score: Vec<Option<f64>>,
}

/// SPSA steps: θ+ against θ−.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SpsaSeries {
    /// The rounds that were SPSA steps.
    pub round: Vec<u32>,
    /// score(θ+) − score(θ−).
    pub score_diff: Vec<f64>,
    /// The step gain.
    pub a_k: Vec<f64>,
    /// The perturbation.
    pub c_k: Vec<f64>,
}

/// The checks: exact-player checks on small boards, Elo against each
/// reference on large ones (a run has one kind).
#[derive(Clone, Debug, Default, Serialize)]
pub struct CheckSeries {
    /// Against the exact player.
    pub exact: Option<ExactSeries>,
    /// Against the references, one entry per reference.
    pub elo: Vec<EloSeries>,
}

/// Checks against the exact player.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ExactSeries {
    /// The rounds checked.
    pub round: Vec<u32>,
    /// Optimal-move agreement, %.
    pub agreement: Vec<f64>,
    /// All tied best moves optimal, %.
    pub agreement_all_ties: Vec<f64>,
    /// Lines lost as black.
    pub lost_as_black: Vec<u64>,
    /// Lines lost as white.
    pub lost_as_white: Vec<u64>,
    /// The smallest safe search depth (`null`: none up to 4).
    pub no_loss_depth: Vec<Option<u32>>,
}

/// Elo against one reference per check, with 95% intervals (clamped to
/// ±[`ELO_LIMIT`]).
#[derive(Clone, Debug, Default, Serialize)]
pub struct EloSeries {
    /// The reference's name.
    pub reference: String,
    /// The rounds checked.
    pub round: Vec<u32>,
    /// The estimates.
    pub elo: Vec<f64>,
    /// Low ends.
    pub lo: Vec<f64>,
    /// High ends.
    pub hi: Vec<f64>,
    /// Games per check.
    pub games: Vec<u64>,
}

/// One reading of a run folder.
#[derive(Debug, Default)]
pub struct Reading {
    /// What the list shows.
    pub info: RunInfo,
    /// Whether no rounds remain (a state of its own unless running).
    pub finished: bool,
    /// The chart data; `None` when damaged.
    pub charts: Option<Charts>,
    /// Why the run is damaged: the reader's error, naming file and line.
    pub error: Option<String>,
}

/// `x` to 6 significant digits, so the JSON says `0.3` rather than
/// `0.30000000000000004` and a weight costs about ten bytes.
fn short(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let digits = 5 - x.abs().log10().floor() as i32;
    if !(-300..=300).contains(&digits) {
        return x;
    }
    let p = 10f64.powi(digits);
    let r = (x * p).round() / p;
    if r.is_finite() {
        r
    } else {
        x
    }
}

/// Elo within ±[`ELO_LIMIT`], shortened.
fn elo(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        short(x.clamp(-ELO_LIMIT, ELO_LIMIT))
    }
}

/// A score in percent; `None` without games.
fn percent(t: &mnk::arena::stats::Tally) -> Option<f64> {
    (t.games() > 0).then(|| short(100.0 * t.score()))
}

/// Elo (estimate, low, high) of a paired tally, clamped and shortened.
fn elo_of(t: &PairedTally) -> (f64, f64, f64) {
    let (lo, hi) = t.pairs.elo_interval95();
    (elo(t.pairs.elo()), elo(lo), elo(hi))
}

/// Reads the run folder `dir` (a real path): what it could read, and the
/// first error. Its files are read only if they are regular files inside
/// it, and an error names them from the run's folder and quotes nothing
/// of them ([`quiet_error`]).
pub fn read(dir: &Path) -> Reading {
    let name = dir
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    for file in WATCHED {
        if let Err(refused) = regular_inside(&dir.join(file), dir, &format!("{name}/{file}")) {
            return Reading {
                error: Some(refused.to_string()),
                ..Reading::default()
            };
        }
    }
    let quiet = |e: &dyn std::fmt::Display| Some(quiet_error(&e.to_string(), dir, &name));
    let run = RunDir::new(dir);
    let mut out = Reading {
        info: RunInfo {
            updated: std::fs::metadata(run.rounds_csv())
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map(|d| d.as_secs()),
            ..RunInfo::default()
        },
        ..Reading::default()
    };
    let cfg = match run.read_config() {
        Ok(cfg) => cfg,
        Err(e) => {
            out.error = quiet(&e);
            return out;
        }
    };
    out.info.game = Some(cfg.game.to_string());
    out.info.player = Some(cfg.player.clone());
    out.info.optimizer = Some(cfg.optimizer.as_str().to_string());
    out.info.planned_rounds = Some(cfg.rounds);
    let read = run.read_rounds(&cfg).and_then(|rounds| {
        let checks = run.read_checks(&cfg)?;
        let verdict = run.read_verdict()?;
        Ok((rounds, checks, verdict))
    });
    let (rounds, checks, verdict) = match read {
        Ok(r) => r,
        Err(e) => {
            out.error = quiet(&e);
            return out;
        }
    };
    out.info.round = rounds.last().map(|r| r.round);
    out.info.games = rounds.iter().map(RoundResult::total_games).sum();
    out.info.last_check = checks.last().map(last_check);
    out.info.verdict = verdict.map(|v| {
        let (e, lo, hi) = elo_of(&v.verdict.tally);
        let g = &v.verdict.tally.games;
        VerdictData {
            round: v.round,
            elo: e,
            lo,
            hi,
            wins: g.wins,
            draws: g.draws,
            losses: g.losses,
        }
    });
    out.finished = is_finished(&cfg, &rounds);
    out.charts = Some(charts(&rounds, &checks));
    out
}

/// The summary of one check.
fn last_check(c: &CheckRow) -> LastCheck {
    match &c.check {
        Check::Exact(e) => LastCheck::Exact {
            round: c.round,
            agreement: short(e.agreement),
            lost_lines: e.lost_lines(),
        },
        Check::Match(refs) => LastCheck::Elo {
            round: c.round,
            refs: refs
                .iter()
                .map(|r| {
                    let (elo, lo, hi) = elo_of(&r.tally);
                    EloPoint {
                        reference: r.reference.clone(),
                        elo,
                        lo,
                        hi,
                    }
                })
                .collect(),
        },
    }
}

/// The chart data of a run's rounds and checks.
fn charts(rounds: &[RoundResult], checks: &[CheckRow]) -> Charts {
    let mut c = Charts {
        x_name: "round",
        ..Charts::default()
    };
    if let Some(first) = rounds.first() {
        c.weights.names = first
            .weights
            .named_values()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        c.weights.values = vec![Vec::with_capacity(rounds.len()); c.weights.names.len()];
    }
    let mut spsa = SpsaSeries::default();
    let s = &mut c.rounds;
    for r in rounds {
        for (series, w) in c.weights.values.iter_mut().zip(r.weights.to_vec()) {
            series.push(short(w));
        }
        s.round.push(r.round);
        s.games.push(r.games);
        s.reason.push(r.reason.as_str());
        let played = r.is_random_search();
        s.sigma.push(played.then(|| short(r.sigma)));
        s.champion.push(played.then_some(r.champion));
        let score = |i: usize| r.tallies.get(i).and_then(percent);
        s.champion_score
            .push(if played { score(r.champion) } else { None });
        s.incumbent_score.push(if played { score(0) } else { None });
        if let Some(st) = &r.spsa {
            spsa.round.push(r.round);
            spsa.score_diff.push(short(st.score_diff()));
            spsa.a_k.push(short(st.a_k));
            spsa.c_k.push(short(st.c_k));
        }
    }
    let any_random = rounds.iter().any(RoundResult::is_random_search);
    if !spsa.round.is_empty() {
        if !any_random {
            c.x_name = "step";
        }
        c.spsa = Some(spsa);
    }
    for row in checks {
        match &row.check {
            Check::Exact(e) => {
                let x = c.checks.exact.get_or_insert_with(ExactSeries::default);
                x.round.push(row.round);
                x.agreement.push(short(100.0 * e.agreement));
                x.agreement_all_ties
                    .push(short(100.0 * e.agreement_all_ties));
                x.lost_as_black.push(e.lost_as_black);
                x.lost_as_white.push(e.lost_as_white);
                x.no_loss_depth.push(e.no_loss_depth);
            }
            Check::Match(refs) => {
                for r in refs {
                    let i = match c.checks.elo.iter().position(|s| s.reference == r.reference) {
                        Some(i) => i,
                        None => {
                            c.checks.elo.push(EloSeries {
                                reference: r.reference.clone(),
                                ..EloSeries::default()
                            });
                            c.checks.elo.len() - 1
                        }
                    };
                    let s = &mut c.checks.elo[i];
                    let (e, lo, hi) = elo_of(&r.tally);
                    s.round.push(row.round);
                    s.elo.push(e);
                    s.lo.push(lo);
                    s.hi.push(hi);
                    s.games.push(r.tally.games.games());
                }
            }
        }
    }
    c
}

/// The last reading of every run folder read, by path, with the
/// signature it was made at.
#[derive(Debug, Default)]
pub struct Cache {
    readings: Mutex<HashMap<PathBuf, (Signature, Arc<Reading>)>>,
}

impl Cache {
    /// The reading of `dir`, from the cache if no watched file changed
    /// since. Blocking (file reads): call it off the async threads.
    pub fn get(&self, dir: &Path) -> Arc<Reading> {
        let sig = signature(dir);
        if let Some((s, r)) = self.lock().get(dir) {
            if *s == sig {
                return Arc::clone(r);
            }
        }
        // Read without holding the lock: other runs need not wait.
        let reading = Arc::new(read(dir));
        // A file that changed while it was read is read again next time:
        // the reading is stored under the signature from before it.
        self.lock()
            .insert(dir.to_path_buf(), (sig, Arc::clone(&reading)));
        reading
    }

    /// Forgets the runs not in `keep` (folders deleted or renamed).
    pub fn retain(&self, keep: &[PathBuf]) {
        self.lock().retain(|p, _| keep.contains(p));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, (Signature, Arc<Reading>)>> {
        // A panic while the map was held leaves it whole (inserts are
        // single calls), so a poisoned lock is still usable.
        self.readings.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_shortened_to_six_digits() {
        assert_eq!(short(0.1 + 0.2), 0.3);
        assert_eq!(short(123456.789), 123457.0);
        assert_eq!(short(1.234567e-7), 1.23457e-7);
        assert_eq!(short(-2.5), -2.5);
        assert_eq!(short(0.0), 0.0);
        assert!(short(f64::INFINITY).is_infinite());
    }

    #[test]
    fn infinite_elo_is_clamped() {
        assert_eq!(elo(f64::INFINITY), ELO_LIMIT);
        assert_eq!(elo(f64::NEG_INFINITY), -ELO_LIMIT);
        assert_eq!(elo(f64::NAN), 0.0);
        assert_eq!(elo(12.345678), 12.3457);
    }
}
