//! Wondev Woman through the shared typed API: the fast twin (`twinsim_fast::wondev_woman::FastWondevWoman`)
//! against the reference (`twinsim_reference::wondev_woman::WondevWoman`), played in lockstep over whole
//! random games in every league: players to act, legal lists (same order: the referee's sorted
//! list), step results (errors included: wrong player, missing action, wrong arity, illegal
//! actions, the finished game), states (through the fast → reference conversion) and outcomes.

use quickcheck::QuickCheck;
use twinsim_fast::wondev_woman::{FastWondevWoman, State as FastState};
use twinsim_reference::game::{Game, StepError};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::testing::{same_typed_api, step_twins};
use twinsim_reference::wondev_woman::{self as r, Action, Dir, Kind, League, Params, WondevWoman};

/// Setup parameters from a byte: league, forced map (-1: drawn), symmetric spawns.
fn params_from(flags: u8) -> Params {
    Params {
        league: League::from_version((flags & 3) as i64).unwrap_or_default(),
        map_index: ((flags >> 2) & 3) as i32 - 1,
        symmetric: flags & 16 != 0,
    }
}

/// The two states are the same game: the fast state converts back to the reference state (whose
/// last-turn summary the fast state does not keep), and the reference state converts to exactly
/// the fast state (hash included, so the incremental hash is checked too).
fn assert_same_state(rs: &r::State, fs: &FastState, context: &str) {
    let mut want = rs.clone();
    want.last_turn = None;
    let back = fs.to_reference();
    assert!(
        back == want,
        "{context}: states differ\nreference {}\nfast      {}",
        r::trace::state_json(&want),
        r::trace::state_json(&back)
    );
    assert_eq!(&FastState::from(rs), fs, "{context}: fast state differs from the converted one");
}

/// Everything the typed API says about the two states agrees.
fn assert_same_view(rs: &r::State, fs: &FastState, context: &str) {
    assert_same_state(rs, fs, context);
    if let Err(e) = same_typed_api::<WondevWoman, FastWondevWoman>(rs, fs) {
        panic!("{context}: {e}");
    }
}

/// Steps both twins with the same slots; returns the (equal) result after checking the states.
fn step_both(
    rs: &mut r::State,
    fs: &mut FastState,
    actions: &[Option<Action>],
    context: &str,
) -> Result<(), StepError> {
    let b = step_twins::<WondevWoman, FastWondevWoman>(rs, fs, actions)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    assert_same_view(rs, fs, &format!("{context} after {actions:?}"));
    b
}

/// Any build action: either kind, unit 0..=2 (2 never exists), any two directions.
fn random_build(rng: &mut JavaRandom) -> Action {
    Action::Build {
        kind: if rng.next_boolean() { Kind::Move } else { Kind::Push },
        unit: rng.next_below(3) as usize,
        dir1: Dir::ALL[rng.next_below(8) as usize],
        dir2: Dir::ALL[rng.next_below(8) as usize],
    }
}

/// Slots with `action` in `player`'s place.
fn slots(player: usize, action: Action) -> [Option<Action>; 2] {
    let mut s = [None, None];
    s[player] = Some(action);
    s
}

/// Odd calls on copies of the position: a non-mover acting (alone or beside the mover), the
/// mover silent, wrong arities, random build actions (mostly illegal, some legal) and every
/// build action when `exhaustive`, and `ACCEPT-DEFEAT`.
fn odd_steps(rs: &r::State, fs: &FastState, rng: &mut JavaRandom, exhaustive: bool, context: &str) {
    let mover = rs.to_move.unwrap_or(0);
    let legal = WondevWoman::legal_actions(rs, mover);
    let some = legal[rng.next_below(legal.len() as i32) as usize];
    let mut tries: Vec<Vec<Option<Action>>> = vec![
        slots(1 - mover, some).to_vec(),
        vec![Some(some), Some(some)],
        vec![None, None],
        vec![Some(some)],
        vec![Some(some), None, None],
        vec![],
        slots(mover, Action::AcceptDefeat).to_vec(),
    ];
    for _ in 0..6 {
        tries.push(slots(mover, random_build(rng)).to_vec());
    }
    if exhaustive {
        for kind in [Kind::Move, Kind::Push] {
            for unit in 0..3 {
                for dir1 in Dir::ALL {
                    for dir2 in Dir::ALL {
                        let a = Action::Build { kind, unit, dir1, dir2 };
                        tries.push(slots(mover, a).to_vec());
                    }
                }
            }
        }
    }
    for t in &tries {
        let (mut r2, mut f2) = (rs.clone(), *fs);
        let result = step_both(&mut r2, &mut f2, t, context);
        if let (Some(Some(a)), true) = (t.get(mover), t.len() == 2 && t[1 - mover].is_none()) {
            // A build is accepted exactly when it is in the legal list (§9 lists every action
            // the checks pass); ACCEPT-DEFEAT always is.
            let listed = *a == Action::AcceptDefeat || legal.contains(a);
            assert_eq!(result.is_ok(), listed, "{context}: {a} accepted: {result:?}");
        }
    }
}

/// One whole game in lockstep: `choices` pick the legal action each ply (255: `ACCEPT-DEFEAT`,
/// which eliminates the mover), with odd calls on copies along the way.
fn lockstep_game(seed: i64, flags: u8, choices: &[u8]) {
    let params = params_from(flags);
    let mut rs = WondevWoman::new_game(seed, &params);
    let mut fs = FastWondevWoman::new_game(seed, &params);
    let mut rng = JavaRandom::new(seed);
    assert_same_view(&rs, &fs, &format!("seed {seed} {params:?} setup"));
    let mut ply = 0;
    while !rs.game_over {
        let context = format!("seed {seed} {params:?} ply {ply}");
        let b = if choices.is_empty() { rng.next(8) as u8 } else { choices[ply % choices.len()] };
        if b % 5 == 0 {
            odd_steps(&rs, &fs, &mut rng, b % 25 == 0, &context);
        }
        let mover = WondevWoman::players_to_act(&rs)[0];
        let legal = WondevWoman::legal_actions(&rs, mover);
        let action =
            if b == 255 { Action::AcceptDefeat } else { legal[(b as usize + ply) % legal.len()] };
        step_both(&mut rs, &mut fs, &slots(mover, action), &context).expect("a legal action");
        ply += 1;
        assert!(ply <= 1000, "{context}: the game does not end");
    }
    // The finished game refuses everything, with the same error and no change.
    let context = format!("seed {seed} {params:?} finished after {ply} plies");
    assert!(WondevWoman::outcome(&rs).is_some());
    for t in [
        vec![Some(Action::AcceptDefeat), None],
        vec![None, Some(Action::AcceptDefeat)],
        vec![None, None],
        vec![],
        vec![Some(random_build(&mut rng)), None],
    ] {
        let result = step_both(&mut rs, &mut fs, &t, &context);
        assert_eq!(result, Err(StepError::GameOver), "{context}");
    }
}

#[test]
fn prop_typed_lockstep_fast_equals_reference() {
    fn prop(seed: i64, flags: u8, choices: Vec<u8>) -> bool {
        lockstep_game(seed, flags, &choices);
        true
    }
    QuickCheck::new().tests(60).quickcheck(prop as fn(i64, u8, Vec<u8>) -> bool);
}

#[test]
fn typed_lockstep_every_league_fixed_seeds() {
    for seed in 0..6 {
        for flags in 0..32u8 {
            // Random plies mostly, an early ACCEPT-DEFEAT now and then.
            let choices: Vec<u8> = (0..64u32)
                .map(|k| if k == seed as u32 * 3 + 1 { 255 } else { (k * 37) as u8 })
                .collect();
            lockstep_game(seed * 1_000_003 + flags as i64, flags, &choices);
        }
    }
}

#[test]
fn typed_new_game_equals_converted_reference() {
    for seed in [0, 1, 2, 3, 42, 1234, -5, i64::MAX, i64::MIN, 987_654_321] {
        for flags in 0..32u8 {
            let params = params_from(flags);
            let rs = WondevWoman::new_game(seed, &params);
            let fs = FastWondevWoman::new_game(seed, &params);
            assert_eq!(fs, FastState::from(&rs), "seed {seed} {params:?}");
            assert_eq!(fs.to_reference(), rs, "seed {seed} {params:?}");
        }
    }
}

#[test]
fn typed_params_default_is_top_league() {
    assert_eq!(<FastWondevWoman as Game>::Params::default().league, League::Bronze);
    assert_eq!(FastWondevWoman::NAME, WondevWoman::NAME);
    assert_eq!(FastWondevWoman::TURNS, WondevWoman::TURNS);
}
