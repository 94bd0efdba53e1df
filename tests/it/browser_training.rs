//! The Training view in a real browser (headless Chromium through
//! chromedriver, as in `browser.rs`): the runs list with its states and a
//! damaged run's error, a run's charts drawn as SVG paths, a running
//! run's charts following a new round without a reload, and the check
//! curves of two runs overlaid. Saves `serve-training.png`.
//!
//! Without `chromedriver` and `chromium` the test says so loudly and
//! passes, unless `MNK_REQUIRE_BROWSER=1`.

use crate::browser::{block_on, browser, click, driver_or_skip, save_screenshot, slow_link, until};
use crate::serve::Server;
use fantoccini::{Client, Locator};
use mnk::eval::Weights;
use mnk::game::Rules;
use mnk::train::{NoObserver, RunConfig, Trainer};
use std::path::Path;
use std::time::{Duration, Instant};

/// A run named `name` of `game` in `runs`, `played` rounds played; its
/// trainer (holding the run's lock until dropped).
fn run(runs: &Path, name: &str, game: Rules, rounds: u32, played: u32) -> Trainer {
    let mut cfg = RunConfig::defaults(game);
    cfg.name = name.into();
    cfg.start = "flat".into();
    cfg.rounds = rounds;
    cfg.seed = 11;
    if game == Rules::TICTACTOE {
        cfg.openings = 10;
        cfg.check_every = 1;
    } else {
        cfg.openings = 24;
        cfg.check_every = 4;
        cfg.check_openings = 16;
    }
    let mut t = Trainer::create(cfg, Weights::flat(game), runs, false).unwrap();
    t.run_rounds(played, &mut NoObserver).unwrap();
    t
}

/// Waits until the element `css` exists and its attribute `attr`
/// satisfies `ok`; returns the attribute.
async fn until_attr(c: &Client, css: &str, attr: &str, ok: impl Fn(&str) -> bool) -> String {
    until(async || {
        if let Ok(e) = c.find(Locator::Css(css)).await {
            if let Ok(Some(v)) = e.attr(attr).await {
                if ok(&v) {
                    return Ok(v);
                }
            }
        }
        Err(format!("{css}[{attr}] never came"))
    })
    .await
}

/// Waits until the text of `css` satisfies `ok`; returns it.
async fn until_text(c: &Client, css: &str, ok: impl Fn(&str) -> bool) -> String {
    until(async || {
        if let Ok(e) = c.find(Locator::Css(css)).await {
            if let Ok(t) = e.text().await {
                if ok(&t) {
                    return Ok(t);
                }
            }
        }
        Err(format!("{css} never showed the text awaited"))
    })
    .await
}

/// A path's `d` draws something: a move and at least one line.
fn drawn(d: &str) -> bool {
    d.starts_with('M') && d.contains('L')
}

#[test]
fn the_training_view_shows_a_runs_charts_in_a_real_browser() {
    let Some(mut driver) =
        driver_or_skip("the_training_view_shows_a_runs_charts_in_a_real_browser")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let game: Rules = "7x7x4".parse().unwrap();
    drop(run(&runs, "7x7-elo", game, 12, 100));
    drop(run(&runs, "7x7-seed2", game, 8, 100));
    drop(run(&runs, "ttt", Rules::TICTACTOE, 6, 100));
    let mut live = run(&runs, "ttt-live", Rules::TICTACTOE, 6, 2);
    std::fs::create_dir_all(runs.join("broken")).unwrap();
    std::fs::write(
        runs.join("broken/run.toml"),
        "format = 2\nrounds = \"many\"\n",
    )
    .unwrap();
    let server = Server::start(dir.path());
    let link = slow_link(&server);
    let url = format!("http://{}/#training", link.addr);
    let shot = block_on(async {
        let c = browser(&mut driver).await;
        c.set_window_size(1280, 1180).await.unwrap();
        c.goto(&url).await.unwrap();

        // The list: states as badges, the damaged run with its error.
        let badge = "#tr-runs tr[data-run='ttt-live'] .badge";
        until_text(&c, badge, |t| t == "running").await;
        let state = until_text(&c, "#tr-runs tr[data-run='ttt'] .badge", |t| !t.is_empty()).await;
        assert_eq!(state, "finished");
        let broken = "#tr-runs tr[data-run='broken'] .badge";
        assert_eq!(until_text(&c, broken, |t| !t.is_empty()).await, "damaged");
        let error = until_text(&c, "tr[data-error-of='broken']", |t| !t.is_empty()).await;
        assert!(error.contains("run.toml"), "{error}");

        // A running run follows its new round without a reload.
        click(&c, "#tr-runs tr[data-run='ttt-live'] .tr-open").await;
        until_attr(
            &c,
            "#tr-detail svg[data-chart='lost'] path.series",
            "d",
            drawn,
        )
        .await;
        until_text(&c, "#tr-detail .tr-meta", |t| t.contains("round 1 of 6")).await;
        live.run_rounds(1, &mut NoObserver).unwrap();
        until_text(&c, "#tr-detail .tr-meta", |t| t.contains("round 2 of 6")).await;
        drop(live);
        c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
        let small = c.screenshot().await.unwrap();
        until_text(&c, "#tr-detail .tr-title .badge", |t| t == "stopped").await;

        // Two runs' check curves overlaid.
        click(&c, "#tr-runs tr[data-run='7x7-elo'] .tr-cmp").await;
        click(&c, "#tr-runs tr[data-run='7x7-seed2'] .tr-cmp").await;
        // Drawn once the first box is ticked, again with both runs.
        let both = |t: &str| t.contains("7x7-elo vs") && t.contains("7x7-seed2 vs");
        until_text(&c, "#tr-compare svg .legend", both).await;
        let curves = c
            .find_all(Locator::Css("#tr-compare svg path.series"))
            .await
            .unwrap();
        assert_eq!(curves.len(), 4, "2 runs × 2 references");
        for curve in curves {
            assert!(drawn(&curve.attr("d").await.unwrap().unwrap_or_default()));
        }
        for name in ["7x7-elo", "7x7-seed2"] {
            click(&c, &format!("#tr-runs tr[data-run='{name}'] .tr-cmp")).await;
        }
        let hidden = c.find(Locator::Id("tr-compare")).await.unwrap();
        assert_eq!(
            hidden.attr("hidden").await.unwrap().as_deref(),
            Some("true")
        );

        // A large board's run: Elo with error bars, weights, scores, σ.
        click(&c, "#tr-runs tr[data-run='7x7-elo'] .tr-open").await;
        until_text(&c, "#tr-detail h3", |t| t == "7x7-elo").await;
        let d = until_attr(
            &c,
            "#tr-detail svg[data-chart='checks'] path.series",
            "d",
            drawn,
        )
        .await;
        assert!(d.matches('L').count() >= 2, "4 checks drawn: {d}");
        until_attr(
            &c,
            "#tr-detail svg[data-chart='checks'] path.bars",
            "d",
            |d| d.contains('V'),
        )
        .await;
        for chart in ["weights", "scores", "sigma"] {
            let css = format!("#tr-detail svg[data-chart='{chart}'] path.series");
            until_attr(&c, &css, "d", drawn).await;
        }
        let weights = c
            .find_all(Locator::Css(
                "#tr-detail svg[data-chart='weights'] path.series",
            ))
            .await
            .unwrap();
        assert!(weights.len() >= 8, "{} weight lines", weights.len());
        c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
        let shot = c.screenshot().await.unwrap();

        // The URL names the run: opened afresh, it shows that run.
        let link = c.current_url().await.unwrap();
        assert!(link.as_str().ends_with("#training/7x7-elo"), "{link}");
        let other = link.as_str().replace("7x7-elo", "ttt");
        c.goto("about:blank").await.unwrap();
        c.goto(&other).await.unwrap();
        until_text(&c, "#tr-detail h3", |t| t == "ttt").await;
        c.close().await.unwrap();
        (shot, small)
    });
    server.stop();
    save_screenshot("serve-training.png", &shot.0);
    save_screenshot("serve-training-exact.png", &shot.1);
}

/// A run of `rounds` rounds written directly through the library's
/// writers: the rows of a short real 7x7x4 run repeated with drifting
/// weights, and a check every 100 rounds (making one really would take
/// minutes).
fn long_run(runs: &Path, name: &str, rounds: u32) {
    use mnk::train::{check_lines, checks_header_line, round_line, rounds_header_line, CheckRow};
    let game: Rules = "7x7x4".parse().unwrap();
    let t = run(runs, name, game, 4, 100);
    let dir = t.dir().clone();
    let mut cfg = t.config().clone();
    let real = t.rounds().to_vec();
    let checks = t.checks().to_vec();
    drop(t);
    cfg.rounds = rounds;
    let mut text = rounds_header_line(&cfg);
    for r in 0..=rounds {
        let mut row = real[if r == 0 { 0 } else { 1 + (r as usize - 1) % 4 }].clone();
        row.round = r;
        let w: Vec<f64> = row
            .weights
            .to_vec()
            .iter()
            .enumerate()
            .map(|(i, w)| w * (1.0 + 0.5 * (f64::from(r) / 300.0 + i as f64).sin()))
            .collect();
        row.weights = Weights::from_vec(game, &w).unwrap();
        text.push_str(&round_line(&cfg, &row));
    }
    dir.write(&dir.rounds_csv(), text.as_bytes()).unwrap();
    let mut text = checks_header_line(false);
    for round in (0..=rounds).step_by(100) {
        let check = checks[1].check.clone();
        text.push_str(&check_lines(&CheckRow { round, check }));
    }
    dir.write(&dir.checks_csv(), text.as_bytes()).unwrap();
    dir.write(&dir.run_toml(), cfg.to_toml().unwrap().as_bytes())
        .unwrap();
}

/// How long the Training view takes to show a 2,000-round run: the
/// requests the page makes (`GET /api/runs`, `GET /api/runs/{name}`),
/// and the page itself from the click to every chart drawn. Measured
/// against the clock, so not part of the usual run: `cargo test --release
/// --test it -- --ignored browser_training`.
#[test]
#[ignore = "a timing; run alone"]
fn a_2000_round_run_loads_in_under_a_second() {
    let Some(mut driver) = driver_or_skip("a_2000_round_run_loads_in_under_a_second") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    long_run(&runs, "long", 2000);
    for k in 0..30 {
        drop(run(
            &runs,
            &format!("short-{k:02}"),
            Rules::TICTACTOE,
            3,
            100,
        ));
    }
    let server = Server::start(dir.path());
    let t0 = Instant::now();
    let list = server.ok("GET", "/api/runs", None);
    let first_list = t0.elapsed();
    assert_eq!(list["runs"].as_array().unwrap().len(), 31);
    let t0 = Instant::now();
    let (_, body) = server.raw("GET", "/api/runs/long", "application/json", b"");
    let first_detail = t0.elapsed();
    assert!(body.contains("\"round\":2000"), "{}", &body[..200]);
    let t0 = Instant::now();
    server.ok("GET", "/api/runs", None);
    server.raw("GET", "/api/runs/long", "application/json", b"");
    let again = t0.elapsed();
    eprintln!(
        "31 runs listed in {first_list:?}; the 2,000-round run's data ({} kB) in {first_detail:?}; both again (cached) in {again:?}",
        body.len() / 1000
    );

    let url = format!("http://{}/#training", server.addr);
    let page = block_on(async {
        let c = browser(&mut driver).await;
        c.goto(&url).await.unwrap();
        until_text(&c, "#tr-runs tr[data-run='long'] .badge", |t| !t.is_empty()).await;
        let t0 = Instant::now();
        click(&c, "#tr-runs tr[data-run='long'] .tr-open").await;
        for chart in ["weights", "scores", "checks", "sigma"] {
            let css = format!("#tr-detail svg[data-chart='{chart}'] path.series");
            until_attr(&c, &css, "d", drawn).await;
        }
        let page = t0.elapsed();
        c.close().await.unwrap();
        page
    });
    server.stop();
    eprintln!("the page drew its charts {page:?} after the click");
    assert!(first_list + first_detail < Duration::from_secs(1));
    assert!(page < Duration::from_secs(1), "{page:?}");
}
