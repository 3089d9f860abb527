"""twinsim: exact, fast rule engines for five bot-programming games, from Python.

- :func:`env` / :func:`parallel_env`: PettingZoo environments (AEC and Parallel APIs).
- :class:`VecEnv`: many games stepped together in Rust, Gymnasium's vector API shape.
- :func:`replay`: a referee trace file through the engines; returns the mismatches.
- :func:`arena`: bots against each other (the ``twinsim arena`` command); returns the results.
- :func:`bot`: a built-in search bot as a callable, from the referee's text to its line.
- :mod:`twinsim.distributed`: tournaments and self-play rollouts on a Ray cluster
  (``pip install twinsim[ray]``; ``python -m twinsim.tournament`` from a shell).

Games: ``xmas-rush``, ``photosynthesis``, ``zuniq``, ``olymbits``, ``wondev-woman``. Each game's
observation planes, number types and action numbering are documented in ``python/README.md`` of
the repository and summed up by :func:`spec`.
"""

from __future__ import annotations

import difflib
import json
from typing import Callable

import numpy as np

from . import _core, distributed
from ._core import GameOverError
from ._envs import TwinsimAECEnv, TwinsimParallelEnv
from ._vector import VecEnv

__all__ = [
    "GAMES",
    "GameOverError",
    "TwinsimAECEnv",
    "TwinsimParallelEnv",
    "VecEnv",
    "arena",
    "bot",
    "distributed",
    "env",
    "parallel_env",
    "replay",
    "spec",
]

#: The five games, by trace name.
GAMES: tuple[str, ...] = tuple(_core.games())

#: The built-in search bot of each game (``twinsim.bot(game, "builtin:" + name)``).
SEARCH_BOTS: dict[str, str] = dict(_core.search_bots())


#: A PettingZoo AEC environment of ``game``: ``env(game, seed=None, league=None, engine="fast",
#: render_mode=None, params=None)`` (``engine``: ``"fast"`` or ``"reference"``; ``league``: the
#: referee's league, default the top one; ``seed``: the first reset's seed; ``params``: other
#: setup parameters under a trace's keys, e.g. Wondev Woman's ``mapIndex``).
env = TwinsimAECEnv

#: A PettingZoo Parallel environment of ``game`` (arguments as for :data:`env`).
parallel_env = TwinsimParallelEnv


def spec(game: str) -> dict:
    """The shape of ``game``'s spaces: observation shape, number type and bounds, action count,
    players, turn order."""
    shape, dtype, bounds, num_actions, num_players, turns = _core.spec(game)
    return {
        "observation_shape": tuple(shape),
        "observation_dtype": np.dtype(dtype),
        "observation_bounds": bounds,
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


def arena(
    game: str,
    bots: list[str],
    games: int = 10,
    seed: int = 1,
    league: int | None = None,
    engine: str = "fast",
    threads: int | None = None,
    time_scale: float = 1.0,
    bot_time_scales: distributed.BotTimeScales | None = None,
) -> dict:
    """Plays ``games`` games of ``game`` between ``bots`` (one per seat, seats rotating):
    ``builtin:random``, ``builtin:greedy``, ``builtin:<search>[@reference|@fast][:iterations=N]``
    or a shell command speaking the referee's protocol, under the referee's time limits times
    ``time_scale``. ``bot_time_scales={bot: scale}`` gives a bot (its index in ``bots``, from 0) its
    own scale instead, as ``twinsim arena --bot-time-scale BOT=X`` does: ``{0: 3}`` gives a slow
    process bot ``bots[0]`` 3× the clock while the others keep ``time_scale``. Returns ``{"results":
    [one dict per game: seed, seats, scores, ranks, reason, turns, timeouts, crashed, illegal, ...],
    "bots": [one dict per bot, the schema of ``twinsim arena --json``: bot, wins, draws, losses,
    win_rate ({mean, low, high}), average_score, invalid, timeouts, crashes, not_started,
    first_problems, illegal, iterations_per_move, skill, openskill ({mu, sigma}), answer_ms]}``."""
    if isinstance(bots, str) or not all(isinstance(b, str) for b in bots):
        raise TypeError("bots must be a list of strings, one per seat")
    scales = distributed.bot_time_scale_pairs(bot_time_scales)
    text = _core.arena_json(
        game, list(bots), games, seed, league, engine, threads, time_scale, scales
    )
    return json.loads(text)


def bot(
    game: str, spec: str, seat: int = 0, seed: int = 1, time_ms: int | None = None
) -> Callable[[str], str | None]:
    """A built-in search bot of ``game`` playing ``seat``: ``spec`` is
    ``"builtin:<search>[@reference|@fast][:iterations=N]"`` (see :data:`SEARCH_BOTS`). Call it
    with the text the referee sends (an environment's ``infos[agent]["view"]``); it returns the
    line to print, to pass to ``step``. It thinks until the referee's time limit, or ``time_ms``
    per answer (an ``iterations=N`` spec stops earlier and plays the same every time)."""
    try:
        return _core.Bot(game, spec, seat, seed, time_ms)
    except ValueError as error:
        hint = _bot_spec_hint(game, spec)
        if hint is None:
            raise
        raise ValueError(f"{error}; did you mean {hint!r}?") from None


def _bot_spec_hint(game: str, spec: str) -> str | None:
    """The search bot spec ``spec`` was probably meant to be: ``builtin:`` left out, or the name
    misspelt or of another game (``None`` if nothing is close)."""
    if not isinstance(spec, str) or game not in SEARCH_BOTS:
        return None
    name, _, suffix = spec.removeprefix("builtin:").partition(":")
    engine = ""
    if "@" in name:
        name, engine = name.split("@", 1)
        engine = "@" + engine
    expected = SEARCH_BOTS[game]
    close = difflib.get_close_matches(name, sorted(set(SEARCH_BOTS.values())), n=1, cutoff=0.6)
    if name == expected or close:
        rest = f":{suffix}" if suffix else ""
        return f"builtin:{expected}{engine}{rest}"
    return None
