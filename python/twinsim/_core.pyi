"""Typed stubs of the Rust extension `twinsim._core` (see `python/src/`)."""

from os import PathLike
from pathlib import Path
from typing import Any, final

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

__all__ = [
    "games",
    "search_bots",
    "referee_seed",
    "spec",
    "replay",
    "engine_seconds",
    "typed_engine_seconds",
    "lanes_seconds",
    "arena_json",
    "arena_shard",
    "arena_identity",
    "Tally",
    "Bot",
    "Match",
    "VecEnv",
    "GameOverError",
    "OutDir",
    "Progress",
]

class GameOverError(RuntimeError):
    """A step was asked of a game that is over: reset it first."""

def games() -> list[str]: ...
def search_bots() -> list[tuple[str, str]]: ...
def referee_seed(game: str, seed: int) -> int: ...
def spec(game: str) -> tuple[list[int], str, tuple[int, int], int, int, str]: ...
def replay(
    path: str | PathLike[str], engine: str = "both"
) -> list[tuple[str, int | None, str, int, list[tuple[str, str, str, str]]]]: ...
def engine_seconds(game: str, turns: int, seed: int = 1, engine: str = "fast") -> float: ...
def typed_engine_seconds(game: str, turns: int, seed: int = 1, whole: bool = False) -> float: ...
def lanes_seconds(game: str, num_envs: int, steps: int, seed: int = 1) -> float: ...
def arena_json(
    game: str,
    bots: list[str],
    games: int = 10,
    seed: int = 1,
    league: int | None = None,
    engine: str = "fast",
    threads: int | None = None,
    time_scale: float = 1.0,
    bot_time_scales: list[tuple[int, float]] = ...,
) -> str: ...
def arena_shard(
    game: str,
    bots: list[str],
    games: int,
    seed: int,
    start: int,
    stop: int,
    league: int | None = None,
    engine: str = "fast",
    threads: int | None = None,
    time_scale: float = 1.0,
    stderr_limit: int = ...,  # 262144 bytes (the arena's limit of a bot's kept stderr)
    bot_time_scales: list[tuple[int, float]] = ...,
) -> list[tuple[int, str, str, list[tuple[str, str]]]]: ...
def arena_identity(
    game: str, bots: list[str], seed: int, league: int | None = None, engine: str = "fast"
) -> str: ...

@final
class Tally:
    """The standings of an arena run fed its results.jsonl lines (each index counted once)."""

    def __new__(
        cls, game: str, bots: list[str], league: int | None = None, engine: str = "fast"
    ) -> Self: ...
    def add(self, line: str) -> bool: ...
    def report(self) -> tuple[str, str]: ...

@final
class OutDir:
    """The `--out` directory of an arena run, written by the CLI's own code (arena/src/out_dir.rs):
    each game's trace then result line, whole or not at all; a resume repairs a cut last line."""

    def __new__(
        cls,
        path: str | PathLike[str],
        identity: str,
        resume: bool = False,
        sync_seconds: float = 0.0,
    ) -> Self: ...
    @property
    def path(self) -> Path: ...
    def done(self, games: int) -> list[tuple[int, str]]: ...
    def append(
        self, trace: str, result: str, stderr_files: list[tuple[str, str]] = ...
    ) -> None: ...
    def sync(self) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, _kind: object, _value: object, _traceback: object) -> None: ...

@final
class Progress:
    """The progress line of `twinsim arena` as text to write (`None`: no line is due)."""

    def __new__(
        cls, total: int, enabled: bool = True, terminal: bool = False, done_before: int = 0
    ) -> Self: ...
    def line(self, done: int, tally: Tally, force: bool = False) -> str | None: ...

@final
class Match:
    """One game, every seat."""

    def __new__(
        cls,
        game: str,
        seed: int,
        league: int | None = None,
        engine: str = "fast",
        params_json: str | None = None,
    ) -> Self: ...
    def reset(self, seed: int) -> None: ...
    @property
    def game(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def turns(self) -> str: ...
    @property
    def turn(self) -> int: ...
    def to_act(self) -> list[int]: ...
    def is_over(self) -> bool: ...
    def init_inputs(self) -> list[str | None]: ...
    def views(self) -> list[str | None]: ...
    def legal(self, player: int) -> list[str]: ...
    def line(self, player: int, index: int) -> str: ...
    def index_of(self, player: int, line: str) -> int | None: ...
    def observe(self, player: int) -> npt.NDArray[np.signedinteger[Any]]: ...
    def mask(self, player: int) -> npt.NDArray[np.int8]: ...
    def step_indices(self, indices: list[int]) -> None: ...
    def step_lines(self, lines: list[str | None]) -> None: ...
    def scores(self) -> list[float]: ...
    def score_deltas(self) -> list[float]: ...
    def rewards(self) -> list[float]: ...
    def ranks(self) -> list[int] | None: ...
    def outcome_json(self) -> str | None: ...
    def records_json(self) -> tuple[str, str]: ...
    def render(self, colour: bool = False) -> str: ...

@final
class VecEnv:
    """A batch of games of one game, stepped on a thread pool."""

    def __new__(
        cls,
        game: str,
        num_envs: int,
        seed: int = 1,
        threads: int | None = None,
        engine: str = "fast",
        league: int | None = None,
        path: str = "typed",
        copy: bool = True,
        spin: float = 0.002,
    ) -> Self: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def dtype(self) -> str: ...
    def release_workers(self) -> None: ...
    @property
    def copy(self) -> bool: ...
    @property
    def num_players(self) -> int: ...
    @property
    def path(self) -> Path: ...
    def seeds(self) -> list[int]: ...
    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.signedinteger[Any]], npt.NDArray[np.int8], npt.NDArray[np.bool_]]: ...
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        tuple[
            npt.NDArray[np.signedinteger[Any]],
            npt.NDArray[np.int8],
            npt.NDArray[np.float32],
            npt.NDArray[np.bool_],
            npt.NDArray[np.bool_],
            npt.NDArray[np.float32],
        ],
        list[int],
        npt.NDArray[np.signedinteger[Any]] | None,
    ]: ...

@final
class Bot:
    """A built-in search bot of one seat."""

    def __new__(
        cls, game: str, spec: str, seat: int, seed: int = 1, time_ms: int | None = None
    ) -> Self: ...
    def __call__(self, input: str) -> str | None: ...
    def stats(self) -> tuple[int, int]: ...
