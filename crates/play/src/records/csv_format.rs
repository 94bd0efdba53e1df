//! The original program's CSV layout with `#` metadata lines (see the
//! module docs of [`crate::records`]).

use super::{result_conflict, Record};
use crate::game::{Board, Color, Move, Outcome, Rules, RulesError};
use std::fmt::Write as _;
use std::ops::Range;

/// The result lines, as (x, result): the line is `x,-1`.
const BLACK_WINS: i64 = 1;
const WHITE_WINS: i64 = -1;
const DRAW: i64 = 0;
const ABANDONED: i64 = 2;

/// What the reader expects in place of a bad result line.
const RESULT_LINES: &str = "1,-1 (black wins), -1,-1 (white wins), 0,-1 (draw) or 2,-1 (abandoned)";

/// An error in a CSV record file, at a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct CsvError {
    /// The 1-based line number the error is on.
    pub line: usize,
    /// What is wrong there.
    pub kind: CsvErrorKind,
}

/// What is wrong with a line of a CSV record file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CsvErrorKind {
    /// Something other than `0` or a `#` line between games.
    #[error("expected `0` starting a game (or a `# key=value` metadata line), found {found:?}")]
    MissingStart {
        /// The offending line, trimmed.
        found: String,
    },
    /// A line inside a game that is neither a move nor a result line.
    #[error("expected a move `x,y` (two 0-based numbers) or a result line ({RESULT_LINES}), found {found:?}")]
    BadCoordinates {
        /// The offending line, trimmed.
        found: String,
    },
    /// A new game (`0`) or metadata (`#`) before the current game's
    /// result line.
    #[error("expected a move `x,y` or a result line ({RESULT_LINES}) ending the game started at line {start}, found {found:?}")]
    ResultMissing {
        /// The offending line, trimmed.
        found: String,
        /// The line of the unfinished game's `0`.
        start: usize,
    },
    /// The file ends inside a game.
    #[error("the file ends inside game {game} (started at line {start}, moves read: {plies}): expected a result line ({RESULT_LINES}); a game that was not finished must end with 2,-1")]
    Truncated {
        /// The 1-based number of the game in the file.
        game: usize,
        /// The line of its `0`.
        start: usize,
        /// The moves read before the end of the file.
        plies: usize,
    },
    /// A line `x,-1` with an unknown `x`.
    #[error("unknown result line {found:?}: expected {RESULT_LINES}")]
    UnknownResult {
        /// The offending line, trimmed.
        found: String,
    },
    /// A move outside the board.
    #[error("move {x},{y} is off the {width}x{height} board: expected 0 <= x < {width} and 0 <= y < {height}")]
    OffBoard {
        /// The column read.
        x: i64,
        /// The row read.
        y: i64,
        /// The board's width.
        width: u8,
        /// The board's height.
        height: u8,
    },
    /// A move on an occupied cell.
    #[error(
        "move {xy} ({mv}) is on a cell already taken at line {earlier}: expected an empty cell"
    )]
    Occupied {
        /// The move.
        mv: Move,
        /// The move as `x,y`.
        xy: String,
        /// The line of the earlier move on that cell.
        earlier: usize,
    },
    /// A move after the game was already decided.
    #[error("move {xy} comes after the game was over ({outcome} at line {ended}): expected the result line")]
    AfterEnd {
        /// The move as `x,y`.
        xy: String,
        /// How the game had ended.
        outcome: Outcome,
        /// The line of the move that ended it.
        ended: usize,
    },
    /// A result line that contradicts the board.
    #[error("the result line says {stated} but the board shows {actual}")]
    ResultMismatch {
        /// The result stated by the line.
        stated: String,
        /// The outcome on the board.
        actual: String,
    },
    /// A `game=` metadata value that is not a game description.
    #[error("metadata game={value:?}: {reason}")]
    BadGame {
        /// The (decoded) value.
        value: String,
        /// Why it does not parse.
        reason: RulesError,
    },
    /// A known metadata key whose percent-encoded bytes are not UTF-8.
    #[error("metadata {key}={value}: the %XX bytes do not form UTF-8 text")]
    BadEncoding {
        /// The key (`game`, `black`, `white` or `date`).
        key: String,
        /// The value as written (still encoded).
        value: String,
    },
}

fn err(line: usize, kind: CsvErrorKind) -> CsvError {
    CsvError { line, kind }
}

/// Reads every game of a CSV record file held in `text`. Games without a
/// `game=` metadata key are played under `default_rules`.
///
/// ```
/// use mnk::game::{Color, Outcome, Rules};
/// let games = mnk::records::parse_csv("0\n1,1\n0,0\n1,0\n2,0\n1,2\n1,-1\n", Rules::TICTACTOE).unwrap();
/// assert_eq!(games[0].result, Some(Outcome::Win(Color::Black)));
/// assert_eq!(games[0].moves[0].to_string(), "b2");
/// ```
pub fn parse_csv(text: &str, default_rules: Rules) -> Result<Vec<Record>, CsvError> {
    let mut scanner = Scanner::new(text, Some(default_rules));
    let mut out = Vec::new();
    while let Some(game) = scanner.next_game()? {
        out.extend(game.record);
    }
    Ok(out)
}

/// The byte spans of the games in `text`, contiguous: each game's span runs
/// from the end of the previous one (so it includes its metadata and any
/// blank or comment lines before it) to the end of its result line. Only the
/// framing and the line syntax are checked, not the moves.
pub(crate) fn game_spans(text: &str) -> Result<Vec<Range<usize>>, CsvError> {
    let mut scanner = Scanner::new(text, None);
    let mut out = Vec::new();
    while let Some(game) = scanner.next_game()? {
        out.push(game.span);
    }
    Ok(out)
}

/// Metadata gathered from `#` lines.
#[derive(Default)]
struct Meta {
    /// The undecoded `game=` value and its line.
    game: Option<(String, usize)>,
    black: Option<String>,
    white: Option<String>,
    date: Option<String>,
}

/// A game found in the file.
struct Game {
    span: Range<usize>,
    /// The checked record, when the scanner checks moves.
    record: Option<Record>,
}

/// Splits a file into games, line by line, and (given default rules)
/// checks every move as it is read, so the first error in the file is the
/// one reported.
struct Scanner<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    games: usize,
    default_rules: Option<Rules>,
}

/// The game being read: where it started, its length, and the board it is
/// checked on.
struct Current {
    start: usize,
    plies: usize,
    play: Option<Play>,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str, default_rules: Option<Rules>) -> Scanner<'a> {
        let pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Scanner {
            text,
            pos,
            line: 0,
            games: 0,
            default_rules,
        }
    }

    /// The next game, or `None` at the end of the file (possibly after
    /// trailing blank or comment lines).
    fn next_game(&mut self) -> Result<Option<Game>, CsvError> {
        let span_start = self.pos;
        let mut meta = Meta::default();
        let mut game: Option<Current> = None;
        while self.pos < self.text.len() {
            let rest = &self.text[self.pos..];
            let raw = match rest.find('\n') {
                Some(i) => &rest[..=i],
                None => rest,
            };
            self.pos += raw.len();
            self.line += 1;
            let line = self.line;
            let t = raw.trim();
            if t.is_empty() {
                continue;
            }
            let Some(current) = game.as_mut() else {
                if let Some(words) = t.strip_prefix('#') {
                    read_meta(words, line, &mut meta)?;
                } else if t == "0" {
                    self.games += 1;
                    let play = match self.default_rules {
                        Some(default) => Some(Play::new(game_rules(&meta, default)?)),
                        None => None,
                    };
                    game = Some(Current {
                        start: line,
                        plies: 0,
                        play,
                    });
                } else {
                    return Err(err(line, CsvErrorKind::MissingStart { found: t.into() }));
                }
                continue;
            };
            if t == "0" || t.starts_with('#') {
                return Err(err(
                    line,
                    CsvErrorKind::ResultMissing {
                        found: t.into(),
                        start: current.start,
                    },
                ));
            }
            let Some((x, y)) = pair(t) else {
                return Err(err(line, CsvErrorKind::BadCoordinates { found: t.into() }));
            };
            if y != -1 {
                current.plies += 1;
                if let Some(play) = current.play.as_mut() {
                    play.play(x, y, line)?;
                }
                continue;
            }
            let result = match x {
                BLACK_WINS => Some(Outcome::Win(Color::Black)),
                WHITE_WINS => Some(Outcome::Win(Color::White)),
                DRAW => Some(Outcome::Draw),
                ABANDONED => None,
                _ => return Err(err(line, CsvErrorKind::UnknownResult { found: t.into() })),
            };
            let record = match game.and_then(|g| g.play) {
                Some(play) => Some(play.finish(result, line, meta)?),
                None => None,
            };
            return Ok(Some(Game {
                span: span_start..self.pos,
                record,
            }));
        }
        match game {
            Some(current) => Err(err(
                self.line,
                CsvErrorKind::Truncated {
                    game: self.games,
                    start: current.start,
                    plies: current.plies,
                },
            )),
            None => Ok(None),
        }
    }
}

/// Two comma-separated integers.
fn pair(t: &str) -> Option<(i64, i64)> {
    let (a, b) = t.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// Takes the `key=value` words of a `#` line into `meta`.
fn read_meta(words: &str, line: usize, meta: &mut Meta) -> Result<(), CsvError> {
    for word in words.split_whitespace() {
        let Some((key, raw)) = word.split_once('=') else {
            continue;
        };
        let slot = match key {
            "black" => &mut meta.black,
            "white" => &mut meta.white,
            "date" => &mut meta.date,
            "game" => {
                meta.game = Some((decode_meta(key, raw, line)?, line));
                continue;
            }
            _ => continue,
        };
        *slot = Some(decode_meta(key, raw, line)?);
    }
    Ok(())
}

/// Decodes a known key's value; bytes that are not UTF-8 are an error
/// rather than silently replaced.
fn decode_meta(key: &str, raw: &str, line: usize) -> Result<String, CsvError> {
    String::from_utf8(decode(raw)).map_err(|_| {
        err(
            line,
            CsvErrorKind::BadEncoding {
                key: key.to_string(),
                value: raw.to_string(),
            },
        )
    })
}

/// The rules named by the metadata, or the default.
fn game_rules(meta: &Meta, default_rules: Rules) -> Result<Rules, CsvError> {
    match &meta.game {
        Some((value, line)) => value.parse::<Rules>().map_err(|reason| {
            err(
                *line,
                CsvErrorKind::BadGame {
                    value: value.clone(),
                    reason,
                },
            )
        }),
        None => Ok(default_rules),
    }
}

/// A game being checked move by move.
struct Play {
    board: Board,
    /// The line each cell was taken on (0: empty).
    taken: Vec<usize>,
    /// The line of the last move.
    last: usize,
    moves: Vec<Move>,
}

impl Play {
    fn new(rules: Rules) -> Play {
        Play {
            board: Board::new(rules),
            taken: vec![0; rules.cells()],
            last: 0,
            moves: Vec::new(),
        }
    }

    /// Checks and plays the move `x,y` read on `line`.
    fn play(&mut self, x: i64, y: i64, line: usize) -> Result<(), CsvError> {
        let rules = *self.board.rules();
        if let Some(outcome) = self.board.outcome() {
            return Err(err(
                line,
                CsvErrorKind::AfterEnd {
                    xy: format!("{x},{y}"),
                    outcome,
                    ended: self.last,
                },
            ));
        }
        if x < 0 || y < 0 || x >= i64::from(rules.width) || y >= i64::from(rules.height) {
            return Err(err(
                line,
                CsvErrorKind::OffBoard {
                    x,
                    y,
                    width: rules.width,
                    height: rules.height,
                },
            ));
        }
        let mv = Move::new(x as u8, y as u8);
        let cell = rules.index(mv);
        if self.taken[cell] != 0 {
            return Err(err(
                line,
                CsvErrorKind::Occupied {
                    mv,
                    xy: mv.to_xy(),
                    earlier: self.taken[cell],
                },
            ));
        }
        self.taken[cell] = line;
        self.last = line;
        self.board.play_unchecked(mv);
        self.moves.push(mv);
        Ok(())
    }

    /// Checks the result read on `line` against the board and makes the
    /// record.
    fn finish(self, result: Option<Outcome>, line: usize, meta: Meta) -> Result<Record, CsvError> {
        if let Some((stated, actual)) = result_conflict(result, self.board.outcome()) {
            return Err(err(line, CsvErrorKind::ResultMismatch { stated, actual }));
        }
        Ok(Record {
            rules: *self.board.rules(),
            moves: self.moves,
            result,
            black: meta.black.unwrap_or_default(),
            white: meta.white.unwrap_or_default(),
            date: meta.date,
        })
    }
}

/// Writes one game, with or without its `#` metadata line.
pub(crate) fn write_record(r: &Record, with_meta: bool) -> String {
    let mut s = String::with_capacity(16 + 6 * r.moves.len());
    if with_meta {
        s.push_str("# game=");
        s.push_str(&encode(&r.rules.to_string()));
        for (key, value) in [("black", Some(&r.black)), ("white", Some(&r.white))] {
            if let Some(v) = value.filter(|v| !v.is_empty()) {
                let _ = write!(s, " {key}={}", encode(v));
            }
        }
        if let Some(d) = &r.date {
            let _ = write!(s, " date={}", encode(d));
        }
        s.push('\n');
    }
    s.push_str("0\n");
    for m in &r.moves {
        let _ = writeln!(s, "{},{}", m.x, m.y);
    }
    let code = match r.result {
        Some(Outcome::Win(Color::Black)) => BLACK_WINS,
        Some(Outcome::Win(Color::White)) => WHITE_WINS,
        Some(Outcome::Draw) => DRAW,
        None => ABANDONED,
    };
    let _ = writeln!(s, "{code},-1");
    s
}

/// Percent-encodes `%`, whitespace and control characters.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '%' || c.is_whitespace() || c.is_control() {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Undoes [`encode`], to bytes; a `%` not followed by two hex digits
/// stays as it is.
fn decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let (h, l) = (b[i + 1], b[i + 2]);
            if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() {
                let digit = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                out.push(digit(h) * 16 + digit(l));
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        for s in [
            "", "Ann Lee", "100%", "a\tb\nc", "名 前", "%2", "x=y", "%zz",
        ] {
            assert_eq!(decode(&encode(s)), s.as_bytes());
        }
        assert_eq!(encode("Ann Lee"), "Ann%20Lee");
        assert_eq!(decode("%zz%4"), b"%zz%4");
        assert_eq!(decode("a%FF"), b"a\xFF");
    }
}
