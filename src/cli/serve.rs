//! `mnk serve`: the local web page. The server lives in [`mnk_serve`];
//! this file turns the flags into its [`Options`] and prints the URL.

use anyhow::{bail, Context, Result};
use mnk_serve::{Bounds, Limits, Options};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

/// The flags of `mnk serve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  mnk serve                          http://127.0.0.1:8080/
  mnk serve --port 0                 any free port (the URL says which)
  mnk serve --records games.csv
  mnk serve --replay-dir matches     also replay the records files under matches/
  mnk serve --host 0.0.0.0 --allow-host mybox.lan

The page has three views: Play (a board against any player spec, with a
value map), Training (the runs under --runs-dir, their charts updating as
rounds land) and Replay (records files under the allowed folders).

There are no accounts: anyone who can reach the address can play and read
what the server shows. It listens on 127.0.0.1 (this machine only) unless
--host says otherwise. It answers only requests naming it as localhost or
by its address (other names: --allow-host), so a web site cannot reach it
through a name of its own, and it refuses changes sent by other sites'
pages.")]
pub struct Args {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on; 0.0.0.0 opens it to the network (no accounts!).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// Another host name the server may be reached by (besides localhost and
    /// its addresses), such as the machine's name on the network (repeatable).
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// The folder of training runs [default: runs].
    #[arg(long, value_name = "DIR")]
    runs_dir: Option<PathBuf>,
    /// Append every game played on the page to this records file, as `mnk play` does.
    #[arg(long, default_value = super::play::RECORDS, value_name = "FILE")]
    records: PathBuf,
    /// Do not write the records file.
    #[arg(long, conflicts_with = "records")]
    no_records: bool,
    /// The folder of weights files opponents may use [default: weights].
    #[arg(long, value_name = "DIR")]
    weights_dir: Option<PathBuf>,
    /// Another folder whose records files (CSV, SGF) the Replay view may open
    /// (besides the records file's folder and the runs folder; repeatable).
    #[arg(long, value_name = "DIR")]
    replay_dir: Vec<PathBuf>,
    /// The memory the games' search tables may hold together, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    table_memory: u64,
}

/// A folder given by `flag` must be one: serving a folder that is not
/// there would show empty views without saying why.
fn existing(flag: &str, dir: &std::path::Path) -> Result<()> {
    if !dir.is_dir() {
        bail!(
            "{flag} {}: no such folder{}",
            dir.display(),
            if dir.exists() { " (it is a file)" } else { "" }
        );
    }
    Ok(())
}

/// Serves until Ctrl-C.
pub fn run(a: Args) -> Result<()> {
    if !a.host.is_loopback() {
        eprintln!(
            "warning: listening on {}: anyone who can reach this address can use the page; \
             mnk serve has no accounts",
            a.host
        );
    }
    if let Some(d) = &a.runs_dir {
        existing("--runs-dir", d)?;
    }
    if let Some(d) = &a.weights_dir {
        existing("--weights-dir", d)?;
    }
    for d in &a.replay_dir {
        existing("--replay-dir", d)?;
    }
    let runs_dir = a.runs_dir.unwrap_or_else(|| PathBuf::from("runs"));
    let weights_dir = a.weights_dir.unwrap_or_else(|| PathBuf::from("weights"));
    // The records file's folder ("." for a bare file name) and the runs.
    let mut replay_dirs = vec![match a.records.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }];
    replay_dirs.push(runs_dir.clone());
    replay_dirs.extend(a.replay_dir);
    let options = Options {
        addr: SocketAddr::new(a.host, a.port),
        allowed_hosts: a.allow_host,
        replay_dirs,
        runs_dir,
        records: (!a.no_records).then_some(a.records),
        weights_dir,
        limits: Limits {
            table_memory: u128::from(a.table_memory) << 20,
            ..Limits::default()
        },
        bounds: Bounds::default(),
    };
    mnk_serve::run(options, |running| {
        println!("mnk serve: {} (Ctrl-C stops)", running.url());
    })
    .context("mnk serve")
}
