//! Weight sets: the tunable numbers of the evaluator, their TOML files and
//! the original program's 16-number `ChessboardValue.txt` format.
//!
//! The txt format holds 64-bit integers and mnk holds fractions from 0 to
//! [`MAX_WEIGHT`], so neither side can take the other's numbers as they
//! are. What carries over is what decides play: within each [`TxtGroup`]
//! only ratios matter, so export scales each group to integers with at
//! least [`TXT_DIGITS`] significant digits (or refuses), and import divides
//! a group that is too large by a power of ten.

use super::shape::{Shape, SHAPES, WEIGHTED};
use crate::game::{Rule, Rules};
use std::fmt::Write as _;
use std::path::Path;

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
    /// The file's `[game]` is not the game being played.
    #[error(
        "{path}: made for {found}, but the game is {expected} (pass --any-game to use it anyway)"
    )]
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

/// A weight set for one game.
///
/// `own[i]` and `opp[i]` are the weights of `SHAPES[i]`; for k = 3 only the
/// first five shapes exist and the last two entries stay 0.
///
/// ```
/// use mnk::eval::{Shape, Weights, SHAPES};
/// use mnk::game::Rules;
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
}

impl Weights {
    /// The number of shapes with weights for this game (5 or 7).
    pub fn shape_count(&self) -> usize {
        Shape::count(self.game.k)
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
        };
        w.truncate_to_game();
        w
    }

    fn truncate_to_game(&mut self) {
        for i in self.shape_count()..WEIGHTED {
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

    /// Parses the original program's `ChessboardValue.txt` and brings it
    /// into mnk's range; see [`Weights::import_txt`].
    pub fn from_txt(text: &str, path: &str, game: Rules) -> Result<Weights, WeightsError> {
        Ok(Weights::import_txt(text, path, game)?.weights)
    }

    /// Parses the original program's `ChessboardValue.txt`: whitespace-
    /// separated integers `attack defence` then `own opp` per shape, strongest
    /// first (16 numbers for k ≥ 4, 12 for k = 3). Each may be any integer
    /// from 0 to `i64::MAX` (the original reads them as `long long`, and its
    /// trainer lets them grow far beyond [`MAX_WEIGHT`]).
    ///
    /// Only ratios within a [`TxtGroup`] matter, so a group whose largest
    /// number exceeds [`MAX_WEIGHT`] is divided by the smallest power of ten
    /// that brings it into range ([`TxtImport::divided_by`]); a group already
    /// in range is kept as read. Dividing the attack/defence group scales
    /// every cell score; dividing the shape group scales both of a cell's
    /// values and the board value. So the greedy argmax, the search's
    /// candidates and the order of its values are unchanged, and the board
    /// value stays below `4 × MAX_WEIGHT × cells`, far from the search's
    /// mate scores (`WIN` = 1e15), which raw numbers of 1e13 and more could
    /// reach. Numbers above 2^53 keep the 16 significant digits an
    /// `f64` holds.
    pub fn import_txt(text: &str, path: &str, game: Rules) -> Result<TxtImport, WeightsError> {
        let n = Shape::count(game.k);
        let want = 2 + 2 * n;
        let names = txt_names(game.k);
        let mut nums: Vec<i64> = Vec::with_capacity(want);
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
                let v: i64 = tok.parse().map_err(|e: std::num::ParseIntError| {
                    err(match e.kind() {
                        std::num::IntErrorKind::PosOverflow => format!(
                            "{field}: {tok} is above {}, the largest 64-bit integer",
                            i64::MAX
                        ),
                        std::num::IntErrorKind::NegOverflow => {
                            format!("{field}: {tok} is negative: expected 0 to {}", i64::MAX)
                        }
                        _ => format!(
                            "{field}: expected a whole number from 0 to {}, found {tok:?}",
                            i64::MAX
                        ),
                    })
                })?;
                if v < 0 {
                    return Err(err(format!(
                        "{field}: {tok} is negative: expected 0 to {}",
                        i64::MAX
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
        let mut divided_by = [0u32; 2];
        let mut vals = vec![0.0; want];
        for (g, group) in TxtGroup::ALL.into_iter().enumerate() {
            let members = group.members(want);
            let max = members.clone().map(|i| nums[i]).max().unwrap_or(0);
            // The smallest q with max ≤ MAX_WEIGHT × 10^q: at most 10, as
            // i64::MAX < 1e19.
            let q = (0..=10u32)
                .find(|&q| i128::from(max) <= MAX_WEIGHT as i128 * 10i128.pow(q))
                .unwrap_or(10);
            divided_by[g] = q;
            for i in members {
                // The f64 nearest the exact decimal nums[i] / 10^q (parsing
                // is correctly rounded; converting a number above 2^53 to
                // f64 and then dividing would round twice), so it prints
                // back as the file's digits when they are at most 15.
                vals[i] = format!("{}e-{q}", nums[i]).parse().map_err(
                    |e: std::num::ParseFloatError| WeightsError::Field {
                        path: path.to_string(),
                        field: names[i].clone(),
                        message: format!("{} / 1e{q}: {e}", nums[i]),
                    },
                )?;
            }
        }
        let mut w = Weights::flat(game);
        w.attack = vals[0];
        w.defence = vals[1];
        for i in 0..n {
            w.own[i] = vals[2 + 2 * i];
            w.opp[i] = vals[3 + 2 * i];
        }
        Ok(TxtImport {
            weights: w,
            numbers: nums,
            divided_by,
        })
    }

    /// The `ChessboardValue.txt` form, as text; see [`Weights::export_txt`].
    pub fn to_txt(&self) -> Result<String, WeightsError> {
        Ok(self.export_txt()?.text())
    }

    /// The `ChessboardValue.txt` form: integers that choose the same moves.
    ///
    /// Only ratios within a [`TxtGroup`] matter, so each group is multiplied
    /// by one power of ten, 10^p, and the products are written as integers:
    /// - p is the smallest that writes every number of the group exactly
    ///   (as its shortest decimal, the one that reads back as the same
    ///   `f64`), unless a smaller p already writes the group's smallest
    ///   nonzero number with [`TXT_DIGITS`] (9) significant digits; then
    ///   that smaller p is used and every product is rounded to the nearest
    ///   integer, so each nonzero number keeps at least 9 significant digits
    ///   (relative error ≤ 5e-9). A group of whole numbers is written as it
    ///   is.
    /// - The smallest such p keeps the integers as short as the precision
    ///   allows, leaving the original program's 64-bit arithmetic as much
    ///   room as possible ([`TxtExport::original_cell_score_bound`]).
    /// - 0 stays 0; a group of zeros is written as zeros.
    ///
    /// Fails with [`WeightsError::TxtRange`] when the largest product does
    /// not fit a signed 64-bit integer: the group's largest / smallest
    /// nonzero number is then above about 9.2e9 (always fine below it).
    ///
    /// ```
    /// use mnk::eval::{shipped_weights, Weights};
    /// use mnk::game::Rules;
    /// let mut w = shipped_weights(Rules::GOMOKU);
    /// (w.attack, w.defence) = (0.6381726354819273, 0.2823746102934);
    /// let txt = w.to_txt().unwrap();
    /// // attack and defence to 9 digits; the whole shape weights as they are.
    /// assert!(txt.starts_with("638172635 282374610 10000000 1000000 100000 "));
    /// let back = Weights::from_txt(&txt, "back.txt", Rules::GOMOKU).unwrap();
    /// assert_eq!((back.attack, back.defence), (638172635.0, 282374610.0));
    /// assert_eq!(back.own, w.own);
    /// ```
    pub fn export_txt(&self) -> Result<TxtExport, WeightsError> {
        let named = self.txt_named_values();
        for (name, v) in &named {
            if !v.is_finite() || *v < 0.0 {
                return Err(WeightsError::Field {
                    path: "weights".into(),
                    field: name.clone(),
                    message: format!("{v} cannot be exported: expected a number from 0 up"),
                });
            }
        }
        let mut numbers = vec![0i64; named.len()];
        let mut scales = [GroupScale {
            exp: 0,
            exact: true,
        }; 2];
        for (g, group) in TxtGroup::ALL.into_iter().enumerate() {
            let members: Vec<usize> = group.members(named.len()).collect();
            let dec: Vec<(u64, i32)> = members
                .iter()
                .map(|&i| shortest_decimal(named[i].1))
                .collect();
            let nonzero = || (0..members.len()).filter(|&j| dec[j].0 > 0);
            let Some(jmin) =
                nonzero().min_by(|&a, &b| named[members[a]].1.total_cmp(&named[members[b]].1))
            else {
                continue; // all zero: written as zeros
            };
            let jmax = nonzero()
                .max_by(|&a, &b| named[members[a]].1.total_cmp(&named[members[b]].1))
                .unwrap_or(jmin);
            let p_exact = nonzero().map(|j| -dec[j].1).max().unwrap_or(0).max(0);
            // The smallest nonzero number is in [10^e, 10^(e+1)); times
            // 10^(TXT_DIGITS − 1 − e) it has TXT_DIGITS digits.
            let (d, e) = dec[jmin];
            let magnitude = e + digit_count(d) as i32 - 1;
            let p_digits = (TXT_DIGITS as i32 - 1 - magnitude).max(0);
            let p = p_exact.min(p_digits);
            scales[g].exp = p as u32;
            for (j, &i) in members.iter().enumerate() {
                let scaled = scale_decimal(dec[j].0, dec[j].1 + p);
                match scaled {
                    Some((n, exact)) if n <= i64::MAX as u128 => {
                        numbers[i] = n as i64;
                        scales[g].exact &= exact;
                    }
                    _ => {
                        let (min, max) = (named[members[jmin]].1, named[members[jmax]].1);
                        return Err(WeightsError::TxtRange {
                            group,
                            smallest: named[members[jmin]].0.clone(),
                            min,
                            largest: named[members[jmax]].0.clone(),
                            max,
                            ratio: max / min,
                            exp: p as u32,
                            scaled: max * 10f64.powi(p),
                        });
                    }
                }
            }
        }
        Ok(TxtExport { numbers, scales })
    }

    /// Every number with its TOML name, in `ChessboardValue.txt` order.
    /// (The txt format interleaves each shape's `own` and `opp`, where
    /// [`Weights::named_values`] lists every `own` first.)
    fn txt_named_values(&self) -> Vec<(String, f64)> {
        let v = self.named_values();
        let n = self.shape_count();
        let mut out = v[..2].to_vec();
        for i in 0..n {
            out.push(v[2 + i].clone());
            out.push(v[2 + n + i].clone());
        }
        out
    }
}

/// Significant digits every nonzero number keeps in a `ChessboardValue.txt`
/// export.
pub const TXT_DIGITS: u32 = 9;

/// The two groups of a weight set whose numbers only matter as ratios. A
/// cell's score is `attack × A + defence × D` with A and D sums of shape
/// weights: scaling `attack` and `defence` together scales every score,
/// and scaling every shape weight together scales A and D, so either way
/// the best cell is the same. The search's board value uses the shape
/// weights only, so it scales with them and keeps its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxtGroup {
    /// `attack` and `defence`.
    AttackDefence,
    /// Every `own` and `opp` shape weight.
    Shapes,
}

impl TxtGroup {
    /// Both groups, in file order.
    pub const ALL: [TxtGroup; 2] = [TxtGroup::AttackDefence, TxtGroup::Shapes];

    /// The positions of this group's numbers in a file of `len` numbers.
    fn members(self, len: usize) -> std::ops::Range<usize> {
        match self {
            TxtGroup::AttackDefence => 0..2.min(len),
            TxtGroup::Shapes => 2.min(len)..len,
        }
    }
}

impl std::fmt::Display for TxtGroup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TxtGroup::AttackDefence => "attack and defence",
            TxtGroup::Shapes => "shape weights (own and opp)",
        })
    }
}

/// How [`Weights::export_txt`] wrote one [`TxtGroup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupScale {
    /// Every number of the group was multiplied by 10^exp.
    pub exp: u32,
    /// Whether every product was a whole number (else each was rounded to
    /// the nearest, keeping at least [`TXT_DIGITS`] significant digits).
    pub exact: bool,
}

/// A weight set in the `ChessboardValue.txt` form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxtExport {
    /// The integers in file order.
    pub numbers: Vec<i64>,
    /// How each group was scaled: `[attack and defence, shape weights]`.
    pub scales: [GroupScale; 2],
}

impl TxtExport {
    /// One line of integers.
    pub fn text(&self) -> String {
        let v: Vec<String> = self.numbers.iter().map(|n| n.to_string()).collect();
        v.join(" ") + "\n"
    }

    /// The largest cell score the original program could compute from these
    /// numbers, `attack × 4 × (largest own) + defence × 4 × (largest opp)`
    /// (a shape in each of the 4 lines through the cell). Above `i64::MAX`
    /// its 64-bit arithmetic could overflow on such a cell.
    pub fn original_cell_score_bound(&self) -> i128 {
        let n = &self.numbers;
        let max_of = |start: usize| {
            n.iter()
                .skip(start)
                .step_by(2)
                .map(|&v| v as i128)
                .max()
                .unwrap_or(0)
        };
        let (attack, defence) = (n[0] as i128, n[1] as i128);
        attack * 4 * max_of(2) + defence * 4 * max_of(3)
    }

    /// Lines saying how each group was scaled, for people; empty when
    /// every number was written as it is.
    pub fn notes(&self) -> Vec<String> {
        let mut v = Vec::new();
        for (group, s) in TxtGroup::ALL.into_iter().zip(self.scales) {
            if s.exp == 0 && s.exact {
                continue;
            }
            v.push(if s.exact {
                format!("{group} multiplied by 1e{}, exactly", s.exp)
            } else {
                format!(
                    "{group} multiplied by 1e{} and rounded to at least {TXT_DIGITS} significant digits",
                    s.exp
                )
            });
        }
        let bound = self.original_cell_score_bound();
        if bound > i64::MAX as i128 {
            v.push(format!(
                "the original program's cell score can reach {:.3e}, above 64 bits: it may overflow",
                bound as f64
            ));
        }
        v
    }
}

/// What [`Weights::import_txt`] read.
#[derive(Clone, Debug, PartialEq)]
pub struct TxtImport {
    /// The weights, every number in `0..=MAX_WEIGHT`.
    pub weights: Weights,
    /// The integers as read, in file order.
    pub numbers: Vec<i64>,
    /// Each group was divided by 10^this to fit `0..=MAX_WEIGHT`:
    /// `[attack and defence, shape weights]`.
    pub divided_by: [u32; 2],
}

impl TxtImport {
    /// Lines saying how each group was scaled, for people; empty when
    /// every number was kept as read.
    pub fn notes(&self) -> Vec<String> {
        let mut v = Vec::new();
        for (group, q) in TxtGroup::ALL.into_iter().zip(self.divided_by) {
            if q > 0 {
                v.push(format!(
                    "{group} divided by 1e{q} to fit mnk's range 0 to {MAX_WEIGHT:e} \
                     (only their ratios matter: same moves, same order of search values)"
                ));
            }
        }
        if self.numbers.iter().any(|&n| n > 1 << 53) {
            v.push("numbers above 2^53 keep an f64's 16 significant digits".into());
        }
        v
    }

    /// The TOML form, its comment naming the source, what was scaled and
    /// the numbers as read.
    pub fn to_toml(&self, source: &str) -> String {
        let mut title = format!("Imported from {source}.");
        for n in self.notes() {
            title += &format!("\nNote: {n}.");
        }
        let nums: Vec<String> = self.numbers.iter().map(|n| n.to_string()).collect();
        title += &format!("\nNumbers as read: {}", nums.join(" "));
        self.weights.to_toml(&title)
    }
}

/// A finite non-negative number as `(digits, exp)`, `digits × 10^exp`
/// being its shortest decimal that reads back as the same `f64` (0 is
/// `(0, 0)`).
fn shortest_decimal(v: f64) -> (u64, i32) {
    if v == 0.0 {
        return (0, 0);
    }
    // `{:e}` writes the shortest round-trip digits, e.g. `6.38e-1`.
    let s = format!("{v:e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // At most 17 digits: fits a u64.
    let digits: u64 = format!("{int}{frac}").parse().unwrap_or(0);
    (digits, exp - frac.len() as i32)
}

fn digit_count(d: u64) -> u32 {
    d.checked_ilog10().map_or(1, |l| l + 1)
}

/// `digits × 10^shift` rounded to the nearest integer (halves up), and
/// whether it was whole; `None` when it overflows 128 bits.
fn scale_decimal(digits: u64, shift: i32) -> Option<(u128, bool)> {
    let d = digits as u128;
    if shift >= 0 {
        return 10u128
            .checked_pow(shift as u32)?
            .checked_mul(d)
            .map(|n| (n, true));
    }
    let Some(q) = 10u128.checked_pow(shift.unsigned_abs()) else {
        return Some((0, d == 0));
    };
    Some(((d + q / 2) / q, d.is_multiple_of(q)))
}

/// Field names of the txt format, for error messages.
fn txt_names(k: u8) -> Vec<String> {
    let mut v = vec!["attack".to_string(), "defence".to_string()];
    for s in &SHAPES[..Shape::count(k)] {
        let base = if k == 5 {
            match s {
                Shape::Win => "five".to_string(),
                Shape::ClosedIn1 => "four".to_string(),
                Shape::ClosedIn2 => "three".to_string(),
                Shape::ClosedIn3 => "two".to_string(),
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

/// The search player's shipped weights for a game: on five in a row
/// (k = 5) `weights/gomoku-search.toml`, trained for the search player at
/// depth 4 (its header says how); elsewhere [`shipped_weights`]. Weights
/// trained for the search lose badly when the greedy player plays them,
/// so the greedy player keeps the hand-set `weights/gomoku.toml`.
///
/// ```
/// use mnk::eval::{shipped_search_weights, shipped_weights};
/// use mnk::game::Rules;
/// assert_ne!(shipped_search_weights(Rules::GOMOKU), shipped_weights(Rules::GOMOKU));
/// assert_eq!(shipped_search_weights(Rules::TICTACTOE), shipped_weights(Rules::TICTACTOE));
/// ```
pub fn shipped_search_weights(rules: Rules) -> Weights {
    const GOMOKU_SEARCH: &str = include_str!("../../weights/gomoku-search.toml");
    if rules.k != 5 {
        return shipped_weights(rules);
    }
    match Weights::from_toml(GOMOKU_SEARCH, "shipped search weights") {
        Ok(w) => w.for_game(rules),
        // Unreachable: the shipped files are tested; fall back regardless.
        Err(_) => shipped_weights(rules),
    }
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
