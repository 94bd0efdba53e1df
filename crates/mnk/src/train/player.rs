//! The trained player: the one kind of player (greedy or search, with its
//! search limits) whose weights a run improves, and the match of two weight
//! sets that every part of training plays.

use super::setting::{Field, Problem};
use super::TrainError;
use crate::arena::{GameError, MatchPlan, MatchReport, Opening};
use crate::eval::Weights;
use crate::game::Rules;
use crate::players::{Greedy, Player, PlayerKind, PlayerSpec, Search, SearchLimits, SpecError};

/// The player whose weights are trained: `greedy` or `search:…`, built
/// from a [`PlayerSpec`] without a weights file (the trainer supplies the
/// weights).
#[derive(Clone, Debug, PartialEq)]
pub struct TrainedPlayer {
    /// Greedy or search (checked when parsed), without weights.
    spec: PlayerSpec,
}

impl TrainedPlayer {
    /// Parses a player spec and checks it can be trained.
    pub fn parse(text: &str) -> Result<TrainedPlayer, TrainError> {
        let spec: PlayerSpec = text.parse().map_err(|e: SpecError| TrainError::Config {
            field: Field::Player,
            problem: Problem::Other(e.to_string()),
        })?;
        let bad = |problem: Problem| TrainError::Config {
            field: Field::Player,
            problem,
        };
        let other = |message: &str| bad(Problem::Other(format!("{text:?}: {message}")));
        if spec.weights.is_some() || spec.any_game {
            return Err(bad(Problem::PlayerHasWeights { spec: text.into() }));
        }
        match &spec.kind {
            PlayerKind::Search(l) if l.time.is_some() => {
                return Err(other(
                    "a time limit makes games depend on the machine's speed; use depth or nodes",
                ))
            }
            kind if kind.takes_weights() => {}
            _ => {
                return Err(other(
                    "only greedy and search players have weights to train",
                ))
            }
        }
        Ok(TrainedPlayer { spec })
    }

    /// The search limits; `None` for greedy.
    fn limits(&self) -> Option<&SearchLimits> {
        match &self.spec.kind {
            PlayerKind::Search(l) => Some(l),
            _ => None,
        }
    }

    /// The weights this player ships with ([`PlayerSpec::shipped_weights`]).
    pub fn shipped_weights(&self, rules: Rules) -> Weights {
        self.spec.shipped_weights(rules)
    }

    /// The spec text (`greedy`, `search:depth=2,width=9`).
    pub fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The parsed spec (for memory checks).
    pub(crate) fn player_spec(&self) -> &PlayerSpec {
        &self.spec
    }

    /// Builds the player with the given weights.
    pub fn build(&self, weights: Weights) -> Box<dyn Player> {
        match self.limits() {
            None => Box::new(Greedy::new(weights).named(self.spec.to_string())),
            Some(l) => Box::new(Search::new(weights, l.clone()).named(self.spec.to_string())),
        }
    }

    /// The search player at `depth` with this player's other search
    /// options (width, nodes), or the default ones for greedy, with a
    /// table of 2^`tt_bits` entries.
    pub fn search_at_depth(&self, depth: u32, tt_bits: u32) -> SearchLimits {
        let base = self.limits().cloned().unwrap_or_default();
        SearchLimits {
            depth,
            tt_bits,
            width: base.width,
            late: base.late,
            nodes: base.nodes,
            ..SearchLimits::default()
        }
    }

    /// This player's search limits with a smaller table (for checks that
    /// clear the table before every move), if it is the search player.
    pub fn search_limits(&self, tt_bits: u32) -> Option<SearchLimits> {
        let depth = self.limits()?.depth;
        Some(self.search_at_depth(depth, tt_bits))
    }

    /// Weights `a` against weights `b`, both played by this player: a
    /// paired match over `openings` (each with both colours, numbered from
    /// `first` for the games' seeds), from `a`'s view.
    pub fn head_to_head(
        &self,
        rules: Rules,
        a: &Weights,
        b: &Weights,
        openings: &[Opening],
        first: usize,
        seed: u64,
    ) -> Result<MatchReport, GameError> {
        let make_a = || self.build(a.clone());
        let make_b = || self.build(b.clone());
        MatchPlan::new(rules, openings, &make_a, &make_b, seed)
            .numbered_from(first)
            .run(false)
    }
}
