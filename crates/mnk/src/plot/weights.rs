//! The `weights` chart: every weight divided by its start value, against
//! the round, on a log scale, with a legend of final factors beside it.
//!
//! Sixteen lines cannot each have a colour of their own that the eye
//! tells apart, so a shape's two weights share one: `own.X` is drawn
//! solid and `opp.X` dashed in X's colour; attack and defence have colours
//! of their own.

use super::style::{distinct, mesh, short, title, LARGE};
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
    let names = weight_names(data);
    let looks = looks(&names);
    for (i, pts) in &series {
        let (c, dashed) = looks[*i];
        let pts = pts.iter().map(|&(x, y)| (x, y.log2()));
        if dashed {
            chart.draw_series(DashedLineSeries::new(pts, 7, 4, c.stroke_width(2)))?;
        } else {
            chart.draw_series(LineSeries::new(pts, c.stroke_width(2)))?;
        }
    }
    draw_legend(&legend_area, data, &start, &series, (&names, &looks))
}

/// The weights' names, in the order of the weight vector.
fn weight_names(data: &RunData) -> Vec<String> {
    data.rounds[0]
        .weights
        .named_values()
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}

/// The colour of each weight and whether its line is dashed: `own.X`
/// solid and `opp.X` dashed, in the colour of shape X (numbered in the
/// order shapes first appear), and likewise `own_combo.X`/`opp_combo.X`;
/// other weights solid, each its own colour.
fn looks(names: &[String]) -> Vec<(RGBColor, bool)> {
    // A combo model's `own_combo.X` and `opp_combo.X` pair up like a
    // shape's two weights.
    let kind = |n: &str| {
        n.strip_prefix("own.")
            .or_else(|| n.strip_prefix("opp."))
            .map(str::to_string)
            .or_else(|| {
                let c = n.strip_prefix("own_combo.")?;
                Some(format!("combo.{c}"))
            })
            .or_else(|| {
                let c = n.strip_prefix("opp_combo.")?;
                Some(format!("combo.{c}"))
            })
            .unwrap_or_else(|| n.to_string())
    };
    let mut kinds: Vec<String> = Vec::new();
    for n in names {
        let k = kind(n);
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    // The colour of the shapes count from the first: attack and defence
    // take the last two, grey and brown, which suit the two scalars.
    let scalars = names.iter().filter(|n| !n.contains('.')).count();
    names
        .iter()
        .map(|name| {
            let k = kind(name);
            let index = kinds.iter().position(|x| *x == k).unwrap_or(0);
            let c = if name.contains('.') {
                distinct(index - scalars.min(index))
            } else {
                distinct(7 + index)
            };
            (c, name.starts_with("opp"))
        })
        .collect()
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
    (names, looks): (&[String], &[(RGBColor, bool)]),
) -> Result<(), DrawError> {
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
        let (c, dashed) = looks[*i];
        let dashes: &[(i32, i32)] = if dashed {
            &[(5, 13), (18, 26)]
        } else {
            &[(5, 30)]
        };
        for &(from, to) in dashes {
            area.draw(&PathElement::new(
                vec![(from, y + 7), (to, y + 7)],
                c.stroke_width(3),
            ))?;
        }
        area.draw(&Text::new(
            format!(
                "{}: ×{:.3} ({})",
                names[*i],
                last[*i] / start[*i],
                short(last[*i])
            ),
            (36, y),
            ("sans-serif", 14).into_font(),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::looks;
    use plotters::style::RGBColor;

    fn look(names: &[String], i: usize) -> (RGBColor, bool) {
        looks(names)[i]
    }

    #[test]
    fn a_combinations_two_weights_pair_up_too() {
        let names: Vec<String> = [
            "attack",
            "own.win",
            "opp.win",
            "own_combo.double4",
            "own_combo.4_open3",
            "opp_combo.double4",
            "opp_combo.4_open3",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(look(&names, 3).0, look(&names, 5).0);
        assert_eq!((look(&names, 3).1, look(&names, 5).1), (false, true));
        assert_eq!(look(&names, 4).0, look(&names, 6).0);
        assert_ne!(look(&names, 3).0, look(&names, 4).0);
        assert_ne!(look(&names, 3).0, look(&names, 1).0);
    }

    #[test]
    fn a_shapes_two_weights_share_a_colour_and_differ_in_dashes() {
        let names: Vec<String> = [
            "attack",
            "defence",
            "own.win",
            "own.open4",
            "opp.win",
            "opp.open4",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(look(&names, 2).0, look(&names, 4).0);
        assert_eq!((look(&names, 2).1, look(&names, 4).1), (false, true));
        assert_eq!(look(&names, 3).0, look(&names, 5).0);
        // Every other pair of lines differs in colour or in dashes.
        for a in 0..names.len() {
            for b in 0..a {
                let same_shape = [(2, 4), (3, 5)].contains(&(b, a));
                assert_ne!(look(&names, a), look(&names, b), "{a} {b}");
                assert_eq!(
                    look(&names, a).0 == look(&names, b).0,
                    same_shape,
                    "{a} {b}"
                );
            }
        }
    }
}
