//! Noticing a plateau: random search's σ as a function of the rounds
//! played so far ([`SigmaSchedule`]), and how much of a run's games
//! changed nothing ([`BudgetUse`]).
//!
//! σ of a round depends only on the configuration and on which earlier
//! rounds adopted a challenger (the `champion` column of `rounds.csv`), so
//! a resumed run replays the same σ, whatever the thread count. The rule
//! (`[plateau]`, [`PlateauConfig`](super::PlateauConfig)) keeps a level ℓ, starting at 0:
//!
//! - σ of round r is `max(floor, sigma_at(r) · shrink^ℓ)`, with `floor` =
//!   min(sigma_min, sigma) and `sigma_at` the half-life schedule;
//! - after `patience` (P) rounds in a row without an adoption (counted
//!   since the last adoption or the last change of ℓ), ℓ grows by one; if
//!   σ is already at the floor, ℓ stays (and with `stop` the run ends);
//! - with `grow`, when more than P/5 of the last P rounds since the last
//!   change adopted a challenger and ℓ > 0, ℓ falls by one.
//!
//! Why it adapts to the adoption rate, not the round number: with σ too
//! large for where the incumbent stands, every challenger is worse and
//! rounds stop adopting; with σ too small the challengers are the
//! incumbent plus noise and one of them wins most rounds by luck (with C
//! near-equal challengers the incumbent keeps its place in about 1 round of
//! C + 1). Both show in the adoption rate; a fixed half-life sees neither.

use super::config::RunConfig;
use super::record::RoundResult;
use std::collections::VecDeque;

/// What the plateau rule did after a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SigmaMove {
    /// No adoption for P rounds: σ shrank.
    Shrink,
    /// More than P/5 adoptions since the last change: σ grew back.
    Grow,
    /// No adoption for P rounds, but σ is already at its floor: it stays.
    Floor,
    /// As `Floor`, and the rule ends the run (`stop`).
    Stop,
}

/// A decision of the plateau rule, taken after round `round`: σ from the
/// next round on.
#[derive(Clone, Debug, PartialEq)]
pub struct SigmaChange {
    /// The round after which the rule acted.
    pub round: u32,
    /// What it did.
    pub action: SigmaMove,
    /// The rounds it looked at (since the last adoption or change).
    pub rounds: u32,
    /// Adoptions among them.
    pub adoptions: u32,
    /// σ the next round would have had without this decision.
    pub from: f64,
    /// σ of the next round.
    pub to: f64,
}

impl SigmaChange {
    /// One phrase: why, and σ before and after.
    pub fn describe(&self) -> String {
        let (from, to) = sigma_texts(self.from, self.to);
        let quiet = format!("no adoption for {} rounds", self.rounds);
        match self.action {
            SigmaMove::Shrink => format!("{quiet}: σ {from} → {to}"),
            SigmaMove::Grow => format!(
                "{} adoptions in the last {} rounds: σ {from} → {to}",
                self.adoptions, self.rounds
            ),
            SigmaMove::Floor => format!("{quiet}: σ stays at its floor {to}"),
            SigmaMove::Stop => {
                format!("{quiet} with σ at its floor {to}: a plateau, the run stops here")
            }
        }
    }
}

/// σ for display: two decimals, three below 0.1 (0.30, 0.21, 0.050).
fn sigma_text(x: f64) -> String {
    sigma_text_at(x, if x >= 0.1 { 2 } else { 3 })
}

/// `x` with `decimals` decimals.
fn sigma_text_at(x: f64, decimals: usize) -> String {
    format!("{x:.decimals$}")
}

/// σ before and after a change, as [`sigma_text`] shows them, with more
/// decimals (up to 6) where two different values would read the same: a
/// shrink from 0.0504 to the floor 0.05 reads "0.0504 → 0.0500", not
/// "0.050 → 0.050".
fn sigma_texts(from: f64, to: f64) -> (String, String) {
    let (mut a, mut b) = (sigma_text(from), sigma_text(to));
    let mut decimals = if from.min(to) >= 0.1 { 2 } else { 3 };
    while a == b && from != to && decimals < 6 {
        decimals += 1;
        (a, b) = (sigma_text_at(from, decimals), sigma_text_at(to, decimals));
    }
    (a, b)
}

/// Random search's σ, round by round: the configuration's schedule
/// replayed over the adoptions so far (see the module documentation).
/// Feed it every round in order ([`SigmaSchedule::record`]); it then says
/// σ of the next one.
#[derive(Clone, Debug)]
pub struct SigmaSchedule {
    cfg: RunConfig,
    /// ℓ: shrinks not undone.
    level: u32,
    /// Rounds in a row without an adoption, since the last adoption or change.
    quiet: u32,
    /// Adopted or not, the rounds since the last change (at most P).
    recent: VecDeque<bool>,
    /// The round after the last one recorded.
    next: u32,
    /// The round after which the rule stopped the run.
    stopped: Option<u32>,
}

impl SigmaSchedule {
    /// The schedule before round 1.
    pub fn new(cfg: &RunConfig) -> SigmaSchedule {
        SigmaSchedule {
            cfg: cfg.clone(),
            level: 0,
            quiet: 0,
            recent: VecDeque::new(),
            next: 1,
            stopped: None,
        }
    }

    /// The schedule after `rounds` (round 0 first, as the trainer keeps
    /// them).
    pub fn replay(cfg: &RunConfig, rounds: &[RoundResult]) -> SigmaSchedule {
        let mut s = SigmaSchedule::new(cfg);
        for r in rounds {
            s.record(r);
        }
        s
    }

    /// σ of the next round.
    pub fn sigma(&self) -> f64 {
        self.sigma_at_level(self.next, self.level)
    }

    /// The round whose σ [`SigmaSchedule::sigma`] gives.
    pub fn next_round(&self) -> u32 {
        self.next
    }

    /// The round after which the rule ended the run, if it did.
    pub fn stopped(&self) -> Option<u32> {
        self.stopped
    }

    /// ℓ: the shrinks in force.
    pub fn level(&self) -> u32 {
        self.level
    }

    /// The lowest σ the rule goes to.
    fn floor(&self) -> f64 {
        self.cfg.sigma_min.min(self.cfg.sigma)
    }

    /// σ of `round` at level `level`. Level 0 is exactly the half-life
    /// schedule, so a run without the rule keeps its σ to the bit.
    fn sigma_at_level(&self, round: u32, level: u32) -> f64 {
        let base = self.cfg.sigma_at(round);
        let Some(p) = &self.cfg.plateau else {
            return base;
        };
        if level == 0 {
            return base;
        }
        // Repeated products, not powi: the same operations in the same
        // order on every build, so σ can be compared to the bit.
        let mut s = base;
        for _ in 0..level {
            s *= p.shrink;
        }
        s.max(self.floor())
    }

    /// Takes in a completed round: round 0, SPSA steps and CMA-ES
    /// generations change nothing;
    /// a random-search round counts as adopted when its champion is a
    /// challenger. Returns what the rule did after it, if anything.
    pub fn record(&mut self, r: &RoundResult) -> Option<SigmaChange> {
        if !r.is_random_search() {
            self.next = r.round + 1;
            return None;
        }
        self.record_adoption(r.round, r.champion != 0)
    }

    /// Takes in random-search round `round` (after the rounds recorded so
    /// far), `adopted` or not.
    pub fn record_adoption(&mut self, round: u32, adopted: bool) -> Option<SigmaChange> {
        self.next = round + 1;
        let p = self.cfg.plateau.clone()?;
        if self.stopped.is_some() {
            return None;
        }
        self.recent.push_back(adopted);
        while self.recent.len() > p.patience as usize {
            self.recent.pop_front();
        }
        self.quiet = if adopted { 0 } else { self.quiet + 1 };
        let adoptions = self.recent.iter().filter(|&&a| a).count() as u32;
        let window = self.recent.len() as u32;
        let next = self.next;
        let from = self.sigma_at_level(next, self.level);
        let action = if self.quiet >= p.patience {
            if from > self.floor() {
                self.level += 1;
                SigmaMove::Shrink
            } else if p.stop {
                self.stopped = Some(round);
                SigmaMove::Stop
            } else {
                SigmaMove::Floor
            }
        } else if p.grow && self.level > 0 && 5 * adoptions > p.patience {
            self.level -= 1;
            SigmaMove::Grow
        } else {
            return None;
        };
        self.quiet = 0;
        self.recent.clear();
        Some(SigmaChange {
            round,
            action,
            rounds: window,
            adoptions,
            from,
            to: self.sigma_at_level(next, self.level),
        })
    }
}

/// How much of a run's games changed nothing: the games of random-search
/// rounds that kept the incumbent, and of every round after the last
/// adoption. Round 0 and SPSA steps (each of which moves the weights) are
/// not counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BudgetUse {
    /// Random-search rounds played.
    pub rounds: u32,
    /// Their games (round robins and confirmations).
    pub games: u64,
    /// The rounds that adopted a challenger, in order.
    pub adopted: Vec<u32>,
    /// Rounds that kept the incumbent.
    pub kept_rounds: u32,
    /// Their games.
    pub kept_games: u64,
    /// Rounds after the last adoption (all of them if there was none).
    pub after_last_rounds: u32,
    /// Their games.
    pub after_last_games: u64,
}

impl BudgetUse {
    /// The figures of `rounds` (as the trainer keeps them, round 0 first).
    pub fn of(rounds: &[RoundResult]) -> BudgetUse {
        let mut b = BudgetUse::default();
        for r in rounds.iter().filter(|r| r.is_random_search()) {
            let games = r.total_games();
            b.rounds += 1;
            b.games += games;
            if r.champion != 0 {
                b.adopted.push(r.round);
                b.after_last_rounds = 0;
                b.after_last_games = 0;
            } else {
                b.kept_rounds += 1;
                b.kept_games += games;
                b.after_last_rounds += 1;
                b.after_last_games += games;
            }
        }
        b
    }

    /// The lines of the closing report: the rounds that adopted, the games
    /// of rounds that kept the incumbent and those after the last
    /// adoption, each with its share of all round games. None without
    /// random-search rounds.
    pub fn lines(&self) -> Vec<String> {
        if self.rounds == 0 {
            return Vec::new();
        }
        let share = |g: u64| 100.0 * g as f64 / self.games.max(1) as f64;
        let adopted = match self.adopted.as_slice() {
            [] => format!("no challenger adopted in {}", rounds_text(self.rounds)),
            [r] => format!("adopted at round {r} (1 of {})", rounds_text(self.rounds)),
            many => format!(
                "adopted at rounds {} ({} of {} rounds)",
                many.iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                many.len(),
                self.rounds
            ),
        };
        let after = match self.adopted.last() {
            Some(last) => format!(
                "{} games ({:.1}%) in the {} after the last adoption (round {last})",
                grouped(self.after_last_games),
                share(self.after_last_games),
                rounds_text(self.after_last_rounds)
            ),
            None => "every game was played without an adoption".to_string(),
        };
        vec![
            adopted,
            format!(
                "games that changed nothing: {} of {} ({:.1}%) in the {} that kept the incumbent; {after}",
                grouped(self.kept_games),
                grouped(self.games),
                share(self.kept_games),
                rounds_text(self.kept_rounds)
            ),
        ]
    }
}

/// "1 round", "2 rounds".
fn rounds_text(n: u32) -> String {
    if n == 1 {
        "1 round".into()
    } else {
        format!("{n} rounds")
    }
}

/// `n` with a comma between groups of three digits: 16,000.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
