//! The undo journal of [`Sheets`](super::Sheets): the entries a move's
//! rescoring overwrote, so that taking the move back copies them back
//! instead of rescoring every cell again.
//!
//! Rescoring a cell is a sum of its terms, and for a combo model also a
//! look at its reply cell and the cells whose replies read it
//! (`eval/reply.rs`); taking a move back did all of it once more. A copy
//! back is a load and a store per entry, whatever the model, and it
//! gives the entries bit for bit as they were.

/// One overwritten cell: its index, both sheets' scores and both keys.
type Entry = (u32, [f64; 2], [f32; 2]);

/// The entries overwritten while recording, grouped by move.
#[derive(Clone, Debug, Default)]
pub(super) struct Journal {
    /// Whether writes are recorded now (between `begin` and `end`).
    pub(super) on: bool,
    /// The overwritten entries, oldest first.
    entries: Vec<Entry>,
    /// Per recorded move: its ply (its index in the game) and where its
    /// entries start.
    marks: Vec<(u32, u32)>,
}

impl Journal {
    /// Starts recording the writes of the move at `ply`. Marks at `ply`
    /// or later belong to moves that are gone (taken back while other
    /// sheets followed the lines) and are dropped.
    pub(super) fn begin(&mut self, ply: usize) {
        let ply = ply as u32;
        while let Some(&(p, start)) = self.marks.last() {
            if p < ply {
                break;
            }
            self.entries.truncate(start as usize);
            self.marks.pop();
        }
        self.marks.push((ply, self.entries.len() as u32));
        self.on = true;
    }

    /// Stops recording.
    pub(super) fn end(&mut self) {
        self.on = false;
    }

    /// Records what cell `cell` held before a write.
    #[inline(always)]
    pub(super) fn record(&mut self, cell: usize, scores: [f64; 2], keys: [f32; 2]) {
        self.entries.push((cell as u32, scores, keys));
    }

    /// The entries of the move at `ply`, newest first, to be copied back;
    /// `None` (and nothing dropped) when that move's writes were not
    /// recorded here. Later marks are of moves already gone.
    pub(super) fn take(&mut self, ply: usize) -> Option<impl Iterator<Item = Entry> + '_> {
        let ply = ply as u32;
        while self.marks.last().is_some_and(|&(p, _)| p > ply) {
            let (_, start) = self.marks.pop().expect("a mark");
            self.entries.truncate(start as usize);
        }
        match self.marks.last() {
            Some(&(p, start)) if p == ply => {
                self.marks.pop();
                Some(self.entries.drain(start as usize..).rev())
            }
            _ => None,
        }
    }

    /// Forgets every move's entries.
    pub(super) fn clear(&mut self) {
        self.on = false;
        self.entries.clear();
        self.marks.clear();
    }

    /// Heap bytes of the entries and marks.
    pub(super) fn heap_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.marks.capacity() * std::mem::size_of::<(u32, u32)>()
    }
}
