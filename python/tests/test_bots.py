"""The arena and the built-in search bots from Python."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import random_legal

import twinsim


def test_arena_returns_the_results_as_data():
    table = twinsim.arena(
        "zuniq", ["builtin:random", "builtin:mcts:iterations=200"], games=4, time_scale=0.2
    )
    assert len(table["results"]) == 4
    assert sorted({tuple(r["seats"]) for r in table["results"]}) == [(0, 1), (1, 0)]
    for bot in table["bots"]:
        assert bot["wins"] + bot["draws"] + bot["losses"] == 4
        assert bot["crashes"] == 0 and bot["illegal"] == 0
    random_bot, search_bot = table["bots"]
    assert search_bot["bot"] == "builtin:mcts@fast:iterations=200"
    assert search_bot["wins"] > random_bot["wins"], "a search beats random play at Zuniq"


def test_arena_bad_input():
    with pytest.raises(ValueError, match="3 seats"):
        twinsim.arena("olymbits", ["builtin:random", "builtin:random"])
    with pytest.raises(ValueError, match="unknown built-in bot"):
        twinsim.arena("zuniq", ["builtin:random", "builtin:oracle"])
    with pytest.raises(ValueError, match="has no builtin:beam"):
        twinsim.arena("zuniq", ["builtin:random", "builtin:beam"])
    with pytest.raises(TypeError, match="list of strings"):
        twinsim.arena("zuniq", "builtin:random")


@pytest.mark.parametrize("game", sorted(twinsim.SEARCH_BOTS))
def test_a_search_bot_plays_from_the_views(game):
    """A built-in bot reads `infos[agent]["view"]` and answers with legal lines, seat 0 against a
    random masked policy, to the end of a game."""
    spec = f"builtin:{twinsim.SEARCH_BOTS[game]}:iterations=30"
    search = twinsim.bot(game, spec, seat=0, seed=3)
    env = twinsim.parallel_env(game, seed=9)
    observations, infos = env.reset()
    rng = np.random.default_rng(5)
    inputs = {a: "" for a in env.agents}
    answers = 0
    while env.agents:
        actions = {}
        for agent in env.agents:
            if infos[agent]["view"] is not None:
                inputs[agent] = infos[agent]["view"]
            if not infos[agent]["to_act"]:
                continue
            if agent == "player_0":
                line = search(inputs["player_0"])
                legal = env.legal_lines(agent)
                if game == "xmas-rush" and line.startswith(("MOVE", "PASS")):
                    # Any walkable path is legal; the engine lists one per reachable cell.
                    assert env._table.match.index_of(0, line) is not None, line
                else:
                    assert line in legal, f"{line!r} is not legal"
                actions[agent] = line
                answers += 1
            else:
                actions[agent] = random_legal(observations[agent]["action_mask"], rng)
        observations, _, _, _, infos = env.step(actions)
    assert answers > 0 and search.stats()[0] == answers
    assert "invalid" not in env.outcome()["reason"]


def test_bot_bad_input():
    with pytest.raises(ValueError, match="not a search bot"):
        twinsim.bot("zuniq", "builtin:random")
    with pytest.raises(ValueError, match="seats"):
        twinsim.bot("zuniq", "builtin:mcts", seat=2)
    with pytest.raises(ValueError, match="unknown game"):
        twinsim.bot("tetris", "builtin:mcts")
