//! `mnk serve`'s page in a real browser: Debian's headless Chromium driven
//! through chromedriver (WebDriver) with fantoccini. A full tic-tac-toe
//! game clicked against the perfect player ends in a draw, and a gomoku
//! move gets the AI's answer on the board.
//!
//! Without `chromedriver` and `chromium` the test says so loudly and
//! passes, unless `MNK_REQUIRE_BROWSER=1` (as `.ci/run` sets after
//! installing them), where a missing browser fails it.

use crate::serve::Server;
use crate::slow_link::SlowLink;
use fantoccini::{Client, ClientBuilder, Locator};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// chromedriver on a free port, killed when dropped with every browser it
/// started. Its log goes to a file, so that a failure can say what
/// chromedriver last said.
pub(crate) struct Driver {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The whole process group: a test that panics never closes its
        // WebDriver session, and killing chromedriver alone leaves its
        // Chromium running after the test binary exits.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        // A failing test keeps the log for a look; a passing one leaves
        // no file behind.
        if !std::thread::panicking() {
            let _ = std::fs::remove_file(&self.log);
        }
    }
}

impl Driver {
    /// Starts chromedriver on a port the kernel just handed out, and waits
    /// until it answers `GET /status` with "ready". A bare TCP connect is
    /// not proof: while nothing listens yet, a loopback connect can land
    /// on its own source port and succeed, and chromedriver then finds the
    /// port taken and exits.
    fn start() -> Result<Driver, String> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let log = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chromedriver-{port}.log"));
        let child = Command::new("chromedriver")
            // A process group of its own, with the browsers it starts,
            // so that dropping the driver can kill them all.
            .process_group(0)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("chromedriver: {e}"))?;
        let mut driver = Driver { child, port, log };
        let start = Instant::now();
        loop {
            if let Some(status) = driver.exited() {
                return Err(format!(
                    "chromedriver {status} before it was ready{}",
                    driver.log_tail()
                ));
            }
            if driver.ready() {
                return Ok(driver);
            }
            if start.elapsed() > Duration::from_secs(20) {
                return Err(format!(
                    "chromedriver not ready within 20 s{}",
                    driver.log_tail()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// How the process ended, if it has.
    fn exited(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(format!("exited ({status})")),
            Ok(None) => None,
            Err(e) => Some(format!("cannot be waited for ({e})")),
        }
    }

    /// Whether chromedriver answers its status request with "ready".
    fn ready(&self) -> bool {
        let addr = SocketAddr::from(([127, 0, 0, 1], self.port));
        let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_secs(1)) else {
            return false;
        };
        let request = format!(
            "GET /status HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            self.port
        );
        if stream
            .set_read_timeout(Some(Duration::from_secs(2)))
            .is_err()
            || stream.write_all(request.as_bytes()).is_err()
        {
            return false;
        }
        // chromedriver may keep the connection open, so read until the
        // answer says "ready" rather than to the end.
        let mut answer = Vec::new();
        let mut chunk = [0u8; 1024];
        while let Ok(n @ 1..) = stream.read(&mut chunk) {
            answer.extend_from_slice(&chunk[..n]);
            let text: String = String::from_utf8_lossy(&answer)
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            if text.starts_with("HTTP/1.1200") && text.contains("\"ready\":true") {
                return true;
            }
        }
        false
    }

    /// The last lines of chromedriver's log, for an error message.
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(15)..].join("\n");
        format!("\n--- the end of {} ---\n{tail}", self.log.display())
    }
}

/// Starts chromedriver, or says why it cannot (no browser here, or three
/// starts that failed).
fn driver() -> Result<Driver, String> {
    for program in ["chromedriver", "chromium"] {
        let found = Command::new(program)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            return Err(format!(
                "no `{program}` (apt-get install chromium chromium-driver)"
            ));
        }
    }
    let mut why = String::new();
    for attempt in 1..=3 {
        match Driver::start() {
            Ok(driver) => return Ok(driver),
            Err(e) => {
                eprintln!("chromedriver start {attempt} of 3 failed: {e}");
                why = e;
            }
        }
    }
    Err(why)
}

/// A WebDriver session on a headless Chromium. A session that cannot be
/// made is tried again, on a new chromedriver if the old one has exited,
/// three times in all; the panic then shows chromedriver's log.
pub(crate) async fn browser(driver: &mut Driver) -> Client {
    let mut caps = serde_json::Map::new();
    // As root in a container, and with no network: no sandbox, and none
    // of Chromium's background connections.
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": "/usr/bin/chromium",
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--window-size=1000,800"],
        }),
    );
    for attempt in 1..=3 {
        let session = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await;
        let error = match session {
            Ok(client) => return client,
            Err(e) => e,
        };
        let exited = driver.exited();
        let report = format!(
            "WebDriver session {attempt} of 3 failed: {error}; chromedriver {}{}",
            exited.as_deref().unwrap_or("still runs"),
            driver.log_tail()
        );
        assert!(attempt < 3, "{report}");
        eprintln!("{report}");
        if exited.is_some() {
            *driver = self::driver().unwrap_or_else(|e| panic!("a new chromedriver: {e}"));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    unreachable!("the third failure panics above")
}

/// The text of the element with this id.
pub(crate) async fn text(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

/// The status line's text.
async fn status(c: &Client) -> String {
    text(c, "status").await
}

/// Asks `probe` every 50 ms until it answers `Ok`, and returns that. After
/// 30 s it fails with the last `Err`, which says what the page shows
/// instead.
pub(crate) async fn until<T>(mut probe: impl AsyncFnMut() -> Result<T, String>) -> T {
    let start = Instant::now();
    loop {
        match probe().await {
            Ok(v) => return v,
            Err(why) => assert!(start.elapsed() < Duration::from_secs(30), "{why}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the status line satisfies `ok`, and returns it.
async fn until_status(c: &Client, ok: impl Fn(&str) -> bool) -> String {
    until(async || {
        let s = status(c).await;
        if ok(&s) {
            Ok(s)
        } else {
            Err(format!("status stuck at {s:?}"))
        }
    })
    .await
}

/// The URL's fragment: `play/ID` names the game shown.
async fn fragment(c: &Client) -> String {
    let url = c.current_url().await.unwrap();
    url.fragment().unwrap_or_default().to_string()
}

/// Starts a new game from the page's form, and waits until the page shows
/// it: a new game in the URL, and the status line asking for a move. (The
/// old game's status line also asks for one, so that alone could pass
/// before the server has answered.)
async fn new_game(c: &Client, game: &str, opponent: &str) {
    for (id, value) in [("game", game), ("opponent", opponent)] {
        let field = c.find(Locator::Id(id)).await.unwrap();
        field.clear().await.unwrap();
        field.send_keys(value).await.unwrap();
    }
    let old = fragment(c).await;
    click(c, "#setup button[type=submit]").await;
    until(async || match fragment(c).await {
        now if now == old => Err(format!("no new game; status {:?}", status(c).await)),
        _ => Ok(()),
    })
    .await;
    until_status(c, |s| s.starts_with("Your move")).await;
}

/// The New game button's place and size.
async fn submit_rectangle(c: &Client) -> (f64, f64, f64, f64) {
    let button = c.find(Locator::Css("#setup button[type=submit]")).await;
    button.unwrap().rectangle().await.unwrap()
}

async fn stones(c: &Client) -> usize {
    c.find_all(Locator::Css("#board .stone"))
        .await
        .unwrap()
        .len()
}

/// chromedriver for the test `name`, or `None` (after a loud message) when
/// there is no browser here and `MNK_REQUIRE_BROWSER` is not set.
pub(crate) fn driver_or_skip(name: &str) -> Option<Driver> {
    match driver() {
        Ok(d) => Some(d),
        Err(why) if std::env::var_os("MNK_REQUIRE_BROWSER").is_none() => {
            eprintln!("\n*** SKIPPED the browser test {name}: {why} ***\n");
            None
        }
        Err(why) => panic!("MNK_REQUIRE_BROWSER is set, but: {why}"),
    }
}

/// Runs a browser test's steps on a runtime of the test's own.
pub(crate) fn block_on<T>(steps: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(steps)
}

/// Clicks the element `css` selects, once it is shown: a view appears on
/// the page's `hashchange`, after the click that asked for it returned,
/// and clicking a control of a view not yet shown fails as "element not
/// interactable" (seen under load in `browser_replay`). A click that the
/// browser refused is asked again until [`until`] gives up.
pub(crate) async fn click(c: &Client, css: &str) {
    until(async || {
        let e = c
            .find(Locator::Css(css))
            .await
            .map_err(|e| format!("{css}: {e}"))?;
        if !e.is_displayed().await.map_err(|e| format!("{css}: {e}"))? {
            return Err(format!("{css}: not shown"));
        }
        e.click().await.map_err(|e| format!("{css}: {e}"))
    })
    .await
}

/// The browser's way to `server`: a [`SlowLink`] holding each request up
/// to 300 ms, so that no test passes only because answers come quickly.
pub(crate) fn slow_link(server: &Server) -> SlowLink {
    SlowLink::to(server.addr, Duration::from_millis(300), 2026)
}

/// Saves a screenshot as `target/tmp/<name>` and says where.
pub(crate) fn save_screenshot(name: &str, png: &[u8]) {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&out, png).unwrap();
    eprintln!("screenshot: {}", out.display());
}

#[test]
fn the_page_plays_in_a_real_browser() {
    let Some(mut driver) = driver_or_skip("the_page_plays_in_a_real_browser") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("weights");
    std::fs::create_dir_all(&weights).unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/gomoku.toml");
    std::fs::copy(shipped, weights.join("gomoku.toml")).unwrap();
    let server = Server::start(dir.path());
    let link = slow_link(&server);
    let url = format!("http://{}/", link.addr);
    let (shot, values_shot) = block_on(async {
        let c = browser(&mut driver).await;
        c.goto(&url).await.unwrap();

        // Tic-tac-toe against perfect play, each move the hint's: a draw.
        new_game(&c, "tictactoe", "perfect").await;
        for _ in 0..5 {
            if !status(&c).await.starts_with("Your move") {
                break;
            }
            click(&c, "#hint").await;
            let hint = c
                .wait()
                .at_most(Duration::from_secs(30))
                .for_element(Locator::Css("#board .hint"))
                .await
                .unwrap();
            let before = stones(&c).await;
            hint.click().await.unwrap();
            // Our stone, and the AI's answer unless the game is over.
            until(async || match stones(&c).await {
                now if now == before => Err("the click was not played".into()),
                _ => Ok(()),
            })
            .await;
            until_status(&c, |s| s.starts_with("Your move") || s == "Draw.").await;
        }
        assert_eq!(status(&c).await, "Draw.");
        assert_eq!(stones(&c).await, 9);
        let shot = c.screenshot().await.unwrap();

        // Gomoku: a click at the centre gets the AI's answer. (Where the
        // New game button is now, with tic-tac-toe's empty weights list.)
        let button = submit_rectangle(&c).await;
        new_game(&c, "gomoku", "easy").await;
        click(&c, "[data-cell='h8']").await;
        until_status(&c, |s| s.starts_with("Your move")).await;
        assert_eq!(stones(&c).await, 2);
        let last = c.find(Locator::Css("#board .last")).await.unwrap();
        assert_ne!(last.attr("data-cell").await.unwrap().as_deref(), Some("h8"));

        // A search opponent with weights from the list: its depth and
        // nodes show beside its move, and the value map colours the board.
        let weights = c
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(
                "#weights option[value$='weights/gomoku.toml']",
            ))
            .await
            .unwrap();
        // Filling the list did not move the button: a move while a click
        // was on its way once lost the click (the list loads when the
        // game's name changes, just before `new_game` clicks).
        assert_eq!(submit_rectangle(&c).await, button);
        let path = weights.attr("value").await.unwrap().unwrap();
        c.find(Locator::Id("weights"))
            .await
            .unwrap()
            .select_by_value(&path)
            .await
            .unwrap();
        new_game(&c, "gomoku", "search:depth=3").await;
        click(&c, "[data-cell='h8']").await;
        until_status(&c, |s| s.starts_with("Your move")).await;
        let info = text(&c, "ai-info").await;
        assert!(
            info.contains("depth 3") && info.contains("nodes"),
            "{info:?}"
        );
        click(&c, "#valuemap").await;
        c.wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::Css("#board .cell.best"))
            .await
            .unwrap();
        let legend = text(&c, "values-legend").await;
        assert!(
            legend.contains("gomoku.toml") && legend.contains("VCF"),
            "{legend:?}"
        );
        let values_shot = c.screenshot().await.unwrap();

        // The URL names the game: a reload shows it again.
        let link = c.current_url().await.unwrap();
        assert!(
            link.fragment().is_some_and(|f| f.starts_with("play/")),
            "{link}"
        );
        c.refresh().await.unwrap();
        until_status(&c, |s| s.starts_with("Your move")).await;
        assert_eq!(stones(&c).await, 2);

        // Swapping colours: the AI now opens, at the centre.
        click(&c, "#swap").await;
        until_status(&c, |s| s == "Your move (white).").await;
        assert_eq!(stones(&c).await, 1);
        let centre = c.find(Locator::Css("#board .last")).await.unwrap();
        assert_eq!(
            centre.attr("data-cell").await.unwrap().as_deref(),
            Some("h8")
        );
        c.close().await.unwrap();
        (shot, values_shot)
    });
    server.stop();
    // The game went to the records file as `mnk play` saves it.
    let games = mnk::records::read_records(
        dir.path().join("records/games.csv"),
        mnk::game::Rules::GOMOKU,
    )
    .unwrap();
    assert_eq!(games[0].result, Some(mnk::game::Outcome::Draw));
    save_screenshot("serve-play.png", &shot);
    save_screenshot("serve-play-values.png", &values_shot);
}

/// The page's JavaScript value of `expr`.
async fn js(c: &Client, expr: &str) -> serde_json::Value {
    c.execute(&format!("return {expr};"), vec![]).await.unwrap()
}

/// The number of elements `css` selects.
async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.unwrap().len()
}

#[test]
fn the_board_is_one_people_enjoy() {
    let Some(mut driver) = driver_or_skip("the_board_is_one_people_enjoy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let link = slow_link(&server);
    let url = format!("http://{}/", link.addr);
    let shots = block_on(async {
        let c = browser(&mut driver).await;
        c.goto(&url).await.unwrap();
        // The view opens with a game ready: black against the default
        // opponent, on a gomoku board with the terminal's coordinates.
        until_status(&c, |s| s == "Your move (black).").await;
        assert!(fragment(&c).await.starts_with("play/"));
        assert_eq!(count(&c, "#board .cell").await, 225);
        let coords = js(
            &c,
            "[...document.querySelectorAll('#board .coord')].map(e => e.textContent).join(' ')",
        )
        .await;
        let coords = coords.as_str().unwrap();
        for label in ["a", "h", "o", "1", "8", "15"] {
            assert!(coords.split(' ').any(|l| l == label), "{coords}");
        }
        // Sized to the window: the board takes most of its height.
        let height = js(
            &c,
            "document.getElementById('board').getBoundingClientRect().height",
        )
        .await;
        let window = js(&c, "window.innerHeight").await;
        assert!(
            height.as_f64().unwrap() > 0.65 * window.as_f64().unwrap(),
            "{height} of {window}"
        );

        // Keyboard play: the cursor starts at the centre, → moves it, Enter
        // plays; the AI answers and its move is marked as the last.
        let board = c.find(Locator::Id("board")).await.unwrap();
        board.send_keys("\u{E014}").await.unwrap();
        board.send_keys("\u{E007}").await.unwrap();
        until_status(&c, |s| s.starts_with("Your move")).await;
        let first = js(&c, "document.querySelector('#moves .ply').textContent").await;
        assert_eq!(first, "i8");
        assert_eq!(stones(&c).await, 2);
        let last = c.find(Locator::Css("#board .cell.last")).await.unwrap();
        let last = last.attr("data-cell").await.unwrap().unwrap();
        let second = js(
            &c,
            "document.querySelectorAll('#moves .ply')[1].textContent",
        )
        .await;
        assert_eq!(second.as_str(), Some(last.as_str()));
        // The AI's evaluation shows as a bar.
        assert_eq!(
            js(&c, "document.getElementById('eval').hidden").await,
            false
        );
        let black = js(&c, "document.getElementById('eval-black').style.width").await;
        assert!(black.as_str().unwrap().ends_with('%'), "{black}");
        let playing = c.screenshot().await.unwrap();

        // The move list looks back: the first ply shows one stone and no
        // clicks play; the last ply is the game again.
        click(&c, "#moves li:first-child .ply").await;
        assert_eq!(stones(&c).await, 1);
        assert!(text(&c, "review")
            .await
            .starts_with("Looking back at move 1 of 2"));
        click(&c, "[data-cell='a1']").await;
        assert_eq!(stones(&c).await, 1);
        click(&c, "#moves li:last-child .ply").await;
        assert_eq!(stones(&c).await, 2);
        assert_eq!(text(&c, "review").await, "");

        // A long think: the thinking state and its Stop button; Stop plays
        // the best move found so far at once.
        new_game(&c, "gomoku", "search:depth=12,width=20").await;
        click(&c, "[data-cell='h8']").await;
        until(
            async || match c.find(Locator::Css("#stop:not([hidden])")).await {
                Ok(_) => Ok(()),
                Err(_) => Err("no Stop button while the AI thinks".to_string()),
            },
        )
        .await;
        assert!(status(&c).await.starts_with("The AI is thinking"));
        let thinking = c.screenshot().await.unwrap();
        let start = Instant::now();
        click(&c, "#stop").await;
        until_status(&c, |s| s.starts_with("Your move")).await;
        assert!(
            start.elapsed() < Duration::from_secs(8),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(stones(&c).await, 2);
        assert_eq!(js(&c, "document.getElementById('stop').hidden").await, true);

        // Tic-tac-toe fills the window too, and a won game draws its line:
        // perfect play beats moves in reading order.
        new_game(&c, "tictactoe", "perfect").await;
        let width = js(
            &c,
            "document.getElementById('board').getBoundingClientRect().width",
        )
        .await;
        assert!(width.as_f64().unwrap() > 300.0, "{width}");
        for _ in 0..5 {
            if !status(&c).await.starts_with("Your move") {
                break;
            }
            let before = stones(&c).await;
            click(&c, "#board .cell:not(.taken)").await;
            until(async || match stones(&c).await {
                now if now == before => Err("the click was not played".into()),
                _ => Ok(()),
            })
            .await;
            until_status(&c, |s| !s.starts_with("The AI is")).await;
        }
        assert_eq!(status(&c).await, "The AI wins (white).");
        assert_eq!(count(&c, "#board svg.win-line line").await, 1);
        assert_eq!(count(&c, "#board .cell.win").await, 3);
        let won = c.screenshot().await.unwrap();
        c.close().await.unwrap();
        [playing, thinking, won]
    });
    server.stop();
    for (name, png) in ["serve-board.png", "serve-thinking.png", "serve-won.png"]
        .iter()
        .zip(shots)
    {
        save_screenshot(name, &png);
    }
}
