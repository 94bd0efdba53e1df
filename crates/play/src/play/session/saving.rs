//! Saving the current game of a session to its records files, and saying
//! where it went.

use super::text::plural;
use super::{Phase, Session};
use crate::play::save::{SaveTarget, Saved};
use crate::records::Record;
use std::path::Path;

/// What one save of the current game did.
struct SaveReport {
    /// The game as it was saved.
    record: Record,
    /// The files it went to.
    done: Vec<Saved>,
    /// Why it could not go to the others.
    failed: Vec<String>,
}

impl Session {
    /// Saves the game to every records file of the session and of the
    /// game. A game without moves is not kept.
    pub(super) fn save_all(&mut self) {
        if self.board.ply() == 0 && self.resigned.is_none() {
            self.text("No moves were played, so there is nothing to save.".to_string());
            return;
        }
        let report = self.save_where(|_| true);
        self.report_saves(&report);
    }

    /// `save` or `save FILE`: opens FILE as one more records file of this
    /// game if it is new, then saves the game there (or everywhere).
    pub(super) fn save_command(&mut self, file: Option<&Path>) {
        if let Some(path) = file {
            let known = self
                .targets
                .iter()
                .chain(self.extra.iter())
                .any(|t| t.path() == path);
            if !known {
                match SaveTarget::open(path, self.rules) {
                    Ok(t) => self.extra.push(t),
                    Err(e) => {
                        let msg = format!("Not saved: {e}");
                        self.text(self.style.error(&msg));
                        return;
                    }
                }
            }
        }
        if self.board.ply() == 0 {
            self.text("No moves yet: nothing to save.".to_string());
            return;
        }
        let report = self.save_where(|p| file.is_none_or(|f| f == p));
        self.report_saves(&report);
        if !report.done.is_empty() && self.phase == Phase::Playing {
            self.text(self.style.dim(
                "It will be updated in place as the game goes on (at its end, or when you quit).",
            ));
        }
    }

    /// Saves the game to the records files (of the session, then of the
    /// game) whose path `wanted` accepts.
    fn save_where(&mut self, wanted: impl Fn(&Path) -> bool) -> SaveReport {
        let mut report = SaveReport {
            record: self.record(),
            done: Vec::new(),
            failed: Vec::new(),
        };
        for t in self.targets.iter_mut().chain(self.extra.iter_mut()) {
            if wanted(t.path()) {
                match t.save(&report.record) {
                    Ok(s) => report.done.push(s),
                    Err(e) => report.failed.push(e.to_string()),
                }
            }
        }
        report
    }

    /// Says where the game went, what failed, and (if anything failed) the
    /// game itself, so that it is not lost.
    fn report_saves(&mut self, report: &SaveReport) {
        let SaveReport {
            record,
            done,
            failed,
        } = report;
        let state = match record.result {
            Some(_) => "",
            None => " (unfinished)",
        };
        if !done.is_empty() {
            let places: Vec<String> = done
                .iter()
                .map(|s| format!("{} (game {})", s.path.display(), s.number))
                .collect();
            let msg = format!(
                "Saved the game{state}, {}, to {}.",
                plural(record.plies(), "move"),
                places.join(" and ")
            );
            self.text(self.style.good(&msg));
        }
        for f in failed {
            self.text(self.style.error(&format!("Could not save the game: {f}")));
        }
        if done.is_empty() && failed.is_empty() {
            // Once the session is over there is no prompt to type at.
            let advice = match self.phase {
                Phase::Done => "",
                _ => ": type save FILE to keep it",
            };
            self.text(format!(
                "The game is not recorded (no records file){advice}."
            ));
        }
        if !failed.is_empty() {
            self.text(format!(
                "Here it is, so it is not lost (CSV records layout):\n{}",
                record.to_csv().trim_end()
            ));
        }
    }
}
