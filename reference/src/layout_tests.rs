//! The module template of the reference games (issue 31): inside a game, `rules` (typed rules) and
//! `protocol` (the lines read and printed) never import each other both ways, and neither imports
//! the `referee` (the text-level turn that reads a line with `protocol` and applies it with
//! `rules` sits above both). Checked on the sources, since an import cycle inside one crate
//! compiles.

use std::fs;
use std::path::{Path, PathBuf};

/// The code of a source file that imports: no comment lines (doc links are not imports), and no
/// unit-test module (a test may use anything).
fn import_code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    code_lines(&text)
}

/// [`import_code`] of a file's text.
fn code_lines(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    text.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Whether `code` (a file of game `game`) names its sibling module `module`: a path through
/// `super::` or `crate::<game>::`, or a name in a `use super::{...}` group.
fn names_module(code: &str, game: &str, module: &str) -> bool {
    let by_path =
        [format!("super::{module}"), format!("crate::{game}::{module}")].iter().any(|prefix| {
            code.match_indices(prefix.as_str()).any(|(at, _)| {
                let next = code[at + prefix.len()..].chars().next();
                !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        });
    let in_group = code.match_indices("use super::{").any(|(at, _)| {
        let group = &code[at..];
        let group = &group[..group.find('}').unwrap_or(group.len())];
        group.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|word| word == module)
    });
    by_path || in_group
}

/// Every game folder of `src/` (a folder with a `rules.rs` and a `protocol.rs`).
fn game_folders() -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders: Vec<PathBuf> = fs::read_dir(&src)
        .expect("reference/src is readable")
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|dir| dir.join("rules.rs").is_file() && dir.join("protocol.rs").is_file())
        .collect();
    folders.sort();
    folders
}

#[test]
fn every_game_is_found() {
    assert_eq!(game_folders().len(), 5, "{:?}", game_folders());
}

#[test]
fn rules_and_protocol_do_not_import_each_other_both_ways() {
    let mut cycles = vec![];
    for folder in game_folders() {
        let game = folder.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let rules = import_code(&folder.join("rules.rs"));
        let protocol = import_code(&folder.join("protocol.rs"));
        if names_module(&rules, &game, "protocol") && names_module(&protocol, &game, "rules") {
            cycles.push(format!("{game}: rules <-> protocol"));
        }
        for (name, code) in [("rules", &rules), ("protocol", &protocol)] {
            if names_module(code, &game, "referee") {
                cycles.push(format!("{game}: {name} -> referee"));
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles in the reference games: {cycles:?}");
}

#[test]
fn the_scan_sees_each_form_of_import() {
    assert!(names_module("use super::protocol::{self, Word};", "g", "protocol"));
    assert!(names_module("use super::protocol;", "g", "protocol"));
    assert!(names_module("x = crate::g::protocol::parse_line(l);", "g", "protocol"));
    assert!(names_module("use super::{board, protocol};", "g", "protocol"));
    assert!(!names_module("use super::protocols::X;", "g", "protocol"));
    assert!(!names_module("use super::{board, state};", "g", "protocol"));
    let text = "//! [`super::protocol::views`]\nuse super::state;\n#[cfg(test)]\nmod tests {\n    use super::super::protocol;\n}\n";
    assert!(!names_module(&code_lines(text), "g", "protocol"));
    assert!(names_module(&code_lines(&text.replace("state", "protocol")), "g", "protocol"));
}
