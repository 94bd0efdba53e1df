//! How many games an SPRT needs, given the pentanomial counts of a long
//! match: a bootstrap. Each replication draws pairs at random from the
//! measured counts and runs mnk's own pentanomial SPRT on them, looking at
//! the LLR after every batch of 32 pairs as `mnk match --sprt` does; the
//! average number of games until a decision, and how often H1 was
//! accepted, measure the statistical power of the openings that produced
//! the counts.
//!
//! ```text
//! cargo run --release --example sprt_power -- elo0=0,elo1=20 LL,LD,WL+DD,DW,WW [more counts…]
//! cargo run --release --example sprt_power -- elo0=0,elo1=20 129,8,579,13,271
//! ```

use mnk::arena::game_rng;
use mnk::arena::stats::{Pentanomial, SprtParams, SprtStatus};
use rand::Rng as _;

const REPLICATIONS: u64 = 2000;
const BATCH: u64 = 32;
/// An undecided replication stops here (and counts at this length).
const MAX_PAIRS: u64 = 200_000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: sprt_power elo0=0,elo1=20 LL,LD,WL+DD,DW,WW [more counts]";
    let Some((params, counts)) = args.split_first() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let params: SprtParams = params.parse().unwrap_or_else(|e| {
        eprintln!("{e}\n{usage}");
        std::process::exit(2)
    });
    println!("SPRT {params}, {REPLICATIONS} bootstrap replications, a look every {BATCH} pairs");
    for c in counts {
        let bins: Vec<u64> = c
            .split(',')
            .map(|t| t.trim().parse::<u64>())
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| {
                eprintln!("{c:?}: {e}\n{usage}");
                std::process::exit(2)
            });
        let Ok(bins) = <[u64; 5]>::try_from(bins) else {
            eprintln!("{c:?}: expected 5 counts\n{usage}");
            std::process::exit(2)
        };
        let total: u64 = bins.iter().sum();
        if total == 0 {
            eprintln!("{c:?}: no pairs");
            std::process::exit(2);
        }
        let measured = Pentanomial::new(bins);
        let (mut games, mut h1, mut undecided) = (0u64, 0u64, 0u64);
        for r in 0..REPLICATIONS {
            let mut rng = game_rng(7, &[r]);
            let mut p = Pentanomial::default();
            let status = loop {
                for _ in 0..BATCH {
                    let mut x = rng.gen_range(0..total);
                    let bin = bins
                        .iter()
                        .position(|&b| {
                            let hit = x < b;
                            x = x.saturating_sub(b);
                            hit
                        })
                        .unwrap_or(4);
                    p.bins[bin] += 1;
                }
                let s = params.decide(params.llr_pentanomial(&p));
                if s != SprtStatus::Continue || p.pairs() >= MAX_PAIRS {
                    break s;
                }
            };
            games += p.games();
            match status {
                SprtStatus::AcceptH1 => h1 += 1,
                SprtStatus::Continue => undecided += 1,
                SprtStatus::AcceptH0 => {}
            }
        }
        let informative = 1.0 - bins[2] as f64 / total as f64;
        println!(
            "Ptnml {bins:?} ({total} pairs, informative {:.1}%, Elo {:+.1} ± {:.1}): mean {:.0} games to decide, H1 accepted {:.1}%, undecided {:.1}%",
            100.0 * informative,
            measured.elo(),
            measured.elo_error95(),
            games as f64 / REPLICATIONS as f64,
            100.0 * h1 as f64 / REPLICATIONS as f64,
            100.0 * undecided as f64 / REPLICATIONS as f64,
        );
    }
}
