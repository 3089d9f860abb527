"""twinsim.jax: the games as pure JAX functions in pgx's shape, for training loops that keep the
environment on the accelerator (``pip install "twinsim[jax]"``).

``make(game)`` returns an :class:`Env` with ``init(key)``, ``step(state, action, key)`` and
``observe(state, player_id)``; its ``State`` has pgx's fields (``current_player``,
``observation``, ``rewards``, ``terminated``, ``truncated``, ``legal_action_mask``). Everything
jit-compiles and vmaps::

    import jax
    import twinsim.jax as tj

    env = tj.make("zuniq")
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.PRNGKey(0), 1024))

Action numbering and observation planes are the PettingZoo envs' (``python/README.md``); the
engines are checked step by step against the Rust fast twin (``python/tests/test_jax_*.py``).
"""

from __future__ import annotations

from typing import Callable

from ._env import Env, reset_where
from ._olymbits import Olymbits
from ._wondev_woman import Setup as WondevWomanSetup
from ._wondev_woman import WondevWoman
from ._wondev_woman import setups as wondev_woman_setups
from ._zuniq import Zuniq

__all__ = [
    "Env",
    "Olymbits",
    "WondevWoman",
    "WondevWomanSetup",
    "Zuniq",
    "available_envs",
    "make",
    "reset_where",
    "wondev_woman_setups",
]

_ENVS: dict[str, Callable[[], Env]] = {env.id: env for env in (Zuniq, WondevWoman, Olymbits)}


def available_envs() -> tuple[str, ...]:
    """The games :func:`make` knows, by trace name."""
    return tuple(_ENVS)


def make(game: str) -> Env:
    """The JAX engine of ``game`` (one of :func:`available_envs`)."""
    try:
        return _ENVS[game]()
    except KeyError:
        raise ValueError(
            f"no JAX engine for {game!r}; available: {', '.join(available_envs())}"
        ) from None
