//! Weight sets: the tunable numbers of the evaluator, their TOML files and
//! the original program's 16-number `ChessboardValue.txt` format.

use super::shape::{Shape, SHAPES};
use crate::game::{Rule, Rules};
use std::fmt::Write as _;
use std::path::Path;

/// The largest weight accepted. Far below where sums of many shapes could
/// lose precision in an `f64` or overflow a search score.
pub const MAX_WEIGHT: f64 = 1e9;

/// Errors in weight files.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    #[error("{path}: cannot read: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not valid TOML: {message}")]
    Toml { path: String, message: String },
    #[error("{path}: {field}: {message}")]
    Field {
        path: String,
        field: String,
        message: String,
    },
    #[error(
        "{path}: made for {found}, but the game is {expected} (pass --any-game to use it anyway)"
    )]
    WrongGame {
        path: String,
        found: Rules,
        expected: Rules,
    },
    #[error("{path}: line {line}: {message}")]
    Txt {
        path: String,
        line: usize,
        message: String,
    },
}

/// A weight set for one game.
///
/// `own[i]` and `opp[i]` are the weights of `SHAPES[i]`; for k = 3 only the
/// first five shapes exist and the last two entries stay 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The game these weights were made for.
    pub game: Rules,
    /// Multiplies a cell's attack value (the mover's shapes it makes).
    pub attack: f64,
    /// Multiplies a cell's defence value (the opponent's shapes it breaks).
    pub defence: f64,
    /// Added for the side whose shapes they are.
    pub own: [f64; 7],
    /// Counted for the opponent's shapes (subtracted in a board value).
    pub opp: [f64; 7],
}

impl Weights {
    /// The number of shapes with weights for this game (5 or 7).
    pub fn shape_count(&self) -> usize {
        Shape::count(self.game.k)
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
            own: [1.0; 7],
            opp: [1.0; 7],
        };
        w.truncate_to_game();
        w
    }

    fn truncate_to_game(&mut self) {
        for i in self.shape_count()..7 {
            self.own[i] = 0.0;
            self.opp[i] = 0.0;
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
    /// `defence`, then `own.<shape>` and `opp.<shape>`.
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
        v
    }

    /// The tunable numbers as a flat vector (same order as
    /// [`Weights::named_values`]).
    pub fn to_vec(&self) -> Vec<f64> {
        self.named_values().into_iter().map(|(_, v)| v).collect()
    }

    /// Rebuilds weights from [`Weights::to_vec`]'s order.
    pub fn from_vec(game: Rules, v: &[f64]) -> Option<Weights> {
        let n = Shape::count(game.k);
        if v.len() != 2 + 2 * n {
            return None;
        }
        let mut w = Weights::flat(game);
        w.attack = v[0];
        w.defence = v[1];
        w.own[..n].copy_from_slice(&v[2..2 + n]);
        w.opp[..n].copy_from_slice(&v[2 + n..2 + 2 * n]);
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

    /// Parses the TOML form; `path` names the source in errors.
    pub fn from_toml(text: &str, path: &str) -> Result<Weights, WeightsError> {
        let value: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| WeightsError::Toml {
                path: path.to_string(),
                message: e.to_string().trim().to_string(),
            })?;
        let field = |field: &str, message: String| WeightsError::Field {
            path: path.to_string(),
            field: field.to_string(),
            message,
        };
        for key in value.keys() {
            if !["attack", "defence", "game", "own", "opp", "name", "note"].contains(&key.as_str())
            {
                return Err(field(
                    key,
                    "unknown key: expected attack, defence, [game], [own], [opp], name or note"
                        .into(),
                ));
            }
        }
        let game = value
            .get("game")
            .and_then(|g| g.as_table())
            .ok_or_else(|| {
                field(
                    "game",
                    "missing [game] table (width, height, k, rule)".into(),
                )
            })?;
        let int = |key: &str| -> Result<u32, WeightsError> {
            let name = format!("game.{key}");
            match game.get(key) {
                Some(toml::Value::Integer(i)) if (0..=1000).contains(i) => Ok(*i as u32),
                Some(v) => Err(field(
                    &name,
                    format!("expected a small whole number, found {v}"),
                )),
                None => Err(field(&name, "missing".into())),
            }
        };
        let rule = match game.get("rule") {
            None => Rule::Freestyle,
            Some(toml::Value::String(s)) => s
                .parse::<Rule>()
                .map_err(|e| field("game.rule", e.to_string()))?,
            Some(v) => {
                return Err(field(
                    "game.rule",
                    format!("expected \"freestyle\" or \"exact\", found {v}"),
                ))
            }
        };
        let rules = Rules::new(int("width")?, int("height")?, int("k")?, rule)
            .map_err(|e| field("game", e.to_string()))?;
        let num = |v: Option<&toml::Value>, name: &str| -> Result<f64, WeightsError> {
            let x = match v {
                Some(toml::Value::Integer(i)) => *i as f64,
                Some(toml::Value::Float(f)) => *f,
                Some(v) => return Err(field(name, format!("expected a number, found {v}"))),
                None => return Err(field(name, "missing".into())),
            };
            check_value(path, name, x)?;
            Ok(x)
        };
        let mut w = Weights::flat(rules);
        w.attack = num(value.get("attack"), "attack")?;
        w.defence = num(value.get("defence"), "defence")?;
        let n = Shape::count(rules.k);
        let names: Vec<String> = SHAPES[..n].iter().map(|s| s.name(rules.k)).collect();
        for (side, slot) in [("own", &mut w.own), ("opp", &mut w.opp)] {
            let t = value.get(side).and_then(|t| t.as_table()).ok_or_else(|| {
                field(
                    side,
                    format!("missing [{side}] table with {}", names.join(", ")),
                )
            })?;
            for key in t.keys() {
                if !names.contains(key) {
                    return Err(field(
                        &format!("{side}.{key}"),
                        format!(
                            "not a shape of k = {}: expected one of {}",
                            rules.k,
                            names.join(", ")
                        ),
                    ));
                }
            }
            for (i, name) in names.iter().enumerate() {
                slot[i] = num(t.get(name), &format!("{side}.{name}"))?;
            }
        }
        Ok(w)
    }

    /// The TOML form, with comments saying what every number means.
    pub fn to_toml(&self, title: &str) -> String {
        let k = self.game.k;
        let mut s = String::new();
        let _ = writeln!(s, "# {title}");
        let _ = writeln!(
            s,
            "# mnk weight set. A cell's score for the side to move is"
        );
        let _ = writeln!(
            s,
            "#   attack * (sum of own weights of the shapes a stone there makes for the mover)"
        );
        let _ = writeln!(
            s,
            "# + defence * (sum of opp weights of the shapes it would make for the opponent),"
        );
        let _ = writeln!(
            s,
            "# over the 4 lines through the cell. A board is valued as the mover's own-weighted"
        );
        let _ = writeln!(
            s,
            "# shapes minus the opponent's opp-weighted shapes. Weights are 0 to 1e9."
        );
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "attack = {}   # multiplies a cell's attack value",
            fmt_num(self.attack)
        );
        let _ = writeln!(
            s,
            "defence = {}   # multiplies a cell's defence value",
            fmt_num(self.defence)
        );
        let _ = writeln!(s);
        let _ = writeln!(s, "[game]   # the game these weights were made for");
        let _ = writeln!(s, "width = {}", self.game.width);
        let _ = writeln!(s, "height = {}", self.game.height);
        let _ = writeln!(s, "k = {k}");
        let _ = writeln!(s, "rule = \"{}\"", self.game.rule);
        for (side, vals, what) in [
            ("own", &self.own, "the mover's own shapes (added)"),
            (
                "opp",
                &self.opp,
                "the opponent's shapes (subtracted; blocking them is worth this)",
            ),
        ] {
            let _ = writeln!(s);
            let _ = writeln!(s, "[{side}]   # {what}");
            for (i, shape) in SHAPES[..self.shape_count()].iter().enumerate() {
                let _ = writeln!(
                    s,
                    "{} = {}   # {}",
                    shape.name(k),
                    fmt_num(vals[i]),
                    describe(*shape, k)
                );
            }
        }
        s
    }

    /// Writes the TOML form atomically (temporary file, then rename).
    pub fn save(&self, path: &Path, title: &str) -> std::io::Result<()> {
        crate::util::write_atomic(path, self.to_toml(title).as_bytes())
    }

    /// Parses the original program's `ChessboardValue.txt`: whitespace-
    /// separated integers `attack defence` then `own opp` per shape, strongest
    /// first (16 numbers for k ≥ 4, 12 for k = 3).
    pub fn from_txt(text: &str, path: &str, game: Rules) -> Result<Weights, WeightsError> {
        let n = Shape::count(game.k);
        let want = 2 + 2 * n;
        let names = txt_names(game.k);
        let mut nums = Vec::with_capacity(want);
        for (ln, line) in text.lines().enumerate() {
            for tok in line.split_whitespace() {
                let err = |message: String| WeightsError::Txt {
                    path: path.to_string(),
                    line: ln + 1,
                    message,
                };
                if nums.len() == want {
                    return Err(err(format!(
                        "extra number {tok:?}: expected exactly {want} numbers"
                    )));
                }
                let field = &names[nums.len()];
                let v: i64 = tok
                    .parse()
                    .map_err(|_| err(format!("{field}: expected an integer, found {tok:?}")))?;
                let v = v as f64;
                if !(0.0..=MAX_WEIGHT).contains(&v) {
                    return Err(err(format!(
                        "{field}: {tok} is out of range 0 to {MAX_WEIGHT:e}"
                    )));
                }
                nums.push(v);
            }
        }
        if nums.len() != want {
            return Err(WeightsError::Txt {
                path: path.to_string(),
                line: text.lines().count().max(1),
                message: format!(
                    "found {} numbers, expected {want} ({}); missing {}",
                    nums.len(),
                    names.join(" "),
                    names[nums.len()]
                ),
            });
        }
        let mut w = Weights::flat(game);
        w.attack = nums[0];
        w.defence = nums[1];
        for i in 0..n {
            w.own[i] = nums[2 + 2 * i];
            w.opp[i] = nums[3 + 2 * i];
        }
        Ok(w)
    }

    /// The `ChessboardValue.txt` form: one line of integers. Fails if a
    /// weight does not fit the original program's 32-bit integers.
    pub fn to_txt(&self) -> Result<String, WeightsError> {
        let names = txt_names(self.game.k);
        let mut vals = vec![self.attack, self.defence];
        for i in 0..self.shape_count() {
            vals.push(self.own[i]);
            vals.push(self.opp[i]);
        }
        let mut out = Vec::new();
        for (name, v) in names.iter().zip(vals) {
            let r = v.round();
            if r > i32::MAX as f64 {
                return Err(WeightsError::Field {
                    path: "ChessboardValue.txt".into(),
                    field: name.clone(),
                    message: format!("{v} does not fit the format's 32-bit integers"),
                });
            }
            out.push(format!("{}", r as i64));
        }
        Ok(out.join(" ") + "\n")
    }
}

/// Field names of the txt format, for error messages.
fn txt_names(k: u8) -> Vec<String> {
    let mut v = vec!["attack".to_string(), "defence".to_string()];
    for s in &SHAPES[..Shape::count(k)] {
        let base = if k == 5 {
            match s {
                Shape::Win => "five".to_string(),
                Shape::Closed1 => "four".to_string(),
                Shape::Closed2 => "three".to_string(),
                Shape::Closed3 => "two".to_string(),
                _ => s.name(k),
            }
        } else {
            s.name(k)
        };
        v.push(format!("{base}_own"));
        v.push(format!("{base}_opp"));
    }
    v
}

fn describe(s: Shape, k: u8) -> String {
    match s {
        Shape::Win => format!("{k} in a row"),
        Shape::Open1 => "two empty cells would each complete a win (unstoppable)".into(),
        Shape::Closed1 => "exactly one empty cell would complete a win".into(),
        Shape::Open2 => format!("one move makes an open{}", k - 1),
        Shape::Closed2 => format!("one move makes a closed{} but no open{}", k - 1, k - 1),
        Shape::Open3 => format!("one move makes an open{}", k - 2),
        Shape::Closed3 => format!("one move makes a closed{} but no open{}", k - 2, k - 2),
        Shape::None => String::new(),
    }
}

fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:?}")
    }
}

fn check_value(path: &str, name: &str, v: f64) -> Result<(), WeightsError> {
    if !v.is_finite() || !(0.0..=MAX_WEIGHT).contains(&v) {
        return Err(WeightsError::Field {
            path: path.to_string(),
            field: name.to_string(),
            message: format!("{v} is out of range: expected a number from 0 to {MAX_WEIGHT:e}"),
        });
    }
    Ok(())
}

/// The shipped weights for a game: `weights/gomoku.toml` for k = 5 and
/// `weights/tictactoe.toml` for k = 3 (re-declared for the board at hand),
/// else [`Weights::default_for`]. They are compiled into the binary, so
/// they work from any directory.
pub fn shipped_weights(rules: Rules) -> Weights {
    const GOMOKU: &str = include_str!("../../weights/gomoku.toml");
    const TICTACTOE: &str = include_str!("../../weights/tictactoe.toml");
    let text = match rules.k {
        5 => GOMOKU,
        3 => TICTACTOE,
        _ => return Weights::default_for(rules),
    };
    match Weights::from_toml(text, "shipped weights") {
        Ok(w) => w.for_game(rules),
        // Unreachable: the shipped files are tested; fall back regardless.
        Err(_) => Weights::default_for(rules),
    }
}
