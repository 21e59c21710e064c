"""Why a server did not answer: TLS on one side only, or nothing listening.

When the gRPC health check of :class:`jgym.Client` fails, gRPC says only
"Deadline Exceeded", whatever the cause. :func:`explain_unreachable` opens
one TCP connection of its own and tries a TLS handshake on it, to tell
apart the cases a user can fix: a server that requires TLS met by a
plain-text client, a plain-text server met by a TLS client, a certificate
the CA given does not vouch for, and an address where nothing listens.
Authentication is checked later, by the first call (:func:`explain_auth`).
"""

from __future__ import annotations

import socket
import ssl

from jgym.errors import (
    AuthenticationError,
    ServerUnavailableError,
    TLSError,
)

_TLS_HINT = "pass tls= the CA's PEM file (or True for the system's roots), or set $JGYM_TLS_CA"


def _split(address: str) -> tuple[str, int] | None:
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        return None
    return host.strip("[]") or "127.0.0.1", int(port)


def _handshake(
    hp: tuple[str, int], ctx: ssl.SSLContext, timeout: float, name: str | None = None
) -> str:
    """Tries a TLS handshake: "ok", "not-tls", "unverified", "refused" or "silent"."""
    try:
        sock = socket.create_connection(hp, timeout=timeout)
    except ConnectionRefusedError:
        return "refused"
    except OSError:
        return "silent"
    verdict = "ok"
    try:
        with ctx.wrap_socket(sock, server_hostname=name or hp[0]):
            pass
    except ssl.SSLCertVerificationError:
        verdict = "unverified"
    except (ssl.SSLError, ConnectionResetError, BrokenPipeError, EOFError):
        # A plain-text HTTP/2 server answers a ClientHello with bytes that
        # are no TLS record (OpenSSL: WRONG_VERSION_NUMBER), or hangs up.
        verdict = "not-tls"
    except OSError:
        verdict = "silent"
    finally:
        sock.close()
    return verdict


def _context(verify_ca: bytes | None, verify: bool) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.set_alpn_protocols(["h2"])
    if verify:
        if verify_ca:
            ctx.load_verify_locations(cadata=verify_ca.decode(errors="replace"))
        else:
            ctx.load_default_certs()
    else:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


def explain_unreachable(
    address: str,
    *,
    uses_tls: bool,
    root_ca: bytes | None,
    server_name: str | None,
    detail: str,
    timeout: float = 2.0,
) -> ServerUnavailableError:
    """The error to raise when the health check at ``address`` failed.

    Args:
        address: ``host:port`` of the server.
        uses_tls: Whether the client's channel is a TLS one.
        root_ca: The PEM of the CA the client trusts (``None``: the system's).
        server_name: The name checked in the certificate, if not the host.
        detail: What gRPC said.
        timeout: Seconds for the probe's connection and handshake.

    Returns:
        A :class:`TLSError` (a :class:`ServerUnavailableError`) when TLS is
        on one side only or the certificate is not trusted, else a
        :class:`ServerUnavailableError` that says whether anything listens.
    """
    hp = _split(address)
    verdict = _handshake(hp, _context(None, False), timeout) if hp is not None else "silent"
    if verdict == "refused":
        return ServerUnavailableError(
            f"no jgym server answers at {address}: the connection was refused "
            "(nothing listens on that port)"
        )
    if verdict == "silent" or hp is None:
        return ServerUnavailableError(f"no jgym server answers at {address}: {detail}")
    if verdict == "ok" and not uses_tls:
        return TLSError(
            f"this server requires TLS: the server at {address} speaks TLS and this "
            f"client connected in plain text; {_TLS_HINT}"
        )
    if verdict == "not-tls" and uses_tls:
        return TLSError(
            f"this server does not use TLS: the server at {address} answered the TLS "
            "handshake in plain text; connect with tls=False (and unset $JGYM_TLS_CA)"
        )
    if verdict == "ok":
        return _after_handshake(
            address, hp, root_ca=root_ca, server_name=server_name, detail=detail, timeout=timeout
        )
    return ServerUnavailableError(
        f"no jgym server answers at {address}: something listens but did not answer "
        f"the gRPC health check in time ({detail})"
    )


def _after_handshake(
    address: str,
    hp: tuple[str, int],
    *,
    root_ca: bytes | None,
    server_name: str | None,
    detail: str,
    timeout: float,
) -> TLSError:
    """A TLS client met a TLS server and still failed: whose certificate?"""
    name = server_name or hp[0]
    if _handshake(hp, _context(root_ca, True), timeout, name) == "unverified":
        which = "the CA given" if root_ca else "the system's roots"
        return TLSError(
            f"the server's certificate at {address} is not signed by {which} "
            f"(or is not for {name!r}): give the CA that signed it (jgym certs "
            "writes ca.pem), or server_name= the name in the certificate"
        )
    return TLSError(
        f"the TLS connection to {address} failed after the handshake: if the "
        "server asks for client certificates (--tls-client-ca), pass "
        f"tls=jgym.TLS(root_ca=..., client_cert=..., client_key=...); gRPC said: {detail}"
    )


def explain_auth(err: AuthenticationError, address: str, sent_token: bool) -> AuthenticationError:
    """Rewords an UNAUTHENTICATED answer: a token is missing, or it was refused."""
    if not sent_token:
        msg = (
            f"this server requires a token: the server at {address} refused a call "
            f"without one; pass token= or set $JGYM_TOKEN ({err.details})"
        )
    else:
        msg = f"the token was refused by the server at {address} ({err.details})"
    return AuthenticationError(msg, err.code)
