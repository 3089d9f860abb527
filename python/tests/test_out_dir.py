"""``twinsim.distributed``'s out folder follows the arena's rules (arena/src/out_dir.rs): whole
records or nothing, and a resume that cuts a cut line and the traces without a result."""

from __future__ import annotations

import errno
import json
import os

import pytest

from twinsim import distributed

IDENTITY = json.dumps({"game": "zuniq"})


def result(index: int) -> str:
    return json.dumps({"index": index})


def test_resume_cuts_a_cut_line_and_the_traces_without_a_result(tmp_path):
    (tmp_path / "arena.json").write_text(IDENTITY)
    (tmp_path / "results.jsonl").write_text(f'{result(0)}\n{result(1)}\n{{"ind')
    (tmp_path / "traces.jsonl").write_text('{"t":0}\n{"t":1}\n{"t":2}\n{"t"')
    out = distributed._OutDir(tmp_path, IDENTITY, resume=True, games=5)
    assert sorted(out.previous) == [0, 1]
    out.write(result(2), '{"t":2}', [])
    out.close()
    assert (tmp_path / "results.jsonl").read_text().splitlines() == [result(i) for i in range(3)]
    assert (tmp_path / "traces.jsonl").read_text().splitlines() == [
        '{"t":0}',
        '{"t":1}',
        '{"t":2}',
    ]


def test_a_record_that_does_not_fit_is_taken_back_from_both_files(tmp_path, monkeypatch):
    out = distributed._OutDir(tmp_path, IDENTITY, resume=False, games=5)
    out.write(result(0), '{"t":0}', [])
    real_write = os.write
    calls = []

    def full_disk(fd, data):
        calls.append(len(data))
        if len(calls) == 2:  # the result line: half of it fits, then the disk is full
            real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(distributed.os, "write", full_disk)
    with pytest.raises(OSError, match="No space"):
        out.write(result(1), '{"t":1}', [])
    monkeypatch.setattr(distributed.os, "write", real_write)
    out.close()
    assert (tmp_path / "results.jsonl").read_text() == result(0) + "\n"
    assert (tmp_path / "traces.jsonl").read_text() == '{"t":0}\n'
    resumed = distributed._OutDir(tmp_path, IDENTITY, resume=True, games=5)
    assert sorted(resumed.previous) == [0]
    resumed.close()
