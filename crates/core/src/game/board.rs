//! The board: stones, side to move, history, hash and outcome.

use super::zobrist;
use super::{Cell, Color, Move, Outcome, Rules, Symmetry};
use std::fmt;

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The cell lies outside the board.
    #[error("move {mv} ({xy}) is off the {width}x{height} board")]
    OffBoard {
        /// The move as given.
        mv: Move,
        /// The move in `x,y` form (a letter alone can hide how far off it is).
        xy: String,
        /// The board's width.
        width: u8,
        /// The board's height.
        height: u8,
    },
    /// The cell already holds a stone.
    #[error("cell {0} is already occupied")]
    Occupied(Move),
    /// The game has ended: no more moves.
    #[error("the game is already over ({0})")]
    GameOver(Outcome),
}

/// The four line directions as (dx, dy): horizontal, vertical, diagonal,
/// anti-diagonal.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A position of an m,n,k game with its move history.
///
/// Each cell holds a [`Cell`]. Win detection looks only
/// at the lines through the last move, so playing a move is O(k).
///
/// ```
/// use mnk_core::game::{Board, Color, Outcome, Rules};
/// let mut b = Board::new(Rules::TICTACTOE);
/// for m in ["a1", "a2", "b1", "b2", "c1"] {
///     b.play(m.parse().unwrap()).unwrap();
/// }
/// assert_eq!(b.outcome(), Some(Outcome::Win(Color::Black)));
/// b.undo();
/// assert_eq!(b.outcome(), None);
/// ```
#[derive(Clone)]
pub struct Board {
    rules: Rules,
    cells: Vec<Cell>,
    to_move: Color,
    /// (move, colour of the stone, outcome before it, hash before it)
    history: Vec<Undo>,
    hash: u64,
    outcome: Option<Outcome>,
    empties: usize,
}

#[derive(Clone, Copy)]
struct Undo {
    mv: Move,
    color: Color,
    /// The side to move before this move: not always `color`, since a
    /// set-up stone (`play_as`) may be placed for either side.
    to_move: Color,
    hash: u64,
}

impl Board {
    /// The empty board, black to move.
    pub fn new(rules: Rules) -> Board {
        Board {
            rules,
            cells: vec![Cell::Empty; rules.cells()],
            to_move: Color::Black,
            history: Vec::with_capacity(rules.cells()),
            hash: 0,
            outcome: None,
            empties: rules.cells(),
        }
    }

    /// Plays a sequence of moves from the empty board.
    pub fn from_moves(rules: Rules, moves: &[Move]) -> Result<Board, PlayError> {
        let mut b = Board::new(rules);
        for &m in moves {
            b.play(m)?;
        }
        Ok(b)
    }

    /// Empties the board, keeping its allocation.
    pub fn reset(&mut self) {
        self.cells.fill(Cell::Empty);
        self.to_move = Color::Black;
        self.history.clear();
        self.hash = 0;
        self.outcome = None;
        self.empties = self.rules.cells();
    }

    /// The game being played.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The side whose turn it is.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The Zobrist hash of the stones (the side to move follows from the
    /// stones in alternating play).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash after the first `ply` moves of the history.
    #[inline]
    pub fn hash_at(&self, ply: usize) -> u64 {
        if ply == self.history.len() {
            self.hash
        } else {
            self.history[ply].hash
        }
    }

    /// The result, once the game has ended.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended (a win or a full board).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Number of stones on the board.
    #[inline]
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// Number of empty cells.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empties
    }

    /// The moves played so far, in order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The `i`-th move played (0-based) and the colour that played it.
    pub fn move_at(&self, i: usize) -> (Move, Color) {
        (self.history[i].mv, self.history[i].color)
    }

    /// The most recent move, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// Heap bytes the board owns (its cells and its history).
    pub fn heap_bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<Cell>()
            + self.history.capacity() * std::mem::size_of::<Undo>()
    }

    /// The cells, row-major (index [`Rules::index`]).
    #[inline]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The stone on a cell, if any.
    #[inline]
    pub fn at(&self, m: Move) -> Option<Color> {
        self.cells[self.rules.index(m)].color()
    }

    /// Whether `m` is on the board and empty (and the game not over).
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        self.outcome.is_none()
            && self.rules.contains(m)
            && self.cells[self.rules.index(m)].is_empty()
    }

    /// All legal moves, in row-major order.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        (0..self.cells.len())
            .filter(|&i| self.cells[i].is_empty())
            .map(|i| self.rules.move_at(i))
            .collect()
    }

    /// Checks a move without playing it.
    pub fn check(&self, m: Move) -> Result<(), PlayError> {
        if let Some(o) = self.outcome {
            return Err(PlayError::GameOver(o));
        }
        if !self.rules.contains(m) {
            return Err(PlayError::OffBoard {
                mv: m,
                xy: m.to_xy(),
                width: self.rules.width,
                height: self.rules.height,
            });
        }
        if !self.cells[self.rules.index(m)].is_empty() {
            return Err(PlayError::Occupied(m));
        }
        Ok(())
    }

    /// Plays a move for the side to move.
    pub fn play(&mut self, m: Move) -> Result<Option<Outcome>, PlayError> {
        self.check(m)?;
        Ok(self.play_unchecked(m))
    }

    /// Places a stone of a given colour (for set-up positions that do not
    /// alternate, such as a Gomocup `BOARD`); the other colour moves next.
    /// [`Board::undo`] restores the side that was to move before.
    pub fn play_as(&mut self, m: Move, color: Color) -> Result<Option<Outcome>, PlayError> {
        self.check(m)?;
        let before = self.to_move;
        self.to_move = color;
        self.play_unchecked(m);
        if let Some(u) = self.history.last_mut() {
            u.to_move = before;
        }
        Ok(self.outcome)
    }

    /// Plays a move known to be legal. Returns the outcome if it ended the game.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Option<Outcome> {
        let wins = self.wins_at(m, self.to_move);
        self.play_known(m, wins)
    }

    /// Plays a move known to be legal whose result the caller already
    /// knows: `wins` says whether it completes k for the side to move (an
    /// incremental evaluator reads it off its shapes, which saves the scan
    /// of [`Board::wins_at`]). A wrong `wins` gives a wrong outcome; the
    /// tests play every game both ways and compare.
    #[inline]
    pub fn play_known(&mut self, m: Move, wins: bool) -> Option<Outcome> {
        debug_assert!(self.is_legal(m));
        debug_assert_eq!(wins, self.wins_at(m, self.to_move));
        let color = self.to_move;
        self.history.push(Undo {
            mv: m,
            color,
            to_move: color,
            hash: self.hash,
        });
        let idx = self.rules.index(m);
        self.cells[idx] = Cell::from(color);
        self.hash ^= zobrist::key(color.index(), m.x, m.y);
        self.empties -= 1;
        self.to_move = color.opponent();
        if wins {
            self.outcome = Some(Outcome::Win(color));
        } else if self.empties == 0 {
            self.outcome = Some(Outcome::Draw);
        }
        self.outcome
    }

    /// Takes back the last move. Returns it, or `None` on an empty history.
    pub fn undo(&mut self) -> Option<Move> {
        let u = self.history.pop()?;
        let idx = self.rules.index(u.mv);
        self.cells[idx] = Cell::Empty;
        self.hash = u.hash;
        self.to_move = u.to_move;
        self.empties += 1;
        // Any move made while the game was over is refused, so the
        // position before the last move was never finished.
        self.outcome = None;
        Some(u.mv)
    }

    /// The length of the run of `color` stones through `m` along (dx, dy),
    /// counting `m` itself as that colour.
    #[inline]
    pub fn run_length(&self, m: Move, color: Color, dx: i32, dy: i32) -> u32 {
        let c = Cell::from(color);
        let (w, h) = (self.rules.width as i32, self.rules.height as i32);
        let mut n = 1;
        for sign in [1, -1] {
            let (mut x, mut y) = (m.x as i32 + sign * dx, m.y as i32 + sign * dy);
            while x >= 0 && x < w && y >= 0 && y < h && self.cells[(y * w + x) as usize] == c {
                n += 1;
                x += sign * dx;
                y += sign * dy;
            }
        }
        n
    }

    /// Whether a `color` stone at `m` makes a winning line through `m`.
    #[inline]
    pub fn wins_at(&self, m: Move, color: Color) -> bool {
        let k = self.rules.k as u32;
        DIRECTIONS.iter().any(|&(dx, dy)| {
            let n = self.run_length(m, color, dx, dy);
            match self.rules.rule {
                super::Rule::Freestyle => n >= k,
                super::Rule::Exact => n == k,
            }
        })
    }

    /// The hash of the position seen through a symmetry.
    pub fn hash_under(&self, s: Symmetry) -> u64 {
        let mut h = 0;
        for (i, &c) in self.cells.iter().enumerate() {
            if let Some(color) = c.color() {
                let m = s.apply(&self.rules, self.rules.move_at(i));
                h ^= zobrist::key(color.index(), m.x, m.y);
            }
        }
        h
    }

    /// The smallest hash over the board's symmetries: equal for positions
    /// that are the same up to symmetry.
    pub fn canonical_hash(&self) -> u64 {
        Symmetry::of(&self.rules)
            .iter()
            .map(|&s| self.hash_under(s))
            .min()
            .unwrap_or(self.hash)
    }

    /// The position as text rows (`X` black, `O` white, `.` empty).
    pub fn to_rows(&self) -> Vec<String> {
        (0..self.rules.height as usize)
            .map(|y| {
                (0..self.rules.width as usize)
                    .map(|x| self.cells[y * self.rules.width as usize + x].symbol())
                    .collect()
            })
            .collect()
    }
}

impl Board {
    /// The grid of [`Display`](fmt::Display), column letters and row
    /// numbers, with `mark` drawn over the cells it names (a solver's
    /// line, say).
    pub fn render_marked(&self, mark: impl Fn(Move) -> Option<char>) -> String {
        let mut out = String::from("   ");
        for x in 0..self.rules.width {
            out.push(' ');
            out.push((b'a' + x) as char);
        }
        out.push('\n');
        for (y, row) in self.to_rows().iter().enumerate() {
            out.push_str(&format!("{:>3}", y + 1));
            for (x, ch) in row.chars().enumerate() {
                out.push(' ');
                out.push(mark(Move::new(x as u8, y as u8)).unwrap_or(ch));
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Board {
    /// A plain grid with column letters and row numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render_marked(|_| None))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}, moves:", self.rules)?;
        for m in self.moves() {
            write!(f, " {m}")?;
        }
        write!(f, ")")
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.rules == other.rules
            && self.cells == other.cells
            && self.to_move == other.to_move
            && self.hash == other.hash
            && self.outcome == other.outcome
    }
}
