//! Small value types: colours, cells, moves and outcomes.

use std::fmt;
use std::str::FromStr;

/// A side. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour that plays the `ply`-th move (0-based).
    #[inline]
    pub fn to_move_at(ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

impl FromStr for Color {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" | "first" => Ok(Color::Black),
            "white" | "w" | "o" | "second" => Ok(Color::White),
            _ => Err(format!("expected a colour (black or white), found {s:?}")),
        }
    }
}

/// What a cell of the board holds: nothing, or a stone of one colour.
///
/// One byte, and its discriminant is the cell's code wherever cells are
/// packed (`Cell::Black as u8` is 1): the evaluator's line codes give each
/// cell two bits, with these values. The text form is one character, `.`
/// for an empty cell, `X` black and `O` white (as [`Board`](super::Board)
/// prints rows).
///
/// ```
/// use mnk_core::game::{Cell, Color};
/// assert_eq!(Cell::from(Color::White), Cell::White);
/// assert_eq!(Cell::White.color(), Some(Color::White));
/// assert_eq!(Cell::Empty.color(), None);
/// assert_eq!(Cell::try_from('X'), Ok(Cell::Black));
/// assert_eq!(Cell::Black.to_string(), "X");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    /// No stone.
    #[default]
    Empty = 0,
    /// A black stone.
    Black = 1,
    /// A white stone.
    White = 2,
}

impl Cell {
    /// Whether the cell holds no stone.
    #[inline]
    pub const fn is_empty(self) -> bool {
        matches!(self, Cell::Empty)
    }

    /// The colour of the stone on the cell, if any.
    #[inline]
    pub const fn color(self) -> Option<Color> {
        match self {
            Cell::Empty => None,
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
        }
    }

    /// The cell's character: `.` empty, `X` black, `O` white.
    pub const fn symbol(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Black => 'X',
            Cell::White => 'O',
        }
    }
}

impl From<Color> for Cell {
    /// The cell holding a stone of this colour.
    #[inline]
    fn from(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, self.symbol())
    }
}

/// A character that names no cell.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad cell {0:?}: expected . (empty), X (black) or O (white)")]
pub struct CellParseError(pub char);

impl TryFrom<char> for Cell {
    type Error = CellParseError;
    /// The cell a character names, either case (`x` is black too).
    fn try_from(c: char) -> Result<Cell, CellParseError> {
        match c {
            '.' => Ok(Cell::Empty),
            'X' | 'x' => Ok(Cell::Black),
            'O' | 'o' => Ok(Cell::White),
            _ => Err(CellParseError(c)),
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side completed a winning line.
    Win(Color),
    /// The board filled up with no winning line.
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(c) => write!(f, "{c} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// A cell of the board, by column `x` and row `y`, both 0-based from the
/// top-left corner (the Gomocup convention).
///
/// It is shown to people as a column letter and a 1-based row number
/// (`h8` is `x = 7, y = 7`), and parses from that form or from `x,y`.
/// A cell past column `z` or row 255 (no board is that large, but `"40,2"`
/// parses) is shown as `x,y`, so every move reads back from its display.
///
/// ```
/// use mnk_core::game::Move;
/// let m: Move = "h8".parse().unwrap();
/// assert_eq!((m.x, m.y), (7, 7));
/// assert_eq!("7,7".parse::<Move>().unwrap(), m);
/// assert_eq!(m.to_string(), "h8");
/// assert_eq!(Move::new(40, 2).to_string(), "40,2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Column, 0-based from the left.
    pub x: u8,
    /// Row, 0-based from the top.
    pub y: u8,
}

impl Move {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: u8, y: u8) -> Move {
        Move { x, y }
    }

    /// The `x,y` form used by files and the Gomocup protocol.
    pub fn to_xy(self) -> String {
        format!("{},{}", self.x, self.y)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.x < 26 && self.y < 255 {
            write!(f, "{}{}", (b'a' + self.x) as char, self.y as u32 + 1)
        } else {
            write!(f, "{},{}", self.x, self.y)
        }
    }
}

/// Why a move could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad move {text:?}: expected a column letter and a row number (like h8) or x,y numbers (like 7,7)")]
pub struct MoveParseError {
    /// The text that did not parse.
    pub text: String,
}

impl FromStr for Move {
    type Err = MoveParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || MoveParseError {
            text: s.to_string(),
        };
        let t = s.trim();
        if let Some((a, b)) = t.split_once(',') {
            let x: u8 = a.trim().parse().map_err(|_| err())?;
            let y: u8 = b.trim().parse().map_err(|_| err())?;
            return Ok(Move { x, y });
        }
        let mut chars = t.chars();
        let c = chars.next().ok_or_else(err)?.to_ascii_lowercase();
        if !c.is_ascii_lowercase() {
            return Err(err());
        }
        let row: u32 = chars.as_str().parse().map_err(|_| err())?;
        if row == 0 || row > 255 {
            return Err(err());
        }
        Ok(Move {
            x: c as u8 - b'a',
            y: (row - 1) as u8,
        })
    }
}
