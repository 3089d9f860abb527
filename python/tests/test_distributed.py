"""twinsim.distributed on a real Ray cluster of two nodes on this machine (loopback only).

The cluster: a head (``ray start --head``) and a second node (``ray start --address=...``), each
a separate ``ray start --block`` process group with its own temporary folder and ports, one CPU
each. Every Ray process the tests started is killed at the end (by process group, then any
process left whose command line names one of the nodes' folders).

The tournaments are compared with ``twinsim arena`` (the CLI binary: ``TWINSIM_BIN``, else
``target/{debug,release}/twinsim``; python/test.sh builds it), game by game and byte by byte.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest
import ray  # noqa: F401  (python/test.sh installs twinsim[ray]; missing, the file fails)
from conftest import twinsim_binary

import twinsim
from twinsim import distributed

GAME = "zuniq"
# Deterministic built-in bots (seeded by the game index), about 60 games/s on one loaded core.
BOTS = ["builtin:greedy", "builtin:random"]
GAMES = 2000
SEED = 7
SHARD = 100
# Loopback only: Ray replaces 127.0.0.1 with the machine's outward address, not 127.0.0.2 and .3.
HEAD_IP = "127.0.0.2"
# Bounds every wait of this file (a stuck cluster fails the test instead of hanging CI).
DEADLINE = 300


def free_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def processes_naming(text: str) -> list[int]:
    """Ids of this machine's processes whose command line contains ``text``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path("/proc", entry, "cmdline").read_bytes()
        except OSError:
            continue
        if text.encode() in cmdline:
            found.append(int(entry))
    return found


class Node:
    """One ``ray start --block`` node, in its own process group and temporary folder."""

    def __init__(self, ip: str, head_port: int | None, extra: list[str]) -> None:
        self.temp = tempfile.mkdtemp(prefix="tsray", dir="/tmp")  # short: socket paths
        ray_cli = str(Path(sys.executable).with_name("ray"))
        agent, grpc, env_agent, metrics = free_ports(4)
        command = [
            ray_cli,
            "start",
            "--block",
            "--num-cpus=1",
            "--disable-usage-stats",
            f"--temp-dir={self.temp}",
            f"--node-ip-address={ip}",
            f"--dashboard-agent-listen-port={agent}",
            f"--dashboard-agent-grpc-port={grpc}",
            f"--runtime-env-agent-port={env_agent}",
            f"--metrics-export-port={metrics}",
            *extra,
        ]
        if head_port is None:
            command.append("--head")
        else:
            command.append(f"--address={HEAD_IP}:{head_port}")
        self.log = open(Path(self.temp) / "ray-start.log", "wb")
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        self.log.flush()
        return (Path(self.temp) / "ray-start.log").read_text(errors="replace")[-3000:]

    def processes(self) -> list[int]:
        """The node's processes: its group and their descendants (Ray's workers run in
        process groups of their own, under the node's raylet)."""
        children: dict[int, list[int]] = {}
        group = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path("/proc", entry, "stat").read_text()
            except OSError:
                continue
            # After the command name in parentheses (which may hold anything): state, ppid, pgrp.
            _, ppid, pgrp = stat[stat.rfind(")") + 2 :].split()[:3]
            children.setdefault(int(ppid), []).append(int(entry))
            if int(pgrp) == self.process.pid:
                group.append(int(entry))
        found, todo = set(), [self.process.pid, *group]
        while todo:
            pid = todo.pop()
            if pid not in found:
                found.add(pid)
                todo.extend(children.get(pid, []))
        return sorted(found)

    def signal_all(self, signum: int) -> None:
        for pid in self.processes():
            try:
                os.kill(pid, signum)
            except ProcessLookupError:
                pass

    def shard_workers(self) -> list[int]:
        """The node's workers running a shard now: Ray titles a worker ``ray::<task>`` while it
        runs one (``ray::IDLE`` otherwise), and sends the task's end only after that."""
        found = []
        for pid in self.processes():
            try:
                if Path("/proc", str(pid), "cmdline").read_bytes().startswith(b"ray::_play_shard"):
                    found.append(pid)
            except OSError:
                pass
        return found

    def kill(self) -> None:
        """Kills every process of the node at once (a machine gone, not a clean stop)."""
        # Stopped first, so that no process of the node starts another before it is killed.
        self.signal_all(signal.SIGSTOP)
        self.signal_all(signal.SIGKILL)
        self.process.wait(timeout=30)
        # Ray's own processes that left the group, killed until none is left: a process can be
        # seen again while it dies, or be started by another just before that one was killed.
        deadline = time.monotonic() + 10
        while (pids := processes_naming(self.temp)) and time.monotonic() < deadline:
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.1)

    def close(self) -> None:
        self.kill()
        self.log.close()
        shutil.rmtree(self.temp, ignore_errors=True)


def alive_nodes(address: str) -> int:
    """Alive nodes of the cluster, asked from a separate driver process (0: no answer yet)."""
    probe = (
        f"import ray; ray.init(address={address!r}, logging_level='ERROR'); "
        "print('alive nodes:', sum(n['Alive'] for n in ray.nodes()))"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        return 0
    if done.returncode != 0:
        return 0
    # Ray may print its own warnings on stdout too (e.g. lagging heartbeats on a busy machine).
    counts = [line for line in done.stdout.splitlines() if line.startswith("alive nodes: ")]
    return int(counts[-1].removeprefix("alive nodes: ")) if counts else 0


@pytest.fixture(scope="module")
def cluster():
    """``{"address": "127.0.0.2:PORT", "nodes": [head, second]}``; torn down at the end.

    Token authentication is off for this loopback cluster (every process of the tests gets
    ``RAY_AUTH_MODE=disabled``): the nodes and drivers share no token file."""
    saved = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    (port,) = free_ports(1)
    address = f"{HEAD_IP}:{port}"
    deadline = time.monotonic() + DEADLINE
    nodes: list[Node] = []

    def wait_for(count: int) -> None:
        node = nodes[-1]
        # `ray start --block` says so once its node runs; then the cluster must count it.
        while "Ray runtime started" not in node.output():
            assert node.process.poll() is None, f"a node exited: {node.output()}"
            assert time.monotonic() < deadline, f"a node did not start: {node.output()}"
            time.sleep(0.2)
        while alive_nodes(address) < count:
            assert time.monotonic() < deadline, f"a node did not join: {node.output()}"
            time.sleep(1)

    try:
        nodes.append(Node(HEAD_IP, None, [f"--port={port}", "--include-dashboard=false"]))
        wait_for(1)
        nodes.append(Node("127.0.0.3", port, []))  # joins once the head's GCS answers
        wait_for(2)
        yield {"address": address, "nodes": nodes}
    finally:
        if saved is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = saved
        for node in reversed(nodes):
            node.close()
        for node in nodes:
            assert not processes_naming(node.temp), "a Ray process of the test is still running"


class SingleMachine:
    """The same run by ``twinsim arena --out`` on this machine, started at once (it plays while
    the cluster starts): :meth:`get` waits for it and gives its folder and its table."""

    def __init__(self, out: Path) -> None:
        self.out = out
        command = [twinsim_binary(), "arena", GAME, "--games", str(GAMES), "--seed", str(SEED)]
        command += [x for b in BOTS for x in ("--bot", b)] + ["--out", str(out), "--threads", "2"]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.table: str | None = None

    def get(self) -> tuple[Path, str]:
        if self.table is None:
            stdout, stderr = self.process.communicate(timeout=DEADLINE)
            assert self.process.returncode == 0, stderr
            self.table = stdout
        return self.out, self.table


@pytest.fixture(scope="module")
def single_machine(tmp_path_factory):
    # In memory where there is a tmpfs: `twinsim arena --out` syncs the disk after every line
    # (about 60 s of this run's time on a loaded disk otherwise).
    shm = Path("/dev/shm")
    in_memory = shm.is_dir() and os.access(shm, os.W_OK)
    folder = Path(tempfile.mkdtemp(dir=shm)) if in_memory else tmp_path_factory.mktemp("arena")
    run = SingleMachine(folder / "run")
    yield run
    if run.process.poll() is None:
        run.process.kill()
        run.process.wait()
    shutil.rmtree(folder, ignore_errors=True)


def tournament_command(address: str, out: Path, *extra: str) -> list[str]:
    command = [sys.executable, "-m", "twinsim.tournament", GAME, "--games", str(GAMES)]
    command += ["--seed", str(SEED), "--shard", str(SHARD), "--address", address]
    return command + [x for b in BOTS for x in ("--bot", b)] + ["--out", str(out), *extra]


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def untimed(result: str) -> str:
    """A ``results.jsonl`` line without its answer times (measured, so they differ by run)."""
    record = json.loads(result)
    record.pop("answer_ms")
    record.pop("answer_us")
    return json.dumps(record, sort_keys=True)


def untimed_table(table: str) -> str:
    """The arena's table without its answer-time rows (the header and one row per timed bot)."""
    kept, timing = [], False
    for line in table.splitlines():
        if line.startswith("answer times (ms)"):
            timing = True
        elif not (timing and line.startswith("bot ") and " first " not in line):
            timing = False
            kept.append(line)
    return "\n".join(kept)


def assert_same_run(out: Path, reference: Path) -> None:
    """Every game exactly once, and the same result and trace bytes as the reference run."""
    results = lines(out / "results.jsonl")
    indices = sorted(json.loads(r)["index"] for r in results)
    assert indices == list(range(GAMES)), "every game index exactly once"
    by_index = sorted(results, key=lambda r: json.loads(r)["index"])
    expected = sorted(lines(reference / "results.jsonl"), key=lambda r: json.loads(r)["index"])
    assert by_index == expected
    # Each game's trace, in any order (the arena writes games as they finish).
    assert sorted(lines(out / "traces.jsonl")) == sorted(lines(reference / "traces.jsonl"))
    assert (out / "arena.json").read_bytes() == (reference / "arena.json").read_bytes()


def wait_for_results(out: Path, at_least: int, process: subprocess.Popen) -> int:
    """Waits until ``results.jsonl`` holds ``at_least`` lines; returns how many it holds."""
    deadline = time.monotonic() + DEADLINE
    path = out / "results.jsonl"
    while True:
        count = path.read_bytes().count(b"\n") if path.exists() else 0
        if count >= at_least:
            return count
        assert process.poll() is None, f"the driver ended early: {process.returncode}"
        assert time.monotonic() < deadline, "no progress"
        time.sleep(0.05)


def test_a_cluster_tournament_equals_the_single_machine_arena(single_machine, cluster, tmp_path):
    reference, table = single_machine.get()
    out = tmp_path / "run"
    done = subprocess.run(
        tournament_command(cluster["address"], out),
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert done.returncode == 0, done.stderr
    assert_same_run(out, reference)
    assert done.stdout == table, "the final table, as `twinsim arena` prints it"
    assert f"{GAMES}/{GAMES} games" in done.stderr, "the progress line"
    assert "win rates: bot0 " in done.stderr


def arena_and_cluster_runs(cluster, tmp_path, flags):
    """``twinsim arena GAME FLAGS`` and ``python -m twinsim.tournament GAME FLAGS`` on the
    cluster (2 games a shard), writing to ``tmp_path/arena`` and ``tmp_path/ray``; both succeed
    and print the same table (but for answer times: measured, the one thing two runs do not
    repeat). Returns both processes."""
    arena = subprocess.run(
        [twinsim_binary(), "arena", GAME, *flags, "--out", str(tmp_path / "arena")],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert arena.returncode == 0, arena.stderr
    ray_run = subprocess.run(
        [sys.executable, "-m", "twinsim.tournament", GAME, *flags, "--shard", "2"]
        + ["--address", cluster["address"], "--out", str(tmp_path / "ray")],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert ray_run.returncode == 0, ray_run.stderr
    assert untimed_table(ray_run.stdout) == untimed_table(arena.stdout)
    return arena, ray_run


def test_process_bots_play_on_the_cluster_as_in_the_arena(cluster, tmp_path):
    # A process bot that writes to stderr and answers malformed text: the rules' consequence.
    bots = ["sh -c 'read l; echo hello from seat >&2; echo BAD'", "builtin:random"]
    flags = ["--games", "6", "--seed", "3"] + [x for b in bots for x in ("--bot", b)]
    arena, ray_run = arena_and_cluster_runs(cluster, tmp_path, flags)
    assert "answer times (ms)" in ray_run.stdout
    assert "bot 0 first invalid: game 0, turn 1:" in ray_run.stdout
    ours, theirs = (lines(tmp_path / d / "results.jsonl") for d in ("ray", "arena"))
    assert sorted(map(untimed, ours)) == sorted(map(untimed, theirs))
    # The process bot's seat is timed, builtin:random's is not.
    for result in ours:
        record = json.loads(result)
        process_seat = record["seats"].index(0)
        timed = record["answer_ms"][process_seat]
        assert timed["answers"] == len(record["answer_us"][process_seat])
        assert record["answer_ms"][1 - process_seat] is None
    assert sorted(lines(tmp_path / "ray" / "traces.jsonl")) == sorted(
        lines(tmp_path / "arena" / "traces.jsonl")
    )
    files = sorted(p.name for p in (tmp_path / "ray" / "stderr").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "arena" / "stderr").iterdir())
    assert len(files) == 6
    for name in files:
        text = (tmp_path / "ray" / "stderr" / name).read_text()
        assert text == (tmp_path / "arena" / "stderr" / name).read_text()
        assert "hello from seat" in text


def test_a_bot_time_scale_reaches_the_cluster_as_in_the_arena(cluster, tmp_path):
    # Two bots sleeping 0.5 s per answer on Zuniq's 30 s game budget scaled to 150 ms: bot 0's own
    # scale of 1 (30 s) keeps it on time, bot 1 keeps the run's scale and times out (see
    # test_bot_time_scale.py). The first mover's answer ends each game.
    slow = "sh -c 'while read l; do sleep 0.5; echo X; done'"
    flags = ["--games", "4", "--seed", "3", "--time-scale", "0.005", "--bot-time-scale", "0=1"]
    flags += ["--bot", slow, "--bot", slow]
    arena_and_cluster_runs(cluster, tmp_path, flags)
    ours, theirs = (lines(tmp_path / d / "results.jsonl") for d in ("ray", "arena"))
    assert sorted(map(untimed, ours)) == sorted(map(untimed, theirs))
    timeouts = [0, 0]
    for result in map(json.loads, ours):
        for seat, bot in enumerate(result["seats"]):
            timeouts[bot] += result["timeouts"][seat]
    assert timeouts == [0, 2], ours


def test_rollouts_on_the_cluster(cluster, tmp_path):
    shards = distributed.rollouts(
        GAME, None, 24, num_actors=2, num_envs=4, games_per_shard=8, address=cluster["address"]
    )
    assert {int(s["actor"]) for s in shards} == {0, 1}
    assert sum(int(s["games"]) for s in shards) >= 24
    spec = twinsim.spec(GAME)
    for s in shards:
        steps = s["actions"].shape[0]
        assert s["observations"].shape == (steps, 4, 2, *spec["observation_shape"])
        assert s["action_masks"].shape == (steps, 4, 2, spec["num_actions"])
        assert s["rewards"].shape == (steps, 4, 2) and s["dones"].shape == (steps, 4)
        assert int(s["dones"].sum()) == int(s["games"])
        # Every action of a seat to act is one its mask allows.
        t, e, p = np.nonzero(s["to_act"])
        assert s["action_masks"][t, e, p, s["actions"][t, e, p]].all()
        # A zero-sum end: the seats' rewards of an ended game differ.
        ended = s["rewards"][s["dones"]]
        assert (ended[:, 0] != ended[:, 1]).any()

    def first_move(observations, to_act):
        masks = observations["action_mask"]
        return masks.argmax(axis=-1).astype(np.int64)

    paths = distributed.rollouts(
        GAME, first_move, 4, num_actors=1, num_envs=2, out=tmp_path, address=cluster["address"]
    )
    assert paths and all(Path(p).suffix == ".npz" for p in paths)
    with np.load(paths[0]) as shard:
        assert shard["games"] >= 4
        assert (shard["actions"] == shard["action_masks"].argmax(axis=-1)).all()


def test_a_killed_driver_resumes_with_the_rest_only(single_machine, cluster, tmp_path):
    reference, table = single_machine.get()
    out = tmp_path / "run"
    driver = subprocess.Popen(
        tournament_command(cluster["address"], out),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for_results(out, 3 * SHARD, driver)
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait(timeout=30)
    before = (out / "results.jsonl").read_bytes()
    kept = before.count(b"\n")
    assert SHARD <= kept < GAMES, "the driver was killed mid-run"
    # A write cut by the kill: half a result line, and a trace without its result.
    with open(out / "traces.jsonl", "ab") as f:
        f.write(lines(reference / "traces.jsonl")[0].encode() + b"\n")
    with open(out / "results.jsonl", "ab") as f:
        f.write(b'{"index": 1999, "seed"')
    assert subprocess.run(tournament_command(cluster["address"], out)).returncode != 0, (
        "a folder with results is not overwritten without --resume"
    )
    done = subprocess.run(
        tournament_command(cluster["address"], out, "--resume"),
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert done.returncode == 0, done.stderr
    after = (out / "results.jsonl").read_bytes()
    assert after.startswith(before), "the games played before are kept as written"
    assert after.count(b"\n") == GAMES, "only the rest was played"
    assert_same_run(out, reference)
    assert done.stdout == table


def test_the_cli_and_the_cluster_resume_each_others_directories(cluster, tmp_path):
    """One out directory, three writers: ``twinsim arena`` stopped by a full disk (the arena's
    ``TWINSIM_OUT_SPACE`` hook), the tournament resuming it on the cluster, then the directory
    cut as a crash cuts it and ``twinsim arena --resume`` finishing it: the whole run's games."""
    games = 30
    flags = ["--games", str(games), "--seed", str(SEED), "--threads", "1"]
    flags += [x for b in BOTS for x in ("--bot", b)]
    reference, out = tmp_path / "whole", tmp_path / "shared"
    whole = subprocess.run(
        [twinsim_binary(), "arena", GAME, *flags, "--out", str(reference)],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert whole.returncode == 0, whole.stderr
    first = lines(reference / "results.jsonl")[:3], lines(reference / "traces.jsonl")[:3]
    space = sum(len(line) + 1 for part in first for line in part) + 40
    full = subprocess.run(
        [twinsim_binary(), "arena", GAME, *flags, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        env={**os.environ, "TWINSIM_OUT_SPACE": str(space)},
    )
    assert full.returncode != 0 and "no space left" in full.stderr, full.stderr
    assert len(lines(out / "results.jsonl")) == 3
    summary = distributed.tournament(
        GAME, BOTS, games, SEED, out=out, address=cluster["address"], shard=4, resume=True
    )
    assert summary["games"] == games
    # A crash's cut: the last 10 games' results gone (a half line left), their traces kept.
    results = (out / "results.jsonl").read_bytes().splitlines(keepends=True)
    (out / "results.jsonl").write_bytes(b"".join(results[:20]) + results[20][:30])
    resumed = subprocess.run(
        [twinsim_binary(), "arena", GAME, *flags, "--out", str(out), "--resume"],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == whole.stdout
    by_index = sorted(lines(out / "results.jsonl"), key=lambda r: json.loads(r)["index"])
    expected = sorted(lines(reference / "results.jsonl"), key=lambda r: json.loads(r)["index"])
    assert by_index == expected, "every game once, as the whole run has it"
    pairs = dict(zip(lines(reference / "results.jsonl"), lines(reference / "traces.jsonl")))
    written = zip(lines(out / "results.jsonl"), lines(out / "traces.jsonl"))
    assert all(pairs[result] == trace for result, trace in written), "each trace by its result"
    assert len(lines(out / "traces.jsonl")) == games


def stop_mid_shard(node: Node, driver: subprocess.Popen) -> None:
    """Waits until one of ``node``'s workers runs a shard, and stops the node's processes there
    (SIGSTOP): a shard is then certainly unfinished on it, whatever the machine's load.

    (Killing it after a number of games, as before, killed a busy machine's second node while
    its first worker was still starting: no shard had run there, and none was retried.)"""
    deadline = time.monotonic() + DEADLINE
    while True:
        if node.shard_workers():
            node.signal_all(signal.SIGSTOP)
            if node.shard_workers():
                return  # stopped while running a shard
            node.signal_all(signal.SIGCONT)  # its shard ended just before: the next one
        assert driver.poll() is None, "the run ended before the second node ran a shard"
        assert time.monotonic() < deadline, "the second node ran no shard"
        time.sleep(0.01)


def test_a_node_killed_mid_run_loses_and_repeats_no_game(single_machine, cluster, tmp_path):
    reference, table = single_machine.get()
    out = tmp_path / "run"
    driver = subprocess.Popen(
        tournament_command(cluster["address"], out, "--max-retries", "5"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        stop_mid_shard(cluster["nodes"][1], driver)
        at_kill = wait_for_results(out, 0, driver)
        cluster["nodes"][1].kill()
        stdout, stderr = driver.communicate(timeout=DEADLINE)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
    assert at_kill < GAMES, "the second node died with games left to play"
    assert driver.returncode == 0, stderr
    # The head learns of the node's death by its health checks, which can come after the run
    # (the retried shards started as soon as their workers' connections broke).
    deadline = time.monotonic() + 60
    while alive_nodes(cluster["address"]) != 1 and time.monotonic() < deadline:
        time.sleep(1)
    assert alive_nodes(cluster["address"]) == 1, "the killed node is still alive"
    # The shard killed unfinished was played again (its games are all there), and its games
    # played before the kill are kept once.
    assert_same_run(out, reference)
    assert stdout.endswith(table)


def test_plan_of_shards_skips_the_games_done():
    ranges = list(distributed._missing_ranges(10, {0, 1, 4, 9}, 4))
    assert ranges == [(2, 4), (5, 8), (8, 9)]
    assert list(distributed._missing_ranges(3, set(), 500)) == [(0, 3)]
    assert list(distributed._missing_ranges(3, {0, 1, 2}, 2)) == []


def test_the_tally_counts_each_game_once_and_prints_the_arena_table():
    run = twinsim.arena(GAME, BOTS, games=6, seed=3)
    tally = twinsim._core.Tally(GAME, BOTS)
    for result in reversed(run["results"]):
        assert tally.add(json.dumps(result))
    assert not tally.add(json.dumps(run["results"][2])), "an index counted twice"
    table, bots = tally.report()
    assert table.startswith(f"6 games of {GAME} (fast engine)\n")
    assert json.loads(bots) == run["bots"]
    with pytest.raises(ValueError):
        tally.add("{}")


def test_bad_arguments_fail_before_ray_starts(tmp_path):
    with pytest.raises(ValueError, match="seats"):
        distributed.tournament(GAME, ["builtin:random"], 10, out=tmp_path / "x")
    with pytest.raises(ValueError):
        distributed.tournament(GAME, BOTS, 10, engine="slow")
    with pytest.raises(ValueError, match="resume"):
        distributed.tournament(GAME, BOTS, 10, resume=True)
    with pytest.raises(ValueError, match="unknown game"):
        distributed.rollouts("chess", None, 4)
    with pytest.raises(ValueError, match="there are 2 bots"):
        distributed.tournament(GAME, BOTS, 10, bot_time_scales={2: 3})


def test_the_bot_time_scale_flag_is_read_as_the_arenas(capsys):
    from twinsim import tournament

    command = [GAME, "--bot", BOTS[0], "--bot", BOTS[1], "--games", "1", "--bot-time-scale"]
    for bad in ("0", "x=1", "-1=2", "0=fast"):
        with pytest.raises(SystemExit) as exit:
            tournament.main([*command, bad])
        assert exit.value.code == 2, bad
    # The arena's own checks, before any Ray starts (the CLI's exit status 2).
    for bad, message in (("2=1", "there are 2 bots"), ("0=0", "time scale 0 of bot 0")):
        assert tournament.main([*command, bad]) == 2
        assert message in capsys.readouterr().err
    options = vars(tournament.parser().parse_args([*command, "0=3", "--bot-time-scale", "1=0.5"]))
    assert options["bot_time_scales"] == [(0, 3.0), (1, 0.5)]
