//! The generic [`joint_perft`] on both twins of every game, against one table of expected
//! counts per game: `counts[d]` is the perft at depth `d` from the position that
//! `new_game(seed, params)` sets up. The reference's generic perft over the typed API
//! (`twinsim_reference::game::typed_perft`) is checked on the same rows, on both twins. Zuniq's
//! and Wondev Woman's counts are those the snapshots pin (`snapshots/zuniq`,
//! `snapshots/wondev_woman`);
//! the games' specialised perfts are checked against the same rows. The simultaneous games'
//! counts (joint actions) were first computed here and agree on both twins.

use crate::game::{joint_perft, SearchGame};
use crate::{olymbits, photosynthesis, wondev_woman, xmas_rush, zuniq};
use twinsim_reference::game::typed_perft;

/// One row: a position set up by `new_game(seed, params())` and its perft at depths 0, 1, ...
struct PerftCase<P> {
    position: &'static str,
    seed: i64,
    params: fn() -> P,
    counts: &'static [u64],
}

/// Checks every row on both twins `F` (fast) and `R` (reference), and returns each row's
/// fast start state for the game's own perft.
fn check_table<F, R>(game: &str, table: &[PerftCase<F::Params>]) -> Vec<(F::State, R::State)>
where
    F: SearchGame,
    R: SearchGame<Params = F::Params>,
{
    let mut starts = vec![];
    for case in table {
        let fast = F::new_game(case.seed, &(case.params)());
        let reference = R::new_game(case.seed, &(case.params)());
        for (depth, &want) in case.counts.iter().enumerate() {
            let at = format!("{game} {} depth {depth}", case.position);
            assert_eq!(joint_perft::<F>(&fast, depth as u32), want, "{at}: fast twin");
            assert_eq!(joint_perft::<R>(&reference, depth as u32), want, "{at}: reference twin");
            assert_eq!(typed_perft::<F>(&fast, depth as u32), want, "{at}: typed_perft, fast");
            assert_eq!(typed_perft::<R>(&reference, depth as u32), want, "{at}: typed_perft");
        }
        starts.push((fast, reference));
    }
    starts
}

const ZUNIQ: &[PerftCase<twinsim_reference::zuniq::Params>] =
    &[PerftCase { position: "empty", seed: 1, params: Default::default, counts: &[1, 60, 3_540] }];

fn wondev_map(map_index: i32) -> twinsim_reference::wondev_woman::Params {
    twinsim_reference::wondev_woman::Params { map_index, ..Default::default() }
}

const WONDEV_WOMAN: &[PerftCase<twinsim_reference::wondev_woman::Params>] = &[
    PerftCase { position: "square", seed: 3, params: || wondev_map(0), counts: &[1, 82, 6_474] },
    PerftCase { position: "diamond", seed: 4, params: || wondev_map(1), counts: &[1, 70, 2_358] },
    PerftCase { position: "random", seed: 5, params: || wondev_map(2), counts: &[1, 58, 3_235] },
    PerftCase {
        position: "symmetric",
        seed: 6,
        params: || twinsim_reference::wondev_woman::Params {
            symmetric: true,
            ..Default::default()
        },
        counts: &[1, 55, 3_172],
    },
];

#[test]
fn zuniq_perft_table() {
    for ((fast, _), case) in
        check_table::<zuniq::Fast, zuniq::Reference>("zuniq", ZUNIQ).iter().zip(ZUNIQ)
    {
        for (depth, &want) in case.counts.iter().enumerate() {
            assert_eq!(zuniq::perft(&fast.board, depth as u32), want, "zuniq::perft");
        }
    }
}

#[test]
fn wondev_woman_perft_table() {
    let starts =
        check_table::<wondev_woman::Fast, wondev_woman::Reference>("wondev-woman", WONDEV_WOMAN);
    for ((fast, _), case) in starts.into_iter().zip(WONDEV_WOMAN) {
        let mut fast = fast;
        for (depth, &want) in case.counts.iter().enumerate() {
            let depth = depth as u32;
            assert_eq!(wondev_woman::movegen::perft(&mut fast, depth), want, "movegen::perft");
            assert_eq!(wondev_woman::movegen::perft_bulk(&mut fast, depth), want, "perft_bulk");
        }
    }
}

const OLYMBITS: &[PerftCase<twinsim_reference::olymbits::Params>] = &[PerftCase {
    position: "seed 1",
    seed: 1,
    params: Default::default,
    // Three players with four moves each, every turn: 4³ joint actions a turn.
    counts: &[1, 64, 4_096],
}];

const PHOTOSYNTHESIS: &[PerftCase<twinsim_reference::photosynthesis::Params>] =
    &[PerftCase { position: "seed 1", seed: 1, params: Default::default, counts: &[1, 81, 1_801] }];

const XMAS_RUSH: &[PerftCase<twinsim_reference::xmas_rush::League>] = &[PerftCase {
    position: "seed 1",
    seed: 1,
    params: Default::default,
    counts: &[1, 784, 11_562],
}];

#[test]
fn simultaneous_games_perft_tables() {
    check_table::<olymbits::Fast, olymbits::Reference>("olymbits", OLYMBITS);
    check_table::<photosynthesis::Fast, photosynthesis::Reference>(
        "photosynthesis",
        PHOTOSYNTHESIS,
    );
    check_table::<xmas_rush::Fast, xmas_rush::Reference>("xmas-rush", XMAS_RUSH);
}
