//! Matches and round robins over rayon.
//!
//! Every game gets its own generator seeded from (match seed, pairing,
//! opening, colour), and results are gathered in task order, so the
//! outcome of a match never depends on the number of threads or on which
//! thread played which game. Players are built once per rayon job (a few
//! dozen per match, not one per game) and reset between games
//! ([`Player::new_game`]).
//!
//! In a job of several processes (MPI ranks, [`super::ranks`]) each
//! process plays its share of the games and the results are summed over
//! the processes, giving every process the report one process would have
//! made alone.
//!
//! [`MatchPlan::run_observed`] also hands each game to a callback the moment it
//! ends (in whatever order the threads finish them); [`MatchReport::from_games`]
//! puts such games back in match order, which is how `mnk match` keeps the
//! games of a match stopped by Ctrl-C.

use super::game::{play_game, GameError};
use super::openings::Opening;
use super::ranks::Share;
use super::stats::{GameResult, PairedTally, Tally};
use crate::game::{Board, Color, Move, Outcome, Rules};
use crate::players::{Player, Rng};
use rand::SeedableRng;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Mixes values into a seed (SplitMix64 finaliser over a running hash).
pub fn derive_seed(base: u64, parts: &[u64]) -> u64 {
    let mut h = base ^ 0x6A09_E667_F3BC_C908;
    for &p in parts {
        h = crate::game::splitmix64(h.wrapping_add(p)).1;
    }
    h
}

/// A generator for one game.
pub fn game_rng(base: u64, parts: &[u64]) -> Rng {
    Rng::seed_from_u64(derive_seed(base, parts))
}

/// One game of a match, kept when records are asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The opening's number in the match (counting from `first_opening`).
    pub opening: usize,
    /// Whether player A had black.
    pub a_black: bool,
    /// Every move of the game, the opening's included.
    pub moves: Vec<Move>,
    /// How it ended.
    pub outcome: Outcome,
}

impl PlayedGame {
    /// The result for player A.
    pub fn a_result(&self) -> GameResult {
        result_for(
            self.outcome,
            if self.a_black {
                Color::Black
            } else {
                Color::White
            },
        )
    }

    /// The game's place in its match: the openings in order, A's black
    /// game first (the order of [`MatchReport::games`]).
    pub fn order(&self) -> (usize, bool) {
        (self.opening, !self.a_black)
    }
}

/// Called with each game of a match the moment it ends, on the thread that
/// played it: games of different openings come in no particular order.
pub type OnGame<'a> = &'a (dyn Fn(&PlayedGame) + Sync);

/// The result of a match, from player A's view.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// A's results: every game, and every opening's pair of games.
    pub tally: PairedTally,
    /// Moves played in all games, openings included.
    pub plies: u64,
    /// The games themselves, in match order, when they were asked for
    /// (else empty).
    pub games: Vec<PlayedGame>,
    /// Wall-clock time of the match.
    pub elapsed: Duration,
}

impl MatchReport {
    /// Number of games counted.
    pub fn games_played(&self) -> u64 {
        self.tally.games.games()
    }

    /// Adds a later part of the same match (another batch of openings).
    pub fn merge(&mut self, other: MatchReport) {
        self.tally.merge(&other.tally);
        self.plies += other.plies;
        self.games.extend(other.games);
        self.elapsed += other.elapsed;
    }

    /// The report of some games of a match, such as those that ended
    /// before it was stopped, put in match order: an opening whose two
    /// games are both there counts as a pair, a lone game as a single game.
    /// `elapsed` is left at zero.
    ///
    /// ```
    /// use mnk_core::arena::{MatchReport, PlayedGame};
    /// use mnk_core::game::{Color, Outcome};
    /// let game = |opening, a_black, winner| PlayedGame {
    ///     opening,
    ///     a_black,
    ///     moves: vec!["h8".parse().unwrap(); 9],
    ///     outcome: Outcome::Win(winner),
    /// };
    /// // Opening 4's games (A won with black and with white), then
    /// // opening 7's first game (A lost), in the order they ended.
    /// let report = MatchReport::from_games([
    ///     game(7, true, Color::White),
    ///     game(4, false, Color::White),
    ///     game(4, true, Color::Black),
    /// ]);
    /// use mnk_core::arena::stats::{Pentanomial, Tally};
    /// assert_eq!(report.tally.games, Tally::new(2, 0, 1));
    /// assert_eq!(report.tally.pairs, Pentanomial::new([0, 0, 0, 0, 1]));
    /// let order: Vec<_> = report.games.iter().map(|g| g.order()).collect();
    /// assert_eq!(order, [(4, false), (4, true), (7, false)]);
    /// assert_eq!(report.plies, 27);
    /// ```
    pub fn from_games(games: impl IntoIterator<Item = PlayedGame>) -> MatchReport {
        let by_order: BTreeMap<(usize, bool), PlayedGame> =
            games.into_iter().map(|g| (g.order(), g)).collect();
        let mut report = MatchReport::default();
        let mut games = by_order.into_values().peekable();
        while let Some(g) = games.next() {
            report.plies += g.moves.len() as u64;
            let partner = games
                .next_if(|h| h.opening == g.opening)
                .inspect(|h| report.plies += h.moves.len() as u64);
            match &partner {
                Some(h) => report.tally.add_pair(g.a_result(), h.a_result()),
                None => report.tally.add_single(g.a_result()),
            }
            report.games.push(g);
            report.games.extend(partner);
        }
        report
    }
}

/// A builds players on demand, one set per worker thread.
pub type Factory<'a> = &'a (dyn Fn() -> Box<dyn Player> + Sync);

fn result_for(outcome: Outcome, side: Color) -> GameResult {
    match outcome {
        Outcome::Draw => GameResult::Draw,
        Outcome::Win(c) if c == side => GameResult::Win,
        Outcome::Win(_) => GameResult::Loss,
    }
}

/// What a match plays: every opening twice (A black, then A white)
/// between the players the two factories build, seeded by `seed` and the
/// opening's number. Openings are numbered from `first_opening`, so a
/// match played in batches seeds like one played at once.
///
/// ```
/// use mnk_core::arena::{game_rng, random_openings, MatchPlan, OpeningStyle};
/// use mnk_core::eval::shipped_weights;
/// use mnk_core::game::Rules;
/// use mnk_core::players::{Greedy, Player};
/// let rules = Rules::TICTACTOE;
/// let openings = random_openings(rules, OpeningStyle::default_for(rules), 4, &mut game_rng(1, &[]));
/// let greedy = || Box::new(Greedy::new(shipped_weights(rules))) as Box<dyn Player>;
/// let report = MatchPlan::new(rules, &openings, &greedy, &greedy, 7).run(false).unwrap();
/// assert_eq!(report.games_played(), 8);
/// ```
#[derive(Clone, Copy)]
pub struct MatchPlan<'a> {
    /// The game.
    pub rules: Rules,
    /// The openings, each played with both colours.
    pub openings: &'a [Opening],
    /// The number of the first opening, for seeding.
    pub first_opening: usize,
    /// Builds player A (once per worker thread).
    pub a: Factory<'a>,
    /// Builds player B.
    pub b: Factory<'a>,
    /// The match's seed.
    pub seed: u64,
}

impl std::fmt::Debug for MatchPlan<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MatchPlan")
            .field("rules", &self.rules)
            .field("openings", &self.openings.len())
            .field("first_opening", &self.first_opening)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

impl<'a> MatchPlan<'a> {
    /// A match over `openings`, numbered from 0.
    pub fn new(
        rules: Rules,
        openings: &'a [Opening],
        a: Factory<'a>,
        b: Factory<'a>,
        seed: u64,
    ) -> MatchPlan<'a> {
        MatchPlan {
            rules,
            openings,
            first_opening: 0,
            a,
            b,
            seed,
        }
    }

    /// The same match with its openings numbered from `first`.
    pub fn numbered_from(self, first: usize) -> MatchPlan<'a> {
        MatchPlan {
            first_opening: first,
            ..self
        }
    }

    /// Plays the match; the report keeps every game if `keep_games`.
    pub fn run(&self, keep_games: bool) -> Result<MatchReport, GameError> {
        play_match(self, if keep_games { Kept::All } else { Kept::None })
    }

    /// [`MatchPlan::run`], handing every game to `on_game` the moment it
    /// ends instead of keeping it in the report (whose `games` stay empty):
    /// for a progress line, or to keep the games played so far of a match
    /// that may be stopped. The games and the report are the same as
    /// [`MatchPlan::run`]'s.
    pub fn run_observed(&self, on_game: OnGame) -> Result<MatchReport, GameError> {
        play_match(self, Kept::Observed(on_game))
    }
}

/// What becomes of the games of a match.
#[derive(Clone, Copy)]
enum Kept<'a> {
    None,
    All,
    Observed(OnGame<'a>),
}

fn play_match(plan: &MatchPlan, keep: Kept) -> Result<MatchReport, GameError> {
    let MatchPlan {
        rules,
        openings,
        first_opening,
        a: make_a,
        b: make_b,
        seed,
    } = *plan;
    let start = Instant::now();
    let share = Share::start();
    let played: Vec<Result<(usize, Pair), GameError>> = share
        .mine(openings.len())
        .into_par_iter()
        .map_init(
            || (make_a(), make_b(), Board::new(rules)),
            |(a, b, board), i| {
                let idx = (first_opening + i) as u64;
                let mut pair = Pair {
                    results: [GameResult::Draw; 2],
                    plies: [0; 2],
                    games: Vec::new(),
                };
                for (g, a_black) in [true, false].into_iter().enumerate() {
                    let mut rng = game_rng(seed, &[idx, u64::from(!a_black)]);
                    let (black, white) = if a_black {
                        (&mut *a, &mut *b)
                    } else {
                        (&mut *b, &mut *a)
                    };
                    let op = &openings[i];
                    let o = play_game(rules, op, black.as_mut(), white.as_mut(), board, &mut rng)?;
                    let side = if a_black { Color::Black } else { Color::White };
                    pair.results[g] = result_for(o, side);
                    pair.plies[g] = board.ply() as u64;
                    let game = || PlayedGame {
                        opening: first_opening + i,
                        a_black,
                        moves: board.moves().collect(),
                        outcome: o,
                    };
                    match keep {
                        Kept::None => {}
                        Kept::All => pair.games.push(game()),
                        Kept::Observed(on_game) => on_game(&game()),
                    }
                }
                Ok((i, pair))
            },
        )
        .collect();
    let mine: Vec<(usize, Pair)> = played
        .into_iter()
        .collect::<Result<_, _>>()
        .map_err(|e| share.fail(e))?;
    // Shared among ranks, kept games travel whole (their moves); without
    // them only the counts do, which sum to what one process counts.
    let kept_games = share.is_split() && matches!(keep, Kept::All);
    let pairs = if kept_games {
        gather_pairs(&share, rules, openings.len(), first_opening, mine)
    } else {
        mine.into_iter().map(|(_, p)| p).collect()
    };
    let mut report = MatchReport::default();
    for p in pairs {
        report.tally.add_pair(p.results[0], p.results[1]);
        report.plies += p.plies[0] + p.plies[1];
        report.games.extend(p.games);
    }
    if share.is_split() && !kept_games {
        let mut plies = [report.plies];
        gather_tallies(&share, std::slice::from_mut(&mut report.tally), &mut plies);
        report.plies = plies[0];
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Sums paired tallies and other counts over the ranks, in one all-reduce
/// of eight numbers a tally: every field is a count, so the sums are what
/// one process playing every game counts, and the message does not grow
/// with the games.
fn gather_tallies(share: &Share, tallies: &mut [PairedTally], counts: &mut [u64]) {
    let mut slots = Vec::with_capacity(8 * tallies.len() + counts.len());
    for t in tallies.iter() {
        slots.extend([t.games.wins, t.games.draws, t.games.losses]);
        slots.extend(t.pairs.bins);
    }
    slots.extend_from_slice(counts);
    share.gather(&mut slots);
    let (per_tally, rest) = slots.split_at(8 * tallies.len());
    for (t, s) in tallies.iter_mut().zip(per_tally.chunks_exact(8)) {
        t.games = Tally::new(s[0], s[1], s[2]);
        t.pairs.bins.copy_from_slice(&s[3..]);
    }
    counts.copy_from_slice(rest);
}

/// One opening's two games: A's results with black and with white, their
/// lengths in plies (openings included), and the games when kept.
#[derive(Debug)]
struct Pair {
    results: [GameResult; 2],
    plies: [u64; 2],
    games: Vec<PlayedGame>,
}

/// A game result as a number that is never 0 (0 is a slot no rank filled).
fn result_code(r: GameResult) -> u64 {
    match r {
        GameResult::Win => 1,
        GameResult::Draw => 2,
        GameResult::Loss => 3,
    }
}

fn result_of_code(code: u64) -> GameResult {
    match code {
        1 => GameResult::Win,
        2 => GameResult::Draw,
        3 => GameResult::Loss,
        // Every rank plays the same list and fills every slot of its share.
        _ => unreachable!("no rank played this game of a shared match (slot {code})"),
    }
}

/// Every opening's pair, with its games, from the pairs each rank played
/// (`mine`, by index): the results and lengths in one all-reduce of three
/// slots an opening, then every game's moves (their cell indices) in a
/// second, each game at an offset the lengths give: every slot of the
/// second belongs to one move of one game, which one rank played, so the
/// sum is that move's index, cell 0 included.
fn gather_pairs(
    share: &Share,
    rules: Rules,
    n: usize,
    first_opening: usize,
    mine: Vec<(usize, Pair)>,
) -> Vec<Pair> {
    let mut slots = vec![0u64; 3 * n];
    for (i, p) in &mine {
        slots[3 * i] = result_code(p.results[0]);
        slots[3 * i + 1] = result_code(p.results[1]);
        slots[3 * i + 2] = p.plies[0] << 32 | p.plies[1];
    }
    share.gather(&mut slots);
    let mut pairs: Vec<Pair> = slots
        .chunks_exact(3)
        .map(|s| Pair {
            results: [result_of_code(s[0]), result_of_code(s[1])],
            plies: [s[2] >> 32, s[2] & 0xFFFF_FFFF],
            games: Vec::new(),
        })
        .collect();
    let mut offsets = Vec::with_capacity(2 * n + 1);
    offsets.push(0usize);
    for p in &pairs {
        for len in p.plies {
            offsets.push(offsets[offsets.len() - 1] + len as usize);
        }
    }
    let mut cells = vec![0u64; offsets[2 * n]];
    for (i, p) in &mine {
        for (g, game) in p.games.iter().enumerate() {
            let at = offsets[2 * i + g];
            for (k, m) in game.moves.iter().enumerate() {
                cells[at + k] = rules.index(*m) as u64;
            }
        }
    }
    share.sum(&mut cells);
    for (i, p) in pairs.iter_mut().enumerate() {
        for (g, a_black) in [true, false].into_iter().enumerate() {
            let a = if a_black { Color::Black } else { Color::White };
            let outcome = match p.results[g] {
                GameResult::Win => Outcome::Win(a),
                GameResult::Loss => Outcome::Win(a.opponent()),
                GameResult::Draw => Outcome::Draw,
            };
            let moves = cells[offsets[2 * i + g]..offsets[2 * i + g + 1]]
                .iter()
                .map(|&c| rules.move_at(c as usize))
                .collect();
            p.games.push(PlayedGame {
                opening: first_opening + i,
                a_black,
                moves,
                outcome,
            });
        }
    }
    pairs
}

/// Results of a round robin: one paired tally per pairing, from the first
/// player's view, in the order of `pairs`.
#[derive(Clone, Debug, Default)]
pub struct RoundRobinReport {
    /// Each pairing `(i, j)` of player indices with `i`'s results.
    pub pairs: Vec<((usize, usize), PairedTally)>,
    /// Moves played in all games, openings included.
    pub plies: u64,
    /// Games played.
    pub games: u64,
    /// Wall-clock time of the round robin.
    pub elapsed: Duration,
}

impl RoundRobinReport {
    /// Wins, draws and losses of every player over all its games.
    pub fn per_player(&self, n: usize) -> Vec<Tally> {
        let mut out = vec![Tally::default(); n];
        for &((i, j), t) in &self.pairs {
            out[i].merge(&t.games);
            out[j].merge(&t.games.reversed());
        }
        out
    }
}

/// Plays `pairs` (indices into the players `make(i)` builds), each over
/// every opening with both colours. All games run as one parallel batch.
pub fn round_robin(
    rules: Rules,
    n_players: usize,
    pairs: &[(usize, usize)],
    openings: &[Opening],
    make: &(dyn Fn(usize) -> Box<dyn Player> + Sync),
    seed: u64,
) -> Result<RoundRobinReport, GameError> {
    let start = Instant::now();
    let share = Share::start();
    let tasks: Vec<(usize, usize)> = (0..pairs.len())
        .flat_map(|p| (0..openings.len()).map(move |o| (p, o)))
        .collect();
    type TaskResult = Result<(usize, [GameResult; 2], u64), GameError>;
    let results: Vec<TaskResult> = share
        .mine(tasks.len())
        .into_par_iter()
        .map_init(
            || {
                let players: Vec<Option<Box<dyn Player>>> = (0..n_players).map(|_| None).collect();
                (players, Board::new(rules))
            },
            |(players, board), t| {
                let (p, o) = tasks[t];
                let (i, j) = pairs[p];
                for k in [i, j] {
                    if players[k].is_none() {
                        players[k] = Some(make(k));
                    }
                }
                let (pi, pj) = two_mut(players, i, j);
                let parts = [i as u64, j as u64, o as u64];
                let mut rng = game_rng(seed, &[parts[0], parts[1], parts[2], 0]);
                let o1 = play_game(rules, &openings[o], pi, pj, board, &mut rng)?;
                let mut plies = board.ply() as u64;
                let mut rng = game_rng(seed, &[parts[0], parts[1], parts[2], 1]);
                let o2 = play_game(rules, &openings[o], pj, pi, board, &mut rng)?;
                plies += board.ply() as u64;
                let r = [result_for(o1, Color::Black), result_for(o2, Color::White)];
                Ok((t, r, plies))
            },
        )
        .collect();
    let mine: Vec<(usize, [GameResult; 2], u64)> = results
        .into_iter()
        .collect::<Result<_, _>>()
        .map_err(|e| share.fail(e))?;
    // Every task is two games, whichever rank played it.
    let mut report = RoundRobinReport {
        pairs: pairs.iter().map(|&p| (p, PairedTally::default())).collect(),
        games: 2 * tasks.len() as u64,
        ..Default::default()
    };
    for (t, [r1, r2], plies) in mine {
        report.pairs[tasks[t].0].1.add_pair(r1, r2);
        report.plies += plies;
    }
    if share.is_split() {
        let mut tallies: Vec<PairedTally> = report.pairs.iter().map(|p| p.1).collect();
        let mut plies = [report.plies];
        gather_tallies(&share, &mut tallies, &mut plies);
        for (p, t) in report.pairs.iter_mut().zip(tallies) {
            p.1 = t;
        }
        report.plies = plies[0];
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

fn two_mut(
    v: &mut [Option<Box<dyn Player>>],
    i: usize,
    j: usize,
) -> (&mut dyn Player, &mut dyn Player) {
    assert_ne!(i, j, "a player cannot play itself");
    let (lo, hi) = (i.min(j), i.max(j));
    let (a, b) = v.split_at_mut(hi);
    let (x, y) = (
        a[lo].as_deref_mut().expect("built above"),
        b[0].as_deref_mut().expect("built above"),
    );
    if i < j {
        (x, y)
    } else {
        (y, x)
    }
}
