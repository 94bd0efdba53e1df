//! `mnk train`'s progress: a bar on a terminal (a log line per check
//! otherwise), a line for every adopted challenger and every decision of
//! the plateau rule (either way), plots redrawn now and then, and a clean
//! stop on Ctrl-C.

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mnk::train::{CommitGuard, Observer, RoundEvent, Trainer};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Ctrl-C: wait until no round is being written, say where the run
/// stopped and how to continue it, and exit with 130 (128 + SIGINT).
/// Rounds are written whole under the trainer's [`CommitGuard`], so the
/// folder holds only complete rounds.
///
/// [`CommitGuard`]: mnk::train::CommitGuard
pub fn stop_on_ctrl_c(t: &Trainer, bar: ProgressBar) -> Result<()> {
    let commit = t.commit_guard();
    let dir = t.dir().path().display().to_string();
    ctrlc::set_handler(move || {
        let last = commit.hold();
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
            check: String::new(),
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
            self.bar.println(line);
        } else {
            eprintln!("{line}");
        }
    }
}

impl Observer for Progress {
    fn phase(&mut self, what: &str) {
        self.bar.set_message(what.to_string());
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
        self.bar.set_message(format!(
            "| {:.0} games/s{sharing} | champion {champion} | {}",
            e.games_per_second, self.check
        ));
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
                eprintln!(
                    "round {}: {} | check: {}{sharing}",
                    r.round,
                    r.describe(),
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
    }
}
