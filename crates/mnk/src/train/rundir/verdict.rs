//! The `verdict.toml` file of a run folder: the closing match of `mnk
//! train` (the trained weights against the start weights on unseen
//! openings), kept so that `mnk plot` can draw it after the run's output
//! has scrolled away.
//!
//! ```toml
//! round = 30
//! openings = 1000
//! wins = 1077
//! draws = 9
//! losses = 914
//! pentanomial = [40, 3, 700, 2, 255]
//! elo = 28.4
//! elo_error95 = 15.4
//! ```
//!
//! The counts are the record; `elo` and `elo_error95` are written for
//! the reader of the file and recomputed from the counts when it is read,
//! so a file edited by hand cannot contradict itself in a plot. `round` is
//! the last round of the weights judged: a run resumed for more rounds
//! keeps its old verdict until it plays a new one, and a plot can tell.

use super::RunDir;
use crate::arena::stats::{PairedTally, Pentanomial, Tally};
use crate::train::{TrainError, Verdict};
use std::path::{Path, PathBuf};

impl RunDir {
    /// `verdict.toml`: the closing verdict, if the run played one.
    pub fn verdict_toml(&self) -> PathBuf {
        self.file("verdict.toml")
    }

    /// Writes `verdict.toml` atomically: `v` judged the incumbent after
    /// `round`.
    pub fn write_verdict(&self, round: u32, v: &Verdict) -> Result<(), TrainError> {
        self.write(&self.verdict_toml(), verdict_text(round, v).as_bytes())
    }

    /// Reads `verdict.toml`; `None` if the run has none.
    pub fn read_verdict(&self) -> Result<Option<RecordedVerdict>, TrainError> {
        let path = self.verdict_toml();
        self.read_optional(&path)?
            .map(|text| parse_verdict(&text, &path))
            .transpose()
    }
}

/// A verdict as `verdict.toml` keeps it.
#[derive(Clone, Debug)]
pub struct RecordedVerdict {
    /// The last round of the weights it judged.
    pub round: u32,
    /// The match.
    pub verdict: Verdict,
}

/// The file's fields, in the order they are written.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct VerdictFile {
    round: u32,
    openings: usize,
    wins: u64,
    draws: u64,
    losses: u64,
    pentanomial: [u64; 5],
    // Derived, for people reading the file; ignored when read.
    elo: Option<f64>,
    elo_error95: Option<f64>,
}

/// The text of `verdict.toml` for `v`, which judged the incumbent after
/// `round`.
fn verdict_text(round: u32, v: &Verdict) -> String {
    let t = &v.tally;
    let finite = |x: f64| x.is_finite().then_some((x * 10.0).round() / 10.0);
    let file = VerdictFile {
        round,
        openings: v.openings,
        wins: t.games.wins,
        draws: t.games.draws,
        losses: t.games.losses,
        pentanomial: t.pairs.bins,
        elo: finite(t.pairs.elo()),
        elo_error95: finite(t.pairs.elo_error95()),
    };
    let body = toml::to_string(&file).expect("a verdict is always valid TOML");
    format!(
        "# The closing verdict of `mnk train`: the trained weights against the start\n\
         # weights, each opening played with both colours (pentanomial: pairs that\n\
         # scored 0, ½, 1, 1½, 2 points). Elo and its 95% error are pentanomial.\n{body}"
    )
}

/// Reads the text of `verdict.toml`; errors name `path`.
fn parse_verdict(text: &str, path: &Path) -> Result<RecordedVerdict, TrainError> {
    let bad = |message: String| TrainError::Corrupt {
        path: path.to_path_buf(),
        line: 0,
        message,
    };
    let f: VerdictFile = toml::from_str(text).map_err(|e| bad(e.message().to_string()))?;
    let tally = PairedTally {
        games: Tally::new(f.wins, f.draws, f.losses),
        pairs: Pentanomial::new(f.pentanomial),
    };
    // Every complete pair is two of the counted games.
    if tally.pairs.games() > tally.games.games() {
        return Err(bad(format!(
            "pentanomial counts {} pairs ({} games), more than wins + draws + losses = {}",
            tally.pairs.pairs(),
            tally.pairs.games(),
            tally.games.games()
        )));
    }
    Ok(RecordedVerdict {
        round: f.round,
        verdict: Verdict {
            tally,
            openings: f.openings,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict() -> Verdict {
        Verdict {
            tally: PairedTally {
                games: Tally::new(1077, 9, 914),
                pairs: Pentanomial::new([40, 3, 700, 2, 255]),
            },
            openings: 1000,
        }
    }

    #[test]
    fn a_verdict_reads_back_as_written() {
        let v = verdict();
        let text = verdict_text(30, &v);
        assert!(text.contains("wins = 1077"), "{text}");
        assert!(
            text.contains("pentanomial = [40, 3, 700, 2, 255]"),
            "{text}"
        );
        let elo = format!("elo = {:.1}", v.tally.pairs.elo());
        assert!(text.contains(&elo), "{text}");
        let back = parse_verdict(&text, Path::new("v.toml")).unwrap();
        assert_eq!(back.round, 30);
        assert_eq!(back.verdict.tally, v.tally);
        assert_eq!(back.verdict.openings, v.openings);
    }

    #[test]
    fn damaged_verdicts_are_refused_naming_the_file() {
        let p = Path::new("runs/x/verdict.toml");
        let text = verdict_text(30, &verdict());
        for bad in [
            text.replace("wins = 1077", "wins = many"),
            text.replace("losses = 914\n", ""),
            text.replace("wins = 1077", "wins = 1"),
        ] {
            let e = parse_verdict(&bad, p).unwrap_err().to_string();
            assert!(e.starts_with("runs/x/verdict.toml:"), "{e}");
        }
    }
}
