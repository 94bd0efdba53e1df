//! Openings: the first stones of a game, so that deterministic players
//! still play varied games. Random openings are seeded and balanced;
//! files use the Gomocup "offset" format (`0,0, 1,0, 1,1`: `x,y` offsets
//! from the board centre `(width/2, height/2)`, black first).

use crate::game::{Board, Cell, Color, Move, Rules};
use crate::players::Rng;
use rand::Rng as _;
use std::fmt;
use std::path::Path;

/// Errors in an openings file.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// A line is not an opening for this board.
    #[error("{path}: line {line}: {message}")]
    Line {
        /// The file.
        path: String,
        /// The 1-based line.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The file holds no opening at all.
    #[error("{path}: no openings in the file")]
    Empty {
        /// The file.
        path: String,
    },
}

/// The stones of an opening, black first, alternating.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The stones in the order they are played (empty: the empty board).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position after the opening.
    pub fn board(&self, rules: Rules) -> Result<Board, crate::game::PlayError> {
        Board::from_moves(rules, &self.moves)
    }

    /// Parses one line of the offset format for a board.
    pub fn parse_offsets(line: &str, rules: Rules) -> Result<Opening, String> {
        Opening::parse_offsets_on(line, &mut Board::new(rules))
    }

    /// [`Opening::parse_offsets`] on `board`'s game, playing the stones on
    /// `board` (emptied first) to check them: a book's lines share one
    /// board, and a shipped book of 40,000 openings took 11% fewer
    /// instructions than with a board (two allocations) for each line.
    /// Most of the rest is the checks (each stone played, the win test).
    fn parse_offsets_on(line: &str, board: &mut Board) -> Result<Opening, String> {
        let rules = *board.rules();
        board.reset();
        let nums: Vec<&str> = line
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .collect();
        if !nums.len().is_multiple_of(2) {
            return Err(format!(
                "expected pairs of x,y offsets separated by \", \", found {} numbers",
                nums.len()
            ));
        }
        let (cx, cy) = (rules.width as i32 / 2, rules.height as i32 / 2);
        let mut moves = Vec::with_capacity(nums.len() / 2);
        for pair in nums.chunks(2) {
            let parse = |t: &str| {
                t.parse::<i32>()
                    .map_err(|_| format!("expected an integer offset, found {t:?}"))
            };
            let (dx, dy) = (parse(pair[0])?, parse(pair[1])?);
            // In i64: an offset near i32::MAX must not overflow.
            let (x, y) = (i64::from(cx) + i64::from(dx), i64::from(cy) + i64::from(dy));
            if x < 0 || y < 0 || x >= i64::from(rules.width) || y >= i64::from(rules.height) {
                return Err(format!(
                    "offset {dx},{dy} is off the {}x{} board",
                    rules.width, rules.height
                ));
            }
            let m = Move::new(x as u8, y as u8);
            board
                .play(m)
                .map_err(|e| format!("offset {dx},{dy}: {e}"))?;
            moves.push(m);
        }
        if board.is_over() {
            return Err("the opening already ends the game".into());
        }
        let mover = board.to_move();
        if let Some(m) = winning_cell(board, mover) {
            return Err(format!(
                "the opening is already decided: {mover} to move wins at once at {m}"
            ));
        }
        Ok(Opening { moves })
    }

    /// The offset-format line of this opening.
    pub fn to_offsets(&self, rules: Rules) -> String {
        let (cx, cy) = (rules.width as i32 / 2, rules.height as i32 / 2);
        self.moves
            .iter()
            .map(|m| format!("{},{}", m.x as i32 - cx, m.y as i32 - cy))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v: Vec<String> = self.moves.iter().map(|m| m.to_string()).collect();
        f.write_str(&v.join(" "))
    }
}

/// The first words of the header line of a book that `mnk openings
/// generate` wrote; the game's name follows.
pub const BOOK_HEADER: &str = "# mnk opening book for ";

/// Reads a Gomocup offset-format openings file (blank lines and `#`
/// comments are skipped).
pub fn load_openings(path: &Path, rules: Rules) -> Result<Vec<Opening>, OpeningError> {
    let p = path.display().to_string();
    let text = crate::util::read_text(path).map_err(|source| OpeningError::Io {
        path: p.clone(),
        source,
    })?;
    parse_openings(&text, &p, rules)
}

/// Parses the text of an offset-format openings file; `path` names the
/// source in errors. One opening per line; blank lines and `#` comments
/// are skipped; a file without openings is an error.
///
/// ```
/// use mnk_core::arena::parse_openings;
/// use mnk_core::game::Rules;
/// let v = parse_openings("# two\n0,0, 1,0\n\n-1,-1\n", "x.txt", Rules::GOMOKU).unwrap();
/// assert_eq!(v.len(), 2);
/// assert_eq!(v[0].to_offsets(Rules::GOMOKU), "0,0, 1,0");
/// assert!(parse_openings("# none\n", "x.txt", Rules::GOMOKU).is_err());
/// // A book made for another game is refused at its header.
/// let e = parse_openings("# mnk opening book for 20x20x5, ...\n0,0\n", "b.txt", Rules::GOMOKU);
/// assert!(e.unwrap_err().to_string().contains("b.txt: line 1: the book was made for 20x20x5"));
/// ```
pub fn parse_openings(text: &str, path: &str, rules: Rules) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    let mut board = Board::new(rules);
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(game) = t.strip_prefix(BOOK_HEADER) {
            // A book written by `mnk openings generate` names its game.
            let name = game.split([',', ' ']).next().unwrap_or("");
            match name.parse::<Rules>() {
                Ok(r) if r != rules => {
                    return Err(OpeningError::Line {
                        path: path.to_string(),
                        line: i + 1,
                        message: format!("the book was made for {r}, not {rules}"),
                    })
                }
                _ => {}
            }
        }
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(Opening::parse_offsets_on(t, &mut board).map_err(|message| {
            OpeningError::Line {
                path: path.to_string(),
                line: i + 1,
                message,
            }
        })?);
    }
    if out.is_empty() {
        return Err(OpeningError::Empty {
            path: path.to_string(),
        });
    }
    Ok(out)
}

/// How random openings are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningStyle {
    /// Stones placed (alternating, black first).
    pub stones: usize,
    /// Chebyshev distance from the centre they are drawn within.
    pub radius: u8,
}

impl OpeningStyle {
    /// A sensible default for a board: 4 stones within 3 of the centre on
    /// boards of 9×9 and up, 2 stones anywhere on small boards.
    pub fn default_for(rules: Rules) -> OpeningStyle {
        if rules.width.min(rules.height) >= 9 {
            OpeningStyle {
                stones: 4,
                radius: 3,
            }
        } else {
            OpeningStyle {
                stones: 2.min(rules.cells() / 4),
                radius: rules.width.max(rules.height),
            }
        }
    }
}

/// A random balanced opening: stones near the centre, alternating, such
/// that neither side can win at once (redrawn otherwise).
pub fn random_opening(rules: Rules, style: OpeningStyle, rng: &mut Rng) -> Opening {
    let (cx, cy) = (rules.width as i32 / 2, rules.height as i32 / 2);
    let r = style.radius as i32;
    let cells: Vec<Move> = (0..rules.cells())
        .map(|i| rules.move_at(i))
        .filter(|m| (m.x as i32 - cx).abs() <= r && (m.y as i32 - cy).abs() <= r)
        .collect();
    let stones = style.stones.min(cells.len().saturating_sub(1));
    for _attempt in 0..1000 {
        let mut board = Board::new(rules);
        let mut moves = Vec::with_capacity(stones);
        while moves.len() < stones {
            let m = cells[rng.gen_range(0..cells.len())];
            if board.is_legal(m) {
                board.play_unchecked(m);
                moves.push(m);
            }
        }
        if !board.is_over() && !threatened(&board) {
            return Opening { moves };
        }
    }
    Opening { moves: Vec::new() }
}

/// Whether either side could complete a win with one stone.
fn threatened(board: &Board) -> bool {
    [Color::Black, Color::White]
        .into_iter()
        .any(|c| winning_cell(board, c).is_some())
}

/// A cell where `color` would complete a win with one stone, if any.
fn winning_cell(board: &Board, color: Color) -> Option<Move> {
    let rules = board.rules();
    // A win with one more stone needs k − 1 stones of that colour already:
    // short openings (the usual case) need no scan of the board.
    let stone = Cell::from(color);
    let stones = board.cells().iter().filter(|&&c| c == stone).count();
    if stones + 1 < rules.k as usize {
        return None;
    }
    (0..rules.cells())
        .map(|i| rules.move_at(i))
        .find(|&m| board.is_legal(m) && board.wins_at(m, color))
}

/// `n` random openings from one seeded stream, all distinct where possible.
pub fn random_openings(rules: Rules, style: OpeningStyle, n: usize, rng: &mut Rng) -> Vec<Opening> {
    distinct_openings(rules, n, rng, |_| style)
}

/// `n` random openings from one seeded stream, all distinct where
/// possible, each drawn in the style `style_of` gives it (which may draw
/// from the stream first, say a stone count from a range).
pub fn distinct_openings(
    rules: Rules,
    n: usize,
    rng: &mut Rng,
    mut style_of: impl FnMut(&mut Rng) -> OpeningStyle,
) -> Vec<Opening> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(n);
    let mut tries = 0;
    while out.len() < n {
        let style = style_of(rng);
        let o = random_opening(rules, style, rng);
        tries += 1;
        // Small boards have few openings: allow repeats once exhausted.
        if seen.insert(o.clone()) || tries > 20 * n {
            out.push(o);
        }
    }
    out
}
