//! The search player (being written).
pub struct Search;
pub struct SearchLimits;
pub struct SearchInfo;
