"""VecEnv equals single games stepped one by one, with and without threads."""

from __future__ import annotations

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
