"""twinsim.jax's Zuniq stepped in lockstep with the Rust fast twin: every observation plane (both
seats), mask, reward and terminal flag equal at every step of batched random games.

The default run plays a few hundred games (CI); ``TWINSIM_JAX_GAMES=10000`` plays more (the
README says how long it takes)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax_lockstep import GAMES, lockstep, random_actions

import twinsim
import twinsim.jax as tj
from twinsim import _core
from twinsim.jax._zuniq import _PLANE_CELL


@pytest.fixture(scope="module")
def zuniq():
    env = tj.make("zuniq")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    observe = jax.jit(jax.vmap(env.observe, in_axes=(0, None)))
    return env, init, step, observe


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
    env, init, _, _ = zuniq
    start = init(jax.random.split(jax.random.PRNGKey(0), min(GAMES, 1024)))
    counts = lockstep("zuniq", env, lambda seeds, rows: start)
    assert counts["games"] >= GAMES


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
