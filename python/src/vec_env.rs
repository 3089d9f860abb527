//! `VecEnv`: many games of one game stepped together on a thread pool, the GIL released, every
//! result written straight into the numpy arrays handed back to Python.
//!
//! Two ways to hand them back, Gymnasium's `copy` flag: fresh arrays on every call (`copy=True`,
//! zero-filled by numpy, so a lane writes only its non-zero values), or the same arrays every
//! call (`copy=False`: allocated once, overwritten in place by the next call, each lane clearing
//! its own rows on the pool before writing them). The second is the zero-copy one: nothing is
//! allocated or cleared in the calling thread, so no serial pass over the batch's bytes remains
//! (a 1024-game X-mas Rush batch is 9 MB of observations), and the threads share all the work.

use crate::codec::GameId;
use crate::lanes::{self, Path};
use crate::slot::StepError;
use crate::{engine_kind, game_id};
use numpy::{PyArray, PyArrayDyn, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::VecDeque;
use std::sync::Mutex;

/// One game of the batch and the seed it was set up with.
struct Lane {
    game: Box<dyn lanes::Lane>,
    seed: i64,
}

/// The batch's games and the pool that steps them.
struct Batch {
    game: GameId,
    lanes: Vec<Lane>,
    players: usize,
    pool: Option<rayon::ThreadPool>,
}

/// Where results go: the output arrays' data, or one game's rows of them.
struct Out<'a> {
    observations: &'a mut [f32],
    masks: &'a mut [i8],
    rewards: &'a mut [f32],
    terminations: &'a mut [bool],
    to_act: &'a mut [bool],
    score_deltas: &'a mut [f32],
}

/// The output arrays of one call, as numpy arrays of shape `(num_envs, num_players, ...)`.
type Arrays<'py> = (
    Bound<'py, PyArrayDyn<f32>>,
    Bound<'py, PyArrayDyn<i8>>,
    Bound<'py, PyArrayDyn<f32>>,
    Bound<'py, PyArrayDyn<bool>>,
    Bound<'py, PyArrayDyn<bool>>,
    Bound<'py, PyArrayDyn<f32>>,
);

impl Batch {
    /// Zeroes one game's rows of a reused array before they are written (its observation
    /// rows only if the lane does not write them whole).
    fn clear_rows(lane: &Lane, out: &mut Out<'_>) {
        if !lane.game.writes_whole_observation() {
            out.observations.fill(0.0);
        }
        out.masks.fill(0);
        out.rewards.fill(0.0);
        out.terminations.fill(false);
        out.to_act.fill(false);
        out.score_deltas.fill(0.0);
    }

    /// Plays game `i`'s turn from its players' action indices (`actions`, one per seat) and
    /// writes its rows: rewards, score changes, the end, and the next state's observations,
    /// masks and seats to act (a finished game is set up again first, from its seed plus
    /// `num_envs`). The rows are zeros, or written whole.
    pub(crate) fn step_lane(
        game: GameId,
        lane: &mut Lane,
        actions: &[i64],
        mut out: Out<'_>,
        num_envs: i64,
    ) -> Result<(), StepError> {
        lane.game.step_indices(actions)?;
        out.rewards.copy_from_slice(lane.game.rewards());
        lane.game.score_deltas(out.score_deltas);
        if lane.game.is_over() {
            out.terminations.fill(true);
            lane.seed = lane.seed.wrapping_add(num_envs);
            lane.game.reset(lane.seed).map_err(StepError::BadAction)?;
        }
        Self::write_state(&*lane.game, &mut out, game.observation_len(), game.num_actions());
        Ok(())
    }

    /// Writes one game's observations, masks and seats to act.
    fn write_state(
        game: &dyn lanes::Lane,
        out: &mut Out<'_>,
        observation_len: usize,
        num_actions: usize,
    ) {
        out.to_act.copy_from_slice(game.to_act());
        game.observe_all(out.observations, observation_len);
        for p in 0..game.num_players() {
            game.mask(p, &mut out.masks[p * num_actions..(p + 1) * num_actions]);
        }
    }

    /// Cuts `out` into pieces of `lanes` games' rows each (the last may be shorter).
    fn pieces<'a>(
        out: Out<'a>,
        lanes: usize,
        (players, observation_len, num_actions): (usize, usize, usize),
    ) -> impl Iterator<Item = Out<'a>> {
        let seats = lanes * players;
        out.observations
            .chunks_mut(seats * observation_len)
            .zip(out.masks.chunks_mut(seats * num_actions))
            .zip(out.rewards.chunks_mut(seats))
            .zip(out.terminations.chunks_mut(seats))
            .zip(out.to_act.chunks_mut(seats))
            .zip(out.score_deltas.chunks_mut(seats))
            .map(|(((((observations, masks), rewards), terminations), to_act), score_deltas)| Out {
                observations,
                masks,
                rewards,
                terminations,
                to_act,
                score_deltas,
            })
    }

    /// Runs `work` on every lane with its output rows: in this thread alone, or in this
    /// thread and the pool's.
    fn for_each<F>(&mut self, arrays: Out<'_>, work: F) -> Result<(), StepError>
    where
        F: Fn(usize, &mut Lane, Out<'_>) -> Result<(), StepError> + Sync,
    {
        let sizes = (self.players, self.game.observation_len(), self.game.num_actions());
        // A piece of consecutive games and their rows: games `first..first + lanes.len()`.
        let run_piece = |first: usize, lanes: &mut [Lane], out: Out<'_>| {
            let rows = Self::pieces(out, 1, sizes);
            for (j, (lane, row)) in lanes.iter_mut().zip(rows).enumerate() {
                work(first + j, lane, row)?;
            }
            Ok(())
        };
        let Some(pool) = &self.pool else {
            return run_piece(0, &mut self.lanes, arrays);
        };
        // The calling thread works too, beside the pool's `threads - 1` workers: it is awake
        // already, where a worker asleep since the last call (the caller's policy ran in
        // between) must first be woken, so it starts at once. The games go out in chunks of a
        // few dozen from one queue, taken by whoever is free, so a game that costs more (one
        // set up again) leaves no thread idle; the caller takes chunks from the front, the
        // workers from the back, so that from one call to the next a game is mostly stepped
        // by the same core and finds its state in that core's cache. Only the chunks are cut
        // here, in the calling thread; each chunk's rows are cut by the thread that takes it.
        let threads = pool.current_num_threads() + 1;
        let chunk = (self.lanes.len() / (8 * threads)).clamp(1, 32);
        let chunks: VecDeque<_> = self
            .lanes
            .chunks_mut(chunk)
            .zip(Self::pieces(arrays, chunk, sizes))
            .enumerate()
            .map(|(k, (lanes, out))| (k * chunk, lanes, out))
            .collect();
        let queue = Mutex::new(chunks);
        let failure: Mutex<Option<StepError>> = Mutex::new(None);
        let drain = |from_front: bool| loop {
            let next = {
                let mut queue = queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if from_front {
                    queue.pop_front()
                } else {
                    queue.pop_back()
                }
            };
            let Some((first, lanes, out)) = next else { break };
            if let Err(error) = run_piece(first, lanes, out) {
                let mut failure = failure.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                failure.get_or_insert(error);
            }
        };
        pool.in_place_scope(|scope| {
            for _ in 1..threads {
                scope.spawn(|_| drain(false));
            }
            drain(true);
        });
        match failure.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()) {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// The arrays a `copy=False` batch hands back on every call.
struct Reused {
    observations: Py<PyArrayDyn<f32>>,
    masks: Py<PyArrayDyn<i8>>,
    rewards: Py<PyArrayDyn<f32>>,
    terminations: Py<PyArrayDyn<bool>>,
    to_act: Py<PyArrayDyn<bool>>,
    score_deltas: Py<PyArrayDyn<f32>>,
}

/// A batch of `num_envs` games of one game (the core under `twinsim.VecEnv`).
#[pyclass(module = "twinsim._core")]
pub struct VecEnv {
    batch: Mutex<Batch>,
    num_envs: usize,
    /// `copy=False`: the arrays every call writes and returns (made by the first call).
    reused: Mutex<Option<Reused>>,
    copy: bool,
}

/// Zeroed: a lane writes only the non-zero values of its rows.
fn allocate<'py>(py: Python<'py>, game: GameId, envs: usize, players: usize) -> Arrays<'py> {
    let mut observation_dims = vec![envs, players];
    observation_dims.extend_from_slice(game.observation_shape());
    (
        PyArray::zeros(py, observation_dims, false),
        PyArray::zeros(py, vec![envs, players, game.num_actions()], false),
        PyArray::zeros(py, vec![envs, players], false),
        PyArray::zeros(py, vec![envs, players], false),
        PyArray::zeros(py, vec![envs, players], false),
        PyArray::zeros(py, vec![envs, players], false),
    )
}

impl VecEnv {
    fn batch(&self) -> std::sync::MutexGuard<'_, Batch> {
        self.batch.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The arrays of this call: fresh zeroed ones (`copy=True`; `false`: nothing to clear), or
    /// the batch's own, made once (`copy=False`; `true`: each lane clears its rows first). A
    /// reused array that Python made read-only, or that is borrowed, is replaced by a new one.
    fn outputs<'py>(&self, py: Python<'py>, batch: &Batch) -> (Arrays<'py>, bool) {
        if self.copy {
            return (allocate(py, batch.game, self.num_envs, batch.players), false);
        }
        let mut reused = self.reused.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let usable = reused.as_ref().is_some_and(|r| {
            r.observations.bind(py).try_readwrite().is_ok()
                && r.masks.bind(py).try_readwrite().is_ok()
                && r.rewards.bind(py).try_readwrite().is_ok()
                && r.terminations.bind(py).try_readwrite().is_ok()
                && r.to_act.bind(py).try_readwrite().is_ok()
                && r.score_deltas.bind(py).try_readwrite().is_ok()
        });
        if !usable {
            let a = allocate(py, batch.game, self.num_envs, batch.players);
            *reused = Some(Reused {
                observations: a.0.unbind(),
                masks: a.1.unbind(),
                rewards: a.2.unbind(),
                terminations: a.3.unbind(),
                to_act: a.4.unbind(),
                score_deltas: a.5.unbind(),
            });
        }
        let r = reused.as_ref().expect("made above");
        let arrays = (
            r.observations.bind(py).clone(),
            r.masks.bind(py).clone(),
            r.rewards.bind(py).clone(),
            r.terminations.bind(py).clone(),
            r.to_act.bind(py).clone(),
            r.score_deltas.bind(py).clone(),
        );
        (arrays, true)
    }

    /// Gets the outputs ([`VecEnv::outputs`]), runs `work` on every lane with the GIL released
    /// (its rows cleared first when the arrays are reused), and returns the arrays
    /// (observations, masks, rewards, terminations, to_act, score_deltas).
    fn run<'py, F>(&self, py: Python<'py>, work: F) -> PyResult<Arrays<'py>>
    where
        F: Fn(usize, &mut Lane, Out<'_>) -> Result<(), StepError> + Sync + Send,
    {
        let mut batch = self.batch();
        let (arrays, clear) = self.outputs(py, &batch);
        let work = |i: usize, lane: &mut Lane, mut out: Out<'_>| {
            if clear {
                Batch::clear_rows(lane, &mut out);
            }
            work(i, lane, out)
        };
        {
            let mut observations = arrays.0.readwrite();
            let mut masks = arrays.1.readwrite();
            let mut rewards = arrays.2.readwrite();
            let mut terminations = arrays.3.readwrite();
            let mut to_act = arrays.4.readwrite();
            let mut score_deltas = arrays.5.readwrite();
            let slices = Out {
                observations: observations.as_slice_mut()?,
                masks: masks.as_slice_mut()?,
                rewards: rewards.as_slice_mut()?,
                terminations: terminations.as_slice_mut()?,
                to_act: to_act.as_slice_mut()?,
                score_deltas: score_deltas.as_slice_mut()?,
            };
            let batch = &mut *batch;
            py.allow_threads(|| batch.for_each(slices, work))?;
        }
        Ok(arrays)
    }
}

#[pymethods]
impl VecEnv {
    /// `num_envs` games of `game`; game `i` starts from seed `seed + i`, and its k-th automatic
    /// reset uses `seed + i + k·num_envs`. `threads`: pool size (default: all cores; 1 steps in
    /// the calling thread). `path`: `"typed"` steps the fast twin's typed state (with
    /// `engine="fast"`), `"view"` the text-level engine and its views. `copy`: fresh arrays on
    /// every call (`True`), or the same arrays overwritten by every call (`False`).
    #[new]
    #[pyo3(signature = (game, num_envs, seed=1, threads=None, engine="fast", league=None, path="typed", copy=true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        num_envs: usize,
        seed: i64,
        threads: Option<usize>,
        engine: &str,
        league: Option<u32>,
        path: &str,
        copy: bool,
    ) -> PyResult<Self> {
        let game = game_id(game)?;
        let kind = engine_kind(engine)?;
        let path = Path::from_name(path).ok_or_else(|| {
            PyValueError::new_err(format!("unknown path {path:?}: expected \"typed\" or \"view\""))
        })?;
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        let threads = match threads {
            Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        // The calling thread is one of the `threads`: the pool has the others.
        let pool = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads - 1)
                .build()
                .map_err(|e| PyValueError::new_err(format!("thread pool: {e}")))?;
            Some(pool)
        } else {
            None
        };
        let lanes = (0..num_envs)
            .map(|i| {
                let seed = seed.wrapping_add(i as i64);
                lanes::lane(game, kind, path, seed, league).map(|game| Lane { game, seed })
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(PyValueError::new_err)?;
        let players = lanes[0].game.num_players();
        Ok(VecEnv {
            batch: Mutex::new(Batch { game, lanes, players, pool }),
            num_envs,
            reused: Mutex::new(None),
            copy,
        })
    }

    /// Number of games in the batch.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// Players per game.
    #[getter]
    fn num_players(&self) -> usize {
        self.batch().players
    }

    /// The lanes' path: `"typed"` (the fast twin's typed state) or `"view"` (the text-level
    /// engine and its views).
    #[getter]
    fn path(&self) -> &'static str {
        self.batch().lanes[0].game.path()
    }

    /// Whether every call returns fresh arrays (else the same ones, overwritten).
    #[getter]
    fn copy(&self) -> bool {
        self.copy
    }

    /// The seed each game was set up with.
    fn seeds(&self) -> Vec<i64> {
        self.batch().lanes.iter().map(|l| l.seed).collect()
    }

    /// Sets every game up again (game `i` from `seed + i` when `seed` is given, else from its
    /// current seed) and returns `(observations, masks, to_act)`.
    #[pyo3(signature = (seed=None))]
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<i64>,
    ) -> PyResult<(
        Bound<'py, PyArrayDyn<f32>>,
        Bound<'py, PyArrayDyn<i8>>,
        Bound<'py, PyArrayDyn<bool>>,
    )> {
        let game = self.batch().game;
        let arrays = self.run(py, |i, lane, mut out| {
            if let Some(seed) = seed {
                lane.seed = seed.wrapping_add(i as i64);
            }
            lane.game.reset(lane.seed).map_err(StepError::BadAction)?;
            Batch::write_state(&*lane.game, &mut out, game.observation_len(), game.num_actions());
            Ok(())
        })?;
        Ok((arrays.0, arrays.1, arrays.4))
    }

    /// Plays one turn of every game: `actions[i, p]` is player `p`'s action index in game `i`
    /// (ignored for players not to act). Returns `(observations, masks, rewards, terminations,
    /// to_act, score_deltas)`; a game that ended is set up again at once (its rewards and
    /// terminations are this step's, its observations the new game's).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: PyReadonlyArray2<'py, i64>,
    ) -> PyResult<Arrays<'py>> {
        let (game, players) = {
            let batch = self.batch();
            (batch.game, batch.players)
        };
        let shape = actions.shape();
        if shape != [self.num_envs, players] {
            return Err(PyValueError::new_err(format!(
                "actions must have shape ({}, {players}) (num_envs, num_players), found {shape:?}",
                self.num_envs
            )));
        }
        let actions: Vec<i64> = actions.as_array().iter().copied().collect();
        let n = game.num_actions() as i64;
        {
            // Checked before any game moves, so a bad batch changes nothing.
            let batch = self.batch();
            for (i, lane) in batch.lanes.iter().enumerate() {
                for p in 0..players {
                    let index = actions[i * players + p];
                    if lane.game.to_act()[p] && !(0..n).contains(&index) {
                        return Err(PyValueError::new_err(format!(
                            "actions[{i}, {p}] = {index} is outside Discrete({n})"
                        )));
                    }
                }
            }
        }
        let num_envs = self.num_envs as i64;
        self.run(py, |i, lane, out| {
            Batch::step_lane(game, lane, &actions[i * players..(i + 1) * players], out, num_envs)
        })
    }
}

/// For `python/bench.py`: `num_envs` typed lanes of `game` stepped `steps` times from Rust
/// alone, in one thread, into reused rows: what `VecEnv(copy=False, threads=1).step` does,
/// without Python (no call, no arrays handed over). Each step's actions are random allowed
/// indices drawn from the masks outside the timed region (the policy's part, as in the
/// Python benchmark). Returns the time spent stepping.
pub(crate) fn lanes_seconds(
    game: GameId,
    num_envs: usize,
    steps: usize,
    seed: i64,
) -> Result<std::time::Duration, String> {
    let lanes = (0..num_envs.max(1))
        .map(|i| {
            let seed = seed.wrapping_add(i as i64);
            let kind = twinsim_reference::game::EngineKind::Fast;
            lanes::lane(game, kind, Path::Typed, seed, None).map(|game| Lane { game, seed })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (num_envs, players) = (lanes.len(), lanes[0].game.num_players());
    let mut batch = Batch { game, lanes, players, pool: None };
    let (observation_len, num_actions) = (game.observation_len(), game.num_actions());
    let seats = num_envs * players;
    let mut observations = vec![0.0f32; seats * observation_len];
    let mut masks = vec![0i8; seats * num_actions];
    let (mut rewards, mut deltas) = (vec![0.0f32; seats], vec![0.0f32; seats]);
    let (mut terminations, mut to_act) = (vec![false; seats], vec![false; seats]);
    macro_rules! out {
        () => {
            Out {
                observations: &mut observations,
                masks: &mut masks,
                rewards: &mut rewards,
                terminations: &mut terminations,
                to_act: &mut to_act,
                score_deltas: &mut deltas,
            }
        };
    }
    batch
        .for_each(out!(), |_, lane, mut out| {
            Batch::write_state(&*lane.game, &mut out, observation_len, num_actions);
            Ok(())
        })
        .map_err(|e| format!("{e:?}"))?;
    let mut rng = twinsim_reference::java_random::JavaRandom::new(seed);
    let mut actions = vec![0i64; seats];
    let mut spent = std::time::Duration::ZERO;
    for _ in 0..steps {
        for (action, mask) in actions.iter_mut().zip(masks.chunks(num_actions)) {
            let allowed = mask.iter().filter(|&&m| m != 0).count();
            *action = if allowed == 0 {
                0
            } else {
                let k = rng.next_below(allowed as i32) as usize;
                mask.iter().enumerate().filter(|(_, &m)| m != 0).nth(k).map_or(0, |(i, _)| i) as i64
            };
        }
        let start = std::time::Instant::now();
        batch
            .for_each(out!(), |i, lane, mut out| {
                Batch::clear_rows(lane, &mut out);
                let own = &actions[i * players..(i + 1) * players];
                Batch::step_lane(game, lane, own, out, num_envs as i64)
            })
            .map_err(|e| format!("{e:?}"))?;
        spent += start.elapsed();
    }
    Ok(spent)
}
