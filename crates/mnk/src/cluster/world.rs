//! The MPI world (the cargo feature `mpi`, on the `mpi` crate): the
//! [`Ranks`] of a job started by `mpirun`, `mpiexec` or `srun`.
//!
//! MPI is called from the main thread only (Open MPI's communicators may
//! not be shared between threads); rayon's threads compute, the main
//! thread sums. A panic on any thread of any rank ends the whole job at
//! once: without the hook [`World::init`] installs, the panicking rank
//! would wait in MPI's shutdown while the others wait for it in a sum,
//! forever.

use super::Launch;
use crate::arena::ranks::Ranks;
use mpi::collective::SystemOperation;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives, Root};

/// Why the MPI world could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum WorldError {
    /// `MPI_Init` was called already (a second world in one process).
    #[error("MPI was initialised already in this process")]
    Twice,
    /// The library's world is not the launcher's: mnk was built against
    /// another MPI than the one that launched it.
    #[error("the launcher started {launch}, but MPI sees a job of {found}: this mnk was built against another MPI library than the launcher's (build it where it runs, with the same MPI, or use that MPI's mpirun)")]
    Mismatch {
        /// What the launcher's variables say.
        launch: Launch,
        /// The world's size as MPI sees it.
        found: usize,
    },
}

/// This process's view of the job: its rank among the world's processes.
pub struct World {
    // Dropped last: finalises MPI.
    _universe: Universe,
    world: SimpleCommunicator,
    rank: usize,
    size: usize,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "World {{ rank: {}, size: {} }}", self.rank, self.size)
    }
}

impl World {
    /// Initialises MPI (only the main thread will call it) and installs
    /// the panic hook that aborts the job. `launch` is what the launcher's
    /// variables said, checked against MPI's own count.
    pub fn init(launch: &Launch) -> Result<World, WorldError> {
        let (universe, _) =
            mpi::initialize_with_threading(mpi::Threading::Funneled).ok_or(WorldError::Twice)?;
        let world = universe.world();
        let (rank, size) = (world.rank() as usize, world.size() as usize);
        if size != launch.size {
            return Err(WorldError::Mismatch {
                launch: launch.clone(),
                found: size,
            });
        }
        let report = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            report(info);
            let text = format!("mnk: rank {rank} panicked: ending the whole job\n");
            let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
            // SAFETY: MPI_Abort may be called from any thread of an
            // initialised process; it does not return.
            unsafe {
                mpi::ffi::MPI_Abort(mpi::ffi::RSMPI_COMM_WORLD, 101);
            }
            std::process::abort();
        }));
        Ok(World {
            _universe: universe,
            world,
            rank,
            size,
        })
    }
}

impl Ranks for World {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn sum(&self, buf: &mut [u64]) {
        let mine = buf.to_vec();
        self.world
            .all_reduce_into(&mine[..], buf, SystemOperation::sum());
    }

    fn broadcast(&self, bytes: &mut Vec<u8>) {
        let root = self.world.process_at_rank(0);
        let mut len = [bytes.len() as u64];
        root.broadcast_into(&mut len[..]);
        bytes.resize(len[0] as usize, 0);
        root.broadcast_into(&mut bytes[..]);
    }

    fn abort(&self, message: &str) -> ! {
        // One write, so that the launcher does not interleave it with
        // other ranks' output.
        let text = format!(
            "error: rank {r}: {message}\nmnk: rank {r} ends the whole job\n",
            r = self.rank
        );
        let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
        self.world.abort(1)
    }
}
