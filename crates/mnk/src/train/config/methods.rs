//! The choices of method: where the start weights come from, the
//! optimiser and random search's selection mode.

use crate::util::string_enum;

/// Where the starting weights come from.
#[derive(Clone, Debug, PartialEq)]
pub enum StartWeights {
    /// The shipped weights for the game ([`crate::eval::shipped_weights`]).
    Shipped,
    /// Every weight 1 ([`crate::eval::Weights::flat`]): a deliberately poor start.
    Flat,
    /// A weights file.
    File(std::path::PathBuf),
}

impl std::str::FromStr for StartWeights {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "shipped" => StartWeights::Shipped,
            "flat" => StartWeights::Flat,
            _ => StartWeights::File(s.into()),
        })
    }
}

impl std::fmt::Display for StartWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartWeights::Shipped => f.write_str("shipped"),
            StartWeights::Flat => f.write_str("flat"),
            StartWeights::File(p) => write!(f, "{}", p.display()),
        }
    }
}

string_enum! {
    /// How the weights are improved.
    #[derive(Default)]
    pub enum Optimizer("optimiser") {
        /// The original program's random search: perturb the incumbent into C
        /// challengers, play them, keep the winner ([`Select`] says how).
        #[default]
        Random = "random",
        /// Simultaneous perturbation stochastic approximation: every step moves
        /// all weights at once along a noisy gradient estimate from one paired
        /// match between θ+ and θ− ([`SpsaConfig`](crate::train::SpsaConfig)).
        Spsa = "spsa",
        /// CMA-ES in log-weight space: each generation samples candidates
        /// around the mean, plays each against the mean (or the run's
        /// start) on shared openings
        /// and adapts the mean, the step size and the covariance
        /// ([`CmaesConfig`](crate::train::CmaesConfig)).
        Cmaes = "cmaes",
    }
}

string_enum! {
    /// How random search picks the round's champion.
    ///
    /// `Default` (what a `run.toml` without `select` means) is `best`, the
    /// rule of every run made before `best-beats`; new runs are made with
    /// `best-beats` ([`RunConfig::defaults`](crate::train::RunConfig::defaults)).
    #[derive(Default)]
    pub enum Select("selection mode") {
        /// The original rule: a full round robin, the best wins − losses takes
        /// over, the incumbent stays on a tie.
        #[default]
        Best = "best",
        /// The default of new runs: as `best`, but the challenger with the
        /// best wins − losses takes over only if it also won its own pairing
        /// with the incumbent in the same round robin (more wins than losses
        /// over its games against the incumbent); otherwise the incumbent
        /// stays. No extra games: the pairing is part of the round robin.
        BestBeats = "best-beats",
        /// As `best`, but a challenger that wins the round robin must then beat
        /// the incumbent in a confirmation match on fresh openings (SPRT or a
        /// fixed number of games with a score threshold) to be adopted.
        Confirm = "confirm",
        /// The challengers play the incumbent only (C pairings instead of
        /// C(C+1)/2), each over more openings for the same games per round;
        /// the challenger with the best wins − losses against the incumbent
        /// takes over if that is above 0.
        Gauntlet = "gauntlet",
    }
}
