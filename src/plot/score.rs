//! The `score` chart of random search: the round robin's scores per round
//! above, which player won each round below.

use super::style::{color, legend, line_key, mesh, title, TextSize, LARGE};
use super::{DrawError, RunData};
use crate::train::RoundResult;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Draws the chart on `root`.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &RunData,
) -> Result<(), DrawError> {
    let played: Vec<&RoundResult> = data
        .rounds
        .iter()
        .filter(|r| r.round > 0 && r.spsa.is_none())
        .collect();
    let (top, bottom) = root.split_vertically(root.dim_in_pixel().1 as i32 * 68 / 100);
    let x_max = data.last_round() + 0.5;
    scores_panel(&top, data, &played, x_max)?;
    winners_panel(&bottom, data, &played, x_max)
}

/// The champion's and the incumbent's scores, takeovers marked.
fn scores_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RunData,
    played: &[&RoundResult],
    x_max: f64,
) -> Result<(), DrawError> {
    let (mut lo, mut hi) = (-1.0f64, 1.0f64);
    for r in played {
        for i in 0..r.tallies.len() {
            lo = lo.min(r.score(i) as f64);
            hi = hi.max(r.score(i) as f64);
        }
    }
    let pad = (hi - lo) * 0.08;
    let mut chart = ChartBuilder::on(area)
        .caption(
            title(data, "Round robin scores"),
            ("sans-serif", 22).into_font(),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(110)
        .build_cartesian_2d(0.5f64..x_max, (lo - pad)..(hi + pad))?;
    mesh(
        &mut chart,
        "round",
        "score = wins − losses",
        &|y| format!("{y:+.0}"),
        LARGE,
    )
    .draw()?;
    let best = |r: &RoundResult| r.score(r.champion) as f64;
    chart
        .draw_series(LineSeries::new(
            played.iter().map(|r| (f64::from(r.round), best(r))),
            color(0).stroke_width(2),
        ))?
        .label("champion's score")
        .legend(line_key(color(0), 2));
    chart
        .draw_series(LineSeries::new(
            played
                .iter()
                .map(|r| (f64::from(r.round), r.score(0) as f64)),
            color(7).stroke_width(1),
        ))?
        .label("incumbent's score")
        .legend(line_key(color(7), 1));
    chart
        .draw_series(
            played
                .iter()
                .filter(|r| r.champion != 0)
                .map(|r| Circle::new((f64::from(r.round), best(r)), 4, color(3).filled())),
        )?
        .label("a challenger took over")
        .legend(|(x, y)| Circle::new((x + 10, y), 4, color(3).filled()));
    legend(&mut chart, SeriesLabelPosition::UpperRight, 14)
}

/// Which player won each round; under `--select confirm`, the round robin
/// winners that failed the confirmation match are crossed.
fn winners_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RunData,
    played: &[&RoundResult],
    x_max: f64,
) -> Result<(), DrawError> {
    let players = data.cfg.challengers as f64;
    let rejected: Vec<(f64, f64)> = played
        .iter()
        .filter_map(|r| {
            r.confirm
                .as_ref()
                .filter(|c| !c.passed())
                .map(|c| (f64::from(r.round), c.candidate as f64))
        })
        .collect();
    let caption = if rejected.is_empty() {
        "Which player won the round"
    } else {
        "Which player won the round (× won the round robin but failed the confirmation match)"
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 17).into_font())
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(110)
        .build_cartesian_2d(0.5f64..x_max, -0.5f64..players + 0.5)?;
    let player = |y: &f64| {
        if y.round() == 0.0 {
            "incumbent".into()
        } else {
            format!("challenger {:.0}", y)
        }
    };
    let text = TextSize {
        labels: 13,
        axes: 15,
    };
    mesh(&mut chart, "round", "", &player, text)
        .y_labels(data.cfg.challengers as usize + 1)
        .draw()?;
    chart.draw_series(played.iter().map(|r| {
        let c = if r.champion == 0 { color(7) } else { color(3) };
        Circle::new((f64::from(r.round), r.champion as f64), 3, c.filled())
    }))?;
    chart.draw_series(
        rejected
            .iter()
            .map(|&p| Cross::new(p, 5, color(1).stroke_width(2))),
    )?;
    Ok(())
}
