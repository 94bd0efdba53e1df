//! Saving the game being played: appended to a records file once, then
//! kept up to date in place.

use crate::game::Rules;
use crate::records::{read_records, save_record, Record, RecordError};
use std::path::{Path, PathBuf};

/// A records file (CSV, or SGF for `.sgf`) that the games of a session go
/// to.
///
/// The first save of a game appends it. A later save of the same game
/// (after `save` during play, then at its end) replaces that entry rather
/// than adding a second one, as long as it is still the last thing in the
/// file, byte for byte; the rest of the file is never rewritten differently.
/// If something else was appended in between, the game is appended again.
#[derive(Clone, Debug)]
pub struct SaveTarget {
    path: PathBuf,
    /// The text this game was last saved as, if it was.
    saved: Option<String>,
}

/// Where a save went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The file.
    pub path: PathBuf,
    /// The game's 1-based number in the file.
    pub number: usize,
    /// Whether an earlier save of the same game was replaced.
    pub replaced: bool,
}

fn is_sgf(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}

impl SaveTarget {
    /// A target for `path`, checked: an existing file must read as records
    /// (games without metadata are taken as `rules`), so that a game is
    /// never appended to a file it would make unreadable. A missing file is
    /// created at the first save.
    pub fn open(path: impl Into<PathBuf>, rules: Rules) -> Result<SaveTarget, RecordError> {
        let path = path.into();
        if path.exists() {
            read_records(&path, rules)?;
        }
        Ok(SaveTarget { path, saved: None })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Forgets the current game: the next save appends a new entry.
    pub fn new_game(&mut self) {
        self.saved = None;
    }

    /// Whether this game has been saved here.
    pub fn has_saved(&self) -> bool {
        self.saved.is_some()
    }

    /// Saves `record` (see the type's docs), under the file's lock
    /// ([`save_record`]): other processes may save to the same file.
    pub fn save(&mut self, record: &Record) -> Result<Saved, RecordError> {
        let at = save_record(&self.path, record, self.saved.as_deref())?;
        self.saved = Some(if is_sgf(&self.path) {
            record.to_sgf()
        } else {
            record.to_csv()
        });
        Ok(Saved {
            path: self.path.clone(),
            number: at.number,
            replaced: at.replaced,
        })
    }
}

/// Appends many games to a records file (CSV, or SGF for `.sgf`) in one
/// durable append under the file's lock, as `mnk match --records` does
/// ([`crate::records::append_records`]): an existing file must read cleanly
/// first (games without metadata taken as `rules`); its bytes are kept as
/// they are. Returns the number of games now in the file, which other
/// processes appending to it at the same time cannot make wrong.
pub fn append_games(
    path: impl AsRef<Path>,
    records: &[Record],
    rules: Rules,
) -> Result<usize, RecordError> {
    crate::records::append_records(path, records, rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, Color, Outcome};
    use crate::records::{append_record, read_records};
    use std::fs;

    fn record(moves: &[&str]) -> Record {
        let mut b = Board::new(Rules::TICTACTOE);
        for m in moves {
            b.play(m.parse().unwrap()).unwrap();
        }
        Record::from_board(&b, "human", "greedy")
    }

    #[test]
    fn second_save_replaces_the_first() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["games.csv", "games.sgf"] {
            let path = dir.path().join(name);
            let other = record(&["a1"]);
            append_record(&path, &other).unwrap();
            let before = fs::read_to_string(&path).unwrap();

            let mut t = SaveTarget::open(&path, Rules::TICTACTOE).unwrap();
            let s = t.save(&record(&["b2", "a1"])).unwrap();
            assert_eq!((s.number, s.replaced), (2, false));
            let s = t.save(&record(&["b2", "a1", "c3", "a3", "a2"])).unwrap();
            assert_eq!((s.number, s.replaced), (2, true));
            let text = fs::read_to_string(&path).unwrap();
            assert!(
                text.starts_with(&before),
                "{name}: the earlier game changed"
            );
            let games = read_records(&path, Rules::TICTACTOE).unwrap();
            assert_eq!(games.len(), 2, "{name}");
            assert_eq!(games[1].plies(), 5);

            // Someone else appends: the next save appends again, as game 4
            // of the file (the session alone would have thought 3).
            append_record(&path, &other).unwrap();
            let mut done = record(&["b2", "a1", "c3", "a3", "a2"]);
            done.result = Some(Outcome::Win(Color::White));
            let s = t.save(&done).unwrap();
            assert_eq!((s.number, s.replaced), (4, false));
            assert_eq!(read_records(&path, Rules::TICTACTOE).unwrap().len(), 4);

            t.new_game();
            assert!(!t.has_saved());
        }
    }

    #[test]
    fn append_many_keeps_the_old_bytes() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["m.csv", "m.sgf"] {
            let path = dir.path().join(name);
            assert_eq!(
                append_games(&path, &[record(&["a1"])], Rules::TICTACTOE).unwrap(),
                1
            );
            let before = fs::read_to_string(&path).unwrap();
            let more = [record(&["b2"]), record(&["c3", "a1"])];
            assert_eq!(append_games(&path, &more, Rules::TICTACTOE).unwrap(), 3);
            assert!(fs::read_to_string(&path).unwrap().starts_with(&before));
            let games = read_records(&path, Rules::TICTACTOE).unwrap();
            assert_eq!(games[2].plies(), 2);
        }
    }

    #[test]
    fn corrupt_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.csv");
        fs::write(&path, "0\n1,1\n").unwrap();
        let e = SaveTarget::open(&path, Rules::TICTACTOE).unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
    }
}
