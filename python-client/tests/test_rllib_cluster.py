"""What the cluster recipe relies on without a cluster: every server gets
games, and the credentials travel as text in the env config.

docs/operations.md's "Training on a Ray cluster" block runs the whole
recipe (two Ray nodes, three servers with TLS and a token) in the docs
harness; these tests pin the two pieces it depends on, without a cluster.
"""

from __future__ import annotations

import pickle
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("ray")
from testhelpers import load_example

from jgym import rllib
from jgym.server import find_binary


class Ctx(dict):  # type: ignore[type-arg]
    """The part of RLlib's EnvContext the env creator reads."""

    def __init__(self, worker_index: int, vector_index: int = 0) -> None:
        super().__init__()
        self.worker_index, self.vector_index = worker_index, vector_index


@pytest.mark.parametrize(
    ("runners", "per_runner", "servers"), [(2, 2, 3), (2, 1, 2), (3, 1, 3), (4, 2, 3)]
)
def test_every_server_gets_games(runners: int, per_runner: int, servers: int) -> None:
    rllib._made.clear()
    # As RLlib's new API stack makes them: runners numbered from 1, every
    # env of a runner with the same context (vector_index 0).
    ranks = [
        rllib.slot(Ctx(w), per_runner) for w in range(1, runners + 1) for _ in range(per_runner)
    ]
    assert sorted(ranks) == list(range(runners * per_runner))
    assert {r % servers for r in ranks} == set(range(servers))


def test_rllib_ppo_sends_the_credentials_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    subprocess.run(
        [str(find_binary()), "certs", "--out", str(tmp_path)], check=True, capture_output=True
    )
    ex = load_example("rllib_ppo")
    monkeypatch.delenv("JGYM_TOKEN", raising=False)
    monkeypatch.delenv("JGYM_TLS_CA", raising=False)
    args = ex.Args(token="secret-0123456789", tls_ca=str(tmp_path / "ca.pem"))
    creds = ex.credentials(args)
    assert creds["token"] == "secret-0123456789"
    assert creds["tls"].root_ca == (tmp_path / "ca.pem").read_bytes()  # the text, not the path
    (tmp_path / "ca.pem").unlink()  # an env runner elsewhere has no such file
    assert pickle.loads(pickle.dumps(creds))["tls"].credentials() is not None
    # The driver's shell is the default, as in multi_server.py.
    monkeypatch.setenv("JGYM_TOKEN", "from-the-shell-0123")
    assert ex.credentials(ex.Args())["token"] == "from-the-shell-0123"
