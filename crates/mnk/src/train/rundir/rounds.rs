//! The `rounds.csv` file of a run folder: one column table ([`columns`])
//! that writes its header and rows and that its reader checks them by.
//!
//! Header, then one row per round (an SPSA step is a round), in order
//! from 0. Format 2 (`format = 2` in `run.toml`):
//!
//! | column | meaning |
//! | --- | --- |
//! | `round` | 0 for the start weights, then 1, 2, … |
//! | `optimizer` | `random` or `spsa`: what played this round (a run switched with `--force` has both) |
//! | `select` | `best`, `best-beats`, `confirm` or `gauntlet`: the selection mode of a random-search round |
//! | `sigma` | the perturbation's σ this round (0 in round 0; empty for SPSA steps) |
//! | `games`, `plies` | games and plies of the round robin (or gauntlet, or θ+ vs θ−), not counting a confirmation |
//! | `champion` | index of the new incumbent: 0 = the incumbent was kept, i = challenger i (empty for SPSA steps) |
//! | `reason` | `start`, `incumbent-best`, `incumbent-tied` (kept on a tie), `challenger-best`, `challenger-tied` (lowest index among tied challengers), `lost-pairing` (`best-beats`: the best challenger did not win its pairing with the incumbent, which is kept), `confirmed`, `not-confirmed`, `spsa-step`, `cmaes-generation` |
//! | `pI_wins`, `pI_draws`, `pI_losses`, `pI_score` | player I's W/D/L over the round robin and its score W − L (I = 0 the incumbent, 1..=C the challengers; under `gauntlet` the incumbent's are the sum of its C matches) |
//! | `confirm_candidate` | the challenger the confirmation match tested (empty: no confirmation) |
//! | `confirm_games`, `confirm_wins`, `confirm_draws`, `confirm_losses` | the confirmation match, from the challenger's view |
//! | `confirm_ptnml_0` … `confirm_ptnml_4` | its pentanomial: opening pairs where the challenger scored 0, ½, 1, 1½, 2 points |
//! | `confirm_score` | the challenger's score (W + D/2)/N |
//! | `confirm_llr` | the SPRT's log-likelihood ratio where it stopped (empty for fixed games) |
//! | `confirm_verdict`, `confirm_passed` | `accept-h1`, `accept-h0`, `inconclusive` (SPRT) or `pass`, `fail` (fixed games); `yes` if adopted |
//! | `spsa_k` | the step's index among the run's SPSA steps, from 0 (gains use it) |
//! | `spsa_a_k`, `spsa_c_k` | the step gain and perturbation size |
//! | `spsa_plus_wins`, `spsa_plus_draws`, `spsa_plus_losses`, `spsa_ptnml_0` … `spsa_ptnml_4`, `spsa_plus_score` | θ+ against θ−, from θ+'s view |
//! | `spsa_score_diff` | θ+'s score minus θ−'s, (W − L)/N: the `d` of the update |
//! | `cmaes_generation`, `cmaes_sigma` | (runs started with CMA-ES only) the generation's index since the strategy (re)started, and the σ its candidates were drawn with |
//! | `cmaes_cI_wins`, `cmaes_cI_draws`, `cmaes_cI_losses`, `cmaes_cI_score` | candidate I (1..=λ) against the mean, from the candidate's view, and its W − L |
//! | `attack`, `defence`, `own.<shape>`, `opp.<shape>` | every weight of the new incumbent (SPSA: θ after the step; CMA-ES: the mean), by name |
//! | `own_combo.<combination>`, `opp_combo.<combination>` | (runs of the combo model, `model = "combo"` in `run.toml`, only) its combination weights |
//!
//! Columns that do not apply to a row are empty. Format 1 (mnk before the
//! selection modes and SPSA) has only `round,sigma,games,plies,champion,
//! reason`, the player columns and the weights; such folders are still
//! read, plotted and resumed in format 1.
//!
//! Numbers are printed in the shortest form that reads back to the same
//! `f64`, so the last row restores the incumbent exactly. Nothing depends
//! on time or thread count: the file is byte-identical for any number of
//! threads.

use super::csv::{
    corrupt, csv_line, csv_rows, float_text, line, names, pentanomial_columns, tally_columns,
    Column, Header, Row,
};
use crate::arena::stats::PairedTally;
use crate::eval::Weights;
use crate::train::{
    CmaesGen, ConfirmVerdict, Confirmation, Optimizer, Reason, RoundResult, RunConfig, Select,
    SpsaStep, TrainError,
};
use std::path::Path;

/// Which rows fill a column of `rounds.csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// Every row: round, optimizer, select, games, plies, reason.
    Common,
    /// Random-search rounds (and round 0): σ, champion and the players'
    /// results.
    Random,
    /// Random-search rounds with a confirmation match.
    Confirm,
    /// SPSA steps.
    Spsa,
    /// CMA-ES generations (only in runs started with CMA-ES).
    Cmaes,
    /// Every row: the new incumbent's weights.
    Weights,
}

type RoundColumn = Column<'static, RoundResult, Part>;

/// A column filled by `write`.
fn col(
    name: impl Into<String>,
    part: Part,
    write: impl Fn(&RoundResult) -> Option<String> + 'static,
) -> RoundColumn {
    Column::new(name, part, write)
}

/// The prefix of player `i`'s columns (`p{i}_wins`, …, `p{i}_score`).
fn player_prefix(i: usize) -> String {
    format!("p{i}_")
}

/// The prefixes of the confirmation's and the SPSA step's tally and
/// pentanomial columns.
const CONFIRM_TALLY: &str = "confirm_";
const CONFIRM_PTNML: &str = "confirm_ptnml_";
const SPSA_TALLY: &str = "spsa_plus_";
const SPSA_PTNML: &str = "spsa_ptnml_";

/// The columns of `rounds.csv` for a configuration, in file order: its
/// format decides which there are (see the module documentation).
fn columns(cfg: &RunConfig) -> Vec<RoundColumn> {
    use Part::{Common, Random};
    let format2 = cfg.format >= 2;
    let mut c = vec![col("round", Common, |r| Some(r.round.to_string()))];
    if format2 {
        c.push(col("optimizer", Common, |r| {
            Some(r.optimizer.as_str().into())
        }));
        c.push(col("select", Common, |r| Some(r.select.as_str().into())));
    }
    // σ and the champion are left empty in SPSA steps and CMA-ES
    // generations.
    let random = |r: &RoundResult| r.spsa.is_none() && r.cmaes.is_none();
    c.extend([
        col("sigma", Random, move |r| {
            random(r).then(|| float_text(r.sigma))
        }),
        col("games", Common, |r| Some(r.games.to_string())),
        col("plies", Common, |r| Some(r.plies.to_string())),
        col("champion", Random, move |r| {
            random(r).then(|| r.champion.to_string())
        }),
        col("reason", Common, |r| Some(r.reason.as_str().into())),
    ]);
    for i in 0..=cfg.challengers as usize {
        let p = player_prefix(i);
        c.extend(tally_columns(&p, Random, move |r: &RoundResult| {
            r.tallies.get(i)
        }));
        c.push(col(format!("{p}score"), Random, move |r| {
            r.tallies.get(i).map(|_| r.score(i).to_string())
        }));
    }
    if format2 {
        c.extend(confirm_columns());
        c.extend(spsa_columns());
        if let Some(cc) = &cfg.cmaes {
            c.extend(cmaes_columns(cc.lambda as usize));
        }
    }
    let weights = Weights::flat(cfg.game).with_model(cfg.model).named_values();
    for (i, (name, _)) in weights.into_iter().enumerate() {
        c.push(col(name, Part::Weights, move |r| {
            r.weights.to_vec().get(i).map(|&v| float_text(v))
        }));
    }
    c
}

/// The columns of a confirmation match (format 2), from the challenger's
/// view; empty in a row without one.
fn confirm_columns() -> Vec<RoundColumn> {
    use Part::Confirm;
    fn of(r: &RoundResult) -> Option<&Confirmation> {
        r.confirm.as_ref()
    }
    let mut c = vec![
        col("confirm_candidate", Confirm, |r| {
            Some(of(r)?.candidate.to_string())
        }),
        col("confirm_games", Confirm, |r| {
            Some(of(r)?.games().to_string())
        }),
    ];
    c.extend(tally_columns(CONFIRM_TALLY, Confirm, |r| {
        Some(&of(r)?.tally.games)
    }));
    c.extend(pentanomial_columns(CONFIRM_PTNML, Confirm, |r| {
        Some(&of(r)?.tally.pairs)
    }));
    c.extend([
        col("confirm_score", Confirm, |r| {
            Some(float_text(of(r)?.tally.games.score()))
        }),
        col("confirm_llr", Confirm, |r| of(r)?.llr.map(float_text)),
        col("confirm_verdict", Confirm, |r| {
            Some(of(r)?.verdict.as_str().into())
        }),
        col("confirm_passed", Confirm, |r| {
            Some(if of(r)?.passed() { "yes" } else { "no" }.into())
        }),
    ]);
    c
}

/// The columns of an SPSA step (format 2), θ+ against θ− from θ+'s view;
/// empty in a random-search row.
fn spsa_columns() -> Vec<RoundColumn> {
    use Part::Spsa;
    fn of(r: &RoundResult) -> Option<&SpsaStep> {
        r.spsa.as_ref()
    }
    let mut c = vec![
        col("spsa_k", Spsa, |r| Some(of(r)?.k.to_string())),
        col("spsa_a_k", Spsa, |r| Some(float_text(of(r)?.a_k))),
        col("spsa_c_k", Spsa, |r| Some(float_text(of(r)?.c_k))),
    ];
    c.extend(tally_columns(SPSA_TALLY, Spsa, |r| {
        Some(&of(r)?.tally.games)
    }));
    c.extend(pentanomial_columns(SPSA_PTNML, Spsa, |r| {
        Some(&of(r)?.tally.pairs)
    }));
    c.extend([
        col("spsa_plus_score", Spsa, |r| {
            Some(float_text(of(r)?.tally.games.score()))
        }),
        col("spsa_score_diff", Spsa, |r| {
            Some(float_text(of(r)?.score_diff()))
        }),
    ]);
    c
}

/// The prefix of CMA-ES candidate `k`'s columns (from 1).
fn candidate_prefix(k: usize) -> String {
    format!("cmaes_c{k}_")
}

/// The columns of a CMA-ES generation of `lambda` candidates (in runs
/// started with CMA-ES); empty in other rows.
fn cmaes_columns(lambda: usize) -> Vec<RoundColumn> {
    use Part::Cmaes;
    fn of(r: &RoundResult) -> Option<&CmaesGen> {
        r.cmaes.as_ref()
    }
    let mut c = vec![
        col("cmaes_generation", Cmaes, |r| {
            Some(of(r)?.generation.to_string())
        }),
        col("cmaes_sigma", Cmaes, |r| Some(float_text(of(r)?.sigma))),
    ];
    for k in 0..lambda {
        let p = candidate_prefix(k + 1);
        c.extend(tally_columns(&p, Cmaes, move |r: &RoundResult| {
            of(r)?.tallies.get(k)
        }));
        c.push(col(format!("{p}score"), Cmaes, move |r| {
            of(r)?.tallies.get(k).map(|t| score(t).to_string())
        }));
    }
    c
}

/// A tally's wins − losses.
fn score(t: &crate::arena::stats::Tally) -> i64 {
    t.wins as i64 - t.losses as i64
}

/// The names of the columns in any of `parts`.
fn names_in<'c>(columns: &'c [RoundColumn], parts: &'c [Part]) -> impl Iterator<Item = &'c str> {
    columns
        .iter()
        .filter(move |c| parts.contains(&c.part))
        .map(|c| c.name.as_str())
}

/// The header of `rounds.csv` for a configuration (its format decides the
/// columns; see the module documentation).
pub fn rounds_header(cfg: &RunConfig) -> Vec<String> {
    names(&columns(cfg))
}

/// The CSV header line of `rounds.csv`.
pub fn rounds_header_line(cfg: &RunConfig) -> String {
    csv_line(&rounds_header(cfg))
}

/// One `rounds.csv` row in the configuration's format. An SPSA row leaves
/// the random-search columns empty, a random-search row the SPSA columns,
/// and a round without a confirmation the confirmation columns.
pub fn round_line(cfg: &RunConfig, r: &RoundResult) -> String {
    line(&columns(cfg), r)
}

/// The whole text of `rounds.csv` after `rounds` (the header and one row
/// each), or `None` before any round: the file exists from its first row
/// on.
pub fn rounds_csv_text(cfg: &RunConfig, rounds: &[RoundResult]) -> Option<String> {
    (!rounds.is_empty()).then(|| {
        let rows: String = rounds.iter().map(|r| round_line(cfg, r)).collect();
        rounds_header_line(cfg) + &rows
    })
}

/// Parses `rounds.csv` and checks it against the configuration: the
/// header, every field, rounds numbered 0, 1, 2, … and consistent counts.
pub fn parse_rounds(
    text: &str,
    path: &Path,
    cfg: &RunConfig,
) -> Result<Vec<RoundResult>, TrainError> {
    let recs = csv_rows(text, path)?;
    let columns = columns(cfg);
    let Some(((hl, h), body)) = recs.split_first() else {
        return Ok(Vec::new());
    };
    check_header(h, path, *hl, cfg, &columns)?;
    let header = Header::new(h);
    let mut out: Vec<RoundResult> = Vec::new();
    for (line, rec) in body {
        let row = Row::new(path, *line, &header, rec)?;
        let r = parse_row(&row, cfg, &columns, &out)?;
        out.push(r);
    }
    Ok(out)
}

/// Checks the header line `h` (on line `hl`) against the configuration's
/// columns; a header of the other format is told as such.
fn check_header(
    h: &[String],
    path: &Path,
    hl: usize,
    cfg: &RunConfig,
    columns: &[RoundColumn],
) -> Result<(), TrainError> {
    let header = names(columns);
    if h == header {
        return Ok(());
    }
    let other = RunConfig {
        format: if cfg.format < 2 { 2 } else { 1 },
        ..cfg.clone()
    };
    let hint = if h == rounds_header(&other) {
        format!(
            " (it is a format {} header, but run.toml says format {}: the files do not belong together)",
            other.format, cfg.format
        )
    } else {
        String::new()
    };
    Err(corrupt(
        path,
        hl,
        format!(
            "the header does not match run.toml (expected {} columns: {} …){hint}",
            header.len(),
            header[..6].join(",")
        ),
    ))
}

/// One row, after the rows `before` it.
fn parse_row(
    row: &Row<'_>,
    cfg: &RunConfig,
    columns: &[RoundColumn],
    before: &[RoundResult],
) -> Result<RoundResult, TrainError> {
    let mut r = parse_common(row, cfg, before.len())?;
    if r.reason == Reason::SpsaStep {
        r.spsa = Some(parse_spsa_part(row, columns, r.games, before)?);
    } else if r.reason == Reason::CmaesGeneration {
        r.cmaes = Some(parse_cmaes_part(row, cfg, columns, r.games, before)?);
    } else {
        parse_random_part(row, cfg, columns, &mut r)?;
    }
    r.weights = parse_weights(row, cfg, columns)?;
    Ok(r)
}

/// The columns every row fills (round `expected` is due), in a result
/// whose other fields are left empty: σ 0, no tallies, flat weights.
fn parse_common(
    row: &Row<'_>,
    cfg: &RunConfig,
    expected: usize,
) -> Result<RoundResult, TrainError> {
    let round: u32 = row.req("round")?;
    if round as usize != expected {
        return Err(row.corrupt(format!("round {round} where round {expected} was expected")));
    }
    let (optimizer, select) = if cfg.format < 2 {
        (Optimizer::Random, Select::Best)
    } else {
        let o: Optimizer = row
            .text("optimizer")
            .parse()
            .map_err(|e| row.corrupt(format!("column optimizer: {e}")))?;
        let s: Select = row
            .text("select")
            .parse()
            .map_err(|e| row.corrupt(format!("column select: {e}")))?;
        (o, s)
    };
    let games: u64 = row.req("games")?;
    let plies: u64 = row.req("plies")?;
    let reason = row
        .text("reason")
        .parse::<Reason>()
        .ok()
        .ok_or_else(|| row.corrupt(format!("unknown reason {:?}", row.text("reason"))))?;
    let spsa_row = reason == Reason::SpsaStep;
    let cmaes_row = reason == Reason::CmaesGeneration;
    let played = reason != Reason::Start;
    if spsa_row != (optimizer == Optimizer::Spsa && played)
        || cmaes_row != (optimizer == Optimizer::Cmaes && played)
    {
        return Err(row.corrupt(format!(
            "reason {} does not go with optimizer {optimizer}",
            reason.as_str()
        )));
    }
    Ok(RoundResult {
        round,
        optimizer,
        select,
        sigma: 0.0,
        games,
        plies,
        tallies: Vec::new(),
        champion: 0,
        reason,
        confirm: None,
        spsa: None,
        cmaes: None,
        weights: Weights::flat(cfg.game),
    })
}

/// The SPSA columns of an SPSA step of `games` games, which must follow
/// the SPSA step among the rows `before` it; its random-search columns
/// must be empty.
fn parse_spsa_part(
    row: &Row<'_>,
    columns: &[RoundColumn],
    games: u64,
    before: &[RoundResult],
) -> Result<SpsaStep, TrainError> {
    if !row.all_empty(names_in(
        columns,
        &[Part::Random, Part::Confirm, Part::Cmaes],
    )) {
        return Err(row.corrupt("an SPSA step has values in the random-search or CMA-ES columns"));
    }
    let step = SpsaStep {
        k: row.req("spsa_k")?,
        a_k: row.number("spsa_a_k", 0.0..=f64::MAX)?,
        c_k: row.number("spsa_c_k", 0.0..=f64::MAX)?,
        tally: PairedTally {
            games: row.tally(SPSA_TALLY)?,
            pairs: row.pentanomial(SPSA_PTNML)?,
        },
    };
    row.derived("spsa_plus_score", step.tally.games.score())?;
    row.derived("spsa_score_diff", step.score_diff())?;
    if step.tally.games.games() != games || 2 * step.tally.pairs.pairs() != games {
        return Err(row.corrupt(format!(
            "the SPSA step's results do not add up to its {games} games"
        )));
    }
    if let Some(prev) = before.iter().rev().find_map(|r| r.spsa.as_ref()) {
        if step.k != prev.k + 1 {
            return Err(row.corrupt(format!("SPSA step k = {} follows k = {}", step.k, prev.k)));
        }
    }
    Ok(step)
}

/// The CMA-ES columns of a generation of `games` games, which must
/// follow the generation before it (or start at 0 after another kind of
/// row); its other optimisers' columns must be empty.
fn parse_cmaes_part(
    row: &Row<'_>,
    cfg: &RunConfig,
    columns: &[RoundColumn],
    games: u64,
    before: &[RoundResult],
) -> Result<CmaesGen, TrainError> {
    let parts = [Part::Random, Part::Confirm, Part::Spsa];
    if !row.all_empty(names_in(columns, &parts)) {
        return Err(
            row.corrupt("a CMA-ES generation has values in the random-search or SPSA columns")
        );
    }
    let lambda = cfg.cmaes_config().lambda as usize;
    let mut g = CmaesGen {
        generation: row.req("cmaes_generation")?,
        sigma: row.number("cmaes_sigma", 0.0..=f64::MAX)?,
        tallies: Vec::with_capacity(lambda),
    };
    let mut total = 0;
    for k in 1..=lambda {
        let prefix = candidate_prefix(k);
        let t = row.tally(&prefix)?;
        let name = format!("{prefix}score");
        let s: i64 = row.req(&name)?;
        if s != score(&t) {
            return Err(row.corrupt(format!("{name} = {s} is not wins - losses")));
        }
        total += t.games();
        g.tallies.push(t);
    }
    if total != games {
        return Err(row.corrupt(format!(
            "the candidates' games add up to {total}, not the {games} games"
        )));
    }
    let expected = match before.last().and_then(|r| r.cmaes.as_ref()) {
        Some(prev) => prev.generation + 1,
        None => 0,
    };
    if g.generation != expected {
        return Err(row.corrupt(format!(
            "CMA-ES generation {} where {expected} was expected",
            g.generation
        )));
    }
    Ok(g)
}

/// The random-search columns of a row into `r`: σ, the champion, the
/// players' results and the confirmation, consistent with `r.reason`; its
/// SPSA columns must be empty.
fn parse_random_part(
    row: &Row<'_>,
    cfg: &RunConfig,
    columns: &[RoundColumn],
    r: &mut RoundResult,
) -> Result<(), TrainError> {
    if !row.all_empty(names_in(columns, &[Part::Spsa, Part::Cmaes])) {
        return Err(row.corrupt("a random-search row has values in the SPSA or CMA-ES columns"));
    }
    let players = cfg.challengers as usize + 1;
    r.sigma = row.number("sigma", 0.0..=f64::MAX)?;
    r.champion = row.req("champion")?;
    if r.champion >= players {
        return Err(row.corrupt(format!(
            "champion {} is not a player (0 to {})",
            r.champion,
            players - 1
        )));
    }
    let mut total = 0u64;
    for p in 0..players {
        let prefix = player_prefix(p);
        let t = row.tally(&prefix)?;
        let name = format!("{prefix}score");
        let s: i64 = row.req(&name)?;
        if s != t.wins as i64 - t.losses as i64 {
            return Err(row.corrupt(format!("{name} = {s} is not wins - losses")));
        }
        total += t.games();
        r.tallies.push(t);
    }
    if total != 2 * r.games {
        return Err(row.corrupt(format!(
            "the players' games add up to {total}, not twice the {} games",
            r.games
        )));
    }
    r.confirm = parse_confirm(row, columns)?;
    check_lost_pairing(row, r)?;
    check_confirmation(row, r)
}

/// Checks that a `lost-pairing` row is a `best-beats` round that kept its
/// incumbent although a challenger had the best score (the pairing itself
/// is not in the file).
fn check_lost_pairing(row: &Row<'_>, r: &RoundResult) -> Result<(), TrainError> {
    if r.reason != Reason::LostPairing {
        return Ok(());
    }
    if r.select != Select::BestBeats {
        return Err(row.corrupt(format!(
            "reason lost-pairing in a round of select {}",
            r.select
        )));
    }
    let (top, _) = crate::train::record::best_challenger(&r.tallies);
    if r.champion != 0 || r.score(top) <= r.score(0) {
        return Err(row.corrupt(format!(
            "reason lost-pairing needs champion 0 and a challenger with a better score than the incumbent's (champion {}, best challenger {:+}, incumbent {:+})",
            r.champion,
            r.score(top),
            r.score(0)
        )));
    }
    Ok(())
}

/// The confirmation columns of a random-search row (format 2): all empty,
/// or a complete and consistent confirmation.
fn parse_confirm(
    row: &Row<'_>,
    columns: &[RoundColumn],
) -> Result<Option<Confirmation>, TrainError> {
    if row.all_empty(names_in(columns, &[Part::Confirm])) {
        return Ok(None);
    }
    let candidate: usize = row.req("confirm_candidate")?;
    let games: u64 = row.req("confirm_games")?;
    let tally = PairedTally {
        games: row.tally(CONFIRM_TALLY)?,
        pairs: row.pentanomial(CONFIRM_PTNML)?,
    };
    row.derived("confirm_score", tally.games.score())?;
    let llr: Option<f64> = row.opt("confirm_llr")?;
    if llr.is_some_and(|l| !l.is_finite()) {
        return Err(row.corrupt("column confirm_llr: not a finite number"));
    }
    let verdict = row
        .text("confirm_verdict")
        .parse::<ConfirmVerdict>()
        .ok()
        .ok_or_else(|| {
            row.corrupt(format!(
                "column confirm_verdict: unknown verdict {:?}",
                row.text("confirm_verdict")
            ))
        })?;
    let passed = match row.text("confirm_passed") {
        "yes" => true,
        "no" => false,
        other => {
            return Err(row.corrupt(format!("column confirm_passed: {other:?} is not yes or no")))
        }
    };
    if passed != verdict.passed() {
        return Err(row.corrupt(format!(
            "confirm_passed does not match the verdict {}",
            verdict.as_str()
        )));
    }
    if candidate == 0 {
        return Err(row.corrupt("confirm_candidate 0 is the incumbent"));
    }
    if tally.games.games() != games || 2 * tally.pairs.pairs() != games {
        return Err(row.corrupt(format!(
            "the confirmation's results do not add up to its {games} games"
        )));
    }
    Ok(Some(Confirmation {
        candidate,
        tally,
        llr,
        verdict,
    }))
}

/// Checks that a random-search row has a confirmation exactly when its
/// reason says so, and that the champion follows the confirmation's
/// verdict.
fn check_confirmation(row: &Row<'_>, r: &RoundResult) -> Result<(), TrainError> {
    let reason = r.reason;
    let confirm_reason = matches!(reason, Reason::Confirmed | Reason::NotConfirmed);
    match &r.confirm {
        None if confirm_reason => {
            Err(row.corrupt(format!("reason {} without a confirmation", reason.as_str())))
        }
        Some(_) if !confirm_reason => Err(row.corrupt(format!(
            "a confirmation in a round whose reason is {}",
            reason.as_str()
        ))),
        Some(c) => {
            let ok = if reason == Reason::Confirmed {
                c.passed() && r.champion == c.candidate
            } else {
                !c.passed() && r.champion == 0
            };
            if ok {
                Ok(())
            } else {
                Err(row.corrupt(format!(
                    "champion {} and reason {} do not match the confirmation's verdict {}",
                    r.champion,
                    reason.as_str(),
                    c.verdict.as_str()
                )))
            }
        }
        None => Ok(()),
    }
}

/// The weight columns: every weight finite and within range.
fn parse_weights(
    row: &Row<'_>,
    cfg: &RunConfig,
    columns: &[RoundColumn],
) -> Result<Weights, TrainError> {
    let mut v = Vec::new();
    for name in names_in(columns, &[Part::Weights]) {
        let x: f64 = row.req(name)?;
        if !(x.is_finite() && (0.0..=crate::eval::MAX_WEIGHT).contains(&x)) {
            return Err(row.corrupt(format!("column {name}: weight {x} is out of range")));
        }
        v.push(x);
    }
    Weights::from_vec(cfg.game, &v).ok_or_else(|| row.corrupt("wrong number of weights"))
}
