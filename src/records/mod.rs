//! Game records (filled in next).
