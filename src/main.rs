//! The `mnk` binary: all logic lives in the library; see `mnk --help`.

fn main() -> std::process::ExitCode {
    mnk::cli::main()
}
