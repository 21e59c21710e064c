"""Error paths: the server's refusals become named exceptions with its message."""

from __future__ import annotations

import os
import signal
import socket
import stat
import time
from pathlib import Path

import numpy as np
import pytest

import jgym
from jgym.client import Client
from jgym.env import JgymEnv
from jgym.server import LocalServer
from jgym.v1 import jgym_pb2 as pb


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unknown_bot(address: str) -> None:
    with pytest.raises(jgym.JgymError, match="Nobody") as e:
        jgym.make_vec(
            "Crematoria-v0", num_envs=2, opponents=("Demo", "Nobody", "Demo"), address=address
        )
    assert isinstance(e.value, jgym.NotFoundError)


def test_unknown_game(address: str) -> None:
    with pytest.raises(jgym.NotFoundError, match="Tetris"):
        JgymEnv("Tetris-v0", address=address)


def test_bad_config(address: str) -> None:
    with pytest.raises(jgym.InvalidArgumentError, match="bad configuration"):
        jgym.make_vec("Crematoria-v0", address=address, config="Crematoria 1.2\nnb_players 5\n")


def test_bad_options(address: str) -> None:
    with pytest.raises(jgym.InvalidArgumentError, match="reward_mode"):
        JgymEnv(address=address, reward_mode="money")
    with pytest.raises(jgym.InvalidArgumentError, match="opponents"):
        JgymEnv(address=address, opponents=("Demo",))
    with pytest.raises(jgym.InvalidArgumentError, match="num_envs"):
        jgym.make_vec("Crematoria-v0", num_envs=0, address=address)


def test_bad_address() -> None:
    port = free_port()
    start = time.monotonic()
    with pytest.raises(jgym.ServerUnavailableError, match=f"127.0.0.1:{port}"):
        jgym.make_vec("Crematoria-v0", address=f"127.0.0.1:{port}", connect_timeout=1.0)
    assert time.monotonic() - start < 10


def test_wrong_action_shape(address: str) -> None:
    envs = jgym.make_vec("Crematoria-v0", num_envs=2, address=address)
    env = JgymEnv(address=address)
    try:
        envs.reset(seed=0)
        with pytest.raises(jgym.InvalidArgumentError, match=r"want \(2, 80\)"):
            envs.step(np.zeros((2, 79), dtype=np.int64))
        with pytest.raises(jgym.InvalidArgumentError, match="integers"):
            envs.step(np.zeros((2, 80), dtype=np.float32))
        env.reset(seed=0)
        with pytest.raises(jgym.InvalidArgumentError, match=r"want \(80,\)"):
            env.step(np.zeros(81, dtype=np.int64))
    finally:
        envs.close()
        env.close()


def test_server_rejects_bad_tensors(address: str) -> None:
    """What the client checks, the server checks too, with its own message."""
    with Client(address) as client:
        session = client.create_session("Crematoria-v0", 1, ["", "Demo", "Demo", "Demo"])
        session.reset(seed=0)
        bad = pb.Tensor(dtype=pb.DTYPE_INT8, shape=[1, 1, 79], data=bytes(79))
        session._send(pb.StreamRequest(step=pb.StepRequest(actions=bad)))
        with pytest.raises(jgym.InvalidArgumentError, match="shape"):
            session.recv()
        # The session survives a refused request; a direction out of range is refused too.
        session.reset(seed=0)
        with pytest.raises(jgym.InvalidArgumentError):
            session.step(np.full((1, 1, 80), 11))
        result = session.reset(seed=0)
        assert list(result.env_ids) == [0]


def test_step_finished_game_without_autoreset(address: str, short_config: str) -> None:
    envs = jgym.make_vec(
        "Crematoria-v0", num_envs=1, address=address, config=short_config, autoreset_mode="Disabled"
    )
    try:
        envs.reset(seed=0)
        for _ in range(3):
            envs.step(np.full((1, 80), 10))
        with pytest.raises(jgym.SessionError):
            envs.step(np.full((1, 80), 10))
    finally:
        envs.close()


def test_server_crash() -> None:
    server = LocalServer()
    try:
        envs = jgym.make_vec("Crematoria-v0", num_envs=2, address=server.address)
        envs.reset(seed=0)
        os.kill(server.pid, signal.SIGKILL)
        server._proc.wait(10)
        with pytest.raises(jgym.ServerUnavailableError):
            envs.step(np.full((2, 80), 10))
        envs.close()  # closing after a crash does not raise
    finally:
        server.close()


def test_binary_not_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JGYM_BIN", str(tmp_path / "missing"))
    with pytest.raises(jgym.BinaryNotFoundError, match="JGYM_BIN"):
        LocalServer()


def test_server_that_exits(tmp_path: Path) -> None:
    fake = tmp_path / "jgym"
    fake.write_text("#!/bin/sh\necho 'jgym serve: cannot listen' >&2\nexit 3\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(jgym.ServerStartError, match="cannot listen"):
        LocalServer(binary=fake)


def test_server_that_never_answers(tmp_path: Path) -> None:
    fake = tmp_path / "jgym"
    fake.write_text("#!/bin/sh\nexec sleep 30\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    start = time.monotonic()
    with pytest.raises(jgym.ServerStartError, match="did not announce"):
        LocalServer(binary=fake, startup_timeout=1.0)
    assert time.monotonic() - start < 10


def test_over_the_server_limit() -> None:
    with LocalServer(args=["--max-envs-per-session", "4"]) as server:
        with pytest.raises(jgym.ResourceExhaustedError, match="limit"):
            jgym.make_vec("Crematoria-v0", num_envs=5, address=server.address)
        envs = jgym.make_vec("Crematoria-v0", num_envs=4, address=server.address)
        envs.close()
