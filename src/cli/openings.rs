//! `mnk openings`: generate balanced opening books and measure books.

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mnk::arena::openings::BOOK_HEADER;
use mnk::arena::{Book, BookPart, Opening};
use mnk::game::Rules;
use mnk::openings::{total, Assessor, Generator, OpeningStats, Rank};
use mnk::players::PlayerSpec;
use mnk::train::TrainedPlayer;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::str::FromStr;

/// The subcommands of `mnk openings`.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Draw random openings, assess them in games between perturbed
    /// players, and write the most informative as a book.
    Generate(GenerateArgs),
    /// Measure a book: black's score, 1-1 and 0-0 pairs, distinct openings.
    Stats(StatsArgs),
}

impl Command {
    /// The `--threads` flag of either command.
    pub fn threads(&self) -> super::Threads {
        match self {
            Command::Generate(a) => a.threads,
            Command::Stats(a) => a.threads,
        }
    }
}

/// How the games of an assessment are played.
#[derive(clap::Args, Debug)]
pub struct Trials {
    /// The game: gomoku, gomoku-exact, or WxHxK such as 20x20x5 (-exact for the exact rule).
    #[arg(long, short, default_value = "gomoku")]
    game: Rules,
    /// The player of the trials: greedy or search:... (node- or
    /// depth-limited), on the weights of --weights.
    #[arg(long, default_value = "greedy")]
    player: String,
    /// The reference weights the trials' players are drawn around
    /// (default: the shipped weights of the game).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Trials: pairs of games per opening, each between two fresh perturbed
    /// copies of the reference weights.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1000))]
    trials: u32,
    /// The perturbation's σ: each weight is multiplied by exp(σ·N(0,1)).
    #[arg(long, default_value_t = 0.3)]
    sigma: f64,
    /// The seed of the trials (with generate, also of the candidates).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The flags of `mnk openings generate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  mnk openings generate -o book.txt                      4,000 of 16,000 candidates, gomoku
  mnk openings generate -g 7x6x4 --keep 1000 -o c4.txt
  mnk openings generate --player search:depth=4 --trials 32 -o book4.txt
  mnk train --openings-file book.txt                     train and check on it")]
pub struct GenerateArgs {
    #[command(flatten)]
    trials: Trials,
    /// Worker threads.
    #[command(flatten)]
    threads: super::Threads,
    /// Distinct candidate openings (up to symmetry) to draw and assess.
    #[arg(long, default_value_t = 16_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    candidates: u64,
    /// Openings to keep in the book (every 4th is its check part).
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    keep: u64,
    /// Stones per opening: N, or a range such as 3-5 (drawn uniformly).
    #[arg(long, default_value = "3-5")]
    stones: StoneRange,
    /// Stones lie within this Chebyshev distance of the centre.
    #[arg(long, default_value_t = 3)]
    radius: u8,
    /// What to keep first: balance (black's score nearest 50%, then the
    /// most informative pairs) or discrimination (the pairs most often
    /// went to the trial's stronger player).
    #[arg(long, default_value = "balance")]
    rank: Rank,
    /// Where to write the book (Gomocup offset format).
    #[arg(long, short)]
    output: PathBuf,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// The flags of `mnk openings stats`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  mnk openings stats                     the shipped gomoku book
  mnk openings stats book.txt --part check
  mnk openings stats --random 1000       random openings, as --random-openings draws them")]
pub struct StatsArgs {
    #[command(flatten)]
    trials: Trials,
    /// Worker threads.
    #[command(flatten)]
    threads: super::Threads,
    /// The book (default: the game's shipped book).
    file: Option<PathBuf>,
    /// Which part of the book: all, train or check.
    #[arg(long, default_value = "all", value_parser = parse_part, conflicts_with = "random")]
    part: BookPart,
    /// Random openings instead of a book: this many, as `mnk match` draws them.
    #[arg(long, value_name = "N", conflicts_with = "file")]
    random: Option<usize>,
}

/// A number of stones or an inclusive range of them (`4`, `3-5`).
#[derive(Clone, Debug)]
pub struct StoneRange(std::ops::RangeInclusive<usize>);

/// The fewest and the most stones of `s`, a number of stones (both) or an
/// inclusive range of them, low to high (`3-5`); `example` is a range to
/// show in the error. Shared by every flag that takes stone counts.
pub(super) fn stone_counts(s: &str, example: &str) -> Result<(usize, usize), String> {
    let num = |t: &str| {
        t.trim().parse::<usize>().map_err(|_| {
            format!("expected a number of stones or a range like {example}, found {s:?}")
        })
    };
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(s)?, num(s)?),
    };
    if lo > hi {
        return Err(format!(
            "expected a range from low to high, such as {example}, found {s:?}"
        ));
    }
    Ok((lo, hi))
}

impl FromStr for StoneRange {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (lo, hi) = stone_counts(s, "3-5")?;
        if hi > 64 {
            return Err(format!("expected at most 64 stones, found {s:?}"));
        }
        // An opening of no stones is the empty board: every game of the
        // book would be the same.
        if lo == 0 {
            return Err(format!(
                "expected at least 1 stone (an opening of 0 is the empty board), found {s:?}"
            ));
        }
        Ok(StoneRange(lo..=hi))
    }
}

fn parse_part(s: &str) -> Result<BookPart, String> {
    match s {
        "all" => Ok(BookPart::All),
        "train" => Ok(BookPart::Train),
        "check" => Ok(BookPart::Check),
        _ => Err(format!("expected all, train or check, found {s:?}")),
    }
}

/// Runs `mnk openings`.
pub fn run(c: Command) -> Result<()> {
    match c {
        Command::Generate(a) => generate(a),
        Command::Stats(a) => stats(a),
    }
}

impl Trials {
    fn assessor(&self, seed: u64) -> Result<Assessor> {
        anyhow::ensure!(
            self.sigma.is_finite() && (0.0..=5.0).contains(&self.sigma),
            "--sigma {}: expected a number from 0 to 5",
            self.sigma
        );
        let player = TrainedPlayer::parse(&self.player).context("--player")?;
        let mut spec = PlayerSpec::greedy();
        spec.weights = self.weights.clone();
        let reference = spec.load_weights(self.game).context("--weights")?;
        Ok(Assessor {
            rules: self.game,
            player,
            reference,
            trials: self.trials,
            sigma: self.sigma,
            seed,
        })
    }
}

/// A bar over the trials on a terminal; a line per trial otherwise.
fn trial_bar(what: &str, trials: u32) -> impl FnMut(u32) {
    let terminal = std::io::stderr().is_terminal();
    let bar = ProgressBar::with_draw_target(
        Some(u64::from(trials)),
        if terminal {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    let style =
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] trial {pos}/{len} {msg}")
            .expect("a valid template");
    bar.set_style(style);
    bar.set_message(what.to_string());
    let what = what.to_string();
    move |done| {
        bar.set_position(u64::from(done));
        if !terminal {
            eprintln!("{what}: trial {done}/{trials}");
        }
        if done == trials {
            bar.finish_and_clear();
        }
    }
}

/// Openings distinct up to the board's symmetries.
fn distinct(rules: Rules, openings: &[Opening]) -> usize {
    openings
        .iter()
        .filter_map(|o| o.board(rules).ok())
        .map(|b| b.canonical_hash())
        .collect::<HashSet<_>>()
        .len()
}

/// One line of book statistics.
fn stats_line(rules: Rules, openings: &[Opening], s: &OpeningStats) -> String {
    format!(
        "{} openings ({} distinct up to symmetry); {}",
        openings.len(),
        distinct(rules, openings),
        s
    )
}

fn generate(a: GenerateArgs) -> Result<()> {
    let t = &a.trials;
    anyhow::ensure!(
        a.force || !a.output.exists(),
        "{} exists; pass --force to overwrite it",
        a.output.display()
    );
    anyhow::ensure!(
        a.keep <= a.candidates,
        "--keep {} is more than --candidates {}",
        a.keep,
        a.candidates
    );
    let cells = t.game.cells();
    anyhow::ensure!(
        *a.stones.0.end() < cells,
        "--stones {}-{}: a {} board has only {cells} cells",
        a.stones.0.start(),
        a.stones.0.end(),
        t.game,
    );
    let generator = Generator {
        assessor: t.assessor(t.seed)?,
        candidates: a.candidates as usize,
        keep: a.keep as usize,
        stones: a.stones.0.clone(),
        radius: a.radius,
        rank: a.rank,
    };
    let started = std::time::Instant::now();
    let g = generator.generate(&mut trial_bar("assessing candidates", t.trials))?;
    let chosen = total(&g.stats);
    // The kept openings were chosen for their stats: measure them again on
    // fresh players for a fair figure.
    let fresh_seed = t.seed.wrapping_add(1_000_003);
    let fresh = t.assessor(fresh_seed)?.assess(
        &g.openings,
        &mut trial_bar("reassessing the book", t.trials),
    )?;
    let fresh = total(&fresh);
    let candidates = total(&g.candidates);
    let rules = t.game;
    let lines = [
        format!("candidates: {} drawn; {candidates}", g.drawn),
        format!(
            "kept (as chosen, seed {}): {}",
            t.seed,
            stats_line(rules, &g.openings, &chosen)
        ),
        format!(
            "kept (fresh players, seed {fresh_seed}): {}",
            stats_line(rules, &g.openings, &fresh)
        ),
    ];
    // Named `mnk` whatever the program's path, so the line can be rerun.
    let command = std::iter::once("mnk".to_string())
        .chain(std::env::args().skip(1))
        .map(|s| shlex::try_quote(&s).map(|q| q.into_owned()).unwrap_or(s))
        .collect::<Vec<_>>()
        .join(" ");
    let mut text = format!(
        "{BOOK_HEADER}{rules}, Gomocup offset format (x,y offsets from the centre, black first).\n\
         # Made by: {command}\n\
         # Trials: {} pairs of games per opening between two copies of the {} weights, each weight\n\
         # multiplied by exp({}*N(0,1)), player {}. Ranked by {}; best first.\n\
         # Every 4th opening (lines of openings 4, 8, ...) is the check part: training draws only\n\
         # from the others, and checks, verdicts and `mnk match` play the check part.\n",
        t.trials,
        t.weights.as_ref().map_or("shipped".to_string(), |p| p.display().to_string()),
        t.sigma,
        t.player,
        match a.rank {
            Rank::Balance => "black's score nearest 50%, then informative pairs (not 1-1 or 0-0)",
            Rank::Discrimination => "how often the trial's stronger player won the pair, then informative pairs, then balance",
        }
    );
    for l in &lines {
        text.push_str(&format!("# {l}\n"));
    }
    for o in &g.openings {
        text.push_str(&o.to_offsets(rules));
        text.push('\n');
    }
    mnk::util::write_atomic(&a.output, text.as_bytes())
        .with_context(|| format!("cannot write {}", a.output.display()))?;
    for l in &lines {
        println!("{l}");
    }
    if g.openings.len() < generator.keep {
        eprintln!(
            "warning: only {} distinct candidates could be drawn on {rules} with {}-{} stones: the book holds {} openings, not the {} asked",
            g.drawn,
            a.stones.0.start(),
            a.stones.0.end(),
            g.openings.len(),
            generator.keep
        );
    }
    println!(
        "wrote {} openings to {} in {:.1} s",
        g.openings.len(),
        a.output.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn stats(a: StatsArgs) -> Result<()> {
    let t = &a.trials;
    let rules = t.game;
    let (source, openings) = match (&a.file, a.random) {
        (_, Some(n)) => {
            anyhow::ensure!(n >= 1, "--random must be at least 1");
            let style = mnk::arena::OpeningStyle::default_for(rules);
            let mut rng = mnk::arena::game_rng(t.seed, &[u64::MAX]);
            (
                format!("{n} random openings of {} stones", style.stones),
                mnk::arena::random_openings(rules, style, n, &mut rng),
            )
        }
        (Some(p), None) => {
            let book = Book::load(p, rules)?;
            (format!("{} ({})", book.source, a.part), book.part(a.part))
        }
        (None, None) => {
            let book = Book::shipped(rules).with_context(|| {
                format!("mnk ships no book for {rules}; name a book file, or use --random N")
            })?;
            (format!("{} ({})", book.source, a.part), book.part(a.part))
        }
    };
    anyhow::ensure!(!openings.is_empty(), "{source}: no openings in this part");
    let s = t
        .assessor(t.seed)?
        .assess(&openings, &mut trial_bar("assessing", t.trials))?;
    println!(
        "{source}, player {}, {} trials, σ {}, seed {}",
        t.player, t.trials, t.sigma, t.seed
    );
    println!("{}", stats_line(rules, &openings, &total(&s)));
    Ok(())
}
