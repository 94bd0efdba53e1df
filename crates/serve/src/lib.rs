//! `mnk serve`: a local web server, another front end over the same
//! library as `mnk play`, `replay` and `plot` (cargo feature `serve`, on by
//! default).
//!
//! It serves the page (`assets/web/`, embedded by [`assets`]) with three
//! views, each over a JSON API:
//!
//! ```text
//! Play (games, weights): mnk play's sessions
//! POST   /api/games               {game, you, opponent[, seed]} → 201 + state
//! GET    /api/games/{id}          → state (ids: 32 hex digits, random) (with the AI's last search: depth, nodes, eval)
//! POST   /api/games/{id}/move     {cell}  → state after your move and the AI's
//! POST   /api/games/{id}/undo     → state
//! POST   /api/games/{id}/hint     → state with `hint`
//! POST   /api/games/{id}/stop     → {stopped}: the think in progress plays its best move so far
//! POST   /api/games/{id}/resign   → state
//! GET    /api/games/{id}/values   → the value map for the side to move
//! DELETE /api/games/{id}          → 204 (a game in progress is saved unfinished)
//! GET    /api/weights[?game=G]    → the weights files opponents may use
//!
//! Training (runs): the run folders under --runs-dir
//! GET    /api/runs                → every run's summary and state
//! GET    /api/runs/{name}         → summary + columnar chart data
//! GET    /api/runs/{name}/events  → server-sent events as rounds land
//!
//! Replay (replay): records files under the allowed folders
//! GET    /api/records             → the CSV and SGF files of each folder
//! GET    /api/records/{folder}/{*path}[?game=N] → its games, or game N's moves
//! ```
//!
//! Every error is `{"error": "…"}` with a 4xx status for bad input
//! ([`ApiError`], and the views' own error types). Files are served only
//! through [`safe_join`], which refuses paths out of the configured
//! folders, and read only when they are regular files inside them
//! ([`files`]), within [`Bounds::fs_timeout`]; an error about a file that
//! does not parse names it relative to its folder and never quotes it.
//!
//! Every request passes [`guard`] first: its `Host` must name this server
//! (against DNS rebinding), a change from another site's page (its
//! `Origin`) is refused, a POST must be JSON or carry `X-Requested-With`,
//! and a body declared over [`BODY_LIMIT`] is a 413 before it is read.
//! Connections are bounded in number and in the time a request may take
//! to arrive ([`Bounds`], [`conn`]); the games' search tables in memory
//! ([`Limits::table_memory`], reserved before they are allocated).
//!
//! An AI move, hint or value map runs on a blocking thread, at most
//! [`Limits::thinkers`] at once. Each runs as a task of its own that puts
//! its game back, so a client that goes away cannot lose the game, and its
//! going away stops the search ([`mnk::players::Player::set_stop`]).
//!
//! [`start`] binds and returns the bound address with a handle that stops
//! the server, so tests run it in-process on port 0. The server binds to
//! 127.0.0.1 unless told otherwise; it has no accounts.

// Every public item says what it is, and every public type can be printed
// with {:?}, as in the mnk library.
#![warn(missing_docs, missing_debug_implementations)]

pub mod assets;
pub mod conn;
pub mod error;
pub mod files;
pub mod games;
pub mod guard;
pub mod replay;
mod routes;
pub mod runs;
pub mod safe_path;
pub mod weights;

pub use conn::Bounds;
pub use error::ApiError;
pub use games::{GameState, Games, Limits};
pub use routes::BODY_LIMIT;
pub use safe_path::{safe_join, PathError};

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Where the server listens and which folders it serves.
#[derive(Clone, Debug)]
pub struct Options {
    /// The address to bind (port 0: any free port).
    pub addr: SocketAddr,
    /// Host names the server answers to besides `localhost` and its
    /// addresses (see [`guard`]).
    pub allowed_hosts: Vec<String>,
    /// Training runs (for the Training view, and opponents' weights).
    pub runs_dir: PathBuf,
    /// The records file games are appended to; `None`: not saved.
    pub records: Option<PathBuf>,
    /// Weights files opponents may use.
    pub weights_dir: PathBuf,
    /// The folders whose records files (CSV or SGF) the Replay view may open.
    pub replay_dirs: Vec<PathBuf>,
    /// What the games may hold and compute.
    pub limits: Limits,
    /// The connections' bounds.
    pub bounds: Bounds,
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address cannot be bound (in use, or not this machine's).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Accepting connections failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
    /// The server task died.
    #[error("server task: {0}")]
    Task(String),
}

/// A server started by [`start`].
#[derive(Debug)]
pub struct Running {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), ServeError>>,
}

impl Running {
    /// The address it listens on (with the real port when asked for 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops accepting, finishes the requests in flight, ends every game
    /// (saving those in progress) and returns.
    pub async fn shutdown(mut self) -> Result<(), ServeError> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.wait().await
    }

    /// Waits until the server stops (its signal of [`start_until`] came),
    /// after it has ended every game.
    pub async fn wait(&mut self) -> Result<(), ServeError> {
        (&mut self.task)
            .await
            .map_err(|e| ServeError::Task(e.to_string()))?
    }
}

/// Binds `options.addr` and serves in a task of the current tokio runtime.
pub async fn start(options: Options) -> Result<Running, ServeError> {
    start_until(options, std::future::pending()).await
}

/// [`start`], also stopping when `signal` completes (Ctrl-C, say).
pub async fn start_until(
    options: Options,
    signal: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<Running, ServeError> {
    let listener = tokio::net::TcpListener::bind(options.addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: options.addr,
            source,
        })?;
    let addr = listener.local_addr()?;
    let roots = vec![
        games::Root {
            name: "weights",
            dir: options.weights_dir.clone(),
        },
        games::Root {
            name: "runs",
            dir: options.runs_dir.clone(),
        },
    ];
    let games = Arc::new(Games::new(
        options.records.clone(),
        roots.clone(),
        options.limits,
    ));
    let fs = options.bounds.fs_timeout;
    let app = routes::router(
        guard::Guard::new(addr.ip(), &options.allowed_hosts, BODY_LIMIT),
        vec![
            games::router(Arc::clone(&games)),
            weights::router(roots, fs),
            runs::router(options.runs_dir.clone(), fs),
            replay::router(options.replay_dirs.clone(), fs),
        ],
    );
    let bounds = options.bounds;
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let until = async move {
            tokio::select! {
                _ = stopped => {}
                _ = signal => {}
            }
        };
        let served = conn::serve(listener, app, bounds, until).await;
        games.end_all().await;
        served.map_err(ServeError::Io)
    });
    Ok(Running {
        addr,
        stop: Some(stop),
        task,
    })
}

/// Runs the server on a runtime of its own until Ctrl-C (or SIGTERM),
/// calling `ready` once it listens (to print its URL). Every game in
/// progress is saved as unfinished before this returns.
pub fn run(options: Options, ready: impl FnOnce(&Running)) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let served = runtime.block_on(async move {
        let mut running = start_until(options, stop_signal()).await?;
        ready(&running);
        running.wait().await
    });
    // A thread still blocked on the file system (a request that timed
    // out) must not keep the process from ending.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    served
}

/// Completes on Ctrl-C, or on SIGTERM on Unix.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
