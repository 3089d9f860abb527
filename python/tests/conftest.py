"""Shared helpers of the Python tests."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import twinsim

REPOSITORY = Path(__file__).resolve().parents[2]
TRACES = REPOSITORY / "tests" / "traces"
ENGINES = ("fast", "reference")


def twinsim_binary() -> str:
    """The CLI binary: ``TWINSIM_BIN``, else the newer of ``target/{debug,release}/twinsim``
    (python/test.sh builds the debug one)."""
    given = os.environ.get("TWINSIM_BIN")
    if given:
        return given
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPOSITORY / "target"))
    found = [target / p / "twinsim" for p in ("debug", "release")]
    found = [p for p in found if p.exists()]
    assert found, "no twinsim binary: build it (cargo build) or set TWINSIM_BIN"
    return str(max(found, key=lambda p: p.stat().st_mtime))


def trace_games(game: str) -> list[dict]:
    """Every referee game of ``tests/traces/<game>.jsonl``."""
    path = TRACES / f"{game}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random index the mask allows (the mask must allow one)."""
    allowed = np.flatnonzero(mask)
    assert allowed.size > 0, "a player to act always has an action in its mask"
    return int(rng.choice(allowed))


@pytest.fixture(params=twinsim.GAMES)
def game(request) -> str:
    return request.param
