//! Reading, appending, writing and deleting records in files.

use super::{csv_format, parse_csv, parse_sgf, sgf, CsvError, Record, SgfError};
use crate::game::Rules;
use std::fs;
use std::io::{self, Write};
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
pub fn read_records(
    path: impl AsRef<Path>,
    default_rules: Rules,
) -> Result<Vec<Record>, RecordError> {
    let path = path.as_ref();
    let text = crate::util::read_text(path).map_err(io_error(path))?;
    if is_sgf(path) {
        parse_sgf(&text, default_rules).map_err(|error| RecordError::Sgf {
            path: path.to_path_buf(),
            error,
        })
    } else {
        parse_csv(&text, default_rules).map_err(|error| RecordError::Csv {
            path: path.to_path_buf(),
            error,
        })
    }
}

/// Adds one game at the end of a record file (CSV layout, or an SGF game
/// tree for `.sgf` files), creating the file and its parent folders if
/// needed. If the file does not end with a line break, one is added first,
/// so the existing last line is never joined to the new game.
pub fn append_record(path: impl AsRef<Path>, record: &Record) -> Result<(), RecordError> {
    let path = path.as_ref();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io_error(path))?;
    }
    let text = if is_sgf(path) {
        record.to_sgf()
    } else {
        record.to_csv()
    };
    let mut file = fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(io_error(path))?;
    let len = file.metadata().map_err(io_error(path))?.len();
    let mut out = Vec::with_capacity(text.len() + 1);
    if len > 0 && !ends_with_newline(&mut file, len).map_err(io_error(path))? {
        out.push(b'\n');
    }
    out.extend_from_slice(text.as_bytes());
    file.write_all(&out).map_err(io_error(path))?;
    file.flush().map_err(io_error(path))
}

/// Whether the last byte of a file of length `len > 0` is `\n`.
fn ends_with_newline(file: &mut fs::File, len: u64) -> io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    file.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// Replaces (or creates) an SGF file with `records` as a collection,
/// atomically: the text goes to a temporary file in the same folder, which
/// is then renamed over `path`, so readers see the old or the new file,
/// never a half-written one.
pub fn write_sgf(path: impl AsRef<Path>, records: &[Record]) -> Result<(), RecordError> {
    let text: String = records.iter().map(Record::to_sgf).collect();
    write_atomic(path.as_ref(), text.as_bytes())
}

/// Replaces (or creates) a CSV record file with `records`, atomically (as
/// [`write_sgf`] does).
pub fn write_csv(path: impl AsRef<Path>, records: &[Record]) -> Result<(), RecordError> {
    let text: String = records.iter().map(Record::to_csv).collect();
    write_atomic(path.as_ref(), text.as_bytes())
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
    let text = crate::util::read_text(path).map_err(io_error(path))?;
    let spans: Vec<Range<usize>> = if is_sgf(path) {
        sgf::game_spans(&text).map_err(|error| RecordError::Sgf {
            path: path.to_path_buf(),
            error,
        })?
    } else {
        csv_format::game_spans(&text).map_err(|error| RecordError::Csv {
            path: path.to_path_buf(),
            error,
        })?
    };
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
    write_atomic(path, out.as_bytes())?;
    Ok(gone.iter().filter(|&&g| !g).count())
}

/// Replaces `path` with `bytes` atomically ([`crate::util::write_atomic`]),
/// creating the parent folders; the error names the file.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RecordError> {
    crate::util::write_atomic(path, bytes).map_err(io_error(path))
}
