//! insta snapshots (files in `snapshots/olymbits/` at the workspace root): boards and views of
//! a few seeded positions, and one golden playthrough per league (every turn's actions, board,
//! view and events, like OpenSpiel's playthrough files).

use super::display::render_board;
use super::protocol::{render_first_input, render_turn_input};
use super::rules::play_turn;
use super::setup::new_game;
use super::state::*;
use super::trace::inputs_from_lines;
use crate::java_random::JavaRandom;

/// Checks `value` against `snapshots/olymbits/<name>.snap`.
fn snap(name: &str, value: String) {
    let mut settings = crate::testing::snapshot_settings("olymbits");
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, value));
}

/// Lines of a small deterministic "bot": seeded random actions, with an invalid line for
/// player 2 on turn `bad_turn` (0 = never).
fn bot_lines(rng: &mut JavaRandom, turn: u32, bad_turn: u32) -> Vec<Option<String>> {
    (0..PLAYER_COUNT)
        .map(|i| {
            if i == 2 && turn == bad_turn {
                return Some("UP2".to_string());
            }
            let a = Action::ALL[rng.next_int_bounded(4).unwrap_or(0) as usize];
            Some(a.keyword().to_string())
        })
        .collect()
}

fn play(seed: i64, league: League, turns: u32, bad_turn: u32) -> (State, String) {
    let mut state = new_game(seed, &Params { league }).unwrap();
    let mut rng = JavaRandom::new(seed);
    let mut log = String::new();
    log.push_str(&format!("== setup (seed {seed}, league {})\n", league.level()));
    log.push_str(&render_board(&state, false));
    log.push_str("-- first input of player 0\n");
    log.push_str(&render_first_input(&state, 0));
    log.push('\n');
    while !state.is_over() && state.turn < turns {
        let lines = bot_lines(&mut rng, state.turn + 1, bad_turn);
        let inputs = inputs_from_lines(&state, &lines);
        play_turn(&mut state, &inputs).unwrap();
        log.push_str(&format!("\n== turn {} actions {:?}\n", state.turn, lines));
        log.push_str(&render_board(&state, false));
        log.push_str("-- input\n");
        log.push_str(&render_turn_input(&state));
        log.push('\n');
    }
    (state, log)
}

#[test]
fn snapshot_board_seed_1_setup() {
    let state = new_game(1, &Params::default()).unwrap();
    snap("board_seed_1_setup", render_board(&state, false));
}

#[test]
fn snapshot_board_seed_42_turn_30_coloured() {
    let (state, _) = play(42, League::Top, 30, 0);
    snap("board_seed_42_turn_30_colour", render_board(&state, true));
}

#[test]
fn snapshot_views_seed_7_turn_12() {
    let (state, _) = play(7, League::Top, 12, 5);
    let views: Vec<String> = (0..PLAYER_COUNT)
        .map(|i| if state.active[i] { render_turn_input(&state) } else { "(inactive)".to_string() })
        .collect();
    snap("views_seed_7_turn_12", views.join("\n--\n"));
}

#[test]
fn snapshot_playthrough_league_1() {
    let (_, log) = play(-5361951184528285422, League::Wood1, 100, 0);
    snap("playthrough_league_1", log);
}

#[test]
fn snapshot_playthrough_league_2() {
    let (_, log) = play(2576045555110323102, League::Wood2, 100, 0);
    snap("playthrough_league_2", log);
}

#[test]
fn snapshot_playthrough_league_3() {
    let (_, log) = play(1, League::Top, 100, 60);
    snap("playthrough_league_3", log);
}
