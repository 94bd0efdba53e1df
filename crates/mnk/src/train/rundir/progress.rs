//! The `progress.csv` file of a run folder: how long each round took. It
//! is informative (timings are not deterministic) and never read back into
//! a run, but it has one column table ([`columns`]) like every CSV file of
//! the folder.
//!
//! | column | meaning |
//! | --- | --- |
//! | `round` | the round (0 = the start) |
//! | `round_seconds` | wall time of the round's games, 3 decimals |
//! | `games` | games played in the round (round robin, confirmation, SPSA step) |
//! | `games_per_second` | `games / round_seconds`, rounded |
//! | `check_seconds` | wall time of the round's check (0 without one), 3 decimals |
//! | `idle_seconds`, `comm_seconds` | in a job of several processes: time spent waiting for the slowest rank, and the sums' own cost (0 in one process), 6 decimals |
//!
//! Rows written before the last two columns existed are read padded with
//! empty fields.

use super::csv::{csv_line, line, names, Column};

/// One row of `progress.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgressRow {
    /// The round.
    pub round: u32,
    /// Wall time of the round's games.
    pub round_seconds: f64,
    /// Games played in the round.
    pub games: u64,
    /// Games per second of the round.
    pub games_per_second: f64,
    /// Wall time of the round's check.
    pub check_seconds: f64,
    /// Time spent waiting for other ranks.
    pub idle_seconds: f64,
    /// Time spent in the ranks' sums.
    pub comm_seconds: f64,
}

/// The columns of `progress.csv`, in file order.
fn columns() -> Vec<Column<'static, ProgressRow>> {
    let c = |name: &str, write: fn(&ProgressRow) -> String| {
        Column::new(name, (), move |r: &ProgressRow| Some(write(r)))
    };
    vec![
        c("round", |r| r.round.to_string()),
        c("round_seconds", |r| format!("{:.3}", r.round_seconds)),
        c("games", |r| r.games.to_string()),
        c("games_per_second", |r| format!("{:.0}", r.games_per_second)),
        c("check_seconds", |r| format!("{:.3}", r.check_seconds)),
        c("idle_seconds", |r| format!("{:.6}", r.idle_seconds)),
        c("comm_seconds", |r| format!("{:.6}", r.comm_seconds)),
    ]
}

/// The header line of `progress.csv`.
pub fn progress_header_line() -> String {
    csv_line(&names(&columns()))
}

/// One row of `progress.csv`.
pub fn progress_line(row: &ProgressRow) -> String {
    line(&columns(), row)
}

/// The whole text of `progress.csv` kept when a run is resumed after round
/// `done` (`None`: no round completed): the header and the rows of rounds
/// up to `done` from `text` (the file as it is), each padded to the
/// header's columns; `None` when no row is kept (the file then does not
/// exist, as in a run never interrupted). The file is informative, so a
/// row that does not read is dropped, never an error.
pub fn progress_kept(text: &str, done: Option<u32>) -> Option<String> {
    let want = columns().len();
    let mut rows = String::new();
    for l in text.lines().skip(1) {
        let r = l.split(',').next().and_then(|r| r.parse::<u32>().ok());
        if matches!((r, done), (Some(r), Some(d)) if r <= d) {
            let have = l.split(',').count();
            rows.push_str(l);
            rows.push_str(&",".repeat(want.saturating_sub(have)));
            rows.push('\n');
        }
    }
    (!rows.is_empty()).then(|| progress_header_line() + &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_written_as_before_and_old_rows_are_padded() {
        assert_eq!(
            progress_header_line(),
            "round,round_seconds,games,games_per_second,check_seconds,idle_seconds,comm_seconds\n"
        );
        let row = ProgressRow {
            round: 3,
            round_seconds: 1.23456,
            games: 400,
            games_per_second: 324.4,
            check_seconds: 0.0,
            idle_seconds: 0.5,
            comm_seconds: 0.000_001_4,
        };
        assert_eq!(
            progress_line(&row),
            "3,1.235,400,324,0.000,0.500000,0.000001\n"
        );
        let old = "round,round_seconds,games,games_per_second,check_seconds\n0,0.000,0,0,0.001\n1,2.000,40,20,0.000\n2,2.000,40,20,0.000\n";
        assert_eq!(
            progress_kept(old, Some(1)).unwrap(),
            progress_header_line() + "0,0.000,0,0,0.001,,\n1,2.000,40,20,0.000,,\n"
        );
        assert_eq!(progress_kept(old, None), None);
    }
}
