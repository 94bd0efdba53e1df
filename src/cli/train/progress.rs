//! `mnk train`'s progress: a bar on a terminal (a log line per check
//! otherwise), a line for every adopted challenger and every decision of
//! the plateau rule (either way), plots redrawn now and then, and a clean
//! stop on Ctrl-C.

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mnk::train::{CmaesOpponent, CommitGuard, Observer, RoundEvent, Trainer};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The last round whose line the progress has printed (-1: none yet),
/// shared with the Ctrl-C handler.
pub type Told = Arc<AtomicI64>;

/// Ctrl-C: wait until no round is being written, say where the run
/// stopped and how to continue it, and exit with 130 (128 + SIGINT).
/// Rounds are written whole under the trainer's [`CommitGuard`], so the
/// folder holds only complete rounds.
///
/// [`CommitGuard`]: mnk::train::CommitGuard
pub fn stop_on_ctrl_c(t: &Trainer, bar: ProgressBar, told: Told) -> Result<()> {
    let commit = t.commit_guard();
    let dir = t.dir().path().display().to_string();
    ctrlc::set_handler(move || {
        // The last round written may not have had its own line yet (the
        // trainer tells the observer after the write): wait a moment for
        // it, so that "stopped after round N" comes after round N's line.
        // The guard is let go while waiting, since telling a round may
        // need it (a plot redraw).
        let deadline = Instant::now() + Duration::from_secs(2);
        let last = loop {
            let last = commit.hold();
            let told_it = match *last {
                Some(r) => told.load(Ordering::SeqCst) >= i64::from(r),
                None => true,
            };
            if told_it || Instant::now() >= deadline {
                break last;
            }
            drop(last);
            std::thread::sleep(Duration::from_millis(5));
        };
        bar.finish_and_clear();
        let stopped = match *last {
            Some(r) => format!("stopped after round {r}"),
            None => "stopped before round 0".to_string(),
        };
        // The terminal echoed "^C" without a newline.
        let newline = if std::io::stderr().is_terminal() {
            "\n"
        } else {
            ""
        };
        eprintln!("{newline}{stopped}; continue with: mnk train --resume {dir}");
        std::process::exit(130);
    })
    .context("cannot catch Ctrl-C")
}

/// The progress bar (drawn only on a terminal; a log line per check
/// otherwise), and periodic plots.
pub struct Progress {
    /// The bar (hidden when stderr is not a terminal).
    pub bar: ProgressBar,
    commit: CommitGuard,
    budget: bool,
    terminal: bool,
    plots: bool,
    dir: PathBuf,
    last_plot: Instant,
    /// Games played by this process's rounds.
    pub games: u64,
    /// Wall time of this process's rounds.
    pub round_seconds: f64,
    check: String,
    /// Whom a CMA-ES run's candidates play (named in its log lines).
    opponent: CmaesOpponent,
    /// The last round told.
    pub told: Told,
}

impl Progress {
    /// A bar for `t`'s rounds played out of planned (or games, under a
    /// game budget); `plots`: redraw the plots now and then. Round 0, the
    /// start weights, is not counted: a run of 30 rounds ends at 30/30.
    /// The message takes the width the rest leaves and is cut to it, so
    /// the bar stays one line on any terminal (a wrapped bar is redrawn
    /// as a new line at every tick).
    pub fn new(t: &Trainer, plots: bool, commit: CommitGuard) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let budget = t.config().max_games;
        let bar = ProgressBar::with_draw_target(
            Some(if budget > 0 {
                budget
            } else {
                u64::from(t.config().rounds)
            }),
            if terminal {
                ProgressDrawTarget::stderr()
            } else {
                ProgressDrawTarget::hidden()
            },
        );
        bar.set_style(
            ProgressStyle::with_template(if budget > 0 {
                "{elapsed_precise} [{bar:20}] games {human_pos}/{human_len} eta {eta} {wide_msg}"
            } else {
                "{elapsed_precise} [{bar:20}] round {pos}/{len} eta {eta} {wide_msg}"
            })
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_position(if budget > 0 {
            t.games_played()
        } else {
            u64::from(t.next_round().saturating_sub(1))
        });
        bar.enable_steady_tick(Duration::from_millis(500));
        Progress {
            bar,
            commit,
            budget: budget > 0,
            terminal,
            plots,
            dir: t.dir().path().to_path_buf(),
            last_plot: Instant::now(),
            games: 0,
            round_seconds: 0.0,
            opponent: t.config().cmaes_config().opponent,
            check: String::new(),
            // Rounds written before this process (a resume) need no line.
            told: Arc::new(AtomicI64::new(i64::from(t.next_round()) - 1)),
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// A line of the log: above the bar on a terminal (so the bar is
    /// redrawn under it, not broken), on stderr otherwise.
    fn log(&self, line: String) {
        if self.terminal {
            // Wrapped at words to the terminal, so an 80-column one does
            // not break a line mid-word.
            let width = console::Term::stderr().size().1 as usize;
            self.bar.println(fit(&line, width));
        } else {
            eprintln!("{line}");
        }
    }
}

impl Observer for Progress {
    fn phase(&mut self, what: &str) {
        self.bar.set_message(ascii(what));
        if !self.terminal {
            eprintln!("{what}");
        }
    }

    fn round(&mut self, e: &RoundEvent<'_>) {
        let r = e.result;
        self.games += r.total_games();
        self.round_seconds += e.round_seconds;
        if let Some(c) = e.latest_check {
            self.check = format!("check r{}: {}", c.round, c.summary());
        }
        let champion = if r.round == 0 {
            "start".to_string()
        } else if let Some(s) = &r.spsa {
            format!("a_k {:.3} diff {:+.3}", s.a_k, s.score_diff())
        } else if let Some(g) = &r.cmaes {
            let best = g
                .tallies
                .iter()
                .map(|t| t.wins as i64 - t.losses as i64)
                .max();
            format!("σ {:.3} best {:+}", g.sigma, best.unwrap_or(0))
        } else if let Some(c) = &r.confirm {
            format!(
                "c{} {} {}",
                c.candidate,
                if c.passed() { "confirmed" } else { "rejected" },
                c.tally.games
            )
        } else if r.champion == 0 {
            format!("kept {:+}", r.score(0))
        } else {
            format!("c{} {:+}", r.champion, r.score(r.champion))
        };
        if self.budget {
            self.bar.inc(r.total_games());
        } else {
            self.bar.set_position(u64::from(r.round));
        }
        // In a job of several processes: how long the ranks waited for
        // the slowest, and the sums' own cost.
        let sharing = match e.sharing.batches {
            0 => String::new(),
            _ => format!(
                " | idle {:.0} ms, comm {:.1} ms",
                e.sharing.idle.as_secs_f64() * 1e3,
                e.sharing.comm.as_secs_f64() * 1e3
            ),
        };
        self.bar.set_message(ascii(&format!(
            "| {:.0} games/s{sharing} | champion {champion} | {}",
            e.games_per_second, self.check
        )));
        // Adoptions are rare and the plateau rule's decisions rarer: each
        // is worth a line, where a line per round would drown them. Printed
        // after the bar moved, so that it is redrawn as it now stands.
        if let Some(line) = r.adoption() {
            self.log(format!("round {}: {line}", r.round));
        }
        if let Some(c) = &e.sigma_change {
            self.log(format!("round {}: {}", c.round, c.describe()));
        }
        if let Some(c) = e.check {
            if !self.terminal {
                let what = match &r.cmaes {
                    Some(g) => g.describe_against(self.opponent),
                    None => r.describe(),
                };
                eprintln!(
                    "round {}: {what} | check: {}{sharing}",
                    r.round,
                    c.summary()
                );
            }
            // Redraw the plots now and then, so a long run can be watched.
            if self.plots && self.last_plot.elapsed() > Duration::from_secs(60) {
                // A failed redraw is not worth stopping training for; the
                // final plots report their errors.
                let _writing = self.commit.hold();
                let _ = mnk::plot::plot_run(&self.dir);
                self.last_plot = Instant::now();
            }
        }
        self.told.store(i64::from(r.round), Ordering::SeqCst);
    }
}

/// The bar's message in ASCII (`±` as `+-`, `σ` as `s`): indicatif cuts
/// a message that is too wide by bytes, not columns, so a `±` near the end
/// left the bar one column wider than the terminal, and it wrapped.
fn ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '±' => out.push_str("+-"),
            '−' | '–' => out.push('-'),
            'σ' => out.push('s'),
            c if c.is_ascii() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// `line` wrapped at spaces to lines of at most `width` columns (a word
/// longer than that stays whole), later lines indented by 4 spaces.
fn fit(line: &str, width: usize) -> String {
    let width = width.max(20);
    let mut out = String::new();
    let mut len = 0;
    for word in line.split(' ') {
        let w = console::measure_text_width(word);
        if len > 0 && len + 1 + w > width {
            out.push_str("\n    ");
            len = 4;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(word);
        len += w;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fit;

    #[test]
    fn long_lines_wrap_at_words_within_the_width() {
        let line = "round 12: adopted challenger 3 (wins − losses +412 of 16,000 games, 51.3%), best in the round robin";
        let wrapped = fit(line, 80);
        assert_eq!(
            wrapped,
            "round 12: adopted challenger 3 (wins − losses +412 of 16,000 games, 51.3%), best\n    in the round robin"
        );
        for l in wrapped.lines() {
            assert!(console::measure_text_width(l) <= 80, "{l}");
        }
        assert_eq!(fit("short", 80), "short");
    }

    #[test]
    fn the_bar_message_is_ascii_so_it_is_cut_to_the_width() {
        let m = super::ascii("| champion c3 +12 | check r4: vs start 52.0% Elo +14±21, σ 0.3 −");
        assert_eq!(
            m,
            "| champion c3 +12 | check r4: vs start 52.0% Elo +14+-21, s 0.3 -"
        );
        assert!(m.is_ascii());
    }
}
