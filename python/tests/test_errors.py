"""Bad input raises a clear Python exception and changes nothing; bad text gets the referee's
consequence."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import random_legal

import twinsim
from twinsim import _core


def test_unknown_names():
    with pytest.raises(ValueError, match="unknown game"):
        twinsim.parallel_env("chess")
    with pytest.raises(ValueError, match="unknown engine"):
        twinsim.env("zuniq", engine="quick")
    with pytest.raises(ValueError, match="unknown game"):
        twinsim.VecEnv("go", 2)
    with pytest.raises(ValueError, match="render_mode"):
        twinsim.env("zuniq", render_mode="rgb_array")


@pytest.mark.parametrize("index", [-1, 4, 10**30])
def test_index_outside_the_space(index):
    env = twinsim.parallel_env("olymbits", seed=1)
    env.reset()
    with pytest.raises(ValueError, match="outside Discrete"):
        env.step({"player_0": index, "player_1": 0, "player_2": 0})
    assert env._table.match.turn == 0, "nothing was played"


def test_action_of_the_wrong_type():
    env = twinsim.env("zuniq", seed=1)
    env.reset()
    with pytest.raises(TypeError, match="int index"):
        env.step(1.5)
    with pytest.raises(TypeError, match="int index"):
        env.step(True)
    parallel = twinsim.parallel_env("zuniq", seed=1)
    with pytest.raises(twinsim.GameOverError, match="reset"):
        parallel.step({"player_0": 0})
    parallel.reset()
    with pytest.raises(TypeError, match="dict"):
        parallel.step([1])


def test_unknown_agent():
    env = twinsim.parallel_env("zuniq", seed=1)
    env.reset()
    with pytest.raises(KeyError, match="unknown agents"):
        env.step({"player_7": 0})


def test_text_garbage_gets_the_referees_consequence():
    env = twinsim.parallel_env("wondev-woman", seed=2)
    observations, infos = env.reset()
    mover = next(a for a in env.agents if infos[a]["to_act"])
    env.step({mover: "FLY AWAY"})
    _, turn = env._table.match.records_json()
    assert json.loads(turn)["state"]["dead"][int(mover[-1])] is True
    rng = np.random.default_rng(1)
    while env.agents:
        actions = {
            a: random_legal(env._table.observe(a)["action_mask"], rng)
            for a in env.agents
            if env._table.player(a) in env._table.match.to_act()
        }
        _, rewards, _, _, _ = env.step(actions)
    assert rewards[mover] == -1.0
    assert env.outcome()["details"]["eliminated"][int(mover[-1])] is True


def test_step_after_the_end():
    env = twinsim.parallel_env("zuniq", seed=1)
    env.reset()
    while env.agents:
        env.step({a: "garbage" for a in env.agents})
    with pytest.raises(twinsim.GameOverError):
        env.step({"player_0": 0})
    core = _core.Match("zuniq", 1)
    core.step_lines(["nonsense", None])
    with pytest.raises(twinsim.GameOverError):
        core.step_lines(["A1h", None])
    aec = twinsim.env("zuniq", seed=1)
    aec.reset()
    aec.step("nonsense")
    while aec.agents:
        with pytest.raises(ValueError, match="dead"):
            aec.step(3)
        aec.step(None)
    with pytest.raises(twinsim.GameOverError):
        aec.step(0)


def test_core_guards():
    core = _core.Match("photosynthesis", 1)
    with pytest.raises(IndexError, match="player 2"):
        core.observe(2)
    with pytest.raises(ValueError, match="expected 2"):
        core.step_indices([0])
    with pytest.raises(OverflowError):
        core.step_indices([2**70, 0])
    alternating = _core.Match("wondev-woman", 1)
    (mover,) = alternating.to_act()
    lines = [None, None]
    lines[1 - mover] = "MOVE&BUILD 0 N S"
    with pytest.raises(ValueError, match="not to act"):
        alternating.step_lines(lines)
    assert alternating.turn == 0


def test_vec_env_bad_arrays():
    vec = twinsim.VecEnv("olymbits", 4, threads=1)
    vec.reset()
    with pytest.raises(ValueError, match="shape"):
        vec.step(np.zeros((4, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="shape"):
        vec.step(np.zeros(12, dtype=np.int64))
    with pytest.raises(TypeError, match="integer"):
        vec.step(np.zeros((4, 3), dtype=np.float32))
    with pytest.raises(TypeError, match="integer"):
        vec.step([["UP"] * 3] * 4)
    with pytest.raises(ValueError, match=r"actions\[2, 1\] = 9"):
        bad = np.zeros((4, 3), dtype=np.int64)
        bad[2, 1] = 9
        vec.step(bad)
    with pytest.raises(ValueError, match="at least 1"):
        twinsim.VecEnv("olymbits", 0)
    with pytest.raises(ValueError, match="threads"):
        twinsim.VecEnv("olymbits", 2, threads=0)
    with pytest.raises(ValueError, match="spin"):
        twinsim.VecEnv("olymbits", 2, spin=-0.001)
    with pytest.raises(ValueError, match="spin"):
        twinsim.VecEnv("olymbits", 2, spin=float("nan"))
    with pytest.raises(TypeError, match="spin"):
        twinsim.VecEnv("olymbits", 2, spin="2ms")
    with pytest.raises(ValueError, match="shape"):
        vec._core.step(np.zeros((3, 3), dtype=np.int64))


def test_replay_bad_files(tmp_path):
    with pytest.raises(OSError):
        twinsim.replay(tmp_path / "missing.jsonl")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("{not json\n")
    with pytest.raises(ValueError, match="line 1"):
        twinsim.replay(garbage)
    with pytest.raises(ValueError, match="unknown engine"):
        twinsim.replay(garbage, engine="slow")


@pytest.mark.parametrize(
    ("spec", "meant"),
    [
        ("mcts", "builtin:mcts"),
        ("builtin:mtcs", "builtin:mcts"),
        ("builtin:beam", "builtin:mcts"),
        ("mcts@reference:iterations=50", "builtin:mcts@reference:iterations=50"),
    ],
)
def test_near_miss_bot_names_say_what_was_meant(spec, meant):
    with pytest.raises(ValueError, match=f"did you mean '{meant}'"):
        twinsim.bot("zuniq", spec)


def test_a_bot_name_far_from_any_gets_no_guess():
    with pytest.raises(ValueError) as raised:
        twinsim.bot("zuniq", "./my_bot.py")
    assert "did you mean" not in str(raised.value)
