//! Shared by the fuzz targets: turning the first input byte into a game,
//! and the rest into text the way the library reads files.
#![allow(dead_code)]

use mnk_core::game::{Rule, Rules};

/// Games the parsers are fuzzed under, picked by one input byte: the
/// presets, both rules, every k from 3 to 6 and non-square boards.
pub fn rules_from(byte: u8) -> Rules {
    const GAMES: [(u32, u32, u32, Rule); 8] = [
        (3, 3, 3, Rule::Freestyle),
        (15, 15, 5, Rule::Freestyle),
        (15, 15, 5, Rule::Exact),
        (7, 6, 4, Rule::Freestyle),
        (4, 4, 3, Rule::Exact),
        (9, 9, 6, Rule::Freestyle),
        (26, 26, 5, Rule::Freestyle),
        (5, 8, 4, Rule::Exact),
    ];
    let (w, h, k, rule) = GAMES[byte as usize % GAMES.len()];
    Rules::new(w, h, k, rule).expect("valid preset")
}

/// Splits off the first byte (a choice) and decodes the rest as UTF-8
/// the way files are read (`mnk::util::text_from_bytes`, which must name
/// the line and byte of invalid UTF-8 rather than panic).
pub fn choice_and_text(data: &[u8]) -> Option<(u8, String)> {
    let (&first, rest) = data.split_first()?;
    text(rest).map(|t| (first, t))
}

/// The input as UTF-8 text, as a file reader would see it.
pub fn text(data: &[u8]) -> Option<String> {
    match mnk::util::text_from_bytes(data.to_vec()) {
        Ok(t) => Some(t),
        Err(e) => {
            assert!(e.to_string().contains("line "), "{e}");
            None
        }
    }
}
