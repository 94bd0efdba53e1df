//! The `checks.csv` file of a run folder: one column table per layout
//! ([`exact_columns`], [`match_columns`]) that writes its header and rows
//! and names the fields its reader reads.
//!
//! On boards the exact player solves, one row per check:
//! `round,positions,agreement,agreement_all_ties,lost_lines,lost_as_black,lost_as_white,no_loss_depth`
//! (agreement as a fraction; `no_loss_depth` is 1 to 4 or `none`; see
//! [`ExactCheck`]).
//!
//! On large boards, one row per reference:
//! `round,reference,games,wins,draws,losses,ptnml_0,ptnml_1,ptnml_2,ptnml_3,ptnml_4,score,elo,elo_lo,elo_hi`
//! (the trained player's view; `ptnml_i` counts opening pairs where it
//! scored i/2 points; Elo and the 95% interval are pentanomial).

use super::csv::{
    corrupt, csv_line, csv_rows, float_text, line, names, pentanomial_columns, tally_columns,
    Column, Header, Row,
};
use crate::arena::stats::PairedTally;
use crate::train::{Check, CheckRow, ExactCheck, RefCheck, TrainError};
use std::path::Path;

/// One line of `checks.csv`: a check result and the round it followed.
struct Line<'a, C> {
    round: u32,
    check: &'a C,
}

type CheckColumn<'a, C> = Column<'a, Line<'a, C>>;

/// A column of the exact layout, filled by `write`.
fn exact<'a>(
    name: &str,
    write: impl Fn(&Line<'a, ExactCheck>) -> Option<String> + 'a,
) -> CheckColumn<'a, ExactCheck> {
    Column::new(name, (), write)
}

/// A column of the match layout, filled by `write`.
fn versus<'a>(
    name: &str,
    write: impl Fn(&Line<'a, RefCheck>) -> Option<String> + 'a,
) -> CheckColumn<'a, RefCheck> {
    Column::new(name, (), write)
}

/// The prefix of the pentanomial columns.
const PTNML: &str = "ptnml_";

/// The columns of an exact check (small boards), in file order.
fn exact_columns<'a>() -> Vec<CheckColumn<'a, ExactCheck>> {
    vec![
        exact("round", |l| Some(l.round.to_string())),
        exact("positions", |l| Some(l.check.positions.to_string())),
        exact("agreement", |l| Some(float_text(l.check.agreement))),
        exact("agreement_all_ties", |l| {
            Some(float_text(l.check.agreement_all_ties))
        }),
        exact("lost_lines", |l| Some(l.check.lost_lines().to_string())),
        exact("lost_as_black", |l| Some(l.check.lost_as_black.to_string())),
        exact("lost_as_white", |l| Some(l.check.lost_as_white.to_string())),
        exact("no_loss_depth", |l| {
            Some(
                l.check
                    .no_loss_depth
                    .map_or("none".into(), |d| d.to_string()),
            )
        }),
    ]
}

/// The columns of a match against one reference (large boards), in file
/// order.
fn match_columns<'a>() -> Vec<CheckColumn<'a, RefCheck>> {
    let mut c = vec![
        versus("round", |l| Some(l.round.to_string())),
        versus("reference", |l| Some(l.check.reference.clone())),
        versus("games", |l| Some(l.check.tally.games.games().to_string())),
    ];
    c.extend(tally_columns("", (), |l: &Line<'a, RefCheck>| {
        Some(&l.check.tally.games)
    }));
    c.extend(pentanomial_columns(PTNML, (), |l: &Line<'a, RefCheck>| {
        Some(&l.check.tally.pairs)
    }));
    c.extend([
        versus("score", |l| Some(float_text(l.check.tally.games.score()))),
        versus("elo", |l| Some(float_text(l.check.tally.pairs.elo()))),
        versus("elo_lo", |l| {
            Some(float_text(l.check.tally.pairs.elo_interval95().0))
        }),
        versus("elo_hi", |l| {
            Some(float_text(l.check.tally.pairs.elo_interval95().1))
        }),
    ]);
    c
}

/// The header of `checks.csv` (`small`: the exact-check layout).
pub fn checks_header(small: bool) -> Vec<String> {
    if small {
        names(&exact_columns())
    } else {
        names(&match_columns())
    }
}

/// The header line of `checks.csv`.
pub fn checks_header_line(small: bool) -> String {
    csv_line(&checks_header(small))
}

/// The `checks.csv` lines of one check.
pub fn check_lines(c: &CheckRow) -> String {
    let round = c.round;
    match &c.check {
        Check::Exact(check) => line(&exact_columns(), &Line { round, check }),
        Check::Match(refs) => {
            let columns = match_columns();
            refs.iter()
                .map(|check| line(&columns, &Line { round, check }))
                .collect()
        }
    }
}

/// Parses `checks.csv` (`small`: the exact-check layout).
pub fn parse_checks(text: &str, path: &Path, small: bool) -> Result<Vec<CheckRow>, TrainError> {
    let recs = csv_rows(text, path)?;
    let names = checks_header(small);
    let Some(((hl, h), body)) = recs.split_first() else {
        return Ok(Vec::new());
    };
    if *h != names {
        return Err(corrupt(
            path,
            *hl,
            format!("the header is not the expected {}", names.join(",")),
        ));
    }
    let header = Header::new(&names);
    let mut out: Vec<CheckRow> = Vec::new();
    for (line, rec) in body {
        let row = Row::new(path, *line, &header, rec)?;
        let round: u32 = row.req("round")?;
        if let Some(last) = out.last() {
            // The references of one large-board check share its round.
            let same_check = !small && last.round == round;
            if round < last.round || (round == last.round && !same_check) {
                return Err(row.corrupt(format!("round {round} follows round {}", last.round)));
            }
        }
        if small {
            let check = Check::Exact(parse_exact(&row)?);
            out.push(CheckRow { round, check });
        } else {
            let r = parse_ref(&row)?;
            match out.last_mut() {
                Some(CheckRow {
                    round: lr,
                    check: Check::Match(v),
                }) if *lr == round => v.push(r),
                _ => out.push(CheckRow {
                    round,
                    check: Check::Match(vec![r]),
                }),
            }
        }
    }
    Ok(out)
}

/// The fields of an exact check after its round.
fn parse_exact(row: &Row<'_>) -> Result<ExactCheck, TrainError> {
    let e = ExactCheck {
        positions: row.req("positions")?,
        agreement: row.number("agreement", 0.0..=1.0)?,
        agreement_all_ties: row.number("agreement_all_ties", 0.0..=1.0)?,
        lost_as_black: row.req("lost_as_black")?,
        lost_as_white: row.req("lost_as_white")?,
        no_loss_depth: match row.text("no_loss_depth") {
            "none" => None,
            _ => Some(row.req("no_loss_depth")?),
        },
    };
    let total: u64 = row.req("lost_lines")?;
    if total != e.lost_lines() {
        return Err(row.corrupt("lost_lines is not lost_as_black + lost_as_white"));
    }
    Ok(e)
}

/// The fields of a match against one reference after its round.
fn parse_ref(row: &Row<'_>) -> Result<RefCheck, TrainError> {
    let pairs = row.pentanomial(PTNML)?;
    let tally = PairedTally {
        games: row.tally("")?,
        pairs,
    };
    let games: u64 = row.req("games")?;
    if games != tally.games.games() {
        return Err(row.corrupt("games is not wins + draws + losses"));
    }
    row.derived("score", tally.games.score())?;
    // Read back for the plots from the counts, whatever the file says.
    for name in ["elo", "elo_lo", "elo_hi"] {
        let _: f64 = row.req(name)?;
    }
    Ok(RefCheck {
        reference: row.text("reference").to_string(),
        tally,
    })
}
