//! The original program's 16-number `ChessboardValue.txt`: import (which
//! brings a group that is too large into mnk's range by a power of ten) and
//! export (which scales each group to integers with enough digits, or
//! refuses), with the notes both print.

use super::{Weights, WeightsError, MAX_WEIGHT};
use crate::eval::shape::{Shape, SHAPES};
use crate::game::Rules;

impl Weights {
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
    /// use mnk_core::eval::{shipped_weights, Weights};
    /// use mnk_core::game::Rules;
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
        if self.combo.is_some() {
            return Err(WeightsError::TxtModel {
                model: self.model(),
                combos: 2 * self.combo_count(),
            });
        }
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
