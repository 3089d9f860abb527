"""The out directory of ``twinsim.distributed`` is the CLI's own (``twinsim._core.OutDir`` over
arena/src/out_dir.rs): whole records or nothing, a resume that cuts a cut line and the traces
without a result, and a directory that either side resumes for the other. Also the CLI's
progress line (``twinsim._core.Progress``), which the tournament shows.

No Ray here: the games are played by ``_core.arena_shard``, as the tournament's Ray tasks play
them, and committed as its driver commits them (test_distributed.py runs the same on a cluster).
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import twinsim_binary

from twinsim import _core, distributed

GAME = "zuniq"
# Deterministic built-in bots: two runs of a game give the same bytes.
BOTS = ["builtin:greedy", "builtin:random"]
GAMES = 8
SEED = 11
IDENTITY = _core.arena_identity(GAME, BOTS, SEED)


def played(start: int, stop: int) -> list[tuple[int, str, str, list[tuple[str, str]]]]:
    """Games ``start..stop`` of the run, as a tournament's Ray task plays them."""
    return _core.arena_shard(GAME, BOTS, GAMES, SEED, start, stop, threads=1)


def commit(out: _core.OutDir, games) -> None:
    """Appends each game as the tournament's driver does."""
    for _, result, trace, files in games:
        out.append(trace, result, files)


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def arena(out: Path, *flags: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``twinsim arena`` of the run, writing to ``out`` (one thread: games in index order)."""
    command = [twinsim_binary(), "arena", GAME, "--games", str(GAMES), "--seed", str(SEED)]
    command += [x for b in BOTS for x in ("--bot", b)]
    command += ["--out", str(out), "--threads", "1", *flags]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)


def assert_whole_run(out: Path) -> None:
    """Every game of the run once, with the bytes the games have, each trace beside its result."""
    results, traces = lines(out / "results.jsonl"), lines(out / "traces.jsonl")
    assert sorted(json.loads(r)["index"] for r in results) == list(range(GAMES))
    expected = {index: (result, trace) for index, result, trace, _ in played(0, GAMES)}
    assert len(results) == len(traces)
    for result, trace in zip(results, traces):
        assert (result, trace) == expected[json.loads(result)["index"]]
    assert json.loads((out / "arena.json").read_text()) == json.loads(IDENTITY)


def test_resume_cuts_a_cut_line_and_the_traces_without_a_result(tmp_path):
    games = played(0, 3)
    with _core.OutDir(tmp_path, IDENTITY) as out:
        commit(out, games[:2])
    # A writer killed mid-game: game 2's trace without its result, and half a result line.
    with open(tmp_path / "traces.jsonl", "a") as f:
        f.write(games[2][2] + "\n" + games[2][2][:20])
    with open(tmp_path / "results.jsonl", "a") as f:
        f.write(games[2][1][:30])
    with pytest.raises(ValueError, match="already holds results"):
        _core.OutDir(tmp_path, IDENTITY)
    with pytest.raises(ValueError, match="different run"):
        _core.OutDir(tmp_path, _core.arena_identity(GAME, BOTS, SEED + 1), resume=True)
    out = _core.OutDir(tmp_path, IDENTITY, resume=True)
    assert [index for index, _ in out.done(GAMES)] == [0, 1]
    assert [line for _, line in out.done(GAMES)] == [g[1] for g in games[:2]]
    assert [index for index, _ in out.done(1)] == [0], "indices past the run are not its"
    commit(out, games[2:])
    out.close()
    out.close()  # again: nothing
    with pytest.raises(ValueError, match="closed"):
        out.done(GAMES)
    assert lines(tmp_path / "results.jsonl") == [g[1] for g in games]
    assert lines(tmp_path / "traces.jsonl") == [g[2] for g in games]


def test_a_full_disk_leaves_a_directory_that_resumes(tmp_path, monkeypatch):
    games = played(0, 2)
    first = len(games[0][2]) + len(games[0][1]) + 2
    # The arena's full-disk hook: the second game's trace line is cut by "no space".
    monkeypatch.setenv("TWINSIM_OUT_SPACE", str(first + 10))
    out = _core.OutDir(tmp_path, IDENTITY)
    commit(out, games[:1])
    with pytest.raises(OSError) as full:
        commit(out, games[1:])
    assert full.value.errno == errno.ENOSPC
    out.close()
    assert lines(tmp_path / "results.jsonl") == [games[0][1]]
    assert lines(tmp_path / "traces.jsonl") == [games[0][2]], "the cut trace was taken back"
    monkeypatch.delenv("TWINSIM_OUT_SPACE")
    with _core.OutDir(tmp_path, IDENTITY, resume=True) as resumed:
        assert [index for index, _ in resumed.done(GAMES)] == [0]
        commit(resumed, games[1:])
    assert lines(tmp_path / "results.jsonl") == [g[1] for g in games]


def test_a_stderr_file_outside_its_folder_is_refused(tmp_path):
    with _core.OutDir(tmp_path / "run", IDENTITY) as out:
        index, result, trace, _ = played(0, 1)[0]
        with pytest.raises(ValueError, match="not a file name"):
            out.append(trace, result, [("../escape.txt", "x")])
        out.append(trace, result, [("game0-seat0-bot0.txt", "said")])
    assert not (tmp_path / "escape.txt").exists()
    assert (tmp_path / "run" / "stderr" / "game0-seat0-bot0.txt").read_text() == "said"
    assert lines(tmp_path / "run" / "results.jsonl") == [result]


def test_the_cli_resumes_a_python_directory(tmp_path):
    out_path = tmp_path / "run"
    games = played(0, GAMES // 2)
    with _core.OutDir(out_path, IDENTITY) as out:
        commit(out, games)
    page = tmp_path / "replay.html"
    view = [twinsim_binary(), "view", str(out_path / "traces.jsonl"), "-o", str(page)]
    viewed = subprocess.run(view, capture_output=True, text=True, timeout=300)
    assert viewed.returncode == 0 and page.stat().st_size > 0, viewed.stderr
    with open(out_path / "results.jsonl", "a") as f:
        f.write(played(GAMES // 2, GAMES // 2 + 1)[0][1][:25])  # a cut line
    done = arena(out_path, "--resume")
    assert done.returncode == 0, done.stderr
    assert lines(out_path / "results.jsonl")[: len(games)] == [g[1] for g in games]
    assert_whole_run(out_path)


def test_python_resumes_a_cli_directory_cut_by_a_full_disk(tmp_path, capsys):
    whole = tmp_path / "whole"
    reference = arena(whole)
    assert reference.returncode == 0, reference.stderr
    first_games = played(0, 3)
    space = sum(len(trace) + len(result) + 2 for _, result, trace, _ in first_games) + 40
    cut = tmp_path / "cut"
    stopped = arena(cut, env={**os.environ, "TWINSIM_OUT_SPACE": str(space)})
    assert stopped.returncode != 0 and "no space left" in stopped.stderr, stopped.stderr
    with _core.OutDir(cut, IDENTITY, resume=True) as out:
        done = {index for index, _ in out.done(GAMES)}
        assert done == {0, 1, 2}
        commit(out, [g for g in played(0, GAMES) if g[0] not in done])
    assert_whole_run(cut)
    # The tournament reads the directory it shares with the CLI: every game is there, so no Ray
    # starts, and it prints the CLI's table and progress line.
    summary = distributed.tournament(GAME, BOTS, GAMES, SEED, out=cut, resume=True)
    assert summary["games"] == GAMES and not summary["interrupted"]
    printed = capsys.readouterr()
    assert printed.out == reference.stdout
    assert printed.err.startswith(f"{GAMES}/{GAMES} games, ") and "win rates: bot0 " in printed.err


def test_the_progress_line_is_the_clis():
    tally = _core.Tally(GAME, BOTS)
    progress = _core.Progress(100, terminal=False)
    assert progress.line(0, tally) is None, "0 games done: the clock starts"
    for _, result, _, _ in played(0, 2):
        tally.add(result)
    text = progress.line(2, tally)
    assert text.startswith("2/100 games, ") and text.endswith("\n")
    assert "ETA" not in text, "no ETA before 5% of the games are done"
    assert "win rates: bot0 " in text and "  bot1 " in text
    assert "ETA" in progress.line(5, tally, force=True)
    resumed = _core.Progress(100, done_before=90)
    assert "ETA" not in resumed.line(90, tally, force=True), "none of the 10 left done yet"
    terminal = _core.Progress(2, terminal=True).line(2, tally, force=True)
    assert terminal.startswith("\r2/2 games") and terminal.endswith("\n")
    assert _core.Progress(2, enabled=False).line(2, tally, force=True) is None
