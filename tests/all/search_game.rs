//! The allocation-free search API (`twinsim_fast::game::SearchGame`) on all ten engines (five
//! games, both twins): over random games, `to_act` is `players_to_act` and `legal_moves` lists
//! exactly `legal_actions` in order (`check_against_typed`), every legal joint action `play`s,
//! and `play` refuses an illegal action (one the typed legal list does not hold) and a missing
//! action of a player to act with an error, leaving the state unchanged; a finished game refuses
//! every turn.

use twinsim_fast::game::{check_against_typed, MoveBuffer, SearchGame};
use twinsim_fast::{olymbits, photosynthesis, wondev_woman, xmas_rush, zuniq};
use twinsim_reference::game::{Game, StepError};
use twinsim_reference::java_random::JavaRandom;

/// What the walk exercised.
#[derive(Debug, Default)]
struct Seen {
    positions: usize,
    refused: usize,
    finished: usize,
}

/// Plays `games` random games of `G` (at most `max_turns` turns each) and checks every position.
/// `odd` proposes actions; those missing from the mover's legal list must be refused by `play`
/// as [`StepError::Illegal`] or [`StepError::NotToAct`], without changing the state.
fn walk<G: SearchGame>(games: i64, max_turns: usize, odd: fn() -> Vec<G::Action>) -> Seen {
    let mut seen = Seen::default();
    let mut moves = G::MoveList::default();
    for seed in 1..=games {
        let mut rng = JavaRandom::new(seed);
        let mut state = G::new_game(seed, &G::Params::default());
        let n = G::num_players(&state);
        for _ in 0..max_turns {
            check_against_typed::<G>(&state).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            seen.positions += 1;
            let to_act = G::to_act(&state);
            if to_act.is_empty() {
                let before = state.clone();
                let any: Vec<_> = vec![None; n];
                assert_eq!(G::play(&mut state, &any), Err(StepError::GameOver), "seed {seed}");
                assert_eq!(state, before);
                seen.finished += 1;
                break;
            }
            let mut joint: Vec<Option<G::Action>> = vec![None; n];
            for p in to_act.iter() {
                G::legal_moves(&state, p, &mut moves);
                assert!(!moves.is_empty(), "seed {seed}: player {p} to act without a move");
                joint[p] = Some(moves.get(rng.next_below(moves.len() as i32) as usize).clone());
            }
            let mover = to_act.first().expect("someone acts");
            G::legal_moves(&state, mover, &mut moves);
            let legal: Vec<_> = (0..moves.len()).map(|i| moves.get(i).clone()).collect();
            let illegal = odd().into_iter().find(|a| !legal.contains(a));
            if let Some(bad) = illegal {
                let mut wrong = joint.clone();
                wrong[mover] = Some(bad.clone());
                let before = state.clone();
                match G::play(&mut state, &wrong) {
                    Err(StepError::Illegal { .. } | StepError::NotToAct { .. }) => {}
                    other => panic!("seed {seed}: play({bad:?}) gave {other:?}"),
                }
                assert_eq!(state, before, "seed {seed}: a refused play changed the state");
                seen.refused += 1;
            }
            // A player to act who gives no action is refused too (no timeout consequence).
            let mut silent = joint.clone();
            silent[mover] = None;
            let before = state.clone();
            let refused = G::play(&mut state, &silent);
            assert_eq!(refused, Err(StepError::NotToAct { player: mover }), "seed {seed}");
            assert_eq!(state, before, "seed {seed}: a refused play changed the state");
            G::play(&mut state, &joint).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
    seen
}

/// Both twins of a game: positions checked, illegal actions refused (when `illegal_exists`:
/// Olymbits has none, every action of an active player is legal), games run to their end.
fn both<F: SearchGame, R: SearchGame<Action = F::Action>>(
    games: i64,
    max_turns: usize,
    illegal_exists: bool,
    odd: fn() -> Vec<F::Action>,
) {
    for seen in [walk::<F>(games, max_turns, odd), walk::<R>(games, max_turns, odd)] {
        assert!(seen.positions > games as usize, "{seen:?}");
        assert_eq!(seen.refused > 0, illegal_exists, "{seen:?}");
        assert!(seen.finished > 0, "no game reached its end: {seen:?}");
    }
}

fn zuniq_odd() -> Vec<zuniq::api::Action> {
    let walls = twinsim_reference::zuniq::board::all_walls();
    walls.into_iter().map(|wall| zuniq::api::Action { wall, claim: false }).collect()
}

#[test]
fn zuniq_search_api_matches_the_typed_api() {
    both::<zuniq::api::Fast, zuniq::api::Reference>(20, 100, true, zuniq_odd);
}

fn wondev_odd() -> Vec<wondev_woman::api::Action> {
    use twinsim_reference::wondev_woman::state::{Dir, Kind};
    let mut all = Vec::new();
    for kind in [Kind::Move, Kind::Push] {
        for unit in 0..3 {
            for dir1 in Dir::ALL {
                for dir2 in Dir::ALL {
                    all.push(wondev_woman::api::Action::Build { kind, unit, dir1, dir2 });
                }
            }
        }
    }
    all
}

#[test]
fn wondev_woman_search_api_matches_the_typed_api() {
    both::<wondev_woman::api::Fast, wondev_woman::api::Reference>(6, 400, true, wondev_odd);
}

#[test]
fn olymbits_search_api_matches_the_typed_api() {
    both::<olymbits::api::Fast, olymbits::api::Reference>(3, 200, false, Vec::new);
    // No action of an active player is illegal; a turn of the wrong shape is refused.
    let mut state = olymbits::api::Fast::new_game(1, &Default::default());
    let before = state.clone();
    let two = [Some(olymbits::api::Action::Up), None];
    assert!(matches!(
        <olymbits::api::Fast as SearchGame>::play(&mut state, &two),
        Err(StepError::WrongArity { .. })
    ));
    assert_eq!(state, before);
}

fn photosynthesis_odd() -> Vec<photosynthesis::api::Action> {
    use photosynthesis::api::Action;
    (0..37).flat_map(|c| [Action::Complete(c), Action::Grow(c), Action::Seed(c, 36 - c)]).collect()
}

#[test]
fn photosynthesis_search_api_matches_the_typed_api() {
    both::<photosynthesis::api::Fast, photosynthesis::api::Reference>(
        4,
        400,
        true,
        photosynthesis_odd,
    );
}

fn xmas_rush_odd() -> Vec<xmas_rush::api::Action> {
    use twinsim_reference::xmas_rush::{Direction, Path};
    use xmas_rush::api::Action;
    vec![
        Action::Pass,
        Action::Push { line: 0, direction: Direction::Up },
        Action::Move(Path::EMPTY),
    ]
}

#[test]
fn xmas_rush_search_api_matches_the_typed_api() {
    both::<xmas_rush::api::Fast, xmas_rush::api::Reference>(3, 400, true, xmas_rush_odd);
}
