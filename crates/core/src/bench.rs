//! The fixed work behind `mnk bench`: its positions, and its **signature**
//! (Stockfish's "Bench: N"): the total node count of a fixed-depth search
//! over fixed positions, and a hash of the moves of fixed greedy games.
//!
//! Any change to the rules, the evaluator, the weights or the search that
//! alters a single move or node changes the signature; a change that only
//! makes things faster keeps it. A test pins the current value, so a
//! behaviour change has to update it in the same commit, saying why.

use crate::arena::{game_rng, play_game, play_move, random_openings, GameError, OpeningStyle};
use crate::eval::shipped_weights;
use crate::game::{splitmix64, Board, Rules};
use crate::players::{Greedy, Player, Search, SearchLimits};
use std::fmt;

/// The depth of the signature's search.
pub const SIGNATURE_DEPTH: u32 = 4;
/// Greedy games in the signature.
pub const SIGNATURE_GAMES: u64 = 1000;

/// What `mnk bench` computes and prints to show that behaviour did not
/// change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Nodes searched at [`SIGNATURE_DEPTH`] over [`middle_games`] on
    /// gomoku, each position from an empty table.
    pub search_nodes: u64,
    /// A hash of every move of [`SIGNATURE_GAMES`] shipped-weights greedy
    /// games on gomoku, in order.
    pub greedy_moves: u64,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} search nodes, greedy moves {:016x}",
            self.search_nodes, self.greedy_moves
        )
    }
}

/// `n` openings for gomoku speed figures, the same in every build.
pub fn bench_openings(rules: Rules, n: usize) -> Vec<crate::arena::Opening> {
    random_openings(
        rules,
        OpeningStyle::default_for(rules),
        n,
        &mut game_rng(7, &[1]),
    )
}

/// Up to `n` positions 20 plies into seeded shipped-weights greedy
/// self-play games from random openings (games that end sooner are left
/// out).
pub fn middle_games(rules: Rules, n: usize) -> Result<Vec<Board>, GameError> {
    let openings = random_openings(
        rules,
        OpeningStyle::default_for(rules),
        n,
        &mut game_rng(5, &[0]),
    );
    let mut out = Vec::new();
    let mut p = Greedy::new(shipped_weights(rules));
    for (i, op) in openings.iter().enumerate() {
        let mut b = op.board(rules)?;
        let mut rng = game_rng(5, &[1, i as u64]);
        while b.ply() < 20 && !b.is_over() {
            play_move(&mut p, &mut b, &mut rng)?;
        }
        if !b.is_over() {
            out.push(b);
        }
    }
    Ok(out)
}

/// Searches each of `positions` with `search`, each from an empty table;
/// the total node count.
pub fn search_nodes(search: &mut Search, positions: &[Board]) -> Result<u64, GameError> {
    let mut nodes = 0;
    for (i, b) in positions.iter().enumerate() {
        search.clear();
        search
            .choose(b, &mut game_rng(3, &[i as u64]))
            .map_err(|source| GameError::Player {
                player: search.name(),
                source,
            })?;
        nodes += search.info().nodes;
    }
    Ok(nodes)
}

/// The search `mnk bench` measures: shipped weights, default limits but
/// `depth`.
pub fn bench_search(rules: Rules, depth: u32) -> Search {
    Search::new(
        shipped_weights(rules),
        SearchLimits {
            depth,
            ..SearchLimits::default()
        },
    )
}

/// Plays `games` shipped-weights greedy games on gomoku from
/// [`bench_openings`] and hashes every move in order.
pub fn greedy_moves(games: u64) -> Result<u64, GameError> {
    let rules = Rules::GOMOKU;
    let openings = bench_openings(rules, 4096);
    let w = shipped_weights(rules);
    let (mut black, mut white) = (Greedy::new(w.clone()), Greedy::new(w));
    let mut board = Board::new(rules);
    let mut hash = 0u64;
    for g in 0..games {
        let op = &openings[g as usize % openings.len()];
        play_game(
            rules,
            op,
            &mut black,
            &mut white,
            &mut board,
            &mut game_rng(11, &[g]),
        )?;
        for m in board.moves() {
            hash = splitmix64(hash ^ (u64::from(m.y) << 8 | u64::from(m.x))).1;
        }
        // The end of a game is part of the sequence.
        hash = splitmix64(hash ^ u64::MAX).1;
    }
    Ok(hash)
}

/// The signature of this build: [`search_nodes`] over 16 [`middle_games`]
/// at [`SIGNATURE_DEPTH`] and [`greedy_moves`] of [`SIGNATURE_GAMES`]
/// games, all on gomoku (about 50 ms).
pub fn signature() -> Result<Signature, GameError> {
    let rules = Rules::GOMOKU;
    let positions = middle_games(rules, 16)?;
    Ok(Signature {
        search_nodes: search_nodes(&mut bench_search(rules, SIGNATURE_DEPTH), &positions)?,
        greedy_moves: greedy_moves(SIGNATURE_GAMES)?,
    })
}
