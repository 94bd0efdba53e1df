//! The Play view's JSON: the bodies of its requests and answers.

use mnk::game::{Board, Outcome};
use mnk::play::VcfReport;
use serde::{Deserialize, Serialize};

/// A game's id: 128 random bits in hex, so that a game cannot be found
/// by guessing (ids are not a game's choice: they come from the system's
/// randomness, not from a seed).
pub type GameId = String;

/// The body of `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The game: `tictactoe`, `gomoku`, `WxHxK`, with `-exact` for the
    /// exact rule.
    pub game: String,
    /// The person's colour: `black` (moves first) or `white`.
    pub you: String,
    /// The AI's player spec (`easy`, `hard`, `perfect`, `search:depth=4`…);
    /// a weights file must lie under the weights or runs folder.
    pub opponent: String,
    /// The seed of the AI's tie-breaks (default 1).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// The body of `POST /api/games/{id}/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The cell: `b2` (column letter, row from 1) or `1,1` (0-based x,y).
    pub cell: String,
}

/// One stone in a game's move list.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Stone {
    /// The cell's name (`b2`).
    pub cell: String,
    /// Column, 0-based from the left.
    pub x: u8,
    /// Row, 0-based from the top.
    pub y: u8,
    /// `black` or `white`.
    pub color: String,
}

impl Stone {
    /// The stones of `board`, in the order they were played.
    pub fn all(board: &Board) -> Vec<Stone> {
        (0..board.ply())
            .map(|i| {
                let (m, c) = board.move_at(i);
                Stone {
                    cell: m.to_string(),
                    x: m.x,
                    y: m.y,
                    color: c.to_string(),
                }
            })
            .collect()
    }
}

/// A result as the API writes it: `black`, `white` or `draw`.
pub fn result_name(o: Outcome) -> String {
    match o {
        Outcome::Win(c) => c.to_string(),
        Outcome::Draw => "draw".to_string(),
    }
}

/// A game as the page sees it: the answer of every game route.
#[derive(Debug, Serialize)]
pub struct GameState {
    /// The game's id in this server (unguessable).
    pub id: GameId,
    /// The game's name (`tictactoe`, `15x15x5`…).
    pub game: String,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// Stones in a row that win.
    pub k: u8,
    /// `freestyle` or `exact`.
    pub rule: String,
    /// The person's colour.
    pub you: String,
    /// The AI's spec.
    pub opponent: String,
    /// The colour to move, while the game goes on.
    pub to_move: Option<String>,
    /// `you`, `ai` (thinking), or `over`.
    pub turn: String,
    /// The moves so far, in order.
    pub moves: Vec<Stone>,
    /// The last move's cell.
    pub last_move: Option<String>,
    /// The winning stones' cells, when a line won.
    pub winning_line: Vec<String>,
    /// `black`, `white` or `draw` once the game is over.
    pub result: Option<String>,
    /// The cell the last hint suggested, until the next move.
    pub hint: Option<String>,
    /// What the AI's search found for its last move, until it is taken
    /// back (players that search only).
    pub ai: Option<AiSearch>,
    /// What `mnk play` would have printed for this request (saves, hints,
    /// refusals), one message a line.
    pub messages: Vec<String>,
}

/// What the AI's search found for a move.
#[derive(Debug, Serialize)]
pub struct AiSearch {
    /// The move's cell.
    pub cell: String,
    /// The deepest completed iteration (0: proven by a threat search).
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// The score from the AI's view.
    pub score: f64,
    /// The score in words (`+1.2k`, `win in 5`).
    pub eval: String,
    /// What proved a win or loss (`search`, `vcf`, `vct`).
    pub proof: Option<String>,
    /// Milliseconds the search took.
    pub ms: u64,
}

/// The value map of a game's position for the side to move
/// (`GET /api/games/{id}/values`), under the AI's weights.
#[derive(Debug, Serialize)]
pub struct Values {
    /// The side the scores are for.
    pub mover: String,
    /// The weights: a file, or `shipped` for the game's built-in ones.
    pub weights: String,
    /// One row per board row; `null` for a stone.
    pub scores: Vec<Vec<Option<f64>>>,
    /// The empty cells with the highest score.
    pub best: Vec<String>,
    /// The board value for the mover.
    pub board_value: f64,
    /// Each side's VCF (the mover's first); empty when the game is over.
    pub vcf: Vec<VcfReport>,
}
