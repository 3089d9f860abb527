"""VecEnv as a ``gymnasium.vector.VectorEnv``: its spaces, its declared same-step autoreset with
the final observations in ``infos``, checked against the PettingZoo envs playing the same
games, and Gymnasium's vector wrappers over it."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from conftest import random_legal
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import twinsim


def test_vec_env_is_a_vector_env_with_batched_spaces(game):
    num_envs = 3
    vec = twinsim.VecEnv(game, num_envs, seed=5)
    assert isinstance(vec, gymnasium.vector.VectorEnv)
    assert vec.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert vec.unwrapped is vec
    players, n = vec.num_players, vec.num_actions
    # One sub-environment is one game, every seat.
    assert vec.single_action_space == gymnasium.spaces.MultiDiscrete([n] * players)
    assert vec.action_space == batch_space(vec.single_action_space, num_envs)
    assert vec.observation_space == batch_space(vec.single_observation_space, num_envs)
    assert vec.single_observation_space["action_mask"].shape == (players, n)
    # One seat's spaces are the PettingZoo agents'.
    env = twinsim.parallel_env(game, seed=5)
    agent = env.possible_agents[0]
    assert vec.agent_action_space == env.action_space(agent)
    assert vec.agent_observation_space == env.observation_space(agent)
    assert vec.single_observation_space["observation"].shape == (
        players,
        *env.observation_space(agent)["observation"].shape,
    )
    observations, _ = vec.reset()
    assert vec.observation_space.contains(observations)
    # A sample of the batched action space is a valid step (seats not to act are ignored;
    # indices the mask forbids get the referee's consequence).
    vec.action_space.seed(1)
    observations, rewards, terminations, truncations, _ = vec.step(vec.action_space.sample())
    assert vec.observation_space.contains(observations)
    assert rewards.shape == terminations.shape == truncations.shape == (num_envs, players)
    vec.close()
    assert vec.closed


def play_beside_pettingzoo(game: str, path: str, copy: bool, num_envs: int, seed: int):
    """Steps a VecEnv and one ``parallel_env`` per game with the same seeds and random legal
    actions until every game has ended at least once; checks every observation against the
    PettingZoo env's, and each ended game's ``final_obs``/``final_info`` against what the
    PettingZoo env returned at that game's end. Returns how many games ended."""
    vec = twinsim.VecEnv(game, num_envs, seed=seed, path=path, copy=copy)
    observations, infos = vec.reset()
    envs = [twinsim.parallel_env(game) for _ in range(num_envs)]
    seeds = [seed + i for i in range(num_envs)]
    singles = [env.reset(seed=s)[0] for env, s in zip(envs, seeds)]
    agents = envs[0].possible_agents
    rng = np.random.default_rng(seed)
    ended_games = np.zeros(num_envs, dtype=int)
    kept = None
    for step in range(3000):
        actions = np.zeros((num_envs, len(agents)), dtype=np.int64)
        for i, single in enumerate(singles):
            for p, agent in enumerate(agents):
                np.testing.assert_array_equal(
                    observations["observation"][i, p], single[agent]["observation"]
                )
                if infos["to_act"][i, p]:
                    actions[i, p] = random_legal(observations["action_mask"][i, p], rng)
        observations, rewards, terminations, _, infos = vec.step(actions)
        if kept is not None:
            # A final observation handed out is never overwritten by a later step.
            np.testing.assert_array_equal(kept[0]["observation"], kept[1])
        done = terminations.all(axis=1)
        assert ("final_obs" in infos) == done.any(), f"step {step}"
        if done.any():
            np.testing.assert_array_equal(infos["_final_obs"], done)
            np.testing.assert_array_equal(infos["_final_info"], done)
            np.testing.assert_array_equal(infos["final_info"]["_score_delta"], done)
            assert not infos["final_info"]["to_act"].any()
        for i, env in enumerate(envs):
            moves = {a: int(actions[i, p]) for p, a in enumerate(agents)}
            single, single_rewards, single_ends, _, single_infos = env.step(moves)
            np.testing.assert_array_equal(rewards[i], [single_rewards[a] for a in agents])
            assert done[i] == all(single_ends.values()), f"step {step} game {i}"
            if not done[i]:
                assert infos.get("final_obs") is None or infos["final_obs"][i] is None
                singles[i] = single
                continue
            final = infos["final_obs"][i]
            assert vec.single_observation_space.contains(final)
            expected = np.stack([single[a]["observation"] for a in agents])
            np.testing.assert_array_equal(final["observation"], expected, f"game {i} end")
            assert not final["action_mask"].any(), "no seat of a finished game is to act"
            np.testing.assert_allclose(
                infos["final_info"]["score_delta"][i], infos["score_delta"][i]
            )
            kept = (final, final["observation"].copy())
            ended_games[i] += 1
            seeds[i] += num_envs
            singles[i] = env.reset(seed=seeds[i])[0]
        assert vec.seeds() == seeds
        if ended_games.min() >= 1:
            return int(ended_games.sum())
    raise AssertionError(f"{game}: some game never ended in 3000 steps: {ended_games}")


@pytest.mark.parametrize(("path", "copy"), [("typed", True), ("typed", False), ("view", True)])
def test_final_observation_is_the_pettingzoo_envs_last(game, path, copy):
    """Same-step autoreset: the step that ends a game hands the new game's observations and, in
    ``infos["final_obs"]``, the ended game's: each seat's, as ``parallel_env`` returns them at
    the end of the same game (same seed, same actions), on both paths."""
    assert play_beside_pettingzoo(game, path, copy, num_envs=3, seed=11) >= 3


class OneSeat(gymnasium.vector.VectorWrapper):
    """Seat ``seat``'s rewards, terminations and truncations, ``(num_envs,)`` as a single-agent
    VectorEnv has them (what ``RecordEpisodeStatistics`` adds up per sub-environment)."""

    def __init__(self, env: twinsim.VecEnv, seat: int) -> None:
        super().__init__(env)
        self.seat = seat

    def step(self, actions):
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        seat = self.seat
        return observations, rewards[:, seat], terminations[:, seat], truncations[:, seat], infos


def test_record_episode_statistics_runs_over_one_seat_of_the_batch():
    """Gymnasium's ``RecordEpisodeStatistics`` reads the declared same-step mode (no warning
    about a missing ``autoreset_mode``) and counts each game's length and seat 0's return."""
    num_envs = 4
    vec = twinsim.VecEnv("zuniq", num_envs, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        stats = gymnasium.wrappers.vector.RecordEpisodeStatistics(OneSeat(vec, 0))
    observations, _ = stats.reset()
    rng = np.random.default_rng(2)
    lengths = np.zeros(num_envs, dtype=int)
    returns = np.zeros(num_envs)
    episodes = 0
    while episodes < 8:
        masks = observations["action_mask"]
        actions = (rng.random(masks.shape) + masks).argmax(axis=-1)
        observations, rewards, terminations, _, infos = stats.step(actions)
        lengths += 1
        returns += rewards
        if terminations.any():
            np.testing.assert_array_equal(infos["_episode"], terminations)
            np.testing.assert_array_equal(
                infos["episode"]["l"][terminations], lengths[terminations]
            )
            np.testing.assert_allclose(infos["episode"]["r"][terminations], returns[terminations])
            assert np.isin(returns[terminations], [-1.0, 1.0]).all(), "Zuniq has no draws"
            episodes += int(terminations.sum())
            lengths[terminations] = 0
            returns[terminations] = 0.0
    assert stats.episode_count == episodes
