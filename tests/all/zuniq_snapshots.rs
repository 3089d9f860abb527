//! Zuniq pictures pinned by insta: rendered boards and views of a few positions of the traced
//! games, one golden playthrough, and a perft table (reference engine).

use std::fmt::Write;
use twinsim_reference::game::TracePlay;
use twinsim_reference::trace::{parse_jsonl, TraceGame};
use twinsim_reference::zuniq;

fn traced_game(seed: i64) -> TraceGame {
    let text = include_str!("../traces/zuniq.jsonl");
    parse_jsonl(text).unwrap().into_iter().find(|g| g.seed == Some(seed)).unwrap()
}

fn start() -> Box<dyn TracePlay> {
    zuniq::engine().unwrap().setup(None, &serde_json::json!({})).unwrap()
}

fn with_snapshots(f: impl FnOnce()) {
    twinsim_reference::testing::snapshot_settings("zuniq").bind(f);
}

/// The board after `plies` turns of a traced game, plus that turn's views and events.
fn position_after(seed: i64, plies: usize, colour: bool) -> String {
    let game = traced_game(seed);
    let mut play = start();
    for turn in game.turns.iter().take(plies) {
        play.play_turn(&turn.actions).unwrap();
    }
    let record = play.turn_record();
    format!(
        "{}views: {}\nevents: {}\n",
        play.render(colour),
        serde_json::json!(record.views),
        serde_json::json!(record.events)
    )
}

#[test]
fn zuniq_boards_of_traced_positions() {
    with_snapshots(|| {
        insta::assert_snapshot!("board_empty", start().render(false));
        insta::assert_snapshot!("board_seed1_ply20", position_after(1, 20, false));
        insta::assert_snapshot!("board_seed2_ply24", position_after(2, 24, false));
        insta::assert_snapshot!("board_seed39_end", position_after(39, 38, false));
        insta::assert_snapshot!("board_seed23_invalid", position_after(23, 34, false));
        insta::assert_snapshot!("board_seed24_colour", position_after(24, 38, true));
    });
}

#[test]
fn zuniq_golden_playthrough() {
    // Seed 4 (top and only league): both players claim, zones close, White loses with 0.
    let game = traced_game(4);
    let mut play = start();
    let mut out = String::new();
    let initial = play.initial_record();
    writeln!(out, "initial_views: {}", initial.to_map()["initial_views"]).unwrap();
    out.push_str(&play.render(false));
    for (i, turn) in game.turns.iter().enumerate() {
        play.play_turn(&turn.actions).unwrap();
        let record = play.turn_record();
        writeln!(out, "\n--- turn {}: actions {:?}", i + 1, turn.actions).unwrap();
        writeln!(out, "views: {}", serde_json::json!(record.views)).unwrap();
        writeln!(out, "events: {}", serde_json::json!(record.events)).unwrap();
        out.push_str(&play.render(false));
    }
    writeln!(out, "\noutcome: {}", play.outcome().unwrap()).unwrap();
    with_snapshots(|| insta::assert_snapshot!("playthrough_seed4", out));
}

#[test]
fn zuniq_perft_table() {
    let positions = [
        ("empty", vec![]),
        ("seed 1, ply 12", traced_game(1).turns[..12].to_vec()),
        ("seed 3, ply 28", traced_game(3).turns[..28].to_vec()),
    ];
    let mut out = String::new();
    for (name, turns) in positions {
        let mut play = start();
        for turn in &turns {
            play.play_turn(&turn.actions).unwrap();
        }
        let counts: Vec<String> =
            (1..=2).map(|d| play.perft(d).unwrap_or_default().to_string()).collect();
        writeln!(out, "{name}: {}", counts.join(" / ")).unwrap();
    }
    with_snapshots(|| insta::assert_snapshot!("perft_reference", out));
}

#[test]
fn zuniq_perft_table_fast() {
    // Depths the reference cannot reach in a test, through the fast engine only; the rules doc
    // §5.1 gives the same numbers from the oracle engine.
    let positions = [
        ("empty", vec![]),
        ("seed 1, ply 12", traced_game(1).turns[..12].to_vec()),
        ("seed 1, ply 20", traced_game(1).turns[..20].to_vec()),
        ("seed 2, ply 24", traced_game(2).turns[..24].to_vec()),
        ("seed 3, ply 28", traced_game(3).turns[..28].to_vec()),
    ];
    let mut out = String::new();
    for (name, turns) in positions {
        let mut play =
            twinsim_fast::zuniq::engine().unwrap().setup(None, &serde_json::json!({})).unwrap();
        for turn in &turns {
            play.play_turn(&turn.actions).unwrap();
        }
        let counts: Vec<String> =
            (1..=4).map(|d| play.perft(d).unwrap_or_default().to_string()).collect();
        writeln!(out, "{name}: {}", counts.join(" / ")).unwrap();
    }
    with_snapshots(|| insta::assert_snapshot!("perft_fast", out));
}
