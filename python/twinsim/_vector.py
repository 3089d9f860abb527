"""Batched stepping: many games of one game stepped together in Rust, as a
:class:`gymnasium.vector.VectorEnv` whose sub-environments are whole games (every seat)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space

from . import _core


class VecEnv(GymVectorEnv):
    """``num_envs`` games of ``game`` stepped together on a thread pool, the GIL released: a
    :class:`gymnasium.vector.VectorEnv` with same-step autoreset
    (``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``).

    **Spaces.** One sub-environment of the vector is one game with all its seats, so every
    array has a leading batch axis and then a seat axis. ``single_observation_space`` is a
    ``Dict`` of ``"observation"`` ``Box((num_players, *shape))`` and ``"action_mask"``
    ``Box(0, 1, (num_players, n), int8)``; ``single_action_space`` is ``MultiDiscrete([n] *
    num_players)``, one action index per seat; ``observation_space`` and ``action_space`` are
    those batched (``gymnasium.vector.utils.batch_space``). One seat's spaces, those of
    ``parallel_env(game)``'s agents, are ``agent_observation_space`` and
    ``agent_action_space``. Rewards, terminations and truncations are per seat as well,
    ``(num_envs, num_players)`` (a game ends for all its seats at once), where a single-agent
    VectorEnv has ``(num_envs,)``: wrappers that add up or compare rewards per
    sub-environment (``RecordEpisodeStatistics``) run over a view of one seat.

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

    **Autoreset.** A game that ends is set up again within the same step (Gymnasium's
    ``SAME_STEP``): that step's rewards and terminations are the finished game's, its
    observations the new game's. As Gymnasium's own vector envs in that mode, the step's
    ``infos`` then holds ``"final_obs"``, an object array of ``num_envs`` entries (``None`` but
    for the games that ended), each the finished game's observation dict (``"observation"``
    ``(num_players, *shape)``, ``"action_mask"`` all zeros: no seat is to act), with the mask
    ``"_final_obs"``; and ``"final_info"`` (the finished games' ``"to_act"``, all false, and
    ``"score_delta"``, each with its ``_`` mask) with ``"_final_info"``. Both keys are absent
    from a step in which no game ended. A seat's final observation is what the referee last
    showed it: the view of the end where the last turn sends one (Olymbits), else the last
    view it was sent (the other four games' referees end the game without a view), the
    observation ``parallel_env(game)`` returns for the same game at its end.

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

    Game ``i`` starts from seed ``seed + i``; its k-th new game from ``seed + i + k·num_envs``
    (Olymbits' seed 0, which its referee cannot replay, plays the same game as
    ``parallel_env("olymbits").reset(seed=0)``).

    ``path="typed"`` (the default, with ``engine="fast"``) steps the fast twin's typed state
    directly, building each seat's numbers from what its view shows; ``path="view"`` steps the
    text-level engine and reads every observation back from the referee's views. Both give the
    same arrays (tested), final observations included.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

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
        self.agent_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, tuple(shape), np.dtype(dtype)),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            }
        )
        self.agent_action_space = spaces.Discrete(num_actions)
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, (num_players, *shape), np.dtype(dtype)),
                "action_mask": spaces.Box(0, 1, (num_players, num_actions), np.int8),
            }
        )
        self.single_action_space = spaces.MultiDiscrete(
            np.full(num_players, num_actions, dtype=np.int64)
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        # The final observations' masks: no seat of a finished game is to act.
        self._final_mask = np.zeros((num_players, num_actions), dtype=np.int8)
        self._final_mask.flags.writeable = False

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
        arrays, ended, final_observations = self._core.step(array)
        observations, masks, rewards, terminations, to_act, deltas = arrays
        truncations = self._truncations.copy() if self.copy else self._truncations
        infos: dict[str, Any] = {"to_act": to_act, "score_delta": deltas}
        if ended:
            self._add_final(infos, ended, final_observations, deltas)
        return (
            {"observation": observations, "action_mask": masks},
            rewards,
            terminations,
            truncations,
            infos,
        )

    def _add_final(
        self,
        infos: dict[str, Any],
        ended: list[int],
        final_observations: np.ndarray | None,
        deltas: np.ndarray,
    ) -> None:
        """Adds the games that ended to a step's ``infos`` as Gymnasium's same-step vector envs
        do (``VectorEnv._add_info``): ``final_obs``/``_final_obs``, ``final_info``/
        ``_final_info``."""
        assert final_observations is not None, "Rust hands them with the ended games"
        done = np.zeros(self.num_envs, dtype=bool)
        done[ended] = True
        final_obs = np.full(self.num_envs, None, dtype=object)
        for row, i in enumerate(ended):
            final_obs[i] = {
                "observation": final_observations[row],
                "action_mask": self._final_mask,
            }
        final_deltas = np.zeros_like(deltas)
        final_deltas[done] = deltas[done]
        infos["final_obs"], infos["_final_obs"] = final_obs, done
        infos["final_info"] = {
            "to_act": np.zeros((self.num_envs, self.num_players), dtype=bool),
            "_to_act": done.copy(),
            "score_delta": final_deltas,
            "_score_delta": done.copy(),
        }
        infos["_final_info"] = done.copy()

    def close(self, **kwargs: Any) -> None:
        """Stops the pool's workers spinning since the last step (they sleep until the next
        call; the games live in this object and stay usable, so every ``close`` stops them)."""
        self._core.release_workers()
        self.closed = True
