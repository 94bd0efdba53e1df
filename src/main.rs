//! The `mnk` binary: all logic lives in the library; see `mnk --help`.
//! Started under a name beginning with `pbrain-` (the name Gomocup
//! managers look for), it is `mnk brain`.

fn main() -> std::process::ExitCode {
    if std::env::args_os()
        .next()
        .is_some_and(|a| mnk::brain::is_pbrain_name(&a))
    {
        return mnk::brain::pbrain_main();
    }
    mnk::cli::main()
}
