//! Reading the served folders' files without trusting them: a file is read
//! only if it is a regular file whose real path stays in its folder, a
//! request's file work has a deadline, and an error about a file that did
//! not parse says where (file, line) but never quotes what it holds.
//!
//! A link leading out of the folder could otherwise show any file the
//! server can read (a parser's error quotes the offending line), and a
//! FIFO or a stalled network drive could hold a request, and a thread,
//! forever.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why a file of a served folder is not read.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// Its real path (links followed) is outside the folder.
    #[error("{0} leads outside the served folder")]
    Outside(String),
    /// A FIFO, a device, a folder: reading it could block or mislead.
    #[error("{0} is not a regular file")]
    NotRegular(String),
}

/// The real path of `path`, a file of the folder whose real path is
/// `real_root`, if it is a regular file inside it; `Ok(None)` if there is
/// no such file. `name` names it in the refusal.
pub fn regular_inside(
    path: &Path,
    real_root: &Path,
    name: &str,
) -> Result<Option<PathBuf>, Refused> {
    // `canonicalize` and `metadata` never open the file: a FIFO is told
    // without blocking. A link anywhere on the way (the file's or a
    // folder's) is followed before the real path is compared.
    let Ok(real) = path.canonicalize() else {
        return Ok(None);
    };
    if !real.starts_with(real_root) {
        return Err(Refused::Outside(name.to_string()));
    }
    match std::fs::metadata(&real) {
        Ok(m) if m.is_file() => Ok(Some(real)),
        Ok(_) => Err(Refused::NotRegular(name.to_string())),
        Err(_) => Ok(None),
    }
}

/// A reader's error made fit to show: its first line only, up to a
/// snippet's gutter (a TOML error quotes the offending line below its
/// place, or after ` | ` when flattened into one line), `base` (a folder's real path)
/// written as `shown`, and anything quoted (`"…"` and `` `…` ``, the
/// values a parser found) replaced by `…`.
pub fn quiet_error(text: &str, base: &Path, shown: &str) -> String {
    let mut first = text.lines().next().unwrap_or_default();
    // A TOML error flattened into one line still quotes the line after
    // its gutter (`  | 1 | KEY = value`): only its place is kept.
    if let Some(at) = first.find(" |") {
        first = &first[..at];
    }
    let first = first.trim_end().replace(&base.display().to_string(), shown);
    let mut out = String::with_capacity(first.len());
    let mut quote: Option<char> = None;
    for c in first.chars() {
        match quote {
            Some(q) if c == q => {
                out.push('…');
                out.push(c);
                quote = None;
            }
            Some(_) => {}
            None => {
                out.push(c);
                if matches!(c, '"' | '`') {
                    quote = Some(c);
                }
            }
        }
    }
    if quote.is_some() {
        out.push('…');
    }
    out
}

/// Why file work of a request failed.
#[derive(Debug, thiserror::Error)]
pub enum FsError {
    /// The file system did not answer in time (a 503).
    #[error("the file system did not answer within {} s", .0.as_secs_f64())]
    Timeout(Duration),
    /// The blocking task died (a bug: a 500).
    #[error("internal error: {0}")]
    Task(String),
}

impl FsError {
    /// The HTTP status it is answered with.
    pub fn status(&self) -> axum::http::StatusCode {
        match self {
            FsError::Timeout(_) => axum::http::StatusCode::SERVICE_UNAVAILABLE,
            FsError::Task(_) => axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// Runs `work` (file system calls) on a blocking thread and waits at most
/// `limit` for it. A thread that does not finish in time is left to
/// finish on its own: the request does not wait for it, and the server
/// does not wait for it to stop.
pub async fn within<T: Send + 'static>(
    limit: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, FsError> {
    match tokio::time::timeout(limit, tokio::task::spawn_blocking(work)).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(FsError::Task(e.to_string())),
        Err(_) => Err(FsError::Timeout(limit)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_keep_the_place_and_lose_the_content() {
        let base = Path::new("/srv/runs");
        let toml = "/srv/runs/r1/run.toml: not valid TOML: TOML parse error at line 1, \
                    column 8\n  |\n1 | API_KEY=secret\n  |        ^\n";
        assert_eq!(
            quiet_error(toml, base, "runs"),
            "runs/r1/run.toml: not valid TOML: TOML parse error at line 1, column 8"
        );
        assert_eq!(
            quiet_error("rounds.csv line 3: reason \"API_KEY=x\"", base, "runs"),
            "rounds.csv line 3: reason \"…\""
        );
        assert_eq!(quiet_error("field `secret", base, "runs"), "field `…");
        let flat = "r1/run.toml: TOML parse error at line 1, column 11   | 1 | KEY = secret   |  ^";
        assert_eq!(
            quiet_error(flat, base, "runs"),
            "r1/run.toml: TOML parse error at line 1, column 11"
        );
        assert_eq!(
            quiet_error("no run in /srv/runs", base, "runs"),
            "no run in runs"
        );
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_inside_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir(&root).unwrap();
        std::fs::write(dir.path().join("out"), "x").unwrap();
        std::fs::write(root.join("in"), "x").unwrap();
        std::os::unix::fs::symlink(dir.path().join("out"), root.join("leak")).unwrap();
        std::os::unix::fs::symlink(root.join("in"), root.join("link")).unwrap();
        let real = root.canonicalize().unwrap();
        let at = |n: &str| regular_inside(&real.join(n), &real, n);
        assert!(at("in").unwrap().is_some());
        assert!(at("link").unwrap().is_some());
        assert!(at("missing").unwrap().is_none());
        assert!(matches!(at("leak"), Err(Refused::Outside(_))));
        std::fs::create_dir(root.join("sub")).unwrap();
        assert!(matches!(at("sub"), Err(Refused::NotRegular(_))));
        // A folder on the way that leads out.
        std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
        assert!(matches!(at("up/out"), Err(Refused::Outside(_))));
    }
}
