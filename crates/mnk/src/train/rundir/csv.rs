//! What the run's CSV files share: a column table that writes the header
//! and the rows, splitting a file into records, and reading a record's
//! fields by column name with `file:line: column …` errors.

use crate::arena::stats::{Pentanomial, Tally};
use crate::train::TrainError;
use std::collections::HashMap;
use std::path::Path;
use std::str::FromStr;

/// How a column is filled from a row; `None` leaves the field empty.
type Write<'a, T> = Box<dyn Fn(&T) -> Option<String> + 'a>;

/// One column of a CSV file: its name and how it is filled from a value of
/// type `T` (one row of the file).
pub(super) struct Column<'a, T, P = ()> {
    /// The name in the header.
    pub(super) name: String,
    /// The group the column belongs to (the file's own grouping; a reader
    /// uses it to ask whether a whole group is empty).
    pub(super) part: P,
    write: Write<'a, T>,
}

impl<'a, T, P> Column<'a, T, P> {
    /// A column named `name` in group `part`, filled by `write`.
    pub(super) fn new(
        name: impl Into<String>,
        part: P,
        write: impl Fn(&T) -> Option<String> + 'a,
    ) -> Column<'a, T, P> {
        Column {
            name: name.into(),
            part,
            write: Box::new(write),
        }
    }
}

/// The columns `{prefix}wins`, `{prefix}draws`, `{prefix}losses` of the
/// tally `get` finds in a row (empty where it finds none), as
/// [`Row::tally`] reads them.
pub(super) fn tally_columns<'a, T: 'a, P: Copy>(
    prefix: &str,
    part: P,
    get: impl Fn(&T) -> Option<&Tally> + Copy + 'a,
) -> [Column<'a, T, P>; 3] {
    let [wins, draws, losses] = tally_names(prefix);
    [
        Column::new(wins, part, move |r| Some(get(r)?.wins.to_string())),
        Column::new(draws, part, move |r| Some(get(r)?.draws.to_string())),
        Column::new(losses, part, move |r| Some(get(r)?.losses.to_string())),
    ]
}

/// The columns `{prefix}0` … `{prefix}4` of the pentanomial `get` finds in
/// a row (empty where it finds none), as [`Row::pentanomial`] reads them.
pub(super) fn pentanomial_columns<'a, T: 'a, P: Copy>(
    prefix: &str,
    part: P,
    get: impl Fn(&T) -> Option<&Pentanomial> + Copy + 'a,
) -> Vec<Column<'a, T, P>> {
    let names = pentanomial_names(prefix).into_iter().enumerate();
    names
        .map(|(i, name)| Column::new(name, part, move |r| Some(get(r)?.bins[i].to_string())))
        .collect()
}

/// The names of a table's columns, in order.
pub(super) fn names<T, P>(columns: &[Column<'_, T, P>]) -> Vec<String> {
    columns.iter().map(|c| c.name.clone()).collect()
}

/// The CSV line of one row.
pub(super) fn line<T, P>(columns: &[Column<'_, T, P>], row: &T) -> String {
    let fields: Vec<String> = columns
        .iter()
        .map(|c| (c.write)(row).unwrap_or_default())
        .collect();
    csv_line(&fields)
}

/// One CSV line ending in `\n`, fields quoted where CSV needs it.
pub(super) fn csv_line(fields: &[String]) -> String {
    let mut w = ::csv::WriterBuilder::new()
        .terminator(::csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Writing to a Vec cannot fail.
    let _ = w.write_record(fields);
    let _ = w.flush();
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Shortest text that reads back to the same number.
pub(super) fn float_text(v: f64) -> String {
    format!("{v}")
}

/// The error for a damaged line of a CSV file of the run.
pub(super) fn corrupt(path: &Path, line: usize, message: impl Into<String>) -> TrainError {
    TrainError::Corrupt {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

/// A CSV record and its 1-based line number.
pub(super) type Record = (usize, Vec<String>);

/// Splits CSV text into records, each with its 1-based line number.
/// The text must end with a newline (a missing one means a cut file).
pub(super) fn csv_rows(text: &str, path: &Path) -> Result<Vec<Record>, TrainError> {
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(corrupt(
            path,
            text.lines().count(),
            "the last line is incomplete (the file was cut short)",
        ));
    }
    let mut rdr = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            corrupt(path, line, format!("not valid CSV: {e}"))
        })?;
        let line = rec.position().map_or(0, |p| p.line() as usize);
        out.push((line, rec.iter().map(str::to_string).collect()));
    }
    Ok(out)
}

/// Parses the field of column `name` on `line`.
pub(super) fn parse_field<T: FromStr>(
    path: &Path,
    line: usize,
    name: &str,
    text: &str,
) -> Result<T, TrainError> {
    text.trim().parse().map_err(|_| {
        corrupt(
            path,
            line,
            format!("column {name}: {text:?} is not a valid value"),
        )
    })
}

/// The names of the columns `{prefix}wins`, `{prefix}draws`,
/// `{prefix}losses` of a [`Tally`].
fn tally_names(prefix: &str) -> [String; 3] {
    ["wins", "draws", "losses"].map(|f| format!("{prefix}{f}"))
}

/// The names of the columns `{prefix}0` … `{prefix}4` of a
/// [`Pentanomial`].
fn pentanomial_names(prefix: &str) -> [String; 5] {
    std::array::from_fn(|i| format!("{prefix}{i}"))
}

/// Where each column of a header is.
pub(super) struct Header {
    index: HashMap<String, usize>,
    len: usize,
}

impl Header {
    /// The header `names` (the file's header once checked against them).
    pub(super) fn new(names: &[String]) -> Header {
        let mut index = HashMap::with_capacity(names.len());
        for (i, n) in names.iter().enumerate() {
            // The first of equal names, as a search from the left finds.
            index.entry(n.clone()).or_insert(i);
        }
        Header {
            index,
            len: names.len(),
        }
    }
}

/// One record of a CSV file of the run under a checked header, read by
/// column name.
pub(super) struct Row<'a> {
    path: &'a Path,
    line: usize,
    header: &'a Header,
    rec: &'a [String],
}

impl<'a> Row<'a> {
    /// Record `rec` on `line`, which must have as many fields as `header`
    /// has columns.
    pub(super) fn new(
        path: &'a Path,
        line: usize,
        header: &'a Header,
        rec: &'a [String],
    ) -> Result<Row<'a>, TrainError> {
        if rec.len() != header.len {
            return Err(corrupt(
                path,
                line,
                format!(
                    "{} fields, expected {} (the row is cut or damaged)",
                    rec.len(),
                    header.len
                ),
            ));
        }
        Ok(Row {
            path,
            line,
            header,
            rec,
        })
    }

    /// The error for this row.
    pub(super) fn corrupt(&self, message: impl Into<String>) -> TrainError {
        corrupt(self.path, self.line, message)
    }

    /// The field of column `name` as written (empty if there is no such
    /// column).
    pub(super) fn text(&self, name: &str) -> &'a str {
        self.header
            .index
            .get(name)
            .map_or("", |&i| self.rec[i].as_str())
    }

    /// The field of column `name`, parsed.
    pub(super) fn req<T: FromStr>(&self, name: &str) -> Result<T, TrainError> {
        parse_field(self.path, self.line, name, self.text(name))
    }

    /// The field of column `name`, parsed; `None` for an empty field.
    pub(super) fn opt<T: FromStr>(&self, name: &str) -> Result<Option<T>, TrainError> {
        let t = self.text(name);
        if t.trim().is_empty() {
            Ok(None)
        } else {
            parse_field(self.path, self.line, name, t).map(Some)
        }
    }

    /// The number in column `name`, which must be finite and within
    /// `range` (a file edited to `nan` or out of range is refused, never
    /// trained on or written back).
    pub(super) fn number(
        &self,
        name: &str,
        range: std::ops::RangeInclusive<f64>,
    ) -> Result<f64, TrainError> {
        let x: f64 = self.req(name)?;
        if !(x.is_finite() && range.contains(&x)) {
            let (low, high) = (range.start(), range.end());
            let within = if *high == f64::MAX {
                format!("{low} or more")
            } else {
                format!("from {low} to {high}")
            };
            return Err(self.corrupt(format!(
                "column {name}: {x} is not a finite number {within}"
            )));
        }
        Ok(x)
    }

    /// Checks that column `name`, a figure written for the reader and
    /// derived from the row's counts, holds `expected` (to rounding): a
    /// hand-edited figure would contradict the counts it is read with.
    pub(super) fn derived(&self, name: &str, expected: f64) -> Result<(), TrainError> {
        let x: f64 = self.req(name)?;
        let close = x == expected
            || (x.is_nan() && expected.is_nan())
            || (x - expected).abs() <= 1e-9 * expected.abs().max(1.0);
        if !close {
            return Err(self.corrupt(format!(
                "column {name}: {x} does not follow from the row's counts ({expected})"
            )));
        }
        Ok(())
    }

    /// Whether every one of these columns is empty.
    pub(super) fn all_empty<'n>(&self, mut names: impl Iterator<Item = &'n str>) -> bool {
        names.all(|n| self.text(n).trim().is_empty())
    }

    /// The columns `{prefix}0` … `{prefix}4` as a pentanomial.
    pub(super) fn pentanomial(&self, prefix: &str) -> Result<Pentanomial, TrainError> {
        let mut bins = [0u64; 5];
        for (b, name) in bins.iter_mut().zip(pentanomial_names(prefix)) {
            *b = self.req(&name)?;
        }
        Ok(Pentanomial::new(bins))
    }

    /// The columns `{prefix}wins`, `{prefix}draws`, `{prefix}losses` as a
    /// tally.
    pub(super) fn tally(&self, prefix: &str) -> Result<Tally, TrainError> {
        let [wins, draws, losses] = tally_names(prefix);
        Ok(Tally::new(
            self.req(&wins)?,
            self.req(&draws)?,
            self.req(&losses)?,
        ))
    }
}
