//! The game registry (issue 31): no tool outside a game's own folder switches on a game's name,
//! and each game's `GameInfo` agrees with the referee traces.

use serde_json::Value;
use std::path::{Path, PathBuf};
use twinsim_reference::registry::{GameId, Part, MODULES, NAMES};

/// The non-test sources that must ask the registry instead of naming a game.
const SOURCE_DIRS: [&str; 8] = [
    "src",
    "arena/src",
    "search/src",
    "fast/src",
    "reference/src",
    "obs/src",
    "python/src",
    "python/twinsim",
];

/// Whether `path` (relative to the workspace root) is one game's own file or folder: a path
/// component that is a game's module name or starts with it (`reference/src/zuniq/`,
/// `search/src/zuniq_mcts.rs`, `python/twinsim/jax/_wondev_woman.py`).
fn is_game_file(path: &Path) -> bool {
    path.components().any(|c| {
        let part = c.as_os_str().to_string_lossy();
        let part = part.trim_start_matches('_');
        MODULES.iter().any(|m| part.starts_with(m))
    })
}

/// Whether `path` is a test module's own file (`tests.rs`, `perft_tests.rs`: declared under
/// `#[cfg(test)]`), where games are named as data, like the `#[cfg(test)]` blocks skipped below.
fn is_test_file(path: &Path) -> bool {
    path.file_stem()
        .is_some_and(|stem| stem == "tests" || stem.to_string_lossy().ends_with("_tests"))
}

/// The lines of `text` that are code, not tests or documentation: Rust comments and
/// `#[cfg(test)] mod ... { ... }` blocks, Python comments and docstrings are left out.
fn code_lines(path: &Path, text: &str) -> Vec<(usize, String)> {
    let python = path.extension().is_some_and(|e| e == "py");
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    let mut in_docstring = false;
    while let Some((index, line)) = lines.next() {
        let trimmed = line.trim_start();
        if python {
            let quotes = line.matches("\"\"\"").count();
            if in_docstring || quotes > 0 {
                in_docstring ^= quotes % 2 == 1;
                continue;
            }
            if trimmed.starts_with('#') {
                continue;
            }
        } else {
            if trimmed.starts_with("//") {
                continue;
            }
            let test_module =
                lines.peek().is_some_and(|(_, next)| next.trim_start().starts_with("mod "));
            if trimmed == "#[cfg(test)]" && test_module {
                // Up to the module's closing brace, at the attribute's indentation.
                let indent = &line[..line.len() - trimmed.len()];
                let close = format!("{indent}}}");
                for (_, inner) in lines.by_ref() {
                    if inner == close {
                        break;
                    }
                }
                continue;
            }
        }
        out.push((index + 1, line.to_string()));
    }
    out
}

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "__pycache__") {
                source_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs" || e == "py") {
            out.push(path);
        }
    }
}

#[test]
fn no_game_name_is_switched_on_outside_the_game_folders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let needles: Vec<String> =
        NAMES.iter().chain(MODULES.iter()).map(|name| format!("\"{name}\"")).collect();
    let mut files = Vec::new();
    for dir in SOURCE_DIRS {
        source_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "only {} source files found under {SOURCE_DIRS:?}", files.len());
    let mut found = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(root).expect("under the root");
        if is_game_file(relative) || is_test_file(relative) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for (line_number, line) in code_lines(relative, &text) {
            if needles.iter().any(|needle| line.contains(needle.as_str())) {
                found.push(format!("{}:{line_number}: {}", relative.display(), line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "game names outside the game folders (ask twinsim_reference::registry instead):\n{}",
        found.join("\n")
    );
}

/// The grep above sees what it must: a name in code is found, in a comment or a test module not.
#[test]
fn the_grep_sees_code_and_skips_comments_and_tests() {
    let rust = "let a = \"zuniq\";\n// \"zuniq\"\n#[cfg(test)]\nmod tests {\n    \"zuniq\"\n}\nlet b = 1;\n";
    let lines = code_lines(Path::new("x.rs"), rust);
    let kept: Vec<usize> = lines.iter().map(|(n, _)| *n).collect();
    assert_eq!(kept, [1, 7]);
    let python =
        "x = \"olymbits\"\n\"\"\"A docstring\nnaming \"olymbits\".\"\"\"\n# \"olymbits\"\ny = 2\n";
    let kept: Vec<usize> = code_lines(Path::new("x.py"), python).iter().map(|(n, _)| *n).collect();
    assert_eq!(kept, [1, 5]);
    assert!(is_game_file(Path::new("search/src/zuniq_mcts.rs")));
    assert!(is_game_file(Path::new("reference/src/wondev_woman/trace.rs")));
    assert!(is_game_file(Path::new("python/twinsim/jax/_olymbits.py")));
    assert!(!is_game_file(Path::new("search/src/stdio.rs")));
}

/// Lines the init parts of `game`'s framing read from the start of `text`.
fn init_lines(game: GameId, text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let number = |at: usize| -> usize {
        lines.get(at).and_then(|l| l.trim().parse().ok()).unwrap_or_else(|| {
            panic!("{game}: line {at} of the init input is not a number: {text:?}")
        })
    };
    let mut numbers = Vec::new();
    let mut at = 0;
    for part in game.info().framing.init {
        at += match *part {
            Part::Lines(n, _) => n,
            Part::PerNumber { number, times, plus, .. } => times * numbers[number] + plus,
            Part::Counted(_) => 1 + number(at),
            Part::Number(_) => {
                numbers.push(number(at));
                1
            }
            Part::Seat(_) => 1,
        };
    }
    at
}

/// Each game's init framing reads exactly the init input of every shipped trace: its
/// `init_input` where the trace has one, else the `embedded_init_lines` at the start of the
/// first view (the referee's own trace files).
#[test]
fn init_framing_and_embedded_init_lines_match_the_traces() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for game in GameId::ALL {
        let info = game.info();
        let path = root.join("tests/traces").join(format!("{}.jsonl", info.name));
        let text = std::fs::read_to_string(&path).expect("a shipped trace file per game");
        let mut seats_checked = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let record: Value = serde_json::from_str(line).expect("a trace record");
            assert_eq!(record["game"], info.name);
            match record.get("init_input").and_then(Value::as_array) {
                Some(inputs) => {
                    for input in inputs.iter().filter_map(Value::as_str) {
                        let want = input.lines().count();
                        assert_eq!(init_lines(game, input), want, "{game}: {input:?}");
                        seats_checked += 1;
                    }
                }
                None => {
                    let views = record["initial_views"].as_array().expect("initial views");
                    for view in views.iter().filter_map(Value::as_str).filter(|v| !v.is_empty()) {
                        assert_eq!(init_lines(game, view), info.embedded_init_lines, "{game}");
                        seats_checked += 1;
                    }
                }
            }
        }
        assert!(seats_checked >= info.players, "{game}: only {seats_checked} seats checked");
    }
}
