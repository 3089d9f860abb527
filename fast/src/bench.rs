//! Benchmark pairs: one hot operation, its reference twin and its fast twin, run interleaved by
//! `twinsim bench` and the `benches/` harness so that both see the same machine state.

use crate::rng::{below_from, xorshift64};

/// One hot operation measured in both engines.
pub struct BenchOp {
    /// Game trace name (`"xmas-rush"`, ...).
    pub game: &'static str,
    /// Operation name (`"push"`, `"legal_moves"`, ...).
    pub name: &'static str,
    /// Runs the operation once through the reference engine (on prepared inputs, cycling).
    pub reference: Box<dyn FnMut() + Send>,
    /// Runs the same operation once through the fast engine.
    pub fast: Box<dyn FnMut() + Send>,
}

impl BenchOp {
    /// Whether each call plays a whole game, the next one of the pair's own sequence of seeds
    /// and choices (the operations named `random_game...` and `whole_game...`, by convention):
    /// `twinsim bench --instructions` counts a fixed number of such games rather than sizing
    /// the region by one probe call, so that every run averages the same games.
    pub fn plays_whole_games(&self) -> bool {
        self.name.starts_with("random_game") || self.name.starts_with("whole_game")
    }

    /// The usual pair: each call takes the next prepared input (cycling through the list) and
    /// its index, so that both sides see the same sequence of positions and parameters.
    pub fn cycling<R, F>(
        game: &'static str,
        name: &'static str,
        reference_inputs: Vec<R>,
        fast_inputs: Vec<F>,
        mut reference: impl FnMut(&R, usize) + Send + 'static,
        mut fast: impl FnMut(&F, usize) + Send + 'static,
    ) -> BenchOp
    where
        R: Send + 'static,
        F: Send + 'static,
    {
        assert!(
            !reference_inputs.is_empty() && !fast_inputs.is_empty(),
            "{game} {name}: no inputs"
        );
        let (mut i, mut j) = (0usize, 0usize);
        BenchOp {
            game,
            name,
            // The next index by a compare rather than `%` (a division): the harness's share of
            // every pair stays small next to the cheapest operations measured.
            reference: Box::new(move || {
                i += 1;
                if i >= reference_inputs.len() {
                    i = 0;
                }
                reference(&reference_inputs[i], i);
            }),
            fast: Box::new(move || {
                j += 1;
                if j >= fast_inputs.len() {
                    j = 0;
                }
                fast(&fast_inputs[j], j);
            }),
        }
    }
}

/// A whole game through the typed API ([`Game`]): setup from `seed`, then uniformly random legal
/// actions for every player to act (an xorshift stream, so both twins see the same choices)
/// until the game ends or `max_frames` frames; returns the frames played. Games without a
/// specialised playout measure "random games per second" with this.
///
/// [`Game`]: twinsim_reference::game::Game
pub fn typed_random_game<G: twinsim_reference::game::Game>(
    seed: i64,
    rng: &mut u64,
    max_frames: u32,
) -> u32 {
    let mut state = G::new_game(seed, &G::Params::default());
    let mut frames = 0;
    while G::outcome(&state).is_none() && frames < max_frames {
        let mut actions = vec![None; G::num_players(&state)];
        for p in G::players_to_act(&state) {
            let legal = G::legal_actions(&state, p);
            if !legal.is_empty() {
                // xorshift64, then a multiply-shift into the list.
                *rng = xorshift64(*rng);
                let k = below_from(*rng, legal.len() as u64);
                actions[p] = Some(legal[k as usize].clone());
            }
        }
        if G::step(&mut state, &actions).is_err() {
            break;
        }
        frames += 1;
    }
    frames
}

/// A position reached in play and the joint action played from it (one entry per player,
/// `None` for a player not to act).
pub type Played<G> = (
    <G as twinsim_reference::game::Game>::State,
    Vec<Option<<G as twinsim_reference::game::Game>::Action>>,
);

/// Positions reached in play by the engine under test `G` (a fast twin): random games through
/// its typed API from seeds `first_seed`, `first_seed + 1`, ... with uniformly random legal
/// actions (the xorshift stream of [`typed_random_game`] from `stream`), every position before
/// the end kept with the joint action played from it, until `count` positions. Benchmarks run
/// on these rather than on reference states converted, which owe none of the work a played
/// position may owe.
pub fn typed_played_positions<G: twinsim_reference::game::Game>(
    count: usize,
    first_seed: i64,
    mut stream: u64,
) -> Vec<Played<G>>
where
    G::State: Clone,
{
    let mut out = Vec::with_capacity(count);
    let mut seed = first_seed;
    while out.len() < count {
        let mut state = G::new_game(seed, &G::Params::default());
        seed += 1;
        while G::outcome(&state).is_none() && out.len() < count {
            let mut actions = vec![None; G::num_players(&state)];
            for p in G::players_to_act(&state) {
                let legal = G::legal_actions(&state, p);
                if !legal.is_empty() {
                    stream = xorshift64(stream);
                    let k = below_from(stream, legal.len() as u64);
                    actions[p] = Some(legal[k as usize].clone());
                }
            }
            out.push((state.clone(), actions.clone()));
            if G::step(&mut state, &actions).is_err() {
                break;
            }
        }
    }
    out
}

/// The pair `random_game` for a game without a specialised playout: [`typed_random_game`] on
/// the reference `R` and on the fast twin `F`, seeds 1, 2, 3, ... on both sides.
#[doc(hidden)]
pub fn typed_random_game_op<R, F>(game: &'static str, max_frames: u32) -> BenchOp
where
    R: twinsim_reference::game::Game + 'static,
    F: twinsim_reference::game::Game + 'static,
{
    let (mut rs, mut fs) = (0i64, 0i64);
    let (mut rr, mut fr) = (0x9E37_79B9_7F4A_7C15u64, 0x9E37_79B9_7F4A_7C15u64);
    BenchOp {
        game,
        name: "random_game",
        reference: Box::new(move || {
            rs += 1;
            std::hint::black_box(typed_random_game::<R>(rs, &mut rr, max_frames));
        }),
        fast: Box::new(move || {
            fs += 1;
            std::hint::black_box(typed_random_game::<F>(fs, &mut fr, max_frames));
        }),
    }
}

/// A game's constructor of benchmark pairs.
type BenchOpsFn = fn() -> Vec<BenchOp>;

/// The benchmark pairs of `game` (all games when `None`).
pub fn ops(game: Option<&str>) -> Vec<BenchOp> {
    use twinsim_reference::registry::GameId;
    let all: [(GameId, BenchOpsFn); 5] = [
        (GameId::XmasRush, crate::xmas_rush::bench::bench_ops),
        (GameId::Photosynthesis, crate::photosynthesis::bench::bench_ops),
        (GameId::Zuniq, crate::zuniq::bench::bench_ops),
        (GameId::Olymbits, crate::olymbits::bench::bench_ops),
        (GameId::WondevWoman, crate::wondev_woman::bench::bench_ops),
    ];
    all.iter()
        .filter(|(id, _)| game.map_or(true, |g| g == id.name()))
        .flat_map(|(_, ops)| ops())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole-game pairs, which `twinsim bench --instructions` counts over a fixed number
    /// of games, are told apart by name: Photosynthesis' two random games and nothing else.
    #[test]
    fn whole_game_pairs_are_told_apart_by_name() {
        let whole: Vec<&str> = crate::photosynthesis::bench::bench_ops()
            .iter()
            .filter(|op| op.plays_whole_games())
            .map(|op| op.name)
            .collect();
        assert_eq!(whole, ["random_game", "random_game_search"]);
    }

    /// The typed playout plays the same game on both twins (same frames for the same seed and
    /// stream) and ends it.
    #[test]
    fn typed_random_games_agree_between_twins() {
        use crate::wondev_woman::FastWondevWoman;
        use crate::xmas_rush::FastXmasRush;
        use twinsim_reference::{wondev_woman::WondevWoman, xmas_rush::XmasRush};
        for seed in 1..4 {
            let (mut a, mut b) = (seed as u64 * 77, seed as u64 * 77);
            let n = typed_random_game::<WondevWoman>(seed, &mut a, 10_000);
            assert_eq!(n, typed_random_game::<FastWondevWoman>(seed, &mut b, 10_000));
            assert!(n > 0 && a == b);
            let (mut a, mut b) = (seed as u64 * 77, seed as u64 * 77);
            let n = typed_random_game::<XmasRush>(seed, &mut a, 10_000);
            assert_eq!(n, typed_random_game::<FastXmasRush>(seed, &mut b, 10_000));
            assert!(n > 0 && a == b);
        }
        // Games end by the rules, not by the frame cap.
        let mut r = 5u64;
        assert!(typed_random_game::<WondevWoman>(1, &mut r, 10_000) < 10_000);
        let mut r = 5u64;
        assert!(typed_random_game::<XmasRush>(1, &mut r, 10_000) < 10_000);
    }
}
