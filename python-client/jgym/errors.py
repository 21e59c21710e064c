"""Exceptions raised by jgym.

Every error the package raises is a :class:`JgymError`. Errors that come
from the server carry its gRPC status code and message; they are mapped from
:class:`grpc.RpcError` in exactly one place, :func:`from_rpc_error`.

Example:
    >>> import grpc
    >>> err = InvalidArgumentError("seats: unknown bot 'Nobody'", grpc.StatusCode.INVALID_ARGUMENT)
    >>> isinstance(err, JgymError), isinstance(err, ValueError)
    (True, True)
    >>> str(err)
    "seats: unknown bot 'Nobody'"
"""

from __future__ import annotations

import grpc

__all__ = [
    "AuthenticationError",
    "BinaryNotFoundError",
    "InvalidActionError",
    "InvalidArgumentError",
    "JgymError",
    "NotFoundError",
    "PermissionDeniedError",
    "ResourceExhaustedError",
    "ServerError",
    "ServerStartError",
    "ServerUnavailableError",
    "SessionError",
    "TLSError",
    "UnsupportedError",
    "VersionMismatchError",
    "from_rpc_error",
]


class JgymError(Exception):
    """Base class of every jgym error.

    Attributes:
        code: The gRPC status code for errors that came from a server, else
            ``None``.
        details: The server's message (or the local message).
    """

    def __init__(self, details: str, code: grpc.StatusCode | None = None) -> None:
        super().__init__(details)
        self.details = details
        self.code = code


class InvalidArgumentError(JgymError, ValueError):
    """The request was malformed: unknown bot, bad configuration, wrong shape."""


class InvalidActionError(InvalidArgumentError):
    """An action (or action order) the game cannot take, refused before it is sent.

    Raised the same way by the single, vector and PettingZoo environments:
    a wrong shape, a dtype that is not an integer (floats, NaN, bools), or a
    value outside the game's directions ``0..num_actions-1`` (checked on the
    value given, before any conversion, so 258 is not played as 2). The
    message names the first bad value and its index.
    """


class VersionMismatchError(JgymError):
    """The server speaks another protocol or observation layout than this package.

    Raised when connecting to a server (:meth:`jgym.Client.server_version`):
    typically a new wheel against an old remote server, or the reverse. The
    message gives both sides' versions; install the matching ``jgym`` wheel
    or run the matching server.
    """


class NotFoundError(JgymError, LookupError):
    """The server does not know the game or session named in the request."""


class SessionError(JgymError):
    """The session cannot serve the request (closed, expired, busy, or not reset)."""


class ResourceExhaustedError(JgymError):
    """The server refused the request for lack of capacity (too many envs, sessions)."""


class AuthenticationError(JgymError, PermissionError):
    """The server wants a token (``token=`` or ``$JGYM_TOKEN``) and got none or a wrong one."""


class PermissionDeniedError(JgymError, PermissionError):
    """The server's configuration does not allow the request (uploads, trace_env0)."""


class UnsupportedError(JgymError, NotImplementedError):
    """The server does not offer what the request asks for (gRPC UNIMPLEMENTED)."""


class ServerError(JgymError):
    """The server failed while serving the request (an internal error)."""


class ServerUnavailableError(JgymError, ConnectionError):
    """No server answers at the address, or it went away (crashed, stopped)."""


class TLSError(ServerUnavailableError):
    """TLS is on one side only, or the server's certificate is not trusted.

    Raised when connecting: "this server requires TLS" (a plain-text client,
    a server started with ``--tls-cert``), "this server does not use TLS"
    (``tls=`` or ``$JGYM_TLS_CA`` against a plain-text server), or a
    certificate the CA given does not vouch for. A :class:`ServerUnavailableError`,
    so code that caught that still catches this.
    """


class ServerStartError(JgymError, RuntimeError):
    """A local ``jgym serve`` could not be started."""


class BinaryNotFoundError(ServerStartError, FileNotFoundError):
    """No ``jgym`` binary was found and none could be built."""


_BY_CODE: dict[grpc.StatusCode, type[JgymError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgumentError,
    grpc.StatusCode.OUT_OF_RANGE: InvalidArgumentError,
    grpc.StatusCode.NOT_FOUND: NotFoundError,
    grpc.StatusCode.FAILED_PRECONDITION: SessionError,
    grpc.StatusCode.ABORTED: SessionError,
    grpc.StatusCode.ALREADY_EXISTS: SessionError,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhaustedError,
    grpc.StatusCode.UNIMPLEMENTED: UnsupportedError,
    grpc.StatusCode.UNAUTHENTICATED: AuthenticationError,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDeniedError,
    grpc.StatusCode.UNAVAILABLE: ServerUnavailableError,
    grpc.StatusCode.DEADLINE_EXCEEDED: ServerUnavailableError,
    grpc.StatusCode.CANCELLED: ServerUnavailableError,
}


def from_rpc_error(err: grpc.RpcError, context: str = "") -> JgymError:
    """Turns a gRPC error into the matching :class:`JgymError`.

    Args:
        err: The error raised by a gRPC call.
        context: A short prefix saying what was attempted, e.g. ``"step"``.

    Returns:
        An exception whose message is the server's, prefixed by ``context``,
        and whose ``code`` is the gRPC status code.

    Example:
        >>> class Fake(grpc.RpcError):
        ...     def code(self): return grpc.StatusCode.NOT_FOUND
        ...     def details(self): return 'unknown session "s1"'
        >>> e = from_rpc_error(Fake(), "step")
        >>> type(e).__name__, str(e)
        ('NotFoundError', 'step: unknown session "s1"')
    """
    code_fn = getattr(err, "code", None)
    details_fn = getattr(err, "details", None)
    code = code_fn() if callable(code_fn) else None
    details = details_fn() if callable(details_fn) else None
    message = details or str(err) or "unknown gRPC error"
    if context:
        message = f"{context}: {message}"
    cls = _BY_CODE.get(code, ServerError) if code is not None else ServerError
    return cls(message, code)
