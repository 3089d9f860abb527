"""What the Python binding costs and what it buys: environment steps per second.

Run from the repository root after `pip install ./python` (plus `pettingzoo[classic]` for the
pure-Python comparison):

    python python/bench.py [--games olymbits,zuniq] [--seconds 1.0]

For each game it measures, in one run on the same machine:
- the bare Rust engine: random games, only setup and `play_turn` timed (`engine_seconds`);
- one `parallel_env`, stepped from Python with random masked actions;
- `VecEnv` at N = 1, 64, 1024 with 1 and 2 threads;
and, once, PettingZoo's pure-Python `connect_four_v3` stepped the same way. Only the `step`
calls are timed: choosing the random actions (numpy over the masks) is the policy's cost, not
the environment's. A step is one turn of one game (every seat's action).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import twinsim


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One random allowed index per (env, seat): the largest random key among allowed ones."""
    keys = rng.random(masks.shape, dtype=np.float32) + masks
    return keys.argmax(axis=-1)


def single_env(game: str, seconds: float) -> float:
    env = twinsim.parallel_env(game, seed=1)
    observations, infos = env.reset()
    rng = np.random.default_rng(1)
    steps, spent = 0, 0.0
    while spent < seconds:
        if not env.agents:
            observations, infos = env.reset()
        actions = {
            a: int(random_actions(observations[a]["action_mask"], rng))
            for a in env.agents
            if infos[a]["to_act"]
        }
        start = time.perf_counter()
        observations, _, _, _, infos = env.step(actions)
        spent += time.perf_counter() - start
        steps += 1
    return steps / spent


def vec_env(game: str, num_envs: int, threads: int, seconds: float) -> float:
    vec = twinsim.VecEnv(game, num_envs, seed=1, threads=threads)
    observations, _ = vec.reset()
    rng = np.random.default_rng(1)
    steps, spent = 0, 0.0
    while spent < seconds:
        actions = random_actions(observations["action_mask"], rng)
        start = time.perf_counter()
        observations, *_ = vec.step(actions)
        spent += time.perf_counter() - start
        steps += num_envs
    return steps / spent


def engine_alone(game: str, seconds: float) -> float:
    turns = 2000
    while True:
        spent = twinsim._core.engine_seconds(game, turns)
        if spent >= seconds:
            return turns / spent
        turns = int(turns * min(10.0, 1.2 * seconds / max(spent, 1e-6)))


def connect_four(seconds: float) -> float | None:
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:
        return None
    env = connect_four_v3.env()
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps, spent = 0, 0.0
    while spent < seconds:
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.reset()
            continue
        action = int(random_actions(observation["action_mask"], rng))
        start = time.perf_counter()
        env.step(action)
        spent += time.perf_counter() - start
        steps += 1
    return steps / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(twinsim.GAMES))
    parser.add_argument("--seconds", type=float, default=1.0, help="timed seconds per figure")
    args = parser.parse_args()
    columns = ["engine", "env", "N=1 t1", "N=1 t2", "N=64 t1", "N=64 t2", "N=1024 t1", "N=1024 t2"]
    header = "".join(f"{c:>11}" for c in columns)
    print(f"{'steps/s':<15}{header}{'t1/engine':>11}{'t2/t1':>7}")
    for game in args.games.split(","):
        bare = engine_alone(game, args.seconds)
        figures = [
            bare,
            single_env(game, args.seconds),
        ]
        for num_envs in (1, 64, 1024):
            for threads in (1, 2):
                figures.append(vec_env(game, num_envs, threads, args.seconds))
        row = "".join(f"{f:>11.0f}" for f in figures)
        print(f"{game:<15}{row}{figures[6] / bare:>11.2f}{figures[7] / figures[6]:>7.2f}")
    c4 = connect_four(args.seconds)
    if c4 is None:
        print("connect_four_v3: not measured (pip install 'pettingzoo[classic]')")
    else:
        note = "(PettingZoo classic, pure Python, AEC)"
        print(f"{'connect_four_v3':<15}{'':>11}{c4:>11.0f}   {note}")


if __name__ == "__main__":
    main()
