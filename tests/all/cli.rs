//! The command-line contract: exit codes, the summary line, readable mismatches.

use crate::trace_subset::{trace_subset, TRACE_SUBSET_GAMES};
use std::process::Command;

fn twinsim(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_twinsim")).args(args).output().expect("runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn temp_file(name: &str, content: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("twinsim-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, content).expect("temp file written");
    path
}

#[test]
fn unreadable_input_exits_2() {
    let (code, text) = twinsim(&["replay", "/nonexistent/trace.jsonl"]);
    assert_eq!(code, 2, "{text}");
    let bad = temp_file("bad.jsonl", "{not json\n");
    let (code, text) = twinsim(&["replay", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("line 1"), "{text}");
}

#[test]
fn unknown_game_exits_2() {
    let file = temp_file("chess.jsonl", r#"{"game":"chess","seed":1,"params":{},"turns":[]}"#);
    let (code, text) = twinsim(&["replay", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
}

#[test]
fn replay_ends_with_exactly_one_summary_line_and_fails_unless_all_pass() {
    let traces = trace_subset().join("zuniq.jsonl");
    let (code, text) = twinsim(&["replay", traces.to_str().unwrap()]);
    let summaries: Vec<&str> = text.lines().filter(|l| l.starts_with("replayed ")).collect();
    assert_eq!(summaries.len(), 1, "{text}");
    let line = summaries[0];
    let ok = line.ends_with(": 0 mismatches, 0 skipped");
    assert_eq!(code == 0, ok, "exit {code} with {line}");
}

#[test]
fn a_doctored_trace_is_reported_as_a_readable_mismatch() {
    let traces =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/zuniq.jsonl"))
            .unwrap();
    let first = traces.lines().next().unwrap();
    // Claim the first game started with a wall already placed.
    let doctored = first.replacen(r#""walls":[]"#, r#""walls":["A1h"]"#, 1);
    assert_ne!(first, doctored);
    let file = temp_file("doctored.jsonl", &doctored);
    let (code, text) = twinsim(&["replay", file.to_str().unwrap(), "--engine", "reference"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("MISMATCH zuniq seed 1"), "{text}");
    assert!(text.contains("setup  field initial.walls"), "{text}");
    assert!(text.contains("replayed 1 games, 0 turns: 1 mismatches, 0 skipped"), "{text}");
}

#[test]
fn verify_json_reports_every_game_and_passes() {
    let traces = trace_subset().to_str().unwrap();
    let (code, text) =
        twinsim(&["verify", "--games", "3", "--json", "--strict", "--traces", traces]);
    assert_eq!(code, 0, "{text}");
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(report["ok"], true);
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 5);
    for r in results {
        assert_eq!(r["random_games"]["ok"], 3, "{r}");
        for engine in ["traces_reference", "traces_fast"] {
            assert_eq!(r[engine]["ok"], TRACE_SUBSET_GAMES, "{engine} {r}");
            assert_eq!(r[engine]["total"], TRACE_SUBSET_GAMES, "{engine} {r}");
        }
    }
}

#[test]
fn perft_is_the_same_through_both_engines() {
    let (code, text) = twinsim(&["perft", "wondev-woman", "--depth", "2", "--seed", "5"]);
    assert_eq!(code, 0, "{text}");
    let leaves: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("2 "))
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(leaves.len(), 2, "{text}");
    assert_eq!(leaves[0], leaves[1], "reference and fast perft differ: {text}");
    let (code, _) = twinsim(&["perft", "olymbits", "--depth", "1"]);
    assert_eq!(code, 2, "perft of a simultaneous game is refused");
}

#[test]
fn show_draws_a_position_after_some_turns_of_an_actions_file() {
    let actions = temp_file("zuniq-actions.txt", "A1h\nB2v\nC3h\n");
    let (code, text) =
        twinsim(&["show", "zuniq", "--turn", "2", "--actions", actions.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    let (_, after_three) = twinsim(&["show", "zuniq", "--actions", actions.to_str().unwrap()]);
    assert_ne!(text, after_three, "the position depends on --turn");
    let (code, _) = twinsim(&["show", "no-such-game"]);
    assert_eq!(code, 2);
}

/// The `index`-th (0-based) game of a shipped trace file, as JSON.
fn shipped_game(game: &str, index: usize) -> serde_json::Value {
    let path = format!("{}/tests/traces/{game}.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(text.lines().nth(index).unwrap()).unwrap()
}

#[test]
fn show_takes_seed_and_params_from_the_trace_and_prints_a_seats_exact_view() {
    let traces = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/wondev-woman.jsonl");
    for (index, turn) in [(0usize, 3usize), (4, 5)] {
        let record = shipped_game("wondev-woman", index);
        let views = record["turns"][turn - 1]["views"].as_array().unwrap();
        let seat = views.iter().position(|v| v.as_str().is_some_and(|v| !v.is_empty())).unwrap();
        let expected = format!("{}\n", views[seat].as_str().unwrap());
        let (game, turn_text, seat_text) = (index.to_string(), turn.to_string(), seat.to_string());
        let args = [
            "show",
            "wondev-woman",
            "--actions",
            traces,
            "--game",
            &game,
            "--turn",
            &turn_text,
            "--view",
            &seat_text,
        ];
        let (code, text) = twinsim(&args);
        assert_eq!(code, 0, "{text}");
        assert_eq!(text, expected, "game {game} turn {turn} seat {seat}");
    }
    // A seed beside a trace is refused (the trace's own is used), as is a game past the end.
    let (code, text) = twinsim(&["show", "wondev-woman", "--actions", traces, "--seed", "3"]);
    assert_eq!(code, 2, "{text}");
    let (code, text) = twinsim(&["show", "wondev-woman", "--actions", traces, "--game", "9999"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("holds games 0 to 62"), "{text}");
}

#[test]
fn show_view_at_turn_zero_is_the_init_input_and_first_view() {
    let record = shipped_game("wondev-woman", 0);
    let seed = record["seed"].as_i64().unwrap().to_string();
    let traces = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/wondev-woman.jsonl");
    let (code, text) =
        twinsim(&["show", "wondev-woman", "--actions", traces, "--turn", "0", "--view", "1"]);
    assert_eq!(code, 0, "{text}");
    let expected = format!(
        "{}\n{}\n",
        record["init_input"][1].as_str().unwrap(),
        record["initial_views"][1].as_str().unwrap()
    );
    assert_eq!(text, expected, "seed {seed}");
    let (code, text) = twinsim(&["show", "zuniq", "--view", "2"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("seats 0 to 1"), "{text}");
}

#[test]
fn replay_reports_a_malformed_line_by_number_and_replays_the_rest() {
    let traces =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/zuniq.jsonl"))
            .unwrap();
    let mut lines: Vec<&str> = traces.lines().take(3).collect();
    let last = lines[2];
    let truncated = &last[..last.len() / 2];
    lines[2] = truncated;
    let file = temp_file("truncated.jsonl", &lines.join("\n"));
    let (code, text) = twinsim(&["replay", file.to_str().unwrap(), "--engine", "reference"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("line 3:"), "{text}");
    assert!(text.contains("replayed 2 games"), "{text}");
    assert!(text.contains("1 unreadable lines"), "{text}");
}

#[test]
fn perft_depth_zero_counts_the_position_itself() {
    let (code, text) = twinsim(&["perft", "zuniq", "--depth", "0", "--engine", "fast"]);
    assert_eq!(code, 0, "{text}");
    let row = text.lines().find(|l| l.trim_start().starts_with("0 ")).expect("a depth-0 row");
    assert_eq!(row.split_whitespace().nth(1), Some("1"), "{text}");
}

#[test]
fn every_subcommand_accepts_negative_seeds() {
    let traces = trace_subset().to_str().unwrap();
    let (code, text) =
        twinsim(&["verify", "--seed", "-1", "--games", "1", "--json", "--traces", traces]);
    assert_eq!(code, 0, "{text}");
    let (code, text) = twinsim(&["show", "olymbits", "--seed", "-1"]);
    assert_eq!(code, 0, "{text}");
    let (code, text) = twinsim(&["perft", "wondev-woman", "--depth", "1", "--seed", "-1"]);
    assert_eq!(code, 0, "{text}");
    let (code, text) = twinsim(&[
        "arena",
        "zuniq",
        "--bot",
        "builtin:random",
        "--bot",
        "builtin:random",
        "--games",
        "2",
        "--seed",
        "-1",
    ]);
    assert_eq!(code, 0, "{text}");
}

/// Edge values of every numeric flag: each run ends with a result or a clear error (exit 0, 1 or
/// 2 and no panic message), and quickly (no huge allocation, no thread storm).
#[test]
fn numeric_flags_at_edge_values_give_an_error_or_a_result_never_a_panic() {
    let arena = ["arena", "zuniq", "--bot", "builtin:random", "--bot", "builtin:random"];
    let one_game = [&arena[..], &["--games", "1"]].concat();
    let mut runs: Vec<Vec<String>> = Vec::new();
    let with = |base: &[&str], flag: &str, value: &str| -> Vec<String> {
        let mut v: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        v.push(flag.into());
        v.push(value.into());
        v
    };
    let traces = trace_subset().to_str().unwrap();
    let edges = ["0", "-1", "nan", "inf", "1e300", "4294967296", "1000000000000", "abc"];
    for value in edges {
        runs.push(with(&one_game, "--time-scale", value));
        runs.push(with(&one_game, "--threads", value));
        runs.push(with(&arena, "--games", value));
        runs.push(with(&one_game, "--seed", value));
        runs.push(with(&one_game, "--league", value));
        runs.push(with(&["verify", "--json", "--traces", traces], "--games", value));
        runs.push(with(&["perft", "zuniq"], "--depth", value));
        runs.push(with(&["show", "olymbits"], "--seed", value));
        runs.push(with(&["show", "zuniq"], "--view", value));
        runs.push(with(&["bench", "zuniq"], "--rounds", value));
        runs.push(with(&["payoff", "zuniq"], "--time-scale", value));
        runs.push(with(&["payoff", "zuniq"], "--threads", value));
    }
    // Every edge value above is refused except where it is a valid seed, league, view, depth
    // or verify count (0): those runs are short.
    for args in &runs {
        let quick: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, text) = twinsim(&quick);
        assert!(matches!(code, 0..=2), "{quick:?}: exit {code}\n{text}");
        assert!(!text.contains("panicked"), "{quick:?}: {text}");
        assert!(!text.contains("memory allocation"), "{quick:?}: {text}");
    }
}

#[test]
fn out_of_bounds_counts_and_scales_are_refused_with_the_bound() {
    let arena = ["arena", "zuniq", "--bot", "builtin:random", "--bot", "builtin:random"];
    let cases: [(&[&str], &str, &str); 6] = [
        (&arena, "--time-scale=inf", "finite number above 0"),
        (&arena, "--time-scale=0", "finite number above 0"),
        (&arena, "--threads=100000", "from 1 to 256 threads"),
        (&arena, "--games=1000000000000", "from 1 to 1000000000 games"),
        (&["verify"], "--games=4294967296", "from 0 to 1000000000 games"),
        (&["perft", "zuniq"], "--depth=4294967295", "from 0 to 16 plies"),
    ];
    for (base, flag, message) in cases {
        let args: Vec<&str> = base.iter().copied().chain([flag]).collect();
        let (code, text) = twinsim(&args);
        assert_eq!(code, 2, "{args:?}: {text}");
        assert!(text.contains(message), "{args:?}: {text}");
    }
}

#[test]
fn protocol_prints_the_document_whose_example_is_what_the_seat_reads() {
    for game in ["xmas-rush", "photosynthesis", "zuniq", "olymbits", "wondev-woman"] {
        let (code, printed) = twinsim(&["protocol", game]);
        assert_eq!(code, 0, "{printed}");
        let path = format!("{}/docs/protocol/{game}.md", env!("CARGO_MANIFEST_DIR"));
        let document = std::fs::read_to_string(path).unwrap();
        assert_eq!(printed, document, "{game}: `protocol` prints docs/protocol/{game}.md");
        for section in ["What the bot reads", "What the bot prints", "Time limits", "Bad output"] {
            assert!(document.contains(section), "{game} lacks {section:?}");
        }
        // The example is the last code block: exactly what seat 0 reads first in seed 1 (Zuniq
        // has no seed: every game starts alike, and `show` refuses one).
        let example = document.rsplit("```").nth(1).unwrap().trim_start_matches('\n');
        let seed: &[&str] = if game == "zuniq" { &[] } else { &["--seed", "1"] };
        let (code, reads) = twinsim(&[&["show", game][..], seed, &["--view", "0"]].concat());
        assert_eq!(code, 0, "{reads}");
        assert_eq!(example, reads, "{game}: the example is not what the engine sends");
    }
    let (code, _) = twinsim(&["protocol", "chess"]);
    assert_eq!(code, 2);
}

#[test]
fn show_refuses_engine_both_and_a_league_of_a_game_without_leagues() {
    let (code, text) = twinsim(&["show", "zuniq", "--engine", "both"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("one engine"), "{text}");
    let (code, text) = twinsim(&["show", "zuniq", "--league", "2"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("zuniq has no leagues"), "{text}");
    let arena = ["arena", "zuniq", "--bot", "builtin:random", "--bot", "builtin:random"];
    let (code, text) = twinsim(&[&arena[..], &["--league", "2", "--games", "1"]].concat());
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("zuniq has no leagues"), "{text}");
}

/// The shipped Zuniq traces with line 2 cut short, as a run killed mid-write leaves them.
fn zuniq_traces_with_a_corrupt_second_line(name: &str) -> std::path::PathBuf {
    let traces =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/zuniq.jsonl"))
            .unwrap();
    let mut lines: Vec<&str> = traces.lines().take(3).collect();
    lines[1] = &lines[1][..lines[1].len() / 2];
    temp_file(name, &(lines.join("\n") + "\n"))
}

#[test]
fn view_and_show_read_the_game_asked_for_when_another_line_is_corrupt() {
    let file = zuniq_traces_with_a_corrupt_second_line("corrupt-view.jsonl");
    let file = file.to_str().unwrap();
    let page = std::env::temp_dir().join(format!("twinsim-cli-{}-view.html", std::process::id()));
    let page = page.to_str().unwrap();
    for game in ["0", "2"] {
        let (code, text) = twinsim(&["view", file, "--game", game, "-o", page]);
        assert_eq!(code, 0, "view --game {game}: {text}");
        let (code, text) =
            twinsim(&["show", "zuniq", "--actions", file, "--game", game, "--turn", "3"]);
        assert_eq!(code, 0, "show --game {game}: {text}");
    }
    // The corrupt game itself is refused, naming its line.
    let (code, text) = twinsim(&["view", file, "--game", "1", "-o", page]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("corrupt-view.jsonl:2:"), "{text}");
    let (code, text) = twinsim(&["show", "zuniq", "--actions", file, "--game", "1"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("line 2"), "{text}");
    let _ = std::fs::remove_file(page);
}

#[test]
fn replay_counts_games_not_games_times_engines() {
    let traces = trace_subset().join("zuniq.jsonl");
    let traces = traces.to_str().unwrap();
    let games = std::fs::read_to_string(traces).unwrap().lines().filter(|l| !l.is_empty()).count();
    let (code, both) = twinsim(&["replay", traces, "--engine", "both"]);
    assert_eq!(code, 0, "{both}");
    let (_, one) = twinsim(&["replay", traces, "--engine", "fast"]);
    assert!(both.contains(&format!("replayed {games} games,")), "{both}");
    let turns = |text: &str| text.split(" turns:").next().map(str::to_string);
    assert_eq!(turns(&both), turns(&one), "turns are counted once per game");
}

#[test]
fn verify_refuses_a_missing_trace_directory_and_strict_fails_without_traces() {
    let (code, text) = twinsim(&["verify", "--traces", "/nonexistent", "--games", "0"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no such directory"), "{text}");
    let empty = std::env::temp_dir().join(format!("twinsim-cli-{}-no-traces", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let dir = empty.to_str().unwrap();
    let (code, text) = twinsim(&["verify", "--traces", dir, "--games", "1"]);
    assert_eq!(code, 0, "without --strict, random games alone may pass: {text}");
    assert!(text.contains("no trace file"), "{text}");
    let (code, text) = twinsim(&["verify", "--traces", dir, "--games", "1", "--strict"]);
    assert_eq!(code, 1, "{text}");
    let _ = std::fs::remove_dir(&empty);
}

#[test]
fn help_shows_no_path_of_the_build_machine() {
    for (command, flag) in [("verify", "--traces"), ("bundle", "--root")] {
        let (code, text) = twinsim(&[command, "--help"]);
        assert_eq!(code, 0, "{text}");
        assert!(!text.contains(env!("CARGO_MANIFEST_DIR")), "{command}: {text}");
        assert!(text.contains(flag), "{text}");
    }
}

#[test]
fn perft_and_show_refuse_a_seed_for_zuniq_which_has_no_randomness() {
    let (code, text) = twinsim(&["perft", "zuniq", "--depth", "1", "--seed", "5"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no randomness"), "{text}");
    let (code, text) = twinsim(&["perft", "zuniq", "--depth", "1"]);
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("seed"), "{text}");
    let (code, text) = twinsim(&["show", "zuniq", "--seed", "5"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("zuniq has no randomness"), "{text}");
    let (code, text) = twinsim(&["show", "zuniq", "--view", "0"]);
    assert_eq!(code, 0, "{text}");
    let (code, text) = twinsim(&["show", "olymbits", "--seed", "5", "--view", "0"]);
    assert_eq!(code, 0, "a game with randomness takes a seed: {text}");
}

/// `ladder` plays every seed in both seat orders and prints A's record in each order, in all, and
/// the Elo difference; a game with three seats and a bad bot are refused.
#[test]
fn ladder_plays_both_seat_orders_and_prints_the_elo_row() {
    let args =
        ["ladder", "zuniq", "--a", "builtin:greedy", "--b", "builtin:random", "--seeds", "4"];
    let (code, text) = twinsim(&args);
    assert_eq!(code, 0, "{text}");
    let row = text.lines().find(|l| l.starts_with("| zuniq |")).expect("the row");
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(cells[5], "8", "4 seeds, two orders: {row}");
    let record = |cell: &str| -> Vec<u32> { cell.split('-').map(|n| n.parse().unwrap()).collect() };
    let (all, first, second) = (record(cells[6]), record(cells[7]), record(cells[8]));
    assert_eq!(first.iter().sum::<u32>(), 4, "{row}");
    assert_eq!(second.iter().sum::<u32>(), 4, "{row}");
    assert_eq!((0..3).map(|i| first[i] + second[i]).collect::<Vec<_>>(), all, "{row}");
    assert!(cells[10].contains('['), "Elo with its interval: {row}");
    // The same seeds give the same row (deterministic bots).
    assert_eq!(twinsim(&args).1.lines().find(|l| l.starts_with("| zuniq |")), Some(row));
    let (code, text) =
        twinsim(&["ladder", "olymbits", "--a", "builtin:greedy", "--b", "builtin:random"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("not a two-player game"), "{text}");
    let (code, text) =
        twinsim(&["ladder", "zuniq", "--a", "builtin:nosuch", "--b", "builtin:random"]);
    assert_eq!(code, 2, "{text}");
    let (code, _) = twinsim(&[
        "ladder",
        "zuniq",
        "--a",
        "builtin:greedy",
        "--b",
        "builtin:random",
        "--seeds",
        "0",
    ]);
    assert_eq!(code, 2);
}
