//! The documentation holds together: every relative link in `docs/` and the README points at a
//! file that exists (and at a heading that exists, for `#anchor` links), every protocol page links
//! to its game's rulebook, and every rule section (`§N`, `§N.M`, `§Na`) that the engines' doc
//! comments cite exists in that rulebook (`docs/rules/<game>.md`), so a reader can open it.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The games: their rulebook's file stem and their module name in the engine crates.
const GAMES: [(&str, &str); 5] = [
    ("xmas-rush", "xmas_rush"),
    ("photosynthesis", "photosynthesis"),
    ("zuniq", "zuniq"),
    ("olymbits", "olymbits"),
    ("wondev-woman", "wondev_woman"),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file under `dir` (recursively) whose name ends with `suffix`.
fn files_under(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path, suffix));
        } else if path.to_string_lossy().ends_with(suffix) {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// The lines of a page with whether each lies inside a fenced code block (fences excluded).
fn lines_with_code_flag(markdown: &str) -> Vec<(bool, &str)> {
    let mut in_code_block = false;
    let mut lines = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code_block = !in_code_block;
        } else {
            lines.push((in_code_block, line));
        }
    }
    lines
}

/// The targets of the inline Markdown links `[text](target)` of a page, code blocks skipped.
fn link_targets(markdown: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for (_, line) in lines_with_code_flag(markdown).into_iter().filter(|(code, _)| !code) {
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            let after = &rest[start + 2..];
            let Some(end) = after.find(')') else { break };
            targets.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    targets
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn headings(markdown: &str) -> Vec<&str> {
    lines_with_code_flag(markdown)
        .into_iter()
        .filter(|(code, line)| !code && line.starts_with('#'))
        .map(|(_, line)| line.trim_start_matches('#').trim())
        .collect()
}

/// The pages a user reads: `docs/` and the two READMEs.
fn documentation_pages() -> Vec<PathBuf> {
    let mut pages = files_under(&root().join("docs"), ".md");
    pages.push(root().join("README.md"));
    pages.push(root().join("python/README.md"));
    pages
}

#[test]
fn every_relative_link_in_the_docs_resolves() {
    let pages = documentation_pages();
    let mut broken = Vec::new();
    for page in &pages {
        for target in link_targets(&read(page)) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let resolved =
                if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
            if !resolved.exists() {
                broken.push(format!("{}: {target} (no such file)", page.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                let text = read(&resolved);
                if !headings(&text).iter().any(|h| anchor_of(h) == anchor) {
                    broken.push(format!("{}: {target} (no such heading)", page.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_protocol_page_links_to_its_rulebook() {
    for (stem, _) in GAMES {
        let page = read(&root().join(format!("docs/protocol/{stem}.md")));
        let link = format!("](../rules/{stem}.md)");
        assert!(page.contains(&link), "docs/protocol/{stem}.md does not link {link}");
    }
}

/// The sections cited as `§…` in a text: `§4`, `§4.3`, `§13a`.
fn cited_sections(text: &str) -> BTreeSet<String> {
    let mut cited = BTreeSet::new();
    for (position, _) in text.match_indices('§') {
        let after = &text[position + '§'.len_utf8()..];
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        if digits.is_empty() {
            continue;
        }
        let rest = &after[digits.len()..];
        let mut section = digits;
        if let Some(sub) = rest.strip_prefix('.') {
            let sub: String = sub.chars().take_while(char::is_ascii_digit).collect();
            if !sub.is_empty() {
                section = format!("{section}.{sub}");
            }
        } else if let Some(letter) = rest.chars().next().filter(char::is_ascii_lowercase) {
            // `§4a`, but not the first letter of a following word (`§4and`).
            if !rest.chars().nth(1).is_some_and(|c| c.is_ascii_alphanumeric()) {
                section.push(letter);
            }
        }
        cited.insert(section);
    }
    cited
}

/// Whether `section` exists in a rulebook: a heading that starts with its number (`## 4.`,
/// `### 4.3`, `### 4a.`), or, for `N.M`, item `M.` of a numbered list in section `N`.
fn has_section(rulebook: &str, section: &str) -> bool {
    let number_of = |heading: &str| {
        let first = heading.split_whitespace().next().unwrap_or("");
        first.trim_end_matches('.').to_string()
    };
    if headings(rulebook).iter().any(|h| number_of(h) == section) {
        return true;
    }
    let Some((parent, item)) = section.split_once('.') else {
        return false;
    };
    let mut in_parent = false;
    for line in rulebook.lines() {
        if line.starts_with("## ") {
            in_parent = number_of(line.trim_start_matches('#').trim()) == parent;
        } else if in_parent && line.trim_start().starts_with(&format!("{item}. ")) {
            return true;
        }
    }
    false
}

#[test]
fn every_section_the_engines_cite_exists_in_the_rulebook() {
    let mut missing = Vec::new();
    for (stem, module) in GAMES {
        let rulebook = read(&root().join(format!("docs/rules/{stem}.md")));
        let mut sources = Vec::new();
        for krate in ["reference", "fast"] {
            let dir = root().join(krate).join("src").join(module);
            sources.extend(files_under(&dir, ".rs"));
            let single = root().join(krate).join("src").join(format!("{module}.rs"));
            if single.exists() {
                sources.push(single);
            }
        }
        assert!(!sources.is_empty(), "no engine sources for {stem}");
        for source in sources {
            for section in cited_sections(&read(&source)) {
                if !has_section(&rulebook, &section) {
                    missing.push(format!(
                        "{} cites §{section}, not in docs/rules/{stem}.md",
                        source.strip_prefix(root()).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_rulebook_path_named_in_the_sources_exists() {
    let mut sources = Vec::new();
    for krate in ["reference/src", "fast/src", "search/src", "src", "docs", "python"] {
        sources.extend(files_under(&root().join(krate), ".rs"));
        sources.extend(files_under(&root().join(krate), ".md"));
        sources.extend(files_under(&root().join(krate), ".py"));
    }
    let mut missing = Vec::new();
    for source in sources {
        let text = read(&source);
        for (position, _) in text.match_indices("docs/rules/") {
            let name: String = text[position..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "/-_.<>".contains(*c))
                .collect();
            let name = name.trim_end_matches('.');
            if name.contains('<') || !name.ends_with(".md") {
                continue; // a pattern such as `docs/rules/<game>.md`
            }
            if !root().join(name).exists() {
                missing.push(format!("{}: {name}", source.display()));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_section_parser_reads_the_forms_the_comments_use() {
    let cited = cited_sections("see §4, §4.3 and §13a; also §5–§6. §2and");
    let expected: BTreeSet<String> =
        ["4", "4.3", "13a", "5", "6", "2"].into_iter().map(String::from).collect();
    assert_eq!(cited, expected);
    let book = "## 4. Setup\n### 4a. Holes\n## 12. Pitfalls\n1. one\n2. two\n## 13. Next\n";
    assert!(has_section(book, "4a"));
    assert!(has_section(book, "12.2"));
    assert!(!has_section(book, "12.3"));
    assert!(!has_section(book, "13.1"));
    assert_eq!(anchor_of("5.3 No repeated zone size"), "53-no-repeated-zone-size");
}

/// The paths the documented commands write to (`--out P`, `-o P`, `--output P` in code blocks),
/// except absolute ones.
fn output_paths(markdown: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for (_, line) in lines_with_code_flag(markdown).into_iter().filter(|(code, _)| *code) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            if ["--out", "-o", "--output"].contains(&pair[0]) && !pair[1].starts_with('/') {
                paths.push(pair[1].trim_matches(['"', '\'']).to_string());
            }
        }
    }
    paths
}

/// A newcomer who copies the README's commands leaves no untracked file behind: everything they
/// write lands in a folder git ignores.
#[test]
fn documented_commands_write_only_where_git_ignores() {
    let pages = documentation_pages();
    let mut outputs = Vec::new();
    for page in &pages {
        outputs.extend(output_paths(&read(page)));
    }
    assert!(
        outputs.iter().any(|p| p.ends_with(".html")),
        "the README's view examples: {outputs:?}"
    );
    for path in outputs {
        let ignored = Command::new("git")
            .args(["check-ignore", "-q", "--no-index"])
            .arg(&path)
            .current_dir(root())
            .status()
            .expect("git runs (the test reads the repository's .gitignore through it)");
        assert!(ignored.success(), "a documented command writes {path}, which git does not ignore");
    }
}
