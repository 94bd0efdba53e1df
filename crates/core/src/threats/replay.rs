//! An independent check of a threat line: replayed on a plain [`Board`],
//! with the board's own win detection and no shapes, so that a fault in
//! the shape tables or the threat search cannot vouch for itself.

use super::Mode;
use crate::game::{Board, Color, Move, Outcome};

/// Why a line is not a forcing win.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The line has no moves.
    #[error("the line is empty")]
    Empty,
    /// A move is off the board or on a stone.
    #[error("move {index} ({mv}) is not legal")]
    Illegal {
        /// 1-based place in the line.
        index: usize,
        /// The move.
        mv: Move,
    },
    /// An attacker move that is not a four (or, for VCT, not a three).
    #[error("move {index} ({mv}) is not a {expected}")]
    NotAThreat {
        /// 1-based place in the line.
        index: usize,
        /// The move.
        mv: Move,
        /// "four" or "four or three".
        expected: &'static str,
    },
    /// The side to move could have won at once instead.
    #[error("move {index} ({mv}) ignores a win at once for the side to move")]
    MissedWin {
        /// 1-based place in the line.
        index: usize,
        /// The move.
        mv: Move,
    },
    /// A defender move that is not the one forced reply to a four.
    #[error("move {index} ({mv}) is not the forced block {expected}")]
    NotForced {
        /// 1-based place in the line.
        index: usize,
        /// The move.
        mv: Move,
        /// The block.
        expected: Move,
    },
    /// The attacker did not block the defender's four.
    #[error("move {index} ({mv}) leaves the defender's win at {threat}")]
    Unblocked {
        /// 1-based place in the line.
        index: usize,
        /// The move.
        mv: Move,
        /// The defender's winning cell.
        threat: Move,
    },
    /// The line ends without the attacker's k in a row.
    #[error("the line ends without a win for {0}")]
    NoWin(Color),
}

/// Checks that `line`, played from `board` with `attacker` moving first
/// (whoever the board says is to move), is a forcing win by `mode` threats:
/// - each attacker move is a four (VCF), or a four or a three (VCT: after
///   it some cell would give two completion cells), and blocks any
///   defender four;
/// - each defender reply to a single four is the block, and no defender
///   move passes over a win of its own;
/// - the last move completes k for the attacker.
///
/// For VCT this checks one line of the proof, not the defender's other
/// replies.
pub fn check_line(
    board: &Board,
    attacker: Color,
    mode: Mode,
    line: &[Move],
) -> Result<(), LineError> {
    if line.is_empty() {
        return Err(LineError::Empty);
    }
    let mut board = board.clone();
    let defender = attacker.opponent();
    for (i, &mv) in line.iter().enumerate() {
        let index = i + 1;
        let mover = if i % 2 == 0 { attacker } else { defender };
        let other = mover.opponent();
        if !board.is_legal(mv) {
            return Err(LineError::Illegal { index, mv });
        }
        let own = wins(&board, mover);
        if !own.is_empty() && !own.contains(&mv) {
            return Err(LineError::MissedWin { index, mv });
        }
        if board.wins_at(mv, mover) {
            // A win ends the game, whatever the other side threatened; it
            // must be the attacker's, and the line's last move.
            return if mover == attacker && index == line.len() {
                Ok(())
            } else {
                Err(LineError::NoWin(attacker))
            };
        }
        let theirs = wins(&board, other);
        if mover == attacker {
            if let Some(&threat) = theirs.iter().find(|&&t| t != mv) {
                return Err(LineError::Unblocked { index, mv, threat });
            }
        } else if theirs.len() == 1 && theirs[0] != mv {
            return Err(LineError::NotForced {
                index,
                mv,
                expected: theirs[0],
            });
        }
        board
            .play_as(mv, mover)
            .map_err(|_| LineError::Illegal { index, mv })?;
        if mover == attacker {
            let four = !wins(&board, attacker).is_empty();
            let three = mode == Mode::Vct && !four && wins_in_two(&board, attacker);
            if !four && !three {
                let expected = match mode {
                    Mode::Vcf => "four",
                    Mode::Vct => "four or three",
                };
                return Err(LineError::NotAThreat {
                    index,
                    mv,
                    expected,
                });
            }
        }
    }
    match board.outcome() {
        Some(Outcome::Win(c)) if c == attacker => Ok(()),
        _ => Err(LineError::NoWin(attacker)),
    }
}

/// The empty cells where `color` completes k.
fn wins(board: &Board, color: Color) -> Vec<Move> {
    board
        .legal_moves()
        .into_iter()
        .filter(|&m| board.wins_at(m, color))
        .collect()
}

/// Whether some move of `color` would leave two cells completing k.
fn wins_in_two(board: &Board, color: Color) -> bool {
    let mut b = board.clone();
    board.legal_moves().into_iter().any(|m| {
        if b.play_as(m, color).is_err() {
            return false;
        }
        let two = wins(&b, color).len() >= 2;
        b.undo();
        two
    })
}
