//! Properties of every parser, on stable and in the normal test suite (the
//! nightly-only fuzz targets in `fuzz/` cover the same parsers far longer):
//!
//! - arbitrary text, and small random edits of valid files, never make a
//!   parser panic: it returns a value or a typed error;
//! - where a writer exists, what it writes parses back to the same value
//!   (weights TOML, records CSV and SGF, openings, player specs, game
//!   names, moves, `run.toml`, `rounds.csv`, `checks.csv`), and exporting
//!   the `ChessboardValue.txt` form of an imported file is a fixed point;
//! - a Gomocup session of arbitrary command lines answers every line with
//!   protocol replies only.

use mnk::arena::{parse_openings, Opening};
use mnk::brain::lines::LineReader;
use mnk::brain::{serve, Settings};
use mnk::eval::{shipped_weights, Weights, MAX_WEIGHT};
use mnk::game::{Board, Color, Move, Outcome, Rule, Rules};
use mnk::players::{PlayerKind, PlayerSpec, SearchLimits};
use mnk::records::{parse_csv, parse_sgf, Record};
use mnk::train::{
    check_lines, checks_header_line, parse_checks, parse_rounds, round_line, rounds_header_line,
};
use mnk::train::{PlateauConfig, RunConfig, TrainedPlayer};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

const TTT_RUN: &str = include_str!("../data/runs/ttt/run.toml");
const TTT_ROUNDS: &str = include_str!("../data/runs/ttt/rounds.csv");
const TTT_CHECKS: &str = include_str!("../data/runs/ttt/checks.csv");
const G9S_RUN: &str = include_str!("../data/runs/g9s/run.toml");
const G9S_ROUNDS: &str = include_str!("../data/runs/g9s/rounds.csv");
const G9S_CHECKS: &str = include_str!("../data/runs/g9s/checks.csv");
const GOMOKU_TOML: &str = include_str!("../../weights/gomoku.toml");
const ORIGINAL_CSV: &str = include_str!("../data/records/original.csv");
const SGF: &str = "(;GM[4]FF[4]CA[UTF-8]SZ[15]MNK[15x15x5]PB[a b]PW[c\\]d]RE[B+]\
                   DT[2026-11-22T10:00:00Z];B[hh];W[ii](;B[hi])(;B[aa]))\n(;SZ[3];B[bb])";

fn cases(n: u32) -> ProptestConfig {
    ProptestConfig::with_cases(n)
}

/// Text a parser might meet: anything, or a valid file with a few random
/// edits (deletions, insertions and replacements of short runs).
fn text_like(valid: &'static [&'static str]) -> BoxedStrategy<String> {
    let edited = (
        prop::sample::select(valid),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                0..4usize,
                "[ -~\n\t\u{e9}]{0,4}",
            ),
            1..4,
        ),
    )
        .prop_map(|(base, edits)| {
            let mut s = base.to_string();
            for (at, del, ins) in edits {
                let mut i = at.index(s.len() + 1);
                while !s.is_char_boundary(i) {
                    i -= 1;
                }
                let mut j = (i + del).min(s.len());
                while !s.is_char_boundary(j) {
                    j += 1;
                }
                s.replace_range(i..j, &ins);
            }
            s
        });
    prop_oneof![1 => any::<String>(), 1 => "[ -~\n]{0,60}", 3 => edited].boxed()
}

fn rules() -> impl Strategy<Value = Rules> {
    (
        3u32..=26,
        3u32..=26,
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
        .prop_map(|(w, h, k, exact)| {
            let k = 3 + k.index((w.max(h) - 2) as usize) as u32;
            let rule = if exact { Rule::Exact } else { Rule::Freestyle };
            Rules::new(w, h, k, rule).unwrap()
        })
}

/// Small games, so random records and openings stay quick.
fn small_rules() -> impl Strategy<Value = Rules> {
    prop::sample::select(vec![
        Rules::TICTACTOE,
        Rules::GOMOKU,
        "7x6x4".parse().unwrap(),
        "4x4x3-exact".parse().unwrap(),
        "9x9x5-exact".parse().unwrap(),
    ])
}

/// A legal game on `rules`: moves drawn from the indices, stopping at the
/// end of the game or after `len` moves.
fn game(rules: Rules, picks: &[prop::sample::Index], len: usize) -> Board {
    let mut b = Board::new(rules);
    for p in picks.iter().take(len) {
        if b.is_over() {
            break;
        }
        let legal = b.legal_moves();
        b.play(legal[p.index(legal.len())]).unwrap();
    }
    b
}

/// A name, spec or date as users write them: any characters, spaces and
/// `%` included.
fn name() -> impl Strategy<Value = String> {
    prop_oneof!["[a-zA-Z0-9 %=#:/._-]{0,12}", "\\PC{0,8}"]
}

fn record() -> impl Strategy<Value = Record> {
    (
        small_rules(),
        prop::collection::vec(any::<prop::sample::Index>(), 0..40),
        0..40usize,
        0..4u8,
        name(),
        name(),
        prop::option::of("[0-9TZ:-]{1,20}"),
    )
        .prop_map(|(rules, picks, len, result, black, white, date)| {
            let board = game(rules, &picks, len);
            let mut r = Record::from_board(&board, black, white);
            // An unfinished game may carry any stated result.
            if r.result.is_none() {
                r.result = [
                    None,
                    Some(Outcome::Win(Color::Black)),
                    Some(Outcome::Win(Color::White)),
                    Some(Outcome::Draw),
                ][result as usize];
            }
            r.date = date;
            r
        })
}

fn weights() -> impl Strategy<Value = Weights> {
    (
        rules(),
        prop::collection::vec(
            prop_oneof![0.0..=MAX_WEIGHT, (0u32..=1_000_000_000).prop_map(f64::from)],
            16,
        ),
    )
        .prop_map(|(rules, v)| {
            let n = 2 + 2 * Weights::flat(rules).shape_count();
            Weights::from_vec(rules, &v[..n]).unwrap()
        })
}

fn spec() -> impl Strategy<Value = PlayerSpec> {
    let limits = (
        1u32..=64,
        1usize..=676,
        0usize..=676,
        prop::option::of(1u64..u64::MAX),
        prop::option::of(0u64..10_000_000),
        4u32..=SearchLimits::MAX_TT_BITS,
    )
        .prop_map(|(depth, width, late, nodes, time, tt_bits)| SearchLimits {
            depth,
            width,
            late,
            nodes,
            time: time.map(Duration::from_millis),
            soft_time: None,
            tt_bits,
        });
    let kind = prop_oneof![
        Just(PlayerKind::Greedy),
        limits.prop_map(PlayerKind::Search),
        (0usize..1000).prop_map(|limit| PlayerKind::Exact { limit }),
        Just(PlayerKind::Random),
    ];
    (
        kind,
        prop::option::of("[a-zA-Z0-9/._-]{1,20}"),
        any::<bool>(),
    )
        .prop_map(|(kind, weights, any_game)| {
            let has_weights = matches!(kind, PlayerKind::Greedy | PlayerKind::Search(_));
            PlayerSpec {
                weights: weights.filter(|_| has_weights).map(PathBuf::from),
                any_game: any_game && has_weights,
                kind,
            }
        })
}

fn run_config() -> impl Strategy<Value = RunConfig> {
    (
        prop::sample::select(vec![
            Rules::TICTACTOE,
            Rules::GOMOKU,
            "7x6x4".parse().unwrap(),
        ]),
        any::<bool>(),
        0..=i64::MAX as u64,
        1u32..100_000,
        1u32..=64,
        0.001f64..=5.0,
        0.0f64..1000.0,
        "[a-z0-9._+-]{1,20}",
        prop::sample::select(vec![
            "greedy",
            "search:depth=2,width=9",
            "search:nodes=1000",
        ]),
        prop::option::of((1u32..=10_000, 0.01f64..0.99, any::<bool>(), any::<bool>())),
        prop::option::of(0usize..=100_000),
    )
        .prop_map(
            |(
                game,
                spsa,
                seed,
                rounds,
                challengers,
                sigma,
                half_life,
                name,
                player,
                plateau,
                verdict_openings,
            )| {
                let base = if spsa {
                    RunConfig::spsa_defaults(game)
                } else {
                    RunConfig::defaults(game)
                };
                RunConfig {
                    seed,
                    rounds,
                    challengers,
                    sigma,
                    sigma_half_life: half_life,
                    name,
                    player: player.into(),
                    verdict_openings,
                    // SPSA runs have no plateau rule.
                    plateau: plateau
                        .filter(|_| !spsa)
                        .map(|(patience, shrink, grow, stop)| PlateauConfig {
                            patience,
                            shrink,
                            grow,
                            stop,
                        }),
                    ..base
                }
            },
        )
        .prop_filter("a valid name", |c| c.validate().is_ok())
}

fn path() -> &'static Path {
    Path::new("fuzz.csv")
}

proptest! {
    #![proptest_config(cases(2000))]

    #[test]
    fn weights_toml_never_panics(text in text_like(&[GOMOKU_TOML])) {
        let _ = Weights::from_toml(&text, "w.toml");
    }

    #[test]
    fn weights_toml_round_trip(w in weights()) {
        let back = Weights::from_toml(&w.to_toml("title"), "w.toml").unwrap();
        prop_assert_eq!(back, w);
    }

    #[test]
    fn weights_txt_never_panics_and_reexport_is_a_fixed_point(
        rules in small_rules(),
        text in text_like(&["1 1 100000000 10000000 1000000 100000 10000 800 10000 3000 100 50 100 50 1 0\n",
                            "1 1\n100 10 8 3\n 1 1 1 1 1 1\n"]),
    ) {
        if let Ok(w) = Weights::from_txt(&text, "w.txt", rules) {
            if let Ok(t1) = w.to_txt() {
                let t2 = Weights::from_txt(&t1, "t1.txt", rules).unwrap().to_txt().unwrap();
                prop_assert_eq!(t1, t2);
            }
        }
    }

    #[test]
    fn weights_txt_export_of_any_weights_reads_back(w in weights()) {
        // Import divides a group whose numbers exceed mnk's range by a
        // power of ten, so the first re-export may be t1 scaled down; from
        // then on export and import are each other's inverse.
        if let Ok(t1) = w.to_txt() {
            let w1 = Weights::from_txt(&t1, "w.txt", w.game).unwrap();
            let t2 = w1.to_txt().unwrap();
            let w2 = Weights::from_txt(&t2, "w.txt", w.game).unwrap();
            prop_assert_eq!(w2.to_txt().unwrap(), t2);
        }
    }

    #[test]
    fn records_csv_never_panics(rules in small_rules(), text in text_like(&[ORIGINAL_CSV, "# game=7x6x4 black=a%20b\n0\n1,1\n2,-1\n"])) {
        let _ = parse_csv(&text, rules);
    }

    #[test]
    fn records_csv_round_trip(games in prop::collection::vec(record(), 1..4)) {
        let text: String = games.iter().map(Record::to_csv).collect();
        prop_assert_eq!(parse_csv(&text, Rules::GOMOKU).unwrap(), games.clone());
        // The original layout keeps the moves and results; names are lost.
        let same_rules: Vec<Record> = games.iter().filter(|g| g.rules == games[0].rules).cloned().collect();
        let original: String = same_rules.iter().map(Record::to_original_csv).collect();
        let back = parse_csv(&original, games[0].rules).unwrap();
        prop_assert_eq!(back.len(), same_rules.len());
        for (b, g) in back.iter().zip(&same_rules) {
            prop_assert_eq!((&b.moves, b.result), (&g.moves, g.result));
        }
    }

    #[test]
    fn records_sgf_never_panics(rules in small_rules(), text in text_like(&[SGF])) {
        let _ = parse_sgf(&text, rules);
    }

    #[test]
    fn records_sgf_round_trip(games in prop::collection::vec(record(), 1..4)) {
        let text: String = games.iter().map(Record::to_sgf).collect();
        prop_assert_eq!(parse_sgf(&text, Rules::TICTACTOE).unwrap(), games);
    }

    #[test]
    fn openings_never_panic(rules in small_rules(), text in text_like(&["# x\n0,0, 1,0, 1,1\n-1,-1\n", "2147483647,0\n-7,-7, 7,7\n"])) {
        let _ = parse_openings(&text, "o.txt", rules);
    }

    #[test]
    fn openings_round_trip(
        rules in small_rules(),
        lines in prop::collection::vec((prop::collection::vec(any::<prop::sample::Index>(), 1..6), 1..6usize), 1..5),
    ) {
        let openings: Vec<Opening> = lines
            .iter()
            .map(|(picks, len)| game(rules, picks, *len))
            .filter(|b| !b.is_over())
            // An opening where the mover wins at once is already decided.
            .filter(|b| {
                !(0..rules.cells())
                    .map(|i| rules.move_at(i))
                    .any(|m| b.is_legal(m) && b.wins_at(m, b.to_move()))
            })
            .map(|b| Opening { moves: b.moves().collect() })
            .collect();
        prop_assume!(!openings.is_empty());
        let text: String = openings.iter().map(|o| o.to_offsets(rules) + "\n").collect();
        prop_assert_eq!(parse_openings(&text, "o.txt", rules).unwrap(), openings);
    }

    #[test]
    fn player_specs_never_panic(text in text_like(&["search:depth=4,width=9,weights=a.toml,nodes=100,time=500,tt=18", "exact:limit=16", "greedy:x.toml,any-game=true"])) {
        if let Ok(s) = text.parse::<PlayerSpec>() {
            prop_assert_eq!(s.to_string().parse::<PlayerSpec>().unwrap(), s);
        }
        let _ = TrainedPlayer::parse(&text);
    }

    #[test]
    fn player_spec_round_trip(s in spec()) {
        prop_assert_eq!(s.to_string().parse::<PlayerSpec>().unwrap(), s);
    }

    #[test]
    fn game_names_never_panic(text in text_like(&["gomoku", "15x15x5-exact", "7x6x4", "tictactoe"])) {
        if let Ok(r) = text.parse::<Rules>() {
            prop_assert_eq!(r.to_string().parse::<Rules>().unwrap(), r);
        }
    }

    #[test]
    fn game_name_round_trip(r in rules()) {
        prop_assert_eq!(r.to_string().parse::<Rules>().unwrap(), r);
    }

    #[test]
    fn moves_never_panic(rules in small_rules(), text in text_like(&["h8", "7,7", "z256", " 255, 0 ", "undo"])) {
        if let Ok(m) = text.parse::<Move>() {
            prop_assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
        }
        if let Err(e) = mnk::play::Command::parse(&text, rules) {
            prop_assert!(!e.message(rules).is_empty());
        }
    }

    #[test]
    fn move_round_trip(x in any::<u8>(), y in any::<u8>()) {
        let m = Move::new(x, y);
        prop_assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
        prop_assert_eq!(m.to_xy().parse::<Move>().unwrap(), m);
    }

    #[test]
    fn run_toml_never_panics(text in text_like(&[TTT_RUN, G9S_RUN])) {
        if let Ok(c) = RunConfig::from_toml(&text, "run.toml") {
            prop_assert_eq!(RunConfig::from_toml(&c.to_toml().unwrap(), "run.toml").unwrap(), c);
        }
    }

    #[test]
    fn run_toml_round_trip(c in run_config()) {
        prop_assert_eq!(RunConfig::from_toml(&c.to_toml().unwrap(), "run.toml").unwrap(), c);
    }

    #[test]
    fn rounds_csv_never_panics_and_rows_round_trip(spsa in any::<bool>(), text in text_like(&[TTT_ROUNDS, G9S_ROUNDS])) {
        let toml = if spsa { G9S_RUN } else { TTT_RUN };
        let cfg = RunConfig::from_toml(toml, "run.toml").unwrap();
        if let Ok(rows) = parse_rounds(&text, path(), &cfg) {
            prop_assume!(!rows.is_empty());
            let mut again = rounds_header_line(&cfg);
            for r in &rows {
                again.push_str(&round_line(&cfg, r));
            }
            prop_assert_eq!(parse_rounds(&again, path(), &cfg).unwrap(), rows);
        }
    }

    #[test]
    fn checks_csv_never_panics_and_rows_round_trip(small in any::<bool>(), text in text_like(&[TTT_CHECKS, G9S_CHECKS])) {
        if let Ok(rows) = parse_checks(&text, path(), small) {
            prop_assume!(!rows.is_empty());
            let mut again = checks_header_line(small);
            for c in &rows {
                again.push_str(&check_lines(c));
            }
            prop_assert_eq!(parse_checks(&again, path(), small).unwrap(), rows);
        }
    }

    #[test]
    fn text_decoding_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..40)) {
        match mnk::util::text_from_bytes(bytes.clone()) {
            Ok(t) => prop_assert_eq!(t.as_bytes(), &bytes[..]),
            Err(e) => {
                prop_assert!(std::str::from_utf8(&bytes).is_err());
                prop_assert!(e.to_string().contains("line "), "{}", e);
            }
        }
    }

    #[test]
    fn protocol_lines_split_at_every_line_end(bytes in prop::collection::vec(prop_oneof![Just(b'\r'), Just(b'\n'), Just(0xffu8), b'A'..=b'C'], 0..30)) {
        let mut r = LineReader::new(&bytes[..]);
        let mut n = 0;
        while let Ok(Some(_)) = r.next_line() {
            n += 1;
        }
        let ends = bytes.iter().filter(|&&b| b == b'\r' || b == b'\n').count();
        let tail = usize::from(bytes.last().is_some_and(|&b| b != b'\r' && b != b'\n'));
        prop_assert_eq!(n, ends + tail);
    }
}

/// A protocol line: a known command with plausible or odd arguments, a
/// `BOARD` stone line, or anything.
fn protocol_line() -> impl Strategy<Value = String> {
    let coord = prop_oneof!["-?[0-9]{1,2}", Just("7".to_string()), "[0-9a-z]{0,3}"];
    prop_oneof![
        (5u32..=20).prop_map(|n| format!("START {n}")),
        (1u32..=30, 1u32..=30).prop_map(|(w, h)| format!("RECTSTART {w},{h}")),
        (coord.clone(), coord.clone()).prop_map(|(x, y)| format!("TURN {x},{y}")),
        (coord.clone(), coord.clone()).prop_map(|(x, y)| format!("TAKEBACK {x},{y}")),
        (coord.clone(), coord, 0u8..5).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
        prop::sample::select(vec![
            "BEGIN",
            "BOARD",
            "DONE",
            "RESTART",
            "ABOUT",
            "INFO rule 1",
            "INFO rule 4",
            "INFO rule 7",
            "INFO time_left 0",
            "INFO timeout_match 0",
            "INFO max_depth 1",
            "INFO max_node 50",
            "INFO folder /tmp/x y",
            "INFO",
            "INFO timeout_turn x",
        ])
        .prop_map(str::to_string),
        "[ -~]{0,12}",
    ]
}

/// Every reply a session sends is a protocol line, and a move is on the
/// board the last successful `START` set.
fn check_replies(input: &[String], output: &str) -> Result<(), TestCaseError> {
    let size = input
        .iter()
        .filter_map(|l| {
            let (w, h) = l
                .strip_prefix("START ")
                .map(|n| (n, n))
                .or_else(|| l.strip_prefix("RECTSTART ").and_then(|r| r.split_once(',')))?;
            Some((w.parse::<i64>().ok()?, h.parse::<i64>().ok()?))
        })
        .filter(|&(w, h)| (5..=26).contains(&w) && (5..=26).contains(&h))
        .map(|(w, h)| w.max(h))
        .max();
    for r in output.lines() {
        if ["OK", "ERROR ", "UNKNOWN ", "MESSAGE ", "name="]
            .iter()
            .any(|p| r.starts_with(p))
        {
            continue;
        }
        let (x, y) = r
            .split_once(',')
            .ok_or_else(|| TestCaseError::fail(format!("reply {r:?}")))?;
        let (x, y): (i64, i64) = (x.parse().unwrap(), y.parse().unwrap());
        let side =
            size.ok_or_else(|| TestCaseError::fail(format!("move {r:?} without a board")))?;
        prop_assert!((0..side).contains(&x) && (0..side).contains(&y), "{}", r);
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(200))]

    #[test]
    fn brain_sessions_answer_in_protocol(lines in prop::collection::vec(protocol_line(), 0..40)) {
        // Instant moves and the smallest table, so no case thinks long.
        let mut input = "INFO timeout_turn 0\nINFO max_memory 1\n".to_string();
        for l in &lines {
            input.push_str(l);
            input.push_str("\r\n");
        }
        let settings = Settings {
            weights: shipped_weights(Rules::GOMOKU),
            depth: 2,
            width: 4,
            late: 16,
            verbose: true,
            seed: 1,
            default_turn: 0,
        };
        let mut out = Vec::new();
        serve(settings, input.as_bytes(), &mut out).unwrap();
        check_replies(&lines, &String::from_utf8(out).unwrap())?;
    }
}

#[test]
fn run_toml_refuses_seeds_it_cannot_store() {
    let cfg = RunConfig {
        seed: u64::MAX,
        name: "x".into(),
        ..RunConfig::defaults(Rules::TICTACTOE)
    };
    let e = cfg.validate().unwrap_err().to_string();
    assert!(
        e.contains("seed") && e.contains("9223372036854775807"),
        "{e}"
    );
    let ok = RunConfig {
        seed: i64::MAX as u64,
        ..cfg
    };
    assert_eq!(
        RunConfig::from_toml(&ok.to_toml().unwrap(), "run.toml").unwrap(),
        ok
    );
}

#[test]
fn openings_with_huge_offsets_are_errors() {
    let e = parse_openings("0,0\n2147483647,-2147483648\n", "o.txt", Rules::GOMOKU).unwrap_err();
    assert_eq!(
        e.to_string(),
        "o.txt: line 2: offset 2147483647,-2147483648 is off the 15x15 board"
    );
}

#[test]
fn moves_beyond_z_or_row_255_show_as_x_y() {
    assert_eq!(Move::new(26, 0).to_string(), "26,0");
    assert_eq!(Move::new(255, 255).to_string(), "255,255");
    assert_eq!(Move::new(8, 254).to_string(), "i255");
    assert_eq!(Move::new(8, 255).to_string(), "8,255");
    assert!("i256".parse::<Move>().is_err());
}

#[test]
fn brain_names_bytes_that_are_not_utf8() {
    let settings = Settings {
        weights: shipped_weights(Rules::GOMOKU),
        depth: 2,
        width: 4,
        late: 16,
        verbose: false,
        seed: 1,
        default_turn: 0,
    };
    let input = b"START 15\r\nTURN 1,\xff\r\nINFO folder C:\\J\xfcrgen\r\n\xc3START 9\r\nEND\r\n";
    let mut out = Vec::new();
    serve(settings, &input[..], &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "OK\n\
         ERROR TURN needs a move x,y like TURN 7,7, found \"1,\\\\xFF\"\n\
         UNKNOWN command \\\\xC3START\n"
    );
}

#[test]
fn csv_metadata_bytes_must_decode_to_utf8() {
    let games = parse_csv("# black=Ren%C3%A9 note=%FF\n0\n2,-1\n", Rules::TICTACTOE).unwrap();
    assert_eq!(games[0].black, "René");
    let e = parse_csv(
        "0\n2,-1\n# black=a white=b%FF%20c\n0\n2,-1\n",
        Rules::TICTACTOE,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3: metadata white=b%FF%20c: the %XX bytes do not form UTF-8 text"
    );
}
