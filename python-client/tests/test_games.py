"""Every game jgym hosts, through the single, vector and PettingZoo envs.

The games' own rules are tested in Go (env/<game>); here each game is
checked through the client as a user would take it: Gymnasium's and
PettingZoo's checkers on short games, the spaces the server describes, the
masks, and rewards that add up to the score.
"""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test

import jgym


@pytest.fixture(scope="module")
def short_configs(address: str) -> dict[str, str]:
    """Each hosted game's default configuration, cut to 4 rounds."""
    with jgym.Client(address) as c:
        specs = {g.id: g.default_config for g in c.list_games()}
    return {gid: re.sub(r"(?m)^(nb_rounds\s+)\d+", r"\g<1>4", cfg) for gid, cfg in specs.items()}


def test_every_game_is_hosted_and_registered(address: str) -> None:
    with jgym.Client(address) as c:
        hosted = {g.id for g in c.list_games()}
    assert set(jgym.GAMES) <= hosted
    for g in jgym.GAMES:
        assert f"jgym/{g}" in gym.registry


@pytest.mark.parametrize("game", jgym.GAMES)
def test_check_env(game: str, address: str, short_configs: dict[str, str]) -> None:
    env = gym.make(f"jgym/{game}", address=address, config=short_configs[game]).unwrapped
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.close()


@pytest.mark.parametrize("game", jgym.GAMES)
def test_vector_episode(game: str, address: str, short_configs: dict[str, str]) -> None:
    """A whole short game: masks, spaces, and rewards adding up to the score."""
    envs = jgym.make_vec(
        game, num_envs=3, address=address, config=short_configs[game], autoreset_mode="Disabled"
    )
    rng = np.random.default_rng(7)
    try:
        obs, info = envs.reset(seed=5)
        assert envs.single_observation_space.contains({k: v[0] for k, v in obs.items()})
        start = info["scores"][:, 0].astype(np.int64)
        total = np.zeros(3)
        for _ in range(4):
            mask = obs["action_mask"]
            assert mask.shape[1:] == envs.single_observation_space["action_mask"].shape
            assert mask.any(axis=-1).all(), "every unit slot has a legal action"
            obs, reward, terminated, _, info = envs.step(jgym.sample_masked(mask, rng))
            total += reward
        assert terminated.all()
        np.testing.assert_allclose(total, info["scores"][:, 0] - start)
    finally:
        envs.close()


@pytest.mark.parametrize("game", jgym.GAMES)
def test_parallel_api(game: str, address: str, short_configs: dict[str, str]) -> None:
    env = jgym.parallel_env(game, address=address, config=short_configs[game])
    try:
        assert env.metadata["name"] == "jgym_" + game.lower().replace("-", "_")
        parallel_api_test(env, num_cycles=6)
    finally:
        env.close()


@pytest.mark.parametrize("game", jgym.GAMES)
def test_strong_bot_seat(game: str, address: str, short_configs: dict[str, str]) -> None:
    """Every game seats its built-in bots, the strong one among them."""
    with jgym.Client(address) as c:
        bots, prefixes = c.list_bots(game)
    assert {"Demo", "Null"} <= set(bots) and len(bots) >= 3
    assert {"cpp", "policy"} <= set(prefixes)
    strong = next(b for b in bots if b not in ("Demo", "Null") and ":" not in b)
    env = jgym.JgymEnv(
        game, address=address, opponents=(strong, "Demo", "Null"), config=short_configs[game]
    )
    try:
        env.reset(seed=2)
    finally:
        env.close()


@pytest.mark.parametrize("game", jgym.GAMES)
def test_spec_describes_the_observation(game: str, address: str) -> None:
    """The server says how to read its tensors: what a network is built from."""
    with jgym.Client(address) as c:
        (spec,) = [g for g in c.list_games() if g.id == game]
    info = jgym.spec.describe(spec)
    assert info.id == game and info.num_actions == spec.num_actions
    board = info.board
    assert len(board.planes) == board.shape[0]
    for p in board.planes:
        assert p.kind in ("code", "bits", "scalar") and p.count >= 1 and p.scale > 0
    units = info.tensor("units")
    assert len(units.columns) == units.shape[-1]
    assert {units.columns[info.unit_row].name, units.columns[info.unit_col].name} == {"row", "col"}
    mask = info.tensor(info.policy_mask)
    assert mask.dtype == np.bool_ and mask.shape == (info.num_slots, info.num_actions)
    assert spec.name and spec.strong_bot


def test_spec_lists_the_opt_in_tensors(address: str) -> None:
    """``GameSpec.opt_in``: the tensors a session adds by name (the strong bot's
    orders, ``expert``: one-hot over Pandemic's 5 directions, the 9 of
    Dominator and Moria; Crematoria has none)."""
    directions = {"Pandemic-v0": 5, "Dominator-v0": 9, "Moria-v0": 9}
    with jgym.Client(address) as c:
        specs = {g.id: g for g in c.list_games()}
    for game in jgym.GAMES:
        info = jgym.spec.describe(specs[game])
        opt_in = [(t.name, t.dtype, t.shape) for t in info.opt_in]
        if game in directions:
            u = info.num_slots
            assert opt_in == [("expert", np.dtype(np.bool_), (u, directions[game]))]
            assert "expert" not in [t.name for t in info.tensors]
        else:
            assert opt_in == []
        assert jgym.spec.GameInfo.from_dict(info.to_dict()) == info
