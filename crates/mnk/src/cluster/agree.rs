//! Every rank of a job must run the same command: the same mnk and the
//! same arguments. A rank that does not would play other games and wait
//! forever in a collective call the others never make, or add wrong
//! results to theirs, so the job checks first.

use crate::arena::ranks::Ranks;

/// Ranks that were started with other arguments (or another mnk) than
/// rank 0, as seen from one rank.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Disagreement {
    /// This rank's command differs from rank 0's.
    #[error("rank {rank} was started with other arguments than rank 0: {what} is {here} here and {there} on rank 0; every rank must run the same command")]
    Here {
        /// This rank.
        rank: usize,
        /// Which argument, in words ("argument 4", "mnk's version").
        what: String,
        /// Its value here, quoted.
        here: String,
        /// Its value on rank 0, quoted.
        there: String,
    },
    /// Rank 0's view: these ranks differ (each says how).
    #[error("{} started with other arguments than rank 0 (see {}); every rank must run the same command", ranks_text(.ranks), if .ranks.len() == 1 { "its message" } else { "their messages" })]
    Others {
        /// The ranks that differ.
        ranks: Vec<usize>,
    },
    /// Another rank differs and says so itself; this one agrees with
    /// rank 0 and has nothing to add.
    #[error("another rank was started with other arguments")]
    Quiet,
}

fn ranks_text(ranks: &[usize]) -> String {
    let list: Vec<String> = ranks.iter().map(usize::to_string).collect();
    match ranks {
        [_] => format!("rank {} was", list[0]),
        _ => format!("ranks {} were", list.join(", ")),
    }
}

/// Checks on every rank that all ranks run the same mnk version with the
/// same `args` (without the program's path, which may differ between
/// machines). Collective: every rank must call it.
pub fn agree_on_arguments(ranks: &dyn Ranks, args: &[String]) -> Result<(), Disagreement> {
    let mine: Vec<String> = std::iter::once(env!("CARGO_PKG_VERSION").to_string())
        .chain(args.iter().cloned())
        .collect();
    let mut bytes = mine.join("\0").into_bytes();
    ranks.broadcast(&mut bytes);
    let theirs: Vec<String> = String::from_utf8_lossy(&bytes)
        .split('\0')
        .map(str::to_string)
        .collect();
    let first_difference =
        (0..mine.len().max(theirs.len())).find(|&i| mine.get(i) != theirs.get(i));
    let (rank, size) = (ranks.rank(), ranks.size());
    let mut flags = vec![0u64; size];
    flags[rank] = first_difference.map_or(0, |i| i as u64 + 1);
    ranks.sum(&mut flags);
    let differing: Vec<usize> = (0..size).filter(|&r| flags[r] != 0).collect();
    if differing.is_empty() {
        return Ok(());
    }
    // A flag's value is shown with its flag: `--seed 2`, not `2`.
    let shown = |args: &[String], i: usize| match args.get(i) {
        None => "missing".to_string(),
        Some(v) => match args.get(i.wrapping_sub(1)) {
            Some(flag) if i > 1 && flag.starts_with('-') && !v.starts_with('-') => {
                format!("`{flag} {v}`")
            }
            _ => format!("`{v}`"),
        },
    };
    Err(match first_difference {
        Some(i) => Disagreement::Here {
            rank,
            what: if i == 0 {
                "mnk's version".to_string()
            } else {
                format!("argument {i}")
            },
            here: shown(&mine, i),
            there: shown(&theirs, i),
        },
        None if rank == 0 => Disagreement::Others { ranks: differing },
        None => Disagreement::Quiet,
    })
}
