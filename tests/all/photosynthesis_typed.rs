//! The typed API ([`Game`]) through the Photosynthesis fast twin:
//! `twinsim_fast::photosynthesis::FastPhotosynthesis` against its reference twin
//! `twinsim_reference::photosynthesis::Photosynthesis`, in lockstep over whole random games of
//! every league: legal lists, step results (refusals of odd actions included), states, the
//! incremental hash, and the outcome.

use quickcheck::QuickCheck;
use twinsim_fast::photosynthesis::{FastPhotosynthesis, State as FastState};
use twinsim_reference::game::{Game, StepError};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::photosynthesis::{Action, Params, Photosynthesis, State as RefState};
use twinsim_reference::testing::{expect_refused, same_typed_api_and_end, step_and_compare};

/// Seeds of every shape.
const SEEDS: [i64; 8] = [0, 1, -1, 7, 42, 1_234_567_890, i64::MIN, i64::MAX];

/// The leagues (§10).
const LEAGUES: [u8; 4] = [1, 2, 3, 4];

/// Everything the typed API shows of a position, both twins: the state (converted back), the
/// fast state's hash (kept incrementally in search mode, zero in exact states) against the
/// from-scratch hash of the state rebuilt from the reference, players to act, legal lists in order, and the outcome.
fn compare(r: &RefState, f: &FastState) -> Result<(), String> {
    if f.to_reference() != *r {
        return Err(format!("states differ:\nreference {r:?}\nfast      {:?}", f.to_reference()));
    }
    let rebuilt = FastState::from(r);
    let kept = if f.exact_views { 0 } else { rebuilt.hash_from_scratch() };
    if f.hash != kept || f.zobrist() != rebuilt.zobrist() {
        return Err(format!(
            "hash {:#x} (kept {:#x}), rebuilt from the reference {:#x}",
            f.zobrist(),
            f.hash,
            rebuilt.zobrist()
        ));
    }
    same_typed_api_and_end::<Photosynthesis, FastPhotosynthesis>(r, f, r.game_over)?;
    Ok(())
}

/// Steps both twins with the same actions: the same result (errors and their messages
/// included), a refused step changes neither state, and the positions still agree.
fn step_both(
    r: &mut RefState,
    f: &mut FastState,
    actions: &[Option<Action>],
) -> Result<Result<(), StepError>, String> {
    step_and_compare::<Photosynthesis, FastPhotosynthesis>(r, f, actions, compare)
}

/// How many steps of each kind a game exercised.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    arity: usize,
    not_to_act: usize,
    illegal: usize,
    timeouts: usize,
    game_over: usize,
}

/// A random pick from `items` (not empty).
fn pick<T: Copy>(rng: &mut JavaRandom, items: &[T]) -> T {
    items[rng.next_below(items.len() as i32) as usize]
}

/// An action of any kind on arbitrary cells (off the board included).
fn any_action(rng: &mut JavaRandom) -> Action {
    let cell = |rng: &mut JavaRandom| rng.next_below(40) - 2;
    match rng.next_below(4) {
        0 => Action::Wait,
        1 => Action::Grow(cell(rng)),
        2 => Action::Complete(cell(rng)),
        _ => Action::Seed(cell(rng), cell(rng)),
    }
}

/// One whole random game through `Game` on both twins in lockstep. Legal actions (WAIT rarer
/// than its share, so trees grow), now and then a missing answer (a timeout); before many
/// frames an odd step that both must refuse alike: wrong arity, an action for a player not
/// asked, an action not in the legal list (illegal cells, unaffordable or disabled commands).
fn play_lockstep(seed: i64, league: u8) -> Result<Seen, String> {
    let params = Params { league_level: league };
    let mut rng = JavaRandom::new(seed ^ i64::from(league));
    let mut r = Photosynthesis::new_game(seed, &params);
    let mut f = FastPhotosynthesis::new_game(seed, &params);
    compare(&r, &f).map_err(|e| format!("after setup: {e}"))?;
    let mut seen = Seen::default();
    let mut frames = 0;
    while !r.game_over {
        frames += 1;
        if frames > 2000 {
            return Err("the game did not end within 2000 frames".into());
        }
        let asked = Photosynthesis::players_to_act(&r);
        let legal: Vec<Vec<Action>> =
            (0..2).map(|p| Photosynthesis::legal_actions(&r, p)).collect();
        let choose = |rng: &mut JavaRandom, p: usize| -> Option<Action> {
            if legal[p].is_empty() {
                return None;
            }
            let a = pick(rng, &legal[p]);
            if a == Action::Wait && legal[p].len() > 1 && rng.next_below(4) != 0 {
                Some(legal[p][1 + rng.next_below(legal[p].len() as i32 - 1) as usize])
            } else {
                Some(a)
            }
        };
        match rng.next_below(8) {
            0 => {
                let a = choose(&mut rng, asked[0]);
                for actions in [vec![], vec![a], vec![a, a, None]] {
                    expect_refused(step_both(&mut r, &mut f, &actions)?, "wrong arity")?;
                    seen.arity += 1;
                }
            }
            1 if asked.len() == 1 => {
                let mut actions = [None, None];
                actions[1 - asked[0]] = Some(Action::Wait);
                expect_refused(step_both(&mut r, &mut f, &actions)?, "a player not asked")?;
                seen.not_to_act += 1;
            }
            2..=4 => {
                let p = pick(&mut rng, &asked);
                let odd = (0..20).map(|_| any_action(&mut rng)).find(|a| !legal[p].contains(a));
                if let Some(odd) = odd {
                    let mut actions = [choose(&mut rng, 0), choose(&mut rng, 1)];
                    actions[p] = Some(odd);
                    expect_refused(step_both(&mut r, &mut f, &actions)?, "an unlisted action")?;
                    seen.illegal += 1;
                }
            }
            _ => {}
        }
        let mut actions = [choose(&mut rng, 0), choose(&mut rng, 1)];
        if rng.next_below(300) == 0 {
            let p = pick(&mut rng, &asked);
            actions[p] = None;
            seen.timeouts += 1;
        }
        let result = step_both(&mut r, &mut f, &actions)?;
        if result.is_err() {
            return Err(format!("legal actions {actions:?} refused: {result:?}"));
        }
    }
    for actions in [vec![Some(Action::Wait), None], vec![None, None], vec![]] {
        let result = step_both(&mut r, &mut f, &actions)?;
        if result != Err(StepError::GameOver) {
            return Err(format!("step {actions:?} after the end: {result:?}"));
        }
        seen.game_over += 1;
    }
    Ok(seen)
}

#[test]
fn photosynthesis_typed_new_game_agrees_for_every_seed_and_league() {
    for seed in SEEDS {
        for league in LEAGUES {
            let params = Params { league_level: league };
            let (r, f) = (
                Photosynthesis::new_game(seed, &params),
                FastPhotosynthesis::new_game(seed, &params),
            );
            compare(&r, &f).unwrap_or_else(|e| panic!("seed {seed} league {league}: {e}"));
        }
    }
}

#[test]
fn photosynthesis_typed_property_random_games_agree_in_lockstep() {
    fn prop(seed: i64, league: u8) -> Result<(), String> {
        let league = LEAGUES[league as usize % LEAGUES.len()];
        play_lockstep(seed, league)
            .map(|_| ())
            .map_err(|e| format!("seed {seed} league {league}: {e}"))
    }
    QuickCheck::new().tests(100).quickcheck(prop as fn(i64, u8) -> Result<(), String>);
}

/// The lockstep games above do reach every kind of step (so the property is not vacuous).
#[test]
fn photosynthesis_typed_lockstep_exercises_every_refusal_and_timeouts() {
    let mut total = Seen::default();
    for seed in 0..12 {
        let seen = play_lockstep(seed, LEAGUES[seed as usize % LEAGUES.len()])
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        total.arity += seen.arity;
        total.not_to_act += seen.not_to_act;
        total.illegal += seen.illegal;
        total.timeouts += seen.timeouts;
        total.game_over += seen.game_over;
    }
    let counts = [total.arity, total.not_to_act, total.illegal, total.timeouts, total.game_over];
    assert!(counts.iter().all(|&n| n > 0), "{total:?}");
}

/// Steps of every shape on positions of random games, both twins and the fast twin's own
/// provided step (`check_turn` then `apply`, which its `step` writes out inline): the same
/// result, errors and their messages included, and the same states after. The slots are drawn
/// alike for asked and not asked players, so one step may break several checks at once (an
/// action for a player not asked beside an illegal one, a wrong arity in a finished game):
/// the first check that fails must be the same.
#[test]
fn photosynthesis_typed_property_any_step_is_refused_or_played_alike() {
    fn prop(seed: i64, league: u8, picks: Vec<u8>) -> Result<(), String> {
        let league = LEAGUES[league as usize % LEAGUES.len()];
        let params = Params { league_level: league };
        let mut rng = JavaRandom::new(seed);
        let mut r = Photosynthesis::new_game(seed, &params);
        let mut f = FastPhotosynthesis::new_game(seed, &params);
        for (turn, &pick_shape) in picks.iter().enumerate() {
            let slot = |rng: &mut JavaRandom, p: usize| match rng.next_below(4) {
                0 => None,
                1 => Some(any_action(rng)),
                _ => {
                    let legal = Photosynthesis::legal_actions(&r, p);
                    (!legal.is_empty()).then(|| pick(rng, &legal))
                }
            };
            let len = [2, 2, 2, 2, 2, 0, 1, 3][pick_shape as usize % 8];
            let actions: Vec<Option<Action>> = (0..len).map(|p| slot(&mut rng, p % 2)).collect();
            let mut provided = f;
            let expected = twinsim_reference::game::check_turn::<FastPhotosynthesis>(&f, &actions)
                .and_then(|()| FastPhotosynthesis::apply(&mut provided, &actions));
            let result =
                step_both(&mut r, &mut f, &actions).map_err(|e| format!("turn {turn}: {e}"))?;
            if result != expected || provided != f {
                return Err(format!(
                    "turn {turn}, {actions:?}: step gave {result:?}, check_turn + apply {expected:?}"
                ));
            }
        }
        Ok(())
    }
    QuickCheck::new().tests(200).quickcheck(prop as fn(i64, u8, Vec<u8>) -> Result<(), String>);
}
