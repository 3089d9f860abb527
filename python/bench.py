"""What the Python binding costs and what it buys: environment steps per second.

Run from the repository root after `pip install ./python` (plus `pettingzoo[classic]` for the
pure-Python comparison):

    python python/bench.py [--games olymbits,zuniq] [--seconds 1.0]

For each game it measures, in one run on the same machine:
- the bare Rust engine: the fast twin's typed API (`Game::new_game`, `Game::step` on its
  state, no text), random games, only setup and `step` timed (`typed_engine_seconds`): the
  baseline of the overhead ratio;
- the same with the players' legal-action lists (`Game::legal_actions`) timed too, what
  choosing the random actions needs (`typed_engine_seconds(..., legal=True)`);
- the fast twin's text-level engine (`TracePlay`: action lines in, JSON turn records with the
  views out), the same way (`engine_seconds`), for reference;
- one `parallel_env`, stepped from Python with random masked actions;
- `VecEnv` at N = 1, 64, 1024 with 1 and 2 threads;
and, once, PettingZoo's pure-Python `connect_four_v3` stepped the same way. Only the `step`
calls are timed: choosing the random actions (numpy over the masks) is the policy's cost, not
the environment's. A step is one turn of one game (every seat's action). `path` says which
lanes `VecEnv` steps (`typed` or `view`); the last two columns are the targets' ratios:
`engine/t1`, the bare engine's rate over `VecEnv`'s at N = 1024 on one thread (target: at most
2), and `t2/t1`, two threads' rate over one's at N = 1024 (target: at least 1.7).
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


def engine_alone(game: str, seconds: float, kind: str = "typed") -> float:
    """Steps per second of the bare engine: ``typed`` (setup and step), ``legal`` (the same and
    the players' legal-action lists) or ``text`` (the text level)."""
    turns = 2000
    while True:
        if kind == "text":
            spent = twinsim._core.engine_seconds(game, turns)
        else:
            spent = twinsim._core.typed_engine_seconds(game, turns, legal=kind == "legal")
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
    columns = ["engine", "eng+legal", "text eng", "env"]
    columns += [f"N={n} t{t}" for n in (1, 64, 1024) for t in (1, 2)]
    header = "".join(f"{c:>11}" for c in columns)
    print(f"{'steps/s':<15}{'path':>6}{header}{'engine/t1':>11}{'t2/t1':>7}")
    for game in args.games.split(","):
        # The typed engine is timed before and after the VecEnv figures and averaged, so that a
        # change of the machine's load during the row weighs on both sides of the ratio.
        before = engine_alone(game, args.seconds)
        figures = [
            engine_alone(game, args.seconds, "legal"),
            engine_alone(game, args.seconds, "text"),
            single_env(game, args.seconds),
        ]
        for num_envs in (1, 64, 1024):
            for threads in (1, 2):
                figures.append(vec_env(game, num_envs, threads, args.seconds))
        bare = (before + engine_alone(game, args.seconds)) / 2
        figures.insert(0, bare)
        path = twinsim.VecEnv(game, 1).path
        row = "".join(f"{f:>11.0f}" for f in figures)
        ratio, scaling = bare / figures[8], figures[9] / figures[8]
        print(f"{game:<15}{path:>6}{row}{ratio:>11.2f}{scaling:>7.2f}")
    c4 = connect_four(args.seconds)
    if c4 is None:
        print("connect_four_v3: not measured (pip install 'pettingzoo[classic]')")
    else:
        note = "(PettingZoo classic, pure Python, AEC)"
        print(f"{'connect_four_v3':<15}{'':>6}{'':>33}{c4:>11.0f}   {note}")


if __name__ == "__main__":
    main()
