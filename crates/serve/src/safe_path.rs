//! Turning a path from a request into a file inside one configured folder,
//! or refusing it.
//!
//! A request names a file by a relative path, percent-encoded as in a URL.
//! [`safe_join`] decodes it once and refuses, before touching the file
//! system, anything that could leave the folder: `..` and `.` components,
//! absolute paths, backslashes, drive prefixes, NUL and other control
//! characters, and a `%` that is still there after decoding (a
//! double-encoded `%252e%252e`). It then resolves symbolic links and
//! refuses a file whose real path is not under the folder's real path, so a
//! link inside the folder cannot lead out of it.

use std::path::{Path, PathBuf};

/// Why a requested path was refused.
#[derive(Debug, thiserror::Error)]
pub enum PathError {
    /// No path at all.
    #[error("no file named")]
    Empty,
    /// A `%` not followed by two hex digits, or bytes that are not UTF-8.
    #[error("bad percent-encoding in {0:?}")]
    Encoding(String),
    /// A character a file name here may not hold (after decoding).
    #[error("path {path:?}: {what} is not allowed")]
    Forbidden {
        /// The decoded path.
        path: String,
        /// What was found.
        what: &'static str,
    },
    /// The path does not name an existing file in the folder.
    #[error("no such file: {0:?}")]
    NotFound(String),
    /// The file's real path (links followed) is outside the folder.
    #[error("path {0:?} leads outside the served folder")]
    Outside(String),
}

impl PathError {
    /// Whether the path was well-formed but names nothing (a 404 rather
    /// than a 400 or 403).
    pub fn is_not_found(&self) -> bool {
        matches!(self, PathError::NotFound(_))
    }

    /// The HTTP status every route answers it with: 404 for a missing
    /// file, 403 for one that leads out, 400 for a refused shape.
    pub fn status(&self) -> axum::http::StatusCode {
        use axum::http::StatusCode;
        match self {
            PathError::NotFound(_) => StatusCode::NOT_FOUND,
            PathError::Outside(_) => StatusCode::FORBIDDEN,
            _ => StatusCode::BAD_REQUEST,
        }
    }
}

/// Decodes `%XX` escapes once.
fn percent_decode(raw: &str) -> Result<String, PathError> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| PathError::Encoding(raw.to_string()))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| PathError::Encoding(raw.to_string()))
}

/// The components of a requested path, percent-decoded and checked
/// without touching the file system (see the module docs).
pub fn clean_relative(raw: &str) -> Result<Vec<String>, PathError> {
    let path = percent_decode(raw)?;
    let forbidden = |what| PathError::Forbidden {
        path: path.clone(),
        what,
    };
    if path.is_empty() {
        return Err(PathError::Empty);
    }
    if path.starts_with('/') {
        return Err(forbidden("an absolute path"));
    }
    if path.contains('\\') {
        return Err(forbidden("a backslash"));
    }
    if path.contains('%') {
        return Err(forbidden("an encoded %"));
    }
    if path.chars().any(char::is_control) {
        return Err(forbidden("a control character"));
    }
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" => return Err(forbidden("an empty component")),
            "." | ".." => return Err(forbidden("a . or .. component")),
            p if p.contains(':') => return Err(forbidden("a colon")),
            p => parts.push(p.to_string()),
        }
    }
    Ok(parts)
}

/// The real path of the file `raw` (a percent-encoded relative path) names
/// inside `root`, links followed, or why it is refused. The file must
/// exist.
pub fn safe_join(root: &Path, raw: &str) -> Result<PathBuf, PathError> {
    let parts = clean_relative(raw)?;
    let decoded = parts.join("/");
    let real_root = root
        .canonicalize()
        .map_err(|_| PathError::NotFound(decoded.clone()))?;
    let mut joined = real_root.clone();
    joined.extend(&parts);
    let real = joined
        .canonicalize()
        .map_err(|_| PathError::NotFound(decoded.clone()))?;
    if !real.starts_with(&real_root) {
        return Err(PathError::Outside(decoded));
    }
    Ok(real)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A folder `root` holding `runs/a/rounds.csv`, next to `secret.txt`.
    fn setup() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        fs::create_dir_all(root.join("runs/a")).unwrap();
        fs::write(root.join("runs/a/rounds.csv"), "round\n").unwrap();
        fs::write(dir.path().join("secret.txt"), "secret").unwrap();
        (dir, root)
    }

    #[test]
    fn a_plain_path_resolves_inside() {
        let (_dir, root) = setup();
        let p = safe_join(&root, "runs/a/rounds.csv").unwrap();
        assert_eq!(fs::read_to_string(p).unwrap(), "round\n");
        let p = safe_join(&root, "runs/%61/rounds%2Ecsv").unwrap();
        assert!(p.ends_with("runs/a/rounds.csv"));
    }

    #[test]
    fn traversal_is_refused_before_the_file_system() {
        let (_dir, root) = setup();
        for raw in [
            "../secret.txt",
            "runs/../../secret.txt",
            "runs/./a/rounds.csv",
            "%2e%2e/secret.txt",
            "%2E%2E%2Fsecret.txt",
            "..%2fsecret.txt",
            "%252e%252e/secret.txt",
            "/etc/passwd",
            "%2fetc/passwd",
            "..\\secret.txt",
            "C:/secret.txt",
            "runs//a",
            "runs/a/rounds.csv%00",
            "",
        ] {
            let e = safe_join(&root, raw).unwrap_err();
            assert!(
                !e.is_not_found() && !matches!(e, PathError::Outside(_)),
                "{raw:?}: {e}"
            );
        }
        assert!(matches!(
            safe_join(&root, "%zz").unwrap_err(),
            PathError::Encoding(_)
        ));
        assert!(matches!(
            safe_join(&root, "%ff").unwrap_err(),
            PathError::Encoding(_)
        ));
    }

    #[test]
    fn missing_files_are_not_found() {
        let (_dir, root) = setup();
        assert!(safe_join(&root, "runs/b/rounds.csv")
            .unwrap_err()
            .is_not_found());
        assert!(safe_join(&root.join("nowhere"), "x")
            .unwrap_err()
            .is_not_found());
    }

    #[cfg(unix)]
    #[test]
    fn links_out_of_the_folder_are_refused() {
        let (dir, root) = setup();
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("leak")).unwrap();
        std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
        assert!(matches!(
            safe_join(&root, "leak").unwrap_err(),
            PathError::Outside(_)
        ));
        assert!(matches!(
            safe_join(&root, "up/secret.txt").unwrap_err(),
            PathError::Outside(_)
        ));
        // A link that stays inside is fine.
        std::os::unix::fs::symlink(root.join("runs/a"), root.join("latest")).unwrap();
        assert!(safe_join(&root, "latest/rounds.csv").is_ok());
    }
}
