//! `mnk eval` and `mnk solve` as shown: boards that fit an 80-column terminal, heat colours, JSON.
