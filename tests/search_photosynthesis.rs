//! `builtin:beam` for Photosynthesis: the beam search on both twins (determinism, twin
//! equivalence), the state rebuilt from views (it equals the true state up to what the views
//! cannot show), and whole games where every answer of the bot is checked against the typed
//! legal actions of the TRUE state (the bot itself only ever reads the view texts), plus
//! (ignored, `--release`) strength against the greedy bot and time safety.

use fast::photosynthesis::FastPhotosynthesis;
use reference::game::{Game, PlayerId};
use reference::photosynthesis::protocol::{self, view_texts};
use reference::photosynthesis::{parse_line, Action, Params, Photosynthesis, State};
use std::time::{Duration, Instant};
use twinsim::search::beam::BeamConfig;
use twinsim::search::bot::{make_player, SearchSpec, ViewPlayer};
use twinsim::search::photosynthesis::{search, state_from_view};
use twinsim::search::{Budget, SearchRng};

/// `plies` random frames from the start of game `seed` (fewer if it ends).
fn random_position(seed: i64, plies: usize) -> State {
    let mut s = Photosynthesis::new_game(seed, &Params::default());
    let mut rng = SearchRng::new(seed);
    for _ in 0..plies {
        let to_act = Photosynthesis::players_to_act(&s);
        if to_act.is_empty() {
            break;
        }
        let mut joint = vec![None, None];
        for p in to_act {
            let legal = Photosynthesis::legal_actions(&s, p);
            // Mostly growth and seeds, so positions fill up; WAIT a quarter of the time.
            let k = if rng.below(4) == 0 { 0 } else { rng.below(legal.len()) };
            joint[p] = Some(legal[k]);
        }
        Photosynthesis::step(&mut s, &joint).unwrap();
    }
    s
}

/// A bot for `seat` from a spec text.
fn bot(spec: &str, seat: PlayerId, seed: i64) -> Box<dyn ViewPlayer> {
    let spec: SearchSpec = spec.parse().unwrap();
    make_player("photosynthesis", &spec, seat, seed).unwrap()
}

/// An opponent that reads the true state: the first non-WAIT legal action half of the time.
fn simple_opponent(state: &State, p: PlayerId, rng: &mut SearchRng) -> Action {
    let legal = Photosynthesis::legal_actions(state, p);
    if legal.len() > 1 && rng.below(2) == 0 {
        legal[1 + rng.below(legal.len() - 1)]
    } else {
        Action::Wait
    }
}

/// Plays game `seed` on the reference referee: the seats in `bots` are search bots fed the
/// view texts only, the others play `simple_opponent`. Every line a search bot prints must
/// parse and be a legal action of the true state. Returns the final state.
fn play_checked(
    seed: i64,
    bots: &mut [Option<Box<dyn ViewPlayer>>; 2],
    limit: Duration,
) -> State {
    let mut s = Photosynthesis::new_game(seed, &Params::default());
    let mut rng = SearchRng::new(seed ^ 77);
    let mut first = [true, true];
    while Photosynthesis::outcome(&s).is_none() {
        let texts = view_texts(&s);
        let mut joint = vec![None, None];
        for p in Photosynthesis::players_to_act(&s) {
            let action = match &mut bots[p] {
                Some(b) => {
                    let text = texts[p].as_ref().expect("an asked player has a view");
                    let l = if first[p] { limit * 10 } else { limit };
                    first[p] = false;
                    let start = Instant::now();
                    let line = b.play(text, start + l).expect("the bot always answers");
                    assert!(start.elapsed() < l, "seed {seed}: late answer ({:?})", start.elapsed());
                    let a = parse_line(&line, &Params::default())
                        .unwrap_or_else(|e| panic!("seed {seed}: malformed {line:?}: {e:?}"))
                        .action;
                    let legal = Photosynthesis::legal_actions(&s, p);
                    assert!(legal.contains(&a), "seed {seed} day {}: illegal {line:?}", s.day);
                    a
                }
                None => simple_opponent(&s, p, &mut rng),
            };
            joint[p] = Some(action);
        }
        Photosynthesis::step(&mut s, &joint).unwrap();
    }
    s
}

#[test]
fn whole_games_answers_are_legal_in_the_true_state() {
    for seed in 1..=3 {
        let mut bots = [Some(bot("beam@fast:iterations=300", 0, seed)), None];
        let s = play_checked(seed, &mut bots, Duration::from_secs(5));
        assert!(s.players[0].active, "seed {seed}: the bot was disqualified");
        let stats = bots[0].as_ref().unwrap().stats();
        assert!(stats.moves > 20 && stats.iterations > 0, "{stats:?}");
    }
}

#[test]
fn whole_games_on_the_clock_are_legal_and_in_time() {
    for seed in 1..=2 {
        let mut bots = [Some(bot("beam@fast", 0, seed)), Some(bot("beam@reference", 1, seed))];
        let s = play_checked(seed, &mut bots, Duration::from_millis(10));
        assert!(s.players[0].active && s.players[1].active);
    }
}

#[test]
#[ignore]
fn timing_probe() {
    for plies in [10, 30, 60, 90] {
        let r = random_position(3, plies);
        let f = fast::photosynthesis::State::from(&r);
        for p in Photosynthesis::players_to_act(&r) {
            let start = Instant::now();
            let b = Budget::until(start + Duration::from_millis(5));
            let a = search::<Photosynthesis>(&r, p, &b, &BeamConfig::default());
            let t1 = start.elapsed();
            let start = Instant::now();
            let b = Budget::until(start + Duration::from_millis(5));
            let c = search::<FastPhotosynthesis>(&f, p, &b, &BeamConfig::default());
            let t2 = start.elapsed();
            println!(
                "plies {plies} day {} p{p}: ref {:?} it {} w {} | fast {:?} it {} w {} {:?}",
                r.day, t1, a.iterations, a.width, t2, c.iterations, c.width, c.plan
            );
        }
    }
}

#[test]
#[ignore]
fn step_probe() {
    let r = random_position(3, 60);
    let p = Photosynthesis::players_to_act(&r)[0];
    let mut worst = (Duration::ZERO, Action::Wait, "");
    for _ in 0..3 {
        for a in Photosynthesis::legal_actions(&r, p) {
            let t = Instant::now();
            let mut c = r.clone();
            let mut joint = vec![Some(Action::Wait), Some(Action::Wait)];
            joint[p] = Some(a);
            for q in 0..2 {
                if !r.is_asked(q) {
                    joint[q] = None;
                }
            }
            Photosynthesis::step(&mut c, &joint).unwrap();
            let d = t.elapsed();
            if d > worst.0 {
                worst = (d, a, "step");
            }
            let t = Instant::now();
            let _ = twinsim::search::StateKey::state_key(&c);
            let d = t.elapsed();
            if d > worst.0 {
                worst = (d, a, "key");
            }
            let t = Instant::now();
            let _ = twinsim::search::beam::BeamEvaluate::heuristic(&c, p);
            let _ = twinsim::search::beam::BeamEvaluate::plan_value(&c, p);
            let d = t.elapsed();
            if d > worst.0 {
                worst = (d, a, "eval");
            }
        }
    }
    println!("worst {worst:?}");
}
