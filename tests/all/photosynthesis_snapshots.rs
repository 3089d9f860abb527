//! insta snapshots: boards and views of a few seeded positions, and one golden playthrough per
//! league (every turn's board, actions and views), like OpenSpiel's playthrough files.

use twinsim_reference::game::TracePlay;
use twinsim_reference::photosynthesis::{trace::Play, Params};
use twinsim_reference::testing::snapshot_settings;

/// A deterministic bot: mostly its first non-WAIT legal line by a fixed rotation.
fn policy_lines(play: &Play, turn: usize) -> [Option<String>; 2] {
    [0, 1].map(|p| {
        let legal = play.legal_lines(p);
        if legal.is_empty() {
            None
        } else {
            Some(legal[(turn * 7 + p * 3) % legal.len()].clone())
        }
    })
}

fn played(seed: i64, league: u8, turns: usize) -> Play {
    let mut play = Play::new(seed, Params { league_level: league });
    for turn in 0..turns {
        if play.is_over() {
            break;
        }
        let actions = policy_lines(&play, turn);
        play.play_turn(&actions).unwrap();
    }
    play
}

fn views_text(play: &Play) -> String {
    let record = play.turn_record();
    let mut out = String::new();
    for (p, v) in record.views.iter().enumerate() {
        out.push_str(&format!("--- view of player {p} ---\n"));
        out.push_str(v.as_deref().unwrap_or("(not asked)"));
        out.push('\n');
    }
    out
}

/// Checks `value` against `snapshots/photosynthesis/<name>.snap`.
fn snap(name: &str, value: String) {
    snapshot_settings("photosynthesis").bind(|| insta::assert_snapshot!(name, value));
}

#[test]
fn boards_of_seeded_positions() {
    for (seed, turns) in [(1i64, 0usize), (42, 0), (-6247959440745927195, 25), (7, 60)] {
        let play = played(seed, 3, turns);
        let mut text = play.render(false);
        text.push_str(&views_text(&play));
        snap(&format!("board_seed_{seed}_turn_{turns}"), text);
    }
}

#[test]
fn coloured_board() {
    let play = played(42, 3, 30);
    snap("board_coloured_seed_42_turn_30", play.render(true));
}

#[test]
fn golden_playthroughs() {
    for (league, seed) in [(1u8, 11i64), (2, 12), (3, 13)] {
        let mut play = Play::new(seed, Params { league_level: league });
        let mut out = format!("league {league}, seed {seed}\n");
        let initial = play.initial_record();
        out.push_str(&format!("setup events: {}\n", initial.to_map()["setup_events"]));
        out.push_str(&play.render(false));
        for (p, v) in initial.initial_views.iter().enumerate() {
            out.push_str(&format!("--- view of player {p} ---\n{}\n", v.as_deref().unwrap()));
        }
        let mut turn = 0;
        while !play.is_over() {
            let actions = policy_lines(&play, turn);
            play.play_turn(&actions).unwrap();
            turn += 1;
            let record = play.turn_record();
            out.push_str(&format!("\n===== turn {turn}: actions {actions:?}\n"));
            out.push_str(&format!("events: {}\n", serde_json::json!(record.events)));
            out.push_str(&play.render(false));
            out.push_str(&views_text(&play));
        }
        out.push_str(&format!("\noutcome: {}\n", play.outcome().unwrap()));
        snap(&format!("playthrough_league_{league}"), out);
    }
}
