//! Putting a run folder in order before a run continues in it: what an
//! interruption leaves (a torn last line, rows of a round that was not
//! completed, temporary files, a stale `best.toml`) is repaired, and what
//! someone else changed (a row or weights file that no longer agrees with
//! the rest) is refused. This knows the records, not the algorithms: it
//! reads and cuts files, it never plays a game.

use super::{
    check_lines, checks_header_line, parse_checks, parse_rounds, progress_kept,
    remove_stale_siblings, rounds_csv_text, RunDir, RunLock,
};
use crate::eval::Weights;
use crate::train::{CheckRow, RoundResult, RunConfig, TrainError};
use std::path::Path;

/// A run folder put in order ([`RunDir::recover`]).
#[derive(Debug)]
pub struct Recovered {
    /// Every completed round, checked.
    pub rounds: Vec<RoundResult>,
    /// The checks of those rounds.
    pub checks: Vec<CheckRow>,
    /// What was repaired, one line each, for the user to know.
    pub notes: Vec<String>,
    /// The last round `verdict.toml` judged, if it holds a verdict (a
    /// damaged file counts as none: the verdict is played again).
    pub verdict_round: Option<u32>,
}

/// The title line of the weights file of round `r`.
pub(crate) fn round_title(cfg: &RunConfig, r: u32) -> String {
    format!("run {}: incumbent after round {r}", cfg.name)
}

/// Why a weights file that could not be loaded is written again.
fn missing_or_damaged(p: &Path) -> &'static str {
    if p.exists() {
        "it was damaged"
    } else {
        "it was missing"
    }
}

impl RunDir {
    /// Reads every completed round of a run being resumed with
    /// configuration `cfg` and start weights `start`, checks that the
    /// folder's history holds together, and puts the folder in order: cuts
    /// the CSV files to the completed rounds (an incomplete last line,
    /// check and progress rows of a round that was not completed), deletes
    /// temporary files left by an interrupted write and the hidden folders
    /// of interrupted creations, and rewrites the last round's weight file
    /// and `weights/best.toml` if they are missing or damaged. Refused
    /// ([`TrainError::Inconsistent`]) when round 0 is not the start
    /// weights or a round's weights file reads as other weights than its
    /// row. Only the holder of the folder's `lock` may call it.
    pub fn recover(
        &self,
        _lock: &RunLock,
        cfg: &RunConfig,
        start: &Weights,
    ) -> Result<Recovered, TrainError> {
        let mut notes = Vec::new();
        if let (Some(parent), Some(name)) = (self.path.parent(), self.path.file_name()) {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            remove_stale_siblings(parent, &name.to_string_lossy());
        }
        let removed = self.remove_stale_temps();
        if removed > 0 {
            notes.push(format!(
                "deleted {removed} temporary file{} left by an interrupted write",
                if removed == 1 { "" } else { "s" }
            ));
        }
        let rounds = match self.read_complete(&self.rounds_csv())? {
            None => Vec::new(),
            Some((text, torn)) => {
                if torn {
                    notes.push(format!(
                        "{}: dropped an incomplete last line (a write was cut short)",
                        self.rounds_csv().display()
                    ));
                }
                parse_rounds(&text, &self.rounds_csv(), cfg)?
            }
        };
        if let Some(r0) = rounds.first() {
            if r0.weights != *start {
                return Err(TrainError::Inconsistent {
                    path: self.rounds_csv(),
                    message: format!(
                        "round 0's weights differ from {}",
                        self.start_weights().display()
                    ),
                });
            }
        }
        // The rows are the run's history: each earlier round's weights
        // file (written before its row, never again) must still agree with
        // its row, so an edited row or file is refused, not trained on.
        for r in rounds.iter().rev().skip(1) {
            let p = self.round_weights(r.round);
            if let Ok(w) = Weights::load(&p, cfg.game, false) {
                if w != r.weights {
                    return Err(TrainError::Inconsistent {
                        path: self.rounds_csv(),
                        message: format!(
                            "the weights of round {} differ from {}: one of them was changed",
                            r.round,
                            p.display()
                        ),
                    });
                }
            }
        }
        if let Some(last) = rounds.last() {
            // The round's weight file is written before its row; the row
            // holds the same numbers, so a missing or unreadable file is
            // written again, but one that reads as other weights was
            // changed by someone.
            let toml = last.weights.to_toml(&round_title(cfg, last.round));
            let p = self.round_weights(last.round);
            match Weights::load(&p, cfg.game, false) {
                Ok(w) if w != last.weights => {
                    return Err(TrainError::Inconsistent {
                        path: self.rounds_csv(),
                        message: format!(
                            "the weights of round {} differ from {}: the file was changed",
                            last.round,
                            p.display()
                        ),
                    });
                }
                Ok(_) => {}
                Err(_) => {
                    let why = missing_or_damaged(&p);
                    self.write(&p, toml.as_bytes())?;
                    notes.push(format!("rewrote {}: {why}", p.display()));
                }
            }
            // best.toml is the last round's incumbent: what `mnk train`
            // names as the trained weights must be them.
            let best = self.best_weights();
            match Weights::load(&best, cfg.game, false) {
                Ok(w) if w == last.weights => {}
                other => {
                    // A crash after the next round's weight files but
                    // before its row leaves best.toml one round ahead: the
                    // usual trace of an interruption, set right silently.
                    let ahead = std::fs::read(&best).ok().is_some_and(|b| {
                        std::fs::read(self.round_weights(last.round + 1)).ok() == Some(b)
                    });
                    let why = match other {
                        Ok(_) => format!("it did not hold round {}'s weights", last.round),
                        Err(_) => missing_or_damaged(&best).to_string(),
                    };
                    self.write(&best, toml.as_bytes())?;
                    if !ahead {
                        notes.push(format!("rewrote {}: {why}", best.display()));
                    }
                }
            }
        }
        let done = rounds.last().map(|r| r.round);
        let small = crate::train::config::is_small(cfg.game);
        let mut checks = match self.read_complete(&self.checks_csv())? {
            None => Vec::new(),
            Some((text, _)) => parse_checks(&text, &self.checks_csv(), small)?,
        };
        checks.retain(|c| done.is_some_and(|d| c.round <= d));
        // progress.csv is informative: keep the rows of completed rounds.
        let progress = match self.read_complete(&self.progress_csv()) {
            Ok(Some((text, _))) => progress_kept(&text, done),
            _ => None,
        };
        // Cut each CSV file to the completed rounds, so the next rows are
        // appended after complete lines. Each file exists from its first
        // row on, as in a run never interrupted.
        let nonempty = |header: String, rows: String| (!rows.is_empty()).then(|| header + &rows);
        self.set_contents(&self.rounds_csv(), rounds_csv_text(cfg, &rounds).as_deref())?;
        let rows: String = checks.iter().map(check_lines).collect();
        self.set_contents(
            &self.checks_csv(),
            nonempty(checks_header_line(small), rows).as_deref(),
        )?;
        self.set_contents(&self.progress_csv(), progress.as_deref())?;
        Ok(Recovered {
            rounds,
            checks,
            notes,
            // A damaged verdict.toml counts as none: it is played again.
            verdict_round: self.read_verdict().ok().flatten().map(|v| v.round),
        })
    }
}
