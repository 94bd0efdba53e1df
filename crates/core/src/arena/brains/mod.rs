//! Matches between two Gomocup engines (external programs speaking the
//! pbrain protocol), as cutechess or fastchess run chess engines: every
//! opening is played twice with colours swapped, each game by two fresh
//! processes at a fixed time per move, and the results are rated with the
//! same paired statistics and SPRT as `mnk match`.
//!
//! Engines are untrusted: a late, illegal or unparsable answer, a crash or
//! a closed pipe loses the game for that engine and is counted with its
//! reason ([`Fault`]); nothing an engine prints can hang or crash the
//! runner. Beside the results, each engine's answer times and its win
//! claims (`MESSAGE … eval win in N …`, as `mnk brain --verbose` prints)
//! are counted, and claims made in games the engine did not win are
//! counted as withdrawn.
//!
//! Game `i` of a match is opening `i / 2` with engine A black when `i` is
//! even; games run `concurrency` at a time and are reported in match order,
//! so the report does not depend on the concurrency except through the
//! engines' own timing.

mod engine;
mod errors;
mod game;

pub use engine::{EngineCommand, END_GRACE, MAX_LINE};
pub use errors::{BrainsError, Fault};
pub use game::{message_eval, LABELS, START_WAIT};

use super::matches::{MatchReport, PlayedGame};
use super::openings::Opening;
use super::sprt_match::run_sprt_match;
use super::stats::{GameResult, PairedTally, SprtParams, SprtStatus};
use engine::Engine;
use game::Context;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Fault reasons kept per engine for the report.
pub const MAX_REASONS: usize = 5;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The board (`START` or `RECTSTART`) and rule (`INFO rule`: 0
    /// freestyle, 1 exact five) sent to the engines, and the rules the
    /// runner judges by.
    pub rules: crate::game::Rules,
    /// `INFO timeout_turn`, in milliseconds.
    pub turn_ms: u64,
    /// `INFO timeout_match` (and `time_left` before every move) in
    /// milliseconds; `None` sends `timeout_match 0`, no limit.
    pub match_ms: Option<u64>,
    /// How much later than the limit a move may arrive before it loses.
    pub tolerance_ms: u64,
    /// Games played at once (at least 1).
    pub concurrency: usize,
    /// Pass the engines' stderr through (else discarded).
    pub show_stderr: bool,
}

/// Callbacks and the stop flag of a match.
pub struct Hooks<'a> {
    /// Once set, games in progress are abandoned (not counted), their
    /// engines killed, and no new game starts.
    pub stop: &'a AtomicBool,
    /// Called as each game ends (in any order), with the running result.
    pub on_game: &'a (dyn Fn(&BrainGame, &Progress) + Sync),
    /// Every line sent to or read from an engine, when given.
    pub log: Option<&'a (dyn Fn(&str) + Sync)>,
}

impl std::fmt::Debug for Hooks<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hooks")
            .field("stop", &self.stop)
            .field("log", &self.log.is_some())
            .finish_non_exhaustive()
    }
}

/// The running result handed to [`Hooks::on_game`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// A's results over the games ended so far (pairs once both games of
    /// an opening have ended).
    pub tally: PairedTally,
    /// Whether this game completed a pair.
    pub pair_done: bool,
}

/// One engine's figures in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Moves answered (and accepted).
    pub moves: u64,
    /// Their answer times, summed.
    pub answer_total: Duration,
    /// The slowest answer.
    pub slowest: Duration,
    /// Answers later than the turn limit (but within the tolerance).
    pub over_limit: u64,
    /// Moves whose `MESSAGE` eval starts with `win in`.
    pub claims: u64,
    /// Those of them whose eval also says `proven`.
    pub proven_claims: u64,
    /// Moves whose `MESSAGE` eval starts with `likely win`: a win the
    /// engine believes but has not proven.
    pub likely_claims: u64,
}

/// A game of a brain match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrainGame {
    /// Opening, colours, moves (the opening's included) and outcome.
    pub game: PlayedGame,
    /// Engine A's and B's figures.
    pub stats: [GameStats; 2],
    /// The engine (0 for A, 1 for B) whose fault ended the game, and the
    /// fault.
    pub fault: Option<(usize, Fault)>,
}

impl BrainGame {
    /// The game's number in the match, from 0.
    pub fn index(&self) -> usize {
        2 * self.game.opening + usize::from(!self.game.a_black)
    }

    /// The result for engine `i` (0 for A, 1 for B).
    pub fn result_for(&self, i: usize) -> GameResult {
        let a = self.game.a_result();
        if i == 0 {
            a
        } else {
            a.reversed()
        }
    }
}

/// Win claims of one engine over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Claims {
    /// Moves with a claim.
    pub moves: u64,
    /// Of those, moves in games the engine did not win.
    pub withdrawn_moves: u64,
    /// Games with at least one claim.
    pub games: u64,
    /// Games with at least one claim that the engine did not win.
    pub withdrawn_games: u64,
}

impl Claims {
    fn add(&mut self, claims: u64, won: bool) {
        self.moves += claims;
        self.games += u64::from(claims > 0);
        if !won {
            self.withdrawn_moves += claims;
            self.withdrawn_games += u64::from(claims > 0);
        }
    }
}

/// One engine's figures over a match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineStats {
    /// Games played.
    pub games: u64,
    /// Moves answered.
    pub moves: u64,
    /// Their answer times, summed.
    pub answer_total: Duration,
    /// The slowest answer.
    pub slowest: Duration,
    /// Answers later than the turn limit but within the tolerance.
    pub over_limit: u64,
    /// Games lost on time.
    pub forfeits: u64,
    /// Games lost by any other fault (crash, illegal or unparsable answer,
    /// a refused board, a failed start).
    pub faults: u64,
    /// The first [`MAX_REASONS`] faults, forfeits included, in match
    /// order: `game 7: time forfeit: …`.
    pub reasons: Vec<String>,
    /// Win claims.
    pub claims: Claims,
    /// Win claims that say `proven`.
    pub proven: Claims,
    /// Claims of a likely (unproven) win.
    pub likely: Claims,
}

impl EngineStats {
    /// The mean answer time in milliseconds (0 without moves).
    pub fn mean_ms(&self) -> f64 {
        if self.moves == 0 {
            return 0.0;
        }
        self.answer_total.as_secs_f64() * 1000.0 / self.moves as f64
    }

    /// Adds engine `i`'s part of a game.
    fn add(&mut self, g: &BrainGame, i: usize) {
        let s = &g.stats[i];
        self.games += 1;
        self.moves += s.moves;
        self.answer_total += s.answer_total;
        self.slowest = self.slowest.max(s.slowest);
        self.over_limit += s.over_limit;
        let won = g.result_for(i) == GameResult::Win;
        self.claims.add(s.claims, won);
        self.proven.add(s.proven_claims, won);
        self.likely.add(s.likely_claims, won);
        if let Some((at_fault, fault)) = &g.fault {
            if *at_fault == i {
                if fault.is_time() {
                    self.forfeits += 1;
                } else {
                    self.faults += 1;
                }
                if self.reasons.len() < MAX_REASONS {
                    self.reasons
                        .push(format!("game {}: {fault}", g.index() + 1));
                }
            }
        }
    }
}

/// The end of a match.
#[derive(Clone, Debug)]
pub struct BrainsReport {
    /// A's results, plies and wall-clock time (`games` left empty: they
    /// are in `games` here).
    pub report: MatchReport,
    /// Every game ended, in match order.
    pub games: Vec<BrainGame>,
    /// Engine A's and B's figures.
    pub engines: [EngineStats; 2],
    /// With an SPRT: the last log-likelihood ratio and the decision.
    pub sprt: Option<(f64, SprtStatus)>,
    /// Whether the match was stopped before its end.
    pub stopped: bool,
}

/// Checks that every opening can be played, then that each engine starts
/// and accepts the board (`START`, then `END`). [`run_brains`] does this
/// before any game; a caller may do it first to fail before it prints.
pub fn check_match(
    settings: &Settings,
    commands: &[EngineCommand; 2],
    openings: &[Opening],
    stop: &AtomicBool,
) -> Result<(), BrainsError> {
    for (n, o) in openings.iter().enumerate() {
        let playable = o.board(settings.rules).map(|b| b.outcome().is_none());
        if playable != Ok(true) {
            return Err(BrainsError::Opening { index: n + 1 });
        }
    }
    let start = game::start_command(settings.rules);
    for (i, cmd) in commands.iter().enumerate() {
        let mut e =
            Engine::spawn(cmd, settings.show_stderr).map_err(|e| BrainsError::CannotStart {
                engine: LABELS[i],
                line: cmd.line.clone(),
                program: cmd.program.clone(),
                source: e,
            })?;
        let deadline = Instant::now() + START_WAIT;
        let answer = game::handshake(&mut e, &start, deadline, stop, |_| {});
        engine::end_all(&mut [Some(e)], answer.is_ok());
        if let Err(Some(fault)) = answer {
            return Err(BrainsError::Refused {
                engine: LABELS[i],
                line: cmd.line.clone(),
                command: start,
                fault,
            });
        }
    }
    Ok(())
}

/// The games ended so far, and the pairing of their results for
/// [`Progress`].
#[derive(Default)]
struct Running {
    games: Vec<BrainGame>,
    tally: PairedTally,
    /// A's result in the lone game of an opening whose partner has not ended.
    waiting: HashMap<usize, GameResult>,
}

/// Plays every opening of `openings` twice (A black, then A white) between
/// the two engines and rates the games. With `sprt`, stops as soon as the
/// test decides: openings are played in batches of `concurrency`, and the
/// test looks after each (as [`run_sprt_match`] does for `mnk match`).
///
/// Fails before any game if an opening cannot be played on the board or an
/// engine cannot be started or refuses the board; afterwards engines' faults
/// lose games, and only a thread that cannot be started fails the match.
pub fn run_brains(
    settings: &Settings,
    commands: &[EngineCommand; 2],
    openings: &[Opening],
    sprt: Option<&SprtParams>,
    hooks: &Hooks,
) -> Result<BrainsReport, BrainsError> {
    check_match(settings, commands, openings, hooks.stop)?;
    let started = Instant::now();
    let cx = Context {
        settings,
        commands,
        stop: hooks.stop,
        log: hooks.log,
    };
    let running = Mutex::new(Running::default());
    let play = |chunk: &[Opening], first: usize| -> Result<MatchReport, BrainsError> {
        let games = play_openings(&cx, chunk, first, &running, hooks)?;
        Ok(MatchReport::from_games(games.into_iter().map(|g| g.game)))
    };
    let (mut report, sprt) = match sprt {
        None => (play(openings, 0)?, None),
        Some(params) => {
            let batch = settings.concurrency.max(1);
            let out = run_sprt_match(openings, batch, params, play, |_, _| {})?;
            (out.report, Some((out.llr, out.status)))
        }
    };
    report.games.clear();
    report.elapsed = started.elapsed();
    let mut games = running
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .games;
    games.sort_by_key(BrainGame::index);
    let mut engines = [EngineStats::default(), EngineStats::default()];
    for g in &games {
        for (i, e) in engines.iter_mut().enumerate() {
            e.add(g, i);
        }
    }
    Ok(BrainsReport {
        report,
        games,
        engines,
        sprt,
        stopped: hooks.stop.load(Ordering::Relaxed),
    })
}

/// Plays the openings of one batch (numbered from `first` in the match),
/// `concurrency` games at a time; returns the games that ended.
fn play_openings(
    cx: &Context,
    openings: &[Opening],
    first: usize,
    running: &Mutex<Running>,
    hooks: &Hooks,
) -> Result<Vec<BrainGame>, BrainsError> {
    let next = AtomicUsize::new(0);
    let ended = Mutex::new(Vec::new());
    let total = 2 * openings.len();
    let workers = cx.settings.concurrency.clamp(1, total.max(1));
    let work = || loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        if k >= total || hooks.stop.load(Ordering::Relaxed) {
            return;
        }
        let index = 2 * first + k;
        let Some(game) = game::play_game(cx, &openings[k / 2], index) else {
            return;
        };
        let progress = {
            let mut r = running.lock().unwrap_or_else(PoisonError::into_inner);
            let result = game.game.a_result();
            let opening = game.game.opening;
            let pair_done = match r.waiting.remove(&opening) {
                Some(other) => {
                    // Pairs are counted black game first, as `mnk match` does.
                    let (b, w) = if game.game.a_black {
                        (result, other)
                    } else {
                        (other, result)
                    };
                    r.tally.add_pair(b, w);
                    true
                }
                None => {
                    r.waiting.insert(opening, result);
                    false
                }
            };
            r.games.push(game.clone());
            // A lone game counts in the running W/D/L (not in the pairs).
            let mut tally = r.tally;
            for res in r.waiting.values() {
                tally.add_single(*res);
            }
            Progress { tally, pair_done }
        };
        (hooks.on_game)(&game, &progress);
        ended
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(game);
    };
    std::thread::scope(|scope| -> Result<(), BrainsError> {
        for _ in 1..workers {
            std::thread::Builder::new()
                .name("brains-game".into())
                .spawn_scoped(scope, work)
                .map_err(BrainsError::Thread)?;
        }
        work();
        Ok(())
    })?;
    Ok(ended.into_inner().unwrap_or_else(PoisonError::into_inner))
}
