//! `VecEnv`: many games of one game stepped together on a thread pool, the GIL released, every
//! result written straight into the numpy arrays handed back to Python.
//!
//! Two ways to hand them back, Gymnasium's `copy` flag: fresh arrays on every call (`copy=True`,
//! zero-filled by numpy, so a lane writes only its non-zero values), or the same arrays every
//! call (`copy=False`: allocated once, overwritten in place by the next call, each lane clearing
//! its own rows on the pool before writing them). The second is the zero-copy one: nothing is
//! allocated or cleared in the calling thread, so no serial pass over the batch's bytes remains
//! (a 1024-game X-mas Rush batch is 9 MB of observations), and the threads share all the work.

use crate::codec::{with_number, GameCodec, GameId};
use crate::lanes::{self, Path};
use crate::slot::StepError;
use crate::{engine_kind, game_id, step_error};
use numpy::{PyArray, PyArrayDyn, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

/// An observation's number type that numpy arrays can hold (`twinsim-obs` knows no numpy).
trait Number: crate::codec::Number + numpy::Element {}
impl<T: crate::codec::Number + numpy::Element> Number for T {}

/// The most games one batch holds: 2^20. Beyond it the output arrays alone run to gigabytes
/// (an X-mas Rush step writes 2.3 KB a game), and a request for 10^9 games is a mistake that
/// must be an error, not an allocation that aborts the interpreter.
pub(crate) const MAX_NUM_ENVS: usize = 1 << 20;

/// The most threads one batch steps on: 256. More threads than cores only wait on each other
/// (5,000 workers took minutes to start and never finished a step).
pub(crate) const MAX_THREADS: usize = 256;

/// The referee seed played for the batch's seed `seed`. Olymbits' referee cannot replay seed 0
/// (its SHA1PRNG ignores `setSeed(0)`, rules §3.1): it is played as the seed the PettingZoo
/// envs play for 0 (`numpy.random.default_rng(0).integers(1, 2**31)`, `_envs.py`), so an
/// automatic reset that reaches 0 is a game like any other and seeds map the same way in both.
pub(crate) fn referee_seed(game: GameId, seed: i64) -> i64 {
    const OLYMBITS_SEED_ZERO: i64 = 1_826_701_615;
    if game == GameId::Olymbits && seed == 0 {
        OLYMBITS_SEED_ZERO
    } else {
        seed
    }
}

/// One game of the batch and the seed it was set up with.
struct Lane<T: Number> {
    game: Box<dyn lanes::Lane<T>>,
    seed: i64,
    /// Every seat's observation of the game that ended in the last step, before it was set up
    /// again (Gymnasium's `final_obs`); taken by the step that hands it to Python.
    final_observation: Option<Vec<T>>,
}

/// The batch's games and the pool that steps them.
struct Batch<T: Number> {
    game: GameId,
    lanes: Vec<Lane<T>>,
    players: usize,
    pool: Option<rayon::ThreadPool>,
    /// Counts the calls that used the pool; a worker kept spinning after a call stops when
    /// it changes (see [`Batch::keep_workers_awake`]).
    calls: Arc<AtomicU64>,
    /// How long the pool's workers keep spinning after a call, waiting for the next one.
    spin: std::time::Duration,
    /// The process whose threads the pool's workers are: after `fork()` the child has none of
    /// them, so its first call builds a pool of its own ([`Core::lock`]).
    pid: u32,
}

/// Where results go: the output arrays' data, or one game's rows of them.
struct Out<'a, T> {
    observations: &'a mut [T],
    masks: &'a mut [i8],
    rewards: &'a mut [f32],
    terminations: &'a mut [bool],
    to_act: &'a mut [bool],
    score_deltas: &'a mut [f32],
}

/// The output arrays of one call, as numpy arrays of shape `(num_envs, num_players, ...)`.
type Arrays<'py, T> = (
    Bound<'py, PyArrayDyn<T>>,
    Bound<'py, PyArrayDyn<i8>>,
    Bound<'py, PyArrayDyn<f32>>,
    Bound<'py, PyArrayDyn<bool>>,
    Bound<'py, PyArrayDyn<bool>>,
    Bound<'py, PyArrayDyn<f32>>,
);

impl<T: Number> Batch<T> {
    /// Zeroes one game's rows of a reused array before they are written (its observation and
    /// mask rows only if the lane does not write them whole).
    fn clear_rows(lane: &Lane<T>, out: &mut Out<'_, T>) {
        if !lane.game.writes_whole_observation() {
            out.observations.fill(T::default());
        }
        if !lane.game.writes_whole_mask() {
            out.masks.fill(0);
        }
        out.rewards.fill(0.0);
        out.terminations.fill(false);
        out.to_act.fill(false);
        out.score_deltas.fill(0.0);
    }

    /// Plays game `i`'s turn from its players' action indices (`actions`, one per seat) and
    /// writes its rows: rewards, score changes, the end, and the next state's observations,
    /// masks and seats to act (a finished game's observations are kept in
    /// [`Lane::final_observation`], then it is set up again, from its seed plus `num_envs`).
    /// The rows are zeros, or written whole.
    pub(crate) fn step_lane(
        game: GameId,
        lane: &mut Lane<T>,
        actions: &[i64],
        mut out: Out<'_, T>,
        num_envs: i64,
    ) -> Result<(), StepError> {
        // A game that ended in a step that then failed elsewhere is not reported again.
        lane.final_observation = None;
        lane.game.step_indices(actions)?;
        out.rewards.copy_from_slice(lane.game.rewards());
        lane.game.score_deltas(out.score_deltas);
        if lane.game.is_over() {
            out.terminations.fill(true);
            let len = game.observation_len();
            let mut last = vec![T::default(); lane.game.num_players() * len];
            lane.game.observe_all(&mut last, len);
            lane.final_observation = Some(last);
            lane.seed = lane.seed.wrapping_add(num_envs);
            lane.game.reset(referee_seed(game, lane.seed)).map_err(StepError::BadAction)?;
        }
        Self::write_state(&*lane.game, &mut out, game.observation_len(), game.num_actions());
        Ok(())
    }

    /// Writes one game's observations, masks and seats to act.
    fn write_state(
        game: &dyn lanes::Lane<T>,
        out: &mut Out<'_, T>,
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
        out: Out<'a, T>,
        lanes: usize,
        (players, observation_len, num_actions): (usize, usize, usize),
    ) -> impl Iterator<Item = Out<'a, T>> {
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

    /// Gives every pool worker a job that spins until the next call begins, for at most
    /// `spin`: a worker that went to sleep while the caller's policy ran takes tens of
    /// microseconds to wake (about 60 µs on a 2-core VM), more than a small batch's whole
    /// step. Spinning keeps its core busy meanwhile, so `spin` is the caller's choice.
    fn keep_workers_awake(&self) {
        let (Some(pool), false) = (&self.pool, self.spin.is_zero()) else { return };
        let call = self.calls.load(Ordering::Acquire);
        for _ in 0..pool.current_num_threads() {
            let (calls, spin) = (Arc::clone(&self.calls), self.spin);
            pool.spawn(move || {
                let start = std::time::Instant::now();
                while calls.load(Ordering::Acquire) == call && start.elapsed() < spin {
                    for _ in 0..32 {
                        std::hint::spin_loop();
                    }
                }
            });
        }
    }

    /// Stops the workers spinning since the last call (they go to sleep at once).
    fn release_workers(&self) {
        self.calls.fetch_add(1, Ordering::Release);
    }

    /// Runs `work` on every lane with its output rows: in this thread alone, or in this
    /// thread and the pool's.
    fn for_each<F>(&mut self, arrays: Out<'_, T>, work: F) -> Result<(), StepError>
    where
        F: Fn(usize, &mut Lane<T>, Out<'_, T>) -> Result<(), StepError> + Sync,
    {
        let sizes = (self.players, self.game.observation_len(), self.game.num_actions());
        // A piece of consecutive games and their rows: games `first..first + lanes.len()`.
        let run_piece = |first: usize, lanes: &mut [Lane<T>], out: Out<'_, T>| {
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
        // The workers kept spinning since the last call take this call's jobs at once, with
        // no wake-up (`release_workers`, on the field: the lanes are borrowed by the chunks).
        self.calls.fetch_add(1, Ordering::Release);
        let finished = AtomicUsize::new(0);
        pool.in_place_scope(|scope| {
            for _ in 1..threads {
                scope.spawn(|_| {
                    drain(false);
                    finished.fetch_add(1, Ordering::Release);
                });
            }
            drain(true);
            // Waits for the workers spinning, not asleep: a caller that blocks leaves its core
            // idle, and waking it again costs as much as waking a worker.
            let start = std::time::Instant::now();
            while finished.load(Ordering::Acquire) < threads - 1 && start.elapsed() < self.spin {
                std::hint::spin_loop();
            }
        });
        self.keep_workers_awake();
        match failure.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()) {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

impl<T: Number> Drop for Batch<T> {
    /// A batch gone does not leave its workers spinning out their `spin`. In a forked child
    /// that never used it, its pool is the parent's and is left alone (see [`Core::own_pool`]).
    fn drop(&mut self) {
        self.release_workers();
        if self.pid != std::process::id() {
            std::mem::forget(self.pool.take());
        }
    }
}

/// The arrays a `copy=False` batch hands back on every call.
struct Reused<T> {
    observations: Py<PyArrayDyn<T>>,
    masks: Py<PyArrayDyn<i8>>,
    rewards: Py<PyArrayDyn<f32>>,
    terminations: Py<PyArrayDyn<bool>>,
    to_act: Py<PyArrayDyn<bool>>,
    score_deltas: Py<PyArrayDyn<f32>>,
}

/// A batch and its reused arrays, observations in the game's number type `T`.
///
/// Every call locks `batch` through [`Core::lock`], which never waits for the lock while it
/// holds the GIL: a thread that held the GIL while it waited for the lock would deadlock with
/// the thread that holds the lock and waits for the GIL to come back from `allow_threads`.
struct Core<T: Number> {
    batch: Mutex<Batch<T>>,
    /// `copy=False`: the arrays every call writes and returns (made by the first call; locked
    /// only under `batch`).
    reused: Mutex<Option<Reused<T>>>,
    /// The process that last held `batch` ([`Batch::pid`]), readable without the lock: a
    /// child of `fork()` that finds the lock taken knows no thread of its own can release it.
    pid: AtomicU32,
}
/// The batch of a game, in its observations' number type ([`GameId::dtype`]).
enum Cores {
    I8(Core<i8>),
    I16(Core<i16>),
    I32(Core<i32>),
}

/// Evaluates `$body` with `$core` bound to the batch's [`Core`], whatever its number type.
macro_rules! with_core {
    ($cores:expr, $core:ident => $body:expr) => {
        match $cores {
            Cores::I8($core) => $body,
            Cores::I16($core) => $body,
            Cores::I32($core) => $body,
        }
    };
}

/// A batch of `num_envs` games of one game (the core under `twinsim.VecEnv`).
#[pyclass(module = "twinsim._core")]
pub struct VecEnv {
    cores: Cores,
    game: GameId,
    players: usize,
    num_envs: usize,
    copy: bool,
}

/// Zeroed: a lane writes only the non-zero values of its rows.
fn allocate<T: Number>(py: Python<'_>, game: GameId, envs: usize, players: usize) -> Arrays<'_, T> {
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

/// The arrays of one call handed to Python, the observations in whatever number type.
type AnyArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyArrayDyn<i8>>,
    Bound<'py, PyArrayDyn<f32>>,
    Bound<'py, PyArrayDyn<bool>>,
    Bound<'py, PyArrayDyn<bool>>,
    Bound<'py, PyArrayDyn<f32>>,
);

/// A step's arrays, the indices of the games that ended in it, and those games' final
/// observations (shape `(ended, num_players, *observation_shape)`; `None` when none ended).
type StepArrays<'py> = (AnyArrays<'py>, Vec<usize>, Option<Bound<'py, PyAny>>);

fn any_arrays<T: Number>(arrays: Arrays<'_, T>) -> AnyArrays<'_> {
    (arrays.0.into_any(), arrays.1, arrays.2, arrays.3, arrays.4, arrays.5)
}

impl<T: Number> Core<T> {
    fn new(batch: Batch<T>) -> Self {
        let pid = AtomicU32::new(batch.pid);
        Core { batch: Mutex::new(batch), reused: Mutex::new(None), pid }
    }

    /// Locks the batch for one call. While another thread's call holds it, this one waits
    /// with the GIL released (and lets Ctrl-C through between waits); in a child of `fork()`
    /// the first call replaces the pool, whose workers stayed in the parent.
    fn lock(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Batch<T>>> {
        loop {
            match self.batch.try_lock() {
                Ok(batch) => return self.own_pool(batch),
                Err(TryLockError::Poisoned(poisoned)) => {
                    return self.own_pool(poisoned.into_inner())
                }
                Err(TryLockError::WouldBlock) => {
                    if self.pid.load(Ordering::Acquire) != std::process::id() {
                        return Err(PyRuntimeError::new_err(
                            "this VecEnv was being stepped by another thread when the process \
                             forked: that call never ends in the child, so the batch is unusable \
                             here; make a new VecEnv in the child",
                        ));
                    }
                    // Waits for the lock without holding it or the GIL (a guard cannot leave
                    // `allow_threads`), then tries again.
                    py.allow_threads(|| drop(self.batch.lock()));
                    py.check_signals()?;
                }
            }
        }
    }

    /// `batch`, its pool rebuilt first if the process forked since the pool was made: the
    /// old pool's workers are the parent's threads, absent here.
    fn own_pool<'a>(
        &self,
        mut batch: MutexGuard<'a, Batch<T>>,
    ) -> PyResult<MutexGuard<'a, Batch<T>>> {
        let pid = std::process::id();
        if batch.pid != pid {
            if let Some(old) = batch.pool.take() {
                let workers = old.current_num_threads();
                // Dropped, the old pool would signal workers that do not exist in this
                // process, through locks a parent's thread may have held at the fork.
                std::mem::forget(old);
                batch.pool = Some(build_pool(workers)?);
            }
            batch.pid = pid;
            self.pid.store(pid, Ordering::Release);
        }
        Ok(batch)
    }

    /// The arrays of this call: fresh zeroed ones (`copy=True`; `false`: nothing to clear), or
    /// the batch's own, made once (`copy=False`; `true`: each lane clears its rows first). A
    /// reused array that Python made read-only, or that is borrowed, is replaced by a new one.
    fn outputs<'py>(
        &self,
        py: Python<'py>,
        batch: &Batch<T>,
        copy: bool,
    ) -> (Arrays<'py, T>, bool) {
        let num_envs = batch.lanes.len();
        if copy {
            return (allocate(py, batch.game, num_envs, batch.players), false);
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
            let a = allocate(py, batch.game, num_envs, batch.players);
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

    /// Gets the outputs ([`Core::outputs`]), runs `work` on every lane with the GIL released
    /// (its rows cleared first when the arrays are reused), and returns the arrays
    /// (observations, masks, rewards, terminations, to_act, score_deltas).
    ///
    /// `check` sees the batch first, under the same lock: an error there returns with nothing
    /// changed.
    fn run<'py, C, F>(
        &self,
        py: Python<'py>,
        copy: bool,
        check: C,
        work: F,
    ) -> PyResult<(Arrays<'py, T>, MutexGuard<'_, Batch<T>>)>
    where
        C: FnOnce(&Batch<T>) -> PyResult<()>,
        F: Fn(usize, &mut Lane<T>, Out<'_, T>) -> Result<(), StepError> + Sync + Send,
    {
        let mut batch = self.lock(py)?;
        check(&batch)?;
        let (arrays, clear) = self.outputs(py, &batch, copy);
        let work = |i: usize, lane: &mut Lane<T>, mut out: Out<'_, T>| {
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
            py.allow_threads(|| batch.for_each(slices, work)).map_err(step_error)?;
        }
        Ok((arrays, batch))
    }

    /// [`VecEnv::reset`] on this batch.
    fn reset<'py>(
        &self,
        py: Python<'py>,
        game: GameId,
        seed: Option<i64>,
        copy: bool,
    ) -> PyResult<AnyArrays<'py>> {
        let (arrays, batch) = self.run(
            py,
            copy,
            |_| Ok(()),
            |i, lane, mut out| {
                lane.final_observation = None;
                if let Some(seed) = seed {
                    lane.seed = seed.wrapping_add(i as i64);
                }
                lane.game.reset(referee_seed(game, lane.seed)).map_err(StepError::BadAction)?;
                Batch::write_state(
                    &*lane.game,
                    &mut out,
                    game.observation_len(),
                    game.num_actions(),
                );
                Ok(())
            },
        )?;
        drop(batch);
        Ok(any_arrays(arrays))
    }

    /// [`VecEnv::step`] on this batch, `actions` of shape `(num_envs, players)` flattened.
    fn step<'py>(
        &self,
        py: Python<'py>,
        (game, players, num_envs): (GameId, usize, usize),
        actions: &[i64],
        copy: bool,
    ) -> PyResult<StepArrays<'py>> {
        let n = game.num_actions() as i64;
        // Checked before any game moves, under the lock the step holds, so a bad batch
        // changes nothing.
        let check = |batch: &Batch<T>| {
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
            Ok(())
        };
        let num_envs = num_envs as i64;
        let (arrays, mut batch) = self.run(py, copy, check, |i, lane, out| {
            Batch::step_lane(game, lane, &actions[i * players..(i + 1) * players], out, num_envs)
        })?;
        // The games that ended, taken under the step's lock, in the calling thread: a few
        // a step (one game in `turns`), so copying them here costs little.
        let mut ended = Vec::new();
        let mut finals = Vec::new();
        for (i, lane) in batch.lanes.iter_mut().enumerate() {
            if let Some(last) = lane.final_observation.take() {
                ended.push(i);
                finals.extend_from_slice(&last);
            }
        }
        drop(batch);
        let final_observations = if ended.is_empty() {
            None
        } else {
            let mut dims = vec![ended.len(), players];
            dims.extend_from_slice(game.observation_shape());
            Some(PyArray::from_vec(py, finals).reshape(dims)?.into_any())
        };
        Ok((any_arrays(arrays), ended, final_observations))
    }
}

/// A pool of `workers` threads.
fn build_pool(workers: usize) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("thread pool of {workers} workers: {e}")))
}

/// `num_envs` lanes of `game` from `seed` (game `i` from `seed + i`), each paired with its seed.
/// The vector is reserved first, so a batch too big for memory is an error, not an abort.
fn make_lanes<T: Number>(
    game: GameId,
    kind: twinsim_reference::game::EngineKind,
    path: Path,
    num_envs: usize,
    seed: i64,
    league: Option<u32>,
) -> Result<Vec<Lane<T>>, LanesError> {
    let mut lanes = Vec::new();
    lanes.try_reserve_exact(num_envs).map_err(|_| LanesError::Memory)?;
    for i in 0..num_envs {
        let seed = seed.wrapping_add(i as i64);
        let lane = lanes::lane(game, kind, path, referee_seed(game, seed), league)
            .map_err(LanesError::Setup)?;
        lanes.push(Lane { game: lane, seed, final_observation: None });
    }
    Ok(lanes)
}

/// Why [`make_lanes`] made no batch.
#[derive(Debug)]
enum LanesError {
    /// The lanes' vector could not be allocated.
    Memory,
    /// A game could not be set up (the message says why).
    Setup(String),
}

impl From<LanesError> for PyErr {
    fn from(error: LanesError) -> Self {
        match error {
            LanesError::Memory => PyMemoryError::new_err("not enough memory for the batch's games"),
            LanesError::Setup(message) => PyValueError::new_err(message),
        }
    }
}

#[pymethods]
impl VecEnv {
    /// `num_envs` games of `game`; game `i` starts from seed `seed + i`, and its k-th automatic
    /// reset uses `seed + i + k·num_envs` (Olymbits' seed 0, which its referee cannot replay,
    /// plays the seed the PettingZoo envs play for 0). `num_envs`: 1 to 2^20 ([`MAX_NUM_ENVS`]).
    /// `threads`: 1 to 256 ([`MAX_THREADS`]), default 1: the games are stepped in the calling
    /// thread, never slower than a pool whose workers share their cores with other work. `path`:
    /// `"typed"` steps the fast twin's typed state (with `engine="fast"`), `"view"` the
    /// text-level engine and its views. `copy`: fresh arrays on every call (`True`), or the same
    /// arrays overwritten by every call (`False`). `spin`: seconds the pool's workers keep
    /// spinning after a call, waiting for the next (0: they sleep at once).
    #[new]
    #[pyo3(signature = (game, num_envs, seed=1, threads=None, engine="fast", league=None, path="typed", copy=true, spin=0.002))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        num_envs: usize,
        seed: i64,
        threads: Option<usize>,
        engine: &str,
        league: Option<u32>,
        path: &str,
        copy: bool,
        spin: f64,
    ) -> PyResult<Self> {
        let game = game_id(game)?;
        let kind = engine_kind(engine)?;
        let path = Path::from_name(path).ok_or_else(|| {
            PyValueError::new_err(format!("unknown path {path:?}: expected \"typed\" or \"view\""))
        })?;
        if !(1..=MAX_NUM_ENVS).contains(&num_envs) {
            return Err(PyValueError::new_err(format!(
                "num_envs must be 1 to {MAX_NUM_ENVS} (2^20), not {num_envs}"
            )));
        }
        let threads = threads.unwrap_or(1);
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(PyValueError::new_err(format!(
                "threads must be 1 to {MAX_THREADS}, not {threads}"
            )));
        }
        let spin = std::time::Duration::try_from_secs_f64(spin).map_err(|_| {
            PyValueError::new_err(format!("spin must be a number of seconds, 0 or more: {spin}"))
        })?;
        let players = game.num_players();
        // The output arrays of the first call, made once here through numpy's own
        // constructor: one too big for memory raises MemoryError now, where rust-numpy's
        // constructor would panic on the same failure later.
        let mut observation_dims = vec![num_envs, players];
        observation_dims.extend_from_slice(game.observation_shape());
        py.import("numpy")?.getattr("zeros")?.call1((observation_dims, game.dtype().name()))?;
        let cores = with_number!(game.dtype(), N => {
            // The calling thread is one of the `threads`: the pool has the others.
            let pool = if threads > 1 { Some(build_pool(threads - 1)?) } else { None };
            let lanes = py.allow_threads(|| make_lanes::<N>(game, kind, path, num_envs, seed, league))?;
            let pid = std::process::id();
            let batch = Batch { game, lanes, players, pool, calls: Default::default(), spin, pid };
            Cores::from(Core::new(batch))
        });
        Ok(VecEnv { cores, game, players, num_envs, copy })
    }

    /// Number of games in the batch.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// Players per game.
    #[getter]
    fn num_players(&self) -> usize {
        self.players
    }

    /// The observations' number type, as numpy names it (`"int8"`, `"int16"`, `"int32"`).
    #[getter]
    fn dtype(&self) -> &'static str {
        self.game.dtype().name()
    }

    /// The lanes' path: `"typed"` (the fast twin's typed state) or `"view"` (the text-level
    /// engine and its views).
    #[getter]
    fn path(&self, py: Python<'_>) -> PyResult<&'static str> {
        with_core!(&self.cores, core => Ok(core.lock(py)?.lanes[0].game.path()))
    }

    /// Whether every call returns fresh arrays (else the same ones, overwritten).
    #[getter]
    fn copy(&self) -> bool {
        self.copy
    }

    /// Stops the pool's workers spinning since the last call (the batch stays usable: the
    /// next call wakes them).
    fn release_workers(&self, py: Python<'_>) -> PyResult<()> {
        with_core!(&self.cores, core => core.lock(py)?.release_workers());
        Ok(())
    }

    /// The seed each game was set up with.
    fn seeds(&self, py: Python<'_>) -> PyResult<Vec<i64>> {
        with_core!(&self.cores, core => Ok(core.lock(py)?.lanes.iter().map(|l| l.seed).collect()))
    }

    /// Sets every game up again (game `i` from `seed + i` when `seed` is given, else from its
    /// current seed) and returns `(observations, masks, to_act)`.
    #[pyo3(signature = (seed=None))]
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<i64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArrayDyn<i8>>, Bound<'py, PyArrayDyn<bool>>)>
    {
        let arrays = with_core!(&self.cores, core => core.reset(py, self.game, seed, self.copy))?;
        Ok((arrays.0, arrays.1, arrays.4))
    }

    /// Plays one turn of every game: `actions[i, p]` is player `p`'s action index in game `i`
    /// (ignored for players not to act). Returns `((observations, masks, rewards,
    /// terminations, to_act, score_deltas), ended, final_observations)`; a game that ended is
    /// set up again at once (its rewards and terminations are this step's, its observations
    /// the new game's): `ended` lists those games, and `final_observations` (`None` when the
    /// list is empty) holds, in that order, every seat's observation of each at its end.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: PyReadonlyArray2<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        let shape = actions.shape();
        if shape != [self.num_envs, self.players] {
            return Err(PyValueError::new_err(format!(
                "actions must have shape ({}, {}) (num_envs, num_players), found {shape:?}",
                self.num_envs, self.players
            )));
        }
        let actions: Vec<i64> = actions.as_array().iter().copied().collect();
        let sizes = (self.game, self.players, self.num_envs);
        with_core!(&self.cores, core => core.step(py, sizes, &actions, self.copy))
    }
}

impl From<Core<i8>> for Cores {
    fn from(core: Core<i8>) -> Self {
        Cores::I8(core)
    }
}
impl From<Core<i16>> for Cores {
    fn from(core: Core<i16>) -> Self {
        Cores::I16(core)
    }
}
impl From<Core<i32>> for Cores {
    fn from(core: Core<i32>) -> Self {
        Cores::I32(core)
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
    with_number!(game.dtype(), N => lanes_seconds_in::<N>(game, num_envs, steps, seed))
}

/// [`lanes_seconds`] with observations of type `T`.
fn lanes_seconds_in<T: Number>(
    game: GameId,
    num_envs: usize,
    steps: usize,
    seed: i64,
) -> Result<std::time::Duration, String> {
    let kind = twinsim_reference::game::EngineKind::Fast;
    let lanes = make_lanes::<T>(game, kind, Path::Typed, num_envs.max(1), seed, None)
        .map_err(|e| format!("{e:?}"))?;
    let (num_envs, players) = (lanes.len(), lanes[0].game.num_players());
    let spin = std::time::Duration::ZERO;
    let pid = std::process::id();
    let mut batch =
        Batch { game, lanes, players, pool: None, calls: Default::default(), spin, pid };
    let (observation_len, num_actions) = (game.observation_len(), game.num_actions());
    let seats = num_envs * players;
    let mut observations = vec![T::default(); seats * observation_len];
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
        // What `VecEnv::step` does with the games that ended, but for building the array.
        for lane in &mut batch.lanes {
            std::hint::black_box(lane.final_observation.take());
        }
        spent += start.elapsed();
    }
    Ok(spent)
}
