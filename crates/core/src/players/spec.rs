//! Player specs: the command-line description of a player.
//!
//! ```text
//! greedy                         shipped weights for the game
//! greedy:weights/gomoku.toml     weights from a file
//! search:depth=4,width=9,weights=runs/x/weights/best.toml,nodes=100000,time=500,tt=18
//!                                tt: log2 of the table's entries, 4 to 26
//! exact[:limit=16]               perfect play on small boards
//! random
//! ```
//!
//! ```
//! use mnk_core::players::PlayerSpec;
//! let s: PlayerSpec = "search:depth=2,width=5".parse().unwrap();
//! assert_eq!(s.to_string(), "search:depth=2,width=5");
//! assert!("search:depth=x".parse::<PlayerSpec>().is_err());
//! ```

use super::{
    table_bytes, Exact, Greedy, Player, RandomPlayer, Search, SearchLimits, Solver, TableError,
};
use crate::eval::{Weights, WeightsError};
use crate::game::Rules;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

/// Errors in a player spec.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error(
        "player spec {spec:?}: unknown player {kind:?}: expected greedy, search, exact or random (or easy, hard, perfect)"
    )]
    /// The part before `:` is no player.
    UnknownKind {
        /// The whole spec.
        spec: String,
        /// The player name given.
        kind: String,
    },
    #[error("player spec {spec:?}: unknown option {key:?} for {kind}: expected one of {expected}")]
    /// An option the player does not have.
    UnknownKey {
        /// The whole spec.
        spec: String,
        /// The player.
        kind: String,
        /// The option given.
        key: String,
        /// The options the player has.
        expected: String,
    },
    #[error("player spec {spec:?}: {key} is given twice")]
    /// An option given more than once (`search:depth=2,depth=3`): which
    /// one was meant is not for the reader to guess.
    DuplicateKey {
        /// The whole spec.
        spec: String,
        /// The option.
        key: String,
    },
    #[error("player spec {spec:?}: {key}={value:?}: expected {expected}")]
    /// An option's value does not parse or is out of range.
    BadValue {
        /// The whole spec.
        spec: String,
        /// The option.
        key: String,
        /// The value given.
        value: String,
        /// What the option takes.
        expected: String,
    },
    #[error("player spec {spec:?}: {source}")]
    /// The weights file could not be loaded.
    Weights {
        /// The whole spec.
        spec: String,
        /// Why.
        #[source]
        source: WeightsError,
    },
    #[error("player spec {spec:?}: {source}")]
    /// The transposition table does not fit in memory.
    Table {
        /// The whole spec.
        spec: String,
        /// Why.
        #[source]
        source: TableError,
    },
    #[error("player spec {spec:?}: the exact player cannot solve {rules} ({cells} cells, limit {limit}); raise it with exact:limit=N if you have the time")]
    /// The exact player cannot solve the game from empty.
    TooLarge {
        /// The whole spec.
        spec: String,
        /// The game.
        rules: Rules,
        /// Its cells.
        cells: usize,
        /// The player's limit of empty cells.
        limit: usize,
    },
}

/// Which algorithm a spec names.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// [`Greedy`]: the best cell by static score.
    Greedy,
    /// [`Search`] with these limits.
    Search(SearchLimits),
    /// [`Exact`]: perfect play.
    Exact {
        /// The most empty cells it solves.
        limit: usize,
    },
    /// [`RandomPlayer`]: any legal move.
    Random,
}

impl PlayerKind {
    /// The kind named by a spec's first word, or by its alias (`easy`,
    /// `hard`, `perfect`), with its default options.
    pub fn named(word: &str) -> Option<PlayerKind> {
        Some(match word {
            "greedy" | "easy" => PlayerKind::Greedy,
            "search" => PlayerKind::Search(SearchLimits::default()),
            "hard" => PlayerKind::Search(SearchLimits::hard()),
            "exact" | "perfect" => PlayerKind::Exact { limit: EXACT_LIMIT },
            "random" => PlayerKind::Random,
            _ => return None,
        })
    }

    /// The kind's name as a spec writes it.
    pub fn name(&self) -> &'static str {
        match self {
            PlayerKind::Greedy => "greedy",
            PlayerKind::Search(_) => "search",
            PlayerKind::Exact { .. } => "exact",
            PlayerKind::Random => "random",
        }
    }

    /// Whether the kind plays from a weight set: it takes `weights=` and
    /// `any-game=`, a front end's `--weights` applies to it, and training
    /// can tune it.
    pub fn takes_weights(&self) -> bool {
        match self {
            PlayerKind::Greedy | PlayerKind::Search(_) => true,
            PlayerKind::Exact { .. } | PlayerKind::Random => false,
        }
    }

    /// The options a spec of this kind may set, in the order errors list
    /// them.
    pub fn options(&self) -> &'static [&'static str] {
        match self {
            PlayerKind::Greedy => &["weights", "any-game"],
            PlayerKind::Search(_) => &[
                "depth", "width", "late", "nodes", "time", "tt", "weights", "any-game",
            ],
            PlayerKind::Exact { .. } => &["limit"],
            PlayerKind::Random => &[],
        }
    }

    /// log2 of the transposition table's entries, for a kind that has one
    /// (what it costs in memory beyond a few KiB).
    pub fn table_bits(&self) -> Option<u32> {
        match self {
            PlayerKind::Search(l) => Some(l.tt_bits),
            PlayerKind::Greedy | PlayerKind::Exact { .. } | PlayerKind::Random => None,
        }
    }

    /// Sets option `key` to `value`; the error says what was expected.
    /// `weights` and `any-game` belong to the spec, not the kind.
    fn set(&mut self, key: &str, value: &str) -> Result<(), Expected> {
        let num = |what: &str| value.parse::<u64>().map_err(|_| Expected(what.to_string()));
        // A range is written once: for the check and for the message.
        let ranged = |what: &str, lo: u64, hi: u64| {
            let expected = format!("{what} from {lo} to {hi}");
            num(&expected)
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or(Expected(expected))
        };
        match (self, key) {
            (PlayerKind::Search(l), "depth") => {
                l.depth = ranged("a depth", 1, SearchLimits::MAX_DEPTH as u64)? as u32
            }
            (PlayerKind::Search(l), "width") => l.width = ranged("a width", 1, 676)? as usize,
            (PlayerKind::Search(l), "late") => {
                l.late = ranged("a count of late moves", 0, 676)? as usize;
            }
            (PlayerKind::Search(l), "nodes") => l.nodes = Some(num("a node count")?.max(1)),
            (PlayerKind::Search(l), "time") => {
                l.time = Some(Duration::from_millis(num("milliseconds")?));
            }
            (PlayerKind::Search(l), "tt") => {
                let (lo, hi) = (SearchLimits::MIN_TT_BITS, SearchLimits::MAX_TT_BITS);
                let range = format!(
                    "log2 of table entries, {lo} to {hi} (tt={hi} takes {} per player)",
                    crate::util::Bytes(table_bytes(hi))
                );
                let b = num(&range)?;
                if !(u64::from(lo)..=u64::from(hi)).contains(&b) {
                    let need = match b {
                        0..64 => format!(
                            "; tt={b} would need {}",
                            crate::util::Bytes(table_bytes(b as u32))
                        ),
                        _ => String::new(),
                    };
                    return Err(Expected(format!("{range}{need}")));
                }
                l.tt_bits = b as u32;
            }
            (PlayerKind::Exact { limit }, "limit") => {
                *limit = num("a number of empty cells")? as usize;
            }
            _ => return Err(Expected(String::new())),
        }
        Ok(())
    }
}

/// What an option's value should have been (empty: the key is unknown).
struct Expected(String);

/// A parsed player spec.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    /// The player and its options.
    pub kind: PlayerKind,
    /// Weights file; `None` means the shipped weights for the game.
    pub weights: Option<PathBuf>,
    /// Accept a weights file made for another game with the same k.
    pub any_game: bool,
}

/// The default limit of empty cells for the exact player: the solver's
/// own default, [`Solver::DEFAULT_LIMIT`].
pub const EXACT_LIMIT: usize = Solver::DEFAULT_LIMIT;

impl PlayerSpec {
    /// The greedy player on the shipped weights.
    pub fn greedy() -> PlayerSpec {
        PlayerSpec {
            kind: PlayerKind::Greedy,
            weights: None,
            any_game: false,
        }
    }

    /// The weights this player ships with: the search player's own
    /// ([`crate::eval::shipped_search_weights`]), else the game's.
    pub fn shipped_weights(&self, rules: Rules) -> Weights {
        match self.kind {
            PlayerKind::Search(_) => crate::eval::shipped_search_weights(rules),
            PlayerKind::Greedy | PlayerKind::Exact { .. } | PlayerKind::Random => {
                crate::eval::shipped_weights(rules)
            }
        }
    }

    /// Loads this spec's weights for a game: by default the shipped ones
    /// of its player ([`PlayerSpec::shipped_weights`]).
    pub fn load_weights(&self, rules: Rules) -> Result<Weights, SpecError> {
        match &self.weights {
            None => Ok(self.shipped_weights(rules)),
            Some(p) => {
                Weights::load(p, rules, self.any_game).map_err(|source| SpecError::Weights {
                    spec: self.to_string(),
                    source,
                })
            }
        }
    }

    /// Builds the player for a game, loading its weights. A search
    /// player's table is checked against the memory available and
    /// allocated without aborting ([`Search::try_new`]).
    pub fn build(&self, rules: Rules) -> Result<Box<dyn Player>, SpecError> {
        let weights = match self.kind.takes_weights() {
            true => self.load_weights(rules)?,
            false => Weights::flat(rules),
        };
        let name = self.to_string();
        Ok(match &self.kind {
            PlayerKind::Greedy => Box::new(Greedy::new(weights).named(name)),
            PlayerKind::Search(l) => Box::new(
                Search::try_new(weights, l.clone())
                    .map_err(|source| SpecError::Table {
                        spec: name.clone(),
                        source,
                    })?
                    .named(name),
            ),
            PlayerKind::Exact { limit } => {
                if rules.cells() > *limit {
                    return Err(SpecError::TooLarge {
                        spec: name,
                        rules,
                        cells: rules.cells(),
                        limit: *limit,
                    });
                }
                Box::new(Exact::with_limit(rules, *limit))
            }
            PlayerKind::Random => Box::new(RandomPlayer),
        })
    }

    /// Checks that `copies` of each of these players can hold their tables
    /// at once (a match gives every worker thread its own pair), with
    /// [`ensure_tables`](super::ensure_tables): within half the memory
    /// available and within the process's address-space limit. Building
    /// one player checks only its own table.
    ///
    /// `holders` names what each copy belongs to in the error ("worker
    /// threads" for a match; a trainer keeps every player of a round in
    /// every thread).
    pub fn ensure_memory(
        specs: &[&PlayerSpec],
        copies: usize,
        holders: &str,
    ) -> Result<(), SpecError> {
        let one: Vec<u32> = specs.iter().filter_map(|s| s.table_bits()).collect();
        if one.is_empty() {
            return Ok(());
        }
        let all: Vec<u32> = (0..copies).flat_map(|_| one.iter().copied()).collect();
        let tables: Vec<String> = one.iter().map(|b| format!("tt={b}")).collect();
        let what = match copies {
            1 => tables.join(" and "),
            n => format!("{} in each of {n} {holders}", tables.join(" and ")),
        };
        super::ensure_tables(&what, &all).map_err(|source| SpecError::Table {
            spec: specs
                .iter()
                .filter(|s| s.table_bits().is_some())
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            source,
        })
    }

    /// log2 of the player's table entries, if it has one
    /// ([`PlayerKind::table_bits`]).
    pub fn table_bits(&self) -> Option<u32> {
        self.kind.table_bits()
    }

    /// The spec with its weights path replaced.
    pub fn with_weights(mut self, path: &Path) -> PlayerSpec {
        self.weights = Some(path.to_path_buf());
        self
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let spec = s.trim();
        let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let mut out = PlayerSpec {
            kind: PlayerKind::named(kind).ok_or_else(|| SpecError::UnknownKind {
                spec: s.into(),
                kind: kind.into(),
            })?,
            weights: None,
            any_game: false,
        };
        let bad = |key: &str, value: &str, expected: &str| SpecError::BadValue {
            spec: s.into(),
            key: key.into(),
            value: value.into(),
            expected: expected.into(),
        };
        let mut seen: Vec<&str> = Vec::new();
        for part in rest.split(',').filter(|p| !p.is_empty()) {
            let (key, value) = match part.split_once('=') {
                Some((k, v)) => (k.trim(), v.trim()),
                // A bare path is the weights file (greedy:weights/gomoku.toml).
                None if out.kind.takes_weights() => ("weights", part.trim()),
                None => ("", part.trim()),
            };
            if seen.contains(&key) {
                return Err(SpecError::DuplicateKey {
                    spec: s.into(),
                    key: key.into(),
                });
            }
            seen.push(key);
            match key {
                "weights" if out.kind.takes_weights() => {
                    if value.is_empty() {
                        return Err(bad(key, value, "a weights file path"));
                    }
                    out.weights = Some(PathBuf::from(value));
                }
                "any-game" if out.kind.takes_weights() => {
                    out.any_game = value
                        .parse()
                        .map_err(|_| bad(key, value, "true or false"))?;
                }
                _ => match out.kind.set(key, value) {
                    Ok(()) => {}
                    Err(Expected(what)) if !what.is_empty() => return Err(bad(key, value, &what)),
                    Err(_) => {
                        let options = out.kind.options();
                        return Err(SpecError::UnknownKey {
                            spec: s.into(),
                            kind: out.kind.name().into(),
                            key: key.into(),
                            expected: match options {
                                [] => "(no options)".into(),
                                _ => options.join(", "),
                            },
                        });
                    }
                },
            }
        }
        Ok(out)
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut opts: Vec<String> = Vec::new();
        let name = match &self.kind {
            PlayerKind::Greedy => "greedy",
            PlayerKind::Search(l) => {
                let d = SearchLimits::default();
                opts.push(format!("depth={}", l.depth));
                opts.push(format!("width={}", l.width));
                if l.late != d.late {
                    opts.push(format!("late={}", l.late));
                }
                if let Some(n) = l.nodes {
                    opts.push(format!("nodes={n}"));
                }
                if let Some(t) = l.time {
                    opts.push(format!("time={}", t.as_millis()));
                }
                if l.tt_bits != d.tt_bits {
                    opts.push(format!("tt={}", l.tt_bits));
                }
                "search"
            }
            PlayerKind::Exact { limit } => {
                if *limit != EXACT_LIMIT {
                    opts.push(format!("limit={limit}"));
                }
                "exact"
            }
            PlayerKind::Random => "random",
        };
        if let Some(w) = &self.weights {
            opts.push(format!("weights={}", w.display()));
        }
        if self.any_game {
            opts.push("any-game=true".into());
        }
        if opts.is_empty() {
            f.write_str(name)
        } else {
            write!(f, "{name}:{}", opts.join(","))
        }
    }
}
