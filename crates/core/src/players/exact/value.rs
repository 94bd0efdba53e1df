//! [`Value`]: a game-theoretic result, from the side to move's view.

use crate::game::{Color, Outcome};

crate::util::string_enum! {
    /// A game-theoretic value from the side to move's view.
    ///
    /// Ordered `Loss < Draw < Win`.
    ///
    /// ```
    /// use mnk_core::players::Value;
    /// assert!(Value::Loss < Value::Draw && Value::Draw < Value::Win);
    /// assert_eq!(Value::Win.negate(), Value::Loss);
    /// assert_eq!(Value::Draw.to_string(), "draw");
    /// assert_eq!("win".parse::<Value>(), Ok(Value::Win));
    /// ```
    #[derive(PartialOrd, Ord)]
    pub enum Value("value") {
        /// The side to move loses against perfect play.
        Loss = "loss",
        /// Perfect play from both sides draws.
        Draw = "draw",
        /// The side to move wins against any defence.
        Win = "win",
    }
}

impl Value {
    /// The same result seen from the other side.
    #[inline]
    pub fn negate(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }

    /// The value of a finished game for `side`.
    pub fn of_outcome(outcome: Outcome, side: Color) -> Value {
        match outcome {
            Outcome::Draw => Value::Draw,
            Outcome::Win(c) if c == side => Value::Win,
            Outcome::Win(_) => Value::Loss,
        }
    }

    /// −1, 0 or 1: the form the search and its table work in.
    #[inline]
    pub(super) fn to_i8(self) -> i8 {
        self as i8 - 1
    }

    /// The value of −1, 0 or 1 (any negative is a loss, positive a win).
    #[inline]
    pub(super) fn from_i8(v: i8) -> Value {
        match v {
            i8::MIN..=-1 => Value::Loss,
            0 => Value::Draw,
            _ => Value::Win,
        }
    }
}
