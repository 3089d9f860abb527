//! Conversions between the search-mode [`SearchState`] and the exact [`State`].

use super::search::SearchState;
use super::state::{Pending, State};

impl SearchState {
    /// The search-mode position of an exact state (its generator, owed draws, hash, frame
    /// counter and stored shadows left behind). `None` when a value does not fit the compact
    /// state (sun above 65,535, a score outside `i16`, nutrients outside 0..=31, a day past
    /// 24) or when the sun's direction is not the one its day gives (§5): never for a state
    /// reached in play.
    pub fn from_exact(s: &State) -> Option<SearchState> {
        let sun = [u16::try_from(s.sun[0]).ok()?, u16::try_from(s.sun[1]).ok()?];
        let score = [i16::try_from(s.score[0]).ok()?, i16::try_from(s.score[1]).ok()?];
        let out = SearchState::from_parts(
            s.owner,
            s.size,
            s.dormant,
            s.holes,
            sun,
            score,
            s.day,
            s.nutrients,
            s.flags,
            s.league,
        )?;
        (out.sun_direction() == s.sun_direction).then_some(out)
    }

    /// The exact state of this position, in search mode as [`State::without_views`] leaves
    /// it: the same game from here, with the generator at 0 (the printed lists' order is not
    /// the referee's) and the frame counter at 0. Its shadow map is cast from the current
    /// trees; the referee's is the one cast at the day's start, which no rule reads again
    /// before the next sun move casts a new one (§5).
    pub fn to_exact(&self) -> State {
        let mut s = State {
            size: self.sizes(),
            owner: self.owner,
            dormant: self.dormant,
            holes: self.holes(),
            shadow: [0; 4],
            sun: [self.sun[0] as i32, self.sun[1] as i32],
            score: [self.score[0] as i32, self.score[1] as i32],
            nutrients: self.nutrients() as i32,
            day: self.day(),
            sun_direction: self.sun_direction(),
            league: self.league(),
            flags: self.flags(),
            executions: 0,
            rng: 0,
            pending: Pending::default(),
            exact_views: false,
            seed_reach: [0; 2],
            hash: 0,
        };
        if s.league >= 3 {
            s.compute_shadows();
        }
        s.hash = s.hash_from_scratch();
        s
    }
}
