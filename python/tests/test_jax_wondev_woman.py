"""twinsim.jax's Wondev Woman stepped in lockstep with the Rust fast twin: every observation
plane (both seats, the fog and the seat's last view included), mask, reward and terminal flag
equal at every step of batched random games set up from the referee's seeds.

The default run plays a few hundred games (CI); ``TWINSIM_JAX_GAMES=10000`` plays more."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax_lockstep import BATCH, GAMES, batched, lockstep

import twinsim.jax as tj
from twinsim.jax import _wondev_woman as ww


def test_lockstep_with_vec_env():
    init_with = batched("wondev-woman").init_with
    num_envs = BATCH
    cells = np.zeros((num_envs, ww.MAX, ww.MAX), dtype=bool)
    inside = np.zeros_like(cells)
    units = np.zeros((num_envs, 4, 2), dtype=np.int32)

    def fresh(seeds: np.ndarray, rows: np.ndarray) -> tj.Env:
        # Only the new games' setups are asked of the Rust engine.
        new = ww.setups(seeds[rows].tolist())
        cells[rows], inside[rows], units[rows] = (np.asarray(a) for a in new)
        return init_with(ww.Setup(jnp.asarray(cells), jnp.asarray(inside), jnp.asarray(units)))

    counts = lockstep("wondev-woman", fresh)
    assert counts["games"] >= GAMES


def test_setups_are_the_referees():
    setup = ww.setups([5])
    # Seed 5: the square map (5×5), units as the referee's trace state shows them.
    assert bool(setup.inside[0, :5, :5].all()) and not bool(setup.inside[0, 5:].any())
    np.testing.assert_array_equal(np.asarray(setup.units[0]), [[0, 2], [0, 4], [1, 4], [2, 2]])


def test_a_hidden_unit_cancels_a_build_but_not_the_move():
    """Rules section 5.7: building on a hidden enemy is legal, the build does not happen.

    Played on every row of a batch of the lockstep's shape, with the lockstep's compiled
    functions (unjitted, op by op, the same three calls took half a minute on a CI core)."""
    cells = jnp.ones((ww.MAX, ww.MAX), dtype=bool)
    # p0u0 at (0, 0), p0u1 far away; p1u0 at (2, 2): two steps from p0u0, hidden.
    units = jnp.array([[0, 0], [6, 6], [2, 2], [6, 0]], dtype=jnp.int32)
    jitted = batched("wondev-woman")
    setup = ww.Setup(*(jnp.broadcast_to(a, (BATCH, *a.shape)) for a in (cells, cells, units)))
    state = jitted.init_with(setup)
    assert not bool(jitted.observe(state, 0)[:, 8].any()), "the enemy unit is in the fog"
    se = 3  # SE: move to (1, 1), then build on (2, 2) where the hidden unit stands
    action = 64 * 0 + 8 * se + se
    assert bool(state.legal_action_mask[:, action].all())
    keys = jax.random.split(jax.random.PRNGKey(0), BATCH)
    after = jitted.step(state, jnp.full(BATCH, action, dtype=jnp.int32), keys)
    np.testing.assert_array_equal(np.asarray(after.units[:, 0]), np.tile([1, 1], (BATCH, 1)))
    assert int(after.height.sum()) == 0
