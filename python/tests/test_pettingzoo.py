"""PettingZoo's own conformance and seeding tests, for every game."""

from __future__ import annotations

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import twinsim


def test_aec_api(game):
    api_test(twinsim.env(game, seed=7), num_cycles=300)


def test_parallel_api(game):
    parallel_api_test(twinsim.parallel_env(game, seed=7), num_cycles=300)


def test_aec_seeding(game):
    seed_test(lambda: twinsim.env(game), num_cycles=300)


def test_parallel_seeding(game):
    parallel_seed_test(lambda: twinsim.parallel_env(game), num_cycles=300)


def test_the_readme_one_liner():
    env = twinsim.parallel_env("olymbits", seed=1)
    observations, infos = env.reset(seed=1)
    assert set(observations) == {"player_0", "player_1", "player_2"}
    assert infos["player_0"]["view"].startswith("0\n4\n")


def test_olymbits_seed_zero_is_reproducible():
    """The referee self-seeds on 0; the environment draws that seed reproducibly."""
    first, second = twinsim.parallel_env("olymbits"), twinsim.parallel_env("olymbits")
    views = [env.reset(seed=0)[1]["player_0"]["view"] for env in (first, second)]
    assert views[0] == views[1]
    assert first.seed_used == second.seed_used != 0


def test_render_is_the_terminal_board(game):
    env = twinsim.parallel_env(game, seed=3, render_mode="ansi")
    env.reset()
    picture = env.render()
    assert isinstance(picture, str) and len(picture.splitlines()) > 3
    assert picture == env._table.match.render(False)
    assert twinsim.parallel_env(game, seed=3).render() is None, "no render_mode: nothing drawn"
