//! Time and memory budgets from the manager's `INFO` values.
//!
//! The time limits are hard (an engine that answers late loses), so every
//! budget keeps a safety margin for what the engine does not control: the
//! search reads the clock only every few dozen nodes, the reply has to
//! travel through a pipe, and on a loaded machine the process may wait for
//! a CPU. Measured on a 2-core machine with a load average of 8, a search
//! with a time limit of 100 ms answered within 112 ms in 99% of moves.
//!
//! The margin is therefore not fixed: a small floor ([`MIN_MARGIN`], or
//! [`TURN_MARGIN_FRACTION`] of the turn), raised to [`LATE_FACTOR`] times
//! how late recent answers came against their plan ([`TimeControl::late`]).
//! On an idle machine a 100 ms turn then searches about 85 ms instead of
//! 55 ms, and a loaded machine widens its own margin after one late
//! answer. Time is strength: the same search given 155 ms instead of 55 ms
//! a move scored +127 ± 43 Elo against itself (200 games).

use std::time::Duration;

/// Margin kept from the turn limit: this fraction of it…
pub const TURN_MARGIN_FRACTION: f64 = 0.05;
/// …but at least this much (what the pipe and the manager's own reading
/// of the reply take, which the engine cannot measure)…
pub const MIN_MARGIN: Duration = Duration::from_millis(15);
/// …and at least this many times [`TimeControl::late`], the lateness of
/// recent answers against their plan: a machine that made one answer late
/// keeps a margin that would have absorbed it twice over.
pub const LATE_FACTOR: u32 = 2;
/// Each answer keeps this share of the remembered lateness (before taking
/// the maximum with its own): a spike widens the margin at once and is
/// forgotten over a few dozen moves, a steadily loaded machine keeps it.
pub const LATE_DECAY: f64 = 0.9;
/// The margin never exceeds this share of the turn, however late answers
/// came (a move must still be searched).
pub const MAX_MARGIN_FRACTION: f64 = 0.5;
/// Part of `time_left` never planned for…
pub const MATCH_RESERVE_FRACTION: f64 = 0.05;
/// …and at least this much.
pub const MIN_MATCH_RESERVE: Duration = Duration::from_millis(40);
/// With a match clock, a move whose search has not settled may take up to
/// this many times its share of the clock (see [`TimeControl::stretch`]).
pub const STRETCH_FACTOR: u32 = 3;
/// Below this a search is not worth starting: play at depth 1.
pub const MIN_SEARCH: Duration = Duration::from_millis(15);
/// The longest turn limit honoured: 1 hour. A larger `timeout_turn` (some
/// managers send 2^31 − 1 or more to mean "no limit") counts as this, so
/// a move never takes longer than 57 minutes (the limit less its margin):
/// the engine reads no input while it thinks, so nothing else could stop
/// it.
pub const MAX_TURN_MS: u64 = 3_600_000;
/// The longest match time honoured (`timeout_match`, `time_left`): 7 days.
/// Larger values count as this; at 7 days the match clock never binds
/// below [`MAX_TURN_MS`], so they still mean "no limit".
pub const MAX_MATCH_MS: u64 = 7 * 24 * 3_600_000;

/// How long to think about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Answer at once: a depth-1 search, no clock.
    Instant,
    /// Search with this time limit (measured from when the command arrived).
    Think(Duration),
}

/// The manager's time settings, all in milliseconds as sent, and the time
/// this engine has used since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// `INFO timeout_turn`: the limit per move; 0 means play at once.
    pub timeout_turn: Option<u64>,
    /// `INFO timeout_match`: the limit for the whole game; 0 means none.
    pub timeout_match: Option<u64>,
    /// `INFO time_left`: what remained of the match limit when it was sent.
    pub time_left: Option<u64>,
    /// The turn limit assumed when the manager sends no `timeout_turn`.
    pub default_turn: u64,
    /// Time spent on moves since the last `time_left`.
    pub used_since_left: Duration,
    /// Time spent on moves in this game.
    pub used_in_game: Duration,
    /// How late recent answers came against their plan, as a decaying
    /// maximum ([`TimeControl::answered`]); kept from game to game, since
    /// the machine's load outlasts a game.
    pub late: Duration,
}

impl TimeControl {
    /// A game's clock before any `INFO`: `default_turn` ms a move and no
    /// match limit.
    pub fn new(default_turn: u64) -> TimeControl {
        TimeControl {
            timeout_turn: None,
            timeout_match: None,
            time_left: None,
            default_turn,
            used_since_left: Duration::ZERO,
            used_in_game: Duration::ZERO,
            late: Duration::ZERO,
        }
    }

    /// The turn limit in force (the default if none was sent), at most
    /// [`MAX_TURN_MS`].
    pub fn turn_limit(&self) -> u64 {
        self.timeout_turn
            .unwrap_or(self.default_turn)
            .min(MAX_TURN_MS)
    }

    /// `INFO time_left`.
    pub fn set_time_left(&mut self, ms: u64) {
        self.time_left = Some(ms);
        self.used_since_left = Duration::ZERO;
    }

    /// A move took `d` (from the command to the reply).
    pub fn record(&mut self, d: Duration) {
        self.used_since_left += d;
        self.used_in_game += d;
    }

    /// An answer was sent `late` after the time its search planned to
    /// answer by (zero when on time): remembered as a decaying maximum,
    /// which widens the margin of later moves ([`TimeControl::margin`]).
    pub fn answered(&mut self, late: Duration) {
        self.late = late.max(self.late.mul_f64(LATE_DECAY));
    }

    /// The margin kept from a turn limit of `turn`:
    /// `max(5% of turn, 15 ms, 2 × late)`, at most half the turn.
    pub fn margin(&self, turn: Duration) -> Duration {
        turn.mul_f64(TURN_MARGIN_FRACTION)
            .max(MIN_MARGIN)
            .max(self.late * LATE_FACTOR)
            .min(turn.mul_f64(MAX_MARGIN_FRACTION))
    }

    /// A new game: the match clock starts again, and a `time_left` from
    /// the last game no longer holds.
    pub fn new_game(&mut self) {
        self.time_left = None;
        self.used_since_left = Duration::ZERO;
        self.used_in_game = Duration::ZERO;
    }

    /// What is left of the match time, if there is a match limit: the last
    /// `time_left` less the time used since (managers send it before every
    /// move, so that is usually nothing), else `timeout_match` less the time
    /// used this game. `timeout_match 0` with `time_left 0` (or none) means
    /// no limit; a huge `time_left` (how some managers say "no limit")
    /// counts as [`MAX_MATCH_MS`] and so never binds.
    pub fn match_left(&self) -> Option<Duration> {
        let no_match_limit = self.timeout_match == Some(0);
        let ms = |v: u64| Duration::from_millis(v.min(MAX_MATCH_MS));
        match self.time_left {
            Some(0) if no_match_limit => None,
            Some(left) => Some(ms(left).saturating_sub(self.used_since_left)),
            None => match self.timeout_match {
                Some(m) if m > 0 => Some(ms(m).saturating_sub(self.used_in_game)),
                _ => None,
            },
        }
    }

    /// The budget for one move when `empties` cells are empty:
    ///
    /// `min(turn − margin(turn), (left − max(5% of left, 40 ms))
    /// / moves_to_go)`, where the margin is [`TimeControl::margin`], `left`
    /// is [`TimeControl::match_left`] and
    /// `moves_to_go = clamp(empties / 4, 12, 40)` estimates this engine's
    /// remaining moves, `turn` is at most [`MAX_TURN_MS`] and `left` at
    /// most [`MAX_MATCH_MS`]. `timeout_turn 0`, or a budget under 15 ms, is
    /// [`Budget::Instant`].
    pub fn budget(&self, empties: usize) -> Budget {
        let turn = self.turn_limit();
        if turn == 0 {
            return Budget::Instant;
        }
        let turn = Duration::from_millis(turn);
        let mut budget = turn.saturating_sub(self.margin(turn));
        if let Some(left) = self.match_left() {
            let reserve = left.mul_f64(MATCH_RESERVE_FRACTION).max(MIN_MATCH_RESERVE);
            let usable = left.saturating_sub(reserve);
            let to_go = (empties / 4).clamp(12, 40) as u32;
            budget = budget.min(usable / to_go);
        }
        if budget < MIN_SEARCH {
            Budget::Instant
        } else {
            Budget::Think(budget)
        }
    }
}

impl TimeControl {
    /// The hard limit for a move whose soft limit is `budget(empties)`:
    /// the same under a turn limit alone (time saved on one move is not
    /// given to the next, so every move may use all of it). With a match
    /// clock, [`STRETCH_FACTOR`] times the share, at most the turn's
    /// budget (and, as a share is at most a 12th of the usable clock, at
    /// most a quarter of it): the search stops at its share when it has
    /// settled, and spends the stretch only when its best move changes or
    /// its score falls.
    pub fn stretch(&self, empties: usize) -> Budget {
        let soft = match self.budget(empties) {
            Budget::Think(d) => d,
            Budget::Instant => return Budget::Instant,
        };
        if self.match_left().is_none() {
            return Budget::Think(soft);
        }
        let turn = Duration::from_millis(self.turn_limit());
        let turn_budget = turn.saturating_sub(self.margin(turn));
        let hard = (soft * STRETCH_FACTOR).min(turn_budget).max(soft);
        Budget::Think(hard)
    }
}

/// Bytes per transposition-table entry in the search player.
pub const TT_ENTRY_BYTES: u64 = crate::players::TT_ENTRY_BYTES as u64;
/// Memory assumed for everything but the table (code, board, evaluator).
pub const BASE_MEMORY: u64 = 8 << 20;
/// Table size with no memory limit: 2^20 entries (24 MiB).
pub const DEFAULT_TT_BITS: u32 = 20;
/// Table size for turns under a second: 2^18 entries (6 MiB), more than
/// such a search visits.
pub const SHORT_TT_BITS: u32 = 18;
/// Largest table: 2^22 entries (96 MiB), only for turns of 5 s or more.
pub const MAX_TT_BITS: u32 = 22;
/// Smallest table.
pub const MIN_TT_BITS: u32 = 8;

/// log2 of the transposition-table size: the table takes at most half of
/// what `max_memory` leaves after [`BASE_MEMORY`] (`None` or 0: no
/// limit). The turn limit caps it: [`SHORT_TT_BITS`] under 1 s (and for
/// `timeout_turn 0`), [`DEFAULT_TT_BITS`] under 5 s, else
/// [`MAX_TT_BITS`]. A bigger table would not fill in that time and costs
/// time to allocate and clear.
pub fn tt_bits(max_memory: Option<u64>, turn_ms: u64) -> u32 {
    let cap = if turn_ms >= 5000 {
        MAX_TT_BITS
    } else if turn_ms >= 1000 {
        DEFAULT_TT_BITS
    } else {
        SHORT_TT_BITS
    };
    let m = match max_memory {
        None | Some(0) => return cap,
        Some(m) => m,
    };
    let room = m.saturating_sub(BASE_MEMORY) / 2;
    let mut bits = MIN_TT_BITS;
    while bits < cap && TT_ENTRY_BYTES << (bits + 1) <= room {
        bits += 1;
    }
    bits
}

/// Assumed allocation speed of a table, bytes per second: a fresh table's
/// pages are touched as it is zeroed (measured 0.6 to 2 GB/s on a loaded
/// machine).
pub const ALLOC_BYTES_PER_SEC: f64 = 0.5e9;

/// The table size to use during a move when the settings call for `want`
/// bits and the table has `have`: shrinking is free; growing happens only
/// as far as the allocation takes at most a tenth of the move's `budget`
/// (a table grown too late would make the move late). The rest of the
/// growth waits for a move with more time, or for the next `START`.
pub fn affordable_bits(have: u32, want: u32, budget: Duration) -> u32 {
    if want <= have {
        return want;
    }
    let mut bits = have;
    while bits < want {
        let bytes = (TT_ENTRY_BYTES << (bits + 1)) as f64;
        if Duration::from_secs_f64(bytes / ALLOC_BYTES_PER_SEC) * 10 > budget {
            break;
        }
        bits += 1;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(turn: Option<u64>, matc: Option<u64>, left: Option<u64>) -> TimeControl {
        TimeControl {
            timeout_turn: turn,
            timeout_match: matc,
            time_left: left,
            ..TimeControl::new(2000)
        }
    }

    fn ms(b: Budget) -> u128 {
        match b {
            Budget::Instant => 0,
            Budget::Think(d) => d.as_millis(),
        }
    }

    #[test]
    fn a_move_stretches_only_on_a_match_clock() {
        // A turn limit alone: the hard limit is the budget.
        for turn in [100, 300, 1000, 30000] {
            let t = tc(Some(turn), None, None);
            assert_eq!(t.stretch(225), t.budget(225), "{turn}");
        }
        // 100 s left, 40 moves to go: 2.375 s a move, stretched to 3 × that.
        let t = tc(Some(30000), Some(180000), Some(100000));
        assert_eq!(ms(t.stretch(400)), 3 * 2375);
        // The turn's budget caps the stretch.
        let t = tc(Some(5000), Some(180000), Some(100000));
        assert_eq!((ms(t.budget(400)), ms(t.stretch(400))), (2375, 4750));
        // Late in a game: (10 − 0.5) / 12 s = 791.67 ms, and 3 × that.
        let t = tc(Some(30000), Some(180000), Some(10000));
        assert_eq!((ms(t.budget(20)), ms(t.stretch(20))), (791, 2374));
        // Out of time: at once, either way.
        let t = tc(Some(1000), Some(180000), Some(200));
        assert_eq!(t.stretch(200), Budget::Instant);
    }

    #[test]
    fn turn_limits() {
        assert_eq!(tc(Some(0), None, None).budget(225), Budget::Instant);
        // 15 ms, or 5% from 300 ms on.
        assert_eq!(ms(tc(Some(200), None, None).budget(225)), 185);
        assert_eq!(ms(tc(Some(100), None, None).budget(225)), 85);
        assert_eq!(ms(tc(Some(1000), None, None).budget(225)), 950);
        assert_eq!(ms(tc(Some(30000), None, None).budget(225)), 28500);
        assert_eq!(ms(tc(None, None, None).budget(225)), 1900);
        // Too short to search.
        assert_eq!(tc(Some(29), None, None).budget(225), Budget::Instant);
        assert_eq!(ms(tc(Some(30), None, None).budget(225)), 15);
    }

    #[test]
    fn match_limits() {
        // 100 s left, 40 moves to go: (100 − 5) / 40 = 2.375 s.
        let t = tc(Some(30000), Some(180000), Some(100000));
        assert_eq!(ms(t.budget(400)), 2375);
        // Late in the game fewer moves are expected: (100 − 5) / 12.
        assert_eq!(ms(t.budget(20)), 7916);
        // The turn limit still binds.
        assert_eq!(
            ms(tc(Some(1000), Some(180000), Some(100000)).budget(20)),
            950
        );
        // Almost out of time: play at once.
        assert_eq!(
            tc(Some(1000), Some(180000), Some(200)).budget(200),
            Budget::Instant
        );
        // "No limit" spellings.
        assert_eq!(ms(tc(Some(1000), Some(0), Some(0)).budget(200)), 950);
        assert_eq!(
            ms(tc(Some(1000), None, Some(4611686018427387903)).budget(200)),
            950
        );
        assert_eq!(ms(tc(Some(1000), None, Some(u64::MAX)).budget(200)), 950);
    }

    #[test]
    fn absurd_limits_are_clamped() {
        // The longest think: 1 h less 5%.
        let longest = (MAX_TURN_MS as f64 * (1.0 - TURN_MARGIN_FRACTION)) as u128;
        assert_eq!(longest, 3_420_000);
        for turn in [
            MAX_TURN_MS,
            MAX_TURN_MS + 1,
            1 << 31,
            9_999_999_999,
            1 << 63,
            u64::MAX,
        ] {
            for (matc, left) in [
                (None, None),
                (Some(0), None),
                (Some(0), Some(0)),
                (Some(u64::MAX), None),
                (None, Some(1 << 63)),
                (Some(u64::MAX), Some(u64::MAX)),
            ] {
                let t = tc(Some(turn), matc, left);
                assert_eq!(t.turn_limit(), MAX_TURN_MS);
                for empties in [0, 9, 225, 676] {
                    assert_eq!(ms(t.budget(empties)), longest, "{turn} {matc:?} {left:?}");
                }
            }
        }
        // The default turn is clamped too.
        assert_eq!(ms(TimeControl::new(u64::MAX).budget(225)), longest);
        // A match limit past 7 days counts as 7 days, less the time used.
        let mut t = tc(Some(1000), Some(u64::MAX), None);
        assert_eq!(t.match_left(), Some(Duration::from_millis(MAX_MATCH_MS)));
        t.record(Duration::from_secs(3600));
        assert_eq!(
            t.match_left(),
            Some(Duration::from_millis(MAX_MATCH_MS - 3_600_000))
        );
        t.set_time_left(1 << 40);
        assert_eq!(t.match_left(), Some(Duration::from_millis(MAX_MATCH_MS)));
        // Within the caps nothing changes.
        assert_eq!(
            ms(tc(Some(MAX_TURN_MS - 1000), None, None).budget(9)),
            3_419_050
        );
        // Negative values arrive as 0 (see `protocol::info_number`): at once.
        assert_eq!(tc(Some(0), None, None).budget(225), Budget::Instant);
        assert_eq!(
            tc(Some(1 << 40), Some(1000), Some(0)).budget(225),
            Budget::Instant
        );
    }

    #[test]
    fn late_answers_widen_the_margin() {
        let mut t = tc(Some(100), None, None);
        assert_eq!(ms(t.budget(225)), 85);
        // On time: the floor stays.
        t.answered(Duration::ZERO);
        assert_eq!(ms(t.budget(225)), 85);
        // 20 ms late: a margin of twice that from the next move on.
        t.answered(Duration::from_millis(20));
        assert_eq!(ms(t.budget(225)), 60);
        // Forgotten slowly: 18 ms, then 16.2 ms remembered.
        t.answered(Duration::ZERO);
        assert_eq!(ms(t.budget(225)), 64);
        t.answered(Duration::ZERO);
        assert_eq!(ms(t.budget(225)), 67);
        // Forty answers on time later, the floor is back.
        for _ in 0..40 {
            t.answered(Duration::ZERO);
        }
        assert_eq!(ms(t.budget(225)), 85);
        // A huge delay costs at most half the turn, and a new game keeps
        // it (the load outlasts the game).
        t.answered(Duration::from_secs(1));
        assert_eq!(ms(t.budget(225)), 50);
        t.new_game();
        assert_eq!(ms(t.budget(225)), 50);
        // With a match clock the stretched limit keeps the margin too.
        let mut t = tc(Some(5000), Some(180000), Some(100000));
        t.answered(Duration::from_millis(400));
        assert_eq!(ms(t.stretch(400)), 4200);
    }

    #[test]
    fn time_used_counts_until_the_next_time_left() {
        // Only timeout_match: what this game used is taken off it.
        let mut t = tc(Some(30000), Some(100000), None);
        assert_eq!(ms(t.budget(400)), 2375);
        t.record(Duration::from_secs(50));
        // (50 − 2.5) / 40
        assert_eq!(ms(t.budget(400)), 1187);
        // A time_left replaces the estimate, and later use counts from it:
        // (20 − 1) / 40, then (10 − 0.5) / 40.
        t.set_time_left(20000);
        assert_eq!(ms(t.budget(400)), 475);
        t.record(Duration::from_secs(10));
        assert_eq!(ms(t.budget(400)), 237);
        // A new game forgets both.
        t.new_game();
        assert_eq!(ms(t.budget(400)), 2375);
    }

    #[test]
    fn table_sizes() {
        assert_eq!(tt_bits(None, 1000), DEFAULT_TT_BITS);
        assert_eq!(tt_bits(Some(0), 30000), MAX_TT_BITS);
        // 350 MB (Gomocup): plenty for the long-turn cap.
        assert_eq!(tt_bits(Some(350 << 20), 30000), 22);
        // 40 MB: (40 − 8) / 2 = 16 MB → 2^19 entries (12 MiB).
        assert_eq!(tt_bits(Some(40 << 20), 30000), 19);
        for m in [1u64 << 20, 40 << 20, 100 << 20, 350 << 20, 1 << 40] {
            let b = tt_bits(Some(m), 30000);
            assert!(b == MIN_TT_BITS || (TT_ENTRY_BYTES << b) <= (m - BASE_MEMORY) / 2);
        }
        assert_eq!(tt_bits(Some(1 << 20), 1000), MIN_TT_BITS);
        assert_eq!(tt_bits(None, 200), SHORT_TT_BITS);
        let ms = Duration::from_millis;
        // Shrinking is immediate, growing waits for time: 2^18 entries
        // (6 MiB, about 13 ms) needs a budget of 126 ms or more.
        assert_eq!(affordable_bits(22, 18, Duration::ZERO), 18);
        assert_eq!(affordable_bits(8, 18, Duration::ZERO), 8);
        assert_eq!(affordable_bits(8, 18, ms(140)), 18);
        assert_eq!(affordable_bits(8, 18, ms(100)), 17);
        assert_eq!(affordable_bits(20, 22, ms(25500)), 22);
        assert_eq!(affordable_bits(20, 22, ms(500)), 20);
        assert_eq!(tt_bits(Some(350 << 20), 0), SHORT_TT_BITS);
    }
}
