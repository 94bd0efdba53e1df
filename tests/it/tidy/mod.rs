//! Tidy checks, run by `cargo test` as rust-analyzer runs its own: the
//! structure ARCHITECTURE.md states holds in the sources of the binary
//! (`src/`), the core crate (`crates/core/src/`), the mnk library
//! (`crates/mnk/src/`, with `play` and `records` in `crates/play/src/`)
//! and the web server (`crates/serve/src/`).
//! The allowed imports, the binary-only crates and the core crate's modules
//! and dependencies are read from its `## Layers` tables, so the document
//! and the check cannot drift apart.
//!
//! Only code counts: comments, doc comments and string contents are
//! blanked out before anything is searched.

mod cycles;
mod profile;

use cycles::{cycle_violations, KNOWN_CYCLES};
use profile::slow_hot_violations;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Files longer than this hold more than one concern; split them.
const MAX_LINES: usize = 1000;

/// Files allowed over [`MAX_LINES`] while they are being split (none
/// today). The list may only shrink: a file that is short again must leave
/// it.
const LONG_FILES: &[&str] = &[];

/// The module of the binary: `src/main.rs` and `src/cli/`.
const BINARY: &str = "cli";

/// Where the core crate's sources are, from the repository root.
const CORE_SRC: &str = "crates/core/src/";

/// Where the mnk library's sources are (package mnk-lib, crate `mnk`).
const LIB_SRC: &str = "crates/mnk/src/";

/// Where the library's `play` and `records` are (package mnk-play, which
/// the library re-exports): modules of the library as far as the layers
/// go, a crate of their own for their optimisation level.
const PLAY_SRC: &str = "crates/play/src/";

/// Where the web server's sources are: the mnk-serve crate, which is the
/// one module `serve` (its `crate::` paths are its own files).
const SERVE_SRC: &str = "crates/serve/src/";

/// One source file: its path from the repository root (with `/`), the
/// top-level module it belongs to, and its code with comments and string
/// contents blanked (lines kept, so offsets give line numbers).
struct Source {
    path: String,
    module: String,
    code: String,
    /// Its string literals' contents, with their lines.
    strings: Vec<(usize, String)>,
}

/// Every `.rs` file under `src/` and the crates' `src/` but their
/// `lib.rs` (which only declare the modules), in path order.
fn sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", CORE_SRC, LIB_SRC, PLAY_SRC, SERVE_SRC] {
        walk(&root.join(dir), &mut files);
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|file| {
            let path = file
                .strip_prefix(root)
                .unwrap()
                .to_str()
                .unwrap()
                .replace('\\', "/");
            let module = module_of(&path)?;
            let text = std::fs::read_to_string(&file).unwrap();
            Some(Source {
                path,
                module,
                code: code_only(&text),
                strings: strings_of(&text),
            })
        })
        .collect()
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a source file belongs to
/// (`crates/core/src/game/board.rs` → `game`, `crates/core/src/util.rs` →
/// `util`, `crates/mnk/src/train/mod.rs` → `train`, any file of
/// `crates/play/src/records/mod.rs` → `records`, any file of
/// `crates/serve/src/` → `serve`, `src/main.rs` and `src/cli/` → the
/// binary), or `None` for a crate's `lib.rs`.
fn module_of(path: &str) -> Option<String> {
    if path.starts_with(SERVE_SRC) {
        return Some("serve".to_string());
    }
    let rest = [CORE_SRC, LIB_SRC, PLAY_SRC, "src/"]
        .iter()
        .find_map(|root| path.strip_prefix(root))?;
    let first = rest.split('/').next()?;
    match first {
        "lib.rs" => None,
        "main.rs" => Some(BINARY.to_string()),
        _ => Some(first.trim_end_matches(".rs").to_string()),
    }
}

/// The text with comments and the contents of string and character
/// literals replaced by spaces; line breaks are kept.
fn code_only(text: &str) -> String {
    blanked(text, true)
}

/// The contents of the string literals of a text, each with the 1-based
/// line it starts on (comments are not strings).
fn strings_of(text: &str) -> Vec<(usize, String)> {
    let code: Vec<char> = blanked(text, true).chars().collect();
    let no_comments: Vec<char> = blanked(text, false).chars().collect();
    let mut found: Vec<(usize, String)> = Vec::new();
    let (mut line, mut inside) = (1, false);
    for (k, &ch) in no_comments.iter().enumerate() {
        // Blanked in the code but not in the comment-free text: a
        // string's character (its spaces too, once inside).
        let in_string = code[k] == ' ' && (ch != ' ' || inside);
        if in_string && !inside {
            found.push((line, String::new()));
        }
        if in_string {
            found.last_mut().unwrap().1.push(ch);
        }
        inside = in_string;
        if ch == '\n' {
            line += 1;
        }
    }
    found
}

/// `text` with comments blanked and, if `strings`, the contents of string
/// and character literals too; every character becomes one character, so
/// the two versions align.
fn blanked(text: &str, strings: bool) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    // Blanks c[from..to], keeping line breaks.
    let blank = |out: &mut String, from: usize, to: usize| {
        for &ch in &c[from..to.min(c.len())] {
            out.push(if ch == '\n' { '\n' } else { ' ' });
        }
    };
    let ident = |i: usize| c[i].is_alphanumeric() || c[i] == '_';
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            let end = c[i..]
                .iter()
                .position(|&x| x == '\n')
                .map_or(c.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if c[i] == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let (mut depth, mut j) = (1, i + 2);
            while j < c.len() && depth > 0 {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if c[i] == 'r'
            && (i == 0 || !ident(i - 1) || (c[i - 1] == 'b' && (i == 1 || !ident(i - 2))))
            && matches!(next, Some('"' | '#'))
        {
            // A raw string r"…", r#"…"#, br"…": no escapes, ends at the
            // quote followed by as many #.
            let hashes = c[i + 1..].iter().take_while(|&&x| x == '#').count();
            let open = i + 1 + hashes;
            if c.get(open) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            let closes = |j: usize| {
                c[j] == '"'
                    && c[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&x| x == '#')
                        .count()
                        == hashes
            };
            let mut j = open + 1;
            while j < c.len() && !closes(j) {
                j += 1;
            }
            let end = (j + 1 + hashes).min(c.len());
            out.extend(&c[i..=open]);
            if strings {
                blank(&mut out, open + 1, j);
            } else {
                out.extend(&c[open + 1..j.min(c.len())]);
            }
            out.extend(&c[j.min(c.len())..end]);
            i = end;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            out.push('"');
            if strings {
                blank(&mut out, i + 1, j);
            } else {
                out.extend(&c[i + 1..j.min(c.len())]);
            }
            if j < c.len() {
                out.push('"');
            }
            i = j + 1;
        } else if c[i] == '\'' && (next == Some('\\') || c.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\u{1F600}'); a lone ' is a
            // lifetime or a label and stays.
            let mut j = i + 1;
            while j < c.len() && c[j] != '\'' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            out.push('\'');
            blank(&mut out, i + 1, j);
            out.push('\'');
            i = j + 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The 1-based line of a byte offset.
fn line_at(code: &str, offset: usize) -> usize {
    code[..offset].matches('\n').count() + 1
}

/// Where a word occurs as a whole identifier, not inside a longer one
/// (`$crate` counts as `crate`: a macro's paths are its module's imports).
fn word_offsets<'a>(code: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let is_ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    code.match_indices(word)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let before = code[..at].chars().next_back();
            let after = code[at + word.len()..].chars().next();
            !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
        })
}

/// The text after `at`, past whitespace.
fn skip_space(code: &str, at: usize) -> &str {
    code[at..].trim_start()
}

/// The first identifier at the start of `s`.
fn leading_ident(s: &str) -> &str {
    let end = s
        .find(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The top-level modules a file names through `crate::`, `mnk::`,
/// `mnk_core::` or `mnk_play::`, with
/// the byte offset of each path: `crate::game::Board` names `game`, and
/// `crate::{eval::Weights, game}` names `eval` and `game`.
fn imports(code: &str) -> Vec<(usize, String)> {
    imports_through(code, &["crate", "mnk", "mnk_core", "mnk_play"])
}

/// [`imports`] through the given roots only.
fn imports_through(code: &str, roots: &[&str]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for &root in roots {
        for at in word_offsets(code, root) {
            let Some(path) = skip_space(code, at + root.len()).strip_prefix("::") else {
                continue;
            };
            let path = path.trim_start();
            if let Some(group) = path.strip_prefix('{') {
                // Top-level commas only: `{a::{b, c}, d}` names a and d.
                let mut depth = 0;
                let mut item_start = 0;
                for (k, ch) in group.char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            found.push((
                                at,
                                leading_ident(group[item_start..k].trim_start()).to_string(),
                            ));
                            break;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            found.push((
                                at,
                                leading_ident(group[item_start..k].trim_start()).to_string(),
                            ));
                            item_start = k + 1;
                        }
                        _ => {}
                    }
                }
            } else {
                found.push((at, leading_ident(path).to_string()));
            }
        }
    }
    found.retain(|(_, m)| !m.is_empty() && m != "self" && m != "super");
    found.sort();
    found
}

/// Where a file uses an external crate: `NAME::…`, `use NAME` or
/// `extern crate NAME`.
fn crate_uses<'a>(code: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    word_offsets(code, name).filter(move |&at| {
        let before = code[..at].trim_end();
        let previous = before
            .rsplit(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
            .next()
            .unwrap_or("");
        skip_space(code, at + name.len()).starts_with("::")
            || previous == "use"
            || (previous == "crate" && before[..before.len() - 5].trim_end().ends_with("extern"))
    })
}

/// What ARCHITECTURE.md's `## Layers` section allows.
struct Layers {
    /// Per module, the modules it may import (`None`: any).
    imports: BTreeMap<String, Option<BTreeSet<String>>>,
    /// Per external crate, the only modules that may use it.
    crates: BTreeMap<String, BTreeSet<String>>,
    /// The modules of the core crate (`crates/core/src/`).
    core_modules: BTreeSet<String>,
    /// The only crates the core crate may depend on.
    core_dependencies: BTreeSet<String>,
}

/// The backticked words of a table cell: "`game`, `util`" → game, util.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Reads the tables of the `## Layers` section: `| module | may import |`
/// (a cell saying "any" allows everything), `| crate | only in |` (a row
/// may name several crates: `` `clap`, `anyhow` ``),
/// `| core crate | holds |` and `| core crate | depends on |`.
fn parse_layers(markdown: &str) -> Layers {
    let section: Vec<&str> = markdown
        .lines()
        .skip_while(|l| l.trim() != "## Layers")
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    assert!(
        !section.is_empty(),
        "ARCHITECTURE.md has no `## Layers` section"
    );
    let mut layers = Layers {
        imports: BTreeMap::new(),
        crates: BTreeMap::new(),
        core_modules: BTreeSet::new(),
        core_dependencies: BTreeSet::new(),
    };
    let mut table = "";
    for line in section {
        let cells: Vec<&str> = line
            .trim()
            .strip_prefix('|')
            .and_then(|l| l.strip_suffix('|'))
            .map(|l| l.split('|').map(str::trim).collect())
            .unwrap_or_default();
        match cells.as_slice() {
            [first, _] if first.chars().all(|ch| ch == '-' || ch == ':') => {}
            ["module", _] => table = "module",
            ["crate", _] => table = "crate",
            ["core crate", "holds"] => table = "holds",
            ["core crate", "depends on"] => table = "depends on",
            [names, allowed] => {
                // A crate row may name several crates: `a`, `b`. A module
                // row names one, the first (`cli` (the binary: `src/main.rs`)).
                let mut names = ticked(names);
                assert!(
                    !names.is_empty(),
                    "ARCHITECTURE.md ## Layers: no `name` in row {line:?}"
                );
                let allowed_names: BTreeSet<String> = ticked(allowed).into_iter().collect();
                match table {
                    "module" => {
                        let any = allowed
                            .split('`')
                            .step_by(2)
                            .flat_map(|t| t.split(|ch: char| !ch.is_alphanumeric()))
                            .any(|w| w == "any");
                        names.truncate(1);
                        for name in names {
                            layers
                                .imports
                                .insert(name, (!any).then_some(allowed_names.clone()));
                        }
                    }
                    "crate" => {
                        for name in names {
                            layers.crates.insert(name, allowed_names.clone());
                        }
                    }
                    "holds" => layers.core_modules.extend(allowed_names),
                    "depends on" => layers.core_dependencies.extend(allowed_names),
                    _ => panic!("ARCHITECTURE.md ## Layers: row {line:?} before a table header"),
                }
            }
            _ => {}
        }
    }
    assert!(
        !layers.imports.is_empty()
            && !layers.crates.is_empty()
            && !layers.core_modules.is_empty()
            && !layers.core_dependencies.is_empty(),
        "ARCHITECTURE.md ## Layers needs the `| module | may import |`, `| crate | only in |`, \
         `| core crate | holds |` and `| core crate | depends on |` tables"
    );
    layers
}

fn layers() -> Layers {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md");
    parse_layers(&std::fs::read_to_string(path).unwrap())
}

/// Uses of external crates outside the modules the `| crate | only in |`
/// table allows.
fn crate_violations(sources: &[Source], layers: &Layers) -> Vec<String> {
    let mut bad = Vec::new();
    for s in sources {
        for (name, only_in) in &layers.crates {
            if only_in.contains(&s.module) {
                continue;
            }
            for at in crate_uses(&s.code, name) {
                bad.push(format!(
                    "{}:{}: `{}` uses `{name}`, which ARCHITECTURE.md ## Layers allows {}",
                    s.path,
                    line_at(&s.code, at),
                    s.module,
                    only(only_in, "in")
                ));
            }
        }
    }
    bad
}

/// Imports of modules the `| module | may import |` table does not allow,
/// and modules it does not list.
fn import_violations(sources: &[Source], layers: &Layers) -> Vec<String> {
    let mut bad = Vec::new();
    for s in sources {
        let Some(allowed) = layers.imports.get(&s.module) else {
            bad.push(format!(
                "{}:1: module `{}` has no row in ARCHITECTURE.md ## Layers",
                s.path, s.module
            ));
            continue;
        };
        let Some(allowed) = allowed else { continue };
        // In the one-module crate mnk-serve, `crate::` names serve's own
        // files; what it imports is what it names through `mnk::`.
        let found = if s.path.starts_with(SERVE_SRC) {
            imports_through(&s.code, &["mnk", "mnk_core", "mnk_play"])
        } else {
            imports(&s.code)
        };
        for (at, module) in found {
            if module != s.module && !allowed.contains(&module) {
                bad.push(format!(
                    "{}:{}: `{m}` imports `{module}`, but ARCHITECTURE.md ## Layers lets `{m}` import {}",
                    s.path,
                    line_at(&s.code, at),
                    only(allowed, ""),
                    m = s.module,
                ));
            }
        }
    }
    bad
}

/// Where the crate boundary breaks: a file of the core crate whose module
/// the `| core crate | holds |` table does not list, a listed module with a
/// file in `src/`, and a core module that the `| module | may import |`
/// table lets import a module outside the core (Cargo would refuse the
/// import; the table must not promise it).
fn core_violations(sources: &[Source], layers: &Layers) -> Vec<String> {
    let mut bad = Vec::new();
    for s in sources {
        let in_core = s.path.starts_with(CORE_SRC);
        let listed = layers.core_modules.contains(&s.module);
        if in_core && !listed {
            bad.push(format!(
                "{}: module `{}` is in the core crate, but ARCHITECTURE.md ## Layers does not list it under `| core crate | holds |`",
                s.path, s.module
            ));
        } else if !in_core && listed {
            bad.push(format!(
                "{}: module `{}` is listed in the core crate, but this file is outside it",
                s.path, s.module
            ));
        }
    }
    for module in &layers.core_modules {
        let Some(allowed) = layers.imports.get(module) else {
            continue;
        };
        let outside: BTreeSet<String> = match allowed {
            Some(allowed) => allowed.difference(&layers.core_modules).cloned().collect(),
            None => BTreeSet::from(["any".to_string()]),
        };
        if !outside.is_empty() {
            bad.push(format!(
                "ARCHITECTURE.md ## Layers lets core module `{module}` import {}, outside the core crate",
                only(&outside, "")
            ));
        }
    }
    bad
}

/// The core crate's `[dependencies]` that the `| core crate | depends on |`
/// table does not list, and listed ones it no longer has.
fn core_dependency_violations(manifest: &str, layers: &Layers) -> Vec<String> {
    let manifest: toml::Table = manifest.parse().expect("crates/core/Cargo.toml is TOML");
    let have: BTreeSet<String> = manifest
        .get("dependencies")
        .and_then(toml::Value::as_table)
        .map(|deps| deps.keys().cloned().collect())
        .unwrap_or_default();
    let mut bad = Vec::new();
    for extra in have.difference(&layers.core_dependencies) {
        bad.push(format!(
            "crates/core/Cargo.toml depends on `{extra}`, which ARCHITECTURE.md ## Layers does not allow the core crate"
        ));
    }
    for gone in layers.core_dependencies.difference(&have) {
        bad.push(format!(
            "ARCHITECTURE.md ## Layers lets the core crate depend on `{gone}`, which crates/core/Cargo.toml does not: remove the row"
        ));
    }
    bad
}

/// Library files whose messages still name a flag, while their errors are
/// being made typed. The list may only shrink.
const FLAG_NAMING_FILES: &[&str] = &[];

/// Where a string of the library names a command-line flag (`--force`):
/// the library's errors carry data, and the binary words them, because
/// which flag helps depends on the command (`mnk play` has no
/// `--any-game`). Comments may name flags, and so may a quoted command
/// line (`` `mnk train --resume DIR` `` in a file's header) and unit tests
/// (from the first `#[cfg(test)]` on); other strings outside `cli` may not.
fn flag_violations(sources: &[Source], allowed: &[&str]) -> Vec<String> {
    let mut bad = Vec::new();
    let mut naming = BTreeSet::new();
    for s in sources.iter().filter(|s| s.module != BINARY) {
        let tests_from = s
            .code
            .find("#[cfg(test)]")
            .map_or(usize::MAX, |at| line_at(&s.code, at));
        for (line, text) in s
            .strings
            .iter()
            .filter(|(line, text)| *line < tests_from && !text.contains("`mnk "))
        {
            let flag = text.match_indices("--").find_map(|(at, _)| {
                let before = text[..at].chars().next_back();
                let name: String = text[at + 2..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                    .collect();
                (before != Some('-') && name.len() > 1).then_some(name)
            });
            if let Some(flag) = flag {
                naming.insert(s.path.clone());
                if !allowed.contains(&s.path.as_str()) {
                    bad.push(format!(
                        "{}:{line}: the library names the flag --{flag}: return a typed error and let src/cli/ word it",
                        s.path
                    ));
                }
            }
        }
    }
    for f in allowed {
        if !naming.contains(*f) {
            bad.push(format!(
                "{f}: names no flag now: remove it from FLAG_NAMING_FILES in tests/it/tidy/mod.rs"
            ));
        }
    }
    bad
}

/// The code (comments and strings blanked) of every `.rs` file that may
/// use the library: the workspace's crates, the tests, benches, examples
/// and fuzz targets.
fn all_code() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "src",
        CORE_SRC,
        LIB_SRC,
        PLAY_SRC,
        SERVE_SRC,
        "tests",
        "benches",
        "examples",
        "fuzz/fuzz_targets",
    ] {
        walk(&root.join(dir), &mut files);
    }
    files
        .iter()
        .map(|f| code_only(&std::fs::read_to_string(f).unwrap()))
        .collect()
}

/// Public functions named nowhere but in their own definition: dead API,
/// which `pub` hides from the compiler's dead-code lint.
fn unused_pub_fns(sources: &[Source], all_code: &[String]) -> Vec<String> {
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for code in all_code {
        for word in code.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !word.is_empty() {
                *uses.entry(word).or_default() += 1;
            }
        }
    }
    let mut bad = Vec::new();
    for s in sources {
        for at in word_offsets(&s.code, "fn") {
            let mut before = s.code[..at].trim_end();
            while let Some(rest) = ["const", "unsafe", "async"]
                .iter()
                .find_map(|q| before.strip_suffix(q))
            {
                before = rest.trim_end();
            }
            let public = before.strip_suffix("pub").is_some_and(|rest| {
                !rest
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            if !public {
                continue;
            }
            let name = leading_ident(skip_space(&s.code, at + 2));
            if uses.get(name).copied().unwrap_or(0) <= 1 {
                bad.push(format!(
                    "{}:{}: pub fn {name} is used nowhere: remove it",
                    s.path,
                    line_at(&s.code, at)
                ));
            }
        }
    }
    bad
}

/// Files over [`MAX_LINES`] not in [`LONG_FILES`], and entries of
/// [`LONG_FILES`] that are short now (or gone).
fn length_violations(sources: &[Source], long_files: &[&str]) -> Vec<String> {
    let mut bad = Vec::new();
    for s in sources {
        let lines = s.code.lines().count();
        let allowed = long_files.contains(&s.path.as_str());
        if lines > MAX_LINES && !allowed {
            bad.push(format!(
                "{}:{}: {lines} lines, over the limit of {MAX_LINES}: split it by concern",
                s.path,
                MAX_LINES + 1
            ));
        } else if lines <= MAX_LINES && allowed {
            bad.push(format!(
                "{}: {lines} lines now: remove it from LONG_FILES in tests/it/tidy/mod.rs",
                s.path
            ));
        }
    }
    for f in long_files {
        if !sources.iter().any(|s| s.path == *f) {
            bad.push(format!(
                "{f}: gone: remove it from LONG_FILES in tests/it/tidy/mod.rs"
            ));
        }
    }
    bad
}

/// "only `a`, `b`" (or "only in `a`, `b`" given "in"), or "nothing".
fn only(names: &BTreeSet<String>, preposition: &str) -> String {
    if names.is_empty() {
        return "nothing".to_string();
    }
    let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match preposition {
        "" => format!("only {}", list.join(", ")),
        p => format!("only {p} {}", list.join(", ")),
    }
}

fn assert_none(rule: &str, violations: Vec<String>) {
    assert!(violations.is_empty(), "{rule}:\n{}", violations.join("\n"));
}

#[test]
fn binary_only_crates_stay_in_the_binary() {
    assert_none(
        "crates used outside the modules ARCHITECTURE.md allows",
        crate_violations(&sources(), &layers()),
    );
}

#[test]
fn imports_follow_the_layers() {
    assert_none(
        "imports that break the layering of ARCHITECTURE.md",
        import_violations(&sources(), &layers()),
    );
}

#[test]
fn the_core_crate_holds_what_the_layers_say() {
    assert_none(
        "the core crate's boundary",
        core_violations(&sources(), &layers()),
    );
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/Cargo.toml");
    assert_none(
        "the core crate's dependencies",
        core_dependency_violations(&std::fs::read_to_string(manifest).unwrap(), &layers()),
    );
}

#[test]
fn every_listed_module_exists() {
    let modules: BTreeSet<String> = sources().into_iter().map(|s| s.module).collect();
    let layers = layers();
    let listed = layers
        .imports
        .iter()
        .flat_map(|(m, allowed)| std::iter::once(m).chain(allowed.iter().flatten()))
        .chain(layers.crates.values().flatten())
        .chain(&layers.core_modules);
    let unknown: Vec<String> = listed
        .filter(|m| !modules.contains(*m))
        .map(|m| format!("ARCHITECTURE.md ## Layers names `{m}`, which is not a module of src/"))
        .collect();
    assert_none("stale rows", unknown);
}

#[test]
fn the_library_names_no_flags() {
    assert_none(
        "flags named outside src/cli/",
        flag_violations(&sources(), FLAG_NAMING_FILES),
    );
}

#[test]
fn every_pub_fn_is_used() {
    assert_none(
        "dead public functions",
        unused_pub_fns(&sources(), &all_code()),
    );
}

#[test]
fn no_import_cycles_inside_a_folder() {
    assert_none(
        "import cycles between the files of one folder",
        cycle_violations(&sources(), KNOWN_CYCLES),
    );
}

#[test]
fn files_stay_short() {
    assert_none("files too long", length_violations(&sources(), LONG_FILES));
}

/// The checks themselves: each catches what it is for, and neither a
/// comment nor a string trips it.
#[test]
fn the_checks_catch_violations() {
    let layers = parse_layers(
        "## Layers\n\n| module | may import |\n| --- | --- |\n| `game` | nothing |\n\
         | `eval` | `game` |\n| `train` | `eval` |\n| `cli` | any |\n\n\
         | crate | only in |\n| --- | --- |\n| `clap`, `anyhow` | `cli` |\n\n\
         | core crate | holds |\n| --- | --- |\n| `mnk-core` | `game`, `eval` |\n\n\
         | core crate | depends on |\n| --- | --- |\n| `mnk-core` | `rand`, `toml` |\n\n\
         ## Next\n| `train` | any |\n",
    );
    let source = |path: &str, text: &str| Source {
        path: path.to_string(),
        module: module_of(path).unwrap(),
        code: code_only(text),
        strings: strings_of(text),
    };
    let sources = [
        source(
            "src/game/board.rs",
            "//! Not `crate::eval` nor anyhow::Error in docs.\n\
             const S: &str = \"crate::eval, anyhow::bail\"; /* crate::eval */\n\
             use crate::game::Rules;\n\
             fn f<'a>(x: &'a str) -> char { let _ = r#\"anyhow::x\"#; '\"' }\n\
             use crate::{\n    eval::Weights,\n    game::Board,\n};\n",
        ),
        source(
            "src/eval/mod.rs",
            "use anyhow::Result;\nuse crate::game;\nfn f() { clap::x() }\n",
        ),
        source("src/main.rs", "use anyhow::Result;\nuse mnk::eval;\n"),
    ];
    assert_eq!(
        import_violations(&sources, &layers),
        ["src/game/board.rs:5: `game` imports `eval`, but ARCHITECTURE.md ## Layers lets `game` import nothing"]
    );
    assert_eq!(
        crate_violations(&sources, &layers),
        [
            "src/eval/mod.rs:1: `eval` uses `anyhow`, which ARCHITECTURE.md ## Layers allows only in `cli`",
            "src/eval/mod.rs:3: `eval` uses `clap`, which ARCHITECTURE.md ## Layers allows only in `cli`",
        ]
    );
    let misplaced = [
        source("crates/core/src/game/board.rs", ""),
        source("crates/core/src/train/mod.rs", ""),
        source("src/eval/mod.rs", ""),
    ];
    assert_eq!(
        core_violations(&misplaced, &layers),
        [
            "crates/core/src/train/mod.rs: module `train` is in the core crate, but ARCHITECTURE.md ## Layers does not list it under `| core crate | holds |`",
            "src/eval/mod.rs: module `eval` is listed in the core crate, but this file is outside it",
        ]
    );
    let upward = parse_layers(
        "## Layers\n| module | may import |\n| `game` | `train` |\n| crate | only in |\n\
         | `anyhow` | `cli` |\n| core crate | holds |\n| `mnk-core` | `game` |\n\
         | core crate | depends on |\n| `mnk-core` | `rand` |\n",
    );
    assert_eq!(
        core_violations(&[], &upward),
        ["ARCHITECTURE.md ## Layers lets core module `game` import only `train`, outside the core crate"]
    );
    assert_eq!(
        core_dependency_violations("[dependencies]\nrand = \"0.8\"\nclap = \"4\"\n", &layers),
        [
            "crates/core/Cargo.toml depends on `clap`, which ARCHITECTURE.md ## Layers does not allow the core crate",
            "ARCHITECTURE.md ## Layers lets the core crate depend on `toml`, which crates/core/Cargo.toml does not: remove the row",
        ]
    );
    let unlisted = [source("src/plot/mod.rs", "use crate::train;\n")];
    assert_eq!(
        import_violations(&unlisted, &layers),
        ["src/plot/mod.rs:1: module `plot` has no row in ARCHITECTURE.md ## Layers"]
    );
    let flags = [
        source(
            "src/train/x.rs",
            "// --force in a comment is fine\nconst A: &str = \"--- a rule ---\";\n\
             fn f() -> String { format!(\"pass --force to {}\", 1) }\n\
             const C: &str = \"continue with `mnk train --resume DIR`\";\n\
             #[cfg(test)]\nconst D: &str = \"brain --weights a.toml\";\n",
        ),
        source("src/cli/x.rs", "const B: &str = \"pass --force\";\n"),
    ];
    assert_eq!(
        flag_violations(&flags, &["src/eval/gone.rs"]),
        [
            "src/train/x.rs:3: the library names the flag --force: return a typed error and let src/cli/ word it",
            "src/eval/gone.rs: names no flag now: remove it from FLAG_NAMING_FILES in tests/it/tidy/mod.rs",
        ]
    );
    let api = [source(
        "src/game/x.rs",
        "pub fn used() {}\npub fn dead() {}\npub(crate) fn helper() { used() }\n/// dead()\n\
         fn private() {}\npub const fn also_dead() {}\n",
    )];
    let code: Vec<String> = api.iter().map(|s| s.code.clone()).collect();
    assert_eq!(
        unused_pub_fns(&api, &code),
        [
            "src/game/x.rs:2: pub fn dead is used nowhere: remove it",
            "src/game/x.rs:6: pub fn also_dead is used nowhere: remove it",
        ]
    );
    let hot = BTreeSet::from([
        "rayon".to_string(),
        "rand".to_string(),
        "either".to_string(),
    ]);
    let release: toml::Table = "[package.\"*\"]\nopt-level = 0\n[package.rayon]\nopt-level = 3\n\
        [package.rand]\nopt-level = 1\n"
        .parse()
        .unwrap();
    assert_eq!(
        slow_hot_violations(&release, &hot),
        [
            "Cargo.toml: [profile.release.package.\"*\"] builds the hot crate either at opt-level 0: give [profile.release.package.either] opt-level = 3",
            "Cargo.toml: [profile.release.package.rand] builds the hot crate rand at opt-level 1: give [profile.release.package.rand] opt-level = 3",
        ]
    );
    let plain: toml::Table = "opt-level = 3\n".parse().unwrap();
    assert!(slow_hot_violations(&plain, &hot).is_empty());
    let folder = [
        source(
            "crates/core/src/eval/mod.rs",
            "mod lines;\nmod sheet;\npub use lines::Lines;\n",
        ),
        source(
            "crates/core/src/eval/lines.rs",
            "use super::{shape::Pairs, sheet::Sheets};\nmod tests {\n    use super::*;\n}\n",
        ),
        source(
            "crates/core/src/eval/shape.rs",
            "// super::sheet\nuse crate::game;\n",
        ),
        source(
            "crates/core/src/eval/sheet.rs",
            "use super::shape::Pairs;\nfn f(_: super::Lines) {}\n",
        ),
    ];
    assert_eq!(
        cycle_violations(&folder, &["src/x: a, b"]),
        [
            "crates/core/src/eval: an import cycle: lines → sheet (crates/core/src/eval/lines.rs:1), sheet → lines (crates/core/src/eval/sheet.rs:2)",
            "src/x: a, b: no cycle now: remove it from KNOWN_CYCLES in tests/it/tidy/cycles.rs",
        ]
    );
    assert_eq!(
        cycle_violations(&folder, &["crates/core/src/eval: lines, sheet"]),
        Vec::<String>::new()
    );
    assert_eq!(cycle_violations(&folder[..3], &[]), Vec::<String>::new());
    let long = source("src/game/big.rs", &"x\n".repeat(MAX_LINES + 1));
    let bad = length_violations(&[long], &["src/game/gone.rs"]);
    assert_eq!(
        bad,
        [
            "src/game/big.rs:1001: 1001 lines, over the limit of 1000: split it by concern",
            "src/game/gone.rs: gone: remove it from LONG_FILES in tests/it/tidy/mod.rs",
        ]
    );
    assert_eq!(
        imports("use crate::{a::{b, c}, d};\nmnk :: e::f; $crate::g; pub(crate) fn h() {}"),
        [
            (4, "a".to_string()),
            (4, "d".to_string()),
            (27, "e".to_string()),
            (41, "g".to_string())
        ]
    );
}
