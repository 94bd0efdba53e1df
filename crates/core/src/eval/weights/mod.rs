//! Weight sets: the tunable numbers of the evaluator, read and written as
//! TOML (`toml.rs`) and as the original program's 16-number
//! `ChessboardValue.txt` (`txt.rs`).
//!
//! A set is of one of two [`Model`]s: `shapes`, the brief's 16 numbers
//! (attack, defence, and an own and an opp weight per shape), or `combo`,
//! the same numbers plus an own and an opp weight per cell combination
//! ([`Combo`](super::Combo)), which a cell's score adds once per side. A
//! combo set whose combination weights are all 0 plays exactly as its
//! shape weights alone.
//!
//! The txt format holds 64-bit integers and mnk holds fractions from 0 to
//! [`MAX_WEIGHT`], so neither side can take the other's numbers as they
//! are. What carries over is what decides play: within each [`TxtGroup`]
//! only ratios matter, so export scales each group to integers with at
//! least [`TXT_DIGITS`] significant digits (or refuses), and import divides
//! a group that is too large by a power of ten.

mod toml;
mod txt;

pub use txt::{GroupScale, TxtExport, TxtGroup, TxtImport, TXT_DIGITS};

use super::combo::{Combo, COMBOS};
use super::shape::{Shape, SHAPES, WEIGHTED};
use crate::game::Rules;
use std::path::Path;
use std::sync::OnceLock;

/// The largest weight accepted. Far below where sums of many shapes could
/// lose precision in an `f64` or overflow a search score.
pub const MAX_WEIGHT: f64 = 1e9;

/// Errors in weight files.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The text is not TOML.
    #[error("{path}: not valid TOML: {message}")]
    Toml {
        /// The file.
        path: String,
        /// The TOML parser's message.
        message: String,
    },
    /// A key is missing, unknown, or holds a value out of range.
    #[error("{path}: {field}: {message}")]
    Field {
        /// The file.
        path: String,
        /// The key, dotted (`own.open4`, `game.k`).
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// The file's `[game]` is not the game being played. (How to use it
    /// anyway is the front end's to say: a flag, a spec option, or nothing.)
    #[error("{path}: made for {found}, but the game is {expected}")]
    WrongGame {
        /// The file.
        path: String,
        /// The game the file declares.
        found: Rules,
        /// The game being played.
        expected: Rules,
    },
    /// A `ChessboardValue.txt` file that does not hold the right integers.
    #[error("{path}: line {line}: {message}")]
    Txt {
        /// The file.
        path: String,
        /// The 1-based line of the offending number.
        line: usize,
        /// What is wrong, naming the field.
        message: String,
    },
    /// A `combo` weight set cannot be written as `ChessboardValue.txt`.
    #[error(
        "cannot write a \"{model}\" weight set as ChessboardValue.txt: that format holds only \
         the 16 numbers of the shape model (attack, defence, own and opp per shape), and \
         leaving out the {combos} combination weights would write a different player"
    )]
    TxtModel {
        /// The set's model.
        model: Model,
        /// How many combination weights it has.
        combos: usize,
    },
    /// A group's numbers are too far apart to write as 64-bit integers with
    /// [`TXT_DIGITS`] significant digits (see [`Weights::export_txt`]).
    #[error(
        "cannot write {group} as ChessboardValue.txt integers: {largest} = {max} is {ratio:.3e} \
         times {smallest} = {min}. Only ratios within the group matter, so all of it is scaled \
         by one factor; writing {smallest} with at least {TXT_DIGITS} significant digits takes \
         1e{exp}, which makes {largest} {scaled:.3e}, above the 64-bit limit {limit} \
         (ratios up to about 9.2e9 always fit: raise {smallest} or set it to 0)",
        limit = i64::MAX
    )]
    TxtRange {
        /// The group that does not fit.
        group: TxtGroup,
        /// The name of its smallest nonzero number.
        smallest: String,
        /// That number.
        min: f64,
        /// The name of its largest number.
        largest: String,
        /// That number.
        max: f64,
        /// `max / min`.
        ratio: f64,
        /// The power of ten that writes `min` with enough digits.
        exp: u32,
        /// `max × 10^exp`, the integer that does not fit.
        scaled: f64,
    },
}

crate::util::string_enum! {
    /// Which numbers a weight set holds, named by `model` in its file.
    #[derive(Default)]
    pub enum Model("weight model") {
        /// The brief's model: attack, defence, and an own and an opp weight
        /// per shape (16 numbers for k ≥ 4). A file without `model` is one.
        #[default]
        Shapes = "shapes",
        /// The shape model plus an own and an opp weight per cell
        /// combination ([`Combo`]).
        Combo = "combo",
    }
}

/// The combination weights of a `combo` model: `own[i]` and `opp[i]` are
/// the weights of `Combo::WEIGHTED[i]`; for k = 3 only the first three
/// combinations exist and the last two entries stay 0.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ComboWeights {
    /// Added to a cell's attack value when a stone there makes the
    /// combination for the mover (and to the board value per stone that
    /// has it).
    pub own: [f64; COMBOS],
    /// Added to a cell's defence value when a stone there would make the
    /// combination for the opponent (and subtracted from the board value
    /// per opponent's stone that has it); charged, times defence, to a
    /// cell whose one closed four forces the opponent's block onto a cell
    /// where that block makes it.
    pub opp: [f64; COMBOS],
}

/// A weight set for one game.
///
/// `own[i]` and `opp[i]` are the weights of `SHAPES[i]`; for k = 3 only the
/// first five shapes exist and the last two entries stay 0.
///
/// ```
/// use mnk_core::eval::{Shape, Weights, SHAPES};
/// use mnk_core::game::Rules;
/// let w = Weights::default_for(Rules::GOMOKU);
/// assert_eq!(SHAPES[1], Shape::OpenIn1);
/// assert_eq!(w.own[1], 1e6); // an open four of one's own
/// let names: Vec<String> = w.named_values().into_iter().map(|(n, _)| n).collect();
/// assert_eq!(names[..4], ["attack", "defence", "own.win", "own.open4"]);
/// // The TOML form reads back as the same numbers.
/// let back = Weights::from_toml(&w.to_toml("an example"), "example.toml").unwrap();
/// assert_eq!(back, w);
/// // Tic-tac-toe has no (k−3) shapes.
/// let t = Weights::default_for(Rules::TICTACTOE);
/// assert_eq!((t.shape_count(), t.own[5], t.opp[6]), (5, 0.0, 0.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The game these weights were made for.
    pub game: Rules,
    /// Multiplies a cell's attack value (the mover's shapes it makes).
    pub attack: f64,
    /// Multiplies a cell's defence value (the opponent's shapes it breaks).
    pub defence: f64,
    /// Added for the side whose shapes they are.
    pub own: [f64; WEIGHTED],
    /// Counted for the opponent's shapes (subtracted in a board value).
    pub opp: [f64; WEIGHTED],
    /// The combination weights: `Some` in a `combo` model, `None` in the
    /// shape model.
    pub combo: Option<ComboWeights>,
}

impl Weights {
    /// The number of shapes with weights for this game (5 or 7).
    pub fn shape_count(&self) -> usize {
        Shape::count(self.game.k)
    }

    /// The set's model.
    pub fn model(&self) -> Model {
        if self.combo.is_some() {
            Model::Combo
        } else {
            Model::Shapes
        }
    }

    /// The number of combinations with weights for this game (0 in the
    /// shape model, else 3 or 5).
    pub fn combo_count(&self) -> usize {
        match self.combo {
            Some(_) => Combo::count(self.game.k),
            None => 0,
        }
    }

    /// The same set in `model`: a `combo` model gains combination weights
    /// of 0 (so it plays exactly as before), a `shapes` model loses them.
    pub fn with_model(mut self, model: Model) -> Weights {
        self.combo = match model {
            Model::Shapes => None,
            Model::Combo => Some(self.combo.unwrap_or_default()),
        };
        self
    }

    /// `[own, opp]` indexed by [`Combo`]: 0 for [`Combo::None`], for the
    /// combinations this game does not have, and in the shape model.
    pub(crate) fn by_combo(&self) -> [[f64; Combo::NUM]; 2] {
        let n = self.combo_count();
        let (mut own, mut opp) = ([0.0; Combo::NUM], [0.0; Combo::NUM]);
        if let Some(c) = &self.combo {
            own[1..=n].copy_from_slice(&c.own[..n]);
            opp[1..=n].copy_from_slice(&c.opp[..n]);
        }
        [own, opp]
    }

    /// `[own, opp]` indexed by [`Shape`]: 0 for [`Shape::None`] and for the
    /// shapes this game does not have.
    pub(crate) fn by_shape(&self) -> [[f64; Shape::NUM]; 2] {
        let n = self.shape_count();
        let (mut own, mut opp) = ([0.0; Shape::NUM], [0.0; Shape::NUM]);
        own[1..=n].copy_from_slice(&self.own[..n]);
        opp[1..=n].copy_from_slice(&self.opp[..n]);
        [own, opp]
    }

    /// A hand-set starting point for any game: each level of threat is worth
    /// far more than the one below it, own shapes a little more than the
    /// opponent's (so a win beats a block and a four beats blocking a three).
    pub fn default_for(game: Rules) -> Weights {
        // win, open(k-1), closed(k-1), open(k-2), closed(k-2), open(k-3), closed(k-3)
        let own = [1e8, 1e6, 1e4, 1e4, 1e2, 1e2, 1e0];
        let opp = [1e7, 1e5, 8e2, 3e3, 5e1, 5e1, 5e-1];
        let mut w = Weights {
            game,
            attack: 1.0,
            defence: 1.0,
            own,
            opp,
            combo: None,
        };
        w.truncate_to_game();
        w
    }

    /// Every shape weight equal (1), attack and defence 1: a deliberately
    /// poor starting point for training experiments.
    pub fn flat(game: Rules) -> Weights {
        let mut w = Weights {
            game,
            attack: 1.0,
            defence: 1.0,
            own: [1.0; WEIGHTED],
            opp: [1.0; WEIGHTED],
            combo: None,
        };
        w.truncate_to_game();
        w
    }

    fn truncate_to_game(&mut self) {
        for i in self.shape_count()..WEIGHTED {
            self.own[i] = 0.0;
            self.opp[i] = 0.0;
        }
        let n = Combo::count(self.game.k);
        if let Some(c) = &mut self.combo {
            for i in n..COMBOS {
                c.own[i] = 0.0;
                c.opp[i] = 0.0;
            }
        }
    }

    /// The same numbers, declared for another game with the same k. Used
    /// when the user explicitly accepts a weight file made for another game.
    pub fn for_game(mut self, game: Rules) -> Weights {
        self.game = game;
        self.truncate_to_game();
        self
    }

    /// Every tunable number with its name, in file order: `attack`,
    /// `defence`, then `own.<shape>` and `opp.<shape>`, then in a combo
    /// model `own_combo.<combination>` and `opp_combo.<combination>`.
    pub fn named_values(&self) -> Vec<(String, f64)> {
        let k = self.game.k;
        let mut v = vec![
            ("attack".to_string(), self.attack),
            ("defence".to_string(), self.defence),
        ];
        for (i, s) in SHAPES[..self.shape_count()].iter().enumerate() {
            v.push((format!("own.{}", s.name(k)), self.own[i]));
        }
        for (i, s) in SHAPES[..self.shape_count()].iter().enumerate() {
            v.push((format!("opp.{}", s.name(k)), self.opp[i]));
        }
        if let Some(c) = &self.combo {
            let combos = &Combo::WEIGHTED[..self.combo_count()];
            for (side, vals) in [("own", &c.own), ("opp", &c.opp)] {
                for (i, combo) in combos.iter().enumerate() {
                    v.push((format!("{side}_combo.{}", combo.name(k)), vals[i]));
                }
            }
        }
        v
    }

    /// The tunable numbers as a flat vector (same order as
    /// [`Weights::named_values`]).
    pub fn to_vec(&self) -> Vec<f64> {
        self.named_values().into_iter().map(|(_, v)| v).collect()
    }

    /// Rebuilds weights from [`Weights::to_vec`]'s order. The length
    /// tells the model: `2 + 2 × shapes` numbers are a shape model, `2 +
    /// 2 × (shapes + combinations)` a combo model; any other is `None`.
    pub fn from_vec(game: Rules, v: &[f64]) -> Option<Weights> {
        let n = Shape::count(game.k);
        let c = Combo::count(game.k);
        let combo = match v.len() {
            l if l == 2 + 2 * n => false,
            l if l == 2 + 2 * (n + c) => true,
            _ => return None,
        };
        let mut w = Weights::flat(game);
        w.attack = v[0];
        w.defence = v[1];
        w.own[..n].copy_from_slice(&v[2..2 + n]);
        w.opp[..n].copy_from_slice(&v[2 + n..2 + 2 * n]);
        if combo {
            let mut cw = ComboWeights::default();
            let rest = &v[2 + 2 * n..];
            cw.own[..c].copy_from_slice(&rest[..c]);
            cw.opp[..c].copy_from_slice(&rest[c..2 * c]);
            w.combo = Some(cw);
        }
        Some(w)
    }

    /// Checks that every number is finite and within `0..=MAX_WEIGHT`.
    pub fn validate(&self, path: &str) -> Result<(), WeightsError> {
        for (name, v) in self.named_values() {
            check_value(path, &name, v)?;
        }
        Ok(())
    }

    /// Reads a TOML weight file and checks it was made for `expected`
    /// (unless `any_game`, which re-declares it for `expected`).
    pub fn load(path: &Path, expected: Rules, any_game: bool) -> Result<Weights, WeightsError> {
        let w = Weights::read(path)?;
        if w.game != expected {
            if any_game && w.game.k == expected.k {
                return Ok(w.for_game(expected));
            }
            return Err(WeightsError::WrongGame {
                path: path.display().to_string(),
                found: w.game,
                expected,
            });
        }
        Ok(w)
    }

    /// Reads a TOML weight file for whatever game it declares.
    pub fn read(path: &Path) -> Result<Weights, WeightsError> {
        let p = path.display().to_string();
        let text = crate::util::read_text(path).map_err(|source| WeightsError::Io {
            path: p.clone(),
            source,
        })?;
        Weights::from_toml(&text, &p)
    }

    /// Writes the TOML form atomically (temporary file, then rename).
    pub fn save(&self, path: &Path, title: &str) -> std::io::Result<()> {
        crate::util::write_atomic(path, self.to_toml(title).as_bytes())
    }
}

pub(super) fn check_value(path: &str, name: &str, v: f64) -> Result<(), WeightsError> {
    if !v.is_finite() || !(0.0..=MAX_WEIGHT).contains(&v) {
        return Err(WeightsError::Field {
            path: path.to_string(),
            field: name.to_string(),
            message: format!("{v} is out of range: expected a number from 0 to {MAX_WEIGHT:e}"),
        });
    }
    Ok(())
}

/// The search player's shipped weights for a game: on five in a row
/// (k = 5) `weights/gomoku-search.toml`, trained for the search player at
/// depth 4 (its header says how); elsewhere [`shipped_weights`]. Weights
/// trained for the search lose badly when the greedy player plays them,
/// so the greedy player keeps the hand-set `weights/gomoku.toml`.
///
/// ```
/// use mnk_core::eval::{shipped_search_weights, shipped_weights};
/// use mnk_core::game::Rules;
/// assert_ne!(shipped_search_weights(Rules::GOMOKU), shipped_weights(Rules::GOMOKU));
/// assert_eq!(shipped_search_weights(Rules::TICTACTOE), shipped_weights(Rules::TICTACTOE));
/// ```
pub fn shipped_search_weights(rules: Rules) -> Weights {
    const GOMOKU_SEARCH: &str = include_str!("../../../../../weights/gomoku-search.toml");
    static PARSED: OnceLock<Option<Weights>> = OnceLock::new();
    if rules.k != 5 {
        return shipped_weights(rules);
    }
    match parsed(&PARSED, GOMOKU_SEARCH, "shipped search weights") {
        Some(w) => w.for_game(rules),
        // Unreachable: the shipped files are tested; fall back regardless.
        None => shipped_weights(rules),
    }
}

/// The weights of a shipped file, parsed at the first call and cloned
/// after: every search player is made with them (a match makes one per
/// side and game), and parsing the TOML took about 1.3M instructions a
/// time, 0.2% of a depth-8 match's (cachegrind), against a clone's few
/// hundred.
fn parsed(slot: &'static OnceLock<Option<Weights>>, text: &str, what: &str) -> Option<Weights> {
    slot.get_or_init(|| Weights::from_toml(text, what).ok())
        .clone()
}

/// The shipped weights for a game: `weights/gomoku.toml` for k = 5 and
/// `weights/tictactoe.toml` for k = 3 (re-declared for the board at hand),
/// else [`Weights::default_for`]. They are compiled into the binary, so
/// they work from any directory.
pub fn shipped_weights(rules: Rules) -> Weights {
    const GOMOKU: &str = include_str!("../../../../../weights/gomoku.toml");
    const TICTACTOE: &str = include_str!("../../../../../weights/tictactoe.toml");
    static PARSED: [OnceLock<Option<Weights>>; 2] = [OnceLock::new(), OnceLock::new()];
    let (text, slot) = match rules.k {
        5 => (GOMOKU, &PARSED[0]),
        3 => (TICTACTOE, &PARSED[1]),
        _ => return Weights::default_for(rules),
    };
    match parsed(slot, text, "shipped weights") {
        Some(w) => w.for_game(rules),
        // Unreachable: the shipped files are tested; fall back regardless.
        None => Weights::default_for(rules),
    }
}
