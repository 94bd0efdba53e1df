//! The Play view's games: `mnk play` sessions ([`crate::play::Session`])
//! kept by id, driven by requests instead of typed lines.
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

use super::error::ApiError;
use super::safe_path::{clean_relative, safe_join};
use crate::game::{Board, Color, Move, Outcome, Rules};
use crate::play::{
    winning_line, AiTurn, Command, Config, Out, SeatKind, Session, Style, Turn, ValueMap, VcfReport,
};
use crate::players::{
    describe_score, table_bytes, PlayerKind, PlayerSpec, SearchLimits, EXACT_LIMIT,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
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
    /// opponent has two: its own and its hint player's). Starting a game
    /// beyond it ends (and saves) the oldest games, as [`Limits::games`]
    /// does; a game that needs more on its own is refused.
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

/// The body of `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The game: `tictactoe`, `gomoku`, `WxHxK`, with `-exact` for the
    /// exact rule.
    pub game: String,
    /// The person's colour: `black` (moves first) or `white`.
    pub you: String,
    /// The AI's player spec (`easy`, `hard`, `perfect`, `search:depth=4`…);
    /// a weights file must lie under the weights or runs folder.
    pub opponent: String,
    /// The seed of the AI's tie-breaks (default 1).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// The body of `POST /api/games/{id}/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The cell: `b2` (column letter, row from 1) or `1,1` (0-based x,y).
    pub cell: String,
}

/// One stone in a game's move list.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Stone {
    /// The cell's name (`b2`).
    pub cell: String,
    /// Column, 0-based from the left.
    pub x: u8,
    /// Row, 0-based from the top.
    pub y: u8,
    /// `black` or `white`.
    pub color: String,
}

impl Stone {
    /// The stones of `board`, in the order they were played.
    pub fn all(board: &Board) -> Vec<Stone> {
        (0..board.ply())
            .map(|i| {
                let (m, c) = board.move_at(i);
                Stone {
                    cell: m.to_string(),
                    x: m.x,
                    y: m.y,
                    color: c.to_string(),
                }
            })
            .collect()
    }
}

/// A result as the API writes it: `black`, `white` or `draw`.
pub fn result_name(o: Outcome) -> String {
    match o {
        Outcome::Win(c) => c.to_string(),
        Outcome::Draw => "draw".to_string(),
    }
}

/// A game as the page sees it: the answer of every game route.
#[derive(Debug, Serialize)]
pub struct GameState {
    /// The game's id in this server.
    pub id: u64,
    /// The game's name (`tictactoe`, `15x15x5`…).
    pub game: String,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// Stones in a row that win.
    pub k: u8,
    /// `freestyle` or `exact`.
    pub rule: String,
    /// The person's colour.
    pub you: String,
    /// The AI's spec.
    pub opponent: String,
    /// The colour to move, while the game goes on.
    pub to_move: Option<String>,
    /// `you`, `ai` (thinking), or `over`.
    pub turn: String,
    /// The moves so far, in order.
    pub moves: Vec<Stone>,
    /// The last move's cell.
    pub last_move: Option<String>,
    /// The winning stones' cells, when a line won.
    pub winning_line: Vec<String>,
    /// `black`, `white` or `draw` once the game is over.
    pub result: Option<String>,
    /// The cell the last hint suggested, until the next move.
    pub hint: Option<String>,
    /// What the AI's search found for its last move, until it is taken
    /// back (players that search only).
    pub ai: Option<AiSearch>,
    /// What `mnk play` would have printed for this request (saves, hints,
    /// refusals), one message a line.
    pub messages: Vec<String>,
}

/// What the AI's search found for a move.
#[derive(Debug, Serialize)]
pub struct AiSearch {
    /// The move's cell.
    pub cell: String,
    /// The deepest completed iteration (0: proven by a threat search).
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// The score from the AI's view.
    pub score: f64,
    /// The score in words (`+1.2k`, `win in 5`).
    pub eval: String,
    /// What proved a win or loss (`search`, `vcf`, `vct`).
    pub proof: Option<String>,
    /// Milliseconds the search took.
    pub ms: u64,
}

/// The value map of a game's position for the side to move
/// (`GET /api/games/{id}/values`), under the AI's weights.
#[derive(Debug, Serialize)]
pub struct Values {
    /// The side the scores are for.
    pub mover: String,
    /// The weights: a file, or `shipped` for the game's built-in ones.
    pub weights: String,
    /// One row per board row; `null` for a stone.
    pub scores: Vec<Vec<Option<f64>>>,
    /// The empty cells with the highest score.
    pub best: Vec<String>,
    /// The board value for the mover.
    pub board_value: f64,
    /// Each side's VCF (the mover's first); empty when the game is over.
    pub vcf: Vec<VcfReport>,
}

/// One game of the server.
struct WebGame {
    id: u64,
    session: Session,
    you: Color,
    opponent: String,
    /// The opponent's checked spec (its weights give the value map).
    spec: PlayerSpec,
}

impl WebGame {
    fn state(&mut self) -> GameState {
        let board = self.session.board();
        let rules = *board.rules();
        let moves = Stone::all(board);
        let over = matches!(self.session.turn(), Turn::PlayAgain | Turn::Done);
        let turn = match self.session.turn() {
            Turn::Human(_) => "you",
            Turn::Ai(_) => "ai",
            Turn::PlayAgain | Turn::Done => "over",
        };
        let result = self.session.outcome().map(result_name);
        let state = GameState {
            id: self.id,
            game: rules.to_string(),
            width: rules.width,
            height: rules.height,
            k: rules.k,
            rule: rules.rule.to_string(),
            you: self.you.to_string(),
            opponent: self.opponent.clone(),
            to_move: (!over).then(|| board.to_move().to_string()),
            turn: turn.to_string(),
            moves,
            last_move: board.last_move().map(|m| m.to_string()),
            winning_line: winning_line(board).iter().map(Move::to_string).collect(),
            result,
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
                Out::Text(t) => Some(crate::play::strip_ansi(&t)),
                Out::Screen(_) => None,
            })
            .collect();
        GameState { messages, ..state }
    }
}

/// The games of one server (see the module docs).
#[derive(Debug)]
pub struct Games {
    games: std::sync::Mutex<BTreeMap<u64, Kept>>,
    next_id: AtomicU64,
    records: Option<PathBuf>,
    spec_roots: Vec<PathBuf>,
    limits: Limits,
    thinkers: Arc<Semaphore>,
    /// Held while a session may write the records file, so that two games
    /// never append to it at once.
    saving: Arc<std::sync::Mutex<()>>,
}

/// A game of the server with the bytes of its players' search tables.
type Kept = (Arc<Mutex<WebGameSlot>>, u128);

/// A game, or nothing while a blocking thread holds it.
struct WebGameSlot(Option<WebGame>);

impl std::fmt::Debug for WebGameSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(g) => write!(f, "game {}", g.id),
            None => f.write_str("busy"),
        }
    }
}

impl WebGameSlot {
    /// The game, unless a blocking step has it out of the slot.
    fn game(&self) -> Result<&WebGame, ApiError> {
        self.0
            .as_ref()
            .ok_or(ApiError::Conflict("the game is busy"))
    }

    /// The game, mutably (see [`WebGameSlot::game`]).
    fn game_mut(&mut self) -> Result<&mut WebGame, ApiError> {
        self.0
            .as_mut()
            .ok_or(ApiError::Conflict("the game is busy"))
    }

    /// Takes the game out for a blocking step (see [`WebGameSlot::game`]).
    fn take(&mut self) -> Result<WebGame, ApiError> {
        self.0.take().ok_or(ApiError::Conflict("the game is busy"))
    }
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
        let game = guard.game()?;
        matches!(game.session.turn(), Turn::Ai(_))
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
        let game = guard.game_mut()?;
        game.session.take_ai_turn()
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
    let mut guard = slot.lock_owned().await;
    let mut game = guard.take()?;
    let (game, done) = blocking(move || {
        let _saving = saving.lock().unwrap_or_else(|e| e.into_inner());
        let done = game.session.finish_ai_turn(turn);
        (game, done)
    })
    .await?;
    guard.0 = Some(game);
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

impl Games {
    /// The games of a server that saves them to `records` (none: not
    /// saved), with opponents' weights files allowed under `spec_roots`.
    pub fn new(records: Option<PathBuf>, spec_roots: Vec<PathBuf>, limits: Limits) -> Games {
        Games {
            games: std::sync::Mutex::new(BTreeMap::new()),
            next_id: AtomicU64::new(1),
            records,
            spec_roots,
            limits,
            thinkers: Arc::new(Semaphore::new(limits.thinkers.max(1))),
            saving: Arc::new(std::sync::Mutex::new(())),
        }
    }

    fn slot(&self, id: u64) -> Result<Arc<Mutex<WebGameSlot>>, ApiError> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games
            .get(&id)
            .map(|(slot, _)| Arc::clone(slot))
            .ok_or(ApiError::UnknownGame(id))
    }

    /// Checks an opponent spec: it parses, its weights file lies under one
    /// of the allowed folders, and it asks for no more table or solving
    /// than the limits give.
    fn opponent(&self, text: &str) -> Result<PlayerSpec, ApiError> {
        let mut spec: PlayerSpec = text.parse()?;
        let refuse = |why: String| ApiError::SpecRefused {
            spec: text.to_string(),
            why,
        };
        if let Some(w) = &spec.weights {
            spec.weights = Some(self.weights_path(w).map_err(refuse)?);
        }
        let think = self.limits.think;
        match &mut spec.kind {
            PlayerKind::Search(SearchLimits { tt_bits, .. }) if *tt_bits > self.limits.tt_bits => {
                return Err(refuse(format!(
                    "tt={tt_bits}: the largest table here is tt={}",
                    self.limits.tt_bits
                )))
            }
            PlayerKind::Search(SearchLimits { time: Some(t), .. }) if *t > think => {
                return Err(refuse(format!(
                    "time={}: a move may take at most {} ms here",
                    t.as_millis(),
                    think.as_millis()
                )))
            }
            PlayerKind::Search(SearchLimits { nodes: Some(n), .. }) if *n > self.limits.nodes => {
                return Err(refuse(format!(
                    "nodes={n}: a move may search at most {} nodes here",
                    self.limits.nodes
                )))
            }
            PlayerKind::Search(limits) => {
                limits.nodes.get_or_insert(self.limits.nodes);
            }
            PlayerKind::Exact { limit } if *limit > EXACT_LIMIT => {
                return Err(refuse(format!(
                    "limit={limit}: the exact player solves at most {EXACT_LIMIT} empty cells here"
                )))
            }
            _ => {}
        }
        Ok(spec)
    }

    /// A weights path of a spec, resolved under an allowed folder: a path
    /// relative to the folder (`gomoku.toml`), or one that starts with the
    /// folder as configured (`weights/gomoku.toml`).
    fn weights_path(&self, w: &Path) -> Result<PathBuf, String> {
        let text = w.to_str().ok_or("the weights path is not UTF-8")?;
        let mut why = String::from("no weights folder is served");
        for root in &self.spec_roots {
            let inside = root
                .to_str()
                .and_then(|r| text.strip_prefix(r.trim_end_matches('/')))
                .and_then(|rest| rest.strip_prefix('/'))
                .unwrap_or(text);
            // A refused shape (`..`, an absolute path not under this
            // folder) is tried against the next folder, and refused by all.
            if let Err(e) = clean_relative(inside) {
                why = e.to_string();
                continue;
            }
            match safe_join(root, inside) {
                Ok(p) => return Ok(p),
                Err(e) => why = e.to_string(),
            }
        }
        Err(why)
    }

    /// Starts a game (and lets the AI open if it plays black).
    pub async fn create(&self, req: NewGame) -> Result<GameState, ApiError> {
        let rules: Rules = req.game.parse()?;
        let you: Color = match req.you.trim().to_ascii_lowercase().as_str() {
            "black" => Color::Black,
            "white" => Color::White,
            _ => return Err(ApiError::Colour(req.you)),
        };
        let spec = self.opponent(&req.opponent)?;
        // The AI's player and the hint player each hold a table.
        let tables = spec.table_bits().map_or(0, |b| 2 * table_bytes(b));
        if tables > self.limits.table_memory {
            return Err(ApiError::SpecRefused {
                spec: req.opponent.clone(),
                why: format!(
                    "its search tables need {} MiB, and the games here may hold {} MiB",
                    tables >> 20,
                    self.limits.table_memory >> 20
                ),
            });
        }
        let human = SeatKind::Human("human".to_string());
        let ai = SeatKind::Ai(spec.clone());
        let (black, white) = match you {
            Color::Black => (human, ai),
            Color::White => (ai, human),
        };
        let config = Config {
            rules,
            black,
            white,
            hint: spec.clone(),
            records: self.records.clone(),
            sgf: None,
            seed: req.seed.unwrap_or(1),
            style: Style::PLAIN,
        };
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let saving = Arc::clone(&self.saving);
        let opponent = req.opponent.trim().to_string();
        let checked = spec;
        let game = blocking(move || {
            let _saving = saving.lock().unwrap_or_else(|e| e.into_inner());
            let mut session = Session::new(config)?;
            // The terminal's welcome screen and prompt are not for the page.
            session.take_output();
            Ok::<_, ApiError>(WebGame {
                id,
                session,
                you,
                opponent,
                spec: checked,
            })
        })
        .await??;
        let slot = Arc::new(Mutex::new(WebGameSlot(Some(game))));
        let evicted = {
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            games.insert(id, (Arc::clone(&slot), tables));
            let mut evicted = Vec::new();
            let held = |g: &BTreeMap<u64, Kept>| g.values().map(|(_, b)| b).sum::<u128>();
            while games.len() > self.limits.games.max(1)
                || (games.len() > 1 && held(&games) > self.limits.table_memory)
            {
                if let Some((_, (old, _))) = games.pop_first() {
                    evicted.push(old);
                }
            }
            evicted
        };
        for old in evicted {
            self.end_slot(old).await;
        }
        self.after_human(slot).await
    }

    /// The game's state.
    pub async fn get(&self, id: u64) -> Result<GameState, ApiError> {
        let slot = self.slot(id)?;
        let mut guard = slot.lock().await;
        match guard.0.as_mut() {
            Some(g) => Ok(g.state()),
            None => Err(ApiError::Conflict("the game is busy")),
        }
    }

    /// Locks the game for a request of the person: an AI thinking is a
    /// conflict.
    async fn lock(&self, id: u64) -> Result<OwnedMutexGuard<WebGameSlot>, ApiError> {
        let slot = self.slot(id)?;
        let guard = slot.lock_owned().await;
        if guard.0.is_none() {
            return Err(ApiError::Conflict("the game is busy"));
        }
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
            let slot = Arc::clone(OwnedMutexGuard::mutex(&guard));
            drop(guard);
            let game = blocking(move || {
                let _saving = saving.lock().unwrap_or_else(|e| e.into_inner());
                let (permit, stop) = think.unzip();
                game.session.stop_hints_on(stop);
                game.session.input(&line);
                game.session.stop_hints_on(None);
                drop(permit);
                game
            })
            .await?;
            let mut guard = slot.lock_owned().await;
            guard.0 = Some(game);
            Ok::<_, ApiError>(guard)
        });
        task.await.map_err(|e| ApiError::Worker(e.to_string()))?
    }

    /// Plays the person's move, then the AI's answer.
    pub async fn play(&self, id: u64, cell: &str) -> Result<GameState, ApiError> {
        let guard = self.lock(id).await?;
        let game = guard.game()?;
        let rules = *game.session.board().rules();
        let m = match Command::parse(cell, rules) {
            Ok(Command::Play(m)) => m,
            Ok(_) => return Err(ApiError::Cell(format!("{cell:?} is not a cell"))),
            Err(e) => return Err(ApiError::Cell(e.message(rules))),
        };
        self.expect_your_turn(&guard)?;
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
        let game = guard.game_mut()?;
        Ok(game.state())
    }

    /// The value map of the game's position under the AI's weights.
    pub async fn values(&self, id: u64) -> Result<Values, ApiError> {
        let (board, spec) = {
            let slot = self.slot(id)?;
            let guard = slot.lock().await;
            let game = guard.game()?;
            (game.session.board().clone(), game.spec.clone())
        };
        // The VCFs may search a million nodes each: a thinker's work.
        let _permit = Arc::clone(&self.thinkers)
            .acquire_owned()
            .await
            .map_err(|e| ApiError::Worker(e.to_string()))?;
        blocking(move || {
            let rules = *board.rules();
            let weights = spec.load_weights(rules)?;
            let map = ValueMap::new(&board, weights);
            Ok(Values {
                mover: map.mover.to_string(),
                // The resolved path is absolute: shown from the working
                // folder, as it was most likely given.
                weights: match &spec.weights {
                    Some(p) => std::env::current_dir()
                        .ok()
                        .and_then(|cwd| p.strip_prefix(cwd).ok())
                        .unwrap_or(p)
                        .display()
                        .to_string(),
                    None => "shipped".to_string(),
                },
                scores: map.rows(&board),
                best: map.best.iter().map(Move::to_string).collect(),
                board_value: map.board_value,
                vcf: map.vcf.iter().map(|&v| v.into()).collect(),
            })
        })
        .await?
    }

    /// Takes back the person's last move (and the AI's answer to it).
    pub async fn undo(&self, id: u64) -> Result<GameState, ApiError> {
        let guard = self.lock(id).await?;
        let game = guard.game()?;
        if !game.session.human_has_moved() {
            return Err(ApiError::Conflict("there is no move of yours to take back"));
        }
        if matches!(game.session.turn(), Turn::Ai(_) | Turn::Done) {
            return Err(ApiError::Conflict("the AI is to move"));
        }
        let mut guard = self.input(guard, "undo".to_string()).await?;
        let game = guard.game_mut()?;
        Ok(game.state())
    }

    /// Asks the opponent's player where it would play for the person.
    pub async fn hint(&self, id: u64) -> Result<GameState, ApiError> {
        let permit = Arc::clone(&self.thinkers)
            .acquire_owned()
            .await
            .map_err(|e| ApiError::Worker(e.to_string()))?;
        let guard = self.lock(id).await?;
        self.expect_your_turn(&guard)?;
        let stop = Arc::new(AtomicBool::new(false));
        let mut guard = self
            .input_with(guard, "hint".to_string(), Some((permit, stop)))
            .await?;
        let game = guard.game_mut()?;
        Ok(game.state())
    }

    /// Resigns the game for the person (it is saved as a loss).
    pub async fn resign(&self, id: u64) -> Result<GameState, ApiError> {
        let guard = self.lock(id).await?;
        self.expect_your_turn(&guard)?;
        let mut guard = self.input(guard, "resign".to_string()).await?;
        let game = guard.game_mut()?;
        Ok(game.state())
    }

    fn expect_your_turn(&self, guard: &OwnedMutexGuard<WebGameSlot>) -> Result<(), ApiError> {
        let game = guard.game()?;
        match game.session.turn() {
            Turn::Human(_) => Ok(()),
            Turn::Ai(_) => Err(ApiError::Conflict("the AI is to move")),
            Turn::PlayAgain | Turn::Done => Err(ApiError::Conflict("the game is over")),
        }
    }

    /// Ends a game: one in progress is saved as unfinished, as `mnk play`
    /// saves it at the end of input.
    pub async fn end(&self, id: u64) -> Result<(), ApiError> {
        let slot = {
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            games.remove(&id).ok_or(ApiError::UnknownGame(id))?.0
        };
        self.end_slot(slot).await;
        Ok(())
    }

    async fn end_slot(&self, slot: Arc<Mutex<WebGameSlot>>) {
        // Waits for a think in progress to be played first.
        let mut guard = slot.lock_owned().await;
        if let Some(mut game) = guard.0.take() {
            let saving = Arc::clone(&self.saving);
            let _ = blocking(move || {
                let _saving = saving.lock().unwrap_or_else(|e| e.into_inner());
                game.session.end_of_input();
            })
            .await;
        }
    }

    /// Ends every game (at shutdown).
    pub async fn end_all(&self) {
        let slots: Vec<_> = {
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            std::mem::take(&mut *games)
                .into_values()
                .map(|(slot, _)| slot)
                .collect()
        };
        for slot in slots {
            self.end_slot(slot).await;
        }
    }
}
