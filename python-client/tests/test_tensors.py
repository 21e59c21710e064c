"""A subset of the observation tensors (``tensors=``), end to end through the server.

The Go tests (``go test ./env/crematoria -run TestContract/Env/Tensors``)
check, per game, each tensor alone against the whole observation; these
check what Python receives: the observation space has the tensors named
and the masks actions need, and their arrays are those of an env of the
whole observation playing the same games.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jgym
from jgym.errors import InvalidArgumentError

#: Per game, the subset the tests ask for: the cheap tensors.
SUBSETS = {
    "Crematoria-v0": ["units", "globals"],
    "Dominator-v0": ["globals", "board"],
    "Pandemic-v0": ["units"],
    "Moria-v0": ["globals"],
}


def expected_keys(spec: Any, names: list[str]) -> set[str]:
    """The names and the masks the server keeps."""
    return {*names, "action_mask", spec.policy_mask}


def play_both(whole: Any, sub: Any, steps: int, seed: int) -> int:
    """Plays the same masked random actions on both envs; returns the checks made."""
    rng = np.random.default_rng(seed)
    mask = whole.spec_proto.policy_mask
    obs_w, _ = whole.reset(seed=seed)
    obs_s, _ = sub.reset(seed=seed)
    checked = 0
    for _ in range(steps):
        assert set(obs_s) == set(sub.single_observation_space.spaces)
        for k, v in obs_s.items():
            np.testing.assert_array_equal(v, obs_w[k], err_msg=k)
            checked += 1
        act = jgym.sample_masked(obs_w[mask], rng)
        obs_w, rew_w, term_w, trunc_w, _ = whole.step(act)
        assert not trunc_w.any()
        obs_s, rew_s, term_s, trunc_s, _ = sub.step(act)
        np.testing.assert_array_equal(trunc_s, trunc_w)
        np.testing.assert_array_equal(rew_s, rew_w)
        np.testing.assert_array_equal(term_s, term_w)
    return checked


@pytest.mark.parametrize("game", jgym.GAMES)
def test_vector_subset(address: str, game: str) -> None:
    """The vector env's subset: its keys, and the whole observation's bytes."""
    names = SUBSETS[game]
    whole = jgym.make_vec(game, num_envs=2, address=address)
    sub = jgym.make_vec(game, num_envs=2, address=address, tensors=names)
    try:
        want = expected_keys(whole.spec_proto, names)
        assert set(sub.single_observation_space.spaces) == want
        assert {t.name for t in sub.spec_proto.observation} == want
        assert set(whole.single_observation_space.spaces) > want
        assert play_both(whole, sub, 25, seed=4) == 25 * len(want)
    finally:
        whole.close()
        sub.close()


@pytest.mark.parametrize("local", [False, None])
def test_vector_subset_channels(address: str, local: bool | None, short_config: str) -> None:
    """Over gRPC (with deltas) and the local channel alike, across autoresets."""
    cfg = short_config
    whole = jgym.make_vec(num_envs=3, address=address, local=local, config=cfg)
    sub = jgym.make_vec(
        num_envs=3, address=address, local=local, config=cfg, tensors=["board", "sun_paths"]
    )
    try:
        play_both(whole, sub, 12, seed=9)
    finally:
        whole.close()
        sub.close()


def test_single_env_and_parallel(address: str) -> None:
    """Gymnasium's single env and PettingZoo's parallel env take tensors= too."""
    env = jgym.JgymEnv(address=address, tensors=["globals"])
    full = jgym.JgymEnv(address=address)
    try:
        assert set(env.observation_space.spaces) == {"globals", "action_mask"}
        o, _ = env.reset(seed=3)
        f, _ = full.reset(seed=3)
        for _ in range(5):
            for k in o:
                np.testing.assert_array_equal(o[k], f[k])
            a = env.action_space.sample()
            o, *_ = env.step(a)
            f, *_ = full.step(a)
    finally:
        env.close()
        full.close()
    par = jgym.parallel_env(address=address, tensors=["units"])
    try:
        for agent in par.possible_agents:
            assert set(par.observation_space(agent).spaces) == {"units", "action_mask"}
        obs, _ = par.reset(seed=2)
        assert set(obs[par.possible_agents[0]]) == {"units", "action_mask"}
    finally:
        par.close()


def test_bad_names(address: str) -> None:
    """Unknown names: the server's error lists the valid ones; a bare string is refused."""
    with pytest.raises(InvalidArgumentError, match="sun_paths"):
        jgym.make_vec(address=address, tensors=["board", "bored"])
    with pytest.raises(InvalidArgumentError, match="sequence of tensor names"):
        jgym.make_vec(address=address, tensors="board")
    with pytest.raises(InvalidArgumentError, match="board"):
        jgym.make_vec(address=address, tensors=["units"], render_mode="ansi")
