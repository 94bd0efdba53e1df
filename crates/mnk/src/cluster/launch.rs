//! What the environment says about the job this process was started in.

use std::fmt;

/// A process started as one of several by an MPI launcher, as the
/// launcher's environment variables say. mnk reads them even when built
/// without MPI, to refuse to run as N copies that would each play every
/// game and write the same run folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Processes the launcher started.
    pub size: usize,
    /// This process's rank among them.
    pub rank: usize,
    /// Processes of the job on this machine, when the launcher says.
    pub local_size: Option<usize>,
    /// The variable that gave the size, for messages.
    pub variable: &'static str,
}

/// The launchers' (size, rank) variables: Open MPI's `mpirun`; MPICH's
/// and Intel MPI's Hydra (and `srun --mpi=pmi2`); a Slurm job step
/// (`srun`, where `--mpi=pmix` sets no other). The order matters: under
/// `mpirun` inside a Slurm allocation every rank inherits Slurm variables
/// that do not describe it (`SLURM_PROCID=0` on every rank of the batch
/// node), so Open MPI's own come first.
const VARIABLES: [(&str, &str); 3] = [
    ("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"),
    ("PMI_SIZE", "PMI_RANK"),
    ("SLURM_STEP_NUM_TASKS", "SLURM_PROCID"),
];

/// The processes on this machine: Open MPI's, MPICH's, Slurm's variables.
const LOCAL_SIZE: [&str; 3] = [
    "OMPI_COMM_WORLD_LOCAL_SIZE",
    "MPI_LOCALNRANKS",
    "SLURM_STEP_TASKS_PER_NODE",
];

impl Launch {
    /// The launch this process's environment describes, if a launcher
    /// started it (a job of one process included).
    pub fn from_env() -> Option<Launch> {
        Launch::from_vars(|k| std::env::var(k).ok())
    }

    /// [`Launch::from_env`] over any variables (for tests).
    fn from_vars(var: impl Fn(&str) -> Option<String>) -> Option<Launch> {
        let number = |k: &str| var(k).and_then(|v| v.trim().parse::<usize>().ok());
        VARIABLES.iter().find_map(|&(size, rank)| {
            let n = number(size)?;
            Some(Launch {
                size: n,
                rank: number(rank).unwrap_or(0),
                // Slurm's per-node count may read "2(x3)": its leading number.
                local_size: LOCAL_SIZE.iter().find_map(|k| {
                    let v = var(k)?;
                    let digits: String = v.chars().take_while(char::is_ascii_digit).collect();
                    digits.parse().ok()
                }),
                variable: size,
            })
        })
    }
}

impl fmt::Display for Launch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rank {} of {} processes ({}={})",
            self.rank, self.size, self.variable, self.size
        )
    }
}

/// The cores this process may run on (its CPU affinity, which `mpirun`'s
/// binding and Slurm's task binding set; a container's CPU quota is not
/// counted), read from `/proc/self/status` on Linux.
pub fn cores_allowed() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?;
    count_cpu_list(list)
}

/// The number of CPUs in a Linux CPU list such as `0-3,8,10-11`.
fn count_cpu_list(list: &str) -> Option<usize> {
    let mut n = 0;
    for range in list.trim().split(',') {
        let (lo, hi) = range.split_once('-').unwrap_or((range, range));
        let (lo, hi): (usize, usize) = (lo.parse().ok()?, hi.parse().ok()?);
        n += hi.checked_sub(lo)? + 1;
    }
    Some(n)
}

/// The cores of this machine that are online, whatever this process is
/// bound to (`std::thread::available_parallelism` counts only the cores
/// a process may run on), read from `/sys` on Linux.
pub fn cores_online() -> Option<usize> {
    count_cpu_list(&std::fs::read_to_string("/sys/devices/system/cpu/online").ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(vars: &[(&str, &str)]) -> Option<Launch> {
        Launch::from_vars(|k| {
            vars.iter()
                .find(|(name, _)| *name == k)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn launchers_are_told_by_their_variables() {
        assert_eq!(launch(&[]), None);
        let open_mpi = launch(&[
            ("OMPI_COMM_WORLD_SIZE", "3"),
            ("OMPI_COMM_WORLD_RANK", "2"),
            ("OMPI_COMM_WORLD_LOCAL_SIZE", "3"),
        ])
        .unwrap();
        assert_eq!((open_mpi.size, open_mpi.rank), (3, 2));
        assert_eq!(open_mpi.local_size, Some(3));
        assert_eq!(
            open_mpi.to_string(),
            "rank 2 of 3 processes (OMPI_COMM_WORLD_SIZE=3)"
        );
        let hydra = launch(&[("PMI_SIZE", "4"), ("PMI_RANK", "1")]).unwrap();
        assert_eq!((hydra.size, hydra.rank, hydra.variable), (4, 1, "PMI_SIZE"));
        let srun = launch(&[
            ("SLURM_STEP_NUM_TASKS", "8"),
            ("SLURM_PROCID", "5"),
            ("SLURM_STEP_TASKS_PER_NODE", "4(x2)"),
        ])
        .unwrap();
        assert_eq!((srun.size, srun.rank, srun.local_size), (8, 5, Some(4)));
        // A batch script's own variables are not a launch.
        assert_eq!(
            launch(&[("SLURM_NTASKS", "8"), ("SLURM_PROCID", "0")]),
            None
        );
    }

    #[test]
    fn cpu_lists_are_counted() {
        assert_eq!(count_cpu_list("0-3,8,10-11\n"), Some(7));
        assert_eq!(count_cpu_list("5"), Some(1));
        assert_eq!(count_cpu_list("3-1"), None);
        assert_eq!(count_cpu_list("x"), None);
        if let (Some(online), Some(allowed)) = (cores_online(), cores_allowed()) {
            assert!(1 <= allowed && allowed <= online);
        }
    }
}
