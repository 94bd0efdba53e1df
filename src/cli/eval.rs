//! `mnk eval`: the value map of a position.

use anyhow::Result;
use mnk::eval::{Evaluator, LOSS, WIN};
use mnk::game::Rules;
use mnk::players::PlayerSpec;
use mnk::threats::{Mode, ThreatSearch, Verdict};
use std::path::PathBuf;

/// The flags of `mnk eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: tictactoe, gomoku, or WxHxK such as 7x6x4 (add -exact for the exact rule).
    #[arg(long, short, default_value = "gomoku")]
    game: Rules,
    /// Weights file (default: the shipped weights for the game).
    #[arg(long, short)]
    weights: Option<PathBuf>,
    /// Accept a weights file made for another game with the same k.
    #[arg(long)]
    any_game: bool,
    /// The position: moves from the empty board, black first (h8 or 7,7).
    moves: Vec<String>,
}

/// Prints the value map and the board value of the position.
pub fn run(a: Args) -> Result<()> {
    let board = super::position(a.game, &a.moves)?;
    let spec = PlayerSpec {
        weights: a.weights,
        any_game: a.any_game,
        ..PlayerSpec::greedy()
    };
    let weights = spec.load_weights(a.game)?;
    let mut ev = Evaluator::new(weights);
    ev.sync(&board);
    let mover = board.to_move();
    let rules = *board.rules();
    println!(
        "{} after {} moves, {} to move. Cell scores for {} (attack x attack value + defence x defence value):",
        rules,
        board.ply(),
        mover,
        mover
    );
    let cell_w = 7;
    print!("    ");
    for x in 0..rules.width {
        print!("{:>cell_w$}", (b'a' + x) as char);
    }
    println!();
    let scores = ev.scores(mover);
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    for y in 0..rules.height {
        print!("{:>3} ", y + 1);
        for x in 0..rules.width {
            let i = y as usize * rules.width as usize + x as usize;
            let cell = match board.cells()[i] {
                1 => "X".to_string(),
                2 => "O".to_string(),
                _ if scores[i] == best => format!("*{}", super::compact(scores[i])),
                _ => super::compact(scores[i]),
            };
            print!("{cell:>cell_w$}");
        }
        println!();
    }
    if let Some(i) = (best > f64::NEG_INFINITY)
        .then(|| scores.iter().position(|&s| s == best))
        .flatten()
    {
        let m = rules.move_at(i);
        println!(
            "best cell {m} ({}): score {}, attack value {}, defence value {}",
            m.to_xy(),
            super::compact(best),
            super::compact(ev.attack_value(m, mover)),
            super::compact(ev.defence_value(m, mover))
        );
    }
    let v = ev.evaluate(mover);
    let text = if v >= WIN {
        format!("{mover} wins (can complete {} now)", rules.k)
    } else if v <= LOSS {
        format!(
            "{} wins (open {} cannot be stopped)",
            mover.opponent(),
            rules.k - 1
        )
    } else {
        super::compact(v)
    };
    println!("board value for {mover}: {text}");
    if let Some(o) = board.outcome() {
        println!("the game is over: {o}");
        return Ok(());
    }
    // Threats: each side's VCF, as if it were to move.
    let mut threats = ThreatSearch::new(rules, 18);
    for side in [mover, mover.opponent()] {
        let found = threats.solve(&mut ev, board.hash(), side, Mode::Vcf, 0, VCF_NODES);
        let text = match found {
            Verdict::Win { first, plies } => {
                format!("wins by continuous fours from {first} ({plies} plies; mnk solve --vcf shows the line)")
            }
            Verdict::NoWin => "none".into(),
            Verdict::Unknown => format!("not settled within {VCF_NODES} nodes"),
        };
        let whose = if side == mover {
            "to move"
        } else {
            "if it were to move"
        };
        println!("VCF for {side} ({whose}): {text}");
    }
    Ok(())
}

/// Nodes for each side's VCF under the value map.
const VCF_NODES: u64 = 1_000_000;
