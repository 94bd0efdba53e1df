//! The `mnk` binary: the command line over the `mnk` library (see
//! `mnk --help`). Flags, messages and exit codes live here, in [`cli`];
//! the work is done by the library.
//!
//! Started under a name beginning with `pbrain-` (the name Gomocup
//! managers look for), it is `mnk brain` with the same flags.
//!
//! Exit codes:
//! - 0: done (also for `--help` and `--version`);
//! - 1: an error, reported on stderr as one `error: …` line;
//! - 2: the command line is wrong (clap's usage message), or the `--threads`
//!   pool cannot be set up;
//! - 130 (128 + SIGINT): Ctrl-C (or SIGTERM or SIGHUP, as `mpirun` sends
//!   when another rank of the job died) stopped `play`, `match` or `train`
//!   after saving what was played (1 if `match` could not save it).

mod cli;

fn main() -> std::process::ExitCode {
    if std::env::args_os()
        .next()
        .is_some_and(|a| mnk::brain::is_pbrain_name(&a))
    {
        return cli::pbrain_main();
    }
    cli::main()
}
