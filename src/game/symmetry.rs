//! The symmetries of a rectangular board: 8 on a square board, 4 otherwise.

use super::{Move, Rules};

/// One of the 8 symmetries of the square (the dihedral group D4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    Identity,
    Rotate90,
    Rotate180,
    Rotate270,
    FlipX,
    FlipY,
    Transpose,
    AntiTranspose,
}

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipX,
        Symmetry::FlipY,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The symmetries that map a board of these rules onto itself.
    pub fn of(rules: &Rules) -> &'static [Symmetry] {
        if rules.is_square() {
            &Self::ALL
        } else {
            &[
                Symmetry::Identity,
                Symmetry::Rotate180,
                Symmetry::FlipX,
                Symmetry::FlipY,
            ]
        }
    }

    /// Where this symmetry sends the cell `m`.
    pub fn apply(self, rules: &Rules, m: Move) -> Move {
        let (w, h) = (rules.width - 1, rules.height - 1);
        let (x, y) = (m.x, m.y);
        let (nx, ny) = match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (h - y, x),
            Symmetry::Rotate180 => (w - x, h - y),
            Symmetry::Rotate270 => (y, w - x),
            Symmetry::FlipX => (w - x, y),
            Symmetry::FlipY => (x, h - y),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (h - y, w - x),
        };
        Move::new(nx, ny)
    }
}
