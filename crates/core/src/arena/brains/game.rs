//! One game between two engine processes: both are started for the game,
//! given the board, the rule and the time limits, asked for moves in turn
//! (`BOARD` or `BEGIN` for an engine's first move, `TURN` after that), and
//! ended. Every answer is checked; an engine at fault loses the game.

use super::engine::{end_all, Engine, EngineCommand, Line, NoLine};
use super::errors::Fault;
use super::{BrainGame, GameStats, Settings};
use crate::arena::matches::PlayedGame;
use crate::arena::openings::Opening;
use crate::game::{Board, Color, Move, Outcome, Rule, Rules};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `START` (it may allocate its
/// tables then): this, or the turn limit with the tolerance if longer.
pub const START_WAIT: Duration = Duration::from_secs(10);

/// The engine labels, in the order of the match's engines.
pub const LABELS: [char; 2] = ['A', 'B'];

/// What the runner needs while a game is played.
pub(crate) struct Context<'a> {
    pub settings: &'a Settings,
    pub commands: &'a [EngineCommand; 2],
    pub stop: &'a AtomicBool,
    pub log: Option<&'a (dyn Fn(&str) + Sync)>,
}

impl Context<'_> {
    fn log(&self, game: usize, engine: usize, dir: &str, text: &str) {
        if let Some(log) = self.log {
            log(&format!(
                "game {} {} {dir} {text}",
                game + 1,
                LABELS[engine]
            ));
        }
    }
}

/// The command that sets up the board: `START n` for a square board,
/// else `RECTSTART w,h`.
pub(crate) fn start_command(rules: Rules) -> String {
    if rules.width == rules.height {
        format!("START {}", rules.width)
    } else {
        format!("RECTSTART {},{}", rules.width, rules.height)
    }
}

/// Sends the board command and waits for `OK` (skipping `MESSAGE` and
/// `DEBUG` lines).
pub(crate) fn handshake(
    engine: &mut Engine,
    command: &str,
    deadline: Instant,
    stop: &AtomicBool,
    mut seen: impl FnMut(&str),
) -> Result<(), Option<Fault>> {
    engine.send(command)?;
    let start = Instant::now();
    loop {
        let line = engine.next_line(deadline, stop).map_err(|e| match e {
            NoLine::Stopped => None,
            NoLine::Closed(what) => Some(Fault::Crashed { what }),
            NoLine::Timeout => Some(Fault::Time {
                ms: start.elapsed().as_millis() as u64,
                limit_ms: (deadline - start).as_millis() as u64,
                last: None,
            }),
        })?;
        seen(&line.text);
        let word = first_word(&line.text);
        match word {
            "OK" => return Ok(()),
            "MESSAGE" | "DEBUG" => {}
            "ERROR" | "UNKNOWN" => return Err(Some(Fault::Refused { line: line.text })),
            _ => {
                return Err(Some(Fault::Unparsable {
                    line: line.text,
                    expected: "OK",
                }))
            }
        }
    }
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// The evaluation in an mnk-style `MESSAGE … eval E time …` line, if any.
pub fn message_eval(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("MESSAGE")?;
    let at = rest.find(" eval ")?;
    let eval = &rest[at + " eval ".len()..];
    let end = eval.find(" time ").unwrap_or(eval.len());
    Some(eval[..end].trim())
}

/// Parses an `x,y` answer: `Ok(None)` for a cell off the board (the board
/// is at most 26 wide, so no coordinate that fits is cut).
fn parse_answer(text: &str, rules: Rules) -> Result<Option<Move>, ()> {
    let (x, y) = text.split_once(',').ok_or(())?;
    let (x, y): (i64, i64) = (
        x.trim().parse().map_err(|_| ())?,
        y.trim().parse().map_err(|_| ())?,
    );
    if (0..i64::from(rules.width)).contains(&x) && (0..i64::from(rules.height)).contains(&y) {
        Ok(Some(Move::new(x as u8, y as u8)))
    } else {
        Ok(None)
    }
}

/// A move and what came with it.
struct Answer {
    mv: Move,
    took: Duration,
    claim: bool,
    proven: bool,
    likely: bool,
}

/// Plays game `index` of the match (opening `index / 2`, A black when
/// `index` is even). `None` when the match was stopped during the game.
pub(crate) fn play_game(cx: &Context, opening: &Opening, index: usize) -> Option<BrainGame> {
    let rules = cx.settings.rules;
    let a_black = index.is_multiple_of(2);
    // Engine i plays colour colours[i].
    let colours = if a_black {
        [Color::Black, Color::White]
    } else {
        [Color::White, Color::Black]
    };
    let mut board = opening
        .board(rules)
        .expect("openings are checked before the match");
    let mut stats = [GameStats::default(), GameStats::default()];
    let mut engines: [Option<Engine>; 2] = [None, None];
    let result = run(cx, index, &colours, &mut board, &mut engines, &mut stats);
    let (outcome, fault) = match result {
        Ok(outcome) => (outcome, None),
        Err(None) => {
            end_all(&mut engines, false);
            return None;
        }
        Err(Some((loser, fault))) => (Outcome::Win(colours[1 - loser]), Some((loser, fault))),
    };
    end_all(&mut engines, true);
    Some(BrainGame {
        game: PlayedGame {
            opening: index / 2,
            a_black,
            moves: board.moves().collect(),
            outcome,
        },
        stats,
        fault,
    })
}

/// Why a game ended early: an engine's fault, or `None` when stopped.
type Stop = Option<(usize, Fault)>;

fn run(
    cx: &Context,
    index: usize,
    colours: &[Color; 2],
    board: &mut Board,
    engines: &mut [Option<Engine>; 2],
    stats: &mut [GameStats; 2],
) -> Result<Outcome, Stop> {
    let s = cx.settings;
    let at_fault = |i: usize| move |f: Option<Fault>| f.map(|f| (i, f));
    // Black first, so that when both fail the same way, the same one loses.
    let order = if colours[0] == Color::Black {
        [0, 1]
    } else {
        [1, 0]
    };
    let start = start_command(s.rules);
    let turn_tol = Duration::from_millis(s.turn_ms.saturating_add(s.tolerance_ms));
    for i in order {
        let mut e = Engine::spawn(&cx.commands[i], s.show_stderr).map_err(|e| {
            Some((
                i,
                Fault::CannotStart {
                    error: e.to_string(),
                },
            ))
        })?;
        cx.log(index, i, "<", &start);
        let deadline = Instant::now() + START_WAIT.max(turn_tol);
        handshake(&mut e, &start, deadline, cx.stop, |l| {
            cx.log(index, i, ">", l)
        })
        .map_err(at_fault(i))?;
        let rule = match s.rules.rule {
            Rule::Freestyle => 0,
            Rule::Exact => 1,
        };
        let infos = [
            format!("INFO timeout_turn {}", s.turn_ms),
            format!("INFO timeout_match {}", s.match_ms.unwrap_or(0)),
            format!("INFO rule {rule}"),
        ];
        for info in &infos {
            cx.log(index, i, "<", info);
            e.send(info).map_err(|f| Some((i, f)))?;
        }
        engines[i] = Some(e);
    }
    let mut started = [false; 2];
    let mut used = [Duration::ZERO; 2];
    loop {
        if let Some(o) = board.outcome() {
            return Ok(o);
        }
        let to_move = board.to_move();
        let i = if colours[0] == to_move { 0 } else { 1 };
        let e = engines[i].as_mut().expect("started above");
        let mut commands = Vec::new();
        // The turn limit, cut to what is left of the match clock.
        let mut limit = Duration::from_millis(s.turn_ms);
        if let Some(m) = s.match_ms {
            let left = Duration::from_millis(m).saturating_sub(used[i]);
            commands.push(format!("INFO time_left {}", left.as_millis()));
            limit = limit.min(left);
        }
        if !started[i] {
            started[i] = true;
            if board.ply() == 0 {
                commands.push("BEGIN".into());
            } else {
                commands.push("BOARD".into());
                for p in 0..board.ply() {
                    let (m, c) = board.move_at(p);
                    let field = if c == to_move { 1 } else { 2 };
                    commands.push(format!("{},{},{field}", m.x, m.y));
                }
                commands.push("DONE".into());
            }
        } else {
            let last = board.last_move().expect("the opponent has moved");
            commands.push(format!("TURN {},{}", last.x, last.y));
        }
        for c in &commands {
            cx.log(index, i, "<", c);
            e.send(c).map_err(|f| Some((i, f)))?;
        }
        let sent = Instant::now();
        let allowed = limit + Duration::from_millis(s.tolerance_ms);
        let answer = read_move(cx, index, i, e, board, sent, allowed).map_err(at_fault(i))?;
        used[i] += answer.took;
        let st = &mut stats[i];
        st.moves += 1;
        st.answer_total += answer.took;
        st.slowest = st.slowest.max(answer.took);
        st.over_limit += u64::from(answer.took > limit);
        st.claims += u64::from(answer.claim);
        st.proven_claims += u64::from(answer.proven);
        st.likely_claims += u64::from(answer.likely);
        board.play(answer.mv).expect("read_move checked the move");
    }
}

/// Reads lines until a move (checked, in time) or a fault.
fn read_move(
    cx: &Context,
    index: usize,
    i: usize,
    e: &mut Engine,
    board: &Board,
    sent: Instant,
    allowed: Duration,
) -> Result<Answer, Option<Fault>> {
    let deadline = sent + allowed;
    let late = |ms: Duration, last: Option<String>| Fault::Time {
        ms: ms.as_millis() as u64,
        limit_ms: allowed.as_millis() as u64,
        last,
    };
    let mut eval: Option<String> = None;
    let mut last: Option<String> = None;
    loop {
        let Line { text, at } = match e.next_line(deadline, cx.stop) {
            Ok(line) => line,
            Err(NoLine::Stopped) => return Err(None),
            Err(NoLine::Timeout) => return Err(Some(late(sent.elapsed(), last))),
            Err(NoLine::Closed(what)) => return Err(Some(Fault::Crashed { what })),
        };
        cx.log(index, i, ">", &text);
        match first_word(&text) {
            "MESSAGE" => {
                eval = message_eval(&text).map(str::to_string);
                last = Some(text);
                continue;
            }
            "DEBUG" | "UNKNOWN" | "ERROR" | "OK" => {
                last = Some(text);
                continue;
            }
            _ => {}
        }
        let took = at.saturating_duration_since(sent);
        if took > allowed {
            return Err(Some(late(took, last)));
        }
        let mv = match parse_answer(&text, *board.rules()) {
            Err(()) => {
                return Err(Some(Fault::Unparsable {
                    line: text,
                    expected: "a move x,y",
                }))
            }
            Ok(None) => {
                let r = board.rules();
                return Err(Some(Fault::Illegal {
                    answer: text,
                    why: format!("off the {}x{} board", r.width, r.height),
                }));
            }
            Ok(Some(mv)) => mv,
        };
        if let Err(why) = board.check(mv) {
            return Err(Some(Fault::Illegal {
                answer: text,
                why: why.to_string(),
            }));
        }
        let claim = eval.as_deref().is_some_and(|e| e.starts_with("win in"));
        let proven = claim && eval.as_deref().is_some_and(|e| e.contains("proven"));
        let likely = eval.as_deref().is_some_and(|e| e.starts_with("likely win"));
        return Ok(Answer {
            mv,
            took,
            claim,
            proven,
            likely,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_are_read_from_mnk_messages() {
        let m = "MESSAGE depth 9 nodes 1234 eval win in 7 (proven: vcf) time 12 ms limit 85 ms move 7,7";
        assert_eq!(message_eval(m), Some("win in 7 (proven: vcf)"));
        assert_eq!(
            message_eval("MESSAGE depth 3 nodes 5 eval -1260 time 1 ms"),
            Some("-1260")
        );
        assert_eq!(message_eval("MESSAGE empty board: the centre"), None);
        assert_eq!(message_eval("DEBUG eval win in 3"), None);
    }

    #[test]
    fn answers_parse_or_fall_off_the_board() {
        let r = Rules::GOMOKU;
        assert_eq!(parse_answer("7,8", r), Ok(Some(Move::new(7, 8))));
        assert_eq!(parse_answer(" 14 , 0 ", r), Ok(Some(Move::new(14, 0))));
        assert_eq!(parse_answer("15,0", r), Ok(None));
        assert_eq!(parse_answer("-1,3", r), Ok(None));
        assert_eq!(parse_answer("99999999999999999999,3", r), Err(()));
        assert_eq!(parse_answer("7 7", r), Err(()));
        assert_eq!(parse_answer("h8", r), Err(()));
    }
}
