//! The position as the manager set it: what is on each cell and the order
//! the stones arrived in, and the search's [`Board`] built from it.
//!
//! Which colour we play follows from the stone counts only once the
//! position is complete, so until then the position holds our stones as
//! black ([`OWN`]) and the opponent's as white ([`OPP`]);
//! [`build_board`] gives them their real colours.

use super::protocol::Coord;
use crate::game::{Board, Cell, Color, Move, Rules};

/// Our stones, as the position holds them.
pub(super) const OWN: Cell = Cell::Black;
/// The opponent's stones, as the position holds them, and blocked cells
/// (field 3 of `BOARD`), which the search treats as the opponent's.
pub(super) const OPP: Cell = Cell::White;

/// The cell of a `BOARD` line's field: 1 own, 2 opponent, 3 blocked (the
/// parser accepts no other).
pub(super) fn from_board_line(f: u8) -> Cell {
    match f {
        1 => OWN,
        _ => OPP,
    }
}

/// The position as the manager set it, with the order stones arrived in.
#[derive(Clone, Debug)]
pub(super) struct Position {
    pub(super) width: u8,
    pub(super) height: u8,
    /// Row-major, `width` cells a row.
    pub(super) cells: Vec<Cell>,
    /// The stones in the order they were placed.
    pub(super) stones: Vec<(Move, Cell)>,
}

impl Position {
    /// An empty `width`×`height` board.
    pub(super) fn new(width: u8, height: u8) -> Position {
        Position {
            width,
            height,
            cells: vec![Cell::Empty; width as usize * height as usize],
            stones: Vec::new(),
        }
    }

    /// Removes every stone.
    pub(super) fn clear(&mut self) {
        self.cells.fill(Cell::Empty);
        self.stones.clear();
    }

    /// The index of `m` in `cells`.
    pub(super) fn index(&self, m: Move) -> usize {
        m.y as usize * self.width as usize + m.x as usize
    }

    /// The cell `c` names, if it is on the board.
    pub(super) fn on_board(&self, c: Coord) -> Result<Move, String> {
        if c.x < 0 || c.y < 0 || c.x >= self.width as i64 || c.y >= self.height as i64 {
            return Err(format!(
                "{c} is off the {}x{} board (x 0 to {}, y 0 to {})",
                self.width,
                self.height,
                self.width - 1,
                self.height - 1
            ));
        }
        Ok(Move::new(c.x as u8, c.y as u8))
    }

    /// The cell `c` names, if it is on the board and empty.
    pub(super) fn empty_cell(&self, c: Coord) -> Result<Move, String> {
        let m = self.on_board(c)?;
        if !self.cells[self.index(m)].is_empty() {
            return Err(format!("{c} is already occupied"));
        }
        Ok(m)
    }

    /// Puts `field` ([`OWN`] or [`OPP`]) on the empty cell `m`.
    pub(super) fn place(&mut self, m: Move, field: Cell) {
        let i = self.index(m);
        self.cells[i] = field;
        self.stones.push((m, field));
    }

    /// Takes the stone off `m`; false if there was none.
    pub(super) fn remove(&mut self, m: Move) -> bool {
        let i = self.index(m);
        if self.cells[i].is_empty() {
            return false;
        }
        self.cells[i] = Cell::Empty;
        if let Some(p) = self.stones.iter().rposition(|&(s, _)| s == m) {
            self.stones.remove(p);
        }
        true
    }

    /// The number of empty cells.
    pub(super) fn empties(&self) -> usize {
        self.count(Cell::Empty)
    }

    /// The number of cells holding `field`.
    pub(super) fn count(&self, field: Cell) -> usize {
        self.cells.iter().filter(|&&c| c == field).count()
    }

    /// Whether `m` is empty.
    pub(super) fn is_empty_at(&self, m: Move) -> bool {
        self.cells[self.index(m)].is_empty()
    }

    /// The empty cell nearest the centre (the first such in row-major
    /// order): the answer when there is nothing better to go on.
    pub(super) fn central_empty(&self) -> Option<Move> {
        let (cx, cy) = (
            (self.width as i32 - 1) as f64 / 2.0,
            (self.height as i32 - 1) as f64 / 2.0,
        );
        let dist = |m: Move| (m.x as f64 - cx).powi(2) + (m.y as f64 - cy).powi(2);
        (0..self.cells.len())
            .filter(|&i| self.cells[i].is_empty())
            .map(|i| {
                Move::new(
                    (i % self.width as usize) as u8,
                    (i / self.width as usize) as u8,
                )
            })
            .min_by(|&a, &b| dist(a).total_cmp(&dist(b)))
    }
}

/// The search's board: the stones in the order they arrived, own stones in
/// colour `me`. The last stone placed must be the opponent's, so that `me`
/// is to move: if the order ends with an own stone, the last opponent stone
/// is moved to the end (the colours, not the order, decide a position).
pub(super) fn build_board(p: &Position, rules: Rules, me: Color) -> Result<Board, String> {
    let mut order = p.stones.clone();
    if order.last().is_some_and(|&(_, f)| f == OWN) {
        if let Some(i) = order.iter().rposition(|&(_, f)| f != OWN) {
            let s = order.remove(i);
            order.push(s);
        }
    }
    let mut board = Board::new(rules);
    for (m, f) in order {
        let color = if f == OWN { me } else { me.opponent() };
        match board.play_as(m, color) {
            Ok(None) => {}
            Ok(Some(o)) => return Err(format!("the game is already over ({o} at {})", m.to_xy())),
            Err(e) => return Err(format!("cannot set up the position ({e})")),
        }
    }
    Ok(board)
}
