"""The vector environment: batching, seeds, determinism, autoreset."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode

import jgym
from jgym.env import JgymEnv
from jgym.server import LocalServer
from jgym.vector import JgymVectorEnv


@pytest.fixture(scope="module")
def two_servers() -> Iterator[tuple[str, str]]:
    """Servers with 1 and 2 worker goroutines."""
    with LocalServer(workers=1) as a, LocalServer(workers=2) as b:
        yield a.address, b.address


def rollout(envs: JgymVectorEnv, seed: int, steps: int, action_seed: int = 0) -> list[Any]:
    """Plays random legal moves and records everything the env returns."""
    rng = np.random.default_rng(action_seed)
    obs, info = envs.reset(seed=seed)
    out: list[Any] = [({k: v.copy() for k, v in obs.items()}, info["scores"].copy())]
    for _ in range(steps):
        obs, rew, term, trunc, info = envs.step(jgym.sample_masked(obs["action_mask"], rng))
        out.append(
            (
                {k: v.copy() for k, v in obs.items()},
                rew.copy(),
                term.copy(),
                trunc.copy(),
                info["scores"].copy(),
                info["round"].copy(),
            )
        )
    return out


def assert_same(a: list[Any], b: list[Any]) -> None:
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        assert data_equivalence(x, y), f"step {i} differs"


def test_spaces_and_zero_copy(address: str) -> None:
    # Over gRPC (the local channel's arrays: tests/test_local.py).
    envs = jgym.make_vec(
        "Crematoria-v0", num_envs=3, address=address, observation_delta=False, local=False
    )
    try:
        assert envs.num_envs == 3
        assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        obs, info = envs.reset(seed=1)
        assert envs.observation_space.contains(obs)
        assert obs["board"].shape == (3, 3, 40, 80) and obs["board"].dtype == np.uint8
        assert obs["action_mask"].shape == (3, 80, 11) and obs["action_mask"].dtype == np.int8
        # Views of the message's bytes, not copies.
        for v in obs.values():
            assert not v.flags.writeable and not v.flags.owndata
        assert info["scores"].shape == (3, 4) and info["_scores"].all()
        actions = envs.action_space.sample()
        obs, rew, term, trunc, info = envs.step(actions)
        assert rew.shape == (3,) and rew.dtype == np.float32
        assert term.dtype == np.bool_ and trunc.dtype == np.bool_
        assert (info["round"] == 1).all()
    finally:
        envs.close()


def test_gymnasium_make_vec(address: str) -> None:
    envs = gymnasium.make_vec("jgym/Crematoria-v0", num_envs=2, address=address)
    try:
        assert isinstance(envs.unwrapped, JgymVectorEnv)
        obs, _ = envs.reset(seed=0)
        assert obs["units"].shape == (2, 80, 8)
    finally:
        envs.close()


def test_env_g_uses_seed_plus_g(address: str) -> None:
    envs = jgym.make_vec("Crematoria-v0", num_envs=3, address=address)
    single = JgymEnv(address=address)
    try:
        obs, _ = envs.reset(seed=20)
        for g in range(3):
            one, _ = single.reset(seed=20 + g)
            for k in one:
                np.testing.assert_array_equal(obs[k][g], one[k], err_msg=f"env {g} {k}")
    finally:
        envs.close()
        single.close()


def test_determinism_across_worker_counts(two_servers: tuple[str, str], short_config: str) -> None:
    a_addr, b_addr = two_servers
    runs = []
    for addr in (a_addr, b_addr, a_addr):
        envs = jgym.make_vec("Crematoria-v0", num_envs=6, address=addr, config=short_config)
        try:
            runs.append(rollout(envs, seed=42, steps=8))
        finally:
            envs.close()
    assert_same(runs[0], runs[1])
    assert_same(runs[0], runs[2])


def test_split_over_addresses_is_the_same_game(
    two_servers: tuple[str, str], address: str, short_config: str
) -> None:
    one = jgym.make_vec("Crematoria-v0", num_envs=5, address=address, config=short_config)
    two = jgym.make_vec(
        "Crematoria-v0", num_envs=5, addresses=list(two_servers), config=short_config
    )
    try:
        assert [s.num_envs for s in two._sessions] == [3, 2]
        # Every game is the same wherever it runs: game g's k-th game uses
        # seed 9 + g + 5k on one server and split over two (the short
        # config ends a game every 3 steps, so 7 steps cross two resets).
        assert_same(rollout(one, seed=9, steps=7), rollout(two, seed=9, steps=7))
    finally:
        one.close()
        two.close()


def test_different_seeds_differ(address: str) -> None:
    envs = jgym.make_vec("Crematoria-v0", num_envs=2, address=address)
    try:
        a, _ = envs.reset(seed=1)
        a_board = a["board"].copy()
        b, _ = envs.reset(seed=2)
        assert not np.array_equal(a_board, b["board"])
        assert np.array_equal(a_board[1], b["board"][0])  # env 1 of seed 1 is env 0 of seed 2
    finally:
        envs.close()


def _play_to_boundary(
    mode: AutoresetMode, address: str, config: str, learners: int = 1
) -> list[Any]:
    envs = jgym.make_vec(
        "Crematoria-v0",
        num_envs=2,
        learners=learners,
        address=address,
        config=config,
        autoreset_mode=mode,
    )
    try:
        assert envs.metadata["autoreset_mode"] == mode
        return rollout(envs, seed=4, steps=5)
    finally:
        envs.close()


def test_autoreset_next_step(address: str, short_config: str) -> None:
    steps = _play_to_boundary(AutoresetMode.NEXT_STEP, address, short_config)
    # steps[i] is the result of step i (steps[0] is the reset).
    rounds = [s[5].tolist() for s in steps[1:]]
    terms = [s[2].tolist() for s in steps[1:]]
    assert rounds == [[1, 1], [2, 2], [3, 3], [0, 0], [1, 1]]
    assert terms == [[False] * 2, [False] * 2, [True] * 2, [False] * 2, [False] * 2]
    # The step after the last round resets: reward 0, a new first observation.
    obs, rew = steps[4][0], steps[4][1]
    assert (rew == 0).all()
    assert (obs["globals"][:, 0] == 0).all()  # round / nb_rounds
    # Game k of env g after a reset seeded s uses seed s + g + k * num_envs.
    single = JgymEnv(address=address, config=short_config)
    try:
        for g in range(2):
            first, _ = single.reset(seed=4 + g + 2)
            for k in first:
                np.testing.assert_array_equal(obs[k][g], first[k], err_msg=f"env {g} {k}")
    finally:
        single.close()


@pytest.mark.parametrize("learners", [1, 2])
def test_autoreset_same_step(address: str, short_config: str, learners: int) -> None:
    nxt = _play_to_boundary(AutoresetMode.NEXT_STEP, address, short_config, learners)
    n = 2 * learners
    envs = jgym.make_vec(
        "Crematoria-v0",
        num_envs=2,
        learners=learners,
        address=address,
        config=short_config,
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    rng = np.random.default_rng(0)
    try:
        obs, _ = envs.reset(seed=4)
        for step in range(1, 4):
            obs, rew, term, _, info = envs.step(jgym.sample_masked(obs["action_mask"], rng))
            np.testing.assert_array_equal(rew, nxt[step][1])
            if step < 3:
                assert not term.any() and "final_obs" not in info
        assert term.all()
        # The step that ends the game returns the next game's first observation...
        for k in obs:
            np.testing.assert_array_equal(obs[k], nxt[4][0][k], err_msg=k)
        # ...and the final observation in info, as Gymnasium's own vector envs.
        assert info["_final_obs"].all()
        for i in range(n):
            for k, v in info["final_obs"][i].items():
                np.testing.assert_array_equal(v, nxt[3][0][k][i], err_msg=k)
        np.testing.assert_array_equal(info["final_info"]["scores"], nxt[3][4])
    finally:
        envs.close()


def test_autoreset_disabled(address: str, short_config: str) -> None:
    envs = jgym.make_vec(
        "Crematoria-v0", num_envs=3, address=address, config=short_config, autoreset_mode="Disabled"
    )
    rng = np.random.default_rng(0)
    try:
        obs, _ = envs.reset(seed=1)
        for _ in range(3):
            obs, _, term, _, info = envs.step(jgym.sample_masked(obs["action_mask"], rng))
        assert term.all()
        kept = obs["board"][1].copy()
        mask = np.array([True, False, True])
        obs, info = envs.reset(options={"reset_mask": mask})
        assert info["_round"].tolist() == mask.tolist()
        assert info["round"][0] == 0 and info["round"][2] == 0
        np.testing.assert_array_equal(obs["board"][1], kept)
    finally:
        envs.close()


def test_several_learners_per_game(address: str, short_config: str) -> None:
    envs = jgym.make_vec(
        "Crematoria-v0",
        num_envs=3,
        opponents=("Demo", "Null"),
        address=address,
        config=short_config,
    )
    try:
        assert envs.num_learners == 2 and envs.num_envs == 6
        obs, info = envs.reset(seed=3)
        assert obs["board"].shape[0] == 6
        assert info["seat"].tolist() == [0, 1] * 3
        # Both learners of a game see the same game, each as "me".
        assert (obs["units"][0::2, :, 0].sum(axis=1) == obs["units"][1::2, :, 0].sum(axis=1)).all()
        assert not np.array_equal(obs["units"][0, :, 0], obs["units"][1, :, 0])
        obs, rew, term, _, info = envs.step(np.full((6, 80), 10))
        assert rew.shape == (6,) and term.shape == (6,)
    finally:
        envs.close()


def test_learners_option(address: str) -> None:
    envs = jgym.make_vec("Crematoria-v0", num_envs=2, learners=3, address=address)
    try:
        assert envs.seats == ["", "", "", "Demo"] and envs.num_envs == 6
    finally:
        envs.close()
    with pytest.raises(jgym.InvalidArgumentError, match="learners"):
        jgym.make_vec("Crematoria-v0", learners=2, opponents=("Demo",), address=address)


def test_self_play_shuffle(address: str) -> None:
    envs = jgym.make_vec(
        "Crematoria-v0", num_envs=4, opponents=(), shuffle_seats=True, address=address
    )
    try:
        _, info = envs.reset(seed=5)
        seats = info["seat"].reshape(4, 4)
        for row in seats:
            assert sorted(row.tolist()) == [0, 1, 2, 3]
        assert any(row.tolist() != [0, 1, 2, 3] for row in seats)
    finally:
        envs.close()


def test_step_async_wait(address: str) -> None:
    envs = jgym.make_vec("Crematoria-v0", num_envs=4, address=address, action_order=True)
    try:
        envs.reset(seed=0)
        envs.step_async(envs.action_space.sample())
        with pytest.raises(jgym.SessionError):
            envs.step_async(envs.action_space.sample())
        *_, info = envs.step_wait()
        assert (info["round"] == 1).all()
    finally:
        envs.close()


def test_record_episode_statistics(address: str, short_config: str) -> None:
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        jgym.make_vec("Crematoria-v0", num_envs=2, address=address, config=short_config)
    )
    try:
        envs.reset(seed=0)
        for _ in range(3):
            _, _, term, _, info = envs.step(np.full((2, 80), 10))
        assert term.all() and info["_episode"].all()
        assert (info["episode"]["l"] == 3).all()
    finally:
        envs.close()


def test_observation_delta_matches_raw(address: str, short_config: str) -> None:
    raw = jgym.make_vec(
        "Crematoria-v0", num_envs=3, address=address, config=short_config, observation_delta=False
    )
    delta = jgym.make_vec(
        "Crematoria-v0", num_envs=3, address=address, config=short_config, observation_delta=True
    )
    try:
        # 7 steps of 3-round games: two autoresets.
        assert_same(rollout(raw, seed=4, steps=7), rollout(delta, seed=4, steps=7))
        # A new stream restarts the references from zero on both ends.
        delta._sessions[0]._drop_stream()
        assert_same(rollout(raw, seed=5, steps=2), rollout(delta, seed=5, steps=2))
        obs, _ = delta.reset(seed=5)
        assert all(v.flags.writeable for v in obs.values())  # the caller's own arrays
    finally:
        raw.close()
        delta.close()


# The orders each game offers besides seat and slot (docs/observation.md):
# Dominator and Pandemic shuffle all commands, so no command order.
GAME_ORDERS = {
    "Crematoria-v0": (["attacks_first"], ["score"]),
    "Dominator-v0": ([], ["score"]),
    "Pandemic-v0": ([], ["score"]),
    "Moria-v0": (["attacks_first"], ["score"]),
}

# Where each game's globals hold the scores of rel 0..3.
SCORES_AT = {"Crematoria-v0": 3, "Dominator-v0": 6, "Pandemic-v0": 3, "Moria-v0": 2}


@pytest.mark.parametrize("game", sorted(GAME_ORDERS))
def test_opponent_order_score_relabels(address: str, game: str) -> None:
    """A session by score serves the game a session by seat plays, its opponents sorted by score."""
    by_seat = jgym.make_vec(game, num_envs=2, address=address)
    by_score = jgym.make_vec(game, num_envs=2, address=address, opponent_order="score")
    at = SCORES_AT[game]
    relabelled = 0
    try:
        seat_obs, _ = by_seat.reset(seed=11)
        score_obs, _ = by_score.reset(seed=11)
        rng = np.random.default_rng(1)
        for _ in range(25):
            np.testing.assert_array_equal(seat_obs["action_mask"], score_obs["action_mask"])
            seat_scores = seat_obs["globals"][:, at : at + 4]
            score_scores = score_obs["globals"][:, at : at + 4]
            np.testing.assert_array_equal(seat_scores[:, 0], score_scores[:, 0])
            np.testing.assert_array_equal(np.sort(seat_scores[:, 1:]), np.sort(score_scores[:, 1:]))
            assert (np.diff(score_scores[:, 1:], axis=1) <= 0).all(), score_scores
            relabelled += int((seat_scores != score_scores).any(axis=1).sum())
            action = jgym.sample_masked(seat_obs["action_mask"], rng)
            seat_obs, *_ = by_seat.step(action)
            score_obs, *_ = by_score.step(action)
    finally:
        by_seat.close()
        by_score.close()
    assert relabelled > 0, "the opponents' scores never needed sorting: the test proves little"


@pytest.mark.parametrize("game", sorted(GAME_ORDERS))
def test_session_options_orders(address: str, game: str) -> None:
    """The env orders commands and opponents as a session asks, and refuses unknown orders."""
    actions, opponents = GAME_ORDERS[game]
    with jgym.Client(address) as c:
        (spec,) = [g for g in c.list_games() if g.id == game]
    assert list(spec.action_orders) == actions and list(spec.opponent_orders) == opponents
    envs = jgym.make_vec(
        game,
        num_envs=2,
        address=address,
        command_order=(actions or ["slot"])[0],
        opponent_order="score",
    )
    try:
        obs, _ = envs.reset(seed=3)
        rng = np.random.default_rng(0)
        for _ in range(3):
            obs, *_ = envs.step(jgym.sample_masked(obs["action_mask"], rng))
    finally:
        envs.close()
    bad_orders = [{"command_order": "random"}, {"opponent_order": "alphabet"}]
    if not actions:
        bad_orders.append({"command_order": "attacks_first"})
    for bad in bad_orders:
        with pytest.raises(jgym.InvalidArgumentError, match="order"):
            jgym.make_vec(game, num_envs=1, address=address, **bad)
