//! The rule against import cycles inside a folder: the files and
//! subfolders of one folder import one another one way only, so each can
//! be read (and changed) with what it imports, and nothing loops back.
//! Layers between top-level modules are the `## Layers` table's job.

use super::{
    leading_ident, line_at, skip_space, word_offsets, Source, CORE_SRC, LIB_SRC, PLAY_SRC,
    SERVE_SRC,
};
use std::collections::{BTreeMap, BTreeSet};

/// Cycles found when this rule came, each as `folder: module, module`,
/// left to the files' owners (train/ is being reworked). The list may only
/// shrink: a cycle that is gone must leave it.
pub(super) const KNOWN_CYCLES: &[&str] = &[
    "crates/mnk/src/train: plateau, record",
    "crates/mnk/src/train: rundir, trainer",
];

/// A module path inside one crate: the crate's source folder, then the
/// module names (`crates/core/src/eval/lines.rs` → `crates/core/src/`,
/// `eval`, `lines`).
type Module = Vec<String>;

/// The module of a source file: its crate's folder and its path (`mod.rs`
/// is its folder's module; `lib.rs` and `main.rs` are the crate's root).
fn module_path(path: &str) -> Option<Module> {
    let (root, rest) = [CORE_SRC, LIB_SRC, PLAY_SRC, SERVE_SRC, "src/"]
        .iter()
        .find_map(|r| Some((*r, path.strip_prefix(r)?)))?;
    let mut m: Module = vec![root.to_string()];
    m.extend(rest.trim_end_matches(".rs").split('/').map(String::from));
    if matches!(m.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        m.pop();
    }
    Some(m)
}

/// The paths a path or `use` tree at the start of `s` names, each as its
/// segments: `a::{b, c::{d, self}}` gives `a b`, `a c d` and `a c self`.
fn paths(s: &str) -> Vec<Vec<String>> {
    let mut segments = Vec::new();
    let mut rest = s.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut out = Vec::new();
            let (mut depth, mut start) = (0, 0);
            for (k, ch) in group.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' if depth > 0 => depth -= 1,
                    ',' | '}' => {
                        for p in paths(&group[start..k]) {
                            out.push([segments.clone(), p].concat());
                        }
                        if ch == '}' {
                            break;
                        }
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            return out;
        }
        let id = leading_ident(rest);
        if id.is_empty() {
            break;
        }
        segments.push(id.to_string());
        match rest[id.len()..].trim_start().strip_prefix("::") {
            Some(r) => rest = r.trim_start(),
            None => break,
        }
    }
    if segments.is_empty() {
        Vec::new()
    } else {
        vec![segments]
    }
}

/// The inline `mod NAME { … }` blocks of a file's code: name and byte
/// range, so that a `super::` inside `mod tests` means the file itself.
fn inline_mods(code: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut found = Vec::new();
    for at in word_offsets(code, "mod") {
        let after = skip_space(code, at + 3);
        let name = leading_ident(after);
        let open = code.len() - after.len() + name.len();
        if name.is_empty() || !code[open..].trim_start().starts_with('{') {
            continue;
        }
        let open = open + code[open..].find('{').unwrap();
        let mut depth = 0;
        for (k, ch) in code[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        found.push((name.to_string(), open..open + k));
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    found
}

/// Every module path a file names through `crate::`, `self::` or
/// `super::`, made absolute, with the byte offset it is named at.
fn named_modules(s: &Source) -> Vec<(usize, Module)> {
    let Some(file) = module_path(&s.path) else {
        return Vec::new();
    };
    let mods = inline_mods(&s.code);
    let mut found = Vec::new();
    for root in ["crate", "self", "super"] {
        for at in word_offsets(&s.code, root) {
            let Some(rest) = skip_space(&s.code, at + root.len()).strip_prefix("::") else {
                continue;
            };
            let mut here = file.clone();
            here.extend(
                mods.iter()
                    .filter(|(_, r)| r.contains(&at))
                    .map(|(n, _)| n.clone()),
            );
            let base = match root {
                "crate" => here[..1].to_vec(),
                "self" => here.clone(),
                _ => here[..here.len() - 1].to_vec(),
            };
            for p in paths(rest) {
                let mut target = base.clone();
                for seg in p {
                    match seg.as_str() {
                        "super" => {
                            target.pop();
                        }
                        "self" => {}
                        _ => target.push(seg),
                    }
                }
                found.push((at, target));
            }
        }
    }
    found
}

/// Folders (modules with children) and their children, and per folder the
/// names its `mod.rs` re-exports from a child (`pub use lines::Lines`:
/// `Lines` → `lines`).
fn folders(sources: &[Source]) -> BTreeMap<Module, (BTreeSet<String>, BTreeMap<String, String>)> {
    let mut out: BTreeMap<Module, (BTreeSet<String>, BTreeMap<String, String>)> = BTreeMap::new();
    for s in sources {
        let Some(m) = module_path(&s.path) else {
            continue;
        };
        for n in 1..m.len() {
            out.entry(m[..n].to_vec())
                .or_default()
                .0
                .insert(m[n].clone());
        }
    }
    for s in sources {
        let Some(m) = module_path(&s.path) else {
            continue;
        };
        let Some((children, exports)) = out.get_mut(&m) else {
            continue;
        };
        for at in word_offsets(&s.code, "use") {
            if !s.code[..at].trim_end().ends_with(')') && !s.code[..at].trim_end().ends_with("pub")
            {
                continue;
            }
            for p in paths(skip_space(&s.code, at + 3)) {
                let p: Vec<&String> = p.iter().filter(|x| *x != "self").collect();
                if p.len() >= 2 && children.contains(p[0]) {
                    exports.insert(p[p.len() - 1].clone(), p[0].clone());
                }
            }
        }
    }
    out
}

/// Import cycles between the children of one folder below a crate's root
/// (`a` names `b`, a module of it or an item the folder's `mod.rs`
/// re-exports from it, and `b`, directly or through others, names `a`)
/// but those in `known`, and entries of `known` that are no cycle now.
pub(super) fn cycle_violations(sources: &[Source], known: &[&str]) -> Vec<String> {
    let folders = folders(sources);
    // Per folder, child → child → where the first such import is.
    let mut edges: BTreeMap<&Module, BTreeMap<(String, String), String>> = BTreeMap::new();
    for s in sources {
        let Some(file) = module_path(&s.path) else {
            continue;
        };
        for (at, target) in named_modules(s) {
            let common = file.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common < 2 || common >= file.len() || common >= target.len() {
                continue;
            }
            let Some((folder, (children, exports))) = folders.get_key_value(&file[..common]) else {
                continue;
            };
            let from = &file[common];
            let name = &target[common];
            let to = if children.contains(name) {
                name
            } else if let Some(child) = exports.get(name) {
                child
            } else {
                continue;
            };
            if to != from {
                edges
                    .entry(folder)
                    .or_default()
                    .entry((from.clone(), to.clone()))
                    .or_insert_with(|| format!("{}:{}", s.path, line_at(&s.code, at)));
            }
        }
    }
    let (mut bad, mut seen) = (Vec::new(), BTreeSet::new());
    for (folder, e) in edges {
        let folder = format!("{}{}", folder[0], folder[1..].join("/"));
        let reach = |from: &String| {
            let mut seen = BTreeSet::from([from.clone()]);
            let mut todo = vec![from.clone()];
            while let Some(a) = todo.pop() {
                for (x, y) in e.keys() {
                    if *x == a && seen.insert(y.clone()) {
                        todo.push(y.clone());
                    }
                }
            }
            seen
        };
        let nodes: BTreeSet<&String> = e.keys().flat_map(|(a, b)| [a, b]).collect();
        let mut done = BTreeSet::new();
        for n in nodes {
            if done.contains(n) {
                continue;
            }
            let from_n = reach(n);
            let cycle: BTreeSet<String> = from_n
                .into_iter()
                .filter(|m| reach(m).contains(n))
                .collect();
            done.extend(cycle.iter().cloned());
            if cycle.len() < 2 {
                continue;
            }
            let name = format!("{folder}: {}", Vec::from_iter(cycle.clone()).join(", "));
            if known.contains(&name.as_str()) {
                seen.insert(name);
                continue;
            }
            let links: Vec<String> = e
                .iter()
                .filter(|((a, b), _)| cycle.contains(a) && cycle.contains(b))
                .map(|((a, b), at)| format!("{a} → {b} ({at})"))
                .collect();
            bad.push(format!("{folder}: an import cycle: {}", links.join(", ")));
        }
    }
    for k in known.iter().filter(|k| !seen.contains(**k)) {
        bad.push(format!(
            "{k}: no cycle now: remove it from KNOWN_CYCLES in tests/it/tidy/cycles.rs"
        ));
    }
    bad
}
