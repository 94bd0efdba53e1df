//! `mnk match A B`: two players over paired openings.

use crate::arena::stats::{SprtParams, SprtStatus};
use crate::arena::{self, load_openings, random_openings, MatchReport, Opening, OpeningStyle};
use crate::game::Rules;
use crate::players::{Player, PlayerSpec};
use crate::records::Record;
use anyhow::{Context, Result};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Player A, e.g. greedy:weights/gomoku.toml or search:depth=4,width=9,weights=FILE.
    a: PlayerSpec,
    /// Player B.
    b: PlayerSpec,
    /// The game: tictactoe, gomoku, or WxHxK such as 7x6x4 (add -exact for the exact rule).
    #[arg(long, short, default_value = "gomoku")]
    game: Rules,
    /// Number of openings; each is played twice, once with each colour.
    /// With --sprt, the most openings to play before giving up.
    #[arg(long, short = 'n', default_value_t = 200)]
    openings: usize,
    /// Stop as soon as a sequential test decides whether A is stronger:
    /// elo0=0,elo1=10[,alpha=0.05,beta=0.05,model=normalized|logistic]
    /// (normalized Elo by default, pentanomial statistics over pairs).
    #[arg(long, value_name = "PARAMS")]
    sprt: Option<SprtParams>,
    /// Openings per batch between SPRT checks.
    #[arg(long, default_value_t = 32, value_name = "N")]
    batch: usize,
    /// Read openings from a Gomocup offset-format file instead (uses the first N).
    #[arg(long, value_name = "FILE")]
    openings_file: Option<PathBuf>,
    /// Stones in each random opening (default: 4 on 9x9 and up, else 2).
    #[arg(long)]
    stones: Option<usize>,
    /// Seed for openings and tie-breaks.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append every game to this records file (the original CSV layout; SGF if it ends in .sgf).
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// Also append every game to this SGF file.
    #[arg(long, value_name = "FILE")]
    sgf: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    anyhow::ensure!(a.openings >= 1, "--openings must be at least 1");
    let rules = a.game;
    // Build once up front so bad specs and weight files fail before any game.
    let pa = a.a.build(rules)?;
    let pb = a.b.build(rules)?;
    // Each worker thread plays with its own pair: refuse tables that do not
    // all fit now rather than fail in a worker.
    PlayerSpec::ensure_memory(&[&a.a, &a.b], rayon::current_num_threads())?;
    // Likewise refuse a corrupt records file before playing for hours.
    let record_files: Vec<&PathBuf> = a.records.iter().chain(a.sgf.iter()).collect();
    for path in &record_files {
        if path.exists() {
            crate::records::read_records(path, rules)?;
        }
    }
    let openings: Vec<Opening> = match &a.openings_file {
        Some(p) => {
            let mut v = load_openings(p, rules)?;
            v.truncate(a.openings);
            v
        }
        None => {
            let mut style = OpeningStyle::default_for(rules);
            if let Some(s) = a.stones {
                style.stones = s;
            }
            let mut rng = arena::game_rng(a.seed, &[u64::MAX]);
            random_openings(rules, style, a.openings, &mut rng)
        }
    };
    println!(
        "{} vs {} on {}: {} openings x 2 colours, seed {}",
        pa.name(),
        pb.name(),
        rules,
        openings.len(),
        a.seed
    );
    let (sa, sb) = (a.a.clone(), a.b.clone());
    let make_a = move || -> Box<dyn Player> { sa.build(rules).expect("built once already") };
    let make_b = move || -> Box<dyn Player> { sb.build(rules).expect("built once already") };
    let keep_games = !record_files.is_empty();
    let report = match &a.sprt {
        None => arena::run_match(rules, &openings, 0, &make_a, &make_b, a.seed, keep_games)
            .context("a game could not be played")?,
        Some(sprt) => {
            anyhow::ensure!(a.batch >= 1, "--batch must be at least 1");
            let (lower, upper) = sprt.bounds();
            let mut report = MatchReport::default();
            let mut status = SprtStatus::Continue;
            let mut llr = 0.0;
            for (i, chunk) in openings.chunks(a.batch).enumerate() {
                // Seeding by opening index makes a batched match play the
                // same games as an unbatched one.
                let part = arena::run_match(
                    rules,
                    chunk,
                    i * a.batch,
                    &make_a,
                    &make_b,
                    a.seed,
                    keep_games,
                )
                .context("a game could not be played")?;
                report.merge(part);
                llr = sprt.llr_pentanomial(&report.tally.pairs);
                status = sprt.decide(llr);
                eprintln!(
                    "  {:>6} games  LLR {llr:+.2} [{lower:+.2}, {upper:+.2}]  {}",
                    report.games_played(),
                    report.tally.pairs
                );
                if status != SprtStatus::Continue {
                    break;
                }
            }
            let scale = match sprt.model {
                crate::arena::stats::SprtModel::Normalized => "normalized Elo",
                crate::arena::stats::SprtModel::Logistic => "Elo",
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
                SprtStatus::Continue => format!(
                    "inconclusive after {} openings (raise --openings to play on)",
                    openings.len()
                ),
            };
            println!(
                "SPRT {sprt}: {verdict}; LLR {llr:+.2} in [{lower:+.2}, {upper:+.2}] after {} games",
                report.games_played()
            );
            report
        }
    };
    if keep_games {
        let date = crate::records::utc_now();
        let (name_a, name_b) = (a.a.to_string(), a.b.to_string());
        let games: Vec<Record> = report
            .games
            .iter()
            .map(|g| {
                let (black, white) = if g.a_black {
                    (&name_a, &name_b)
                } else {
                    (&name_b, &name_a)
                };
                Record {
                    rules,
                    moves: g.moves.clone(),
                    result: Some(g.outcome),
                    black: black.clone(),
                    white: white.clone(),
                    date: Some(date.clone()),
                }
            })
            .collect();
        for path in &record_files {
            let total = crate::play::append_games(path, &games, rules)?;
            println!(
                "{} games appended to {} ({total} games in the file)",
                games.len(),
                path.display()
            );
        }
    }
    let t = &report.tally;
    println!("A = {}", pa.name());
    println!("B = {}", pb.name());
    println!("A's result: {}", t.games);
    println!("A's pairs:  {}", t.pairs);
    let secs = report.elapsed.as_secs_f64().max(1e-9);
    println!(
        "{} games in {:.2}s ({:.0} games/s), mean {:.1} plies per game",
        t.games.games(),
        secs,
        t.games.games() as f64 / secs,
        report.plies as f64 / t.games.games().max(1) as f64
    );
    Ok(())
}
