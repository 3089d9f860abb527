"""The mctx AlphaZero example on the JAX Zuniq (``twinsim.jax.alphazero``): two tiny iterations
run end to end and write their CSV and PNG; the JAX ``greedy`` opponent follows
``builtin:greedy``'s rule (a winning move whenever one exists)."""

from __future__ import annotations

import csv
import math
import struct
import zlib

import jax
import numpy as np

from twinsim.jax import alphazero as az


def test_two_tiny_iterations_write_csv_and_png(tmp_path):
    config = az.Config(
        iterations=2,
        batch=4,
        simulations=4,
        hidden=16,
        train_steps=2,
        eval_every=1,
        eval_games=4,
        seed=3,
    )
    rows = az.run(config, tmp_path, log=lambda _: None)
    assert [row["iteration"] for row in rows] == [1, 2]
    for row in rows:
        assert math.isfinite(row["loss"]) and row["loss"] > 0
        assert row["win_rate_random"] in {0.0, 0.25, 0.5, 0.75, 1.0}
        assert row["win_rate_greedy"] in {0.0, 0.25, 0.5, 0.75, 1.0}
    with open(tmp_path / "winrate.csv") as file:
        written = list(csv.DictReader(file))
    assert [int(r["iteration"]) for r in written] == [1, 2]
    assert float(written[1]["loss"]) == rows[1]["loss"]
    png = (tmp_path / "winrate.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    length = struct.unpack(">I", png[33:37])[0]
    assert png[37:41] == b"IDAT"
    raw = zlib.decompress(png[41 : 41 + length])
    assert len(raw) == height * (1 + 3 * width)
    # The plot is not blank: the series' colours are drawn.
    assert bytes((30, 90, 200)) in raw and bytes((200, 40, 40)) in raw


def test_greedy_takes_a_winning_move_whenever_one_exists():
    env = az.ENV
    step = jax.jit(jax.vmap(env.step))
    greedy = jax.jit(lambda state, key: (az.greedy_action(state, key), az.one_ply_values(state)))
    random = jax.jit(az.random_action)
    state = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), 128))
    key = jax.random.PRNGKey(1)
    positions_with_a_win = 0
    for _ in range(az.MAX_PLIES):
        key, greedy_key, random_key = jax.random.split(key, 3)
        choice, values = (np.asarray(a) for a in greedy(state, greedy_key))
        live = ~np.asarray(state.terminated)
        chosen = values[np.arange(len(choice)), choice]
        assert (chosen[live] > -2).all()  # legal
        assert (chosen[live] == values[live].max(axis=1)).all()
        # Positions where the choice matters: a win beside moves that do not win.
        legal_worst = np.where(values > -2, values, 2).min(axis=1)
        positions_with_a_win += int((live & (values.max(axis=1) == 1) & (legal_worst < 1)).sum())
        state = step(state, random(state, random_key))
    assert positions_with_a_win >= 5
    assert np.asarray(state.terminated).all()
