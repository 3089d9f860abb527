//! `twinsim bundle`: one self-contained source file from a bot built on our crates, for contests
//! that compile a single file with plain `rustc` (CodinGame: at most 100,000 characters).
//!
//! A module inliner, not a compiler: the bot file is the crate root; each of our crates it names
//! (`twinsim_reference`, `twinsim_fast`, `twinsim_search`) becomes a module of that name at the
//! root, its `mod x;` declarations replaced by the files' contents, recursively. Inside a crate's
//! modules `crate::` becomes `crate::<that crate>::`, and the crates' names become
//! `crate::<name>::`. The crates are read as built with `default-features = false`: an item
//! under a `#[cfg]` that is false then (`test`, any `feature = "..."`) is left out, and so is
//! every `#[test]` function.
//!
//! Only the one game the bot uses is kept: the other games' modules are left out (a game's
//! module is `<game>` or `<game>_<part>`, as `zuniq_mcts` and `photosynthesis_days`), and with them
//! every item of a shared module that names one of them in a path (`olymbits::State`), or in a
//! `use` (so the searches' dispatch over all games, `bot::make_player`, goes). Shared top-level
//! modules the kept code never names are left out too (an over-approximation by identifier: a
//! module is kept when its name occurs as an identifier in kept code). Compile-time assertions
//! (`const _: () = assert!(...)`) are left out: the crates check them when they build, and in the
//! bundle they would keep alive the items they name (Photosynthesis' `SearchState`, 8 KB).
//!
//! Methods of our traits that no kept code calls are dropped from the trait and from its impls
//! (a method is called when its name occurs outside the functions of that name): every typed
//! game must implement `Game::new_game`, and a bot that plays from its views never sets a game
//! up, so without this each bundle carried its game's setup for nothing. A mention in method
//! position (`x.name`) keeps only impl members of that name, never a free function, type or
//! constant (the fast twins' `state.play_turn(..)` would keep the reference's `rules::play_turn`).
//!
//! Lint attributes that make no difference in the bundle are dropped (`warn`, `deny`, `forbid`,
//! clippy's `allow`s, `allow`s of the lints the bundle allows for the whole file): they change no
//! program, and the crates obey them when they build.
//!
//! Comments, doc comments and `#[doc]` attributes are dropped and whitespace shrunk (indentation
//! goes; a line break stays where the source had one between two tokens), by a tokenizer that
//! knows strings, raw strings, byte strings, characters and lifetimes, so nothing inside a
//! literal changes and no two tokens are glued that the source kept apart.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The games, by their module names (the same in every crate).
pub const GAMES: [&str; 5] = twinsim_reference::registry::MODULES;

/// Whether the identifier `ident` names a module of `game`: the game's own (`zuniq`) or one of
/// its parts at a crate's root (`zuniq_mcts`, `zuniq_solver`, `photosynthesis_days`).
fn names_game(ident: &str, game: &str) -> bool {
    ident.strip_prefix(game).is_some_and(|rest| rest.is_empty() || rest.starts_with('_'))
}

/// Our crates a bot may use, by their Rust names, with their source folders under the
/// workspace root.
pub const CRATES: [(&str, &str); 3] = [
    ("twinsim_reference", "reference/src"),
    ("twinsim_fast", "fast/src"),
    ("twinsim_search", "search/src"),
];

/// CodinGame's limit on a submission's length, in characters.
pub const DEFAULT_LIMIT: usize = 100_000;

/// The kind of a source token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An identifier or keyword (raw identifiers included).
    Ident,
    /// A lifetime or label (`'a`).
    Lifetime,
    /// A string, byte string, raw string, character or number.
    Literal,
    /// One punctuation character (`::` is two tokens: the source's spacing is kept).
    Punct,
}

/// A source token: its text, kind, and what separated it from the previous one in the source.
#[derive(Clone, Debug)]
struct Token {
    text: String,
    kind: Kind,
    /// Whitespace or a comment came before it (`Some(true)`: with a line break).
    gap: Option<bool>,
}

impl Token {
    fn is(&self, text: &str) -> bool {
        self.text == text
    }
}

/// Splits Rust source into tokens, dropping comments and whitespace but noting where they were.
fn tokenize(src: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = src.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut gap: Option<bool> = None;
    let line_of = |i: usize| chars[..i].iter().filter(|&&c| c == '\n').count() + 1;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            gap = Some(gap == Some(true) || c == '\n');
            i += 1;
            continue;
        }
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            gap = Some(gap == Some(true));
            continue;
        }
        if c == '/' && next == Some('*') {
            let (start, mut depth) = (i, 0usize);
            let mut newline = false;
            loop {
                if i >= chars.len() {
                    return Err(format!("line {}: unterminated block comment", line_of(start)));
                }
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    newline |= chars[i] == '\n';
                    i += 1;
                }
            }
            gap = Some(gap == Some(true) || newline);
            continue;
        }
        let start = i;
        let kind = if let Some(end) = raw_string_end(&chars, i) {
            i = end.map_err(|()| format!("line {}: unterminated raw string", line_of(start)))?;
            Kind::Literal
        } else if c == '"' || ((c == 'b' || c == 'c') && next == Some('"')) {
            i = quoted_end(&chars, if c == '"' { i } else { i + 1 }, '"')
                .ok_or_else(|| format!("line {}: unterminated string", line_of(start)))?;
            Kind::Literal
        } else if c == 'b' && next == Some('\'') {
            i = quoted_end(&chars, i + 1, '\'')
                .ok_or_else(|| format!("line {}: unterminated byte", line_of(start)))?;
            Kind::Literal
        } else if c == '\'' {
            // A character literal closes within a few characters (`'a'`, `'\n'`, `'\u{..}'`);
            // a lifetime is `'` and an identifier not followed by `'`.
            let is_char = match next {
                Some('\\') => true,
                Some(_) => chars.get(i + 2) == Some(&'\''),
                None => false,
            };
            if is_char {
                i = quoted_end(&chars, i, '\'')
                    .ok_or_else(|| format!("line {}: unterminated char", line_of(start)))?;
                Kind::Literal
            } else {
                i += 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                Kind::Lifetime
            }
        } else if c.is_ascii_digit() {
            // Numbers: digits, letters (suffixes, hex, exponents), `_`, a `.` followed by a
            // digit, and a sign right after an exponent `e` of a decimal number.
            i += 1;
            while i < chars.len() {
                let d = chars[i];
                let decimal = !chars[start..i].iter().any(|&x| x == 'x' || x == 'b' || x == 'o');
                let digit_dot = d == '.' && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
                let exponent_sign =
                    (d == '+' || d == '-') && decimal && matches!(chars[i - 1], 'e' | 'E');
                if d.is_alphanumeric() || d == '_' || digit_dot || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            Kind::Literal
        } else if c.is_alphabetic() || c == '_' {
            if c == 'r' && next == Some('#') {
                i += 2;
            }
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            Kind::Ident
        } else {
            i += 1;
            Kind::Punct
        };
        tokens.push(Token { text: chars[start..i].iter().collect(), kind, gap: gap.take() });
    }
    Ok(tokens)
}

/// If a raw (byte/C) string starts at `i`: `Some(Ok(end))` past its closing quote and hashes.
fn raw_string_end(chars: &[char], i: usize) -> Option<Result<usize, ()>> {
    let mut j = i;
    if matches!(chars.get(j), Some('b' | 'c')) {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = chars[j..].iter().take_while(|&&c| c == '#').count();
    j += hashes;
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"'
            && chars[j + 1..].iter().take(hashes).filter(|&&c| c == '#').count() == hashes
        {
            return Some(Ok(j + 1 + hashes));
        }
        j += 1;
    }
    Some(Err(()))
}

/// The index past the closing `quote` of a literal whose opening quote is at `i` (escapes read).
fn quoted_end(chars: &[char], i: usize, quote: char) -> Option<usize> {
    let mut j = i + 1;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            c if c == quote => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// Writes tokens back. Where the source separated two tokens: a line break (or one space) between
/// two words (identifiers, literals, lifetimes), one space between two punctuation characters
/// that would otherwise read as one ([`would_join`]), nothing between a word and a punctuation
/// character (no token can grow across that boundary). Where the source had them touch,
/// nothing.
fn render(tokens: &[Token], out: &mut String) {
    for t in tokens {
        let previous_is_word = out
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '"' || c == '\'' || c == '#');
        let previous_is_punct =
            out.chars().next_back().is_some_and(|c| !c.is_whitespace()) && !previous_is_word;
        match t.gap {
            Some(newline) if previous_is_word && t.kind != Kind::Punct => {
                out.push(if newline { '\n' } else { ' ' });
            }
            Some(_) if previous_is_punct && t.kind == Kind::Punct => {
                let last = out.chars().next_back().unwrap_or(' ');
                if would_join(last, t.text.chars().next().unwrap_or(' ')) {
                    out.push(' ');
                }
            }
            _ => {}
        }
        out.push_str(&t.text);
    }
}

/// Whether two punctuation characters written together would read as one token (`< <` is not
/// `<<`, `& &` is not `&&`, `/ /` is not a comment) or start a comment.
fn would_join(first: char, second: char) -> bool {
    const PAIRS: [&str; 24] = [
        "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "^=",
        "&=", "|=", "<<", ">>", "..", ".=", "<-", "//", "/*",
    ];
    let pair: String = [first, second].iter().collect();
    PAIRS.contains(&pair.as_str()) || pair == "*/"
}

/// The index past the group (`(..)`, `[..]`, `{..}`) opening at `i`.
fn group_end(tokens: &[Token], i: usize) -> Result<usize, String> {
    let mut depth = 0i32;
    for (j, t) in tokens.iter().enumerate().skip(i) {
        if t.kind == Kind::Punct {
            match t.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(j + 1);
                    }
                }
                _ => {}
            }
        }
    }
    Err(format!("unbalanced {} group", tokens[i].text))
}

/// One item of a module: its outer attributes and the item's own tokens.
struct Item {
    attributes: Vec<Vec<Token>>,
    body: Vec<Token>,
}

/// Splits a module's tokens into its inner attributes and its items.
fn split_items(tokens: &[Token]) -> Result<(Vec<Token>, Vec<Item>), String> {
    let mut inner = Vec::new();
    let mut items = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let mut attributes = Vec::new();
        while i < tokens.len() && tokens[i].is("#") {
            let bang = tokens.get(i + 1).is_some_and(|t| t.is("!"));
            let open = if bang { i + 2 } else { i + 1 };
            if !tokens.get(open).is_some_and(|t| t.is("[")) {
                break;
            }
            let end = group_end(tokens, open)?;
            if bang {
                inner.extend_from_slice(&tokens[i..end]);
            } else {
                attributes.push(tokens[i..end].to_vec());
            }
            i = end;
        }
        if i >= tokens.len() {
            break;
        }
        let end = item_end(tokens, i)?;
        items.push(Item { attributes, body: tokens[i..end].to_vec() });
        i = end;
    }
    Ok((inner, items))
}

/// The index past the item starting at `start`: its `;`, or the `{..}` that closes a `fn`,
/// `struct`, `enum`, `union`, `trait`, `impl`, `mod`, `macro_rules!` or brace macro call.
fn item_end(tokens: &[Token], start: usize) -> Result<usize, String> {
    let mut j = start;
    // The item's keyword, past visibility and qualifiers.
    let mut braced = false;
    while j < tokens.len() {
        let t = &tokens[j];
        if t.is("pub") && tokens.get(j + 1).is_some_and(|t| t.is("(")) {
            j = group_end(tokens, j + 1)?;
            continue;
        }
        if t.kind == Kind::Literal
            || ["pub", "unsafe", "async", "extern", "default"].contains(&t.text.as_str())
        {
            j += 1;
            continue;
        }
        if t.is("const") && tokens.get(j + 1).is_some_and(|n| n.is("fn") || n.is("unsafe")) {
            j += 1;
            continue;
        }
        braced = ["fn", "struct", "enum", "union", "trait", "impl", "mod", "macro_rules"]
            .contains(&t.text.as_str())
            || (t.kind == Kind::Ident
                && tokens.get(j + 1).is_some_and(|n| n.is("!"))
                && tokens.get(j + 2).is_some_and(|n| n.is("{")));
        break;
    }
    let mut i = j;
    while i < tokens.len() {
        let t = &tokens[i];
        if t.kind == Kind::Punct {
            match t.text.as_str() {
                ";" => return Ok(i + 1),
                "{" if braced => return group_end(tokens, i),
                "(" | "[" | "{" => {
                    i = group_end(tokens, i)?;
                    continue;
                }
                _ => {}
            }
        }
        i += 1;
    }
    Err(format!("an item starting with `{}` does not end", tokens[start].text))
}

/// A `cfg` predicate's value in the bundle: `Some(false)` for `test` and every feature (the
/// crates are built with none), `None` for what only the target knows.
fn cfg_value(tokens: &[Token]) -> Option<bool> {
    let Some(first) = tokens.first() else { return Some(true) };
    match first.text.as_str() {
        "test" | "feature" => Some(false),
        "not" => cfg_value(inside(tokens)).map(|v| !v),
        "any" | "all" => {
            let values: Vec<Option<bool>> =
                split_commas(inside(tokens)).into_iter().map(cfg_value).collect();
            let is_any = first.is("any");
            if values.contains(&Some(is_any)) {
                Some(is_any)
            } else if values.iter().all(Option::is_some) {
                Some(!is_any)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The tokens inside `name(...)`.
fn inside(tokens: &[Token]) -> &[Token] {
    if tokens.len() >= 3 && tokens[1].is("(") {
        &tokens[2..tokens.len() - 1]
    } else {
        &[]
    }
}

/// Splits at the top-level commas.
fn split_commas(tokens: &[Token]) -> Vec<&[Token]> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, t) in tokens.iter().enumerate() {
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "," if depth == 0 => {
                parts.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < tokens.len() {
        parts.push(&tokens[start..]);
    }
    parts
}

/// What an attribute does to its item in the bundle.
enum AttributeUse {
    /// Keep the attribute.
    Keep,
    /// Drop the attribute (documentation).
    Drop,
    /// Drop the whole item (a false `cfg`, `#[test]`).
    DropItem,
}

fn attribute_use(attribute: &[Token]) -> AttributeUse {
    // `#` `[` name ... `]`
    let content = &attribute[2..attribute.len() - 1];
    match content.first().map(|t| t.text.as_str()) {
        Some("doc") => AttributeUse::Drop,
        _ if changes_only_lints(content) => AttributeUse::Drop,
        Some("test") if content.len() == 1 => AttributeUse::DropItem,
        Some("cfg") if cfg_value(inside(content)) == Some(false) => AttributeUse::DropItem,
        _ => AttributeUse::Keep,
    }
}

/// The lints the bundle's first line allows for the whole file ([`bundle`]).
const BUNDLE_ALLOWS: [&str; 3] = ["dead_code", "unused_imports", "unused_macros"];

/// Whether an attribute's content only sets lint levels that make no difference in the bundle:
/// `warn`/`deny`/`forbid` (the crates obey them when they build; they change no program), an
/// `allow` of clippy's lints (plain `rustc` runs no clippy) or of lints the bundle allows
/// everywhere, and a `cfg_attr` of such attributes alone.
fn changes_only_lints(content: &[Token]) -> bool {
    match content.first().map(|t| t.text.as_str()) {
        Some("warn" | "deny" | "forbid") => true,
        Some("allow") => split_commas(inside(content)).iter().all(|lint| match lint {
            [one] => BUNDLE_ALLOWS.contains(&one.text.as_str()),
            [tool, ..] => tool.is("clippy"),
            [] => true,
        }),
        Some("cfg_attr") => {
            let parts = split_commas(inside(content));
            parts.len() > 1 && parts[1..].iter().all(|attribute| changes_only_lints(attribute))
        }
        _ => false,
    }
}

/// A kept item of the bundle's module tree.
enum Node {
    /// An item as it is written out (attributes and body, paths rewritten).
    Item {
        /// The tokens.
        tokens: Vec<Token>,
        /// The name it defines that code elsewhere must name for it to stay (`fn`, `struct`,
        /// `const`, ...); `None`: always kept (`use`, trait impls, the bot's own items).
        name: Option<String>,
        /// An `impl` header's identifiers: dropped with any item they name, and not counted as
        /// uses of those items (an impl alone does not keep its type).
        header: Vec<String>,
        /// Where the impl's header ends in `tokens` (0: not an impl).
        header_end: usize,
        /// A `use`: its names do not keep items (what it imports is pruned instead).
        is_use: bool,
        /// An inherent `impl`'s own items, shaken like a module's (`None`: written as is).
        members: Option<(Vec<Token>, Vec<Node>)>,
    },
    /// A module: its header (`pub mod name`), its inner attributes and children.
    Module { header: Vec<Token>, name: String, inner: Vec<Token>, children: Vec<Node>, keep: bool },
}

/// The bundle being built.
struct Bundler {
    root: PathBuf,
    game: String,
    /// Our crates the kept code names, in the order met.
    crates: Vec<&'static str>,
}

/// Where a module's `mod x;` children live.
struct ModuleDir {
    dir: PathBuf,
    /// The crate the module belongs to (`None`: the bot).
    krate: Option<&'static str>,
    /// Whether this is the crate root (its game modules are filtered).
    crate_root: bool,
    /// Whether its named items are dropped when nothing names them (our crates' modules).
    shaken: bool,
}

/// The keyword of an item (past visibility and qualifiers) and the index of the token after it.
fn item_keyword(body: &[Token]) -> Option<(usize, &str)> {
    let mut j = 0;
    while j < body.len() {
        let t = &body[j];
        if t.is("pub") && body.get(j + 1).is_some_and(|n| n.is("(")) {
            j = group_end(body, j + 1).ok()?;
            continue;
        }
        if t.kind == Kind::Literal
            || ["pub", "unsafe", "async", "extern", "default"].contains(&t.text.as_str())
        {
            j += 1;
            continue;
        }
        if t.is("const") && body.get(j + 1).is_some_and(|n| n.is("fn") || n.is("unsafe")) {
            j += 1;
            continue;
        }
        return Some((j, t.text.as_str()));
    }
    None
}

impl Bundler {
    /// The other games' names.
    fn other_games(&self) -> impl Iterator<Item = &'static str> + '_ {
        GAMES.into_iter().filter(move |g| *g != self.game)
    }

    /// Whether an item names another game: in a path (`olymbits::`) or anywhere in a `use`.
    fn names_other_game(&self, body: &[Token]) -> bool {
        let is_use = item_keyword(body).is_some_and(|(_, k)| k == "use");
        body.iter().enumerate().any(|(i, t)| {
            t.kind == Kind::Ident
                && self.other_games().any(|g| names_game(&t.text, g))
                && (is_use || body.get(i + 1).is_some_and(|n| n.is(":")))
        })
    }

    /// A macro call over a list of games (`reference_search_game!(zuniq, olymbits)`): the list
    /// with only the bundle's game (`None`: not such a call).
    fn macro_game_list(&self, body: &[Token]) -> Option<Vec<Token>> {
        if body.len() < 4 || body[0].kind != Kind::Ident || !body[1].is("!") || !body[2].is("(") {
            return None;
        }
        let close = group_end(body, 2).ok()?;
        let args = split_commas(&body[3..close - 1]);
        let games = args.iter().all(|a| a.len() == 1 && GAMES.contains(&a[0].text.as_str()));
        if !games {
            return None;
        }
        let mut out = body[..3].to_vec();
        out.extend(args.iter().filter(|a| a[0].is(&self.game)).map(|a| a[0].clone()));
        out.extend_from_slice(&body[close - 1..]);
        Some(out)
    }

    /// Rewrites the crate paths of a module of `krate`: `crate::` to `crate::krate::`, and our
    /// crates' names to `crate::name`. Notes which of our crates are named.
    fn rewrite(&mut self, body: &[Token], krate: Option<&'static str>) -> Vec<Token> {
        let mut out = Vec::with_capacity(body.len());
        for (i, t) in body.iter().enumerate() {
            let path_follows = body.get(i + 1).is_some_and(|n| n.is(":"))
                && body.get(i + 2).is_some_and(|n| n.is(":"));
            // `a::crate_name` is a path segment; `field: crate_name::x` is not.
            let after_path =
                i >= 2 && body[i - 1].is(":") && body[i - 2].is(":") && body[i - 1].gap.is_none();
            out.push(t.clone());
            if t.kind != Kind::Ident || !path_follows || after_path {
                continue;
            }
            if let (true, Some(k)) = (t.is("crate"), krate) {
                out.extend(path_tail(k));
            } else if let Some((name, _)) = CRATES.iter().find(|(name, _)| t.is(name)) {
                if !self.crates.contains(name) {
                    self.crates.push(name);
                }
                let last = out.pop().expect("just pushed");
                out.push(Token { text: "crate".into(), kind: Kind::Ident, gap: last.gap });
                out.extend(path_tail(name));
            }
        }
        out
    }

    /// The items of a module's tokens, filtered, with `mod x;` read from its file.
    fn nodes(&mut self, items: Vec<Item>, dir: &ModuleDir) -> Result<Vec<Node>, String> {
        let mut nodes = Vec::new();
        'items: for item in items {
            let mut attributes = Vec::new();
            for attribute in &item.attributes {
                match attribute_use(attribute) {
                    AttributeUse::Keep => attributes.extend(self.rewrite(attribute, dir.krate)),
                    AttributeUse::Drop => {}
                    AttributeUse::DropItem => continue 'items,
                }
            }
            let body = match self.macro_game_list(&item.body) {
                Some(list) => list,
                None if self.names_other_game(&item.body) => continue,
                None => item.body,
            };
            let keyword = item_keyword(&body);
            // `const _: () = assert!(...)`: a compile-time check, made when the crates build; in
            // the bundle it would only keep the items it names alive past the shaking.
            if let Some((k, "const")) = keyword {
                if body.get(k + 1).is_some_and(|t| t.is("_")) {
                    continue;
                }
            }
            let shaken = dir.shaken;
            let name_after = |k: usize| {
                body.get(k + 1).filter(|t| t.kind == Kind::Ident).map(|t| t.text.clone())
            };
            match keyword {
                Some((k, "mod")) => {
                    let name = name_after(k).ok_or("a mod without a name")?;
                    if dir.crate_root && self.other_games().any(|g| names_game(&name, g)) {
                        continue;
                    }
                    let mut header = attributes;
                    header.extend_from_slice(&body[..k + 2]);
                    let (inner, children) = if body.last().is_some_and(|t| t.is(";")) {
                        let (child_file, child_dir) = child_module(&dir.dir, &name)?;
                        let child = ModuleDir {
                            dir: child_dir,
                            krate: dir.krate,
                            crate_root: false,
                            shaken,
                        };
                        self.module(&child_file, &child)?
                    } else {
                        let (inner, items) = split_items(&body[k + 3..body.len() - 1])?;
                        let child = ModuleDir {
                            dir: dir.dir.join(&name),
                            krate: dir.krate,
                            crate_root: false,
                            shaken,
                        };
                        (self.rewrite(&inner, dir.krate), self.nodes(items, &child)?)
                    };
                    nodes.push(Node::Module { header, name, inner, children, keep: !shaken });
                }
                Some((k, "impl")) => {
                    let body = self.rewrite(&body, dir.krate);
                    let open = body
                        .iter()
                        .rposition(|t| t.is("{"))
                        .filter(|_| body.last().is_some_and(|t| t.is("}")));
                    let open = match open {
                        // The `{` of the impl's own block: the first top-level one.
                        Some(_) => body.iter().position(|t| t.is("{")).expect("a block"),
                        None => return Err("an impl without a block".into()),
                    };
                    let header: Vec<String> = body[k..open]
                        .iter()
                        .filter(|t| t.kind == Kind::Ident)
                        .map(|t| t.text.clone())
                        .collect();
                    let inherent = !header.iter().any(|h| h == "for");
                    let members = if inherent && shaken {
                        let (inner, items) = split_items(&body[open + 1..body.len() - 1])?;
                        // Paths are already rewritten: members are only shaken.
                        let members_dir = ModuleDir {
                            dir: dir.dir.clone(),
                            krate: None,
                            crate_root: false,
                            shaken,
                        };
                        Some((inner, self.nodes(items, &members_dir)?))
                    } else {
                        None
                    };
                    let mut tokens = attributes;
                    let header_end = tokens.len() + open;
                    tokens.extend(if members.is_some() { body[..=open].to_vec() } else { body });
                    nodes.push(Node::Item {
                        tokens,
                        name: None,
                        header,
                        header_end,
                        members,
                        is_use: false,
                    });
                }
                Some((k, kw)) => {
                    // Not `type`: an alias may be what an impl's header names.
                    let named = ["fn", "struct", "enum", "union", "const", "static", "macro_rules"]
                        .contains(&kw);
                    let name = if !shaken || !named {
                        None
                    } else if kw == "macro_rules" {
                        body.get(k + 2).map(|t| t.text.clone())
                    } else {
                        name_after(k).filter(|n| n != "_")
                    };
                    let mut tokens = attributes;
                    tokens.extend(self.rewrite(&body, dir.krate));
                    let is_use = kw == "use" && shaken;
                    nodes.push(Node::Item {
                        tokens,
                        name,
                        header: Vec::new(),
                        header_end: 0,
                        members: None,
                        is_use,
                    });
                }
                None => {}
            }
        }
        Ok(nodes)
    }

    /// The module at `file`: its inner attributes and its items.
    fn module(&mut self, file: &Path, dir: &ModuleDir) -> Result<(Vec<Token>, Vec<Node>), String> {
        let context = |e: String| format!("{}: {e}", file.display());
        let src = std::fs::read_to_string(file).map_err(|e| context(e.to_string()))?;
        let tokens = tokenize(&src).map_err(context)?;
        let (inner, items) = split_items(&tokens).map_err(context)?;
        let inner = self.rewrite(&inner, dir.krate);
        let mut inner_kept = Vec::new();
        let mut i = 0;
        while i < inner.len() {
            let end = group_end(&inner, i + 2)?;
            if matches!(attribute_use(&inner[i + 1..end]), AttributeUse::Keep) {
                inner_kept.extend_from_slice(&inner[i..end]);
            }
            i = end;
        }
        let nodes = self.nodes(items, dir).map_err(context)?;
        Ok((inner_kept, nodes))
    }
}

/// Identifier counts over kept nodes: `uses` what keeps an item, by (crate, name): not its own
/// impls' headers, not the names a `use` imports (except the originals of `as` aliases and
/// other crates' names a crate re-exports); an occurrence in one of our crates counts for
/// another crate's item of that name only when the code links it there (a path through that
/// crate, a name imported from it, a method call). `paths` every mention (keeps a module).
#[derive(Default)]
struct Counts {
    uses: HashMap<(String, String), usize>,
    /// The part of `uses` in method position (`.name`): it keeps an impl's member, never a free
    /// function (a fast twin's `state.play_turn(..)` does not keep the reference's
    /// `rules::play_turn`).
    method_uses: HashMap<(String, String), usize>,
    paths: HashMap<String, usize>,
}

/// What a module imports from other crates.
#[derive(Default)]
struct Imports {
    /// Names imported by name, per crate.
    names: Vec<(String, String)>,
    /// Aliases and module imports (`as r`, `protocol::{self}`, `rules`), per crate.
    prefixes: Vec<(String, String)>,
    /// Crates whose modules are glob-imported.
    globs: Vec<String>,
}

impl Imports {
    /// What the `use` items among `nodes` (a module's items) import from our crates.
    fn of(nodes: &[Node], modules: &BTreeSet<String>) -> Imports {
        let mut imports = Imports::default();
        for node in nodes {
            let Node::Item { tokens, is_use: true, .. } = node else { continue };
            let Some(krate) =
                CRATES.iter().map(|(c, _)| *c).find(|c| tokens.iter().any(|t| t.is(c)))
            else {
                continue;
            };
            let idents: Vec<&Token> =
                tokens.iter().filter(|t| t.kind != Kind::Punct || t.is("*")).collect();
            if tokens.iter().any(|t| t.is("*")) {
                imports.globs.push(krate.to_string());
            }
            for (i, t) in idents.iter().enumerate() {
                if t.kind != Kind::Ident
                    || ["pub", "use", "crate", "self", "super", "as"].contains(&t.text.as_str())
                {
                    continue;
                }
                let aliased = idents.get(i + 1).is_some_and(|n| n.is("as"));
                let is_alias = i >= 1 && idents[i - 1].is("as");
                let before_self = idents.get(i + 1).is_some_and(|n| n.is("self"));
                let entry = (krate.to_string(), t.text.clone());
                if is_alias || before_self || modules.contains(&t.text) {
                    imports.prefixes.push(entry.clone());
                }
                if !aliased {
                    imports.names.push(entry);
                }
            }
        }
        imports
    }

    /// Whether the occurrence at `i` of `tokens` is linked to crate `krate`.
    fn links(&self, tokens: &[Token], i: usize, krate: &str) -> bool {
        let name = &tokens[i].text;
        if tokens[..i].last().is_some_and(|t| t.is(".")) {
            return true; // a method or field: its type decides
        }
        if self.globs.iter().any(|c| c == krate)
            || self.names.iter().any(|(c, n)| c == krate && n == name)
        {
            return true;
        }
        // The path before it: `a::b::name`.
        let mut j = i;
        while j >= 3
            && tokens[j - 1].is(":")
            && tokens[j - 2].is(":")
            && tokens[j - 3].kind == Kind::Ident
        {
            j -= 3;
            let segment = &tokens[j].text;
            if segment == krate
                || self.prefixes.iter().any(|(c, p)| c == krate && p == segment)
                || self.names.iter().any(|(c, n)| c == krate && n == segment)
            {
                return true;
            }
        }
        false
    }
}

/// Whether the identifier at `i` follows a single `.` (`x.name`: a method or field; not the end
/// of a range, `0..name`).
fn in_method_position(tokens: &[Token], i: usize) -> bool {
    i >= 1 && tokens[i - 1].is(".") && !(i >= 2 && tokens[i - 2].is("."))
}

/// Counts one item's identifiers (`krate`: the crate it is in, `None` for the bot).
#[allow(clippy::too_many_arguments)]
fn count_tokens(
    counts: &mut Counts,
    tokens: &[Token],
    from: usize,
    is_use: bool,
    own: &[String],
    krate: Option<&str>,
    imports: &Imports,
) {
    let is_pub = tokens.iter().find(|t| t.kind == Kind::Ident).is_some_and(|t| t.is("pub"));
    for (i, t) in tokens.iter().enumerate().filter(|(_, t)| t.kind == Kind::Ident) {
        *counts.paths.entry(t.text.clone()).or_default() += 1;
        let aliased = tokens.get(i + 1).is_some_and(|n| n.is("as"));
        if i < from || own.contains(&t.text) {
            continue;
        }
        for (c, _) in CRATES {
            let counted = match krate {
                None => !is_use,
                Some(k) if k == c => !is_use || aliased,
                // A re-export of another crate's name keeps it (code reaches it through us).
                Some(_) if is_use => (aliased || is_pub) && tokens.iter().any(|t| t.is(c)),
                Some(_) => imports.links(tokens, i, c),
            };
            if counted {
                *counts.uses.entry((c.to_string(), t.text.clone())).or_default() += 1;
                if in_method_position(tokens, i) {
                    *counts.method_uses.entry((c.to_string(), t.text.clone())).or_default() += 1;
                }
            }
        }
    }
}

/// Counts the identifiers of `nodes`, a module's items (`imports`: `None`) or an impl's members
/// (the enclosing module's imports).
fn count_idents(
    nodes: &[Node],
    counts: &mut Counts,
    outer: &[String],
    krate: Option<&str>,
    modules: &BTreeSet<String>,
    imports: Option<&Imports>,
) {
    let own_imports;
    let imports = match imports {
        Some(imports) => imports,
        None => {
            own_imports = Imports::of(nodes, modules);
            &own_imports
        }
    };
    for node in nodes {
        match node {
            Node::Item { tokens, members, header_end, is_use, header, .. } => {
                // An impl's mentions of the types of its own header do not keep them.
                let own: Vec<String> = header.iter().chain(outer).cloned().collect();
                count_tokens(counts, tokens, *header_end, *is_use, &own, krate, imports);
                if let Some((inner, members)) = members {
                    count_tokens(counts, inner, 0, false, &own, krate, imports);
                    count_idents(members, counts, &own, krate, modules, Some(imports));
                }
            }
            Node::Module { header, inner, children, name, .. } => {
                count_tokens(counts, header, 0, false, &[], krate, imports);
                count_tokens(counts, inner, 0, false, &[], krate, imports);
                let krate = if krate.is_none() && CRATES.iter().any(|(c, _)| c == name) {
                    Some(name.as_str())
                } else {
                    krate
                };
                count_idents(children, counts, &[], krate, modules, None);
            }
        }
    }
}

/// The names of every module of the tree.
fn module_names(nodes: &[Node], names: &mut BTreeSet<String>) {
    for node in nodes {
        if let Node::Module { name, children, .. } = node {
            names.insert(name.clone());
            module_names(children, names);
        }
    }
}

/// Drops named items (and modules) whose name occurs nowhere but in their own definition, and
/// impls whose header names a dropped item; `true` when something was dropped.
/// Dropped names, by (crate, name).
type Dropped = BTreeSet<(String, String)>;

fn shake(
    nodes: &mut Vec<Node>,
    counts: &Counts,
    dropped: &mut Dropped,
    krate: Option<&str>,
    impl_members: bool,
) -> bool {
    let here = krate.unwrap_or("").to_string();
    let mut changed = false;
    let key = |name: &str| (krate.unwrap_or("").to_string(), name.to_string());
    let uses = |name: &str| match krate {
        Some(_) => counts.uses.get(&key(name)).copied().unwrap_or(0),
        None => usize::MAX,
    };
    // What keeps an item: for an impl's member every mention; for a module's item (a free
    // function, a type, a constant) none in method position, which only reaches members.
    let kept_by = |name: &str| match impl_members {
        true => uses(name),
        false => {
            uses(name) - counts.method_uses.get(&key(name)).copied().unwrap_or(0).min(uses(name))
        }
    };
    nodes.retain_mut(|node| match node {
        Node::Item { tokens, name, header, members, .. } => {
            if let Some(n) = name {
                let own = (0..tokens.len())
                    .filter(|&i| tokens[i].kind == Kind::Ident && tokens[i].is(n))
                    .filter(|&i| impl_members || !in_method_position(tokens, i))
                    .count();
                if kept_by(n) <= own {
                    dropped.insert((here.clone(), n.clone()));
                    changed = true;
                    return false;
                }
            }
            if header.iter().any(|h| dropped.contains(&(here.clone(), h.clone())) && uses(h) == 0) {
                changed = true;
                return false;
            }
            if let Some((_, members)) = members {
                changed |= shake(members, counts, dropped, krate, true);
            }
            true
        }
        Node::Module { name, children, keep, header, .. } => {
            let own = header.iter().filter(|t| t.is(name)).count();
            if !*keep && counts.paths.get(name.as_str()).copied().unwrap_or(0) <= own {
                dropped.insert((here.clone(), name.clone()));
                changed = true;
                return false;
            }
            let inner = if krate.is_none() && CRATES.iter().any(|(c, _)| c == name) {
                Some(name.as_str())
            } else {
                krate
            };
            changed |= shake(children, counts, dropped, inner, false);
            true
        }
    });
    changed
}

/// The index past an item's leading outer attributes (`#[..]` groups).
fn past_attributes(tokens: &[Token]) -> usize {
    let mut i = 0;
    while tokens.get(i).is_some_and(|t| t.is("#")) && tokens.get(i + 1).is_some_and(|t| t.is("[")) {
        match group_end(tokens, i + 1) {
            Ok(end) => i = end,
            Err(_) => break,
        }
    }
    i
}

/// The trait an item declares (`trait Name`) or implements (`impl<..> path::Name<..> for ..`),
/// and the index of its block's `{`; `None` for any other item (an inherent impl included).
fn trait_block(tokens: &[Token]) -> Option<(&str, bool, usize)> {
    let start = past_attributes(tokens);
    let (k, keyword) = item_keyword(&tokens[start..])?;
    let k = start + k;
    let open = k + tokens[k..].iter().position(|t| t.is("{"))?;
    match keyword {
        "trait" => {
            let name = tokens.get(k + 1).filter(|t| t.kind == Kind::Ident)?;
            Some((name.text.as_str(), true, open))
        }
        "impl" => {
            // Past the impl's own generics (`impl<T: Tr<U>>`; a `->` is no closing `>`).
            let mut j = k + 1;
            if tokens.get(j).is_some_and(|t| t.is("<")) {
                let mut depth = 0;
                while j < open {
                    let t = &tokens[j];
                    j += 1;
                    if t.is("<") {
                        depth += 1;
                    } else if t.is(">") && !tokens[j - 2].is("-") {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                }
            }
            // The trait's path: its last identifier before its arguments or `for`.
            let mut name = None;
            while j < open && (tokens[j].kind == Kind::Ident || tokens[j].is(":")) {
                if tokens[j].is("for") {
                    break;
                }
                if tokens[j].kind == Kind::Ident {
                    name = Some(tokens[j].text.as_str());
                }
                j += 1;
            }
            let implements = tokens[j..open].iter().any(|t| t.is("for"));
            implements.then_some((name?, false, open))
        }
        _ => None,
    }
}

/// The name of the `fn` at `i` of `tokens` (`fn name`), if any.
fn fn_name_at(tokens: &[Token], i: usize) -> Option<&str> {
    let name = tokens.get(i + 1).filter(|t| t.kind == Kind::Ident)?;
    tokens[i].is("fn").then_some(name.text.as_str())
}

/// Every token list of the tree (items, impl members, module headers).
fn token_lists<'a>(nodes: &'a [Node], lists: &mut Vec<&'a [Token]>) {
    for node in nodes {
        match node {
            Node::Item { tokens, members, .. } => {
                lists.push(tokens);
                if let Some((inner, members)) = members {
                    lists.push(inner);
                    token_lists(members, lists);
                }
            }
            Node::Module { header, inner, children, .. } => {
                lists.push(header);
                lists.push(inner);
                token_lists(children, lists);
            }
        }
    }
}

/// Drops the methods of our traits that no code calls: a method whose name occurs nowhere but in
/// the definitions of functions of that name (the trait's declaration, its impls, same-named
/// functions elsewhere) goes from the trait and from every impl of it. A required method of a
/// trait whose every implementor must build what nobody asks for (the typed games' `new_game`:
/// a bot that plays from its views never sets a game up) otherwise keeps the setup, with its
/// generator, in every bundle. `true` when something was dropped.
fn drop_uncalled_trait_methods(nodes: &mut [Node]) -> bool {
    let mut lists = Vec::new();
    token_lists(nodes, &mut lists);
    // Our traits and the names of their methods.
    let mut traits = BTreeSet::new();
    let mut methods = BTreeSet::new();
    for tokens in &lists {
        let Some((name, true, open)) = trait_block(tokens) else { continue };
        traits.insert(name.to_string());
        let block = &tokens[open + 1..tokens.len() - 1];
        methods.extend((0..block.len()).filter_map(|i| fn_name_at(block, i)).map(String::from));
    }
    // A method is called when its name occurs outside every function of that name.
    let mut called = BTreeSet::new();
    for tokens in &lists {
        let spans: Vec<(usize, usize, &str)> = (0..tokens.len())
            .filter_map(|i| {
                let name = fn_name_at(tokens, i).filter(|n| methods.contains(*n))?;
                Some((i, item_end(tokens, i).unwrap_or(tokens.len()), name))
            })
            .collect();
        for (i, t) in tokens.iter().enumerate() {
            let inside_own = |&(start, end, name): &(usize, usize, &str)| {
                start <= i && i < end && name == t.text
            };
            if t.kind == Kind::Ident && methods.contains(&t.text) && !spans.iter().any(inside_own) {
                called.insert(t.text.clone());
            }
        }
    }
    let uncalled: BTreeSet<&String> = methods.difference(&called).collect();
    if uncalled.is_empty() {
        return false;
    }
    let mut changed = false;
    for_each_item(nodes, &mut |tokens: &mut Vec<Token>| {
        let Some((name, _, open)) = trait_block(tokens) else { return };
        if !traits.contains(name) {
            return;
        }
        let Ok((_, members)) = split_items(&tokens[open + 1..tokens.len() - 1]) else { return };
        let keep = |member: &Item| {
            let k = item_keyword(&member.body).map_or(0, |(k, _)| k);
            !fn_name_at(&member.body, k).is_some_and(|n| uncalled.iter().any(|u| *u == n))
        };
        if members.iter().all(keep) {
            return;
        }
        let mut out = tokens[..=open].to_vec();
        for member in members.iter().filter(|m| keep(m)) {
            out.extend(member.attributes.iter().flatten().cloned());
            out.extend_from_slice(&member.body);
        }
        out.push(tokens[tokens.len() - 1].clone());
        *tokens = out;
        changed = true;
    });
    changed
}

/// Calls `f` on the tokens of every item of the tree (not on impl members).
fn for_each_item(nodes: &mut [Node], f: &mut impl FnMut(&mut Vec<Token>)) {
    for node in nodes {
        match node {
            Node::Item { tokens, .. } => f(tokens),
            Node::Module { children, .. } => for_each_item(children, f),
        }
    }
}

/// Takes the `dropped` names out of the `use` items (an item left importing nothing goes).
fn prune_uses(nodes: &mut Vec<Node>, dropped: &Dropped, krate: &str) {
    nodes.retain_mut(|node| match node {
        Node::Item { tokens, is_use: true, .. } => {
            let Some(start) = tokens.iter().position(|t| t.is("use")) else { return true };
            let tree = &tokens[start + 1..tokens.len() - 1];
            // The crate the path goes to: the one it names, else this one (`super::`, `self::`).
            let target = CRATES
                .iter()
                .map(|(c, _)| *c)
                .find(|c| tree.iter().any(|t| t.is(c)))
                .unwrap_or(krate);
            match prune_use_tree(tree, dropped, target) {
                Some(kept) => {
                    let mut out = tokens[..=start].to_vec();
                    out.extend(kept);
                    out.push(tokens[tokens.len() - 1].clone());
                    *tokens = out;
                    true
                }
                None => false,
            }
        }
        Node::Item { members: Some((_, members)), .. } => {
            prune_uses(members, dropped, krate);
            true
        }
        Node::Module { children, name, .. } => {
            let inner = if krate.is_empty() && CRATES.iter().any(|(c, _)| c == name) {
                name.as_str()
            } else {
                krate
            };
            prune_uses(children, dropped, inner);
            true
        }
        Node::Item { .. } => true,
    });
}

/// A use tree without its leaves that import a dropped name (`None`: nothing left).
fn prune_use_tree(tree: &[Token], dropped: &Dropped, krate: &str) -> Option<Vec<Token>> {
    let names_dropped =
        |t: &Token| t.kind == Kind::Ident && dropped.contains(&(krate.to_string(), t.text.clone()));
    match tree.iter().position(|t| t.is("{")) {
        None => {
            // A path, maybe `as alias`: the imported name is the last segment before `as`.
            let end = tree.iter().position(|t| t.is("as")).unwrap_or(tree.len());
            if tree[..end].iter().any(names_dropped) {
                None
            } else {
                Some(tree.to_vec())
            }
        }
        Some(open) => {
            if tree[..open].iter().any(names_dropped) {
                return None;
            }
            let close = group_end(tree, open).ok()?;
            let kept: Vec<Vec<Token>> = split_commas(&tree[open + 1..close - 1])
                .into_iter()
                .filter(|part| !part.is_empty())
                .filter_map(|part| prune_use_tree(part, dropped, krate))
                .collect();
            if kept.is_empty() {
                return None;
            }
            let mut out = tree[..=open].to_vec();
            for (i, part) in kept.into_iter().enumerate() {
                if i > 0 {
                    out.push(Token { text: ",".into(), kind: Kind::Punct, gap: None });
                }
                out.extend(part);
            }
            out.extend_from_slice(&tree[close - 1..]);
            Some(out)
        }
    }
}

/// Writes nodes out.
fn render_nodes(nodes: &[Node], out: &mut String) {
    for node in nodes {
        match node {
            Node::Item { tokens, members, .. } => {
                render(tokens, out);
                if let Some((inner, members)) = members {
                    render(inner, out);
                    render_nodes(members, out);
                    out.push('}');
                }
            }
            Node::Module { header, inner, children, .. } => {
                render(header, out);
                out.push('{');
                render(inner, out);
                render_nodes(children, out);
                out.push('}');
            }
        }
    }
}

/// `:: krate` as tokens.
fn path_tail(krate: &str) -> [Token; 3] {
    [
        Token { text: ":".into(), kind: Kind::Punct, gap: None },
        Token { text: ":".into(), kind: Kind::Punct, gap: None },
        Token { text: krate.into(), kind: Kind::Ident, gap: None },
    ]
}

/// The file of module `name` declared in a module whose children live in `dir`, and where its
/// own children live (`dir/name/`).
fn child_module(dir: &Path, name: &str) -> Result<(PathBuf, PathBuf), String> {
    let flat = dir.join(format!("{name}.rs"));
    let nested = dir.join(name).join("mod.rs");
    let child_dir = dir.join(name);
    if flat.exists() {
        Ok((flat, child_dir))
    } else if nested.exists() {
        Ok((nested, child_dir))
    } else {
        Err(format!("module {name}: neither {} nor {} exists", flat.display(), nested.display()))
    }
}

/// The game a bot's source names (`twinsim_fast::zuniq`, `twinsim_search::olymbits::...`, or a
/// part of one, `twinsim_search::zuniq_mcts::ZuniqBot`).
pub fn detect_game(bot_source: &str) -> Result<&'static str, String> {
    let tokens = tokenize(bot_source)?;
    let named: BTreeSet<&'static str> = GAMES
        .into_iter()
        .filter(|g| tokens.iter().any(|t| t.kind == Kind::Ident && names_game(&t.text, g)))
        .collect();
    match named.len() {
        1 => Ok(named.into_iter().next().expect("one game")),
        0 => Err(format!("the bot names no game module ({}): pass --game", GAMES.join(", "))),
        _ => Err(format!(
            "the bot names several games ({}): a bundle holds one, pass --game",
            named.into_iter().collect::<Vec<_>>().join(", ")
        )),
    }
}

/// Bundles the bot at `bot` with the modules of `game` (module name or trace name; detected
/// from the bot's source when `None`) from the workspace at `root`: one source file for plain
/// `rustc --edition 2021`.
pub fn bundle(root: &Path, bot: &Path, game: Option<&str>) -> Result<String, String> {
    // The one file a user names: read within the input limits (`/dev/zero` is an error).
    let source = crate::input::read_text(bot).map_err(|e| format!("{}: {e}", bot.display()))?;
    let game = match game {
        Some(g) => {
            let name = g.replace('-', "_");
            if !GAMES.contains(&name.as_str()) {
                return Err(format!("unknown game {g:?} ({})", GAMES.join(", ")));
            }
            name
        }
        None => detect_game(&source)?.to_string(),
    };
    let mut bundler = Bundler { root: root.to_path_buf(), game, crates: Vec::new() };
    let bot_dir = bot.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let (bot_inner, bot_items) = bundler
        .module(bot, &ModuleDir { dir: bot_dir, krate: None, crate_root: true, shaken: false })?;
    // Each crate the kept code names, once; inlining one may name another.
    let mut crates = Vec::new();
    let mut done = 0;
    while done < bundler.crates.len() {
        let name = bundler.crates[done];
        done += 1;
        let dir = CRATES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, d)| bundler.root.join(d))
            .expect("a known crate");
        let (inner, children) = bundler.module(
            &dir.join("lib.rs"),
            &ModuleDir { dir: dir.clone(), krate: Some(name), crate_root: true, shaken: true },
        )?;
        let header = vec![
            Token { text: "mod".into(), kind: Kind::Ident, gap: Some(true) },
            Token { text: name.into(), kind: Kind::Ident, gap: Some(false) },
        ];
        crates.push(Node::Module { header, name: name.into(), inner, children, keep: true });
    }
    let mut nodes = bot_items;
    nodes.extend(crates);
    let mut dropped = BTreeSet::new();
    loop {
        let mut counts = Counts::default();
        let mut modules = BTreeSet::new();
        module_names(&nodes, &mut modules);
        count_idents(&nodes, &mut counts, &[], None, &modules, None);
        let shaken = shake(&mut nodes, &counts, &mut dropped, None, false);
        // Pruned each round: a module that only a dropped name's `use` named goes next round.
        prune_uses(&mut nodes, &dropped, "");
        if !shaken && !drop_uncalled_trait_methods(&mut nodes) {
            break;
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated by `twinsim bundle` from {} (game {}): the bot, then the modules of our crates it uses.",
        bot.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        bundler.game
    );
    out.push_str(&format!("#![allow({})]", BUNDLE_ALLOWS.join(", ")));
    render(&bot_inner, &mut out);
    render_nodes(&nodes, &mut out);
    out.push('\n');
    Ok(out)
}

/// The number of characters of a bundle (what a contest's limit counts).
pub fn size(bundle: &str) -> usize {
    bundle.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attribute(text: &str) -> Vec<Token> {
        tokenize(text).unwrap()
    }

    /// Each item of `source` as an always-kept node, as the bot's own items are.
    fn nodes_of(source: &str) -> Vec<Node> {
        let (_, items) = split_items(&tokenize(source).unwrap()).unwrap();
        items
            .into_iter()
            .map(|item| Node::Item {
                tokens: item.attributes.into_iter().flatten().chain(item.body).collect(),
                name: None,
                header: Vec::new(),
                header_end: 0,
                members: None,
                is_use: false,
            })
            .collect()
    }

    /// A method of our trait that only functions of its own name mention goes from the trait and
    /// its impls; a method called anywhere else (a provided method's body included) stays, and so
    /// does every method of an impl of a trait that is not ours.
    #[test]
    fn trait_methods_nobody_calls_are_dropped() {
        let mut nodes = nodes_of(
            "pub trait Game { fn new_game() -> Self; fn step(&self) -> u8 { self.helper() } \
             fn helper(&self) -> u8; fn unused(&self) -> u8 { self.helper() } }
             impl<T: Clone> Game for X<T> { #[inline] fn new_game() -> Self { X::new_game() } \
             fn step(&self) -> u8 { 1 } fn helper(&self) -> u8 { 2 } }
             impl Other for X<u8> { fn new_game() -> Self { X } }
             fn main() { X.step(); }",
        );
        assert!(drop_uncalled_trait_methods(&mut nodes));
        let mut out = String::new();
        render_nodes(&nodes, &mut out);
        assert!(!out.contains("unused"), "{out}");
        assert_eq!(out.matches("fn new_game").count(), 1, "only Other's stays: {out}");
        assert!(out.contains("impl Other for X<u8>{fn new_game()"), "{out}");
        assert!(!out.contains("#[inline]"), "the attributes go with the method: {out}");
        assert_eq!(out.matches("fn helper").count(), 2, "{out}");
        assert_eq!(out.matches("fn step").count(), 2, "{out}");
        assert!(!drop_uncalled_trait_methods(&mut nodes), "nothing left to drop");
    }

    /// `x.name` mentions a method or field, which keeps no free function; `0..name` does.
    #[test]
    fn a_method_position_is_one_dot() {
        let tokens = tokenize("x.f(0..g, ..=h, y.z)").unwrap();
        let at = |name: &str| tokens.iter().position(|t| t.is(name)).unwrap();
        assert!(in_method_position(&tokens, at("f")));
        assert!(in_method_position(&tokens, at("z")));
        assert!(!in_method_position(&tokens, at("g")));
        assert!(!in_method_position(&tokens, at("h")));
        assert!(!in_method_position(&tokens, at("x")));
    }

    /// Lint levels that change nothing in the bundle go; an `allow` the bundle does not make
    /// for the whole file, and any attribute that changes the program, stay.
    #[test]
    fn only_attributes_that_change_no_program_are_dropped() {
        for dropped in [
            "#![warn(missing_docs)]",
            "#![forbid(unsafe_code)]",
            "#[deny(clippy::all)]",
            "#[allow(clippy::too_many_arguments)]",
            "#[allow(dead_code, unused_imports)]",
            "#![cfg_attr(not(feature = \"builtin\"), allow(unused_imports))]",
        ] {
            let tokens = attribute(dropped);
            let start = usize::from(tokens[1].is("!"));
            assert!(
                matches!(attribute_use(&tokens[start..]), AttributeUse::Drop),
                "{dropped} should go"
            );
        }
        for kept in [
            "#[allow(non_snake_case)]",
            "#[allow(clippy::x, unused_mut)]",
            "#[inline]",
            "#[derive(Clone)]",
            "#[cfg_attr(test, derive(Debug))]",
            "#[cfg_attr(feature = \"x\", allow(dead_code), inline)]",
        ] {
            let tokens = attribute(kept);
            assert!(matches!(attribute_use(&tokens), AttributeUse::Keep), "{kept} should stay");
        }
    }
}
