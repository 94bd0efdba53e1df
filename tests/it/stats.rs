//! Tests of `mnk::arena::stats`: reference values computed independently by
//! `tests/data/stats/reference.py` (fishtest's LLRcalc mathematics in plain
//! Python), edge cases, the SPRT string form, and properties.

use mnk::arena::stats::{
    elo_from_score, score_from_elo, GameResult, PairedTally, Pentanomial, ScoreError, SprtError,
    SprtModel, SprtParams, SprtStatus, Tally,
};
use proptest::prelude::*;

const REFERENCE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/stats/reference.csv"
);

/// Agreement to 3 significant figures (infinities must match exactly).
fn assert_close(what: &str, actual: f64, expected: f64) {
    if expected.is_infinite() {
        assert_eq!(
            actual, expected,
            "{what}: expected {expected}, got {actual}"
        );
        return;
    }
    let tolerance = 1e-3 * expected.abs() + 1e-9;
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: expected {expected}, got {actual}"
    );
}

#[derive(Debug, serde::Deserialize)]
struct Row {
    kind: String,
    model: String,
    c0: u64,
    c1: u64,
    c2: u64,
    c3: u64,
    c4: u64,
    elo0: f64,
    elo1: f64,
    score: f64,
    elo: f64,
    elo_err95: f64,
    elo_lo: f64,
    elo_hi: f64,
    nelo: f64,
    llr: f64,
}

fn reference_rows() -> Vec<Row> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_path(REFERENCE)
        .expect("reference.csv opens");
    let rows: Vec<Row> = reader
        .deserialize()
        .collect::<Result<_, _>>()
        .expect("reference.csv parses");
    assert!(rows.len() >= 20, "reference.csv has too few rows");
    rows
}

#[test]
fn matches_reference_values() {
    for row in reference_rows() {
        let model = match row.model.as_str() {
            "normalized" => SprtModel::Normalized,
            "logistic" => SprtModel::Logistic,
            other => panic!("unknown model {other}"),
        };
        let params = SprtParams::new(row.elo0, row.elo1, 0.05, 0.05)
            .expect("valid parameters")
            .with_model(model);
        let counts = [row.c0, row.c1, row.c2, row.c3, row.c4];
        let label = format!(
            "{} {} {:?} [{}, {}]",
            row.kind, row.model, counts, row.elo0, row.elo1
        );
        let (score, elo, err, (lo, hi), nelo, llr) = match row.kind.as_str() {
            "tri" => {
                let t = Tally::new(row.c0, row.c1, row.c2);
                (
                    t.score(),
                    t.elo(),
                    t.elo_error95(),
                    t.elo_interval95(),
                    t.normalized_elo(),
                    params.llr_trinomial(&t),
                )
            }
            "penta" => {
                let p = Pentanomial::new(counts);
                (
                    p.score(),
                    p.elo(),
                    p.elo_error95(),
                    p.elo_interval95(),
                    p.normalized_elo(),
                    params.llr_pentanomial(&p),
                )
            }
            other => panic!("unknown kind {other}"),
        };
        assert_close(&format!("{label} score"), score, row.score);
        assert_close(&format!("{label} elo"), elo, row.elo);
        assert_close(&format!("{label} elo_err95"), err, row.elo_err95);
        assert_close(&format!("{label} elo_lo"), lo, row.elo_lo);
        assert_close(&format!("{label} elo_hi"), hi, row.elo_hi);
        assert_close(&format!("{label} nelo"), nelo, row.nelo);
        assert_close(&format!("{label} llr"), llr, row.llr);
    }
}

#[test]
fn brief_formulas_by_hand() {
    // W 120 D 30 L 50: s = 135/200 = 0.675.
    let t = Tally::new(120, 30, 50);
    assert_eq!(t.games(), 200);
    assert!((t.score() - 0.675).abs() < 1e-12);
    let s: f64 = 0.675;
    let expected_elo = -400.0 * (1.0 / s - 1.0).log10();
    assert!((t.elo() - expected_elo).abs() < 1e-9);
    let var = (120.0 * (1.0 - s).powi(2) + 50.0 * s * s + 30.0 * (0.5 - s).powi(2)) / 200.0;
    let sd = (var / 200.0).sqrt();
    let lo = elo_from_score(s - 1.96 * sd);
    let hi = elo_from_score(s + 1.96 * sd);
    let (a, b) = t.elo_interval95();
    assert!((a - lo).abs() < 1e-9 && (b - hi).abs() < 1e-9);
    assert!((t.elo_error95() - (hi - lo) / 2.0).abs() < 1e-9);
    assert_eq!(t.to_string(), "W 120 D 30 L 50 (67.5%) Elo +127.0 ± 47.2");
}

#[test]
fn elo_score_conversions() {
    assert_eq!(elo_from_score(0.5), 0.0);
    assert!(elo_from_score(0.5).is_sign_positive());
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    assert_eq!(elo_from_score(1.5), f64::INFINITY);
    assert_eq!(elo_from_score(-0.5), f64::NEG_INFINITY);
    assert!(elo_from_score(f64::NAN).is_nan());
    for elo in [-800.0, -100.0, -3.5, 0.0, 10.0, 400.0] {
        assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
    }
    assert!((score_from_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
}

#[test]
fn zero_games() {
    let t = Tally::default();
    assert_eq!(t.games(), 0);
    assert_eq!(t.score(), 0.5);
    assert_eq!(t.elo(), 0.0);
    assert_eq!(t.elo_error95(), f64::INFINITY);
    assert_eq!(t.elo_interval95(), (f64::NEG_INFINITY, f64::INFINITY));
    assert_eq!(t.normalized_elo(), 0.0);
    assert_eq!(t.to_string(), "W 0 D 0 L 0 (no games)");

    let p = Pentanomial::default();
    assert_eq!(p.pairs(), 0);
    assert_eq!(p.score(), 0.5);
    assert_eq!(p.elo(), 0.0);
    assert_eq!(p.elo_error95(), f64::INFINITY);
    assert_eq!(p.normalized_elo(), 0.0);
    assert_eq!(p.to_string(), "Ptnml(0-2) [0, 0, 0, 0, 0] (no pairs)");

    for model in [SprtModel::Normalized, SprtModel::Logistic] {
        let params = SprtParams::default().with_model(model);
        assert_eq!(params.llr_trinomial(&t), 0.0);
        assert_eq!(params.llr_pentanomial(&p), 0.0);
        assert_eq!(params.decide(0.0), SprtStatus::Continue);
    }
}

#[test]
fn all_draws() {
    let t = Tally::new(0, 500, 0);
    assert_eq!(t.score(), 0.5);
    assert_eq!(t.elo(), 0.0);
    assert_eq!(t.elo_error95(), 0.0);
    assert_eq!(t.normalized_elo(), 0.0);
    assert_eq!(t.to_string(), "W 0 D 500 L 0 (50.0%) Elo +0.0 ± 0.0");
    let params: SprtParams = "elo0=0,elo1=5".parse().expect("valid");
    let llr = params.llr_trinomial(&t);
    assert!(llr.is_finite() && llr < 0.0, "all draws favour H0: {llr}");

    let p = Pentanomial::new([0, 0, 250, 0, 0]);
    assert_eq!(p.elo(), 0.0);
    assert_eq!(p.elo_error95(), 0.0);
    let llr = params.llr_pentanomial(&p);
    assert!(
        llr.is_finite() && llr < 0.0,
        "all even pairs favour H0: {llr}"
    );
}

#[test]
fn all_wins_and_all_losses() {
    let params: SprtParams = "elo0=0,elo1=5".parse().expect("valid");
    for model in [SprtModel::Normalized, SprtModel::Logistic] {
        let params = params.with_model(model);
        let wins = Tally::new(50, 0, 0);
        assert_eq!(wins.score(), 1.0);
        assert_eq!(wins.elo(), f64::INFINITY);
        assert_eq!(wins.elo_error95(), f64::INFINITY);
        assert_eq!(wins.normalized_elo(), f64::INFINITY);
        assert_eq!(
            wins.to_string(),
            "W 50 D 0 L 0 (100.0%) Elo > +446.4 (all won)"
        );
        let llr = params.llr_trinomial(&wins);
        assert!(llr.is_finite() && llr > 0.0, "{model}: {llr}");

        let losses = wins.reversed();
        assert_eq!(losses.elo(), f64::NEG_INFINITY);
        assert_eq!(losses.elo_error95(), f64::INFINITY);
        let llr = params.llr_trinomial(&losses);
        assert!(llr.is_finite() && llr < 0.0, "{model}: {llr}");

        let ww = Pentanomial::new([0, 0, 0, 0, 30]);
        assert_eq!(ww.elo(), f64::INFINITY);
        assert_eq!(ww.elo_error95(), f64::INFINITY);
        let llr = params.llr_pentanomial(&ww);
        assert!(llr.is_finite() && llr > 0.0, "{model}: {llr}");
        let llr = params.llr_pentanomial(&ww.reversed());
        assert!(llr.is_finite() && llr < 0.0, "{model}: {llr}");
    }
}

#[test]
fn one_sided_infinite_interval() {
    // Three wins and a draw: the upper end of the score interval passes 1.
    let t = Tally::new(3, 1, 0);
    let (lo, hi) = t.elo_interval95();
    assert!(lo.is_finite() && hi == f64::INFINITY);
    assert_eq!(t.elo_error95(), f64::INFINITY);
    assert!(t.elo().is_finite());
}

#[test]
fn huge_counts_do_not_overflow() {
    let mut t = Tally::new(u64::MAX, u64::MAX, 1);
    assert_eq!(t.games(), u64::MAX);
    t.merge(&Tally::new(5, 5, 5));
    t.add(GameResult::Win);
    assert_eq!(t.wins, u64::MAX);
    assert!((0.0..=1.0).contains(&t.score()));
    let mut p = Pentanomial::new([u64::MAX; 5]);
    p.merge(&Pentanomial::new([1; 5]));
    assert_eq!(p.pairs(), u64::MAX);
    assert_eq!(p.games(), u64::MAX);
    assert!(SprtParams::default().llr_pentanomial(&p).is_finite());
}

#[test]
fn tally_accumulation() {
    let mut t: Tally = [
        GameResult::Win,
        GameResult::Draw,
        GameResult::Loss,
        GameResult::Win,
    ]
    .into_iter()
    .collect();
    assert_eq!(t, Tally::new(2, 1, 1));
    t += GameResult::Draw;
    t += Tally::new(1, 0, 0);
    assert_eq!(t, Tally::new(3, 2, 1));
    assert_eq!(t.reversed(), Tally::new(1, 2, 3));
    assert_eq!(GameResult::Win.reversed(), GameResult::Loss);
    assert_eq!(GameResult::from_score(0.5), Ok(GameResult::Draw));
    assert_eq!(GameResult::from_score(0.25), Err(ScoreError(0.25)));
}

#[test]
fn pentanomial_bins() {
    let mut p = Pentanomial::default();
    p.add_pair(0.0, 0.0).expect("LL");
    p.add_pair(0.0, 0.5).expect("LD");
    p.add_pair(0.5, 0.0).expect("DL");
    p.add_pair(1.0, 0.0).expect("WL");
    p.add_pair(0.5, 0.5).expect("DD");
    p.add_pair(0.0, 1.0).expect("LW");
    p.add_pair(1.0, 0.5).expect("WD");
    p.add_pair(1.0, 1.0).expect("WW");
    assert_eq!(p.bins, [1, 2, 3, 1, 1]);
    assert_eq!(p.pairs(), 8);
    assert_eq!(p.games(), 16);
    assert_eq!(p.reversed().bins, [1, 1, 3, 2, 1]);

    assert_eq!(p.add_pair(0.7, 1.0), Err(ScoreError(0.7)));
    assert_eq!(
        p.add_pair(1.0, f64::NAN).map_err(|e| e.0.is_nan()),
        Err(true)
    );
    assert_eq!(p.add_pair(2.0, 0.0), Err(ScoreError(2.0)));
    assert_eq!(p.bins, [1, 2, 3, 1, 1], "invalid pairs are not counted");
    assert_eq!(
        ScoreError(0.7).to_string(),
        "a game score must be 0, 0.5 or 1, got 0.7"
    );

    // s = (0.25·12 + 0.5·50 + 0.75·25 + 10)/100 = 0.5675.
    assert_eq!(
        Pentanomial::new([3, 12, 50, 25, 10]).to_string(),
        "Ptnml(0-2) [3, 12, 50, 25, 10] (56.8%) Elo +47.2 ± 31.4"
    );
}

#[test]
fn paired_tally_keeps_both_views() {
    let mut m = PairedTally::default();
    m.add_pair(GameResult::Win, GameResult::Loss);
    m.add_pair(GameResult::Draw, GameResult::Draw);
    m.add_pair_scores(1.0, 0.5).expect("valid");
    assert!(m.add_pair_scores(1.0, 3.0).is_err());
    m.add_single(GameResult::Loss);
    assert_eq!(m.games, Tally::new(2, 3, 2));
    assert_eq!(m.pairs.bins, [0, 0, 2, 1, 0]);
    let r = m.reversed();
    assert_eq!(r.games, Tally::new(2, 3, 2));
    assert_eq!(r.pairs.bins, [0, 1, 2, 0, 0]);
    let mut sum = m;
    sum.merge(&r);
    assert_eq!(sum.pairs.bins, [0, 1, 4, 1, 0]);
    assert!(m.to_string().contains("; Ptnml(0-2) [0, 0, 2, 1, 0]"));
}

/// Opening bias: A wins with one colour and loses with the other far more
/// often than chance, so the games of a pair are negatively correlated from
/// A's view. Pairs then give a tighter error bar than treating the games as
/// independent.
#[test]
fn pentanomial_tighter_with_opening_bias() {
    let mut m = PairedTally::default();
    for _ in 0..60 {
        m.add_pair(GameResult::Win, GameResult::Loss);
    }
    for _ in 0..20 {
        m.add_pair(GameResult::Draw, GameResult::Draw);
    }
    for _ in 0..12 {
        m.add_pair(GameResult::Win, GameResult::Win);
    }
    for _ in 0..8 {
        m.add_pair(GameResult::Loss, GameResult::Loss);
    }
    assert!((m.games.score() - m.pairs.score()).abs() < 1e-12);
    let tri = m.games.elo_error95();
    let penta = m.pairs.elo_error95();
    assert!(penta < 0.75 * tri, "pentanomial {penta} vs trinomial {tri}");

    // The opposite (pairs all WW or LL: positively correlated from A's view)
    // makes the pentanomial bar wider, as it should.
    let mut m = PairedTally::default();
    for _ in 0..30 {
        m.add_pair(GameResult::Win, GameResult::Win);
        m.add_pair(GameResult::Loss, GameResult::Loss);
    }
    assert!(m.pairs.elo_error95() > m.games.elo_error95());

    // The SPRT sees the same: more evidence from the less noisy view.
    let mut m = PairedTally::default();
    for _ in 0..300 {
        m.add_pair(GameResult::Win, GameResult::Loss);
    }
    for _ in 0..60 {
        m.add_pair(GameResult::Win, GameResult::Draw);
    }
    let params: SprtParams = "elo0=0,elo1=10,model=logistic".parse().expect("valid");
    let tri = params.llr_trinomial(&m.games);
    let penta = params.llr_pentanomial(&m.pairs);
    assert!(penta > tri && tri > 0.0, "penta {penta} tri {tri}");
}

#[test]
fn sprt_bounds_and_decisions() {
    let params = SprtParams::new(0.0, 5.0, 0.05, 0.05).expect("valid");
    let (lower, upper) = params.bounds();
    assert!((lower - (0.05f64 / 0.95).ln()).abs() < 1e-12);
    assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12);
    assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
    assert_eq!(params.decide(3.0), SprtStatus::AcceptH1);
    assert_eq!(params.decide(upper), SprtStatus::AcceptH1);
    assert_eq!(params.decide(-3.0), SprtStatus::AcceptH0);
    assert_eq!(params.decide(lower), SprtStatus::AcceptH0);
    assert_eq!(params.decide(0.0), SprtStatus::Continue);
    assert_eq!(params.decide(f64::NAN), SprtStatus::Continue);

    let asym = SprtParams::new(-3.0, 1.0, 0.05, 0.1).expect("valid");
    let (lower, upper) = asym.bounds();
    assert!((lower - (0.1f64 / 0.95).ln()).abs() < 1e-12);
    assert!((upper - (0.9f64 / 0.05).ln()).abs() < 1e-12);

    // A clearly stronger player is accepted, a clearly weaker one rejected.
    let strong = Tally::new(700, 600, 500);
    let weak = strong.reversed();
    assert_eq!(
        params.decide(params.llr_trinomial(&strong)),
        SprtStatus::AcceptH1
    );
    assert_eq!(
        params.decide(params.llr_trinomial(&weak)),
        SprtStatus::AcceptH0
    );
    assert_eq!(SprtStatus::AcceptH1.to_string(), "H1 accepted");
}

#[test]
fn extreme_sprt_parameters_stay_finite() {
    // Bounds so far out that the exact fit breaks down numerically (a score
    // of 1.0 in floating point) fall back to the closed-form approximation.
    let samples = [
        Tally::new(10, 5, 3),
        Tally::new(0, 7, 0),
        Tally::new(1000, 0, 1),
    ];
    for (elo0, elo1) in [(0.0, 1e6), (-1e6, 0.0), (-1e5, 1e5), (1000.0, 1001.0)] {
        for model in [SprtModel::Normalized, SprtModel::Logistic] {
            let params = SprtParams::new(elo0, elo1, 0.05, 0.05)
                .expect("valid")
                .with_model(model);
            for t in samples {
                let llr = params.llr_trinomial(&t);
                assert!(!llr.is_nan(), "{params} {t}: {llr}");
                let p = Pentanomial::new([t.losses, t.draws, t.wins, t.draws, t.wins]);
                let llr = params.llr_pentanomial(&p);
                assert!(!llr.is_nan(), "{params} {p}: {llr}");
            }
        }
    }
    // Unchecked nonsense never panics.
    let nonsense = SprtParams {
        elo0: f64::NAN,
        elo1: f64::INFINITY,
        alpha: 2.0,
        beta: -1.0,
        model: SprtModel::Normalized,
    };
    assert!(nonsense.validate().is_err());
    let _ = nonsense.llr_trinomial(&Tally::new(3, 2, 1));
    let _ = nonsense.llr_pentanomial(&Pentanomial::new([1, 2, 3, 4, 5]));
    let _ = nonsense.decide(1.0);
}

#[test]
fn sprt_string_form() {
    let p: SprtParams = "elo0=0,elo1=10".parse().expect("valid");
    assert_eq!(
        p,
        SprtParams {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized
        }
    );
    let p: SprtParams = " beta=0.1 , elo1=2.5, alpha = 0.01,elo0=-1.5,model=Logistic "
        .parse()
        .expect("valid");
    assert_eq!(
        p,
        SprtParams {
            elo0: -1.5,
            elo1: 2.5,
            alpha: 0.01,
            beta: 0.1,
            model: SprtModel::Logistic
        }
    );
    assert_eq!(
        p.to_string(),
        "elo0=-1.5,elo1=2.5,alpha=0.01,beta=0.1,model=logistic"
    );
    assert_eq!(p.to_string().parse::<SprtParams>(), Ok(p));
}

#[test]
fn sprt_string_errors() {
    let err = |s: &str| s.parse::<SprtParams>().expect_err(s);
    assert_eq!(err(""), SprtError::Empty);
    assert_eq!(err("  "), SprtError::Empty);
    assert_eq!(
        err("elo0=0,elo2=10"),
        SprtError::UnknownKey { key: "elo2".into() }
    );
    assert_eq!(
        err("elo0=0,elo1"),
        SprtError::NotKeyValue {
            item: "elo1".into()
        }
    );
    assert_eq!(
        err("elo0=0,elo1=10,"),
        SprtError::NotKeyValue { item: "".into() }
    );
    assert_eq!(
        err("elo0=zero,elo1=10"),
        SprtError::NotANumber {
            key: "elo0",
            value: "zero".into()
        }
    );
    assert_eq!(
        err("elo0=0,elo1=10,alpha="),
        SprtError::NotANumber {
            key: "alpha",
            value: "".into()
        }
    );
    assert_eq!(err("elo1=10"), SprtError::MissingKey { key: "elo0" });
    assert_eq!(err("elo0=10"), SprtError::MissingKey { key: "elo1" });
    assert_eq!(
        err("elo0=0,elo1=1,elo0=2"),
        SprtError::DuplicateKey { key: "elo0" }
    );
    assert_eq!(
        err("elo0=0,elo1=1,model=bayes"),
        SprtError::UnknownModel {
            value: "bayes".into()
        }
    );
    assert_eq!(
        err("elo0=0,elo1=10,alpha=1"),
        SprtError::ProbabilityOutOfRange {
            key: "alpha",
            value: 1.0
        }
    );
    assert_eq!(
        err("elo0=0,elo1=10,beta=0"),
        SprtError::ProbabilityOutOfRange {
            key: "beta",
            value: 0.0
        }
    );
    assert_eq!(
        err("elo0=0,elo1=10,alpha=0.6,beta=0.5"),
        SprtError::ErrorsTooLarge {
            alpha: 0.6,
            beta: 0.5
        }
    );
    assert_eq!(
        err("elo0=10,elo1=10"),
        SprtError::EloOrder {
            elo0: 10.0,
            elo1: 10.0
        }
    );
    assert_eq!(
        err("elo0=5,elo1=-5"),
        SprtError::EloOrder {
            elo0: 5.0,
            elo1: -5.0
        }
    );
    assert!(matches!(
        err("elo0=0,elo1=inf"),
        SprtError::NotFinite { key: "elo1", .. }
    ));
    assert!(matches!(
        err("elo0=NaN,elo1=1"),
        SprtError::NotFinite { key: "elo0", .. }
    ));

    // Messages name the field and what was expected.
    assert_eq!(
        err("elo0=0,elo1=10,alpha=1.5").to_string(),
        "SPRT alpha must be strictly between 0 and 1, got 1.5"
    );
    assert_eq!(
        err("elo0=0,elo1=x").to_string(),
        "SPRT elo1: `x` is not a number"
    );
    assert_eq!(
        err("elo=0").to_string(),
        "unknown SPRT key `elo`; expected elo0, elo1, alpha, beta or model"
    );
    assert_eq!(
        err("elo0=3,elo1=1").to_string(),
        "SPRT elo1 must be greater than elo0, got elo0=3, elo1=1"
    );
    assert!(SprtParams::new(0.0, 5.0, 0.05, f64::NAN).is_err());
}

#[test]
fn sprt_params_serde_as_string() {
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Config {
        sprt: SprtParams,
    }
    let config = Config {
        sprt: "elo0=-1,elo1=4,alpha=0.1".parse().expect("valid"),
    };
    let text = toml::to_string(&config).expect("serializes");
    assert_eq!(
        text.trim(),
        "sprt = \"elo0=-1,elo1=4,alpha=0.1,beta=0.05,model=normalized\""
    );
    let back: Config = toml::from_str(&text).expect("deserializes");
    assert_eq!(back, config);
    let bad = toml::from_str::<Config>("sprt = \"elo0=1,elo1=0\"");
    let message = bad.expect_err("invalid").to_string();
    assert!(
        message.contains("elo1 must be greater than elo0"),
        "{message}"
    );
}

fn outcome() -> impl Strategy<Value = GameResult> {
    prop_oneof![
        Just(GameResult::Win),
        Just(GameResult::Draw),
        Just(GameResult::Loss)
    ]
}

fn sprt_params() -> impl Strategy<Value = SprtParams> {
    (
        -20.0f64..20.0,
        0.5f64..20.0,
        0.001f64..0.3,
        0.001f64..0.3,
        any::<bool>(),
    )
        .prop_map(|(elo0, width, alpha, beta, logistic)| SprtParams {
            elo0,
            elo1: elo0 + width,
            alpha,
            beta,
            model: if logistic {
                SprtModel::Logistic
            } else {
                SprtModel::Normalized
            },
        })
}

proptest! {
    #[test]
    fn score_in_unit_interval(w in 0u64..1_000_000, d in 0u64..1_000_000, l in 0u64..1_000_000) {
        let t = Tally::new(w, d, l);
        prop_assert!((0.0..=1.0).contains(&t.score()));
        let p = Pentanomial::new([w, d, l, d / 2, w / 3]);
        prop_assert!((0.0..=1.0).contains(&p.score()));
    }

    #[test]
    fn elo_monotone_in_wins(w in 0u64..10_000, d in 0u64..10_000, l in 0u64..10_000) {
        let t = Tally::new(w, d, l);
        let more = Tally::new(w + 1, d, l);
        prop_assert!(more.elo() > t.elo() || (t.elo() == f64::INFINITY && more.elo() == f64::INFINITY));
        prop_assert!(more.normalized_elo() >= t.normalized_elo());
        // A win in place of a loss helps too.
        if l > 0 {
            prop_assert!(Tally::new(w + 1, d, l - 1).elo() > t.elo());
        }
    }

    #[test]
    fn error_bar_nonnegative_and_brackets_elo(w in 0u64..5_000, d in 0u64..5_000, l in 0u64..5_000) {
        let t = Tally::new(w, d, l);
        let err = t.elo_error95();
        prop_assert!(err >= 0.0, "error {}", err);
        let (lo, hi) = t.elo_interval95();
        prop_assert!(lo <= t.elo() && t.elo() <= hi);
        let p = Pentanomial::new([w, d, l, w / 2, d / 3]);
        prop_assert!(p.elo_error95() >= 0.0);
        let (lo, hi) = p.elo_interval95();
        prop_assert!(lo <= p.elo() && p.elo() <= hi);
    }

    #[test]
    fn reversal_negates_elo(w in 0u64..5_000, d in 0u64..5_000, l in 0u64..5_000) {
        let t = Tally::new(w, d, l);
        prop_assert!((t.elo() + t.reversed().elo()).abs() < 1e-9 || t.elo().is_infinite());
        prop_assert!((t.elo_error95() - t.reversed().elo_error95()).abs() < 1e-9 || t.elo_error95().is_infinite());
    }

    #[test]
    fn paired_views_agree_on_score(pairs in proptest::collection::vec((outcome(), outcome()), 1..200)) {
        let mut m = PairedTally::default();
        for (a, b) in &pairs {
            m.add_pair(*a, *b);
        }
        prop_assert_eq!(m.games.games(), m.pairs.games());
        prop_assert!((m.games.score() - m.pairs.score()).abs() < 1e-12);
        prop_assert!((m.games.elo() - m.pairs.elo()).abs() < 1e-9 || m.games.elo().is_infinite());
    }

    #[test]
    fn llr_finite_and_antisymmetric_in_sign(
        params in sprt_params(),
        w in 0u64..50_000, d in 0u64..50_000, l in 0u64..50_000,
        bins in proptest::array::uniform5(0u64..20_000),
    ) {
        let t = Tally::new(w, d, l);
        let llr = params.llr_trinomial(&t);
        prop_assert!(llr.is_finite(), "{} {:?}: {}", params, t, llr);
        let p = Pentanomial::new(bins);
        let llr = params.llr_pentanomial(&p);
        prop_assert!(llr.is_finite(), "{} {:?}: {}", params, p, llr);
        // Decisions never panic.
        let _ = params.decide(llr);
    }

    #[test]
    fn llr_grows_with_a_win_for_a_loss(
        params in sprt_params(),
        w in 0u64..5_000, d in 0u64..5_000, l in 1u64..5_000,
    ) {
        let before = params.llr_trinomial(&Tally::new(w, d, l));
        let after = params.llr_trinomial(&Tally::new(w + 1, d, l - 1));
        prop_assert!(after >= before - 1e-6, "{} -> {}", before, after);
    }

    #[test]
    fn parse_never_panics(text in ".{0,60}") {
        let _ = text.parse::<SprtParams>();
    }

    #[test]
    fn parse_round_trips(params in sprt_params()) {
        let text = params.to_string();
        prop_assert_eq!(text.parse::<SprtParams>(), Ok(params));
    }

    #[test]
    fn display_never_panics(w in any::<u64>(), d in any::<u64>(), l in any::<u64>()) {
        let _ = Tally::new(w, d, l).to_string();
        let _ = Pentanomial::new([w, d, l, w, d]).to_string();
    }
}
