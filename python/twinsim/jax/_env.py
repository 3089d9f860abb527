"""The shape every engine of :mod:`twinsim.jax` shares: pgx's ``Env`` (``init``, ``step``,
``observe``) and the ``State`` fields pgx's trainers read."""

from __future__ import annotations

import abc
import dataclasses
from typing import Any, TypeVar

import jax
import jax.numpy as jnp

S = TypeVar("S", bound="PgxState")


def pytree(cls: type[S]) -> type[S]:
    """Registers a frozen dataclass of arrays as a JAX pytree (every field an array)."""
    names = [field.name for field in dataclasses.fields(cls)]
    return jax.tree_util.register_dataclass(cls, data_fields=names, meta_fields=[])


@dataclasses.dataclass(frozen=True)
class PgxState:
    """The fields pgx's trainers read; each game's ``State`` adds its own after them."""

    #: The seat to act (int32).
    current_player: jax.Array
    #: The current player's observation.
    observation: jax.Array
    #: float32, one per seat: the last step's, nonzero only on the final step.
    rewards: jax.Array
    #: The game is over.
    terminated: jax.Array
    #: Always false: the games end by their own rules.
    truncated: jax.Array
    #: bool, the current player's allowed actions (all false once over).
    legal_action_mask: jax.Array
    #: Steps played (int32).
    step_count: jax.Array

    def replace(self: S, **changes: Any) -> S:
        """A copy with ``changes``."""
        return dataclasses.replace(self, **changes)


class Env(abc.ABC):
    """A game as pure functions of JAX arrays, in pgx's shape: ``init(key)`` sets a game up,
    ``step(state, action, key)`` plays the current player's action, ``observe(state, player)``
    gives one player's observation. Each is jit-compilable and vmappable (fixed shapes, no Python
    control flow on traced values). A step on a finished game returns it unchanged, with zero
    rewards (pgx's convention).

    Every ``State`` has pgx's fields: ``current_player`` (the seat to act, int32; seat 0 is the
    game's first player, as in the PettingZoo envs' ``player_0``), ``observation`` (the current
    player's), ``rewards`` (float32, one per seat: the step's, nonzero only on the final step),
    ``terminated``, ``truncated`` (always false: the games end by their own rules) and
    ``legal_action_mask`` (bool, the current player's), plus ``step_count`` and the game's own
    fields."""

    #: The game's trace name, as ``twinsim.GAMES`` spells it.
    id: str = ""
    #: Seats in a game.
    num_players: int = 2
    #: Size of the action space.
    num_actions: int = 0
    #: Every seat acts each step (``step`` takes one action per seat, shape ``(num_players,)``).
    simultaneous: bool = False

    @abc.abstractmethod
    def init(self, key: jax.Array) -> Any:
        """A new game (``key`` seeds whatever setup the game draws)."""

    @abc.abstractmethod
    def step(self, state: Any, action: jax.Array, key: jax.Array | None = None) -> Any:
        """The state after the current player plays ``action`` (an index of the game's
        ``Discrete(num_actions)``; one the mask does not allow gets the referee's consequence)."""

    @abc.abstractmethod
    def observe(self, state: Any, player_id: jax.Array) -> jax.Array:
        """``player_id``'s observation, the planes of the PettingZoo env."""

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of one observation."""
        return tuple(self.observe(self.init(jax.random.PRNGKey(0)), jnp.int32(0)).shape)

    @property
    def version(self) -> str:
        """The engine's version (bumped when a rule or a plane changes)."""
        return "v1"


def reset_where(done: jax.Array, fresh: Any, state: Any) -> Any:
    """Batched same-step autoreset (VecEnv's): each game of the batch ``state`` whose ``done``
    is true is replaced by the matching game of ``fresh`` (both with a leading batch axis)."""

    def pick(new: jax.Array, old: jax.Array) -> jax.Array:
        return jnp.where(jnp.reshape(done, (-1,) + (1,) * (old.ndim - 1)), new, old)

    return jax.tree_util.tree_map(pick, fresh, state)


def unless_finished(state: S, after: S) -> S:
    """``after``, or ``state`` with zero rewards where ``state`` was already over (pgx's
    convention for a step on a finished game)."""
    finished = state.replace(rewards=jnp.zeros_like(state.rewards))
    return jax.tree_util.tree_map(lambda a, b: jnp.where(state.terminated, a, b), finished, after)
