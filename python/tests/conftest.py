"""Shared helpers of the Python tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import twinsim

REPOSITORY = Path(__file__).resolve().parents[2]
TRACES = REPOSITORY / "tests" / "traces"
ENGINES = ("fast", "reference")


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
