"""What this package speaks, and the check that a server speaks the same.

:class:`jgym.Client` asks every server for its versions (the ``GetVersion``
call) when it connects, and raises :class:`~jgym.errors.VersionMismatchError`
when the server speaks another protocol; a session whose game has another
observation layout than this package knows is refused the same way.

Example:
    >>> v = ServerVersion("0.2.0", PROTOCOL_VERSION, {"Moria-v0": "moria-obs-1"})
    >>> check(v, "127.0.0.1:50051")
    >>> check(ServerVersion("0.1.9", 0, {}), "host:1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    jgym.errors.VersionMismatchError: the server at host:1 (jgym 0.1.9) speaks protocol 0, ...
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jgym import _games
from jgym.errors import VersionMismatchError

__all__ = [
    "OBSERVATION_VERSIONS",
    "PROTOCOL_VERSION",
    "VERSION",
    "ServerVersion",
    "check",
    "check_observation",
]

#: This package's release; the wheel of this release carries the server of
#: the same release (``jgym --version``).
VERSION = "0.2.0"

#: The version of the jgym.v1 protocol this package speaks
#: (``server.ProtocolVersion`` in Go).
PROTOCOL_VERSION = 1

#: The observation layout of each game this package knows (its renderer,
#: docs/observation.md), generated from the Go definitions (make generate).
#: A server's game of another layout is refused; a game this package does
#: not know is served as the server describes it.
OBSERVATION_VERSIONS = _games.OBSERVATION_VERSIONS


@dataclass(frozen=True)
class ServerVersion:
    """A server's answer to ``GetVersion``.

    Attributes:
        server: Its release, e.g. ``"0.2.0"``.
        protocol: The protocol version it speaks.
        observations: The observation layout of each hosted game, by id.
    """

    server: str
    protocol: int
    observations: dict[str, str] = field(default_factory=dict)


def _advice(server: str) -> str:
    return f"install jgym=={server} (pip install 'jgym=={server}') or run a jgym {VERSION} server"


def check(v: ServerVersion, address: str) -> None:
    """Raises :class:`VersionMismatchError` if the server speaks another protocol."""
    if v.protocol != PROTOCOL_VERSION:
        raise VersionMismatchError(
            f"the server at {address} (jgym {v.server}) speaks protocol {v.protocol}, "
            f"this jgym {VERSION} speaks protocol {PROTOCOL_VERSION}: {_advice(v.server)}"
        )


def check_observation(game: str, observation_version: str, server: str, address: str) -> None:
    """Raises :class:`VersionMismatchError` for a game layout this package reads otherwise.

    Example:
        >>> check_observation("Moria-v0", "moria-obs-99", "0.3.0", "h:1")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        jgym.errors.VersionMismatchError: Moria-v0 at h:1 (jgym 0.3.0) has observation layout ...
    """
    known = OBSERVATION_VERSIONS.get(game)
    if known is not None and observation_version != known:
        raise VersionMismatchError(
            f"{game} at {address} (jgym {server}) has observation layout "
            f"{observation_version}, this jgym {VERSION} knows {known}: {_advice(server)}"
        )
