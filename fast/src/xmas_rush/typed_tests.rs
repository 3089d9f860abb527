//! The typed API, fast vs reference: `FastXmasRush` and `XmasRush` played in lockstep through
//! [`Game`] only, odd and illegal actions included.

use super::bench::sample_states;
use super::check::state_diff;
use super::typed::{path_tree, FastXmasRush, PathTree};
use super::*;
use quickcheck::{QuickCheck, TestResult};
use twinsim_reference::game::{Game, StepError};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::testing::{same_typed_api, step_twins};
use twinsim_reference::xmas_rush::{self as r, XmasRush};

const SEEDS: [i64; 8] = [0, 1, -1, 42, 7_777_777, 123_456_789_012, i64::MAX, i64::MIN];

/// The packed setup unpacks to the reference's setup (the packing loses nothing), for extreme
/// seeds and every league.
#[test]
fn typed_new_game_unpacks_to_the_reference_setup() {
    for seed in SEEDS {
        for level in 0..8 {
            let league = r::League { level };
            let want = XmasRush::new_game(seed, &league);
            let got = FastXmasRush::new_game(seed, &league).to_reference();
            assert_eq!(got, want, "seed {seed} league {level}: {}", state_diff(&want, &got));
        }
    }
}

#[test]
fn path_tree_matches_the_reference_shortest_paths_from_every_cell() {
    for rs in sample_states(120) {
        let fs = State::from(&rs);
        for x in 0..7 {
            for y in 0..7 {
                let want = r::rules::shortest_paths(&rs, x, y);
                let tree = path_tree(&fs, x, y);
                let got: Vec<((usize, usize), Vec<r::Direction>)> = tree.order[..tree.len]
                    .iter()
                    .map(|&c| (((c % 7) as usize, (c / 7) as usize), walk_back(&tree, c)))
                    .collect();
                assert_eq!(got, want, "from ({x},{y})");
                // `path_to` is the same path when a MOVE can hold it (at most 20 steps).
                for (&c, (_, steps)) in tree.order[..tree.len].iter().zip(&want) {
                    assert_eq!(tree.path_to(c), r::Path::try_from(&steps[..]).ok(), "to {c}");
                }
            }
        }
    }
}

/// The tree's whole path to `cell`, however long, walked back through the parents.
fn walk_back(tree: &PathTree, cell: u8) -> Vec<r::Direction> {
    let mut path = Vec::new();
    let mut c = cell;
    for _ in 0..tree.depth[cell as usize] {
        path.push(r::Direction::ALL[tree.dir[c as usize] as usize]);
        c = tree.parent[c as usize];
    }
    path.reverse();
    path
}

/// Both twins' whole typed view of a position, compared; an error names the first difference.
fn same_view(rs: &r::State, fs: &State, when: &str) -> Result<(), String> {
    if fs.to_reference() != *rs {
        return Err(format!("state {when}:\n{}", state_diff(rs, &fs.to_reference())));
    }
    same_typed_api::<XmasRush, FastXmasRush>(rs, fs).map_err(|e| format!("{e} {when}"))?;
    if XmasRush::legal_actions(rs, 2) != FastXmasRush::legal_actions(fs, 2) {
        return Err(format!("legal_actions of a player who does not exist {when}"));
    }
    Ok(())
}

/// Steps both twins with the same actions; results and states must agree, and a refused step
/// must leave both states as they were.
fn step_both(
    rs: &mut r::State,
    fs: &mut State,
    actions: &[Option<r::Action>],
) -> Result<Result<(), StepError>, String> {
    let a = step_twins::<XmasRush, FastXmasRush>(rs, fs, actions)?;
    same_view(rs, fs, &format!("after {actions:?} ({a:?})"))?;
    Ok(a)
}

/// A random path of `min` to `max` (at most 20) directions (walls included).
fn random_steps(rng: &mut JavaRandom, min: i32, max: i32) -> r::Path {
    let n = min + rng.next_below(max - min + 1);
    let mut path = r::Path::EMPTY;
    for _ in 0..n {
        path.push(r::Direction::ALL[rng.next_below(4) as usize]).expect("at most 20 steps");
    }
    path
}

/// Actions the reference refuses (or that have the wrong shape), given a legal pair.
fn odd_actions(
    kind: i32,
    s: &r::State,
    legal: &[Option<r::Action>; 2],
    rng: &mut JavaRandom,
) -> Vec<Option<r::Action>> {
    let push = |line| Some(r::Action::Push { line, direction: r::Direction::Left });
    let wrong_type = if s.turn_type == r::TurnType::Push { Some(r::Action::Pass) } else { push(3) };
    let wrong_type_too = if s.turn_type == r::TurnType::Push {
        Some(r::Action::Move(r::Path::try_from([r::Direction::Up]).unwrap()))
    } else {
        push(0)
    };
    let [a, b] = *legal;
    match kind {
        0 => vec![],
        1 => vec![a, b, a],
        2 => vec![wrong_type, b],
        3 => vec![a, wrong_type_too],
        4 => vec![a, Some(r::Action::Move(r::Path::EMPTY))],
        // (More than 20 steps only exist as a printed line, which the parser refuses, §5 rule
        // 5: the typed path cannot hold them.)
        5 => vec![Some(r::Action::Move(r::Path::EMPTY)), b],
        6 => vec![push(7 + rng.next_below(1000) as usize), b],
        7 => vec![a, push(usize::MAX)],
        // Both refused: player 0's error is the one reported.
        _ => vec![Some(r::Action::Move(r::Path::EMPTY)), wrong_type_too],
    }
}

/// One whole random game through [`Game`] on both twins in lockstep. Random legal actions, random
/// walks into walls, rare timeouts, some games where every push conflicts (deadlock), and odd
/// actions tried before many turns.
fn lockstep_game(seed: i64, level: i64, chooser: i64) -> Result<(), String> {
    let league = r::League { level };
    let mut rs = XmasRush::new_game(seed, &league);
    let mut fs = FastXmasRush::new_game(seed, &league);
    same_view(&rs, &fs, "after setup")?;
    let mut rng = JavaRandom::new(chooser);
    let stubborn = rng.next_below(6) == 0;
    let mut turns = 0;
    while !XmasRush::players_to_act(&rs).is_empty() {
        turns += 1;
        if turns > 200 {
            return Err("the game did not end within 200 turns".into());
        }
        let mut legal: [Option<r::Action>; 2] = [None, None];
        for (p, slot) in legal.iter_mut().enumerate() {
            let list = XmasRush::legal_actions(&rs, p);
            let mut action = list[rng.next_below(list.len() as i32) as usize];
            if rs.turn_type == r::TurnType::Move && rng.next_below(6) == 0 {
                action = r::Action::Move(random_steps(&mut rng, 1, 20));
            }
            *slot = (rng.next_below(500) != 0).then_some(action);
        }
        if stubborn && rs.turn_type == r::TurnType::Push {
            let push = |d| Some(r::Action::Push { line: 2, direction: d });
            legal = [push(r::Direction::Up), push(r::Direction::Down)];
        }
        if rng.next_below(3) == 0 {
            let kind = rng.next_below(9);
            let odd = odd_actions(kind, &rs, &legal, &mut rng);
            if step_both(&mut rs, &mut fs, &odd)?.is_ok() {
                return Err(format!("odd actions {odd:?} were accepted"));
            }
        }
        step_both(&mut rs, &mut fs, &legal)?.map_err(|e| format!("{legal:?} refused: {e}"))?;
    }
    // Finished: both refuse everything, outcome present and equal.
    if XmasRush::outcome(&rs).is_none() {
        return Err("no outcome at the end".into());
    }
    let pass = Some(r::Action::Pass);
    for actions in [vec![pass, pass], vec![], vec![None, None, pass]] {
        if step_both(&mut rs, &mut fs, &actions)? != Err(StepError::GameOver) {
            return Err(format!("{actions:?} after the end was not refused as game over"));
        }
    }
    Ok(())
}

#[test]
fn prop_typed_games_fast_equals_reference() {
    fn property(seed: i64, level: u8, chooser: i64) -> TestResult {
        match lockstep_game(seed, i64::from(level % 8), chooser) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(format!("seed {seed} league {} : {e}", level % 8)),
        }
    }
    QuickCheck::new().tests(120).quickcheck(property as fn(i64, u8, i64) -> TestResult);
}

#[test]
fn typed_games_fast_equals_reference_on_fixed_seeds() {
    for (k, seed) in SEEDS.into_iter().enumerate() {
        for level in 0..8 {
            lockstep_game(seed, level, seed ^ (k as i64 * 31 + level)).unwrap();
        }
    }
}

#[test]
fn typed_step_refuses_odd_actions_with_the_reference_errors() {
    let push = |line| Some(r::Action::Push { line, direction: r::Direction::Right });
    let mv = |n: usize| {
        let downs = [r::Direction::Down; r::MAX_STEPS];
        Some(r::Action::Move(r::Path::try_from(&downs[..n]).unwrap()))
    };
    let illegal = |player, reason: &str| {
        Err(StepError::Illegal {
            player,
            error: twinsim_reference::game::IllegalAction { reason: reason.to_string() },
        })
    };
    let push_turn = XmasRush::new_game(3, &r::League::default());
    assert_eq!(push_turn.turn_type, r::TurnType::Push);
    let mut move_turn = push_turn.clone();
    XmasRush::step(&mut move_turn, &[push(1), push(4)]).unwrap();
    assert_eq!(move_turn.turn_type, r::TurnType::Move);
    type Case<'a> = (&'a r::State, Vec<Option<r::Action>>, Result<(), StepError>);
    let cases: Vec<Case> = vec![
        (&push_turn, vec![push(1)], Err(StepError::WrongArity { expected: 2, found: 1 })),
        (&push_turn, vec![Some(r::Action::Pass), mv(0)], {
            illegal(0, "can't \"PASS\" while expecting a PUSH action")
        }),
        (
            &push_turn,
            vec![push(0), mv(0)],
            illegal(1, "can't \"MOVE\" while expecting a PUSH action"),
        ),
        (&push_turn, vec![push(7), push(0)], illegal(0, "a PUSH line is 0..6 (§5)")),
        (
            &move_turn,
            vec![push(9), mv(0)],
            illegal(0, "can't \"PUSH\" while expecting a MOVE action"),
        ),
        (&move_turn, vec![mv(1), mv(0)], illegal(1, "a MOVE has 1 to 20 steps (§5)")),
        (&move_turn, vec![mv(20), Some(r::Action::Pass)], Ok(())),
        (&move_turn, vec![None, mv(3)], Ok(())),
    ];
    for (start, actions, want) in cases {
        let mut rs = start.clone();
        let mut fs = State::from(start);
        assert_eq!(step_both(&mut rs, &mut fs, &actions).unwrap(), want, "{actions:?}");
    }
    // A timeout is fatal: the game ends on both, with the same outcome.
    let mut rs = move_turn.clone();
    let mut fs = State::from(&move_turn);
    step_both(&mut rs, &mut fs, &[Some(r::Action::Pass), None]).unwrap().unwrap();
    assert_eq!(FastXmasRush::outcome(&fs).map(|o| o.reason), Some("timeout".to_string()));
    assert!(FastXmasRush::players_to_act(&fs).is_empty());
    assert_eq!(
        step_both(&mut rs, &mut fs, &[Some(r::Action::Pass), Some(r::Action::Pass)]).unwrap(),
        Err(StepError::GameOver)
    );
}

/// A board that is one serpentine corridor through all 49 cells (row 0 left to right, row 1
/// right to left, ...), so shortest paths reach 48 steps and the 20-step cut of the legal list
/// matters.
fn snake_board(mut s: r::State) -> r::State {
    let snake: Vec<(usize, usize)> =
        (0..7).flat_map(|y| (0..7).map(move |i| (if y % 2 == 0 { i } else { 6 - i }, y))).collect();
    let towards = |(ax, ay): (usize, usize), (bx, by): (usize, usize)| {
        let d = (bx as i32 - ax as i32, by as i32 - ay as i32);
        r::Direction::ALL.into_iter().find(|dir| dir.vector() == d).unwrap().index()
    };
    for (k, &cell) in snake.iter().enumerate() {
        let mut open = [false; 4];
        if k > 0 {
            open[towards(cell, snake[k - 1])] = true;
        }
        if k + 1 < snake.len() {
            open[towards(cell, snake[k + 1])] = true;
        }
        s.tiles[cell.0][cell.1].pattern = r::Pattern { open };
    }
    s
}

#[test]
fn typed_legal_moves_stop_at_twenty_steps_like_the_reference() {
    let mut start = XmasRush::new_game(17, &r::League::default());
    let push = Some(r::Action::Push { line: 1, direction: r::Direction::Up });
    XmasRush::step(&mut start, &[push, push]).unwrap();
    assert_eq!(start.turn_type, r::TurnType::Move);
    for (cell0, cell1) in [((0, 0), (6, 6)), ((3, 3), (0, 6)), ((6, 1), (6, 0))] {
        let mut rs = snake_board(start.clone());
        (rs.players[0].x, rs.players[0].y) = cell0;
        (rs.players[1].x, rs.players[1].y) = cell1;
        let mut fs = State::from(&rs);
        same_view(&rs, &fs, "on the snake board").unwrap();
        let longest = |p| match XmasRush::legal_actions(&rs, p).last() {
            Some(r::Action::Move(steps)) => steps.len(),
            _ => 0,
        };
        assert_eq!((longest(0), longest(1)), (20, 20));
        // The longest legal walks, both at once.
        let walks = [0, 1].map(|p| XmasRush::legal_actions(&rs, p).last().cloned());
        step_both(&mut rs, &mut fs, &walks).unwrap().unwrap();
    }
}
