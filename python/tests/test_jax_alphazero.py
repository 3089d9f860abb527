"""The mctx AlphaZero example on the JAX Zuniq (``twinsim.jax.alphazero``): two tiny iterations
run end to end (the arena games against the Rust bots included) and write their CSV and PNG; the
JAX ``greedy`` opponent follows ``builtin:greedy``'s rule (a winning move whenever one exists)
and chooses what the Rust ``builtin:greedy`` and ``builtin:random`` choose, move by move."""

from __future__ import annotations

import csv
import json
import math
import struct
import zlib

import jax
import jax.numpy as jnp
import numpy as np

import twinsim
from twinsim.jax import alphazero as az

#: Self-play games per batch in both self-play tests: with the same search settings
#: (``SELF_PLAY``) they share one compilation of ``az._play``.
SELF_PLAY_BATCH = 8
#: ``simulations``, ``considered`` and ``explore_plies`` of both self-play tests.
SELF_PLAY = (4, 4, 10)


def test_two_tiny_iterations_write_csv_and_png(tmp_path):
    simulations, considered, explore_plies = SELF_PLAY
    config = az.Config(
        iterations=2,
        batch=SELF_PLAY_BATCH,
        simulations=simulations,
        considered=considered,
        explore_plies=explore_plies,
        hidden=16,
        head_scale=0.01,
        train_steps=2,
        minibatch=16,
        replay=2,
        eval_every=1,
        eval_games=4,
        eval_simulations=0,
        arena_games=2,
        seed=3,
    )
    rows = az.run(config, tmp_path, log=lambda _: None)
    assert [row["iteration"] for row in rows] == [0, 1, 2]
    assert math.isnan(rows[0]["loss"])  # the untrained network: nothing learnt yet
    for row in rows[1:]:
        assert math.isfinite(row["loss"]) and row["loss"] > 0
    for row in rows:
        for name in ("random", "greedy"):
            rate = row[f"win_rate_{name}"]
            assert rate in {0.0, 0.25, 0.5, 0.75, 1.0}
            assert (row[f"{name}_low"], row[f"{name}_high"]) == az.wilson_interval(rate * 4, 4)
    # The Rust bots, through the arena, at the first and the last evaluation only.
    for row in (rows[0], rows[2]):
        assert row["arena_win_rate_random"] in {0.0, 0.5, 1.0}
        assert row["arena_win_rate_greedy"] in {0.0, 0.5, 1.0}
    assert "arena_win_rate_random" not in rows[1]
    with open(tmp_path / "winrate.csv") as file:
        written = list(csv.DictReader(file))
    assert [int(r["iteration"]) for r in written] == [0, 1, 2]
    assert float(written[1]["loss"]) == rows[1]["loss"]
    assert float(written[2]["arena_win_rate_greedy"]) == rows[2]["arena_win_rate_greedy"]
    assert written[1]["arena_win_rate_greedy"] == ""
    # The network of every evaluation is kept, whole.
    saved = az.load_params(tmp_path / "params-2.npz")
    assert sorted(saved) == sorted(az.init_params(jax.random.PRNGKey(0), 16))
    assert saved["w1"].shape == (az.FEATURE_SIZE, 16)
    assert sorted(p.name for p in tmp_path.glob("params-*.npz")) == [
        "params-0.npz",
        "params-1.npz",
        "params-2.npz",
    ]
    png = (tmp_path / "winrate.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    length = struct.unpack(">I", png[33:37])[0]
    assert png[37:41] == b"IDAT"
    raw = zlib.decompress(png[41 : 41 + length])
    assert len(raw) == height * (1 + 3 * width)
    # The plot is not blank: the series' colours are drawn, and there is text (black) in the
    # title's band at the top.
    assert bytes((30, 90, 200)) in raw and bytes((200, 40, 40)) in raw
    title_band = raw[: 20 * (1 + 3 * width)]
    assert bytes((0, 0, 0)) in title_band


def test_value_targets_are_the_result_for_the_player_to_move():
    """The value target of each played ply is the game's result for the seat that moved there
    (mctx's convention, the one ``_recurrent_fn`` and ``forward`` use): the last mover of a
    game won (the opponent is left without a move, rules section 6), so its last target is +1,
    and the targets alternate in sign back to the first ply, whose target is +1 exactly when
    White won; the plies after the end are padding, marked invalid. A target from one seat's
    point of view for every ply, or read from a wrong step (all zeros), fails here."""
    params = az.init_params(jax.random.PRNGKey(0), 16, 0.01)
    batch = az._play(params, jax.random.PRNGKey(1), SELF_PLAY_BATCH, *SELF_PLAY)
    valid, value = np.asarray(batch.valid), np.asarray(batch.value)
    plies = valid.sum(axis=0)
    # Valid plies come first, then padding only (nothing played once the game is over).
    assert (valid == (np.arange(az.MAX_PLIES)[:, None] < plies)).all()
    assert (plies > 20).all() and (plies < az.MAX_PLIES).all()
    games = np.arange(valid.shape[1])
    assert (value[plies - 1, games] == 1).all()
    ply = np.arange(az.MAX_PLIES)[:, None]
    expected = np.where((plies - 1 - ply) % 2 == 0, 1.0, -1.0)
    assert (value[valid] == expected[valid]).all()
    # Who won is not always the same seat (the first target takes both signs).
    assert set(value[0].tolist()) == {-1.0, 1.0}


def test_wilson_interval():
    # Textbook values: 5 of 10 -> [0.2366, 0.7634]; 0 of 10 -> [0, 0.2775].
    low, high = az.wilson_interval(5, 10)
    assert abs(low - 0.2366) < 1e-4 and abs(high - 0.7634) < 1e-4
    low, high = az.wilson_interval(0, 10)
    assert low == 0.0 and abs(high - 0.2775) < 1e-4
    assert az.wilson_interval(10, 10)[1] == 1.0
    # 512 games at 1/2: about +-0.043.
    low, high = az.wilson_interval(256, 512)
    assert 0.042 < 0.5 - low < 0.044 and abs((high - 0.5) - (0.5 - low)) < 1e-12


#: Games per batch in both opponent tests (one shape: XLA compiles each function once).
GAMES = 128
_step = jax.jit(jax.vmap(az.ENV.step))
_values = jax.jit(az.one_ply_values)


def _start():
    return jax.vmap(az.ENV.init)(jax.random.split(jax.random.PRNGKey(0), GAMES))


def test_greedy_takes_a_winning_move_whenever_one_exists():
    greedy = jax.jit(az.greedy_action)
    random = jax.jit(az.random_action)
    state = _start()
    key = jax.random.PRNGKey(1)
    positions_with_a_win = 0
    for _ in range(az.MAX_PLIES):
        key, greedy_key, random_key = jax.random.split(key, 3)
        choice, values = np.asarray(greedy(state, greedy_key)), np.asarray(_values(state))
        live = ~np.asarray(state.terminated)
        chosen = values[np.arange(len(choice)), choice]
        assert (chosen[live] > -2).all()  # legal
        assert (chosen[live] == values[live].max(axis=1)).all()
        # Positions where the choice matters: a win beside moves that do not win.
        legal_worst = np.where(values > -2, values, 2).min(axis=1)
        positions_with_a_win += int((live & (values.max(axis=1) == 1) & (legal_worst < 1)).sum())
        state = _step(state, random(state, random_key))
    assert positions_with_a_win >= 5
    assert np.asarray(state.terminated).all()


def test_jax_opponents_choose_what_the_rust_builtin_bots_choose():
    """Lockstep with the real bots: ``builtin:greedy`` against ``builtin:random`` in the Rust
    arena; every move of theirs replayed on the JAX engine, where each greedy move must be one
    the JAX ``greedy`` could have chosen (the best one-ply value: both break ties at random, so
    the set of choices is what can be compared) and each random move one the JAX ``random``
    could have chosen (a legal one); the JAX game ends where the arena's did, with its winner."""
    games = GAMES
    played = twinsim._core.arena_shard(
        "zuniq", ["builtin:greedy", "builtin:random"], games, 11, 0, games
    )
    actions = np.zeros((games, az.MAX_PLIES), dtype=np.int32)
    greedy_seat = np.zeros(games, dtype=np.int32)
    winners, plies = [], []
    for index, (_, result_line, trace_line, _) in enumerate(played):
        result, trace = json.loads(result_line), json.loads(trace_line)
        greedy_seat[index] = result["seats"].index(0)
        lines = [turn["actions"][0] for turn in trace["turns"]]
        actions[index, : len(lines)] = [az.wall_index(line) for line in lines]
        plies.append(len(lines))
        winners.append(trace["outcome"]["winner"])
    state = _start()
    greedy_moves = greedy_wins_beside_others = 0
    for ply in range(az.MAX_PLIES):
        values = np.asarray(_values(state))
        live = np.arange(games)[ply < np.asarray(plies)]
        chosen = values[live, actions[live, ply]]
        assert (chosen > -2).all()  # legal: in the JAX random's choices
        by_greedy = np.asarray(state.current_player)[live] == greedy_seat[live]
        best = values[live].max(axis=1)
        assert (chosen[by_greedy] == best[by_greedy]).all()
        greedy_moves += int(by_greedy.sum())
        worst = np.where(values[live] > -2, values[live], 2).min(axis=1)
        greedy_wins_beside_others += int((by_greedy & (best == 1) & (worst < 1)).sum())
        state = _step(state, jnp.asarray(actions[:, ply]))
    assert np.asarray(state.terminated).all()
    assert np.asarray(state.winner).tolist() == winners
    assert greedy_moves > 15 * games and greedy_wins_beside_others >= 5
