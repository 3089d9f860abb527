"""Tournaments and self-play rollouts beyond one machine, on Ray (``pip install twinsim[ray]``).

- :func:`tournament`: an arena run split into shards of game indices, each shard a Ray task
  played by the Rust arena (process bots and built-in bots alike, the referee's time limits,
  seats rotating), the finished games streamed back to this driver, which writes them through
  the CLI's own out directory (:class:`twinsim._core.OutDir`: the same files and crash rules as
  ``twinsim arena --out``, so either resumes the other's directory), shows the CLI's progress
  line (:class:`twinsim._core.Progress`) and prints the same table. Every game index is kept
  once, whatever Ray retries; ``resume=True`` continues a run whose driver was stopped.
- :func:`rollouts`: games played by a Python policy over :class:`twinsim.VecEnv` batches on Ray
  actors; the trajectories come back as numpy arrays, or as ``.npz`` shards in a folder.

``address=None`` starts a Ray on this machine for the call; ``address="auto"`` or
``"HOST:PORT"`` joins a running cluster, whose nodes need this package installed (the same
version) and, for process bots, the bot commands at the same paths.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Callable, Union

import numpy as np

from . import _core

__all__ = ["rollouts", "tournament", "random_policy"]

#: Most bytes of each process bot's stderr kept per game (the CLI's default, 256 KiB).
DEFAULT_STDERR_LIMIT = 256 * 1024
#: Longest time the driver's written games wait for a disk sync: a sync per game (the CLI's
#: default) would cost more than the game on a loaded disk (16 ms); what a power cut loses since
#: the last sync, a resume plays again (a killed driver loses nothing written).
SYNC_SECONDS = 1.0


#: Each bot's own time scale, as ``twinsim.arena`` and :func:`tournament` take it: ``{bot: scale}``
#: (``bot`` the bot's index in ``bots``, from 0, as ``--bot-time-scale BOT=X`` counts), or the
#: ``(bot, scale)`` pairs the command line gives.
BotTimeScales = Union[Mapping[int, float], Iterable[tuple[int, float]]]  # noqa: UP007 (3.9)


def bot_time_scale_pairs(scales: BotTimeScales | None) -> list[tuple[int, float]]:
    """The ``(bot, scale)`` pairs of ``scales`` for the Rust arena, which refuses (a
    ``ValueError``) what ``twinsim arena --bot-time-scale`` refuses: an index that is not a bot's,
    a bot given twice, a scale not above 0 or above 1000."""
    if scales is None:
        return []
    if isinstance(scales, (str, bytes)):
        raise TypeError("bot_time_scales must be a dict {bot index: scale}, not a string")
    items = scales.items() if isinstance(scales, Mapping) else scales
    pairs = []
    for item in items:
        try:
            bot, scale = item
        except (TypeError, ValueError):
            raise TypeError(f"bot_time_scales: {item!r} is not a (bot, scale) pair") from None
        if isinstance(bot, bool) or not isinstance(bot, int):
            raise TypeError(f"bot_time_scales: bot {bot!r}: the bot's index, an int from 0")
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise TypeError(f"bot_time_scales: scale {scale!r} of bot {bot}: a number")
        if not -(2**63) <= bot < 2**63:  # beyond the Rust side's integers; no bot's index
            raise ValueError(f"bot_time_scales: bot {bot}: not a bot's index")
        pairs.append((bot, float(scale)))
    return pairs


def _ray():
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError(
            "twinsim.distributed needs Ray: pip install 'twinsim[ray]' (or pip install ray)"
        ) from e
    return ray


class _RaySession:
    """Connects to Ray for one call: joins ``address`` or starts a local Ray, and shuts down only
    what it started."""

    def __init__(self, address: str | None, num_cpus: int | None) -> None:
        self.ray = _ray()
        self.started = False
        if not self.ray.is_initialized():
            kwargs: dict[str, Any] = {"log_to_driver": False, "logging_level": "WARNING"}
            if address is None:
                kwargs["include_dashboard"] = False
                if num_cpus is not None:
                    kwargs["num_cpus"] = num_cpus
            self.ray.init(address=address, **kwargs)
            self.started = True

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def _arena_shard(config: dict, start: int, stop: int) -> list[tuple]:
    """Games ``start..stop`` of the run ``config`` describes (:func:`twinsim._core.arena_shard`);
    ``start == stop`` only checks the run's arguments."""
    keys = ("game", "bots", "games", "seed")
    options = ("league", "engine", "threads", "time_scale", "stderr_limit", "bot_time_scales")
    return _core.arena_shard(*(config[k] for k in keys), start, stop, *(config[k] for k in options))


def _play_shard(config: dict, start: int, stop: int) -> Iterator[tuple]:
    """A Ray generator task: games ``start..stop`` of the run ``config`` describes (see
    :func:`twinsim._core.arena_shard`), yielded one by one in index order as they finish, so the
    driver writes each game while the shard plays on.

    The shard plays ``threads`` games per arena call and yields them in index order: the k-th
    value of every attempt is game ``start + k``. Ray retries a generator task by replaying it
    and skipping the values it already delivered, which is only sound when a replay yields the
    same thing at the same place; the index order makes that so even when games finish in
    another order or a process bot answers differently (the driver keeps one copy of each index
    besides)."""
    step = config["threads"]
    for first in range(start, stop, step):
        played = _arena_shard(config, first, min(first + step, stop))
        # A plain loop, not `yield from`: Ray drives the generator with send(), which `yield
        # from` passes on to the list's iterator, which has none.
        for game in played:  # noqa: UP028
            yield game


#: Tasks per free CPU slot when ``shard`` is not given: enough that a slow slot or a late node
#: does not leave the others idle at the end, few enough that each task's start-up is paid rarely.
TASKS_PER_SLOT = 4

#: The largest automatic shard: a retried task (a dead worker or node) replays at most this many.
MAX_AUTO_SHARD = 500


def auto_shard(games: int, cpus: float, threads: int = 1) -> int:
    """Games per Ray task when ``--shard`` is not given: the games spread over the cluster's
    task slots (``cpus // threads``), :data:`TASKS_PER_SLOT` tasks each, at most
    :data:`MAX_AUTO_SHARD` games per task. 200 games on 2 CPUs: 25 per task (8 tasks), not one
    task of 500."""
    slots = max(1, int(cpus) // max(1, threads))
    per_task = -(-games // (slots * TASKS_PER_SLOT))
    return max(1, min(MAX_AUTO_SHARD, per_task))


def _missing_ranges(games: int, done: set[int], shard: int) -> Iterator[tuple[int, int]]:
    """The ranges of game indices not in ``done``, cut at multiples of ``shard``."""
    for first in range(0, games, shard):
        start = None
        for index in range(first, min(first + shard, games)):
            if index in done:
                if start is not None:
                    yield start, index
                    start = None
            elif start is None:
                start = index
        if start is not None:
            yield start, min(first + shard, games)


def _show(progress_text: str | None) -> None:
    """Writes a line of :class:`twinsim._core.Progress` to stderr (``None``: none is due)."""
    if progress_text is not None:
        sys.stderr.write(progress_text)
        sys.stderr.flush()


def tournament(
    game: str,
    bots: list[str],
    games: int,
    seed: int = 1,
    out: str | os.PathLike | None = None,
    address: str | None = None,
    shard: int | None = None,
    *,
    league: int | None = None,
    engine: str = "fast",
    threads: int = 1,
    time_scale: float = 1.0,
    bot_time_scales: BotTimeScales | None = None,
    stderr_limit: int = DEFAULT_STDERR_LIMIT,
    resume: bool = False,
    max_retries: int = 5,
    num_cpus: int | None = None,
    progress: bool = True,
    table: bool = True,
) -> dict:
    """Plays the arena run ``twinsim arena GAME --bot ... --games GAMES --seed SEED`` on Ray.

    The games are cut into shards of ``shard`` consecutive indices (default: sized from the games
    left and the cluster's CPUs, :func:`auto_shard`); each shard is a Ray task
    (``threads`` games at once, reserving as many CPUs, retried up to ``max_retries`` times when
    its worker or node dies) that plays its games exactly as the whole run would (same seeds, seat
    rotation, bot seeds, time limits times ``time_scale``, or times a bot's own scale in
    ``bot_time_scales``: ``{bot index from 0: scale}``, as ``twinsim.arena`` takes it). Each game
    streams back to this driver as soon as it is played; the driver keeps one copy of each game
    index and, with ``out``, appends each game's trace and result to ``traces.jsonl`` and
    ``results.jsonl`` there (and bots' stderr to ``stderr/``) through the CLI's own ``--out``
    code (:class:`twinsim._core.OutDir`): the same files, each game whole or not at all, and a
    full disk stops the run with an ``OSError`` leaving a directory that resumes.
    ``resume=True`` continues the run in ``out`` (written by this function or by
    ``twinsim arena --out``; ``twinsim arena --resume`` continues this function's): the games
    already there are counted and only the others are played.
    ``address``: ``None`` starts a local Ray (``num_cpus`` workers, default all cores);
    ``"auto"`` or ``"HOST:PORT"`` joins a cluster. With ``progress`` the CLI's progress line
    (games done, rate, ETA once 5% of the games left are done, running win rates) is shown on
    stderr; with ``table`` the CLI's final table is printed.

    Returns ``{"games": n, "bots": [each bot's totals, as twinsim.arena gives them], "table":
    the final table, "interrupted": bool}`` and, without ``out``, ``"results"``: every game's
    result, by index (with ``out`` they are in ``results.jsonl``, as many as there are games).
    A Ctrl-C stops the run (``interrupted``: resume it with ``resume=True``).
    """
    if isinstance(bots, str) or not all(isinstance(b, str) for b in bots):
        raise TypeError("bots must be a list of strings, one per seat")
    for name, value in (("games", games), ("shard", shard), ("threads", threads)):
        if name == "shard" and value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if games < 1 or (shard is not None and shard < 1) or threads < 1 or max_retries < 0:
        raise ValueError("games, shard and threads must be at least 1, max_retries at least 0")
    if resume and out is None:
        raise ValueError("resume=True continues the run in out: give out")
    bots = list(bots)
    config = {
        "game": game,
        "bots": bots,
        "games": games,
        "seed": seed,
        "league": league,
        "engine": engine,
        "threads": threads,
        "time_scale": float(time_scale),
        "stderr_limit": stderr_limit,
        "bot_time_scales": bot_time_scale_pairs(bot_time_scales),
    }
    # Checks every argument (a ValueError) before any Ray starts.
    _arena_shard(config, 0, 0)
    identity = _core.arena_identity(game, bots, seed, league, engine)
    tally = _core.Tally(game, bots, league, engine)
    out_dir = None
    if out is not None:
        out_dir = _core.OutDir(out, identity, resume, sync_seconds=SYNC_SECONDS)
    done: set[int] = set()
    kept: dict[int, dict] = {}
    if out_dir is not None:
        for index, line in out_dir.done(games):
            done.add(index)
            tally.add(line)
    terminal = progress and sys.stderr.isatty()
    meter = _core.Progress(games, progress, terminal, done_before=len(done))
    interrupted = False
    session = None
    pending: list = []
    try:
        ranges = []
        if len(done) < games:
            session = _RaySession(address, num_cpus)
            ray = session.ray
            if shard is None:
                cpus = ray.cluster_resources().get("CPU", 1)
                shard = auto_shard(games - len(done), cpus, threads)
            ranges = list(_missing_ranges(games, done, shard))
            # SPREAD: shards go to every node from the start, not first to the driver's own.
            task = ray.remote(
                num_cpus=threads, max_retries=max_retries, scheduling_strategy="SPREAD"
            )(_play_shard)
            shared = ray.put(config)
            pending = [task.remote(shared, start, stop) for start, stop in ranges]
        _show(meter.line(len(done), tally, force=not ranges))
        while pending:
            # A generator is ready when its next game has arrived, or when its shard is over.
            ready, pending = session.ray.wait(pending, num_returns=1, timeout=1.0)
            for shard_games in ready:
                try:
                    ref = next(shard_games)
                except StopIteration:
                    continue  # the shard is over
                pending.append(shard_games)
                index, result, trace, files = session.ray.get(ref)
                if index in done:
                    continue  # a retried shard's copy
                if out_dir is not None:
                    out_dir.append(trace, result, files)
                else:
                    kept[index] = json.loads(result)
                done.add(index)
                tally.add(result)
            _show(meter.line(len(done), tally, force=not pending))
    except KeyboardInterrupt:
        interrupted = True
        if session is not None:
            for ref in pending:
                session.ray.cancel(ref, force=True)
    finally:
        if out_dir is not None:
            out_dir.close()
        if session is not None:
            session.close()
    report, totals = tally.report()
    if table:
        print(report, end="", flush=True)
    if interrupted and progress:
        hint = " Continue it with resume=True (--resume)." if out is not None else ""
        print(f"twinsim: interrupted after {len(done)} of {games} games.{hint}", file=sys.stderr)
    summary: dict[str, Any] = {
        "games": len(done),
        "bots": json.loads(totals),
        "table": report,
        "interrupted": interrupted,
    }
    if out_dir is None:
        summary["results"] = [kept[i] for i in sorted(kept)]
    return summary


def random_policy(seed: int = 0) -> Callable[[dict, np.ndarray], np.ndarray]:
    """A policy playing a uniformly random legal action for every seat (seeded)."""
    rng = np.random.default_rng(seed)

    def policy(observations: dict, to_act: np.ndarray) -> np.ndarray:
        masks = observations["action_mask"].astype(np.float64)
        noise = rng.random(masks.shape) * masks
        return noise.argmax(axis=-1).astype(np.int64)

    return policy


class _RolloutWorker:
    """A Ray actor: a VecEnv and a policy, playing until told how many games to finish."""

    def __init__(self, game, num_envs, seed, league, engine, policy, threads) -> None:
        from ._vector import VecEnv

        self.env = VecEnv(game, num_envs, seed=seed, threads=threads, engine=engine, league=league)
        self.policy = policy
        self.observations, infos = self.env.reset()
        self.to_act = infos["to_act"]

    def play(self, games: int) -> dict:
        """Steps until ``games`` games have ended; returns the steps as arrays with a leading
        time axis."""
        steps: dict[str, list] = {
            k: [] for k in ("observations", "action_masks", "to_act", "actions", "rewards", "dones")
        }
        finished = 0
        while finished < games:
            actions = np.asarray(self.policy(self.observations, self.to_act), dtype=np.int64)
            steps["observations"].append(self.observations["observation"])
            steps["action_masks"].append(self.observations["action_mask"])
            steps["to_act"].append(np.asarray(self.to_act, dtype=bool))
            steps["actions"].append(actions)
            self.observations, rewards, terminations, truncations, infos = self.env.step(actions)
            self.to_act = infos["to_act"]
            ended = (terminations | truncations).any(axis=1)
            steps["rewards"].append(rewards)
            steps["dones"].append(ended)
            finished += int(ended.sum())
        arrays = {k: np.stack(v) for k, v in steps.items()}
        arrays["games"] = np.asarray(finished)
        return arrays


def rollouts(
    game: str,
    policy: Callable[[dict, np.ndarray], Any] | None,
    num_games: int,
    *,
    num_actors: int = 2,
    num_envs: int = 16,
    games_per_shard: int = 256,
    seed: int = 1,
    league: int | None = None,
    engine: str = "fast",
    out: str | os.PathLike | None = None,
    address: str | None = None,
    num_cpus: int | None = None,
) -> list:
    """Plays at least ``num_games`` games of ``game`` with ``policy`` on ``num_actors`` Ray
    actors, each stepping a :class:`twinsim.VecEnv` of ``num_envs`` games.

    ``policy(observations, to_act)`` gets the VecEnv's observation dict (``"observation"``
    ``(num_envs, num_players, *shape)``, ``"action_mask"`` ``(num_envs, num_players, n)``) and
    the seats to act ``(num_envs, num_players)``, and returns one action index per seat
    ``(num_envs, num_players)`` (seats not to act are ignored); ``None`` plays
    :func:`random_policy`. It is pickled to the actors (so it must not hold unpicklable state).

    Each shard holds the steps of one actor until ``games_per_shard`` more games ended there:
    ``observations`` ``(T, num_envs, num_players, *shape)`` in the game's integer type (the
    VecEnv's ``dtype``), ``action_masks`` int8,
    ``to_act`` bool, ``actions`` int64 ``(T, num_envs, num_players)``, ``rewards`` float32
    ``(T, num_envs, num_players)``, ``dones`` bool ``(T, num_envs)`` (the game of that env ended
    at that step: the next step's observation is a new game's, as in the VecEnv's same-step
    autoreset), ``games`` (games ended in the shard) and ``actor``. An actor's shards follow each
    other in time. Actor ``a`` sets its games up from seed ``seed + a * 2**32``.

    Returns the shards as dicts of arrays, or with ``out`` writes each as
    ``out/rollouts-<actor>-<k>.npz`` (``numpy.load``) and returns their paths.
    """
    for name, value in (("num_games", num_games), ("num_actors", num_actors)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an int of at least 1")
    if games_per_shard < 1 or num_envs < 1:
        raise ValueError("games_per_shard and num_envs must be at least 1")
    _core.spec(game)  # a ValueError for an unknown game, before Ray starts
    policy = policy if policy is not None else random_policy(seed)
    out_dir = Path(out) if out is not None else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    session = _RaySession(address, num_cpus)
    ray = session.ray
    try:
        actor_class = ray.remote(num_cpus=1)(_RolloutWorker)
        actors = [
            actor_class.remote(game, num_envs, seed + a * 2**32, league, engine, policy, 1)
            for a in range(num_actors)
        ]
        per_actor = math.ceil(num_games / num_actors)
        left = [per_actor] * num_actors
        counts = [0] * num_actors

        def ask(a: int):
            n = min(games_per_shard, left[a])
            left[a] -= n
            return actors[a].play.remote(n)

        running = {ask(a): a for a in range(num_actors)}
        shards: list = []
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            a = running.pop(ready[0])
            arrays = ray.get(ready[0])
            arrays["actor"] = np.asarray(a)
            if out_dir is not None:
                path = out_dir / f"rollouts-{a:03d}-{counts[a]:05d}.npz"
                np.savez(path, **arrays)
                shards.append(path)
            else:
                shards.append(arrays)
            counts[a] += 1
            if left[a] > 0:
                running[ask(a)] = a
        return shards
    finally:
        session.close()
