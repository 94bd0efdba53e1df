//! The tic-tac-toe positions where a greedy weight set may play a move
//! that is not optimal, by kind: issue 29's measure of what a static
//! evaluator still misses.
//!
//! ```text
//! cargo run --release --example ttt_missed -- WEIGHTS.toml [--list]
//! ```
//!
//! Over every reachable non-terminal position, the greedy player's
//! candidates are the cells tied for the best score; a position is missed
//! when some candidate is not optimal (the exact player's moves). Each
//! missed position gets the first kind that applies: `fork`, an optimal
//! move makes a fork for the mover (its `double2` combination); `block`,
//! an optimal move takes the cell where the opponent would fork; else
//! `lookahead` (what no static evaluation of one move sees). Prints the
//! counts and the agreement as the training checks compute it, and with
//! `--list` each missed position.

use mnk::eval::{Combo, Evaluator, Weights};
use mnk::game::{Board, Rules};
use mnk::train::Oracle;
use std::collections::HashSet;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .ok_or("usage: ttt_missed WEIGHTS.toml [--list]")?;
    let list = args.iter().any(|a| a == "--list");
    let rules = Rules::TICTACTOE;
    let weights = Weights::load(path.as_ref(), rules, false)?;
    let oracle = Oracle::build(rules)?;
    let mut eval = Evaluator::new(weights);
    let mut seen = HashSet::new();
    let mut board = Board::new(rules);
    let mut stats = Stats::default();
    visit(&oracle, &mut eval, &mut board, &mut seen, &mut stats);
    let n = seen.len() as f64;
    println!(
        "positions {}, agreement {:.2}%, missed {} (fork {}, block {}, lookahead {})",
        seen.len(),
        100.0 * stats.sum / n,
        stats.missed.len(),
        stats.kinds[0],
        stats.kinds[1],
        stats.kinds[2]
    );
    if list {
        for (kind, line) in &stats.missed {
            println!("{kind:9} {line}");
        }
    }
    Ok(())
}

#[derive(Default)]
struct Stats {
    sum: f64,
    kinds: [usize; 3],
    missed: Vec<(&'static str, String)>,
}

fn visit(
    oracle: &Oracle,
    eval: &mut Evaluator,
    board: &mut Board,
    seen: &mut HashSet<u64>,
    stats: &mut Stats,
) {
    if board.is_over() || !seen.insert(board.hash()) {
        return;
    }
    eval.sync(board);
    let rules = *board.rules();
    let mover = board.to_move();
    let scores = eval.scores(mover);
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let cand = (0..rules.cells())
        .filter(|&i| scores[i] == best)
        .fold(0u64, |m, i| m | 1 << i);
    let optimal = oracle.optimal_mask(board);
    let good = cand & optimal;
    stats.sum += f64::from(good.count_ones()) / f64::from(cand.count_ones());
    if good != cand {
        let cells = |mask: u64| (0..rules.cells()).filter(move |&i| mask >> i & 1 == 1);
        let makes = |color| {
            cells(optimal).any(|i| eval.combo_at(rules.move_at(i), color) == Combo::DoubleIn1)
        };
        let kind = if makes(mover) {
            0
        } else if makes(mover.opponent()) {
            1
        } else {
            2
        };
        stats.kinds[kind] += 1;
        let names = |mask: u64| {
            cells(mask)
                .map(|i| rules.move_at(i).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        stats.missed.push((
            ["fork", "block", "lookahead"][kind],
            format!(
                "{board:?}: plays {}, optimal {}",
                names(cand & !optimal),
                names(optimal)
            ),
        ));
    }
    for m in board.legal_moves() {
        board.play_unchecked(m);
        visit(oracle, eval, board, seen, stats);
        board.undo();
    }
}
