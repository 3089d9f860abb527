//! Setup and the joint turn, on the packed state, without allocation. Each function names its
//! reference twin.

// Per-player loops index several parallel arrays by the player index.
#![allow(clippy::needless_range_loop)]

use super::dice::Dice;
use super::prng::RefereeDice;
use super::state::*;
use super::tables::{hurdle_tables, wind_thresholds, FINISH};
use twinsim_reference::game::StepError;
use twinsim_reference::olymbits as r;

/// What one player handed in (reference twin: `twinsim_reference::olymbits::PlayerInput`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// A valid action code 0..=3.
    Action(u8),
    /// An invalid line.
    Invalid,
    /// No line in time (an active player), or not asked (an inactive one).
    Timeout,
}

/// §4.1 reset. Reference twin: `twinsim_reference::olymbits::HurdleRace::reset`. The track is one
/// table lookup from the draws.
#[inline]
fn reset_hurdles<D: Dice>(s: &mut Slot, rng: &mut D) {
    let draw = rng.hurdle_draw();
    let t = hurdle_tables();
    let id = t.draw_to_track[draw];
    s.track_id = id;
    s.track = t.masks[id as usize];
    s.a = [0; 3];
    s.b = [0; 3];
    s.finished = [-1; 3];
    s.rank = 0;
}

/// §5.1 reset. Reference twin: `twinsim_reference::olymbits::Archery::reset`.
#[inline]
fn reset_archery<D: Dice>(s: &mut Slot, rng: &mut D) {
    let x = (5 + rng.below(5)) * if rng.boolean() { 1 } else { -1 };
    let y = (5 + rng.below(5)) * if rng.boolean() { 1 } else { -1 };
    s.a = [x as i16; 3];
    s.b = [y as i8; 3];
    let rounds = 12 + rng.below(4) as usize;
    let c = wind_thresholds();
    s.seq = [0; SEQ];
    for k in 0..rounds {
        let r = rng.double();
        s.seq[k] = c.iter().position(|t| r <= *t).unwrap_or(0) as u8;
    }
    s.head = 0;
    s.len = rounds as u8;
}

/// §6.1 reset. Reference twin: `twinsim_reference::olymbits::Skating::reset`.
#[inline]
fn reset_skating<D: Dice>(s: &mut Slot, rng: &mut D) {
    s.a = [0; 3];
    s.b = [0; 3];
    rng.shuffle4(&mut s.directions);
    s.timer = 15;
}

/// §7.1 reset. Reference twin: `twinsim_reference::olymbits::Diving::reset`.
#[inline]
fn reset_diving<D: Dice>(s: &mut Slot, rng: &mut D) {
    s.seq = [0; SEQ];
    let length = rng.diving_goal(&mut s.seq);
    s.head = 0;
    s.len = length as u8;
    s.a = [0; 3];
    s.b = [0; 3];
}

/// §3.4 a mini-game's reset. Reference twin: `twinsim_reference::olymbits::setup::reset_run`.
/// Out of line: one turn in a dozen or so resets a given mini-game.
#[inline(never)]
pub fn reset<D: Dice>(s: &mut Slot, rng: &mut D) {
    match s.kind {
        HURDLES => reset_hurdles(s, rng),
        ARCHERY => reset_archery(s, rng),
        SKATING => reset_skating(s, rng),
        _ => reset_diving(s, rng),
    }
}

/// §4.3 tick. Reference twin: `twinsim_reference::olymbits::HurdleRace::tick`. A move is a few
/// bit operations on the track mask ([`hurdle_step`]); no table is consulted.
#[inline]
pub fn tick_hurdles(s: &mut Slot, act: &[u8; 3]) {
    tick_hurdles_with::<false>(s, act);
}

/// [`tick_hurdles`]; `ALL_ACT`: every player has an action (no `NONE` to test for).
#[inline(always)]
fn tick_hurdles_with<const ALL_ACT: bool>(s: &mut Slot, act: &[u8; 3]) {
    let mut count = 0;
    for i in 0..3 {
        let a = act[i];
        if !ALL_ACT && a == NONE {
            s.dead |= 1 << i;
            continue;
        }
        if s.b[i] > 0 {
            s.b[i] -= 1;
            continue;
        }
        if s.finished[i] > -1 {
            continue;
        }
        let (p, hit) = hurdle_step(s.track, i32::from(s.a[i]), a);
        s.a[i] = p as i16;
        if hit {
            s.b[i] = 2;
        } else if p == FINISH as i32 {
            s.finished[i] = s.rank;
            count += 1;
        }
    }
    s.rank += count;
}

/// §4.3 one runner's move (twin of the reference tick's walk, [`walk_hurdles`]), by bit
/// tricks: the walk may stop on a hurdle among the cells `pos + 1 ..= pos + steps` (UP jumps
/// the first), so those cells are one masked window of the track above `pos` and the stop is
/// its lowest set bit; cells past 29 are never visited (the walk is capped there) and the
/// track has no bit there. Without a hurdle the runner ends on `min(pos + steps, 29)`. Start
/// cells outside `0..29` take the cell-by-cell walk: outside the track (hand-made states
/// only), or on cell 29 unfinished, stunned there by a hurdle on the finish cell (hand-made
/// tracks only), where every step of the walk is capped to cell 29 again.
#[inline(always)]
pub fn hurdle_step(track: u32, pos: i32, a: u8) -> (i32, bool) {
    if !(0..29).contains(&pos) {
        return walk_hurdles(track, pos, a);
    }
    // Cells (from pos + 1) where a hurdle stops the move, per action code: UP 0b10 (jumps
    // the first), DOWN 0b11, LEFT 0b1, RIGHT 0b111; steps per action code: 2, 2, 1, 3.
    const WINDOW: [u32; 4] = [0b10, 0b11, 0b1, 0b111];
    const STEPS: [i32; 4] = [2, 2, 1, 3];
    let hits = ((track & TRACK_CELLS) >> (pos + 1)) & WINDOW[(a & 3) as usize];
    if hits != 0 {
        (pos + 1 + hits.trailing_zeros() as i32, true)
    } else {
        ((pos + STEPS[(a & 3) as usize]).min(FINISH as i32), false)
    }
}

/// The bits of the 30 track cells.
const TRACK_CELLS: u32 = (1 << 30) - 1;

/// §4.3 one runner's move, cell by cell (any track, any start cell): the new cell and
/// whether it stopped on a hurdle.
#[cold]
pub fn walk_hurdles(track: u32, pos: i32, a: u8) -> (i32, bool) {
    let steps = [2u8, 2, 1, 3][a as usize & 3];
    let mut jump = a == UP;
    let mut p = pos;
    for _ in 0..steps {
        p = (p + 1).min(FINISH as i32);
        if (0..30).contains(&p) && (track >> p) & 1 != 0 && !jump {
            return (p, true);
        }
        if p == FINISH as i32 {
            return (p, false);
        }
        jump = false;
    }
    (p, false)
}

/// §4.4. Reference twin: `twinsim_reference::olymbits::HurdleRace::is_run_over`: someone
/// finished, or (nobody finished) at least two are dead.
#[inline]
fn hurdles_over(s: &Slot) -> bool {
    let finished = s.finished.iter().any(|f| *f > -1);
    finished || (s.dead & 0b111).count_ones() >= 2
}

/// §5.2 tick. Reference twin: `twinsim_reference::olymbits::Archery::tick`. An action moves one
/// coordinate, so only that one is recomputed and clamped (the other is already in
/// `[-20, 20]` in every reachable state, where the reference's clamp leaves it unchanged).
#[inline(always)]
fn tick_archery<const ALL_ACT: bool>(s: &mut Slot, act: &[u8; 3]) {
    let w = if s.head < s.len { i16::from(s.seq[s.head as usize & (SEQ - 1)]) } else { 0 };
    for i in 0..3 {
        match if ALL_ACT { act[i] & 3 } else { act[i] } {
            UP => s.b[i] = (i16::from(s.b[i]) - w).clamp(-20, 20) as i8,
            DOWN => s.b[i] = (i16::from(s.b[i]) + w).clamp(-20, 20) as i8,
            LEFT => s.a[i] = (s.a[i] - w).clamp(-20, 20),
            RIGHT => s.a[i] = (s.a[i] + w).clamp(-20, 20),
            _ => s.dead |= 1 << i,
        }
    }
    if s.head < s.len {
        s.head += 1;
    }
}

/// §6.2 tick. Reference twin: `twinsim_reference::olymbits::Skating::tick`.
#[inline(always)]
fn tick_skating<D: Dice, const ALL_ACT: bool>(s: &mut Slot, act: &[u8; 3], rng: &mut D) {
    // Place of each action in the risk order (the order is a permutation).
    let mut place = [0u8; 4];
    for (k, d) in s.directions.iter().enumerate() {
        place[(d & 3) as usize] = k as u8;
    }
    for i in 0..3 {
        let a = act[i];
        if !ALL_ACT && a == NONE {
            s.dead |= 1 << i;
            continue;
        }
        if s.b[i] < 0 {
            s.b[i] += 1;
            continue;
        }
        let k = place[(a & 3) as usize] & 3;
        // Spaces [1, 2, 2, 3] by place k: 1 + (k + 1) / 2.
        s.a[i] += 1 + ((k as i16 + 1) >> 1);
        s.b[i] = (s.b[i] + k as i8 - 1).max(0);
    }
    let laps = lap_cells(s.a);
    let (same01, same02, same12) = (laps[0] == laps[1], laps[0] == laps[2], laps[1] == laps[2]);
    let collides = [same01 | same02, same01 | same12, same02 | same12];
    for i in 0..3 {
        let risk = s.b[i];
        if risk >= 0 {
            let risk = risk + 2 * collides[i] as i8;
            s.b[i] = if risk >= 5 { -2 } else { risk };
        }
    }
    rng.shuffle4(&mut s.directions);
    s.timer -= 1;
}

/// Each skater's cell on the 10-cell lap (`position % 10`, §6.2's collision test). A run moves
/// a skater at most 45 spaces: from a table of the first 64 when all three are below 64 (one
/// test), else by division.
#[inline(always)]
fn lap_cells(positions: [i16; 3]) -> [i16; 3] {
    const LAP: [i16; 64] = {
        let mut t = [0i16; 64];
        let mut p = 0;
        while p < 64 {
            t[p] = (p % 10) as i16;
            p += 1;
        }
        t
    };
    if ((positions[0] | positions[1] | positions[2]) as u16) < 64 {
        positions.map(|p| LAP[p as usize & 63])
    } else {
        positions.map(|p| p.rem_euclid(10))
    }
}

/// §7.2 tick. Reference twin: `twinsim_reference::olymbits::Diving::tick`.
#[inline(always)]
fn tick_diving<const ALL_ACT: bool>(s: &mut Slot, act: &[u8; 3]) {
    let goal = if s.head < s.len { s.seq[s.head as usize & (SEQ - 1)] } else { NONE };
    for i in 0..3 {
        let a = act[i];
        if !ALL_ACT && a == NONE {
            s.dead |= 1 << i;
            continue;
        }
        if a == goal {
            s.b[i] += 1;
            s.a[i] += s.b[i] as i16;
        } else {
            s.b[i] = 0;
        }
    }
    if s.head < s.len {
        s.head += 1;
    }
}

/// Ranking scores (§4.4, §5.3, §6.3, §7.3); dead players get a score below every live one.
/// Reference twin: `twinsim_reference::olymbits::Run::scores`.
#[inline]
fn scores(s: &Slot) -> [i32; 3] {
    std::array::from_fn(|i| {
        if s.dead >> i & 1 == 1 {
            return i32::MIN;
        }
        match s.kind {
            ARCHERY => {
                let (x, y) = (s.a[i] as i32, s.b[i] as i32);
                -(x * x + y * y)
            }
            _ => s.a[i] as i32,
        }
    })
}

impl State {
    /// Seeded setup (§3.4). Reference twin: `twinsim_reference::olymbits::new_game` (seed 0 refused).
    pub fn new(seed: i64, params: &r::Params) -> Result<State, r::SetupError> {
        if seed == 0 {
            return Err(r::SetupError::SeedZero);
        }
        Ok(State::new_unchecked(seed, params))
    }

    /// [`State::new`] without the seed-0 check. Reference twin:
    /// `twinsim_reference::olymbits::new_game_unchecked`.
    pub fn new_unchecked(seed: i64, params: &r::Params) -> State {
        State::with_dice(RefereeDice::new(seed), params)
    }
}

impl<D: Dice> State<D> {
    /// Setup (§3.4) drawing from `rng`: with the referee's generator seeded with the game's
    /// seed this is [`State::new_unchecked`]; with [`super::SearchDice`], a search game.
    pub fn with_dice(mut rng: D, params: &r::Params) -> State<D> {
        let kinds: &[u8] = match params.league {
            r::League::Wood1 => &[HURDLES],
            r::League::Wood2 => &[HURDLES; 4],
            r::League::Top => &[HURDLES, ARCHERY, SKATING, DIVING],
        };
        let mut games = [Slot::default(); 4];
        for (g, kind) in kinds.iter().enumerate() {
            let slot = &mut games[g];
            slot.kind = *kind;
            if *kind == SKATING {
                slot.directions = [UP, DOWN, LEFT, RIGHT];
            }
            if *kind == HURDLES {
                slot.finished = [-1; 3];
            }
            reset(slot, &mut rng);
        }
        State {
            rng,
            league: params.league,
            turn: 0,
            active: 0b111,
            end: 0,
            nb_games: kinds.len() as u8,
            medals: [[[0; 3]; 4]; 3],
            games,
            log: TurnLog::default(),
        }
    }

    /// Mini-game `g` (of kind `KIND`) for one joint turn: its reset, or its tick and, when
    /// the run ends, its medals (part of [`State::play_turn`], twin of the per-mini-game
    /// part of `twinsim_reference::olymbits::play_turn`). `ALL_ACT`: all three players are
    /// active and have an action (the usual turn): no `NONE` to test for, no forced bronze.
    #[inline(always)]
    fn play_game<const KIND: u8, const ALL_ACT: bool>(
        &mut self,
        g: usize,
        act: &[u8; 3],
        log: &mut TurnLog,
    ) {
        let s = &mut self.games[g];
        if s.should_reset {
            s.resetting = true;
            reset(s, &mut self.rng);
            s.should_reset = false;
            return;
        }
        s.resetting = false;
        // Tick, and whether the run is over (twin of `Run::is_run_over`), by kind.
        let over = match KIND {
            HURDLES => {
                tick_hurdles_with::<ALL_ACT>(s, act);
                hurdles_over(s)
            }
            ARCHERY => {
                tick_archery::<ALL_ACT>(s, act);
                s.head >= s.len
            }
            SKATING => {
                tick_skating::<D, ALL_ACT>(s, act, &mut self.rng);
                s.timer <= 0
            }
            _ => {
                tick_diving::<ALL_ACT>(s, act);
                s.head >= s.len
            }
        };
        if over {
            s.should_reset = true;
            let sc = scores(s);
            log.ended |= 1 << g;
            for i in 0..3 {
                let rank = if !ALL_ACT && self.active >> i & 1 == 0 {
                    2
                } else {
                    (sc[0] > sc[i]) as u8 + (sc[1] > sc[i]) as u8 + (sc[2] > sc[i]) as u8
                };
                log.ranks[g][i] = rank;
                self.medals[i][g][rank as usize] += 1;
            }
        }
    }

    /// §8.2: one joint turn. Reference twin: `twinsim_reference::olymbits::play_turn`.
    pub fn play_turn(&mut self, inputs: &[Input; 3]) -> Result<(), StepError> {
        if self.end != 0 {
            return Err(StepError::GameOver);
        }
        if let (0b111, [Input::Action(a0), Input::Action(a1), Input::Action(a2)]) =
            (self.active, inputs)
        {
            // The usual turn: three active players, three actions.
            self.resolve::<true>(&[a0 & 3, a1 & 3, a2 & 3], TurnLog::default());
            return Ok(());
        }
        let mut log = TurnLog::default();
        let mut act = [NONE; 3];
        for i in 0..3 {
            if !self.is_active(i) {
                continue;
            }
            match inputs[i] {
                Input::Action(a) => act[i] = a & 3,
                Input::Invalid => {
                    log.deactivated |= 1 << i;
                    self.active &= !(1 << i);
                }
                Input::Timeout => {
                    log.deactivated |= 1 << i;
                    log.timed_out |= 1 << i;
                    self.active &= !(1 << i);
                }
            }
        }
        self.resolve::<false>(&act, log);
        Ok(())
    }

    /// §8.2 steps 4–5 once the actions are known (`NONE`: no action): every mini-game's reset
    /// or tick and medals, then the end test. `ALL_ACT`: `act` holds three actions of three
    /// active players.
    #[inline]
    fn resolve<const ALL_ACT: bool>(&mut self, act: &[u8; 3], mut log: TurnLog) {
        let kinds = self.games.map(|g| g.kind);
        if self.nb_games == 4 && kinds == [HURDLES, ARCHERY, SKATING, DIVING] {
            // The top league's fixed order: each slot's kind is a constant, no dispatch.
            self.play_game::<HURDLES, ALL_ACT>(0, act, &mut log);
            self.play_game::<ARCHERY, ALL_ACT>(1, act, &mut log);
            self.play_game::<SKATING, ALL_ACT>(2, act, &mut log);
            self.play_game::<DIVING, ALL_ACT>(3, act, &mut log);
        } else {
            for g in 0..(self.nb_games as usize).min(4) {
                match kinds[g] {
                    HURDLES => self.play_game::<HURDLES, ALL_ACT>(g, act, &mut log),
                    ARCHERY => self.play_game::<ARCHERY, ALL_ACT>(g, act, &mut log),
                    SKATING => self.play_game::<SKATING, ALL_ACT>(g, act, &mut log),
                    _ => self.play_game::<DIVING, ALL_ACT>(g, act, &mut log),
                }
            }
        }
        self.log = log;
        self.turn += 1;
        if self.active.count_ones() < 2 {
            self.end = 2;
        } else if self.turn >= 100 {
            self.end = 1;
        }
    }

    /// The typed step with the reference `Game::step` semantics: `None` for an active player
    /// is a timeout; `Some` for an inactive one is refused. Reference twin:
    /// `<twinsim_reference::olymbits::Olymbits as Game>::step`.
    pub fn step(&mut self, actions: &[Option<r::Action>; 3]) -> Result<(), StepError> {
        if self.end != 0 {
            return Err(StepError::GameOver);
        }
        if let (0b111, [Some(a0), Some(a1), Some(a2)]) = (self.active, actions) {
            // The usual turn (a search's every turn): straight to the resolution.
            let act = [a0, a1, a2].map(|a| a.index() as u8 & 3);
            self.resolve::<true>(&act, TurnLog::default());
            return Ok(());
        }
        for (player, a) in actions.iter().enumerate() {
            if a.is_some() && !self.is_active(player) {
                return Err(StepError::NotToAct { player });
            }
        }
        let inputs = actions.map(|a| match a {
            Some(a) => Input::Action(a.index() as u8),
            None => Input::Timeout,
        });
        self.play_turn(&inputs)
    }
}
