"""Batched stepping: many games of one game stepped together in Rust, in the shape of
Gymnasium's vector API (a leading batch axis), with a second axis for the players."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from . import _core


class VecEnv:
    """``num_envs`` games of ``game`` stepped together on a thread pool, the GIL released.

    ``reset()`` returns ``(observations, infos)``; ``step(actions)`` takes an integer array of
    shape ``(num_envs, num_players)``, one action index per seat (ignored for seats not to act:
    ``infos["to_act"]``), and returns ``(observations, rewards, terminations, truncations,
    infos)``. ``observations`` is a dict of ``"observation"`` ``(num_envs, num_players,
    *shape)`` in the game's integer type (``int8`` for X-mas Rush, Zuniq and Wondev Woman,
    ``int16`` for Photosynthesis, ``int32`` for Olymbits: the smallest that holds every value;
    cast to float where a network wants it) and ``"action_mask"`` ``(num_envs, num_players, n)``
    int8; rewards are float32 and terminations and truncations bool, all ``(num_envs,
    num_players)``. Rust writes them in place, on the pool: nothing is copied either way.
    ``copy`` is Gymnasium's flag: ``True`` (the default) returns fresh arrays on every call;
    ``False`` returns the same arrays on every call, overwritten by the next ``reset`` or
    ``step`` (copy what you keep). ``False`` is the faster for large batches: no array is
    allocated or cleared in the calling thread.

    ``threads`` (default 1, at most 256) steps the games on the calling thread and ``threads -
    1`` pool workers. One thread is the default because it is never slower than a pool whose
    workers share their cores with other work (on a loaded machine two threads ran 13 times
    slower than one); more threads pay on idle cores and large batches. After a call the workers
    keep spinning for ``spin`` seconds (default 2 ms), waiting for the next: waking a sleeping
    worker costs tens of microseconds, more than a small batch's whole step, but a spinning
    worker keeps its core busy, so a policy that wants every core between steps sets ``spin=0``.

    ``num_envs`` is 1 to 2^20; a batch too big for memory raises ``MemoryError``. A batch is
    safe to share between Python threads (calls on it run one at a time; a waiting call holds
    neither the batch nor the GIL) and to use in a ``fork()``-ed child (its first call there
    builds a thread pool of its own; a batch that another thread was stepping at the fork
    raises ``RuntimeError`` there).

    A game that ends is set up again within the same step (Gymnasium's same-step autoreset):
    that step's rewards and terminations are the finished game's, its observations the new
    game's. Game ``i`` starts from seed ``seed + i``; its k-th new game from
    ``seed + i + k·num_envs`` (Olymbits' seed 0, which its referee cannot replay, plays the
    same game as ``parallel_env("olymbits").reset(seed=0)``).

    ``path="typed"`` (the default, with ``engine="fast"``) steps the fast twin's typed state
    directly, building each seat's numbers from what its view shows; ``path="view"`` steps the
    text-level engine and reads every observation back from the referee's views. Both give the
    same arrays (tested).
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        seed: int = 1,
        threads: int | None = None,
        engine: str = "fast",
        league: int | None = None,
        path: str = "typed",
        copy: bool = True,
        spin: float = 0.002,
    ) -> None:
        for name, value in (("num_envs", num_envs), ("seed", seed)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if threads is not None and (
            isinstance(threads, bool) or not isinstance(threads, (int, np.integer))
        ):
            raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        shape, dtype, (low, high), num_actions, num_players, turns = _core.spec(game)
        if not isinstance(copy, bool):
            raise TypeError(f"copy must be a bool, not {type(copy).__name__}")
        if isinstance(spin, bool) or not isinstance(spin, (int, float, np.integer, np.floating)):
            raise TypeError(f"spin must be a number of seconds, not {type(spin).__name__}")
        self._core = _core.VecEnv(
            game, int(num_envs), int(seed), threads, engine, league, path, copy, float(spin)
        )
        # Never true (the turn limit is a rule: games end by termination); with copy=False the
        # same array every step, as the others.
        self._truncations = np.zeros((int(num_envs), num_players), dtype=bool)
        self.copy = copy
        self.game = game
        self.num_envs = int(num_envs)
        self.num_players = num_players
        self.num_actions = num_actions
        self.turns = turns
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, tuple(shape), np.dtype(dtype)),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(num_actions)
        self.action_space = spaces.MultiDiscrete(
            np.full((self.num_envs, num_players), num_actions, dtype=np.int64)
        )

    @property
    def dtype(self) -> np.dtype:
        """The observations' number type (``int8``, ``int16`` or ``int32``)."""
        return np.dtype(self._core.dtype)

    @property
    def path(self) -> str:
        """``"typed"`` or ``"view"``: which lanes this batch steps (see the class documentation)."""
        return self._core.path

    def seeds(self) -> list[int]:
        """The seed each game of the batch was set up with."""
        return self._core.seeds()

    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Sets every game up again (game ``i`` from ``seed + i`` when given)."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        observations, masks, to_act = self._core.reset(None if seed is None else int(seed))
        return {"observation": observations, "action_mask": masks}, {"to_act": to_act}

    def step(self, actions: Any):
        """Plays one turn of every game; see the class documentation for the shapes."""
        array = np.asarray(actions)
        if not np.issubdtype(array.dtype, np.integer):
            raise TypeError(f"actions must be an integer array, not of dtype {array.dtype}")
        expected = (self.num_envs, self.num_players)
        if array.shape != expected:
            raise ValueError(
                f"actions must have shape {expected} (num_envs, num_players), found {array.shape}"
            )
        array = np.ascontiguousarray(array, dtype=np.int64)
        observations, masks, rewards, terminations, to_act, deltas = self._core.step(array)
        truncations = self._truncations.copy() if self.copy else self._truncations
        infos = {"to_act": to_act, "score_delta": deltas}
        return (
            {"observation": observations, "action_mask": masks},
            rewards,
            terminations,
            truncations,
            infos,
        )

    def close(self) -> None:
        """Stops the pool's workers spinning since the last step (they sleep until the next
        call; the games live in this object and stay usable)."""
        self._core.release_workers()
