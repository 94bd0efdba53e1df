//! The bench signature (Stockfish's "Bench: N"): pinned here, so that a
//! change in behaviour (rules, evaluator, weights, search, openings, seeds)
//! fails this test and is updated on purpose, in the same commit, saying
//! why; a change that only makes mnk faster keeps it.

use crate::common::mnk;
use mnk::bench::{
    bench_search, greedy_moves, middle_games, search_nodes, signature, Signature, SIGNATURE_DEPTH,
};
use mnk::game::Rules;

/// The signature of this build, as `mnk bench` prints it last.
const PINNED: Signature = Signature {
    search_nodes: 4255,
    greedy_moves: 0x648d_ab28_88f1_a44f,
};

#[test]
fn the_signature_is_pinned() {
    assert_eq!(
        signature().unwrap(),
        PINNED,
        "the bench signature changed: if the change of behaviour is meant, \
         pin the new value and say why in the commit"
    );
}

#[test]
fn mnk_bench_prints_the_signature_last() {
    let out = mnk().args(["bench", "--seconds", "0.05"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().last(),
        Some(format!("signature: {PINNED}").as_str()),
        "{text}"
    );
}

#[test]
fn the_signature_sees_one_move_or_one_node() {
    let rules = Rules::GOMOKU;
    let positions = middle_games(rules, 16).unwrap();
    assert_eq!(
        positions.len(),
        15,
        "one of the 16 games ends before ply 20"
    );
    // Another depth, or one position fewer, is another node count.
    let all = search_nodes(&mut bench_search(rules, SIGNATURE_DEPTH), &positions).unwrap();
    let shallower =
        search_nodes(&mut bench_search(rules, SIGNATURE_DEPTH - 1), &positions).unwrap();
    let fewer = search_nodes(&mut bench_search(rules, SIGNATURE_DEPTH), &positions[1..]).unwrap();
    assert!(
        all != shallower && all != fewer,
        "{all} {shallower} {fewer}"
    );
    // One game more or less is another hash.
    assert_ne!(greedy_moves(999).unwrap(), greedy_moves(1000).unwrap());
    assert_ne!(greedy_moves(1001).unwrap(), greedy_moves(1000).unwrap());
}
