//! Running as one process of an MPI job: joining the job before a command
//! runs, and the ranks' agreement on whether each could start.
//!
//! `mpirun -np N mnk train …` and `mpirun -np N mnk match …` share every
//! match's games among the N processes (the library's
//! `mnk::arena::ranks`); rank 0 alone reads and writes files and prints.
//! Every other command, and every command of an mnk built without the
//! `mpi` feature, refuses to run as one of several processes instead of N
//! copies racing on the same files.

use anyhow::Result;
use mnk::arena::ranks::{self, Ranks};
use mnk::cluster::Launch;
use std::fmt;
use std::process::ExitCode;
use std::rc::Rc;

/// An error already reported by another rank: exits with status 1 without
/// printing it again.
#[derive(Debug)]
pub(crate) struct Quiet;

impl fmt::Display for Quiet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("reported by another rank")
    }
}

impl std::error::Error for Quiet {}

/// The job this process belongs to, held for the whole command: dropping
/// it leaves the job (and finalises MPI).
pub(crate) struct Job {
    #[cfg(feature = "mpi")]
    _world: Option<Rc<mnk::cluster::World>>,
}

impl Drop for Job {
    fn drop(&mut self) {
        ranks::leave();
    }
}

/// Joins the job a launcher started this process in, if any, for the
/// command `name` (`shares`: whether it shares its games among ranks).
/// Refusals print their message (rank 0's only, where all ranks would
/// print the same) and give the exit status.
pub(crate) fn join(name: &str, shares: bool) -> Result<Job, ExitCode> {
    let Some(launch) = Launch::from_env().filter(|l| l.size > 1) else {
        return Ok(Job {
            #[cfg(feature = "mpi")]
            _world: None,
        });
    };
    let refuse = |message: String| {
        if launch.rank == 0 {
            say(&format!("error: {message}"));
        }
        Err(ExitCode::from(2))
    };
    if !cfg!(feature = "mpi") {
        return refuse(format!(
            "this mnk was built without MPI, but it runs as {launch}: each process would play every game and they would write the same files; build it with `cargo build --release --features mpi` (docs/mpi.md), or run one process"
        ));
    }
    if !shares {
        return refuse(format!(
            "`mnk {name}` runs as one process; only `mnk train` and `mnk match` share their games among MPI ranks (this is {launch})"
        ));
    }
    #[cfg(feature = "mpi")]
    {
        let world = match mnk::cluster::World::init(&launch) {
            Ok(w) => Rc::new(w),
            Err(e) => {
                say(&format!("error: rank {}: {e}", launch.rank));
                return Err(ExitCode::from(2));
            }
        };
        let args: Vec<String> = std::env::args().skip(1).collect();
        if let Err(e) = mnk::cluster::agree_on_arguments(world.as_ref(), &args) {
            if e != mnk::cluster::Disagreement::Quiet {
                say(&format!("error: {e}"));
            }
            return Err(ExitCode::from(2));
        }
        ranks::join(world.clone());
        Ok(Job {
            _world: Some(world),
        })
    }
    #[cfg(not(feature = "mpi"))]
    unreachable!("refused above without the mpi feature")
}

/// The ranks this command shares its games among, if it runs in a job of
/// several processes.
pub(crate) fn shared() -> Option<Rc<dyn Ranks>> {
    ranks::shared()
}

/// Prints a line on stderr in one write, so that the launcher does not
/// interleave it with other ranks' lines.
pub(crate) fn say(line: &str) {
    let text = format!("{line}\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
}

/// Whether this process prints and writes files: rank 0 of a job, or a
/// process alone.
pub(crate) fn leads() -> bool {
    ranks::rank() == 0
}

/// Every rank's outcome of a step that may fail on some ranks only (a
/// weights file missing on one machine): if any failed, every rank
/// returns an error, and only the failures say why: rank 0's plainly,
/// another rank's with its number (when rank 0 did not fail the same
/// way). Collective in a job; the outcome itself when alone.
pub(crate) fn agree<T>(outcome: Result<T>) -> Result<T> {
    let Some(r) = shared() else { return outcome };
    let (rank, size) = (r.rank(), r.size());
    let mut failed = vec![0u64; size];
    failed[rank] = u64::from(outcome.is_err());
    r.sum(&mut failed);
    let others: Vec<usize> = (0..size).filter(|&i| failed[i] != 0).collect();
    match outcome {
        Ok(_) if others.is_empty() => outcome,
        Ok(_) if rank == 0 => {
            let list: Vec<String> = others.iter().map(usize::to_string).collect();
            Err(match others.len() {
                1 => anyhow::anyhow!("rank {} could not start (see its message)", list[0]),
                _ => anyhow::anyhow!(
                    "ranks {} could not start (see their messages)",
                    list.join(", ")
                ),
            })
        }
        Ok(_) => Err(Quiet.into()),
        Err(e) if rank == 0 => Err(e),
        Err(_) if failed[0] != 0 => Err(Quiet.into()),
        Err(e) => Err(e.context(format!("rank {rank}"))),
    }
}

/// One line on the job for rank 0 to print: its ranks and each one's
/// threads. Every rank whose threads use fewer of its machine's cores
/// than its share warns (mpirun binds each rank to one core by default,
/// and rayon then starts one thread). Collective in a job; empty alone.
pub(crate) fn describe() -> String {
    let Some(r) = shared() else {
        return String::new();
    };
    let threads = rayon::current_num_threads();
    let mut all = vec![0u64; r.size()];
    all[r.rank()] = threads as u64;
    r.sum(&mut all);
    if let Some(share) = bound_below_share() {
        say(&format!(
            "warning: rank {} is bound to 1 core where its share of its machine's cores is {share}: mpirun binds each rank to one core by default, and rayon then runs one thread; add `--bind-to none` to mpirun (one rank a machine), or `--map-by slot:PE={share}`",
            r.rank()
        ));
    }
    let list: Vec<String> = all.iter().map(u64::to_string).collect();
    format!(
        "job: {} MPI ranks, rayon threads per rank: {}",
        r.size(),
        list.join(", ")
    )
}

/// This rank's share of its machine's cores, if Open MPI's `mpirun` bound
/// it to a single core below that share (its default). Under Slurm the
/// binding is the allocation's, and a container's CPU quota is no binding,
/// so only Open MPI's launch outside Slurm is judged.
fn bound_below_share() -> Option<usize> {
    let launch = Launch::from_env()?;
    if launch.variable != "OMPI_COMM_WORLD_SIZE" || std::env::var_os("SLURM_JOB_ID").is_some() {
        return None;
    }
    let local = launch.local_size.unwrap_or(1).max(1);
    let share = mnk::cluster::cores_online()? / local;
    (mnk::cluster::cores_allowed()? == 1 && share > 1).then_some(share)
}

/// Ends the whole job when a rank fails after the ranks set out together:
/// the others would wait for it in their next collective call. Alone, the
/// error is returned.
pub(crate) fn fail_together<T>(outcome: Result<T>) -> Result<T> {
    match (outcome, shared()) {
        (Err(e), Some(r)) if e.downcast_ref::<Quiet>().is_none() => r.abort(&super::error_text(&e)),
        (outcome, _) => outcome,
    }
}
