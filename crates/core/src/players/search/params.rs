//! The search's tuning constants in one place, each with the reason for
//! its value: threat-search node budgets, the shares of a timed move
//! that the root's threat searches may use, the static null move's
//! depth and margin, the threat extension's, the root's moves past
//! the width, and the quiescence's VCF budget.

/// Nodes for the mover's VCF at the root, and for the opponent's: a VCF
/// of 25 plies takes a few hundred nodes, so this finds every VCF a game
/// produces in a few milliseconds.
pub(super) const ROOT_VCF_NODES: u64 = 20_000;

/// Nodes for the opponent's VCF after each root move tried against it
/// (dozens of moves are tried, so each gets a tenth of the root's).
pub(super) const DEFENCE_VCF_NODES: u64 = 2_000;

/// Nodes for the opponent's VCT after each root move tried against it.
pub(super) const DEFENCE_VCT_NODES: u64 = 20_000;

/// Nodes for the mover's VCT at the root (only with a time limit, which
/// usually ends it first).
pub(super) const ROOT_VCT_NODES: u64 = 2_000_000;

/// The root VCTs' depth in attacker moves (threes; fours do not count).
///
/// Measured and left out: 8, which finds the longer wins (a VCT in 19
/// plies that decided a 300 ms game against `ad7d8df` needs depth 8 and
/// 125k nodes, out of a move's reach at either depth), +7.5 ± 18.2 Elo
/// over 600 games at 100 ms (pentanomial [28, 3, 232, 2, 35]; seed 1702,
/// load 2–4) and −4.3 ± 21.8 over 400 at 300 ms ([21, 2, 157, 1, 19];
/// seed 1703), both `mnk brains` on the shipped book against depth 6,
/// `--concurrency 1`, `--sprt elo0=0,elo1=15,model=logistic`
/// inconclusive.
pub(super) const ROOT_VCT_DEPTH: u32 = 6;

/// With a soft time limit, no new iteration starts once this share of the
/// (stretched) soft limit has passed: an iteration takes two to three
/// times all the ones before it, so one started later would end past it.
pub(super) const SOFT_START_SHARE: f64 = 0.5;

/// The soft limit is stretched by this factor when the iteration just
/// completed changed the best move: the search has not settled.
pub(super) const UNSTABLE_MOVE_STRETCH: f64 = 2.0;

/// …and by this factor when it lowered the score by more than
/// [`SCORE_DROP`]: the move may be worse than it looked.
pub(super) const SCORE_DROP_STRETCH: f64 = 1.5;

/// A fall of the root score that counts as a drop, in evaluation units
/// (the shipped weights value an open three at a few hundred).
pub(super) const SCORE_DROP: f64 = 200.0;

/// Nodes of each VCF of the quiescence at the horizon
/// ([`super::quiescence`]): the leaf mover's, where a move at a node of
/// depth 1 would raise alpha, and the mover's, where such a node failed
/// low; each only where that side has a four to make. Most of the cost
/// is how often they run, not this budget: `mnk bench`'s depth-8
/// searches count 53,419 nodes with 16, 59,320 with 64, against 40,164
/// without (threat nodes counted as the search's; the signature
/// searches, 2928 to 4255).
///
/// Against the search without it (`57a3fed`, `/work/bin/mnk-sw`), at
/// 100 ms a move (`mnk brains` on the shipped book, `--concurrency 2`,
/// `--sprt elo0=0,elo1=15,model=logistic`, 400 games a run, each run the
/// same 200 openings; the machine shared with niced training): +3.5 ±
/// 24.7 Elo (pentanomial [25, 2, 143, 4, 26]; seed 706, load 5.6–7.3)
/// and +24.4 ± 25.0 ([19, 3, 143, 1, 34]; seed 708, load 9.6–7.7),
/// both inconclusive; pooled, +13.9 ± 17.5 over 800 games ([44, 5,
/// 286, 5, 60]). 0 proven claims withdrawn.
///
/// Measured and left out (same method, 400 games unless said):
/// - with 64 nodes: −0.9 ± 26.3 ([29, 4, 134, 5, 28]; seed 701, load
///   3.7–8.1); at 300 ms, +6.9 ± 29.3 over 200 games ([8, 1, 80, 1,
///   10]; seed 707, load 7.3–9.6);
/// - the leaf refutation alone, 64 nodes: −13.0 ± 22.1 ([25, 0, 157,
///   1, 17]; seed 703, load 9.4–8.6; 52,564 nodes at depth 8);
/// - the failed-low node's own VCF alone, 64 nodes: −27.1 ± 24.8 over
///   308 games (H0; [21, 3, 119, 1, 10]; seed 702, load 7.2–9.4; 50,562
///   nodes);
/// - a stand-pat quiescence in the manner of Rapfi's instead: where a
///   move's leaf value would raise alpha and the leaf's mover has a four
///   to make (and faces none), the better of standing on that value and
///   each of its fours followed by the forced block, valued by the leaf
///   rule (a second completion cell, or `Search::leaf_win`, a proven
///   win), again after the block up to a depth. One four deep, 16 nodes
///   a leaf: −3.5 ± 22.6 ([23, 1, 153, 3, 20]; seed 705, load 6.0–5.6;
///   51,685 nodes); two deep, 32 nodes: −15.6 ± 24.8 ([30, 3, 144, 1,
///   22]; seed 704, load 6.5–6.0; 67,045 nodes).
pub(super) const QUIESCENCE_VCF_NODES: u64 = 16;

/// Bits of the threat searches' table (2^16 entries of 16 bytes).
pub(super) const THREAT_TABLE_BITS: u32 = 16;

/// Share of a timed move after which the VCF checks (the mover's VCF, the
/// opponent's and the cut of the root moves to those that stop it) give
/// up. They run before anything else and usually take a few milliseconds;
/// this only bounds a pathological case, and is most of the move because
/// on a loaded machine a wall-clock half of it was sometimes too little
/// for the VCF a stop depends on (walking into a VCF loses for certain,
/// while a shallower alpha-beta only plays worse). No VCT may spend
/// their time, and depth 1 of the alpha-beta always completes after them.
pub(super) const VCF_TIME_SHARE: f64 = 0.8;

/// Share of a timed move for the mover's VCT, counted from when it starts.
///
/// At 100 ms a move the root's VCTs take about a fifth of the move (the
/// mover's runs out of its share on most moves and finds a win on 7%),
/// yet half this share, the rest going to the opponent's VCT and the
/// alpha-beta, measured +1.7 ± 24.4 Elo over 400 games (`mnk brains`,
/// seed 313, load 6–9): the time is not worth moving.
pub(super) const VCT_TIME_SHARE: f64 = 0.125;

/// Share of a timed move for the opponent's VCT and the cut of the root
/// moves to those that stop it, counted from when it starts, plus what
/// the mover's VCT left of its own share. The mover's VCT usually ends at
/// once (no threats to make) or runs out; the opponent's VCT that must be
/// stopped can take longer to find than one share alone (seen: a VCT in
/// 13 plies found after 30,000 nodes, 40 ms at 300 ms a move on a loaded
/// machine, just past the 37.5 ms of its share, so the root walked into
/// it).
pub(super) const STOP_VCT_TIME_SHARE: f64 = 0.125;

/// Share of a timed move for the mover's VCT, counted from when it starts,
/// when the mover claimed a proven win on its last move and the table no
/// longer holds it (its entries were overwritten). The win is almost
/// surely still there, and a lost claim loses the game; the alpha-beta,
/// with its width, may not see it again (seen at 300 ms a move: a win in
/// 15 claimed by the alpha-beta, one move played from the table, then a
/// depth-16 search that missed the win in 13 left, which the VCT found
/// in 60-100 ms, more than its usual 37.5 ms share).
pub(super) const VCT_AFTER_CLAIM_SHARE: f64 = 0.75;

/// Static null move ([`super::Search::static_null`]): the deepest node it
/// cuts. At depth 3 too it measured −44.8 ± 47.5 Elo against depth 2.
pub(super) const STATIC_NULL_DEPTH: u32 = 2;

/// Static null move: the margin per ply of depth by which the static value
/// must beat beta (the shipped weights value an open three at a few
/// hundred, so a node cut at depth 2 is two open threes ahead of beta).
/// A margin of 250 measured −4.6 ± 27.1 Elo against 400 over 300 games
/// (SPRT elo0=0, elo1=30 accepted H0; `mnk brains`, 100 ms, seed 404,
/// load 5–6): it cut 3% more nodes at depth 8, for nothing the match saw.
pub(super) const STATIC_NULL_MARGIN: f64 = 400.0;

/// Threat extension: a node of at most this depth whose mover faces a
/// threat to win in two (an open four or a double four to come, so its
/// moves are exactly the defences, a few cells) is searched a ply deeper.
/// At the horizon such a node would value each defence by its leaf,
/// blind to the attacker's next threat; one ply more sees it, at the cost
/// of a few narrow subtrees.
///
/// Against the search without it, at 100 ms a move (`mnk brains` on the
/// shipped book, `--sprt elo0=0,elo1=30,model=logistic`): +21.7 ± 24.9
/// Elo over 400 games (seed 512, load 2–4) and +16.5 ± 16.2 over 800
/// (seed 513, load 1–3), both inconclusive at elo1=30; pooled, the 600
/// pairs read +18.3 ± 13.6 (pentanomial [52, 16, 434, 13, 85]), above
/// zero beyond the error. 0 proven claims withdrawn.
/// It adds half the nodes of `mnk bench`'s signature searches (1764 to
/// 2763) and a sixth of its depth-8 searches' (28,903 to 33,471).
///
/// Measured and left out: up to depth 2 (a node two plies above the
/// horizon facing such a threat searched a ply deeper too), −53.1 ± 32.9
/// over 244 games against depth 1 at 100 ms (pentanomial [27, 1, 84, 2,
/// 8]; `--sprt elo0=0,elo1=15,model=logistic` accepted H0; seed 602,
/// load 5, on top of [`ROOT_EXTRA`]): the deeper narrow subtrees cost
/// more depth than the threats they see were worth.
pub(super) const THREAT_EXTENSION_DEPTH: u32 = 1;

/// The threat extension applies only above this ply: a line of threats
/// met at every horizon could otherwise extend the search again and again.
pub(super) const THREAT_EXTENSION_PLIES: u32 = 40;

/// Root moves searched past the width: the next best cells by static
/// score after the root's `width` candidates and fours, where the mover
/// faces no threat to win in two (else every defence is a root move
/// already). The root is a tiny share of the nodes, and a move outside
/// the width is the one the search can never find below it. From
/// depth 3 on each is searched [`ROOT_EXTRA_REDUCTION`] ply shallower
/// first, and at full depth only when it beats the best so far.
///
/// Against the search without it (`mnk brains` on the shipped book,
/// `--concurrency 2`): at 100 ms a move, `--sprt
/// elo0=0,elo1=15,model=logistic` accepted H1 after 1,020 games,
/// +17.4 ± 13.8 Elo (pentanomial [40, 6, 391, 9, 64]; seed 601, load
/// 2–6, against `/work/bin/mnk-final`, the search of `e846757`). Before
/// that, against `96102f9`'s search with `--sprt elo0=0,elo1=30`: at
/// 100 ms +12.2 ± 26.8 over 400 games (seed 501, load 3–4); at 300 ms
/// +17.4 ± 27.6 and +10.4 ± 36.1 over 200 each (seeds 509 and 511, load
/// 3–5), all inconclusive. Its `likely win` claims were followed by a
/// loss in 1 of 148 games against 4 of 121 for the search without it
/// (seed 601). With a width of 7 at depth-1 nodes as well, −31.4 ± 38.6
/// over 100 at 100 ms (seed 507, H0; [`super::Search::child_score`]).
/// Twelve such moves instead of six: −2.3 ± 13.5 over 908 games at
/// 100 ms (pentanomial [41, 3, 369, 3, 38]; elo1=15 accepted H0; seed
/// 604, load 4–6).
/// It adds a sixth of the nodes of `mnk bench`'s signature searches
/// (2763 to 2928) and a fifth of its depth-8 searches' (33,471 to
/// 40,164).
pub(super) const ROOT_EXTRA: usize = 6;

/// Plies by which [`ROOT_EXTRA`]'s moves are searched shallower first.
///
/// Measured and left out: none (each searched at full depth at once),
/// −9.7 ± 17.5 Elo over 576 games at 100 ms against one (pentanomial
/// [31, 2, 230, 2, 23]; `--sprt elo0=0,elo1=15,model=logistic` accepted
/// H0; seed 605, load 4–6).
pub(super) const ROOT_EXTRA_REDUCTION: u32 = 1;
