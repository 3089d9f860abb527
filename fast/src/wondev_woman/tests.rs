//! Fast vs reference: tables entry by entry, quickcheck differential properties over whole
//! games (legal play, bad lines, timeouts, every league), hashing, Voronoi and perft.

use super::board::{cell, point, sorted_index, State, KING, NB, NONE, PUSH_OK, SORTED};
use super::check;
use super::movegen::{self, MoveList};
use quickcheck::QuickCheck;
use std::collections::HashMap;
use twinsim_reference::wondev_woman as r;
use twinsim_reference::wondev_woman::state::{Dir, Point};

#[test]
fn table_nb_matches_point_neighbour() {
    for c in 0..64u8 {
        let p = point(c);
        for (d, &dir) in SORTED.iter().enumerate() {
            let q = p.neighbour(dir);
            let want = if p.x < 7 && p.y < 7 { cell(q) } else { NONE };
            assert_eq!(NB[c as usize][d], want, "cell {c} dir {dir}");
        }
    }
}

#[test]
fn table_king_matches_distance() {
    for c in 0..64u8 {
        let p = point(c);
        for e in 0..64u8 {
            let q = point(e);
            let inside = p.x < 7 && p.y < 7 && q.x < 7 && q.y < 7;
            let want = inside && p.distance(q) == 1;
            assert_eq!(KING[c as usize] & (1u64 << e) != 0, want, "{p:?} {q:?}");
        }
    }
}

#[test]
fn table_push_ok_matches_valid_push_direction() {
    for a in Dir::ALL {
        for b in Dir::ALL {
            let got = PUSH_OK[sorted_index(a) as usize] & (1 << sorted_index(b)) != 0;
            assert_eq!(got, r::rules::valid_push_direction(a, b), "{a} {b}");
        }
    }
}

#[test]
fn sorted_directions_are_in_string_order() {
    let names: Vec<&str> = SORTED.iter().map(|d| d.name()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

#[test]
fn conversion_round_trips() {
    for seed in 0..30 {
        for league in 0..4 {
            let params = r::Params {
                league: r::League::from_version(league).unwrap(),
                ..r::Params::default()
            };
            let rs = r::setup::new_game(seed, &params);
            assert_eq!(State::from(&rs).to_reference(), rs);
        }
    }
}

#[test]
fn prop_whole_games_fast_equals_reference() {
    fn prop(bytes: Vec<u8>) -> bool {
        // Repeat the bytes so games run deep.
        let mut v = bytes.clone();
        while !bytes.is_empty() && v.len() < 300 {
            let k = v.len() as u8;
            v.extend(bytes.iter().map(|b| b.wrapping_add(k)));
        }
        check::game_diff(&v);
        true
    }
    QuickCheck::new().tests(150).quickcheck(prop as fn(Vec<u8>) -> bool);
}

#[test]
fn prop_whole_games_mostly_legal_every_league() {
    fn prop(seed: i64, flags: u8, choices: Vec<u8>) -> bool {
        let mut bytes = seed.to_le_bytes().to_vec();
        bytes.push(flags);
        // Mostly legal play (bytes below 240), until the game ends.
        bytes.extend(choices.iter().map(|c| c % 240));
        bytes.extend((0..400).map(|i| (i * 37 % 240) as u8));
        check::game_diff(&bytes);
        true
    }
    QuickCheck::new().tests(60).quickcheck(prop as fn(i64, u8, Vec<u8>) -> bool);
}

#[test]
fn prop_voronoi_fast_equals_reference() {
    fn prop(bytes: Vec<u8>) -> bool {
        check::voronoi_diff(&bytes);
        true
    }
    QuickCheck::new().tests(400).quickcheck(prop as fn(Vec<u8>) -> bool);
}

#[test]
fn prop_parsers_and_line_resolution_agree() {
    fn prop(text: String, tail: Vec<u8>) -> bool {
        check::parse_diff(text.as_bytes());
        let mut line = b"MOVE&BUILD ".to_vec();
        line.extend(tail.iter().map(|b| b" 01NSEWnsew\t&PUSHBILD-"[*b as usize % 22]));
        check::parse_diff(&line);
        true
    }
    QuickCheck::new().tests(500).quickcheck(prop as fn(String, Vec<u8>) -> bool);
}

fn positions() -> Vec<r::State> {
    super::bench::sample_positions(40, 6)
        .into_iter()
        .chain(super::bench::sample_positions(20, 30))
        .collect()
}

#[test]
fn perft_fast_equals_reference() {
    for rs in positions().iter().take(12) {
        let mut fs = State::from(rs);
        for d in 0..=2 {
            let want = twinsim_reference::game::typed_perft::<r::WondevWoman>(rs, d);
            assert_eq!(movegen::perft(&mut fs, d), want, "depth {d}");
            assert_eq!(movegen::perft_bulk(&mut fs, d), want, "bulk depth {d}");
        }
        assert_eq!(fs, State::from(rs), "perft left the state changed");
    }
}

#[test]
fn hash_is_symmetric_under_swapping_unit_ids() {
    for rs in positions() {
        for p in 0..2 {
            let mut t = rs.clone();
            t.units[p].swap(0, 1);
            t.records[p].swap(0, 1);
            assert_eq!(State::from(&t).hash, State::from(&rs).hash);
        }
    }
}

#[test]
fn hash_separates_distinct_positions() {
    // Every position reached in a few hundred random games: equal hashes must mean the same
    // position up to swapping unit ids (measured: no collision expected in 64 bits).
    let mut seen: HashMap<u64, State> = HashMap::new();
    let mut positions = 0;
    for seed in 0..60 {
        let mut s = State::new_game(seed, &r::Params::default());
        let mut list = MoveList::default();
        let mut k = 0;
        while !s.game_over && k < 200 {
            movegen::legal(&s, s.to_move as usize, &mut list);
            if list.len == 0 {
                break;
            }
            movegen::make(&mut s, list.moves[(k * 13 + seed as usize) % list.len]);
            positions += 1;
            let key = canonical(&s);
            if let Some(other) = seen.get(&s.hash) {
                assert_eq!(canonical(other), key, "hash collision");
            } else {
                seen.insert(s.hash, s);
            }
            k += 1;
        }
    }
    assert!(positions > 1000);
}

/// The hashed content with each player's units sorted.
fn canonical(s: &State) -> (u64, [u8; 5 * 8], [u8; 4], u8, [i32; 2], [bool; 2]) {
    let mut h = [0u8; 40];
    for (i, v) in s.le.iter().enumerate() {
        h[i * 8..i * 8 + 8].copy_from_slice(&v.to_le_bytes());
    }
    let mut u = s.units;
    u[0..2].sort();
    u[2..4].sort();
    (s.cells, h, u, s.to_move, s.scores, s.dead)
}

#[test]
fn make_unmake_restores_deep_positions() {
    for rs in positions() {
        let mut fs = State::from(&rs);
        let before = fs;
        let mut list = MoveList::default();
        movegen::legal(&fs, fs.to_move as usize, &mut list);
        for &m in list.as_slice() {
            let u = movegen::make(&mut fs, m);
            assert_eq!(fs.hash, fs.hash_from_scratch());
            movegen::unmake(&mut fs, &u);
            assert_eq!(fs, before);
        }
    }
}

#[test]
fn off_board_points_have_no_cell() {
    assert_eq!(cell(Point::new(-1, 0)), NONE);
    assert_eq!(cell(Point::new(7, 0)), NONE);
    assert_eq!(cell(Point::new(3, 2)), 19);
}

#[test]
fn table_dirs_in_matches_neighbour_tests() {
    // Every cell, every subset of its neighbours (256 per cell): the direction set equals the
    // directions whose `NB` bit is in the mask.
    for c in 0..64u8 {
        let p = point(c);
        if p.x >= 7 || p.y >= 7 {
            continue;
        }
        for subset in 0..256u32 {
            let mut mask = 0u64;
            let mut want = 0u8;
            for (d, &n) in NB[c as usize].iter().enumerate() {
                if subset & (1 << d) != 0 && n != NONE {
                    mask |= 1u64 << n;
                    want |= 1 << d;
                }
            }
            assert_eq!(movegen::dirs_in(mask, c), want, "cell {c} subset {subset}");
        }
    }
}

#[test]
fn make_search_equals_make_except_records() {
    for rs in positions() {
        // Also the fallback path: player 1 eliminated (player 0 plays alone), last round.
        let mut alone = rs.clone();
        alone.dead[1] = true;
        alone.to_move = Some(0);
        let mut last = rs.clone();
        last.round = 199;
        for rs in [rs, alone, last] {
            let fs = State::from(&rs);
            let mut list = MoveList::default();
            movegen::legal(&fs, fs.to_move as usize, &mut list);
            for &m in list.as_slice() {
                let (mut a, mut b) = (fs, fs);
                movegen::make(&mut a, m);
                let u = movegen::make_search(&mut b, m);
                b.records = a.records;
                assert_eq!(a, b, "{:?}", m.to_action());
                assert_eq!(b.hash, b.hash_from_scratch());
                movegen::unmake_search(&mut b, &u);
                b.records = fs.records;
                assert_eq!(b, fs);
            }
        }
    }
}

// --- §2 setup: the bit-set twin against the reference ------------------------------------------

/// The points of a mask in the board layout, as the reference's set.
fn point_set(mask: u64) -> std::collections::BTreeSet<Point> {
    (0..64u8).filter(|&c| mask & (1u64 << c) != 0).map(point).collect()
}

#[test]
fn setup_fixed_maps_are_the_reference_maps() {
    use super::setup::{DIAMOND, SQUARE};
    assert_eq!(point_set(SQUARE), r::setup::square_map().into_iter().collect());
    assert_eq!(point_set(DIAMOND), r::setup::diamond_map().into_iter().collect());
    assert_eq!((super::setup::extent(SQUARE), super::setup::extent(DIAMOND)), (5, 7));
}

#[test]
fn prop_setup_count_islands_equals_reference() {
    // Any subset of the 7×7 frame: 8-connectivity across rows, columns and both diagonals, and
    // no wrap from one row's end to the next row's start.
    fn prop(bits: u64) -> bool {
        let frame: u64 = (0..7).fold(0, |m, y| m | 0x7f << (8 * y));
        let mask = bits & frame;
        let set = point_set(mask);
        super::setup::count_islands(mask) == r::setup::count_islands(&set)
    }
    QuickCheck::new().tests(2000).quickcheck(prop as fn(u64) -> bool);
    // Diagonal neighbours are one island; cells at the two ends of adjacent rows are not.
    let diagonal = (1u64 << point_cell(0, 0)) | (1u64 << point_cell(1, 1));
    assert_eq!(super::setup::count_islands(diagonal), 1);
    let wrap = (1u64 << point_cell(6, 0)) | (1u64 << point_cell(0, 1));
    assert_eq!(super::setup::count_islands(wrap), 2);
}

fn point_cell(x: i32, y: i32) -> u8 {
    cell(Point::new(x, y))
}

#[test]
fn prop_setup_sorted_cells_sort_by_x_then_y() {
    fn prop(bits: u64) -> bool {
        let frame: u64 = (0..7).fold(0, |m, y| m | 0x7f << (8 * y));
        let mask = bits & frame;
        let mut want: Vec<Point> = point_set(mask).into_iter().collect();
        want.sort_by_key(|p| (p.x, p.y));
        let mut out = [0u8; 64];
        let n = super::setup::sorted_cells(mask, &mut out);
        let got: Vec<Point> = out[..n].iter().map(|&c| point(c)).collect();
        let size = want.iter().map(|p| 1 + p.x.max(p.y)).max().unwrap_or(0) as u8;
        got == want && super::setup::extent(mask) == size
    }
    QuickCheck::new().tests(1000).quickcheck(prop as fn(u64) -> bool);
}

/// Every league, `mapIndex` -1..=2 and symmetric flag for one seed.
fn setup_every_params(seed: i64) -> Result<(), String> {
    for version in 0..4 {
        for map_index in -1..=2 {
            for symmetric in [false, true] {
                let league = r::League::from_version(version).expect("versions 0..4");
                let params = r::Params { league, map_index, symmetric };
                check::setup_diff_params(seed, &params)?;
            }
        }
    }
    Ok(())
}

#[test]
fn prop_setup_fast_equals_reference() {
    fn prop(seed: i64) -> quickcheck::TestResult {
        match setup_every_params(seed) {
            Ok(()) => quickcheck::TestResult::passed(),
            Err(e) => quickcheck::TestResult::error(e),
        }
    }
    for seed in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX, -8064156050439675307, 1530356547] {
        setup_every_params(seed).unwrap_or_else(|e| panic!("{e}"));
    }
    QuickCheck::new().tests(200).quickcheck(prop as fn(i64) -> quickcheck::TestResult);
}

#[test]
fn setup_seeds_0_to_5000_every_league() {
    // The map is drawn (`mapIndex` -1), so all three maps come up; odd seeds spawn symmetrically.
    for seed in 0..5000 {
        for version in 0..4 {
            let league = r::League::from_version(version).expect("versions 0..4");
            let params = r::Params { league, symmetric: seed % 2 == 1, ..r::Params::default() };
            check::setup_diff_params(seed, &params).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
