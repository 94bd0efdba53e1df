//! Unit tests of what the statistics show: bounds instead of infinite
//! Elo, and LOS.

use super::*;

#[test]
fn erf_matches_reference_values() {
    // Values from Python's math.erf.
    for (x, want) in [
        (0.0, 0.0),
        (1.0, 0.842_700_792_949_714_9),
        (-0.5, -0.520_499_877_813_046_5),
        (2.5, 0.999_593_047_982_555),
        (6.0, 1.0),
    ] {
        assert!((erf(x) - want).abs() < 2e-7, "erf({x}) = {}", erf(x));
    }
}

#[test]
fn los_follows_wins_and_losses_only() {
    // Python: 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l)))).
    assert!((los(10, 5) - 0.901_647_198_770_526_6).abs() < 2e-7);
    assert!((los(3, 1) - 0.841_344_746_068_542_9).abs() < 2e-7);
    assert_eq!(los(0, 0), 0.5);
    assert_eq!(los(7, 7), 0.5);
    for (w, l) in [(1, 0), (5, 2), (100, 90), (0, 4)] {
        assert!((los(w, l) + los(l, w) - 1.0).abs() < 1e-12, "{w} {l}");
    }
    // Draws do not move it.
    assert_eq!(Tally::new(10, 0, 5).los(), Tally::new(10, 80, 5).los());
    assert!(los(11, 5) > los(10, 5));
}

#[test]
fn all_won_is_a_finite_bound_from_the_exact_binomial() {
    for n in [1u64, 2, 10, 50, 1000] {
        let EloRange::AllWon { lower } = Tally::new(n, 0, 0).elo_range() else {
            panic!("{n} wins: {:?}", Tally::new(n, 0, 0).elo_range());
        };
        assert!(lower.is_finite(), "{n}");
        // At the bound's strength, winning all n games has probability
        // 2.5%: the bound is where that result stops being plausible.
        let p = score_from_elo(lower);
        assert!((p.powf(n as f64) - 0.025).abs() < 1e-9, "{n}: {p}");
        // The same games seen from B are the mirrored bound.
        let EloRange::AllLost { upper } = Tally::new(0, 0, n).elo_range() else {
            panic!("{n} losses");
        };
        assert!((upper + lower).abs() < 1e-9, "{n}: {upper} {lower}");
    }
    // More games, a higher bound.
    let bound = |n| Tally::new(n, 0, 0).elo_range().lower();
    assert!(bound(10) < bound(50) && bound(50) < bound(1000));
    // Pairs count as the trials of the pentanomial view.
    assert_eq!(
        Pentanomial::new([0, 0, 0, 0, 25]).elo_range().lower(),
        bound(25)
    );
}

#[test]
fn what_is_shown_never_says_inf_for_an_estimate() {
    assert_eq!(
        Tally::new(50, 0, 0).to_string(),
        "W 50 D 0 L 0 (100.0%) Elo > +446.4 (all won)"
    );
    assert_eq!(
        Pentanomial::new([30, 0, 0, 0, 0]).to_string(),
        "Ptnml(0-2) [30, 0, 0, 0, 0] (0.0%) Elo < -353.3 (all lost)"
    );
    // Three wins and a draw: a finite estimate whose interval reaches a
    // score of 1 above.
    let open = Tally::new(3, 1, 0).elo_range();
    assert!(matches!(open, EloRange::Open { .. }), "{open:?}");
    assert!(open.lower().is_finite() && open.upper() == f64::INFINITY);
    assert_eq!(
        open.to_string(),
        format!("Elo +338.0 (95% > {:+.1})", open.lower())
    );
    assert_eq!(
        Tally::new(1, 0, 1).elo_range().to_string(),
        "Elo +0.0 ± inf"
    );
    assert_eq!(Tally::default().elo_range(), EloRange::NoGames);
    for w in 0..6 {
        for d in 0..4 {
            for l in 0..6 {
                let t = Tally::new(w, d, l);
                let s = t.to_string();
                assert!(!s.contains("+inf") && !s.contains("-inf"), "{s}");
                let r = t.elo_range();
                // The range holds the estimate wherever it is finite.
                if t.elo().is_finite() {
                    assert!(r.lower() <= t.elo() && t.elo() <= r.upper(), "{s}");
                }
            }
        }
    }
}

#[test]
fn short_elo_ranges_never_print_infinity_for_a_bound() {
    use super::{Pentanomial, Tally};
    let won = Tally::new(10, 0, 0).elo_range().short();
    assert!(won.starts_with(">+"), "{won}");
    let lost = Tally::new(0, 0, 10).elo_range().short();
    assert!(lost.starts_with("<-"), "{lost}");
    assert_eq!(Tally::default().elo_range().short(), "?");
    let even = Pentanomial::new([1, 2, 4, 2, 1]).elo_range().short();
    assert!(even.starts_with("+0±"), "{even}");
    for w in 0..6 {
        for l in 0..6 {
            let t = Tally::new(w, 1, l).elo_range().short();
            assert!(!t.contains("inf"), "W {w} D 1 L {l}: {t}");
        }
    }
}

#[test]
fn a_sweep_of_few_games_gives_no_bound_below_zero() {
    // 4-0 (a `mnk brains` sweep): the 97.5% bound is a score of 0.398,
    // Elo -72.1, which says nothing for the winner; too few games.
    let four = Tally::new(4, 0, 0).elo_range();
    assert!(four.lower() < 0.0, "{four:?}");
    assert_eq!(
        Tally::new(4, 0, 0).to_string(),
        "W 4 D 0 L 0 (100.0%) Elo ? (all won, too few games for a bound)"
    );
    assert_eq!(four.short(), "?(all won)");
    assert_eq!(
        Tally::new(0, 0, 5).elo_range().to_string(),
        "Elo ? (all lost, too few games for a bound)"
    );
    // From 6 games on, the bound is above 0 and is shown.
    let six = Tally::new(6, 0, 0).elo_range();
    assert!(six.lower() > 0.0);
    assert_eq!(
        six.to_string(),
        format!("Elo > {:+.1} (all won)", six.lower())
    );
    assert_eq!(
        Tally::new(0, 0, 6).elo_range().short(),
        format!("<{:+.0}", -six.lower())
    );
}
