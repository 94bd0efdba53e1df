//! `--json` of `match`, `train` and `bench`, and the progress of long work.
