//! insta snapshots of Wondev Woman: boards, views, perft counts and one golden playthrough per
//! league (every turn's board, line and view), all from seeded setups.

use twinsim_reference::testing::snapshot_settings;
use twinsim_reference::wondev_woman::{
    display, protocol, referee, rules, setup, League, Params, State,
};

fn positions() -> Vec<(&'static str, State)> {
    vec![
        ("square", setup::new_game(3, &Params { map_index: 0, ..Params::default() })),
        ("diamond", setup::new_game(4, &Params { map_index: 1, ..Params::default() })),
        ("random", setup::new_game(5, &Params { map_index: 2, ..Params::default() })),
        ("symmetric", setup::new_game(6, &Params { symmetric: true, ..Params::default() })),
    ]
}

/// Deterministic play: the `(turn * 7919 + 3) % n`-th legal action.
fn advance(state: &mut State, turns: usize) -> Vec<String> {
    let mut lines = vec![];
    for turn in 0..turns {
        let Some(p) = state.to_move.filter(|_| !state.game_over) else { break };
        let legal = rules::legal_actions(state, p);
        let line = if legal.is_empty() {
            "ACCEPT-DEFEAT".to_string()
        } else {
            legal[(turn * 7919 + 3) % legal.len()].to_string()
        };
        referee::play_turn(state, Some(&line)).unwrap();
        lines.push(line);
    }
    lines
}

#[test]
fn boards_and_views_of_seeded_positions() {
    snapshot_settings("wondev_woman").bind(|| {
        for (name, mut state) in positions() {
            advance(&mut state, 12);
            let mut text = display::render(&state, None, false);
            for p in 0..2 {
                text.push_str(&format!("\n--- seen by player {p}\n"));
                text.push_str(&display::render(&state, Some(p), false));
                text.push_str(&format!("\n--- view of player {p}\n"));
                text.push_str(&protocol::render_turn_input(&state, p));
                text.push('\n');
            }
            insta::assert_snapshot!(format!("position_{name}"), text);
        }
    });
}

#[test]
fn perft_of_seeded_positions() {
    snapshot_settings("wondev_woman").bind(|| {
        let mut text = String::new();
        for (name, state) in positions() {
            let counts: Vec<u64> = (0..=3)
                .map(|d| {
                    twinsim_reference::game::typed_perft::<
                        twinsim_reference::wondev_woman::WondevWoman,
                    >(&state, d)
                })
                .collect();
            text.push_str(&format!("{name}: {counts:?}\n"));
        }
        insta::assert_snapshot!("perft", text);
    });
}

#[test]
fn golden_playthrough_per_league() {
    snapshot_settings("wondev_woman").bind(|| {
        for league in [League::Wood3, League::Wood2, League::Wood1, League::Bronze] {
            let mut state = setup::new_game(42, &Params { league, ..Params::default() });
            let mut text = format!("league {league:?}, seed 42\n");
            text.push_str(&format!("init: {:?}\n", protocol::render_init(&state)));
            text.push_str(&display::render(&state, None, false));
            let mut turn = 0;
            while !state.game_over && turn < 400 {
                let p = state.to_move.unwrap();
                let view = protocol::render_turn_input(&state, p);
                let line = advance(&mut state, 1).pop().unwrap();
                text.push_str(&format!(
                    "\n=== turn {turn}: player {p}\n--- view\n{view}\n--- action: {line}\n--- events: {:?}\n",
                    state.last_turn.as_ref().unwrap().events
                ));
                text.push_str(&display::render(&state, None, false));
                turn += 1;
            }
            text.push_str(&format!(
                "\noutcome: {}\n",
                twinsim_reference::wondev_woman::trace::trace_outcome(&state).unwrap()
            ));
            insta::assert_snapshot!(format!("playthrough_{league:?}"), text);
        }
    });
}

#[test]
fn fast_perft_equals_the_pinned_reference_perft() {
    for (name, state) in positions() {
        let mut fast_state = twinsim_fast::wondev_woman::State::from(&state);
        for depth in 0..=3 {
            let want = twinsim_reference::game::typed_perft::<
                twinsim_reference::wondev_woman::WondevWoman,
            >(&state, depth);
            assert_eq!(
                twinsim_fast::wondev_woman::movegen::perft(&mut fast_state, depth),
                want,
                "{name} {depth}"
            );
            assert_eq!(
                twinsim_fast::wondev_woman::movegen::perft_bulk(&mut fast_state, depth),
                want,
                "{name} {depth}"
            );
        }
    }
}
