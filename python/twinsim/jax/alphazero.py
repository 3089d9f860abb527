"""A small AlphaZero-style loop on Zuniq with ``mctx``, the environment being the JAX twin.

``python -m twinsim.jax.alphazero --out target/alphazero-out`` plays self-play batches with
Gumbel MuZero search (``mctx.gumbel_muzero_policy``, the JAX Zuniq engine as the search's model:
a perfect simulator; ``--considered`` root actions, Gumbel noise for the first
``--explore-plies`` plies only), keeps the last ``--replay`` batches, trains a hand-written MLP
policy/value network on them (plain JAX, Adam written out), and every ``--eval-every``
iterations (and before the first) measures the win rate, over ``--eval-games`` fixed games
(``--eval-seed``), against two opponents written in JAX, batched:

- ``random``: a uniform legal action, like ``builtin:random``;
- ``greedy``: the rule of ``builtin:greedy`` for Zuniq (``search/src/greedy.rs``): every legal
  action is tried one ply deep, a win beats anything and a loss is below anything (Zuniq has no
  score before its end), ties broken uniformly at random.

Both choose what the Rust bots choose (``python/tests/test_jax_alphazero.py`` replays the
arena's ``builtin:greedy`` against ``builtin:random`` games move by move). The network plays
its search's choice (``--eval-simulations``, 16 by default: what the training changes most is the
value, which only a search reads) or, with 0, its policy's most likely move. With
``--arena-games N`` the first and the last evaluation also play N games of ``twinsim.arena``
against the Rust ``builtin:random`` and ``builtin:greedy`` themselves, the network being a
protocol bot (:func:`arena_win_rate`); that costs a process per game, so it is not the
curve's measure.

It writes ``winrate.csv`` (one row per evaluation: losses, win rates and their 95 % Wilson
intervals), ``winrate.png`` (the curves with error bars, labelled; ``_plot``, ``zlib`` only,
no plotting dependency) and ``params-<iteration>.npz`` (each evaluated network).
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from pathlib import Path
from typing import NamedTuple

import jax
import jax.numpy as jnp
import mctx

from ._plot import Series, write_plot
from ._zuniq import NUM_ACTIONS, WALLS, Zuniq

ENV = Zuniq()
#: Every move places one of the 60 walls, so a game has at most 60 plies.
MAX_PLIES = WALLS
#: The network's moves: the 60 walls without the claim ``!`` (actions ``0..59``). A claim
#: changes the score, never who wins, and the rewards here are the win (+1) or loss (-1), so the
#: 60 claim actions would only double the search's branching with copies.
POLICY_SIZE = WALLS
#: Zone sizes run from 1 to 25 (rules section 4).
MAX_ZONE = 25
#: The network's input (see :func:`features`).
FEATURE_SIZE = 3 * WALLS + MAX_ZONE + 1 + 2 * (WALLS + 1)


class Config(NamedTuple):
    """The loop's sizes (defaults: the documented full run of ``python/README.md``, about half
    an hour on the loaded 2-core CPU it was measured on)."""

    iterations: int = 50
    #: Self-play games per iteration.
    batch: int = 64
    simulations: int = 32
    #: Root actions the self-play search considers (Gumbel's sequential halving; mctx's
    #: default is 16); 64 would try every legal move (at most 60) once.
    considered: int = 32
    #: Self-play plies played with the search's Gumbel noise (exploration); greedy after.
    explore_plies: int = 20
    hidden: int = 128
    #: The initial policy and value heads' scale (see :func:`init_params`).
    head_scale: float = 0.01
    learning_rate: float = 1e-3
    #: Adam steps per iteration, each on ``minibatch`` plies drawn from the replay buffer (the
    #: value, learnt from ±1 results, needs many more steps than the policy).
    train_steps: int = 128
    minibatch: int = 512
    #: Self-play batches kept (the last ones).
    replay: int = 8
    eval_every: int = 10
    #: Games per opponent and evaluation (256: a 95 % interval of about +-0.06).
    eval_games: int = 256
    #: The network's search in evaluation games (0: its policy's most likely move). 16: the
    #: value is what the training mostly changes, and only a search reads it.
    eval_simulations: int = 16
    #: The evaluation games' randomness (the same at every evaluation and for every ``seed``).
    eval_seed: int = 12345
    #: Games against each real Rust bot at the first and the last evaluation (0: none).
    arena_games: int = 0
    seed: int = 0


# -- the network: an MLP, position features -> (policy logits, value) ---------------------------


def features(state) -> jax.Array:
    """The network's input ``(B, FEATURE_SIZE)``, from the position alone (Zuniq has no hidden
    information and no score before its end, so who is to move does not matter either): the
    placed walls, the legal walls, per legal wall the size of the zone it would close (/ 25), the
    zone sizes already used, and the ply (/ 60). The legality and the closing sizes are what the
    engine computes anyway; an MLP on the bare walls would have to learn the flood fill first."""
    walls = state.walls.astype(jnp.float32)
    legal = state.legal_action_mask[:, :WALLS].astype(jnp.float32)
    closing = legal * state.closing_size.astype(jnp.float32) / MAX_ZONE
    sizes = jnp.arange(1, MAX_ZONE + 1, dtype=jnp.uint32)
    used = ((state.zone_sizes[:, None] >> sizes) & 1).astype(jnp.float32)
    ply = state.step_count.astype(jnp.float32)[:, None] / MAX_PLIES
    # The number of legal walls and of those closing nothing, one-hot: who wins is decided by
    # the parity of what is left to play, which a ReLU layer cannot read from a plain count.
    legal_walls = state.legal_action_mask[:, :WALLS]
    left = jax.nn.one_hot(legal_walls.sum(-1), WALLS + 1)
    free = jax.nn.one_hot((legal_walls & (state.closing_size == 0)).sum(-1), WALLS + 1)
    return jnp.concatenate([walls, legal, closing, used, ply, left, free], axis=-1)


def wall_mask(state) -> jax.Array:
    """The legal moves among the network's: the legal walls played without a claim."""
    return state.legal_action_mask[:, :POLICY_SIZE]


def init_params(key: jax.Array, hidden: int, head_scale: float = 1.0) -> dict[str, jax.Array]:
    """He-initialised weights of two hidden layers and the policy and value heads, the heads
    scaled by ``head_scale``: a small scale starts from a nearly uniform prior and a value near
    0, so that the first search targets are the search's findings rather than the random
    preferences of an untrained policy head (which self-play would otherwise teach back to it)."""
    sizes = {"w1": (FEATURE_SIZE, hidden), "w2": (hidden, hidden)}
    sizes |= {"wp": (hidden, POLICY_SIZE), "wv": (hidden, 1)}
    keys = jax.random.split(key, len(sizes))
    params = {}
    for k, (name, shape) in zip(keys, sizes.items()):
        scale = head_scale if name in ("wp", "wv") else 1.0
        params[name] = jax.random.normal(k, shape) * jnp.sqrt(2.0 / shape[0]) * scale
        params["b" + name[1:]] = jnp.zeros(shape[1])
    return params


def forward(params: dict[str, jax.Array], x: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Policy logits ``(B, 60)`` and value in [-1, 1] ``(B,)`` for the player to move, from
    :func:`features` ``x``."""
    x = jax.nn.relu(x @ params["w1"] + params["b1"])
    x = jax.nn.relu(x @ params["w2"] + params["b2"])
    logits = x @ params["wp"] + params["bp"]
    value = jnp.tanh(x @ params["wv"] + params["bv"])[:, 0]
    return logits, value


def _masked(logits: jax.Array, mask: jax.Array) -> jax.Array:
    return jnp.where(mask, logits - logits.max(axis=-1, keepdims=True), jnp.finfo(jnp.float32).min)


# -- search: the JAX engine is mctx's model --------------------------------------------------


def _recurrent_fn(params, key, action, state):
    """One step of the real game as the search's dynamics: the mover's reward, and discount -1
    (two players, zero-sum: the next node's value is the opponent's) or 0 once finished."""
    del key
    mover = state.current_player
    state = jax.vmap(ENV.step)(state, action)
    logits, value = forward(params, features(state))
    reward = state.rewards[jnp.arange(action.shape[0]), mover]
    value = jnp.where(state.terminated, 0.0, value)
    discount = jnp.where(state.terminated, 0.0, -1.0)
    output = mctx.RecurrentFnOutput(
        reward=reward,
        discount=discount,
        prior_logits=_masked(logits, wall_mask(state)),
        value=value,
    )
    return output, state


def _search(params, key, state, simulations: int, considered: int = 16, gumbel_scale=1.0):
    logits, value = forward(params, features(state))
    root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
    return mctx.gumbel_muzero_policy(
        params=params,
        rng_key=key,
        root=root,
        recurrent_fn=_recurrent_fn,
        num_simulations=simulations,
        invalid_actions=~wall_mask(state),
        max_num_considered_actions=considered,
        gumbel_scale=gumbel_scale,
    )


class Batch(NamedTuple):
    """Self-play samples, ``(plies, batch, ...)``: the network's input, the search's policy,
    the game's result for the player to move (+1 won, -1 lost), whether the ply was played."""

    features: jax.Array
    policy: jax.Array
    value: jax.Array
    valid: jax.Array


def self_play(
    params,
    key: jax.Array,
    batch: int,
    simulations: int,
    considered: int = 16,
    explore_plies: int = MAX_PLIES,
) -> Batch:
    """``batch`` games of the network against itself, each move chosen by the search; targets
    are the search's improved policy and the game's result for the player who moved. The
    search's Gumbel noise (its exploration) is on for the first ``explore_plies`` plies and off
    after: the ends of the games, which decide them, are played as well as the search can, so
    that their results say more about their positions (the value targets)."""
    init_key, play_key = jax.random.split(key)
    state = jax.vmap(ENV.init)(jax.random.split(init_key, batch))

    def ply(state, key):
        noise = (state.step_count < explore_plies).astype(jnp.float32)[:, None]
        output = _search(params, key, state, simulations, considered, noise)
        after = jax.vmap(ENV.step)(state, output.action)
        record = (
            features(state),
            output.action_weights,
            state.current_player,
            ~state.terminated,
            after.rewards,
        )
        return after, record

    _, (inputs, policy, mover, valid, rewards) = jax.lax.scan(
        ply, state, jax.random.split(play_key, MAX_PLIES)
    )
    result = rewards.sum(axis=0)  # (batch, 2): each seat's final reward
    value = jnp.take_along_axis(result[None], mover[..., None], axis=-1)[..., 0]
    return Batch(inputs, policy, value, valid)


# -- training: cross-entropy to the search policy + squared value error, Adam by hand -----------


def loss_fn(params, batch: Batch) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
    logits, value = forward(params, batch.features.reshape(-1, FEATURE_SIZE))
    policy = batch.policy.reshape(-1, POLICY_SIZE)
    valid = batch.valid.reshape(-1).astype(jnp.float32)
    count = jnp.maximum(valid.sum(), 1.0)
    policy_loss = -(policy * jax.nn.log_softmax(logits)).sum(-1)
    value_loss = (value - batch.value.reshape(-1)) ** 2
    policy_loss = (policy_loss * valid).sum() / count
    value_loss = (value_loss * valid).sum() / count
    return policy_loss + value_loss, (policy_loss, value_loss)


def adam_init(params):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return (zeros, zeros, jnp.int32(0))


def adam_step(params, adam, batch: Batch, learning_rate: float):
    """One full-batch Adam step; returns the loss before it."""
    (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, batch)
    first, second, count = adam
    count = count + 1
    first = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, first, grads)
    second = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, second, grads)
    scale = learning_rate * jnp.sqrt(1 - 0.999**count) / (1 - 0.9**count)
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - scale * m / (jnp.sqrt(v) + 1e-8), params, first, second
    )
    return params, (first, second, count), loss, parts


def remember(replay: Batch, batch: Batch, slot: jax.Array) -> Batch:
    """The replay buffer ``(slots, plies, batch, ...)`` with ``batch`` written into ``slot``
    (the oldest: the buffer keeps the last ``slots`` self-play batches)."""
    return jax.tree_util.tree_map(lambda old, new: old.at[slot].set(new), replay, batch)


def empty_replay(slots: int, batch: int) -> Batch:
    """A replay buffer of nothing played yet (every sample invalid)."""
    shape = (slots, MAX_PLIES, batch)
    return Batch(
        features=jnp.zeros((*shape, FEATURE_SIZE)),
        policy=jnp.zeros((*shape, POLICY_SIZE)),
        value=jnp.zeros(shape),
        valid=jnp.zeros(shape, dtype=bool),
    )


def train(params, adam, replay: Batch, key, learning_rate: float, steps: int, minibatch: int):
    """``steps`` Adam steps, each on ``minibatch`` samples drawn from the replay buffer;
    returns the loss before the last."""
    samples = jax.tree_util.tree_map(lambda x: x.reshape(-1, *x.shape[3:]), replay)
    weight = samples.valid / jnp.maximum(samples.valid.sum(), 1)

    def one(carry, key):
        params, adam = carry
        # Only played plies: a uniform choice among the valid samples (their weights equal).
        pick = jax.random.choice(key, samples.valid.shape[0], (minibatch,), p=weight)
        drawn = jax.tree_util.tree_map(lambda x: x[pick], samples)
        params, adam, loss, parts = adam_step(params, adam, drawn, learning_rate)
        return (params, adam), (loss, parts)

    (params, adam), (loss, parts) = jax.lax.scan(one, (params, adam), jax.random.split(key, steps))
    return params, adam, loss[-1], jax.tree_util.tree_map(lambda x: x[-1], parts)


# -- evaluation against opponents in JAX --------------------------------------------------------


def random_action(state, key):
    """A uniform legal action per game (``builtin:random``)."""
    noise = jax.random.uniform(key, state.legal_action_mask.shape)
    return jnp.argmax(jnp.where(state.legal_action_mask, noise, -1.0), axis=-1)


def one_ply_values(state, actions: int = NUM_ACTIONS):
    """Per game and action (the first ``actions``), the mover's result one ply later: 1 a win,
    -1 a loss, 0 the game goes on; -2 for an action the mask forbids."""
    mask = state.legal_action_mask[:, :actions]
    actions = jnp.arange(actions)

    def values(one):
        after = jax.vmap(ENV.step, in_axes=(None, 0))(one, actions)
        return after.rewards[:, one.current_player]

    return jnp.where(mask, jax.vmap(values)(state), -2.0)


def greedy_action(state, key):
    """``builtin:greedy``'s rule for Zuniq: every legal action one ply deep, valued by the
    mover's result (win beats going on beats a loss), a uniform choice among the best. Only
    the 60 walls are tried: a claim (``!``) has its wall's value (it changes the score, never
    who wins), so the choice among the walls is the same, at half the cost, and it never
    claims."""
    value = one_ply_values(state, WALLS)
    best = value == value.max(axis=-1, keepdims=True)
    noise = jax.random.uniform(key, value.shape)
    return jnp.argmax(jnp.where(best, noise, -1.0), axis=-1)


OPPONENTS = {"random": random_action, "greedy": greedy_action}


def network_action(params, key, state, simulations: int) -> jax.Array:
    """The network's move in every game: the search's choice with ``simulations`` > 0, else its
    policy's most likely legal action."""
    if simulations > 0:
        return _search(params, key, state, simulations).action
    logits, _ = forward(params, features(state))
    return jnp.argmax(_masked(logits, wall_mask(state)), axis=-1)


def evaluate(params, key, opponent: str, games: int, simulations: int) -> jax.Array:
    """The network's win rate over ``games`` games against ``opponent``, seats alternating
    (game i: the network plays seat i mod 2). With ``simulations`` 0 it plays its policy's
    most likely legal action; otherwise the search's choice."""
    opponent_action = OPPONENTS[opponent]
    init_key, play_key = jax.random.split(key)
    state = jax.vmap(ENV.init)(jax.random.split(init_key, games))
    seat = jnp.arange(games) % 2

    def ply(state, key):
        search_key, opponent_key = jax.random.split(key)
        mine = network_action(params, search_key, state, simulations)
        theirs = opponent_action(state, opponent_key)
        action = jnp.where(state.current_player == seat, mine, theirs)
        after = jax.vmap(ENV.step)(state, action)
        return after, after.rewards[jnp.arange(games), seat]

    _, rewards = jax.lax.scan(ply, state, jax.random.split(play_key, MAX_PLIES))
    return (rewards.sum(axis=0) > 0).mean()


# The loop's functions, jitted once for the module rather than per call of `run` or
# `arena_win_rate`: XLA compiles each once per shape and static arguments, and every later run
# and arena game of the process (the tests make several) reuses that.
_play = jax.jit(self_play, static_argnums=(2, 3, 4, 5))
_store = jax.jit(remember, donate_argnums=(0,))
_learn = jax.jit(train, static_argnums=(5, 6))
_judge = jax.jit(evaluate, static_argnums=(2, 3, 4))
_step = jax.jit(jax.vmap(ENV.step))
_choose = jax.jit(network_action, static_argnums=(3,))


# -- evaluation against the real Rust bots, through the arena ----------------------------------

#: The bot process the arena starts for the network (one per game): it relays the referee's
#: lines to this Python process over a Unix socket and prints the answers.
RELAY = """import socket, sys
link = socket.socket(socket.AF_UNIX)
link.connect(sys.argv[1])
reply = link.makefile("rw")
for line in sys.stdin:
    reply.write(line)
    reply.flush()
    if line.strip() == "Quit":
        break
    print(reply.readline().strip(), flush=True)
"""


def wall_name(wall: int) -> str:
    """The referee's name of wall ``wall`` (rules section 2: ``Xnh`` is ``5·row + n − 1``,
    ``Xnv`` is ``30 + 6·row + n − 1``)."""
    if wall < 30:
        return f"{chr(ord('A') + wall // 5)}{wall % 5 + 1}h"
    return f"{chr(ord('A') + (wall - 30) // 6)}{(wall - 30) % 6 + 1}v"


def wall_index(name: str) -> int:
    """The action of a referee move (a claim ``!`` adds 60, the claim actions)."""
    row, column = ord(name[0]) - ord("A"), int(name[1]) - 1
    wall = 5 * row + column if name[2] == "h" else 30 + 6 * row + column
    return wall + (WALLS if name.endswith("!") else 0)


def arena_win_rate(params, opponent: str, games: int, simulations: int, seed: int = 1) -> float:
    """The network's win rate over ``games`` games of ``twinsim.arena`` against the Rust bot
    ``opponent`` (``builtin:random`` or ``builtin:greedy``), seats rotating. The network plays
    as a protocol bot: a relay process per game (:data:`RELAY`) and, here, one thread per game
    keeping the game on the JAX engine and answering with :func:`evaluate`'s choice."""
    import os
    import socket
    import sys
    import tempfile
    import threading

    import numpy as np

    import twinsim

    start = jax.vmap(ENV.init)(jax.random.split(jax.random.PRNGKey(seed), 1))
    # Compiled before the clock (once per process and `simulations`).
    _choose(params, jax.random.PRNGKey(seed), start, simulations).block_until_ready()
    jax.block_until_ready(_step(start, jnp.zeros(1, dtype=jnp.int32)))

    def serve(connection: socket.socket, game_seed: int) -> None:
        state, key = start, jax.random.PRNGKey(game_seed)
        with connection, connection.makefile("rw") as link:
            for line in link:
                line = line.strip()
                if line == "Quit":
                    return
                if line != "Start":  # the opponent's move
                    state = _step(state, jnp.asarray([wall_index(line)], dtype=jnp.int32))
                key, move_key = jax.random.split(key)
                wall = int(np.asarray(_choose(params, move_key, state, simulations))[0])
                state = _step(state, jnp.asarray([wall], dtype=jnp.int32))
                link.write(wall_name(wall) + "\n")
                link.flush()

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "network.sock")
        relay = os.path.join(folder, "relay.py")
        with open(relay, "w") as file:
            file.write(RELAY)
        server = socket.socket(socket.AF_UNIX)
        server.bind(path)
        server.listen()
        threads = []

        def accept() -> None:
            while True:
                try:
                    connection, _ = server.accept()
                except OSError:  # closed: the arena run is over
                    return
                thread = threading.Thread(target=serve, args=(connection, seed + len(threads)))
                thread.start()
                threads.append(thread)

        acceptor = threading.Thread(target=accept, daemon=True)
        acceptor.start()
        try:
            command = f"{sys.executable} {relay} {path}"
            # The clock is the referee's (30 s a game); the loaded machine gets 10 times that.
            report = twinsim.arena(ENV.id, [command, opponent], games, seed, time_scale=10.0)
        finally:
            server.close()
            for thread in threads:
                thread.join()
    return report["bots"][0]["wins"] / games


# -- output: CSV and the plot -------------------------------------------------------------------


def save_params(path: Path, params: dict[str, jax.Array]) -> None:
    """The network's weights as a NumPy ``.npz`` (``load_params`` reads it back)."""
    import numpy as np

    np.savez(path, **{name: np.asarray(value) for name, value in params.items()})


def load_params(path: Path) -> dict[str, jax.Array]:
    import numpy as np

    with np.load(path) as saved:
        return {name: jnp.asarray(saved[name]) for name in saved.files}


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate of ``wins`` in ``games`` (95 % for z = 1.96):
    unlike the normal one it stays inside [0, 1] and is not empty at 0 or ``games`` wins."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    shrink = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / shrink
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / shrink
    return max(centre - half, 0.0), min(centre + half, 1.0)


COLUMNS = [
    "iteration",
    "loss",
    "policy_loss",
    "value_loss",
    "win_rate_random",
    "random_low",
    "random_high",
    "win_rate_greedy",
    "greedy_low",
    "greedy_high",
]
#: Measured at the first and the last evaluation only (``--arena-games``), empty elsewhere.
ARENA_COLUMNS = ["arena_win_rate_random", "arena_win_rate_greedy"]
#: The plot's colour per opponent.
COLOURS = {"random": (30, 90, 200), "greedy": (200, 40, 40)}


def plot(path: Path, rows: list[dict[str, float]], config: Config) -> None:
    """The win rates of ``rows`` over the iterations, with their 95 % intervals."""
    xs = [row["iteration"] for row in rows]
    how = f"{config.eval_simulations} SIMULATIONS" if config.eval_simulations else "POLICY ONLY"
    series = [
        Series(
            f"VS BUILTIN:{name} (JAX COPY, {config.eval_games} GAMES)",
            COLOURS[name],
            xs,
            [row[f"win_rate_{name}"] for row in rows],
            [row[f"{name}_low"] for row in rows],
            [row[f"{name}_high"] for row in rows],
        )
        for name in OPPONENTS
    ]
    title = f"ALPHAZERO ON ZUNIQ: WIN RATE, 95% CI ({how})"
    write_plot(path, series, title, "ITERATION", "WIN RATE")


def run(config: Config, out: Path, log=print) -> list[dict[str, float]]:
    """The loop; returns the CSV's rows (also written, with the plot, under ``out``)."""
    out.mkdir(parents=True, exist_ok=True)
    key = jax.random.PRNGKey(config.seed)
    key, init_key = jax.random.split(key)
    params = init_params(init_key, config.hidden, config.head_scale)
    adam = adam_init(params)
    replay = empty_replay(config.replay, config.batch)
    play, store, learn, judge = _play, _store, _learn, _judge
    rows: list[dict[str, float]] = []
    start = time.perf_counter()
    # Every evaluation plays the same games' dice (common random numbers: less noise between
    # the points of the curve), whatever the training seed; iteration 0 is the untrained network.
    eval_key = jax.random.PRNGKey(config.eval_seed)
    loss = policy_loss = value_loss = float("nan")
    for iteration in range(config.iterations + 1):
        if iteration > 0:
            key, play_key, train_key = jax.random.split(key, 3)
            batch = play(
                params,
                play_key,
                config.batch,
                config.simulations,
                config.considered,
                config.explore_plies,
            )
            replay = store(replay, batch, (iteration - 1) % config.replay)
            params, adam, loss, (policy_loss, value_loss) = learn(
                params,
                adam,
                replay,
                train_key,
                config.learning_rate,
                config.train_steps,
                config.minibatch,
            )
        if iteration % config.eval_every and iteration != config.iterations:
            continue
        row = {
            "iteration": iteration,
            "loss": float(loss),
            "policy_loss": float(policy_loss),
            "value_loss": float(value_loss),
        }
        text = "win rate"
        for name, k in zip(OPPONENTS, jax.random.split(eval_key)):
            rate = float(judge(params, k, name, config.eval_games, config.eval_simulations))
            low, high = wilson_interval(round(rate * config.eval_games), config.eval_games)
            row |= {f"win_rate_{name}": rate, f"{name}_low": low, f"{name}_high": high}
            text += f" vs {name} {rate:.3f} [{low:.3f}, {high:.3f}]"
        if config.arena_games and iteration in (0, config.iterations):
            for opponent in OPPONENTS:
                row["arena_win_rate_" + opponent] = arena_win_rate(
                    params,
                    "builtin:" + opponent,
                    config.arena_games,
                    config.eval_simulations,
                    config.seed + 1,
                )
            text += (
                f"; arena (Rust bots): vs builtin:random {row['arena_win_rate_random']:.3f}, "
                f"vs builtin:greedy {row['arena_win_rate_greedy']:.3f}"
            )
        rows.append(row)
        # The network as evaluated, to judge it again another way (``load_params``).
        save_params(out / f"params-{iteration}.npz", params)
        log(
            f"iteration {iteration}: loss {row['loss']:.3f} (value {row['value_loss']:.3f}), "
            f"{text} ({time.perf_counter() - start:.0f} s)"
        )
        with open(out / "winrate.csv", "w", newline="") as file:
            columns = COLUMNS + (ARENA_COLUMNS if config.arena_games else [])
            writer = csv.DictWriter(file, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)
        plot(out / "winrate.png", rows, config)
    return rows


def main(argv: list[str] | None = None) -> None:
    defaults = Config()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for field in Config._fields:
        default = getattr(defaults, field)
        parser.add_argument("--" + field.replace("_", "-"), type=type(default), default=default)
    parser.add_argument("--out", type=Path, default=Path("target/alphazero-out"))
    args = parser.parse_args(argv)
    config = Config(**{field: getattr(args, field) for field in Config._fields})
    print(f"device: {jax.devices()[0].device_kind}; {config}")
    run(config, args.out)


if __name__ == "__main__":
    main()
