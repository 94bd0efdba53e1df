//! Reading, appending, writing and deleting records in files.

use super::{csv_format, parse_csv, parse_sgf, sgf, CsvError, Record, SgfError};
use crate::game::Rules;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// An error reading or changing a record file; every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: io::Error,
    },
    /// A CSV record file does not parse.
    #[error("{}: {error}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// Where and what.
        error: CsvError,
    },
    /// An SGF file does not parse.
    #[error("{}: {error}", path.display())]
    Sgf {
        /// The file.
        path: PathBuf,
        /// Where and what.
        error: SgfError,
    },
    /// A game number that the file does not have.
    #[error("{}: there is no game {number}: the file holds {count} games (numbered from 1)", path.display())]
    NoSuchGame {
        /// The file.
        path: PathBuf,
        /// The number asked for.
        number: usize,
        /// How many games the file holds.
        count: usize,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> RecordError + '_ {
    move |error| RecordError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Whether `path` names an SGF file (extension `.sgf`, any case).
fn is_sgf(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}

/// Reads every game in a record file: SGF if the extension is `.sgf`, the
/// CSV layout otherwise. Games that do not say which game they are (CSV
/// without `game=`, SGF without `MNK`/`SZ`) are played under
/// `default_rules`.
///
/// The file is read under a shared lock, so a game another process is
/// appending ([`append_records`]) is read whole or not at all.
pub fn read_records(
    path: impl AsRef<Path>,
    default_rules: Rules,
) -> Result<Vec<Record>, RecordError> {
    let path = path.as_ref();
    let mut file = File::open(path).map_err(io_error(path))?;
    // A pipe (`<(…)`) or a file system without locks is read as it is.
    let _ = file.lock_shared();
    let text = read_all(&mut file, path)?;
    parse(path, &text, default_rules)
}

/// Parses the text of the record file `path` in its format.
fn parse(path: &Path, text: &str, default_rules: Rules) -> Result<Vec<Record>, RecordError> {
    if is_sgf(path) {
        parse_sgf(text, default_rules).map_err(|error| RecordError::Sgf {
            path: path.to_path_buf(),
            error,
        })
    } else {
        parse_csv(text, default_rules).map_err(|error| RecordError::Csv {
            path: path.to_path_buf(),
            error,
        })
    }
}

/// The byte spans of the games in the text of the record file `path`
/// (only the framing is checked).
fn spans(path: &Path, text: &str) -> Result<Vec<Range<usize>>, RecordError> {
    if is_sgf(path) {
        sgf::game_spans(text).map_err(|error| RecordError::Sgf {
            path: path.to_path_buf(),
            error,
        })
    } else {
        csv_format::game_spans(text).map_err(|error| RecordError::Csv {
            path: path.to_path_buf(),
            error,
        })
    }
}

/// A game in the format of the file `path`.
fn text_for(path: &Path, record: &Record) -> String {
    if is_sgf(path) {
        record.to_sgf()
    } else {
        record.to_csv()
    }
}

/// Adds one game at the end of a record file (CSV layout, or an SGF game
/// tree for `.sgf` files), creating the file and its parent folders if
/// needed. If the file does not end with a line break, one is added first,
/// so the existing last line is never joined to the new game. The append
/// is made under the file's lock and is durable (see [`append_records`]).
pub fn append_record(path: impl AsRef<Path>, record: &Record) -> Result<(), RecordError> {
    let path = path.as_ref();
    let mut file = lock_exclusive(path)?;
    let old = read_all(&mut file, path)?;
    append_locked(&mut file, path, &old, &text_for(path, record))
}

/// Appends `records` to a record file (CSV, or SGF for `.sgf`) in one
/// write, creating the file and its folders if needed, and returns the
/// number of games now in the file, as `mnk match --records` prints it.
///
/// Several processes may append to one file at once: each takes the
/// file's exclusive lock, checks that the file reads cleanly (games
/// without metadata taken as `default_rules`: a game is never appended
/// to a file it would make unreadable), counts its games and appends, all
/// before the next one may start; so no game is lost and the count is the
/// file's own. The existing bytes are never rewritten. The append is
/// durable: one write, then `fdatasync`; a write that fails (a full disk)
/// is cut back to the old length, so the file never ends in half a game.
pub fn append_records(
    path: impl AsRef<Path>,
    records: &[Record],
    default_rules: Rules,
) -> Result<usize, RecordError> {
    let path = path.as_ref();
    let mut file = lock_exclusive(path)?;
    let old = read_all(&mut file, path)?;
    let before = parse(path, &old, default_rules)?.len();
    let text: String = records.iter().map(|r| text_for(path, r)).collect();
    append_locked(&mut file, path, &old, &text)?;
    Ok(before + records.len())
}

/// Where [`save_record`] put a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedAt {
    /// The game's 1-based number in the file.
    pub number: usize,
    /// Whether the earlier save of the same game was replaced.
    pub replaced: bool,
}

/// Saves a game that may have been saved before, as `mnk play` (and `mnk
/// serve`) keep the game in progress up to date: if `previous` (the text
/// the game was last saved as) is still the end of the file, byte for
/// byte, it is replaced by the game's new text, atomically; otherwise the
/// game is appended (as [`append_record`]). All of it happens under the
/// file's exclusive lock, so a game another process appended meanwhile
/// is never overwritten, and the number returned is the game's place in
/// the file as it is.
pub fn save_record(
    path: impl AsRef<Path>,
    record: &Record,
    previous: Option<&str>,
) -> Result<SavedAt, RecordError> {
    let path = path.as_ref();
    let text = text_for(path, record);
    let mut file = lock_exclusive(path)?;
    let old = read_all(&mut file, path)?;
    if let Some(previous) = previous.filter(|p| !p.is_empty() && old.ends_with(p)) {
        let updated = format!("{}{text}", &old[..old.len() - previous.len()]);
        let number = spans(path, &updated)?.len();
        // Renamed over the file while its lock is held: a process waiting
        // for the lock then finds a new file and locks that.
        write_atomic(path, updated.as_bytes())?;
        drop(file);
        return Ok(SavedAt {
            number,
            replaced: true,
        });
    }
    let number = spans(path, &old)?.len() + 1;
    append_locked(&mut file, path, &old, &text)?;
    Ok(SavedAt {
        number,
        replaced: false,
    })
}

/// Opens a records file (creating it and its parent folders if needed) and
/// takes its exclusive OS lock ([`File::lock`]), so that processes sharing
/// the file change it one at a time; [`read_records`] takes the shared
/// lock. The lock goes with the process however it ends.
///
/// A rewrite ([`delete_records`], a [`save_record`] that replaces its
/// game) renames a new file over the path while it holds the old file's
/// lock, so a process that waited for that lock then finds the path
/// naming another file: it starts again on the new one.
fn lock_exclusive(path: &Path) -> Result<File, RecordError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io_error(path))?;
    }
    loop {
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io_error(path))?;
        file.lock().map_err(io_error(path))?;
        if still_at(&file, path).map_err(io_error(path))? {
            return Ok(file);
        }
    }
}

/// Whether `path` still names the open `file` (not a file renamed over
/// it, nor nothing) since it was opened.
fn still_at(file: &File, path: &Path) -> io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let open = file.metadata()?;
        match fs::metadata(path) {
            Ok(now) => Ok(now.dev() == open.dev() && now.ino() == open.ino()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        Ok(true)
    }
}

/// The whole text of an open file, from its start.
fn read_all(file: &mut File, path: &Path) -> Result<String, RecordError> {
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_end(&mut bytes))
        .map_err(io_error(path))?;
    crate::util::text_from_bytes(bytes).map_err(io_error(path))
}

/// Appends `text` to the locked `file`, whose content is `old`, after a
/// line break if `old` does not end with one: one write, then
/// `fdatasync`; a failed write is cut back to the old length.
fn append_locked(file: &mut File, path: &Path, old: &str, text: &str) -> Result<(), RecordError> {
    let mut out = String::with_capacity(text.len() + 1);
    if !old.is_empty() && !old.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(text);
    let written = file
        .write_all(out.as_bytes())
        .and_then(|()| file.sync_data());
    if let Err(error) = written {
        let _ = file.set_len(old.len() as u64);
        return Err(io_error(path)(error));
    }
    Ok(())
}

/// Replaces (or creates) an SGF file with `records` as a collection,
/// atomically: the text goes to a temporary file in the same folder, which
/// is then renamed over `path`, so readers see the old or the new file,
/// never a half-written one.
pub fn write_sgf(path: impl AsRef<Path>, records: &[Record]) -> Result<(), RecordError> {
    let text: String = records.iter().map(Record::to_sgf).collect();
    replace_locked(path.as_ref(), text.as_bytes())
}

/// Replaces (or creates) a CSV record file with `records`, atomically (as
/// [`write_sgf`] does).
pub fn write_csv(path: impl AsRef<Path>, records: &[Record]) -> Result<(), RecordError> {
    let text: String = records.iter().map(Record::to_csv).collect();
    replace_locked(path.as_ref(), text.as_bytes())
}

/// Removes the games with the given 1-based `numbers` (as [`list_line`]
/// shows them; repeats are ignored) from a record file of either format,
/// atomically. Every other byte of the file, including every other game's
/// lines, stays exactly as it was. A game's span starts right after the
/// previous game (so its `#` metadata and any blank or comment lines before
/// it go with it) and ends with its result line (CSV) or the line of its
/// closing `)` (SGF). Only the framing of the games is checked, not their
/// moves, so files of any board size can be edited without knowing it.
///
/// Returns how many games are left. Fails, changing nothing, if a number is
/// 0 or larger than the number of games.
///
/// [`list_line`]: super::list_line
pub fn delete_records(path: impl AsRef<Path>, numbers: &[usize]) -> Result<usize, RecordError> {
    let path = path.as_ref();
    // Refuse a missing file rather than create it to lock it.
    fs::metadata(path).map_err(io_error(path))?;
    let mut file = lock_exclusive(path)?;
    let text = read_all(&mut file, path)?;
    let spans = spans(path, &text)?;
    let count = spans.len();
    let mut gone = vec![false; count];
    for &n in numbers {
        if n == 0 || n > count {
            return Err(RecordError::NoSuchGame {
                path: path.to_path_buf(),
                number: n,
                count,
            });
        }
        gone[n - 1] = true;
    }
    if numbers.is_empty() {
        return Ok(count);
    }
    let (head, tail) = match (spans.first(), spans.last()) {
        (Some(first), Some(last)) => (first.start, last.end),
        _ => return Ok(0),
    };
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..head]);
    for (span, &g) in spans.iter().zip(&gone) {
        if !g {
            out.push_str(&text[span.clone()]);
        }
    }
    out.push_str(&text[tail..]);
    // Renamed over the file while its lock is held (see lock_exclusive).
    write_atomic(path, out.as_bytes())?;
    drop(file);
    Ok(gone.iter().filter(|&&g| !g).count())
}

/// Replaces `path` with `bytes` atomically under the file's exclusive
/// lock, so that no append of another process is lost in between.
fn replace_locked(path: &Path, bytes: &[u8]) -> Result<(), RecordError> {
    let file = lock_exclusive(path)?;
    write_atomic(path, bytes)?;
    drop(file);
    Ok(())
}

/// Replaces `path` with `bytes` atomically ([`crate::util::write_atomic`]),
/// creating the parent folders; the error names the file.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RecordError> {
    crate::util::write_atomic(path, bytes).map_err(io_error(path))
}
