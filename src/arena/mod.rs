//! Games between players: openings, single games, matches and round robins
//! scheduled over rayon (a seed per game, so results never depend on the
//! thread count), and the statistics that rate them.

pub mod stats;
