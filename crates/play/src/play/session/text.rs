//! What a session shows, in words: the game screen, the prompts, the
//! result of a game and the list of moves.

use super::{SeatKind, Session, Turn};
use crate::game::{Color, Outcome, Rule, Rules};
use crate::play::render::{glyph, render_board, Marks};

/// A short description of a game: `tictactoe: 3x3, 3 in a row`.
pub fn describe_rules(rules: Rules) -> String {
    let exactly = if rules.rule == Rule::Exact {
        "exactly "
    } else {
        ""
    };
    format!(
        "{rules}: {}x{}, {exactly}{} in a row",
        rules.width, rules.height, rules.k
    )
}

/// `1 move`, `2 moves`.
pub(super) fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

impl Session {
    /// The prompt for the next input line.
    pub fn prompt(&self) -> String {
        let p = match self.turn() {
            Turn::Human(c) if self.humans() == 1 => format!("Your move ({}) > ", glyph(c)),
            Turn::Human(c) => format!("{}'s move ({}) > ", self.actor(c), glyph(c)),
            Turn::PlayAgain => "Play again? y(es), n(o) or s(wap colours) > ".to_string(),
            Turn::Ai(_) | Turn::Done => "> ".to_string(),
        };
        self.style.bold(&p)
    }

    /// Who plays `c`, for messages: `you`, the AI's name, the person's
    /// name, or the colour when two people share the default name.
    pub fn actor(&self, c: Color) -> String {
        let seat = self.seat(c);
        match &seat.kind {
            SeatKind::Human(_) if self.humans() == 1 => "you".to_string(),
            SeatKind::Human(name) => {
                let other = &self.seat(c.opponent()).kind;
                if name.is_empty() || *other == SeatKind::Human(name.clone()) {
                    c.to_string()
                } else {
                    name.clone()
                }
            }
            SeatKind::Ai(_) => seat.ai_name.clone().unwrap_or_else(|| c.to_string()),
        }
    }

    /// `you (black, X)`, `greedy (white, O)` or `black (X)`.
    pub(super) fn actor_with_side(&self, c: Color) -> String {
        let a = self.actor(c);
        if a == c.to_string() {
            format!("{a} ({})", self.style.stone(c))
        } else {
            format!("{a} ({c}, {})", self.style.stone(c))
        }
    }

    /// The title, the board and the status lines.
    pub fn screen(&self) -> String {
        let st = self.style;
        let mut s = String::new();
        let side = |c: Color| format!("{} {}", st.stone(c), st.bold(&self.actor(c)));
        s.push_str(&format!(
            "{}   {} vs {}   {}\n\n",
            st.bold(&describe_rules(self.rules)),
            side(Color::Black),
            side(Color::White),
            st.dim(&format!("game {}", self.game)),
        ));
        let mut marks = Marks::of(&self.board);
        marks.hint = self.hint;
        s.push_str(&render_board(&self.board, &marks, st));
        s.push('\n');
        match self.outcome() {
            Some(outcome) => {
                s.push_str(&st.bold(&self.result_text(outcome)));
                s.push('\n');
            }
            None => {
                let c = self.board.to_move();
                let status = if self.seat(c).is_human() && self.humans() == 1 {
                    format!("your move ({c}, {})", st.stone(c))
                } else {
                    format!("{} to play", self.actor_with_side(c))
                };
                s.push_str(&format!("Move {}: {status}", self.board.ply() + 1));
                if let Some(m) = self.board.last_move() {
                    let c = c.opponent();
                    s.push_str(&format!(
                        "   {}",
                        st.dim(&format!("last: {} {m} by {}", glyph(c), self.actor(c)))
                    ));
                }
                s.push('\n');
            }
        }
        s
    }

    /// The result in words, such as `You win! Five in a row at move 17.`
    fn result_text(&self, outcome: Outcome) -> String {
        let n = self.board.ply();
        let moves = plural(n, "move");
        match outcome {
            Outcome::Draw => format!("Draw: the board is full after {moves}."),
            Outcome::Win(c) => {
                let winner = self.actor(c);
                let how = if self.board.outcome().is_some() {
                    format!("{} in a row at move {n}", self.rules.k)
                } else {
                    let loser = self.actor(c.opponent());
                    let gives_up = if loser == "you" {
                        "you resign"
                    } else {
                        "resigns"
                    };
                    if loser == "you" {
                        format!("{gives_up} after {moves}")
                    } else {
                        format!("{loser} {gives_up} after {moves}")
                    }
                };
                if winner == "you" {
                    format!("You win ({}): {how}!", self.style.stone(c))
                } else {
                    format!("{} wins: {how}.", self.actor_with_side(c))
                }
            }
        }
    }

    pub(super) fn list_moves(&mut self) {
        if self.board.ply() == 0 {
            self.text("No moves yet.".to_string());
            return;
        }
        let items: Vec<String> = (0..self.board.ply())
            .map(|i| {
                let (m, c) = self.board.move_at(i);
                format!("{:>3}. {} {:<4}", i + 1, glyph(c), m.to_string())
            })
            .collect();
        let lines: Vec<String> = items
            .chunks(6)
            .map(|chunk| chunk.join(" ").trim_end().to_string())
            .collect();
        self.text(lines.join("\n"));
    }
}
