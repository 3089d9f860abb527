//! Property tests over states deep into random games (random seeds, leagues and playouts).

use quickcheck::{quickcheck, Arbitrary, Gen, TestResult};
use twinsim_reference::game::{Game, StepError, TracePlay};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::photosynthesis::{
    board, parse_turn, protocol, render_view, rules, trace::Play, Action, Params, Photosynthesis,
    State,
};

/// A number below `n` (n > 0) from the seeded test generator.
fn below(rng: &mut JavaRandom, n: usize) -> usize {
    rng.next_below(n as i32) as usize
}

/// A game position reached by a random playout: seed, league, number of frames played.
#[derive(Clone, Debug)]
struct Deep {
    seed: i64,
    league: u8,
    frames: usize,
    policy: u64,
}

impl Arbitrary for Deep {
    fn arbitrary(g: &mut Gen) -> Self {
        let league = [1u8, 2, 3, 3, 3, 4][usize::arbitrary(g) % 6];
        Deep {
            seed: i64::arbitrary(g),
            league,
            frames: usize::arbitrary(g) % 160,
            policy: u64::arbitrary(g) | 1,
        }
    }
}

/// Random legal joint actions; WAIT only a quarter as likely as its share, so trees grow.
fn joint_actions(state: &State, rng: &mut JavaRandom) -> [Option<Action>; 2] {
    [0, 1].map(|p| {
        let legal = Photosynthesis::legal_actions(state, p);
        if legal.is_empty() {
            return None;
        }
        let pick = legal[below(rng, legal.len())];
        if pick == Action::Wait && legal.len() > 1 && below(rng, 4) != 0 {
            Some(legal[1 + below(rng, legal.len() - 1)])
        } else {
            Some(pick)
        }
    })
}

impl Deep {
    /// Every state of the playout, the first one included.
    fn states(&self) -> Vec<State> {
        let mut state = Photosynthesis::new_game(self.seed, &Params { league_level: self.league });
        let mut rng = JavaRandom::new(self.policy as i64);
        let mut out = vec![state.clone()];
        for _ in 0..self.frames {
            if state.game_over {
                break;
            }
            let actions = joint_actions(&state, &mut rng);
            Photosynthesis::step(&mut state, &actions).expect("legal actions step");
            out.push(state.clone());
        }
        out
    }
}

/// Sun income recomputed the slow way: a tree earns its size unless some tree of at least its
/// size stands within that tree's size behind it against the sun (§5). Wood leagues have no
/// shadows at all.
fn income_by_hand(state: &State) -> [i32; 2] {
    let mut income = [0, 0];
    for (&cell, tree) in &state.trees {
        let shadowed = state.params.league_level >= 3
            && state.trees.iter().any(|(&other, t)| {
                t.size >= tree.size
                    && t.size > 0
                    && (1..=t.size as i32).any(|i| {
                        board::index_of(board::coord(other).step(state.sun_direction, i))
                            == Some(cell)
                    })
            });
        if !shadowed && tree.size > 0 {
            income[tree.owner] += tree.size as i32;
        }
    }
    income
}

#[test]
fn sun_income_is_the_sum_of_unshadowed_tree_sizes() {
    fn prop(d: Deep) -> bool {
        // At the start of each day the shadow map reflects exactly the trees on the board.
        let states = d.states();
        (0..states.len())
            .filter(|&i| i == 0 || states[i].day != states[i - 1].day)
            .filter(|&i| !states[i].game_over)
            .all(|i| rules::sun_income(&states[i]) == income_by_hand(&states[i]))
    }
    quickcheck(prop as fn(Deep) -> bool);
}

#[test]
fn a_day_ending_on_waits_pays_exactly_the_income() {
    fn prop(d: Deep) -> TestResult {
        let states = d.states();
        let last = states.last().unwrap().clone();
        if last.game_over {
            return TestResult::discard();
        }
        let mut s = last.clone();
        let waits = [0, 1].map(|p| s.is_asked(p).then_some(Action::Wait));
        Photosynthesis::step(&mut s, &waits).unwrap();
        if s.game_over {
            return TestResult::discard();
        }
        let income = rules::sun_income(&s);
        TestResult::from_bool(
            s.day == last.day + 1
                && (0..2).all(|p| s.players[p].sun == last.players[p].sun + income[p]),
        )
    }
    quickcheck(prop as fn(Deep) -> TestResult);
}

#[test]
fn nutrients_never_increase_and_sun_never_negative() {
    fn prop(d: Deep) -> bool {
        let states = d.states();
        states.windows(2).all(|w| w[1].nutrients <= w[0].nutrients && w[1].nutrients >= 0)
            && states.iter().all(|s| s.players.iter().all(|p| p.sun >= 0))
    }
    quickcheck(prop as fn(Deep) -> bool);
}

#[test]
fn legal_actions_are_exactly_what_step_accepts() {
    fn prop(d: Deep, probes: Vec<(u8, u8, u8)>) -> bool {
        let s = d.states().pop().unwrap();
        for p in Photosynthesis::players_to_act(&s) {
            let legal = Photosynthesis::legal_actions(&s, p);
            let other =
                |q: usize| if q == p { None } else { s.is_asked(q).then_some(Action::Wait) };
            let with = |a: Action| {
                let mut slots = [other(0), other(1)];
                slots[p] = Some(a);
                slots
            };
            for &a in &legal {
                if Photosynthesis::step(&mut s.clone(), &with(a)).is_err() {
                    return false;
                }
            }
            for &(kind, x, y) in &probes {
                let (x, y) = (x as i32 % 40, y as i32 % 40);
                let a = match kind % 3 {
                    0 => Action::Grow(x),
                    1 => Action::Complete(x),
                    _ => Action::Seed(x, y),
                };
                let accepted = Photosynthesis::step(&mut s.clone(), &with(a)).is_ok();
                if accepted != legal.contains(&a) {
                    return false;
                }
            }
        }
        true
    }
    quickcheck(prop as fn(Deep, Vec<(u8, u8, u8)>) -> bool);
}

#[test]
fn the_board_is_symmetric_at_setup() {
    fn prop(seed: i64, league: u8) -> bool {
        let s = Photosynthesis::new_game(seed, &Params { league_level: 1 + league % 4 });
        (0..board::NUM_CELLS).all(|i| s.richness[i] == s.richness[board::mirror(i)])
            && s.trees.iter().all(|(&c, t)| {
                s.trees
                    .get(&board::mirror(c))
                    .is_some_and(|m| m.owner != t.owner && m.size == t.size)
            })
    }
    quickcheck(prop as fn(i64, u8) -> bool);
}

#[test]
fn views_render_and_parse_back() {
    fn prop(d: Deep) -> bool {
        d.states().iter().all(|s| {
            protocol::views(s).into_iter().flatten().all(|view| {
                let text = render_view(&view);
                parse_turn(&text) == Ok(view.clone())
                    && protocol::view_texts(s).contains(&Some(text))
            })
        })
    }
    quickcheck(prop as fn(Deep) -> bool);
}

#[test]
fn stepping_a_finished_game_is_refused() {
    fn prop(seed: i64, league: u8, policy: u64) -> bool {
        let d = Deep { seed, league: 1 + league % 3, frames: 10_000, policy: policy | 1 };
        let s = d.states().pop().unwrap();
        let mut t = s.clone();
        s.game_over
            && Photosynthesis::outcome(&s).is_some()
            && Photosynthesis::players_to_act(&s).is_empty()
            && Photosynthesis::step(&mut t, &[Some(Action::Wait), None]) == Err(StepError::GameOver)
            && t == s
    }
    quickcheck(prop as fn(i64, u8, u64) -> bool);
}

/// No line a bot may print, and no timeout, can make the text-level engine panic; every turn
/// either resolves or the game is over.
#[test]
fn arbitrary_lines_never_panic() {
    fn prop(seed: i64, lines: Vec<(Option<String>, Option<String>)>) -> bool {
        let mut play = Play::new(seed, Params::default());
        for (a, b) in lines {
            let result = play.play_turn(&[a, b]);
            if play.is_over() {
                return play.outcome().is_some() && play.play_turn(&[None, None]).is_err();
            }
            if result.is_err() {
                return false;
            }
            let _ = play.turn_record();
        }
        true
    }
    quickcheck(prop as fn(i64, Vec<(Option<String>, Option<String>)>) -> bool);
}
