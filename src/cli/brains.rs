//! `mnk brains "CMD_A" "CMD_B"`: two Gomocup engines (any programs that
//! speak the pbrain protocol) over paired openings at a fixed time per
//! move. The match runs in [`mnk::arena::brains`]; this parses the flags,
//! prints progress and the report, and saves the games. Ctrl-C ends the
//! games in progress, kills the engines and gives the result so far.

use super::matches::{append_records, print_sprt, OpeningSource};
use anyhow::{Context, Result};
use mnk::arena::brains::{
    check_match, run_brains, BrainGame, BrainsReport, EngineCommand, EngineStats, Hooks, Progress,
    Settings,
};
use mnk::arena::stats::{PairedTally, SprtParams};
use mnk::game::{Rule, Rules};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The flags of `mnk brains`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  mnk brains \"mnk brain\" \"mnk brain --weights weights/gomoku.toml\" -n 100 --turn-ms 100
  mnk brains \"./pbrain-other\" \"mnk brain\" --sprt elo0=0,elo1=50 -n 1000 --concurrency 2
  mnk brains \"mnk brain\" \"mnk brain --depth 4\" -n 20 --records games.sgf")]
pub struct Args {
    /// Engine A's command line, e.g. "target/release/mnk brain --verbose"
    /// (split into words as a shell would).
    #[arg(value_name = "CMD_A")]
    engine_a: String,
    /// Engine B's command line.
    #[arg(value_name = "CMD_B")]
    engine_b: String,
    #[command(flatten)]
    source: OpeningSource,
    /// Seed for the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time per move sent to the engines (INFO timeout_turn), in ms.
    #[arg(long, default_value_t = 100, value_name = "MS")]
    turn_ms: u64,
    /// Time per game and engine (INFO timeout_match and time_left), in ms
    /// [default: none, sent as 0].
    #[arg(long, value_name = "MS")]
    match_ms: Option<u64>,
    /// How much later than its limit a move may come before it loses on time, in ms.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    tolerance_ms: u64,
    /// Board side (START n), 5 to 26.
    #[arg(long, default_value_t = 15, value_name = "N",
          value_parser = clap::value_parser!(u32).range(5..=26))]
    board: u32,
    /// Five in a row or more (freestyle), or exactly five (exact; INFO rule 1).
    #[arg(long, default_value = "freestyle", value_name = "RULE")]
    rule: Rule,
    /// Stop as soon as a sequential test decides whether A is stronger:
    /// elo0=0,elo1=10[,alpha=0.05,beta=0.05,model=normalized|logistic]
    /// (pentanomial statistics over pairs, looked at after every
    /// --concurrency openings).
    #[arg(long, value_name = "PARAMS")]
    sprt: Option<SprtParams>,
    /// Games played at once (each engine process is single-threaded).
    #[arg(long, default_value_t = 1, value_name = "C")]
    concurrency: usize,
    /// Append every game to this records file (the original CSV layout; SGF if it ends in .sgf).
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// Show every line sent to and read from the engines, and their stderr, on stderr.
    #[arg(long)]
    verbose_engines: bool,
}

/// Plays the match, prints progress to stderr and the report to stdout.
pub fn run(a: Args) -> Result<()> {
    anyhow::ensure!(a.concurrency >= 1, "--concurrency must be at least 1");
    // A write to a dead engine is an error the game handles (the engine
    // loses), not a SIGPIPE that kills the runner.
    super::set_sigpipe(true);
    let rules = Rules::new(a.board, a.board, 5, a.rule)?;
    let commands = [
        a.engine_a.parse::<EngineCommand>()?,
        a.engine_b.parse::<EngineCommand>()?,
    ];
    let record_files: Vec<PathBuf> = a.records.iter().cloned().collect();
    // A corrupt records file is refused before the match, not after it.
    for path in &record_files {
        if path.exists() {
            mnk::records::read_records(path, rules)?;
        }
    }
    let (openings, from) = a.source.openings(rules, a.seed)?;
    let settings = Settings {
        rules,
        turn_ms: a.turn_ms,
        match_ms: a.match_ms,
        tolerance_ms: a.tolerance_ms,
        concurrency: a.concurrency,
        show_stderr: a.verbose_engines,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let on_ctrl_c = Arc::clone(&stop);
    ctrlc::set_handler(move || {
        // The first Ctrl-C ends the games in progress and reports; a
        // second one leaves at once.
        if on_ctrl_c.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .context("cannot handle Ctrl-C")?;
    // Engines that cannot start fail here, before the header.
    check_match(&settings, &commands, &openings, &stop)?;
    // No engine runs while the header and the report are printed: a closed
    // stdout then ends mnk quietly, as it does for the other commands.
    super::set_sigpipe(false);
    println!(
        "{} vs {} on {}: {} openings x 2 colours ({from}), seed {}",
        a.engine_a,
        a.engine_b,
        rules,
        openings.len(),
        a.seed
    );
    let match_time = a
        .match_ms
        .map_or(String::new(), |m| format!(", {m} ms a game"));
    println!(
        "{} ms a move{match_time} (+{} ms tolerance), {} game(s) at once",
        a.turn_ms, a.tolerance_ms, a.concurrency
    );
    let _ = std::io::stdout().flush();
    super::set_sigpipe(true);
    let total_pairs = openings.len();
    let sprt = a.sprt;
    let on_game = |_: &BrainGame, p: &Progress| {
        if p.pair_done {
            eprintln!("{}", progress_line(&p.tally, total_pairs, sprt.as_ref()));
        }
    };
    let log = |line: &str| eprintln!("{line}");
    let hooks = Hooks {
        stop: &stop,
        on_game: &on_game,
        log: if a.verbose_engines { Some(&log) } else { None },
    };
    let report = run_brains(&settings, &commands, &openings, a.sprt.as_ref(), &hooks)?;
    super::set_sigpipe(false);
    if report.stopped {
        println!(
            "\nInterrupted after {} of {} games.",
            report.games.len(),
            2 * openings.len()
        );
    }
    if !record_files.is_empty() {
        if report.games.is_empty() {
            println!("No game had ended, so none was saved.");
        } else {
            let games: Vec<_> = report.games.iter().map(|g| g.game.clone()).collect();
            append_records(rules, (&a.engine_a, &a.engine_b), &record_files, &games)?;
        }
    }
    print_report(&a, &report, openings.len());
    if report.stopped {
        let _ = std::io::stdout().flush();
        std::process::exit(130);
    }
    Ok(())
}

/// A line after each pair: games, W/D/L, score, Elo ± (pentanomial once
/// there are pairs) and, with an SPRT, the LLR and its bounds.
fn progress_line(t: &PairedTally, total_pairs: usize, sprt: Option<&SprtParams>) -> String {
    let mut line = format!(
        "  {:>3}/{total_pairs} pairs  {} games  W {} D {} L {} ({:.1}%)  {}",
        t.pairs.pairs(),
        t.games.games(),
        t.games.wins,
        t.games.draws,
        t.games.losses,
        100.0 * t.games.score(),
        t.pairs.elo_range()
    );
    if let Some(s) = sprt {
        let (lower, upper) = s.bounds();
        let llr = s.llr_pentanomial(&t.pairs);
        line += &format!("  LLR {llr:+.2} [{lower:+.2}, {upper:+.2}]");
    }
    line
}

fn print_report(a: &Args, r: &BrainsReport, openings: usize) {
    let t = &r.report.tally;
    if let (Some(sprt), Some((llr, status))) = (&a.sprt, r.sprt) {
        print_sprt(sprt, status, llr, openings, t.games.games());
    }
    println!("A = {}", a.engine_a);
    println!("B = {}", a.engine_b);
    println!("A's result: {}", t.games);
    println!("A's pairs:  {}", t.pairs);
    let games = t.games.games();
    println!(
        "{games} games in {:.1}s, mean {:.1} plies per game",
        r.report.elapsed.as_secs_f64(),
        r.report.plies as f64 / games.max(1) as f64
    );
    println!();
    println!(
        "engine  moves  mean ms  slowest ms  over {} ms  forfeits  faults",
        a.turn_ms
    );
    for (label, e) in ['A', 'B'].iter().zip(&r.engines) {
        println!(
            "{label:<6} {:>6} {:>8.1} {:>11} {:>11} {:>9} {:>7}",
            e.moves,
            e.mean_ms(),
            e.slowest.as_millis(),
            e.over_limit,
            e.forfeits,
            e.faults
        );
    }
    println!();
    println!("win claims (moves / games; withdrawn: in games not won)");
    for (label, e) in ['A', 'B'].iter().zip(&r.engines) {
        println!("{label:<6} {}", claims_text(e));
    }
    for (label, e) in ['A', 'B'].iter().zip(&r.engines) {
        let l = &e.likely;
        println!(
            "{label:<6} likely {} moves ({} withdrawn) in {} games ({} withdrawn)",
            l.moves, l.withdrawn_moves, l.games, l.withdrawn_games
        );
    }
    for (label, e) in ['A', 'B'].iter().zip(&r.engines) {
        for reason in &e.reasons {
            println!("{label} lost {reason}");
        }
        let lost = e.forfeits + e.faults;
        if lost > e.reasons.len() as u64 {
            println!(
                "{label} lost {} more game(s) by faults",
                lost - e.reasons.len() as u64
            );
        }
    }
}

/// `claims 12 moves (3 withdrawn) in 4 games (1 withdrawn); proven 2 (0) in 1 (0)`.
fn claims_text(e: &EngineStats) -> String {
    let (c, p) = (&e.claims, &e.proven);
    format!(
        "claims {} moves ({} withdrawn) in {} games ({} withdrawn); proven {} moves ({} withdrawn) in {} games ({} withdrawn)",
        c.moves, c.withdrawn_moves, c.games, c.withdrawn_games,
        p.moves, p.withdrawn_moves, p.games, p.withdrawn_games
    )
}
