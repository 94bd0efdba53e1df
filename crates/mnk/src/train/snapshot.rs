//! What the other ranks of a job need to follow rank 0's run, as bytes.
//!
//! In a job of several processes only rank 0 reads and writes the run
//! folder. It sends the others a [`Snapshot`]: the texts of the files a
//! resume would read (`run.toml`, the start weights, the book, the rounds
//! so far), as it wrote or would write them. The other ranks parse them
//! with the very code a resume uses, so they hold the same configuration,
//! weights and rounds bit for bit without touching the folder, which may
//! sit on storage only rank 0 can see.

use super::TrainError;

/// The texts a replica of a run is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The run folder's path on rank 0, for messages.
    pub path: String,
    /// `run.toml`.
    pub run_toml: String,
    /// `weights/start.toml`.
    pub start_toml: String,
    /// `openings.txt`, when the run has its own book (not the shipped one).
    pub openings: Option<String>,
    /// `rounds.csv` up to the last completed round (empty before round 0).
    pub rounds_csv: String,
    /// The last round the run's `verdict.toml` judged, if it has one.
    pub verdict_round: Option<u32>,
}

impl Snapshot {
    /// The snapshot as bytes: each text as its length (8 bytes, little
    /// endian; `u64::MAX` for a missing book) and its UTF-8 bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let verdict_round = self.verdict_round.map(|r| r.to_string());
        let texts = [
            Some(&self.path),
            Some(&self.run_toml),
            Some(&self.start_toml),
            self.openings.as_ref(),
            Some(&self.rounds_csv),
            verdict_round.as_ref(),
        ];
        for t in texts {
            match t {
                Some(t) => {
                    out.extend_from_slice(&(t.len() as u64).to_le_bytes());
                    out.extend_from_slice(t.as_bytes());
                }
                None => out.extend_from_slice(&u64::MAX.to_le_bytes()),
            }
        }
        out
    }

    /// Reads [`Snapshot::to_bytes`]'s bytes.
    pub fn from_bytes(mut bytes: &[u8]) -> Result<Snapshot, TrainError> {
        let bad = |what: &str| TrainError::Replica(format!("rank 0's snapshot of the run {what}"));
        let mut next = || -> Result<Option<String>, TrainError> {
            let (len, rest) = bytes
                .split_first_chunk::<8>()
                .ok_or_else(|| bad("is cut short"))?;
            let len = u64::from_le_bytes(*len);
            if len == u64::MAX {
                bytes = rest;
                return Ok(None);
            }
            let len = usize::try_from(len).map_err(|_| bad("is too long"))?;
            if rest.len() < len {
                return Err(bad("is cut short"));
            }
            let (text, rest) = rest.split_at(len);
            bytes = rest;
            let text = std::str::from_utf8(text).map_err(|_| bad("is not UTF-8"))?;
            Ok(Some(text.to_string()))
        };
        let mut text = || next()?.ok_or_else(|| bad("lacks a file"));
        let path = text()?;
        let run_toml = text()?;
        let start_toml = text()?;
        let openings = next()?;
        let rounds_csv = next()?.ok_or_else(|| bad("lacks rounds.csv"))?;
        let verdict_round = match next()? {
            None => None,
            Some(r) => Some(r.parse().map_err(|_| bad("has a bad verdict round"))?),
        };
        if !bytes.is_empty() {
            return Err(bad("has bytes after its last file"));
        }
        Ok(Snapshot {
            path,
            run_toml,
            start_toml,
            openings,
            rounds_csv,
            verdict_round,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_damage_is_an_error() {
        let s = Snapshot {
            path: "runs/x".into(),
            run_toml: "format = 3\n".into(),
            start_toml: "é".into(),
            openings: None,
            rounds_csv: String::new(),
            verdict_round: Some(7),
        };
        let b = s.to_bytes();
        assert_eq!(Snapshot::from_bytes(&b).unwrap(), s);
        let with_book = Snapshot {
            openings: Some("h8 h9\n".into()),
            ..s.clone()
        };
        assert_eq!(
            Snapshot::from_bytes(&with_book.to_bytes()).unwrap(),
            with_book
        );
        for cut in [0, 5, b.len() - 1] {
            let e = Snapshot::from_bytes(&b[..cut]).unwrap_err().to_string();
            assert!(e.contains("cut short") || e.contains("lacks"), "{e}");
        }
        let mut long = b.clone();
        long.push(0);
        assert!(Snapshot::from_bytes(&long).is_err());
    }
}
