"""The lockstep comparison of a twinsim.jax engine with the Rust fast twin's VecEnv, shared by
the ``test_jax_*`` modules."""

from __future__ import annotations

import functools
import os
from types import SimpleNamespace
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np

import twinsim
import twinsim.jax as tj

#: Games per lockstep test: a few hundred by default (CI), more with ``TWINSIM_JAX_GAMES``.
GAMES = int(os.environ.get("TWINSIM_JAX_GAMES", "300"))
#: How often a random step plays an action its mask forbids (the referee's illegal move).
STRAY = 0.01
#: Rows of the lockstep's batch, and of every other test that steps a batch of the same game:
#: XLA compiles a jitted function once per shape (seconds each on a loaded CI core, where a step
#: of a few hundred rows takes milliseconds), so the tests share one shape.
BATCH = min(GAMES, 1024)


@functools.cache
def batched(game: str) -> SimpleNamespace:
    """``game``'s JAX engine (``env``) and its functions vmapped and jitted once per test run:
    ``init``, ``step`` (called with a key per row), ``observe`` (one seat of every row), and
    ``init_with``/``step_with`` where the engine has them. The tests of a game share these, and
    with them XLA's compilations (one per function and shape)."""
    env = tj.make(game)
    functions = {
        name: jax.jit(jax.vmap(getattr(env, name)))
        for name in ("init", "init_with", "step", "step_with")
        if hasattr(env, name)
    }
    observe = jax.jit(jax.vmap(env.observe, in_axes=(0, None)))
    return SimpleNamespace(env=env, observe=observe, **functions)


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random allowed action per row; now and then (``STRAY``) a forbidden one."""
    stray = rng.random(len(masks)) < STRAY
    chosen = np.where(stray[:, None], ~masks, masks)
    none = ~chosen.any(axis=1)  # every action allowed (Zuniq's empty board): no stray one
    chosen[none] = masks[none]
    return (rng.random(masks.shape) + chosen).argmax(axis=1)


def lockstep(
    game: str,
    fresh: Callable[[np.ndarray, np.ndarray], Any],
    games: int = GAMES,
    seed: int = 36,
) -> dict[str, int]:
    """Plays ``games`` random games of ``game`` in lockstep: a VecEnv batch (game ``i`` from
    seed ``1 + i``, its k-th new game from ``1 + i + k·num_envs``) and the JAX engine's batch,
    set up by ``fresh(seeds, rows)`` (a batched state whose rows ``rows`` are the new games of
    ``seeds``; other rows are ignored). Every seat's observation, the masks, ``to_act``, the
    rewards and the terminal flags must be equal at every step. Returns counts."""
    num_envs = min(games, 1024)
    vec = twinsim.VecEnv(game, num_envs, seed=1, threads=2)
    observations, infos = vec.reset()
    seeds = 1 + np.arange(num_envs)
    state = fresh(seeds, np.ones(num_envs, dtype=bool))
    jitted = batched(game)
    env, step, observe = jitted.env, jitted.step, jitted.observe
    keys = jax.random.split(jax.random.PRNGKey(seed), num_envs)
    rng = np.random.default_rng(seed)
    rows = np.arange(num_envs)
    finished = illegal = steps = 0
    players = env.num_players
    while finished < games:
        for player in range(players):
            np.testing.assert_array_equal(
                np.asarray(observe(state, player)),
                observations["observation"][:, player],
                f"observations of seat {player}, step {steps}",
            )
        mask = np.asarray(state.legal_action_mask)
        current = np.asarray(state.current_player)
        expected = np.zeros((num_envs, players, env.num_actions), dtype=np.int8)
        expected[rows, current] = mask
        np.testing.assert_array_equal(expected, observations["action_mask"], f"step {steps}")
        np.testing.assert_array_equal(infos["to_act"], expected.any(axis=2), f"step {steps}")
        np.testing.assert_array_equal(
            np.asarray(state.observation), observations["observation"][rows, current]
        )
        actions = random_actions(mask, rng)
        illegal += int((~mask[rows, actions]).sum())
        every_seat = np.zeros((num_envs, players), dtype=np.int64)
        every_seat[rows, current] = actions
        observations, rewards, terminations, _, infos = vec.step(every_seat)
        state = step(state, jnp.asarray(actions, dtype=jnp.int32), keys)
        steps += 1
        np.testing.assert_array_equal(np.asarray(state.rewards), rewards, f"step {steps}")
        done = np.asarray(state.terminated)
        np.testing.assert_array_equal(np.repeat(done[:, None], players, axis=1), terminations)
        assert not np.asarray(state.truncated).any()
        finished += int(done.sum())
        # VecEnv sets a finished game up again in the same step (the next seed of its row).
        if done.any():
            seeds = np.where(done, seeds + num_envs, seeds)
            state = tj.reset_where(jnp.asarray(done), fresh(seeds, done), state)
        assert vec.seeds() == seeds.tolist()
    assert illegal > 0, "stray actions were played (the illegal-move path was compared)"
    return {"games": finished, "steps": steps, "illegal": illegal}
