//! The packed state: the board is four 49-bit direction sets (a tile is one bit in each), the
//! hand tiles are nibbles beside them, items are one byte per cell in seven row words, and
//! players keep their quest cards in small arrays. Converts from and to the reference state.

use twinsim_reference::xmas_rush::{
    EndReason, Item, ItemName, ItemPlace, League, Pattern, Player as RefPlayer, State as RefState,
    Tile, TurnType, SIZE,
};

/// Number of distinct items: 12 names × 2 owners. Item id = `name index * 2 + owner`.
pub const ITEM_IDS: usize = 24;
/// Item position (as [`State::item_cell`] reports it): board cell `y * 7 + x` (0..48), or
/// one of these.
pub const HAND: [u8; 2] = [49, 50];
/// Item position of an item that is not (or no longer) in the game.
pub const GONE: u8 = 255;
/// Bytes of one item row: 7 cells.
pub const ITEM_ROW_MASK: u64 = (1 << 56) - 1;

/// A tile nibble from a pattern: bit `i` = path towards direction index `i` (UP, RIGHT, DOWN,
/// LEFT). Twin of [`Pattern`].
pub fn nibble(p: Pattern) -> u8 {
    (0..4).filter(|&i| p.open[i]).map(|i| 1u8 << i).sum()
}

/// The pattern of a nibble.
pub fn pattern(n: u8) -> Pattern {
    let mut open = [false; 4];
    for (i, o) in open.iter_mut().enumerate() {
        *o = n & (1 << i) != 0;
    }
    Pattern { open }
}

/// The id of an item: `name index * 2 + owner`.
pub fn item_id(item: Item) -> u8 {
    (item.name as u8) * 2 + item.owner as u8
}

/// The item of an id.
pub fn item_of(id: u8) -> Item {
    Item { name: ItemName::ALL[(id / 2) as usize % 12], owner: (id % 2) as usize }
}

/// One player, packed. Card arrays hold item name indices; the deck's top is `deck[deck_len-1]`
/// (twin of the reference stack).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    /// Column 0..6 (reference `Player::x`).
    pub x: u8,
    /// Row 0..6 (reference `Player::y`).
    pub y: u8,
    /// Hidden quest cards as [`ItemName`] indices 0..11 (index in [`ItemName::ALL`]); only
    /// `deck[..deck_len]` is meaningful, the top (next revealed, §3 step 7) is last.
    pub deck: [u8; 12],
    /// Number of hidden cards, 0..12.
    pub deck_len: u8,
    /// Revealed quest cards (name indices) in reveal order, `quests[..quests_len]`; a completed
    /// quest is removed keeping the others' order (§6).
    pub quests: [u8; 12],
    /// Number of revealed quests, at most the league's `V` (§10).
    pub quests_len: u8,
    /// Completed quests; −1 after a forced deactivation (§8). Reference `Player::score`.
    pub score: i64,
    /// Cleared when the game ends (§8). Reference `Player::active`.
    pub active: bool,
}

/// The whole game state, packed (twin of [`RefState`]). `Copy`, about 200 bytes, no heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The board as four 49-bit sets (bit `y * 7 + x`): `open[d]` = tiles with a path towards
    /// direction `d` (the tile at a cell is its four bits, [`State::tile`]).
    pub open: [u64; 4],
    /// The players' hand tiles, as nibbles.
    pub hands: [u8; 2],
    /// Bit `q` of `hand_quests[p]`: the item on player `p`'s hand tile is one of player `q`'s
    /// revealed quest items (the hand tile's bit of the quest sets, which a push carries like
    /// the direction bits; see [`quest_sets_of`], the plain recomputation it is checked
    /// against).
    pub hand_quests: [u8; 2],
    /// Items by cell, one byte per cell like the tile nibbles: row `y`, cell `x` in bits
    /// `8x .. 8x+8`, holding `item id + 1` (0: no item).
    pub item_rows: [u64; SIZE],
    /// The item on each hand tile, `id + 1` (0: none).
    pub hand_items: [u8; 2],
    /// For each player, the cells holding his items whose quest is revealed (49-bit set): the
    /// only items he can collect. Shifted by every push, updated by collects and reveals (see
    /// [`quest_sets_of`], the plain recomputation it is checked against).
    pub quest_sets: [u64; 2],
    /// The referee's item list: ids in order; the first `order_len` are in the game.
    pub order: [u8; ITEM_IDS],
    /// How many entries of `order` are in the game (0..24); a collect removes one, keeping the
    /// others' order (§2), like the reference's `items` list.
    pub order_len: u8,
    /// Players 0 and 1 (absolute ids).
    pub players: [Player; 2],
    /// `numStalePushTurns` (§7.1): same-line push conflicts in a row; 10 ends the game.
    pub stale: u32,
    /// `gameTurnsLeft` (§4): 149 in the first announced turn, already decremented.
    pub turns_left: i32,
    /// The type of the announced turn (of the last turn played once the game is over).
    pub turn_type: TurnType,
    /// Whether the game is over.
    pub game_over: bool,
    /// Why it ended, once it has (§8).
    pub end_reason: Option<EndReason>,
    /// League constants (§10): `N`, `V`, tile pool.
    pub league: League,
}

/// The four direction sets of a board given as tiles (`tiles[x][y]`, the reference layout).
fn masks_of_tiles(tiles: &[[Tile; SIZE]; SIZE]) -> [u64; 4] {
    let mut open = [0u64; 4];
    for (x, column) in tiles.iter().enumerate() {
        for (y, tile) in column.iter().enumerate() {
            let n = nibble(tile.pattern);
            for (d, mask) in open.iter_mut().enumerate() {
                if n & (1 << d) != 0 {
                    *mask |= 1u64 << (y * 7 + x);
                }
            }
        }
    }
    open
}

/// The quest sets and the hand quest bits of a state ([`State::quest_sets`],
/// [`State::hand_quests`]), recomputed from scratch.
pub fn quest_sets_of(s: &State) -> ([u64; 2], [u8; 2]) {
    let mut sets = [0u64; 2];
    let mut hand_quests = [0u8; 2];
    for (p, set) in sets.iter_mut().enumerate() {
        let pl = &s.players[p];
        for &q in &pl.quests[..pl.quests_len as usize] {
            let cell = s.item_cell(q * 2 + p as u8);
            if cell < 49 {
                *set |= 1 << cell;
            } else if let Some(h) = HAND.iter().position(|&c| c == cell) {
                hand_quests[h] |= 1 << p;
            }
        }
    }
    (sets, hand_quests)
}

impl State {
    /// The item byte (`id + 1`, 0: none) at cell `c`.
    #[inline]
    pub fn item_byte(&self, c: u8) -> u8 {
        (self.item_rows[(c / 7) as usize] >> (8 * (c % 7))) as u8
    }

    /// Clears the item at cell `c`.
    #[inline]
    pub fn clear_item(&mut self, c: u8) {
        self.item_rows[(c / 7) as usize] &= !(0xFF << (8 * (c % 7)));
    }

    /// Where item `id` is: a cell, [`HAND`]`[p]`, or [`GONE`] (a scan; for cold paths).
    pub fn item_cell(&self, id: u8) -> u8 {
        for c in 0..49u8 {
            if self.item_byte(c) == id + 1 {
                return c;
            }
        }
        match self.hand_items.iter().position(|&h| h == id + 1) {
            Some(p) => HAND[p],
            None => GONE,
        }
    }

    /// The nibble at `(x, y)`: its bit in each direction set.
    #[inline]
    pub fn tile(&self, x: usize, y: usize) -> u8 {
        let c = y * 7 + x;
        (0..4).map(|d| ((self.open[d] >> c & 1) as u8) << d).sum()
    }

    /// A new game: the reference setup (cold, once per game), packed.
    pub fn new_game(seed: i64, league: League) -> State {
        State::from(&twinsim_reference::xmas_rush::new_game(seed, league))
    }

    /// The reference state this packs (twin of [`From<&RefState>`]).
    pub fn to_reference(&self) -> RefState {
        let mut tiles = [[Tile::plain(pattern(0)); SIZE]; SIZE];
        for (x, column) in tiles.iter_mut().enumerate() {
            for (y, tile) in column.iter_mut().enumerate() {
                *tile = Tile::plain(pattern(self.tile(x, y)));
            }
        }
        let mut hands = [Tile::plain(pattern(self.hands[0])), Tile::plain(pattern(self.hands[1]))];
        for c in 0..49u8 {
            let b = self.item_byte(c);
            if b != 0 {
                tiles[(c % 7) as usize][(c / 7) as usize].item = Some(item_of(b - 1));
            }
        }
        for (hand, &b) in hands.iter_mut().zip(&self.hand_items) {
            if b != 0 {
                hand.item = Some(item_of(b - 1));
            }
        }
        let names = |cards: &[u8]| -> Vec<ItemName> {
            cards.iter().map(|&c| ItemName::ALL[c as usize % 12]).collect()
        };
        let player = |p: usize| {
            let f = &self.players[p];
            RefPlayer {
                x: f.x as usize,
                y: f.y as usize,
                hand: hands[p],
                deck: names(&f.deck[..f.deck_len as usize]),
                quests: names(&f.quests[..f.quests_len as usize]),
                score: f.score,
                active: f.active,
            }
        };
        RefState {
            league: self.league,
            tiles,
            players: [player(0), player(1)],
            items: self.order[..self.order_len as usize].iter().map(|&id| item_of(id)).collect(),
            stale: self.stale,
            turns_left: self.turns_left,
            turn_type: self.turn_type,
            game_over: self.game_over,
            end_reason: self.end_reason,
        }
    }
}

fn cards(names: &[ItemName]) -> ([u8; 12], u8) {
    let mut out = [0u8; 12];
    let len = names.len().min(12);
    for (slot, name) in out.iter_mut().zip(names) {
        *slot = *name as u8;
    }
    (out, len as u8)
}

impl From<&RefState> for State {
    /// Packs a reference state. Reference states reachable by the rules always fit (at most 12
    /// cards per list, at most 24 items, players on the board).
    fn from(r: &RefState) -> State {
        let mut item_rows = [0u64; SIZE];
        let mut hand_items = [0u8; 2];
        let mut order = [0u8; ITEM_IDS];
        let order_len = r.items.len().min(ITEM_IDS);
        for (k, item) in r.items.iter().take(ITEM_IDS).enumerate() {
            let id = item_id(*item);
            order[k] = id;
            match r.find_item(*item) {
                Some(ItemPlace::Board(x, y)) => item_rows[y] |= u64::from(id + 1) << (8 * x),
                Some(ItemPlace::Hand(p)) => hand_items[p.min(1)] = id + 1,
                None => {}
            }
        }
        let player = |p: usize| {
            let rp = &r.players[p];
            let (deck, deck_len) = cards(&rp.deck);
            let (quests, quests_len) = cards(&rp.quests);
            Player {
                x: rp.x as u8,
                y: rp.y as u8,
                deck,
                deck_len,
                quests,
                quests_len,
                score: rp.score,
                active: rp.active,
            }
        };
        let mut state = State {
            open: masks_of_tiles(&r.tiles),
            hands: [nibble(r.players[0].hand.pattern), nibble(r.players[1].hand.pattern)],
            hand_quests: [0; 2],
            item_rows,
            hand_items,
            quest_sets: [0; 2],
            order,
            order_len: order_len as u8,
            players: [player(0), player(1)],
            stale: r.stale,
            turns_left: r.turns_left,
            turn_type: r.turn_type,
            game_over: r.game_over,
            end_reason: r.end_reason,
            league: r.league,
        };
        (state.quest_sets, state.hand_quests) = quest_sets_of(&state);
        state
    }
}
