//! Vetting an opponent spec before a game starts: it parses, its weights
//! file lies inside a served folder, and it asks for no more than the
//! server's [`Limits`] give one player. Every player kind is matched by
//! name, so a new kind does not compile until its limits are decided here.

use super::Limits;
use crate::error::ApiError;
use crate::files::quiet_error;
use crate::safe_path::{clean_relative, safe_join};
use mnk::players::{table_bytes, PlayerKind, PlayerSpec, SearchLimits, EXACT_LIMIT};
use std::path::{Path, PathBuf};

/// A folder opponents' weights may come from, with the name it goes by in
/// specs and listings (`weights`, `runs`).
#[derive(Clone, Debug)]
pub struct Root {
    /// The name in specs and listings: `weights=NAME/file.toml`.
    pub name: &'static str,
    /// The folder, as configured.
    pub dir: PathBuf,
}

/// An opponent that passed: its spec, with the weights file resolved, and
/// the file as the request named it.
#[derive(Clone, Debug)]
pub struct Vetted {
    /// The spec to build the player from.
    pub spec: PlayerSpec,
    /// The weights file as given (never the server's own path).
    pub weights_shown: Option<String>,
    /// The bytes of the search tables of the game's two players of this
    /// spec (the AI's and the hint player's).
    pub table_bytes: u128,
}

/// Checks `text` against `limits`, with weights files under `roots`.
pub fn vet(text: &str, roots: &[Root], limits: &Limits) -> Result<Vetted, ApiError> {
    let mut spec: PlayerSpec = text.parse()?;
    let refuse = |why: String| ApiError::SpecRefused {
        spec: text.to_string(),
        why,
    };
    let weights_shown = spec.weights.as_ref().map(|w| w.display().to_string());
    if let Some(w) = &spec.weights {
        spec.weights = Some(weights_path(w, roots).map_err(refuse)?);
    }
    match &mut spec.kind {
        PlayerKind::Search(l) => search_limits(l, limits).map_err(refuse)?,
        PlayerKind::Exact { limit } => {
            if *limit > EXACT_LIMIT {
                return Err(refuse(format!(
                    "limit={limit}: the exact player solves at most {EXACT_LIMIT} empty cells here"
                )));
            }
        }
        // Neither thinks for long nor holds a table.
        PlayerKind::Greedy | PlayerKind::Random => {}
    }
    // The AI's player and the hint player each hold a table.
    let table_bytes = spec.table_bits().map_or(0, |b| 2 * table_bytes(b));
    if table_bytes > limits.table_memory {
        return Err(refuse(format!(
            "its search tables need {} MiB, and the games here may hold {} MiB",
            table_bytes >> 20,
            limits.table_memory >> 20
        )));
    }
    Ok(Vetted {
        spec,
        weights_shown,
        table_bytes,
    })
}

/// A search's limits within the server's: a spec that asks for more is
/// refused, and one that names no node limit gets the server's.
fn search_limits(l: &mut SearchLimits, limits: &Limits) -> Result<(), String> {
    if l.tt_bits > limits.tt_bits {
        return Err(format!(
            "tt={}: the largest table here is tt={}",
            l.tt_bits, limits.tt_bits
        ));
    }
    if let Some(t) = l.time.filter(|&t| t > limits.think) {
        return Err(format!(
            "time={}: a move may take at most {} ms here",
            t.as_millis(),
            limits.think.as_millis()
        ));
    }
    if let Some(n) = l.nodes.filter(|&n| n > limits.nodes) {
        return Err(format!(
            "nodes={n}: a move may search at most {} nodes here",
            limits.nodes
        ));
    }
    l.nodes.get_or_insert(limits.nodes);
    Ok(())
}

/// A weights path of a spec, resolved inside a served folder: one that
/// starts with a folder's name (`runs/r1/weights/best.toml`, as listed) or
/// with the folder as configured, or one relative to a folder
/// (`gomoku.toml`, tried in each).
pub fn weights_path(w: &Path, roots: &[Root]) -> Result<PathBuf, String> {
    let text = w.to_str().ok_or("the weights path is not UTF-8")?;
    let under = |prefix: &str| {
        text.strip_prefix(prefix.trim_end_matches('/'))
            .and_then(|rest| rest.strip_prefix('/'))
    };
    let mut tries: Vec<(&Root, &str)> = Vec::new();
    for root in roots {
        if let Some(rest) = root.dir.to_str().and_then(under) {
            tries.push((root, rest));
        }
    }
    for root in roots {
        if let Some(rest) = under(root.name) {
            tries.push((root, rest));
        }
    }
    tries.extend(roots.iter().map(|root| (root, text)));
    let mut why = String::from("no weights folder is served");
    for (root, inside) in tries {
        // A refused shape (`..`, an absolute path not under this folder)
        // is tried against the next folder, and refused by all.
        if let Err(e) = clean_relative(inside) {
            why = e.to_string();
            continue;
        }
        match safe_join(&root.dir, inside) {
            // Only a regular file is read (a FIFO would block).
            Ok(p) if p.is_file() => return Ok(p),
            Ok(_) => why = format!("{inside}: not a regular file"),
            Err(e) => why = e.to_string(),
        }
    }
    Err(why)
}

/// Why an opponent's weights file cannot be used, naming it by its served
/// folder and quoting nothing of it ([`quiet_error`]).
pub fn quiet_weights_error(e: &mnk::players::SpecError, roots: &[Root]) -> String {
    // The spec's own words hold the resolved path: only the cause is told.
    let cause = std::error::Error::source(e).map_or_else(|| e.to_string(), |s| s.to_string());
    roots
        .iter()
        .fold(cause, |text, root| match root.dir.canonicalize() {
            Ok(real) => quiet_error(&text, &real, root.name),
            Err(_) => text,
        })
}
