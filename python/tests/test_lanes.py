"""The typed lanes equal the view path: the same random games stepped through both give the same
observations, masks, rewards, terminations, truncations, seats to act and score changes at every
step, automatic resets included."""

from __future__ import annotations

import numpy as np
import pytest

import twinsim

#: The games with a typed lane (all five).
TYPED = twinsim.GAMES


def random_actions(masks: np.ndarray, rng: np.random.Generator, stray: float) -> np.ndarray:
    """A random allowed index per (env, seat); with probability ``stray`` any index at all (an
    illegal one then gets the referee's consequence on both paths)."""
    keys = rng.random(masks.shape) + masks
    actions = keys.argmax(axis=-1)
    wild = rng.random(actions.shape) < stray
    return np.where(wild, rng.integers(0, masks.shape[-1], actions.shape), actions)


def assert_same(typed, view, step):
    for name, a, b in zip(
        ("observations", "masks", "rewards", "terminations", "truncations", "to_act", "deltas"),
        typed,
        view,
    ):
        np.testing.assert_array_equal(a, b, err_msg=f"{name} differ at step {step}")


def flatten(observations, rewards, terminations, truncations, infos):
    return (
        observations["observation"],
        observations["action_mask"],
        rewards,
        terminations,
        truncations,
        infos["to_act"],
        infos["score_delta"],
    )


@pytest.mark.parametrize(
    ("game", "league", "steps", "stray"),
    [
        ("zuniq", None, 300, 0.0),
        ("zuniq", None, 200, 0.05),
        ("olymbits", None, 260, 0.0),
        ("olymbits", 1, 200, 0.0),
        ("olymbits", 2, 200, 0.0),
        ("photosynthesis", None, 400, 0.0),
        ("photosynthesis", None, 300, 0.03),
        ("photosynthesis", 1, 150, 0.03),
        ("photosynthesis", 2, 200, 0.03),
        ("xmas-rush", None, 400, 0.0),
        ("xmas-rush", None, 300, 0.03),
        ("xmas-rush", 1, 200, 0.03),
        ("xmas-rush", 2, 200, 0.03),
        ("wondev-woman", None, 300, 0.0),
        ("wondev-woman", None, 300, 0.02),
        ("wondev-woman", 0, 200, 0.02),
        ("wondev-woman", 1, 200, 0.02),
        ("wondev-woman", 2, 200, 0.02),
    ],
)
@pytest.mark.parametrize("typed_copies", [True, False])
def test_typed_lanes_equal_the_view_path(game, league, steps, stray, typed_copies):
    """Each path in both output modes: fresh zeroed arrays (``copy=True``) and the same arrays
    reused (``copy=False``: a lane's rows are cleared, or written whole, before each write)."""
    num_envs = 6
    typed = twinsim.VecEnv(
        game, num_envs, seed=11, threads=1, league=league, path="typed", copy=typed_copies
    )
    view = twinsim.VecEnv(
        game, num_envs, seed=11, threads=1, league=league, path="view", copy=not typed_copies
    )
    assert (typed.path, view.path) == ("typed", "view")
    (obs_t, info_t), (obs_v, info_v) = typed.reset(), view.reset()
    np.testing.assert_array_equal(obs_t["observation"], obs_v["observation"])
    np.testing.assert_array_equal(obs_t["action_mask"], obs_v["action_mask"])
    np.testing.assert_array_equal(info_t["to_act"], info_v["to_act"])
    rng = np.random.default_rng(5)
    finished = 0
    for step in range(steps):
        actions = random_actions(obs_t["action_mask"], rng, stray)
        out_t, out_v = typed.step(actions), view.step(actions)
        assert_same(flatten(*out_t), flatten(*out_v), step)
        obs_t = out_t[0]
        finished += int(out_t[2].all(axis=1).sum())
    assert typed.seeds() == view.seeds()
    assert finished >= num_envs, "every lane finished a game and was set up again"


def test_typed_lanes_reset_with_a_seed_like_the_view_path():
    typed = twinsim.VecEnv("olymbits", 3, seed=2, threads=2, path="typed")
    view = twinsim.VecEnv("olymbits", 3, seed=2, threads=1, path="view")
    (a, _), (b, _) = typed.reset(seed=70), view.reset(seed=70)
    np.testing.assert_array_equal(a["observation"], b["observation"])


@pytest.mark.parametrize("game", twinsim.GAMES)
def test_each_game_says_which_path_it_steps(game):
    expected = "typed" if game in TYPED else "view"
    assert twinsim.VecEnv(game, 2, path="typed").path == expected
    assert twinsim.VecEnv(game, 2, path="view").path == "view"
    assert twinsim.VecEnv(game, 2, engine="reference").path == "view"


def test_an_unknown_path_is_refused():
    with pytest.raises(ValueError, match="unknown path"):
        twinsim.VecEnv("zuniq", 2, path="text")


def test_the_fog_of_war_is_part_of_what_the_lanes_compare():
    """In the top league an opponent's unit far from mine is hidden: the typed lane shows fewer
    opposing units than own ones at some steps (and the equality above covers those steps)."""
    vec = twinsim.VecEnv("wondev-woman", 6, seed=11, threads=1, path="typed")
    observations, _ = vec.reset()
    rng = np.random.default_rng(5)
    hidden = 0
    for _ in range(100):
        actions = random_actions(observations["action_mask"], rng, 0.0)
        observations, *_ = vec.step(actions)
        planes = observations["observation"]
        mine, theirs = planes[:, :, 6:8].sum(axis=(2, 3, 4)), planes[:, :, 8:10].sum(axis=(2, 3, 4))
        hidden += int((theirs < mine).sum())
    assert hidden > 0
