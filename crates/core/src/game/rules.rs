//! Board geometry and the winning rule.

use std::fmt;
use std::str::FromStr;

/// The smallest supported board side.
pub const MIN_SIDE: u8 = 3;
/// The largest supported board side (one column letter per column).
pub const MAX_SIDE: u8 = 26;

/// Which lines win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// k or more in a row wins.
    Freestyle,
    /// Only exactly k in a row wins; an overline does not.
    Exact,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Freestyle => "freestyle",
            Rule::Exact => "exact",
        })
    }
}

impl FromStr for Rule {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "freestyle" => Ok(Rule::Freestyle),
            "exact" => Ok(Rule::Exact),
            _ => Err(RulesError::BadRule(s.to_string())),
        }
    }
}

/// Errors in a game description.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Neither a preset name nor `WIDTHxHEIGHTxK[-exact]`.
    #[error("unknown game {0:?}: expected tictactoe, gomoku, or WIDTHxHEIGHTxK such as 7x6x4 (optionally followed by -exact)")]
    BadSpec(String),
    /// A rule name other than `freestyle` or `exact`.
    #[error("unknown rule {0:?}: expected freestyle or exact")]
    BadRule(String),
    /// A board side outside [`MIN_SIDE`]..=[`MAX_SIDE`].
    #[error("board side {0} is out of range: expected {MIN_SIDE} to {MAX_SIDE}")]
    BadSide(u32),
    /// k below 3 or longer than the board's longest side.
    #[error("k = {k} does not fit a {width}x{height} board: expected 3 <= k <= {max}")]
    BadK {
        /// The k asked for.
        k: u32,
        /// The board's width.
        width: u8,
        /// The board's height.
        height: u8,
        /// The largest k this board allows.
        max: u8,
    },
}

/// An m,n,k game: a `width` × `height` board where `k` in a row wins
/// under `rule`.
///
/// Parses from a preset name or a free form:
///
/// ```
/// use mnk_core::game::{Rule, Rules};
/// let g: Rules = "gomoku".parse().unwrap();
/// assert_eq!((g.width, g.height, g.k, g.rule), (15, 15, 5, Rule::Freestyle));
/// let c4: Rules = "7x6x4".parse().unwrap();
/// assert_eq!(c4.to_string(), "7x6x4");
/// let e: Rules = "15x15x5-exact".parse().unwrap();
/// assert_eq!(e.rule, Rule::Exact);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Stones in a row that win.
    pub k: u8,
    /// Whether longer lines win too.
    pub rule: Rule,
}

impl Rules {
    /// 3×3, three in a row.
    pub const TICTACTOE: Rules = Rules {
        width: 3,
        height: 3,
        k: 3,
        rule: Rule::Freestyle,
    };
    /// 15×15, five or more in a row (freestyle gomoku).
    pub const GOMOKU: Rules = Rules {
        width: 15,
        height: 15,
        k: 5,
        rule: Rule::Freestyle,
    };

    /// Checks the ranges and builds the rules.
    pub fn new(width: u32, height: u32, k: u32, rule: Rule) -> Result<Rules, RulesError> {
        for side in [width, height] {
            if !(MIN_SIDE as u32..=MAX_SIDE as u32).contains(&side) {
                return Err(RulesError::BadSide(side));
            }
        }
        let max = width.max(height) as u8;
        if k < 3 || k > max as u32 {
            return Err(RulesError::BadK {
                k,
                width: width as u8,
                height: height as u8,
                max,
            });
        }
        Ok(Rules {
            width: width as u8,
            height: height as u8,
            k: k as u8,
            rule,
        })
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Whether `m` lies on the board.
    #[inline]
    pub fn contains(&self, m: crate::game::Move) -> bool {
        m.x < self.width && m.y < self.height
    }

    /// The cell index of a move (row-major).
    #[inline]
    pub fn index(&self, m: crate::game::Move) -> usize {
        m.y as usize * self.width as usize + m.x as usize
    }

    /// The move at a cell index.
    #[inline]
    pub fn move_at(&self, index: usize) -> crate::game::Move {
        crate::game::Move::new(
            (index % self.width as usize) as u8,
            (index / self.width as usize) as u8,
        )
    }

    /// The centre cell (rounded towards the top-left).
    pub fn center(&self) -> crate::game::Move {
        crate::game::Move::new((self.width - 1) / 2, (self.height - 1) / 2)
    }

    /// Whether the board is square (so all 8 symmetries apply).
    pub fn is_square(&self) -> bool {
        self.width == self.height
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Rules::TICTACTOE {
            return f.write_str("tictactoe");
        }
        if *self == Rules::GOMOKU {
            return f.write_str("gomoku");
        }
        write!(f, "{}x{}x{}", self.width, self.height, self.k)?;
        if self.rule == Rule::Exact {
            f.write_str("-exact")?;
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "tictactoe" | "tic-tac-toe" | "ttt" => return Ok(Rules::TICTACTOE),
            "gomoku" | "freestyle" => return Ok(Rules::GOMOKU),
            "gomoku-exact" | "standard" => {
                return Ok(Rules {
                    rule: Rule::Exact,
                    ..Rules::GOMOKU
                })
            }
            _ => {}
        }
        let (dims, rule) = match t.split_once('-') {
            Some((d, r)) => (d, r.parse::<Rule>()?),
            None => (t.as_str(), Rule::Freestyle),
        };
        let parts: Vec<&str> = dims.split('x').collect();
        if parts.len() != 3 {
            return Err(RulesError::BadSpec(s.to_string()));
        }
        let num = |p: &str| {
            p.parse::<u32>()
                .map_err(|_| RulesError::BadSpec(s.to_string()))
        };
        Rules::new(num(parts[0])?, num(parts[1])?, num(parts[2])?, rule)
    }
}
