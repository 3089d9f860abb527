//! Into the contest: every example bot, bundled by `twinsim bundle` into one file, compiles with
//! plain `rustc --edition 2021 -O` (no Cargo, no registry), stays under CodinGame's 100,000
//! characters, and plays exactly like its source: in the arena, with a fixed iteration budget
//! and seed, the game [bundle, source] and the game [source, bundle] (the bots under the same
//! names) give byte-identical traces, so both seats' answers are the source's.
//!
//! `cargo test` builds the examples before it runs the tests; this test fails, saying so, when
//! run in a way that did not build them.

use crate::common;
use common::example;
use std::path::{Path, PathBuf};
use std::process::Command;
use twinsim::bundle;

/// (trace name, example name, seats).
const GAMES: [(&str, &str, usize); 5] = [
    ("xmas-rush", "xmas_rush_bot", 2),
    ("photosynthesis", "photosynthesis_bot", 2),
    ("zuniq", "zuniq_bot", 2),
    ("olymbits", "olymbits_bot", 3),
    ("wondev-woman", "wondev_woman_bot", 2),
];

/// Iterations per move: deterministic, and cheap for the unbundled example's test build.
const ITERATIONS: &str = "40";

/// Bundles the example of `name` into `dir` and compiles it with plain rustc; the executable.
fn bundle_and_compile(name: &str, dir: &Path) -> (PathBuf, usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let source = root.join("examples").join(format!("{name}.rs"));
    let text = bundle::bundle(root, &source, None).expect("the example bundles");
    let size = bundle::size(&text);
    let file = dir.join(format!("{name}.rs"));
    std::fs::write(&file, &text).expect("the bundle is written");
    let exe = dir.join(format!("{name}_bundled"));
    let out = Command::new("rustc")
        .args(["--edition", "2021", "-O", "-o"])
        .arg(&exe)
        .arg(&file)
        .output()
        .expect("rustc runs");
    assert!(
        out.status.success(),
        "{name}: the bundle does not compile with plain rustc\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (exe, size)
}

/// One arena game of `game` run in `dir` between `./seat0`, `./seat1` (and `./seat2`), seed
/// fixed, every bot on the fixed iteration budget: the trace file's text.
fn play(game: &str, dir: &Path, seats: usize) -> String {
    let out_dir = dir.join("out");
    let _ = std::fs::remove_dir_all(&out_dir);
    let mut arena = Command::new(env!("CARGO_BIN_EXE_twinsim"));
    arena.current_dir(dir).args(["arena", game]);
    for seat in 0..seats {
        arena.args(["--bot", &format!("./seat{seat}")]);
    }
    let out = arena
        .args(["--games", "1", "--seed", "7", "--threads", "1", "--time-scale", "20", "--json"])
        .arg("--out")
        .arg(&out_dir)
        .env("TWINSIM_ITERATIONS", ITERATIONS)
        .env("TWINSIM_TIME_SCALE", "20")
        .output()
        .expect("the arena runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{game}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
    for bot in report["bots"].as_array().expect("bots") {
        for problem in ["timeouts", "crashes", "invalid", "illegal", "not_started"] {
            assert_eq!(bot[problem], 0, "{game}: {problem}\n{report}");
        }
    }
    std::fs::read_to_string(out_dir.join("traces.jsonl")).expect("the game's trace")
}

/// Plays [bundle, source, ...] and [source, bundle, ...] under the same bot names: the traces
/// must be the same bytes.
fn plays_like_its_source(game: &str, name: &str, seats: usize, bundled: &Path, dir: &Path) {
    let source = example(name);
    let games = [(bundled, source.as_path()), (source.as_path(), bundled)];
    let mut traces = Vec::new();
    for (k, (first, others)) in games.into_iter().enumerate() {
        let run = dir.join(format!("run{k}"));
        std::fs::create_dir_all(&run).expect("a run folder");
        for seat in 0..seats {
            let bot = if seat == 0 { first } else { others };
            std::fs::copy(bot, run.join(format!("seat{seat}"))).expect("the bot is copied");
        }
        traces.push(play(game, &run, seats));
    }
    assert!(!traces[0].is_empty(), "{game}: an empty trace");
    assert!(
        traces[0] == traces[1],
        "{game}: the bundle plays differently from its source ([bundle, source] against \
         [source, bundle]): see the traces under {}",
        dir.display()
    );
}

/// One test: the five bundles compile in parallel (rustc -O is most of the time), then each
/// plays its two games.
#[test]
fn every_bundled_example_compiles_alone_and_plays_like_its_source() {
    let base = std::env::temp_dir().join(format!("twinsim-bundle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let builds: Vec<(usize, PathBuf, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = GAMES
            .iter()
            .enumerate()
            .map(|(i, (_, name, _))| {
                let dir = base.join(name);
                scope.spawn(move || {
                    std::fs::create_dir_all(&dir).expect("a bundle folder");
                    let (exe, size) = bundle_and_compile(name, &dir);
                    (i, exe, size)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a bundle thread")).collect()
    });
    for (i, exe, size) in builds {
        let (game, name, seats) = GAMES[i];
        println!("{game}: bundle of examples/{name}.rs: {size} characters");
        assert!(size <= bundle::DEFAULT_LIMIT, "{game}: {size} characters, over the limit");
        plays_like_its_source(game, name, seats, &exe, &base.join(name));
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// `twinsim bundle` refuses a bundle over `--limit` (exit 1, nothing written) and writes one
/// under it, printing its size.
#[test]
fn the_cli_refuses_a_bundle_over_the_limit() {
    let dir = std::env::temp_dir().join(format!("twinsim-bundle-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let out = dir.join("submission.rs");
    let run = |limit: &str| {
        Command::new(env!("CARGO_BIN_EXE_twinsim"))
            .args(["bundle", concat!(env!("CARGO_MANIFEST_DIR"), "/examples/zuniq_bot.rs")])
            .args(["--game", "zuniq", "--limit", limit, "-o"])
            .arg(&out)
            .output()
            .expect("twinsim runs")
    };
    let refused = run("1000");
    assert_eq!(refused.status.code(), Some(1), "{}", String::from_utf8_lossy(&refused.stderr));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("over the limit of 1000"));
    assert!(!out.exists(), "nothing is written over the limit");
    let written = run("100000");
    assert!(written.status.success(), "{}", String::from_utf8_lossy(&written.stderr));
    let size = std::fs::read_to_string(&out).expect("the bundle").chars().count();
    assert!(String::from_utf8_lossy(&written.stdout).contains(&format!("{size} characters")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game is detected from a game's module or one of its parts (`zuniq_mcts`), never from a
/// longer name that only starts like one, and two games are refused.
#[test]
fn the_game_is_detected_from_its_module_or_a_part_of_it() {
    let detect = |source: &str| bundle::detect_game(source);
    assert_eq!(detect("use twinsim_search::zuniq_mcts::ZuniqBot;"), Ok("zuniq"));
    assert_eq!(detect("use twinsim_search::photosynthesis_days::search;"), Ok("photosynthesis"));
    assert_eq!(detect("use twinsim_fast::wondev_woman::State;"), Ok("wondev_woman"));
    assert!(detect("use twinsim_search::zuniqs::Bot;").is_err(), "not a part of zuniq");
    assert!(detect("use a::zuniq_mcts; use b::olymbits;").is_err(), "two games");
}

/// An example executable older than a source it was built from is reported (what
/// `common::example` refuses): `cargo test --test bundle` builds no example, and a stale Zuniq
/// example once made its bundle seem to play differently from its source.
#[test]
fn a_stale_example_is_refused() {
    use std::time::{Duration, SystemTime};
    let dir = std::env::temp_dir().join(format!("twinsim-stale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let exe = dir.join("bot");
    let source = dir.join("a source.rs");
    std::fs::write(&exe, "").expect("an executable");
    std::fs::write(&source, "").expect("a source");
    assert_eq!(common::newer_source(&exe), Some(dir.join("bot.d")), "no dep-info: refused");
    let escaped = source.display().to_string().replace(' ', "\\ ");
    std::fs::write(dir.join("bot.d"), format!("{}: {escaped}\n", exe.display())).expect("dep-info");
    let set = |path: &Path, time: SystemTime| {
        let file = std::fs::File::options().write(true).open(path).expect("opened");
        file.set_modified(time).expect("a modification time");
    };
    let now = SystemTime::now();
    set(&source, now - Duration::from_secs(60));
    set(&exe, now);
    assert_eq!(common::newer_source(&exe), None, "built after its source");
    set(&source, now + Duration::from_secs(60));
    assert_eq!(common::newer_source(&exe), Some(source), "the source changed since");
    let _ = std::fs::remove_dir_all(&dir);
}
