//! The generic searches of `twinsim_search` on both twins: determinism, twin equivalence (same
//! seed and iteration budget give the same action and statistics on reference and fast),
//! legality, finished and forced positions, strength against random play. (Iterations per second are a `twinsim bench` figure.)

use crate::answer_time::Stopwatch;
use std::time::{Duration, Instant};
use twinsim_fast::olymbits::FastOlymbits;
use twinsim_fast::zuniq::FastZuniq;
use twinsim_reference::game::{Game, PlayerId};
use twinsim_reference::olymbits::Olymbits;
use twinsim_reference::zuniq::Zuniq;
use twinsim_search::duct::{self, DuctConfig};
use twinsim_search::mcts::{self, MctsConfig};
use twinsim_search::{Budget, SearchRng};

/// One uniformly random joint action (every player to act picks a random legal action).
fn random_joint<G: Game>(state: &G::State, rng: &mut SearchRng) -> Vec<Option<G::Action>> {
    let mut slots = vec![None; G::num_players(state)];
    for p in G::players_to_act(state) {
        let legal = G::legal_actions(state, p);
        if !legal.is_empty() {
            slots[p] = Some(legal[rng.below(legal.len())].clone());
        }
    }
    slots
}

/// `plies` random turns from the start (fewer if the game ends).
fn random_position<G: Game>(seed: i64, plies: usize) -> G::State {
    let mut s = G::new_game(seed, &Default::default());
    let mut rng = SearchRng::new(seed);
    for _ in 0..plies {
        if G::players_to_act(&s).is_empty() {
            break;
        }
        let joint = random_joint::<G>(&s, &mut rng);
        G::step(&mut s, &joint).unwrap();
    }
    s
}

fn zuniq_pair(
    seed: i64,
    plies: usize,
) -> (twinsim_reference::zuniq::State, twinsim_fast::zuniq::State) {
    let r = random_position::<Zuniq>(seed, plies);
    let f = twinsim_fast::zuniq::State::from(&r);
    assert_eq!(f.to_reference(), r);
    (r, f)
}

fn olymbits_pair(
    seed: i64,
    turns: usize,
) -> (twinsim_reference::olymbits::State, twinsim_fast::olymbits::State) {
    let r = random_position::<Olymbits>(seed, turns);
    let f = random_position::<FastOlymbits>(seed, turns);
    (r, f)
}

// ---------------------------------------------------------------- MCTS on Zuniq

#[test]
fn mcts_is_deterministic() {
    let (r, f) = zuniq_pair(5, 14);
    let cfg = MctsConfig { seed: 11, ..Default::default() };
    let b = Budget::iterations(150);
    assert_eq!(mcts::search::<Zuniq>(&r, &b, &cfg), mcts::search::<Zuniq>(&r, &b, &cfg));
    assert_eq!(mcts::search::<FastZuniq>(&f, &b, &cfg), mcts::search::<FastZuniq>(&f, &b, &cfg));
}

#[test]
fn mcts_twins_agree_action_and_statistics() {
    // The reference twin is slow in debug builds (a flood fill per wall per ply): positions
    // from the middle game, where playouts are short and 200 iterations reach beyond the
    // expansion of the root into UCB choices and transpositions.
    let mut transpositions = 0;
    for (seed, plies) in [(1, 12), (2, 16), (3, 20)] {
        let (r, f) = zuniq_pair(seed, plies);
        let cfg = MctsConfig { seed, ..Default::default() };
        let b = Budget::iterations(200);
        let a = mcts::search::<Zuniq>(&r, &b, &cfg);
        let c = mcts::search::<FastZuniq>(&f, &b, &cfg);
        assert_eq!(a, c, "seed {seed}, {plies} plies");
        assert!(a.iterations == 200 || a.root.len() <= 1);
        transpositions += a.transpositions;
    }
    assert!(transpositions > 0);
}

#[test]
fn mcts_action_is_legal_and_uses_the_table() {
    for plies in [0, 8, 14] {
        let (_, f) = zuniq_pair(9, plies);
        let res = mcts::search::<FastZuniq>(&f, &Budget::iterations(500), &MctsConfig::default());
        let mover = FastZuniq::players_to_act(&f)[0];
        assert!(FastZuniq::legal_actions(&f, mover).contains(&res.action.unwrap()));
        assert_eq!(res.root.iter().map(|e| u64::from(e.visits)).sum::<u64>(), res.iterations);
        assert!(res.nodes as u64 <= res.iterations + 1);
    }
    // From the empty board, 2000 iterations meet transpositions (same walls, other order).
    let (_, f) = zuniq_pair(0, 0);
    let res = mcts::search::<FastZuniq>(&f, &Budget::iterations(2000), &MctsConfig::default());
    assert!(res.transpositions > 0, "{res:?}");
}

#[test]
fn mcts_finished_and_forced_positions() {
    let over = random_position::<FastZuniq>(3, 1000);
    assert!(FastZuniq::players_to_act(&over).is_empty());
    let res = mcts::search::<FastZuniq>(&over, &Budget::iterations(100), &MctsConfig::default());
    assert_eq!((res.action, res.iterations), (None, 0));
    // A position with exactly one legal move: walk random games until one shows up.
    let mut found = false;
    'seeds: for seed in 0..200 {
        let mut s = FastZuniq::new_game(0, &Default::default());
        let mut rng = SearchRng::new(seed);
        while let Some(&p) = FastZuniq::players_to_act(&s).first() {
            let legal = FastZuniq::legal_actions(&s, p);
            if legal.len() == 1 {
                let r = s.to_reference();
                let b = Budget::iterations(100);
                let a = mcts::search::<Zuniq>(&r, &b, &MctsConfig::default());
                let c = mcts::search::<FastZuniq>(&s, &b, &MctsConfig::default());
                assert_eq!(a, c);
                assert_eq!((c.action, c.iterations), (Some(legal[0]), 0));
                found = true;
                break 'seeds;
            }
            let joint = random_joint::<FastZuniq>(&s, &mut rng);
            FastZuniq::step(&mut s, &joint).unwrap();
        }
    }
    assert!(found, "no forced position in 200 random games");
}

/// MCTS (fast twin, `iterations` per move) against uniform random play, seats alternating;
/// returns MCTS's wins.
fn mcts_vs_random(games: i64, iterations: u64) -> usize {
    let mut wins = 0;
    for g in 0..games {
        let me = (g % 2) as PlayerId;
        let mut s = FastZuniq::new_game(0, &Default::default());
        let mut rng = SearchRng::new(1000 + g);
        while let Some(&p) = FastZuniq::players_to_act(&s).first() {
            let joint = if p == me {
                let cfg = MctsConfig { seed: g, ..Default::default() };
                let a = mcts::search::<FastZuniq>(&s, &Budget::iterations(iterations), &cfg);
                let mut slots = [None, None];
                slots[p] = a.action;
                slots.to_vec()
            } else {
                random_joint::<FastZuniq>(&s, &mut rng)
            };
            FastZuniq::step(&mut s, &joint).unwrap();
        }
        if FastZuniq::outcome(&s).unwrap().winner() == Some(me) {
            wins += 1;
        }
    }
    wins
}

#[test]
fn mcts_beats_random_at_zuniq() {
    // 30/30 at 1000 iterations when written; 24 games at 600 keep the test short.
    let games = 24;
    let wins = mcts_vs_random(games, 600);
    eprintln!("MCTS 600 it. vs random: {wins}/{games}");
    assert!(wins * 100 >= 70 * games as usize, "MCTS won only {wins}/{games}");
}

// ---------------------------------------------------------------- DUCT on Olymbits

#[test]
fn duct_is_deterministic() {
    let (r, f) = olymbits_pair(7, 20);
    let cfg = DuctConfig { seed: 3, ..Default::default() };
    let b = Budget::iterations(150);
    assert_eq!(
        duct::search::<Olymbits>(&r, 1, &b, &cfg),
        duct::search::<Olymbits>(&r, 1, &b, &cfg)
    );
    assert_eq!(
        duct::search::<FastOlymbits>(&f, 1, &b, &cfg),
        duct::search::<FastOlymbits>(&f, 1, &b, &cfg)
    );
}

#[test]
fn duct_twins_agree_action_and_statistics() {
    for (seed, turns, me) in [(1, 0, 0), (2, 30, 1), (3, 60, 2), (4, 95, 0)] {
        let (r, f) = olymbits_pair(seed, turns);
        let cfg = DuctConfig { seed, ..Default::default() };
        let b = Budget::iterations(200);
        let a = duct::search::<Olymbits>(&r, me, &b, &cfg);
        let c = duct::search::<FastOlymbits>(&f, me, &b, &cfg);
        assert_eq!(a, c, "seed {seed}, turn {turns}");
        assert_eq!(a.iterations, 200);
        assert!(Olymbits::legal_actions(&r, me).contains(&a.action.unwrap()));
    }
}

#[test]
fn duct_finished_game_and_statistics_add_up() {
    let over = random_position::<FastOlymbits>(5, 200);
    assert!(FastOlymbits::players_to_act(&over).is_empty());
    let res =
        duct::search::<FastOlymbits>(&over, 0, &Budget::iterations(50), &DuctConfig::default());
    assert_eq!((res.action, res.iterations), (None, 0));

    let (_, f) = olymbits_pair(6, 10);
    let res = duct::search::<FastOlymbits>(&f, 2, &Budget::iterations(120), &DuctConfig::default());
    assert_eq!(res.root.len(), 3);
    for t in &res.root {
        assert_eq!(t.visits.iter().map(|&v| u64::from(v)).sum::<u64>(), 120);
    }
}

#[test]
#[ignore = "timing (a clock decides the result): run by .ci/run in release, alone: cargo test --release --test release -- --ignored --test-threads 1 timing_"]
fn timing_duct_respects_a_deadline() {
    // Judged on the search's own time (crate::answer_time): a stall of the machine is not its.
    let (_, f) = olymbits_pair(8, 0);
    let watch = Stopwatch::start();
    let b = Budget::until(Instant::now() + Duration::from_millis(30));
    let res = duct::search::<FastOlymbits>(&f, 0, &b, &DuctConfig::default());
    assert!(res.iterations >= 1);
    assert!(watch.read().own < Duration::from_millis(500), "{:?}", watch.read());
}

#[test]
fn duct_beats_random_at_olymbits() {
    // DUCT averaged ~42000 points against ~670 for the random players when written.
    let games = 20;
    let (mut mine, mut theirs) = (0i64, 0i64);
    for g in 0..games {
        let me = (g % 3) as PlayerId;
        let mut s = FastOlymbits::new_game(100 + g, &Default::default());
        let mut rng = SearchRng::new(g);
        while !FastOlymbits::players_to_act(&s).is_empty() {
            let mut joint = random_joint::<FastOlymbits>(&s, &mut rng);
            let cfg = DuctConfig { seed: g, ..Default::default() };
            joint[me] = duct::search::<FastOlymbits>(&s, me, &Budget::iterations(300), &cfg).action;
            FastOlymbits::step(&mut s, &joint).unwrap();
        }
        let scores = FastOlymbits::outcome(&s).unwrap().scores;
        mine += scores[me];
        theirs += scores.iter().sum::<i64>() - scores[me];
    }
    let (mine, theirs) = (mine as f64 / games as f64, theirs as f64 / (2.0 * games as f64));
    eprintln!("DUCT 300 it. average points {mine:.0}, random players {theirs:.0}");
    assert!(mine > 2.0 * theirs, "DUCT {mine} vs random {theirs}");
}
