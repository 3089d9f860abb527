"""Self-play PPO on a twinsim game with RLlib's PettingZoo wrapper (an example, not a test).

    pip install ./python "ray[rllib]" torch
    python python/examples/rllib_pettingzoo.py --game zuniq --iterations 5
    python python/examples/rllib_pettingzoo.py --address auto    # on a running Ray cluster

The twinsim environments are PettingZoo environments, so RLlib takes them through its own
wrappers: ``PettingZooEnv`` for the AEC API (``twinsim.env``; alternating games such as Zuniq and
Wondev Woman) or ``ParallelPettingZooEnv`` for the Parallel API (``twinsim.parallel_env``; the
simultaneous games). Every seat maps to one shared policy here (self-play). The observations are a
Dict of ``"observation"`` and ``"action_mask"``: RLlib's default model reads the flattened Dict;
a masking model (RLlib's action-masking examples) should use ``action_mask`` to rule out illegal
actions, which otherwise get the referee's consequence (an illegal move loses in most games).

RLlib's APIs change between releases; this script targets the "old" API stack of Ray 2.x
(``enable_rl_module_and_learner=False``), which takes Dict observations as they are.
"""

from __future__ import annotations

import argparse

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv, PettingZooEnv
from ray.tune.registry import register_env

import twinsim


def make_env(game: str):
    alternating = twinsim.spec(game)["turns"] == "alternating"

    def create(config: dict):
        seed = config.get("seed", 1) + getattr(config, "worker_index", 0)
        if alternating:
            return PettingZooEnv(twinsim.env(game, seed=seed))
        return ParallelPettingZooEnv(twinsim.parallel_env(game, seed=seed))

    return create


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="zuniq", choices=list(twinsim.GAMES))
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--address", help="a Ray cluster (auto or HOST:PORT); default: a local Ray")
    p.add_argument("--workers", type=int, default=1, help="env runners")
    args = p.parse_args()
    ray.init(address=args.address)
    name = f"twinsim-{args.game}"
    register_env(name, make_env(args.game))
    config = (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=False, enable_env_runner_and_connector_v2=False)
        .environment(name)
        .env_runners(num_env_runners=args.workers)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent, *a, **k: "shared")
        .training(train_batch_size=2000)
    )
    algorithm = config.build()
    for i in range(args.iterations):
        result = algorithm.train()
        runners = result.get("env_runners", result)
        print(i, "episode length", runners.get("episode_len_mean"))
    algorithm.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
