//! Game records: storing, listing, replaying and deleting finished (or
//! abandoned) games.
//!
//! A [`Record`] is one game: its rules, its moves (black first, strictly
//! alternating), its result and who played it. Records are kept in two file
//! formats, chosen by the file's extension: `.sgf` files hold SGF, every
//! other file the original program's CSV layout (extended compatibly).
//!
//! # The CSV layout
//!
//! The original course project writes one game as a line `0`, then one line
//! `x,y` per move (0-based column and row from the top-left corner, black
//! first), then a result line: `1,-1` black wins, `-1,-1` white wins, `0,-1`
//! draw. Games follow one another in the same file. This module reads and
//! writes exactly that, with two extensions:
//!
//! * **Metadata.** Lines starting with `#` may come before a game's `0`
//!   line. Their whitespace-separated `key=value` words describe the next
//!   game; other words are free comment. Known keys are `game` (the rules,
//!   as accepted by [`Rules`]'s parser: `gomoku`, `tictactoe`, `7x6x4`,
//!   `15x15x5-exact`…), `black` and `white` (player names or specs) and
//!   `date` (ISO 8601, e.g. `2026-11-22T10:00:00Z`); unknown keys are
//!   ignored. Values are percent-encoded: `%`, whitespace and control
//!   characters are written as `%XX` bytes of their UTF-8 form (so a name
//!   `Ann Lee` is written `Ann%20Lee`; a known key whose decoded bytes are
//!   not UTF-8 is an error). Several `#` lines before one game
//!   are merged, later keys winning. A game without metadata (every file
//!   the original program wrote) gets the rules the caller passes as the
//!   default and empty player names. The writer always emits one line
//!   `# game=... [black=...] [white=...] [date=...]` before each `0`.
//!   [`Record::to_original_csv`] leaves it out for the original program,
//!   which does not know `#` lines.
//! * **Abandoned games.** A game with no result ([`Record::result`] is
//!   `None`) ends with the result line `2,-1`, which the original program
//!   never writes. Its framing (a result line is the one with `y = -1`) is
//!   the same as for every other game, so a reader that only splits games
//!   keeps working. A game that just stops at the end of the file without
//!   a result line is an error, never a silently shortened game.
//!
//! Blank lines are ignored, spaces around numbers are allowed, and both LF
//! and CR LF line ends are read. Every move is checked on a board of the
//! game's rules: a reader error ([`CsvError`]) names the 1-based line and
//! what was expected there.
//!
//! A stated result must agree with the board: a game whose last move made
//! k in a row must carry that winner, a full board without a line must be
//! a draw. A win or draw stated on an unfinished board is accepted
//! (resignation, time forfeit or agreement).
//!
//! # SGF
//!
//! SGF (`GM[4]`, the gomoku world's exchange format) is written as
//!
//! ```text
//! (;GM[4]FF[4]CA[UTF-8]AP[mnk:0.1.0]SZ[15]MNK[15x15x5]PB[greedy]PW[human]RE[B+]DT[2026-11-22T10:00:00Z]
//! ;B[hh];W[ii];B[hi]...)
//! ```
//!
//! * `SZ[15]` for a square board, `SZ[7:6]` (columns:rows) otherwise.
//! * `MNK[WxHxK]`, or `MNK[WxHxK-exact]` under the exact rule, is this
//!   crate's private property (SGF readers skip unknown properties) that
//!   carries k and the winning rule, so every game round-trips. Without
//!   it a reader takes the size from `SZ` and k and the rule from the
//!   caller's default rules (or all of them from the default if `SZ` is
//!   missing too).
//! * Moves are `B[..]`/`W[..]` with two letters from `a`: column, then row,
//!   from the top-left corner (`B[hh]` is `h8`, `7,7`).
//! * `RE[B+]`, `RE[W+]`, `RE[Draw]`, or `RE[?]` for an abandoned game. When
//!   reading, anything starting with `B+`/`W+` (`B+R`, `W+T`…) is a win,
//!   `0` or `Draw` a draw, `?`, `Void` or an empty value no result; without
//!   `RE` the result is what the board shows.
//! * `PB`, `PW` and `DT` hold the player names and the date.
//!
//! A file may hold several games (an SGF collection). Only the main line
//! (the first variation at every branch) of a game tree is read; the other
//! variations are checked for syntax and skipped. Set-up stones (`AB`,
//! `AW`, `AE`) are refused, since a record is a game from the empty board.
//! A reader error ([`SgfError`]) names the byte offset (and line) and the
//! game number.
//!
//! # Files
//!
//! [`read_records`] reads either format, [`append_record`] and
//! [`append_records`] add games to a file, [`save_record`] keeps a game in
//! progress up to date, [`write_sgf`] and [`write_csv`] replace a file
//! atomically, and [`delete_records`] removes chosen games atomically while
//! leaving every other game's bytes untouched. [`list_line`] formats a game
//! for a listing.
//!
//! **Several processes may share a records file** (three matches, a `mnk
//! play` and a `mnk serve` saving into one file). Every change is made
//! under the file's exclusive OS lock, as one read, check and write: an
//! append is one durable write at the end (cut back if it fails), a
//! rewrite is renamed over the file while the lock is held. So no game is
//! lost, the counts a writer reports are the file's own, and a reader
//! (which takes the shared lock) sees whole games only.

mod csv_format;
mod date;
mod files;
mod sgf;

pub use csv_format::{parse_csv, CsvError, CsvErrorKind};
pub use date::{utc_date, utc_now};
pub use files::{
    append_record, append_records, delete_records, read_records, save_record, write_csv, write_sgf,
    RecordError, SavedAt,
};
pub use sgf::{parse_sgf, SgfError, SgfErrorKind};

use crate::game::{Board, Color, Move, Outcome, PlayError, Rules};

/// One game: its rules, moves, result and players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game the moves were played under.
    pub rules: Rules,
    /// The moves from the empty board, black first, alternating.
    pub moves: Vec<Move>,
    /// The result; `None` for an abandoned or unfinished game.
    pub result: Option<Outcome>,
    /// Who played black (a name or a player spec such as
    /// `greedy:weights/gomoku.toml`); may be empty.
    pub black: String,
    /// Who played white; may be empty.
    pub white: String,
    /// When the game was played, ISO 8601 (see [`utc_now`]), if known.
    pub date: Option<String>,
}

impl Record {
    /// An empty, unfinished game under `rules` with no player names.
    pub fn new(rules: Rules) -> Record {
        Record {
            rules,
            moves: Vec::new(),
            result: None,
            black: String::new(),
            white: String::new(),
            date: None,
        }
    }

    /// The record of the game on `board`: its rules, moves and outcome
    /// (`None` if it is not over), with the given player names and no date.
    pub fn from_board(board: &Board, black: impl Into<String>, white: impl Into<String>) -> Record {
        Record {
            rules: *board.rules(),
            moves: board.moves().collect(),
            result: board.outcome(),
            black: black.into(),
            white: white.into(),
            date: None,
        }
    }

    /// The number of moves (plies).
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The name recorded for `color`.
    pub fn player(&self, color: Color) -> &str {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// Replays the moves on a fresh board and returns the final position
    /// (for replay, step through [`Record::moves`] on your own board).
    pub fn replay(&self) -> Result<Board, PlayError> {
        Board::from_moves(self.rules, &self.moves)
    }

    /// The result in words: `black wins`, `white wins`, `draw` or
    /// `unfinished`.
    pub fn result_text(&self) -> String {
        match self.result {
            Some(o) => o.to_string(),
            None => "unfinished".to_string(),
        }
    }

    /// The game in this crate's CSV layout: a `#` metadata line, then the
    /// original layout (see the [module docs](self)). Ends with a newline.
    pub fn to_csv(&self) -> String {
        csv_format::write_record(self, true)
    }

    /// The game in the original program's layout only (no metadata line),
    /// for the original program. An abandoned game still ends with `2,-1`,
    /// which that program does not know.
    pub fn to_original_csv(&self) -> String {
        csv_format::write_record(self, false)
    }

    /// The game as one SGF game tree (see the [module docs](self)), ending
    /// with a newline; concatenated trees form a collection.
    pub fn to_sgf(&self) -> String {
        sgf::write_record(self)
    }
}

/// One line describing game number `n` (1-based, as users see it) for a
/// listing: number, players, result, length in plies and game, e.g.
/// `   3  greedy vs human  black wins  41 plies  gomoku`. Missing names show
/// as `?`.
pub fn list_line(n: usize, record: &Record) -> String {
    let name = |s: &str| {
        if s.is_empty() {
            "?".to_string()
        } else {
            s.to_string()
        }
    };
    format!(
        "{n:>4}  {} vs {}  {}  {} plies  {}",
        name(&record.black),
        name(&record.white),
        record.result_text(),
        record.plies(),
        record.rules
    )
}

/// How a stated result disagrees with the board, if it does: a finished
/// board admits only its own outcome; an unfinished one admits any result.
fn result_conflict(stated: Option<Outcome>, board: Option<Outcome>) -> Option<(String, String)> {
    match board {
        Some(actual) if stated != Some(actual) => {
            let stated = match stated {
                Some(o) => o.to_string(),
                None => "abandoned".to_string(),
            };
            Some((stated, actual.to_string()))
        }
        _ => None,
    }
}
