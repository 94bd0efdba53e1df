//! `GET /api/runs/{name}/events`: live updates of one run as server-sent
//! events, so the page redraws as rounds land without reloading.
//!
//! The server looks at the run's files every [`POLL`] (a few `stat`s;
//! the files are read only when one changed) and probes its lock every
//! [`LOCK_EVERY`] looks or when a file changed. Each change sends an
//! `update` event whose data is the run's summary (`round`, `state`, …);
//! the page then fetches the charts again. The first event is sent at
//! once. A comment every 10 s keeps proxies from closing the stream, and
//! the stream ends when the client goes away (axum drops it).

use super::data::{signature, Signature};
use super::{raw_name, resolve, summary, Runs, RunsError, Summary};
use crate::files::within;
use axum::extract::State as Extract;
use axum::http::Uri;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How often the run's files are looked at.
pub const POLL: Duration = Duration::from_millis(300);

/// The lock is probed every this many looks when no file changed (a
/// process that died changes no file): about every 3 s.
pub const LOCK_EVERY: u32 = 10;

/// One client's watch over one run.
struct Watch {
    runs: Arc<Runs>,
    name: String,
    dir: PathBuf,
    /// The files as last seen (`None`: nothing sent yet).
    seen: Option<Signature>,
    /// What the last event said: the state and the round.
    said: Option<(super::State, Option<u32>)>,
    looks: u32,
}

impl Watch {
    /// One look: the summary to send, if anything changed.
    async fn look(&mut self) -> Result<Option<Summary>, ()> {
        let probe = self.looks.is_multiple_of(LOCK_EVERY);
        self.looks = self.looks.wrapping_add(1);
        let (runs, name, dir, seen) = (
            Arc::clone(&self.runs),
            self.name.clone(),
            self.dir.clone(),
            self.seen.clone(),
        );
        let limit = self.runs.fs_timeout;
        let looked = within(limit, move || {
            let sig = signature(&dir);
            let changed = seen.as_ref() != Some(&sig);
            let summary = (changed || probe).then(|| summary(&runs, &name, &dir).0);
            (sig, changed, summary)
        })
        .await
        .map_err(|_| ())?;
        let (sig, changed, summary) = looked;
        self.seen = Some(sig);
        Ok(summary.filter(|s| changed || self.said != Some(s.progress())))
    }
}

/// `GET /api/runs/{name}/events`.
pub(super) async fn events(
    Extract(runs): Extract<Arc<Runs>>,
    uri: Uri,
) -> Result<Sse<impl Stream<Item = Result<Event, axum::Error>>>, RunsError> {
    let raw = raw_name(&uri, "/events").to_string();
    let root = runs.root.clone();
    let (name, dir) = within(runs.fs_timeout, move || resolve(&root, &raw)).await??;
    let watch = Watch {
        runs,
        name,
        dir,
        seen: None,
        said: None,
        looks: 0,
    };
    let updates = stream::unfold(watch, |mut w| async move {
        loop {
            match w.look().await {
                Ok(Some(s)) => {
                    w.said = Some(s.progress());
                    let event = Event::default().event("update").json_data(&s);
                    return Some((event, w));
                }
                Ok(None) => tokio::time::sleep(POLL).await,
                // A look's task died or the file system did not answer:
                // end the stream; the page reconnects.
                Err(()) => return None,
            }
        }
    });
    Ok(Sse::new(updates).keep_alive(KeepAlive::new().interval(Duration::from_secs(10))))
}
