//! The threat search (`mnk::threats`) against independent references:
//! an exhaustive VCF search written here on the plain `Board` (no shapes),
//! the exact solver for the search's proven scores, hand-built positions
//! where the opponent's VCF must be stopped, a puzzle file with known
//! answers, and `mnk solve --vcf/--vct`.

use crate::common::mnk;
use mnk::eval::{shipped_weights, Evaluator, WIN};
use mnk::game::{Board, Color, Move, Rules};
use mnk::players::{Player, Rng, Search, SearchLimits, Solver, Value, MATE_BOUND};
use mnk::threats::{check_line, Mode, ThreatSearch, Verdict};
use rand::{Rng as _, SeedableRng};
use std::collections::HashMap;

// ---------------------------------------------------------------------------
// The reference: exhaustive VCF on a plain Board
// ---------------------------------------------------------------------------

/// The empty cells where `color` completes k (the board's own `wins_at`),
/// at most `max` of them.
fn win_cells(b: &Board, color: Color, max: usize) -> Vec<Move> {
    let mut out = Vec::new();
    for m in b.legal_moves() {
        if b.wins_at(m, color) {
            out.push(m);
            if out.len() >= max {
                break;
            }
        }
    }
    out
}

/// The empty cells within `k` of `m` along its four lines where `color`
/// completes k. After a stone at `m`, a cell that completes k and did not
/// before lies on a line through `m` within that distance, so when the
/// side had no winning cell before `m`, these are all of them.
fn win_cells_near(b: &Board, m: Move, color: Color, max: usize) -> Vec<Move> {
    let r = b.rules();
    let k = r.k as i32;
    let mut out = Vec::new();
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for t in (-k..=k).filter(|&t| t != 0) {
            let (x, y) = (m.x as i32 + t * dx, m.y as i32 + t * dy);
            if x < 0 || y < 0 || x >= r.width as i32 || y >= r.height as i32 {
                continue;
            }
            let c = Move::new(x as u8, y as u8);
            if b.at(c).is_none() && !out.contains(&c) && b.wins_at(c, color) {
                out.push(c);
                if out.len() >= max {
                    return out;
                }
            }
        }
    }
    out
}

/// Whether some `color` stone lies within k−1 of `m` along one of its
/// lines: otherwise a stone at `m` cannot make a four.
fn near_own(b: &Board, m: Move, color: Color) -> bool {
    let r = b.rules();
    let k = r.k as i32;
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        (-(k - 1)..k).filter(|&t| t != 0).any(|t| {
            let (x, y) = (m.x as i32 + t * dx, m.y as i32 + t * dy);
            x >= 0
                && y >= 0
                && x < r.width as i32
                && y < r.height as i32
                && b.at(Move::new(x as u8, y as u8)) == Some(color)
        })
    })
}

/// Exhaustive VCF by the rules of the game alone: the plies of a win by
/// continuous fours for the attacker (moving first; the first win found,
/// candidates in row-major order), or `None` after trying every four.
/// - the attacker wins at once if it has a cell completing k;
/// - else if the defender has two such cells there is no VCF, one must be
///   blocked (and the block must itself be a four), none: every empty cell
///   after which the attacker has a completion cell is tried;
/// - after a four, the defender wins first if it has a completion cell,
///   two attacker completions win, one is the forced block.
///
/// No depth limit: every four adds two stones, so the tree is finite. The
/// memo (by hash and attacker) keeps transpositions cheap: the subtree of
/// a position does not depend on how it was reached.
struct RefVcf {
    memo: HashMap<(u64, Color), Option<u32>>,
    nodes: u64,
    cap: u64,
}

impl RefVcf {
    fn new() -> RefVcf {
        RefVcf {
            memo: HashMap::new(),
            nodes: 0,
            cap: u64::MAX,
        }
    }

    fn solve(&mut self, board: &Board, attacker: Color) -> Option<u32> {
        let mut b = board.clone();
        self.attack(&mut b, attacker)
    }

    fn attack(&mut self, b: &mut Board, a: Color) -> Option<u32> {
        if let Some(&r) = self.memo.get(&(b.hash(), a)) {
            return r;
        }
        self.nodes += 1;
        assert!(
            self.nodes <= self.cap,
            "the reference ran past its node cap"
        );
        let d = a.opponent();
        let result = if !win_cells(b, a, 1).is_empty() {
            Some(1)
        } else {
            let threats = win_cells(b, d, 2);
            let candidates: Vec<Move> = match threats.len() {
                0 => b
                    .legal_moves()
                    .into_iter()
                    .filter(|&m| near_own(b, m, a))
                    .collect(),
                1 => threats,
                _ => Vec::new(),
            };
            let mut best: Option<u32> = None;
            for m in candidates {
                b.play_as(m, a).unwrap();
                let r = self.defend(b, m, a);
                b.undo();
                if let Some(p) = r {
                    best = Some(p + 1);
                    break;
                }
            }
            best
        };
        self.memo.insert((b.hash(), a), result);
        result
    }

    /// The defender to move after the attacker's stone at `m`.
    fn defend(&mut self, b: &mut Board, m: Move, a: Color) -> Option<u32> {
        let d = a.opponent();
        if !win_cells(b, d, 1).is_empty() {
            return None;
        }
        let fours = win_cells_near(b, m, a, 2);
        match fours.len() {
            0 => None,
            1 => {
                b.play_as(fours[0], d).unwrap();
                let r = self.attack(b, a);
                b.undo();
                r.map(|p| p + 1)
            }
            _ => Some(2),
        }
    }
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn rules(spec: &str) -> Rules {
    spec.parse().unwrap()
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// An evaluator on `board`, as the threat search wants it.
fn eval_of(board: &Board) -> Evaluator {
    let mut eval = Evaluator::new(shipped_weights(*board.rules()));
    eval.sync(board);
    eval
}

/// A fresh threat search of `board` for `attacker`: the verdict, and the
/// line when it is a win.
fn threat(
    board: &Board,
    attacker: Color,
    mode: Mode,
    depth: u32,
    budget: u64,
) -> (Verdict, Vec<Move>) {
    let mut eval = eval_of(board);
    let mut ts = ThreatSearch::new(*board.rules(), 18);
    let v = ts.solve(&mut eval, board.hash(), attacker, mode, depth, budget);
    let line = if v.is_win() {
        ts.line(&mut eval, board.hash(), attacker)
    } else {
        Vec::new()
    };
    (v, line)
}

/// A position of `stones` stones, each next to (within 2 of) one already
/// placed, none completing k. `black_share` is the chance that a stone is
/// black (set up with `play_as`, so the colours need not alternate: a side
/// with more stones has more fours to find). The side to move is the one
/// that did not place the last stone.
fn random_position(rules: Rules, stones: usize, black_share: f64, rng: &mut Rng) -> Board {
    let mut b = Board::new(rules);
    let c = rules.center();
    let first = Move::new(
        (c.x as i32 + rng.gen_range(-1..=1)) as u8,
        (c.y as i32 + rng.gen_range(-1..=1)) as u8,
    );
    b.play_as(first, Color::Black).unwrap();
    let mut tries = 0;
    while b.ply() < stones && tries < 10_000 {
        tries += 1;
        let (mx, _) = b.move_at(rng.gen_range(0..b.ply()));
        let x = mx.x as i32 + rng.gen_range(-2..=2);
        let y = mx.y as i32 + rng.gen_range(-2..=2);
        if x < 0 || y < 0 || x >= rules.width as i32 || y >= rules.height as i32 {
            continue;
        }
        let m = Move::new(x as u8, y as u8);
        let color = if rng.gen_bool(black_share) {
            Color::Black
        } else {
            Color::White
        };
        if !b.is_legal(m) || b.wins_at(m, color) {
            continue;
        }
        b.play_as(m, color).unwrap();
    }
    b
}

/// Checks a VCF win's line: it replays on a plain board, starts with the
/// verdict's move, and (VCF being forced after the first move, and the
/// line following the search's own moves) has exactly `plies` moves, an
/// odd number since the attacker moves first and last.
fn assert_vcf_line(board: &Board, attacker: Color, v: Verdict, line: &[Move]) {
    let Verdict::Win { first, plies } = v else {
        panic!("not a win: {v:?}");
    };
    check_line(board, attacker, Mode::Vcf, line)
        .unwrap_or_else(|e| panic!("{board:?} {attacker}: VCF line {line:?} fails: {e}"));
    assert_eq!(line[0], first, "{board:?} {attacker}: line {line:?}");
    assert_eq!(line.len() % 2, 1, "{board:?} {attacker}: line {line:?}");
    assert_eq!(
        line.len() as u32,
        plies,
        "{board:?} {attacker}: line {line:?} vs {plies} plies"
    );
}

/// The same for a VCT win: replays with threes allowed, starts with the
/// verdict's move, odd, and no longer than `plies` (the defender's longest
/// resistance; the line follows the longest-resisting reply it can solve).
fn assert_vct_line(board: &Board, attacker: Color, v: Verdict, line: &[Move]) {
    let Verdict::Win { first, plies } = v else {
        panic!("not a win: {v:?}");
    };
    check_line(board, attacker, Mode::Vct, line)
        .unwrap_or_else(|e| panic!("{board:?} {attacker}: VCT line {line:?} fails: {e}"));
    assert_eq!(line[0], first, "{board:?} {attacker}: line {line:?}");
    assert_eq!(line.len() % 2, 1, "{board:?} {attacker}: line {line:?}");
    assert!(
        line.len() as u32 <= plies,
        "{board:?} {attacker}: line {line:?} longer than {plies} plies"
    );
}

// ---------------------------------------------------------------------------
// 1 + 2. VCF against the reference, and every line replays
// ---------------------------------------------------------------------------

/// On random positions of 7x7x4 and 9x9x5 (freestyle and exact), the VCF
/// verdict for each side agrees with the exhaustive reference, is never
/// Unknown with a large budget, and every win's line replays. The share
/// of wins is asserted so that the agreement is not all "no".
#[test]
fn vcf_matches_exhaustive_reference_on_small_boards() {
    let mut rng = Rng::seed_from_u64(2024);
    for (spec, positions, min_wins) in [
        ("7x7x4", 1000, 400),
        ("7x7x4-exact", 1000, 400),
        ("9x9x5", 1000, 200),
        ("9x9x5-exact", 1000, 200),
    ] {
        let rules = rules(spec);
        let mut ts = ThreatSearch::new(rules, 16);
        let t = std::time::Instant::now();
        let (mut wins, mut checked, mut longest) = (0, 0, 0);
        for _ in 0..positions {
            let stones = rng.gen_range(6..=16);
            let share = rng.gen_range(0.45..0.65);
            let board = random_position(rules, stones, share, &mut rng);
            let mut eval = eval_of(&board);
            for attacker in [Color::Black, Color::White] {
                let mut reference = RefVcf::new();
                let expected = reference.solve(&board, attacker);
                // A cleared table each time: the verdict must not depend on
                // what an earlier position left behind.
                ts.clear();
                let v = ts.solve(&mut eval, board.hash(), attacker, Mode::Vcf, 0, 5_000_000);
                checked += 1;
                assert_ne!(v, Verdict::Unknown, "{board:?} {attacker}");
                assert_eq!(
                    v.is_win(),
                    expected.is_some(),
                    "{spec} {board:?} attacker {attacker}: solver {v:?}, reference {expected:?}\n{board}"
                );
                if let Verdict::Win { plies, .. } = v {
                    wins += 1;
                    longest = longest.max(plies);
                    let line = ts.line(&mut eval, board.hash(), attacker);
                    assert_vcf_line(&board, attacker, v, &line);
                }
            }
        }
        eprintln!(
            "{spec}: {checked} searches, {wins} VCF wins, longest {longest} plies, {:?}",
            t.elapsed()
        );
        assert!(wins >= min_wins, "{spec}: only {wins} wins in {checked}");
        assert!(
            checked - wins >= min_wins,
            "{spec}: only {} non-wins",
            checked - wins
        );
    }
}

/// VCT wins on random positions: each line replays as a VCT, starts with
/// the verdict's move, and is no longer than the verdict's plies.
#[test]
fn vct_lines_replay() {
    let mut rng = Rng::seed_from_u64(77);
    let mut wins = 0;
    for (spec, positions) in [
        ("7x7x4", 120),
        ("9x9x5", 120),
        ("9x9x5-exact", 80),
        ("gomoku", 60),
    ] {
        let rules = rules(spec);
        let mut ts = ThreatSearch::new(rules, 16);
        for _ in 0..positions {
            let stones = rng.gen_range(6..=14);
            let board = random_position(rules, stones, 0.55, &mut rng);
            let mut eval = eval_of(&board);
            for attacker in [Color::Black, Color::White] {
                let v = ts.solve(&mut eval, board.hash(), attacker, Mode::Vct, 4, 200_000);
                if v.is_win() {
                    wins += 1;
                    let line = ts.line(&mut eval, board.hash(), attacker);
                    assert_vct_line(&board, attacker, v, &line);
                }
            }
        }
    }
    eprintln!("{wins} VCT wins checked");
    assert!(wins >= 150, "only {wins} VCT wins");
}

// ---------------------------------------------------------------------------
// 3. Proven scores against the exact solver
// ---------------------------------------------------------------------------

/// Whether the side to move can force a win within `plies` plies, by
/// full-width minimax on the board (memoised by hash and plies left).
fn wins_within(b: &mut Board, plies: u32, memo: &mut HashMap<(u64, u32), bool>) -> bool {
    if plies == 0 || b.is_over() {
        return false;
    }
    if let Some(&r) = memo.get(&(b.hash(), plies)) {
        return r;
    }
    let mover = b.to_move();
    let mut r = false;
    for m in b.legal_moves() {
        if b.wins_at(m, mover) {
            r = true;
            break;
        }
    }
    if !r && plies >= 3 {
        for m in b.legal_moves() {
            b.play_unchecked(m);
            // Every reply must lose within plies − 2.
            let holds = b.is_over()
                || b.legal_moves().into_iter().any(|reply| {
                    let opp = b.to_move();
                    if b.wins_at(reply, opp) {
                        return true;
                    }
                    b.play_unchecked(reply);
                    let lost = wins_within(b, plies - 2, memo);
                    b.undo();
                    !lost
                });
            b.undo();
            if !holds {
                r = true;
                break;
            }
        }
    }
    memo.insert((b.hash(), plies), r);
    r
}

/// On nearly full 6x6x4 and 7x6x4 boards (few enough empty cells for the
/// exact solver), every proven score of the search (|score| ≥ MATE_BOUND)
/// agrees with the exact value, and short proven wins are confirmed to
/// their claimed distance by full-width minimax. VCF and VCT wins of the
/// side to move are confirmed as exact wins too.
#[test]
fn proven_scores_and_threat_wins_agree_with_exact_solver() {
    let mut rng = Rng::seed_from_u64(7);
    let (mut claims, mut distances, mut threat_wins, mut positions) = (0, 0, 0, 0);
    for spec in ["6x6x4", "6x6x4-exact", "7x6x4"] {
        let rules = rules(spec);
        let mut solver = Solver::with_limit(rules, 20);
        for i in 0..60 {
            // Alternating play keeps the side to move honest for the
            // solver; black_share 0.5 with setup stones would not.
            let cells = rules.cells();
            let target = cells - rng.gen_range(14..=18);
            let mut b = Board::new(rules);
            let mut stuck = 0;
            while b.ply() < target && stuck < 200 {
                let legal = b.legal_moves();
                let m = legal[rng.gen_range(0..legal.len())];
                if b.wins_at(m, b.to_move()) {
                    stuck += 1;
                    continue;
                }
                b.play(m).unwrap();
            }
            if b.ply() < target || b.is_over() {
                continue;
            }
            positions += 1;
            let value = solver.value(&b).unwrap();
            let depth = 4 + (i % 3) as u32;
            let mut search = Search::new(
                shipped_weights(rules),
                SearchLimits {
                    depth,
                    width: 9,
                    ..SearchLimits::default()
                },
            );
            search.choose(&b, &mut rng).unwrap();
            let score = search.info().score;
            if score >= MATE_BOUND {
                claims += 1;
                assert_eq!(
                    value,
                    Value::Win,
                    "{b:?}: search claims {score} ({:?})",
                    search.info().proof
                );
                let dist = (WIN - score).round() as u32;
                if dist <= 7 {
                    distances += 1;
                    let mut memo = HashMap::new();
                    assert!(
                        wins_within(&mut b.clone(), dist, &mut memo),
                        "{b:?}: no win within the claimed {dist} plies"
                    );
                }
            } else if score <= -MATE_BOUND {
                claims += 1;
                assert_eq!(
                    value,
                    Value::Loss,
                    "{b:?}: search claims {score} ({:?})",
                    search.info().proof
                );
            }
            let mover = b.to_move();
            for mode in [Mode::Vcf, Mode::Vct] {
                let (v, line) = threat(&b, mover, mode, 8, 1_000_000);
                assert_ne!(v, Verdict::Unknown, "{b:?} {mode}");
                if v.is_win() {
                    threat_wins += 1;
                    assert_eq!(value, Value::Win, "{b:?}: {mode} win {v:?} {line:?}");
                }
            }
        }
    }
    eprintln!("{positions} positions, {claims} proven scores ({distances} distances), {threat_wins} threat wins");
    assert!(claims >= 40, "only {claims} proven scores");
    assert!(distances >= 15, "only {distances} distances checked");
    assert!(threat_wins >= 30, "only {threat_wins} threat wins");
}

// ---------------------------------------------------------------------------
// 4. Must-defend on 15x15
// ---------------------------------------------------------------------------

/// A gomoku position from stone lists, `to_move` to move: its stones are
/// placed first, the other side's last.
fn setup(black: &str, white: &str, to_move: Color) -> Board {
    let mut b = Board::new(Rules::GOMOKU);
    let (first, second) = match to_move {
        Color::Black => ((black, Color::Black), (white, Color::White)),
        Color::White => ((white, Color::White), (black, Color::Black)),
    };
    for (list, color) in [first, second] {
        for s in list.split_whitespace() {
            b.play_as(mv(s), color).unwrap();
        }
    }
    assert_eq!(b.to_move(), to_move);
    b
}

/// Hand-built positions where white (not to move) has a VCF and black has
/// no VCF or VCT: the search's move must leave white without a VCF.
#[test]
fn search_stops_the_opponents_vcf() {
    let cases = [
        // An open three h8 i8 j8: g8 or k8 makes an open four.
        ("open three", "c3 m13 c13", "h8 i8 j8"),
        // A split three h8 i8 k8 (j8 empty), open at both ends.
        ("split three", "c3 m13 c13", "h8 i8 k8"),
        // A four h8..k8 closed by g8: the one block is l8.
        ("closed four", "g8 c3 m13", "h8 i8 j8 k8"),
        // Four-three: k8 closes the row h8 i8 j8 (black g8) into a four
        // and makes k8 k9 k10 an open three for the next four.
        ("four-three", "g8 c3 m13", "h8 i8 j8 k9 k10"),
        // Double four at l8: row h8 i8 j8 . l8 (black g8) and column
        // l8 l9 l10 l11 (black l12).
        ("four-four", "g8 l12 c3", "h8 i8 j8 l9 l10 l11"),
        // A VCF of two fours on a diagonal and a column: f6 g7 h8 (black
        // e5) and j10 j11 j12 (black j13) meet nothing; the row d12 e12
        // f12 (black c12) gives a third.
        (
            "three fours",
            "e5 j13 c12 n2",
            "f6 g7 h8 j10 j11 j12 d12 e12 f12",
        ),
    ];
    let mut rng = Rng::seed_from_u64(3);
    for (name, black, white) in cases {
        let board = setup(black, white, Color::Black);
        let (v, line) = threat(&board, Color::White, Mode::Vcf, 0, 1_000_000);
        assert!(v.is_win(), "{name}: white should have a VCF, got {v:?}");
        assert_vcf_line(&board, Color::White, v, &line);
        // The reference agrees that white has a VCF.
        assert!(
            RefVcf::new().solve(&board, Color::White).is_some(),
            "{name}"
        );
        for mode in [Mode::Vcf, Mode::Vct] {
            let (v, _) = threat(&board, Color::Black, mode, 6, 1_000_000);
            assert_eq!(v, Verdict::NoWin, "{name}: black should have no {mode}");
        }
        for depth in [2, 4] {
            let mut search = Search::new(
                shipped_weights(Rules::GOMOKU),
                SearchLimits {
                    depth,
                    width: 9,
                    ..SearchLimits::default()
                },
            );
            let m = search.choose(&board, &mut rng).unwrap();
            let mut after = board.clone();
            after.play(m).unwrap();
            let (v, line) = threat(&after, Color::White, Mode::Vcf, 0, 1_000_000);
            assert_eq!(
                v,
                Verdict::NoWin,
                "{name}, depth {depth}: black played {m} and white still wins by {line:?}"
            );
            assert!(
                RefVcf::new().solve(&after, Color::White).is_none(),
                "{name}: {m}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// 5. Puzzles with known answers
// ---------------------------------------------------------------------------

/// What a puzzle expects for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A VCF win (so a VCT win too).
    Vcf,
    /// No VCF.
    NoVcf,
    /// No VCF, but a VCT win.
    Vct,
}

struct Puzzle {
    name: String,
    expect: Expect,
    /// The fewest plies of any win (the long ones), if stated.
    min_plies: Option<u32>,
    board: Board,
}

const PUZZLES: &str = include_str!("../data/threat_puzzles.txt");

/// Reads `name | expect | min plies or - | moves` lines (# comments).
fn puzzles() -> Vec<Puzzle> {
    PUZZLES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 4, "bad puzzle line {l:?}");
            let expect = match f[1] {
                "vcf" => Expect::Vcf,
                "novcf" => Expect::NoVcf,
                "vct" => Expect::Vct,
                e => panic!("bad expectation {e:?}"),
            };
            let min_plies = (f[2] != "-").then(|| f[2].parse().unwrap());
            let moves: Vec<Move> = f[3].split_whitespace().map(mv).collect();
            let board = Board::from_moves(Rules::GOMOKU, &moves)
                .unwrap_or_else(|e| panic!("{}: {e}", f[0]));
            assert!(!board.is_over(), "{}", f[0]);
            Puzzle {
                name: f[0].to_string(),
                expect,
                min_plies,
                board,
            }
        })
        .collect()
}

/// Every puzzle gets its expected verdicts for the side to move, and its
/// wins replay. The short ones are checked against the exhaustive
/// reference too; the long ones (too slow for the reference on 15x15)
/// must be found with at least their stated plies, and their line replays
/// as a VCF on a plain board (every block in it is forced, so the line
/// is the whole proof).
#[test]
fn puzzles_have_their_known_answers() {
    let all = puzzles();
    assert!(all.len() >= 10);
    let mut long = 0;
    for p in &all {
        let attacker = p.board.to_move();
        let (vcf, line) = threat(&p.board, attacker, Mode::Vcf, 0, 10_000_000);
        // Depth 4: deeper, a sparse board's VCT runs out of any small
        // budget (see examples/threat_times.rs). But at least as deep as
        // the VCF's attacker moves, since a VCF is a VCT of as many moves.
        let vcf_moves = match vcf {
            Verdict::Win { plies, .. } => plies.div_ceil(2),
            _ => 0,
        };
        let (vct, vct_line) = threat(&p.board, attacker, Mode::Vct, vcf_moves.max(4), 2_000_000);
        let shortest = || RefVcf::new().solve(&p.board, attacker);
        match p.expect {
            Expect::Vcf => {
                assert!(vcf.is_win(), "{}: {vcf:?}", p.name);
                assert_vcf_line(&p.board, attacker, vcf, &line);
                assert!(vct.is_win(), "{}: VCT {vct:?}", p.name);
                assert_vct_line(&p.board, attacker, vct, &vct_line);
                let Verdict::Win { plies, .. } = vcf else {
                    unreachable!()
                };
                match p.min_plies {
                    Some(min) => {
                        long += 1;
                        assert!(plies >= min, "{}: {plies} plies < {min}", p.name);
                    }
                    None => {
                        assert!(shortest().is_some(), "{}: no reference VCF", p.name);
                    }
                }
            }
            Expect::NoVcf | Expect::Vct => {
                assert_eq!(vcf, Verdict::NoWin, "{}", p.name);
                assert_eq!(shortest(), None, "{}: the reference finds a VCF", p.name);
                if p.expect == Expect::Vct {
                    assert!(vct.is_win(), "{}: VCT {vct:?}", p.name);
                    assert_vct_line(&p.board, attacker, vct, &vct_line);
                }
            }
        }
    }
    assert!(long >= 2, "only {long} long puzzles");
}

// ---------------------------------------------------------------------------
// 6. The command line
// ---------------------------------------------------------------------------

fn moves_of(b: &Board) -> Vec<String> {
    b.moves().map(|m| m.to_string()).collect()
}

/// `mnk solve --vcf` prints a win with its numbered board, a position
/// without a VCF says so, and `--vcf --vct` together is a usage error.
#[test]
fn solve_cli_prints_vcf_verdicts() {
    let all = puzzles();
    let win = all
        .iter()
        .find(|p| p.expect == Expect::Vcf && p.min_plies.is_some())
        .unwrap();
    let out = mnk()
        .args(["solve", "-g", "gomoku", "--vcf"])
        .args(moves_of(&win.board))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("wins by VCF"), "{text}");
    // The numbered board after the line: digits in the cells (a row's
    // first token is its number, so it is skipped), 1 to 9 all there for a
    // line of 15 plies.
    let board = text.split("line:").nth(1).expect("a line");
    for digit in ["1", "5", "9"] {
        assert!(
            board
                .lines()
                .any(|l| l.split_whitespace().skip(1).any(|t| t == digit)),
            "{digit} missing:\n{text}"
        );
    }
    let no = all.iter().find(|p| p.expect == Expect::NoVcf).unwrap();
    let out = mnk()
        .args(["solve", "-g", "gomoku", "--vcf"])
        .args(moves_of(&no.board))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("has no VCF"), "{text}");
    let out = mnk()
        .args(["solve", "-g", "gomoku", "--vcf", "--vct", "h8"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A VCT of no moves, or a search of no nodes, is a usage error.
    for bad in [["--vct", "--depth", "0"], ["--vcf", "--budget", "0"]] {
        let out = mnk()
            .args(["solve", "-g", "gomoku"])
            .args(bad)
            .arg("h8")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(bad[1]), "{err}");
    }
}

// ---------------------------------------------------------------------------
// Faults found and fixed
// ---------------------------------------------------------------------------

/// A winning move ends the line even when the defender also threatens to
/// win (`check_line` once called it "unblocked"). On 7x7x4 after a1 a2 b1
/// b2 c1 c2 (black a1 b1 c1, white a2 b2 c2, black to move) the line `d1`
/// wins at once for black.
#[test]
fn check_line_accepts_a_win_while_the_defender_threatens() {
    let rules = rules("7x7x4");
    let moves: Vec<Move> = ["a1", "a2", "b1", "b2", "c1", "c2"]
        .iter()
        .map(|s| mv(s))
        .collect();
    let board = Board::from_moves(rules, &moves).unwrap();
    let (v, line) = threat(&board, Color::Black, Mode::Vcf, 0, 1000);
    assert_eq!(
        v,
        Verdict::Win {
            first: mv("d1"),
            plies: 1
        }
    );
    assert_eq!(line, vec![mv("d1")]);
    assert_eq!(check_line(&board, Color::Black, Mode::Vcf, &line), Ok(()));
}

/// The threat search's exact results over the final positions of the
/// must-stop files (`tests/data/must_stop_vct.txt`, then
/// `must_stop_vcf.txt`): for each, both sides as the attacker, a VCF and a
/// VCT (6 attacker moves, the root's), each from a fresh table of 2^20
/// entries with a budget of 20,000 nodes. Their verdicts, node counts and
/// winning moves are pinned, as `mnk bench`'s signature pins the main
/// search's: a change meant to make the search faster, not different (such
/// as reading a reply at depth 0 off the table without playing it), must
/// keep them all. The budget binds in 46 of the 300 searches, so the
/// counts would show a search that does more or less work within it.
#[test]
fn threat_search_counts_are_pinned() {
    let rules = Rules::GOMOKU;
    let mut search = ThreatSearch::new(rules, 20);
    let mut eval = Evaluator::new(shipped_weights(rules));
    let files = [
        include_str!("../data/must_stop_vct.txt"),
        include_str!("../data/must_stop_vcf.txt"),
    ];
    let (mut wins, mut no_wins, mut unknown, mut nodes) = (0, 0, 0, 0);
    // The moves and lengths of the wins, folded in order (FNV-style).
    let mut signature: u64 = 0;
    for line in files.iter().flat_map(|f| f.lines()) {
        let moves = line.split('#').next().unwrap_or("");
        if moves.trim().is_empty() {
            continue;
        }
        let mut board = Board::new(rules);
        for m in moves.split_whitespace() {
            board.play(mv(m)).unwrap();
        }
        for attacker in [board.to_move(), board.to_move().opponent()] {
            for (mode, depth) in [(Mode::Vcf, 0), (Mode::Vct, 6)] {
                eval.sync(&board);
                search.clear();
                let v = search.solve(&mut eval, board.hash(), attacker, mode, depth, 20_000);
                nodes += search.nodes();
                let code = match v {
                    Verdict::Win { first, plies } => {
                        wins += 1;
                        1000 + u64::from(plies) * 7 + u64::from(first.x) * 31 + u64::from(first.y)
                    }
                    Verdict::NoWin => {
                        no_wins += 1;
                        2
                    }
                    Verdict::Unknown => {
                        unknown += 1;
                        3
                    }
                };
                signature = signature.wrapping_mul(0x100_0000_01b3).wrapping_add(code);
            }
        }
    }
    assert_eq!(
        (wins, no_wins, unknown, nodes, format!("{signature:016x}")),
        (96, 158, 46, 1_309_450, "b3592fcd84c2e3b7".to_string())
    );
}
