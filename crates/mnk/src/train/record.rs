//! The records of a training run: what a round, a confirmation match and
//! an SPSA step produced. Plain data, written to and read from
//! `rounds.csv`; the algorithms that fill them live in `round`, `confirm`
//! and `spsa`.

use super::config::{CmaesOpponent, Optimizer, RunConfig, Select};
use crate::arena::stats::{PairedTally, Tally};
use crate::eval::Weights;
use crate::util::string_enum;

string_enum! {
    /// Why the round's champion was chosen (the `reason` column of
    /// `rounds.csv`).
    pub enum Reason("reason") {
        /// Round 0: the starting weights.
        Start = "start",
        /// The incumbent has the best score alone.
        IncumbentBest = "incumbent-best",
        /// The incumbent shares the best score with a challenger and is kept.
        IncumbentTied = "incumbent-tied",
        /// One challenger has the best score alone.
        ChallengerBest = "challenger-best",
        /// Several challengers share the best score, above the incumbent; the
        /// lowest-numbered one wins.
        ChallengerTied = "challenger-tied",
        /// `confirm`: the round robin's winning challenger passed the
        /// confirmation match and takes over.
        Confirmed = "confirmed",
        /// `confirm`: the round robin's winning challenger failed the
        /// confirmation match; the incumbent stays.
        NotConfirmed = "not-confirmed",
        /// `best-beats`: the challenger with the best score lost (or drew)
        /// its own pairing with the incumbent; the incumbent stays.
        LostPairing = "lost-pairing",
        /// An SPSA step: θ moved along the step's gradient estimate.
        SpsaStep = "spsa-step",
        /// A CMA-ES generation: the mean moved towards its best candidates.
        CmaesGeneration = "cmaes-generation",
    }
}

/// The result of a round (a random-search round or an SPSA step): what
/// `rounds.csv` records.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundResult {
    /// 0 for the start, then 1, 2, …
    pub round: u32,
    /// The optimiser that played this round.
    pub optimizer: Optimizer,
    /// The selection mode of a random-search round.
    pub select: Select,
    /// The perturbation's σ this round (0 in round 0 and SPSA steps).
    pub sigma: f64,
    /// Games played in the round robin (SPSA: between θ+ and θ−), not
    /// counting a confirmation match.
    pub games: u64,
    /// Plies played over those games.
    pub plies: u64,
    /// W/D/L of every player over the whole round robin: index 0 is the
    /// incumbent, 1..=C the challengers (empty for SPSA steps).
    pub tallies: Vec<Tally>,
    /// Index of the player that becomes the incumbent (0 for SPSA steps).
    pub champion: usize,
    /// Why the champion was chosen.
    pub reason: Reason,
    /// The confirmation match, if one was played.
    pub confirm: Option<Confirmation>,
    /// The SPSA step, for SPSA rounds.
    pub spsa: Option<SpsaStep>,
    /// The CMA-ES generation, for CMA-ES rounds.
    pub cmaes: Option<CmaesGen>,
    /// The new incumbent (SPSA: θ after the step).
    pub weights: Weights,
}

impl RoundResult {
    /// Wins minus losses of player `i` (0 if there is no such player).
    pub fn score(&self, i: usize) -> i64 {
        self.tallies.get(i).map_or(0, score)
    }

    /// Every game of the round: the round robin or SPSA step plus the
    /// confirmation match.
    pub fn total_games(&self) -> u64 {
        self.games + self.confirm.as_ref().map_or(0, |c| c.games())
    }

    /// The start row (round 0).
    pub fn start(cfg: &RunConfig, weights: Weights) -> RoundResult {
        RoundResult {
            round: 0,
            optimizer: cfg.optimizer,
            select: cfg.select,
            sigma: 0.0,
            games: 0,
            plies: 0,
            tallies: vec![Tally::default(); cfg.challengers as usize + 1],
            champion: 0,
            reason: Reason::Start,
            confirm: None,
            spsa: None,
            cmaes: None,
            weights,
        }
    }

    /// Whether this is a random-search round (not round 0, an SPSA step
    /// or a CMA-ES generation).
    pub fn is_random_search(&self) -> bool {
        self.round > 0 && self.spsa.is_none() && self.cmaes.is_none()
    }

    /// Whether the round put a challenger in the incumbent's place (SPSA
    /// steps, CMA-ES generations and round 0 adopt nothing).
    pub fn adopted(&self) -> bool {
        self.is_random_search() && self.champion != 0
    }

    /// The line of an adopted challenger, None if the incumbent was kept:
    /// which one, its wins − losses over its games of the round with its
    /// score, and why it was chosen, such as `adopted challenger 3 (wins −
    /// losses +412 of 16,000, 51.3%), best in the round robin`.
    pub fn adoption(&self) -> Option<String> {
        if !self.adopted() {
            return None;
        }
        let i = self.champion;
        let t = self.tallies.get(i).copied().unwrap_or_default();
        // Under gauntlet a challenger played only the incumbent.
        let field = match self.select {
            Select::Gauntlet => "best against the incumbent",
            Select::BestBeats => "best in the round robin, and beat the incumbent in their pairing",
            _ => "best in the round robin",
        };
        let why = match (self.reason, &self.confirm) {
            (Reason::ChallengerTied, _) => {
                format!("{field}, tied with another challenger (the lowest number wins)")
            }
            (Reason::Confirmed, Some(c)) => match c.llr {
                Some(llr) => format!("{field}, confirmed by SPRT (LLR {llr:.2})"),
                None => format!(
                    "{field}, confirmed: {:.1}% over {} games",
                    100.0 * c.tally.games.score(),
                    super::grouped(c.games())
                ),
            },
            _ => field.to_string(),
        };
        Some(format!(
            "adopted challenger {i} (wins − losses {:+} of {} games, {:.1}%), {why}",
            self.score(i),
            super::grouped(t.games()),
            100.0 * t.score()
        ))
    }

    /// A sentence saying who won and why.
    pub fn describe(&self) -> String {
        let best = self.score(self.champion);
        if self.select == Select::Gauntlet && self.reason != Reason::Start {
            let (top, _) = best_challenger(&self.tallies);
            return match self.reason {
                Reason::IncumbentBest => format!(
                    "incumbent kept: every challenger lost to it (best {:+})",
                    self.score(top)
                ),
                Reason::IncumbentTied => {
                    format!("incumbent kept: the best challenger only drew level ({:+})", self.score(top))
                }
                Reason::ChallengerTied => format!(
                    "challenger {} takes over: {best:+} against the incumbent (tied with another challenger; lowest number wins)",
                    self.champion
                ),
                _ => format!(
                    "challenger {} takes over: {best:+} against the incumbent",
                    self.champion
                ),
            };
        }
        match self.reason {
            Reason::SpsaStep => match &self.spsa {
                Some(s) => s.describe(),
                None => "SPSA step".into(),
            },
            Reason::CmaesGeneration => match &self.cmaes {
                Some(g) => g.describe(),
                None => "CMA-ES generation".into(),
            },
            Reason::Confirmed | Reason::NotConfirmed => {
                let c = self.confirm.as_ref();
                let what = c.map_or(String::new(), |c| c.describe());
                let cand = c.map_or(0, |c| c.candidate);
                if self.reason == Reason::Confirmed {
                    format!(
                        "challenger {cand} takes over: {:+} in the round robin, confirmed: {what}",
                        self.score(cand)
                    )
                } else {
                    format!(
                        "incumbent kept: challenger {cand} won the round robin ({:+}) but failed the confirmation: {what}",
                        self.score(cand)
                    )
                }
            }
            Reason::LostPairing => {
                let (top, _) = best_challenger(&self.tallies);
                format!(
                    "incumbent kept: challenger {top} had the best score {:+} (the incumbent's {:+}) but did not beat the incumbent in their pairing",
                    self.score(top),
                    self.score(0)
                )
            }
            Reason::Start => "the starting weights".into(),
            Reason::IncumbentBest => format!("incumbent kept: best score {best:+}"),
            Reason::IncumbentTied => {
                format!("incumbent kept: ties the best score {best:+}")
            }
            Reason::ChallengerBest => format!(
                "challenger {} takes over: {best:+} against the incumbent's {:+}",
                self.champion,
                self.score(0)
            ),
            Reason::ChallengerTied => format!(
                "challenger {} takes over: {best:+} (tied with another challenger; lowest number wins) against the incumbent's {:+}",
                self.champion,
                self.score(0)
            ),
        }
    }
}

/// A player's score in the round robin: wins minus losses.
pub fn score(t: &Tally) -> i64 {
    t.wins as i64 - t.losses as i64
}

/// The challenger with the best wins − losses (lowest index among ties)
/// and whether it shares that score with another challenger; `(0, false)`
/// without challengers.
pub fn best_challenger(tallies: &[Tally]) -> (usize, bool) {
    let mut best: Option<(usize, i64)> = None;
    let mut tied = false;
    for (i, t) in tallies.iter().enumerate().skip(1) {
        let s = score(t);
        match best {
            Some((_, b)) if s < b => {}
            Some((_, b)) if s == b => tied = true,
            _ => {
                best = Some((i, s));
                tied = false;
            }
        }
    }
    (best.map_or(0, |(i, _)| i), tied)
}

string_enum! {
    /// How a confirmation ended (the `confirm_verdict` column of
    /// `rounds.csv`).
    pub enum ConfirmVerdict("confirmation verdict") {
        /// The SPRT accepted H1: the challenger is stronger. Adopted.
        AcceptH1 = "accept-h1",
        /// The SPRT accepted H0: the challenger is not stronger. Rejected.
        AcceptH0 = "accept-h0",
        /// The SPRT reached the most openings undecided. Rejected.
        Inconclusive = "inconclusive",
        /// The fixed-games score reached the threshold. Adopted.
        Pass = "pass",
        /// The fixed-games score fell short of the threshold. Rejected.
        Fail = "fail",
    }
}

impl ConfirmVerdict {
    /// Whether the challenger is adopted.
    pub fn passed(self) -> bool {
        matches!(self, ConfirmVerdict::AcceptH1 | ConfirmVerdict::Pass)
    }
}

/// A confirmation match: challenger `candidate` against the incumbent.
#[derive(Clone, Debug, PartialEq)]
pub struct Confirmation {
    /// The challenger's index in the round robin.
    pub candidate: usize,
    /// W/D/L and pentanomial, from the challenger's view.
    pub tally: PairedTally,
    /// The SPRT's log-likelihood ratio when it stopped (None for fixed games).
    pub llr: Option<f64>,
    /// How it ended.
    pub verdict: ConfirmVerdict,
}

impl Confirmation {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.tally.games.games()
    }

    /// Whether the challenger is adopted.
    pub fn passed(&self) -> bool {
        self.verdict.passed()
    }

    /// One phrase: verdict, score, games and LLR.
    pub fn describe(&self) -> String {
        let llr = self.llr.map_or(String::new(), |l| format!(", LLR {l:+.2}"));
        format!(
            "{} ({:.1}% over {} games{llr})",
            self.verdict.as_str(),
            100.0 * self.tally.games.score(),
            self.games()
        )
    }
}

/// What an SPSA step records.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaStep {
    /// The step's index among the run's SPSA steps (from 0).
    pub k: u32,
    /// The step gain `a_k`.
    pub a_k: f64,
    /// The perturbation size `c_k`.
    pub c_k: f64,
    /// θ+ against θ−, from θ+'s view.
    pub tally: PairedTally,
}

impl SpsaStep {
    /// θ+'s score minus θ−'s: `(W − L)/N` (0 without games).
    pub fn score_diff(&self) -> f64 {
        let t = &self.tally.games;
        let n = t.games();
        if n == 0 {
            0.0
        } else {
            (t.wins as f64 - t.losses as f64) / n as f64
        }
    }

    /// One phrase for logs.
    pub fn describe(&self) -> String {
        format!(
            "SPSA step {}: a_k {:.4}, c_k {:.4}, theta+ vs theta- {} (difference {:+.4})",
            self.k,
            self.a_k,
            self.c_k,
            self.tally.games,
            self.score_diff()
        )
    }
}

/// What a CMA-ES generation records: enough to replay the strategy's
/// state (see `train::cmaes`), which is never stored.
#[derive(Clone, Debug, PartialEq)]
pub struct CmaesGen {
    /// The generation's index since the strategy (re)started (from 0).
    pub generation: u32,
    /// The step size σ the candidates were drawn with.
    pub sigma: f64,
    /// Every candidate against the mean (the incumbent), or the run's
    /// start (`opponent = "start"`), from the candidate's view, in draw
    /// order.
    pub tallies: Vec<Tally>,
}

impl CmaesGen {
    /// Every candidate's (W − L)/N against its opponent (0 without games).
    pub fn score_diffs(&self) -> Vec<f64> {
        let diff = |t: &Tally| match t.games() {
            0 => 0.0,
            n => score(t) as f64 / n as f64,
        };
        self.tallies.iter().map(diff).collect()
    }

    /// One phrase for logs: σ and the best candidate's score (against
    /// the mean; [`CmaesGen::describe_against`] names another opponent).
    pub fn describe(&self) -> String {
        self.describe_against(CmaesOpponent::Mean)
    }

    /// [`CmaesGen::describe`] for a run whose candidates play `opponent`.
    pub fn describe_against(&self, opponent: CmaesOpponent) -> String {
        let best = self.tallies.iter().map(score).max().unwrap_or(0);
        let games: u64 = self.tallies.iter().map(Tally::games).sum();
        format!(
            "CMA-ES generation {}: σ {:.4}, {} candidates over {} games, best {best:+} against the {opponent}",
            self.generation,
            self.sigma,
            self.tallies.len(),
            super::grouped(games)
        )
    }
}
