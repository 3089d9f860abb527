"""twinsim.jax's Olymbits stepped in lockstep with the Rust fast twin, given the same random
outcomes: the runs the Rust engine drew (SHA1PRNG, read from its state after every turn) are fed
to ``Olymbits.step_with``; every seat's observation, the masks, the rewards and the terminal
flags of VecEnv must be equal at every turn of batched random games.

The default run plays a few hundred games (CI); ``TWINSIM_JAX_GAMES=10000`` plays more."""

from __future__ import annotations

import json

import jax
import jax.numpy as jnp
import numpy as np
from jax_lockstep import GAMES

import twinsim
import twinsim.jax as tj
from twinsim import _core
from twinsim.jax import _olymbits as ol

LETTERS = "UDLR"


def outcomes(state: dict) -> dict[str, np.ndarray]:
    """The random outcomes a Rust state shows (rules section 3.5), as ``Draws`` fields."""
    hurdles, archery, skating, diving = state["games"]
    wind = [int(c) for c in archery["wind"]]
    goal = [LETTERS.index(c) for c in diving["goal"]]
    return {
        "track": np.array([c == "#" for c in hurdles["map"]]),
        "cursor": np.array(archery["cursors"][0], dtype=np.int32),
        "wind": np.array(wind + [0] * (ol.SEQUENCE - len(wind)), dtype=np.int32),
        "winds": np.int32(len(wind)),
        "order": np.array([LETTERS.index(c) for c in skating["order"]], dtype=np.int32),
        "goal": np.array(goal + [0] * (ol.SEQUENCE - len(goal)), dtype=np.int32),
        "goals": np.int32(len(goal)),
    }


def batch(draws: list[dict[str, np.ndarray]]) -> ol.Draws:
    return ol.Draws(**{k: jnp.asarray(np.stack([d[k] for d in draws])) for k in draws[0]})


def test_lockstep_with_vec_env_given_the_same_draws():
    env = tj.make("olymbits")
    init_with = jax.jit(jax.vmap(env.init_with))
    step_with = jax.jit(jax.vmap(env.step_with))
    observe = jax.jit(jax.vmap(env.observe, in_axes=(0, None)))
    num_envs = min(GAMES, 1024)
    vec = twinsim.VecEnv("olymbits", num_envs, seed=1, threads=2)
    observations, infos = vec.reset()
    rng = np.random.default_rng(36)
    finished = 0
    seeds = 1 + np.arange(num_envs)
    while finished < GAMES:
        # A new round of games (all Olymbits games last 100 turns): the Rust matches of the
        # same seeds tell the draws.
        matches = [_core.Match("olymbits", int(s)) for s in seeds]
        first = [json.loads(m.records_json()[0])["initial"] for m in matches]
        state = init_with(batch([outcomes(s) for s in first]))
        for turn in range(ol.MAX_TURNS):
            for player in range(3):
                np.testing.assert_array_equal(
                    np.asarray(observe(state, player)),
                    observations["observation"][:, player],
                    f"seat {player}, turn {turn}",
                )
            assert observations["action_mask"].all() and infos["to_act"].all()
            assert np.asarray(state.legal_action_mask).all()
            actions = rng.integers(0, 4, (num_envs, 3))
            observations, rewards, terminations, _, infos = vec.step(actions)
            for match, row in zip(matches, actions):
                match.step_indices(row.tolist())
            draws = [outcomes(json.loads(m.records_json()[1])["state"]) for m in matches]
            state = step_with(state, jnp.asarray(actions, dtype=jnp.int32), batch(draws))
            np.testing.assert_array_equal(np.asarray(state.rewards), rewards, f"turn {turn}")
            done = np.asarray(state.terminated)
            np.testing.assert_array_equal(np.repeat(done[:, None], 3, axis=1), terminations)
        assert done.all()
        finished += num_envs
        seeds = seeds + num_envs
        assert vec.seeds() == seeds.tolist()


def test_own_draws_follow_the_referees_shapes():
    """``jax.random`` outcomes: tracks, winds, orders and goals the referee could draw."""
    keys = jax.random.split(jax.random.PRNGKey(3), 2000)
    draws = jax.jit(jax.vmap(ol.draw, in_axes=(0, None)))(keys, jnp.arange(4))
    track = np.asarray(draws.track)
    assert not track[:, :3].any() and not track[:, 29].any()
    for row in track:
        at = np.flatnonzero(row)
        assert 3 <= at[0] <= 7 and (np.diff(at) >= 4).all() and 2 <= len(at) <= 6
    assert set(np.unique(np.asarray(draws.wind))) == set(range(1, 10))
    assert set(np.abs(np.asarray(draws.cursor)).ravel()) == set(range(5, 10))
    assert (np.sort(np.asarray(draws.order), axis=1) == np.arange(4)).all()
    assert set(np.unique(np.asarray(draws.winds))) == set(range(12, 16))
    assert set(np.unique(np.asarray(draws.goals))) == set(range(12, 16))


def test_own_draws_play_whole_games():
    env = tj.make("olymbits")
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    keys = jax.random.split(jax.random.PRNGKey(0), 64)
    state = init(keys)
    for turn in range(ol.MAX_TURNS):
        keys = jax.vmap(lambda k: jax.random.split(k)[0])(keys)
        state = step(state, jnp.full((64, 3), turn % 4, dtype=jnp.int32), keys)
    assert np.asarray(state.terminated).all()
    assert np.asarray(state.medals).sum() > 0
    np.testing.assert_allclose(np.asarray(state.rewards).sum(axis=1), 0.0, atol=1e-6)
