"""PettingZoo environments over the Rust engines: one game, every seat.

Both APIs share the core `twinsim._core.Match`: the referee's setup for a seed, the exact text
the referee sends each player (``infos[agent]["view"]``), observations built from each player's
own views only, the action mask over the game's fixed ``Discrete(n)``, and the referee's
consequence for whatever line a player prints.
"""

from __future__ import annotations

import json
from typing import Any, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from . import _core

#: An action: an index into the game's ``Discrete(n)``, or the exact line a bot would print.
Action = Union[int, np.integer, str]

RENDER_MODES = ["ansi", "human"]


def _agent_name(player: int) -> str:
    return f"player_{player}"


class _Table:
    """What both APIs share: the core game, the spaces, and turning actions into lines."""

    def __init__(
        self,
        game: str,
        seed: int | None,
        league: int | None,
        engine: str,
        render_mode: str | None,
        params: dict | None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}"
            )
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        shape, dtype, (low, high), num_actions, num_players, turns = _core.spec(game)
        self.game = game
        self.league = league
        self.engine = engine
        self.render_mode = render_mode
        self.turns = turns
        self.num_actions = num_actions
        self.default_seed = seed
        self.rng = np.random.default_rng(None if seed is None else int(seed) % 2**64)
        if params is not None and not isinstance(params, dict):
            raise TypeError(f"params must be a dict or None, not {type(params).__name__}")
        params_json = None if params is None else json.dumps(params)
        # Seed 1 only until the first reset (some referees cannot replay seed 0).
        self.match = _core.Match(
            game, 1 if seed is None else int(seed), league, engine, params_json
        )
        self.names = [_agent_name(p) for p in range(num_players)]
        self.index = {name: p for p, name in enumerate(self.names)}
        self.observation_spaces = {
            name: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, tuple(shape), np.dtype(dtype)),
                    "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
                }
            )
            for name in self.names
        }
        self.action_spaces = {name: spaces.Discrete(num_actions) for name in self.names}
        #: The mask of an agent that does not act this step in the Parallel API (action 0 alone).
        self.noop_mask = np.zeros(num_actions, np.int8)
        self.noop_mask[0] = 1
        self.noop_mask.flags.writeable = False

    def setup(self, seed: int | None) -> int:
        """Sets a new game up; the seed is the argument, else the constructor's (first time),
        else drawn from the environment's generator."""
        if seed is None:
            seed = self.default_seed
            self.default_seed = None
        else:
            self.rng = np.random.default_rng(int(seed) % 2**64)
        if seed is None:
            # Positive: the Olymbits referee's generator cannot replay seed 0.
            seed = int(self.rng.integers(1, 2**31))
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        seed = int(seed)
        # The Olymbits referee draws a seed of its own from OS entropy when given 0 (its
        # SHA1PRNG ignores setSeed(0)); the one Rust plays instead (as the VecEnv does) keeps
        # reset(seed=0) reproducible. `seed_used` tells the referee seed played.
        seed = _core.referee_seed(self.game, seed)
        self.match.reset(seed)
        return seed

    def player(self, agent: str) -> int:
        if agent not in self.index:
            raise KeyError(f"unknown agent {agent!r}: expected one of {self.names}")
        return self.index[agent]

    def line(self, agent: str, action: Action) -> str:
        """The exact line an action stands for (a string is taken as printed)."""
        if isinstance(action, str):
            return action
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(
                f"{agent}: an action is an int index into Discrete({self.num_actions}) or the "
                f"line a bot prints, not {type(action).__name__}"
            )
        index = int(action)
        if not 0 <= index < self.num_actions:
            raise ValueError(f"{agent}: action {index} is outside Discrete({self.num_actions})")
        return self.match.line(self.player(agent), index)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.player(agent)
        return {"observation": self.match.observe(player), "action_mask": self.match.mask(player)}

    def observe_parallel(self, agent: str, to_act: set[int]) -> dict[str, np.ndarray]:
        """As :meth:`observe`, but an agent not to act gets the no-op mask: action 0 alone is
        legal, and ``step`` ignores what such an agent sends."""
        observation = self.observe(agent)
        if self.player(agent) not in to_act:
            observation["action_mask"] = self.noop_mask
        return observation

    def infos(self) -> dict[str, dict[str, Any]]:
        views = self.match.views()
        if self.match.turn == 0:
            # Before the first turn the referee sends the init input, then the first view.
            views = [
                view if init is None or view is None else f"{init}\n{view}"
                for init, view in zip(self.match.init_inputs(), views)
            ]
        scores = self.match.scores()
        deltas = self.match.score_deltas()
        to_act = set(self.match.to_act())
        return {
            name: {
                "view": views[p],
                "to_act": p in to_act,
                "score": scores[p],
                "score_delta": deltas[p],
            }
            for p, name in enumerate(self.names)
        }

    def outcome(self) -> dict[str, Any] | None:
        text = self.match.outcome_json()
        if text is None:
            return None
        details = json.loads(text)
        return {
            "ranks": self.match.ranks(),
            "scores": details["scores"],
            "reason": details["reason"],
            "details": details,
        }

    def render(self) -> str | None:
        if self.render_mode is None:
            # Issue 33: an error, not a warning that is easy to miss. Gymnasium's own classic
            # environments (CartPole) and PettingZoo's (connect_four) only warn and return None
            # here; Gymnasium raises ValueError where a render mode is required (its
            # RenderCollection and HumanRendering wrappers), and that is what is done here.
            # PettingZoo's api_test and render_test never render without a mode.
            raise ValueError(
                "render() needs a render_mode: this environment was made with render_mode=None; "
                f"make it with render_mode in {RENDER_MODES}, e.g. "
                f"twinsim.parallel_env({self.game!r}, render_mode='ansi')"
            )
        picture = self.match.render(False)
        if self.render_mode == "human":
            print(picture)
            return None
        return picture


class _OnTable:
    """What both PettingZoo APIs answer the same way, from the game held in ``self._table``."""

    _table: _Table
    metadata: dict[str, Any]

    def __init__(
        self,
        game: str,
        seed: int | None = None,
        league: int | None = None,
        engine: str = "fast",
        render_mode: str | None = None,
        params: dict | None = None,
    ) -> None:
        """An environment of ``game`` (``engine``: ``"fast"`` or ``"reference"``; ``league``: the
        referee's league, default the top one; ``seed``: the first reset's seed; ``params``: other
        setup parameters under a trace's keys, e.g. Wondev Woman's ``mapIndex``)."""
        super().__init__()
        self._table = _Table(game, seed, league, engine, render_mode, params)
        self.metadata = dict(self.metadata, name=f"twinsim_{game.replace('-', '_')}")
        self.render_mode = render_mode
        self.possible_agents = list(self._table.names)
        self.agents: list[str] = []
        self.seed_used: int | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._table.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._table.action_spaces[agent]

    def render(self) -> str | None:
        return self._table.render()

    def close(self) -> None:
        """Nothing to release: the game lives in this object."""

    def legal_lines(self, agent: str) -> list[str]:
        """The referee's legal lines of ``agent`` now (empty when it is not to act)."""
        return self._table.match.legal(self._table.player(agent))

    def outcome(self) -> dict[str, Any] | None:
        """Once the game is over, the same schema for every game: ``ranks`` (one per player,
        1 = best, equal ranks for a tie), ``scores`` (the game's own final scores), ``reason``
        (how it ended, in the game's words) and ``details`` (the engine's whole outcome object,
        as the game's trace files record it). ``None`` while the game runs."""
        return self._table.outcome()


class TwinsimParallelEnv(_OnTable, ParallelEnv):
    """PettingZoo Parallel API: every player to act answers each step (``twinsim.parallel_env``).

    ``step`` takes a dict agent → action (an index into ``Discrete(n)`` or the exact line a bot
    prints); actions of agents not to act are ignored (``infos[agent]["to_act"]`` tells who is),
    an agent to act with no action is a timeout, with the referee's consequence. Every agent in
    ``agents`` is observed each step, as PettingZoo's Parallel API has it (agents leave ``agents``
    only when the game ends); one not to act this step (the other player in Zuniq and Wondev
    Woman, a Photosynthesis player asleep after WAIT) gets the **no-op mask**: action 0 alone is
    legal, and whatever it sends is ignored, so ``{a: space.sample(mask) for a in env.agents}``
    always works. Rewards: the
    final ranking as +1/0/−1 at the end (three players: +1, 0, −1 by rank), 0 before;
    ``infos[agent]["score_delta"]`` holds the turn's change of the game's own score. The game's
    turn limit is part of its rules, so a game ends by termination, never truncation.
    """

    metadata = {"render_modes": RENDER_MODES, "name": "twinsim", "is_parallelizable": True}

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.seed_used = self._table.setup(seed)
        self.agents = list(self.possible_agents)
        to_act = set(self._table.match.to_act())
        observations = {a: self._table.observe_parallel(a, to_act) for a in self.agents}
        return observations, self._table.infos()

    def step(self, actions: dict[str, Action]):
        table = self._table
        if not self.agents:
            raise _core.GameOverError(
                "no game is running (it is over, or reset() was never called)"
            )
        if not isinstance(actions, dict):
            raise TypeError(f"actions must be a dict agent -> action, not {type(actions).__name__}")
        unknown = [a for a in actions if a not in table.index]
        if unknown:
            raise KeyError(f"unknown agents {unknown}: expected some of {table.names}")
        to_act = set(table.match.to_act())
        lines: list[str | None] = [None] * len(table.names)
        for player in to_act:
            agent = table.names[player]
            if agent in actions and actions[agent] is not None:
                lines[player] = table.line(agent, actions[agent])
        table.match.step_lines(lines)
        agents = self.agents
        next_to_act = set(table.match.to_act())
        observations = {a: table.observe_parallel(a, next_to_act) for a in agents}
        rewards = dict(zip(table.names, table.match.rewards()))
        over = table.match.is_over()
        terminations = {a: over for a in agents}
        truncations = {a: False for a in agents}
        infos = table.infos()
        if over:
            self.agents = []
        return (
            observations,
            {a: float(rewards[a]) for a in agents},
            terminations,
            truncations,
            {a: infos[a] for a in agents},
        )


class TwinsimAECEnv(_OnTable, AECEnv):
    """PettingZoo AEC API: one agent acts per ``step`` (``twinsim.env``).

    In simultaneous games (X-mas Rush, Photosynthesis, Olymbits) the players to act answer one
    after another and the turn resolves once the last has answered; in alternating games (Zuniq,
    Wondev Woman) ``agent_selection`` is the player to move. Actions, rewards, infos and the end
    of a game are as in :class:`TwinsimParallelEnv`.
    """

    metadata = {"render_modes": RENDER_MODES, "name": "twinsim", "is_parallelizable": True}
    #: The lines of the players who have answered this turn (set up by ``reset``).
    _pending: dict[int, str | None]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._table.observe(agent)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.seed_used = self._table.setup(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = self._table.infos()
        self._pending = {}
        self.agent_selection = self._next_to_answer()

    def _next_to_answer(self) -> str:
        """The first player to act who has not answered this turn."""
        for player in self._table.match.to_act():
            if player not in self._pending:
                return self._table.names[player]
        raise AssertionError("a running game always has a player to act")

    def step(self, action: Action | None) -> None:
        if not self.agents:
            raise _core.GameOverError(
                "no game is running (it is over, or reset() was never called)"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table
        player = table.player(agent)
        # None from an agent to act is a timeout (the referee's consequence).
        line = None if action is None else table.line(agent, action)
        self._pending[player] = line
        self._cumulative_rewards[agent] = 0.0
        to_act = table.match.to_act()
        if any(p not in self._pending for p in to_act):
            self._clear_rewards()
            self.agent_selection = self._next_to_answer()
            return
        lines: list[str | None] = [None] * len(table.names)
        for p in to_act:
            lines[p] = self._pending[p]
        self._pending = {}
        table.match.step_lines(lines)
        self.rewards = {a: float(r) for a, r in zip(table.names, table.match.rewards())}
        self.infos = table.infos()
        if table.match.is_over():
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self._next_to_answer()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()
