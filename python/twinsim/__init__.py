"""twinsim: exact, fast rule engines for five bot-programming games, from Python.

- :func:`env` / :func:`parallel_env`: PettingZoo environments (AEC and Parallel APIs).
- :class:`VecEnv`: many games stepped together in Rust, Gymnasium's vector API shape.
- :func:`replay`: a referee trace file through the engines; returns the mismatches.

Games: ``xmas-rush``, ``photosynthesis``, ``zuniq``, ``olymbits``, ``wondev-woman``. Each game's
observation planes and action numbering are documented in ``docs/python.md`` of the repository
and in :func:`spec`.
"""

from __future__ import annotations

from typing import Optional

from . import _core
from ._core import GameOverError
from ._envs import TwinsimAECEnv, TwinsimParallelEnv
from ._vector import VecEnv

__all__ = [
    "GAMES",
    "GameOverError",
    "TwinsimAECEnv",
    "TwinsimParallelEnv",
    "VecEnv",
    "env",
    "parallel_env",
    "replay",
    "spec",
]

#: The five games, by trace name.
GAMES: tuple[str, ...] = tuple(_core.games())


def env(
    game: str,
    seed: Optional[int] = None,
    league: Optional[int] = None,
    engine: str = "fast",
    render_mode: Optional[str] = None,
    params: Optional[dict] = None,
) -> TwinsimAECEnv:
    """A PettingZoo AEC environment of ``game`` (``engine``: ``"fast"`` or ``"reference"``;
    ``league``: the referee's league, default the top one; ``seed``: the first reset's seed;
    ``params``: other setup parameters under a trace's keys, e.g. Wondev Woman's ``mapIndex``)."""
    return TwinsimAECEnv(game, seed=seed, league=league, engine=engine, render_mode=render_mode, params=params)


def parallel_env(
    game: str,
    seed: Optional[int] = None,
    league: Optional[int] = None,
    engine: str = "fast",
    render_mode: Optional[str] = None,
    params: Optional[dict] = None,
) -> TwinsimParallelEnv:
    """A PettingZoo Parallel environment of ``game`` (arguments as for :func:`env`)."""
    return TwinsimParallelEnv(game, seed=seed, league=league, engine=engine, render_mode=render_mode, params=params)


def spec(game: str) -> dict:
    """The shape of ``game``'s spaces: observation shape, action count, players, turn order."""
    shape, num_actions, num_players, turns = _core.spec(game)
    return {
        "observation_shape": tuple(shape),
        "num_actions": num_actions,
        "num_players": num_players,
        "turns": turns,
    }


def replay(path: str, engine: str = "both") -> list[dict]:
    """Replays a referee trace file (JSON Lines, ``tests/traces/*.jsonl``) through ``engine``
    (``"fast"``, ``"reference"`` or ``"both"``) and returns one dict per diverging game replay:
    ``game``, ``seed``, ``engine``, ``turns`` and its first ``differences`` (``moment``,
    ``field``, ``expected``, ``found``). An empty list means every game replayed identically."""
    return [
        {
            "game": game,
            "seed": seed,
            "engine": kind,
            "turns": turns,
            "differences": [
                {"moment": m, "field": f, "expected": e, "found": x} for m, f, e, x in differences
            ],
        }
        for game, seed, kind, turns, differences in _core.replay(str(path), engine)
    ]
