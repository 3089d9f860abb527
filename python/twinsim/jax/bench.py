"""Steps per second of twinsim.jax's engines against VecEnv, on whatever device JAX finds.

    python -m twinsim.jax.bench [--games zuniq] [--sizes 1,4,16,...,65536] [--seconds 1.0]
        [--vec-sizes 1,4,...] [--vec-threads 1] [--scan 16]

For each game and batch size N it prints, in one run:
- ``compile s``: the time to trace and compile the batched loop at that N (``jit`` of a
  ``lax.scan`` of ``--scan`` steps of ``vmap(step)``, random legal actions drawn on the device
  with ``jax.random``, finished games set up again in the same step);
- ``jax steps/s``: game steps (one turn of one game) per second of that compiled loop, timed
  after a warm-up call, ``block_until_ready`` included;
- ``VecEnv steps/s``: the Rust fast twin's ``VecEnv`` (``copy=False``, ``--vec-threads``
  threads, default 1: on a busy machine a second spinning worker fights JAX's own CPU threads)
  on the same game at the same N, random legal actions drawn with numpy from its masks; only
  ``step`` is timed (as ``python/bench.py`` does). VecEnv runs on the CPU whatever JAX's device
  is.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np

import twinsim

from . import available_envs, make, reset_where

DEFAULT_SIZES = "1,4,16,64,256,1024,4096,16384,65536"


def batched_loop(game: str, num_envs: int, scan: int) -> tuple[Callable[..., Any], Any]:
    """A jitted function playing ``scan`` random steps of ``num_envs`` games, and its input."""
    env = make(game)
    init, step = jax.vmap(env.init), jax.vmap(env.step)

    def one_step(carry: tuple[Any, jax.Array], _: None) -> tuple[tuple[Any, jax.Array], None]:
        state, key = carry
        key, pick, fresh_keys, step_keys = jax.random.split(key, 4)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        if env.simultaneous:  # one action per seat, each from the mask every seat shares
            logits = jnp.repeat(logits[:, None, :], env.num_players, axis=1)
        action = jax.random.categorical(pick, logits, axis=-1)
        state = step(state, action, jax.random.split(step_keys, num_envs))
        fresh = init(jax.random.split(fresh_keys, num_envs))
        return (reset_where(state.terminated, fresh, state), key), None

    def loop(state: Any, key: jax.Array) -> tuple[Any, jax.Array]:
        (state, key), _ = jax.lax.scan(one_step, (state, key), None, length=scan)
        return state, key

    key = jax.random.PRNGKey(1)
    state = jax.jit(init)(jax.random.split(key, num_envs))
    return jax.jit(loop, donate_argnums=0), (state, key)


def jax_rate(game: str, num_envs: int, scan: int, seconds: float) -> tuple[float, float]:
    """(compile seconds, steps per second)."""
    loop, (state, key) = batched_loop(game, num_envs, scan)
    start = time.perf_counter()
    compiled = loop.lower(state, key).compile()
    compile_seconds = time.perf_counter() - start
    state, key = compiled(state, key)  # warm-up
    jax.block_until_ready(state)
    calls, spent = 0, 0.0
    while spent < seconds or calls < 2:
        start = time.perf_counter()
        state, key = compiled(state, key)
        jax.block_until_ready(state)
        spent += time.perf_counter() - start
        calls += 1
    return compile_seconds, num_envs * scan * calls / spent


def vec_env_rate(game: str, num_envs: int, seconds: float, threads: int = 1) -> float:
    vec = twinsim.VecEnv(game, num_envs, seed=1, threads=threads, copy=False)
    observations, _ = vec.reset()
    rng = np.random.default_rng(1)
    steps, spent = 0, 0.0
    while spent < seconds:
        masks = observations["action_mask"]
        actions = (rng.random(masks.shape, dtype=np.float32) + masks).argmax(axis=-1)
        start = time.perf_counter()
        observations, *_ = vec.step(actions)
        spent += time.perf_counter() - start
        steps += num_envs
    vec.close()
    return steps / spent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(available_envs()))
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="batch sizes N")
    parser.add_argument(
        "--vec-sizes", default=None, help="batch sizes for VecEnv (default: --sizes)"
    )
    parser.add_argument("--vec-threads", type=int, default=1, help="VecEnv's threads")
    parser.add_argument("--seconds", type=float, default=1.0, help="timed seconds per figure")
    parser.add_argument("--scan", type=int, default=16, help="steps per compiled call")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    vec_sizes = set(sizes if args.vec_sizes is None else map(int, args.vec_sizes.split(",")))
    device = jax.devices()[0]
    print(f"JAX {jax.__version__} on {device.platform}: {device.device_kind} ({device})")
    print(f"{'game':<14}{'N':>8}{'compile s':>11}{'jax steps/s':>14}{'VecEnv steps/s':>16}")
    for game in args.games.split(","):
        for num_envs in sizes:
            compile_seconds, rate = jax_rate(game, num_envs, args.scan, args.seconds)
            vec = (
                f"{vec_env_rate(game, num_envs, args.seconds, args.vec_threads):>16.0f}"
                if (num_envs in vec_sizes)
                else f"{'-':>16}"
            )
            print(f"{game:<14}{num_envs:>8}{compile_seconds:>11.2f}{rate:>14.0f}{vec}", flush=True)


if __name__ == "__main__":
    main()
