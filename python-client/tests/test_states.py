"""Saved states and trace starts from Python: get_state/set_state of one
env and of a vector env continue the games exactly; a damaged state is an
InvalidArgumentError; reset(options=...) starts from a round of a trace."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

import jgym
from jgym.env import JgymEnv
from jgym.errors import InvalidArgumentError, SessionError

TRACES = Path(__file__).resolve().parents[2] / "testdata" / "crematoria" / "traces"


def _masked(obs: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """A random legal direction per unit slot from the action mask."""
    mask = obs["action_mask"].astype(bool)
    lead = mask.shape[:-1]
    flat = mask.reshape(-1, mask.shape[-1])
    out = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in flat])
    return out.reshape(lead)


def _play(env, obs, seed: int, n: int) -> list:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        obs, reward, term, _, info = env.step(_masked(obs, rng))
        out.append(
            (
                {k: v.copy() for k, v in obs.items()},
                np.copy(reward),
                np.copy(term),
                np.copy(info["scores"]),
            )
        )
    return out


def _same(a: list, b: list) -> bool:
    for (oa, ra, ta, sa), (ob, rb, tb, sb) in zip(a, b, strict=True):
        if any(not np.array_equal(oa[k], ob[k]) for k in oa):
            return False
        if not (np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(sa, sb)):
            return False
    return True


def test_env_get_set_state(address: str) -> None:
    env = JgymEnv(address=address)
    try:
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(1)
        for _ in range(5):
            obs, *_ = env.step(_masked(obs, rng))
        state = env.get_state()
        assert isinstance(state, bytes)
        want = _play(env, obs, 7, 8)
        obs2, _ = env.set_state(state)
        assert all(np.array_equal(obs[k], obs2[k]) for k in obs)
        assert _same(_play(env, obs2, 7, 8), want)
        bad = bytearray(state)
        bad[len(bad) // 2] ^= 1
        with pytest.raises(InvalidArgumentError):
            env.set_state(bytes(bad))
        env.reset(seed=1)
    finally:
        env.close()


def test_vector_get_set_state(address: str) -> None:
    envs = jgym.make_vec("Crematoria-v0", num_envs=3, address=address)
    try:
        obs, _ = envs.reset(seed=3)
        rng = np.random.default_rng(2)
        for _ in range(4):
            obs, *_ = envs.step(_masked(obs, rng))
        states = envs.get_state()
        assert len(states) == 3
        want = _play(envs, obs, 9, 6)
        one = envs.get_state([1])
        obs2, _ = envs.set_state(states)
        assert _same(_play(envs, obs2, 9, 6), want)
        # Restores split into requests under the server's limit.
        for s in envs._sessions:
            s.max_request_bytes = 2 * (max(map(len, states)) + 16)
        obs2, _ = envs.set_state(states)
        assert _same(_play(envs, obs2, 9, 6), want)
        obs3, _ = envs.set_state(one, [1])
        assert obs3["board"].shape == obs2["board"].shape
    finally:
        envs.close()


def test_reset_from_trace(address: str) -> None:
    base = "crematoria_s10_Demo-Demo-Demo-Demo"
    trace = gzip.decompress((TRACES / f"{base}.res.gz").read_bytes())
    commands = gzip.decompress((TRACES / "commands" / f"{base}.cmd.gz").read_bytes())
    env = JgymEnv(address=address)
    try:
        _, info = env.reset(options={"trace": trace, "commands": commands, "round": 20})
        assert int(info["round"]) == 20
        # Without the command file: the position rebuilt from the trace.
        _, info = env.reset(options={"trace": trace, "round": 20})
        assert int(info["round"]) == 20
        with pytest.raises(SessionError):
            env.get_state()
        with pytest.raises(InvalidArgumentError):
            env.reset(
                options={"trace": trace, "commands": commands[: len(commands) // 3], "round": 100}
            )
        with pytest.raises(InvalidArgumentError):
            env.reset(options={"trace": str(TRACES / f"{base}.res.gz")})
    finally:
        env.close()
