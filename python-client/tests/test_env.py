"""The single-agent Gymnasium environment."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import jgym
from jgym.env import JgymEnv


def test_registered() -> None:
    assert "jgym/Crematoria-v0" in gymnasium.registry


def test_check_env(address: str, short_config: str) -> None:
    env = JgymEnv(address=address, config=short_config)
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.close()


def test_check_env_with_order(address: str, short_config: str) -> None:
    env = JgymEnv(address=address, config=short_config, action_order=True)
    try:
        check_env(env, skip_render_check=True)
        assert isinstance(env.action_space, gymnasium.spaces.Dict)
    finally:
        env.close()


def test_make_spaces_and_episode(address: str, short_config: str) -> None:
    env = gymnasium.make(
        "jgym/Crematoria-v0",
        opponents=("Demo", "Demo", "Demo"),
        address=address,
        config=short_config,
    )
    try:
        u = 80
        assert env.action_space == gymnasium.spaces.MultiDiscrete([11] * u)
        space = env.observation_space
        assert isinstance(space, gymnasium.spaces.Dict)
        assert space["board"].shape == (3, 40, 80) and space["board"].dtype == np.uint8
        assert space["units"].shape == (u, 8) and space["units"].dtype == np.uint8
        assert space["globals"].shape == (16,) and space["globals"].dtype == np.float32
        assert space["action_mask"].shape == (u, 11)
        obs, info = env.reset(seed=5)
        assert space.contains(obs)
        assert info["round"] == 0 and info["seat"] == 0
        start = int(info["scores"][0])
        total = 0.0
        rng = np.random.default_rng(0)
        for step in range(1, 4):
            action = jgym.sample_masked(obs["action_mask"], rng)
            obs, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            assert info["round"] == step
            assert terminated == (step == 3) and not truncated
        # score_delta rewards add up to the score gained.
        assert total == int(info["scores"][0]) - start
        with pytest.raises(jgym.SessionError):
            env.step(action)
        obs, info = env.reset()
        assert info["round"] == 0
    finally:
        env.close()


def test_seat_and_shuffle(address: str) -> None:
    env = JgymEnv(address=address, seat=2)
    try:
        _, info = env.reset(seed=1)
        assert info["seat"] == 2
    finally:
        env.close()
    env = JgymEnv(address=address, shuffle_seats=True)
    try:
        seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
        assert len(seats) > 1
    finally:
        env.close()


def test_mask_is_legal_and_none_always(address: str) -> None:
    env = JgymEnv(address=address)
    try:
        obs, _ = env.reset(seed=3)
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and set(np.unique(mask)) <= {0, 1}
        assert mask[:, 10].all()  # None is always legal
        mine = obs["units"][:, 0] == 1
        assert mask[~mine, :10].sum() == 0  # only my units may move
        assert mask[mine, :10].sum() > 0
    finally:
        env.close()


def test_same_seed_same_game(address: str, short_config: str) -> None:
    def play(seed: int) -> list[np.ndarray]:
        env = JgymEnv(address=address, config=short_config)
        rng = np.random.default_rng(1)
        try:
            obs, _ = env.reset(seed=seed)
            boards = [obs["board"].copy()]
            for _ in range(3):
                obs, *_ = env.step(jgym.sample_masked(obs["action_mask"], rng))
                boards.append(obs["board"].copy())
            return boards
        finally:
            env.close()

    a, b, c = play(11), play(11), play(12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], c[0])


def test_render_ansi(address: str) -> None:
    env = JgymEnv(address=address, render_mode="ansi")
    try:
        env.reset(seed=1)
        text = env.render()
        assert text is not None and text.startswith("Crematoria  round 0  me: seat 0  scores")
        lines = text.splitlines()
        assert len(lines) == 1 + 40 + 1 + 40 + 1  # header, surface, separator, underground, legend
        assert all(len(ln) == 80 for ln in lines[1:-1])
    finally:
        env.close()
