//! `mnk match A B`: two players over paired openings, with a running
//! line of the result so far. Ctrl-C saves the games played so far to the
//! records files and gives the result so far. `--json` prints the result
//! as one JSON object (docs/json/match.md).

mod live;

use super::job;
use super::json::say;
use anyhow::{Context, Result};
use live::Live;
use mnk::arena::sprt_match::{run_sprt_match, SprtOutcome};
use mnk::arena::stats::{PairedTally, SprtParams, SprtStatus};
use mnk::arena::{
    self, random_openings, Book, BookPart, MatchReport, Opening, OpeningStyle, PlayedGame,
};
use mnk::game::Rules;
use mnk::players::{Player, PlayerKind, PlayerSpec};
use mnk::records::Record;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The flags of `mnk match`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  mnk match greedy:weights/gomoku.toml greedy        trained weights against the shipped ones
  mnk match greedy:runs/gomoku-1/weights/best.toml greedy --sprt elo0=0,elo1=10
  mnk match search:depth=4 greedy -n 50 --records games.csv
  mnk match greedy random -g 7x6x4 --random-openings --stones 2
  mnk match greedy greedy -n 20 --json                the result as JSON (docs/json/match.md)

Progress: a line on stderr (a bar on a terminal, else every --progress-every
seconds) with games, W/D/L, score, Elo and, with --sprt, the LLR.")]
pub struct Args {
    /// Player A, e.g. greedy:weights/gomoku.toml or search:depth=4,width=9,weights=FILE.
    #[arg(value_name = "A")]
    player_a: PlayerSpec,
    /// Player B.
    #[arg(value_name = "B")]
    player_b: PlayerSpec,
    /// The game: tictactoe, gomoku, or WxHxK such as 7x6x4 (add -exact for the exact rule).
    #[arg(long, short, default_value = "gomoku")]
    game: Rules,
    /// Stop as soon as a sequential test decides whether A is stronger:
    /// elo0=0,elo1=10[,alpha=0.05,beta=0.05,model=normalized|logistic]
    /// (normalized Elo by default, pentanomial statistics over pairs).
    #[arg(long, value_name = "PARAMS")]
    sprt: Option<SprtParams>,
    /// Openings per batch between SPRT checks (and, in an MPI job, between
    /// progress updates).
    #[arg(long, default_value_t = 32, value_name = "N")]
    batch: usize,
    #[command(flatten)]
    source: OpeningSource,
    /// Seed for openings and tie-breaks.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append every game to this records file (the original CSV layout; SGF if it ends in .sgf).
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// Also append every game to this SGF file.
    #[arg(long, value_name = "FILE")]
    sgf: Option<PathBuf>,
    /// Worker threads.
    #[command(flatten)]
    pub threads: super::Threads,
    /// Away from a terminal, a progress line on stderr every SECS seconds
    /// (0: none). On a terminal a bar shows it instead.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    progress_every: f64,
    /// Print the result as one JSON object on stdout (fields:
    /// docs/json/match.md); every other line goes to stderr.
    #[arg(long)]
    json: bool,
}

/// Plays the match, prints the result and appends the games to the
/// records files, in four stages: set up (players, openings, the first
/// line), play, save, report.
pub fn run(a: Args) -> Result<()> {
    // In a job of several processes, every rank plays its share of the
    // games and rank 0 alone prints and writes the records.
    let ranks = Ranks {
        lead: job::leads(),
        shared: job::shared().is_some(),
    };
    let (setup, openings, from) = set_up(&a, ranks)?;
    let setup = Arc::new(setup);
    let (report, sprt) = play(&a, &setup, &openings, ranks)?;
    if !ranks.lead {
        return Ok(());
    }
    save(&setup, &report, ranks)?;
    print_report(&a, &setup, &report, openings.len(), from, sprt)
}

/// Where this process stands in a job.
#[derive(Clone, Copy)]
struct Ranks {
    /// It prints and writes the records (rank 0, or the only process).
    lead: bool,
    /// The games are shared among processes.
    shared: bool,
}

/// An SPRT's parameters, verdict and final LLR.
type SprtResult = (SprtParams, SprtStatus, f64);

/// Checks everything that can fail before a game (specs, weights, table
/// memory, records files, openings; every rank, so a rank that cannot
/// stops the job naming itself) and prints the match's first line.
fn set_up(a: &Args, ranks: Ranks) -> Result<(Setup, Vec<Opening>, String)> {
    let rules = a.game;
    let record_files: Vec<PathBuf> = a.records.iter().chain(a.sgf.iter()).cloned().collect();
    let ready = job::agree((|| {
        // Build once up front so bad specs and weight files fail before any game.
        let pa = a.player_a.build(rules)?;
        let pb = a.player_b.build(rules)?;
        // Each worker thread plays with its own pair: refuse tables that
        // do not all fit now rather than fail in a worker.
        PlayerSpec::ensure_memory(
            &[&a.player_a, &a.player_b],
            rayon::current_num_threads(),
            "worker threads",
        )?;
        // Likewise refuse a corrupt records file before playing for hours.
        for path in record_files.iter().filter(|_| ranks.lead) {
            if path.exists() {
                mnk::records::read_records(path, rules)?;
            }
        }
        Ok((pa, pb, a.source.openings(rules, a.seed)?))
    })())?;
    let (pa, pb, (openings, from)) = ready;
    let job_line = job::describe();
    if ranks.lead {
        say(
            a.json,
            format!(
                "{} vs {} on {}: {} openings x 2 colours ({from}), seed {}",
                pa.name(),
                pb.name(),
                rules,
                openings.len(),
                a.seed
            ),
        );
        if ranks.shared {
            say(a.json, job_line);
        }
        let exact = [&a.player_a, &a.player_b]
            .iter()
            .any(|p| matches!(p.kind, PlayerKind::Exact { .. }));
        if exact && from.starts_with("random") {
            if let Some(note) = decided_note(rules, &openings) {
                say(a.json, note);
            }
        }
    }
    super::check_progress_every(a.progress_every)?;
    let keep_moves = !record_files.is_empty();
    let setup = Setup {
        rules,
        names: (a.player_a.to_string(), a.player_b.to_string()),
        shown: (pa.name(), pb.name()),
        record_files,
        total_games: 2 * openings.len(),
        json: a.json,
        live: Live::new(
            ranks.lead,
            2 * openings.len() as u64,
            a.sprt,
            a.progress_every,
        ),
        finished: Arc::new(Mutex::new(Finished {
            games: Vec::new(),
            keep_moves,
            saved: false,
        })),
    };
    Ok((setup, openings, from))
}

/// Plays the games: all at once, in batches (a rank of a job, which sees
/// only its own games), or in batches until the SPRT decides. Ctrl-C
/// saves the games played so far (one process only: a rank just stops).
fn play(
    a: &Args,
    setup: &Arc<Setup>,
    openings: &[Opening],
    ranks: Ranks,
) -> Result<(MatchReport, Option<SprtResult>)> {
    let rules = setup.rules;
    let live = &setup.live;
    let (sa, sb) = (a.player_a.clone(), a.player_b.clone());
    let make_a = move || -> Box<dyn Player> { sa.build(rules).expect("built once already") };
    let make_b = move || -> Box<dyn Player> { sb.build(rules).expect("built once already") };
    let keep_games = !setup.record_files.is_empty();
    if !ranks.shared {
        save_on_ctrl_c(Arc::clone(setup))?;
    }
    // Every game is gathered as it ends, so that Ctrl-C can save the
    // games played so far and give the result so far.
    let on_game = |g: &PlayedGame| {
        let result = g_result(g);
        let mut finished = lock(&setup.finished);
        let g = if finished.keep_moves {
            g.clone()
        } else {
            PlayedGame {
                moves: Vec::new(),
                ..*g
            }
        };
        finished.games.push(g);
        drop(finished);
        live.game(&result);
    };
    let play = |chunk: &[Opening], first: usize| {
        let plan =
            arena::MatchPlan::new(rules, chunk, &make_a, &make_b, a.seed).numbered_from(first);
        if ranks.shared {
            plan.run(keep_games)
        } else {
            plan.run_observed(&on_game)
        }
        .context("a game could not be played")
    };
    let mut sprt_result = None;
    let report = match &a.sprt {
        // One process sees every game as it ends.
        None if !ranks.shared => play(openings, 0)?,
        // A rank sees only its own games: the match is played in batches,
        // the same games in the same order, and the progress moves by
        // batch.
        None => {
            let mut report = MatchReport::default();
            for (i, chunk) in openings.chunks(a.batch.max(1)).enumerate() {
                report.merge(play(chunk, i * a.batch.max(1))?);
                live.tally(&report.tally);
            }
            report
        }
        Some(sprt) => {
            anyhow::ensure!(a.batch >= 1, "--batch must be at least 1");
            let (lower, upper) = sprt.bounds();
            let SprtOutcome {
                report,
                llr,
                status,
            } = run_sprt_match(openings, a.batch, sprt, &play, |report, llr| {
                live.tally(&report.tally);
                live.println(format!(
                    "  {:>6} games  LLR {llr:+.2} [{lower:+.2}, {upper:+.2}]  {}",
                    report.games_played(),
                    report.tally.pairs
                ));
            })?;
            live.finish();
            if ranks.lead {
                say(
                    a.json,
                    sprt_line(sprt, status, llr, openings.len(), report.games_played()),
                );
            }
            sprt_result = Some((*sprt, status, llr));
            report
        }
    };
    live.finish();
    Ok((report, sprt_result))
}

/// Appends the games to the records files, in match order.
fn save(setup: &Setup, report: &MatchReport, ranks: Ranks) -> Result<()> {
    // Saved with the games locked, so that a Ctrl-C now cannot save them
    // a second time.
    let mut finished = lock(&setup.finished);
    finished.saved = true;
    if ranks.shared {
        // The plan kept every game, gathered in match order.
        save_games(setup, report)
    } else {
        let games = MatchReport::from_games(std::mem::take(&mut finished.games));
        save_games(setup, &games)
    }
}

/// The result, the speed line and, with `--json`, the JSON object.
fn print_report(
    a: &Args,
    setup: &Setup,
    report: &MatchReport,
    openings: usize,
    from: String,
    sprt: Option<SprtResult>,
) -> Result<()> {
    print_result(setup, report);
    let t = &report.tally;
    let secs = report.elapsed.as_secs_f64().max(1e-9);
    say(
        a.json,
        format!(
            "{} games in {:.2}s ({:.0} games/s), mean {:.1} plies per game",
            t.games.games(),
            secs,
            t.games.games() as f64 / secs,
            report.plies as f64 / t.games.games().max(1) as f64
        ),
    );
    if a.json {
        super::json::print(
            "match",
            &MatchJson {
                player_a: &setup.names.0,
                player_b: &setup.names.1,
                name_a: &setup.shown.0,
                name_b: &setup.shown.1,
                game: setup.rules.to_string(),
                seed: a.seed,
                openings,
                openings_source: from,
                result: TallyJson::new(t),
                plies: report.plies,
                seconds: report.elapsed.as_secs_f64(),
                sprt: sprt.map(|(p, status, llr)| SprtJson::new(&p, status, llr)),
                records: setup
                    .record_files
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect(),
            },
        )?;
    }
    Ok(())
}

/// A game's result for the running line, without its moves.
fn g_result(g: &PlayedGame) -> (usize, mnk::arena::stats::GameResult) {
    (g.opening, g.a_result())
}

/// `mnk match --json`'s object (docs/json/match.md).
#[derive(Serialize)]
struct MatchJson<'a> {
    player_a: &'a str,
    player_b: &'a str,
    name_a: &'a str,
    name_b: &'a str,
    game: String,
    seed: u64,
    openings: usize,
    openings_source: String,
    #[serde(flatten)]
    result: TallyJson,
    plies: u64,
    seconds: f64,
    sprt: Option<SprtJson>,
    records: Vec<String>,
}

/// A match's result from A's view as JSON, shared by `match` and
/// `train`'s verdict: the games (trinomial) and the pairs (pentanomial),
/// each with its Elo and 95% interval. JSON has no infinity: an end that
/// is infinite (or an estimate, when A won or lost everything) is null,
/// and the other end then holds the bound the text shows.
#[derive(Serialize)]
pub(super) struct TallyJson {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: f64,
    elo: Option<f64>,
    elo_lower95: Option<f64>,
    elo_upper95: Option<f64>,
    los: f64,
    pairs: u64,
    pentanomial: [u64; 5],
    pair_score: f64,
    pair_elo: Option<f64>,
    pair_elo_lower95: Option<f64>,
    pair_elo_upper95: Option<f64>,
}

/// `x` if finite: JSON cannot hold infinities.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

impl TallyJson {
    pub(super) fn new(t: &PairedTally) -> TallyJson {
        let (g, p) = (&t.games, &t.pairs);
        let (gr, pr) = (g.elo_range(), p.elo_range());
        TallyJson {
            games: g.games(),
            wins: g.wins,
            draws: g.draws,
            losses: g.losses,
            score: g.score(),
            elo: finite(g.elo()),
            elo_lower95: finite(gr.lower()),
            elo_upper95: finite(gr.upper()),
            los: g.los(),
            pairs: p.pairs(),
            pentanomial: p.bins,
            pair_score: p.score(),
            pair_elo: finite(p.elo()),
            pair_elo_lower95: finite(pr.lower()),
            pair_elo_upper95: finite(pr.upper()),
        }
    }
}

/// The SPRT's settings and where it ended.
#[derive(Serialize)]
struct SprtJson {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: String,
    llr: f64,
    lower: f64,
    upper: f64,
    /// `H1`, `H0` or `continue` (inconclusive).
    status: &'static str,
}

impl SprtJson {
    fn new(p: &SprtParams, status: SprtStatus, llr: f64) -> SprtJson {
        let (lower, upper) = p.bounds();
        SprtJson {
            elo0: p.elo0,
            elo1: p.elo1,
            alpha: p.alpha,
            beta: p.beta,
            model: p.model.to_string(),
            llr,
            lower,
            upper,
            status: match status {
                SprtStatus::AcceptH1 => "H1",
                SprtStatus::AcceptH0 => "H0",
                SprtStatus::Continue => "continue",
            },
        }
    }
}

/// Ctrl-C: save the games that have ended to the records files, give the
/// result so far, and exit with 130.
fn save_on_ctrl_c(setup: Arc<Setup>) -> Result<()> {
    ctrlc::set_handler(move || {
        let mut finished = lock(&setup.finished);
        setup.live.finish();
        // A match whose games are saved already just stops.
        if !finished.saved {
            let report = MatchReport::from_games(std::mem::take(&mut finished.games));
            // A line of its own, after the ^C a terminal shows.
            say(
                setup.json,
                format!(
                    "\nInterrupted after {} of {} games.",
                    report.games.len(),
                    setup.total_games
                ),
            );
            let code = match save_games(&setup, &report) {
                Ok(()) => 130,
                Err(e) => {
                    eprintln!("error: {}", super::error_text(&e));
                    1
                }
            };
            print_result(&setup, &report);
            let _ = std::io::stdout().flush();
            // Exits with the games still locked: no thread adds to them or
            // saves them again.
            std::process::exit(code);
        }
        std::process::exit(130);
    })
    .context("cannot handle Ctrl-C")
}

/// Where a match's openings come from: the flags shared by `mnk match`
/// and `mnk brains`.
#[derive(clap::Args, Debug)]
pub(super) struct OpeningSource {
    /// Number of openings; each is played twice, once with each colour.
    /// With --sprt, the most openings to play before giving up
    /// [default: 200, or with --openings-file the whole file].
    #[arg(long, short = 'n', value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    openings: Option<u64>,
    /// Play the openings of this Gomocup offset-format file, in order
    /// (default: the check part of the game's shipped balanced book, where
    /// mnk has one: gomoku, gomoku-exact, 20x20x5, 7x6x4).
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    openings_file: Option<PathBuf>,
    /// Random openings (the default on games without a shipped book).
    #[arg(long)]
    random_openings: bool,
    /// Stones in each random opening (default: 4 on 9x9 and up, else 2);
    /// needs --random-openings on games with a shipped book.
    #[arg(long, conflicts_with = "openings_file")]
    stones: Option<usize>,
}

impl OpeningSource {
    /// The openings, and where they came from in words. A file or book
    /// with fewer openings than `-n` asks for is an error, never cut short.
    pub(super) fn openings(&self, rules: Rules, seed: u64) -> Result<(Vec<Opening>, String)> {
        let n = self.openings.map(|n| n as usize);
        let asked = |n: usize| format!("-n {n}");
        if let Some(p) = &self.openings_file {
            let book = Book::load(p, rules)?;
            let n = n.unwrap_or(book.len());
            let v = book.take(BookPart::All, n, &asked(n))?;
            return Ok((v, format!("from {}", book.source)));
        }
        let n = n.unwrap_or(200);
        // The book is parsed only when it is played (a tenth of a short
        // match's time went to parsing it for random openings).
        let book = (!self.random_openings)
            .then(|| Book::shipped(rules))
            .flatten();
        match book {
            Some(book) => {
                anyhow::ensure!(
                    self.stones.is_none(),
                    "--stones sets random openings' stones; add --random-openings (the default is the shipped book)"
                );
                let v = book.take(BookPart::Check, n, &asked(n))?;
                Ok((v, format!("{}, {}", book.source, BookPart::Check)))
            }
            _ => {
                let mut style = OpeningStyle::default_for(rules);
                if let Some(s) = self.stones {
                    style.stones = s;
                }
                let mut rng = arena::game_rng(seed, &[u64::MAX]);
                let v = random_openings(rules, style, n, &mut rng);
                Ok((v, format!("random, {} stones", style.stones)))
            }
        }
    }
}

/// For a match of the exact player on random openings: how many openings
/// are already won for one side with perfect play (a random opening can
/// be), since the perfect player loses the games it starts on the losing
/// side of one, and a reader would otherwise take those losses for a fault.
/// `None` when every opening is a draw, or when the solver cannot solve
/// them (a board too large).
fn decided_note(rules: Rules, openings: &[Opening]) -> Option<String> {
    let mut solver = mnk::players::Solver::new(rules);
    let mut decided = 0;
    for o in openings {
        let board = o.board(rules).ok()?;
        if solver.value(&board).ok()? != mnk::players::Value::Draw {
            decided += 1;
        }
    }
    (decided > 0).then(|| {
        format!(
            "note: {decided} of the {} random openings are already won for one side with perfect play; the exact player loses the games it plays on the losing side",
            openings.len()
        )
    })
}

/// What the end of a match, or Ctrl-C, needs to save and report.
struct Setup {
    rules: Rules,
    /// Player A's and B's specs, as recorded.
    names: (String, String),
    /// Their names, as shown.
    shown: (String, String),
    record_files: Vec<PathBuf>,
    total_games: usize,
    /// Human lines go to stderr (`--json`).
    json: bool,
    /// The running line, cleared before the last lines.
    live: Live,
    /// The games that have ended, shared with the Ctrl-C handler.
    finished: Arc<Mutex<Finished>>,
}

/// The games that have ended, in the order they ended.
struct Finished {
    games: Vec<PlayedGame>,
    /// Moves are kept only for the records files.
    keep_moves: bool,
    /// Whether the games went to the records files already (or failed to).
    saved: bool,
}

/// A panic on another thread must not stop the games from being saved
/// (nor, in [`live`], the progress of the others).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Appends the report's games (in match order) to every records file.
fn save_games(setup: &Setup, report: &MatchReport) -> Result<()> {
    if setup.record_files.is_empty() {
        return Ok(());
    }
    if report.games.is_empty() {
        say(setup.json, "No game had ended, so none was saved.");
        return Ok(());
    }
    append_records_saying(
        setup.rules,
        (&setup.names.0, &setup.names.1),
        &setup.record_files,
        &report.games,
        &|line| say(setup.json, line),
    )
}

/// Appends games to every records file, with A's and B's names as black
/// and white, and says how many went to each.
pub(super) fn append_records(
    rules: Rules,
    names: (&str, &str),
    record_files: &[PathBuf],
    played: &[PlayedGame],
) -> Result<()> {
    append_records_saying(rules, names, record_files, played, &|l| println!("{l}"))
}

/// [`append_records`], saying how many went to each file through `say`.
fn append_records_saying(
    rules: Rules,
    (name_a, name_b): (&str, &str),
    record_files: &[PathBuf],
    played: &[PlayedGame],
    say: &dyn Fn(String),
) -> Result<()> {
    let date = mnk::records::utc_now();
    let games: Vec<Record> = played
        .iter()
        .map(|g| {
            let (black, white) = if g.a_black {
                (name_a, name_b)
            } else {
                (name_b, name_a)
            };
            Record {
                rules,
                moves: g.moves.clone(),
                result: Some(g.outcome),
                black: black.to_string(),
                white: white.to_string(),
                date: Some(date.clone()),
            }
        })
        .collect();
    for path in record_files {
        let total = mnk::play::append_games(path, &games, rules)?;
        say(format!(
            "{} games appended to {} ({total} games in the file)",
            games.len(),
            path.display()
        ));
    }
    Ok(())
}

/// The SPRT's closing line: its verdict and where the LLR ended.
pub(super) fn print_sprt(
    sprt: &SprtParams,
    status: SprtStatus,
    llr: f64,
    openings: usize,
    games: u64,
) {
    println!("{}", sprt_line(sprt, status, llr, openings, games));
}

/// The text of [`print_sprt`].
fn sprt_line(
    sprt: &SprtParams,
    status: SprtStatus,
    llr: f64,
    openings: usize,
    games: u64,
) -> String {
    let (lower, upper) = sprt.bounds();
    let scale = match sprt.model {
        mnk::arena::stats::SprtModel::Normalized => "normalized Elo",
        mnk::arena::stats::SprtModel::Logistic => "Elo",
    };
    let verdict = match status {
        SprtStatus::AcceptH1 => format!(
            "H1 accepted: A is stronger (nearer {:+} than {:+} {scale})",
            sprt.elo1, sprt.elo0
        ),
        SprtStatus::AcceptH0 => format!(
            "H0 accepted: A is not stronger (nearer {:+} than {:+} {scale})",
            sprt.elo0, sprt.elo1
        ),
        SprtStatus::Continue => {
            format!("inconclusive after {openings} openings (raise --openings to play on)")
        }
    };
    format!(
        "SPRT {sprt}: {verdict}; LLR {llr:+.2} in [{lower:+.2}, {upper:+.2}] after {games} games"
    )
}

fn print_result(setup: &Setup, report: &MatchReport) {
    let t = &report.tally;
    let json = setup.json;
    say(json, format!("A = {}", setup.shown.0));
    say(json, format!("B = {}", setup.shown.1));
    say(
        json,
        format!("A's result: {}, LOS {:.1}%", t.games, 100.0 * t.games.los()),
    );
    say(json, format!("A's pairs:  {}", t.pairs));
}
