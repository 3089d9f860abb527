//! Search speed: each generic search (mcts, alpha-beta, duct, beam, smitsimax) for a fixed
//! iteration budget from a fixed position of its game, on the fast twin and on the reference,
//! reporting iterations per second (best of three runs). The searches are deterministic, so the
//! iteration counts and chosen actions of a run are the same from build to build; only the time
//! moves.
//!
//! `cargo bench --bench searches -- --bench` (`cargo test --benches` runs one tiny round, a
//! hundredth of the budgets). `TWINSIM_SEARCH_ONLY=<text>` keeps the rows whose label holds the
//! text: with the tiny round under callgrind, a deterministic instruction count, e.g.
//! `TWINSIM_SEARCH_ONLY="mcts (Zuniq) fast" valgrind --tool=callgrind
//! --toggle-collect='*mcts::search*' target/release/deps/searches-*`.

use std::time::{Duration, Instant};
use twinsim_fast::{olymbits, photosynthesis, wondev_woman, zuniq};
use twinsim_reference::game::Game;
use twinsim_reference::olymbits::Olymbits;
use twinsim_reference::photosynthesis::Photosynthesis;
use twinsim_reference::wondev_woman::WondevWoman;
use twinsim_reference::xmas_rush::XmasRush;
use twinsim_search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use twinsim_search::beam::BeamConfig;
use twinsim_search::duct::{self, DuctConfig};
use twinsim_search::{mcts, xmas_rush, Budget};

/// Best of `runs` timings of `f`, which returns the iterations it did.
fn time(runs: usize, mut f: impl FnMut() -> u64) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut iterations = 0;
    for _ in 0..runs {
        let start = Instant::now();
        iterations = std::hint::black_box(f());
        best = best.min(start.elapsed());
    }
    (iterations, best)
}

/// Whether the row `search` `twin` is wanted (`TWINSIM_SEARCH_ONLY`).
fn wanted(search: &str, twin: &str) -> bool {
    std::env::var("TWINSIM_SEARCH_ONLY")
        .map_or(true, |only| format!("{search} {twin}").contains(&only))
}

fn row(search: &str, twin: &str, runs: usize, f: impl FnMut() -> u64) {
    if !wanted(search, twin) {
        return;
    }
    let (iterations, took) = time(runs, f);
    let rate = iterations as f64 / took.as_secs_f64();
    println!(
        "| {search} | {twin} | {iterations} | {:.1} ms | {rate:.0} |",
        took.as_secs_f64() * 1e3
    );
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let scale = |n: u64| if quick { (n / 100).max(1) } else { n };
    let runs = if quick { 1 } else { 3 };
    println!("| search (game) | twin | iterations | time | iterations/s |\n|---|---|---|---|---|");

    let mcts = mcts::MctsConfig::default();
    row("mcts (Zuniq)", "fast", runs, || {
        let b = Budget::iterations(scale(20_000));
        mcts::search::<zuniq::FastZuniq>(&Default::default(), &b, &mcts).iterations
    });
    let empty = twinsim_reference::zuniq::State::new();
    row("mcts (Zuniq)", "reference", runs, || {
        let b = Budget::iterations(scale(200));
        mcts::search::<twinsim_reference::zuniq::Zuniq>(&empty, &b, &mcts).iterations
    });

    let ab_ref = WondevWoman::new_game(1, &Default::default());
    let ab_fast = wondev_woman::State::from(&ab_ref);
    row("alphabeta (Wondev Woman)", "fast", runs, || {
        let mut ab = AlphaBeta::new(AlphaBetaConfig::default());
        ab.search::<wondev_woman::FastWondevWoman>(&ab_fast, Budget::iterations(scale(200_000)))
            .nodes
    });
    row("alphabeta (Wondev Woman)", "reference", runs, || {
        let mut ab = AlphaBeta::new(AlphaBetaConfig::default());
        ab.search::<WondevWoman>(&ab_ref, Budget::iterations(scale(10_000))).nodes
    });

    let duct = DuctConfig::default();
    let oly_fast = olymbits::FastOlymbits::new_game(1, &Default::default());
    row("duct (Olymbits)", "fast", runs, || {
        let b = Budget::iterations(scale(20_000));
        duct::search::<olymbits::FastOlymbits>(&oly_fast, 0, &b, &duct).iterations
    });
    let oly_ref = Olymbits::new_game(1, &Default::default());
    row("duct (Olymbits)", "reference", runs, || {
        let b = Budget::iterations(scale(2_000));
        duct::search::<Olymbits>(&oly_ref, 0, &b, &duct).iterations
    });

    let ps_ref = photosynthesis_midgame();
    // Search mode, as the bot searches (`without_views`: no printed-list order, the hash kept
    // incrementally; an exact state computes its hash from scratch when asked).
    let ps_fast = photosynthesis::State::from(&ps_ref).without_views();
    let beam = BeamConfig::default();
    // The beam sees every plan of this day in a few hundred states and stops: it is run
    // again and again, its iterations summed.
    let b = Budget::iterations(u64::MAX);
    row("beam (Photosynthesis)", "fast", runs, || {
        (0..scale(200))
            .map(|_| {
                twinsim_search::photosynthesis::search::<photosynthesis::FastPhotosynthesis>(
                    &ps_fast, 0, &b, &beam,
                )
                .iterations
            })
            .sum()
    });
    row("beam (Photosynthesis)", "reference", runs, || {
        (0..scale(20))
            .map(|_| {
                twinsim_search::photosynthesis::search::<Photosynthesis>(&ps_ref, 0, &b, &beam)
                    .iterations
            })
            .sum()
    });

    let rush = [twinsim_reference::xmas_rush::new_game(1, Default::default())];
    row("smitsimax (X-mas Rush)", "fast", runs, || {
        let b = Budget::iterations(scale(5_000));
        xmas_rush::search_roots::<twinsim_fast::xmas_rush::FastXmasRush>(&rush, 0, &b, 1).1
    });
    row("smitsimax (X-mas Rush)", "reference", runs, || {
        let b = Budget::iterations(scale(500));
        xmas_rush::search_roots::<XmasRush>(&rush, 0, &b, 1).1
    });
}

/// The first Photosynthesis position of day 6 or later where player 0 has at least 20 legal
/// actions (seed 1, both players playing random legal actions other than WAIT while they can): trees to grow and seeds to
/// throw, so the beam has plans to rank (on day 0 it sees every plan in a few hundred states).
fn photosynthesis_midgame() -> twinsim_reference::photosynthesis::State {
    let mut s = Photosynthesis::new_game(1, &Default::default());
    let mut rng = twinsim_search::SearchRng::new(1);
    while s.day < 6 || Photosynthesis::legal_actions(&s, 0).len() < 20 {
        let mut joint = [None, None];
        for p in Photosynthesis::players_to_act(&s) {
            let legal = Photosynthesis::legal_actions(&s, p);
            // WAIT comes first in the legal list; the game's sun is spent while it can be.
            let skip = usize::from(legal.len() > 1);
            joint[p] = Some(legal[skip + rng.below(legal.len() - skip)]);
        }
        Photosynthesis::step(&mut s, &joint).expect("legal actions");
    }
    s
}
