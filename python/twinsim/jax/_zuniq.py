"""Zuniq in pure JAX: the rules of ``rules/zuniq.md`` (sections 4 to 7), the
numbering and planes of the PettingZoo env (``python/README.md``, ``python/src/codec/zuniq.rs``).

The board is kept as four 25-bit masks over the cells (cell ``5·row + column``), one bit each:
``open_right`` (no wall between a cell and the one on its right), ``open_down`` (none below it),
``exit_h`` / ``exit_v`` (its top or bottom / left or right border wall not placed). Every wall
clears exactly one bit of one mask, so a wall is a (mask, bit) pair. The cells still joined to
the outside are a flood from the exits: 24 rounds of shifts (the longest shortest path in 25
cells), after which the cells not reached are the closed zones. Legality floods the board with
each of the 60 walls added at once (one batched flood, 61 boards): the cells a wall would close
are those reached before and not after; they form one zone (rules section 4), whose size must be
one not yet used (section 5).
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from ._env import Env, PgxState, pytree, unless_finished

WALLS = 60
NUM_ACTIONS = 2 * WALLS
CELLS = 25
ALL_CELLS = (1 << CELLS) - 1
#: Enough flood rounds to reach every cell joined to an exit (a path through 25 cells).
FLOOD_ROUNDS = CELLS - 1

OPEN_RIGHT, OPEN_DOWN, EXIT_H, EXIT_V = range(4)


def _wall_sides(wall: int) -> tuple[int, int | None, int | None, int, int]:
    """Where wall ``wall`` lands in the observation (``plane·36 + row·6 + column``), the cells
    on its two sides (``None`` outside the board: a border wall), and the masks it clears when
    it stands between two cells or on the border."""
    if wall < 30:  # horizontal Xnh = 5·row + column: between cells (row - 1, c) and (row, c)
        row, column = divmod(wall, 5)
        before, after = (row - 1, column), (row, column)
        landing, between, border = row * 6 + column, OPEN_DOWN, EXIT_H
    else:  # vertical Xnv = 30 + 6·row + column: between cells (row, c - 1) and (row, c)
        row, column = divmod(wall - 30, 6)
        before, after = (row, column - 1), (row, column)
        landing, between, border = 36 + row * 6 + column, OPEN_RIGHT, EXIT_V
    first, second = (5 * r + c if 0 <= r < 5 and 0 <= c < 5 else None for r, c in (before, after))
    return landing, first, second, between, border


def _wall_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per wall: its bit in each of the four masks (zero in the three it does not touch), the
    cells beside it, and where it lands in the observation."""
    bits = np.zeros((WALLS, 4), dtype=np.uint32)
    beside = np.zeros(WALLS, dtype=np.uint32)
    plane_cell = np.zeros(WALLS, dtype=np.int32)
    for wall in range(WALLS):
        landing, first, second, between, border = _wall_sides(wall)
        plane_cell[wall] = landing
        cells = [c for c in (first, second) if c is not None]
        beside[wall] = sum(1 << c for c in cells)
        # An interior wall clears the passage from its first cell (left or up) to the next; a
        # border wall clears its one cell's exit.
        bits[wall, between if len(cells) == 2 else border] = 1 << cells[0]
    full = np.bitwise_or.reduce(bits, axis=0)
    return bits, full, beside, plane_cell


_BITS, _FULL, _BESIDE, _PLANE_CELL = _wall_tables()


@pytree
@dataclasses.dataclass(frozen=True)
class State(PgxState):
    """A Zuniq position. pgx's fields first; then ``walls`` (bool, the 60 walls in action
    order), ``zone_sizes`` (bit ``s`` set once a zone of size ``s`` has closed), ``closing_size``
    (per wall, the size of the zone placing it would close now, 0 for none), ``claims`` (the ply
    of each seat's first claim ``!``, 0 for none) and ``winner`` (-1 until the end)."""

    walls: jax.Array
    zone_sizes: jax.Array
    closing_size: jax.Array
    claims: jax.Array
    winner: jax.Array


def _reached(masks: jax.Array) -> jax.Array:
    """The cells joined to the outside, for boards given as ``[..., 4]`` masks."""
    right, down = masks[..., OPEN_RIGHT], masks[..., OPEN_DOWN]
    reach = masks[..., EXIT_H] | masks[..., EXIT_V]

    def spread(_: int, reach: jax.Array) -> jax.Array:
        return (
            reach
            | ((reach & right) << 1)
            | ((reach >> 1) & right)
            | ((reach & down) << 5)
            | ((reach >> 5) & down)
        )

    return jax.lax.fori_loop(0, FLOOD_ROUNDS, spread, reach, unroll=True)


def _legality(walls: jax.Array, zone_sizes: jax.Array) -> tuple[jax.Array, jax.Array]:
    """The legal walls (rules section 5) and the size each would close (0 for none)."""
    bits, full = jnp.asarray(_BITS), jnp.asarray(_FULL)
    placed = jnp.sum(jnp.where(walls[:, None], bits, jnp.uint32(0)), axis=0, dtype=jnp.uint32)
    masks = full & ~placed
    # Row 0: the board as it is; row 1 + w: with wall w added (it clears its one bit).
    boards = jnp.concatenate([masks[None, :], masks[None, :] & ~bits], axis=0)
    closed = jnp.uint32(ALL_CELLS) & ~_reached(boards)
    newly_closed = closed[1:] & ~closed[0]
    size = jax.lax.population_count(newly_closed).astype(jnp.int32)
    beside_closed = (jnp.asarray(_BESIDE) & closed[0]) != 0
    size_used = ((zone_sizes >> size.astype(jnp.uint32)) & 1) != 0
    legal = ~walls & ~beside_closed & ((size == 0) | ~size_used)
    return legal, size


def _observe(state: State, player_id: jax.Array) -> jax.Array:
    planes = (
        jnp.zeros(3 * 36, dtype=jnp.int8)
        .at[jnp.asarray(_PLANE_CELL)]
        .set(state.walls.astype(jnp.int8))
    )
    claimed = state.claims[player_id] != 0
    planes = planes.at[2 * 36 :].set(claimed.astype(jnp.int8))
    return planes.reshape(3, 6, 6)


class Zuniq(Env):
    """Zuniq (CodeCup 2021): two seats, seat 0 (White) first; actions ``Discrete(120)``
    (``Xnh`` → ``5·row + n − 1``, ``Xnv`` → ``30 + 6·row + n − 1``, ``60 + i`` wall ``i`` with the
    claim ``!``); observation ``(3, 6, 6)`` int8. An action the mask does not allow loses at once
    (the referee's illegal move). The mask is all false once the game is over."""

    id = "zuniq"

    num_actions = NUM_ACTIONS

    def init(self, key: jax.Array | None = None) -> State:
        """The empty board, White to move (Zuniq has no setup: ``key`` is unused)."""
        walls = jnp.zeros(WALLS, dtype=bool)
        zone_sizes = jnp.uint32(0)
        legal, closing = _legality(walls, zone_sizes)
        state = State(
            current_player=jnp.int32(0),
            observation=jnp.zeros((3, 6, 6), dtype=jnp.int8),
            rewards=jnp.zeros(2, dtype=jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.concatenate([legal, legal]),
            step_count=jnp.int32(0),
            walls=walls,
            zone_sizes=zone_sizes,
            closing_size=closing,
            claims=jnp.zeros(2, dtype=jnp.int32),
            winner=jnp.int32(-1),
        )
        return state.replace(observation=_observe(state, state.current_player))

    def step(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        action = jnp.asarray(action, dtype=jnp.int32)
        mover = state.current_player
        in_range = (action >= 0) & (action < NUM_ACTIONS)
        allowed = in_range & state.legal_action_mask[jnp.clip(action, 0, NUM_ACTIONS - 1)]
        wall = jnp.clip(action, 0, NUM_ACTIONS - 1) % WALLS
        # A legal move: the wall, the zone it closes (rules section 4), the first claim (7).
        ply = state.step_count + 1
        walls = state.walls.at[wall].set(True)
        size = state.closing_size[wall].astype(jnp.uint32)
        zone_sizes = state.zone_sizes | jnp.where(size > 0, jnp.uint32(1) << size, jnp.uint32(0))
        claims = state.claims.at[mover].set(
            jnp.where((action >= WALLS) & (state.claims[mover] == 0), ply, state.claims[mover])
        )
        legal, closing = _legality(walls, zone_sizes)
        stuck = ~jnp.any(legal)  # the next player has no legal move: the mover wins (section 6)
        played = State(
            current_player=1 - mover,
            observation=state.observation,
            rewards=jnp.zeros(2, dtype=jnp.float32),
            terminated=stuck,
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.concatenate([legal, legal]),
            step_count=ply,
            walls=walls,
            zone_sizes=zone_sizes,
            closing_size=closing,
            claims=claims,
            winner=jnp.where(stuck, mover, jnp.int32(-1)),
        )
        # An illegal move: nothing is placed or claimed, the mover loses (section 8).
        refused = state.replace(
            rewards=jnp.zeros(2, dtype=jnp.float32),
            terminated=jnp.bool_(True),
            winner=1 - mover,
        )
        after = jax.tree_util.tree_map(lambda a, b: jnp.where(allowed, a, b), played, refused)
        ends = after.terminated
        winner_first = jnp.where(after.winner == 0, 1.0, -1.0).astype(jnp.float32)
        after = after.replace(
            rewards=jnp.where(ends, jnp.stack([winner_first, -winner_first]), 0.0).astype(
                jnp.float32
            ),
            legal_action_mask=after.legal_action_mask & ~ends,
        )
        after = after.replace(observation=_observe(after, after.current_player))
        return unless_finished(state, after)

    def observe(self, state: State, player_id: jax.Array) -> jax.Array:
        return _observe(state, jnp.asarray(player_id, dtype=jnp.int32))
