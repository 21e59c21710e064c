"""Tokens, TLS and uploaded bots (docs/security.md), from the client's side."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import jgym
from jgym.server import LocalServer, find_binary

REPO = Path(__file__).resolve().parents[2]
MODEL = REPO / "python-client" / "examples" / "models" / "crematoria_ppo.onnx"
DEMO_CC = REPO / "kit" / "crematoria" / "AIDemo.cc"


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LocalServer, str, Path]]:
    """A server that takes a token and TLS: (server, secret, ca.pem)."""
    d = tmp_path_factory.mktemp("secured")
    binary = str(find_binary())
    subprocess.run([binary, "certs", "--out", str(d / "certs")], check=True, capture_output=True)
    line = subprocess.run([binary, "token", "tester"], check=True, capture_output=True, text=True)
    tokens = d / "tokens"
    tokens.write_text(line.stdout)
    tokens.chmod(0o600)
    args = [
        "--tokens",
        str(tokens),
        "--tls-cert",
        str(d / "certs" / "server.pem"),
        "--tls-key",
        str(d / "certs" / "server-key.pem"),
    ]
    with LocalServer(args=args, tls_ca=d / "certs" / "ca.pem") as s:
        yield s, line.stdout.split()[1], d / "certs" / "ca.pem"


def _play(env: jgym.JgymVectorEnv) -> None:
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(3):
        obs, *_ = env.step(jgym.sample_masked(obs["action_mask"], rng))


def test_token_and_tls(secured: tuple[LocalServer, str, Path]) -> None:
    server, secret, ca = secured
    env = jgym.make_vec(num_envs=2, address=server.address, token=secret, tls=str(ca))
    try:
        _play(env)
    finally:
        env.close()
    with pytest.raises(jgym.AuthenticationError, match="token"):
        jgym.make_vec(num_envs=1, address=server.address, tls=str(ca))
    with pytest.raises(jgym.AuthenticationError):
        jgym.make_vec(num_envs=1, address=server.address, token="not-the-token-0000", tls=str(ca))


def test_token_and_ca_from_the_environment(
    secured: tuple[LocalServer, str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, secret, ca = secured
    monkeypatch.setenv("JGYM_TOKEN", secret)
    monkeypatch.setenv("JGYM_TLS_CA", str(ca))
    env = jgym.JgymEnv(address=server.address)
    try:
        env.reset(seed=1)
    finally:
        env.close()


def test_plain_text_client_is_told_tls_is_required(secured: tuple[LocalServer, str, Path]) -> None:
    server, secret, _ = secured
    with pytest.raises(jgym.TLSError, match="this server requires TLS") as e:
        jgym.Client(server.address, token=secret, tls=False, connect_timeout=2)
    assert "no jgym server answers" not in str(e.value)
    assert isinstance(e.value, jgym.ServerUnavailableError)  # what older code caught


def test_tls_client_is_told_the_server_is_plain_text(address: str, tmp_path: Path) -> None:
    binary = str(find_binary())
    subprocess.run([binary, "certs", "--out", str(tmp_path)], check=True, capture_output=True)
    with pytest.raises(jgym.TLSError, match="this server does not use TLS"):
        jgym.Client(address, tls=str(tmp_path / "ca.pem"), connect_timeout=2)


def test_untrusted_certificate_is_named(
    secured: tuple[LocalServer, str, Path], tmp_path: Path
) -> None:
    server, secret, _ = secured
    binary = str(find_binary())
    subprocess.run([binary, "certs", "--out", str(tmp_path)], check=True, capture_output=True)
    other_ca = tmp_path / "ca.pem"  # a CA that did not sign the server's certificate
    with pytest.raises(jgym.TLSError, match="not signed by the CA given"):
        jgym.Client(server.address, token=secret, tls=str(other_ca), connect_timeout=2)


@pytest.mark.parametrize(
    ("token", "message"),
    [(None, "this server requires a token"), ("not-the-token-0000", "the token was refused")],
)
def test_token_errors_say_what_is_wrong(
    secured: tuple[LocalServer, str, Path],
    monkeypatch: pytest.MonkeyPatch,
    token: str | None,
    message: str,
) -> None:
    server, _, ca = secured
    monkeypatch.delenv("JGYM_TOKEN", raising=False)
    for check_version in (True, False):  # the version handshake, or the first call
        with pytest.raises(jgym.AuthenticationError, match=message):
            c = jgym.Client(server.address, token=token, tls=str(ca), check_version=check_version)
            try:
                c.list_games()
            finally:
                c.close()


def test_nothing_listening_is_not_blamed_on_tls() -> None:
    import socket

    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(jgym.ServerUnavailableError, match="connection was refused") as e:
        jgym.Client(f"127.0.0.1:{port}", tls=False, connect_timeout=1)
    assert not isinstance(e.value, jgym.TLSError)


def test_policy_file_is_uploaded(address: str) -> None:
    """A policy of this machine is seated by upload; the same call works remotely."""
    env = jgym.make_vec(num_envs=2, address=address, opponents=(f"policy:{MODEL}", "Demo", "Demo"))
    try:
        _play(env)
        seat = env.seats[1]
        assert seat == f"policy:{MODEL}"
    finally:
        env.close()
    with jgym.Client(address) as c:
        ref = c.upload_bot(MODEL, "policy")
        assert ref.startswith("policy:@") and ref.endswith("/crematoria_ppo.onnx")
        assert c.upload_bot(MODEL, "policy") == ref  # once per file version
        assert c.resolve_seat(f"policy:{MODEL}") == ref
        assert c.resolve_seat("Demo") == "Demo"
        assert c.resolve_seat("cpp:AIOffered.cc") == "cpp:AIOffered.cc"  # a server-side name


@pytest.mark.skipif(
    shutil.which("bwrap") is None and os.environ.get("JGYM_TEST_STRICT") != "1",
    reason="C++ bots need bubblewrap (apt-get install bubblewrap)",
)
def test_cpp_file_is_uploaded(address: str) -> None:
    env = jgym.make_vec(num_envs=1, address=address, opponents=(f"cpp:{DEMO_CC}", "Null", "Null"))
    try:
        _play(env)
    finally:
        env.close()


def test_bad_bot_files(address: str, tmp_path: Path) -> None:
    with pytest.raises(jgym.InvalidArgumentError, match="no file"):
        jgym.make_vec(
            num_envs=1, address=address, opponents=("policy:/no/such/x.onnx", "Demo", "Demo")
        )
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(jgym.InvalidArgumentError, match=r"junk\.onnx"):
        jgym.make_vec(num_envs=1, address=address, opponents=(f"policy:{junk}", "Demo", "Demo"))
    with pytest.raises(jgym.NotFoundError):
        # A name without a folder that is no file here is the server's to
        # find in its bots directories; this one has none.
        jgym.make_vec(
            num_envs=1, address=address, opponents=("policy:nowhere.onnx", "Demo", "Demo")
        )
