//! The symmetries of a rectangular board: 8 on a square board, 4 otherwise.

use super::{Move, Rules};

/// One of the 8 symmetries of the square (the dihedral group D4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Every cell stays.
    Identity,
    /// A quarter turn clockwise (square boards only).
    Rotate90,
    /// A half turn.
    Rotate180,
    /// A quarter turn anticlockwise (square boards only).
    Rotate270,
    /// Mirror left to right (`x` reversed).
    FlipX,
    /// Mirror top to bottom (`y` reversed).
    FlipY,
    /// Mirror in the main diagonal (`x` and `y` swapped; square boards only).
    Transpose,
    /// Mirror in the anti-diagonal (square boards only).
    AntiTranspose,
}

impl Symmetry {
    /// All eight, the identity first.
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
