"""Referee games played through Python, line by line, give exactly the referee's texts and
outcome (both twins); and `twinsim.replay` finds shipped traces identical and a corrupted one
not."""

from __future__ import annotations

import json

import pytest
from conftest import ENGINES, TRACES, trace_games

import twinsim

#: Games per trace file driven through the Python environment (each file has 46 to 63; all of
#: them go through both engines in the Rust conformance tests).
GAMES_PER_FILE = 8


@pytest.mark.parametrize("engine", ENGINES)
def test_referee_games_through_the_parallel_env(game, engine):
    records = trace_games(game)[:GAMES_PER_FILE]
    assert len(records) == GAMES_PER_FILE
    for record in records:
        env = twinsim.parallel_env(game, engine=engine, params=record["params"])
        _, infos = env.reset(seed=record["seed"])
        names = env.possible_agents
        init = record.get("init_input") or [None] * len(names)
        expected_views = [
            view if prefix is None else f"{prefix}\n{view}"
            for prefix, view in zip(init, record["initial_views"])
        ]
        assert [infos[a]["view"] for a in names] == expected_views, f"seed {record['seed']} setup"
        for number, turn in enumerate(record["turns"], start=1):
            to_act = [a for a in names if infos[a]["to_act"]]
            if len(turn["actions"]) == len(names):
                actions = {a: line for a, line in zip(names, turn["actions"]) if a in to_act}
            else:
                (mover,) = to_act
                actions = {mover: turn["actions"][0]}
            _, _, terminations, _, infos = env.step(actions)
            where = f"seed {record['seed']} turn {number}"
            # A finished game's turn lists no views.
            expected_views = turn["views"] or [None] * len(names)
            assert [infos[a]["view"] for a in names] == expected_views, where
            _, turn_record = env._table.match.records_json()
            assert json.loads(turn_record)["state"] == turn["state"], where
        if record.get("truncated"):
            continue
        assert all(terminations.values()), f"seed {record['seed']}: the game should be over"
        assert env.outcome()["details"] == record["outcome"]


#: Games per trace file that `twinsim.replay` checks here: the binding is what this tests (the
#: whole corpus goes through both engines once per CI run, in the Rust conformance tests).
REPLAYED_PER_FILE = 3


@pytest.mark.parametrize("engine", ENGINES)
def test_replay_finds_the_shipped_traces_identical(game, engine, tmp_path):
    lines = (TRACES / f"{game}.jsonl").read_text().splitlines()[:REPLAYED_PER_FILE]
    assert len(lines) == REPLAYED_PER_FILE
    path = tmp_path / f"{game}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert twinsim.replay(path, engine=engine) == []


def test_replay_reports_a_corrupted_trace(tmp_path):
    record = trace_games("olymbits")[0]
    record["turns"][2]["state"]["turn"] += 1
    path = tmp_path / "corrupted.jsonl"
    path.write_text(json.dumps(record) + "\n")
    mismatches = twinsim.replay(path)
    assert [m["engine"] for m in mismatches] == ["reference", "fast"]
    first = mismatches[0]["differences"][0]
    assert first["moment"] == "turn 3" and first["field"] == "state.turn"
