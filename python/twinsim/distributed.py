"""Tournaments and self-play rollouts beyond one machine, on Ray (``pip install twinsim[ray]``).

- :func:`tournament`: an arena run split into shards of game indices, each shard a Ray task
  played by the Rust arena (process bots and built-in bots alike, the referee's time limits,
  seats rotating), the finished games streamed back to this driver, which writes
  ``results.jsonl`` and ``traces.jsonl`` as ``twinsim arena --out`` does and prints the same
  table. Every game index is kept once, whatever Ray retries; ``resume=True`` continues a run
  whose driver was stopped.
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
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Callable, Union

import numpy as np

from . import _core

__all__ = ["rollouts", "tournament", "random_policy"]

#: Most bytes of each process bot's stderr kept per game (the CLI's default, 256 KiB).
DEFAULT_STDERR_LIMIT = 256 * 1024
#: Longest time the driver's written games wait for a disk sync.
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


def _complete_lines(path: Path) -> list[bytes]:
    """The complete lines of ``path`` (a cut last line, from a driver stopped while writing,
    is not one of them)."""
    if not path.exists():
        return []
    data = path.read_bytes()
    return data[: data.rfind(b"\n") + 1].splitlines()


def _cut_after(path: Path, lines: int) -> None:
    """Cuts ``path`` after its first ``lines`` complete lines, if it is longer."""
    if not path.exists():
        return
    data = path.read_bytes()
    end = 0
    for _ in range(lines):
        end = data.index(b"\n", end) + 1
    if len(data) > end:
        with open(path, "r+b") as f:
            f.truncate(end)
            os.fsync(f.fileno())


class _OutDir:
    """``results.jsonl``, ``traces.jsonl``, ``arena.json`` and ``stderr/`` of a run, written
    like ``twinsim arena --out``: each game's trace line, then its result line."""

    def __init__(self, path: str | os.PathLike, identity: str, resume: bool, games: int) -> None:
        self.dir = Path(path)
        (self.dir / "stderr").mkdir(parents=True, exist_ok=True)
        results, traces = self.dir / "results.jsonl", self.dir / "traces.jsonl"
        id_path = self.dir / "arena.json"
        if resume:
            if id_path.exists():
                try:
                    before = json.loads(id_path.read_text())
                except ValueError:
                    before = None
                if before != json.loads(identity):
                    raise ValueError(f"resume: {self.dir} was a different run: {before}")
        elif results.exists():
            raise ValueError(f"{self.dir} already holds results: pass resume=True to continue it")
        id_path.write_text(identity)
        #: Result lines already in the folder, by game index (the first of each index).
        self.previous: dict[int, bytes] = {}
        # The arena's rules (arena/src/out_dir.rs): the k-th result line commits the k-th
        # trace line; a cut last line is dropped, and so are the trace lines past the results'
        # count (a game whose result was never written is played again). Only truncations,
        # results first, so a crash while repairing is repaired the same way next time.
        lines = _complete_lines(results)
        pairs = min(len(lines), len(_complete_lines(traces)))
        lines = lines[:pairs]
        _cut_after(results, pairs)
        _cut_after(traces, pairs)
        for line in lines:
            try:
                index = json.loads(line)["index"]
            except (ValueError, KeyError, TypeError):
                continue  # not a result: its game is played again
            if isinstance(index, int) and 0 <= index < games:
                self.previous.setdefault(index, line)
        # Unbuffered: each record goes out in one write (see `write`).
        self.results = open(results, "ab", buffering=0)
        self.traces = open(traces, "ab", buffering=0)
        self.synced = time.monotonic()

    def write(self, result: str, trace: str, files: list) -> None:
        for name, text in files:
            (self.dir / "stderr" / name).write_text(text)
        # Whole records or nothing: on an error (a full disk) both files are cut back to their
        # length before this game, and the error stops the run.
        files = (self.traces, self.results)
        before = [os.fstat(f.fileno()).st_size for f in files]
        try:
            for f, line in zip(files, (trace, result)):
                record = memoryview(line.encode() + b"\n")
                while record:  # one write a record, unless the system takes less
                    record = record[os.write(f.fileno(), record) :]
        except OSError:
            for f, length in zip(files, before):
                try:
                    os.ftruncate(f.fileno(), length)
                except OSError:
                    pass  # the next resume cuts the same lines
            raise

    def sync_every(self, seconds: float) -> None:
        """Syncs when the last sync is ``seconds`` old: a disk sync per game would cost more than
        the game (16 ms on a loaded disk). What a crash loses since then, a resume replays."""
        if time.monotonic() - self.synced >= seconds:
            self.sync()

    def sync(self) -> None:
        self.synced = time.monotonic()
        for f in (self.traces, self.results):
            f.flush()
            os.fsync(f.fileno())

    def close(self) -> None:
        self.sync()
        self.traces.close()
        self.results.close()


class _Progress:
    """``done/total games, games/s, ETA, running win rates`` on stderr: redrawn in place on a
    terminal, a full line every 5 s otherwise."""

    def __init__(self, total: int, bots: int, enabled: bool) -> None:
        self.total, self.enabled = total, enabled
        self.points = [0.0] * bots
        self.played = [0] * bots
        self.done = 0
        self.terminal = enabled and sys.stderr.isatty()
        self.started = time.monotonic()
        self.last = 0.0
        self.new = 0

    def add(self, result: dict) -> None:
        self.done += 1
        self.new += 1
        ranks, seats = result["ranks"], result["seats"]
        best = min(ranks)
        leaders = ranks.count(best)
        for seat, b in enumerate(seats):
            self.played[b] += 1
            if ranks[seat] == best:
                self.points[b] += 1.0 if leaders == 1 else 0.5

    def show(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self.last < (0.1 if self.terminal else 5.0):
            return
        self.last = now
        rate = self.new / max(now - self.started, 1e-9)
        left = self.total - self.done
        eta = f", ETA {left / rate:.0f} s" if rate > 0 and left > 0 else ""
        rates = "  ".join(
            f"bot{b} {100.0 * p / n:.1f}%" if n else f"bot{b} -"
            for b, (p, n) in enumerate(zip(self.points, self.played))
        )
        line = f"{self.done}/{self.total} games, {rate:.1f} games/s{eta}  win rates: {rates}"
        if self.terminal:
            sys.stderr.write("\r\033[K" + line + ("\n" if force else ""))
        else:
            sys.stderr.write(line + "\n")
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
    ``results.jsonl`` there (and bots' stderr to ``stderr/``), as the CLI's ``--out`` does.
    ``resume=True`` continues the run in ``out``: the games already there are counted and only the
    others are played.
    ``address``: ``None`` starts a local Ray (``num_cpus`` workers, default all cores);
    ``"auto"`` or ``"HOST:PORT"`` joins a cluster. With ``progress`` a line of running win rates
    is shown on stderr; with ``table`` the CLI's final table is printed.

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
    meter = _Progress(games, len(bots), progress)
    out_dir = _OutDir(out, identity, resume, games) if out is not None else None
    done: set[int] = set()
    kept: dict[int, dict] = {}
    if out_dir is not None:
        for index, line in sorted(out_dir.previous.items()):
            done.add(index)
            tally.add(line.decode())
            meter.add(json.loads(line))
        out_dir.previous.clear()
    meter.new = 0
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
        meter.show(force=not ranges)
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
                done.add(index)
                tally.add(result)
                parsed = json.loads(result)
                meter.add(parsed)
                if out_dir is not None:
                    out_dir.write(result, trace, files)
                else:
                    kept[index] = parsed
            if out_dir is not None:
                out_dir.sync_every(SYNC_SECONDS)
            meter.show(force=not pending)
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
