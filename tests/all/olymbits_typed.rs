//! The typed API ([`Game`]) of the Olymbits fast twin against the reference's: whole random
//! games in lockstep through `Game` on both twins (every league), odd steps included, and the
//! seeded setup.

use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use twinsim_fast::olymbits::{check::state_diff, FastOlymbits, State};
use twinsim_reference::game::{Game, Outcome, StepError};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::olymbits::{self as r, Olymbits};
use twinsim_reference::testing::{same_typed_api, step_twins};

const LEAGUES: [r::League; 3] = [r::League::Wood1, r::League::Wood2, r::League::Top];

/// One random game: seed, league, how often an active player times out, and the seed of a
/// small generator that draws the actions (so every game can run to its end).
#[derive(Clone, Debug)]
struct Scenario {
    seed: i64,
    league: r::League,
    /// Chance in 1000 that an active player times out on a turn.
    timeout_permille: u64,
    noise: u64,
}

impl Arbitrary for Scenario {
    fn arbitrary(g: &mut Gen) -> Self {
        let seed = match u8::arbitrary(g) % 4 {
            0 => i64::from(i16::arbitrary(g)),
            _ => i64::arbitrary(g),
        };
        Scenario {
            seed,
            league: *g.choose(&LEAGUES).unwrap(),
            timeout_permille: *g.choose(&[0, 0, 3, 8, 40]).unwrap(),
            noise: u64::arbitrary(g) | 1,
        }
    }

    /// Toward smaller seeds (strictly, so shrinking ends) and no timeouts.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let mut seeds = vec![0, 1, self.seed / 2];
        seeds.retain(|v| v.unsigned_abs() < self.seed.unsigned_abs());
        seeds.dedup();
        let mut out: Vec<Scenario> =
            seeds.into_iter().map(|seed| Scenario { seed, ..self.clone() }).collect();
        if self.timeout_permille != 0 {
            out.push(Scenario { timeout_permille: 0, ..self.clone() });
        }
        Box::new(out.into_iter())
    }
}

fn without_events(s: &r::State) -> r::State {
    let mut s = s.clone();
    s.events.clear();
    s
}

/// Everything the typed API shows, compared between the twins; the first difference.
fn same_view(turn: usize, reference: &r::State, fast: &State) -> Result<(), String> {
    same_typed_api::<Olymbits, FastOlymbits>(reference, fast)
        .map_err(|e| format!("turn {turn}: {e}"))?;
    // Out-of-range players: both must answer with nothing.
    for p in 3..5 {
        let a = Olymbits::legal_actions(reference, p);
        let b = FastOlymbits::legal_actions(fast, p);
        if a != b {
            return Err(format!("turn {turn}: legal_actions of {p}: {a:?} vs {b:?}"));
        }
    }
    let expected = without_events(reference);
    let found = fast.to_reference();
    if expected != found {
        return Err(format!("turn {turn}: states differ:\n{}", state_diff(&expected, &found)));
    }
    Ok(())
}

/// Steps both twins with the same actions; results must be equal, then everything else.
fn step_both(
    turn: usize,
    what: &str,
    reference: &mut r::State,
    fast: &mut State,
    actions: &[Option<r::Action>],
) -> Result<Result<(), StepError>, String> {
    let a = step_twins::<Olymbits, FastOlymbits>(reference, fast, actions)
        .map_err(|e| format!("turn {turn}: {what}: {e}"))?;
    same_view(turn, reference, fast)?;
    Ok(a)
}

/// A few deliberately odd steps, each of which both twins must refuse the same way without
/// changing anything: wrong arities, `Some` for a deactivated player.
fn odd_steps(
    turn: usize,
    rng: &mut JavaRandom,
    reference: &mut r::State,
    fast: &mut State,
) -> Result<(), String> {
    let any = || Some(r::Action::ALL[0]);
    let before = fast.clone();
    for len in [0, 2, 4] {
        let actions = vec![any(); len];
        let res = step_both(turn, "wrong arity", reference, fast, &actions)?;
        let expected = if reference.is_over() {
            StepError::GameOver
        } else {
            StepError::WrongArity { expected: 3, found: len }
        };
        if res != Err(expected.clone()) {
            return Err(format!("turn {turn}: arity {len}: {res:?}, expected {expected:?}"));
        }
    }
    let inactive: Vec<usize> = (0..3).filter(|&p| !reference.active[p]).collect();
    for p in inactive {
        let mut actions: Vec<Option<r::Action>> = (0..3)
            .map(|i| reference.active[i].then(|| r::Action::ALL[rng.next_below(4) as usize]))
            .collect();
        actions[p] = Some(r::Action::ALL[rng.next_below(4) as usize]);
        let res = step_both(turn, "inactive player acts", reference, fast, &actions)?;
        let expected = if reference.is_over() {
            StepError::GameOver
        } else {
            StepError::NotToAct { player: p }
        };
        if res != Err(expected.clone()) {
            return Err(format!("turn {turn}: {res:?}, expected {expected:?}"));
        }
    }
    if *fast != before {
        return Err(format!("turn {turn}: a refused step changed the fast state"));
    }
    Ok(())
}

/// Plays one whole game through `Game` on both twins in lockstep.
fn lockstep(s: &Scenario) -> Result<(usize, Outcome), String> {
    let params = r::Params { league: s.league };
    let mut reference = Olymbits::new_game(s.seed, &params);
    let mut fast = FastOlymbits::new_game(s.seed, &params);
    let mut rng = JavaRandom::new(s.noise as i64);
    same_view(0, &reference, &fast)?;
    let mut turn = 0;
    while !Olymbits::players_to_act(&reference).is_empty() {
        if turn > 120 {
            return Err("the game does not end".into());
        }
        if rng.next_below(8) == 0 {
            odd_steps(turn, &mut rng, &mut reference, &mut fast)?;
        }
        let to_act = FastOlymbits::players_to_act(&fast);
        let actions: Vec<Option<r::Action>> = (0..3)
            .map(|p| {
                let draw = rng.next_long() as u64;
                if !to_act.contains(&p) || draw % 1000 < s.timeout_permille {
                    None
                } else {
                    let legal = FastOlymbits::legal_actions(&fast, p);
                    Some(legal[(draw >> 20) as usize % legal.len()])
                }
            })
            .collect();
        let res = step_both(turn, "turn", &mut reference, &mut fast, &actions)?;
        if res.is_err() {
            return Err(format!("turn {turn}: a legal joint action was refused: {res:?}"));
        }
        turn += 1;
    }
    // The game is over: both have an outcome and refuse any further step.
    let Some(outcome) = FastOlymbits::outcome(&fast) else {
        return Err("finished game without an outcome".into());
    };
    odd_steps(turn, &mut rng, &mut reference, &mut fast)?;
    for actions in [vec![Some(r::Action::ALL[1]); 3], vec![None; 3]] {
        let res = step_both(turn, "after the end", &mut reference, &mut fast, &actions)?;
        if res != Err(StepError::GameOver) {
            return Err(format!("after the end: {res:?}"));
        }
    }
    Ok((turn, outcome))
}

#[test]
fn prop_typed_games_fast_equals_reference() {
    fn prop(s: Scenario) -> TestResult {
        match lockstep(&s) {
            Ok(_) => TestResult::passed(),
            Err(e) => TestResult::error(e),
        }
    }
    QuickCheck::new().tests(300).quickcheck(prop as fn(Scenario) -> TestResult);
}

/// Both ways a game ends are reached in every league, so the property above is not vacuous.
#[test]
fn typed_lockstep_reaches_both_endings_in_every_league() {
    for league in LEAGUES {
        let mut reasons = std::collections::BTreeSet::new();
        for seed in 1..=40i64 {
            let timeout_permille = if seed & 1 == 0 { 0 } else { 33 };
            let s = Scenario { seed, league, timeout_permille, noise: 0x9E37_79B9 ^ seed as u64 };
            let (turns, outcome) = lockstep(&s).unwrap_or_else(|e| panic!("{s:?}: {e}"));
            assert!(turns >= 1);
            reasons.insert(outcome.reason);
        }
        assert_eq!(reasons.len(), 2, "{league:?}: {reasons:?}");
    }
}

#[test]
fn typed_new_game_equals_the_converted_reference_setup() {
    let seeds = [1i64, 2, 3, 42, -1, -987_654_321, i64::MAX, i64::MIN, 0];
    for league in LEAGUES {
        let params = r::Params { league };
        for seed in seeds {
            let expected = State::from(&Olymbits::new_game(seed, &params));
            let found = FastOlymbits::new_game(seed, &params);
            assert_eq!(found, expected, "{league:?} seed {seed}");
            assert_eq!(found.to_reference(), Olymbits::new_game(seed, &params));
        }
    }
    // The default params are the top league on both sides.
    assert_eq!(
        FastOlymbits::new_game(7, &Default::default()),
        State::from(&Olymbits::new_game(7, &Default::default()))
    );
}
