//! How the engine picks a move: the colours and the search's board from
//! the position, the answers that need no search, and the search itself
//! within limits from the clock, `INFO max_depth` and `INFO max_node`.

use super::position::{build_board, Position, OPP, OWN};
use super::session::Brain;
use super::timing::{self, Budget, MIN_SEARCH};
use crate::eval::{Evaluator, Weights};
use crate::game::{Board, Color, Move, Rules};
use crate::players::{describe_score, Player, Search, SearchLimits};
use std::time::{Duration, Instant};

impl Brain {
    /// The rules of the current board under the current `INFO rule`.
    pub(super) fn rules(&self) -> Option<Rules> {
        let p = self.position.as_ref()?;
        Rules::new(p.width as u32, p.height as u32, 5, self.rule).ok()
    }

    /// Builds the search player for a new game (or empties its table),
    /// so that the time it takes is not spent during the first move.
    pub(super) fn ready_search(&mut self) {
        if let Some(rules) = self.rules() {
            let limits = self.instant_limits();
            let rebuilt = self.search_for(rules, limits, None);
            if !rebuilt {
                if let Some((_, s)) = &mut self.search {
                    s.clear();
                }
            }
            self.tt_dirty = false;
        }
    }

    /// Depth-1 limits with the table size the settings call for.
    fn instant_limits(&self) -> SearchLimits {
        SearchLimits {
            depth: 1,
            width: self.settings.width,
            late: self.settings.late,
            nodes: None,
            time: None,
            soft_time: None,
            tt_bits: timing::tt_bits(self.max_memory, self.clock.turn_limit()),
        }
    }

    /// Makes `self.search` a player for `rules` with `limits`. During a
    /// move (`budget` given) its table grows only as far as allocating it
    /// fits the budget (see [`timing::affordable_bits`]); it always shrinks
    /// at once. Returns whether the player was built anew.
    fn search_for(
        &mut self,
        rules: Rules,
        mut limits: SearchLimits,
        budget: Option<Duration>,
    ) -> bool {
        let current = match &self.search {
            Some((r, s)) if *r == rules => Some(s.limits().tt_bits),
            _ => None,
        };
        if let Some(b) = budget {
            let have = current.unwrap_or(timing::MIN_TT_BITS);
            limits.tt_bits = timing::affordable_bits(have, limits.tt_bits, b);
        }
        match (&mut self.search, current) {
            (Some((_, s)), Some(_)) => {
                s.set_limits(limits);
                false
            }
            (slot, _) => {
                let w = self.settings.weights.clone().for_game(rules);
                *slot = Some((rules, Search::new(w, limits).named("mnk brain")));
                true
            }
        }
    }

    /// The move to play and a one-line report of how it was found.
    pub(super) fn choose(&mut self, start: Instant) -> (Move, String) {
        let rules = self.rules().expect("board sizes are checked at START");
        let p = self.position.as_ref().expect("a board");
        if p.stones.is_empty() {
            return (rules.center(), "empty board: the centre".into());
        }
        let (me, regular, board) = match colours_and_board(p, rules) {
            Ok(found) => found,
            Err(why) => {
                let m = p.central_empty().expect("an empty cell");
                return (m, format!("{why}: the empty cell nearest the centre"));
            }
        };
        if board.to_move() != me {
            return static_fallback(&self.settings.weights, p, &board, me);
        }
        self.search_move(start, &board, regular)
    }

    /// The search's move in `board`, where we are to move. `regular`: the
    /// side to move follows from the stone counts, so the table's entries
    /// from earlier positions are sound.
    fn search_move(&mut self, start: Instant, board: &Board, regular: bool) -> (Move, String) {
        let rules = *board.rules();
        let empties = self.position.as_ref().expect("a board").empties();
        let budget = self.clock.stretch(empties);
        let soft = self.clock.budget(empties);

        // Build or resize the player first: that time counts against the
        // budget, which runs from when the command arrived.
        let mut instant = self.instant_limits();
        let think = match budget {
            Budget::Think(d) => d,
            Budget::Instant => Duration::ZERO,
        };
        if let Budget::Think(d) = budget {
            self.answer_by = Some(start + d);
        }
        let rebuilt = self.search_for(rules, instant.clone(), Some(think));
        let (_, search) = self.search.as_mut().expect("built above");
        instant.tt_bits = search.limits().tt_bits;
        // The table is sound across positions whose side to move follows
        // from the stone counts; an irregular set-up breaks that, so its
        // entries are dropped before and after.
        if (self.tt_dirty || !regular) && !rebuilt {
            search.clear();
        }
        self.tt_dirty = !regular;
        let mut limits = self.limits(budget, start, instant);
        if let (Budget::Think(soft), Budget::Think(hard)) = (soft, budget) {
            if soft < hard && limits.time.is_some() {
                limits.soft_time = Some(soft.saturating_sub(start.elapsed()));
            }
        }
        let (_, search) = self.search.as_mut().expect("built above");
        let limit_text = match limits.time {
            Some(t) => format!("{} ms", t.as_millis()),
            None => "instant".into(),
        };
        search.set_limits(limits);
        let chosen = search.choose(board, &mut self.rng).ok();
        let info = search.info().clone();
        let p = self.position.as_ref().expect("a board");
        let m = match chosen {
            Some(m) if p.is_empty_at(m) => m,
            _ => {
                let m = p.central_empty().expect("an empty cell");
                return (
                    m,
                    "the search found no move: the empty cell nearest the centre".into(),
                );
            }
        };
        let report = format!(
            "depth {} nodes {} eval {} time {} ms limit {} move {}",
            info.depth,
            info.nodes,
            match info.proof {
                Some(p) => format!("{} (proven: {p})", describe_score(info.score)),
                None => describe_score(info.score),
            },
            start.elapsed().as_millis(),
            limit_text,
            m.to_xy()
        );
        (m, report)
    }

    /// The limits of a search that started at `start` with `budget`: the
    /// time left of it, the settings' depth capped by `INFO max_depth`, the
    /// nodes of `INFO max_node`; or the `instant` limits when there is no
    /// time to think.
    fn limits(&self, budget: Budget, start: Instant, instant: SearchLimits) -> SearchLimits {
        let depth = match self.max_depth {
            Some(d) if d > 0 => (self.settings.depth as u64).min(d) as u32,
            _ => self.settings.depth,
        };
        let nodes = self.max_node.filter(|&n| n > 0);
        match budget {
            Budget::Think(d) => {
                let left = d.saturating_sub(start.elapsed());
                if left >= MIN_SEARCH {
                    SearchLimits {
                        depth: depth.max(1),
                        time: Some(left),
                        nodes,
                        ..instant
                    }
                } else {
                    instant
                }
            }
            Budget::Instant => instant,
        }
    }
}

/// Our colour, whether the stone counts are regular (the side to move
/// follows from them), and the search's board. The side with fewer or
/// equal stones moved first (black); "opponent" counts special stones,
/// which are blocked for us and treated as the opponent's.
fn colours_and_board(p: &Position, rules: Rules) -> Result<(Color, bool, Board), String> {
    let own = p.count(OWN);
    let opp = p.count(OPP);
    let me = if own == opp {
        Color::Black
    } else {
        Color::White
    };
    let regular = opp == own || opp == own + 1;
    let board = build_board(p, rules, me)?;
    Ok((me, regular, board))
}

/// The move when only our stones are on the board: no position the search
/// can take (the last stone placed must be the opponent's), so the best
/// cell by static score.
fn static_fallback(weights: &Weights, p: &Position, board: &Board, me: Color) -> (Move, String) {
    let rules = *board.rules();
    let mut eval = Evaluator::new(weights.clone().for_game(rules));
    eval.sync(board);
    let scores = eval.scores(me);
    let best = (0..scores.len())
        .filter(|&i| p.cells[i].is_empty())
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)))
        .map(|i| rules.move_at(i))
        .expect("an empty cell");
    (
        best,
        "no opponent stones: the best cell by static score".into(),
    )
}
