//! Parsing the manager's commands. Nothing here knows the board: a
//! coordinate is checked against the board size by the session.

/// A cell as the manager wrote it, not yet checked against the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coord {
    /// The column, 0 at the left.
    pub x: i64,
    /// The row, 0 at the top.
    pub y: i64,
}

impl std::fmt::Display for Coord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` (square) or `RECTSTART w,h`.
    Start {
        /// Columns.
        width: i64,
        /// Rows.
        height: i64,
    },
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the engine plays the first move.
    Begin,
    /// `TURN x,y`: the opponent played there; the engine answers.
    Turn(Coord),
    /// `BOARD`: stone lines follow until `DONE`.
    Board,
    /// `INFO key value`; the value is the rest of the line (a folder may
    /// contain spaces).
    Info {
        /// The setting's name (`timeout_turn`, `max_memory`, `rule`, …).
        key: String,
        /// The rest of the line.
        value: String,
    },
    /// `TAKEBACK x,y`: the stone there is taken off.
    Takeback(Coord),
    /// `ABOUT`: the engine describes itself.
    About,
    /// `END`: the engine exits.
    End,
    /// A command word this engine does not know.
    Unknown(String),
}

/// Parses one non-empty command line. `Err` carries the text for an
/// `ERROR` reply (a known command with bad arguments).
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.trim();
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let upper = word.to_ascii_uppercase();
    let no_args = |c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(format!("{upper} takes no arguments, found {rest:?}"))
        }
    };
    match upper.as_str() {
        "START" => {
            let n = rest
                .parse::<i64>()
                .map_err(|_| format!("START needs a board size like START 20, found {rest:?}"))?;
            Ok(Command::Start {
                width: n,
                height: n,
            })
        }
        "RECTSTART" => {
            let c = pair(rest).ok_or_else(|| {
                format!("RECTSTART needs width,height like RECTSTART 20,15, found {rest:?}")
            })?;
            Ok(Command::Start {
                width: c.x,
                height: c.y,
            })
        }
        "RESTART" => no_args(Command::Restart),
        "BEGIN" => no_args(Command::Begin),
        "BOARD" => no_args(Command::Board),
        "ABOUT" => no_args(Command::About),
        // END ends the engine whatever follows it.
        "END" => Ok(Command::End),
        "TURN" => pair(rest)
            .map(Command::Turn)
            .ok_or_else(|| format!("TURN needs a move x,y like TURN 7,7, found {rest:?}")),
        "TAKEBACK" => pair(rest)
            .map(Command::Takeback)
            .ok_or_else(|| format!("TAKEBACK needs a move x,y like TAKEBACK 7,7, found {rest:?}")),
        "INFO" => {
            let (key, value) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            if key.is_empty() {
                return Err("INFO needs a key and a value like INFO timeout_turn 5000".into());
            }
            Ok(Command::Info {
                key: key.to_ascii_lowercase(),
                value: value.to_string(),
            })
        }
        _ => Ok(Command::Unknown(word.to_string())),
    }
}

/// What a line inside a `BOARD` block says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardLine {
    /// `x,y,field`; field 1 is our stone, 2 the opponent's, 3 special.
    Stone(Coord, u8),
    /// `DONE`: the block ends; the engine moves if it is its turn.
    Done,
}

/// Parses a line inside a `BOARD … DONE` block.
pub fn parse_board_line(line: &str) -> Result<BoardLine, String> {
    let t = line.trim();
    if t.eq_ignore_ascii_case("DONE") {
        return Ok(BoardLine::Done);
    }
    let parts: Vec<&str> = t.split(',').map(str::trim).collect();
    let bad = || format!("expected x,y,field (field 1, 2 or 3) or DONE, found {t:?}");
    if parts.len() != 3 {
        return Err(bad());
    }
    let x = number(parts[0]).ok_or_else(bad)?;
    let y = number(parts[1]).ok_or_else(bad)?;
    let f = number(parts[2]).ok_or_else(bad)?;
    if !(1..=3).contains(&f) {
        return Err(format!(
            "field {f} in {t:?} is not 1 (own), 2 (opponent) or 3 (special)"
        ));
    }
    Ok(BoardLine::Stone(Coord { x, y }, f as u8))
}

/// `x,y` with optional spaces around either number.
fn pair(s: &str) -> Option<Coord> {
    let (a, b) = s.split_once(',')?;
    Some(Coord {
        x: number(a.trim())?,
        y: number(b.trim())?,
    })
}

/// A decimal integer (a leading sign allowed), at most 18 digits so it
/// cannot overflow.
fn number(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Parses an `INFO` number in milliseconds or bytes: negative values are
/// 0, values past `u64` saturate (some managers send `INT64_MAX / 2` for
/// "no limit"). Anything that is not an integer is `None`.
pub fn info_number(s: &str) -> Option<u64> {
    let t = s.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if t.starts_with('-') {
        return Some(0);
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: i64, y: i64) -> Coord {
        Coord { x, y }
    }

    #[test]
    fn commands() {
        assert_eq!(
            parse("START 20"),
            Ok(Command::Start {
                width: 20,
                height: 20
            })
        );
        assert_eq!(
            parse("rectstart 30, 20"),
            Ok(Command::Start {
                width: 30,
                height: 20
            })
        );
        assert_eq!(parse("  TURN 10,11 "), Ok(Command::Turn(c(10, 11))));
        assert_eq!(parse("TAKEBACK 3 , 4"), Ok(Command::Takeback(c(3, 4))));
        assert_eq!(parse("BEGIN"), Ok(Command::Begin));
        assert_eq!(parse("END"), Ok(Command::End));
        assert_eq!(
            parse("INFO folder C:\\My Files\\x"),
            Ok(Command::Info {
                key: "folder".into(),
                value: "C:\\My Files\\x".into()
            })
        );
        assert_eq!(parse("YXSTOP"), Ok(Command::Unknown("YXSTOP".into())));
    }

    #[test]
    fn bad_arguments() {
        assert!(parse("START").is_err());
        assert!(parse("START twenty").is_err());
        assert!(parse("TURN 1").is_err());
        assert!(parse("TURN a,b").is_err());
        assert!(parse("TURN 99999999999999999999999,1").is_err());
        assert!(parse("BEGIN now").is_err());
        assert!(parse("INFO").is_err());
        assert_eq!(parse("TURN -1,5"), Ok(Command::Turn(c(-1, 5))));
    }

    #[test]
    fn board_lines() {
        assert_eq!(parse_board_line("7,7,1"), Ok(BoardLine::Stone(c(7, 7), 1)));
        assert_eq!(
            parse_board_line(" 7, 8, 2 "),
            Ok(BoardLine::Stone(c(7, 8), 2))
        );
        assert_eq!(parse_board_line("done"), Ok(BoardLine::Done));
        assert!(parse_board_line("7,7,4").is_err());
        assert!(parse_board_line("7,7").is_err());
        assert!(parse_board_line("TURN 7,7").is_err());
    }

    #[test]
    fn info_numbers() {
        assert_eq!(info_number("5000"), Some(5000));
        assert_eq!(info_number("-20"), Some(0));
        assert_eq!(
            info_number("4611686018427387903"),
            Some(4611686018427387903)
        );
        assert_eq!(info_number("99999999999999999999999"), Some(u64::MAX));
        assert_eq!(info_number("2147483648"), Some(1 << 31));
        assert_eq!(info_number("9223372036854775808"), Some(1 << 63));
        assert_eq!(info_number("-9223372036854775809"), Some(0));
        assert_eq!(info_number("5s"), None);
        assert_eq!(info_number(""), None);
    }
}
