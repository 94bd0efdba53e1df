//! Finding the records files under the served folders for the page's file
//! picker: a bounded walk that stays inside each folder.

use serde::Serialize;
use std::fs;
use std::io::Read;
use std::path::Path;

/// How deep below a folder files are found (`runs/NAME/games/x.sgf` is 3).
pub const MAX_DEPTH: usize = 4;
/// The most files listed per folder.
pub const MAX_FILES: usize = 1000;
/// The most directory entries looked at per folder, so a huge folder costs
/// a bounded time.
pub const MAX_ENTRIES: usize = 20_000;

/// One served folder and the records files found in it.
#[derive(Debug, Serialize)]
pub struct Folder {
    /// Its index in the server's list, the `{folder}` of the file routes.
    pub index: usize,
    /// Its last path component (`records`, `runs`).
    pub name: String,
    /// The records files, paths relative to the folder with `/`.
    pub files: Vec<FileEntry>,
    /// Whether the walk stopped at a limit before seeing everything.
    pub truncated: bool,
}

/// A records file.
#[derive(Debug, Serialize)]
pub struct FileEntry {
    /// Relative to its folder, `/`-separated, not encoded.
    pub path: String,
    /// Its size.
    pub bytes: u64,
}

/// The folder's name as the page shows it.
pub fn folder_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string())
}

/// The records files under `dir` (none if it does not exist).
pub fn list_folder(index: usize, dir: &Path) -> Folder {
    let mut folder = Folder {
        index,
        name: folder_name(dir),
        files: Vec::new(),
        truncated: false,
    };
    if let Ok(root) = dir.canonicalize() {
        let mut budget = MAX_ENTRIES;
        walk(&root, &root, "", 0, &mut folder, &mut budget);
    }
    folder
}

/// Whether the extension is one the records readers take.
pub fn is_records_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".csv") || lower.ends_with(".sgf")
}

/// Whether a name can be asked for again through `safe_join` (which
/// refuses `%`, `:`, `\` and control characters) and is not hidden.
fn listable(name: &str) -> bool {
    !name.starts_with('.')
        && !name
            .chars()
            .any(|c| matches!(c, '%' | ':' | '\\') || c.is_control())
}

fn walk(root: &Path, dir: &Path, rel: &str, depth: usize, out: &mut Folder, budget: &mut usize) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        if *budget == 0 || out.files.len() >= MAX_FILES {
            out.truncated = true;
            return;
        }
        *budget -= 1;
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        if !listable(&name) {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        let rel = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if kind.is_dir() {
            if depth + 1 < MAX_DEPTH {
                walk(root, &path, &rel, depth + 1, out, budget);
            }
            continue;
        }
        // A link is listed only if it is a file inside the folder (as
        // `safe_join` will check again); linked folders are not walked,
        // which also keeps the walk free of cycles.
        let real = if kind.is_symlink() {
            match path.canonicalize() {
                Ok(r) if r.starts_with(root) && r.is_file() => r,
                _ => continue,
            }
        } else if kind.is_file() {
            path
        } else {
            continue;
        };
        if !is_records_name(&name) || !looks_like_records(&real) {
            continue;
        }
        let bytes = fs::metadata(&real).map(|m| m.len()).unwrap_or(0);
        out.files.push(FileEntry { path: rel, bytes });
    }
}

/// Whether a file's start looks like records, so a run's `rounds.csv`
/// (a header line) is not offered: SGF starts with `(`, the CSV layout
/// with a `#` metadata line or a game's `0` line (blank lines allowed).
/// Only the first 4 KiB are read; the readers check the rest when opened.
pub fn looks_like_records(path: &Path) -> bool {
    let mut head = Vec::with_capacity(4096);
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    if file.take(4096).read_to_end(&mut head).is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    let text = text.trim_start_matches('\u{feff}');
    let sgf = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
    if sgf {
        return text.trim_start().starts_with('(');
    }
    match text.lines().map(str::trim).find(|l| !l.is_empty()) {
        Some(first) => first == "0" || first.starts_with('#'),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_records_inside_the_folder_are_listed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        fs::create_dir_all(root.join("a/b/c/d")).unwrap();
        fs::create_dir_all(root.join(".hidden")).unwrap();
        let game = "# game=tictactoe\n0\n1,1\n0,0\n2,-1\n";
        fs::write(root.join("games.csv"), game).unwrap();
        fs::write(root.join("a/m.SGF"), "(;GM[4]SZ[3])").unwrap();
        fs::write(root.join("a/rounds.csv"), "round,elo\n1,2\n").unwrap();
        fs::write(root.join("a/notes.txt"), game).unwrap();
        fs::write(root.join("a/b/c/deep.csv"), game).unwrap();
        fs::write(root.join("a/b/c/d/too-deep.csv"), game).unwrap();
        fs::write(root.join(".hidden/h.csv"), game).unwrap();
        fs::write(root.join("50%.csv"), game).unwrap();
        fs::write(dir.path().join("outside.csv"), game).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink(dir.path().join("outside.csv"), root.join("leak.csv")).unwrap();
            symlink(dir.path(), root.join("up")).unwrap();
            symlink(root.join("games.csv"), root.join("link.csv")).unwrap();
        }
        let f = list_folder(3, &root);
        let paths: Vec<&str> = f.files.iter().map(|e| e.path.as_str()).collect();
        let mut want = vec!["a/b/c/deep.csv", "a/m.SGF", "games.csv"];
        if cfg!(unix) {
            want.push("link.csv");
        }
        assert_eq!(paths, want);
        assert_eq!((f.index, f.name.as_str(), f.truncated), (3, "root", false));
        assert_eq!(f.files[2].bytes, game.len() as u64);
        assert!(list_folder(0, &root.join("nowhere")).files.is_empty());
    }

    #[test]
    fn the_listing_stops_at_its_limit() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..=MAX_FILES {
            fs::write(dir.path().join(format!("g{i:04}.sgf")), "(;GM[4])").unwrap();
        }
        let f = list_folder(0, dir.path());
        assert_eq!(f.files.len(), MAX_FILES);
        assert!(f.truncated);
        assert_eq!(f.files[0].path, "g0000.sgf");
    }
}
