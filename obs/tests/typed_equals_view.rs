//! The typed encoder ([`twinsim_obs::lanes`], from the fast twin's state) equals the view
//! encoder ([`twinsim_obs::codec`] through [`twinsim_obs::slot::Slot`], from the referee's text)
//! on random games: at every step the same observations, masks, rewards, ends, seats to act and
//! score changes, automatic resets and each ended game's final observations included. The
//! cargo twin of `python/tests/test_lanes.py` (which checks the same through `VecEnv`'s numpy
//! arrays and stays).

use twinsim_obs::codec::{GameCodec, GameId, Number};
use twinsim_obs::lanes::{lane, Lane, Path};
use twinsim_reference::game::EngineKind;
use twinsim_reference::java_random::JavaRandom;

/// One comparison: `lanes` games of `game` at `league`, `steps` random steps, each action an
/// index the mask allows except with probability `stray` (per mille) any index at all (an
/// illegal one then gets the referee's consequence on both paths).
struct Case {
    game: GameId,
    league: Option<u32>,
    steps: usize,
    stray_per_mille: i32,
}

/// Games per case, as `test_lanes.py`'s six envs.
const LANES: usize = 6;

/// Everything a step hands back, as the view path or the typed lane writes it.
#[derive(Debug, PartialEq)]
struct Step<T> {
    observations: Vec<T>,
    masks: Vec<i8>,
    rewards: Vec<f32>,
    over: bool,
    to_act: Vec<bool>,
    score_deltas: Vec<f32>,
    /// Once the step ended the game: every seat's observation at the end, read before the new
    /// game is set up (`VecEnv`'s `final_obs`).
    final_observations: Option<Vec<T>>,
}

/// What `lane` writes now. With `reuse`, a row the lane says it writes whole starts as junk
/// rather than zeros (as `VecEnv` with `copy=False` leaves the last step's numbers there), so a
/// lane that claims to write a whole row but skips a number fails here.
fn read<T: Number>(lane: &dyn Lane<T>, game: GameId, reuse: bool, outcome: Outcome<T>) -> Step<T> {
    let players = lane.num_players();
    let len = game.observation_len();
    let junk = |whole: bool| reuse && whole;
    let fill = if junk(lane.writes_whole_observation()) { T::of(7) } else { T::default() };
    let mut observations = vec![fill; players * len];
    lane.observe_all(&mut observations, len);
    let mask_fill = if junk(lane.writes_whole_mask()) { 5 } else { 0 };
    let mut masks = vec![mask_fill; players * game.num_actions()];
    for (p, row) in masks.chunks_mut(game.num_actions()).enumerate() {
        lane.mask(p, row);
    }
    Step {
        observations,
        masks,
        rewards: outcome.rewards,
        over: outcome.over,
        to_act: lane.to_act().to_vec(),
        score_deltas: outcome.score_deltas,
        final_observations: outcome.final_observations,
    }
}

/// What a step decided: rewards, whether the game ended, score changes, and the
/// observations at the end of a game that ended.
struct Outcome<T> {
    rewards: Vec<f32>,
    over: bool,
    score_deltas: Vec<f32>,
    final_observations: Option<Vec<T>>,
}

/// One step as `VecEnv` takes it (`step_lane`): play, note the outcome, read the final
/// observations of a game that ended and set it up again from `reset_seed` at once, then read
/// the (new) game's observations. The final observations are each seat's last view (the turn
/// that ends a game sends none but in Olymbits, whose last views show the end).
fn step<T: Number>(
    lane: &mut dyn Lane<T>,
    actions: &[i64],
    reset_seed: i64,
    game: GameId,
    reuse: bool,
) -> Step<T> {
    lane.step_indices(actions).unwrap_or_else(|e| panic!("{} step: {e:?}", lane.path()));
    let mut score_deltas = vec![0.0; lane.num_players()];
    lane.score_deltas(&mut score_deltas);
    let over = lane.is_over();
    let final_observations = over.then(|| {
        // Zeros, as `VecEnv` hands `observe_all` a fresh row for them.
        let len = game.observation_len();
        let mut last = vec![T::default(); lane.num_players() * len];
        lane.observe_all(&mut last, len);
        last
    });
    let outcome =
        Outcome { rewards: lane.rewards().to_vec(), over, score_deltas, final_observations };
    if outcome.over {
        lane.reset(reset_seed).unwrap_or_else(|e| panic!("{} reset: {e}", lane.path()));
    }
    read(lane, game, reuse, outcome)
}

/// A random index per seat: one the mask allows (any, when it allows none), or with
/// probability `stray` per mille any index of the space.
fn random_actions(
    masks: &[i8],
    actions: usize,
    stray_per_mille: i32,
    rng: &mut JavaRandom,
) -> Vec<i64> {
    masks
        .chunks(actions)
        .map(|mask| {
            let allowed: Vec<usize> = (0..actions).filter(|&i| mask[i] != 0).collect();
            if allowed.is_empty() || rng.next_below(1000) < stray_per_mille {
                rng.next_below(actions as i32) as i64
            } else {
                allowed[rng.next_below(allowed.len() as i32) as usize] as i64
            }
        })
        .collect()
}

fn compare<T: Number + std::fmt::Debug>(case: &Case) {
    let game = case.game;
    let mut rng = JavaRandom::new(5);
    let mut next_seed = 11;
    let mut seed = || {
        next_seed += 1;
        next_seed
    };
    let mut finished = 0;
    for index in 0..LANES {
        // The typed lane reuses its rows in one lane of two, the view path in the other.
        let reuse = index % 2 == 0;
        let first = seed();
        let new_lane = |path| {
            lane::<T>(game, EngineKind::Fast, path, first, case.league)
                .unwrap_or_else(|e| panic!("{} setup: {e}", game.name()))
        };
        let (mut typed, mut view) = (new_lane(Path::Typed), new_lane(Path::View));
        assert_eq!((typed.path(), view.path()), ("typed", "view"));
        let setup = || Outcome {
            rewards: vec![0.0; game.num_players()],
            over: false,
            score_deltas: vec![0.0; game.num_players()],
            final_observations: None,
        };
        let mut typed_step = read(typed.as_ref(), game, reuse, setup());
        assert_eq!(
            typed_step,
            read(view.as_ref(), game, !reuse, setup()),
            "{} after setup",
            game.name()
        );
        for step_number in 0..case.steps {
            let actions = random_actions(
                &typed_step.masks,
                game.num_actions(),
                case.stray_per_mille,
                &mut rng,
            );
            let reset_seed = seed();
            typed_step = step(typed.as_mut(), &actions, reset_seed, game, reuse);
            let view_step = step(view.as_mut(), &actions, reset_seed, game, !reuse);
            assert_eq!(
                typed_step,
                view_step,
                "{} league {:?} lane {index} step {step_number}: actions {actions:?}",
                game.name(),
                case.league
            );
            finished += usize::from(typed_step.over);
        }
    }
    assert!(
        finished >= 1,
        "{}: no game ended in {} steps: the resets went untested",
        game.name(),
        case.steps
    );
}

fn run(cases: &[Case]) {
    for case in cases {
        twinsim_obs::with_number!(case.game.dtype(), N => compare::<N>(case));
    }
}

fn case(game: GameId, league: Option<u32>, steps: usize, stray_per_mille: i32) -> Case {
    Case { game, league, steps, stray_per_mille }
}

// The cases and step counts of `python/tests/test_lanes.py`.

#[test]
fn xmas_rush_typed_equals_view() {
    let g = GameId::XmasRush;
    run(&[
        case(g, None, 400, 0),
        case(g, None, 300, 30),
        case(g, Some(1), 200, 30),
        case(g, Some(2), 200, 30),
    ]);
}

#[test]
fn photosynthesis_typed_equals_view() {
    let g = GameId::Photosynthesis;
    run(&[
        case(g, None, 400, 0),
        case(g, None, 300, 30),
        case(g, Some(1), 150, 30),
        case(g, Some(2), 200, 30),
    ]);
}

#[test]
fn zuniq_typed_equals_view() {
    let g = GameId::Zuniq;
    run(&[case(g, None, 300, 0), case(g, None, 200, 50)]);
}

#[test]
fn olymbits_typed_equals_view() {
    let g = GameId::Olymbits;
    run(&[case(g, None, 260, 0), case(g, Some(1), 200, 0), case(g, Some(2), 200, 0)]);
}

#[test]
fn wondev_woman_typed_equals_view() {
    let g = GameId::WondevWoman;
    run(&[
        case(g, None, 300, 0),
        case(g, None, 300, 20),
        case(g, Some(0), 200, 20),
        case(g, Some(1), 200, 20),
        case(g, Some(2), 200, 20),
    ]);
}
