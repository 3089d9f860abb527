"""twinsim.jax's Zuniq stepped in lockstep with the Rust fast twin: every observation plane (both
seats), mask, reward and terminal flag equal at every step of batched random games.

The default run plays a few hundred games (CI); ``TWINSIM_JAX_GAMES=10000`` plays more (the
README says how long it takes)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax_lockstep import BATCH, GAMES, batched, lockstep, random_actions

import twinsim
import twinsim.jax as tj
from twinsim import _core
from twinsim.jax._zuniq import _PLANE_CELL


@pytest.fixture(scope="module")
def zuniq():
    """The engine and its functions jitted for batches, shared with the lockstep: every test
    here steps ``BATCH`` rows (one compilation per function), with a key per row."""
    jitted = batched("zuniq")
    start = jitted.init(jax.random.split(jax.random.PRNGKey(0), BATCH))
    keys = jax.random.split(jax.random.PRNGKey(1), BATCH)

    def step(state, actions):
        return jitted.step(state, jnp.asarray(actions, dtype=jnp.int32), keys)

    return start, step, jitted.observe


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
    start, _, _ = zuniq
    counts = lockstep("zuniq", lambda seeds, rows: start)
    assert counts["games"] >= GAMES


def test_final_positions_equal_single_games(zuniq):
    """Terminal observations and masks too (VecEnv shows the next game's instead). The first
    24 rows of the batch are compared, each with a single Rust match."""
    state, step, observe = zuniq
    num_games = 24
    matches = [_core.Match("zuniq", 1) for _ in range(num_games)]
    rng = np.random.default_rng(7)
    winning_wall = np.full(num_games, -1)
    while not all(m.is_over() for m in matches):
        mask = np.asarray(state.legal_action_mask)
        actions = random_actions(mask, rng)
        state = step(state, actions)
        planes = [np.asarray(observe(state, player)) for player in range(2)]
        winner, to_move = np.asarray(state.winner), np.asarray(state.current_player)
        legal, terminated = np.asarray(state.legal_action_mask), np.asarray(state.terminated)
        for i, match in enumerate(matches):
            if not match.is_over():
                seat = match.to_act()[0]
                indices = [0, 0]
                indices[seat] = int(actions[i])
                match.step_indices(indices)
                if match.is_over() and winner[i] == seat:
                    winning_wall[i] = int(actions[i]) % 60
            for player in range(2):
                expected_planes = match.observe(player)
                if match.is_over() and winner[i] != player and winning_wall[i] >= 0:
                    # The referee does not relay the winning move to the loser (rules section
                    # 8), so the PettingZoo env's last observation of the loser lacks it; the
                    # JAX engine's observe shows the board.
                    plane, cell = divmod(int(_PLANE_CELL[winning_wall[i]]), 36)
                    assert expected_planes[plane].flat[cell] == 0
                    expected_planes[plane].flat[cell] = 1
                np.testing.assert_array_equal(planes[player][i], expected_planes)
                expected = match.mask(player).astype(bool)
                got = legal[i] & (to_move[i] == player)
                np.testing.assert_array_equal(got, expected)
            assert terminated[i] == match.is_over()
    # Rewards of the final step were compared in the batch test; here the winners.
    for i, match in enumerate(matches):
        ranks = match.ranks()
        assert ranks is not None and ranks[int(winner[i])] == 1


def test_a_finished_game_stays_as_it_is(zuniq):
    start, step, _ = zuniq
    state = step(start, np.zeros(BATCH))
    state = step(state, np.zeros(BATCH))  # wall 0 again: occupied, the mover (seat 1) loses
    assert np.asarray(state.terminated).all() and (np.asarray(state.winner) == 0).all()
    np.testing.assert_array_equal(np.asarray(state.rewards), np.tile([1.0, -1.0], (BATCH, 1)))
    assert not np.asarray(state.legal_action_mask).any()
    again = step(state, np.full(BATCH, 5))
    np.testing.assert_array_equal(np.asarray(again.rewards), np.zeros((BATCH, 2)))
    np.testing.assert_array_equal(np.asarray(again.walls), np.asarray(state.walls))
    assert (np.asarray(again.step_count) == 1).all() and (np.asarray(state.step_count) == 1).all()


def test_a_claim_shows_on_the_claimers_plane_only(zuniq):
    start, step, observe = zuniq
    state = step(start, np.full(BATCH, 60 + 7))  # B3h!
    np.testing.assert_array_equal(np.asarray(state.claims), np.tile([1, 0], (BATCH, 1)))
    assert np.asarray(observe(state, 0))[:, 2].all()
    assert not np.asarray(observe(state, 1))[:, 2].any()
    assert (np.asarray(observe(state, 1))[:, 0, 1, 2] == 1).all()  # B3h: row B, column 3
