//! Shapes: what a stone makes along one line, defined by threats so that
//! the same names mean the same thing for every k.
//!
//! A shape belongs to one player and one direction. With the stone on the
//! centre cell of a line window:
//! - [`Shape::Win`]: k in a row through it (exactly k under the exact rule);
//! - open (k−1), [`Shape::OpenIn1`]: two or more empty cells each complete a
//!   win through it;
//! - closed (k−1), [`Shape::ClosedIn1`]: exactly one empty cell does;
//! - open/closed (k−2), [`Shape::OpenIn2`]/[`Shape::ClosedIn2`]: one more
//!   stone makes an open/closed (k−1) (open wins);
//! - open/closed (k−3), [`Shape::OpenIn3`]/[`Shape::ClosedIn3`]: one more
//!   stone makes an open/closed (k−2), k ≥ 4 only.
//!
//! Classification looks only at the window of `r` cells each side of the
//! centre (`r = k−1`, or `k` under the exact rule to see overlines). A window
//! is encoded as a *line code*: 2 bits per cell, centre excluded, nearest
//! cells in the middle: a [`Cell`](crate::game::Cell)'s code (0 empty, 1
//! black, 2 white), or 3 off the board. A *view* is the same code from one
//! player's side: 0 empty, 1 own, 3 blocked.

use crate::game::Rule;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

/// One of the eight shape classes a stone makes along one line, from the
/// side of the player who owns it. The number in a name is the moves still
/// needed to win ([`Shape::level`]); [`Shape::name`] gives the usual name,
/// which counts stones instead (`OpenIn1` is an open four when k = 5).
///
/// The examples are k = 5 freestyle lines through the stone `*` (`X` own
/// stones, `.` empty, `O` the opponent or the board's edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Shape {
    /// No threat along this line (index 0, which carries no weight):
    /// `O*X..O`.
    None = 0,
    /// k in a row through the stone (exactly k under the exact rule):
    /// `XX*XX`, a five.
    Win = 1,
    /// Two or more empty cells each complete a win, so it cannot be
    /// stopped: `.*XXX.`, an open four.
    OpenIn1 = 2,
    /// Exactly one empty cell completes a win: `O*XXX.` or `*X.XX`, a
    /// closed four.
    ClosedIn1 = 3,
    /// One more stone makes an [`OpenIn1`](Shape::OpenIn1): `..*XX..`, an
    /// open three.
    OpenIn2 = 4,
    /// One more stone makes a [`ClosedIn1`](Shape::ClosedIn1) but none makes
    /// an open one: `O*XX..O`, a closed three.
    ClosedIn2 = 5,
    /// One more stone makes an [`OpenIn2`](Shape::OpenIn2) (k ≥ 4 only):
    /// `...*X...`, an open two.
    OpenIn3 = 6,
    /// One more stone makes a [`ClosedIn2`](Shape::ClosedIn2) but none makes
    /// an open one (k ≥ 4 only): `O*X...O`, a closed two.
    ClosedIn3 = 7,
}

/// How many shapes carry weights: every [`Shape`] but [`Shape::None`].
pub const WEIGHTED: usize = Shape::NUM - 1;

/// The shapes that carry weights, strongest first: `SHAPES[i]` is
/// `Shape::ALL[i + 1]`, and `Weights::own[i]` is its weight.
pub const SHAPES: [Shape; WEIGHTED] = {
    let mut shapes = [Shape::None; WEIGHTED];
    let mut i = 0;
    while i < WEIGHTED {
        shapes[i] = Shape::ALL[i + 1];
        i += 1;
    }
    shapes
};

impl Shape {
    /// How many shape classes there are, [`Shape::None`] included.
    pub const NUM: usize = 8;

    /// Every shape, indexed by its `u8` value: `Shape::ALL[s as usize] == s`.
    pub const ALL: [Shape; Shape::NUM] = [
        Shape::None,
        Shape::Win,
        Shape::OpenIn1,
        Shape::ClosedIn1,
        Shape::OpenIn2,
        Shape::ClosedIn2,
        Shape::OpenIn3,
        Shape::ClosedIn3,
    ];

    /// How many shapes carry weights for this k: those a stone can still
    /// make, i.e. needing fewer than k moves (5 for k = 3, else 7).
    pub fn count(k: u8) -> usize {
        SHAPES.iter().filter(|s| s.level() < k).count()
    }

    /// Moves still needed to win: 0 for a win, 1 for (k−1) shapes, ...
    pub fn level(self) -> u8 {
        (self as u8) / 2
    }

    /// The number of stones a canonical instance of this shape holds:
    /// k for a win, k−1 for (k−1) shapes, and so on.
    pub fn stones(self, k: u8) -> u8 {
        k - self.level()
    }

    /// The readable name for a given k: `win`, `open4`, `closed4`, ... for
    /// k = 5; by stone count for other k.
    ///
    /// ```
    /// use mnk_core::eval::Shape;
    /// assert_eq!(Shape::OpenIn1.name(5), "open4");
    /// assert_eq!(Shape::ClosedIn3.name(5), "closed2");
    /// assert_eq!(Shape::OpenIn2.name(3), "open1");
    /// ```
    pub fn name(self, k: u8) -> String {
        match self {
            Shape::None => "none".into(),
            Shape::Win => "win".into(),
            s => {
                let kind = if (s as u8).is_multiple_of(2) {
                    "open"
                } else {
                    "closed"
                };
                format!("{kind}{}", s.stones(k))
            }
        }
    }

    /// Parses a name given by [`Shape::name`] for this k.
    pub fn from_name(name: &str, k: u8) -> Option<Shape> {
        SHAPES[..Shape::count(k)]
            .iter()
            .copied()
            .find(|s| s.name(k) == name)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// The window radius for a game: k−1 cells each side, or k under the exact
/// rule (one more to see whether a run would become an overline).
pub fn radius(k: u8, rule: Rule) -> usize {
    match rule {
        Rule::Freestyle => k as usize - 1,
        Rule::Exact => k as usize,
    }
}

/// The bit position (in 2-bit units) of the cell at `offset` from the
/// centre (offset ≠ 0, |offset| ≤ r).
#[inline]
pub fn position(offset: i32, r: usize) -> usize {
    if offset < 0 {
        (offset + r as i32) as usize
    } else {
        (offset + r as i32 - 1) as usize
    }
}

/// The view of a line code for black (own = black, white or edge blocks).
#[inline]
pub fn view_black(code: u128) -> u128 {
    let lo = code & 0x5555_5555_5555_5555_5555_5555_5555_5555;
    let hi = (code >> 1) & 0x5555_5555_5555_5555_5555_5555_5555_5555;
    (lo | hi) | (hi << 1)
}

/// The view of a line code for white.
#[inline]
pub fn view_white(code: u128) -> u128 {
    let lo = code & 0x5555_5555_5555_5555_5555_5555_5555_5555;
    let hi = (code >> 1) & 0x5555_5555_5555_5555_5555_5555_5555_5555;
    (lo | hi) | (lo << 1)
}

/// Classifies views with memoisation. Each view's class is derived from the
/// classes of views with one more own stone, so a full table costs one pass.
#[derive(Clone, Debug)]
pub struct Classifier {
    k: u8,
    rule: Rule,
    r: usize,
    memo: Memo,
    /// With a flat memo, per view, its win cells and the most win cells
    /// one more own stone gives it (each [`UNKNOWN`] until found): a
    /// view's shape reads them for the views with one and two more own
    /// stones, which most views share. Remembering them (and listing a
    /// view's empty cells without a `Vec`) made the flat table of k = 5,
    /// built by every process that plays gomoku, take 9.6M instructions
    /// instead of 30.7M (cachegrind). Empty with a hash memo.
    ahead: Vec<[u8; 2]>,
}

#[derive(Clone, Debug)]
enum Memo {
    /// Indexed by view code; 0xFF = not yet known.
    Dense(Vec<u8>),
    Sparse(HashMap<u128, u8>),
}

const UNKNOWN: u8 = 0xFF;

impl Classifier {
    /// A classifier for windows of radius `radius(k, rule)`. Memoises in a
    /// flat table when the window is at most 10 cells, else in a hash map.
    pub fn new(k: u8, rule: Rule) -> Classifier {
        let r = radius(k, rule);
        let (memo, ahead) = if fits_table(r) {
            let n = 1 << (4 * r);
            (Memo::Dense(vec![UNKNOWN; n]), vec![[UNKNOWN; 2]; n])
        } else {
            (Memo::Sparse(HashMap::new()), Vec::new())
        };
        Classifier {
            k,
            rule,
            r,
            memo,
            ahead,
        }
    }

    /// The window radius: cells each side of the centre.
    pub fn radius(&self) -> usize {
        self.r
    }

    /// The cell state (0 empty, 1 own, 3 blocked) at a window position.
    #[inline]
    fn digit(view: u128, pos: usize) -> u8 {
        ((view >> (2 * pos)) & 3) as u8
    }

    /// Whether the own stones make a win through the centre.
    fn wins(&self, view: u128) -> bool {
        let r = self.r as i32;
        let own = |o: i32| Self::digit(view, position(o, self.r)) == 1;
        let mut n = 1;
        let mut o = 1;
        while o <= r && own(o) {
            n += 1;
            o += 1;
        }
        o = -1;
        while o >= -r && own(o) {
            n += 1;
            o -= 1;
        }
        match self.rule {
            Rule::Freestyle => n >= self.k as i32,
            Rule::Exact => n == self.k as i32,
        }
    }

    /// Empty positions of the window.
    fn empties(&self, view: u128) -> impl Iterator<Item = usize> + use<> {
        // Not borrowing `self`: the memo is written while they are walked.
        (0..2 * self.r).filter(move |&p| Self::digit(view, p) == 0)
    }

    /// How many empty cells complete a win through the centre (capped at 2).
    fn win_cells(&self, view: u128) -> u8 {
        let mut n = 0;
        for p in self.empties(view) {
            if self.wins(view | (1 << (2 * p))) {
                n += 1;
                if n == 2 {
                    break;
                }
            }
        }
        n
    }

    /// [`Classifier::win_cells`], remembered by view with a flat memo.
    fn win_cells_of(&mut self, view: u128) -> u8 {
        match self.ahead.get(view as usize) {
            Some(&[n, _]) if n != UNKNOWN => n,
            _ => {
                let n = self.win_cells(view);
                if let Some(e) = self.ahead.get_mut(view as usize) {
                    e[0] = n;
                }
                n
            }
        }
    }

    /// The most win cells (capped at 2) one more own stone can give,
    /// remembered by view with a flat memo.
    fn best_win_cells_after_one(&mut self, view: u128) -> u8 {
        if let Some(&[_, best]) = self.ahead.get(view as usize) {
            if best != UNKNOWN {
                return best;
            }
        }
        let mut best = 0;
        for p in self.empties(view) {
            best = best.max(self.win_cells_of(view | (1 << (2 * p))));
            if best == 2 {
                break;
            }
        }
        if let Some(e) = self.ahead.get_mut(view as usize) {
            e[1] = best;
        }
        best
    }

    /// The shape an own stone on the centre makes in this view.
    pub fn classify(&mut self, view: u128) -> Shape {
        let known = match &self.memo {
            Memo::Dense(v) => v[view as usize],
            Memo::Sparse(m) => m.get(&view).copied().unwrap_or(UNKNOWN),
        };
        if known != UNKNOWN {
            return Shape::ALL[known as usize];
        }
        let s = self.compute(view);
        match &mut self.memo {
            Memo::Dense(v) => v[view as usize] = s as u8,
            Memo::Sparse(m) => {
                m.insert(view, s as u8);
            }
        }
        s
    }

    fn compute(&mut self, view: u128) -> Shape {
        if self.wins(view) {
            return Shape::Win;
        }
        match self.win_cells_of(view) {
            2 => return Shape::OpenIn1,
            1 => return Shape::ClosedIn1,
            _ => {}
        }
        match self.best_win_cells_after_one(view) {
            2 => return Shape::OpenIn2,
            1 => return Shape::ClosedIn2,
            _ => {}
        }
        if self.k < 4 {
            return Shape::None;
        }
        // No single stone makes a (k−1) here, so none of the views below
        // wins or has a win cell: their (k−2) level is decided directly,
        // without classifying them in full (which would recurse through
        // every subset of the window for large k).
        let mut closed = false;
        for p in self.empties(view) {
            match self.best_win_cells_after_one(view | (1 << (2 * p))) {
                2 => return Shape::OpenIn3,
                1 => closed = true,
                _ => {}
            }
        }
        if closed {
            Shape::ClosedIn3
        } else {
            Shape::None
        }
    }

    /// Both players' shapes for a stone on the centre of a line code:
    /// `[black's, white's]` as shape indices.
    #[inline]
    pub fn pair(&mut self, code: u128) -> [u8; 2] {
        [
            self.classify(view_black(code)) as u8,
            self.classify(view_white(code)) as u8,
        ]
    }
}

/// Windows of at most this many cells get a flat table of every line code;
/// larger ones (k ≥ 7, or k ≥ 6 under the exact rule) would need 4^12 entries
/// or more, so they are classified on demand and memoised.
const TABLE_CELLS: usize = 10;

/// Whether windows of radius `r` get a flat table.
fn fits_table(r: usize) -> bool {
    2 * r <= TABLE_CELLS
}

/// A `[black's, white's]` shape pair as one byte, `2 × (black × 8 +
/// white)`: the unit the line tables store. Doubled, so that it is the
/// offset in `f64`s of the pair's entry in a table of `[f64; 2]`, which the
/// processor scales by 8 in the load itself (a table of 16-byte entries
/// would need a shift per lookup, four per changed cell).
pub(crate) type PairIndex = u8;

/// A cell's four [`PairIndex`]es, by direction. A direction's update is
/// one byte store, and readers read bytes, never the whole word (a load
/// of the word right after a byte store into it would stall on store
/// forwarding, once per changed cell).
pub(crate) type Pairs = [PairIndex; 4];

/// The pair index of black's and white's shapes.
#[inline(always)]
pub(crate) const fn pair_index(black: u8, white: u8) -> PairIndex {
    (black * Shape::NUM as u8 + white) << 1
}

/// The shape of `color` (0 black, 1 white) in a pair index.
#[inline(always)]
pub(crate) const fn pair_shape(pair: PairIndex, color: usize) -> u8 {
    let p = pair >> 1;
    if color == 0 {
        p / Shape::NUM as u8
    } else {
        p % Shape::NUM as u8
    }
}

/// Turns a line code into both players' shapes: the shared flat table of
/// every code for small windows, a memoising [`Classifier`] for large ones.
#[derive(Clone, Debug)]
pub(crate) enum LineClassifier {
    /// The [`PairIndex`] by line code, shared by every board of the same k
    /// and rule (one byte a code, so the k = 5 table is 1 MiB).
    Dense(Arc<Vec<PairIndex>>),
    /// Classifies codes as they come and remembers them.
    Sparse(Box<Classifier>),
}

impl LineClassifier {
    /// The classifier for windows of `radius(k, rule)`.
    pub fn new(k: u8, rule: Rule) -> LineClassifier {
        if fits_table(radius(k, rule)) {
            LineClassifier::Dense(shared_dense(k, rule))
        } else {
            LineClassifier::Sparse(Box::new(Classifier::new(k, rule)))
        }
    }

    /// Both players' shapes for a line code held as (low, high) 64-bit
    /// words; a flat table needs the low word only.
    #[inline(always)]
    pub fn classify(&mut self, code: [u64; 2]) -> PairIndex {
        match self {
            LineClassifier::Dense(table) => table[code[0] as usize],
            LineClassifier::Sparse(c) => {
                let [b, w] = c.pair(code_key(code));
                pair_index(b, w)
            }
        }
    }
}

/// A line code's two words as the one number the memo is keyed by.
#[inline]
fn code_key(code: [u64; 2]) -> u128 {
    (code[1] as u128) << 64 | code[0] as u128
}

/// The flat code → `[black shape, white shape]` table for small windows.
pub(crate) fn dense_table(k: u8, rule: Rule) -> Vec<PairIndex> {
    let mut c = Classifier::new(k, rule);
    let n = 1usize << (4 * c.radius());
    (0..n as u128)
        .map(|code| {
            let [b, w] = c.pair(code);
            pair_index(b, w)
        })
        .collect()
}

/// Dense shape tables are shared by every board of the same k and rule.
fn shared_dense(k: u8, rule: Rule) -> Arc<Vec<PairIndex>> {
    type Tables = HashMap<(u8, Rule), Arc<Vec<PairIndex>>>;
    static CACHE: OnceLock<Mutex<Tables>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
    guard
        .entry((k, rule))
        .or_insert_with(|| Arc::new(dense_table(k, rule)))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flat tables classify every line code as the classifier does
    /// without its lookahead memo (`Classifier::ahead` empty: every win
    /// cell counted afresh, as before the memo), on every game whose
    /// windows are at most 8 cells.
    #[test]
    fn remembered_lookahead_changes_no_shape() {
        let games = [3, 4, 5].map(|k| (k, Rule::Freestyle)).into_iter();
        for (k, rule) in games.chain([3, 4].map(|k| (k, Rule::Exact))) {
            let table = dense_table(k, rule);
            let mut plain = Classifier::new(k, rule);
            plain.ahead = Vec::new();
            for (code, &pair) in table.iter().enumerate() {
                let [b, w] = plain.pair(code as u128);
                assert_eq!(pair, pair_index(b, w), "k {k} {rule}: code {code:#x}");
            }
        }
    }
}
