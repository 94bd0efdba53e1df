//! The `cmaes` chart: CMA-ES's step size σ per generation, and how the
//! generation's candidates fared against their opponent (the mean, or the
//! run's start with `opponent = "start"`). The mean's own
//! trajectory is the `weights` chart (the incumbent of a CMA-ES run is
//! the mean).

use super::style::{color, legend, line_key, mesh, short, signed, title, SMALL};
use super::{DrawError, RunData};
use crate::train::CmaesGen;
use plotters::coord::Shift;
use plotters::prelude::*;

/// CMA-ES rows as (round, row).
fn generations(data: &RunData) -> Vec<(f64, &CmaesGen)> {
    data.rounds
        .iter()
        .filter_map(|r| r.cmaes.as_ref().map(|g| (f64::from(r.round), g)))
        .collect()
}

/// Draws the `cmaes` chart on `root`: σ above, the candidates' scores
/// against the mean (or the start) below.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &RunData,
) -> Result<(), DrawError> {
    let gens = generations(data);
    let x_max = data.last_round() + 0.5;
    let x_min = gens.first().map_or(0.5, |(x, _)| x - 0.5);
    let cc = data.cfg.cmaes_config();
    let title_area = root.titled(
        &title(
            data,
            &format!(
                "CMA-ES (σ₀ = {}, λ = {}, {} openings × 2 per candidate)",
                cc.sigma, cc.lambda, cc.openings
            ),
        ),
        ("sans-serif", 20).into_font(),
    )?;
    let areas = title_area.split_evenly((2, 1));

    let sigmas: Vec<(f64, f64)> = gens.iter().map(|(x, g)| (*x, g.sigma)).collect();
    let hi = sigmas.iter().map(|p| p.1).fold(0.0f64, f64::max) * 1.1;
    let hi = if hi > 0.0 { hi } else { 1.0 };
    let mut chart = ChartBuilder::on(&areas[0])
        .caption(
            "Step size σ the generation's candidates were drawn with (log-space)",
            ("sans-serif", 16).into_font(),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(x_min..x_max, 0.0..hi)?;
    mesh(&mut chart, data.x_name(), "σ", &|y| short(*y), SMALL).draw()?;
    chart
        .draw_series(LineSeries::new(sigmas, color(0).stroke_width(2)))?
        .label("σ")
        .legend(line_key(color(0), 2));
    legend(&mut chart, SeriesLabelPosition::UpperRight, 14)?;

    let best: Vec<(f64, f64)> = gens
        .iter()
        .map(|(x, g)| (*x, g.score_diffs().into_iter().fold(-1.0, f64::max)))
        .collect();
    let mean: Vec<(f64, f64)> = gens
        .iter()
        .map(|(x, g)| {
            let d = g.score_diffs();
            (*x, d.iter().sum::<f64>() / d.len().max(1) as f64)
        })
        .collect();
    let span = best
        .iter()
        .chain(&mean)
        .map(|p| p.1.abs())
        .fold(0.02f64, f64::max)
        * 1.1;
    let mut chart = ChartBuilder::on(&areas[1])
        .caption(
            format!(
                "Candidates against the {}: the best and the average (W − L)/N",
                cc.opponent
            ),
            ("sans-serif", 16).into_font(),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(x_min..x_max, -span..span)?;
    mesh(
        &mut chart,
        data.x_name(),
        "(W − L)/N",
        &|y| signed(*y, 2),
        SMALL,
    )
    .draw()?;
    chart
        .draw_series(LineSeries::new(best, color(1).stroke_width(2)))?
        .label("the best candidate")
        .legend(line_key(color(1), 2));
    chart
        .draw_series(LineSeries::new(mean, color(2).stroke_width(2)))?
        .label("the candidates' average")
        .legend(line_key(color(2), 2));
    legend(&mut chart, SeriesLabelPosition::UpperRight, 14)?;
    Ok(())
}
