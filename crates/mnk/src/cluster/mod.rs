//! Running as one process of an MPI job: how mnk tells that a launcher
//! (`mpirun`, `mpiexec`, `srun`) started it, the ranks' agreement on their
//! arguments, and (with the cargo feature `mpi`) the MPI world itself,
//! which implements [`crate::arena::ranks::Ranks`] for the matches.
//!
//! Only the binary uses this module: the library's matches and training
//! see the job through [`crate::arena::ranks`] alone, so they build and
//! test without MPI.

mod agree;
mod launch;
#[cfg(feature = "mpi")]
mod world;

pub use agree::{agree_on_arguments, Disagreement};
pub use launch::{cores_allowed, cores_online, Launch};
#[cfg(feature = "mpi")]
pub use world::{World, WorldError};
