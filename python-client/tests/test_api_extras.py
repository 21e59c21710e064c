"""The rest of the API the ecosystem expects: VectorEnv call/get_attr/set_attr, flat
observations, action_masks(), PettingZoo state()/state_space, the version handshake."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent import futures
from pathlib import Path

import grpc
import gymnasium
import numpy as np
import pytest

import jgym
from jgym.errors import InvalidArgumentError, VersionMismatchError
from jgym.tensors import flat_space
from jgym.v1 import jgym_pb2 as pb
from jgym.v1 import jgym_pb2_grpc as pb_grpc
from jgym.version import OBSERVATION_VERSIONS, PROTOCOL_VERSION, VERSION

ROOT = Path(__file__).resolve().parents[2]


def test_vector_get_set_call(address: str) -> None:
    envs = jgym.make_vec("Moria-v0", num_envs=2, learners=2, address=address)
    try:
        envs.reset(seed=1)
        assert envs.get_attr("seat") == (0, 1, 0, 1)
        assert envs.get_attr("server_address") == (address,) * 4
        assert envs.get_attr("action_space") == (envs.single_action_space,) * 4
        assert envs.get_attr("game_id") == ("Moria-v0",) * 4
        envs.set_attr("temperature", [0.1, 0.2, 0.3, 0.4])
        assert envs.get_attr("temperature") == (0.1, 0.2, 0.3, 0.4)
        envs.set_attr("note", "x")
        assert envs.get_attr("note") == ("x",) * 4
        envs.set_attr("render_mode", "ansi")
        assert envs.call("render")[3].startswith("Moria")
        masks = envs.call("action_masks")
        assert len(masks) == 4 and masks[0].shape == (100 * 9,) and masks[0].dtype == bool
        assert envs.call("round") == (0, 0, 0, 0)
        with pytest.raises(AttributeError):
            envs.get_attr("nothing_here")
        with pytest.raises(InvalidArgumentError, match="want 4"):
            envs.set_attr("temperature", [1, 2])
        with pytest.raises(InvalidArgumentError, match="the games decide"):
            envs.set_attr("seat", [1, 1, 1, 1])
        with pytest.raises(InvalidArgumentError, match="whole batch"):
            envs.call("reset")
    finally:
        envs.close()


@pytest.mark.parametrize("game", jgym.GAMES)
def test_flat_observation(game: str, address: str) -> None:
    env = jgym.JgymEnv(game, address=address, flatten_observation=True)
    envs = jgym.make_vec(game, num_envs=2, address=address, flatten_observation=True)
    dict_env = jgym.JgymEnv(game, address=address)
    try:
        flat, _ = env.reset(seed=4)
        d, _ = dict_env.reset(seed=4)
        assert isinstance(env.observation_space, gymnasium.spaces.Box)
        assert env.observation_space.contains(flat)
        np.testing.assert_array_equal(flat, gymnasium.spaces.flatten(dict_env.observation_space, d))
        mask = d["action_mask"].reshape(-1)
        np.testing.assert_array_equal(flat[: mask.size], mask)  # the mask comes first
        np.testing.assert_array_equal(env.action_masks(), mask.astype(bool))
        vobs, _ = envs.reset(seed=4)
        assert vobs.shape == (2, flat.size) and vobs.dtype == np.float32
        np.testing.assert_array_equal(vobs[0], flat)
        assert envs.observation_space.shape == (2, flat.size)
    finally:
        env.close()
        envs.close()
        dict_env.close()


@pytest.mark.parametrize("game", jgym.GAMES)
def test_parallel_state(game: str, address: str) -> None:
    from pettingzoo.test.state_test import state_test
    from pettingzoo.utils.conversions import parallel_to_aec

    env = jgym.parallel_env(game, address=address)
    aec = parallel_to_aec(jgym.parallel_env(game, address=address))
    try:
        with pytest.raises(jgym.SessionError):
            env.state()
        env.reset(seed=3)
        s = env.state()
        assert env.state_space.contains(s)
        # the seat is last, one-hot; the rest is player_0's observation without masks
        np.testing.assert_array_equal(s[-4:], [1, 0, 0, 0])
        state_test(aec, env, num_cycles=3)
    finally:
        env.close()
        aec.close()


def test_flat_space_matches_gymnasium(address: str) -> None:
    env = jgym.JgymEnv("Dominator-v0", address=address)
    try:
        ours = flat_space(env.dict_observation_space)
        theirs = gymnasium.spaces.flatten_space(env.dict_observation_space)
        assert ours.shape == theirs.shape
    finally:
        env.close()


# --- the version handshake ---------------------------------------------------------------


def test_server_version(address: str) -> None:
    with jgym.Client(address) as client:
        v = client.version
        assert v is not None and v.server == VERSION == jgym.__version__
        assert v.protocol == PROTOCOL_VERSION
        assert v.observations == OBSERVATION_VERSIONS


def test_package_and_binary_versions_agree() -> None:
    main_go = (ROOT / "cmd" / "jgym" / "main.go").read_text()
    assert f'const version = "{VERSION}"' in main_go
    pyproject = (ROOT / "python-client" / "pyproject.toml").read_text()
    assert f'version = "{VERSION}"' in pyproject


class FakeServer(pb_grpc.JgymServiceServicer):  # type: ignore[misc]
    """A server of another release: another protocol, or none (before GetVersion)."""

    def __init__(self, protocol: int | None, observation: str = "moria-obs-1") -> None:
        self.protocol = protocol
        self.observation = observation

    def GetVersion(  # noqa: N802
        self, request: pb.GetVersionRequest, context: grpc.ServicerContext
    ) -> pb.GetVersionResponse:
        if self.protocol is None:
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "method GetVersion not implemented")
        return pb.GetVersionResponse(
            server_version="9.0.0",
            protocol_version=self.protocol,
            observation_versions={"Moria-v0": self.observation},
        )

    def CreateSession(  # noqa: N802
        self, request: pb.CreateSessionRequest, context: grpc.ServicerContext
    ) -> pb.CreateSessionResponse:
        return pb.CreateSessionResponse(
            session_id="s-1",
            game=pb.GameSpec(id="Moria-v0", observation_version=self.observation),
        )

    def CloseSession(  # noqa: N802
        self, request: pb.CloseSessionRequest, context: grpc.ServicerContext
    ) -> pb.CloseSessionResponse:
        return pb.CloseSessionResponse()


@pytest.fixture
def fake() -> Iterator[tuple[FakeServer, str]]:
    servicer = FakeServer(PROTOCOL_VERSION)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    pb_grpc.add_JgymServiceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield servicer, f"127.0.0.1:{port}"
    server.stop(0)


def test_old_server_without_get_version(fake: tuple[FakeServer, str]) -> None:
    servicer, addr = fake
    servicer.protocol = None
    with pytest.raises(VersionMismatchError, match="predates the version handshake"):
        jgym.Client(addr, connect_timeout=5)
    jgym.Client(addr, connect_timeout=5, check_version=False).close()  # the escape hatch


def test_other_protocol(fake: tuple[FakeServer, str]) -> None:
    servicer, addr = fake
    servicer.protocol = PROTOCOL_VERSION + 1
    with pytest.raises(VersionMismatchError, match=r"speaks protocol 2.*install jgym==9.0.0"):
        jgym.make_vec("Moria-v0", address=addr, connect_timeout=5)


def test_other_observation_layout(fake: tuple[FakeServer, str]) -> None:
    servicer, addr = fake
    servicer.observation = "moria-obs-99"
    with pytest.raises(VersionMismatchError, match="observation layout moria-obs-99"):
        jgym.JgymEnv("Moria-v0", address=addr, connect_timeout=5)
