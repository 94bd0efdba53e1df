//! The optimiser seam: one [`Method`] per [`Optimizer`], which owns what
//! the trainer and the front ends ask of an optimiser: a new run's
//! defaults, the openings a round draws at once, which changed settings
//! switch a resumed run, playing a round (with whatever state it keeps
//! between rounds), and its words in the plan and the closing summary.
//! Its settings table lives in `config/`, its record in `record.rs` and
//! its `rounds.csv` columns in `rundir/rounds.rs`.

use super::cmaes::{self, Strategy};
use super::config::{Optimizer, RunConfig, Select};
use super::player::TrainedPlayer;
use super::record::RoundResult;
use super::round::play_round;
use super::setting::{BookNeed, Field};
use super::spsa;
use super::TrainError;
use crate::arena::Opening;
use crate::game::Rules;
use std::any::Any;

/// What a round is played from.
#[derive(Debug)]
pub struct Round<'a> {
    /// The run's configuration.
    pub cfg: &'a RunConfig,
    /// The trained player.
    pub player: &'a TrainedPlayer,
    /// The rounds played so far, round 0 first (never empty: the round
    /// to play is `rounds.len()`).
    pub rounds: &'a [RoundResult],
    /// The openings rounds draw from (`None`: random openings).
    pub pool: Option<&'a [Opening]>,
    /// Random search's σ for this round (the plateau schedule's).
    pub sigma: f64,
    /// The run's `rounds.csv`, named in errors about its rows.
    pub rounds_csv: &'a std::path::Path,
}

impl Round<'_> {
    /// The number of the round to play.
    pub fn number(&self) -> u32 {
        self.rounds.len() as u32
    }

    /// The incumbent the round starts from.
    pub fn incumbent(&self) -> &crate::eval::Weights {
        &self.rounds[self.rounds.len() - 1].weights
    }
}

/// What a method keeps between rounds of one process (`None` until it
/// keeps something); it must be able to rebuild it from the rounds alone,
/// since a resumed run or another rank starts without it.
pub type State = Option<Box<dyn Any + Send + Sync>>;

/// An optimiser, as the trainer and the front ends see it.
pub trait Method: Sync {
    /// The defaults of a new run on `game` with this optimiser.
    fn defaults(&self, game: Rules) -> RunConfig;
    /// The most openings a round draws from the book beyond one pairing
    /// of the round robin, and what for (`None`: nothing more).
    fn book_need(&self, cfg: &RunConfig) -> Option<(usize, BookNeed)>;
    /// The setting whose change from `old` to `new` (same optimiser)
    /// changes how the rest of a resumed run trains, if any.
    fn switched(&self, old: &RunConfig, new: &RunConfig) -> Option<Field>;
    /// Plays round `round.number()` (≥ 1).
    fn play(&self, round: &Round<'_>, state: &mut State) -> Result<RoundResult, TrainError>;
    /// How a new run with `cfg` trains, in words (after the run folder).
    fn plan(&self, cfg: &RunConfig) -> String;
    /// What the method did over `rounds` (round 0 excluded), for the
    /// closing summary; `None` if it played none of them.
    fn summary(&self, rounds: &[RoundResult]) -> Option<String>;
}

/// The method of an optimiser.
pub fn method(o: Optimizer) -> &'static dyn Method {
    match o {
        Optimizer::Random => &RandomSearch,
        Optimizer::Spsa => &Spsa,
        Optimizer::Cmaes => &CmaEs,
    }
}

/// Random search (the round robin and its selection modes).
struct RandomSearch;

impl Method for RandomSearch {
    fn defaults(&self, game: Rules) -> RunConfig {
        RunConfig::defaults(game)
    }

    fn book_need(&self, cfg: &RunConfig) -> Option<(usize, BookNeed)> {
        (cfg.select == Select::Confirm).then(|| {
            let n = cfg.confirm_config().max_openings() as usize;
            (n, BookNeed::Confirmation)
        })
    }

    fn switched(&self, old: &RunConfig, new: &RunConfig) -> Option<Field> {
        if new.select != old.select {
            Some(Field::Select)
        } else if new.select == Select::Confirm && new.confirm_config() != old.confirm_config() {
            Some(Field::Confirm)
        } else if new.select == Select::BestBeats && new.beats_z() != old.beats_z() {
            Some(Field::BeatsZ)
        } else {
            None
        }
    }

    fn play(&self, round: &Round<'_>, _: &mut State) -> Result<RoundResult, TrainError> {
        play_round(
            round.cfg,
            round.player,
            round.incumbent(),
            round.pool,
            round.number(),
            round.sigma,
        )
    }

    fn plan(&self, c: &RunConfig) -> String {
        format!(
            ": {} rounds, {} challengers, {} openings x 2 colours per pairing, select {}{}, {}",
            c.rounds,
            c.challengers,
            c.openings_per_pairing(),
            c.select,
            match c.beats_z {
                Some(z) if c.select == Select::BestBeats && z > 0.0 => {
                    format!(" (pairing z > {z})")
                }
                _ => String::new(),
            },
            sigma_plan(c)
        )
    }

    fn summary(&self, rounds: &[RoundResult]) -> Option<String> {
        if !rounds.iter().any(RoundResult::is_random_search) {
            return None;
        }
        let adopted = rounds.iter().filter(|r| r.adopted()).count();
        let mut s = format!("{adopted} challengers adopted");
        let confirms: Vec<_> = rounds.iter().filter_map(|r| r.confirm.as_ref()).collect();
        if !confirms.is_empty() {
            s += &format!(
                ", {} confirmations ({} passed, {} games)",
                confirms.len(),
                confirms.iter().filter(|c| c.passed()).count(),
                confirms.iter().map(|c| c.games()).sum::<u64>()
            );
        }
        Some(s)
    }
}

/// σ's schedule in words.
fn sigma_plan(c: &RunConfig) -> String {
    let mut s = format!("σ {}", c.sigma);
    if c.sigma_half_life > 0.0 {
        s += &format!(" halving every {} rounds", c.sigma_half_life);
    }
    match &c.plateau {
        Some(p) => {
            s += &format!(
                " x {} after {} rounds without an adoption (min {}{}{})",
                p.shrink,
                p.patience,
                c.sigma_min.min(c.sigma),
                if p.grow { ", grows back" } else { "" },
                if p.stop {
                    ", stops at a plateau at the min"
                } else {
                    ""
                }
            );
        }
        None => s += " (no plateau rule)",
    }
    s
}

/// SPSA ([`super::spsa`]).
struct Spsa;

impl Method for Spsa {
    fn defaults(&self, game: Rules) -> RunConfig {
        RunConfig::spsa_defaults(game)
    }

    fn book_need(&self, cfg: &RunConfig) -> Option<(usize, BookNeed)> {
        Some((cfg.spsa_config().openings as usize, BookNeed::SpsaOpenings))
    }

    fn switched(&self, old: &RunConfig, new: &RunConfig) -> Option<Field> {
        (new.spsa_config() != old.spsa_config()).then_some(Field::Spsa)
    }

    fn play(&self, round: &Round<'_>, _: &mut State) -> Result<RoundResult, TrainError> {
        let k = spsa::next_k(round.rounds);
        spsa::play_step(
            round.cfg,
            round.player,
            round.incumbent(),
            round.pool,
            round.number(),
            k,
        )
    }

    fn plan(&self, c: &RunConfig) -> String {
        let s = c.spsa_config();
        format!(
            " by SPSA: {} steps of {} openings x 2 colours, a {} c {} A {} alpha {} gamma {}",
            c.rounds, s.openings, s.a, s.c, s.big_a, s.alpha, s.gamma
        )
    }

    fn summary(&self, rounds: &[RoundResult]) -> Option<String> {
        let n = rounds.iter().filter(|r| r.spsa.is_some()).count();
        (n > 0).then(|| format!("{n} SPSA steps"))
    }
}

/// CMA-ES ([`super::cmaes`]); keeps its state between generations as
/// `(round, state after it)`.
struct CmaEs;

impl Method for CmaEs {
    fn defaults(&self, game: Rules) -> RunConfig {
        RunConfig::cmaes_defaults(game)
    }

    fn book_need(&self, cfg: &RunConfig) -> Option<(usize, BookNeed)> {
        Some((
            cfg.cmaes_config().openings as usize,
            BookNeed::CmaesOpenings,
        ))
    }

    fn switched(&self, _: &RunConfig, _: &RunConfig) -> Option<Field> {
        // The [cmaes] table never changes (the trainer refuses it).
        None
    }

    fn play(&self, round: &Round<'_>, state: &mut State) -> Result<RoundResult, TrainError> {
        let (cfg, last) = (round.cfg, round.number() - 1);
        let kept = state
            .take()
            .and_then(|b| b.downcast::<(u32, Strategy)>().ok())
            .filter(|k| k.0 == last);
        let mut s = match kept {
            Some(k) => k.1,
            None => match cmaes::replay(cfg, round.rounds) {
                Ok(Some(s)) => s,
                Ok(None) => cmaes::start(&cfg.cmaes_config(), round.incumbent()),
                Err(message) => {
                    return Err(TrainError::Inconsistent {
                        path: round.rounds_csv.into(),
                        message,
                    })
                }
            },
        };
        let result = cmaes::play_generation(
            cfg,
            round.player,
            &mut s,
            (round.incumbent(), &round.rounds[0].weights),
            round.pool,
            round.number(),
        )?;
        *state = Some(Box::new((round.number(), s)));
        Ok(result)
    }

    fn plan(&self, c: &RunConfig) -> String {
        let s = c.cmaes_config();
        format!(
            " by CMA-ES: {} generations of {} candidates{} x {} openings x 2 colours against the {}, sigma {}{}, mean rate {}{}",
            c.rounds,
            s.lambda,
            if s.mirrored { " in mirrored pairs" } else { "" },
            s.openings,
            s.opponent,
            s.sigma,
            match s.sigma_max {
                Some(m) => format!(" (at most {m})"),
                None => String::new(),
            },
            s.mean_rate,
            if s.fixed_scales {
                ", attack and defence fixed"
            } else {
                ""
            }
        )
    }

    fn summary(&self, rounds: &[RoundResult]) -> Option<String> {
        let n = rounds.iter().filter(|r| r.cmaes.is_some()).count();
        let sigma = rounds.iter().rev().find_map(|r| r.cmaes.as_ref())?.sigma;
        Some(format!("{n} CMA-ES generations (σ {sigma:.4} in the last)"))
    }
}

/// The closing summary's line on what the optimisers did: the rounds and
/// games, then each method's phrase (SPSA, CMA-ES, random search).
pub fn summary(rounds: &[RoundResult], games: u64) -> String {
    let played = &rounds[1.min(rounds.len())..];
    let mut parts = vec![format!("{} rounds, {games} games in all", played.len())];
    for o in [Optimizer::Spsa, Optimizer::Cmaes, Optimizer::Random] {
        parts.extend(method(o).summary(played));
    }
    parts.join(", ")
}
