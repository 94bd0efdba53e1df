//! Games between players: openings, single games, matches and round robins
//! scheduled over rayon (a seed per game, so results never depend on the
//! thread count), and the statistics that rate them.

pub mod book;
pub mod brains;
mod game;
mod matches;
pub mod openings;
pub mod ranks;
pub mod sprt_match;
pub mod stats;

pub use book::{Book, BookError, BookPart, CHECK_EVERY};
pub use game::{play_game, play_move, GameError};
pub use matches::{
    derive_seed, game_rng, round_robin, Factory, MatchPlan, MatchReport, OnGame, PlayedGame,
    RoundRobinReport,
};
pub use openings::{
    distinct_openings, load_openings, parse_openings, random_opening, random_openings, Opening,
    OpeningError, OpeningStyle,
};
