"""VecEnv equals single games stepped one by one, with and without threads."""

from __future__ import annotations

import gc
import time

import numpy as np
import pytest
from conftest import random_legal

import twinsim
from twinsim import _core

NUM_ENVS = 5


@pytest.mark.parametrize("threads", [1, 2])
def test_vec_env_equals_single_games(game, threads):
    steps = 120  # longer than a Zuniq game, so automatic resets are compared too
    seed = 40
    vec = twinsim.VecEnv(game, NUM_ENVS, seed=seed, threads=threads)
    observations, infos = vec.reset()
    singles = [_core.Match(game, seed + i) for i in range(NUM_ENVS)]
    seeds = [seed + i for i in range(NUM_ENVS)]
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(steps):
        actions = np.zeros((NUM_ENVS, vec.num_players), dtype=np.int64)
        for i, single in enumerate(singles):
            for p in range(vec.num_players):
                expected_mask = single.mask(p)
                np.testing.assert_array_equal(observations["action_mask"][i, p], expected_mask)
                np.testing.assert_array_equal(observations["observation"][i, p], single.observe(p))
                assert infos["to_act"][i, p] == (p in single.to_act())
                if p in single.to_act():
                    actions[i, p] = random_legal(expected_mask, rng)
        observations, rewards, terminations, truncations, infos = vec.step(actions)
        assert not truncations.any()
        for i, single in enumerate(singles):
            single.step_indices(actions[i].tolist())
            np.testing.assert_array_equal(rewards[i], single.rewards())
            np.testing.assert_allclose(infos["score_delta"][i], single.score_deltas())
            assert terminations[i].all() == single.is_over()
            if single.is_over():
                finished += 1
                seeds[i] += NUM_ENVS
                single.reset(seeds[i])
        assert vec.seeds() == seeds
    if game == "zuniq":
        assert finished >= NUM_ENVS, "every Zuniq game ended and was set up again"


def test_reset_with_a_seed_sets_every_game_up_again():
    vec = twinsim.VecEnv("photosynthesis", 3, seed=0, threads=1)
    first, _ = vec.reset(seed=100)
    assert vec.seeds() == [100, 101, 102]
    again, _ = twinsim.VecEnv("photosynthesis", 3, seed=100, threads=2).reset()
    np.testing.assert_array_equal(first["observation"], again["observation"])


def lockstep(first, second, steps, seed):
    """Steps two batches of the same games with the same random allowed actions, requiring
    every array equal after the reset and after every step; yields each step's two outputs."""
    (obs_a, info_a), (obs_b, info_b) = first.reset(), second.reset()
    np.testing.assert_array_equal(info_a["to_act"], info_b["to_act"])
    rng = np.random.default_rng(seed)
    for step in range(steps):
        np.testing.assert_array_equal(obs_a["observation"], obs_b["observation"], f"step {step}")
        np.testing.assert_array_equal(obs_a["action_mask"], obs_b["action_mask"], f"step {step}")
        masks = obs_a["action_mask"]
        actions = (rng.random(masks.shape) + masks).argmax(axis=-1)
        out_a, out_b = first.step(actions), second.step(actions)
        for a, b in zip(out_a[1:4], out_b[1:4]):
            np.testing.assert_array_equal(a, b, f"step {step}")
        for key in ("to_act", "score_delta"):
            np.testing.assert_array_equal(out_a[4][key], out_b[4][key], f"step {step}")
        yield (obs_a, obs_b), (out_a, out_b)
        obs_a, obs_b = out_a[0], out_b[0]


@pytest.mark.parametrize("game", twinsim.GAMES)
def test_copy_false_reuses_its_arrays_and_equals_fresh_ones(game):
    """``copy=False`` hands back the same arrays every step, overwritten in place, with the
    numbers ``copy=True`` gives in fresh arrays, on one thread and on two."""
    fresh = twinsim.VecEnv(game, 5, seed=3, threads=1, copy=True)
    reused = twinsim.VecEnv(game, 5, seed=3, threads=2, copy=False)
    assert (fresh.copy, reused.copy) == (True, False)
    first = None
    for (obs_f, obs_r), (out_f, out_r) in lockstep(fresh, reused, 150, seed=4):
        first = obs_r["observation"] if first is None else first
        assert out_r[0]["observation"] is first, "copy=False returns the same array"
        assert out_f[0]["observation"] is not obs_f["observation"], "copy=True: a new one"


def test_a_reused_array_made_read_only_is_replaced_not_written():
    vec = twinsim.VecEnv("zuniq", 3, seed=1, threads=1, copy=False)
    observations, _ = vec.reset()
    kept = observations["observation"]
    kept.flags.writeable = False
    before = kept.copy()
    masks = observations["action_mask"]
    observations, *_ = vec.step(masks.argmax(axis=-1))
    assert observations["observation"] is not kept
    np.testing.assert_array_equal(kept, before)


#: The documented number type of each game's observations (python/README.md).
DTYPES = {
    "xmas-rush": np.int8,
    "photosynthesis": np.int16,
    "zuniq": np.int8,
    "olymbits": np.int32,
    "wondev-woman": np.int8,
}


@pytest.mark.parametrize("game", twinsim.GAMES)
def test_observations_are_the_documented_integers_within_their_space(game):
    """Every observation is in the game's documented integer type, in VecEnv, in the single
    environments and in their spaces, and stays within the space's bounds."""
    dtype = np.dtype(DTYPES[game])
    assert twinsim.spec(game)["observation_dtype"] == dtype
    env = twinsim.parallel_env(game, seed=2)
    observations, _ = env.reset(seed=2)
    for agent in env.agents:
        assert env.observation_space(agent)["observation"].dtype == dtype
        assert observations[agent]["observation"].dtype == dtype
    vec = twinsim.VecEnv(game, 6, seed=2, threads=2, copy=False)
    assert vec.dtype == dtype
    space = vec.single_observation_space["observation"]
    assert space.dtype == dtype
    observations, _ = vec.reset()
    rng = np.random.default_rng(5)
    for _ in range(60):
        planes = observations["observation"]
        assert planes.dtype == dtype
        assert planes.min() >= space.low.min() and planes.max() <= space.high.max()
        masks = observations["action_mask"]
        observations, *_ = vec.step((rng.random(masks.shape) + masks).argmax(axis=-1))


@pytest.mark.parametrize("game", ["zuniq", "photosynthesis"])
def test_spinning_workers_change_nothing_but_speed(game):
    """``spin=0`` (workers sleep between calls) and the default spinning give the same arrays,
    on two threads, over automatic resets."""
    spinning = twinsim.VecEnv(game, 7, seed=9, threads=2, copy=False)
    sleeping = twinsim.VecEnv(game, 7, seed=9, threads=2, copy=False, spin=0)
    steps = sum(1 for _ in lockstep(spinning, sleeping, 120, seed=6))
    assert steps == 120


def test_close_and_drop_stop_the_spinning_workers():
    """A worker spins after a call for ``spin`` seconds; ``close()`` and dropping the batch stop
    it at once (measured as the process's CPU time while the test sleeps)."""

    def cpu_while_sleeping() -> float:
        start = time.process_time()
        time.sleep(0.3)
        return time.process_time() - start

    def spins() -> bool:
        # 0.1 s of CPU while this thread sleeps: at once on a quiet machine; on a busy one the
        # spinning worker gets its share later (up to 10 s), so the check does not depend on load.
        start, waited = time.process_time(), time.monotonic()
        while time.monotonic() - waited < 10.0:
            time.sleep(0.05)
            if time.process_time() - start > 0.1:
                return True
        return False

    vec = twinsim.VecEnv("zuniq", 4, seed=1, threads=2, spin=60.0)
    observations, _ = vec.reset()
    assert spins(), "a worker spins after a call"
    vec.close()
    assert cpu_while_sleeping() < 0.05, "close() stops it"
    observations, *_ = vec.step(observations["action_mask"].argmax(axis=-1))
    assert spins(), "the batch is usable after close(), and spins again"
    del vec, observations
    gc.collect()
    assert cpu_while_sleeping() < 0.05, "a dropped batch leaves no worker spinning"
