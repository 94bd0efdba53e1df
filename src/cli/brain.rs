//! `mnk brain`: Gomocup engine mode on stdin/stdout. The protocol lives in
//! [`crate::brain`]; this only hands it the process's streams.

use anyhow::Result;

/// The flags are the engine options (also accepted as `pbrain-mnk …`).
pub use crate::brain::Options as Args;

pub fn run(a: Args) -> Result<()> {
    crate::brain::run_stdio(&a)
}
