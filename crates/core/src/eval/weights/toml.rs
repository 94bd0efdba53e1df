//! The TOML form of a weight set: parsing with errors that name the key,
//! and writing with a comment saying what every number means.

use super::{check_value, ComboWeights, Model, Weights, WeightsError};
use crate::eval::combo::Combo;
use crate::eval::shape::{Shape, SHAPES};
use crate::game::{Rule, Rules};
use std::fmt::Write as _;

impl Weights {
    /// Parses the TOML form; `path` names the source in errors.
    pub fn from_toml(text: &str, path: &str) -> Result<Weights, WeightsError> {
        let value: ::toml::Table =
            text.parse()
                .map_err(|e: ::toml::de::Error| WeightsError::Toml {
                    path: path.to_string(),
                    message: e.to_string().trim().to_string(),
                })?;
        let field = |field: &str, message: String| WeightsError::Field {
            path: path.to_string(),
            field: field.to_string(),
            message,
        };
        const KEYS: [&str; 10] = [
            "attack",
            "defence",
            "game",
            "own",
            "opp",
            "model",
            "own_combo",
            "opp_combo",
            "name",
            "note",
        ];
        for key in value.keys() {
            if !KEYS.contains(&key.as_str()) {
                return Err(field(
                    key,
                    "unknown key: expected attack, defence, [game], [own], [opp], model, \
                     [own_combo], [opp_combo], name or note"
                        .into(),
                ));
            }
        }
        let model = match value.get("model") {
            None => Model::Shapes,
            Some(::toml::Value::String(s)) => s.parse::<Model>().map_err(|e| field("model", e))?,
            Some(v) => {
                return Err(field(
                    "model",
                    format!("expected \"shapes\" or \"combo\", found {v}"),
                ))
            }
        };
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
                Some(::toml::Value::Integer(i)) if (0..=1000).contains(i) => Ok(*i as u32),
                Some(v) => Err(field(
                    &name,
                    format!("expected a small whole number, found {v}"),
                )),
                None => Err(field(&name, "missing".into())),
            }
        };
        let rule = match game.get("rule") {
            None => Rule::Freestyle,
            Some(::toml::Value::String(s)) => s
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
        let num = |v: Option<&::toml::Value>, name: &str| -> Result<f64, WeightsError> {
            let x = match v {
                Some(::toml::Value::Integer(i)) => *i as f64,
                Some(::toml::Value::Float(f)) => *f,
                Some(v) => return Err(field(name, format!("expected a number, found {v}"))),
                None => return Err(field(name, "missing".into())),
            };
            check_value(path, name, x)?;
            Ok(x)
        };
        let mut w = Weights::flat(rules).with_model(model);
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
        let combos: Vec<String> = Combo::WEIGHTED[..Combo::count(rules.k)]
            .iter()
            .map(|c| c.name(rules.k))
            .collect();
        let mut cw = ComboWeights::default();
        for (side, slot) in [("own_combo", &mut cw.own), ("opp_combo", &mut cw.opp)] {
            let t = match (value.get(side), model) {
                (None, Model::Shapes) => continue,
                (Some(_), Model::Shapes) => {
                    return Err(field(
                        side,
                        "combination weights belong to the combo model: add model = \"combo\" \
                         at the top, or remove the table"
                            .into(),
                    ))
                }
                (t, Model::Combo) => t.and_then(|t| t.as_table()).ok_or_else(|| {
                    field(
                        side,
                        format!(
                            "missing [{side}] table with {} (model = \"combo\")",
                            combos.join(", ")
                        ),
                    )
                })?,
            };
            for key in t.keys() {
                if !combos.contains(key) {
                    return Err(field(
                        &format!("{side}.{key}"),
                        format!(
                            "not a combination of k = {}: expected one of {}",
                            rules.k,
                            combos.join(", ")
                        ),
                    ));
                }
            }
            for (i, name) in combos.iter().enumerate() {
                slot[i] = num(t.get(name), &format!("{side}.{name}"))?;
            }
        }
        if model == Model::Combo {
            w.combo = Some(cw);
        }
        Ok(w)
    }

    /// The TOML form, with comments saying what every number means.
    pub fn to_toml(&self, title: &str) -> String {
        let k = self.game.k;
        let mut s = String::new();
        for line in title.lines() {
            let _ = writeln!(s, "# {line}");
        }
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
        if self.combo.is_some() {
            let _ = writeln!(
                s,
                "# The combo model adds, once per side, the weight of the combination a"
            );
            let _ = writeln!(
                s,
                "# stone there makes across its 4 lines ([own_combo] to the attack value,"
            );
            let _ = writeln!(
                s,
                "# [opp_combo] to the defence value), and to a board value per stone that has one."
            );
            let _ = writeln!(
                s,
                "# A cell whose stone makes one closed four is charged defence x [opp_combo] of"
            );
            let _ = writeln!(
                s,
                "# the combination the opponent's forced block makes (the cell's reply)."
            );
            let _ = writeln!(s);
            let _ = writeln!(s, "model = \"combo\"   # shapes plus combination weights");
        } else {
            let _ = writeln!(s);
        }
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
        if let Some(c) = &self.combo {
            for (side, vals, what) in [
                (
                    "own_combo",
                    &c.own,
                    "the mover's combinations at a cell (added)",
                ),
                (
                    "opp_combo",
                    &c.opp,
                    "the opponent's combinations at a cell (taking the cell is worth this)",
                ),
            ] {
                let _ = writeln!(s);
                let _ = writeln!(s, "[{side}]   # {what}");
                for (i, combo) in Combo::WEIGHTED[..self.combo_count()].iter().enumerate() {
                    let _ = writeln!(
                        s,
                        "{} = {}   # {}",
                        combo.name(k),
                        fmt_num(vals[i]),
                        combo.describe(k)
                    );
                }
            }
        }
        s
    }
}

fn describe(s: Shape, k: u8) -> String {
    match s {
        Shape::Win => format!("{k} in a row"),
        Shape::OpenIn1 => "two empty cells would each complete a win (unstoppable)".into(),
        Shape::ClosedIn1 => "exactly one empty cell would complete a win".into(),
        Shape::OpenIn2 => format!("one move makes an open{}", k - 1),
        Shape::ClosedIn2 => format!("one move makes a closed{} but no open{}", k - 1, k - 1),
        Shape::OpenIn3 => format!("one move makes an open{}", k - 2),
        Shape::ClosedIn3 => format!("one move makes a closed{} but no open{}", k - 2, k - 2),
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
