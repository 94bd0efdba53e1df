//! Checks of the release profile: what it lowers serves only tests.

use super::assert_none;
use std::collections::BTreeSet;
use std::path::Path;

/// The packages a build of mnk or mnk-core links, from `cargo metadata`'s
/// resolve: everything reached from the workspace through normal and
/// build edges (dev edges only serve tests).
fn built_packages() -> BTreeSet<String> {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--all-features",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "{out:?}");
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = meta["resolve"]["nodes"].as_array().unwrap();
    let name_of = |id: &str| {
        let tail = id.rsplit(['#', '/']).next().unwrap_or(id);
        tail.split('@').next().unwrap_or(tail).to_string()
    };
    let mut todo: Vec<String> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let mut seen: BTreeSet<String> = todo.iter().cloned().collect();
    while let Some(id) = todo.pop() {
        let node = nodes.iter().find(|n| n["id"] == id.as_str()).unwrap();
        for dep in node["deps"].as_array().unwrap() {
            let built = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null() || k["kind"] == "build");
            let pkg = dep["pkg"].as_str().unwrap().to_string();
            if built && seen.insert(pkg.clone()) {
                todo.push(pkg);
            }
        }
    }
    seen.iter().map(|id| name_of(id)).collect()
}

/// The release profile lowers the optimisation of some test-only crates
/// (Cargo.toml says why); none of them may be one that mnk itself builds,
/// or the program would be slower for it.
#[test]
fn unoptimised_crates_serve_only_tests() {
    let manifest: toml::Table =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let lowered: Vec<String> = manifest["profile"]["release"]
        .get("package")
        .and_then(toml::Value::as_table)
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default();
    assert!(!lowered.is_empty(), "Cargo.toml lowers no test-only crate");
    let built = built_packages();
    assert!(
        built.contains("clap") && built.contains("rayon"),
        "{built:?}"
    );
    assert!(
        !built.contains("fantoccini"),
        "dev edges followed: {built:?}"
    );
    assert_none(
        "test-only profile overrides",
        lowered_violations(&lowered, &built),
    );
}

/// The lowered crates that a build of mnk links.
pub(super) fn lowered_violations(lowered: &[String], built: &BTreeSet<String>) -> Vec<String> {
    lowered
        .iter()
        .filter(|p| built.contains(*p))
        .map(|p| {
            format!(
                "Cargo.toml: [profile.release.package.{p}] lowers a crate that mnk itself builds"
            )
        })
        .collect()
}
