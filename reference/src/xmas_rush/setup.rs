//! Setup (rules doc §3 "Setup (map generation) and the exact random calls"): one
//! `java.util.Random(seed)`, called in exactly the referee's order.

use super::rules::start_turn;
use super::state::*;
use crate::java_random::JavaRandom;

/// §3 step 1: the three possible center tiles, indexed by `nextInt(3)`.
const CENTER_PATTERNS: [&str; 3] = ["1111", "1010", "0101"];

/// §3 step 2: player 0's base tile at (0,0).
const BASE_PATTERN: &str = "0110";

/// A new game as the first input describes it: setup (§3) followed by the start steps 1–5 of
/// game turn 1 (§3 last paragraph, §4).
pub fn new_game(seed: i64, league: League) -> State {
    let mut state = setup(seed, league);
    let mut events = Vec::new();
    start_turn(&mut state, &mut events);
    state
}

/// The bare setup of §3, steps 1–11, before the first turn starts.
///
/// The returned state has `turnsLeft` = 150 and `turnType` = MOVE, so that the first turn
/// start (§4 step 4, which switches the type) announces a PUSH turn. Use
/// [`new_game`] for the state the first input describes.
pub fn setup(seed: i64, league: League) -> State {
    let mut rnd = JavaRandom::new(seed);
    let mut cells: [[Option<Pattern>; SIZE]; SIZE] = [[None; SIZE]; SIZE];

    // Step 1: the center tile, never rotated.
    let c = rnd.next_below(3) as usize;
    cells[3][3] = Some(Pattern::of(CENTER_PATTERNS[c]));
    // Step 2: player 0's base.
    cells[0][0] = Some(Pattern::of(BASE_PATTERN));
    // Step 3: a fresh copy of the league's pool.
    let mut pool = league.tile_pool();
    // Step 4: fill the upper-left triangle (x + y <= 6) row by row and mirror it.
    for y in 0..SIZE {
        for x in 0..SIZE - y {
            let pattern = match cells[x][y] {
                Some(p) => p,
                None => {
                    let i = rnd.next_below(pool.len() as i32) as usize;
                    let p = pool.remove(i);
                    let r = rnd.next_below(3) as usize;
                    let p = p.rotated(r);
                    cells[x][y] = Some(p);
                    p
                }
            };
            cells[SIZE - 1 - x][SIZE - 1 - y] = Some(pattern.rotated(2));
        }
    }
    let leftover = pool[0];

    // Step 5: the quest names, shuffled with `nextInt(12)` at every position.
    let mut names = ItemName::ALL;
    for i in (1..=11).rev() {
        let j = rnd.next_below(12) as usize;
        names.swap(i, j);
    }
    let n = league.quests_per_player();

    // Steps 6 and 7: hand tiles and decks (stacks: names[N-1] ends on top).
    let make_player = |x, y, hand: Pattern| Player {
        x,
        y,
        hand: Tile::plain(hand),
        deck: names[..n].to_vec(),
        quests: Vec::new(),
        score: 0,
        active: true,
    };
    let players = [make_player(0, 0, leftover), make_player(6, 6, leftover.rotated(2))];

    let mut tiles = [[Tile::plain(Pattern { open: [false; 4] }); SIZE]; SIZE];
    for x in 0..SIZE {
        for y in 0..SIZE {
            if let Some(p) = cells[x][y] {
                tiles[x][y] = Tile::plain(p);
            }
        }
    }

    // Step 8: item placement, point-symmetric, rejected cells cost a draw each.
    let mut items = Vec::new();
    for name in names.iter().take(n) {
        let (x, y) = loop {
            let v = rnd.next_below(49) as usize;
            let (x, y) = (v / 7, v % 7);
            let forbidden = matches!((x, y), (3, 3) | (0, 0) | (6, 6));
            let taken = tiles[x][y].item.is_some();
            let too_few = league.three_way() && tiles[x][y].pattern.openings() < 3;
            if !forbidden && !taken && !too_few {
                break (x, y);
            }
        };
        let mine = Item { name: *name, owner: 0 };
        let theirs = Item { name: *name, owner: 1 };
        tiles[x][y].item = Some(mine);
        tiles[SIZE - 1 - x][SIZE - 1 - y].item = Some(theirs);
        items.push(mine);
        items.push(theirs);
    }

    // Step 9: Collections.shuffle(items, rnd).
    rnd.shuffle(&mut items);

    // Step 11: positions are set above, counters here.
    let mut state = State {
        league,
        tiles,
        players,
        items,
        stale: 0,
        turns_left: MAX_TURNS,
        turn_type: TurnType::Move,
        game_over: false,
        end_reason: None,
    };
    // Step 10: the initial reveal, player 0 then player 1.
    for p in 0..2 {
        super::rules::reveal(&mut state, p);
    }
    state
}
