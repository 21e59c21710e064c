"""The toy game through the Python env, against a server that hosts it.

The toy (``env/toy``) is a game of jgym's Go tests, defined only through the
core's definition and registered in cmd/jgym's tests alone: the test binary
of cmd/jgym, run with ``JGYM_TOY_JGYM=1``, is the jgym command with the toy
registered. This module builds it, serves the games with it on 127.0.0.1 and
plays the toy as any game: a vector env stepped with masked random actions,
its rewards and scores, and the spec's description of its tensors. Users
never see the toy: it is not in ``jgym.GAMES`` nor registered with Gymnasium.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import jgym
from jgym.server import LocalServer, find_source_tree

ROUNDS, ROWS, COLS, UNITS, CAPTURE = 40, 10, 10, 12, 5  # the toy's default configuration


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """A server of the games and the toy: cmd/jgym's test binary as jgym."""
    src = find_source_tree()
    if src is None or shutil.which("go") is None:
        pytest.skip("the toy's server is built from the jgym source tree with Go")
    binary = Path(tmp_path_factory.mktemp("toy")) / "jgym-with-toy"
    subprocess.run(
        ["go", "test", "-c", "-o", str(binary), "./cmd/jgym"],
        cwd=src,
        check=True,
        timeout=900,
    )
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JGYM_TOY_JGYM", "1")  # the child inherits it when it starts
        server = LocalServer(binary=binary, workers=2, startup_timeout=120)
    with server:
        yield server


def test_the_server_hosts_the_toy(toy_server: LocalServer) -> None:
    with jgym.Client(toy_server.address) as client:
        ids = [g.id for g in client.list_games()]
        bots, _ = client.list_bots("Toy-v0")
    assert "Toy-v0" in ids and set(jgym.GAMES) <= set(ids)
    assert {"Null", "Demo", "Greedy"} <= set(bots)
    # Users never see it.
    assert "Toy-v0" not in jgym.GAMES and "jgym/Toy-v0" not in gymnasium.registry


def test_toy_spec_description(toy_server: LocalServer) -> None:
    envs = jgym.make_vec("Toy-v0", num_envs=2, address=toy_server.address)
    try:
        info = jgym.spec.describe(envs.spec_proto)
    finally:
        envs.close()
    assert info.id == "Toy-v0" and info.version == "toy-obs-1"
    assert [str(p) for p in info.board.planes] == [
        "wall: codes 0..1",
        "paint: codes 0..4",
        "unit: codes 0..4",
        "open moves: 4 flag bits",
        "opponents next: scalar x 0.25",
    ]
    units = info.tensor("units")
    assert [c.name for c in units.columns] == ["mine", "rel owner", "row", "col", "paint under"]
    assert units.columns[info.unit_row].name == "row"
    assert units.columns[info.unit_col].name == "col"
    assert np.allclose(units.scales, [1, 1 / 3, 1 / ROWS, 1 / COLS, 0.25])
    assert info.tensor("globals").shape == (10,) and len(info.tensor("globals").columns) == 10
    assert info.num_slots == UNITS and info.num_actions == 5
    assert info.policy_mask == "action_mask" and not info.wrap_columns


def test_toy_vector_env(toy_server: LocalServer) -> None:
    """Masked random actions for a whole game and the first step of the next.

    Each reward is the change of the learner's score, and the score is what
    its observation shows: its painted cells plus 5 points per capture.
    """
    n = 3
    envs = jgym.make_vec(
        "Toy-v0", num_envs=n, address=toy_server.address, opponents=("Demo", "Greedy", "Null")
    )
    rng = np.random.default_rng(0)
    try:
        obs, info = envs.reset(seed=5)
        assert obs["board"].shape == (n, 5, ROWS, COLS) and obs["board"].dtype == np.uint8
        assert obs["units"].shape == (n, UNITS, 5)
        assert obs["globals"].shape == (n, 10) and obs["globals"].dtype == np.float32
        assert obs["action_mask"].shape == (n, UNITS, 5)
        assert envs.observation_space.contains(obs)
        prev = info["scores"][:, 0].copy()
        total = np.zeros(n, dtype=np.float32)
        moved = 0
        for step in range(1, ROUNDS + 2):
            mask = obs["action_mask"]
            actions = jgym.sample_masked(mask, rng)
            # Only the seat's own units (slots 0..2 at seat 0) may move.
            assert (mask[:, 3:, :4] == 0).all() and (mask[:, :, 4] == 1).all()
            moved += int((actions[:, :3] < 4).sum())
            obs, rew, term, trunc, info = envs.step(actions)
            assert rew.shape == (n,) and rew.dtype == np.float32 and not trunc.any()
            if step == ROUNDS + 1:  # the autoreset step starts the next games
                assert not term.any() and (info["round"] == 0).all()
                break
            assert (term == (step == ROUNDS)).all() and (info["round"] == step).all()
            score = info["scores"][:, 0]
            np.testing.assert_array_equal(rew, score - prev)
            total += rew
            prev = score.copy()
            painted = (obs["board"][:, 1] == 1).sum(axis=(1, 2))
            captures = np.rint(obs["globals"][:, 6] * 10)
            np.testing.assert_array_equal(score, painted + CAPTURE * captures)
        np.testing.assert_array_equal(total, prev)
        assert moved > 0 and (prev > 0).all()
    finally:
        envs.close()
