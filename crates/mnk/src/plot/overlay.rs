//! The overlay of several runs (`mnk plot RUN_A RUN_B …`): their check
//! curves on one axis above, and below each run's closing verdict (trained
//! against start, `verdict.toml`) with its 95% error bar.
//!
//! The check curve is Elo against each reference on large boards (one
//! colour per run, one dash pattern per reference) and optimal-move
//! agreement on boards the exact player solves. When the runs hold both
//! kinds, the kind most runs hold is drawn and the others are named as
//! having no comparable checks. A run without checks or without a verdict
//! is still listed, with nothing to draw for it.

use super::checks::{elo_points, EloPoints};
use super::style::{distinct, mesh, signed, LARGE};
use super::{DrawError, PlotError, RunData};
use crate::train::{Check, CheckRow, RecordedVerdict, RunDir};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// One run as the overlay sees it.
pub(super) struct OverlayRun {
    /// The run's name, as the legend shows it.
    pub(super) label: String,
    /// The game, for the title.
    game: String,
    /// The last completed round.
    last_round: u32,
    /// Its checks, in the order written.
    checks: Vec<CheckRow>,
    /// Its closing verdict, if it has one.
    pub(super) verdict: Option<RecordedVerdict>,
}

impl OverlayRun {
    /// Reads the run folder `dir`; errors name the file that is missing
    /// or damaged.
    pub(super) fn read(dir: &Path) -> Result<OverlayRun, PlotError> {
        let data = RunData::read(dir)?;
        let verdict = RunDir::new(dir).read_verdict()?;
        Ok(OverlayRun {
            label: data.cfg.name.clone(),
            game: data.cfg.game.to_string(),
            last_round: data.rounds.last().map_or(0, |r| r.round),
            checks: data.checks,
            verdict,
        })
    }

    /// Its Elo checks per reference.
    fn elo(&self) -> Vec<(String, EloPoints)> {
        elo_points(&self.checks)
    }

    /// Its exact checks as (round, agreement in %).
    fn agreement(&self) -> Vec<(f64, f64)> {
        self.checks
            .iter()
            .filter_map(|c| match &c.check {
                Check::Exact(e) => Some((f64::from(c.round), 100.0 * e.agreement)),
                _ => None,
            })
            .collect()
    }
}

/// Gives runs that share a name their folder's path instead, so the
/// legend tells them apart.
pub(super) fn distinct_labels(runs: &mut [OverlayRun], dirs: &[&Path]) {
    let names: Vec<String> = runs.iter().map(|r| r.label.clone()).collect();
    for (r, dir) in runs.iter_mut().zip(dirs) {
        if names.iter().filter(|n| **n == r.label).count() > 1 {
            r.label = dir.display().to_string();
        }
    }
}

/// Which check curve the overlay draws.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Curve {
    /// Elo against the references (large boards).
    Elo,
    /// Optimal-move agreement (boards the exact player solves).
    Agreement,
}

/// The curve most runs have checks for; Elo on a tie, `None` if no run
/// has checks.
fn curve(runs: &[OverlayRun]) -> Option<Curve> {
    let elo = runs.iter().filter(|r| !r.elo().is_empty()).count();
    let exact = runs.iter().filter(|r| !r.agreement().is_empty()).count();
    match (elo, exact) {
        (0, 0) => None,
        (e, x) if e >= x => Some(Curve::Elo),
        _ => Some(Curve::Agreement),
    }
}

/// A line's dash pattern: (dash, gap) in pixels, `None` for solid.
type Dashes = Option<(u32, u32)>;

/// The dash pattern of reference `k`, solid first.
fn dashes(k: usize) -> Dashes {
    [None, Some((8, 5)), Some((2, 4)), Some((14, 4))][k % 4]
}

/// An axis over `values`, padded by 8% of its span on either side, at
/// least `min_span` wide.
fn padded(values: impl Iterator<Item = f64>, min_span: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        (lo, hi) = (0.0, 0.0);
    }
    let mid = (lo + hi) / 2.0;
    let (lo, hi) = (lo.min(mid - min_span / 2.0), hi.max(mid + min_span / 2.0));
    let pad = (hi - lo) * 0.08;
    (lo - pad, hi + pad)
}

/// Draws the overlay of `runs` on `root`.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    runs: &[OverlayRun],
) -> Result<(), DrawError> {
    root.fill(&WHITE)?;
    let mut games: Vec<&str> = runs.iter().map(|r| r.game.as_str()).collect();
    games.dedup();
    let names: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
    let title = format!("Runs compared: {} ({})", names.join(", "), games.join(", "));
    let area = root.titled(&title, ("sans-serif", 22).into_font())?;
    let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 as i32 * 60 / 100);
    checks_panel(&top, runs)?;
    verdict_panel(&bottom, runs)
}

/// The check curves of every run.
fn checks_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[OverlayRun],
) -> Result<(), DrawError> {
    let kind = curve(runs);
    let elo: Vec<Vec<(String, EloPoints)>> = runs.iter().map(OverlayRun::elo).collect();
    let agreement: Vec<Vec<(f64, f64)>> = runs.iter().map(OverlayRun::agreement).collect();
    let drawn = |k: usize| match kind {
        Some(Curve::Agreement) => !agreement[k].is_empty(),
        Some(Curve::Elo) => !elo[k].is_empty(),
        None => false,
    };
    // The rounds of the runs whose curves are drawn.
    let last = (0..runs.len())
        .filter(|&k| drawn(k))
        .map(|k| runs[k].last_round)
        .max();
    let x_max = f64::from(last.unwrap_or(1).max(1)) + 0.5;
    let (lo, hi, caption, y_desc) = match kind {
        Some(Curve::Agreement) => {
            let (lo, hi) = padded(agreement.iter().flatten().map(|p| p.1), 2.0);
            let caption = "Checks: optimal-move agreement against the exact player";
            (lo.max(0.0), hi.min(100.0), caption, "% of positions")
        }
        _ => {
            let (lo, hi) = padded(
                elo.iter()
                    .flatten()
                    .flat_map(|(_, pts)| pts.iter().map(|p| p.1)),
                40.0,
            );
            let caption =
                "Checks: Elo of the incumbent against each reference (line per reference)";
            (lo, hi, caption, "Elo (pentanomial)")
        }
    };
    // Room on the right for the legend, so it never covers a curve.
    let (plot, key) = area.split_horizontally(area.dim_in_pixel().0 as i32 - 300);
    let mut chart = ChartBuilder::on(&plot)
        .caption(caption, ("sans-serif", 18).into_font())
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.5f64..x_max, lo..hi)?;
    let fmt: &dyn Fn(&f64) -> String = match kind {
        Some(Curve::Agreement) => &|y| format!("{y:.1}%"),
        _ => &|y| signed(*y, 0),
    };
    mesh(&mut chart, "round", y_desc, fmt, LARGE).draw()?;
    let mut legend: Vec<(String, RGBColor, Dashes)> = Vec::new();
    for (k, run) in runs.iter().enumerate() {
        let c = distinct(k);
        match kind {
            Some(Curve::Agreement) if !agreement[k].is_empty() => {
                chart.draw_series(LineSeries::new(agreement[k].clone(), c.stroke_width(2)))?;
                chart.draw_series(agreement[k].iter().map(|&p| Circle::new(p, 3, c.filled())))?;
                legend.push((run.label.clone(), c, None));
            }
            Some(Curve::Elo) if !elo[k].is_empty() => {
                for (j, (reference, pts)) in elo[k].iter().enumerate() {
                    let line: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1)).collect();
                    match dashes(j) {
                        None => {
                            chart.draw_series(LineSeries::new(line, c.stroke_width(2)))?;
                        }
                        Some((dash, gap)) => {
                            chart.draw_series(DashedLineSeries::new(
                                line,
                                dash,
                                gap,
                                c.stroke_width(2),
                            ))?;
                        }
                    }
                    chart
                        .draw_series(pts.iter().map(|p| Circle::new((p.0, p.1), 3, c.filled())))?;
                    legend.push((format!("{} vs {reference}", run.label), c, dashes(j)));
                }
            }
            _ => {
                let why = if run.checks.is_empty() {
                    "no checks"
                } else {
                    "no comparable checks"
                };
                // No key: there is no line to match it with.
                legend.push((format!("{}: {why}", run.label), WHITE, None));
            }
        }
    }
    for (i, (text, c, dash)) in legend.iter().enumerate() {
        let y = 50 + 22 * i as i32;
        let segments: Vec<(i32, i32)> = match dash {
            None => vec![(5, 35)],
            Some((d, g)) => {
                let (d, g) = (*d as i32, *g as i32);
                (0..)
                    .map(|n| 5 + n * (d + g))
                    .take_while(|&x| x < 35)
                    .map(|x| (x, (x + d).min(35)))
                    .collect()
            }
        };
        for (from, to) in segments {
            key.draw(&PathElement::new(
                vec![(from, y + 7), (to, y + 7)],
                c.stroke_width(3),
            ))?;
        }
        key.draw(&Text::new(
            text.clone(),
            (42, y),
            ("sans-serif", 14).into_font(),
        ))?;
    }
    Ok(())
}

/// Each run's closing verdict: Elo of the trained weights against the
/// start weights with its 95% error bar; a run without one says so.
fn verdict_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[OverlayRun],
) -> Result<(), DrawError> {
    let ends = |v: &RecordedVerdict| {
        let p = &v.verdict.tally.pairs;
        let (l, h) = p.elo_interval95();
        [p.elo(), l, h]
    };
    let (lo, hi) = padded(
        runs.iter()
            .filter_map(|r| r.verdict.as_ref())
            .flat_map(ends)
            .chain([0.0]),
        40.0,
    );
    let n = runs.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Closing verdict: trained against start weights on unseen openings (95% error bars)",
            ("sans-serif", 18).into_font(),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.5f64..n - 0.5, lo..hi)?;
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < runs.len() {
            runs[i as usize].label.clone()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(runs.len())
        .x_label_formatter(&label)
        .y_label_formatter(&|y| signed(*y, 0))
        .y_desc("Elo, trained vs start")
        .label_style(("sans-serif", LARGE.labels))
        .axis_desc_style(("sans-serif", LARGE.axes))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(-0.5, 0.0), (n - 0.5, 0.0)],
        BLACK.mix(0.4).stroke_width(1),
    ))?;
    for (k, run) in runs.iter().enumerate() {
        let x = k as f64;
        let c = distinct(k);
        let Some(v) = &run.verdict else {
            chart.draw_series([Text::new(
                "no verdict",
                (x - 0.1, (lo + hi) / 2.0),
                ("sans-serif", 14).into_font().color(&BLACK.mix(0.6)),
            )])?;
            continue;
        };
        let [e, l, h] = ends(v);
        let (l, h) = (l.max(lo), h.min(hi));
        let cap = 0.06;
        chart.draw_series([
            PathElement::new(vec![(x, l), (x, h)], c.stroke_width(2)),
            PathElement::new(vec![(x - cap, l), (x + cap, l)], c.stroke_width(2)),
            PathElement::new(vec![(x - cap, h), (x + cap, h)], c.stroke_width(2)),
        ])?;
        chart.draw_series([Circle::new((x, e.clamp(lo, hi)), 5, c.filled())])?;
        let t = &v.verdict.tally;
        let stale = if v.round == run.last_round {
            String::new()
        } else {
            format!(", of round {}", v.round)
        };
        chart.draw_series([Text::new(
            format!(
                "{} ± {:.0} ({} games{stale})",
                signed(e, 1),
                t.pairs.elo_error95(),
                t.games.games()
            ),
            (x + 0.04, e.clamp(lo, hi)),
            ("sans-serif", 14).into_font(),
        )])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::padded;

    #[test]
    fn an_axis_covers_its_values_and_a_minimum_span() {
        let (lo, hi) = padded([10.0, 30.0, f64::INFINITY].into_iter(), 5.0);
        assert!(lo < 10.0 && hi > 30.0 && hi < 40.0, "{lo}..{hi}");
        let (lo, hi) = padded([3.0].into_iter(), 40.0);
        assert!(lo <= -17.0 && hi >= 23.0, "{lo}..{hi}");
        let (lo, hi) = padded(std::iter::empty(), 40.0);
        assert!(lo < 0.0 && hi > 0.0);
    }
}
