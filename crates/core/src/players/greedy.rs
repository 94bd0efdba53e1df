//! The static player: scores every empty cell with the weights and plays
//! the best one; and [`GreedyDuel`], two of them playing one game on one
//! shared set of shapes.

use super::{argmax_keyed, Player, PlayerError, Rng};
use crate::eval::{Evaluator, Lines, Sheets, Weights};
use crate::game::{Board, Color, Move, Rules};

/// Plays the empty cell with the highest score
/// (`attack × attack value + defence × defence value`), ties at random.
#[derive(Clone, Debug)]
pub struct Greedy {
    eval: Evaluator,
    name: String,
}

impl Greedy {
    /// A greedy player on `weights`, named `greedy`.
    pub fn new(weights: Weights) -> Greedy {
        Greedy {
            eval: Evaluator::for_cell_scores(weights),
            name: "greedy".into(),
        }
    }

    /// Sets the name shown in reports.
    pub fn named(mut self, name: impl Into<String>) -> Greedy {
        self.name = name.into();
        self
    }

    /// The evaluator, synced to the last position this player saw.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Heap bytes this player owns (tables shared between players, such as
    /// the shape table and the board geometry, are not counted).
    pub fn heap_bytes(&self) -> usize {
        self.eval.heap_bytes() + self.name.capacity()
    }
}

impl Player for Greedy {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, board: &Board, rng: &mut Rng) -> Result<Move, PlayerError> {
        if board.is_over() {
            return Err(PlayerError::GameOver);
        }
        self.eval.sync(board);
        let (sheets, m) = (self.eval.sheets(), board.to_move().index());
        let i = argmax_keyed(sheets.scores(m), sheets.keys(m), rng).ok_or(PlayerError::GameOver)?;
        Ok(board.rules().move_at(i))
    }

    fn as_greedy(&self) -> Option<&Greedy> {
        Some(self)
    }
}

/// Two greedy players in one game, on one shared [`Lines`]: each move
/// updates the shapes once, and each player's scores only for the side it
/// moves for, half the work of two [`Greedy`] evaluators. Its choices are
/// exactly theirs: the same scores, bit for bit, and the same draws.
///
/// ```
/// use mnk_core::eval::shipped_weights;
/// use mnk_core::game::{Board, Rules};
/// use mnk_core::players::{Greedy, GreedyDuel, Player, Rng};
/// use rand::SeedableRng;
/// let rules = Rules::GOMOKU;
/// let (mut black, mut white) = (Greedy::new(shipped_weights(rules)), Greedy::new(shipped_weights(rules)));
/// let mut duel = GreedyDuel::new(rules);
/// duel.start(&black, &white);
/// let (mut a, mut b) = (Board::new(rules), Board::new(rules));
/// let (mut r1, mut r2) = (Rng::seed_from_u64(3), Rng::seed_from_u64(3));
/// for _ in 0..10 {
///     duel.sync(&a);
///     a.play(duel.choose(a.to_move(), &mut r1).unwrap()).unwrap();
///     let p = if b.ply() % 2 == 0 { &mut black } else { &mut white };
///     b.play(p.choose(&b, &mut r2).unwrap()).unwrap();
/// }
/// assert_eq!(a, b);
/// ```
#[derive(Clone, Debug)]
pub struct GreedyDuel {
    lines: Lines,
    /// Sheet 0: black's weights for black to move; 1: white's for white.
    sheets: Sheets,
}

impl GreedyDuel {
    /// A duel on the empty board of `rules` (the players come with
    /// [`GreedyDuel::start`]).
    pub fn new(rules: Rules) -> GreedyDuel {
        let lines = Lines::without_counts(rules);
        let w = Weights::default_for(rules);
        let sheets = lines.sheets([(&w, Color::Black), (&w, Color::White)]);
        GreedyDuel { lines, sheets }
    }

    /// The game.
    pub fn rules(&self) -> &Rules {
        self.lines.rules()
    }

    /// Starts a game between `black` and `white` (players of this game) on
    /// the empty board. Allocates nothing.
    pub fn start(&mut self, black: &Greedy, white: &Greedy) {
        debug_assert_eq!(black.evaluator().rules(), self.rules());
        debug_assert_eq!(white.evaluator().rules(), self.rules());
        self.sheets.reset_to(0, black.evaluator().sheets(), 0);
        self.sheets.reset_to(1, white.evaluator().sheets(), 1);
        self.lines.reset(&mut self.sheets);
    }

    /// Brings the duel to `board`'s position (one move a ply in a game).
    #[inline]
    pub fn sync(&mut self, board: &Board) {
        self.lines.sync(board, &mut self.sheets);
    }

    /// The choice of the player of `mover`, as [`Greedy`] would make it;
    /// `None` if no cell is empty.
    #[inline]
    pub fn choose(&self, mover: Color, rng: &mut Rng) -> Option<Move> {
        let m = mover.index();
        let i = argmax_keyed(self.sheets.scores(m), self.sheets.keys(m), rng)?;
        Some(self.rules().move_at(i))
    }

    /// Whether `m` wins for `color` in the duel's position (read off the
    /// shapes, so [`Board::play_known`] needs no scan).
    #[inline]
    pub fn wins(&self, m: Move, color: Color) -> bool {
        self.lines.wins_at_cell(self.rules().index(m), color)
    }

    /// Number of (cell, direction) updates made so far: a speed measure.
    pub fn updates(&self) -> u64 {
        self.lines.updates()
    }

    /// Heap bytes this duel owns (shared tables not counted, see
    /// [`Lines::heap_bytes`]).
    pub fn heap_bytes(&self) -> usize {
        self.lines.heap_bytes() + self.sheets.heap_bytes()
    }
}
