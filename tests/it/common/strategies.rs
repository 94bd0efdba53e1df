//! Proptest strategies shared by the evaluator and player tests.

use mnk::eval::{Weights, WEIGHTED};
use mnk::game::Rules;
use proptest::prelude::*;

/// One of the named rule sets.
pub fn rules_of(names: &'static [&'static str]) -> impl Strategy<Value = Rules> {
    prop::sample::select(names).prop_map(|s| s.parse::<Rules>().unwrap())
}

/// Weights of `rules` whose shape weights come from `values` (a few, so
/// that equal scores, and the draws between them, are common), with an
/// attack from `attacks` and a defence from `defences`.
pub fn weights_from(
    rules: Rules,
    values: &'static [f64],
    attacks: &'static [f64],
    defences: &'static [f64],
) -> impl Strategy<Value = Weights> {
    let v = move || prop::sample::select(values);
    (
        prop::array::uniform::<_, WEIGHTED>(v()),
        prop::array::uniform::<_, WEIGHTED>(v()),
        prop::sample::select(attacks),
        prop::sample::select(defences),
    )
        .prop_map(move |(own, opp, attack, defence)| {
            let mut w = Weights::default_for(rules);
            (w.own, w.opp, w.attack, w.defence) = (own, opp, attack, defence);
            w
        })
}
