//! The contest bots of `examples/` (one per game, built on twinsim-fast and twinsim-search) play
//! whole arena games as processes, exactly as a bot writer would run them, against
//! `builtin:random`: no timeout, no crash, no invalid answer, and a majority of wins.
//!
//! `cargo test` builds the examples before it runs the tests; this test fails, saying so, when
//! run in a way that did not build them.
//!
//! The ordinary test gives the arena's clock a wide margin over the bots' own ([`SLACK`]), so a
//! busy machine (or a debug build) cannot turn a slow answer into a timeout; whether the bots
//! answer within the referee's real limits is the `#[ignore]` test, which CI runs in release.

use crate::common;
use common::example;
use serde_json::Value;
use std::process::Command;

/// How much longer than the bots' own clock the arena waits in the ordinary test: a bot that
/// plans for 50 ms gets 5 s before its answer counts as a timeout.
const SLACK: f64 = 100.0;

/// Plays `games` games (seats rotating) of `game` between the example bot and `builtin:random`
/// (two of them in three-player Olymbits), one game at a time. The bot's own clock runs at
/// `scale` of the referee's limits, the arena's at `scale * slack`; checks the report.
fn example_against_random(game: &str, name: &str, games: usize, scale: f64, slack: f64) {
    let bot = example(name);
    let out_dir =
        std::env::temp_dir().join(format!("twinsim-example-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out_dir);
    let out = Command::new(env!("CARGO_BIN_EXE_twinsim"))
        .args(["arena", game, "--bot"])
        .arg(&bot)
        .args(["--bot", "builtin:random"])
        .args(if game == "olymbits" { &["--bot", "builtin:random"][..] } else { &[] })
        .args(["--games", &games.to_string(), "--threads", "1"])
        .args(["--time-scale", &(scale * slack).to_string(), "--json", "--out"])
        .arg(&out_dir)
        .env("TWINSIM_TIME_SCALE", scale.to_string())
        .output()
        .expect("the arena runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = std::fs::read_dir(out_dir.join("stderr"))
        .into_iter()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_str(&stdout).expect("a JSON report");
    let me = &report["bots"][0];
    let played = report["games"].as_array().map_or(0, Vec::len);
    assert_eq!(played, games, "{game}: {played} games played\n{report}");
    assert_eq!(me["timeouts"], 0, "{game}: the example timed out\n{report}\n{stderr}");
    assert_eq!(me["crashes"], 0, "{game}: the example crashed\n{report}\n{stderr}");
    for g in report["games"].as_array().into_iter().flatten() {
        let reason = g["reason"].as_str().unwrap_or("");
        let lost =
            g["ranks"].as_array().zip(g["seats"].as_array()).is_some_and(|(ranks, seats)| {
                seats.iter().position(|b| b == 0).is_some_and(|seat| ranks[seat] != 1)
            });
        assert!(
            !(lost && reason.contains("invalid")),
            "{game}: the example lost by an invalid answer\n{g}\n{stderr}"
        );
    }
    let wins = me["wins"].as_f64().unwrap_or(0.0);
    assert!(wins * 2.0 > played as f64, "{game}: {wins} wins of {played}\n{report}");
    let _ = std::fs::remove_dir_all(&out_dir);
}

/// The example bots against `builtin:random`, one game after another with the arena's limits
/// [`SLACK`] times the bots' own, so the result does not depend on the machine's load.
#[test]
fn every_example_bot_beats_random() {
    every_example_against_random(4, SLACK);
}

/// The same games under the referee's own limits (the arena's clock equal to the bots'): no
/// timeout. Timing, so release only (CI runs it with `--ignored`; about a minute).
#[test]
#[ignore = "timing (a clock decides the result): run by .ci/run in release, alone: cargo test --release --test release -- --ignored --test-threads 1 timing_"]
fn timing_every_example_bot_answers_within_the_referee_limits() {
    every_example_against_random(3, 1.0);
}

/// One game after another: the bots think against the clock, and parallel games would make them
/// share the cores with each other.
fn every_example_against_random(games: usize, slack: f64) {
    example_against_random("xmas-rush", "xmas_rush_bot", games, 1.0, slack);
    example_against_random("photosynthesis", "photosynthesis_bot", games, 1.0, slack);
    // Zuniq's 30 s per game, scaled to 1.5 s.
    example_against_random("zuniq", "zuniq_bot", games, 0.05, slack);
    example_against_random("olymbits", "olymbits_bot", games.min(3), 1.0, slack);
    example_against_random("wondev-woman", "wondev_woman_bot", games, 1.0, slack);
}
