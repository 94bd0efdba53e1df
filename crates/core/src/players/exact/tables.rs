//! What the solver precomputes for one set of rules ([`SolverTables`]:
//! Zobrist keys under each symmetry, the windows through each cell, the
//! move order), and its transposition table.

use crate::game::{splitmix64, KeyHasher, Rules, Symmetry};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The solver's transposition table: Zobrist key → value and [`Bound`]
/// packed in a byte (see `Solver::search`).
///
/// [`Bound`]: crate::players::Bound
pub(super) type Table = HashMap<u64, u8, BuildHasherDefault<KeyHasher>>;

/// What the solver precomputes for one set of rules.
pub(super) struct SolverTables {
    /// Number of symmetries used in the key (1 when symmetry is off).
    pub(super) nsym: usize,
    /// `keys[(colour * cells + cell) * nsym + s]`: the key of a stone of
    /// `colour` on `cell` once the board is mapped by symmetry `s`.
    pub(super) keys: Vec<u64>,
    /// Mixed into the key when white is to move.
    pub(super) side_key: u64,
    /// The windows (k cells in a line) through each cell: indices into the
    /// window list, flattened, `cell_windows[start[c]..start[c + 1]]`
    /// ([`SolverTables::windows_at`]).
    cell_windows: Vec<u32>,
    start: Vec<usize>,
    /// How many windows the board has.
    pub(super) windows: usize,
    /// Every cell, in the order moves are tried.
    pub(super) order: Vec<u16>,
}

impl SolverTables {
    pub(super) fn new(rules: &Rules, symmetric: bool) -> SolverTables {
        let syms: &[Symmetry] = if symmetric {
            Symmetry::of(rules)
        } else {
            &[Symmetry::Identity]
        };
        let (keys, side_key) = keys(rules, syms);
        let (per_cell, windows) = windows_through_cells(rules);
        let order = move_order(rules, &per_cell);
        let mut start = Vec::with_capacity(per_cell.len() + 1);
        let mut cell_windows = Vec::new();
        for list in &per_cell {
            start.push(cell_windows.len());
            cell_windows.extend_from_slice(list);
        }
        start.push(cell_windows.len());
        SolverTables {
            nsym: syms.len(),
            keys,
            side_key,
            cell_windows,
            start,
            windows,
            order,
        }
    }

    /// The windows through cell `i`.
    #[inline]
    pub(super) fn windows_at(&self, i: usize) -> &[u32] {
        &self.cell_windows[self.start[i]..self.start[i + 1]]
    }
}

/// The solver's own Zobrist keys, from a fixed SplitMix64 stream, laid
/// out as [`SolverTables::keys`] for the symmetries `syms`; and the side key.
fn keys(rules: &Rules, syms: &[Symmetry]) -> (Vec<u64>, u64) {
    let (cells, nsym) = (rules.cells(), syms.len());
    let mut state = 0x05EE_D0FE_8AC7_u64;
    let mut next = || {
        let (s, v) = splitmix64(state);
        state = s;
        v
    };
    let base: Vec<u64> = (0..2 * cells).map(|_| next()).collect();
    let side_key = next();
    let mut keys = vec![0; 2 * cells * nsym];
    for c in 0..2 {
        for i in 0..cells {
            for (s, sym) in syms.iter().enumerate() {
                let j = rules.index(sym.apply(rules, rules.move_at(i)));
                keys[(c * cells + i) * nsym + s] = base[c * cells + j];
            }
        }
    }
    (keys, side_key)
}

/// For each cell, the windows (k cells in a line) through it, numbered in
/// one list; and how many windows there are.
fn windows_through_cells(rules: &Rules) -> (Vec<Vec<u32>>, usize) {
    let (w, h, k) = (rules.width as i32, rules.height as i32, rules.k as i32);
    let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); rules.cells()];
    let mut windows = 0u32;
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for y in 0..h {
            for x in 0..w {
                let (ex, ey) = (x + dx * (k - 1), y + dy * (k - 1));
                if ex < 0 || ex >= w || ey < 0 || ey >= h {
                    continue;
                }
                for t in 0..k {
                    per_cell[((y + dy * t) * w + x + dx * t) as usize].push(windows);
                }
                windows += 1;
            }
        }
    }
    (per_cell, windows as usize)
}

/// Every cell in the order moves are tried: most lines through the cell,
/// then nearest the centre (doubled coordinates keep it exact on even
/// sides), then index.
fn move_order(rules: &Rules, per_cell: &[Vec<u32>]) -> Vec<u16> {
    let (w, h) = (rules.width as i32, rules.height as i32);
    let mut order: Vec<u16> = (0..rules.cells() as u16).collect();
    order.sort_by_key(|&i| {
        let m = rules.move_at(i as usize);
        let dx = (2 * m.x as i32 - (w - 1)).abs();
        let dy = (2 * m.y as i32 - (h - 1)).abs();
        (
            std::cmp::Reverse(per_cell[i as usize].len()),
            dx * dx + dy * dy,
            i,
        )
    });
    order
}
