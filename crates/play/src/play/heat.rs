//! Drawing a value map (one score per cell, such as `mnk eval`'s) as a
//! grid that fits a given width, with an optional heat colour.
//!
//! A gomoku map printed in full is over 100 columns wide, which wraps into
//! nonsense in an 80-column terminal. So the grid picks the first of three
//! layouts that fits:
//!
//! 1. [`Scale::Full`]: every score as a compact number (`12.3k`);
//! 2. [`Scale::Percent`]: scores scaled to 0–99 (two digits a cell);
//! 3. [`Scale::Digit`]: scores scaled to 0–9 (one digit a cell), which fits a
//!    26×26 board in 54 columns.
//!
//! Scaled scores are on a log scale, `floor(n × ln(1+s) / ln(1+best))`:
//! cell scores span several orders of magnitude (a four is worth thousands
//! of times a lone stone), and on a linear scale everything but the best
//! cells would read 0. Only a best cell reaches the top of the scale, and
//! best cells are marked `*` in every layout. Stones are `X` and `O`.
//!
//! Colour (when the [`Style`] asks for it) only adds ANSI escapes: a
//! 256-colour background from cold to hot by the scaled score, bold for the
//! best cells. The plain text is the same with or without it.

use super::render::{glyph, Style};
use crate::game::{Board, Move};

/// How the scores are written in the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Compact numbers (`compact` of the score).
    Full,
    /// 0–99 on a log scale, 99 only for the best cells.
    Percent,
    /// 0–9 on a log scale, 9 only for the best cells.
    Digit,
}

impl Scale {
    /// The top of the scale (`None` for full numbers).
    fn top(self) -> Option<f64> {
        match self {
            Scale::Full => None,
            Scale::Percent => Some(99.0),
            Scale::Digit => Some(9.0),
        }
    }

    /// A line saying how to read the grid.
    pub fn legend(self) -> &'static str {
        match self {
            Scale::Full => "* marks the best cells",
            Scale::Percent => "scores scaled 0-99 on a log scale (99 = best, marked *)",
            Scale::Digit => "scores scaled 0-9 on a log scale (9 = best, marked *)",
        }
    }
}

/// The board is too wide for the width asked for, even one digit a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a {columns}-column value map needs at least {needed} columns of text, and only {width} are available")]
pub struct TooNarrow {
    /// The board's columns.
    pub columns: usize,
    /// The narrowest layout's width in characters.
    pub needed: usize,
    /// The width asked for.
    pub width: usize,
}

/// A value map drawn as text.
#[derive(Clone, Debug, PartialEq)]
pub struct Heat {
    /// The layout chosen.
    pub scale: Scale,
    /// The grid, one line per row plus the column letters, each ending in
    /// a newline.
    pub text: String,
}

/// The scaled score of `s` against the best score, in `0..=top`; only a
/// score equal to `best` reaches `top`.
fn scaled(s: f64, best: f64, top: f64) -> u32 {
    // No positive best (or a NaN): nothing to scale against.
    if best.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || s.is_nan() || s <= 0.0 {
        return if s == best { top as u32 } else { 0 };
    }
    if s >= best {
        return top as u32;
    }
    let v = (top * s.ln_1p() / best.ln_1p()).floor();
    // Rounding must not lift a lesser score to the best's mark.
    v.clamp(0.0, top - 1.0) as u32
}

/// Draws `scores` (row-major, one per cell; occupied cells are shown as
/// their stones) over `board` in at most `width` characters a line, in the
/// first layout that fits. `compact` writes a score in full.
///
/// ```
/// use mnk::game::{Board, Rules};
/// use mnk::play::{render_heat, Scale, Style};
/// let b = Board::new(Rules::TICTACTOE);
/// let scores = [1.0, 0.0, 1.0, 0.0, 3.0, 0.0, 1.0, 0.0, 1.0];
/// let heat = render_heat(&b, &scores, 80, Style::PLAIN, |v| v.to_string()).unwrap();
/// assert_eq!(heat.scale, Scale::Full);
/// assert_eq!(heat.text, "   a  b  c\n1  1  0  1\n2  0 *3  0\n3  1  0  1\n");
/// ```
pub fn render_heat(
    board: &Board,
    scores: &[f64],
    width: usize,
    style: Style,
    compact: impl Fn(f64) -> String,
) -> Result<Heat, TooNarrow> {
    let rules = *board.rules();
    let (w, h) = (rules.width as usize, rules.height as usize);
    let label = h.to_string().len();
    let empty = |i: usize| board.cells()[i].is_empty();
    let best = (0..scores.len())
        .filter(|&i| empty(i))
        .map(|i| scores[i])
        .fold(f64::NEG_INFINITY, f64::max);
    let is_best = |i: usize| empty(i) && scores[i] == best;
    let full: Vec<String> = (0..w * h)
        .map(|i| {
            if !empty(i) {
                return String::new();
            }
            let star = if is_best(i) { "*" } else { "" };
            format!("{star}{}", compact(scores[i]))
        })
        .collect();
    let full_cell = full.iter().map(|s| s.len()).max().unwrap_or(1).max(1) + 1;
    let layouts = [
        (Scale::Full, full_cell),
        (Scale::Percent, 3),
        (Scale::Digit, 2),
    ];
    let Some(&(scale, cell)) = layouts.iter().find(|(_, c)| label + c * w <= width) else {
        return Err(TooNarrow {
            columns: w,
            needed: label + 2 * w,
            width,
        });
    };
    let mut text = String::new();
    text.push_str(&" ".repeat(label));
    let mut letters = String::new();
    for x in 0..w {
        letters.push_str(&format!("{:>cell$}", (b'a' + x as u8) as char));
    }
    text.push_str(&style.dim(&letters));
    text.push('\n');
    for y in 0..h {
        text.push_str(&style.dim(&format!("{:>label$}", y + 1)));
        for x in 0..w {
            let i = y * w + x;
            let m = Move::new(x as u8, y as u8);
            if let Some(color) = board.at(m) {
                text.push_str(&" ".repeat(cell - 1));
                text.push_str(&style.stone(color));
                debug_assert_eq!(glyph(color).len_utf8(), 1);
                continue;
            }
            let (body, level) = match scale.top() {
                None => (full[i].clone(), scaled(scores[i], best, 9.0)),
                Some(top) => {
                    let v = scaled(scores[i], best, top);
                    let star = if is_best(i) { "*" } else { "" };
                    (format!("{star}{v}"), scaled(scores[i], best, 9.0))
                }
            };
            let padded = format!("{body:>cell$}");
            // The gap before the number stays uncoloured, so the cells
            // stay apart.
            let (gap, number) = padded.split_at(cell - body.len());
            text.push_str(gap);
            text.push_str(&style.paint(&heat_codes(level, is_best(i)), number));
        }
        text.push('\n');
    }
    Ok(Heat { scale, text })
}

/// The SGR codes of a cell at `level` (0–9) of the heat scale: black text
/// on a 256-colour background from dark blue to red, bold for a best cell.
fn heat_codes(level: u32, best: bool) -> String {
    // xterm-256 colours, cold to hot.
    const RAMP: [u8; 10] = [17, 18, 24, 30, 36, 71, 142, 178, 208, 196];
    let bg = RAMP[level.min(9) as usize];
    // Light text on the dark end, dark text on the bright end.
    let fg = if level < 4 { 252 } else { 16 };
    if best {
        format!("1;38;5;{fg};48;5;{bg}")
    } else {
        format!("38;5;{fg};48;5;{bg}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::play::strip_ansi;

    fn show(v: f64) -> String {
        format!("{v}")
    }

    #[test]
    fn only_the_best_reaches_the_top() {
        assert_eq!(scaled(1000.0, 1000.0, 99.0), 99);
        assert_eq!(scaled(999.999, 1000.0, 99.0), 98);
        assert_eq!(scaled(0.0, 1000.0, 99.0), 0);
        // Equal to a best of 0: every empty cell is a best cell.
        assert_eq!(scaled(0.0, 0.0, 9.0), 9);
        // Log scale: 30 of 1000 is about half way, not 3 %.
        assert_eq!(scaled(30.0, 1000.0, 99.0), 49);
    }

    #[test]
    fn layouts_narrow_with_the_width() {
        let rules: Rules = "26x26x5".parse().unwrap();
        let mut b = Board::new(rules);
        b.play("m13".parse().unwrap()).unwrap();
        let scores: Vec<f64> = (0..rules.cells()).map(|i| (i * 37 % 5000) as f64).collect();
        let mut seen = Vec::new();
        for width in [400, 100, 80, 54] {
            let heat = render_heat(&b, &scores, width, Style::PLAIN, show).unwrap();
            assert!(
                heat.text.lines().all(|l| l.len() <= width),
                "{width}:\n{}",
                heat.text
            );
            assert_eq!(heat.text.lines().count(), 27);
            assert_eq!(heat.text.matches('X').count(), 1);
            seen.push(heat.scale);
        }
        assert_eq!(
            seen,
            [Scale::Full, Scale::Percent, Scale::Percent, Scale::Digit]
        );
        let e = render_heat(&b, &scores, 53, Style::PLAIN, show).unwrap_err();
        assert_eq!(e.needed, 54);
    }

    #[test]
    fn colour_adds_only_escapes() {
        let mut b = Board::new(Rules::GOMOKU);
        b.play("h8".parse().unwrap()).unwrap();
        let scores: Vec<f64> = (0..225).map(|i| (i % 17) as f64 * 1000.0).collect();
        let plain = render_heat(&b, &scores, 80, Style::PLAIN, show).unwrap();
        let colour = render_heat(&b, &scores, 80, Style::COLOR, show).unwrap();
        assert!(colour.text.contains("\x1b[1;38;5;16;48;5;196m*99"));
        assert_eq!(strip_ansi(&colour.text), plain.text);
    }
}
