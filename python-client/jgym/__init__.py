"""Reinforcement-learning environments for the EDA course games, served by jgym.

jgym runs the course's four-player grid games (Crematoria, Dominator,
Pandemic, Moria) in a Go server and serves them over gRPC; the wheel
carries the server. This package speaks Gymnasium and
PettingZoo on top of it:

- ``gymnasium.make("jgym/Crematoria-v0")``: one learner seat against bots
  (:class:`~jgym.env.JgymEnv`);
- :func:`make_vec`: many games as one :class:`gymnasium.vector.VectorEnv`
  (:class:`~jgym.vector.JgymVectorEnv`), on one server or spread over several;
- :func:`parallel_env`: four learner seats as a :class:`pettingzoo.ParallelEnv`
  (:class:`~jgym.parallel.JgymParallelEnv`), for self-play;
- :func:`evaluate`: win rate, score and rank of a policy or a bot.

Without an address, a local ``jgym serve`` is started and stopped for you
(see :mod:`jgym.server`). Errors are :class:`jgym.errors.JgymError`.
The full guide is docs/python.md.

Example:
    >>> import gymnasium, jgym
    >>> "jgym/Crematoria-v0" in gymnasium.registry
    True
    >>> envs = jgym.make_vec("Crematoria-v0", num_envs=8)  # doctest: +SKIP
"""

from __future__ import annotations

import os

# gRPC in a forked child (Gymnasium's AsyncVectorEnv, SuperSuit and Ray
# workers fork a parent that holds channels) hangs unless gRPC prepares for
# forks; it reads this when it is first imported (docs/python.md).
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "1")

import gymnasium

from jgym import errors, spec
from jgym.client import TLS, Client, Session
from jgym.env import JgymEnv
from jgym.errors import (
    AuthenticationError,
    BinaryNotFoundError,
    InvalidActionError,
    InvalidArgumentError,
    JgymError,
    NotFoundError,
    PermissionDeniedError,
    ResourceExhaustedError,
    ServerError,
    ServerStartError,
    ServerUnavailableError,
    SessionError,
    UnsupportedError,
    VersionMismatchError,
)
from jgym.evaluate import EvalResult, evaluate
from jgym.parallel import JgymParallelEnv, parallel_env
from jgym.server import LocalServer, find_binary
from jgym.tensors import MaskedMultiDiscrete, sample_masked
from jgym.vector import JgymVectorEnv, make_vec
from jgym.version import VERSION

__version__ = VERSION

from jgym._games import GAMES  # generated from the Go definitions (make generate)

__all__ = [
    "GAMES",
    "TLS",
    "AuthenticationError",
    "BinaryNotFoundError",
    "Client",
    "EvalResult",
    "InvalidActionError",
    "InvalidArgumentError",
    "JgymEnv",
    "JgymError",
    "JgymParallelEnv",
    "JgymVectorEnv",
    "LocalServer",
    "MaskedMultiDiscrete",
    "NotFoundError",
    "PermissionDeniedError",
    "ResourceExhaustedError",
    "ServerError",
    "ServerStartError",
    "ServerUnavailableError",
    "Session",
    "SessionError",
    "UnsupportedError",
    "VersionMismatchError",
    "errors",
    "evaluate",
    "find_binary",
    "make_vec",
    "parallel_env",
    "sample_masked",
    "spec",
]


def _register() -> None:
    for game in GAMES:
        env_id = f"jgym/{game}"
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point="jgym.env:JgymEnv",
            vector_entry_point="jgym.vector:JgymVectorEnv",
            kwargs={"game": game},
        )


_register()
