//! The look every chart shares: colours, number formats, titles, axes and
//! legends, so the charts only say what differs.

use super::{DrawError, RunData};
use plotters::chart::{ChartContext, MeshStyle, SeriesLabelPosition};
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// A chart panel with a number on either axis (every panel of ours).
pub(super) type Axes<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Font sizes of a panel's tick labels and axis descriptions.
///
/// Every text size in the charts is even: plotters puts each glyph's top
/// at `size / 2 +` (the glyph's top above the baseline), truncated to a
/// whole pixel, so at odd sizes glyphs with a low top (the period, the
/// comma) sit a pixel above the baseline of the others ("0·867").
#[derive(Clone, Copy)]
pub(super) struct TextSize {
    pub(super) labels: u32,
    pub(super) axes: u32,
}

/// The text of a panel that has a chart to itself.
pub(super) const LARGE: TextSize = TextSize {
    labels: 14,
    axes: 16,
};

/// The text of a panel that shares its chart with others.
pub(super) const SMALL: TextSize = TextSize {
    labels: 12,
    axes: 14,
};

/// The chart's title: what it shows, then which run.
pub(super) fn title(data: &RunData, what: &str) -> String {
    format!(
        "{what} — run {} ({}, {} player)",
        data.cfg.name, data.cfg.game, data.cfg.player
    )
}

/// A colour per series that stays distinguishable for 16 lines.
pub(super) fn color(i: usize) -> RGBColor {
    const C: [RGBColor; 16] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
        RGBColor(0, 0, 128),
        RGBColor(128, 0, 0),
        RGBColor(0, 100, 0),
        RGBColor(255, 0, 255),
        RGBColor(0, 0, 0),
        RGBColor(170, 110, 0),
    ];
    C[i % C.len()]
}

/// Colours that stay apart from each other and on white, also for the
/// common kinds of colour blindness (Okabe and Ito's palette without its
/// yellow, which is too light for lines, plus grey and brown): for series
/// told apart by colour alone.
pub(super) fn distinct(i: usize) -> RGBColor {
    const C: [RGBColor; 9] = [
        RGBColor(0, 114, 178),
        RGBColor(213, 94, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
        RGBColor(230, 159, 0),
        RGBColor(86, 180, 233),
        RGBColor(0, 0, 0),
        RGBColor(120, 120, 120),
        RGBColor(140, 86, 75),
    ];
    C[i % C.len()]
}

/// `y` with `decimals` decimals and a sign, "0" for what rounds to zero
/// (never "-0.00").
pub(super) fn signed(y: f64, decimals: usize) -> String {
    let text = format!("{y:+.decimals$}");
    if text[1..].bytes().all(|b| b == b'0' || b == b'.') {
        "0".into()
    } else {
        text
    }
}

/// A number with about 4 significant digits.
pub(super) fn short(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !(1e-3..1e6).contains(&a) {
        format!("{v:.2e}")
    } else if a >= 1000.0 {
        format!("{v:.0}")
    } else {
        let decimals = if a >= 100.0 {
            1
        } else if a >= 10.0 {
            2
        } else if a >= 1.0 {
            3
        } else {
            4
        };
        format!("{v:.decimals$}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// An x tick label: rounds and steps are whole numbers.
fn whole(x: &f64) -> String {
    format!("{x:.0}")
}

/// The axes of `chart`: descriptions, whole-number x labels, y labels by
/// `y_fmt`, text of `size`. Returned undrawn, so a panel may change more
/// (its number of y labels) before it calls `draw`.
pub(super) fn mesh<'a, 'b, DB: DrawingBackend>(
    chart: &'b mut Axes<'a, DB>,
    x_desc: impl Into<String>,
    y_desc: impl Into<String>,
    y_fmt: &'b dyn Fn(&f64) -> String,
    size: TextSize,
) -> MeshStyle<'a, 'b, RangedCoordf64, RangedCoordf64, DB> {
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&whole)
        .y_label_formatter(y_fmt)
        .label_style(("sans-serif", size.labels))
        .axis_desc_style(("sans-serif", size.axes));
    mesh
}

/// Draws the legend of `chart`'s labelled series at `pos`, in a
/// half-transparent box, with text of `font` pixels.
pub(super) fn legend<'a, DB: DrawingBackend + 'a>(
    chart: &mut Axes<'a, DB>,
    pos: SeriesLabelPosition,
    font: u32,
) -> Result<(), DrawError> {
    chart
        .configure_series_labels()
        .position(pos)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", font))
        .draw()?;
    Ok(())
}

/// The legend's key for a line series: a short line of its colour and
/// width.
pub(super) fn line_key(
    color: RGBColor,
    width: u32,
) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(width))
}

#[cfg(test)]
mod tests {
    use super::{short, signed};

    #[test]
    fn signed_never_says_minus_zero() {
        assert_eq!(signed(-0.0001, 2), "0");
        assert_eq!(signed(-0.0, 2), "0");
        assert_eq!(signed(0.004, 2), "0");
        assert_eq!(signed(-0.006, 2), "-0.01");
        assert_eq!(signed(0.15, 2), "+0.15");
        assert_eq!(signed(-40.4, 0), "-40");
    }

    #[test]
    fn short_keeps_about_four_significant_digits() {
        assert_eq!(short(0.0), "0");
        assert_eq!(short(1.5), "1.5");
        assert_eq!(short(12.3456), "12.35");
        assert_eq!(short(123.456), "123.5");
        assert_eq!(short(1234.7), "1235");
        assert_eq!(short(0.012345), "0.0123");
        assert_eq!(short(2.0), "2");
        assert_eq!(short(0.0001), "1.00e-4");
        assert_eq!(short(-3.25e7), "-3.25e7");
    }
}
