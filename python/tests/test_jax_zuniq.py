"""twinsim.jax's Zuniq stepped in lockstep with the Rust fast twin: every observation plane (both
seats), mask, reward and terminal flag equal at every step of batched random games.

The default run plays a few hundred games (CI); ``TWINSIM_JAX_GAMES=10000`` plays more (the
README says how long it takes)."""

from __future__ import annotations

import os

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the jax extra: pip install './python[jax]'")

import jax.numpy as jnp  # noqa: E402

import twinsim  # noqa: E402
import twinsim.jax as tj  # noqa: E402
from twinsim import _core  # noqa: E402
from twinsim.jax._zuniq import _PLANE_CELL  # noqa: E402

GAMES = int(os.environ.get("TWINSIM_JAX_GAMES", "300"))
#: How often a random step plays an action its mask forbids (the referee's illegal move).
STRAY = 0.01


@pytest.fixture(scope="module")
def zuniq():
    env = tj.make("zuniq")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    observe = jax.jit(jax.vmap(env.observe, in_axes=(0, None)), static_argnums=())
    return env, init, step, observe


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random allowed action per row; now and then (``STRAY``) a forbidden one."""
    stray = rng.random(len(masks)) < STRAY
    chosen = np.where(stray[:, None], ~masks, masks)
    none = ~chosen.any(axis=1)  # every action allowed (the empty board): no stray one exists
    chosen[none] = masks[none]
    return (rng.random(masks.shape) + chosen).argmax(axis=1)


def test_make_and_available_envs():
    assert "zuniq" in tj.available_envs()
    env = tj.make("zuniq")
    assert env.id == "zuniq" and env.num_players == 2 and env.num_actions == 120
    spec = twinsim.spec("zuniq")
    assert env.observation_shape == spec["observation_shape"]
    assert env.num_actions == spec["num_actions"]
    with pytest.raises(ValueError, match="no JAX engine"):
        tj.make("chess")


def test_lockstep_with_vec_env(zuniq):
    env, init, step, observe = zuniq
    num_envs = min(GAMES, 1024)
    vec = twinsim.VecEnv("zuniq", num_envs, seed=1, threads=2)
    observations, infos = vec.reset()
    keys = jax.random.split(jax.random.PRNGKey(0), num_envs)
    fresh = init(keys)
    state = fresh
    rng = np.random.default_rng(36)
    finished = illegal = steps = 0
    rows = np.arange(num_envs)
    while finished < GAMES:
        for player in range(2):
            np.testing.assert_array_equal(
                np.asarray(observe(state, player)), observations["observation"][:, player]
            )
        mask = np.asarray(state.legal_action_mask)
        current = np.asarray(state.current_player)
        expected_masks = np.zeros((num_envs, 2, 120), dtype=np.int8)
        expected_masks[rows, current] = mask
        np.testing.assert_array_equal(expected_masks, observations["action_mask"])
        np.testing.assert_array_equal(infos["to_act"], expected_masks.any(axis=2))
        np.testing.assert_array_equal(
            np.asarray(state.observation), observations["observation"][rows, current]
        )
        actions = random_actions(mask, rng)
        illegal += int((~mask[rows, actions]).sum())
        both = np.zeros((num_envs, 2), dtype=np.int64)
        both[rows, current] = actions
        observations, rewards, terminations, _, infos = vec.step(both)
        state = step(state, jnp.asarray(actions, dtype=jnp.int32), keys)
        steps += 1
        np.testing.assert_array_equal(np.asarray(state.rewards), rewards, f"step {steps}")
        done = np.asarray(state.terminated)
        np.testing.assert_array_equal(np.repeat(done[:, None], 2, axis=1), terminations)
        assert not np.asarray(state.truncated).any()
        finished += int(done.sum())
        # VecEnv sets a finished game up again in the same step: so does the JAX batch here.
        state = tj.reset_where(jnp.asarray(done), fresh, state)
    assert illegal > 0, "stray actions were played (the illegal-move path was compared)"


def test_final_positions_equal_single_games(zuniq):
    """Terminal observations and masks too (VecEnv shows the next game's instead)."""
    env, init, step, observe = zuniq
    num_games = 24
    matches = [_core.Match("zuniq", 1) for _ in range(num_games)]
    state = init(jax.random.split(jax.random.PRNGKey(1), num_games))
    rng = np.random.default_rng(7)
    winning_wall = np.full(num_games, -1)
    while not all(m.is_over() for m in matches):
        mask = np.asarray(state.legal_action_mask)
        actions = random_actions(mask, rng)
        state = step(state, jnp.asarray(actions, dtype=jnp.int32), None)
        for i, match in enumerate(matches):
            if not match.is_over():
                seat = match.to_act()[0]
                indices = [0, 0]
                indices[seat] = int(actions[i])
                match.step_indices(indices)
                if match.is_over() and int(state.winner[i]) == seat:
                    winning_wall[i] = int(actions[i]) % 60
            for player in range(2):
                expected_planes = match.observe(player)
                if match.is_over() and int(state.winner[i]) != player and winning_wall[i] >= 0:
                    # The referee does not relay the winning move to the loser (rules section
                    # 8), so the PettingZoo env's last observation of the loser lacks it; the
                    # JAX engine's observe shows the board.
                    plane, cell = divmod(int(_PLANE_CELL[winning_wall[i]]), 36)
                    assert expected_planes[plane].flat[cell] == 0
                    expected_planes[plane].flat[cell] = 1
                np.testing.assert_array_equal(
                    np.asarray(observe(state, player))[i], expected_planes
                )
                expected = match.mask(player).astype(bool)
                got = np.asarray(state.legal_action_mask[i]) & (
                    int(state.current_player[i]) == player
                )
                np.testing.assert_array_equal(got, expected)
            assert bool(state.terminated[i]) == match.is_over()
    # Rewards of the final step were compared in the batch test; here the winners.
    for i, match in enumerate(matches):
        ranks = match.ranks()
        assert ranks is not None and ranks[int(state.winner[i])] == 1


def test_a_finished_game_stays_as_it_is(zuniq):
    env, init, step, _ = zuniq
    state = env.init(jax.random.PRNGKey(0))
    state = env.step(state, jnp.int32(0))
    state = env.step(state, jnp.int32(0))  # wall 0 again: occupied, the mover (seat 1) loses
    assert bool(state.terminated) and int(state.winner) == 0
    np.testing.assert_array_equal(np.asarray(state.rewards), [1.0, -1.0])
    assert not np.asarray(state.legal_action_mask).any()
    again = env.step(state, jnp.int32(5))
    np.testing.assert_array_equal(np.asarray(again.rewards), [0.0, 0.0])
    np.testing.assert_array_equal(np.asarray(again.walls), np.asarray(state.walls))
    assert int(again.step_count) == int(state.step_count) == 1


def test_a_claim_shows_on_the_claimers_plane_only():
    env = tj.make("zuniq")
    state = env.step(env.init(jax.random.PRNGKey(0)), jnp.int32(60 + 7))  # B3h!
    assert int(state.claims[0]) == 1 and int(state.claims[1]) == 0
    assert np.asarray(env.observe(state, 0))[2].all()
    assert not np.asarray(env.observe(state, 1))[2].any()
    assert np.asarray(env.observe(state, 1))[0, 1, 2] == 1  # B3h: row B, column 3
