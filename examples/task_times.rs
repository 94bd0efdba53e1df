//! Times each task of a match, one opening played with both colours by
//! one player against itself, on one thread: the per-task times the MPI
//! cost model (docs/mpi-scaling.md, scripts/mpi-scaling/model.py) samples.
//!
//! ```text
//! cargo run --release --example task_times -- SPEC N SEED [BOOK] > times.txt
//! ```
//!
//! Prints one line per task: nanoseconds, then both games' plies. With
//! BOOK, plays the first N openings of its training part (the rounds'
//! openings); otherwise N random gomoku openings.

use mnk::arena::{game_rng, play_game, random_openings, Book, BookPart, OpeningStyle};
use mnk::game::{Board, Rules};
use mnk::players::PlayerSpec;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [spec, n, seed, rest @ ..] = args.as_slice() else {
        return Err("usage: task_times SPEC N SEED [BOOK]".into());
    };
    let spec: PlayerSpec = spec.parse()?;
    let n: usize = n.parse()?;
    let seed: u64 = seed.parse()?;
    let rules = Rules::GOMOKU;
    let openings = match rest.first() {
        Some(book) => Book::load(book.as_ref(), rules)?.take(BookPart::Train, n, "N")?,
        None => {
            let mut rng = game_rng(seed, &[]);
            random_openings(rules, OpeningStyle::default_for(rules), n, &mut rng)
        }
    };
    let (mut a, mut b) = (spec.build(rules)?, spec.build(rules)?);
    let mut board = Board::new(rules);
    let mut out = String::new();
    let all = Instant::now();
    for (i, opening) in openings.iter().enumerate() {
        let t = Instant::now();
        let mut plies = [0; 2];
        for (g, a_black) in [true, false].into_iter().enumerate() {
            let mut rng = game_rng(seed, &[i as u64, u64::from(!a_black)]);
            let (black, white) = if a_black {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            play_game(
                rules,
                opening,
                black.as_mut(),
                white.as_mut(),
                &mut board,
                &mut rng,
            )?;
            plies[g] = board.ply();
        }
        out.push_str(&format!(
            "{} {} {}\n",
            t.elapsed().as_nanos(),
            plies[0],
            plies[1]
        ));
    }
    eprintln!(
        "{} tasks in {:.3} s",
        openings.len(),
        all.elapsed().as_secs_f64()
    );
    print!("{out}");
    Ok(())
}
