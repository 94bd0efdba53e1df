//! The connections: accepted at most [`Bounds::connections`] at once (the
//! rest wait in the system's queue until one closes), each served by
//! hyper's HTTP/1.1 with a deadline for the request's head
//! ([`Bounds::header_timeout`], hyper's own timer) and, through
//! tower-http, for its body ([`Bounds::body_timeout`]), so a client that
//! sends slowly or never finishes cannot hold a connection. On shutdown
//! every connection finishes the request it serves and closes.

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch, Semaphore};

/// How many connections are served at once, and how long a client may
/// take to send a request.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Connections served at once.
    pub connections: usize,
    /// The longest time from a connection's start (or its last answer) to
    /// the end of a request's head.
    pub header_timeout: Duration,
    /// The longest time a request's body may take to arrive.
    pub body_timeout: Duration,
    /// The longest time a request may wait for the file system (a folder
    /// on a network drive that stopped answering).
    pub fs_timeout: Duration,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            connections: 256,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            fs_timeout: Duration::from_secs(10),
        }
    }
}

/// Serves `app` on `listener` until `until` completes, then lets every
/// connection finish its request and returns once all are closed.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    bounds: Bounds,
    until: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = app.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
        bounds.body_timeout,
    ));
    let permits = Arc::new(Semaphore::new(bounds.connections.max(1)));
    // `stop` tells the connections to close; `open` is held by each, so
    // its receiver ends when the last one closes.
    let (stop, stopping) = watch::channel(false);
    let (open, mut all_closed) = mpsc::channel::<()>(1);
    tokio::pin!(until);
    loop {
        let permit = tokio::select! {
            p = Arc::clone(&permits).acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            () = &mut until => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors, say: wait rather than spin.
                    if !is_connection_error(&e) {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    continue;
                }
            },
            () = &mut until => break,
        };
        let service = TowerToHyperService::new(app.clone());
        let mut stopping = stopping.clone();
        let open = open.clone();
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(bounds.header_timeout);
            let conn = http.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(conn);
            loop {
                tokio::select! {
                    _ = conn.as_mut() => break,
                    changed = stopping.changed() => {
                        if changed.is_err() || *stopping.borrow() {
                            conn.as_mut().graceful_shutdown();
                        }
                    }
                }
            }
            drop(permit);
            drop(open);
        });
    }
    drop(listener);
    let _ = stop.send(true);
    drop(open);
    let _ = all_closed.recv().await;
    Ok(())
}

/// Errors of one connection (the client went away before it was
/// accepted), after which accepting goes on at once.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}
