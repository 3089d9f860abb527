"""Wondev Woman in pure JAX: the top league's rules (``rules/wondev-woman.md``
sections 3 to 8: moves, builds, pushes, the fog's hidden occupants, elimination, the round
boundary's end test) with the numbering, planes and mask of the PettingZoo env
(``python/src/codec/wondev_woman.rs``, ``python/src/lanes/wondev_woman.rs``).

The referee's seeded setup (section 2: a ``java.util.Random`` map and spawn draw with a
data-dependent loop) is not computed in JAX: it comes from the Rust engine, seed by seed
(:func:`setups`), and ``init`` draws one of a bank of such setups (``Env.init_with`` sets up a
given one, as the lockstep tests do).
"""

from __future__ import annotations

import dataclasses
import json
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from ._env import Env, PgxState, pytree, unless_finished

MAX = 7
PLANES = 11
NUM_ACTIONS = 257
ACCEPT_DEFEAT = 256
MAX_ROUNDS = 200
#: The codec's directions N, NE, E, SE, S, SW, W, NW as (dx, dy), y growing south.
DIRECTIONS = np.array([(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)])


class Setup(NamedTuple):
    """One game's start (a leading batch axis for several): ``cells`` (bool ``[7, 7]``, a cell
    of the map, ``[y, x]``), ``inside`` (within the ``size × size`` grid) and ``units``
    (``[4, 2]`` int32 ``(x, y)`` of p0u0, p0u1, p1u0, p1u1)."""

    cells: jax.Array
    inside: jax.Array
    units: jax.Array


def setups(seeds: list[int] | np.ndarray, league: int | None = None) -> Setup:
    """The referee's setups of ``seeds``, from the Rust engine (batched along the seeds)."""
    from twinsim import _core

    cells = np.zeros((len(seeds), MAX, MAX), dtype=bool)
    inside = np.zeros((len(seeds), MAX, MAX), dtype=bool)
    units = np.zeros((len(seeds), 4, 2), dtype=np.int32)
    for i, seed in enumerate(seeds):
        initial = json.loads(_core.Match("wondev-woman", int(seed), league).records_json()[0])
        initial = initial["initial"]
        size = initial["size"]
        inside[i, :size, :size] = True
        for y, row in enumerate(initial["grid"]):
            for x, cell in enumerate(row):
                cells[i, y, x] = cell != "."
                assert cell in ".0", "a setup's cells are all of height 0"
        units[i] = np.asarray(initial["units"], dtype=np.int32).reshape(4, 2)
    return Setup(jnp.asarray(cells), jnp.asarray(inside), jnp.asarray(units))


@pytree
@dataclasses.dataclass(frozen=True)
class State(PgxState):
    """A Wondev Woman position. pgx's fields first (``observation`` is the current player's);
    then ``cells``, ``inside``, ``height`` (int32 ``[7, 7]``, 4 a dome), ``units``, ``scores``,
    ``dead`` (eliminated), ``round``, ``game_over`` and ``seen``: each seat's observation as of
    the last view the referee sent it (it sends one only to the player to move)."""

    cells: jax.Array
    inside: jax.Array
    height: jax.Array
    units: jax.Array
    scores: jax.Array
    dead: jax.Array
    round: jax.Array
    game_over: jax.Array
    seen: jax.Array


def _cell(state: State, point: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Whether ``point`` (``[..., 2]``, x and y) is a cell of the map, and its height."""
    x, y = point[..., 0], point[..., 1]
    on = (x >= 0) & (x < MAX) & (y >= 0) & (y < MAX)
    xc, yc = jnp.clip(x, 0, MAX - 1), jnp.clip(y, 0, MAX - 1)
    return on & state.cells[yc, xc], state.height[yc, xc]


def _occupant(units: jax.Array, point: jax.Array) -> jax.Array:
    """The index (0..3) of the unit standing on ``point`` (``[..., 2]``), or -1."""
    here = jnp.all(units == point[..., None, :], axis=-1)  # [..., 4]
    return jnp.where(jnp.any(here, axis=-1), jnp.argmax(here, axis=-1), -1)


def _visible(units: jax.Array, viewer: jax.Array) -> jax.Array:
    """Which of the four units ``viewer`` sees (section 7): its own, and enemies within one step
    (Chebyshev) of one of its units."""
    own = jnp.arange(4) // 2 == viewer
    mine = units[jnp.array([0, 1]) + 2 * viewer]  # [2, 2]
    near = jnp.max(jnp.abs(units[:, None, :] - mine[None, :, :]), axis=-1) <= 1  # [4, 2]
    return own | jnp.any(near, axis=-1)


def _actions(state: State, player: jax.Array) -> tuple[jax.Array, ...]:
    """Every ``128·kind + 64·unit + 8·d1 + d2`` of ``player`` at once (``[2, 2, 8, 8]``):
    whether it is legal, and its effects: the unit that moves (-1 none), where to, the cell built
    on (and whether the build happens), whether it scores."""
    directions = jnp.asarray(DIRECTIONS, dtype=jnp.int32)
    mover = 2 * player + jnp.arange(2)  # the acting unit, per unit index
    start = state.units[mover]  # [2, 2]
    first = start[:, None, None, :] + directions[None, :, None, :]  # T, [unit, d1, 1, 2]
    second = first + directions[None, None, :, :]  # B or D, [unit, d1, d2, 2]
    first = jnp.broadcast_to(first, second.shape)
    first_cell, first_height = _cell(state, first)
    second_cell, second_height = _cell(state, second)
    _, start_height = _cell(state, start)
    start_height = start_height[:, None, None]
    on_first = _occupant(state.units, first)
    on_second = _occupant(state.units, second)
    seen = _visible(state.units, player)
    hidden_on_second = (on_second >= 0) & ~seen[jnp.maximum(on_second, 0)]
    unit_index = jnp.arange(2)[:, None, None]
    acting = mover[unit_index]
    # MOVE&BUILD, section 5, checks 1 to 7.
    other_on_second = (on_second >= 0) & (on_second != acting)
    move_legal = (
        first_cell
        & (first_height <= start_height + 1)
        & (first_height < 4)
        & (on_first < 0)
        & second_cell
        & (second_height < 4)
        & (~other_on_second | hidden_on_second)
    )
    move_builds = ~(other_on_second & hidden_on_second)
    move_scores = first_height == 3
    # PUSH&BUILD, section 6, checks 1 to 5.
    d1, d2 = jnp.arange(8)[:, None], jnp.arange(8)[None, :]
    within_45 = ((d2 - d1) % 8 == 0) | ((d2 - d1) % 8 == 1) | ((d2 - d1) % 8 == 7)
    enemy_on_first = (on_first >= 0) & (on_first // 2 != player)
    push_legal = (
        within_45[None]
        & enemy_on_first
        & second_cell
        & (second_height < 4)
        & (second_height <= first_height + 1)
        & ((on_second < 0) | hidden_on_second)
    )
    push_happens = on_second < 0
    legal = jnp.stack([move_legal, push_legal])  # [kind, unit, d1, d2]
    moving = jnp.stack(
        [jnp.broadcast_to(acting, move_legal.shape), jnp.where(push_happens, on_first, -1)]
    )
    to = jnp.stack([first, second])
    built = jnp.stack([second, first])
    builds = jnp.stack([move_builds, push_happens])
    scores = jnp.stack([move_scores, jnp.zeros_like(move_scores)])
    return legal, moving, to, built, builds, scores


def _mask(state: State, player: jax.Array) -> jax.Array:
    legal = _actions(state, player)[0].reshape(256)
    return jnp.concatenate([legal, ~jnp.any(legal)[None]])


def _encode(state: State, player: jax.Array) -> jax.Array:
    """``player``'s planes of the state as it is (section 9's view, through the codec)."""
    heights = jnp.arange(5)[:, None, None] == state.height[None]
    board = jnp.concatenate([state.cells[None], heights & state.cells[None]])  # planes 0..5
    seen = _visible(state.units, player)
    order = jnp.concatenate([jnp.array([0, 1]) + 2 * player, jnp.array([0, 1]) + 2 * (1 - player)])
    ys, xs = jnp.arange(MAX)[:, None], jnp.arange(MAX)[None, :]
    units = state.units[order]
    unit_planes = (
        (xs[None] == units[:, 0, None, None])
        & (ys[None] == units[:, 1, None, None])
        & seen[order][:, None, None]
    )
    planes = jnp.concatenate([board, unit_planes, state.inside[None]])
    return planes.astype(jnp.int8)


class WondevWoman(Env):
    """Wondev Woman (CodinGame 2017), the top league (fog): two seats; actions
    ``Discrete(257)`` (``128·kind + 64·unit + 8·move + build``, directions N, NE, E, SE, S, SW,
    W, NW; 256 ``ACCEPT-DEFEAT``, allowed exactly when nothing else is); observation
    ``(11, 7, 7)`` int8. An action the mask does not allow eliminates the player (the referee's
    invalid action). ``setups`` is the bank ``init`` draws from (default: the referee's seeds 1
    to 256, from the Rust engine)."""

    id = "wondev-woman"

    def __init__(self, bank: Setup | None = None) -> None:
        self.bank = bank if bank is not None else setups(range(1, 257))

    num_actions = NUM_ACTIONS

    def init(self, key: jax.Array) -> State:
        """One of the bank's setups, drawn with ``key``."""
        pick = jax.random.randint(key, (), 0, self.bank.units.shape[0])
        return self.init_with(jax.tree_util.tree_map(lambda a: a[pick], self.bank))

    def init_with(self, setup: Setup) -> State:
        """The game of ``setup`` (one game: no batch axis), player 0 to move."""
        state = State(
            current_player=jnp.int32(0),
            observation=jnp.zeros((PLANES, MAX, MAX), dtype=jnp.int8),
            rewards=jnp.zeros(2, dtype=jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.zeros(NUM_ACTIONS, dtype=bool),
            step_count=jnp.int32(0),
            cells=setup.cells,
            inside=setup.inside,
            height=jnp.zeros((MAX, MAX), dtype=jnp.int32),
            units=setup.units.astype(jnp.int32),
            scores=jnp.zeros(2, dtype=jnp.int32),
            dead=jnp.zeros(2, dtype=bool),
            round=jnp.int32(0),
            game_over=jnp.bool_(False),
            seen=jnp.zeros((2, PLANES, MAX, MAX), dtype=jnp.int8),
        )
        # Every seat reads the setup.
        seen = jnp.stack([_encode(state, jnp.int32(0)), _encode(state, jnp.int32(1))])
        return state.replace(
            seen=seen, observation=seen[0], legal_action_mask=_mask(state, jnp.int32(0))
        )

    def step(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        action = jnp.asarray(action, dtype=jnp.int32)
        player = state.current_player
        safe = jnp.clip(action, 0, ACCEPT_DEFEAT - 1)
        legal, moving, to, built, builds, scores = _actions(state, player)
        kind, unit, d1, d2 = safe // 128, (safe // 64) % 2, (safe // 8) % 8, safe % 8
        pick = (kind, unit, d1, d2)
        valid = (action >= 0) & (action < ACCEPT_DEFEAT) & legal[pick]
        # A valid action (section 10): the unit moves, the build, the point.
        who, where, build_at = moving[pick], to[pick], built[pick]
        units = jnp.where(
            valid & (who >= 0) & (jnp.arange(4) == who)[:, None], where[None, :], state.units
        )
        by = jnp.where(valid & builds[pick], 1, 0)
        bx, byy = jnp.clip(build_at[0], 0, MAX - 1), jnp.clip(build_at[1], 0, MAX - 1)
        height = state.height.at[byy, bx].add(by)
        score = state.scores.at[player].add(jnp.where(valid & scores[pick], 1, 0))
        # Anything else (ACCEPT-DEFEAT, an unlisted action) eliminates the player (section 8).
        dead = state.dead.at[player].set(state.dead[player] | ~valid)
        # The turn passes on (section 3): to player 1 within the round, else over the boundary.
        same_round = (player == 0) & ~dead[1]
        round_ = state.round + jnp.where(same_round, 0, 1)
        both_dead = dead[0] & dead[1]
        ahead = jnp.where(dead[0], score[1] > score[0], score[0] > score[1])
        over = ~same_round & (both_dead | ((dead[0] ^ dead[1]) & ahead) | (round_ >= MAX_ROUNDS))
        next_player = jnp.where(same_round, 1, jnp.where(dead[0], 1, 0))
        after = state.replace(
            units=units,
            height=height,
            scores=score,
            dead=dead,
            round=round_,
            game_over=over,
            terminated=over,
            current_player=next_player,
            step_count=state.step_count + 1,
        )
        legal_next = _mask(after, next_player) & ~over
        view = _encode(after, next_player)
        sent = (jnp.arange(2) == next_player) & ~over
        seen = jnp.where(sent[:, None, None, None], view[None], state.seen)
        first = jnp.sign(score[0] - score[1]).astype(jnp.float32)
        rewards = jnp.where(over, jnp.stack([first, -first]), 0.0).astype(jnp.float32)
        after = after.replace(
            legal_action_mask=legal_next,
            seen=seen,
            observation=seen[next_player],
            rewards=rewards,
        )
        return unless_finished(state, after)

    def observe(self, state: State, player_id: jax.Array) -> jax.Array:
        """``player_id``'s planes as of the last view the referee sent it (the fog hides enemy
        units no unit of its own is next to)."""
        return state.seen[jnp.asarray(player_id, dtype=jnp.int32)]
