//! The Play view's games: `mnk play` sessions ([`mnk::play::Session`])
//! kept by id, driven by requests instead of typed lines. `api.rs` holds
//! the JSON, `opponents.rs` vets an opponent's spec, `routes.rs` the
//! routes; this file is the store.
//!
//! Every move, undo, hint and resignation goes through the session exactly
//! as a typed line would, so the rules, the AI's move and saving to the
//! records file are `mnk play`'s. Only checked text reaches the session:
//! a cell is parsed here and handed on in its canonical form, so a request
//! can never issue `save FILE` or any other command.
//!
//! An AI move is chosen on a blocking thread with the game unlocked
//! ([`Session::take_ai_turn`], [`AiTurn::think`], [`Session::finish_ai_turn`]),
//! so a long think blocks neither the server nor a look at the game, and at
//! most [`Limits::thinkers`] moves and hints are computed at once.
//!
//! The search tables' memory is reserved before a game's players are
//! built (a `Reservation`), under one atomic count, and given back when
//! the game is dropped: however many clients start games at once, the
//! tables never hold more than [`Limits::table_memory`]. A game that does
//! not fit ends the oldest games to make room; while the memory is held by
//! games being started or thinking, it is refused with a 503.

mod api;
mod opponents;
mod routes;

pub use api::{result_name, AiSearch, GameId, GameState, MoveRequest, NewGame, Stone, Values};
pub use opponents::{vet, weights_path, Root, Vetted};
pub use routes::router;

use super::error::ApiError;
use mnk::game::{Color, Move, Rules};
use mnk::play::{
    winning_line, AiTurn, Command, Config, Out, SeatKind, Session, Style, Turn, ValueMap,
};
use mnk::players::describe_score;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Mutex, OwnedMutexGuard, OwnedSemaphorePermit, Semaphore};

/// How much the games of one server may hold and compute.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Games kept at once; starting one more ends (and saves) the oldest.
    pub games: usize,
    /// AI moves and hints computed at once.
    pub thinkers: usize,
    /// The largest search table an opponent may ask for (log2 entries).
    pub tt_bits: u32,
    /// The longest time a search opponent may ask for a move (`time=`).
    pub think: Duration,
    /// The most nodes a search opponent may search for a move: a spec
    /// that asks for more is refused, and one that names no limit gets
    /// this one (a depth-4 search needs thousands), so no request can
    /// hold a thinker for long. A node limit, unlike a time limit, leaves
    /// the search as it is (a timed search adds the VCT at the root).
    pub nodes: u64,
    /// The bytes the games' search tables may hold together (a search
    /// opponent has two: its own and its hint player's), reserved before
    /// they are allocated (see the module docs); a game that needs more on
    /// its own is refused.
    pub table_memory: u128,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            games: 64,
            thinkers: 2,
            tt_bits: 22,
            think: Duration::from_secs(10),
            nodes: 20_000_000,
            table_memory: 1 << 30,
        }
    }
}

/// How long a new game waits for the tables' memory held by games being
/// started or thinking before it is refused.
pub const RESERVE_WAIT: Duration = Duration::from_secs(2);

/// Bytes of search tables reserved, given back when dropped (with the game
/// whose last field it is, after its players).
#[derive(Debug)]
struct Reservation {
    held: Arc<AtomicU64>,
    bytes: u64,
}

impl Reservation {
    /// Reserves `bytes` if the total stays within `budget`.
    fn try_new(held: &Arc<AtomicU64>, bytes: u64, budget: u64) -> Option<Reservation> {
        held.fetch_update(Ordering::AcqRel, Ordering::Acquire, |h| {
            h.checked_add(bytes).filter(|&t| t <= budget)
        })
        .ok()?;
        Some(Reservation {
            held: Arc::clone(held),
            bytes,
        })
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.held.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

/// One game of the server.
struct WebGame {
    id: GameId,
    session: Session,
    you: Color,
    opponent: String,
    /// The opponent's checked spec (its weights give the value map).
    opponent_spec: Vetted,
    /// The tables' memory: declared last, so it is given back after the
    /// session (and its players' tables) is dropped.
    _tables: Reservation,
}

impl WebGame {
    fn state(&mut self) -> GameState {
        let board = self.session.board();
        let rules = *board.rules();
        let over = matches!(self.session.turn(), Turn::PlayAgain | Turn::Done);
        let turn = match self.session.turn() {
            Turn::Human(_) => "you",
            Turn::Ai(_) => "ai",
            Turn::PlayAgain | Turn::Done => "over",
        };
        let state = GameState {
            id: self.id.clone(),
            game: rules.to_string(),
            width: rules.width,
            height: rules.height,
            k: rules.k,
            rule: rules.rule.to_string(),
            you: self.you.to_string(),
            opponent: self.opponent.clone(),
            to_move: (!over).then(|| board.to_move().to_string()),
            turn: turn.to_string(),
            moves: Stone::all(board),
            last_move: board.last_move().map(|m| m.to_string()),
            winning_line: winning_line(board).iter().map(Move::to_string).collect(),
            result: self.session.outcome().map(result_name),
            hint: self.session.hint().map(|m| m.to_string()),
            ai: self.session.ai_search().map(|(m, info)| AiSearch {
                cell: m.to_string(),
                depth: info.depth,
                nodes: info.nodes,
                score: info.score,
                eval: describe_score(info.score),
                proof: info.proof.map(|p| p.to_string()),
                ms: info.elapsed.as_millis() as u64,
            }),
            messages: Vec::new(),
        };
        let messages = self
            .session
            .take_output()
            .into_iter()
            .filter_map(|o| match o {
                Out::Text(t) => Some(mnk::play::strip_ansi(&t)),
                Out::Screen(_) => None,
            })
            .collect();
        GameState { messages, ..state }
    }
}

/// A game kept by the server, oldest first.
#[derive(Debug)]
struct Kept {
    id: GameId,
    slot: Arc<Mutex<WebGameSlot>>,
    /// Its search tables' bytes.
    bytes: u64,
}

/// The games of one server (see the module docs).
#[derive(Debug)]
pub struct Games {
    kept: std::sync::Mutex<VecDeque<Kept>>,
    records: Option<PathBuf>,
    roots: Vec<Root>,
    limits: Limits,
    thinkers: Arc<Semaphore>,
    /// Bytes of search tables reserved by the games, kept, being started
    /// or not yet dropped.
    tables: Arc<AtomicU64>,
    /// Held while a session may write the records file, so that two games
    /// never append to it at once.
    saving: Arc<std::sync::Mutex<()>>,
}

/// A game, or nothing while a blocking thread holds it.
#[derive(Default)]
struct WebGameSlot {
    game: Option<WebGame>,
    /// The server ended the game while a thread held it: the thread ends
    /// it when it puts it back.
    ended: bool,
    /// Stops the think in progress (the AI's move or a hint).
    stop: Option<Arc<AtomicBool>>,
}

impl std::fmt::Debug for WebGameSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.game {
            Some(g) => write!(f, "game {}", g.id),
            None => f.write_str("busy"),
        }
    }
}

const BUSY: ApiError = ApiError::Conflict("the game is busy");

impl WebGameSlot {
    /// Why the game is not in its slot: a blocking step has it, or the
    /// server ended it (to make room for newer games, at once after it
    /// was made, in a flood of new games).
    fn missing(&self) -> ApiError {
        if self.ended {
            ApiError::Busy("the game was ended to make room for newer games".to_string())
        } else {
            BUSY
        }
    }

    /// The game, unless a blocking step has it out of the slot.
    fn game(&self) -> Result<&WebGame, ApiError> {
        self.game.as_ref().ok_or_else(|| self.missing())
    }

    /// The game, mutably (see [`WebGameSlot::game`]).
    fn game_mut(&mut self) -> Result<&mut WebGame, ApiError> {
        let missing = self.missing();
        self.game.as_mut().ok_or(missing)
    }

    /// Takes the game out for a blocking step (see [`WebGameSlot::game`]).
    fn take(&mut self) -> Result<WebGame, ApiError> {
        let missing = self.missing();
        self.game.take().ok_or(missing)
    }
}

/// Puts a game back in its slot after a blocking step; if the server ended
/// it meanwhile, ends it now instead (saving it if unfinished).
async fn put_back(
    slot: &Arc<Mutex<WebGameSlot>>,
    game: WebGame,
    saving: &Arc<std::sync::Mutex<()>>,
) -> Result<OwnedMutexGuard<WebGameSlot>, ApiError> {
    let mut guard = Arc::clone(slot).lock_owned().await;
    if guard.ended {
        end_game(game, Arc::clone(saving)).await;
        return Err(ApiError::Conflict("the game was ended"));
    }
    guard.game = Some(game);
    guard.stop = None;
    Ok(guard)
}

/// Ends a game as `mnk play` does at the end of input (one in progress is
/// saved as unfinished), and drops it, its tables with it.
async fn end_game(mut game: WebGame, saving: Arc<std::sync::Mutex<()>>) {
    let _ = blocking(move || {
        let _saving = saving.lock().unwrap_or_else(|e| e.into_inner());
        game.session.end_of_input();
        drop(game);
    })
    .await;
}

/// Sets its flag when dropped: a request future dropped because its client
/// went away stops the AI's think it was waiting for.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The AI's move in a game, if it is the AI's turn (see
/// [`Games::after_human`]): waits for a thinker, thinks on a blocking
/// thread with the game readable meanwhile, and plays the move.
async fn ai_step(
    slot: Arc<Mutex<WebGameSlot>>,
    thinkers: Arc<Semaphore>,
    saving: Arc<std::sync::Mutex<()>>,
    stop: Arc<AtomicBool>,
) -> Result<(), ApiError> {
    let ai_to_move = {
        let guard = slot.lock().await;
        matches!(guard.game()?.session.turn(), Turn::Ai(_))
    };
    if !ai_to_move {
        return Ok(());
    }
    // Waits for a free thinker before taking the turn, so that the game
    // stays readable meanwhile.
    let permit = thinkers
        .acquire_owned()
        .await
        .map_err(|e| ApiError::Worker(e.to_string()))?;
    let turn: Option<AiTurn> = {
        let mut guard = slot.lock().await;
        let turn = guard.game_mut()?.session.take_ai_turn();
        guard.stop = Some(Arc::clone(&stop));
        turn
    };
    let Some(mut turn) = turn else {
        return Ok(());
    };
    turn.stop_on(stop);
    let turn = blocking(move || {
        turn.think();
        drop(permit);
        turn
    })
    .await?;
    let game = slot.lock().await.take()?;
    let keep = Arc::clone(&saving);
    let (game, done) = blocking(move || {
        let mut game = game;
        let _saving = keep.lock().unwrap_or_else(|e| e.into_inner());
        let done = game.session.finish_ai_turn(turn);
        (game, done)
    })
    .await?;
    put_back(&slot, game, &saving).await?;
    done?;
    Ok(())
}

/// Runs `work` on a blocking thread, mapping a panic to an error.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::Worker(e.to_string()))
}

/// A new game's id: 128 bits of the system's randomness, in hex.
fn new_id() -> GameId {
    use rand::Rng as _;
    format!("{:032x}", rand::rngs::OsRng.gen::<u128>())
}

impl Games {
    /// The games of a server that saves them to `records` (none: not
    /// saved), with opponents' weights files allowed under `roots`.
    pub fn new(records: Option<PathBuf>, roots: Vec<Root>, limits: Limits) -> Games {
        Games {
            kept: std::sync::Mutex::new(VecDeque::new()),
            records,
            roots,
            limits,
            thinkers: Arc::new(Semaphore::new(limits.thinkers.max(1))),
            tables: Arc::new(AtomicU64::new(0)),
            saving: Arc::new(std::sync::Mutex::new(())),
        }
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, VecDeque<Kept>> {
        // Every change under the lock is a single call: a panic elsewhere
        // leaves the list whole.
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn slot(&self, id: &str) -> Result<Arc<Mutex<WebGameSlot>>, ApiError> {
        self.kept()
            .iter()
            .find(|k| k.id == id)
            .map(|k| Arc::clone(&k.slot))
            .ok_or_else(|| ApiError::UnknownGame(id.to_string()))
    }

    /// Reserves `bytes` of tables, ending the oldest games to make room.
    /// While the room is held by games being started or thinking, it waits
    /// for them a moment ([`RESERVE_WAIT`]), then refuses (503).
    async fn reserve(&self, bytes: u128) -> Result<Reservation, ApiError> {
        let budget = u64::try_from(self.limits.table_memory).unwrap_or(u64::MAX);
        let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
        let start = std::time::Instant::now();
        while start.elapsed() < RESERVE_WAIT {
            if let Some(r) = Reservation::try_new(&self.tables, bytes, budget) {
                return Ok(r);
            }
            // Ends the oldest games until the room they free would do. A
            // game thinking gives its room back when its think ends.
            let oldest: Vec<Kept> = {
                let mut kept = self.kept();
                let mut freed = 0u64;
                let mut out = Vec::new();
                let held = self.tables.load(Ordering::Acquire);
                while held.saturating_sub(freed).saturating_add(bytes) > budget {
                    let Some(k) = kept.pop_front() else { break };
                    freed = freed.saturating_add(k.bytes);
                    out.push(k);
                }
                out
            };
            if oldest.is_empty() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            for k in oldest {
                self.end_slot(k.slot).await;
            }
        }
        Err(ApiError::Busy(format!(
            "the games being started or thinking hold the search tables' memory ({} MiB); \
             try again in a moment",
            budget >> 20
        )))
    }

    /// Starts a game (and lets the AI open if it plays black).
    pub async fn create(&self, req: NewGame) -> Result<GameState, ApiError> {
        let rules: Rules = req.game.parse()?;
        let you: Color = match req.you.trim().to_ascii_lowercase().as_str() {
            "black" => Color::Black,
            "white" => Color::White,
            _ => return Err(ApiError::Colour(req.you)),
        };
        let vetted = vet(&req.opponent, &self.roots, &self.limits)?;
        // Its weights are read first, so that a file that does not parse
        // is told where, never what it holds.
        if vetted.spec.weights.is_some() {
            let spec = vetted.spec.clone();
            let roots = self.roots.clone();
            blocking(move || spec.load_weights(rules).map(drop))
                .await?
                .map_err(|e| ApiError::SpecRefused {
                    spec: req.opponent.clone(),
                    why: opponents::quiet_weights_error(&e, &roots),
                })?;
        }
        let tables = self.reserve(vetted.table_bytes).await?;
        let bytes = tables.bytes;
        let human = SeatKind::Human("human".to_string());
        let ai = SeatKind::Ai(vetted.spec.clone());
        let (black, white) = match you {
            Color::Black => (human, ai),
            Color::White => (ai, human),
        };
        let config = Config {
            rules,
            black,
            white,
            hint: vetted.spec.clone(),
            records: self.records.clone(),
            sgf: None,
            seed: req.seed.unwrap_or(1),
            style: Style::PLAIN,
        };
        let id = new_id();
        let saving = Arc::clone(&self.saving);
        let opponent = req.opponent.trim().to_string();
        let game_id = id.clone();
        let game = blocking(move || {
            let _saving = saving.lock().unwrap_or_else(|e| e.into_inner());
            let mut session = Session::new(config)?;
            // The terminal's welcome screen and prompt are not for the page.
            session.take_output();
            Ok::<_, ApiError>(WebGame {
                id: game_id,
                session,
                you,
                opponent,
                opponent_spec: vetted,
                _tables: tables,
            })
        })
        .await??;
        let slot = Arc::new(Mutex::new(WebGameSlot {
            game: Some(game),
            ..WebGameSlot::default()
        }));
        let evicted: Vec<Kept> = {
            let mut kept = self.kept();
            kept.push_back(Kept {
                id,
                slot: Arc::clone(&slot),
                bytes,
            });
            let over = kept.len().saturating_sub(self.limits.games.max(1));
            kept.drain(..over).collect()
        };
        for old in evicted {
            self.end_slot(old.slot).await;
        }
        self.after_human(slot).await
    }

    /// The game's state.
    pub async fn get(&self, id: &str) -> Result<GameState, ApiError> {
        let slot = self.slot(id)?;
        let mut guard = slot.lock().await;
        Ok(guard.game_mut()?.state())
    }

    /// Locks the game for a request of the person: an AI thinking is a
    /// conflict.
    async fn lock(&self, id: &str) -> Result<OwnedMutexGuard<WebGameSlot>, ApiError> {
        let guard = self.slot(id)?.lock_owned().await;
        guard.game()?;
        Ok(guard)
    }

    /// Runs a checked line through the session on a blocking thread, with
    /// the records file locked (the line may end and save the game).
    async fn input(
        &self,
        guard: OwnedMutexGuard<WebGameSlot>,
        line: String,
    ) -> Result<OwnedMutexGuard<WebGameSlot>, ApiError> {
        self.input_with(guard, line, None).await
    }

    /// [`Games::input`] for a line that may think (a hint): `think` holds
    /// the thinker's permit and the flag that stops the hint's search.
    ///
    /// The work is a task of its own that puts the game back in its slot,
    /// so a client going away (which drops this future) cannot lose the
    /// game; it sets the flag, so the hint's search stops at once.
    async fn input_with(
        &self,
        guard: OwnedMutexGuard<WebGameSlot>,
        line: String,
        think: Option<(OwnedSemaphorePermit, Arc<AtomicBool>)>,
    ) -> Result<OwnedMutexGuard<WebGameSlot>, ApiError> {
        let saving = Arc::clone(&self.saving);
        let _stop = think.as_ref().map(|(_, stop)| StopOnDrop(Arc::clone(stop)));
        let task = tokio::spawn(async move {
            // Out of its slot and unlocked while it runs: a look at the
            // game meanwhile is told it is busy instead of waiting.
            let mut guard = guard;
            let mut game = guard.take()?;
            guard.stop = think.as_ref().map(|(_, stop)| Arc::clone(stop));
            let slot = Arc::clone(OwnedMutexGuard::mutex(&guard));
            drop(guard);
            let keep = Arc::clone(&saving);
            let game = blocking(move || {
                let _saving = keep.lock().unwrap_or_else(|e| e.into_inner());
                let (permit, stop) = think.unzip();
                game.session.stop_hints_on(stop);
                game.session.input(&line);
                game.session.stop_hints_on(None);
                drop(permit);
                game
            })
            .await?;
            put_back(&slot, game, &saving).await
        });
        task.await.map_err(|e| ApiError::Worker(e.to_string()))?
    }

    /// Plays the person's move, then the AI's answer.
    pub async fn play(&self, id: &str, cell: &str) -> Result<GameState, ApiError> {
        let guard = self.lock(id).await?;
        let game = guard.game()?;
        let rules = *game.session.board().rules();
        let m = match Command::parse(cell, rules) {
            Ok(Command::Play(m)) => m,
            Ok(_) => return Err(ApiError::Cell(format!("{cell:?} is not a cell"))),
            Err(e) => return Err(ApiError::Cell(e.message(rules))),
        };
        expect_your_turn(&guard)?;
        game.session.board().check(m)?;
        let guard = self.input(guard, m.to_string()).await?;
        let slot = Arc::clone(OwnedMutexGuard::mutex(&guard));
        drop(guard);
        self.after_human(slot).await
    }

    /// Lets the AI move if it is its turn, then answers the state.
    ///
    /// The AI's move is a task of its own, so that it ends (and the game
    /// stays whole) even when the client goes away mid-think; going away
    /// drops this future, whose [`StopOnDrop`] cuts the search short, so
    /// the thinker is freed at once and the best move found so far is
    /// played.
    async fn after_human(&self, slot: Arc<Mutex<WebGameSlot>>) -> Result<GameState, ApiError> {
        let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
        let step = tokio::spawn(ai_step(
            Arc::clone(&slot),
            Arc::clone(&self.thinkers),
            Arc::clone(&self.saving),
            Arc::clone(&stop.0),
        ));
        step.await.map_err(|e| ApiError::Worker(e.to_string()))??;
        drop(stop);
        let mut guard = slot.lock().await;
        Ok(guard.game_mut()?.state())
    }

    /// Stops the think in progress (the AI plays the best move found so
    /// far); whether one was (a request that came before its move, on a
    /// slow link, finds none: the page asks again).
    pub async fn stop(&self, id: &str) -> Result<bool, ApiError> {
        let slot = self.slot(id)?;
        let guard = slot.lock().await;
        if let Some(stop) = &guard.stop {
            stop.store(true, Ordering::Relaxed);
        }
        Ok(guard.stop.is_some())
    }

    /// The value map of the game's position under the AI's weights.
    pub async fn values(&self, id: &str) -> Result<Values, ApiError> {
        let (board, vetted) = {
            let slot = self.slot(id)?;
            let guard = slot.lock().await;
            let game = guard.game()?;
            (game.session.board().clone(), game.opponent_spec.clone())
        };
        // The VCFs may search a million nodes each: a thinker's work.
        let _permit = Arc::clone(&self.thinkers)
            .acquire_owned()
            .await
            .map_err(|e| ApiError::Worker(e.to_string()))?;
        blocking(move || {
            let rules = *board.rules();
            let weights = vetted.spec.load_weights(rules)?;
            let map = ValueMap::new(&board, weights);
            Ok(Values {
                mover: map.mover.to_string(),
                weights: vetted
                    .weights_shown
                    .unwrap_or_else(|| "shipped".to_string()),
                scores: map.rows(&board),
                best: map.best.iter().map(Move::to_string).collect(),
                board_value: map.board_value,
                vcf: map.vcf.iter().map(|&v| v.into()).collect(),
            })
        })
        .await?
    }

    /// Takes back the person's last move (and the AI's answer to it).
    pub async fn undo(&self, id: &str) -> Result<GameState, ApiError> {
        let guard = self.lock(id).await?;
        let game = guard.game()?;
        if !game.session.human_has_moved() {
            return Err(ApiError::Conflict("there is no move of yours to take back"));
        }
        if matches!(game.session.turn(), Turn::Ai(_) | Turn::Done) {
            return Err(ApiError::Conflict("the AI is to move"));
        }
        let mut guard = self.input(guard, "undo".to_string()).await?;
        Ok(guard.game_mut()?.state())
    }

    /// Asks the opponent's player where it would play for the person.
    pub async fn hint(&self, id: &str) -> Result<GameState, ApiError> {
        let permit = Arc::clone(&self.thinkers)
            .acquire_owned()
            .await
            .map_err(|e| ApiError::Worker(e.to_string()))?;
        let guard = self.lock(id).await?;
        expect_your_turn(&guard)?;
        let stop = Arc::new(AtomicBool::new(false));
        let mut guard = self
            .input_with(guard, "hint".to_string(), Some((permit, stop)))
            .await?;
        Ok(guard.game_mut()?.state())
    }

    /// Resigns the game for the person (it is saved as a loss).
    pub async fn resign(&self, id: &str) -> Result<GameState, ApiError> {
        let guard = self.lock(id).await?;
        expect_your_turn(&guard)?;
        let mut guard = self.input(guard, "resign".to_string()).await?;
        Ok(guard.game_mut()?.state())
    }

    /// Ends a game: one in progress is saved as unfinished, as `mnk play`
    /// saves it at the end of input.
    pub async fn end(&self, id: &str) -> Result<(), ApiError> {
        let kept = {
            let mut kept = self.kept();
            let i = kept
                .iter()
                .position(|k| k.id == id)
                .ok_or_else(|| ApiError::UnknownGame(id.to_string()))?;
            kept.remove(i)
        };
        if let Some(k) = kept {
            self.end_slot(k.slot).await;
        }
        Ok(())
    }

    /// Ends the game in `slot`, now, or when the step that has it out of
    /// its slot puts it back ([`put_back`]).
    async fn end_slot(&self, slot: Arc<Mutex<WebGameSlot>>) {
        let mut guard = slot.lock_owned().await;
        guard.ended = true;
        if let Some(game) = guard.game.take() {
            drop(guard);
            end_game(game, Arc::clone(&self.saving)).await;
        }
    }

    /// Ends every game (at shutdown).
    pub async fn end_all(&self) {
        let all: Vec<Kept> = self.kept().drain(..).collect();
        for k in all {
            self.end_slot(k.slot).await;
        }
    }
}

/// Refuses a request of the person when it is not their turn.
fn expect_your_turn(guard: &OwnedMutexGuard<WebGameSlot>) -> Result<(), ApiError> {
    match guard.game()?.session.turn() {
        Turn::Human(_) => Ok(()),
        Turn::Ai(_) => Err(ApiError::Conflict("the AI is to move")),
        Turn::PlayAgain | Turn::Done => Err(ApiError::Conflict("the game is over")),
    }
}
