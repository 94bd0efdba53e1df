//! The running line of `mnk match`, as cutechess and fastchess show one:
//! games played, W/D/L, score, Elo ± (pentanomial once there are pairs),
//! LOS and, with an SPRT, the LLR and its bounds.
//!
//! On a terminal it is a bar on stderr, redrawn at most five times a
//! second. Elsewhere (a log file, a pipe, CI) it is a line on stderr every
//! `--progress-every` seconds; such a line always ends in the time and
//! `games/s`, since when it appears depends on the clock (tests comparing
//! runs filter timing lines by that mark). Only the process that prints
//! (rank 0 of a job) has one that shows anything.

use super::lock;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mnk::arena::stats::{GameResult, PairedTally, SprtParams};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the bar's text is recomputed (the LLR is a small solve).
const REDRAW: Duration = Duration::from_millis(200);

/// The running line; clones share it.
#[derive(Clone)]
pub(super) struct Live(Option<Arc<Inner>>);

struct Inner {
    /// The bar on a terminal; `None` prints lines instead.
    bar: Option<ProgressBar>,
    /// Seconds between lines away from a terminal (`None`: no lines).
    every: Option<Duration>,
    total: u64,
    sprt: Option<SprtParams>,
    start: Instant,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    tally: PairedTally,
    /// Games whose partner (the same opening, colours swapped) has not
    /// ended yet, by opening.
    waiting: HashMap<usize, GameResult>,
    /// When the text was last shown.
    shown: Option<Instant>,
}

impl Live {
    /// The running line of a match of `total` games; `show`: whether this
    /// process prints; `every`: seconds between lines away from a
    /// terminal (0: none).
    pub(super) fn new(show: bool, total: u64, sprt: Option<SprtParams>, every: f64) -> Live {
        if !show {
            return Live(None);
        }
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                // The text takes the width the rest leaves and is cut to
                // it, so the bar stays on one line; a short bar leaves it
                // room (the least needed part, LOS, comes last).
                ProgressStyle::with_template("[{bar:12}] {pos}/{len} {wide_msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        });
        Live(Some(Arc::new(Inner {
            bar,
            every: (every > 0.0).then(|| Duration::from_secs_f64(every)),
            total,
            sprt,
            start: Instant::now(),
            state: Mutex::new(State::default()),
        })))
    }

    /// One game ended: `(opening, A's result)`.
    pub(super) fn game(&self, (opening, result): &(usize, GameResult)) {
        let Some(inner) = &self.0 else { return };
        let mut s = lock(&inner.state);
        s.tally.games.add(*result);
        match s.waiting.remove(opening) {
            Some(other) => s.tally.pairs.add_outcomes(other, *result),
            None => {
                s.waiting.insert(*opening, *result);
            }
        }
        inner.show(&mut s, false);
    }

    /// The result so far, all of it (a batch of a job's match ended).
    pub(super) fn tally(&self, t: &PairedTally) {
        let Some(inner) = &self.0 else { return };
        let mut s = lock(&inner.state);
        s.tally = *t;
        s.waiting.clear();
        inner.show(&mut s, true);
    }

    /// A line of its own: above the bar on a terminal, on stderr otherwise.
    pub(super) fn println(&self, line: String) {
        match self.0.as_deref() {
            Some(Inner { bar: Some(bar), .. }) => bar.println(line),
            Some(_) => eprintln!("{line}"),
            None => {}
        }
    }

    /// Clears the bar, before the closing lines.
    pub(super) fn finish(&self) {
        if let Some(Inner { bar: Some(bar), .. }) = self.0.as_deref() {
            bar.finish_and_clear();
        }
    }
}

impl Inner {
    /// Shows the state if it is time to (or `now`, after a batch on a
    /// terminal).
    fn show(&self, s: &mut State, now: bool) {
        let games = s.tally.games.games();
        match &self.bar {
            Some(bar) => {
                bar.set_position(games);
                if now || s.shown.is_none_or(|t| t.elapsed() >= REDRAW) {
                    bar.set_message(text(&s.tally, self.sprt.as_ref()));
                    s.shown = Some(Instant::now());
                }
            }
            None => {
                let Some(every) = self.every else { return };
                let since = s.shown.unwrap_or(self.start);
                if since.elapsed() >= every && games < self.total {
                    let secs = self.start.elapsed().as_secs_f64();
                    eprintln!(
                        "  {games}/{} games  {}  {secs:.0}s, {:.1} games/s",
                        self.total,
                        text(&s.tally, self.sprt.as_ref()),
                        games as f64 / secs.max(1e-9)
                    );
                    s.shown = Some(Instant::now());
                }
            }
        }
    }
}

/// `W 30 D 4 L 28 (51.6%)  Elo +11.2 ± 80.3  LLR +0.12 [-2.94, +2.94]  LOS 60.3%`.
fn text(t: &PairedTally, sprt: Option<&SprtParams>) -> String {
    let g = &t.games;
    let elo = match t.pairs.pairs() {
        0 => g.elo_range(),
        _ => t.pairs.elo_range(),
    };
    let mut line = format!(
        "W {} D {} L {} ({:.1}%)  {elo}",
        g.wins,
        g.draws,
        g.losses,
        100.0 * g.score(),
    );
    if let Some(p) = sprt {
        let (lower, upper) = p.bounds();
        let llr = p.llr_pentanomial(&t.pairs);
        line += &format!("  LLR {llr:+.2} [{lower:+.2}, {upper:+.2}]");
    }
    line + &format!("  LOS {:.1}%", 100.0 * g.los())
}
