//! The rules of the `#[ignore]`d tests, which `.ci/run` runs in release from this binary alone,
//! in three groups (see `main.rs`): a check that lands elsewhere would never run, a clock-bound
//! check among the deterministic ones would compete for the cores with the others, and a clock in
//! the lowest-priority lane (`clock_free`) would be starved into timeouts.

use std::path::{Path, PathBuf};

/// An `#[ignore]`d test found in the sources: where, its name, the attribute's reason.
#[derive(Debug)]
struct Ignored {
    file: PathBuf,
    name: String,
    reason: String,
}

/// Every `.rs` file under `dir`, but `target/` and hidden folders.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&path, found);
            }
        } else if name.ends_with(".rs") {
            found.push(path);
        }
    }
}

/// The `#[ignore]` attributes of `text` (a line that starts with one, once trimmed), each with
/// the name of the next `fn` and the quoted reason (empty for a bare `#[ignore]`).
fn ignored_in(file: &Path, text: &str) -> Vec<Ignored> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !line.starts_with("#[ignore") {
            continue;
        }
        let reason = line.split_once('"').and_then(|(_, r)| r.rsplit_once('"')).map_or("", |r| r.0);
        let name = lines[i + 1..]
            .iter()
            .find_map(|l| l.strip_prefix("fn ").or_else(|| l.strip_prefix("pub fn ")))
            .and_then(|l| l.split('(').next())
            .unwrap_or("")
            .to_string();
        found.push(Ignored { file: file.to_path_buf(), name, reason: reason.to_string() });
    }
    found
}

fn workspace_ignored() -> Vec<Ignored> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(root, &mut files);
    files.sort();
    files
        .iter()
        .flat_map(|f| {
            ignored_in(f.strip_prefix(root).unwrap(), &std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

#[test]
fn every_ignored_test_is_in_this_binary_and_names_its_group() {
    let ignored = workspace_ignored();
    assert!(ignored.len() >= 20, "the scan found only {ignored:?}");
    for test in &ignored {
        assert!(
            test.file.starts_with("tests/release"),
            "{test:?}: .ci/run runs the #[ignore]d tests of tests/release/ only; move it there"
        );
        let timing = test.reason.starts_with("timing");
        assert!(
            timing || test.reason.starts_with("deterministic"),
            "{test:?}: the reason starts with \"timing\" (a clock decides the result: it runs \
             alone) or \"deterministic\" (iteration budgets: it runs beside the others)"
        );
        assert_eq!(
            test.name.starts_with("timing_"),
            timing,
            "{test:?}: a timing check's name starts with timing_ (the filter of .ci/run's serial \
             group), and only a timing check's"
        );
    }
}

#[test]
fn the_scan_reads_attributes_names_and_reasons() {
    // Built from pieces, so that no line of this file starts with the attribute it scans for.
    let text = [
        "#[test]",
        "    #[ignore = \"timing: why\"]",
        "    /// doc",
        "    fn timing_a() {}",
        "#[ignore]",
        "pub fn b() {}",
        "// #[ignore] in a comment",
    ]
    .join("\n");
    let found = ignored_in(Path::new("x.rs"), &text);
    let seen: Vec<(&str, &str)> =
        found.iter().map(|t| (t.name.as_str(), t.reason.as_str())).collect();
    assert_eq!(seen, [("timing_a", "timing: why"), ("b", "")]);
}

/// The background lane runs `clock_free::*` at nice 19 beside the test command: a starved
/// thread there must only take longer, so nothing in that file may read or set a clock.
#[test]
fn the_clock_free_checks_read_no_clock() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/release/clock_free.rs");
    let text = std::fs::read_to_string(path).unwrap();
    let code: String =
        text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    for clock in ["Instant", "Duration", "SystemTime", "time_scale", "arena", "deadline", "ms="] {
        assert!(!code.contains(clock), "clock_free.rs mentions {clock}: move that check elsewhere");
    }
    assert!(ignored_in(Path::new("clock_free.rs"), &text).len() >= 2);
}
