//! The `score` chart of random search: the round robin's scores per round
//! above, which player won each round below.
//!
//! A score is a percentage, (wins + draws/2) / games, so rounds of any
//! size read alike and 50% is "as good as the field". The axis spans what
//! is drawn (the champion's and the incumbent's scores), not every
//! challenger's, with room above the lines for the legend.

use super::style::{color, legend, line_key, mesh, title, TextSize, LARGE};
use super::{DrawError, RunData};
use crate::train::RoundResult;
use plotters::coord::Shift;
use plotters::prelude::*;

/// A score in percent: (wins + draws/2) / games; 50 without games.
fn percent(wins: u64, draws: u64, losses: u64) -> f64 {
    let games = (wins + draws + losses) as f64;
    if games == 0.0 {
        50.0
    } else {
        100.0 * (wins as f64 + draws as f64 / 2.0) / games
    }
}

/// The drawn points of round `round`, given every player's score in
/// percent (the incumbent first): (round, champion's score, incumbent's
/// score). The challengers that did not win are not drawn.
fn drawn(round: u32, scores: &[f64], champion: usize) -> (f64, f64, f64) {
    let p = |i: usize| scores.get(i).copied().unwrap_or(50.0);
    (f64::from(round), p(champion), p(0))
}

/// [`drawn`] for a round of the run.
fn drawn_round(r: &RoundResult) -> (f64, f64, f64) {
    let scores: Vec<f64> = r
        .tallies
        .iter()
        .map(|t| percent(t.wins, t.draws, t.losses))
        .collect();
    drawn(r.round, &scores, r.champion)
}

/// The score axis for `points` (from [`drawn`]): every drawn score, at
/// least 2 points wide, padded by 8% below and by 45% of the span above,
/// where the legend goes (over a quarter of the axis).
fn score_range(points: &[(f64, f64, f64)]) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &(_, c, i) in points {
        lo = lo.min(c.min(i));
        hi = hi.max(c.max(i));
    }
    if !lo.is_finite() {
        (lo, hi) = (50.0, 50.0);
    }
    let mid = (lo + hi) / 2.0;
    let (lo, hi) = (lo.min(mid - 1.0), hi.max(mid + 1.0));
    let span = hi - lo;
    ((lo - 0.08 * span).max(0.0), (hi + 0.45 * span).min(100.0))
}

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
    let points: Vec<(f64, f64, f64)> = played.iter().map(|r| drawn_round(r)).collect();
    let (lo, hi) = score_range(&points);
    let games = played.first().map_or(0, |r| r.tallies[0].games());
    let mut chart = ChartBuilder::on(area)
        .caption(
            title(data, "Round robin scores"),
            ("sans-serif", 22).into_font(),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(110)
        .build_cartesian_2d(0.5f64..x_max, lo..hi)?;
    mesh(
        &mut chart,
        "round",
        format!("score in the round robin, % ({games} games per player)"),
        &|y| format!("{y:.1}%"),
        LARGE,
    )
    .draw()?;
    if (lo..hi).contains(&50.0) {
        chart.draw_series(LineSeries::new(
            [(0.5, 50.0), (x_max, 50.0)],
            BLACK.mix(0.3).stroke_width(1),
        ))?;
    }
    // The incumbent first, thin, so the champion's line covers it in the
    // rounds where the incumbent is kept (the two are then the same).
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|&(x, _, i)| (x, i)),
            color(7).stroke_width(1),
        ))?
        .label("incumbent's score (the same as the champion's when it is kept)")
        .legend(line_key(color(7), 1));
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|&(x, c, _)| (x, c)),
            color(0).stroke_width(2),
        ))?
        .label("champion's score")
        .legend(line_key(color(0), 2));
    chart
        .draw_series(
            played
                .iter()
                .zip(&points)
                .filter(|(r, _)| r.champion != 0)
                .map(|(_, &(x, c, _))| Circle::new((x, c), 4, color(3).filled())),
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
        .caption(caption, ("sans-serif", 18).into_font())
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
        labels: 14,
        axes: 16,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_percentages_of_the_points() {
        // 60 wins, 20 draws, 20 losses: 70 points of 100.
        assert_eq!(percent(60, 20, 20), 70.0);
        assert_eq!(percent(10, 0, 30), 25.0);
        assert_eq!(percent(0, 0, 0), 50.0);
    }

    #[test]
    fn the_champion_and_the_incumbent_are_drawn() {
        assert_eq!(drawn(3, &[52.0, 5.0, 55.0], 2), (3.0, 55.0, 52.0));
        assert_eq!(drawn(4, &[54.0, 30.0], 0), (4.0, 54.0, 54.0));
    }

    #[test]
    fn the_axis_spans_the_drawn_scores_only() {
        // A challenger far below (5%) is not drawn, so not on the axis.
        let points = [
            drawn(1, &[52.0, 5.0, 55.0], 2),
            drawn(2, &[54.0, 30.0, 40.0], 0),
        ];
        let (lo, hi) = score_range(&points);
        assert!(lo <= 52.0 && hi >= 55.0, "{lo}..{hi}");
        assert!(lo > 50.0, "the axis reaches down to {lo}");
        // Room above the lines for the legend: a quarter of the axis.
        assert!(hi - 55.0 >= (hi - lo) / 4.0, "{lo}..{hi}");
        assert!(hi <= 100.0);
    }

    #[test]
    fn an_empty_or_flat_run_still_gets_an_axis() {
        let (lo, hi) = score_range(&[]);
        assert!(lo < 50.0 && 50.0 < hi);
        let (lo, hi) = score_range(&[(1.0, 100.0, 100.0)]);
        assert!(lo < 100.0 && hi == 100.0);
    }
}
