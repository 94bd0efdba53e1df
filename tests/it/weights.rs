//! Weight files: the TOML format, the original `ChessboardValue.txt`
//! format, and errors that name the file and the field or line.

use mnk::arena::{game_rng, random_openings, MatchPlan, OpeningStyle};
use mnk::eval::{
    shipped_weights, Evaluator, GroupScale, Shape, TxtGroup, Weights, WeightsError, MAX_WEIGHT,
    SHAPES, TXT_DIGITS, WIN,
};
use mnk::game::{Board, Move, Rule, Rules, MAX_SIDE};
use mnk::players::{Greedy, Player, Rng, Search, SearchLimits};
use proptest::prelude::*;
use rand::Rng as _;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/weights")
        .join(name)
}

fn read_txt(name: &str, game: Rules) -> Result<Weights, WeightsError> {
    let path = fixture(name);
    let text = std::fs::read_to_string(&path).unwrap();
    Weights::from_txt(&text, &path.display().to_string(), game)
}

fn games() -> Vec<Rules> {
    let mut v = vec![Rules::TICTACTOE, Rules::GOMOKU];
    for rule in [Rule::Freestyle, Rule::Exact] {
        for (w, h, k) in [(4, 4, 3), (7, 6, 4), (9, 9, 5), (15, 15, 6), (12, 12, 8)] {
            v.push(Rules::new(w, h, k, rule).unwrap());
        }
    }
    v
}

/// Weights in range: whole numbers (as most files hold) or any fraction.
fn weights_for(game: Rules) -> impl Strategy<Value = Weights> {
    let n = Shape::count(game.k);
    let value = prop_oneof![
        (0u32..=1_000_000_000).prop_map(f64::from),
        0.0..=MAX_WEIGHT,
        Just(0.0),
        Just(MAX_WEIGHT),
    ];
    proptest::collection::vec(value, 2 + 2 * n)
        .prop_map(move |v| Weights::from_vec(game, &v).unwrap())
}

fn game_and_weights() -> impl Strategy<Value = Weights> {
    proptest::sample::select(games()).prop_flat_map(weights_for)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn toml_round_trip(w in game_and_weights()) {
        let text = w.to_toml("round trip");
        let back = Weights::from_toml(&text, "memory").unwrap();
        prop_assert_eq!(&back, &w, "{}", text);
        // Through a file too.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.toml");
        w.save(&path, "saved").unwrap();
        prop_assert_eq!(&Weights::read(&path).unwrap(), &w);
        prop_assert_eq!(&Weights::load(&path, w.game, false).unwrap(), &w);
    }

    /// Import → export reproduces the canonical text exactly, and export →
    /// import reproduces the weights.
    #[test]
    fn txt_round_trip(
        game in proptest::sample::select(games()),
        nums in proptest::collection::vec(0u32..=1_000_000_000, 16),
        breaks in proptest::collection::vec(any::<bool>(), 16),
    ) {
        let want = 2 + 2 * Shape::count(game.k);
        prop_assert_eq!(want, if game.k == 3 { 12 } else { 16 });
        let nums = &nums[..want];
        let canonical = nums.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ") + "\n";
        // Any whitespace layout reads the same.
        let mut laid_out = String::new();
        for (n, &b) in nums.iter().zip(&breaks) {
            laid_out += &n.to_string();
            laid_out += if b { "\n" } else { " \t " };
        }
        for text in [&canonical, &laid_out] {
            let w = Weights::from_txt(text, "ChessboardValue.txt", game).unwrap();
            prop_assert_eq!(w.to_vec().len(), want);
            prop_assert_eq!(&w.to_txt().unwrap(), &canonical);
            let again = Weights::from_txt(&w.to_txt().unwrap(), "again", game).unwrap();
            prop_assert_eq!(&again, &w);
        }
    }
}

#[test]
fn shape_names() {
    let names = |k: u8| -> Vec<String> {
        SHAPES[..Shape::count(k)]
            .iter()
            .map(|s| s.name(k))
            .collect()
    };
    assert_eq!(
        names(5),
        ["win", "open4", "closed4", "open3", "closed3", "open2", "closed2"]
    );
    assert_eq!(names(3), ["win", "open2", "closed2", "open1", "closed1"]);
    assert_eq!(
        names(4),
        ["win", "open3", "closed3", "open2", "closed2", "open1", "closed1"]
    );
    assert_eq!(
        names(6),
        ["win", "open5", "closed5", "open4", "closed4", "open3", "closed3"]
    );
    for k in 3..=10 {
        for s in &SHAPES[..Shape::count(k)] {
            assert_eq!(Shape::from_name(&s.name(k), k), Some(*s));
        }
    }
    assert_eq!(Shape::from_name("open3", 3), None);
}

#[test]
fn toml_is_self_describing() {
    for k in 3..=6u32 {
        let game = Rules::new(15, 15, k, Rule::Exact).unwrap();
        let text = Weights::default_for(game).to_toml("defaults");
        for needle in [
            "[game]",
            "width = 15",
            "k = ",
            "rule = \"exact\"",
            "[own]",
            "[opp]",
        ] {
            assert!(text.contains(needle), "k = {k}: no {needle:?} in\n{text}");
        }
        for s in &SHAPES[..Shape::count(k as u8)] {
            let line = text
                .lines()
                .find(|l| l.starts_with(&format!("{} = ", s.name(k as u8))))
                .unwrap_or_else(|| panic!("k = {k}: no {} in\n{text}", s.name(k as u8)));
            assert!(line.contains('#'), "{line:?} has no comment");
        }
        let shapes = text
            .lines()
            .filter(|l| l.contains(" = ") && !l.starts_with('#'))
            .count();
        // attack, defence, 4 game fields, then own and opp per shape.
        assert_eq!(shapes, 6 + 2 * Shape::count(k as u8), "{text}");
    }
}

#[test]
fn chessboard_value_txt_order() {
    let w = read_txt("ChessboardValue.txt", Rules::GOMOKU).unwrap();
    assert_eq!((w.attack, w.defence), (10.0, 9.0));
    // five, open4, four, open3, three, open2, two: own then opp.
    assert_eq!(
        w.own,
        [100000.0, 20000.0, 3000.0, 1500.0, 300.0, 100.0, 10.0]
    );
    assert_eq!(w.opp, [90000.0, 18000.0, 2500.0, 1200.0, 250.0, 80.0, 8.0]);
    assert_eq!(
        w.to_txt().unwrap(),
        "10 9 100000 90000 20000 18000 3000 2500 1500 1200 300 250 100 80 10 8\n"
    );
    // Through TOML and back to txt.
    let t = Weights::from_toml(&w.to_toml("imported"), "x").unwrap();
    assert_eq!(t.to_txt().unwrap(), w.to_txt().unwrap());

    let t = read_txt("tictactoe.txt", Rules::TICTACTOE).unwrap();
    assert_eq!(&t.own[..5], &[1000.0, 100.0, 20.0, 4.0, 2.0]);
    assert_eq!(&t.opp[..5], &[500.0, 50.0, 10.0, 2.0, 1.0]);
    assert_eq!(t.to_txt().unwrap(), "1 1 1000 500 100 50 20 10 4 2 2 1\n");
    // 12 numbers are too few for k = 5 and 16 too many for k = 3.
    assert!(read_txt("tictactoe.txt", Rules::GOMOKU).is_err());
    assert!(read_txt("ChessboardValue.txt", Rules::TICTACTOE).is_err());
}

/// The error's text, checked to name the file and every `needles`.
fn assert_error(result: Result<Weights, WeightsError>, file: &str, needles: &[&str]) -> String {
    let e = match result {
        Ok(w) => panic!("{file}: accepted as {w:?}"),
        Err(e) => e,
    };
    let msg = e.to_string();
    assert!(msg.contains(file), "{msg:?} does not name {file}");
    for n in needles {
        assert!(msg.contains(n), "{msg:?} does not mention {n:?}");
    }
    msg
}

fn toml_error(name: &str, needles: &[&str]) -> WeightsError {
    let path = fixture(name);
    let r = Weights::read(&path);
    assert_error(Weights::read(&path), &path.display().to_string(), needles);
    r.unwrap_err()
}

#[test]
fn bad_toml_files_name_the_file_and_field() {
    let e = toml_error("missing_field.toml", &["opp.open3", "missing"]);
    assert!(matches!(e, WeightsError::Field { .. }), "{e:?}");
    toml_error("missing_defence.toml", &["defence", "missing"]);
    let e = toml_error("unknown_shape.toml", &["own.open5", "open4"]);
    assert!(matches!(e, WeightsError::Field { .. }), "{e:?}");
    toml_error("negative.toml", &["opp.closed4", "-1000"]);
    toml_error("nan.toml", &["attack", "NaN"]);
    toml_error("inf.toml", &["own.win", "inf"]);
    toml_error("too_big.toml", &["opp.closed3"]);
    toml_error("not_a_number.toml", &["own.open4", "lots"]);
    toml_error("wrong_names_for_k.toml", &["not a shape of k = 4"]);
    // A file that is not there.
    let e = toml_error("no_such_file.toml", &["cannot read"]);
    assert!(matches!(e, WeightsError::Io { .. }), "{e:?}");
}

#[test]
fn bad_toml_text() {
    let good = std::fs::read_to_string(fixture("gomoku_ok.toml")).unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        // Not TOML at all.
        ("attack = 2", "attack = = 1", &["not valid TOML"]),
        // Unknown top-level key.
        ("", "speed = 3\n", &["speed"]),
        // No [game] table.
        ("[game]", "[gam]", &["game"]),
        // A game that does not exist.
        ("k = 5", "k = 40", &["game"]),
        ("width = 15", "width = 2", &["game"]),
        (
            "rule = \"freestyle\"",
            "rule = \"renju\"",
            &["game.rule", "renju"],
        ),
        ("width = 15", "width = -15", &["game.width"]),
        // Negative, NaN and infinite values written other ways.
        ("open2 = 100", "open2 = -0.5", &["opp.open2"]),
        ("attack = 2", "attack = -inf", &["attack"]),
        ("defence = 1.5", "defence = +nan", &["defence"]),
        ("closed2 = 30", "closed2 = 1e300", &["own.closed2"]),
        ("closed2 = 30", "closed2 = true", &["own.closed2"]),
    ];
    for &(from, to, needles) in cases {
        let text = if from.is_empty() {
            format!("{to}{good}")
        } else {
            assert!(good.contains(from), "{from}");
            good.replacen(from, to, 1)
        };
        assert_error(Weights::from_toml(&text, "my.toml"), "my.toml", needles);
    }
    // The untouched text is fine, and comments and extra tables are not
    // required.
    Weights::from_toml(&good, "my.toml").unwrap();
}

#[test]
fn bad_txt_files_name_the_file_and_line() {
    let g = Rules::GOMOKU;
    let f = |n: &str| fixture(n).display().to_string();
    let msg = assert_error(
        read_txt("too_many.txt", g),
        &f("too_many.txt"),
        &["line 5", "7"],
    );
    assert!(msg.contains("16"), "{msg}");
    let msg = assert_error(
        read_txt("too_few.txt", g),
        &f("too_few.txt"),
        &["15", "two_opp"],
    );
    assert!(msg.contains("16"), "{msg}");
    assert_error(
        read_txt("not_integer.txt", g),
        &f("not_integer.txt"),
        &["line 3", "four_opp", "2500.5"],
    );
    assert_error(
        read_txt("negative.txt", g),
        &f("negative.txt"),
        &["line 4", "open3_opp", "-1200"],
    );
    for (text, needles) in [
        ("", &["found 0 numbers"][..]),
        ("1 2 3 x 5", &["line 1", "five_opp", "\"x\""]),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17",
            &["line 1", "17"],
        ),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 99999999999999999999",
            &["two_opp", "above 9223372036854775807"],
        ),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 9223372036854775808",
            &["two_opp", "above 9223372036854775807"],
        ),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 -9223372036854775809 16",
            &["two_own", "negative"],
        ),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 -1",
            &["two_opp", "negative"],
        ),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0.5",
            &["two_opp", "\"0.5\""],
        ),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 1e3",
            &["two_opp", "1e3"],
        ),
    ] {
        assert_error(Weights::from_txt(text, "cv.txt", g), "cv.txt", needles);
    }
}

#[test]
fn weights_for_another_game() {
    let path = fixture("gomoku_ok.toml");
    let p = path.display().to_string();
    let w = Weights::load(&path, Rules::GOMOKU, false).unwrap();
    assert_eq!(w.game, Rules::GOMOKU);
    assert_eq!((w.attack, w.defence), (2.0, 1.5));
    w.validate(&p).unwrap();

    let other = Rules::new(9, 9, 5, Rule::Freestyle).unwrap();
    let exact = Rules::new(15, 15, 5, Rule::Exact).unwrap();
    for expected in [other, exact] {
        let e = Weights::load(&path, expected, false).unwrap_err();
        assert!(matches!(e, WeightsError::WrongGame { .. }), "{e:?}");
        let msg = e.to_string();
        assert!(msg.contains(&p), "{msg}");
        assert!(msg.contains("gomoku"), "{msg}");
        assert!(msg.contains(&expected.to_string()), "{msg}");
        // Accepted when asked, and re-declared for the game at hand.
        let a = Weights::load(&path, expected, true).unwrap();
        assert_eq!(a.game, expected);
        assert_eq!(a.to_vec(), w.to_vec());
    }
    // Another k has other shapes: refused even with any_game.
    for expected in [
        Rules::TICTACTOE,
        Rules::new(15, 15, 6, Rule::Freestyle).unwrap(),
    ] {
        assert!(Weights::load(&path, expected, false).is_err());
        assert!(Weights::load(&path, expected, true).is_err(), "{expected}");
    }
    let t = Weights::load(&fixture("tictactoe_ok.toml"), Rules::TICTACTOE, false).unwrap();
    assert_eq!(t.shape_count(), 5);
    assert_eq!(&t.own[5..], &[0.0, 0.0]);
}

#[test]
fn shipped_weight_files_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("weights");
    let mut found = 0;
    for (file, game) in [
        ("gomoku.toml", Rules::GOMOKU),
        ("tictactoe.toml", Rules::TICTACTOE),
    ] {
        let path = dir.join(file);
        if !path.exists() {
            eprintln!("SKIPPED: {} does not exist (yet)", path.display());
            continue;
        }
        found += 1;
        let w = Weights::load(&path, game, false)
            .unwrap_or_else(|e| panic!("shipped file does not load: {e}"));
        w.validate(&path.display().to_string()).unwrap();
        assert_eq!(shipped_weights(game), w, "{file} vs the compiled-in copy");
        // Every shape weighs something, and stronger threats weigh more.
        let n = w.shape_count();
        assert!(w.attack > 0.0 && w.defence > 0.0, "{file}");
        for side in [&w.own, &w.opp] {
            assert!(side[..n].iter().all(|&v| v > 0.0), "{file}: {side:?}");
            assert!(side[0] > side[1] && side[1] > side[2], "{file}: {side:?}");
        }
        // Exported to txt and back unchanged (they are whole numbers).
        let txt = w.to_txt().unwrap();
        assert_eq!(Weights::from_txt(&txt, file, game).unwrap(), w);
    }
    if found == 0 {
        eprintln!("SKIPPED: no shipped weight files in {}", dir.display());
    }
}

#[test]
fn defaults_are_valid_for_every_k() {
    for k in 3..=10u32 {
        let game = Rules::new(15, 15, k, Rule::Freestyle).unwrap();
        for w in [
            Weights::default_for(game),
            Weights::flat(game),
            shipped_weights(game),
        ] {
            w.validate("defaults").unwrap();
            assert_eq!(w.game, game);
            let back = Weights::from_toml(&w.to_toml("t"), "t").unwrap();
            assert_eq!(back, w);
            assert_eq!(Weights::from_vec(game, &w.to_vec()).unwrap(), w);
        }
    }
}

// ---- ChessboardValue.txt: what import and export preserve (issue 9) ----

/// The original trainer's real `ChessboardValue.txt`: its shape weights
/// grow to 1e13, far beyond mnk's range.
const ORIGINAL: [i64; 16] = [
    2476,
    2256,
    10001634707961,
    10011725986827,
    83983070428,
    87585650413,
    10076302115,
    9016274125,
    1617090707,
    934198097,
    800976407,
    898227725,
    44258507,
    58004273,
    11749031,
    11920981,
];

#[test]
fn the_original_programs_file_imports() {
    let path = fixture("original.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let imp = Weights::import_txt(&text, "original.txt", Rules::GOMOKU).unwrap();
    assert_eq!(imp.numbers, ORIGINAL);
    // attack and defence fit as they are; the shapes are divided by 1e5.
    assert_eq!(imp.divided_by, [0, 5]);
    let w = &imp.weights;
    w.validate("imported").unwrap();
    assert_eq!((w.attack, w.defence), (2476.0, 2256.0));
    assert_eq!(
        w.own,
        [
            100016347.07961,
            839830.70428,
            100763.02115,
            16170.90707,
            8009.76407,
            442.58507,
            117.49031
        ]
    );
    assert_eq!(
        w.opp,
        [
            100117259.86827,
            875856.50413,
            90162.74125,
            9341.98097,
            8982.27725,
            580.04273,
            119.20981
        ]
    );
    assert_eq!(imp.notes().len(), 1, "{:?}", imp.notes());
    // The TOML says what was scaled and keeps the numbers as read, and it
    // reads back as the same weights.
    let toml = imp.to_toml("original.txt");
    assert!(
        toml.starts_with("# Imported from original.txt.\n"),
        "{toml}"
    );
    assert!(
        toml.contains(
            "# Note: shape weights (own and opp) divided by 1e5 to fit mnk's range 0 to 1e9"
        ),
        "{toml}"
    );
    assert!(
        toml.contains(&format!("# Numbers as read: {}\n", text.trim())),
        "{toml}"
    );
    assert_eq!(&Weights::from_toml(&toml, "t").unwrap(), w);
    // Export gives the file back digit for digit.
    let e = w.export_txt().unwrap();
    assert_eq!(e.text(), text);
    assert_eq!(e.numbers, ORIGINAL);
    let exact = |exp| GroupScale { exp, exact: true };
    assert_eq!(e.scales, [exact(0), exact(5)]);
    // The original's own arithmetic has room: 2476 × 4 × 1e13 ≈ 1e17.
    assert_eq!(
        e.original_cell_score_bound(),
        4 * (2476 * 10001634707961 + 2256 * 10011725986827)
    );
    // docs/commands/weights.md's sample is this file.
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/ChessboardValue.txt");
    assert_eq!(std::fs::read_to_string(sample).unwrap(), text);
}

/// The weights of a trained run: fractional attack and defence (the issue's
/// default run had 0.638 and 0.282), shape weights spread around the shipped
/// ones.
fn trained_like() -> Weights {
    let mut w = shipped_weights(Rules::GOMOKU);
    w.attack = 0.6381726354819273;
    w.defence = 0.2823746102934;
    let mut rng = game_rng(2026, &[]);
    for v in w.own.iter_mut().chain(w.opp.iter_mut()) {
        *v *= rng.gen_range(0.5..2.0);
    }
    w
}

/// Weights at both ends of the range: 0, the smallest nonzero numbers that
/// still export next to MAX_WEIGHT (ratio 8.1e9), and MAX_WEIGHT itself.
fn near_bounds(swap: bool) -> Weights {
    let (mut attack, mut defence) = (999_999_999.25, 0.1234567891);
    if swap {
        std::mem::swap(&mut attack, &mut defence);
    }
    Weights {
        game: Rules::GOMOKU,
        attack,
        defence,
        own: [
            MAX_WEIGHT,
            3.1415926535e7,
            2718281.828459045,
            141421.35623730951,
            1732.0508075688772,
            22.360679774997898,
            0.0,
        ],
        opp: [
            999_999_999.987654,
            1.2345678901234567e7,
            987654.3210987654,
            55555.55555555555,
            777.7777777777778,
            3.3333333333333335,
            0.1234567891234,
        ],
        combo: None,
    }
}

#[test]
fn export_writes_short_numbers_exactly_and_long_ones_to_nine_digits() {
    // Whole numbers as they are; 2 and 1.5 as 20 and 15.
    let w = Weights::read(&fixture("gomoku_ok.toml")).unwrap();
    let e = w.export_txt().unwrap();
    assert_eq!(
        e.text(),
        "20 15 10000000 1000000 100000 20000 12000 1000 5000 1500 500 150 400 100 30 10\n"
    );
    assert_eq!(e.notes(), ["attack and defence multiplied by 1e1, exactly"]);
    assert!(shipped_weights(Rules::GOMOKU)
        .export_txt()
        .unwrap()
        .notes()
        .is_empty());
    // Short decimals exactly: 0.638 and 0.282 become 638 and 282 (the old
    // export wrote 1 and 0).
    let mut w = shipped_weights(Rules::GOMOKU);
    (w.attack, w.defence) = (0.638, 0.282);
    w.own[6] = 30.25;
    let e = w.export_txt().unwrap();
    assert_eq!(
        e.text(),
        "638 282 1000000000 100000000 10000000 2000000 1200000 100000 500000 150000 \
         50000 15000 40000 10000 3025 1000\n"
    );
    let exact = |exp| GroupScale { exp, exact: true };
    assert_eq!(e.scales, [exact(3), exact(2)]);
    // Long fractions to 9 significant digits of the smallest (defence).
    let w = trained_like();
    let e = w.export_txt().unwrap();
    assert_eq!(&e.numbers[..2], &[638172635, 282374610]);
    assert_eq!(
        e.scales[0],
        GroupScale {
            exp: 9,
            exact: false
        }
    );
    assert!(e.notes()[0].contains("rounded to at least 9 significant digits"));
    // At the bounds: 0 stays 0 and 0.1234567891234 keeps 9 digits next to
    // MAX_WEIGHT × 1e9.
    let e = near_bounds(false).export_txt().unwrap();
    assert_eq!(&e.numbers[..2], &[999_999_999_250_000_000, 123_456_789]);
    assert_eq!(e.numbers[2], 1_000_000_000_000_000_000);
    assert_eq!(&e.numbers[14..], &[0, 123_456_789]);
    // A group of zeros is written as zeros.
    let mut w = shipped_weights(Rules::GOMOKU);
    (w.attack, w.defence) = (0.0, 0.0);
    let e = w.export_txt().unwrap();
    assert_eq!(&e.numbers[..2], &[0, 0]);
    assert_eq!(Weights::from_txt(&e.text(), "z", w.game).unwrap(), w);
}

#[test]
fn export_refuses_what_64_bits_cannot_hold() {
    // own.win / opp.closed2 = 8.1e11: nine digits of opp.closed2 need 1e11,
    // which puts own.win at 1e20.
    let mut w = shipped_weights(Rules::GOMOKU);
    w.own[0] = 999_999_999.5;
    w.opp[6] = 0.00123456789123;
    let e = w.export_txt().unwrap_err();
    match &e {
        WeightsError::TxtRange {
            group,
            smallest,
            largest,
            exp,
            ..
        } => {
            assert_eq!(*group, TxtGroup::Shapes);
            assert_eq!(
                (smallest.as_str(), largest.as_str()),
                ("opp.closed2", "own.win")
            );
            assert_eq!(*exp, 11);
        }
        e => panic!("{e:?}"),
    }
    let msg = e.to_string();
    for needle in [
        "shape weights",
        "own.win = 999999999.5",
        "opp.closed2 = 0.00123456789123",
        "8.100e11",
        "9 significant digits",
        "1e11",
        "9223372036854775807",
        "set it to 0",
    ] {
        assert!(msg.contains(needle), "{msg:?} does not mention {needle:?}");
    }
    assert!(w.to_txt().is_err());
    // The same for attack and defence.
    let mut w = shipped_weights(Rules::GOMOKU);
    (w.attack, w.defence) = (MAX_WEIGHT, 0.0123456789);
    let e = w.export_txt().unwrap_err();
    assert!(
        matches!(
            e,
            WeightsError::TxtRange {
                group: TxtGroup::AttackDefence,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("attack and defence"), "{e}");
    // Setting the small one to 0 makes it exportable (exactly, here).
    w.defence = 0.0;
    assert_eq!(&w.export_txt().unwrap().numbers[..2], &[1_000_000_000, 0]);
}

/// Any number in range: whole, fractional from 10^-0.9 up (so that a group's
/// largest / smallest nonzero stays below 8e9), 0 or MAX_WEIGHT.
fn exportable_value() -> impl Strategy<Value = f64> {
    prop_oneof![
        (0u32..=1_000_000_000).prop_map(f64::from),
        (-0.9f64..9.0).prop_map(|e| 10f64.powf(e)),
        Just(0.0),
        Just(MAX_WEIGHT),
        Just(999_999_999.987654),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Export scales each group by one power of ten and keeps every nonzero
    /// number to 9 significant digits (or exactly); importing the result
    /// gives the same numbers up to one factor per group.
    #[test]
    fn export_keeps_ratios_to_nine_digits(
        game in proptest::sample::select(games()),
        v in proptest::collection::vec(exportable_value(), 16),
    ) {
        let n = Shape::count(game.k);
        let w = Weights::from_vec(game, &v[..2 + 2 * n]).unwrap();
        let e = w.export_txt().unwrap();
        let file: Vec<f64> = {
            let mut f = vec![w.attack, w.defence];
            for i in 0..n {
                f.push(w.own[i]);
                f.push(w.opp[i]);
            }
            f
        };
        prop_assert_eq!(e.numbers.len(), file.len());
        for (i, (&x, &got)) in file.iter().zip(&e.numbers).enumerate() {
            let s = e.scales[usize::from(i >= 2)];
            if x == 0.0 {
                prop_assert_eq!(got, 0);
                continue;
            }
            let want = x * 10f64.powi(s.exp as i32);
            let rel = (got as f64 - want).abs() / want;
            if s.exact {
                prop_assert!(rel <= 1e-15, "{} vs {}", got, want);
            } else {
                prop_assert!(got >= 10i64.pow(TXT_DIGITS - 1), "{} has fewer than 9 digits", got);
                prop_assert!(rel <= 0.5 / 1e8 + 1e-15, "{} vs {}", got, want);
            }
        }
        // Back in: one factor per group, zeros stay zeros.
        let back = Weights::from_txt(&e.text(), "back", game).unwrap();
        back.validate("back").unwrap();
        let back_file = Weights::import_txt(&e.text(), "back", game).unwrap().weights.export_txt().unwrap();
        prop_assert_eq!(back_file.numbers.len(), file.len());
        let b = back.to_vec();
        let a = w.to_vec();
        for group in [0..2, 2..2 + 2 * n] {
            let (amax, bmax) = (a[group.clone()].iter().cloned().fold(0.0, f64::max), b[group.clone()].iter().cloned().fold(0.0, f64::max));
            for i in group {
                prop_assert_eq!(a[i] == 0.0, b[i] == 0.0);
                if a[i] > 0.0 {
                    let rel = (b[i] / bmax) / (a[i] / amax) - 1.0;
                    prop_assert!(rel.abs() <= 1.1e-8, "{}: {} vs {}", i, a[i], b[i]);
                }
            }
        }
    }

    /// Any non-negative 64-bit integers import into mnk's range. Export
    /// gives back the same numbers when no group needed scaling; otherwise,
    /// when each number has at most 15 significant digits (what an f64
    /// holds) and each group's smallest nonzero number at most 9 digits, the
    /// same numbers divided by one power of ten per group (exact ratios),
    /// else the same ratios to 9 significant digits.
    #[test]
    fn import_takes_any_64_bit_integer(
        game in proptest::sample::select(games()),
        nums in proptest::collection::vec(
            prop_oneof![
                0i64..=1000,
                0i64..=1_000_000_000,
                (1i64..1_000_000_000_000_000, 0u32..=4)
                    .prop_map(|(m, z)| m.checked_mul(10i64.pow(z)).unwrap_or(m)),
                Just(9_223_372_036_854_770_000i64),
            ],
            16,
        ),
    ) {
        let want = 2 + 2 * Shape::count(game.k);
        let nums = &nums[..want];
        let text = nums.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ") + "\n";
        let imp = Weights::import_txt(&text, "any.txt", game).unwrap();
        imp.weights.validate("any.txt").unwrap();
        let toml = imp.to_toml("any.txt");
        prop_assert_eq!(&Weights::from_toml(&toml, "t").unwrap(), &imp.weights);
        let e = imp.weights.export_txt().unwrap();
        if imp.divided_by == [0, 0] {
            prop_assert_eq!(e.text(), text);
        }
        for (g, group) in [0..2, 2..want].into_iter().enumerate() {
            let n = &nums[group.clone()];
            let got = &e.numbers[group];
            let max = n.iter().copied().max().unwrap_or(0);
            let min = n.iter().copied().filter(|&v| v > 0).min().unwrap_or(0);
            let jmax = n.iter().position(|&v| v == max).unwrap();
            for (&x, &y) in n.iter().zip(got) {
                prop_assert_eq!(x == 0, y == 0);
            }
            if max == 0 {
                continue;
            }
            if imp.divided_by[g] == 0 || min < 1_000_000_000 {
                // Exact: every number over the same power of ten.
                let t = (0..=18u32).find(|&t| i128::from(got[jmax]) * 10i128.pow(t) == i128::from(max));
                prop_assert!(t.is_some(), "{:?} vs {:?}", got, n);
                let f = 10i128.pow(t.unwrap());
                for (&x, &y) in n.iter().zip(got) {
                    prop_assert_eq!(i128::from(y) * f, i128::from(x), "{:?} vs {:?}", got, n);
                }
            } else {
                for (&x, &y) in n.iter().zip(got) {
                    let rel = (y as f64 / got[jmax] as f64) / (x as f64 / max as f64) - 1.0;
                    prop_assert!(x == 0 || rel.abs() <= 1e-8, "{:?} vs {:?}", got, n);
                }
            }
        }
    }
}

/// A position a game could reach: `stones` stones, each within 2 cells of
/// an earlier one, none completing a win.
fn local_position(rules: Rules, stones: usize, rng: &mut Rng) -> Board {
    let mut b = Board::new(rules);
    let centre = Move::new(rules.width / 2, rules.height / 2);
    let mut tries = 0;
    while b.ply() < stones && tries < 10_000 {
        tries += 1;
        let m = if b.ply() == 0 {
            centre
        } else {
            let (near, _) = b.move_at(rng.gen_range(0..b.ply()));
            let x = near.x as i32 + rng.gen_range(-2..=2);
            let y = near.y as i32 + rng.gen_range(-2..=2);
            if x < 0 || y < 0 || x >= rules.width as i32 || y >= rules.height as i32 {
                continue;
            }
            Move::new(x as u8, y as u8)
        };
        if b.is_legal(m) && !b.wins_at(m, b.to_move()) {
            b.play_unchecked(m);
        }
    }
    b
}

/// The cells within a relative 1e-9 of the best score: near-exact ties
/// count as tied.
fn best_cells(scores: &[f64]) -> Vec<usize> {
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tol = 1e-9 * max.abs();
    (0..scores.len())
        .filter(|&i| scores[i] >= max - tol)
        .collect()
}

#[test]
fn export_then_import_picks_the_same_cells() {
    let rules = Rules::GOMOKU;
    let mut rng = game_rng(99, &[]);
    let mut sets = vec![trained_like(), near_bounds(false), near_bounds(true)];
    for _ in 0..2 {
        // Random weights anywhere in the exportable range, some zero.
        let v: Vec<f64> = (0..16)
            .map(|_| match rng.gen_range(0..10) {
                0 => 0.0,
                1 => MAX_WEIGHT,
                _ => 10f64.powf(rng.gen_range(-0.9..9.0)),
            })
            .collect();
        sets.push(Weights::from_vec(rules, &v).unwrap());
    }
    let per_set = 2000;
    let mut same = 0;
    for w in &sets {
        let back = Weights::from_txt(&w.to_txt().unwrap(), "back", rules).unwrap();
        let mut a = Evaluator::for_cell_scores(w.clone());
        let mut b = Evaluator::for_cell_scores(back);
        let mut same_here = 0;
        for _ in 0..per_set {
            let stones = rng.gen_range(1..=60);
            let board = local_position(rules, stones, &mut rng);
            a.sync(&board);
            b.sync(&board);
            let mover = board.to_move();
            if best_cells(a.scores(mover)) == best_cells(b.scores(mover)) {
                same_here += 1;
            }
        }
        eprintln!("{same_here} of {per_set} positions agree for {w:?}");
        same += same_here;
    }
    let total = per_set * sets.len();
    assert_eq!(total, 10_000);
    eprintln!("same best cells: {same} of {total}");
    assert!(same * 1000 >= total * 999, "{same} of {total}");
}

#[test]
fn round_tripped_weights_play_like_the_originals() {
    let rules = Rules::GOMOKU;
    let w = trained_like();
    let back = Weights::from_txt(&w.to_txt().unwrap(), "back", rules).unwrap();
    let openings = random_openings(
        rules,
        OpeningStyle::default_for(rules),
        300,
        &mut game_rng(7, &[]),
    );
    let play = |other: &Weights| {
        let (a, b) = (w.clone(), other.clone());
        let ma = move || Box::new(Greedy::new(a.clone())) as Box<dyn Player>;
        let mb = move || Box::new(Greedy::new(b.clone())) as Box<dyn Player>;
        let t = MatchPlan::new(rules, &openings, &ma, &mb, 11)
            .run(false)
            .unwrap()
            .tally
            .games;
        let bar = 1.96 * (t.variance() / t.games() as f64).sqrt();
        (t, t.score(), bar)
    };
    let (t, score, bar) = play(&back);
    eprintln!("original vs round trip: {t:?}, score {score:.4} ± {bar:.4}");
    assert_eq!(t.games(), 600);
    assert!((score - 0.5).abs() <= bar, "{t:?}: {score} ± {bar}");
    // The old export rounded attack and defence to 1 and 0: the match sees
    // that at once, so it can tell.
    let mut rounded = w.clone();
    (rounded.attack, rounded.defence) = (1.0, 0.0);
    let (t, score, bar) = play(&rounded);
    eprintln!("original vs rounded: {t:?}, score {score:.4} ± {bar:.4}");
    assert!(score - bar > 0.5, "{t:?}: {score} ± {bar}");
}

/// The numbers of a txt file as weights without any scaling (outside mnk's
/// range: only ever evaluated here, never validated).
fn unscaled(nums: &[i64], game: Rules) -> Weights {
    let n = Shape::count(game.k);
    let mut w = Weights::flat(game);
    w.attack = nums[0] as f64;
    w.defence = nums[1] as f64;
    for i in 0..n {
        w.own[i] = nums[2 + 2 * i] as f64;
        w.opp[i] = nums[3 + 2 * i] as f64;
    }
    w
}

/// Imported weights keep the board value's meaning: it is the file's value
/// over the group's factor (same order, same sign), and it stays far below
/// the search's mate scores, where the unscaled numbers would reach them.
#[test]
fn imported_weights_keep_the_board_value() {
    let rules = Rules::GOMOKU;
    let mate = WIN - 10_000.0;
    // |value| ≤ Σ own weight × (stone, direction) pairs ≤ 4 × MAX_WEIGHT ×
    // cells, for every board mnk plays.
    let largest = Rules::new(MAX_SIDE as u32, MAX_SIDE as u32, 5, Rule::Freestyle).unwrap();
    let bound = |r: Rules| 4.0 * MAX_WEIGHT * r.cells() as f64;
    assert!(bound(largest) < mate / 100.0);
    let huge = "1 1 9223372036854775807 9000000000000000000 800000000000000000 \
                700000000000000000 90000000000000000 80000000000000000 \
                7000000000000000 6000000000000000 500000000000000 \
                400000000000000 30000000000000 20000000000000 1000000000000 900000000000";
    let original = std::fs::read_to_string(fixture("original.txt")).unwrap();
    for (text, q) in [(original.as_str(), 5), (huge, 10)] {
        let imp = Weights::import_txt(text, "t", rules).unwrap();
        assert_eq!(imp.divided_by, [0, q]);
        let mut norm = Evaluator::new(imp.weights.clone());
        let mut raw = Evaluator::new(unscaled(&imp.numbers, rules));
        let factor = 10f64.powi(q as i32);
        let mut rng = game_rng(5, &[q as u64]);
        let (mut quiet, mut raw_mates) = (0, 0);
        for _ in 0..1000 {
            let board = local_position(rules, rng.gen_range(1..=40), &mut rng);
            norm.sync(&board);
            raw.sync(&board);
            let mover = board.to_move();
            let (v, r) = (norm.evaluate(mover), raw.evaluate(mover));
            if v.abs() == WIN {
                // Decided by threats, whatever the weights.
                assert_eq!(r, v);
                continue;
            }
            quiet += 1;
            assert!(v.abs() <= bound(rules), "{v}");
            assert!(
                (v * factor - r).abs() <= 1e-12 * r.abs().max(1.0),
                "{v} × {factor} vs {r}"
            );
            raw_mates += usize::from(r.abs() >= mate);
        }
        assert!(quiet > 500, "{quiet}");
        eprintln!("q = {q}: {quiet} quiet positions, {raw_mates} would read as mate unscaled");
        if q == 10 {
            assert!(
                raw_mates > 0,
                "the unscaled numbers never reach the mate scores"
            );
        }
        // The search on the imported weights: a quiet opening is valued as
        // such, an immediate win is taken and a four is blocked.
        let mut s = Search::new(
            imp.weights.clone(),
            SearchLimits {
                depth: 3,
                ..Default::default()
            },
        );
        let openings = random_openings(rules, OpeningStyle::default_for(rules), 5, &mut rng);
        for o in &openings {
            let b = o.board(rules).unwrap();
            let m = s.choose(&b, &mut game_rng(1, &[])).unwrap();
            assert!(b.is_legal(m));
            let score = s.info().score;
            assert!(score.abs() <= bound(rules), "{score} after {:?}", o.moves);
        }
        let board = |moves: &[&str]| {
            let ms: Vec<Move> = moves.iter().map(|m| m.parse().unwrap()).collect();
            Board::from_moves(rules, &ms).unwrap()
        };
        let win = board(&["h8", "h1", "i8", "i1", "j8", "j1", "k8", "a15"]);
        let m = s.choose(&win, &mut game_rng(1, &[])).unwrap();
        assert!(["g8", "l8"].contains(&m.to_string().as_str()), "{m}");
        assert!(s.info().score >= mate);
        let block = board(&["h8", "a1", "o15", "b1", "o14", "c1", "n15", "d1"]);
        assert_eq!(
            s.choose(&block, &mut game_rng(1, &[])).unwrap().to_string(),
            "e1"
        );
    }
}

/// docs/commands/weights.md's commands, as written, from the repository's folder.
#[test]
fn readme_commands_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let mnk = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_mnk"))
            .args(args)
            .current_dir(root)
            .output()
            .unwrap()
    };
    let toml = dir.path().join("imported.toml");
    let toml = toml.to_str().unwrap();
    let out = mnk(&[
        "weights",
        "import",
        "weights/ChessboardValue.txt",
        "-o",
        toml,
    ]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("note: shape weights (own and opp) divided by 1e5 to fit"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!("wrote {toml} (gomoku)\n")),
        "{stdout}"
    );
    let out = mnk(&["weights", "export", toml]);
    assert!(out.status.success(), "{out:?}");
    let original = std::fs::read_to_string(root.join("weights/ChessboardValue.txt")).unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), original);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "note: shape weights (own and opp) multiplied by 1e5, exactly\n"
    );
    // A refusal exits non-zero, names the file and writes nothing.
    let mut w = shipped_weights(Rules::GOMOKU);
    w.own[0] = 999_999_999.5;
    w.opp[6] = 0.00123456789123;
    let bad = dir.path().join("bad.toml");
    w.save(&bad, "too far apart").unwrap();
    let txt = dir.path().join("out.txt");
    let out = mnk(&[
        "weights",
        "export",
        bad.to_str().unwrap(),
        "-o",
        txt.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(bad.to_str().unwrap()) && stderr.contains("cannot export"),
        "{stderr}"
    );
    assert!(!txt.exists());
    // --help says what is preserved.
    for cmd in ["import", "export"] {
        let help = String::from_utf8_lossy(&mnk(&["weights", cmd, "--help"]).stdout).to_string();
        for needle in ["What is preserved", "best cell", "ratios", "absolute scale"] {
            assert!(
                help.contains(needle),
                "{cmd} --help lacks {needle:?}:\n{help}"
            );
        }
    }
}
