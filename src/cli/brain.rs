//! `mnk brain`: Gomocup engine mode on stdin/stdout. The protocol lives in
//! [`mnk::brain`]; this only hands it the process's streams.

use anyhow::Result;

/// The flags are the engine options (also accepted as `pbrain-mnk …`).
pub use mnk::brain::Options as Args;

pub fn run(a: Args) -> Result<()> {
    mnk::brain::run_stdio(&a)
}
