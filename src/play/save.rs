//! Saving the game being played: appended to a records file once, then
//! kept up to date in place.

use crate::game::Rules;
use crate::records::{append_record, read_records, Record, RecordError};
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
    /// Games in the file, as far as this session knows.
    games: usize,
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
        let games = if path.exists() {
            read_records(&path, rules)?.len()
        } else {
            0
        };
        Ok(SaveTarget {
            path,
            games,
            saved: None,
        })
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

    /// Saves `record` (see the type's docs).
    pub fn save(&mut self, record: &Record) -> Result<Saved, RecordError> {
        let text = if is_sgf(&self.path) {
            record.to_sgf()
        } else {
            record.to_csv()
        };
        let io = |error| RecordError::Io {
            path: self.path.clone(),
            error,
        };
        if let Some(previous) = &self.saved {
            let current = match crate::util::read_text(&self.path) {
                Ok(t) => Some(t),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(io(e)),
            };
            if let Some(current) = current.filter(|c| c.ends_with(previous.as_str())) {
                let mut updated = current[..current.len() - previous.len()].to_string();
                updated.push_str(&text);
                crate::util::write_atomic(&self.path, updated.as_bytes()).map_err(io)?;
                self.saved = Some(text);
                return Ok(Saved {
                    path: self.path.clone(),
                    number: self.games,
                    replaced: true,
                });
            }
        }
        append_record(&self.path, record)?;
        self.games += 1;
        self.saved = Some(text);
        Ok(Saved {
            path: self.path.clone(),
            number: self.games,
            replaced: false,
        })
    }
}

/// Appends many games to a records file (CSV, or SGF for `.sgf`) in one
/// atomic write, as `mnk match --records` does. An existing file must read
/// cleanly first (games without metadata taken as `rules`); its bytes are
/// kept as they are. Returns the number of games now in the file.
pub fn append_games(
    path: impl AsRef<Path>,
    records: &[Record],
    rules: Rules,
) -> Result<usize, RecordError> {
    let path = path.as_ref();
    let io = |error| RecordError::Io {
        path: path.to_path_buf(),
        error,
    };
    let (mut text, before) = if path.exists() {
        let before = read_records(path, rules)?.len();
        (crate::util::read_text(path).map_err(io)?, before)
    } else {
        (String::new(), 0)
    };
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    for r in records {
        text.push_str(&if is_sgf(path) { r.to_sgf() } else { r.to_csv() });
    }
    crate::util::write_atomic(path, text.as_bytes()).map_err(io)?;
    Ok(before + records.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, Color, Outcome};
    use crate::records::read_records;
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

            // Someone else appends: the next save appends again.
            append_record(&path, &other).unwrap();
            let mut done = record(&["b2", "a1", "c3", "a3", "a2"]);
            done.result = Some(Outcome::Win(Color::White));
            let s = t.save(&done).unwrap();
            assert_eq!((s.number, s.replaced), (3, false));
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
