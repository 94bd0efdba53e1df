//! `mnk eval`: the value map of a position, drawn to fit the terminal
//! (see [`mnk::play::render_heat`]), or as JSON (`docs/json/eval.md`).

use super::play::ColorWhen;
use anyhow::{anyhow, Result};
use mnk::eval::{Weights, WeightsError, LOSS, WIN};
use mnk::game::{Move, Rules};
use mnk::play::{render_heat, ValueMap, Vcf, VcfReport, VCF_NODES};
use mnk::players::PlayerSpec;
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// The flags of `mnk eval`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  mnk eval h8 i9                        gomoku after two moves: black's value map
  mnk eval -g tictactoe b2              white's scores after black takes the centre
  mnk eval -w runs/x/weights/best.toml h8
  mnk eval --width 60 --color never h8  for a script or a narrow window
  mnk eval --json h8 | jq .best         the best cells, for scripts (docs/json/eval.md)

A map too wide for the terminal shows scores scaled 0-99 (or 0-9) on a log
scale; * marks the best cells, the greedy player's choices.")]
pub struct Args {
    /// The game: tictactoe, gomoku, or WxHxK such as 7x6x4 (add -exact for the exact rule).
    #[arg(long, short, default_value = "gomoku")]
    game: Rules,
    /// Weights file (default: the shipped weights for the game).
    #[arg(long, short, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Accept a weights file made for another game with the same k.
    #[arg(long)]
    any_game: bool,
    /// Lines of at most this many characters (default: the terminal's
    /// width, else $COLUMNS, else 80).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    width: Option<u16>,
    /// Colour output: auto (a terminal, and NO_COLOR unset), always or never.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    color: ColorWhen,
    /// Print one JSON object (fields in docs/json/eval.md) instead of text.
    #[arg(long)]
    json: bool,
    /// The position: moves from the empty board, black first (h8 or 7,7).
    moves: Vec<String>,
}

/// The JSON output of `mnk eval` (docs/json/eval.md).
#[derive(Serialize)]
struct EvalJson {
    game: String,
    moves: Vec<String>,
    to_move: String,
    scores: Vec<Vec<Option<f64>>>,
    best: Vec<String>,
    best_score: Option<f64>,
    attack_value: Option<f64>,
    defence_value: Option<f64>,
    board_value: f64,
    outcome: Option<String>,
    vcf: Vec<VcfReport>,
}

/// Prints the value map and the board value of the position.
pub fn run(a: Args) -> Result<()> {
    let board = super::position(a.game, &a.moves)?;
    let weights = load_weights(a.game, a.weights.as_deref(), a.any_game)?;
    let map = ValueMap::new(&board, weights);
    let ValueMap {
        mover,
        ref scores,
        ref best,
        board_value,
        ..
    } = map;
    let rules = *board.rules();
    let first_best = best.first().copied();
    let best_score = first_best.map(|m| scores[rules.index(m)]);
    if a.json {
        let body = EvalJson {
            game: rules.to_string(),
            moves: board.moves().map(|m| m.to_string()).collect(),
            to_move: mover.to_string(),
            scores: map.rows(&board),
            best: best.iter().map(Move::to_string).collect(),
            best_score,
            attack_value: map.attack_value,
            defence_value: map.defence_value,
            board_value,
            outcome: board.outcome().map(|o| o.to_string()),
            vcf: map.vcf.iter().map(|&v| VcfReport::from(v)).collect(),
        };
        return super::json::print("eval", &body);
    }

    let width = terminal_width(a.width);
    let style = a.color.style(std::io::stdout().is_terminal());
    let heat = render_heat(&board, scores, width, style, super::compact)
        .map_err(|e| anyhow!("{e}: widen the terminal or pass --width"))?;
    let say = |text: String| print!("{}", wrap(&text, width));
    let plural = if board.ply() == 1 { "" } else { "s" };
    say(format!(
        "{rules} after {} move{plural}, {mover} to move. Cell scores for {mover} = \
         attack x attack value + defence x defence value; {}.",
        board.ply(),
        heat.scale.legend()
    ));
    print!("{}", heat.text);
    if let Some(o) = board.outcome() {
        // A best move or a board value would be advice for a game that
        // has ended.
        say(format!("the game is over: {o}"));
        return Ok(());
    }
    if let (Some(m), Some(s)) = (first_best, best_score) {
        let others = match best.len() {
            1 => String::new(),
            2 => " (and 1 more)".to_string(),
            n => format!(" (and {} more)", n - 1),
        };
        say(format!(
            "best cell {m} ({}){others}: score {}, attack value {}, defence value {}",
            m.to_xy(),
            super::compact(s),
            super::compact(map.attack_value.unwrap_or_default()),
            super::compact(map.defence_value.unwrap_or_default())
        ));
    }
    let text = if board_value >= WIN {
        format!("{mover} wins (can complete {} now)", rules.k)
    } else if board_value <= LOSS {
        format!(
            "{} wins (open {} cannot be stopped)",
            mover.opponent(),
            rules.k - 1
        )
    } else {
        super::compact(board_value)
    };
    say(format!("board value for {mover}: {text}"));
    for &(side, v) in &map.vcf {
        let text = match v {
            Vcf::Win { first, plies } => format!(
                "wins by continuous fours from {first} in {plies} plies \
                 (mnk solve --vcf shows the line)"
            ),
            Vcf::None => "none".into(),
            Vcf::Unknown => format!("not settled within {VCF_NODES} nodes"),
        };
        let whose = if side == mover {
            "to move"
        } else {
            "if it were to move"
        };
        say(format!("VCF for {side} ({whose}): {text}"));
    }
    Ok(())
}

/// The weights, with an error that names the flag and the file the user
/// typed (the player spec behind it is an implementation detail).
fn load_weights(rules: Rules, path: Option<&Path>, any_game: bool) -> Result<Weights> {
    let Some(path) = path else {
        return Ok(PlayerSpec::greedy().shipped_weights(rules));
    };
    Weights::load(path, rules, any_game).map_err(|e| {
        // The library says what is wrong; how to use it anyway is ours.
        let hint = match e {
            WeightsError::WrongGame { .. } => " (pass --any-game to use it anyway)",
            _ => "",
        };
        // Library messages start with the file's name already.
        let text = super::error_text(&e.into()) + hint;
        let shown = path.display().to_string();
        if text.starts_with(&shown) {
            anyhow!("--weights {text}")
        } else {
            anyhow!("--weights {shown}: {text}")
        }
    })
}

/// The width to draw in: `flag` if given, else the terminal's (of stdout),
/// else `$COLUMNS`, else 80.
fn terminal_width(flag: Option<u16>) -> usize {
    if let Some(w) = flag {
        return w as usize;
    }
    if let Some(w) = stdout_columns() {
        return w;
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&w| w > 0)
        .unwrap_or(80)
}

/// The columns of the terminal on stdout, if it is one.
fn stdout_columns() -> Option<usize> {
    let (_rows, cols) = console::Term::stdout().size_checked()?;
    (cols > 0).then_some(usize::from(cols))
}

/// `text` broken at spaces into lines of at most `width` characters (a
/// longer word stays whole), each ending in a newline.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_lines_within_the_width() {
        assert_eq!(wrap("aa bb cc", 5), "aa bb\ncc\n");
        assert_eq!(wrap("aa bb cc", 80), "aa bb cc\n");
        assert_eq!(wrap("toolongword x", 4), "toolongword\nx\n");
    }
}
