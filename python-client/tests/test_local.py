"""The local channel: the same games over shared memory as over gRPC, and its edges."""

from __future__ import annotations

import collections
import mmap
import os
import socket
import subprocess
import sys
import threading
import time
import types
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode

import jgym
from jgym.client import Client
from jgym.errors import InvalidArgumentError, NotFoundError, PermissionDeniedError
from jgym.local import LocalChannel
from jgym.server import LocalServer
from jgym.vector import JgymVectorEnv

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the local channel is Linux's (memfd)"
)


def play(envs: JgymVectorEnv, seed: int, steps: int) -> list[Any]:
    """Plays random legal moves; records everything the env returns, with partial resets."""
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    out: list[Any] = [({k: v.copy() for k, v in obs.items()}, dict(info))]
    mask_key = "action_mask"
    for step in range(steps):
        mask = obs[mask_key] if isinstance(obs, dict) else None
        if mask is None:
            raise AssertionError("want dict observations")
        acts = jgym.sample_masked(mask, rng)
        if envs.with_order:
            acts = {"action": acts, "order": rng.integers(-5, 5, acts.shape)}
        obs, rew, term, trunc, info = envs.step(acts)
        out.append(({k: v.copy() for k, v in obs.items()}, rew, term, trunc, info))
        if envs.autoreset_mode == AutoresetMode.DISABLED and (term | trunc).any():
            obs, info = envs.reset(options={"reset_mask": term | trunc})
            out.append(({k: v.copy() for k, v in obs.items()}, dict(info)))
        if step == 6:
            obs, info = envs.reset(seed=[None] * envs.num_envs)  # seeds continued
            out.append(({k: v.copy() for k, v in obs.items()}, dict(info)))
        if step == 8:  # a seed per game: a request per run of seeds
            games = envs.num_games
            seeds = [[40, 3, 17, 5, 8][g % 5] + g // 5 for g in range(games)]
            obs, info = envs.reset(seed=list(np.repeat(seeds, envs.num_learners)))
            out.append(({k: v.copy() for k, v in obs.items()}, dict(info)))
    return out


def assert_same(a: list[Any], b: list[Any]) -> None:
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        assert data_equivalence(x, y), f"answer {i} differs"


CASES = [
    pytest.param({}, id="default"),
    pytest.param({"autoreset_mode": AutoresetMode.SAME_STEP, "learners": 2}, id="same-step-2"),
    pytest.param({"autoreset_mode": AutoresetMode.DISABLED}, id="disabled"),
    pytest.param({"unit_rewards": True, "action_order": True, "shuffle_seats": True}, id="extras"),
]


@pytest.mark.parametrize("options", CASES)
def test_same_games_both_ways(address: str, short_config: str, options: dict[str, Any]) -> None:
    """gRPC, the channel, and the channel with each step as two halves in flight."""
    runs = []
    for local, halves in ((False, False), (True, False), (True, True)):
        envs = JgymVectorEnv(
            "Crematoria-v0", 5, address=address, config=short_config, local=local, **options
        )
        envs.split_min_envs = 2 if halves else 0
        try:
            assert envs.local_sessions == [local]
            runs.append(play(envs, seed=17, steps=10))
        finally:
            envs.close()
    assert_same(runs[0], runs[1])
    assert_same(runs[0], runs[2])


def test_two_requests_in_flight(address: str, short_config: str) -> None:
    """Two slots: halves answered as one batch, or two requests of other envs; no third."""
    with Client(address) as client:
        mk = [client.create_session("Crematoria-v0", 5, ["", "Demo", "Demo", "Demo"],
                                    config=short_config) for _ in range(2)]  # fmt: skip
        one, two = LocalChannel(mk[0]), LocalChannel(mk[1], copy=False)
        assert one.slots == 2
        rng = np.random.default_rng(4)
        one.send_reset(9)
        two.send_reset(9)
        a, b = one.recv(), two.recv()
        assert data_equivalence(asdict(a), asdict(b))
        for _ in range(7):  # across the end of 5-round games
            acts = jgym.sample_masked(a.obs["action_mask"][:, 0], rng)
            one.send_step(acts)
            two.send_step(acts, halves=True)
            assert one.pending == 1 and two.pending == 1
            a, b = one.recv(), two.recv()
            assert data_equivalence(asdict(a), asdict(b))
            assert not b.obs["board"].flags.writeable  # copy=False: views
        # Two requests of other envs, each in its own slot, answered in order.
        acts = jgym.sample_masked(a.obs["action_mask"][:, 0], rng)
        one.send_step(acts)
        want = one.recv()
        two.send_step(acts[[3, 1]], env_ids=[3, 1])
        two.send_step(acts[[0, 2, 4]], env_ids=[0, 2, 4])
        with pytest.raises(jgym.errors.SessionError, match="2 requests at a time"):
            two.send_reset(None, env_ids=[4])
        first, second = two.recv(), two.recv()
        assert first.env_ids.tolist() == [3, 1] and second.env_ids.tolist() == [0, 2, 4]
        for k, v in want.obs.items():
            assert np.array_equal(first.obs[k], v[[3, 1]]), k
            assert np.array_equal(second.obs[k], v[[0, 2, 4]]), k
        assert np.array_equal(first.reward, want.reward[[3, 1]])
        assert np.array_equal(second.round, want.round[[0, 2, 4]])
        # A second request of an env in flight is refused (its rows would
        # be overwritten before they are read).
        two.send_step(acts[[1]], env_ids=[1])
        with pytest.raises(jgym.errors.SessionError, match="in flight holds"):
            two.send_step(acts[[1, 2]], env_ids=[1, 2])
        with pytest.raises(jgym.errors.SessionError, match="in flight holds"):
            two.send_reset(None)
        two.recv()
        one.close()
        two.close()


def test_same_games_split_over_servers(address: str, short_config: str) -> None:
    """One server local, one over gRPC: the games are those of one server."""
    with LocalServer(local_socket=False) as other:
        two = JgymVectorEnv(
            "Crematoria-v0", 5, addresses=[address, other.address], config=short_config
        )
        one = JgymVectorEnv("Crematoria-v0", 5, address=address, config=short_config, local=False)
        try:
            assert two.local_sessions == [True, False]
            assert_same(play(two, 3, 8), play(one, 3, 8))
        finally:
            two.close()
            one.close()


def test_states_over_a_local_session(address: str, short_config: str) -> None:
    """get_state/set_state go over gRPC beside the channel; the games go on alike."""
    envs = JgymVectorEnv("Crematoria-v0", 3, address=address, config=short_config)
    ref = JgymVectorEnv("Crematoria-v0", 3, address=address, config=short_config, local=False)
    try:
        assert envs.local_sessions == [True]
        rng = np.random.default_rng(1)
        a, b = envs.reset(seed=4), ref.reset(seed=4)
        assert data_equivalence(a, b)
        acts = jgym.sample_masked(a[0]["action_mask"], rng)
        a, b = envs.step(acts), ref.step(acts)
        assert data_equivalence(a, b)
        saved = envs.get_state([1])
        a, b = envs.set_state(saved, [1]), ref.set_state(saved, [1])
        assert data_equivalence(a, b)
        acts = jgym.sample_masked(a[0]["action_mask"], rng)
        assert data_equivalence(envs.step(acts), ref.step(acts))
    finally:
        envs.close()
        ref.close()


def test_copy_and_views(address: str) -> None:
    copies = JgymVectorEnv("Crematoria-v0", 2, address=address)
    views = JgymVectorEnv("Crematoria-v0", 2, address=address, copy=False)
    try:
        assert copies.local_sessions == [True] and views.local_sessions == [True]
        rng = np.random.default_rng(0)
        a, _ = copies.reset(seed=5)
        v, _ = views.reset(seed=5)
        for k in a:
            assert a[k].flags.writeable, k  # the caller's own
            assert not v[k].flags.writeable, k  # the shared region, read-only
        kept_a = {k: x.copy() for k, x in a.items()}
        kept_v = {k: x.copy() for k, x in v.items()}
        acts = jgym.sample_masked(a["action_mask"], rng)
        a2, *_ = copies.step(acts)
        v2, *_ = views.step(acts)
        assert data_equivalence(a2, v2)
        # The copies stay what they were; the views now show the new step.
        assert data_equivalence(a, kept_a)
        assert data_equivalence(v, v2) and not data_equivalence(v, kept_v)
    finally:
        copies.close()
        views.close()
    # A view kept past close() still reads (the region goes with it).
    assert v["board"].sum() >= 0


def test_fallback_and_required(short_config: str) -> None:
    with LocalServer(local_socket=False) as plain:
        envs = JgymVectorEnv("Crematoria-v0", 2, address=plain.address, config=short_config)
        try:
            assert envs.local_sessions == [False]
            envs.reset(seed=1)
        finally:
            envs.close()
        with pytest.raises(InvalidArgumentError, match="offers no local channel"):
            JgymVectorEnv("Crematoria-v0", 2, address=plain.address, local=True)


def test_wrong_secret(address: str) -> None:
    with Client(address) as client:
        s = client.create_session("Crematoria-v0", 1, ["", "Demo", "Demo", "Demo"])
        right = s.local_secret
        s.local_secret = bytes([right[0] ^ 1]) + right[1:]
        with pytest.raises(PermissionDeniedError, match="no open session has this id and secret"):
            LocalChannel(s)
        s.local_secret = right
        ch = LocalChannel(s)
        b = ch.send_reset(3) or ch.recv()
        assert b.obs["board"].shape == (1, 1, 3, 40, 80)
        # A refused request keeps the channel.
        ch.send_step(np.zeros((1, 80), np.int8), env_ids=[4])
        with pytest.raises(InvalidArgumentError, match="env_ids"):
            ch.recv()
        ch.send_step(np.zeros((1, 80), np.int8))
        assert ch.recv().round.tolist() == [1]
        ch.close()
        # After a bye the session goes on over gRPC.
        assert list(s.step(np.zeros((1, 80), np.int8)).env_ids) == [0]


VANISH = """
import os, sys
import numpy as np
from jgym.vector import JgymVectorEnv
envs = JgymVectorEnv("Crematoria-v0", 2, address=sys.argv[1])
assert envs.local_sessions == [True]
obs, _ = envs.reset(seed=1)
envs.step(np.zeros((2, 80), np.int8))
print(envs._sessions[0].id, flush=True)
os._exit(0)  # no close, no bye: the client vanished
"""


def test_client_vanishes(address: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", VANISH, address],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=True,
    )
    sid = out.stdout.strip()
    assert sid.startswith("s-")
    from jgym.v1 import jgym_pb2 as pb

    with Client(address) as client:
        deadline = time.monotonic() + 10
        while True:
            try:
                req = pb.CloseSessionRequest(session_id=sid)
                client.call("close", client.stub.CloseSession, req)
            except NotFoundError:
                break  # the server closed it when the channel hung up
            assert time.monotonic() < deadline, "the vanished client's session is still open"
            time.sleep(0.1)


def test_server_leaves_nothing_behind() -> None:
    """The package's server names its socket in the abstract namespace: no file."""
    server = LocalServer()
    sock = server.local_socket
    assert sock is not None and sock.startswith("@jgym-")
    envs = JgymVectorEnv("Crematoria-v0", 2, address=server.address)
    try:
        assert envs.local_sessions == [True]
        envs.reset(seed=1)
        os.kill(server.pid, 9)  # a crash: nothing to clean up
        server._proc.wait(10)
    finally:
        envs.close()
        server.close()
    with pytest.raises(ConnectionRefusedError), socket.socket(socket.AF_UNIX) as s:
        s.connect("\0" + sock[1:])


@pytest.fixture
def killed_server() -> Iterator[LocalServer]:
    server = LocalServer()
    yield server
    server.close()


def test_server_dies(killed_server: LocalServer) -> None:
    """A server that dies mid-game: the next step raises, nothing hangs."""
    envs = JgymVectorEnv("Crematoria-v0", 2, address=killed_server.address)
    try:
        envs.reset(seed=1)
        os.kill(killed_server.pid, 9)
        killed_server._proc.wait(10)
        with pytest.raises(jgym.errors.JgymError):
            envs.step(np.zeros((2, 80), np.int8))
    finally:
        envs.close()


def test_single_env_both_ways(address: str, short_config: str) -> None:
    """JgymEnv: the same games over the channel and over gRPC, saved states beside."""
    runs = []
    for local in (True, False):
        env = jgym.JgymEnv(address=address, config=short_config, local=local)
        try:
            assert (env._link.channel is not None) == local
            rng = np.random.default_rng(2)
            out: list[Any] = [env.reset(seed=8)]
            saved = None
            for step in range(7):
                obs = out[-1][0]
                out.append(env.step(jgym.sample_masked(obs["action_mask"], rng)))
                if out[-1][2]:
                    out.append(env.reset())
                if step == 1:
                    saved = env.get_state()
            assert saved is not None
            out.append(env.set_state(saved))
            out.append(env.step(jgym.sample_masked(out[-1][0]["action_mask"], rng)))
            runs.append(out)
        finally:
            env.close()
    assert_same(runs[0], runs[1])


def test_header_in_pieces_and_hang_up() -> None:
    """The client's header read joins pieces and reports a server that hung up."""
    ours, theirs = socket.socketpair()
    ch = LocalChannel.__new__(LocalChannel)  # only what reading a header needs
    ch._sock, ch.closed, ch._queue = ours, False, collections.deque()
    ch.session = types.SimpleNamespace(id="s")
    ch._in, ch._out = mmap.mmap(-1, 1), mmap.mmap(-1, 1)
    header = bytes(range(1, 17))

    def pieces() -> None:
        for lo, hi in ((0, 3), (3, 11), (11, 16)):
            theirs.sendall(header[lo:hi])
            time.sleep(0.02)
        theirs.close()

    sender = threading.Thread(target=pieces)
    sender.start()
    try:
        assert bytes(ch._read(bytearray(16))) == header
        with pytest.raises(jgym.errors.ServerUnavailableError, match="closed the local channel"):
            ch._read(bytearray(16))
        assert ch.closed
    finally:
        sender.join()
        ours.close()
