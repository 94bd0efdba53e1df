//! The `checks` chart: on boards the exact player solves, three panels
//! against the exact player (agreement, lost lines, safe depth); on large
//! boards, Elo against each reference with its error bar.

use super::style::{color, legend, line_key, mesh, signed, title, Axes, LARGE, SMALL};
use super::{DrawError, RunData};
use crate::train::{Check, CheckRow, ExactCheck};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Checks against the exact player, as (round, check).
type ExactRows<'a> = [(f64, &'a ExactCheck)];

/// Draws the chart on `root`: the exact player's panels if the run has
/// such checks, else Elo against the references.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &RunData,
) -> Result<(), DrawError> {
    let exact: Vec<(f64, &ExactCheck)> = data
        .checks
        .iter()
        .filter_map(|c| match &c.check {
            Check::Exact(e) => Some((f64::from(c.round), e)),
            _ => None,
        })
        .collect();
    if exact.is_empty() {
        elo(root, data)
    } else {
        let x_max = data.last_round() + 0.5;
        let title_area = root.titled(
            &title(data, "Checks against the exact player"),
            ("sans-serif", 22).into_font(),
        )?;
        let areas = title_area.split_evenly((3, 1));
        agreement_panel(&areas[0], &exact, x_max)?;
        lost_lines_panel(&areas[1], &exact, x_max)?;
        safe_depth_panel(&areas[2], &exact, x_max)
    }
}

/// A panel of the exact checks: rounds from -0.5 to `x_max`, values in
/// `y`, small text.
fn exact_panel<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    caption: impl AsRef<str>,
    x_max: f64,
    y: std::ops::Range<f64>,
) -> Result<Axes<'a, DB>, DrawError> {
    Ok(ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16).into_font())
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..x_max, y)?)
}

/// Optimal-move agreement over all reachable positions, per check.
fn agreement_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    checks: &ExactRows,
    x_max: f64,
) -> Result<(), DrawError> {
    let lo = checks
        .iter()
        .map(|(_, e)| e.agreement_all_ties.min(e.agreement))
        .fold(1.0f64, f64::min);
    let lo = ((lo * 100.0 - 5.0) / 10.0).floor().max(0.0) * 10.0;
    let caption = format!(
        "Optimal-move agreement over all {} reachable positions",
        checks.last().map_or(0, |(_, e)| e.positions)
    );
    let mut chart = exact_panel(area, caption, x_max, lo..100.0)?;
    mesh(
        &mut chart,
        "round",
        "% of positions",
        &|y| format!("{y:.0}%"),
        SMALL,
    )
    .draw()?;
    for (k, label, f) in [
        (
            0,
            "mean share of tied best moves that are optimal",
            (|e: &ExactCheck| e.agreement) as fn(&ExactCheck) -> f64,
        ),
        (1, "all tied best moves optimal", |e| e.agreement_all_ties),
    ] {
        let pts: Vec<(f64, f64)> = checks.iter().map(|(r, e)| (*r, 100.0 * f(e))).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color(k).stroke_width(2)))?
            .label(label)
            .legend(line_key(color(k), 2));
        if pts.len() <= 60 {
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color(k).filled())))?;
        }
    }
    legend(&mut chart, SeriesLabelPosition::LowerRight, 14)
}

/// Game lines lost against the exact player, as black and as white.
fn lost_lines_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    checks: &ExactRows,
    x_max: f64,
) -> Result<(), DrawError> {
    let hi = checks
        .iter()
        .map(|(_, e)| e.lost_as_black.max(e.lost_as_white) as f64)
        .fold(1.0f64, f64::max);
    let mut chart = exact_panel(
        area,
        "Game lines lost against the exact player (every tie-break, every optimal reply)",
        x_max,
        0f64..hi * 1.1,
    )?;
    mesh(
        &mut chart,
        "round",
        "lost lines",
        &|y| format!("{y:.0}"),
        SMALL,
    )
    .draw()?;
    for (k, label, black) in [(2, "trained player as black", true), (3, "as white", false)] {
        let pts: Vec<(f64, f64)> = checks
            .iter()
            .map(|(r, e)| {
                let v = if black {
                    e.lost_as_black
                } else {
                    e.lost_as_white
                };
                (*r, v as f64)
            })
            .collect();
        chart
            .draw_series(LineSeries::new(pts, color(k).stroke_width(2)))?
            .label(label)
            .legend(line_key(color(k), 2));
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight, 14)
}

/// The smallest search depth with the checked weights that loses no line.
fn safe_depth_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    checks: &ExactRows,
    x_max: f64,
) -> Result<(), DrawError> {
    let mut chart = exact_panel(
        area,
        "Smallest search depth with these weights that loses no line",
        x_max,
        0.5f64..5.5,
    )?;
    let depth = |y: &f64| {
        if y.round() >= 5.0 {
            "none ≤ 4".into()
        } else {
            format!("{y:.0}")
        }
    };
    mesh(&mut chart, "round", "depth", &depth, SMALL)
        .y_labels(5)
        .draw()?;
    chart.draw_series(checks.iter().map(|(r, e)| {
        let d = e.no_loss_depth.map_or(5.0, f64::from);
        Circle::new((*r, d), 3, color(4).filled())
    }))?;
    Ok(())
}

/// One reference's checks: (round, Elo, low end, high end of the 95%
/// interval).
pub(super) type EloPoints = Vec<(f64, f64, f64, f64)>;

/// The match checks, per reference in the order they first appear.
pub(super) fn elo_points(checks: &[CheckRow]) -> Vec<(String, EloPoints)> {
    let mut refs: Vec<(String, EloPoints)> = Vec::new();
    for c in checks {
        if let Check::Match(v) = &c.check {
            for r in v {
                let (lo, hi) = r.tally.pairs.elo_interval95();
                let p = (f64::from(c.round), r.tally.pairs.elo(), lo, hi);
                match refs.iter_mut().find(|(n, _)| *n == r.reference) {
                    Some((_, pts)) => pts.push(p),
                    None => refs.push((r.reference.clone(), vec![p])),
                }
            }
        }
    }
    refs
}

/// The Elo axis: every finite estimate and interval end, at least ±20,
/// padded by 8% of the span below and 30% above, where the legend goes.
fn elo_range(refs: &[(String, EloPoints)]) -> (f64, f64) {
    let finite = |v: f64| v.is_finite().then_some(v);
    let (mut lo, mut hi) = (-20.0f64, 20.0f64);
    for (_, pts) in refs {
        for &(_, e, l, h) in pts {
            for v in [finite(e), finite(l), finite(h)].into_iter().flatten() {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
    }
    let pad = (hi - lo) * 0.08;
    (lo - pad, hi + 3.75 * pad)
}

/// Strength against the references: Elo per check with 95% error bars.
fn elo<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, data: &RunData) -> Result<(), DrawError> {
    let refs = elo_points(&data.checks);
    let (lo, hi) = elo_range(&refs);
    let x_max = data.last_round() + 1.0;
    let games = data
        .checks
        .iter()
        .find_map(|c| match &c.check {
            Check::Match(v) => v.first().map(|r| r.tally.games.games()),
            _ => None,
        })
        .unwrap_or(0);
    let mut chart = ChartBuilder::on(root)
        .caption(
            title(data, "Strength against the references"),
            ("sans-serif", 22).into_font(),
        )
        .margin(14)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(-1.0f64..x_max, lo..hi)?;
    mesh(
        &mut chart,
        format!("round ({games} games per check and reference, fixed check openings)"),
        "Elo of the incumbent (pentanomial, 95% error bars)",
        &|y| signed(*y, 0),
        LARGE,
    )
    .draw()?;
    chart.draw_series(LineSeries::new(
        [(-1.0, 0.0), (x_max, 0.0)],
        BLACK.mix(0.4).stroke_width(1),
    ))?;
    let n = refs.len().max(1) as f64;
    for (k, (name, pts)) in refs.iter().enumerate() {
        // Side by side, so the error bars of the references do not overlap.
        let dx = (k as f64 - (n - 1.0) / 2.0) * x_max / 150.0;
        draw_reference(&mut chart, color(k), name, pts, dx, x_max)?;
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft, 14)
}

/// One reference's Elo line in colour `c`, shifted right by `dx`, with an
/// error bar at every check; values beyond the axis are drawn at its edge.
fn draw_reference<DB: DrawingBackend>(
    chart: &mut Axes<'_, DB>,
    c: RGBColor,
    name: &str,
    pts: &EloPoints,
    dx: f64,
    x_max: f64,
) -> Result<(), DrawError> {
    let y_axis = chart.y_range();
    let clamp = |v: f64| v.clamp(y_axis.start, y_axis.end);
    chart
        .draw_series(LineSeries::new(
            pts.iter().map(|&(r, e, _, _)| (r + dx, clamp(e))),
            c.stroke_width(2),
        ))?
        .label(format!("vs {name} weights"))
        .legend(line_key(c, 2));
    // Error bars: a vertical line from the low to the high end of the
    // interval with short caps, and a dot at the estimate.
    let cap = x_max / 250.0;
    for &(r, e, l, h) in pts {
        let x = r + dx;
        let (l, h) = (clamp(l), clamp(h));
        chart.draw_series([
            PathElement::new(vec![(x, l), (x, h)], c.stroke_width(2)),
            PathElement::new(vec![(x - cap, l), (x + cap, l)], c.stroke_width(2)),
            PathElement::new(vec![(x - cap, h), (x + cap, h)], c.stroke_width(2)),
        ])?;
        chart.draw_series([Circle::new((x, clamp(e)), 4, c.filled())])?;
    }
    Ok(())
}
