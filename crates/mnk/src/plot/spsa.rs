//! The two SPSA charts: `spsa` (θ+ against θ− per step, and the steps
//! taken) and `gains` (the gain schedule, with what it did: the steps
//! taken under the step gain's ceiling).

use super::style::{color, legend, line_key, mesh, short, signed, title, LARGE, SMALL};
use super::{DrawError, RunData};
use crate::train::SpsaStep;
use plotters::coord::Shift;
use plotters::prelude::*;

/// SPSA rows as (step, row).
fn spsa_rows(data: &RunData) -> Vec<(f64, &SpsaStep)> {
    data.rounds
        .iter()
        .filter_map(|r| r.spsa.as_ref().map(|s| (f64::from(r.round), s)))
        .collect()
}

/// The x axis of the SPSA panels: from just before the first step to just
/// after the last round.
fn x_range(data: &RunData, steps: &[(f64, &SpsaStep)]) -> (f64, f64) {
    let x_max = data.last_round() + 0.5;
    let x_min = steps.first().map_or(0.5, |(x, _)| x - 0.5);
    (x_min, x_max)
}

/// Draws the `spsa` chart on `root`.
pub(super) fn draw_spsa<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &RunData,
) -> Result<(), DrawError> {
    let steps = spsa_rows(data);
    let (top, bottom) = root.split_vertically(root.dim_in_pixel().1 as i32 * 62 / 100);
    diff_panel(&top, data, &steps)?;
    step_panel(&bottom, data, &steps)
}

/// d = score(θ+) − score(θ−) per step, with a running mean of |d|.
fn diff_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RunData,
    steps: &[(f64, &SpsaStep)],
) -> Result<(), DrawError> {
    let (x_min, x_max) = x_range(data, steps);
    let diffs: Vec<(f64, f64)> = steps.iter().map(|(x, s)| (*x, s.score_diff())).collect();
    // Running mean of |d| over a window of about 2% of the steps (at
    // least 10). The mean of d itself is 0 whatever the gradient (the
    // signs are random); |d| falls towards the noise level as the
    // gradient signal fades.
    let w = (steps.len() / 50).max(10);
    let mut mean = Vec::with_capacity(diffs.len());
    let mut sum = 0.0;
    for (i, &(x, d)) in diffs.iter().enumerate() {
        sum += d.abs();
        if i >= w {
            sum -= diffs[i - w].1.abs();
        }
        mean.push((x, sum / (i + 1).min(w) as f64));
    }
    let hi = diffs.iter().map(|(_, d)| d.abs()).fold(0.02f64, f64::max) * 1.1;
    let games = steps.first().map_or(0, |(_, s)| s.tally.games.games());
    let mut chart = ChartBuilder::on(area)
        .caption(
            title(data, "SPSA: θ+ against θ−"),
            ("sans-serif", 22).into_font(),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(90)
        // Room above the points for the legend.
        .build_cartesian_2d(x_min..x_max, -hi..hi * 1.5)?;
    mesh(
        &mut chart,
        format!("{} ({games} games per step)", data.x_name()),
        "d = score(θ+) − score(θ−)",
        &|y| signed(*y, 2),
        LARGE,
    )
    .draw()?;
    chart
        .draw_series(
            diffs
                .iter()
                .map(|&p| Circle::new(p, 2, color(0).mix(0.35).filled())),
        )?
        .label("one step")
        .legend(|(x, y)| Circle::new((x + 10, y), 3, color(0).filled()));
    chart
        .draw_series(LineSeries::new(mean, color(3).stroke_width(2)))?
        .label(format!("running mean of |d| over {w} steps"))
        .legend(line_key(color(3), 2));
    legend(&mut chart, SeriesLabelPosition::UpperRight, 14)
}

/// The log-space step actually taken: a_k · d (every weight moves by ±this).
fn step_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RunData,
    steps: &[(f64, &SpsaStep)],
) -> Result<(), DrawError> {
    let (x_min, x_max) = x_range(data, steps);
    let moves: Vec<(f64, f64)> = steps
        .iter()
        .map(|(x, s)| (*x, (s.a_k * s.score_diff()).abs()))
        .collect();
    let hi = moves.iter().map(|p| p.1).fold(1e-4f64, f64::max) * 1.1;
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Step taken: every weight × e^(±a_k·d)",
            ("sans-serif", 18).into_font(),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(90)
        .build_cartesian_2d(x_min..x_max, 0.0..hi)?;
    mesh(
        &mut chart,
        data.x_name(),
        "|a_k·d| (log-space)",
        &|y| format!("{y:.3}"),
        LARGE,
    )
    .draw()?;
    chart.draw_series(
        moves
            .iter()
            .map(|&p| Circle::new(p, 2, color(2).mix(0.5).filled())),
    )?;
    Ok(())
}

/// Draws the `gains` chart on `root`: `a_k` above, `c_k` below.
pub(super) fn draw_gains<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &RunData,
) -> Result<(), DrawError> {
    let steps = spsa_rows(data);
    let (x_min, x_max) = x_range(data, &steps);
    let sc = data.cfg.spsa_config();
    let title_area = root.titled(
        &title(
            data,
            &format!(
                "SPSA gains (a = {}, c = {}, A = {}, α = {}, γ = {})",
                sc.a, sc.c, sc.big_a, sc.alpha, sc.gamma
            ),
        ),
        ("sans-serif", 20).into_font(),
    )?;
    let areas = title_area.split_evenly((2, 1));
    type Pick = fn(&SpsaStep) -> f64;
    let panels: [(&str, &str, Pick, usize); 2] = [
        (
            "Step gain a_k = a/(A+k+1)^α, the most a step can move (|d| = 1), and the steps taken |a_k·d|",
            "a_k (log-space)",
            |s| s.a_k,
            0,
        ),
        (
            "Perturbation c_k = c/(k+1)^γ (θ± = weights × e^(±c_k))",
            "c_k",
            |s| s.c_k,
            1,
        ),
    ];
    for (area, (caption, name, pick, k)) in areas.iter().zip(panels) {
        let pts: Vec<(f64, f64)> = steps.iter().map(|(x, st)| (*x, pick(st))).collect();
        let hi = pts.iter().map(|p| p.1).fold(0.0f64, f64::max) * 1.1;
        let hi = if hi > 0.0 { hi } else { 1.0 };
        let mut chart = ChartBuilder::on(area)
            .caption(caption, ("sans-serif", 16).into_font())
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(x_min..x_max, 0.0..hi)?;
        mesh(&mut chart, data.x_name(), name, &|y| short(*y), SMALL).draw()?;
        chart
            .draw_series(LineSeries::new(pts, color(k).stroke_width(2)))?
            .label(format!("{name}: the schedule"))
            .legend(line_key(color(k), 2));
        if k == 0 {
            // The data: how far each step actually moved the weights.
            chart
                .draw_series(steps.iter().map(|(x, s)| {
                    let taken = (s.a_k * s.score_diff()).abs();
                    Circle::new((*x, taken), 3, color(2).filled())
                }))?
                .label("|a_k·d|: the step taken")
                .legend(|(x, y)| Circle::new((x + 10, y), 3, color(2).filled()));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight, 14)?;
    }
    Ok(())
}
