//! The `weights` chart: every weight divided by its start value, against
//! the round, on a log scale, with a legend of final factors beside it.

use super::style::{color, mesh, short, title, LARGE};
use super::{DrawError, RunData};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The weights that can move, each as its index and its (round, ratio to
/// its start value) points; weights starting at 0 are left out.
type Series = Vec<(usize, Vec<(f64, f64)>)>;

/// Draws the chart on `root`.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &RunData,
) -> Result<(), DrawError> {
    let start = data.rounds[0].weights.to_vec();
    let series = ratios(data, &start);
    // Plotted as log2 of the ratio on a linear axis, labelled with the
    // factor, so every power of two gets a tick on either side of ×1.
    let (mut lo, mut hi) = (-1.0f64, 1.0f64);
    for (_, pts) in &series {
        for &(_, y) in pts {
            lo = lo.min(y.log2());
            hi = hi.max(y.log2());
        }
    }
    let (lo, hi) = (lo.floor() - 0.25, hi.ceil() + 0.25);
    let (chart_area, legend_area) = root.split_horizontally(root.dim_in_pixel().0 as i32 - 230);
    let mut chart = ChartBuilder::on(&chart_area)
        .caption(
            title(data, "Weight evolution"),
            ("sans-serif", 22).into_font(),
        )
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..data.last_round(), lo..hi)?;
    mesh(
        &mut chart,
        data.x_name(),
        "weight / its start value (log scale)",
        &|y| format!("×{}", short(y.exp2())),
        LARGE,
    )
    .y_labels(((hi - lo) as usize + 1).min(40))
    .draw()?;
    chart.draw_series(LineSeries::new(
        [(0.0, 0.0), (data.last_round(), 0.0)],
        BLACK.mix(0.3).stroke_width(1),
    ))?;
    for (k, (_, pts)) in series.iter().enumerate() {
        chart.draw_series(LineSeries::new(
            pts.iter().map(|&(x, y)| (x, y.log2())),
            color(k).stroke_width(2),
        ))?;
    }
    draw_legend(&legend_area, data, &start, &series)
}

/// Each movable weight's ratio to its `start` value, per round.
fn ratios(data: &RunData, start: &[f64]) -> Series {
    (0..start.len())
        .filter(|&i| start[i] > 0.0)
        .map(|i| {
            let pts = data
                .rounds
                .iter()
                .map(|r| (f64::from(r.round), r.weights.to_vec()[i] / start[i]))
                .collect();
            (i, pts)
        })
        .collect()
}

/// The legend, beside the chart: name, final factor and final value.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RunData,
    start: &[f64],
    series: &Series,
) -> Result<(), DrawError> {
    let names: Vec<String> = data.rounds[0]
        .weights
        .named_values()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let last = data
        .rounds
        .last()
        .map(|r| r.weights.to_vec())
        .unwrap_or_default();
    area.draw(&Text::new(
        "weight: final factor (value)",
        (5, 40),
        ("sans-serif", 14).into_font(),
    ))?;
    for (k, (i, _)) in series.iter().enumerate() {
        let y = 65 + 22 * k as i32;
        area.draw(&PathElement::new(
            vec![(5, y + 7), (30, y + 7)],
            color(k).stroke_width(3),
        ))?;
        area.draw(&Text::new(
            format!(
                "{}: ×{:.3} ({})",
                names[*i],
                last[*i] / start[*i],
                short(last[*i])
            ),
            (36, y),
            ("sans-serif", 13).into_font(),
        ))?;
    }
    Ok(())
}
