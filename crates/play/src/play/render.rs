//! Drawing boards and messages as text, with or without ANSI colour.
//!
//! Everything here returns a `String`; nothing writes to the terminal, so
//! the drawing is tested like any other function.
//!
//! A board is drawn with column letters (from `a`) and row numbers (from 1)
//! counted from the top-left corner, the brief's coordinates. Black is `X`,
//! white `O`, an empty cell `.`. The last move is bracketed (`[X]`), the
//! stones of a winning line are parenthesised (`(X)`) and a hint is shown as
//! `*`. Those marks are plain characters, so they survive `NO_COLOR` and
//! pipes; colour, when on, only adds to them.

use crate::game::{Board, Color, Move, Outcome, Rule};

/// Whether to add ANSI colour to the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Add ANSI escape codes.
    pub color: bool,
}

const RESET: &str = "\x1b[0m";

impl Style {
    /// Plain text.
    pub const PLAIN: Style = Style { color: false };
    /// ANSI colour.
    pub const COLOR: Style = Style { color: true };

    /// Whether colour suits a terminal: `NO_COLOR` set to anything but the
    /// empty string, or `TERM=dumb`, turns it off (see <https://no-color.org>).
    pub fn auto(is_terminal: bool, no_color: Option<&str>, term: Option<&str>) -> Style {
        let no_color = no_color.is_some_and(|v| !v.is_empty());
        Style {
            color: is_terminal && !no_color && term != Some("dumb"),
        }
    }

    /// `text` wrapped in the SGR `codes` (such as `1;31`), or as it is.
    pub fn paint(&self, codes: &str, text: &str) -> String {
        if self.color && !text.is_empty() {
            format!("\x1b[{codes}m{text}{RESET}")
        } else {
            text.to_string()
        }
    }

    /// An error or refusal (red).
    pub fn error(&self, text: &str) -> String {
        self.paint("31", text)
    }

    /// Something that went well (green).
    pub fn good(&self, text: &str) -> String {
        self.paint("32", text)
    }

    /// Emphasis (bold).
    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }

    /// Secondary text (dim).
    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }

    /// The SGR codes of a colour's stones.
    fn stone_codes(color: Color) -> &'static str {
        match color {
            Color::Black => "1;31",
            Color::White => "1;36",
        }
    }

    /// A colour's glyph (`X` or `O`), in its colour.
    pub fn stone(&self, color: Color) -> String {
        self.paint(Self::stone_codes(color), &glyph(color).to_string())
    }
}

/// The letter a colour's stones are drawn with: `X` for black, `O` for
/// white.
pub fn glyph(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// What to point out on a board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The last move, bracketed (unless it is part of a winning line).
    pub last: Option<Move>,
    /// The stones of the winning line(s), parenthesised.
    pub win: Vec<Move>,
    /// A suggested move, drawn as `*` on its empty cell.
    pub hint: Option<Move>,
}

impl Marks {
    /// The last move and, if the game was won on the board, the winning
    /// line.
    pub fn of(board: &Board) -> Marks {
        Marks {
            last: board.last_move(),
            win: winning_line(board),
            hint: None,
        }
    }
}

/// The stones of the line(s) that won the game: every stone of each winning
/// run through the last move (a freestyle overline in full). Empty if the
/// game was not won on the board.
pub fn winning_line(board: &Board) -> Vec<Move> {
    let (Some(Outcome::Win(color)), Some(last)) = (board.outcome(), board.last_move()) else {
        return Vec::new();
    };
    let rules = *board.rules();
    let k = rules.k as u32;
    let (w, h) = (rules.width as i32, rules.height as i32);
    let mut out = vec![last];
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        let n = board.run_length(last, color, dx, dy);
        let wins = match rules.rule {
            Rule::Freestyle => n >= k,
            Rule::Exact => n == k,
        };
        if !wins {
            continue;
        }
        for sign in [1, -1] {
            let (mut x, mut y) = (last.x as i32 + sign * dx, last.y as i32 + sign * dy);
            while x >= 0 && x < w && y >= 0 && y < h {
                let m = Move::new(x as u8, y as u8);
                if board.at(m) != Some(color) {
                    break;
                }
                out.push(m);
                x += sign * dx;
                y += sign * dy;
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The column letter of a 0-based column.
fn column_letter(x: u8) -> char {
    (b'a' + x) as char
}

/// Draws `board` with coordinates and `marks`, one line per row, ending
/// with a newline.
///
/// Boards up to 19 columns wide get two spaces between cells, wider ones
/// one. Boards of 10 or more columns or rows repeat the letters below and
/// the numbers on the right.
///
/// ```
/// use mnk::game::{Board, Rules};
/// use mnk::play::{render_board, Marks, Style};
/// let mut b = Board::new(Rules::TICTACTOE);
/// b.play("b2".parse().unwrap()).unwrap();
/// let text = render_board(&b, &Marks::of(&b), Style::PLAIN);
/// assert_eq!(text, "    a  b  c\n 1  .  .  .\n 2  . [X] .\n 3  .  .  .\n");
/// ```
pub fn render_board(board: &Board, marks: &Marks, style: Style) -> String {
    let rules = *board.rules();
    let (width, height) = (rules.width, rules.height);
    let gap = if width <= 19 { 2 } else { 1 };
    let label = if height >= 10 { 2 } else { 1 };
    let framed = width >= 10 || height >= 10;
    // A mark in a one-character gap must not touch the row number.
    let margin = label + 1 + usize::from(gap == 1);
    let mut out = String::new();

    let letters = |out: &mut String| {
        out.push_str(&" ".repeat(margin));
        let mut s = String::new();
        for x in 0..width {
            s.push_str(&" ".repeat(gap));
            s.push(column_letter(x));
        }
        out.push_str(&style.dim(&s));
        out.push('\n');
    };

    letters(&mut out);
    for y in 0..height {
        out.push(' ');
        out.push_str(&style.dim(&format!("{:>label$}", y + 1)));
        out.push_str(&" ".repeat(margin - label - 1));
        // (left mark, right mark, mark codes) per cell.
        let cell_marks: Vec<Option<(char, char, &str)>> = (0..width)
            .map(|x| {
                let m = Move::new(x, y);
                if marks.win.contains(&m) {
                    Some(('(', ')', "1;32"))
                } else if marks.last == Some(m) {
                    Some(('[', ']', "1;33"))
                } else {
                    None
                }
            })
            .collect();
        for x in 0..=width as usize {
            let right_of_prev = x.checked_sub(1).and_then(|p| cell_marks[p]);
            let left_of_this = cell_marks.get(x).copied().flatten();
            if x == width as usize {
                // The gap after the last cell: only its right mark.
                match right_of_prev {
                    Some((_, r, codes)) => out.push_str(&style.paint(codes, &r.to_string())),
                    None if framed => out.push(' '),
                    None => {}
                }
                break;
            }
            let mut chars: Vec<String> = vec![" ".to_string(); gap];
            if gap == 1 {
                chars[0] = match (right_of_prev, left_of_this) {
                    (Some((_, ')', c)), Some(('(', _, _))) => style.paint(c, "-"),
                    (_, Some((l, _, c))) => style.paint(c, &l.to_string()),
                    (Some((_, r, c)), None) => style.paint(c, &r.to_string()),
                    (None, None) => " ".to_string(),
                };
            } else {
                if let Some((_, r, c)) = right_of_prev {
                    chars[0] = style.paint(c, &r.to_string());
                }
                if let Some((l, _, c)) = left_of_this {
                    chars[gap - 1] = style.paint(c, &l.to_string());
                }
            }
            out.push_str(&chars.concat());
            let m = Move::new(x as u8, y);
            let cell = match board.at(m) {
                Some(color) => {
                    let g = glyph(color).to_string();
                    if marks.win.contains(&m) {
                        style.paint("1;30;42", &g)
                    } else if marks.last == Some(m) {
                        style.paint(&format!("{};4", Style::stone_codes(color)), &g)
                    } else {
                        style.stone(color)
                    }
                }
                None if marks.hint == Some(m) => style.paint("1;32", "*"),
                None => style.dim("."),
            };
            out.push_str(&cell);
        }
        if framed {
            out.push(' ');
            out.push_str(&style.dim(&format!("{}", y + 1)));
        }
        out.push('\n');
    }
    if framed {
        letters(&mut out);
    }
    out
}

/// Removes ANSI escape sequences (`ESC [ … letter`), for measuring or
/// comparing coloured text.
pub fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            if chars.next() == Some('[') {
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    fn board(rules: Rules, moves: &[&str]) -> Board {
        let mut b = Board::new(rules);
        for m in moves {
            b.play(m.parse().unwrap()).unwrap();
        }
        b
    }

    #[test]
    fn tictactoe_win_is_marked() {
        let b = board(Rules::TICTACTOE, &["a1", "a2", "b2", "a3", "c3"]);
        assert_eq!(
            winning_line(&b),
            vec![Move::new(0, 0), Move::new(1, 1), Move::new(2, 2)]
        );
        let text = render_board(&b, &Marks::of(&b), Style::PLAIN);
        assert_eq!(
            text, "    a  b  c\n 1 (X) .  .\n 2  O (X) .\n 3  O  . (X)\n",
            "{text}"
        );
    }

    #[test]
    fn horizontal_line_on_a_wide_board_joins_marks() {
        let rules: Rules = "21x5x3".parse().unwrap();
        let b = board(rules, &["a1", "a2", "b1", "b2", "c1"]);
        let text = render_board(&b, &Marks::of(&b), Style::PLAIN);
        let first_row = text.lines().nth(1).unwrap();
        assert!(first_row.starts_with(" 1 (X-X-X). ."), "{first_row:?}");
    }

    #[test]
    fn labels_for_26_by_26() {
        let rules: Rules = "26x26x5".parse().unwrap();
        let b = board(rules, &["z26"]);
        let text = render_board(&b, &Marks::of(&b), Style::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 28);
        assert!(lines[0].trim_start().starts_with("a b c"));
        assert!(lines[0].trim_end().ends_with('z'));
        assert!(lines[26].starts_with(" 26  . ."), "{}", lines[26]);
        assert!(lines[26].ends_with("[X] 26"), "{}", lines[26]);
        assert!(lines[1].ends_with(".  1"), "{}", lines[1]);
    }

    #[test]
    fn rows_line_up_on_gomoku() {
        let b = board(Rules::GOMOKU, &["h8", "o15"]);
        let text = render_board(&b, &Marks::of(&b), Style::PLAIN);
        let widths: Vec<usize> = text
            .lines()
            .skip(1)
            .take(15)
            .map(|l| l.trim_end_matches(|c: char| c.is_ascii_digit()).len())
            .collect();
        assert!(widths.iter().all(|&w| w == widths[0]), "{text}");
        assert!(text.contains(" X "), "{text}");
        assert!(text.contains("[O] 15"), "{text}");
    }

    #[test]
    fn colour_adds_only_escapes() {
        let b = board(Rules::TICTACTOE, &["a1", "a2", "b2", "a3", "c3"]);
        let mut marks = Marks::of(&b);
        marks.hint = Some(Move::new(2, 0));
        let plain = render_board(&b, &marks, Style::PLAIN);
        let colour = render_board(&b, &marks, Style::COLOR);
        assert!(colour.contains('\x1b'));
        assert!(!plain.contains('\x1b'));
        assert_eq!(strip_ansi(&colour), plain);
    }

    #[test]
    fn auto_colour() {
        assert!(Style::auto(true, None, Some("xterm")).color);
        assert!(Style::auto(true, Some(""), None).color);
        assert!(!Style::auto(true, Some("1"), None).color);
        assert!(!Style::auto(false, None, None).color);
        assert!(!Style::auto(true, None, Some("dumb")).color);
    }
}
