//! Opening books: lists of openings in the Gomocup offset format, the
//! balanced books shipped with mnk (compiled in, so every default works
//! from any folder), and the split of every book into a training part and
//! a disjoint check part.
//!
//! **The split.** Every 4th opening of a book (the 4th, 8th, … in file
//! order) belongs to the *check* part, the others to the *training* part.
//! Training rounds draw only from the training part; the checks, the
//! closing verdict and `mnk match` play the check part, so "unseen
//! openings" stays true for any book. Books are written best first, so an
//! interleaved split gives both parts the same quality.
//!
//! ```
//! use mnk_core::arena::{Book, BookPart};
//! use mnk_core::game::Rules;
//! let book = Book::shipped(Rules::GOMOKU).expect("gomoku has a shipped book");
//! let train = book.part(BookPart::Train);
//! let check = book.part(BookPart::Check);
//! assert_eq!(train.len() + check.len(), book.len());
//! assert!(check.iter().all(|o| !train.contains(o)));
//! ```

use super::openings::{load_openings, parse_openings, Opening, OpeningError};
use crate::game::Rules;
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

/// One opening in this many belongs to the check part.
pub const CHECK_EVERY: usize = 4;

/// The books shipped in `openings/`, compiled in: (file name, game, text).
const SHIPPED: [(&str, &str, &str); 4] = [
    (
        "openings/gomoku.txt",
        "gomoku",
        include_str!("../../../../openings/gomoku.txt"),
    ),
    (
        "openings/gomoku-exact.txt",
        "gomoku-exact",
        include_str!("../../../../openings/gomoku-exact.txt"),
    ),
    (
        "openings/20x20x5.txt",
        "20x20x5",
        include_str!("../../../../openings/20x20x5.txt"),
    ),
    (
        "openings/7x6x4.txt",
        "7x6x4",
        include_str!("../../../../openings/7x6x4.txt"),
    ),
];

/// The index in [`SHIPPED`] of the game's book.
fn shipped_index(rules: Rules) -> Option<usize> {
    SHIPPED
        .iter()
        .position(|(_, game, _)| game.parse::<Rules>().is_ok_and(|r| r == rules))
}

/// Which openings of a book to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookPart {
    /// Every opening, in file order.
    All,
    /// The training part: all but every [`CHECK_EVERY`]th opening.
    Train,
    /// The check part: every [`CHECK_EVERY`]th opening.
    Check,
}

impl fmt::Display for BookPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BookPart::All => "all",
            BookPart::Train => "training part",
            BookPart::Check => "check part",
        })
    }
}

/// An opening book for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    /// Where it came from: a file path, or `openings/NAME.txt (shipped)`.
    pub source: String,
    /// Its openings, in file order.
    pub openings: Vec<Opening>,
}

/// Errors in choosing openings from a book.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read or parsed.
    #[error(transparent)]
    File(#[from] OpeningError),
    /// The book's part holds fewer openings than asked for.
    #[error("{source_name}: the book's {part} holds {have} openings, but {need} are needed ({what}); ask for at most {have}, or use a larger book (mnk openings generate)")]
    TooFew {
        /// The book.
        source_name: String,
        /// The part used.
        part: BookPart,
        /// Openings in that part.
        have: usize,
        /// Openings asked for.
        need: usize,
        /// What asked, such as `--openings 500`.
        what: String,
    },
}

impl Book {
    /// The shipped balanced book of a game, if mnk ships one (gomoku,
    /// gomoku-exact, 20x20x5 and 7x6x4).
    pub fn shipped(rules: Rules) -> Option<&'static Book> {
        // Each book is parsed once per process: 40,000 openings are worth
        // keeping.
        static PARSED: [OnceLock<Option<Book>>; SHIPPED.len()] =
            [const { OnceLock::new() }; SHIPPED.len()];
        let i = shipped_index(rules)?;
        PARSED[i]
            .get_or_init(|| {
                let (path, game, text) = SHIPPED[i];
                let source = format!("{path} (shipped)");
                // The shipped books are tested to parse (see the tests
                // below); the book is declared for its own game, the one
                // `rules` equals.
                let rules: Rules = game.parse().ok()?;
                let openings = parse_openings(text, &source, rules).ok()?;
                Some(Book { source, openings })
            })
            .as_ref()
    }

    /// Whether mnk ships a book for the game (without reading it).
    pub fn has_shipped(rules: Rules) -> bool {
        shipped_index(rules).is_some()
    }

    /// The text of the game's shipped book, as in its file.
    pub fn shipped_text(rules: Rules) -> Option<&'static str> {
        shipped_index(rules).map(|i| SHIPPED[i].2)
    }

    /// Reads a book file for a game (errors name the file and line).
    pub fn load(path: &Path, rules: Rules) -> Result<Book, OpeningError> {
        Ok(Book {
            source: path.display().to_string(),
            openings: load_openings(path, rules)?,
        })
    }

    /// Its number of openings.
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Whether it has none (a loaded book never is empty).
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The openings of one part, in file order.
    pub fn part(&self, part: BookPart) -> Vec<Opening> {
        self.openings
            .iter()
            .enumerate()
            .filter(|(i, _)| match part {
                BookPart::All => true,
                BookPart::Train => i % CHECK_EVERY != CHECK_EVERY - 1,
                BookPart::Check => i % CHECK_EVERY == CHECK_EVERY - 1,
            })
            .map(|(_, o)| o.clone())
            .collect()
    }

    /// The first `n` openings of a part, or an error naming the book and
    /// `what` asked when the part holds fewer: a book is never silently
    /// cut short or repeated.
    pub fn take(&self, part: BookPart, n: usize, what: &str) -> Result<Vec<Opening>, BookError> {
        let mut v = self.part(part);
        if v.len() < n {
            return Err(BookError::TooFew {
                source_name: self.source.clone(),
                part,
                have: v.len(),
                need: n,
                what: what.to_string(),
            });
        }
        v.truncate(n);
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_book_parses_for_its_game() {
        for (path, game, text) in SHIPPED {
            let rules: Rules = game.parse().unwrap();
            let v = parse_openings(text, path, rules).unwrap_or_else(|e| panic!("{e}"));
            let book = Book::shipped(rules).unwrap();
            assert_eq!(book.openings, v, "{path}");
            assert!(book.source.starts_with(path));
        }
    }

    #[test]
    fn parts_are_disjoint_and_cover_the_book() {
        let book = Book::shipped(Rules::GOMOKU).unwrap();
        let (train, check) = (book.part(BookPart::Train), book.part(BookPart::Check));
        assert_eq!(check.len(), book.len() / CHECK_EVERY);
        assert_eq!(train.len() + check.len(), book.len());
        assert_eq!(check[0], book.openings[CHECK_EVERY - 1]);
        assert_eq!(train[CHECK_EVERY - 1], book.openings[CHECK_EVERY]);
    }

    #[test]
    fn too_few_openings_is_an_error_not_a_truncation() {
        let book = Book {
            source: "x.txt".into(),
            openings: parse_openings("0,0\n1,1\n-1,-1\n1,0\n", "x.txt", Rules::GOMOKU).unwrap(),
        };
        assert_eq!(book.take(BookPart::All, 4, "-n 4").unwrap().len(), 4);
        let e = book
            .take(BookPart::Check, 2, "-n 2")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.txt") && e.contains("check part holds 1 openings") && e.contains("-n 2"),
            "{e}"
        );
    }

    #[test]
    fn no_shipped_book_for_other_games() {
        assert!(Book::shipped(Rules::TICTACTOE).is_none());
        let exact: Rules = "gomoku-exact".parse().unwrap();
        assert_ne!(
            Book::shipped(exact).unwrap().source,
            Book::shipped(Rules::GOMOKU).unwrap().source
        );
    }
}
