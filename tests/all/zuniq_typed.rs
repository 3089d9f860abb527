//! The typed API ([`Game`]) through the Zuniq fast twin: `twinsim_fast::zuniq::FastZuniq` against its
//! reference twin `twinsim_reference::zuniq::Zuniq`, in lockstep over whole random games, refused
//! steps (wrong arity, wrong player, illegal walls, finished game) included.

use quickcheck::QuickCheck;
use twinsim_fast::zuniq::{FastZuniq, State as FastState};
use twinsim_reference::game::{Game, StepError};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::testing::{expect_refused, same_typed_api_and_end, step_and_compare};
use twinsim_reference::zuniq::board::all_walls;
use twinsim_reference::zuniq::referee::play_turn;
use twinsim_reference::zuniq::rules::{check_wall, Illegal};
use twinsim_reference::zuniq::{Action, Params, State as RefState, Wall, Zuniq};

/// Seeds of every shape (Zuniq ignores the seed: every setup is the empty board).
const SEEDS: [i64; 8] = [0, 1, -1, 7, 42, 1_234_567_890, i64::MIN, i64::MAX];

#[test]
fn zuniq_typed_new_game_equals_the_converted_reference_setup() {
    for seed in SEEDS {
        let reference = Zuniq::new_game(seed, &Params);
        let fast = FastZuniq::new_game(seed, &Params);
        assert_eq!(fast, FastState::from(&reference), "seed {seed}");
        assert_eq!(fast.to_reference(), reference, "seed {seed}");
    }
}

/// Everything the typed API shows of a position, both twins: the state (through the
/// conversion both ways, so the fast derived masks and hash are checked too), players, the
/// legal actions in the reference's order (ASCII order of the walls), and the outcome.
fn compare(r: &RefState, f: &FastState) -> Result<(), String> {
    if f.to_reference() != *r {
        return Err(format!("states differ:\nreference {r:?}\nfast      {:?}", f.to_reference()));
    }
    if FastState::from(r) != *f {
        return Err(format!(
            "fast state differs from its rebuild:\n{:?}\n{f:?}",
            FastState::from(r)
        ));
    }
    same_typed_api_and_end::<Zuniq, FastZuniq>(r, f, r.finished)?;
    if Zuniq::legal_actions(r, 2) != FastZuniq::legal_actions(f, 2) {
        return Err("legal_actions of a player who does not exist".into());
    }
    Ok(())
}

/// Steps both twins with the same actions: same result, a refused step changes neither state,
/// and the positions still agree.
fn step_both(
    r: &mut RefState,
    f: &mut FastState,
    actions: &[Option<Action>],
) -> Result<Result<(), StepError>, String> {
    step_and_compare::<Zuniq, FastZuniq>(r, f, actions, compare)
}

/// How many refusals of each kind a game exercised.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    arity: usize,
    not_to_act: usize,
    occupied: usize,
    inside_closed_zone: usize,
    duplicate_zone_size: usize,
    game_over: usize,
    forfeits: usize,
}

/// A wall the reference refuses with the given kind of reason, if there is one now.
fn refused_wall(r: &RefState, kind: fn(&Illegal) -> bool) -> Option<Wall> {
    all_walls().into_iter().find(|&w| check_wall(&r.walls, w).err().is_some_and(|e| kind(&e)))
}

/// One whole random game through `Game` on both twins in lockstep, from `seed` (setup and
/// choices). Before most moves an odd step is tried (and must be refused identically); now
/// and then the game is forked and ended the referee's way (a forfeit) to compare the
/// outcomes of that end too. Legal moves carry a `!` claim one time in six.
fn play_lockstep(seed: i64) -> Result<Seen, String> {
    let mut rng = JavaRandom::new(seed);
    let mut r = Zuniq::new_game(seed, &Params);
    let mut f = FastZuniq::new_game(seed, &Params);
    compare(&r, &f)?;
    let mut seen = Seen::default();
    while !r.finished {
        let mover = r.to_move();
        let legal = Zuniq::legal_actions(&r, mover);
        let pick = |rng: &mut JavaRandom| legal[rng.next_below(legal.len() as i32) as usize];
        let claim = rng.next_below(4) == 0;
        let slot = |action: Action| {
            let mut actions = [None, None];
            actions[mover] = Some(action);
            actions
        };
        match rng.next_below(10) {
            0 => {
                let a = Some(pick(&mut rng));
                for actions in [vec![], vec![a], vec![a, None, None]] {
                    expect_refused(step_both(&mut r, &mut f, &actions)?, "wrong arity")?;
                    seen.arity += 1;
                }
            }
            1 => {
                let a = pick(&mut rng);
                let mut wrong = [None, None];
                wrong[1 - mover] = Some(a);
                for actions in [wrong, [Some(a), Some(a)], [None, None]] {
                    expect_refused(step_both(&mut r, &mut f, &actions)?, "wrong player")?;
                    seen.not_to_act += 1;
                }
            }
            2 => {
                if let Some(&wall) =
                    r.walls.iter().nth(rng.next_below(r.walls.len().max(1) as i32) as usize)
                {
                    let actions = slot(Action { wall, claim });
                    expect_refused(step_both(&mut r, &mut f, &actions)?, "occupied wall")?;
                    seen.occupied += 1;
                }
            }
            3 => {
                if let Some(wall) = refused_wall(&r, |e| *e == Illegal::InsideClosedZone) {
                    let actions = slot(Action { wall, claim });
                    expect_refused(step_both(&mut r, &mut f, &actions)?, "inside closed zone")?;
                    seen.inside_closed_zone += 1;
                }
            }
            4 => {
                if let Some(wall) = refused_wall(&r, |e| matches!(e, Illegal::DuplicateZoneSize(_)))
                {
                    let actions = slot(Action { wall, claim });
                    expect_refused(step_both(&mut r, &mut f, &actions)?, "duplicate size")?;
                    seen.duplicate_zone_size += 1;
                }
            }
            5 => {
                // Fork: the mover forfeits the referee's way (timeout or junk line); the typed
                // API must then agree on the end (outcome, no one to act, no step).
                let mut fr = r.clone();
                let line = if rng.next_below(2) == 0 { None } else { Some("A6h") };
                play_turn(&mut fr, line).map_err(|e| format!("forfeit: {e}"))?;
                let mut ff = FastState::from(&fr);
                compare(&fr, &ff).map_err(|e| format!("after forfeit: {e}"))?;
                let a = pick(&mut rng);
                let result = step_both(&mut fr, &mut ff, &slot(a))?;
                if result != Err(StepError::GameOver) {
                    return Err(format!("step after a forfeit: {result:?}"));
                }
                seen.forfeits += 1;
            }
            _ => {}
        }
        let action = Action { claim: rng.next_below(6) == 0, ..pick(&mut rng) };
        let result = step_both(&mut r, &mut f, &slot(action))?;
        if result.is_err() {
            return Err(format!("legal action {action} refused: {result:?}"));
        }
    }
    // The game is over: both refuse every step alike.
    let any = Action { wall: all_walls()[0], claim: false };
    for actions in [vec![Some(any), None], vec![None, Some(any)], vec![None, None], vec![]] {
        let result = step_both(&mut r, &mut f, &actions)?;
        if result != Err(StepError::GameOver) {
            return Err(format!("step {actions:?} after the end: {result:?}"));
        }
        seen.game_over += 1;
    }
    if FastZuniq::outcome(&f).is_none() {
        return Err("finished without an outcome".into());
    }
    Ok(seen)
}

#[test]
fn zuniq_typed_property_random_games_agree_in_lockstep() {
    fn prop(seed: i64) -> Result<(), String> {
        play_lockstep(seed).map(|_| ()).map_err(|e| format!("seed {seed}: {e}"))
    }
    QuickCheck::new().tests(150).quickcheck(prop as fn(i64) -> Result<(), String>);
}

/// The lockstep games above do reach every kind of refusal (so the property is not vacuous).
#[test]
fn zuniq_typed_lockstep_exercises_every_refusal() {
    let mut total = Seen::default();
    for seed in 0..60 {
        let seen = play_lockstep(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        total.arity += seen.arity;
        total.not_to_act += seen.not_to_act;
        total.occupied += seen.occupied;
        total.inside_closed_zone += seen.inside_closed_zone;
        total.duplicate_zone_size += seen.duplicate_zone_size;
        total.game_over += seen.game_over;
        total.forfeits += seen.forfeits;
    }
    let counts = [
        total.arity,
        total.not_to_act,
        total.occupied,
        total.inside_closed_zone,
        total.duplicate_zone_size,
        total.game_over,
        total.forfeits,
    ];
    assert!(counts.iter().all(|&n| n > 0), "{total:?}");
}
