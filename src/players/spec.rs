//! Player specs (being written).
pub struct PlayerSpec;
#[derive(Debug)]
pub struct SpecError;
