//! The Replay view in a real browser (headless Chromium through
//! chromedriver, as in `browser.rs`): a records file written by `mnk match`
//! is chosen, a game is stepped with the arrow keys, the buttons and the
//! slider, played at a speed and stopped by leaving the view, and its last
//! position shows the library's winning line.
//!
//! Without a browser the test says so loudly and passes, unless
//! `MNK_REQUIRE_BROWSER=1`.

use crate::browser::{
    block_on, browser, click, driver_or_skip, save_screenshot, slow_link, text, until,
};
use crate::serve::Server;
use fantoccini::{Client, Locator};
use mnk::game::{Board, Rules};
use mnk::play::winning_line;
use mnk::records::read_records;
use std::process::Command;
use std::time::Duration;

const RIGHT: &str = "\u{E014}";
const LEFT: &str = "\u{E012}";
const HOME: &str = "\u{E011}";
const END: &str = "\u{E010}";

async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.unwrap().len()
}

/// Waits until the board holds `n` stones.
async fn until_stones(c: &Client, n: usize) {
    until(async || match count(c, "#rp-board .stone").await {
        now if now == n => Ok(()),
        now => Err(format!(
            "the board has {now} stones, not {n}; status {:?}",
            text(c, "rp-status").await
        )),
    })
    .await;
}

/// Waits until the board holds `n` stones or more: a game being played
/// may step past `n` between two looks when the machine is loaded.
async fn until_at_least_stones(c: &Client, n: usize) {
    until(async || match count(c, "#rp-board .stone").await {
        now if now >= n => Ok(()),
        now => Err(format!(
            "the board has {now} stones, not {n} or more; status {:?}",
            text(c, "rp-status").await
        )),
    })
    .await;
}

/// Waits until a game is shown (its status line starts with "start:");
/// `why` says what should have shown it.
async fn until_game_shown(c: &Client, why: &str) {
    until(async || match text(c, "rp-status").await {
        s if s.starts_with("start:") => Ok(()),
        s => Err(format!("{why}; status {s:?}")),
    })
    .await;
}

async fn key(c: &Client, k: &str) {
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys(k)
        .await
        .unwrap();
}

#[test]
fn a_replay_steps_in_a_real_browser() {
    let Some(mut driver) = driver_or_skip("a_replay_steps_in_a_real_browser") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("records/games.csv");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mnk"))
        .args(["match", "greedy", "greedy", "-n", "2", "--threads", "1"])
        .args(["--progress-every", "0", "--records"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // What the page must show, from the library's own reading.
    let games = read_records(&file, Rules::GOMOKU).unwrap();
    let game = &games[0];
    let n = game.plies();
    assert!(n > 10, "{n} moves");
    let board = Board::from_moves(game.rules, &game.moves).unwrap();
    let line: Vec<String> = winning_line(&board).iter().map(|m| m.to_string()).collect();
    assert!(line.len() >= 5, "{line:?}");

    std::fs::write(
        dir.path().join("records/bad.csv"),
        "# game=tictactoe\n0\n1,1\nfoo\n1,-1\n",
    )
    .unwrap();
    let server = Server::start(dir.path());
    let link = slow_link(&server);
    let url = format!("http://{}/#replay", link.addr);
    let shot = block_on(async {
        let c = browser(&mut driver).await;
        c.goto(&url).await.unwrap();
        let wait = || c.wait().at_most(Duration::from_secs(20));
        // A malformed file: the reader's message, naming file and line.
        wait()
            .for_element(Locator::Css("#rp-file option[data-key='0/bad.csv']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let error = wait()
            .for_element(Locator::Css("#rp-note.error"))
            .await
            .unwrap();
        let message = error.text().await.unwrap();
        assert!(message.starts_with("records/bad.csv: line 4:"), "{message}");
        assert_eq!(count(&c, "#rp-games tbody tr").await, 0);
        wait()
            .for_element(Locator::Css("#rp-file option[data-key='0/games.csv']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait()
            .for_element(Locator::Css("#rp-games tbody tr[data-number='1']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        until_game_shown(&c, "no game shown").await;
        assert_eq!(count(&c, "#rp-board .cell").await, 15 * 15);
        assert_eq!(count(&c, "#rp-board .stone").await, 0);
        assert_eq!(count(&c, "#rp-games tbody tr").await, games.len());

        // The arrow keys step forwards and back.
        key(&c, RIGHT).await;
        key(&c, RIGHT).await;
        until_stones(&c, 2).await;
        assert_eq!(
            text(&c, "rp-status").await,
            format!("move 2 / {n}: {} (white)", game.moves[1])
        );
        assert_eq!(count(&c, "#rp-board .stone.white").await, 1);
        key(&c, LEFT).await;
        until_stones(&c, 1).await;
        let last = c.find(Locator::Css("#rp-board .last")).await.unwrap();
        assert_eq!(
            last.attr("data-cell").await.unwrap(),
            Some(game.moves[0].to_string())
        );

        // The buttons and the slider.
        click(&c, "#rp-next").await;
        click(&c, "#rp-next").await;
        until_stones(&c, 3).await;
        click(&c, "#rp-prev").await;
        until_stones(&c, 2).await;
        c.execute(
            "const s = document.getElementById('rp-slider'); s.value = 9; \
             s.dispatchEvent(new Event('input'));",
            vec![],
        )
        .await
        .unwrap();
        until_stones(&c, 9).await;
        assert_eq!(count(&c, "#rp-board .win").await, 0);
        click(&c, "#rp-last").await;
        until_stones(&c, n).await;
        click(&c, "#rp-first").await;
        until_stones(&c, 0).await;

        // Playing advances by itself, and stops when another view is shown.
        click(&c, "#rp-speed option[value='250']").await;
        click(&c, "#rp-play").await;
        until_at_least_stones(&c, 2).await;
        click(&c, "#tabs a[data-view='play']").await;
        let stopped_at = count(&c, "#rp-board .stone").await;
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(count(&c, "#rp-board .stone").await, stopped_at);
        assert!(stopped_at < n);
        click(&c, "#tabs a[data-view='replay']").await;

        // End: the whole game and the winning line, with move numbers.
        click(&c, "#rp-numbers").await;
        key(&c, END).await;
        until_stones(&c, n).await;
        let mut wins = Vec::new();
        for cell in c.find_all(Locator::Css("#rp-board .win")).await.unwrap() {
            wins.push(cell.attr("data-cell").await.unwrap().unwrap());
        }
        wins.sort();
        let mut want = line.clone();
        want.sort();
        assert_eq!(wins, want);
        assert!(text(&c, "rp-end").await.contains("wins"));
        let first = c
            .find(Locator::Css(&format!(
                "#rp-board [data-cell='{}'] .stone",
                game.moves[0]
            )))
            .await
            .unwrap();
        assert_eq!(first.text().await.unwrap(), "1");
        // The URL names the file and game: opened afresh, it shows them.
        let url_now = c.current_url().await.unwrap();
        assert!(
            url_now.as_str().ends_with("#replay/0/games.csv/1"),
            "{url_now}"
        );
        c.goto("about:blank").await.unwrap();
        c.goto(url_now.as_str()).await.unwrap();
        until_game_shown(&c, "the link opened no game").await;
        let number = c.find(Locator::Id("rp-number")).await.unwrap();
        assert_eq!(number.prop("value").await.unwrap().as_deref(), Some("1"));
        click(&c, "#rp-numbers").await;
        key(&c, END).await;
        until_stones(&c, n).await;

        // Clicks scrolled the page; the picture shows it from the top.
        c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
        let shot = c.screenshot().await.unwrap();
        key(&c, HOME).await;
        until_stones(&c, 0).await;
        c.close().await.unwrap();
        shot
    });
    server.stop();
    save_screenshot("serve-replay.png", &shot);
}
