"""The PettingZoo parallel environment, checked with PettingZoo's own tests."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test

import jgym
from jgym.parallel import JgymParallelEnv


def test_parallel_api(address: str, short_config: str) -> None:
    env = jgym.parallel_env("Crematoria-v0", address=address, config=short_config)
    try:
        parallel_api_test(env, num_cycles=10)
    finally:
        env.close()


def test_parallel_seed(address: str, short_config: str) -> None:
    parallel_seed_test(
        lambda: jgym.parallel_env("Crematoria-v0", address=address, config=short_config),
        num_cycles=10,
    )


def test_agents_see_themselves(address: str, short_config: str) -> None:
    env = JgymParallelEnv(address=address, config=short_config)
    try:
        obs, infos = env.reset(seed=2)
        assert env.agents == ["player_0", "player_1", "player_2", "player_3"]
        assert [infos[a]["seat"] for a in env.agents] == [0, 1, 2, 3]
        for a in env.agents:
            mine = obs[a]["units"][:, 0] == 1
            assert mine.sum() == 20  # 5 Furyans + 15 Pioneers, each "me"
            assert env.observation_space(a).contains(obs[a])
        rewards_total = dict.fromkeys(env.agents, 0.0)
        start = {a: int(infos[a]["scores"][infos[a]["seat"]]) for a in env.agents}
        rounds = 0
        while env.agents:
            actions = {
                a: env.action_space(a).sample(mask=obs[a]["action_mask"]) for a in env.agents
            }
            obs, rew, term, trunc, infos = env.step(actions)
            rounds += 1
            for a, r in rew.items():
                rewards_total[a] += r
        assert rounds == 3 and all(term.values()) and not any(trunc.values())
        for a, total in rewards_total.items():
            seat = infos[a]["seat"]
            assert total == int(infos[a]["scores"][seat]) - start[a]
        with pytest.raises(jgym.SessionError):
            env.step({})
    finally:
        env.close()


def test_two_agents_two_bots(address: str) -> None:
    env = JgymParallelEnv(address=address, seats=[None, "Demo", None, "Null"])
    try:
        _, infos = env.reset(seed=1)
        assert env.possible_agents == ["player_0", "player_1"]
        assert [infos[a]["seat"] for a in env.agents] == [0, 2]
        _, rew, *_ = env.step({"player_0": np.full(80, 10)})  # player_1 idles by default
        assert set(rew) == {"player_0", "player_1"}
        with pytest.raises(jgym.InvalidArgumentError):
            env.step({"player_7": np.full(80, 10)})
    finally:
        env.close()
