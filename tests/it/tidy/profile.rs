//! Checks of the release profile: the crates on the hot paths stay
//! optimised while the other dependencies are built unoptimised.

use super::assert_none;
use std::collections::BTreeSet;
use std::path::Path;

/// The dependencies the hot paths run (self-play's thread pool and its
/// seeded generators, the PNG encoder that plots every training run): they
/// and everything they depend on must be built at opt-level 3. (nalgebra,
/// CMA-ES's matrices, is generic: its code is compiled in mnk-lib.)
const HOT_ROOTS: [&str; 5] = ["rayon", "rand", "rand_xoshiro", "png", "plotters-bitmap"];

/// Crates a hot root depends on whose code mnk never runs, so they are
/// built unoptimised: png's zlib encoder (flate2, over miniz_oxide and
/// adler2, or zlib-rs with flate2's other backend), which png uses only
/// for compression levels other than `Fast`. The plots ask for `Fast`
/// ([`FAST_PNG`]), which png hands to fdeflate (hot).
const NEVER_RUN: [&str; 4] = ["flate2", "miniz_oxide", "adler2", "zlib-rs"];

/// Where the plots choose png's compression, and the call that keeps
/// [`NEVER_RUN`] true.
const FAST_PNG: (&str, &str) = (
    "crates/mnk/src/plot/output.rs",
    "set_compression(png::Compression::Fast)",
);

/// `cargo metadata`'s resolve for this machine's platform.
fn metadata() -> serde_json::Value {
    let rustc = std::process::Command::new(std::env::var("RUSTC").unwrap_or("rustc".into()))
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    let info = String::from_utf8(rustc.stdout).unwrap();
    let host = info
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host");
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--all-features",
            "--filter-platform",
            host,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The package name in a package id (`registry+…#rayon@1.12.0`,
/// `path+file:///…/crates/core#mnk-core@0.1.0`).
fn name_of(id: &str) -> String {
    let tail = id.rsplit(['#', '/']).next().unwrap_or(id);
    tail.split('@').next().unwrap_or(tail).to_string()
}

/// The package ids reached from `start` through normal edges, and through
/// build edges too when `build` is set (dev edges only serve tests).
fn reached(meta: &serde_json::Value, start: Vec<String>, build: bool) -> BTreeSet<String> {
    let nodes = meta["resolve"]["nodes"].as_array().unwrap();
    let mut seen: BTreeSet<String> = start.iter().cloned().collect();
    let mut todo = start;
    while let Some(id) = todo.pop() {
        let node = nodes.iter().find(|n| n["id"] == id.as_str()).unwrap();
        for dep in node["deps"].as_array().unwrap() {
            let follow = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null() || (build && k["kind"] == "build"));
            let pkg = dep["pkg"].as_str().unwrap().to_string();
            if follow && seen.insert(pkg.clone()) {
                todo.push(pkg);
            }
        }
    }
    seen
}

/// The hot crates: what a build of mnk or mnk-core links from
/// [`HOT_ROOTS`], and all their normal dependencies, by name.
fn hot_packages() -> BTreeSet<String> {
    let meta = metadata();
    let members: Vec<String> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let roots: Vec<String> = reached(&meta, members, true)
        .into_iter()
        .filter(|id| HOT_ROOTS.contains(&name_of(id).as_str()))
        .collect();
    assert_eq!(roots.len(), HOT_ROOTS.len(), "{roots:?}");
    reached(&meta, roots, false)
        .iter()
        .map(|id| name_of(id))
        .collect()
}

/// Every hot crate of the release profile (`[profile.release]` of
/// Cargo.toml) is built at opt-level 3.
#[test]
fn hot_crates_stay_optimised() {
    let manifest: toml::Table =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let release = manifest["profile"]["release"].as_table().unwrap();
    let mut hot = hot_packages();
    assert!(
        hot.contains("rayon-core") && hot.contains("rand_core"),
        "{hot:?}"
    );
    let plots =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(FAST_PNG.0)).unwrap();
    assert_none(
        "crates built unoptimised as never run",
        never_run_violations(&hot, &plots),
    );
    hot.retain(|name| !NEVER_RUN.contains(&name.as_str()));
    assert!(!hot.contains("clap") && !hot.contains("tokio"), "{hot:?}");
    assert_none(
        "hot crates built below opt-level 3",
        slow_hot_violations(release, &hot),
    );
    assert_none(
        "hot workspace libraries built below opt-level 3",
        slow_member_violations(release, &HOT_MEMBERS),
    );
}

/// What makes [`NEVER_RUN`] wrong: the plots no longer ask png for `Fast`
/// (`plots` is [`FAST_PNG`]'s file), or png no longer depends on a crate
/// of the list, which must then leave it. (zlib-rs is never built, but
/// `cargo metadata --all-features` lists it under flate2.)
fn never_run_violations(hot: &BTreeSet<String>, plots: &str) -> Vec<String> {
    let mut bad = Vec::new();
    if !plots.contains(FAST_PNG.1) {
        bad.push(format!(
            "{}: no `{}`: png's zlib encoder runs now, so take {NEVER_RUN:?} out of NEVER_RUN in tests/it/tidy/profile.rs and give them opt-level 3 in Cargo.toml",
            FAST_PNG.0, FAST_PNG.1
        ));
    }
    for name in NEVER_RUN.iter().filter(|n| !hot.contains(**n)) {
        bad.push(format!(
            "{name}: no longer a dependency of a hot crate: remove it from NEVER_RUN in tests/it/tidy/profile.rs"
        ));
    }
    bad
}

/// The never-run check fires when the plots change compression or a listed
/// crate leaves the dependencies.
#[test]
fn the_never_run_check_catches_a_stale_list() {
    let hot: BTreeSet<String> = NEVER_RUN.iter().map(|n| n.to_string()).collect();
    let fast = format!("encoder.{};", FAST_PNG.1);
    assert!(never_run_violations(&hot, &fast).is_empty());
    let best = fast.replace("Fast", "Best");
    assert_eq!(never_run_violations(&hot, &best).len(), 1);
    let mut fewer = hot.clone();
    fewer.remove("adler2");
    assert_eq!(
        never_run_violations(&fewer, &fast),
        ["adler2: no longer a dependency of a hot crate: remove it from NEVER_RUN in tests/it/tidy/profile.rs"]
    );
}

/// The workspace's packages that hold the hot paths (the search, the
/// evaluator, self-play, the training loop and the plots). The binary's
/// package only calls them, and is built lower (Cargo.toml says what
/// that was measured to cost). Unlike a dependency,
/// `[profile.release.package."*"]` does not apply to them.
const HOT_MEMBERS: [&str; 2] = ["mnk-core", "mnk-lib"];

/// The workspace members of `members` that `release` builds at an
/// opt-level other than 3: their own `[profile.release.package.NAME]`,
/// else the profile's own.
fn slow_member_violations(release: &toml::Table, members: &[&str]) -> Vec<String> {
    let packages = release.get("package").and_then(toml::Value::as_table);
    members
        .iter()
        .filter_map(|name| {
            let own = packages
                .and_then(|p| p.get(*name))
                .and_then(|t| t.get("opt-level"));
            let (source, value) = match (own, release.get("opt-level")) {
                (Some(v), _) => (format!("[profile.release.package.{name}]"), v),
                (None, Some(v)) => ("[profile.release]".to_string(), v),
                (None, None) => return None,
            };
            (value.as_integer() != Some(3)).then(|| {
                format!("Cargo.toml: {source} builds the hot library {name} at opt-level {value}: keep it at 3")
            })
        })
        .collect()
}

/// The member check fires on a slow hot library and not on the others.
#[test]
fn the_member_check_catches_a_slow_hot_library() {
    let release: toml::Table = "[package.mnk-lib]\nopt-level = 1\n[package.mnk-serve]\nopt-level = 1\n[package.\"*\"]\nopt-level = 0\n"
        .parse()
        .unwrap();
    assert_eq!(
        slow_member_violations(&release, &HOT_MEMBERS),
        ["Cargo.toml: [profile.release.package.mnk-lib] builds the hot library mnk-lib at opt-level 1: keep it at 3"]
    );
}

/// The hot crates that `release` (a `[profile.release]` table) builds at
/// an opt-level other than 3: their own `[profile.release.package.NAME]`,
/// else `[profile.release.package."*"]`, else the profile's own.
pub(super) fn slow_hot_violations(release: &toml::Table, hot: &BTreeSet<String>) -> Vec<String> {
    let packages = release.get("package").and_then(toml::Value::as_table);
    let level = |table: Option<&toml::Value>| table.and_then(|t| t.get("opt-level")).cloned();
    hot.iter()
        .filter_map(|name| {
            let own = level(packages.and_then(|p| p.get(name)));
            let all = level(packages.and_then(|p| p.get("*")));
            let (source, value) = match (own, all, release.get("opt-level")) {
                (Some(v), _, _) => (format!("[profile.release.package.{name}]"), v),
                (None, Some(v), _) => ("[profile.release.package.\"*\"]".to_string(), v),
                (None, None, Some(v)) => ("[profile.release]".to_string(), v.clone()),
                (None, None, None) => return None,
            };
            (value.as_integer() != Some(3)).then(|| {
                format!(
                    "Cargo.toml: {source} builds the hot crate {name} at opt-level {value}: give [profile.release.package.{name}] opt-level = 3"
                )
            })
        })
        .collect()
}
