//! Helpers shared by the integration tests (`crate::common` in the `all` test binary).

use std::path::{Path, PathBuf};

/// The built example `name`, beside the running test's binary (`target/<profile>/examples/`).
/// Refused when missing, and when older than a source file it was built from: `cargo test
/// --test <name>` builds no example, so after an edit it would run the example of before (a
/// stale Zuniq example once made its bundle look like it played differently from its source).
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>");
    let path = profile_dir.join("examples").join(name);
    assert!(
        path.exists(),
        "{} is missing: build the examples first (`cargo test` does; `cargo build --examples`)",
        path.display()
    );
    if let Some(source) = newer_source(&path) {
        panic!(
            "{} is older than {}: rebuild the examples (`cargo build --examples`, or a plain \
             `cargo test`; `cargo test --test NAME` does not build them)",
            path.display(),
            source.display()
        );
    }
    path
}

/// A source file newer than the executable `exe`, among those its dep-info file (`exe.d`,
/// written by cargo beside it: `target: source source ...`, spaces in paths escaped) names;
/// the dep-info file itself when it is missing.
pub fn newer_source(exe: &Path) -> Option<PathBuf> {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let built = modified(exe)?;
    let dep_info = exe.with_extension("d");
    let Ok(text) = std::fs::read_to_string(&dep_info) else {
        return Some(dep_info);
    };
    let first_line = text.lines().next().unwrap_or("");
    let sources = first_line.split_once(": ").map_or("", |(_, s)| s);
    let mut paths = Vec::new();
    let mut current = String::new();
    let mut chars = sources.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => current.extend(chars.next()),
            ' ' => paths.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    paths.push(current);
    paths
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .find(|p| modified(p).is_none_or(|m| m > built))
}
