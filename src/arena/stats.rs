//! Rating statistics (filled in next).
