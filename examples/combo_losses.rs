//! Why a greedy player loses: for each gomoku game of a records file
//! (`mnk match --records`) that the player whose spec contains SUBSTRING
//! lost, the first of its moves after which the winner has a threat win
//! (VCT, 6 attacker moves, 200k nodes), sorted into kinds: it missed its
//! own VCF, no move there saved the game, or some move did and it failed
//! to defend. For the last, the shapes the winner's first threat makes
//! (`C4+O2`: a closed four and an open two), and the combinations (an
//! extended table, closed threes and four-twos included) of the saving
//! moves that the move played did not have, for either side. `SHOW=1`
//! prints each such position: `!` the move played, `?` the winner's
//! first threat, `s` the saving moves. `docs/training.md`'s combo section
//! quotes it.
//!
//! `cargo run --release --example combo_losses -- FILE SUBSTRING [GAMES]`

use mnk::eval::{shipped_weights, Evaluator, Shape};
use mnk::game::{Board, Color, Move, Outcome, Rules};
use mnk::records::read_records;
use mnk::threats::{Mode, ThreatSearch, Verdict};
use std::collections::BTreeMap;

const DEPTH: u32 = 6;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, file, who, rest @ ..] = args.as_slice() else {
        return Err("usage: combo_losses FILE SUBSTRING [GAMES]".into());
    };
    let limit: usize = match rest.first() {
        Some(s) => s.parse().map_err(|e| format!("GAMES {s:?}: {e}"))?,
        None => usize::MAX,
    };
    let rules = Rules::GOMOKU;
    let games = read_records(file, rules)?;
    let mut ts = ThreatSearch::new(rules, 20);
    let mut eval = Evaluator::new(shipped_weights(rules));
    let mut kinds: BTreeMap<String, u32> = BTreeMap::new();
    let mut threat: BTreeMap<String, u32> = BTreeMap::new();
    let mut saver_kind: BTreeMap<String, u32> = BTreeMap::new();
    let (mut losses, mut seen) = (0, 0);
    for record in &games {
        let me = if record.black.contains(who.as_str()) {
            Color::Black
        } else {
            Color::White
        };
        // The loser is the one who did not make the last move of a win.
        let board = record.replay()?;
        let Some(Outcome::Win(winner)) = board.outcome() else {
            continue;
        };
        if winner == me {
            continue;
        }
        losses += 1;
        if seen >= limit {
            continue;
        }
        seen += 1;
        let n = board.ply();
        let mut b = Board::new(rules);
        let opp = me.opponent();
        let mut decided = false;
        for i in 0..n {
            let (m, c) = board.move_at(i);
            if c == me && !decided && i >= 4 {
                // Before my move: do I have a win, does the opponent?
                let mine = solve(&mut ts, &mut eval, &b, me, Mode::Vcf);
                b.play(m)?;
                let theirs = solve(&mut ts, &mut eval, &b, opp, Mode::Vct);
                b.undo();
                if let Verdict::Win { first, .. } = theirs {
                    decided = true;
                    let null = solve(&mut ts, &mut eval, &b, opp, Mode::Vct).is_win();
                    // Which of my moves would have saved it?
                    let mut savers = Vec::new();
                    for alt in candidates(&b) {
                        b.play(alt)?;
                        let v = solve(&mut ts, &mut eval, &b, opp, Mode::Vct);
                        b.undo();
                        if v == Verdict::NoWin {
                            savers.push(alt);
                        }
                    }
                    let kind = if mine.is_win() {
                        "missed own VCF".to_string()
                    } else if savers.is_empty() {
                        "lost before (no saving move)".to_string()
                    } else if !null {
                        "my move let it (null move no win)".to_string()
                    } else {
                        "failed to defend".to_string()
                    };
                    *kinds.entry(kind.clone()).or_default() += 1;
                    if kind == "failed to defend" {
                        eval.sync(&b);
                        let t = describe(&eval, first, opp);
                        let on = savers.contains(&first);
                        *threat
                            .entry(format!("{t} (block there saves: {on})"))
                            .or_default() += 1;
                        // The savers' combinations, for each side, that
                        // the move played did not have.
                        let (pm, po) = (combo(&eval, m, me), combo(&eval, m, opp));
                        for (side, who, played) in [("mine", me, &pm), ("theirs", opp, &po)] {
                            let mut kinds: Vec<_> =
                                savers.iter().map(|&s| combo(&eval, s, who)).collect();
                            kinds.sort();
                            kinds.dedup();
                            for x in kinds.iter().filter(|&x| x != played) {
                                let key = format!("saver {side} {x} (played {played})");
                                *saver_kind.entry(key).or_default() += 1;
                            }
                        }
                        if std::env::var("SHOW").is_ok() {
                            println!(
                                "{}",
                                b.render_marked(|q| {
                                    if q == m {
                                        Some('!')
                                    } else if q == first {
                                        Some('?')
                                    } else if savers.contains(&q) {
                                        Some('s')
                                    } else {
                                        None
                                    }
                                })
                            );
                            let side = if me == Color::Black { "X" } else { "O" };
                            println!("{side} to move, played {m}, theirs {first} ({t})\n");
                        }
                    }
                }
            }
            b.play(m)?;
        }
        if !decided {
            *kinds.entry("no VCT found".into()).or_default() += 1;
        }
    }
    println!("{losses} losses of {} games, {seen} looked at", games.len());
    for (k, n) in &kinds {
        println!("{n:5}  {k}");
    }
    println!("\nthe winner's threat move, by shapes there:");
    let mut v: Vec<_> = threat.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (k, n) in v.iter().take(40) {
        println!("{n:5}  {k}");
    }
    println!("\nsaving moves:");
    let mut v: Vec<_> = saver_kind.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (k, n) in v.iter().take(40) {
        println!("{n:5}  {k}");
    }
    Ok(())
}

fn solve(
    ts: &mut ThreatSearch,
    eval: &mut Evaluator,
    b: &Board,
    who: Color,
    mode: Mode,
) -> Verdict {
    eval.sync(b);
    ts.clear();
    ts.solve(eval, b.hash(), who, mode, DEPTH, 200_000)
}

/// Empty cells within 2 of a stone.
fn candidates(b: &Board) -> Vec<Move> {
    let r = b.rules();
    let mut out = Vec::new();
    for m in b.legal_moves() {
        let near = (-2i32..=2).any(|dx| {
            (-2i32..=2).any(|dy| {
                let (x, y) = (m.x as i32 + dx, m.y as i32 + dy);
                x >= 0
                    && y >= 0
                    && (x as usize) < r.width as usize
                    && (y as usize) < r.height as usize
                    && b.at(Move::new(x as u8, y as u8)).is_some()
            })
        });
        if near {
            out.push(m);
        }
    }
    out
}

/// An extended combination of the shapes a stone of `c` makes at `m`.
fn combo(eval: &Evaluator, m: Move, c: Color) -> String {
    let sh = eval.shapes_at(m, c);
    let n = |f: &dyn Fn(Shape) -> bool| sh.iter().filter(|&&s| f(s)).count();
    let win = n(&|s| s == Shape::Win);
    let o4 = n(&|s| s == Shape::OpenIn1);
    let f = n(&|s| matches!(s, Shape::OpenIn1 | Shape::ClosedIn1));
    let t = n(&|s| s == Shape::OpenIn2);
    let c3 = n(&|s| s == Shape::ClosedIn2);
    let w = n(&|s| s == Shape::OpenIn3);
    let r = if win > 0 {
        "5"
    } else if f >= 2 {
        "double4"
    } else if o4 > 0 {
        "open4"
    } else if f == 1 && t >= 1 {
        "4_open3"
    } else if f == 1 && c3 >= 1 {
        "4_closed3"
    } else if f == 1 && w >= 1 {
        "4_open2"
    } else if f == 1 {
        "4"
    } else if t >= 2 {
        "double_open3"
    } else if t == 1 && c3 >= 1 {
        "open3_closed3"
    } else if t == 1 && w >= 1 {
        "open3_open2"
    } else if t == 1 {
        "open3"
    } else if c3 >= 2 {
        "double_closed3"
    } else if c3 >= 1 && w >= 1 {
        "closed3_open2"
    } else if w >= 2 {
        "double_open2"
    } else if c3 == 1 {
        "closed3"
    } else if w == 1 {
        "open2"
    } else {
        "-"
    };
    r.to_string()
}

/// The shapes a stone of `c` makes at `m`, strongest first: `C4+O3`.
fn describe(eval: &Evaluator, m: Move, c: Color) -> String {
    let mut s: Vec<Shape> = eval
        .shapes_at(m, c)
        .into_iter()
        .filter(|s| !matches!(s, Shape::None | Shape::ClosedIn3))
        .collect();
    s.sort();
    if s.is_empty() {
        return "-".into();
    }
    s.iter()
        .map(|s| match s {
            Shape::Win => "5",
            Shape::OpenIn1 => "O4",
            Shape::ClosedIn1 => "C4",
            Shape::OpenIn2 => "O3",
            Shape::ClosedIn2 => "C3",
            Shape::OpenIn3 => "O2",
            _ => "?",
        })
        .collect::<Vec<_>>()
        .join("+")
}
