//! A few games of each shipped trace file, for the tests that check what a command does with
//! traces rather than the replay itself (the whole corpus goes through both engines once, in
//! `conformance`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Games per game that [`trace_subset`] keeps from each shipped trace file.
pub const TRACE_SUBSET_GAMES: usize = 3;

/// A directory holding the first [`TRACE_SUBSET_GAMES`] games of every shipped trace file
/// (`tests/traces/<game>.jsonl`), written once per test run. The whole corpus goes through both
/// engines once, in `conformance`; the CLI tests that only check what `verify` and `replay` do
/// with traces read this subset instead of replaying the 27 MB again.
pub fn trace_subset() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces");
        let dir = std::env::temp_dir().join(format!("twinsim-trace-subset-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("subset directory created");
        let mut files = 0;
        for entry in std::fs::read_dir(&shipped).expect("tests/traces is shipped") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                let text = std::fs::read_to_string(&path).expect("a trace file");
                let first: Vec<&str> =
                    text.lines().filter(|l| !l.is_empty()).take(TRACE_SUBSET_GAMES).collect();
                assert_eq!(first.len(), TRACE_SUBSET_GAMES, "{}", path.display());
                let subset = dir.join(path.file_name().expect("a file name"));
                std::fs::write(subset, first.join("\n") + "\n").expect("subset written");
                files += 1;
            }
        }
        assert_eq!(files, 5, "one trace file per game in {}", shipped.display());
        dir
    })
}
