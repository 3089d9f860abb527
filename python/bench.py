"""What the Python binding costs and what it buys: environment steps per second.

Run from the repository root after `pip install ./python` (plus `pettingzoo[classic]` for the
pure-Python comparison):

    python python/bench.py [--games olymbits,zuniq] [--seconds 1.0]

For each game it measures, in one run on the same machine:
- the bare Rust engine: the fast twin's allocation-free search API (`SearchGame`: `new_game`,
  `to_act`, `legal_moves`, `play`; no text, no views, no observations) on random games, two
  ways: only setup and `play` timed (`engine`), and the whole loop timed (`loop`: the players'
  legal lists and the random choices too, everything a Rust program stepping the same random
  games does) (`typed_engine_seconds`);
- VecEnv's typed lanes stepped from Rust alone, N = 1024, one thread, reused rows (`lanes`:
  observations and masks computed as `VecEnv` computes them, no Python call, no arrays handed
  over; `lanes_seconds`), so that `lanes/t1` is what the Python binding itself costs;
- the fast twin's text-level engine (`TracePlay`: action lines in, JSON turn records with the
  views out), the same way (`engine_seconds`), for reference;
- one `parallel_env`, stepped from Python with random masked actions;
- `VecEnv` with `copy=False` (the zero-copy mode: the same arrays every step) at N = 1, 64,
  256, 1024 with 1 and 2 threads, and at N = 1024 with `copy=True` (fresh arrays every step);
and, once, PettingZoo's pure-Python `connect_four_v3` stepped the same way. Only the `step`
calls are timed: choosing the random actions (numpy over the masks) is the policy's cost, not
the environment's. A step is one turn of one game (every seat's action). The last six
columns are the ratios: `loop/256` and `loop/t1`, the bare engine's whole-loop rate over
`VecEnv`'s on one thread at N = 256 and N = 1024; `eng/t1`, the same with `play` alone at
N = 1024; `lanes/t1`, the Rust-only lanes' rate over `VecEnv`'s at N = 1024 (the binding's own
cost); `t2/256` and `t2/t1`, two threads' rate over one's at N = 256 and N = 1024.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

# The script's folder holds the package's source (without the compiled `_core`): import the
# installed package instead.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import twinsim  # noqa: E402


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


def vec_env(game: str, num_envs: int, threads: int, seconds: float, copy: bool = False) -> float:
    vec = twinsim.VecEnv(game, num_envs, seed=1, threads=threads, copy=copy)
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


def engine_alone(game: str, seconds: float, kind: str = "play") -> float:
    """Steps per second of the bare engine: ``play`` (setup and ``play`` timed), ``loop`` (the
    whole random-game loop timed) or ``text`` (the text level)."""
    turns = 2000
    while True:
        if kind == "text":
            spent = twinsim._core.engine_seconds(game, turns)
        else:
            spent = twinsim._core.typed_engine_seconds(game, turns, whole=kind == "loop")
        if spent >= seconds:
            return turns / spent
        turns = int(turns * min(10.0, 1.2 * seconds / max(spent, 1e-6)))


def lanes_alone(game: str, seconds: float, num_envs: int = 1024) -> float:
    """Steps per second of VecEnv's typed lanes stepped from Rust alone (no Python call)."""
    steps = 20
    while True:
        spent = twinsim._core.lanes_seconds(game, num_envs, steps)
        if spent >= seconds:
            return num_envs * steps / spent
        steps = int(steps * min(10.0, 1.2 * seconds / max(spent, 1e-6)))


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
    columns = ["loop", "engine", "lanes", "text eng", "env"]
    columns += [f"N={n} t{t}" for n in (1, 64, 256, 1024) for t in (1, 2)]
    columns += ["1024 copy"]
    header = "".join(f"{c:>11}" for c in columns)
    ratio_names = ["loop/256", "loop/t1", "eng/t1", "lanes/t1", "t2/256", "t2/t1"]
    print(f"{'steps/s':<15}{header}" + "".join(f"{r:>9}" for r in ratio_names))
    for game in args.games.split(","):
        # The bare engine is timed before and after the VecEnv figures and averaged, so that a
        # change of the machine's load during the row weighs on both sides of the ratios.
        before = [engine_alone(game, args.seconds, kind) for kind in ("loop", "play")]
        figures = [
            lanes_alone(game, args.seconds),
            engine_alone(game, args.seconds, "text"),
            single_env(game, args.seconds),
        ]
        for num_envs in (1, 64, 256, 1024):
            for threads in (1, 2):
                figures.append(vec_env(game, num_envs, threads, args.seconds))
        figures.append(vec_env(game, 1024, 1, args.seconds, copy=True))
        after = [engine_alone(game, args.seconds, kind) for kind in ("loop", "play")]
        bare = [(b + a) / 2 for b, a in zip(before, after)]
        figures = bare + figures
        lanes, t1, t2 = figures[2], figures[11], figures[12]
        t1_256, t2_256 = figures[9], figures[10]
        ratios = [
            bare[0] / t1_256,
            bare[0] / t1,
            bare[1] / t1,
            lanes / t1,
            t2_256 / t1_256,
            t2 / t1,
        ]
        row = "".join(f"{f:>11.0f}" for f in figures)
        print(f"{game:<15}{row}" + "".join(f"{r:>9.2f}" for r in ratios))
    c4 = connect_four(args.seconds)
    if c4 is None:
        print("connect_four_v3: not measured (pip install 'pettingzoo[classic]')")
    else:
        note = "(PettingZoo classic, pure Python, AEC)"
        print(f"{'connect_four_v3':<15}{'':>44}{c4:>11.0f}   {note}")


if __name__ == "__main__":
    main()
