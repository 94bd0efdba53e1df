//! `--json`: one JSON object on stdout per command, for scripts.
//!
//! Every object starts with the same two fields, `"mnk_json"` (the
//! format's version, raised when a field changes meaning or goes away;
//! new fields may appear at any time) and `"command"`, followed by the
//! command's own fields (documented per command in docs/json/). With `--json`,
//! stdout holds that object and nothing else; progress and notes go to
//! stderr as usual.

use anyhow::{Context, Result};
use serde::Serialize;

/// The version of every command's JSON output.
pub(crate) const VERSION: u32 = 1;

#[derive(Serialize)]
struct Envelope<'a, T: Serialize> {
    mnk_json: u32,
    command: &'a str,
    #[serde(flatten)]
    body: &'a T,
}

/// Prints `body`'s fields as one JSON object (pretty-printed, ending in a
/// newline) after `mnk_json` and `command`.
pub(crate) fn print<T: Serialize>(command: &str, body: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(&Envelope {
        mnk_json: VERSION,
        command,
        body,
    })
    .context("cannot write the JSON output")?;
    println!("{text}");
    Ok(())
}

/// A line for people: on stdout, or on stderr under `--json`, where
/// stdout holds only the JSON object.
pub(crate) fn say(json: bool, line: impl std::fmt::Display) {
    if json {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_comes_first() {
        #[derive(Serialize)]
        struct B {
            games: u64,
        }
        let text = serde_json::to_string(&Envelope {
            mnk_json: VERSION,
            command: "match",
            body: &B { games: 4 },
        })
        .unwrap();
        assert_eq!(text, r#"{"mnk_json":1,"command":"match","games":4}"#);
    }
}
