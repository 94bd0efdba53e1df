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
    corrupt, csv_line, csv_rows, float_text, line, names, pentanomial_names, tally_names, Column,
    Header, Row, Write,
};
use crate::arena::stats::PairedTally;
use crate::train::{Check, CheckRow, ExactCheck, RefCheck, TrainError};
use std::path::Path;

/// One line of `checks.csv`: a check result and the round it followed.
struct Line<'a, C> {
    round: u32,
    check: &'a C,
}

/// The prefix of the pentanomial columns.
const PTNML: &str = "ptnml_";

/// The columns of an exact check (small boards), in file order.
fn exact_columns<'a>() -> Vec<Column<Line<'a, ExactCheck>>> {
    let c = |name: &str, write: Write<Line<'a, ExactCheck>>| Column::new(name, (), 0, write);
    vec![
        c("round", |l, _| Some(l.round.to_string())),
        c("positions", |l, _| Some(l.check.positions.to_string())),
        c("agreement", |l, _| Some(float_text(l.check.agreement))),
        c("agreement_all_ties", |l, _| {
            Some(float_text(l.check.agreement_all_ties))
        }),
        c("lost_lines", |l, _| Some(l.check.lost_lines().to_string())),
        c("lost_as_black", |l, _| {
            Some(l.check.lost_as_black.to_string())
        }),
        c("lost_as_white", |l, _| {
            Some(l.check.lost_as_white.to_string())
        }),
        c("no_loss_depth", |l, _| {
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
fn match_columns<'a>() -> Vec<Column<Line<'a, RefCheck>>> {
    let c = |name: String, arg, write: Write<Line<'a, RefCheck>>| Column::new(name, (), arg, write);
    let [wins, draws, losses] = tally_names("");
    let mut cols = vec![
        c("round".into(), 0, |l, _| Some(l.round.to_string())),
        c("reference".into(), 0, |l, _| {
            Some(l.check.reference.clone())
        }),
        c("games".into(), 0, |l, _| {
            Some(l.check.tally.games.games().to_string())
        }),
        c(wins, 0, |l, _| Some(l.check.tally.games.wins.to_string())),
        c(draws, 0, |l, _| Some(l.check.tally.games.draws.to_string())),
        c(losses, 0, |l, _| {
            Some(l.check.tally.games.losses.to_string())
        }),
    ];
    for (i, name) in pentanomial_names(PTNML).into_iter().enumerate() {
        cols.push(c(name, i, |l, i| {
            Some(l.check.tally.pairs.bins[i].to_string())
        }));
    }
    cols.extend([
        c("score".into(), 0, |l, _| {
            Some(float_text(l.check.tally.games.score()))
        }),
        c("elo".into(), 0, |l, _| {
            Some(float_text(l.check.tally.pairs.elo()))
        }),
        c("elo_lo".into(), 0, |l, _| {
            Some(float_text(l.check.tally.pairs.elo_interval95().0))
        }),
        c("elo_hi".into(), 0, |l, _| {
            Some(float_text(l.check.tally.pairs.elo_interval95().1))
        }),
    ]);
    cols
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
        agreement: row.req("agreement")?,
        agreement_all_ties: row.req("agreement_all_ties")?,
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
    for name in ["score", "elo", "elo_lo", "elo_hi"] {
        let _: f64 = row.req(name)?;
    }
    Ok(RefCheck {
        reference: row.text("reference").to_string(),
        tally,
    })
}
