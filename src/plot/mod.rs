//! Charts of a training run, drawn from the run folder's files alone
//! (`run.toml`, `rounds.csv`, `checks.csv`), so they can be redrawn at any
//! time without retraining.
//!
//! [`plot_run`] writes into `runs/<name>/plots/`, each as PNG and SVG:
//!
//! - `weights`: every weight divided by its start value, against the round,
//!   on a log scale (so weights of very different sizes share one chart);
//!   the legend gives each weight's final factor.
//! - `score` (random search): the round robin's scores (wins − losses) per round: the
//!   champion's and the incumbent's, challengers' takeovers marked; below,
//!   which player won each round.
//!   Under `--select confirm`, the bottom panel also marks the challengers
//!   that won the round robin but failed the confirmation match.
//! - `spsa` (SPSA runs): θ+'s score minus θ−'s (d) per step, with a
//!   running mean of |d| (the mean of d is 0 by the random signs; |d|
//!   falls to the noise level as the gradient fades), and the step sizes
//!   `a_k·d` actually taken.
//! - `gains` (SPSA runs): the gain schedule, `a_k` and `c_k` against the
//!   step.
//! - `checks`: on boards the exact player solves, optimal-move agreement,
//!   lines lost against the exact player and the smallest safe search
//!   depth per check; on large boards, Elo against each reference with its
//!   95% error bar.
//!
//! Text is drawn with DejaVu Sans, compiled into the binary
//! (`assets/fonts/`), so plots render on machines without system fonts.

use crate::train::{Check, CheckRow, RoundResult, RunConfig, RunDir, TrainError};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Why plots could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The run folder could not be read.
    #[error(transparent)]
    Run(#[from] TrainError),
    /// The run has no completed round yet.
    #[error("{0}: no completed rounds to plot yet")]
    Empty(String),
    /// The embedded font could not be loaded.
    #[error("the embedded font could not be loaded")]
    Font,
    /// Drawing or writing a chart failed.
    #[error("{path}: cannot draw: {message}", path = path.display())]
    Draw { path: PathBuf, message: String },
}

const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the embedded font as `sans-serif` (once).
fn register_font() -> Result<(), PlotError> {
    static ONCE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let ok = *ONCE.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).is_ok()
            && plotters::style::register_font("sans-serif", FontStyle::Bold, FONT).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(PlotError::Font)
    }
}

/// Everything the charts need, read from a run folder.
struct RunData {
    cfg: RunConfig,
    rounds: Vec<RoundResult>,
    checks: Vec<CheckRow>,
}

#[derive(Clone, Copy)]
enum Chart {
    Weights,
    Score,
    Spsa,
    Gains,
    Checks,
}

impl Chart {
    fn name(self) -> &'static str {
        match self {
            Chart::Weights => "weights",
            Chart::Score => "score",
            Chart::Spsa => "spsa",
            Chart::Gains => "gains",
            Chart::Checks => "checks",
        }
    }

    fn size(self) -> (u32, u32) {
        match self {
            Chart::Weights => (1200, 700),
            Chart::Score => (1100, 750),
            Chart::Spsa => (1100, 700),
            Chart::Gains => (1100, 700),
            Chart::Checks => (1100, 800),
        }
    }
}

impl RunData {
    /// Whether any round was played by random search.
    fn has_random(&self) -> bool {
        self.rounds.iter().any(|r| r.round > 0 && r.spsa.is_none())
    }

    /// Whether any round was an SPSA step.
    fn has_spsa(&self) -> bool {
        self.rounds.iter().any(|r| r.spsa.is_some())
    }

    /// "step" for a pure SPSA run, "round" otherwise.
    fn x_name(&self) -> &'static str {
        if self.has_spsa() && !self.has_random() {
            "step"
        } else {
            "round"
        }
    }
}

/// Draws every chart of the run in `dir` into `dir/plots/` as PNG and SVG
/// and returns the files written.
pub fn plot_run(dir: &Path) -> Result<Vec<PathBuf>, PlotError> {
    register_font()?;
    let run = RunDir::new(dir);
    let cfg = run.read_config()?;
    let rounds = run.read_rounds(&cfg)?;
    let checks = run.read_checks(&cfg)?;
    if rounds.is_empty() {
        return Err(PlotError::Empty(dir.display().to_string()));
    }
    let data = RunData {
        cfg,
        rounds,
        checks,
    };
    let plots = run.plots();
    std::fs::create_dir_all(&plots).map_err(|e| PlotError::Draw {
        path: plots.clone(),
        message: e.to_string(),
    })?;
    let mut out = Vec::new();
    for chart in [
        Chart::Weights,
        Chart::Score,
        Chart::Spsa,
        Chart::Gains,
        Chart::Checks,
    ] {
        let wanted = match chart {
            Chart::Weights => true,
            // A run with no round played yet still gets an (empty) score chart.
            Chart::Score => data.has_random() || !data.has_spsa(),
            Chart::Spsa | Chart::Gains => data.has_spsa(),
            Chart::Checks => !data.checks.is_empty(),
        };
        if !wanted {
            continue;
        }
        out.push(write_png(&plots, chart, &data)?);
        out.push(write_svg(&plots, chart, &data)?);
    }
    Ok(out)
}

fn write_png(plots: &Path, chart: Chart, data: &RunData) -> Result<PathBuf, PlotError> {
    let path = plots.join(format!("{}.png", chart.name()));
    // Drawn to a temporary file (its extension tells the encoder the
    // format), then renamed: readers never see half a picture.
    let tmp = plots.join(format!(".tmp-{}-{}.png", chart.name(), std::process::id()));
    let err = |message: String| PlotError::Draw {
        path: path.clone(),
        message,
    };
    let result = (|| {
        let root = BitMapBackend::new(&tmp, chart.size()).into_drawing_area();
        draw(chart, &root, data).map_err(&err)?;
        root.present().map_err(|e| err(e.to_string()))?;
        drop(root);
        std::fs::rename(&tmp, &path).map_err(|e| err(e.to_string()))
    })();
    if result.is_err() {
        // A failed write (a full disk) must not leave its partial picture
        // behind to keep the disk full.
        let _ = std::fs::remove_file(&tmp);
    }
    result.map(|()| path.clone())
}

fn write_svg(plots: &Path, chart: Chart, data: &RunData) -> Result<PathBuf, PlotError> {
    let path = plots.join(format!("{}.svg", chart.name()));
    let err = |message: String| PlotError::Draw {
        path: path.clone(),
        message,
    };
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, chart.size()).into_drawing_area();
        draw(chart, &root, data).map_err(&err)?;
        root.present().map_err(|e| err(e.to_string()))?;
    }
    crate::util::write_atomic(&path, text.as_bytes()).map_err(|e| err(e.to_string()))?;
    Ok(path)
}

type DrawResult = Result<(), String>;

fn s<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn draw<DB: DrawingBackend>(
    chart: Chart,
    root: &DrawingArea<DB, Shift>,
    data: &RunData,
) -> DrawResult {
    root.fill(&WHITE).map_err(s)?;
    match chart {
        Chart::Weights => draw_weights(root, data),
        Chart::Score => draw_score(root, data),
        Chart::Spsa => draw_spsa(root, data),
        Chart::Gains => draw_gains(root, data),
        Chart::Checks => draw_checks(root, data),
    }
}

fn title(data: &RunData, what: &str) -> String {
    format!(
        "{what} — run {} ({}, {} player)",
        data.cfg.name, data.cfg.game, data.cfg.player
    )
}

/// A colour per series that stays distinguishable for 16 lines.
fn color(i: usize) -> RGBColor {
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

fn last_round(data: &RunData) -> f64 {
    data.rounds
        .last()
        .map_or(1.0, |r| f64::from(r.round))
        .max(1.0)
}

fn draw_weights<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, data: &RunData) -> DrawResult {
    let names: Vec<String> = data.rounds[0]
        .weights
        .named_values()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let start = data.rounds[0].weights.to_vec();
    // Ratios to the start value, per weight (weights starting at 0 are
    // left out: they cannot move).
    let series: Vec<(usize, Vec<(f64, f64)>)> = (0..names.len())
        .filter(|&i| start[i] > 0.0)
        .map(|i| {
            let pts = data
                .rounds
                .iter()
                .map(|r| (f64::from(r.round), r.weights.to_vec()[i] / start[i]))
                .collect();
            (i, pts)
        })
        .collect();
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
        .build_cartesian_2d(0f64..last_round(data), lo..hi)
        .map_err(s)?;
    chart
        .configure_mesh()
        .x_desc(data.x_name())
        .y_desc("weight / its start value (log scale)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_labels(((hi - lo) as usize + 1).min(40))
        .y_label_formatter(&|y| format!("×{}", short(y.exp2())))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(s)?;
    chart
        .draw_series(LineSeries::new(
            [(0.0, 0.0), (last_round(data), 0.0)],
            BLACK.mix(0.3).stroke_width(1),
        ))
        .map_err(s)?;
    for (k, (_, pts)) in series.iter().enumerate() {
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|&(x, y)| (x, y.log2())),
                color(k).stroke_width(2),
            ))
            .map_err(s)?;
    }
    // The legend, beside the chart: name, final factor and final value.
    let last = data
        .rounds
        .last()
        .map(|r| r.weights.to_vec())
        .unwrap_or_default();
    legend_area
        .draw(&Text::new(
            "weight: final factor (value)",
            (5, 40),
            ("sans-serif", 14).into_font(),
        ))
        .map_err(s)?;
    for (k, (i, _)) in series.iter().enumerate() {
        let y = 65 + 22 * k as i32;
        legend_area
            .draw(&PathElement::new(
                vec![(5, y + 7), (30, y + 7)],
                color(k).stroke_width(3),
            ))
            .map_err(s)?;
        legend_area
            .draw(&Text::new(
                format!(
                    "{}: ×{:.3} ({})",
                    names[*i],
                    last[*i] / start[*i],
                    short(last[*i])
                ),
                (36, y),
                ("sans-serif", 13).into_font(),
            ))
            .map_err(s)?;
    }
    Ok(())
}

/// A number with about 4 significant digits.
fn short(v: f64) -> String {
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

fn draw_score<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, data: &RunData) -> DrawResult {
    let played: Vec<&RoundResult> = data
        .rounds
        .iter()
        .filter(|r| r.round > 0 && r.spsa.is_none())
        .collect();
    let (top, bottom) = root.split_vertically(root.dim_in_pixel().1 as i32 * 68 / 100);
    let x_max = last_round(data) + 0.5;
    let (mut lo, mut hi) = (-1.0f64, 1.0f64);
    for r in &played {
        for i in 0..r.tallies.len() {
            lo = lo.min(r.score(i) as f64);
            hi = hi.max(r.score(i) as f64);
        }
    }
    let pad = (hi - lo) * 0.08;
    let mut chart = ChartBuilder::on(&top)
        .caption(
            title(data, "Round robin scores"),
            ("sans-serif", 22).into_font(),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(110)
        .build_cartesian_2d(0.5f64..x_max, (lo - pad)..(hi + pad))
        .map_err(s)?;
    chart
        .configure_mesh()
        .x_desc("round")
        .y_desc("score = wins − losses")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:+.0}"))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(s)?;
    let best = |r: &RoundResult| r.score(r.champion) as f64;
    chart
        .draw_series(LineSeries::new(
            played.iter().map(|r| (f64::from(r.round), best(r))),
            color(0).stroke_width(2),
        ))
        .map_err(s)?
        .label("champion's score")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color(0).stroke_width(2)));
    chart
        .draw_series(LineSeries::new(
            played
                .iter()
                .map(|r| (f64::from(r.round), r.score(0) as f64)),
            color(7).stroke_width(1),
        ))
        .map_err(s)?
        .label("incumbent's score")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color(7).stroke_width(1)));
    chart
        .draw_series(
            played
                .iter()
                .filter(|r| r.champion != 0)
                .map(|r| Circle::new((f64::from(r.round), best(r)), 4, color(3).filled())),
        )
        .map_err(s)?
        .label("a challenger took over")
        .legend(|(x, y)| Circle::new((x + 10, y), 4, color(3).filled()));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(s)?;

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
    let mut chart = ChartBuilder::on(&bottom)
        .caption(caption, ("sans-serif", 17).into_font())
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(110)
        .build_cartesian_2d(0.5f64..x_max, -0.5f64..players + 0.5)
        .map_err(s)?;
    chart
        .configure_mesh()
        .x_desc("round")
        .y_desc("")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_labels(data.cfg.challengers as usize + 1)
        .y_label_formatter(&|y| {
            if y.round() == 0.0 {
                "incumbent".into()
            } else {
                format!("challenger {:.0}", y)
            }
        })
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 15))
        .draw()
        .map_err(s)?;
    chart
        .draw_series(played.iter().map(|r| {
            let c = if r.champion == 0 { color(7) } else { color(3) };
            Circle::new((f64::from(r.round), r.champion as f64), 3, c.filled())
        }))
        .map_err(s)?;
    chart
        .draw_series(
            rejected
                .iter()
                .map(|&p| Cross::new(p, 5, color(1).stroke_width(2))),
        )
        .map_err(s)?;
    Ok(())
}

/// SPSA rows as (step, row).
fn spsa_rows(data: &RunData) -> Vec<(f64, &crate::train::SpsaStep)> {
    data.rounds
        .iter()
        .filter_map(|r| r.spsa.as_ref().map(|s| (f64::from(r.round), s)))
        .collect()
}

fn draw_spsa<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, data: &RunData) -> DrawResult {
    let steps = spsa_rows(data);
    let x_max = last_round(data) + 0.5;
    let x_min = steps.first().map_or(0.5, |(x, _)| x - 0.5);
    let (top, bottom) = root.split_vertically(root.dim_in_pixel().1 as i32 * 62 / 100);
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
    let mut chart = ChartBuilder::on(&top)
        .caption(
            title(data, "SPSA: θ+ against θ−"),
            ("sans-serif", 22).into_font(),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(90)
        .build_cartesian_2d(x_min..x_max, -hi..hi)
        .map_err(s)?;
    chart
        .configure_mesh()
        .x_desc(format!("{} ({games} games per step)", data.x_name()))
        .y_desc("d = score(θ+) − score(θ−)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:+.2}"))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(s)?;
    chart
        .draw_series(
            diffs
                .iter()
                .map(|&p| Circle::new(p, 2, color(0).mix(0.35).filled())),
        )
        .map_err(s)?
        .label("one step")
        .legend(|(x, y)| Circle::new((x + 10, y), 3, color(0).filled()));
    chart
        .draw_series(LineSeries::new(mean, color(3).stroke_width(2)))
        .map_err(s)?
        .label(format!("running mean of |d| over {w} steps"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color(3).stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(s)?;

    // The log-space step actually taken: a_k · d (every weight moves by ±this).
    let moves: Vec<(f64, f64)> = steps
        .iter()
        .map(|(x, s)| (*x, (s.a_k * s.score_diff()).abs()))
        .collect();
    let hi = moves.iter().map(|p| p.1).fold(1e-4f64, f64::max) * 1.1;
    let mut chart = ChartBuilder::on(&bottom)
        .caption(
            "Step taken: every weight × e^(±a_k·d)",
            ("sans-serif", 17).into_font(),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(90)
        .build_cartesian_2d(x_min..x_max, 0.0..hi)
        .map_err(s)?;
    chart
        .configure_mesh()
        .x_desc(data.x_name())
        .y_desc("|a_k·d| (log-space)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.3}"))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(s)?;
    chart
        .draw_series(
            moves
                .iter()
                .map(|&p| Circle::new(p, 2, color(2).mix(0.5).filled())),
        )
        .map_err(s)?;
    Ok(())
}

fn draw_gains<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, data: &RunData) -> DrawResult {
    let steps = spsa_rows(data);
    let x_max = last_round(data) + 0.5;
    let x_min = steps.first().map_or(0.5, |(x, _)| x - 0.5);
    let sc = data.cfg.spsa_config();
    let title_area = root
        .titled(
            &title(
                data,
                &format!(
                    "SPSA gains (a = {}, c = {}, A = {}, α = {}, γ = {})",
                    sc.a, sc.c, sc.big_a, sc.alpha, sc.gamma
                ),
            ),
            ("sans-serif", 20).into_font(),
        )
        .map_err(s)?;
    let areas = title_area.split_evenly((2, 1));
    type Pick = fn(&crate::train::SpsaStep) -> f64;
    let panels: [(&str, &str, Pick, usize); 2] = [
        ("Step gain a_k = a/(A+k+1)^α", "a_k", |s| s.a_k, 0),
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
            .build_cartesian_2d(x_min..x_max, 0.0..hi)
            .map_err(s)?;
        chart
            .configure_mesh()
            .x_desc(data.x_name())
            .y_desc(name)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| short(*y))
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .draw()
            .map_err(s)?;
        chart
            .draw_series(LineSeries::new(pts, color(k).stroke_width(2)))
            .map_err(s)?;
    }
    Ok(())
}

fn draw_checks<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, data: &RunData) -> DrawResult {
    let exact: Vec<(f64, &crate::train::ExactCheck)> = data
        .checks
        .iter()
        .filter_map(|c| match &c.check {
            Check::Exact(e) => Some((f64::from(c.round), e)),
            _ => None,
        })
        .collect();
    if exact.is_empty() {
        draw_elo(root, data)
    } else {
        draw_exact(root, data, &exact)
    }
}

fn draw_exact<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &RunData,
    checks: &[(f64, &crate::train::ExactCheck)],
) -> DrawResult {
    let x_max = last_round(data) + 0.5;
    let title_area = root.titled(
        &title(data, "Checks against the exact player"),
        ("sans-serif", 22).into_font(),
    );
    let title_area = title_area.map_err(s)?;
    let areas = title_area.split_evenly((3, 1));

    // Agreement.
    let lo = checks
        .iter()
        .map(|(_, e)| e.agreement_all_ties.min(e.agreement))
        .fold(1.0f64, f64::min);
    let lo = ((lo * 100.0 - 5.0) / 10.0).floor().max(0.0) * 10.0;
    let mut chart = ChartBuilder::on(&areas[0])
        .caption(
            format!(
                "Optimal-move agreement over all {} reachable positions",
                checks.last().map_or(0, |(_, e)| e.positions)
            ),
            ("sans-serif", 16).into_font(),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..x_max, lo..100.0)
        .map_err(s)?;
    chart
        .configure_mesh()
        .x_desc("round")
        .y_desc("% of positions")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 14))
        .draw()
        .map_err(s)?;
    for (k, label, f) in [
        (
            0,
            "mean share of tied best moves that are optimal",
            (|e: &crate::train::ExactCheck| e.agreement) as fn(&crate::train::ExactCheck) -> f64,
        ),
        (1, "all tied best moves optimal", |e| e.agreement_all_ties),
    ] {
        let pts: Vec<(f64, f64)> = checks.iter().map(|(r, e)| (*r, 100.0 * f(e))).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color(k).stroke_width(2)))
            .map_err(s)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color(k).stroke_width(2))
            });
        if pts.len() <= 60 {
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color(k).filled())))
                .map_err(s)?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(s)?;

    // Lost lines.
    let hi = checks
        .iter()
        .map(|(_, e)| e.lost_as_black.max(e.lost_as_white) as f64)
        .fold(1.0f64, f64::max);
    let mut chart = ChartBuilder::on(&areas[1])
        .caption(
            "Game lines lost against the exact player (every tie-break, every optimal reply)",
            ("sans-serif", 16).into_font(),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..x_max, 0f64..hi * 1.1)
        .map_err(s)?;
    chart
        .configure_mesh()
        .x_desc("round")
        .y_desc("lost lines")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 14))
        .draw()
        .map_err(s)?;
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
            .draw_series(LineSeries::new(pts, color(k).stroke_width(2)))
            .map_err(s)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color(k).stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(s)?;

    // Smallest safe search depth.
    let mut chart = ChartBuilder::on(&areas[2])
        .caption(
            "Smallest search depth with these weights that loses no line",
            ("sans-serif", 16).into_font(),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..x_max, 0.5f64..5.5)
        .map_err(s)?;
    chart
        .configure_mesh()
        .x_desc("round")
        .y_desc("depth")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_labels(5)
        .y_label_formatter(&|y| {
            if y.round() >= 5.0 {
                "none ≤ 4".into()
            } else {
                format!("{y:.0}")
            }
        })
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 14))
        .draw()
        .map_err(s)?;
    chart
        .draw_series(checks.iter().map(|(r, e)| {
            let d = e.no_loss_depth.map_or(5.0, f64::from);
            Circle::new((*r, d), 3, color(4).filled())
        }))
        .map_err(s)?;
    Ok(())
}

fn draw_elo<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, data: &RunData) -> DrawResult {
    // (reference, [(round, elo, lo, hi)])
    type Points = Vec<(f64, f64, f64, f64)>;
    let mut refs: Vec<(String, Points)> = Vec::new();
    for c in &data.checks {
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
    let finite = |v: f64| v.is_finite().then_some(v);
    let (mut lo, mut hi) = (-20.0f64, 20.0f64);
    for (_, pts) in &refs {
        for &(_, e, l, h) in pts {
            for v in [finite(e), finite(l), finite(h)].into_iter().flatten() {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
    }
    let pad = (hi - lo) * 0.08;
    let (lo, hi) = (lo - pad, hi + pad);
    let x_max = last_round(data) + 1.0;
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
        .build_cartesian_2d(-1.0f64..x_max, lo..hi)
        .map_err(s)?;
    chart
        .configure_mesh()
        .x_desc(format!(
            "round ({games} games per check and reference, fixed check openings)"
        ))
        .y_desc("Elo of the incumbent (pentanomial, 95% error bars)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:+.0}"))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(s)?;
    chart
        .draw_series(LineSeries::new(
            [(-1.0, 0.0), (x_max, 0.0)],
            BLACK.mix(0.4).stroke_width(1),
        ))
        .map_err(s)?;
    let n = refs.len().max(1) as f64;
    for (k, (name, pts)) in refs.iter().enumerate() {
        // Side by side, so the error bars of the references do not overlap.
        let dx = (k as f64 - (n - 1.0) / 2.0) * x_max / 150.0;
        let c = color(k);
        let clamp = |v: f64| v.clamp(lo, hi);
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|&(r, e, _, _)| (r + dx, clamp(e))),
                c.stroke_width(2),
            ))
            .map_err(s)?
            .label(format!("vs {name} weights"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        // Error bars: a vertical line from the low to the high end of the
        // interval with short caps, and a dot at the estimate.
        let cap = x_max / 250.0;
        for &(r, e, l, h) in pts {
            let x = r + dx;
            let (l, h) = (clamp(l), clamp(h));
            chart
                .draw_series([
                    PathElement::new(vec![(x, l), (x, h)], c.stroke_width(2)),
                    PathElement::new(vec![(x - cap, l), (x + cap, l)], c.stroke_width(2)),
                    PathElement::new(vec![(x - cap, h), (x + cap, h)], c.stroke_width(2)),
                ])
                .map_err(s)?;
            chart
                .draw_series([Circle::new((x, clamp(e)), 4, c.filled())])
                .map_err(s)?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(s)?;
    Ok(())
}
