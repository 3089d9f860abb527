//! The replay viewer in a real browser: headless Chromium opens pages written by `twinsim view`
//! for a referee trace of every game and by `twinsim arena --out`, and the drawing is compared with
//! the trace's states at several turns.
//!
//! The page, opened with `#turn=N&probe=T1,T2`, drives itself through its own controls (arrow
//! keys, buttons, the slider, play/pause, the fog toggle) and writes what it drew (every board
//! element's `data-*` values, the scores, actions, events and views shown) into the DOM; this test
//! reads it with `--dump-dom` and compares it with what it computes from the trace itself.
//!
//! Chromium is Debian's `chromium` package (`.ci/install-chromium`), or the program named by
//! `CHROMIUM`. Without it these tests fail; `TWINSIM_SKIP_BROWSER_TESTS=1` skips them, and they
//! say loudly that they were skipped.

use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const OPT_OUT: &str = "TWINSIM_SKIP_BROWSER_TESTS";

/// One browser at a time: five pages at once on a 2-core machine would only slow each other.
static BROWSER_LOCK: Mutex<()> = Mutex::new(());

/// The Chromium executable, or `None` (after a loud message) when the user opted out.
fn chromium() -> Option<PathBuf> {
    if std::env::var(OPT_OUT).as_deref() == Ok("1") {
        eprintln!(
            "\n!!!!!!!! SKIPPED: browser test ({OPT_OUT}=1). The replay viewer was NOT tested. \
             !!!!!!!!\n"
        );
        return None;
    }
    if let Some(named) = std::env::var_os("CHROMIUM").map(PathBuf::from) {
        assert!(named.exists(), "CHROMIUM={} does not exist", named.display());
        return Some(named);
    }
    let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists());
    assert!(
        found.is_some(),
        "Chromium not found (/usr/bin/chromium, or set CHROMIUM=/path/to/chromium): install it \
         with .ci/install-chromium (Debian's chromium package), or set {OPT_OUT}=1 to skip the \
         browser tests knowingly"
    );
    found
}

/// Where the tests write pages and screenshots (`target/tmp/viewer`).
fn output_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("viewer");
    std::fs::create_dir_all(&dir).expect("output dir");
    dir
}

fn twinsim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_twinsim")).args(args).output().expect("twinsim runs")
}

/// Runs headless Chromium on `url` with `args` and a fresh profile; the output (the DOM for
/// `--dump-dom`). The host resolver maps every name to nowhere, so a page that needed the
/// network would show it.
fn run_chromium(exe: &Path, args: &[&str], url: &str) -> String {
    let _one_at_a_time = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let profile = tempdir("profile");
    let mut child = Command::new(exe)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--disable-dev-shm-usage",
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).map(|_| text)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 120 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let text = reader.join().expect("reader").expect("chromium output is UTF-8");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(status.success(), "chromium failed ({status}) on {url}");
    text
}

fn tempdir(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("twinsim-viewer-{}-{name}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn file_url(path: &Path, fragment: &str) -> String {
    format!("file://{}#{fragment}", path.canonicalize().expect("page exists").display())
}

/// The JSON the page's probe wrote into `<pre id="probe-result">`.
fn probe_result(dom: &str) -> Value {
    let start = dom.find("<pre id=\"probe-result\">").unwrap_or_else(|| {
        let errors = dom
            .split("<pre id=\"errors\"")
            .nth(1)
            .and_then(|s| s.split("</pre>").next())
            .unwrap_or("(no error box)");
        panic!("the page's script did not finish: no probe result; error box: {errors}")
    });
    let body = &dom[start + "<pre id=\"probe-result\">".len()..];
    let body = &body[..body.find("</pre>").expect("closed probe result")];
    let text = body
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&");
    serde_json::from_str(&text).expect("probe result is JSON")
}

fn read_games(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("trace readable")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("trace line is JSON"))
        .collect()
}

fn trace_path(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces").join(format!("{game}.jsonl"))
}

// ---- the trace, frame by frame ------------------------------------------------------------------

/// Frame 0 is the initial state; frame k the state after turn k - 1.
fn state(rec: &Value, k: usize) -> &Value {
    if k == 0 {
        &rec["initial"]
    } else {
        &rec["turns"][k - 1]["state"]
    }
}

fn frame_count(rec: &Value) -> usize {
    rec["turns"].as_array().expect("turns").len() + 1
}

fn num(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The drawn elements of `kind`, each as its `keys` values joined by commas, sorted.
fn drawn(observation: &Value, kind: &str, keys: &[&str]) -> Vec<String> {
    let elements = observation["drawn"].as_array().expect("drawn");
    sorted(
        elements
            .iter()
            .filter(|e| e["kind"] == kind)
            .map(|e| {
                let e: &Map<String, Value> = e.as_object().expect("element");
                keys.iter()
                    .map(|k| e.get(*k).map(num).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect(),
    )
}

/// What the board must show at frame `k`: (kind, keys, expected tuples), from the trace.
fn expected_drawing(
    rec: &Value,
    k: usize,
    fog: Option<usize>,
) -> Vec<(&'static str, Vec<&'static str>, Vec<String>)> {
    let s = state(rec, k);
    let game = rec["game"].as_str().expect("game");
    let mut out: Vec<(&'static str, Vec<&'static str>, Vec<String>)> = Vec::new();
    let arr = |v: &Value| v.as_array().cloned().unwrap_or_default();
    match game {
        "xmas-rush" => {
            let mut tiles = Vec::new();
            for (y, row) in arr(&s["tiles"]).iter().enumerate() {
                for (x, path) in row.as_str().expect("row").split_whitespace().enumerate() {
                    tiles.push(format!("{x},{y},{path}"));
                }
            }
            out.push(("tile", vec!["x", "y", "path"], tiles));
            let players = arr(&s["players"]);
            let items = arr(&s["items"])
                .iter()
                .map(|it| {
                    let (name, owner, x, y) = (
                        num(&it[0]),
                        it[1].as_u64().expect("owner"),
                        it[2].as_i64().expect("x"),
                        num(&it[3]),
                    );
                    let place =
                        if x >= 0 { "board".to_string() } else { format!("hand{}", -x - 1) };
                    let quest =
                        arr(&players[owner as usize]["quests"]).iter().any(|q| num(q) == name);
                    format!("{name},{owner},{place},{x},{y},{}", u8::from(quest))
                })
                .collect();
            out.push(("item", vec!["name", "owner", "where", "x", "y", "quest"], items));
            let each = |f: &dyn Fn(usize, &Value) -> Vec<String>| -> Vec<String> {
                players.iter().enumerate().flat_map(|(i, p)| f(i, p)).collect()
            };
            out.push((
                "player",
                vec!["player", "x", "y"],
                each(&|i, p| vec![format!("{i},{},{}", p["x"], p["y"])]),
            ));
            out.push((
                "hand",
                vec!["player", "path"],
                each(&|i, p| vec![format!("{i},{}", num(&p["tile"]))]),
            ));
            out.push((
                "quest",
                vec!["player", "name"],
                each(&|i, p| arr(&p["quests"]).iter().map(|q| format!("{i},{}", num(q))).collect()),
            ));
            out.push((
                "deck",
                vec!["player", "count"],
                each(&|i, p| vec![format!("{i},{}", arr(&p["deck"]).len())]),
            ));
            let mut pushes = Vec::new();
            if k > 0 && state(rec, k - 1)["turn_type"] == "PUSH" {
                for (i, line) in arr(&rec["turns"][k - 1]["actions"]).iter().enumerate() {
                    let words: Vec<String> = line
                        .as_str()
                        .unwrap_or("")
                        .split_whitespace()
                        .map(str::to_uppercase)
                        .collect();
                    if let [push, l, dir] = &words[..] {
                        let line_ok = l.parse::<u32>().is_ok_and(|l| l <= 6);
                        if push == "PUSH"
                            && line_ok
                            && ["UP", "DOWN", "LEFT", "RIGHT"].contains(&dir.as_str())
                        {
                            pushes.push(format!("{i},{},{dir}", l.parse::<u32>().unwrap()));
                        }
                    }
                }
            }
            out.push(("push", vec!["player", "line", "direction"], pushes));
            let mut trails = Vec::new();
            if k > 0 && state(rec, k - 1)["turn_type"] == "MOVE" {
                let events = arr(&rec["turns"][k - 1]["events"]);
                for i in 0..players.len() {
                    let moved = format!("${i} moved ");
                    let steps = events
                        .iter()
                        .filter(|e| e.as_str().is_some_and(|e| e.starts_with(&moved)))
                        .count();
                    if steps > 0 {
                        trails.push(format!("{i},{steps}"));
                    }
                }
            }
            out.push(("trail", vec!["player", "steps"], trails));
        }
        "photosynthesis" => {
            // The board's neighbours as the referee sends them (first view: "index richness n0..n5").
            let first_view = rec["initial_views"][0].as_str().expect("initial view");
            let neighbours: Vec<Vec<i64>> = first_view
                .lines()
                .skip(1)
                .take(37)
                .map(|l| {
                    l.split_whitespace().skip(2).map(|n| n.parse().expect("neighbour")).collect()
                })
                .collect();
            let mut first = k;
            while first > 0 && state(rec, first - 1)["day"] == s["day"] {
                first -= 1;
            }
            let direction = s["sun_direction"].as_u64().expect("sun direction") as usize;
            let mut shadow = [0u64; 37];
            for tree in arr(&state(rec, first)["trees"]) {
                let size = tree[1].as_u64().expect("size");
                let mut cell = tree[0].as_i64().expect("cell");
                for _ in 0..size {
                    cell = neighbours[cell as usize][direction];
                    if cell < 0 {
                        break;
                    }
                    shadow[cell as usize] = shadow[cell as usize].max(size);
                }
            }
            let cells =
                arr(&s["richness"]).iter().enumerate().map(|(i, r)| format!("{i},{r}")).collect();
            out.push(("cell", vec!["cell", "richness"], cells));
            let shadows =
                (0..37).filter(|&c| shadow[c] > 0).map(|c| format!("{c},{}", shadow[c])).collect();
            out.push(("shadow", vec!["cell", "size"], shadows));
            let trees = arr(&s["trees"])
                .iter()
                .map(|t| {
                    let (cell, size) = (t[0].as_u64().unwrap() as usize, t[1].as_u64().unwrap());
                    let spooky = size > 0 && shadow[cell] >= size;
                    format!("{cell},{size},{},{},{}", t[2], t[3], u8::from(spooky))
                })
                .collect();
            out.push(("tree", vec!["cell", "size", "owner", "dormant", "spooky"], trees));
            out.push(("sun", vec!["direction"], vec![num(&s["sun_direction"])]));
            out.push(("day", vec!["value"], vec![num(&s["day"])]));
            out.push(("nutrients", vec!["value"], vec![num(&s["nutrients"])]));
            let sun = arr(&s["players"])
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{i},{}", p["sun"]))
                .collect();
            out.push(("sunpoints", vec!["player", "sun"], sun));
        }
        "zuniq" => {
            // Who placed each wall: the player to move before the turn that added it.
            let mut by = std::collections::HashMap::new();
            for j in 1..=k {
                let before: Vec<String> =
                    arr(&state(rec, j - 1)["walls"]).iter().map(num).collect();
                for w in arr(&state(rec, j)["walls"]).iter().map(num) {
                    if !before.contains(&w) {
                        by.insert(w, (num(&state(rec, j - 1)["to_move"]), j));
                    }
                }
            }
            let walls = arr(&s["walls"])
                .iter()
                .map(num)
                .map(|w| {
                    let (who, when) = by.get(&w).cloned().expect("every wall was placed by a turn");
                    format!("{w},{who},{}", u8::from(when == k))
                })
                .collect();
            out.push(("wall", vec!["name", "by", "last"], walls));
            let zones = arr(&s["zones"])
                .iter()
                .map(|z| {
                    format!(
                        "{},{}",
                        z["size"],
                        arr(&z["cells"]).iter().map(num).collect::<Vec<_>>().join(" ")
                    )
                })
                .collect();
            out.push(("zone", vec!["size", "cells"], zones));
        }
        "olymbits" => {
            let games = arr(&s["games"]);
            let players = arr(&s["active"]).len();
            let per = |g: &Value, keys: &[&str]| -> Vec<String> {
                (0..players)
                    .map(|i| {
                        let mut parts = vec![i.to_string()];
                        parts.extend(keys.iter().map(|k| num(&g[*k][i])));
                        parts.join(",")
                    })
                    .collect()
            };
            for g in &games {
                match g["type"].as_str().expect("type") {
                    "hurdles" => {
                        out.push((
                            "runner",
                            vec!["player", "pos", "stun"],
                            per(g, &["pos", "stun"]),
                        ));
                        let hurdles =
                            g["map"].as_str().unwrap().chars().filter(|&c| c == '#').count();
                        let all = vec![String::new(); players * hurdles];
                        out.push(("hurdle", vec![], all));
                    }
                    "archery" => {
                        let cursors = (0..players)
                            .map(|i| format!("{i},{},{}", g["cursors"][i][0], g["cursors"][i][1]))
                            .collect();
                        out.push(("cursor", vec!["player", "x", "y"], cursors));
                        out.push(("wind", vec!["value"], vec![num(&g["wind"])]));
                    }
                    "skating" => {
                        out.push((
                            "skater",
                            vec!["player", "pos", "risk"],
                            per(g, &["pos", "risk"]),
                        ));
                        out.push(("order", vec!["value"], vec![num(&g["order"])]));
                    }
                    "diving" => out.push((
                        "diver",
                        vec!["player", "points", "combo"],
                        per(g, &["points", "combo"]),
                    )),
                    other => panic!("unknown mini-game {other}"),
                }
            }
            let mut medals = Vec::new();
            for (i, per_game) in arr(&s["medals"]).iter().enumerate() {
                for (g, m) in arr(per_game).iter().enumerate() {
                    medals.push(format!("{i},{g},{},{},{}", m[0], m[1], m[2]));
                }
            }
            out.push(("medals", vec!["player", "game", "gold", "silver", "bronze"], medals));
        }
        "wondev-woman" => {
            let (mut cells, mut holes, mut domes) = (Vec::new(), Vec::new(), Vec::new());
            for (y, row) in arr(&s["grid"]).iter().enumerate() {
                for (x, c) in row.as_str().expect("row").chars().enumerate() {
                    match c {
                        '.' => holes.push(format!("{x},{y}")),
                        h => {
                            cells.push(format!("{x},{y},{h}"));
                            if h == '4' {
                                domes.push(format!("{x},{y}"));
                            }
                        }
                    }
                }
            }
            out.push(("cell", vec!["x", "y", "height"], cells));
            out.push(("hole", vec!["x", "y"], holes));
            out.push(("dome", vec!["x", "y"], domes));
            let units = arr(&s["units"]);
            let at = |p: usize, j: usize| {
                (units[p][j][0].as_i64().unwrap(), units[p][j][1].as_i64().unwrap())
            };
            let mut shown = Vec::new();
            for p in 0..2 {
                for j in 0..2 {
                    let (x, y) = at(p, j);
                    // Fog (rules §7): an enemy unit is seen within Chebyshev distance 1 of an own unit.
                    let seen = match fog {
                        None => true,
                        Some(viewer) if viewer == p => true,
                        Some(viewer) => (0..2).any(|v| {
                            let (vx, vy) = at(viewer, v);
                            (vx - x).abs().max((vy - y).abs()) <= 1
                        }),
                    };
                    if seen {
                        shown.push(format!("{p},{j},{x},{y}"));
                    }
                }
            }
            out.push(("unit", vec!["player", "unit", "x", "y"], shown));
        }
        other => panic!("unknown game {other}"),
    }
    out.into_iter().map(|(kind, keys, v)| (kind, keys, sorted(v))).collect()
}

/// The scores the side panel must show at frame `k` (`None`: no running score).
fn expected_scores(rec: &Value, k: usize) -> Option<Vec<String>> {
    let s = state(rec, k);
    let arr = |v: &Value| v.as_array().cloned().unwrap_or_default();
    match rec["game"].as_str()? {
        "xmas-rush" | "photosynthesis" => {
            Some(arr(&s["players"]).iter().map(|p| num(&p["score"])).collect())
        }
        "wondev-woman" => Some(arr(&s["scores"]).iter().map(num).collect()),
        "zuniq" => (k + 1 == frame_count(rec))
            .then(|| arr(&rec["outcome"]["scores"]).iter().map(num).collect()),
        "olymbits" => {
            // The referee's own numbers: each player's score line opens the views (after the two
            // init lines in the first view).
            let view = if k == 0 {
                rec["initial_views"][0].as_str()
            } else {
                rec["turns"][k - 1]["views"].as_array()?.iter().find_map(Value::as_str)
            };
            let skip = if k == 0 { 2 } else { 0 };
            let players = arr(&s["active"]).len();
            Some(match view {
                Some(view) => view
                    .lines()
                    .skip(skip)
                    .take(players)
                    .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
                    .collect(),
                None => arr(&s["medals"])
                    .iter()
                    .map(|m| {
                        arr(m)
                            .iter()
                            .map(|g| 3 * g[0].as_u64().unwrap() + g[1].as_u64().unwrap())
                            .product::<u64>()
                            .to_string()
                    })
                    .collect(),
            })
        }
        _ => None,
    }
}

/// An event about a bad answer: an invalid action, a timeout, a deactivation or an elimination.
fn is_problem(text: &str) -> bool {
    let text = text.to_lowercase();
    ["invalid", "timeout", "not provided", "deactivated", "disqualified", "eliminated"]
        .iter()
        .any(|w| text.contains(w))
}

/// Photosynthesis' colour markup (`¤RED¤`, `§RED§`) removed, as the page shows the text.
fn strip_markup(text: &str) -> String {
    let mut out = text.to_string();
    for open in ['\u{a4}', '\u{a7}'] {
        while let Some(start) = out.find(open) {
            let after = start + open.len_utf8();
            let Some(len) = out[after..].find(open) else { break };
            let name = &out[after..after + len];
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_uppercase()) {
                break;
            }
            out.replace_range(start..after + len + open.len_utf8(), "");
        }
    }
    out
}

/// Checks one observation of the page against frame `k` of `rec`.
fn check_observation(rec: &Value, observation: &Value, k: usize, fog: Option<usize>) {
    let label = observation["label"].as_str().unwrap_or("?");
    let context = format!("{} seed {} frame {k} ({label})", rec["game"], rec["seed"]);
    assert_eq!(observation["turn"], k, "{context}: the page shows another turn");
    assert_eq!(observation["slider"], k, "{context}: the slider is elsewhere");
    for (kind, keys, expected) in expected_drawing(rec, k, fog) {
        assert_eq!(
            drawn(observation, kind, &keys),
            expected,
            "{context}: drawn {kind} ({})",
            keys.join(",")
        );
    }
    let scores: Vec<String> =
        observation["scores"].as_array().expect("scores").iter().map(num).collect();
    assert_eq!(scores, expected_scores(rec, k).unwrap_or_default(), "{context}: scores");
    // Actions: each printed line with its player (the mover in alternating games).
    let expected_actions: Vec<(u64, Value)> = if k == 0 {
        Vec::new()
    } else {
        let turn = &rec["turns"][k - 1];
        let actions = turn["actions"].as_array().expect("actions");
        match rec["game"].as_str().unwrap() {
            "zuniq" => vec![(state(rec, k - 1)["to_move"].as_u64().unwrap(), actions[0].clone())],
            "wondev-woman" => vec![(turn["player"].as_u64().unwrap(), actions[0].clone())],
            _ => actions.iter().enumerate().map(|(i, a)| (i as u64, a.clone())).collect(),
        }
    };
    let shown: Vec<(u64, Value)> = observation["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| (a["player"].as_u64().unwrap(), a["line"].clone()))
        .collect();
    assert_eq!(shown, expected_actions, "{context}: actions");
    // Events: the referee's, in order (string events verbatim), problems marked.
    let events = if k == 0 { &rec["setup_events"] } else { &rec["turns"][k - 1]["events"] };
    let events = events.as_array().cloned().unwrap_or_default();
    let shown = observation["events"].as_array().expect("events");
    let last = k + 1 == frame_count(rec);
    let expected_count =
        if events.is_empty() && !last { 1 } else { events.len() + usize::from(last) };
    assert_eq!(shown.len(), expected_count, "{context}: events {shown:?}");
    let mut red = false;
    for (event, shown) in events.iter().zip(shown) {
        if let Some(text) = event.as_str() {
            red |= text.contains("\u{a4}RED\u{a4}");
            assert_eq!(shown["text"], strip_markup(text), "{context}: event");
            if red {
                assert_eq!(shown["cls"], "bad", "{context}: a red event not marked: {text}");
            }
            red &= !text.contains("\u{a7}RED\u{a7}");
        }
        let text = shown["text"].as_str().unwrap_or("").to_lowercase();
        if is_problem(&text) {
            assert_eq!(shown["cls"], "bad", "{context}: a problem event not marked: {text}");
        }
    }
    if last {
        let end = shown.last().and_then(|e| e["text"].as_str()).unwrap_or("");
        assert!(end.starts_with("end: "), "{context}: no end line: {end}");
    }
    // Views: the text each player is sent next, verbatim.
    let views = if k == 0 { &rec["initial_views"] } else { &rec["turns"][k - 1]["views"] };
    let expected_views: Vec<(u64, String)> = views
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            v.as_str().filter(|v| !v.is_empty()).map(|v| (i as u64, v.to_string()))
        })
        .collect();
    let shown: Vec<(u64, String)> = observation["views"]
        .as_array()
        .expect("views")
        .iter()
        .map(|v| (v["player"].as_u64().unwrap(), v["text"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(shown, expected_views, "{context}: views");
    check_layout(rec, observation, k, &context);
}

/// `text` as the index writes it into HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Olymbits' four mini-game panels (x, y, width, height), as the viewer lays them out.
const OLYMBITS_PANELS: [(f64, f64, f64, f64); 4] = [
    (10.0, 10.0, 485.0, 315.0),
    (505.0, 10.0, 485.0, 315.0),
    (10.0, 335.0, 485.0, 315.0),
    (505.0, 335.0, 485.0, 315.0),
];

/// The layout a reader relies on: no text of the board cut off at its edge (nor at an Olymbits
/// panel's edge) and no two texts of one panel on top of each other; the final result in the
/// header only on the last turn; what the page says while a game runs.
fn check_layout(rec: &Value, observation: &Value, k: usize, context: &str) {
    let labels = &observation["labels"];
    let (width, height) = (labels["width"].as_f64().unwrap(), labels["height"].as_f64().unwrap());
    let texts = labels["texts"].as_array().expect("the board's texts");
    let boxes: Vec<(String, f64, f64, f64, f64, Option<u64>)> = texts
        .iter()
        .filter(|t| t["w"].as_f64().unwrap() > 0.0)
        .map(|t| {
            let f = |key: &str| t[key].as_f64().unwrap();
            (
                t["text"].as_str().unwrap().to_string(),
                f("x"),
                f("y"),
                f("w"),
                f("h"),
                t["panel"].as_u64(),
            )
        })
        .collect();
    const SLACK: f64 = 0.5;
    for (text, x, y, w, h, panel) in &boxes {
        let (left, top, right, bottom) = match panel {
            Some(p) => {
                let (px, py, pw, ph) = OLYMBITS_PANELS[*p as usize];
                (px, py, px + pw, py + ph)
            }
            None => (0.0, 0.0, width, height),
        };
        assert!(
            *x >= left - SLACK
                && *y >= top - SLACK
                && x + w <= right + SLACK
                && y + h <= bottom + SLACK,
            "{context}: {text:?} at ({x:.0}, {y:.0}) size {w:.0}×{h:.0} is cut off by its frame \
             ({left}, {top})–({right}, {bottom})"
        );
    }
    if rec["game"] == "olymbits" {
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let overlap_x = (a.1 + a.3).min(b.1 + b.3) - a.1.max(b.1);
                let overlap_y = (a.2 + a.4).min(b.2 + b.4) - a.2.max(b.2);
                assert!(
                    a.5 != b.5 || overlap_x <= 1.0 || overlap_y <= 1.0,
                    "{context}: {:?} and {:?} overlap",
                    a.0,
                    b.0
                );
            }
        }
    }
    let last = k + 1 == frame_count(rec);
    let outcome = observation["outcome"].as_str().unwrap_or("");
    assert_eq!(
        outcome.is_empty(),
        !last || rec["outcome"].is_null(),
        "{context}: header {outcome:?}"
    );
    let kinds: Vec<&str> = observation["drawn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap_or(""))
        .collect();
    match rec["game"].as_str().unwrap() {
        "zuniq" => {
            let label = boxes.iter().find(|b| b.0.starts_with("open cells")).expect("zones label");
            if state(rec, k)["zones"].as_array().unwrap().is_empty() {
                assert!(label.0.ends_with("zone sizes: none closed yet"), "{context}: {}", label.0);
            }
            assert!(!observation["title"].as_str().unwrap().contains("seed"), "Zuniq has no seed");
        }
        "photosynthesis" => {
            // Cell numbers are drawn over the trees, which would hide them.
            let last_tree = kinds.iter().rposition(|k| *k == "tree");
            let first_number = kinds.iter().position(|k| *k == "cell-number").expect("numbers");
            assert!(last_tree.is_none_or(|t| t < first_number), "{context}: trees hide numbers");
            assert_eq!(kinds.iter().filter(|k| **k == "cell-number").count(), 37);
        }
        "wondev-woman" => {
            let size = state(rec, k)["size"].as_u64().unwrap() as usize;
            for axis in ["axis-x", "axis-y"] {
                assert_eq!(kinds.iter().filter(|k| **k == axis).count(), size, "{context}: {axis}");
            }
        }
        _ => {}
    }
}

/// Opens `page` at `#turn=start&probe=turns` and checks every observation: the deep link, the
/// arrow keys and buttons, the slider at `turns`, play and pause, no error, no network.
fn probe_page(
    exe: &Path,
    page: &Path,
    rec: &Value,
    fragment_prefix: &str,
    start: usize,
    turns: &[usize],
) -> Value {
    let probe = turns.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(",");
    let url = file_url(page, &format!("{fragment_prefix}turn={start}&probe={probe}"));
    let dom = run_chromium(exe, &["--virtual-time-budget=10000", "--dump-dom"], &url);
    let result = probe_result(&dom);
    assert_eq!(result["errors"], serde_json::json!([]), "JavaScript errors on {url}");
    assert_eq!(result["resources"], serde_json::json!([]), "the page loaded resources on {url}");
    let observations = result["observations"].as_array().expect("observations");
    let find = |label: &str| -> &Value {
        observations
            .iter()
            .find(|o| o["label"] == label)
            .unwrap_or_else(|| panic!("no {label} observation"))
    };
    let last = frame_count(rec) - 1;
    assert!(start >= 1 && start < last, "the probe's start turn needs a turn on each side");
    check_observation(rec, find("deeplink"), start, None);
    check_observation(rec, find("arrow-right"), start + 1, None);
    check_observation(rec, find("arrow-left-twice"), start - 1, None);
    check_observation(rec, find("next-button"), start, None);
    check_observation(rec, find("prev-button"), start - 1, None);
    for &t in turns {
        check_observation(rec, find(&format!("slider:{t}")), t, None);
        if rec["game"] == "wondev-woman" {
            for p in 0..2 {
                check_observation(rec, find(&format!("fog{p}:{t}")), t, Some(p));
            }
        }
    }
    // Playing from turn 0 advances; once paused the turn stays.
    let played = find("played-then-paused")["turn"].as_u64().expect("turn");
    assert!(played > 0, "play did not advance");
    check_observation(rec, find("played-then-paused"), played as usize, None);
    assert_eq!(find("after-pause")["turn"], played, "the replay went on after pause");
    result
}

/// `twinsim view TRACE --game INDEX -o PAGE`, which must succeed.
fn write_page(trace: &Path, index: usize, page: &Path) {
    let (trace, index, page) = (trace.to_str().unwrap(), index.to_string(), page.to_str().unwrap());
    let out = twinsim(&["view", trace, "--game", &index, "-o", page]);
    assert!(out.status.success(), "twinsim view failed: {}", String::from_utf8_lossy(&out.stderr));
}

/// The page of game `index` of a shipped trace file: every check, then a mid-game screenshot.
fn check_game(game: &str, index: usize) {
    let Some(exe) = chromium() else { return };
    let trace = trace_path(game);
    let rec = read_games(&trace).swap_remove(index);
    let dir = output_dir();
    let page = dir.join(format!("{game}.html"));
    write_page(&trace, index, &page);
    let html = std::fs::read_to_string(&page).expect("page written");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "the page references the network"
    );
    let last = frame_count(&rec) - 1;
    let mid = last / 2;
    // The first, a middle, the next and the last turn.
    probe_page(&exe, &page, &rec, "", mid, &[0, mid / 2, mid + 1, last]);
    if game == "wondev-woman" {
        // The fog has its deep link too, checked at a turn where player 1 cannot see a unit.
        let units_seen = |t: usize| {
            let drawing = expected_drawing(&rec, t, Some(1));
            drawing.iter().find(|(kind, _, _)| *kind == "unit").map_or(0, |(_, _, u)| u.len())
        };
        let fogged = (0..=last).find(|&t| units_seen(t) < 4).expect("a turn with a hidden unit");
        let url = file_url(&page, &format!("turn={fogged}&fog=1&probe="));
        let dom = run_chromium(&exe, &["--virtual-time-budget=10000", "--dump-dom"], &url);
        check_observation(&rec, &probe_result(&dom)["observations"][0], fogged, Some(1));
    }
    let shot = dir.join(format!("{game}.png"));
    let _ = std::fs::remove_file(&shot);
    run_chromium(
        &exe,
        &["--window-size=1400,860", &format!("--screenshot={}", shot.display())],
        &file_url(&page, &format!("turn={mid}")),
    );
    let png =
        std::fs::read(&shot).unwrap_or_else(|e| panic!("no screenshot {}: {e}", shot.display()));
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "{} is not a real screenshot",
        shot.display()
    );
    eprintln!("screenshot of {game} turn {mid}: {}", shot.display());
}

#[test]
fn xmas_rush_page_draws_the_trace() {
    check_game("xmas-rush", 0);
}

#[test]
fn photosynthesis_page_draws_the_trace() {
    check_game("photosynthesis", 0);
}

#[test]
fn zuniq_page_draws_the_trace() {
    check_game("zuniq", 0);
}

#[test]
fn olymbits_page_draws_the_trace() {
    check_game("olymbits", 0);
}

#[test]
fn wondev_woman_page_draws_the_trace() {
    // Game 2 (92 turns) rather than game 0 (8 turns), for a mid-game worth a screenshot.
    check_game("wondev-woman", 2);
}

/// For every game, the first turn of the shipped traces whose events report a bad answer: the page
/// shows that turn's events verbatim and marks them.
#[test]
fn problem_events_are_shown_and_marked() {
    let Some(exe) = chromium() else { return };
    for game in ["xmas-rush", "photosynthesis", "zuniq", "olymbits", "wondev-woman"] {
        let trace = trace_path(game);
        let games = read_games(&trace);
        let found = games.iter().enumerate().find_map(|(g, rec)| {
            let turns = rec["turns"].as_array()?;
            let k = turns.iter().position(|t| {
                t["events"].as_array().is_some_and(|events| {
                    events.iter().any(|e| match e.as_str() {
                        Some(text) => is_problem(text),
                        None => e["type"] == "eliminated",
                    })
                })
            })?;
            // The probe needs a turn before and after its start.
            (turns.len() >= 3).then_some((g, k + 1))
        });
        let (g, frame) = found.unwrap_or_else(|| panic!("{game}: no trace reports a bad answer"));
        let rec = &games[g];
        let page = output_dir().join(format!("{game}-problem.html"));
        write_page(&trace, g, &page);
        let last = frame_count(rec) - 1;
        probe_page(&exe, &page, rec, "", frame.clamp(1, last - 1), &[frame]);
    }
}

#[test]
fn a_page_of_many_games_picks_by_deep_link() {
    let Some(exe) = chromium() else { return };
    let trace = trace_path("zuniq");
    let games = read_games(&trace);
    let page = output_dir().join("zuniq-all.html");
    let out = twinsim(&["view", trace.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let result = probe_page(&exe, &page, &games[3], "game=3&", 2, &[5]);
    assert_eq!(result["games"], games.len());
    let first = &result["observations"][0];
    assert_eq!(first["game"], 3);
    // The drawing is game 3's (probe_page compared it); Zuniq's title shows no seed.
    let title = first["title"].as_str().unwrap();
    assert!(title.starts_with("zuniq · ") && !title.contains("seed"), "{title}");
}

#[test]
fn view_rejects_bad_input_with_a_message() {
    let dir = tempdir("bad-input");
    let out_page = dir.join("x.html");
    let cases: [(&str, Option<&str>, &str); 4] = [
        ("missing.jsonl", None, "cannot read"),
        ("bad.jsonl", Some("{\"game\":\"zuniq\"\n"), "bad.jsonl:1: not JSON"),
        (
            "chess.jsonl",
            Some("{\"game\":\"chess\",\"initial\":{},\"turns\":[]}\n"),
            "unknown game \"chess\"",
        ),
        ("empty.jsonl", Some("\n"), "no game in the file"),
    ];
    for (name, content, message) in cases {
        let file = dir.join(name);
        if let Some(content) = content {
            std::fs::write(&file, content).unwrap();
        }
        let out = twinsim(&["view", file.to_str().unwrap(), "-o", out_page.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(message), "{name}: {stderr:?} should say {message:?}");
    }
    let trace = trace_path("zuniq");
    let out = twinsim(&[
        "view",
        trace.to_str().unwrap(),
        "--game",
        "46",
        "-o",
        out_page.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds 46 game(s)"));
    assert!(!out_page.exists(), "no page is written on an error");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn arena_out_writes_an_index_linking_every_replay() {
    let Some(exe) = chromium() else { return };
    let dir = tempdir("arena");
    let out_dir = dir.join("run");
    // Bot 1 crashes at once: every game of the run is short, and the index must mark the crash.
    let out = twinsim(&[
        "arena",
        "zuniq",
        "--bot",
        "builtin:greedy",
        "--bot",
        "exit 3",
        "--games",
        "2",
        "--threads",
        "1",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    // Bot 1 crashed in every game: the run says so and fails, the index is written all the same.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "arena: {stderr}");
    assert!(stderr.contains("`exit 3` crashed or did not start in every game"), "{stderr}");
    let index = out_dir.join("index.html");
    let html = std::fs::read_to_string(&index).expect("index.html written");
    let results: Vec<Value> = read_games(&out_dir.join("results.jsonl"));
    assert_eq!(results.len(), 2);
    for result in &results {
        let n = result["index"].as_u64().unwrap();
        let link = format!("replays/game-{n}.html");
        assert!(html.contains(&format!("href=\"{link}\"")), "no link to {link}");
        assert!(out_dir.join(&link).exists(), "{link} missing");
    }
    // Seats rotate: bot 1 crashed in seat 1 of game 0 and seat 0 of game 1.
    assert_eq!(html.matches("class=\"mark crash\"").count(), 2, "{html}");
    assert_eq!(html.matches("data-result=\"win\"").count(), 2, "greedy wins both: {html}");
    // The CLI's table (win rate with its interval, Elo, skill) and the running win rate chart.
    assert!(html.contains("<pre id=\"standings\">2 games of zuniq"), "{html}");
    for column in ["win rate (95% CI)", "skill", "Elo difference (bot 0 - bot 1)"] {
        assert!(html.contains(&escape(column)), "no {column} in the index: {html}");
    }
    assert!(html.contains("data-bot=\"0\" data-final=\"1.0000\""), "{html}");
    assert!(html.contains("data-bot=\"1\" data-final=\"0.0000\""), "{html}");
    assert!(html.contains("<th>bot seed</th>"), "Zuniq's seed only seeds the bots: {html}");
    let dom = run_chromium(&exe, &["--dump-dom"], &file_url(&index, ""));
    assert_eq!(dom.matches("<tr data-index=").count(), 2, "rows of the index in the browser");
    // A linked replay opens and draws the arena's trace.
    let page = out_dir.join("replays/game-0.html");
    let dom = run_chromium(
        &exe,
        &["--virtual-time-budget=5000", "--dump-dom"],
        &file_url(&page, "turn=0&probe=0"),
    );
    let result = probe_result(&dom);
    assert_eq!(result["errors"], serde_json::json!([]));
    let traces = read_games(&out_dir.join("traces.jsonl"));
    let bots = ["builtin:greedy", "exit 3"];
    let first = results.iter().find(|r| r["index"] == 0).expect("game 0");
    let seat_bots: Vec<&str> = first["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| bots[b.as_u64().unwrap() as usize])
        .collect();
    let rec = traces
        .iter()
        .find(|t| t["seed"] == first["seed"] && t["params"]["bots"] == serde_json::json!(seat_bots))
        .expect("game 0's trace");
    check_observation(rec, &result["observations"][0], 0, None);
    // Zuniq has no randomness: the arena's seed only seeded the bots, and the page shows none.
    let title = result["observations"][0]["title"].as_str().unwrap();
    assert!(!title.contains("seed"), "{title}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Replaces every string of `value` (but the game's name, which picks the drawing code) with a
/// script payload, and every `to_move` and `player` number too (the viewer interpolates them).
fn poison(value: &mut Value, key: &str) {
    const PAYLOAD: &str = "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">\
        <script>document.body.setAttribute('data-pwned','1')</script>\"'><svg onload=\"document\
        .body.setAttribute('data-pwned','1')\">";
    match value {
        Value::String(s) if key != "game" => *s = format!("{s}{PAYLOAD}"),
        Value::Number(_) if key == "to_move" || key == "player" => {
            *value = Value::String(PAYLOAD.into())
        }
        Value::Array(items) => items.iter_mut().for_each(|v| poison(v, key)),
        Value::Object(map) => map.iter_mut().for_each(|(k, v)| poison(v, k)),
        _ => {}
    }
}

/// A trace whose every string field is a script payload: the page shows it as text, and no
/// script of it runs (escaping, and the page's Content-Security-Policy behind it).
#[test]
fn no_script_from_a_trace_runs_in_the_page() {
    let Some(exe) = chromium() else { return };
    let dir = output_dir();
    for game in ["zuniq", "wondev-woman", "olymbits"] {
        let mut rec = read_games(&trace_path(game)).swap_remove(0);
        poison(&mut rec, "");
        let trace = dir.join(format!("{game}-poisoned.jsonl"));
        std::fs::write(&trace, format!("{rec}\n")).expect("trace written");
        let page = dir.join(format!("{game}-poisoned.html"));
        write_page(&trace, 0, &page);
        let html = std::fs::read_to_string(&page).expect("page written");
        assert!(html.contains("Content-Security-Policy"), "the page has a policy");
        // One page load draws turn 1 (the deep link), then 0 and the last through the slider,
        // and plays from 0 (the probe): a payload that ran anywhere marks the body.
        let last = frame_count(&rec) - 1;
        let url = file_url(&page, &format!("turn=1&probe=0,{last}"));
        let dom = run_chromium(&exe, &["--virtual-time-budget=10000", "--dump-dom"], &url);
        assert!(!dom.contains("data-pwned=\"1\""), "{game}: a payload ran");
        let result = probe_result(&dom);
        let observations = result["observations"].as_array().expect("observations");
        for (turn, label) in
            [(1, "deeplink".to_string()), (0, "slider:0".into()), (last, format!("slider:{last}"))]
        {
            let seen = observations
                .iter()
                .find(|o| o["label"] == label.as_str())
                .unwrap_or_else(|| panic!("{game}: no {label} observation"));
            assert_eq!(seen["turn"], turn, "{game} turn {turn}: drawn");
            let drawn = seen["drawn"].as_array().map_or(0, Vec::len);
            assert!(drawn > 0, "{game} turn {turn}: nothing drawn");
        }
        // The page's elements' text (what the probe read with textContent) holds the payload as
        // written: shown as text, not parsed as markup.
        let shown_as_text =
            observations.iter().any(|o| o.to_string().contains("<img src=x onerror="));
        assert!(shown_as_text, "{game}: the payloads are shown as text");
    }
}
