//! `mnk records` (being written).

use anyhow::Result;

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_a: Args) -> Result<()> {
    anyhow::bail!("mnk records is not implemented yet")
}
