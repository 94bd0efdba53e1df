//! The evaluator against the brief's definitions.
//!
//! A slow reference classifier, written straight from the brief ("Shapes,
//! defined for every k") and independent of the window / line-code tables,
//! decides every (cell, direction, colour) of random positions by literally
//! trying moves along the whole board line. The incremental [`Evaluator`]
//! must agree with it everywhere, must equal an evaluator rebuilt from
//! scratch after any play/undo sequence, must be restored exactly by
//! `undo`, and must value positions colour-blindly.
//!
//! The same checks cover the combo model: each cell's combination is
//! decided from the reference's four shapes by [`reference_combo`], written
//! from the table in `eval::combo`'s documentation (counting shapes, not
//! summing packed per-direction counts as the evaluator does), and the
//! cell scores and board values must add the combination weights so.

use mnk::eval::{Combo, ComboWeights, Evaluator, Shape, Weights, LOSS, SHAPES, WIN};
use mnk::game::{Board, Cell, Color, Move, Rule, Rules};
use proptest::prelude::*;
use proptest::sample::{select, Index};

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

fn rules(width: u32, height: u32, k: u32, rule: Rule) -> Rules {
    Rules::new(width, height, k, rule).unwrap()
}

// ---------------------------------------------------------------------------
// The reference classifier
// ---------------------------------------------------------------------------

/// A cell of an extracted line, from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Seen {
    Empty,
    Own,
    /// An opponent stone (the board edge simply ends the line).
    Blocked,
}

/// A plain grid of stones. Unlike [`Board`] it accepts any set of stones
/// (several wins, overlines, any colour order).
#[derive(Clone, Debug)]
struct Grid {
    rules: Rules,
    cells: Vec<Cell>,
}

impl Grid {
    fn new(rules: Rules) -> Grid {
        Grid {
            rules,
            cells: vec![Cell::Empty; rules.cells()],
        }
    }

    fn of_board(board: &Board) -> Grid {
        Grid {
            rules: *board.rules(),
            cells: board.cells().to_vec(),
        }
    }

    fn on(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.rules.width as i32 && y < self.rules.height as i32
    }

    fn at(&self, x: i32, y: i32) -> Cell {
        self.cells[(y * self.rules.width as i32 + x) as usize]
    }

    fn show(&self) -> String {
        let w = self.rules.width as usize;
        let mut s = String::new();
        for row in self.cells.chunks(w) {
            s.push('\n');
            for &c in row {
                s.push(c.symbol());
            }
        }
        s
    }
}

/// The whole board line through (x, y) along `dir`, seen by `color`,
/// with the cell itself holding a `color` stone. Returns the line and the
/// index of (x, y) in it.
fn extract_line(
    g: &Grid,
    x: i32,
    y: i32,
    (dx, dy): (i32, i32),
    color: Color,
) -> (Vec<Seen>, usize) {
    let (mut sx, mut sy) = (x, y);
    while g.on(sx - dx, sy - dy) {
        sx -= dx;
        sy -= dy;
    }
    let mut line = Vec::new();
    let mut centre = usize::MAX;
    let (mut cx, mut cy) = (sx, sy);
    while g.on(cx, cy) {
        if (cx, cy) == (x, y) {
            centre = line.len();
            line.push(Seen::Own);
        } else {
            line.push(match g.at(cx, cy).color() {
                None => Seen::Empty,
                Some(c) if c == color => Seen::Own,
                Some(_) => Seen::Blocked,
            });
        }
        cx += dx;
        cy += dy;
    }
    assert_ne!(centre, usize::MAX);
    (line, centre)
}

struct Reference {
    k: usize,
    rule: Rule,
}

impl Reference {
    fn new(rules: &Rules) -> Reference {
        Reference {
            k: rules.k as usize,
            rule: rules.rule,
        }
    }

    /// win: the run of own stones through the centre has ≥ k stones
    /// (freestyle) or exactly k (exact).
    fn wins(&self, line: &[Seen], centre: usize) -> bool {
        let mut a = centre;
        while a > 0 && line[a - 1] == Seen::Own {
            a -= 1;
        }
        let mut b = centre;
        while b + 1 < line.len() && line[b + 1] == Seen::Own {
            b += 1;
        }
        let n = b - a + 1;
        match self.rule {
            Rule::Freestyle => n >= self.k,
            Rule::Exact => n == self.k,
        }
    }

    /// Empty cells of the line whose filling makes a win through the centre.
    fn win_cells(&self, line: &mut [Seen], centre: usize) -> usize {
        let mut n = 0;
        for q in 0..line.len() {
            if line[q] == Seen::Empty {
                line[q] = Seen::Own;
                if self.wins(line, centre) {
                    n += 1;
                }
                line[q] = Seen::Empty;
            }
        }
        n
    }

    /// The most win cells one more stone anywhere on the line can give.
    fn best_win_cells_after_one_move(&self, line: &mut [Seen], centre: usize) -> usize {
        let mut best = 0;
        for p in 0..line.len() {
            if line[p] == Seen::Empty {
                line[p] = Seen::Own;
                best = best.max(self.win_cells(line, centre));
                line[p] = Seen::Empty;
            }
        }
        best
    }

    /// The class down to level 2 (win, open/closed (k−1), open/closed (k−2)).
    fn classify_to_level2(&self, line: &mut [Seen], centre: usize) -> Shape {
        assert_eq!(line[centre], Seen::Own);
        if self.wins(line, centre) {
            return Shape::Win;
        }
        match self.win_cells(line, centre) {
            0 => {}
            1 => return Shape::ClosedIn1,
            _ => return Shape::OpenIn1,
        }
        match self.best_win_cells_after_one_move(line, centre) {
            0 => Shape::None,
            1 => Shape::ClosedIn2,
            _ => Shape::OpenIn2,
        }
    }

    fn classify(&self, line: &mut [Seen], centre: usize) -> Shape {
        let s = self.classify_to_level2(line, centre);
        if s != Shape::None || self.k < 4 {
            return s;
        }
        // Level 3: one move makes an open (k−2) / a closed (k−2) but no open.
        let mut closed = false;
        for p in 0..line.len() {
            if line[p] == Seen::Empty {
                line[p] = Seen::Own;
                let s = self.classify_to_level2(line, centre);
                line[p] = Seen::Empty;
                match s {
                    Shape::OpenIn2 => return Shape::OpenIn3,
                    Shape::ClosedIn2 => closed = true,
                    _ => {}
                }
            }
        }
        if closed {
            Shape::ClosedIn3
        } else {
            Shape::None
        }
    }

    /// The shape a `color` stone on (x, y) makes along direction `d`.
    fn shape(&self, g: &Grid, x: i32, y: i32, d: usize, color: Color) -> Shape {
        let (mut line, centre) = extract_line(g, x, y, DIRS[d], color);
        self.classify(&mut line, centre)
    }
}

/// The reference's sanity on hand-made lines, so that it can be trusted.
#[test]
fn reference_classifier_on_hand_made_lines() {
    let parse = |s: &str| -> (Vec<Seen>, usize) {
        let centre = s.find('*').unwrap();
        let line = s
            .chars()
            .map(|c| match c {
                '.' => Seen::Empty,
                'X' | '*' => Seen::Own,
                _ => Seen::Blocked,
            })
            .collect();
        (line, centre)
    };
    let free5 = Reference {
        k: 5,
        rule: Rule::Freestyle,
    };
    let exact5 = Reference {
        k: 5,
        rule: Rule::Exact,
    };
    let cases: &[(&Reference, &str, Shape)] = &[
        (&free5, "..*XXX..", Shape::OpenIn1),
        (&free5, "O*XXX.", Shape::ClosedIn1),
        (&free5, "..*X.XX..", Shape::ClosedIn1),
        (&free5, "..*XX..", Shape::OpenIn2),
        (&free5, "O*XX..O", Shape::ClosedIn2),
        (&free5, "...*X...", Shape::OpenIn3),
        (&free5, "O*X...O", Shape::ClosedIn3),
        (&free5, "O*X..O", Shape::None),
        (&free5, "XX*XXX", Shape::Win),
        (&exact5, "XX*XXX", Shape::None),
        (&exact5, ".*XXX.X", Shape::ClosedIn1),
        (&free5, ".*XXX.X", Shape::OpenIn1),
    ];
    for &(r, s, want) in cases {
        let (mut line, c) = parse(s);
        assert_eq!(r.classify(&mut line, c), want, "{s}");
    }
}

// ---------------------------------------------------------------------------
// Helpers
/// The combination a stone with these four shapes makes: the first row of
/// `eval::combo`'s table that holds, counting the shapes directly.
pub(crate) fn reference_combo(shapes: [Shape; 4]) -> Combo {
    let count = |want: &[Shape]| shapes.iter().filter(|s| want.contains(s)).count();
    let fours = count(&[Shape::OpenIn1, Shape::ClosedIn1]);
    let threes = count(&[Shape::OpenIn2]);
    let twos = count(&[Shape::OpenIn3]);
    match (fours, threes, twos) {
        (2.., _, _) => Combo::DoubleIn1,
        (1, 1.., _) => Combo::In1OpenIn2,
        (_, 2.., _) => Combo::DoubleOpenIn2,
        (_, 1, 1..) => Combo::OpenIn2OpenIn3,
        (_, _, 2..) => Combo::DoubleOpenIn3,
        _ => Combo::None,
    }
}

/// The combination the opponent's forced block makes, in a combo model's
/// cell score, when `mover` plays (x, y): if the stone makes exactly one
/// closed (k−1) and no open one or win, the opponent must block on the
/// empty cell within k−1 along that line where a `mover` stone would win
/// through (x, y) (the first from the negative side); its combination is
/// counted over its three other lines. Else none. Written from
/// `eval::sheet`'s documentation with runs counted on the grid.
fn reference_reply(reference: &Reference, g: &Grid, x: i32, y: i32, mover: Color) -> Combo {
    let shapes: [Shape; 4] = std::array::from_fn(|d| reference.shape(g, x, y, d, mover));
    if shapes
        .iter()
        .any(|&s| s == Shape::Win || s == Shape::OpenIn1)
    {
        return Combo::None;
    }
    let fours: Vec<usize> = (0..4).filter(|&d| shapes[d] == Shape::ClosedIn1).collect();
    let [d] = fours[..] else {
        return Combo::None;
    };
    let (dx, dy) = DIRS[d];
    let k = g.rules.k as i32;
    for i in (1 - k..k).filter(|&i| i != 0) {
        let (rx, ry) = (x + i * dx, y + i * dy);
        if !g.on(rx, ry) || g.at(rx, ry) != Cell::Empty {
            continue;
        }
        let mut after = g.clone();
        let w = g.rules.width as i32;
        after.cells[(y * w + x) as usize] = Cell::from(mover);
        after.cells[(ry * w + rx) as usize] = Cell::from(mover);
        let mut run = 1;
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
            while after.on(cx, cy) && after.at(cx, cy) == Cell::from(mover) {
                run += 1;
                (cx, cy) = (cx + sign * dx, cy + sign * dy);
            }
        }
        let wins = match g.rules.rule {
            Rule::Freestyle => run >= k,
            Rule::Exact => run == k,
        };
        if wins {
            let theirs: [Shape; 4] = std::array::from_fn(|e| match e == d {
                true => Shape::None,
                false => reference.shape(g, rx, ry, e, mover.opponent()),
            });
            return reference_combo(theirs);
        }
    }
    Combo::None
}

/// [`Weights::default_for`] in the combo model, with a distinct nonzero
/// weight per combination and side, so that a mix-up shows.
pub(crate) fn combo_default(rules: Rules) -> Weights {
    let mut w = Weights::default_for(rules);
    w.combo = Some(ComboWeights {
        own: [5e5, 3e5, 2e4, 3e3, 2e2],
        opp: [4e5, 2e5, 1e4, 2e3, 1e2],
    });
    // Drops the combinations the game does not have.
    w.for_game(rules)
}

// ---------------------------------------------------------------------------

fn mv(x: i32, y: i32) -> Move {
    Move::new(x as u8, y as u8)
}

/// A new evaluator for `w`. Evaluators of the sparse path (k ≥ 7) memoise
/// classifications, so a per-thread template (kept warm by [`retire`]) is
/// cloned instead of building each from cold; the memo is a pure cache.
fn new_evaluator(w: Weights) -> Evaluator {
    TEMPLATES.with(|t| {
        let mut t = t.borrow_mut();
        let mut e = t
            .entry(w.game)
            .or_insert_with(|| Evaluator::new(Weights::default_for(w.game)))
            .clone();
        e.set_weights(w);
        e
    })
}

/// Hands an evaluator's (warmer) memo back to the template.
fn retire(mut e: Evaluator) {
    if e.rules().k >= 6 {
        e.reset();
        TEMPLATES.with(|t| {
            t.borrow_mut().insert(*e.rules(), e);
        });
    }
}

thread_local! {
    static TEMPLATES: std::cell::RefCell<std::collections::HashMap<Rules, Evaluator>> =
        Default::default();
}

/// Places stones straight into an evaluator and a grid (any stone set).
fn place(e: &mut Evaluator, g: &mut Grid, m: Move, color: Color) {
    let i = g.rules.index(m);
    assert_eq!(g.cells[i], Cell::Empty, "{m} is occupied");
    g.cells[i] = Cell::from(color);
    e.play(m, color, 0);
}

/// Plays an arbitrary stone set: the `i`-th entry picks among the cells
/// still empty; colours alternate, or come from the entry's flag. The
/// weights are the default shape model for an even number of picks, and
/// [`combo_default`] for an odd one.
fn arbitrary_position(
    rules: Rules,
    picks: &[(Index, bool)],
    free_colours: bool,
) -> (Evaluator, Grid, Vec<(Move, Color)>) {
    let w = if picks.len() % 2 == 1 {
        combo_default(rules)
    } else {
        Weights::default_for(rules)
    };
    let mut e = new_evaluator(w);
    let mut g = Grid::new(rules);
    let mut placed = Vec::new();
    for (i, &(pick, flag)) in picks.iter().enumerate() {
        let empty: Vec<usize> = (0..g.cells.len())
            .filter(|&c| g.cells[c].is_empty())
            .collect();
        if empty.is_empty() {
            break;
        }
        let m = rules.move_at(empty[pick.index(empty.len())]);
        let color = if free_colours {
            if flag {
                Color::Black
            } else {
                Color::White
            }
        } else {
            Color::to_move_at(i)
        };
        place(&mut e, &mut g, m, color);
        placed.push((m, color));
    }
    (e, g, placed)
}

fn picks(rules: Rules) -> impl Strategy<Value = Vec<(Index, bool)>> {
    proptest::collection::vec((any::<Index>(), any::<bool>()), 0..=rules.cells())
}

/// Everything observable about an evaluator, bit for bit.
#[derive(Debug, PartialEq)]
struct Snapshot {
    scores: [Vec<u64>; 2],
    counts: Vec<i32>,
    combo_counts: Vec<i32>,
    shapes: Vec<[Shape; 4]>,
    combos: Vec<Combo>,
    evaluate: [u64; 2],
    can_win: [bool; 2],
}

fn snapshot(e: &Evaluator) -> Snapshot {
    let rules = *e.rules();
    let colors = [Color::Black, Color::White];
    Snapshot {
        scores: colors.map(|c| e.scores(c).iter().map(|v| v.to_bits()).collect()),
        counts: colors
            .iter()
            .flat_map(|&c| SHAPES.iter().map(move |&s| (c, s)))
            .map(|(c, s)| e.shape_count(c, s))
            .collect(),
        combo_counts: colors
            .iter()
            .flat_map(|&c| Combo::ALL.iter().map(move |&x| (c, x)))
            .map(|(c, x)| e.combo_count(c, x))
            .collect(),
        shapes: (0..rules.cells())
            .flat_map(|i| colors.map(|c| e.shapes_at(rules.move_at(i), c)))
            .collect(),
        combos: (0..rules.cells())
            .flat_map(|i| colors.map(|c| e.combo_at(rules.move_at(i), c)))
            .collect(),
        evaluate: colors.map(|c| e.evaluate(c).to_bits()),
        can_win: colors.map(|c| e.can_win_now(c)),
    }
}

/// Compares an evaluator with the reference on every cell, direction and
/// colour, and checks the counts, cell scores and board value built on top.
fn check_against_reference(e: &Evaluator, g: &Grid) -> Result<(), TestCaseError> {
    let rules = g.rules;
    let reference = Reference::new(&rules);
    let w = e.weights().clone();
    let n = w.shape_count();
    let weight = |table: &[f64; 7], s: Shape| -> f64 {
        match SHAPES[..n].iter().position(|&t| t == s) {
            Some(i) => table[i],
            None => 0.0,
        }
    };
    // The combination weights by Combo (0 in the shape model, and for the
    // combinations the game does not have).
    let combo_weight = |side: usize, c: Combo| -> f64 {
        let Some(cw) = &w.combo else { return 0.0 };
        let n = Combo::count(rules.k);
        match Combo::WEIGHTED[..n].iter().position(|&x| x == c) {
            Some(i) => [&cw.own, &cw.opp][side][i],
            None => 0.0,
        }
    };
    // counts[colour][shape index]
    let mut counts = [[0i32; 8]; 2];
    // combos[colour][combination index]: stones per combination.
    let mut combos = [[0i32; Combo::NUM]; 2];
    for i in 0..rules.cells() {
        let m = rules.move_at(i);
        let (x, y) = (m.x as i32, m.y as i32);
        let mut want_shapes = [[Shape::None; 4]; 2];
        for color in [Color::Black, Color::White] {
            let got = e.shapes_at(m, color);
            for d in 0..4 {
                let want = reference.shape(g, x, y, d, color);
                want_shapes[color.index()][d] = want;
                prop_assert_eq!(
                    got[d],
                    want,
                    "{} cell {} dir {:?} colour {}; board:{}",
                    rules,
                    m,
                    DIRS[d],
                    color,
                    g.show()
                );
            }
        }
        let want_combos = want_shapes.map(reference_combo);
        for color in [Color::Black, Color::White] {
            prop_assert_eq!(
                e.combo_at(m, color),
                want_combos[color.index()],
                "{} cell {} colour {}; board:{}",
                rules,
                m,
                color,
                g.show()
            );
        }
        match g.cells[i] {
            Cell::Empty => {
                // How a cell is valued (the brief's easy-player rule, plus
                // each side's combination in the combo model).
                for mover in [Color::Black, Color::White] {
                    let (me, them) = (mover.index(), mover.opponent().index());
                    let own: f64 = want_shapes[me].iter().map(|&s| weight(&w.own, s)).sum();
                    let opp: f64 = want_shapes[them].iter().map(|&s| weight(&w.opp, s)).sum();
                    let own = own + combo_weight(0, want_combos[me]);
                    let opp = opp + combo_weight(1, want_combos[them]);
                    // One forced reply ahead (a combo model's only).
                    let reply = combo_weight(1, reference_reply(&reference, g, x, y, mover));
                    let want = w.attack * own + w.defence * opp - w.defence * reply;
                    let scale = (w.attack * own).abs() + (w.defence * (opp + reply)).abs();
                    let got = e.score(m, mover);
                    prop_assert!(
                        (got - want).abs() <= 1e-9 * scale.max(1.0),
                        "score of {} for {}: {} != {}; board:{}",
                        m,
                        mover,
                        got,
                        want,
                        g.show()
                    );
                    prop_assert_eq!(e.attack_value(m, mover).to_bits(), {
                        let a: f64 = want_shapes[mover.index()]
                            .iter()
                            .map(|&s| weight(&w.own, s))
                            .sum();
                        (a + combo_weight(0, want_combos[me])).to_bits()
                    });
                    prop_assert_eq!(e.defence_value(m, mover).to_bits(), {
                        let d: f64 = want_shapes[them].iter().map(|&s| weight(&w.opp, s)).sum();
                        (d + combo_weight(1, want_combos[them])).to_bits()
                    });
                }
            }
            c => {
                for mover in [Color::Black, Color::White] {
                    prop_assert_eq!(e.score(m, mover), f64::NEG_INFINITY);
                }
                let color = c as usize - 1;
                for s in want_shapes[color] {
                    counts[color][s as usize] += 1;
                }
                combos[color][want_combos[color] as usize] += 1;
            }
        }
    }
    for color in [Color::Black, Color::White] {
        for s in SHAPES {
            prop_assert_eq!(
                e.shape_count(color, s),
                counts[color.index()][s as usize],
                "count of {:?} for {}; board:{}",
                s,
                color,
                g.show()
            );
        }
        for c in Combo::ALL {
            prop_assert_eq!(
                e.combo_count(color, c),
                combos[color.index()][c as usize],
                "stones with {:?} for {}; board:{}",
                c,
                color,
                g.show()
            );
        }
    }
    // How a position is valued.
    for mover in [Color::Black, Color::White] {
        let me = &counts[mover.index()];
        let them = &counts[mover.opponent().index()];
        let got = e.evaluate(mover);
        let can_win = me[Shape::OpenIn1 as usize] + me[Shape::ClosedIn1 as usize] > 0;
        prop_assert_eq!(e.can_win_now(mover), can_win);
        if can_win {
            prop_assert_eq!(got, WIN);
        } else if them[Shape::OpenIn1 as usize] > 0 {
            prop_assert_eq!(got, LOSS);
        } else {
            // The documented formula: Σ own·n/stones − Σ opp·n/stones.
            let mut want = 0.0;
            for s in &SHAPES[1..n] {
                let stones = s.stones(rules.k).max(1) as f64;
                want += (weight(&w.own, *s) * me[*s as usize] as f64
                    - weight(&w.opp, *s) * them[*s as usize] as f64)
                    / stones;
            }
            // The combo model: each stone's combination, once.
            for c in &Combo::ALL[1..] {
                want += combo_weight(0, *c) * combos[mover.index()][*c as usize] as f64
                    - combo_weight(1, *c) * combos[mover.opponent().index()][*c as usize] as f64;
            }
            prop_assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "evaluate({}) = {} != {}; board:{}",
                mover,
                got,
                want,
                g.show()
            );
            prop_assert!(got.abs() < WIN);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The evaluator equals the reference on random positions
// ---------------------------------------------------------------------------

fn small_games() -> Vec<Rules> {
    let mut v = Vec::new();
    for rule in [Rule::Freestyle, Rule::Exact] {
        v.push(rules(3, 3, 3, rule));
        v.push(rules(4, 4, 3, rule));
        v.push(rules(4, 4, 4, rule));
        v.push(rules(7, 6, 3, rule));
        v.push(rules(7, 6, 4, rule));
        v.push(rules(7, 6, 5, rule));
        v.push(rules(7, 6, 6, rule));
    }
    v
}

fn medium_games() -> Vec<Rules> {
    let mut v = Vec::new();
    for rule in [Rule::Freestyle, Rule::Exact] {
        for k in 3..=6 {
            v.push(rules(9, 9, k, rule));
        }
    }
    v
}

fn large_games() -> Vec<Rules> {
    let mut v = Vec::new();
    for rule in [Rule::Freestyle, Rule::Exact] {
        for k in 4..=6 {
            v.push(rules(15, 15, k, rule));
        }
    }
    v
}

/// k = 7 and 8: windows too wide for a flat table (the sparse path), as is
/// k = 6 under the exact rule.
fn sparse_games() -> Vec<Rules> {
    vec![
        rules(12, 12, 7, Rule::Freestyle),
        rules(12, 12, 8, Rule::Exact),
        rules(12, 12, 7, Rule::Exact),
        rules(12, 12, 8, Rule::Freestyle),
        rules(15, 15, 6, Rule::Exact),
    ]
}

fn game_and_picks(games: Vec<Rules>) -> impl Strategy<Value = (Rules, Vec<(Index, bool)>, bool)> {
    select(games).prop_flat_map(|r| (Just(r), picks(r), any::<bool>()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]
    #[test]
    fn shapes_match_reference_small_boards((rules, picks, free) in game_and_picks(small_games())) {
        let (e, g, _) = arbitrary_position(rules, &picks, free);
        check_against_reference(&e, &g)?;
        retire(e);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn shapes_match_reference_9x9((rules, picks, free) in game_and_picks(medium_games())) {
        let (e, g, _) = arbitrary_position(rules, &picks, free);
        check_against_reference(&e, &g)?;
        retire(e);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(50))]
    #[test]
    fn shapes_match_reference_15x15((rules, picks, free) in game_and_picks(large_games())) {
        let (e, g, _) = arbitrary_position(rules, &picks, free);
        check_against_reference(&e, &g)?;
        retire(e);
    }

    #[test]
    fn shapes_match_reference_sparse_classifier((rules, picks, free) in game_and_picks(sparse_games())) {
        let (e, g, _) = arbitrary_position(rules, &picks, free);
        check_against_reference(&e, &g)?;
        retire(e);
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]
    /// Windows of more than 32 cells (k ≥ 18, or k ≥ 17 under the exact
    /// rule), whose line codes need a second 64-bit word.
    #[test]
    fn shapes_match_reference_wide_windows(
        (rules, picks, free) in game_and_picks(vec![
            rules(20, 20, 18, Rule::Freestyle),
            rules(19, 21, 17, Rule::Exact),
        ])
    ) {
        let (e, g, _) = arbitrary_position(rules, &picks, free);
        check_against_reference(&e, &g)?;
        retire(e);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]
    /// Positions of real games (alternating, ended at the first win),
    /// where stones are sparse and the deeper levels matter most.
    #[test]
    fn shapes_match_reference_in_games(
        (rules, picks, _) in game_and_picks(vec![
            Rules::GOMOKU,
            rules(15, 15, 5, Rule::Exact),
            rules(9, 9, 4, Rule::Freestyle),
            rules(12, 12, 7, Rule::Freestyle),
        ]),
        len in 0usize..60,
    ) {
        let mut board = Board::new(rules);
        for &(pick, _) in picks.iter().take(len) {
            if board.is_over() {
                break;
            }
            let legal = board.legal_moves();
            board.play(legal[pick.index(legal.len())]).unwrap();
        }
        let mut e = new_evaluator(Weights::default_for(rules));
        e.sync(&board);
        check_against_reference(&e, &Grid::of_board(&board))?;
        retire(e);
    }
}

// ---------------------------------------------------------------------------
// The brief's examples and a few more
// ---------------------------------------------------------------------------

/// Lays `pattern` along `dir` from `start`: `X` black, `O` white (or the
/// board edge, if that cell is off the board), `.` empty. Returns the
/// evaluator and the cells of the `X` stones.
fn lay(
    rules: Rules,
    start: (i32, i32),
    dir: (i32, i32),
    pattern: &str,
) -> (Evaluator, Grid, Vec<Move>) {
    let mut e = Evaluator::new(Weights::default_for(rules));
    let mut g = Grid::new(rules);
    let mut xs = Vec::new();
    for (i, ch) in pattern.chars().enumerate() {
        let (x, y) = (start.0 + i as i32 * dir.0, start.1 + i as i32 * dir.1);
        if !g.on(x, y) {
            assert_eq!(ch, 'O', "{pattern}: only an O may stand for the edge");
            continue;
        }
        let cell = Cell::try_from(ch).unwrap_or_else(|e| panic!("pattern {pattern}: {e}"));
        if let Some(color) = cell.color() {
            place(&mut e, &mut g, mv(x, y), color);
            if color == Color::Black {
                xs.push(mv(x, y));
            }
        }
    }
    (e, g, xs)
}

/// Asserts that every X of `pattern` has shape `want` along the pattern's
/// direction: in all 4 directions, mirrored, in the middle of an empty
/// board, bounded by white stones, and (if the pattern starts with `O`)
/// against the board edge.
fn assert_pattern(rules: Rules, pattern: &str, want: Shape) {
    let reversed: String = pattern.chars().rev().collect();
    let (w, h) = (rules.width as i32, rules.height as i32);
    for p in [pattern.to_string(), reversed] {
        let bounded = format!("O{p}O");
        for (d, &dir) in DIRS.iter().enumerate() {
            for text in [p.as_str(), bounded.as_str()] {
                // Centred on the board.
                let len = text.len() as i32;
                let start = (
                    (w - 1) / 2 - dir.0 * (len / 2),
                    (h - 1) / 2 - dir.1 * (len / 2),
                );
                let (e, g, xs) = lay(rules, start, dir, text);
                assert!(!xs.is_empty());
                for m in xs {
                    assert_eq!(
                        e.shapes_at(m, Color::Black)[d],
                        want,
                        "{rules}: {text:?} along {dir:?}, stone {m}; board:{}",
                        g.show()
                    );
                }
            }
            if let Some(rest) = p.strip_prefix('O') {
                // The O is the edge: the first X sits on the board's border.
                let start = match dir {
                    (1, 0) => (-1, (h - 1) / 2),
                    (0, 1) => ((w - 1) / 2, -1),
                    (1, 1) => (-1, (h - 1) / 2 - 2),
                    _ => (-1, (h - 1) / 2 + 2),
                };
                let edge_text = format!("O{rest}");
                let (e, g, xs) = lay(rules, start, dir, &edge_text);
                for m in xs {
                    assert_eq!(
                        e.shapes_at(m, Color::Black)[d],
                        want,
                        "{rules}: {edge_text:?} against the edge along {dir:?}, stone {m}; board:{}",
                        g.show()
                    );
                }
            }
        }
    }
}

/// "Each shape instance counts once": a lone instance of black's shape,
/// laid in the middle of the board, is worth its weight once in the board
/// value (own for black to move, opp for white to move), or decides it.
fn assert_counts_once(rules: Rules, pattern: &str, shape: Shape) {
    let w = Weights::default_for(rules);
    let i = SHAPES.iter().position(|&s| s == shape).unwrap();
    let start = ((rules.width as i32 - pattern.len() as i32) / 2, 7);
    let (e, g, _) = lay(rules, start, (1, 0), pattern);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs();
    let (black, white) = (e.evaluate(Color::Black), e.evaluate(Color::White));
    match shape {
        Shape::OpenIn1 => assert!(black == WIN && white == LOSS, "{pattern}"),
        Shape::ClosedIn1 => {
            assert_eq!(black, WIN, "{pattern}");
            assert!(
                close(white, -w.opp[i]),
                "{pattern}: {white} vs -{}",
                w.opp[i]
            );
        }
        _ => {
            assert!(
                close(black, w.own[i]),
                "{pattern}: {black} vs {}; board:{}",
                w.own[i],
                g.show()
            );
            assert!(
                close(white, -w.opp[i]),
                "{pattern}: {white} vs -{}",
                w.opp[i]
            );
        }
    }
}

#[test]
fn brief_examples_for_k5() {
    let g = Rules::GOMOKU;
    let examples = [
        (".XXXX.", Shape::OpenIn1),
        ("OXXXX.", Shape::ClosedIn1),
        ("XX.XX", Shape::ClosedIn1),
        ("X.XXX", Shape::ClosedIn1),
        ("..XXX..", Shape::OpenIn2),
        (".X.XX.", Shape::OpenIn2),
        (".XX.X.", Shape::OpenIn2),
        ("OXXX..", Shape::ClosedIn2),
        ("XX..X", Shape::ClosedIn2),
        ("..XX..", Shape::OpenIn3),
    ];
    for (pattern, shape) in examples {
        assert_pattern(g, pattern, shape);
        assert_counts_once(g, pattern, shape);
    }
    assert_eq!(Shape::OpenIn1.name(5), "open4");
    assert_eq!(Shape::ClosedIn1.name(5), "closed4");
    assert_eq!(Shape::OpenIn2.name(5), "open3");
    assert_eq!(Shape::ClosedIn2.name(5), "closed3");
    assert_eq!(Shape::OpenIn3.name(5), "open2");
}

#[test]
fn more_k5_shapes() {
    let g = Rules::GOMOKU;
    assert_pattern(g, "XXXXX", Shape::Win);
    assert_pattern(g, "OXXXXXO", Shape::Win);
    // Two stones walled in with room for exactly one five: a closed two.
    assert_pattern(g, "OXX...O", Shape::ClosedIn3);
    // No room for five at all.
    assert_pattern(g, "OXX..O", Shape::None);
    assert_pattern(g, "OXXXXO", Shape::None);
    // A lone stone is three moves from an open four: below every level.
    assert_pattern(g, "...X...", Shape::None);
    assert_pattern(g, "..X.X..", Shape::OpenIn3);
    // The empty cells: the win cells of an open four are wins for black.
    let (e, _, _) = lay(g, (4, 7), (1, 0), ".XX.XX.");
    assert_eq!(e.shapes_at(mv(7, 7), Color::Black)[0], Shape::Win);
    assert_eq!(e.shapes_at(mv(4, 7), Color::Black)[0], Shape::ClosedIn1);
    // ...and for white they are nothing (black stones block both ways).
    assert_eq!(e.shapes_at(mv(7, 7), Color::White)[0], Shape::None);
}

#[test]
fn overlines_under_freestyle_and_exact() {
    let free = Rules::GOMOKU;
    let exact = rules(15, 15, 5, Rule::Exact);
    // Six in a row wins only in freestyle.
    assert_pattern(free, "XXXXXX", Shape::Win);
    assert_pattern(exact, "OXXXXXXO", Shape::None);
    assert_pattern(exact, "XXXXX", Shape::Win);
    assert_pattern(exact, "OXXXXXO", Shape::Win);
    // `.XXXX.X`: the gap makes six. Two win cells in freestyle, one in exact.
    let (e, _, _) = lay(free, (3, 7), (1, 0), ".XXXX.X");
    for x in 4..8 {
        assert_eq!(e.shapes_at(mv(x, 7), Color::Black)[0], Shape::OpenIn1);
    }
    assert_eq!(e.shapes_at(mv(8, 7), Color::Black)[0], Shape::Win);
    let (e, _, _) = lay(exact, (3, 7), (1, 0), ".XXXX.X");
    for x in 4..8 {
        assert_eq!(e.shapes_at(mv(x, 7), Color::Black)[0], Shape::ClosedIn1);
    }
    assert_eq!(e.shapes_at(mv(3, 7), Color::Black)[0], Shape::Win);
    assert_ne!(e.shapes_at(mv(8, 7), Color::Black)[0], Shape::Win);
    // In exact, `XXXX.X` has no win cell at all for the lone stone either.
    assert_eq!(e.shapes_at(mv(9, 7), Color::Black)[0], Shape::None);
    // An open four whose far side would become an overline: X.XXXX.
    let (e, _, _) = lay(exact, (2, 7), (1, 0), "X.XXXX.");
    assert_eq!(e.shapes_at(mv(4, 7), Color::Black)[0], Shape::ClosedIn1);
    let (e, _, _) = lay(free, (2, 7), (1, 0), "X.XXXX.");
    assert_eq!(e.shapes_at(mv(4, 7), Color::Black)[0], Shape::OpenIn1);
}

#[test]
fn tictactoe_shapes() {
    let t = Rules::TICTACTOE;
    let e = Evaluator::new(Weights::default_for(t));
    // Empty board: any stone makes a closed 1 (one move makes a closed 2)
    // along its full lines; lines shorter than 3 hold nothing.
    assert_eq!(
        e.shapes_at(mv(1, 1), Color::Black),
        [Shape::ClosedIn2; 4],
        "centre"
    );
    assert_eq!(
        e.shapes_at(mv(0, 0), Color::White),
        [
            Shape::ClosedIn2,
            Shape::ClosedIn2,
            Shape::ClosedIn2,
            Shape::None
        ]
    );
    assert_eq!(
        e.shapes_at(mv(1, 0), Color::Black),
        [Shape::ClosedIn2, Shape::ClosedIn2, Shape::None, Shape::None]
    );
    assert_eq!(Shape::ClosedIn2.name(3), "closed1");
    // X . X on the top row: closed 2; the middle wins.
    let (e, _, _) = lay(t, (0, 0), (1, 0), "X.X");
    assert_eq!(e.shapes_at(mv(0, 0), Color::Black)[0], Shape::ClosedIn1);
    assert_eq!(e.shapes_at(mv(2, 0), Color::Black)[0], Shape::ClosedIn1);
    assert_eq!(e.shapes_at(mv(1, 0), Color::Black)[0], Shape::Win);
    assert_eq!(e.shapes_at(mv(1, 0), Color::White)[0], Shape::None);
    // X X O: nothing left on that row.
    let (e, _, _) = lay(t, (0, 0), (1, 0), "XXO");
    assert_eq!(e.shapes_at(mv(0, 0), Color::Black)[0], Shape::None);
    // Diagonals.
    let (e, _, _) = lay(t, (0, 0), (1, 1), "X.X");
    assert_eq!(e.shapes_at(mv(0, 0), Color::Black)[2], Shape::ClosedIn1);
    assert_eq!(e.shapes_at(mv(1, 1), Color::Black)[2], Shape::Win);
    let (e, _, _) = lay(t, (0, 2), (1, -1), "XX.");
    assert_eq!(e.shapes_at(mv(1, 1), Color::Black)[3], Shape::ClosedIn1);
    assert_eq!(e.shapes_at(mv(2, 0), Color::Black)[3], Shape::Win);
    // On a 4-wide board a two can be open.
    let r = rules(4, 4, 3, Rule::Freestyle);
    let (e, _, _) = lay(r, (0, 0), (1, 0), ".XX.");
    assert_eq!(e.shapes_at(mv(1, 0), Color::Black)[0], Shape::OpenIn1);
    let (e, _, _) = lay(r, (0, 0), (1, 0), ".X..");
    assert_eq!(e.shapes_at(mv(1, 0), Color::Black)[0], Shape::OpenIn2);
    let (e, _, _) = lay(r, (0, 0), (1, 0), "X...");
    assert_eq!(e.shapes_at(mv(0, 0), Color::Black)[0], Shape::ClosedIn2);
}

#[test]
fn board_edges() {
    // A three in the middle of a 5-wide row: every four it makes touches
    // an edge, so it is closed.
    let r = rules(5, 5, 5, Rule::Freestyle);
    let (e, _, _) = lay(r, (0, 2), (1, 0), ".XXX.");
    assert_eq!(e.shapes_at(mv(2, 2), Color::Black)[0], Shape::ClosedIn2);
    let (e, _, _) = lay(r, (0, 0), (1, 1), ".XXX.");
    assert_eq!(e.shapes_at(mv(2, 2), Color::Black)[2], Shape::ClosedIn2);
    let (e, _, _) = lay(r, (0, 4), (1, -1), ".XXX.");
    assert_eq!(e.shapes_at(mv(2, 2), Color::Black)[3], Shape::ClosedIn2);
    // The same on 15x15 is an open three.
    let (e, _, _) = lay(Rules::GOMOKU, (0, 2), (1, 0), "..XXX..");
    assert_eq!(e.shapes_at(mv(3, 2), Color::Black)[0], Shape::OpenIn2);
    // Against the edge.
    let (e, _, _) = lay(Rules::GOMOKU, (0, 0), (0, 1), "XXXX.");
    assert_eq!(e.shapes_at(mv(0, 3), Color::Black)[1], Shape::ClosedIn1);
    let (e, _, _) = lay(Rules::GOMOKU, (14, 0), (0, 1), "XXX..");
    assert_eq!(e.shapes_at(mv(14, 0), Color::Black)[1], Shape::ClosedIn2);
    // k = 4 in a 6-high column of a 7x6 board.
    let c4 = rules(7, 6, 4, Rule::Freestyle);
    let (e, _, _) = lay(c4, (3, 0), (0, 1), "..XX..");
    assert_eq!(e.shapes_at(mv(3, 2), Color::Black)[1], Shape::OpenIn2);
    assert_eq!(Shape::OpenIn2.name(4), "open2");
    let (e, _, _) = lay(c4, (3, 0), (0, 1), "XX....");
    assert_eq!(e.shapes_at(mv(3, 0), Color::Black)[1], Shape::ClosedIn2);
    // Short diagonals near a corner hold no shape at all.
    let (e, _, _) = lay(c4, (0, 2), (1, -1), "XXX");
    assert_eq!(e.shapes_at(mv(1, 1), Color::Black)[3], Shape::None);
}

// ---------------------------------------------------------------------------
// Incremental equals from scratch; make/unmake; colour-blindness
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Op {
    Play(Index),
    Undo,
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    proptest::collection::vec(
        prop_oneof![3 => any::<Index>().prop_map(Op::Play), 1 => Just(Op::Undo)],
        0..120,
    )
}

fn all_games() -> Vec<Rules> {
    let mut v = small_games();
    v.extend(medium_games());
    v.extend(large_games());
    v.extend(sparse_games());
    v
}

/// Random weights (so that a mix-up of shapes or colours shows), of the
/// shape model or the combo model.
fn weights_for(rules: Rules) -> impl Strategy<Value = Weights> {
    let n = Shape::count(rules.k);
    let c = Combo::count(rules.k);
    prop_oneof![
        proptest::collection::vec(0.0..1e6f64, 2 + 2 * n),
        proptest::collection::vec(0.0..1e6f64, 2 + 2 * (n + c)),
    ]
    .prop_map(move |v| Weights::from_vec(rules, &v).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// After random play/undo sequences (legal games), the evaluator that
    /// went through them equals a fresh one synced to the board, one
    /// rebuilt from the cells, and one that synced after every step.
    #[test]
    fn incremental_equals_from_scratch(
        (rules, w, ops) in select(all_games()).prop_flat_map(|r| (Just(r), weights_for(r), ops()))
    ) {
        let mut board = Board::new(rules);
        let mut inc = new_evaluator(w.clone());
        let mut follower = new_evaluator(w.clone());
        for op in &ops {
            match op {
                Op::Play(i) => {
                    if board.is_over() {
                        continue;
                    }
                    let legal = board.legal_moves();
                    let m = legal[i.index(legal.len())];
                    inc.play(m, board.to_move(), board.hash());
                    board.play(m).unwrap();
                }
                Op::Undo => {
                    if board.undo().is_some() {
                        inc.undo();
                    }
                }
            }
            follower.sync(&board);
        }
        prop_assert_eq!(inc.ply(), board.ply());
        let mut fresh = new_evaluator(w.clone());
        fresh.sync(&board);
        let want = snapshot(&fresh);
        prop_assert_eq!(&snapshot(&inc), &want, "incremental vs fresh; {:?}", board);
        prop_assert_eq!(&snapshot(&follower), &want, "synced each step vs fresh; {:?}", board);
        // A rebuild from the cells (set_weights recomputes everything).
        let mut rebuilt = fresh.clone();
        rebuilt.set_weights(w.clone());
        prop_assert_eq!(&snapshot(&rebuilt), &want, "rebuilt vs fresh; {:?}", board);
        // Syncing to the position it is already in changes nothing.
        inc.sync(&board);
        prop_assert_eq!(&snapshot(&inc), &want);
        // Reset goes back to the empty board.
        inc.reset();
        prop_assert_eq!(snapshot(&inc), snapshot(&new_evaluator(w)));
        retire(inc);
    }

    /// The evaluator's state depends only on the stones, not on the order
    /// or the history: arbitrary stone sets (any colours, several wins),
    /// played in reverse after detours, match.
    #[test]
    fn state_depends_only_on_the_stones(
        (rules, picks, free, w) in select(all_games())
            .prop_flat_map(|r| (Just(r), picks(r), any::<bool>(), weights_for(r))),
        detours in proptest::collection::vec(any::<Index>(), 0..20),
    ) {
        let (mut a, g, placed) = arbitrary_position(rules, &picks, free);
        a.set_weights(w.clone());
        let mut b = new_evaluator(w);
        // Detours: stones played and taken back before the real ones.
        let empty: Vec<usize> = (0..g.cells.len()).filter(|&c| g.cells[c].is_empty()).collect();
        if !empty.is_empty() {
            for (i, d) in detours.iter().enumerate() {
                b.play(rules.move_at(empty[d.index(empty.len())]), Color::to_move_at(i), 0);
                if i % 3 == 2 {
                    b.undo();
                    b.undo();
                    b.undo();
                }
            }
            for _ in 0..detours.len() % 3 {
                b.undo();
            }
        }
        prop_assert_eq!(b.ply(), 0);
        for &(m, c) in placed.iter().rev() {
            b.play(m, c, 0);
        }
        prop_assert_eq!(snapshot(&a), snapshot(&b), "board:{}", g.show());
        retire(b);
    }

    /// play then undo restores every score, shape and count exactly,
    /// including nested pairs and moves that win or make overlines.
    #[test]
    fn make_unmake_restores_everything(
        (rules, picks, free) in game_and_picks(all_games()),
        tries in proptest::collection::vec((any::<Index>(), any::<bool>()), 1..6),
    ) {
        let (mut e, g, _) = arbitrary_position(rules, &picks, free);
        let empty: Vec<usize> = (0..g.cells.len()).filter(|&c| g.cells[c].is_empty()).collect();
        prop_assume!(!empty.is_empty());
        let before = snapshot(&e);
        let ply = e.ply();
        let mut stack = Vec::new();
        for (i, c) in &tries {
            let cell = empty[i.index(empty.len())];
            if stack.contains(&cell) {
                continue;
            }
            let color = if *c { Color::Black } else { Color::White };
            let inner = snapshot(&e);
            e.play(rules.move_at(cell), color, 0);
            e.undo();
            prop_assert_eq!(&snapshot(&e), &inner, "single play/undo of {}", rules.move_at(cell));
            e.play(rules.move_at(cell), color, 0);
            stack.push(cell);
        }
        for _ in &stack {
            e.undo();
        }
        prop_assert_eq!(e.ply(), ply);
        prop_assert_eq!(snapshot(&e), before, "board:{}", g.show());
        retire(e);
    }

    /// Swapping the colour of every stone and the side to move leaves the
    /// board value unchanged, and the swapped mover's cell scores equal the
    /// original mover's, bit for bit.
    #[test]
    fn colour_blind(
        (rules, w, picks, free) in select(all_games())
            .prop_flat_map(|r| (Just(r), weights_for(r), picks(r), any::<bool>())),
    ) {
        let mut board = Board::new(rules);
        for &(pick, flag) in &picks {
            if board.is_over() {
                break;
            }
            let legal = board.legal_moves();
            let m = legal[pick.index(legal.len())];
            let color = if free {
                if flag { Color::Black } else { Color::White }
            } else {
                board.to_move()
            };
            board.play_as(m, color).unwrap();
        }
        let mut swapped = Board::new(rules);
        for i in 0..board.ply() {
            let (m, c) = board.move_at(i);
            swapped.play_as(m, c.opponent()).unwrap();
        }
        let mover = board.to_move();
        if board.ply() > 0 {
            prop_assert_eq!(swapped.to_move(), mover.opponent());
        }
        let mut e = new_evaluator(w.clone());
        e.sync(&board);
        let mut s = new_evaluator(w);
        s.sync(&swapped);
        for c in [Color::Black, Color::White] {
            prop_assert_eq!(
                s.evaluate(c.opponent()).to_bits(),
                e.evaluate(c).to_bits(),
                "evaluate for {} vs swapped; {:?}", c, board
            );
            let a: Vec<u64> = e.scores(c).iter().map(|v| v.to_bits()).collect();
            let b: Vec<u64> = s.scores(c.opponent()).iter().map(|v| v.to_bits()).collect();
            prop_assert_eq!(a, b, "scores for {}; {:?}", c, board);
            for sh in SHAPES {
                prop_assert_eq!(e.shape_count(c, sh), s.shape_count(c.opponent(), sh));
            }
        }
        for i in 0..rules.cells() {
            let m = rules.move_at(i);
            prop_assert_eq!(e.shapes_at(m, Color::Black), s.shapes_at(m, Color::White));
            prop_assert_eq!(e.shapes_at(m, Color::White), s.shapes_at(m, Color::Black));
        }
        retire(e);
    }
}

/// The templates of [`new_evaluator`] are only a cache: a reset, weight-
/// swapped clone of a used evaluator equals a brand new one.
#[test]
fn template_clones_equal_new_evaluators() {
    for rules in all_games() {
        let (e, _, _) = arbitrary_position(rules, &[], false);
        retire(e);
        let mut w = Weights::default_for(rules);
        w.attack = 3.0;
        w.own[1] = 12345.0;
        let mut e = new_evaluator(w.clone());
        let fresh = Evaluator::new(w.clone());
        assert_eq!(snapshot(&e), snapshot(&fresh), "{rules}");
        e.play(rules.center(), Color::Black, 0);
        e.reset();
        assert_eq!(snapshot(&e), snapshot(&fresh), "{rules}");
    }
}

/// `sync` must notice when the board holds a stone of the other colour on
/// the cell it already played (set-up positions built with `play_as`, such
/// as consecutive Gomocup `BOARD` commands seen by one player).
#[test]
fn sync_notices_a_recoloured_stone() {
    let w = Weights::default_for(Rules::GOMOKU);
    let mut black = Board::new(Rules::GOMOKU);
    black.play_as(mv(7, 7), Color::Black).unwrap();
    black.play_as(mv(8, 7), Color::Black).unwrap();
    let mut white = Board::new(Rules::GOMOKU);
    white.play_as(mv(7, 7), Color::White).unwrap();
    white.play_as(mv(8, 7), Color::White).unwrap();
    let mut e = Evaluator::new(w.clone());
    e.sync(&black);
    e.sync(&white);
    let mut fresh = Evaluator::new(w);
    fresh.sync(&white);
    let summary = |e: &Evaluator| {
        (
            e.shapes_at(mv(9, 7), Color::White),
            e.evaluate(Color::Black),
            e.score(mv(9, 7), Color::White),
        )
    };
    assert_eq!(
        summary(&e),
        summary(&fresh),
        "synced to black h8 i8, then to white h8 i8: (white's shapes at j8, value for black, j8's score for white)"
    );
    assert!(snapshot(&e) == snapshot(&fresh));
}

// ---------------------------------------------------------------------------
// Decisive threats in the board value
// ---------------------------------------------------------------------------

fn evaluator_with(rules: Rules, stones: &[(&str, Color)]) -> Evaluator {
    let mut e = Evaluator::new(Weights::default_for(rules));
    let mut g = Grid::new(rules);
    for &(m, c) in stones {
        place(&mut e, &mut g, m.parse().unwrap(), c);
    }
    e
}

#[test]
fn evaluate_wins_with_a_four_and_loses_to_an_open_four() {
    use Color::{Black as X, White as O};
    let g = Rules::GOMOKU;
    // X to play with a closed four (O x x x x .): X wins now.
    let e = evaluator_with(
        g,
        &[
            ("c8", O),
            ("d8", X),
            ("e8", X),
            ("f8", X),
            ("g8", X),
            ("a1", O),
            ("a3", O),
            ("a5", O),
        ],
    );
    assert_eq!(e.evaluate(X), WIN);
    // O to play there: X's four is closed, so no decided loss for O.
    assert!(e.evaluate(O).abs() < WIN);
    // X to play against O's open four, with no four of its own: lost.
    let e = evaluator_with(
        g,
        &[
            ("d8", O),
            ("e8", O),
            ("f8", O),
            ("g8", O),
            ("a1", X),
            ("c1", X),
            ("e1", X),
            ("n14", X),
        ],
    );
    assert_eq!(e.evaluate(X), LOSS);
    // O to play there wins at once.
    assert_eq!(e.evaluate(O), WIN);
    // Against O's open four, X's own (closed) four still wins first.
    let e = evaluator_with(
        g,
        &[
            ("d8", O),
            ("e8", O),
            ("f8", O),
            ("g8", O),
            ("a10", O),
            ("b10", X),
            ("c10", X),
            ("d10", X),
            ("e10", X),
        ],
    );
    assert_eq!(e.evaluate(X), WIN);
    // A closed four of O's is not a decided loss for X.
    let e = evaluator_with(
        g,
        &[
            ("c8", X),
            ("d8", O),
            ("e8", O),
            ("f8", O),
            ("g8", O),
            ("a1", X),
            ("a3", X),
        ],
    );
    assert!(e.evaluate(X).abs() < WIN);
    // Tic-tac-toe: two in a row with the third cell free.
    let e = evaluator_with(
        Rules::TICTACTOE,
        &[("a1", X), ("b2", O), ("b1", X), ("c3", O)],
    );
    assert_eq!(e.evaluate(X), WIN);
    assert!(e.evaluate(O).abs() < WIN, "O's diagonal is blocked by a1");
    let e = evaluator_with(
        Rules::TICTACTOE,
        &[("a1", X), ("b2", O), ("b1", X), ("c1", O)],
    );
    assert!(
        e.evaluate(X).abs() < WIN,
        "O's a3-b2-c1 is only a closed two"
    );
    assert_eq!(e.evaluate(O), WIN, "a3-b2-c1 needs only a3");
}

/// Windows of more than 32 cells keep their far ends in a second word: a
/// run that reaches them must be seen, both when it is built and when it
/// is taken down again (every stone placed and removed in turn, each
/// position checked against the reference).
#[test]
fn wide_windows_see_their_far_ends() {
    for (rules, run) in [
        (rules(20, 20, 18, Rule::Freestyle), 17),
        (rules(19, 21, 17, Rule::Exact), 16),
    ] {
        let mut e = Evaluator::new(Weights::default_for(rules));
        let mut g = Grid::new(rules);
        let cells: Vec<Move> = (1..=run).map(|x| Move { x, y: 3 }).collect();
        for &m in &cells {
            place(&mut e, &mut g, m, Color::Black);
        }
        // One stone short of k: the empty end cell completes it.
        let end = Move { x: 0, y: 3 };
        assert_eq!(e.shapes_at(end, Color::Black)[0], Shape::Win, "{rules}");
        check_against_reference(&e, &g).unwrap();
        for _ in &cells {
            e.undo();
            let m = g.cells.iter().rposition(|c| !c.is_empty()).unwrap();
            g.cells[m] = Cell::Empty;
            check_against_reference(&e, &g).unwrap();
        }
    }
}
