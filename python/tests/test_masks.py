"""Action masks equal the referee's legal lists, and every index's canonical line is what the
referee accepts; observations fit their spaces and come from each player's own views."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import random_legal

import twinsim

GAMES_PER_CASE = 3


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_masks_are_the_legal_lists(game, engine):
    rng = np.random.default_rng(11)
    for seed in range(1, GAMES_PER_CASE + 1):
        env = twinsim.parallel_env(game, engine=engine)
        observations, infos = env.reset(seed=seed)
        core = env._table.match
        while env.agents:
            actions = {}
            for agent in env.agents:
                player = int(agent.split("_")[1])
                mask = observations[agent]["action_mask"]
                legal = core.legal(player)
                if not infos[agent]["to_act"]:
                    # The Parallel API's no-op mask: action 0 alone, ignored by step.
                    assert np.flatnonzero(mask).tolist() == [0] and legal == []
                    assert not env._table.observe(agent)["action_mask"].any()
                    continue
                allowed = {int(i) for i in np.flatnonzero(mask)}
                assert allowed == {core.index_of(player, line) for line in legal}
                move_turn = game == "xmas-rush" and infos[agent]["view"].startswith("1\n")
                if move_turn:
                    # The engine lists one path per reachable cell; an index names the cell.
                    assert len(legal) == len(allowed)
                elif game == "wondev-woman" and not legal:
                    assert [core.line(player, i) for i in allowed] == ["ACCEPT-DEFEAT"]
                else:
                    assert sorted(core.line(player, i) for i in allowed) == sorted(legal)
                actions[agent] = random_legal(mask, rng)
            observations, _, _, _, infos = env.step(actions)
        reason = env.outcome()["reason"]
        # Masked play never breaks a rule (Wondev Woman: a player without moves surrenders).
        assert "invalid" not in reason and "illegal" not in reason, reason


def test_observations_fit_the_spaces(game):
    env = twinsim.env(game, seed=5)
    env.reset()
    rng = np.random.default_rng(2)
    informative = 0
    for _ in range(60):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        observation = env.observe(agent)
        assert env.observation_space(agent).contains(observation)
        informative += bool(observation["observation"].any())
        env.step(random_legal(observation["action_mask"], rng))
    assert informative > 10, "observations carry the position"


def test_wondev_woman_fog_stays_hidden():
    """An enemy unit the view hides (printed -1 -1) is absent from the observation."""
    env = twinsim.parallel_env("wondev-woman", seed=3)
    observations, infos = env.reset()
    rng = np.random.default_rng(4)
    hidden_seen = 0
    while env.agents and hidden_seen < 5:
        raw_views = env._table.match.views()  # without the init input of the first turn
        for agent in env.agents:
            view = raw_views[int(agent[-1])]
            if view is None:
                continue
            lines = view.splitlines()
            size = len(lines[0])
            units = lines[size : size + 4]
            planes = observations[agent]["observation"]
            for unit, line in enumerate(units[2:]):
                x, y = map(int, line.split())
                if x < 0:
                    hidden_seen += 1
                    assert not planes[8 + unit].any()
                else:
                    assert planes[8 + unit, y, x] == 1
        actions = {
            a: random_legal(observations[a]["action_mask"], rng)
            for a in env.agents
            if infos[a]["to_act"]
        }
        observations, _, _, _, infos = env.step(actions)
    assert hidden_seen > 0, "these seeds hide an enemy unit at some point"
