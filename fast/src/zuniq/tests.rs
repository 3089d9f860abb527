//! Fast vs reference: tables entry by entry, quickcheck properties over random playouts, perft,
//! the hash, and the committed fuzz regressions.

use super::board::Check;
use super::check::{check_state, game_diff, parse_diff};
use super::tables::*;
use super::typed::{index_of, wall_of, State};
use super::*;
use quickcheck::{Arbitrary, Gen, QuickCheck};
use twinsim_reference::zuniq::board::{all_cells, all_walls, Side};
use twinsim_reference::zuniq::rules::{check_wall, legal_walls, Illegal};
use twinsim_reference::zuniq::State as RefState;

#[test]
fn tables_match_the_reference_entry_by_entry() {
    for wall in all_walls() {
        let w = index_of(wall);
        assert!(w < 60);
        assert_eq!(wall_of(w), wall);
        assert_eq!(String::from_utf8_lossy(&wall_name(w)), wall.name());
        let cells: Vec<u8> = wall
            .sides()
            .iter()
            .filter_map(|s| match s {
                Side::Cell(c) => Some(5 * c.row + c.col),
                Side::Outside => None,
            })
            .collect();
        let mut fast: Vec<u8> = SIDES[w].iter().copied().filter(|&c| c != NONE).collect();
        fast.sort();
        assert_eq!(fast, cells, "{wall}");
        assert_eq!(BORDER >> w & 1 == 1, wall.is_border(), "{wall}");
    }
    for cell in all_cells() {
        let mask = cell.walls().iter().fold(0u64, |m, &w| m | 1 << index_of(w));
        assert_eq!(CELL_WALLS[(5 * cell.row + cell.col) as usize], mask, "{cell}");
    }
    let order: Vec<Wall> = ASCII_ORDER.iter().map(|&w| wall_of(w as usize)).collect();
    assert_eq!(order, all_walls());
}

use twinsim_reference::zuniq::Wall;

/// A random playout from a seed (uniform legal walls, some claims), through the reference.
#[derive(Clone, Debug)]
struct Playout {
    states: Vec<RefState>,
}

fn playout(seed: u64, plies: usize) -> Playout {
    let mut rng = Rng(seed | 1);
    let mut state = RefState::new();
    let mut states = vec![state.clone()];
    while !state.finished && states.len() <= plies {
        let legal = legal_walls(&state);
        let wall = legal[rng.below(legal.len() as u32) as usize];
        let claim = rng.below(6) == 0;
        let line = twinsim_reference::zuniq::Action { wall, claim }.to_string();
        twinsim_reference::zuniq::referee::play_turn(&mut state, Some(&line)).unwrap();
        states.push(state.clone());
    }
    Playout { states }
}

impl Arbitrary for Playout {
    fn arbitrary(g: &mut Gen) -> Self {
        let plies = if bool::arbitrary(g) { 60 } else { usize::arbitrary(g) % 60 };
        playout(u64::arbitrary(g), plies)
    }
}

#[test]
fn property_fast_legal_mask_and_checks_equal_the_reference() {
    fn prop(p: Playout) -> Result<(), String> {
        for state in &p.states {
            let fast = State::from(state);
            check_state(state, &fast)?;
            let mut legal: Vec<Wall> =
                (0..60).filter(|w| fast.legal_mask() >> w & 1 == 1).map(wall_of).collect();
            legal.sort();
            let mut want = legal_walls(state);
            want.sort();
            if legal != want {
                return Err(format!("legal {legal:?} vs {want:?} in {state:?}"));
            }
            for wall in all_walls() {
                let r = check_wall(&state.walls, wall);
                let f = fast.board.check(index_of(wall));
                let same = match (&r, f) {
                    (Ok(zone), Check::Legal(cut)) => {
                        zone.as_ref().map_or(0, |z| {
                            z.cells.iter().fold(0u32, |m, c| m | 1 << (5 * c.row + c.col))
                        }) == cut
                    }
                    (Err(Illegal::Occupied), Check::Occupied) => true,
                    (Err(Illegal::InsideClosedZone), Check::InsideClosedZone) => true,
                    (Err(Illegal::DuplicateZoneSize(a)), Check::DuplicateZoneSize(b)) => {
                        *a == b as usize
                    }
                    _ => false,
                };
                if !same {
                    return Err(format!("{wall}: reference {r:?}, fast {f:?}"));
                }
            }
            if fast.to_json() != state.to_json() {
                return Err(format!("json {} vs {}", fast.to_json(), state.to_json()));
            }
        }
        Ok(())
    }
    QuickCheck::new().tests(40).quickcheck(prop as fn(Playout) -> Result<(), String>);
}

#[test]
fn property_fast_games_equal_reference_games_from_bytes() {
    fn prop(data: Vec<u8>) -> Result<(), String> {
        game_diff(&data)
    }
    QuickCheck::new().tests(150).quickcheck(prop as fn(Vec<u8>) -> Result<(), String>);
}

#[test]
fn property_fast_parser_equals_the_reference_parser() {
    fn prop(text: String) -> Result<(), String> {
        parse_diff(&text)
    }
    QuickCheck::new().tests(2000).quickcheck(prop as fn(String) -> Result<(), String>);
    for wall in all_walls() {
        for text in [wall.name(), format!("{wall}!"), format!("{wall}!!"), format!(" {wall}")] {
            parse_diff(&text).unwrap();
        }
    }
    for text in ["", "A6h", "F1v", "A0h", "G1h", "A1", "A1h\n", "Quit", "Start", "é1h!"] {
        parse_diff(text).unwrap();
    }
}

#[test]
fn perft_equals_the_reference() {
    let empty = Board::new();
    assert_eq!(perft(&empty, 1), 60);
    assert_eq!(perft(&empty, 2), 3_540);
    assert_eq!(perft(&empty, 3), 205_320);
    for seed in 1..6 {
        let p = playout(seed, 24);
        let state = p.states.last().unwrap();
        if state.finished {
            continue;
        }
        let fast = State::from(state);
        for depth in 1..=2 {
            assert_eq!(
                perft(&fast.board, depth),
                twinsim_reference::game::typed_perft::<twinsim_reference::zuniq::Zuniq>(
                    state, depth
                ),
                "seed {seed} depth {depth}"
            );
        }
    }
}

#[test]
fn perft_of_the_doc_positions_at_depth_4() {
    // Rules doc §5.1, from the oracle engine; depth 4 only through the fast engine.
    let cases = [
        ("A4v B1v B6v C3h C4h C5v D1v D2h D4h D5h E5v F3h", [48, 2_256, 103_764, 4_667_388]),
        (
            "A1v A3v A4h A4v A5h A5v A6v B1h B1v B2h B4h B4v C1h C2h C4h C4v D1h D1v D3h D4h D5h \
             D6v E2h E2v E3h E4h E5v E6v",
            [28, 732, 17_726, 393_350],
        ),
    ];
    for (names, counts) in cases {
        let walls = names
            .split_whitespace()
            .map(|n| index_of(twinsim_reference::zuniq::protocol::parse_wall(n).unwrap()))
            .fold(0u64, |m, w| m | 1 << w);
        let board = Board::from_walls(walls, names.split_whitespace().count() as u8, [0, 0]);
        for (depth, want) in (1..=4).zip(counts) {
            assert_eq!(perft(&board, depth), want, "{names} depth {depth}");
        }
    }
}

#[test]
fn property_equal_hashes_mean_equal_legal_moves_sizes_side_and_claims() {
    // Random pairs of positions of the same game family: transpositions are frequent at low
    // depth, so play two short games with few distinct moves.
    fn key(b: &Board) -> (u64, u32, u8, [u8; 2]) {
        (b.legal_mask(), b.used, b.ply & 1, b.claims)
    }
    fn prop(seed: u64, moves: Vec<u8>) -> bool {
        let mut rng = Rng(seed | 1);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..40 {
            let mut b = Board::new();
            for &m in moves.iter().take(8) {
                let legal = b.legal_mask();
                if legal == 0 {
                    break;
                }
                let k = (u32::from(m) + rng.below(3)) % legal.count_ones();
                let w = nth_bit(legal, k);
                b.place(w, b.cut(w));
                if b.hash != b.hash_from_scratch() {
                    return false;
                }
                if let Some(old) = seen.insert(b.hash, key(&b)) {
                    if old != key(&b) {
                        return false;
                    }
                }
            }
        }
        true
    }
    QuickCheck::new().tests(100).quickcheck(prop as fn(u64, Vec<u8>) -> bool);
}

#[test]
fn dead_walls_are_folded_into_the_hash() {
    // Two positions that differ only by a wall inside a closed zone hash equally.
    let names = |s: &str| {
        s.split_whitespace()
            .map(|n| index_of(twinsim_reference::zuniq::protocol::parse_wall(n).unwrap()))
            .fold(0u64, |m, w| m | 1 << w)
    };
    // The 2x2 zone A1 A2 B1 B2; in `b` the interior wall A2v was placed before it closed.
    let ring = "A1h A2h A1v B1v A3v B3v C1h C2h";
    let a = Board::from_walls(names(&format!("{ring} E3v")), 9, [0, 0]);
    let b = Board::from_walls(names(&format!("{ring} A2v")), 9, [0, 0]);
    let c = Board::from_walls(names(ring), 9, [0, 0]);
    assert_eq!((b.used, c.used), (1 << 4, 1 << 4));
    assert_ne!(a.hash, b.hash, "E3v is live in a, so the positions differ");
    assert_eq!(b.hash, c.hash, "A2v is dead: whether it was placed changes nothing");
    assert_eq!(b.legal_mask(), c.legal_mask());
}

#[test]
fn property_random_games_end_in_positions_the_reference_agrees_with() {
    fn prop(seed: u64) -> Result<(), String> {
        let board = random_game(Board::new(), &mut Rng(seed | 1));
        let rebuilt = Board::from_walls(board.walls, board.ply, board.claims);
        if rebuilt != board {
            return Err(format!("incremental {board:?} vs rebuilt {rebuilt:?}"));
        }
        let state = State { board, ..State::default() }.to_reference();
        if !legal_walls(&state).is_empty() || board.legal_mask() != 0 {
            return Err(format!("the game did not end: {state:?}"));
        }
        let sizes: Vec<usize> = state.zones().iter().map(|z| z.size()).collect();
        let mut distinct = sizes.clone();
        distinct.dedup();
        if distinct != sizes || board.used.count_ones() as usize != sizes.len() {
            return Err(format!("sizes {sizes:?}"));
        }
        Ok(())
    }
    QuickCheck::new().tests(200).quickcheck(prop as fn(u64) -> Result<(), String>);
}

#[test]
fn property_walls_on_a_free_square_never_cut_anything() {
    fn prop(p: Playout) -> Result<(), String> {
        let mut squares = 0;
        for state in &p.states {
            let board = State::from(state).board;
            let live = ALL_WALLS & !board.walls & !board.dead;
            let mut on = Board::on_square(&Links::of(board.walls)) & live;
            squares += on.count_ones();
            while on != 0 {
                let w = on.trailing_zeros() as usize;
                on &= on - 1;
                if board.cut(w) != 0 {
                    return Err(format!("{} cuts in {state:?}", wall_of(w)));
                }
            }
        }
        // Early positions are full of free squares.
        if squares == 0 {
            return Err("no square found".into());
        }
        Ok(())
    }
    QuickCheck::new().tests(60).quickcheck(prop as fn(Playout) -> Result<(), String>);
}

#[test]
fn property_quiet_walls_and_legal_quiet_equal_the_reference_check() {
    // Twin of `quiet` and of the second mask of `legal_quiet`: `check_wall` finding no zone.
    fn prop(p: Playout) -> Result<(), String> {
        let (mut beyond_squares, mut quiet_total) = (0, 0);
        for state in &p.states {
            let board = State::from(state).board;
            let links = Links::of(board.walls);
            let live = ALL_WALLS & !board.walls & !board.dead;
            let quiet = Board::quiet(&links) & live;
            beyond_squares += (quiet & !Board::on_square(&links)).count_ones();
            let (legal, quiet_legal) = board.legal_quiet();
            quiet_total += quiet_legal.count_ones();
            if quiet & !quiet_legal != 0 || quiet_legal & !legal != 0 {
                return Err(format!("masks {quiet:x} {quiet_legal:x} {legal:x} in {state:?}"));
            }
            for w in 0..60 {
                let reference = check_wall(&state.walls, wall_of(w));
                let reference_quiet = matches!(reference, Ok(None));
                if (quiet_legal >> w & 1 == 1) != reference_quiet {
                    return Err(format!("{}: {reference:?} in {state:?}", wall_of(w)));
                }
                // The per-wall tests: at least the mask's walls, never a wall that cuts.
                let one = live >> w & 1 == 1 && board.quiet_wall(w);
                if (quiet >> w & 1 == 1 && !one) || (one && !reference_quiet) {
                    return Err(format!("quiet_wall {}: {one} in {state:?}", wall_of(w)));
                }
            }
        }
        // The triangles through OUTSIDE decide walls the squares do not.
        if beyond_squares == 0 || quiet_total == 0 {
            return Err("no wall beyond the squares".into());
        }
        Ok(())
    }
    QuickCheck::new().tests(60).quickcheck(prop as fn(Playout) -> Result<(), String>);
}

#[test]
fn quiet_wall_sees_a_corner_keep_its_other_border_wall() {
    // A1 cut from B1 and A2 (walls A2v, B1h): A1h leaves A1v to OUTSIDE, so it cuts nothing;
    // only the corner test of `quiet_wall` knows it without a flood.
    let (a1h, a2v, b1h) =
        (wall_index(0, 0, false), wall_index(0, 1, true), wall_index(1, 0, false));
    let board = Board::from_walls((1 << a2v) | (1 << b1h), 2, [0, 0]);
    assert!(board.quiet_wall(a1h));
    assert_eq!(Board::quiet(&Links::of(board.walls)) >> a1h & 1, 0);
    let walls = [a2v, b1h].map(wall_of).into_iter().collect();
    assert!(matches!(check_wall(&walls, wall_of(a1h)), Ok(None)));
}

#[test]
fn links_equal_a_wall_by_wall_construction() {
    // Twin of the §4 graph: a link or a border cell for each free wall, from `SIDES`.
    fn prop(walls: u64) -> bool {
        let walls = walls & ALL_WALLS;
        let mut want = Links { right: 0, down: 0, border: 0 };
        for (w, &[a, b]) in SIDES.iter().enumerate() {
            if walls >> w & 1 == 1 {
                continue;
            }
            if b == NONE {
                want.border |= 1 << a;
            } else if b == a + 1 {
                want.right |= 1 << a;
            } else {
                want.down |= 1 << a;
            }
        }
        Links::of(walls) == want
    }
    QuickCheck::new().tests(500).quickcheck(prop as fn(u64) -> bool);
    assert!(prop(0) && prop(ALL_WALLS) && prop(BORDER));
}

#[test]
fn nth_bit_equals_clearing_bits_one_by_one() {
    fn prop(mask: u64, k: u32) -> bool {
        if mask == 0 {
            return true;
        }
        let k = k % mask.count_ones();
        let mut m = mask;
        for _ in 0..k {
            m &= m - 1;
        }
        nth_bit(mask, k) == m.trailing_zeros() as usize
    }
    QuickCheck::new().tests(1000).quickcheck(prop as fn(u64, u32) -> bool);
    assert!((0..64).all(|k| prop(u64::MAX, k)));
}

#[test]
fn on_square_finds_every_inner_wall_of_the_empty_board() {
    let inner = ALL_WALLS & !BORDER;
    assert_eq!(Board::on_square(&Links::of(0)), inner);
}

#[test]
fn hand_made_reference_states_convert_without_panicking() {
    let mut state = RefState::new();
    state.ply = 255;
    state.claims = [Some(200), Some(1000)];
    let fast = State::from(&state);
    let _ = fast.board.legal_mask();
    let mut board = fast.board;
    board.place(0, 0);
    let _ = board.claim(0);
    let _ = fast.to_json();
}

/// The hash on many positions of short random games (where transpositions are common): no false
/// equality (same hash, different legal moves / sizes / side / claims), and transpositions do
/// share their hash.
#[test]
fn zuniq_hash_has_no_false_equalities() {
    use std::collections::HashMap;
    let mut by_hash: HashMap<u64, (u64, u32, u8, [u8; 2], u64)> = HashMap::new();
    let (mut positions, mut transpositions, mut false_equal) = (0u64, 0u64, 0u64);
    let mut rng = Rng(12345);
    for _ in 0..20_000 {
        let mut b = Board::new();
        // Short games over few moves make transpositions likely.
        for _ in 0..10 {
            let legal = b.legal_mask() & 0x0000_0FFF_0000_0FFF;
            if legal == 0 {
                break;
            }
            let w = nth_bit(legal, rng.below(legal.count_ones()));
            b.place(w, b.cut(w));
            positions += 1;
            let key = (b.legal_mask(), b.used, b.ply & 1, b.claims, b.walls | b.dead);
            match by_hash.insert(b.hash, key) {
                Some(old) if old != key => false_equal += 1,
                Some(_) => transpositions += 1,
                None => {}
            }
        }
    }
    assert_eq!(false_equal, 0, "{positions} positions, {} distinct hashes", by_hash.len());
    assert!(transpositions > positions / 4, "{transpositions} of {positions} positions");
}
