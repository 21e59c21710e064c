"""Every env pickles: the copy reconnects (or starts its own server) with the same options."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap

import cloudpickle  # gymnasium's and Ray's pickler
import numpy as np
import pytest

import jgym


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps], ids=["pickle", "cloudpickle"])
def test_single(address: str, short_config: str, dumps: object) -> None:
    env = jgym.JgymEnv(address=address, config=short_config, opponents=("Null", "Demo", "Null"))
    obs, _ = env.reset(seed=5)
    copy = pickle.loads(dumps(env))  # type: ignore[operator]
    try:
        assert copy.server_address == address and copy.num_slots == env.num_slots
        obs2, _ = copy.reset(seed=5)
        for k in obs:
            np.testing.assert_array_equal(obs[k], obs2[k])
        env.step(np.full(80, 10))  # both play on, separately
        copy.step(np.full(80, 10))
    finally:
        copy.close()
        env.close()


def test_vector_and_parallel(address: str) -> None:
    envs = jgym.make_vec("Moria-v0", num_envs=2, address=address, render_mode="rgb_array")
    par = jgym.parallel_env("Pandemic-v0", address=address)
    try:
        for e in (envs, par):
            c = pickle.loads(pickle.dumps(e))
            c.reset(seed=3)
            assert c.render_mode == e.render_mode
            c.close()
    finally:
        envs.close()
        par.close()


def test_unpickled_in_another_process_starts_its_own_server() -> None:
    """Pickled without an address, the copy in a new process starts a local server."""
    env = jgym.JgymEnv("Dominator-v0")
    try:
        blob = pickle.dumps(env)
        code = textwrap.dedent(
            """
            import pickle, sys
            env = pickle.loads(sys.stdin.buffer.read())
            obs, info = env.reset(seed=1)
            print(env.game_id, env.server_pid is not None, obs["board"].shape)
            env.close()
            """
        )
        out = subprocess.run(
            [sys.executable, "-c", code], input=blob, capture_output=True, timeout=120, check=True
        ).stdout.decode()
        assert out.split()[:2] == ["Dominator-v0", "True"]
    finally:
        env.close()
