//! Weight files: the TOML format, the original `ChessboardValue.txt`
//! format, and errors that name the file and the field or line.

use mnk::eval::{shipped_weights, Shape, Weights, WeightsError, MAX_WEIGHT, SHAPES};
use mnk::game::{Rule, Rules};
use proptest::prelude::*;
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
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 1000000001",
            &["two_opp"],
        ),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 99999999999999999999",
            &["two_opp"],
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
