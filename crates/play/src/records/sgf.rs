//! SGF (`GM[4]`) game records (see the module docs of [`crate::records`]).

use super::{result_conflict, Record};
use crate::game::{Board, Color, Move, Outcome, Rule, Rules, RulesError};
use std::fmt::Write as _;
use std::ops::Range;

/// An error in an SGF file: where it is and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset} (line {line}), game {game}: {kind}")]
pub struct SgfError {
    /// The 0-based byte offset in the file.
    pub offset: usize,
    /// The 1-based line of that offset.
    pub line: usize,
    /// The 1-based number of the game (game tree) in the collection.
    pub game: usize,
    /// What is wrong there.
    pub kind: SgfErrorKind,
}

/// What is wrong at a place in an SGF file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfErrorKind {
    /// A syntax error.
    #[error("expected {expected}, found {found}")]
    Syntax {
        /// What the grammar allows here.
        expected: String,
        /// What is there (a character or `end of file`).
        found: String,
    },
    /// A `GM` other than 4.
    #[error("GM[{0}] is not a gomoku game: expected GM[4]")]
    NotGomoku(String),
    /// A bad `SZ` value.
    #[error("bad board size SZ[{value}]: {reason}")]
    BadSize {
        /// The value.
        value: String,
        /// Why it was refused.
        reason: String,
    },
    /// A bad `MNK` value.
    #[error("bad game MNK[{value}]: {reason}")]
    BadRules {
        /// The value.
        value: String,
        /// Why it does not parse.
        reason: RulesError,
    },
    /// `SZ` and `MNK` name different boards.
    #[error("SZ[{sz}] does not match MNK[{mnk}]: expected the same board size")]
    SizeMismatch {
        /// The `SZ` value.
        sz: String,
        /// The `MNK` value.
        mnk: String,
    },
    /// A move value that is not two letters.
    #[error("bad move {prop}[{value}]: expected two letters from `a`, column then row")]
    BadCoordinate {
        /// `B` or `W`.
        prop: String,
        /// The value.
        value: String,
    },
    /// A move by the side not to move.
    #[error(
        "move {ply} is by {found}: expected a {expected} move (black first, then alternating)"
    )]
    WrongColor {
        /// The 1-based move number.
        ply: usize,
        /// Whose turn it was.
        expected: Color,
        /// Who moved.
        found: Color,
    },
    /// A move off the board.
    #[error("move {ply} ({mv}) is off the {width}x{height} board")]
    OffBoard {
        /// The 1-based move number.
        ply: usize,
        /// The move.
        mv: Move,
        /// The board's width.
        width: u8,
        /// The board's height.
        height: u8,
    },
    /// A move on an occupied cell.
    #[error(
        "move {ply} ({mv}) is on a cell already taken by move {earlier}: expected an empty cell"
    )]
    Occupied {
        /// The 1-based move number.
        ply: usize,
        /// The move.
        mv: Move,
        /// The move that took the cell.
        earlier: usize,
    },
    /// A move after the game was already decided.
    #[error("move {ply} ({mv}) comes after the game was over ({outcome} at move {ended}): expected the end of the game")]
    AfterEnd {
        /// The 1-based move number.
        ply: usize,
        /// The move.
        mv: Move,
        /// How the game had ended.
        outcome: Outcome,
        /// The move that ended it.
        ended: usize,
    },
    /// An `RE` value that is not a result.
    #[error("bad result RE[{0}]: expected B+, W+, Draw or ?")]
    BadResult(String),
    /// An `RE` that contradicts the board.
    #[error("RE says {stated} but the board shows {actual}")]
    ResultMismatch {
        /// The stated result.
        stated: String,
        /// The outcome on the board.
        actual: String,
    },
    /// Set-up stones, which a record cannot hold.
    #[error("set-up property {0} is not supported: expected a game from the empty board")]
    Setup(String),
}

/// Reads every game of an SGF collection held in `text`. A game without
/// `MNK` takes its size from `SZ` and the rest from `default_rules`.
///
/// ```
/// use mnk::game::Rules;
/// let games = mnk::records::parse_sgf("(;GM[4]SZ[15]PB[a]PW[b];B[hh];W[hi])", Rules::GOMOKU).unwrap();
/// assert_eq!(games[0].moves.len(), 2);
/// assert_eq!(games[0].result, None);
/// ```
pub fn parse_sgf(text: &str, default_rules: Rules) -> Result<Vec<Record>, SgfError> {
    parse_trees(text)?
        .into_iter()
        .enumerate()
        .map(|(i, tree)| build(text, i + 1, &tree, default_rules))
        .collect()
}

/// The byte spans of the game trees in `text`, contiguous: each runs from
/// the end of the previous one to the end of the line holding its closing
/// `)`. Only the syntax is checked.
pub(crate) fn game_spans(text: &str) -> Result<Vec<Range<usize>>, SgfError> {
    Ok(parse_trees(text)?.into_iter().map(|t| t.span).collect())
}

/// Writes one game tree.
pub(crate) fn write_record(r: &Record) -> String {
    let rules = &r.rules;
    let mut s = String::with_capacity(120 + 6 * r.moves.len());
    s.push_str("(;GM[4]FF[4]CA[UTF-8]");
    let _ = write!(s, "AP[mnk:{}]", env!("CARGO_PKG_VERSION"));
    if rules.is_square() {
        let _ = write!(s, "SZ[{}]", rules.width);
    } else {
        let _ = write!(s, "SZ[{}:{}]", rules.width, rules.height);
    }
    let _ = write!(s, "MNK[{}]", mnk_value(rules));
    if !r.black.is_empty() {
        let _ = write!(s, "PB[{}]", escape(&r.black));
    }
    if !r.white.is_empty() {
        let _ = write!(s, "PW[{}]", escape(&r.white));
    }
    s.push_str(match r.result {
        Some(Outcome::Win(Color::Black)) => "RE[B+]",
        Some(Outcome::Win(Color::White)) => "RE[W+]",
        Some(Outcome::Draw) => "RE[Draw]",
        None => "RE[?]",
    });
    if let Some(d) = &r.date {
        let _ = write!(s, "DT[{}]", escape(d));
    }
    for (i, m) in r.moves.iter().enumerate() {
        if i.is_multiple_of(12) {
            s.push('\n');
        }
        let c = if i.is_multiple_of(2) { 'B' } else { 'W' };
        let _ = write!(s, ";{c}[{}{}]", (b'a' + m.x) as char, (b'a' + m.y) as char);
    }
    s.push_str(")\n");
    s
}

/// The `MNK` value: always the explicit `WxHxK[-exact]` form.
fn mnk_value(rules: &Rules) -> String {
    let mut v = format!("{}x{}x{}", rules.width, rules.height, rules.k);
    if rules.rule == Rule::Exact {
        v.push_str("-exact");
    }
    v
}

/// Escapes `\` and `]` in a text value.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One property: identifier, its offset, and its values with their offsets
/// (the offset of each value's `[`).
struct Prop {
    ident: String,
    offset: usize,
    values: Vec<(String, usize)>,
}

/// A parsed game tree: its span and the nodes of its main line.
struct Tree {
    span: Range<usize>,
    nodes: Vec<Vec<Prop>>,
}

/// The 1-based line holding byte `offset`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn error(text: &str, offset: usize, game: usize, kind: SgfErrorKind) -> SgfError {
    SgfError {
        offset,
        line: line_of(text, offset),
        game,
        kind,
    }
}

/// A description of what is at `i`, for syntax errors.
fn found_at(text: &str, i: usize) -> String {
    match text.get(i..).and_then(|r| r.chars().next()) {
        Some(c) => format!("{c:?}"),
        None => "end of file".to_string(),
    }
}

/// Where the parser is in the text, and in which game, for its errors.
struct Scanner<'t> {
    text: &'t str,
    /// The next byte to read.
    i: usize,
    /// The 1-based number of the game tree being read.
    game: usize,
}

impl Scanner<'_> {
    /// The byte at the cursor, if any.
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    /// A syntax error at byte `at`: what was `expected` there, and what is
    /// there.
    fn syntax_at(&self, at: usize, expected: &str) -> SgfError {
        error(
            self.text,
            at,
            self.game,
            SgfErrorKind::Syntax {
                expected: expected.to_string(),
                found: found_at(self.text, at),
            },
        )
    }

    /// A syntax error at the cursor.
    fn syntax(&self, expected: &str) -> SgfError {
        self.syntax_at(self.i, expected)
    }

    /// Reads one game tree, from after its `(` to after its closing `)`,
    /// and returns the nodes of its main line. Iterative (a stack of open
    /// variations), so that deeply nested variations cannot overflow the
    /// stack.
    fn tree(&mut self) -> Result<Vec<Vec<Prop>>, SgfError> {
        struct Level {
            main: bool,
            nodes: usize,
            children: usize,
        }
        let mut stack = vec![Level {
            main: true,
            nodes: 0,
            children: 0,
        }];
        let mut nodes: Vec<Vec<Prop>> = Vec::new();
        while !stack.is_empty() {
            self.skip_ws();
            let Some(c) = self.peek() else {
                return Err(self.syntax("`)` closing the game tree"));
            };
            let top = stack.last_mut().expect("stack is not empty");
            match c {
                b';' => {
                    if top.children > 0 {
                        return Err(self.syntax("`(` or `)`: no node may follow variations"));
                    }
                    top.nodes += 1;
                    let main = top.main;
                    self.i += 1;
                    let props = self.node()?;
                    if main {
                        nodes.push(props);
                    }
                }
                b'(' => {
                    if top.nodes == 0 {
                        return Err(self.syntax("`;` starting a node"));
                    }
                    let main = top.main && top.children == 0;
                    top.children += 1;
                    stack.push(Level {
                        main,
                        nodes: 0,
                        children: 0,
                    });
                    self.i += 1;
                }
                b')' => {
                    if top.nodes == 0 {
                        return Err(self.syntax("`;` starting a node"));
                    }
                    stack.pop();
                    self.i += 1;
                }
                _ => return Err(self.syntax("a property, `;`, `(` or `)`")),
            }
        }
        Ok(nodes)
    }

    /// Reads the properties of a node, after its `;`.
    fn node(&mut self) -> Result<Vec<Prop>, SgfError> {
        let text = self.text;
        let mut props = Vec::new();
        loop {
            self.skip_ws();
            if !self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                return Ok(props);
            }
            let offset = self.i;
            while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                self.i += 1;
            }
            let name = &text[offset..self.i];
            // FF[3] allowed lower-case letters in identifiers; only the
            // capitals count.
            let ident: String = name.chars().filter(|c| c.is_ascii_uppercase()).collect();
            let values = self.values(name)?;
            props.push(Prop {
                ident,
                offset,
                values,
            });
        }
    }

    /// Reads the values (one or more `[...]`) of the property `name`, each
    /// unescaped, with the offset of its `[`.
    fn values(&mut self, name: &str) -> Result<Vec<(String, usize)>, SgfError> {
        let text = self.text;
        let b = text.as_bytes();
        let mut values = Vec::new();
        loop {
            self.skip_ws();
            if self.peek() != Some(b'[') {
                break;
            }
            let open = self.i;
            self.i += 1;
            let vstart = self.i;
            while self.i < b.len() && b[self.i] != b']' {
                self.i += if b[self.i] == b'\\' { 2 } else { 1 };
            }
            if self.i >= b.len() {
                return Err(self.syntax_at(
                    b.len(),
                    &format!("`]` closing the value of {name} opened at byte {open}"),
                ));
            }
            values.push((unescape(&text[vstart..self.i]), open));
            self.i += 1;
        }
        if values.is_empty() {
            return Err(self.syntax(&format!("`[` starting a value of property {name}")));
        }
        Ok(values)
    }

    /// Moves past the rest of the line after a tree's `)` (spaces, tabs and
    /// the line break): a tree's span runs to the end of that line.
    fn past_line_end(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.i += 1;
        }
        if self.peek() == Some(b'\n') {
            self.i += 1;
        }
    }
}

/// Parses the collection into trees (main lines only).
fn parse_trees(text: &str) -> Result<Vec<Tree>, SgfError> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut s = Scanner {
        text,
        i: start,
        game: 1,
    };
    let mut trees = Vec::new();
    let mut prev_end = start;
    loop {
        s.skip_ws();
        let Some(c) = s.peek() else {
            break;
        };
        s.game = trees.len() + 1;
        if c != b'(' {
            return Err(s.syntax("`(` starting a game, or the end of the file"));
        }
        s.i += 1;
        let nodes = s.tree()?;
        s.past_line_end();
        trees.push(Tree {
            span: prev_end..s.i,
            nodes,
        });
        prev_end = s.i;
    }
    Ok(trees)
}

/// Resolves the escapes of a value: `\` keeps the next character, and a
/// `\` before a line break removes both (a soft line break).
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\n') => {
                chars.next_if_eq(&'\r');
            }
            Some('\r') => {
                chars.next_if_eq(&'\n');
            }
            Some(n) => out.push(n),
            None => {}
        }
    }
    out
}

/// A SimpleText value: line breaks and tabs (the SGF format's ASCII
/// white space) become spaces. Other Unicode spaces, such as the no-break
/// space in a name, are kept as written.
fn simple_text(s: &str) -> String {
    s.chars()
        .map(|c| {
            if matches!(c, '\t' | '\n' | '\r' | '\x0b' | '\x0c') {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// The text and number of the game being built, to place its errors.
struct GameAt<'t> {
    text: &'t str,
    number: usize,
}

impl GameAt<'_> {
    fn fail(&self, offset: usize, kind: SgfErrorKind) -> SgfError {
        error(self.text, offset, self.number, kind)
    }
}

/// The first value of the root property `id`, trimmed, with the offset of
/// the value's first byte.
fn root_value(root: &[Prop], id: &str) -> Option<(String, usize)> {
    root.iter()
        .find(|p| p.ident == id)
        .map(|p| (p.values[0].0.trim().to_string(), p.values[0].1 + 1))
}

/// A board size read from `SZ`, with its value and offset for errors.
struct Size {
    width: u32,
    height: u32,
    value: String,
    at: usize,
}

/// Interprets a parsed tree as a record, checking every move.
fn build(text: &str, game: usize, tree: &Tree, default_rules: Rules) -> Result<Record, SgfError> {
    let game = GameAt { text, number: game };
    let root = &tree.nodes[0];
    let rules = game_rules(&game, root, default_rules)?;
    let (board, moves) = main_line(&game, tree, rules)?;
    let result = stated_result(&game, root, &board)?;
    let text_prop = |id: &str| {
        root.iter()
            .find(|p| p.ident == id)
            .map(|p| simple_text(&p.values[0].0))
    };
    Ok(Record {
        rules,
        moves,
        result,
        black: text_prop("PB").unwrap_or_default(),
        white: text_prop("PW").unwrap_or_default(),
        date: text_prop("DT"),
    })
}

/// The game from the root's `GM` (which must be 4), `SZ` and `MNK`; what
/// they leave open comes from `default_rules`.
fn game_rules(game: &GameAt, root: &[Prop], default_rules: Rules) -> Result<Rules, SgfError> {
    if let Some((gm, at)) = root_value(root, "GM") {
        if gm != "4" {
            return Err(game.fail(at, SgfErrorKind::NotGomoku(gm)));
        }
    }
    let size = board_size(game, root)?;
    let rules = match (root_value(root, "MNK"), size) {
        (Some((mnk, at)), size) => {
            let rules: Rules = mnk.parse().map_err(|reason| {
                game.fail(
                    at,
                    SgfErrorKind::BadRules {
                        value: mnk.clone(),
                        reason,
                    },
                )
            })?;
            if let Some(sz) = size {
                if (sz.width, sz.height) != (rules.width as u32, rules.height as u32) {
                    return Err(game.fail(sz.at, SgfErrorKind::SizeMismatch { sz: sz.value, mnk }));
                }
            }
            rules
        }
        (None, Some(sz)) => {
            if (sz.width, sz.height) == (default_rules.width as u32, default_rules.height as u32) {
                default_rules
            } else {
                Rules::new(sz.width, sz.height, default_rules.k as u32, default_rules.rule).map_err(|e| {
                    game.fail(
                        sz.at,
                        SgfErrorKind::BadSize {
                            value: sz.value.clone(),
                            reason: format!(
                                "{e} (k from the default game {default_rules}); expected an MNK[WxHxK] property giving k"
                            ),
                        },
                    )
                })?
            }
        }
        (None, None) => default_rules,
    };
    Ok(rules)
}

/// The board size of the root's `SZ` (`SZ[n]` or `SZ[columns:rows]`), if
/// it has one.
fn board_size(game: &GameAt, root: &[Prop]) -> Result<Option<Size>, SgfError> {
    let Some((sz, at)) = root_value(root, "SZ") else {
        return Ok(None);
    };
    let bad = |reason: String| {
        game.fail(
            at,
            SgfErrorKind::BadSize {
                value: sz.clone(),
                reason,
            },
        )
    };
    let (w, h) = match sz.split_once(':') {
        Some((w, h)) => (w.trim(), h.trim()),
        None => (sz.as_str(), sz.as_str()),
    };
    let (width, height) = match (w.parse::<u32>(), h.parse::<u32>()) {
        (Ok(w), Ok(h)) => (w, h),
        _ => return Err(bad("expected SZ[n] or SZ[columns:rows]".to_string())),
    };
    for side in [width, height] {
        if !(crate::game::MIN_SIDE as u32..=crate::game::MAX_SIDE as u32).contains(&side) {
            return Err(bad(RulesError::BadSide(side).to_string()));
        }
    }
    Ok(Some(Size {
        width,
        height,
        value: sz,
        at,
    }))
}

/// Plays the `B` and `W` moves of the main line on a board of `rules`,
/// checking each; returns the final position and the moves.
fn main_line(game: &GameAt, tree: &Tree, rules: Rules) -> Result<(Board, Vec<Move>), SgfError> {
    let mut board = Board::new(rules);
    // The 1-based move that took each cell, 0 for none.
    let mut taken = vec![0usize; rules.cells()];
    let mut moves = Vec::new();
    for prop in tree.nodes.iter().flatten() {
        let color = match prop.ident.as_str() {
            "B" => Color::Black,
            "W" => Color::White,
            "AB" | "AW" | "AE" => {
                return Err(game.fail(prop.offset, SgfErrorKind::Setup(prop.ident.clone())))
            }
            _ => continue,
        };
        let ply = moves.len() + 1;
        let expected = Color::to_move_at(moves.len());
        if color != expected {
            return Err(game.fail(
                prop.offset,
                SgfErrorKind::WrongColor {
                    ply,
                    expected,
                    found: color,
                },
            ));
        }
        let (mv, at) = move_value(game, prop)?;
        if let Some(outcome) = board.outcome() {
            return Err(game.fail(
                at,
                SgfErrorKind::AfterEnd {
                    ply,
                    mv,
                    outcome,
                    ended: moves.len(),
                },
            ));
        }
        if !rules.contains(mv) {
            return Err(game.fail(
                at,
                SgfErrorKind::OffBoard {
                    ply,
                    mv,
                    width: rules.width,
                    height: rules.height,
                },
            ));
        }
        let cell = rules.index(mv);
        if taken[cell] != 0 {
            return Err(game.fail(
                at,
                SgfErrorKind::Occupied {
                    ply,
                    mv,
                    earlier: taken[cell],
                },
            ));
        }
        taken[cell] = ply;
        board.play_unchecked(mv);
        moves.push(mv);
    }
    Ok((board, moves))
}

/// The move of a `B` or `W` property (a single value of two letters), with
/// the offset of the value's first byte.
fn move_value(game: &GameAt, prop: &Prop) -> Result<(Move, usize), SgfError> {
    let (value, at) = (&prop.values[0].0, prop.values[0].1 + 1);
    let v = value.trim().as_bytes();
    if prop.values.len() != 1 || v.len() != 2 || !v.iter().all(u8::is_ascii_lowercase) {
        return Err(game.fail(
            at,
            SgfErrorKind::BadCoordinate {
                prop: prop.ident.clone(),
                value: value.clone(),
            },
        ));
    }
    Ok((Move::new(v[0] - b'a', v[1] - b'a'), at))
}

/// The result: the root's `RE`, which must agree with the final `board`,
/// or without `RE` what the board shows.
fn stated_result(game: &GameAt, root: &[Prop], board: &Board) -> Result<Option<Outcome>, SgfError> {
    let Some((re, at)) = root_value(root, "RE") else {
        return Ok(board.outcome());
    };
    let stated = if re.starts_with("B+") {
        Some(Outcome::Win(Color::Black))
    } else if re.starts_with("W+") {
        Some(Outcome::Win(Color::White))
    } else if re == "0" || re.eq_ignore_ascii_case("draw") {
        Some(Outcome::Draw)
    } else if re.is_empty() || re == "?" || re.eq_ignore_ascii_case("void") {
        None
    } else {
        return Err(game.fail(at, SgfErrorKind::BadResult(re)));
    };
    if let Some((stated, actual)) = result_conflict(stated, board.outcome()) {
        return Err(game.fail(at, SgfErrorKind::ResultMismatch { stated, actual }));
    }
    Ok(stated)
}
