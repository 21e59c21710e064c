"""A thin client of the jgym.v1 gRPC service: servers, sessions, streams.

The environments of :mod:`jgym.env`, :mod:`jgym.vector` and
:mod:`jgym.parallel` are built on it; use it directly for what they do not
cover (listing bots, several sessions on one connection, async batches).

A :class:`Session` owns one bidirectional ``Stream``: each ``send_*`` call
queues one request without waiting, each :meth:`Session.recv` blocks for the
next response, in order. ``step`` and ``reset`` do both.

Example:
    >>> client = Client()  # doctest: +SKIP
    >>> session = client.create_session("Crematoria-v0", num_envs=2,
    ...                                 seats=["", "Demo", "Demo", "Demo"])  # doctest: +SKIP
    >>> result = session.reset(seed=1)  # doctest: +SKIP
    >>> list(result.env_ids)  # doctest: +SKIP
    [0, 1]
    >>> client.close()  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import queue
import re
import threading
import weakref
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import grpc
import numpy as np
from gymnasium.vector import AutoresetMode

from jgym._batch import check_actions, check_order, check_seed
from jgym._probe import explain_auth, explain_unreachable
from jgym.errors import (
    AuthenticationError,
    InvalidArgumentError,
    JgymError,
    ServerUnavailableError,
    SessionError,
    VersionMismatchError,
    from_rpc_error,
)
from jgym.server import ServerLease, health_check, shared_server
from jgym.tensors import from_numpy
from jgym.v1 import jgym_pb2 as pb
from jgym.v1 import jgym_pb2_grpc as pb_grpc
from jgym.version import ServerVersion, check, check_observation

__all__ = ["TLS", "Client", "Session", "autoreset_mode_value", "reward_mode_value"]

# Batches are large (64 envs of Crematoria are ~0.7 MB): no 4 MB ceiling.
_CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", -1),
    ("grpc.max_send_message_length", -1),
]

_REWARD_MODES = {
    "score_delta": pb.REWARD_MODE_SCORE_DELTA,
    "relative": pb.REWARD_MODE_RELATIVE,
    "rank": pb.REWARD_MODE_RANK,
}
_AUTORESET_MODES = {
    AutoresetMode.NEXT_STEP: pb.AUTORESET_MODE_NEXT_STEP,
    AutoresetMode.SAME_STEP: pb.AUTORESET_MODE_SAME_STEP,
    AutoresetMode.DISABLED: pb.AUTORESET_MODE_DISABLED,
}


def reward_mode_value(mode: str) -> pb.RewardMode:
    """Returns the wire value of a reward mode name.

    Args:
        mode: ``"score_delta"`` (the default), ``"relative"`` or ``"rank"``.

    Returns:
        The :class:`~jgym.v1.jgym_pb2.RewardMode` value.

    Raises:
        InvalidArgumentError: Unknown mode.

    Example:
        >>> reward_mode_value("rank") == pb.REWARD_MODE_RANK
        True
    """
    try:
        return _REWARD_MODES[mode]
    except KeyError:
        raise InvalidArgumentError(
            f"reward_mode {mode!r}: want one of {sorted(_REWARD_MODES)}"
        ) from None


def autoreset_mode_value(mode: AutoresetMode | str) -> pb.AutoresetMode:
    """Returns the wire value of a Gymnasium autoreset mode.

    Args:
        mode: An :class:`~gymnasium.vector.AutoresetMode` or its value
            (``"NextStep"``, ``"SameStep"``, ``"Disabled"``).

    Returns:
        The :class:`~jgym.v1.jgym_pb2.AutoresetMode` value.

    Raises:
        InvalidArgumentError: Unknown mode.

    Example:
        >>> autoreset_mode_value("SameStep") == pb.AUTORESET_MODE_SAME_STEP
        True
    """
    try:
        return _AUTORESET_MODES[AutoresetMode(mode)]
    except ValueError:
        want = [m.value for m in AutoresetMode]
        raise InvalidArgumentError(f"autoreset_mode {mode!r}: want one of {want}") from None


_END = object()


@dataclasses.dataclass(frozen=True)
class TLS:
    """How to reach a server over TLS (``jgym serve --tls-cert``).

    Each of ``root_ca``, ``client_cert`` and ``client_key`` is a file's
    path or the PEM text itself (``"-----BEGIN ..."``, str or bytes): the
    text travels where the file does not, e.g. in an RLlib env config to
    env runners on other machines (:mod:`jgym.rllib`).

    Attributes:
        root_ca: PEM of the CA that signed the server's certificate
            (``jgym certs`` writes ``ca.pem``); ``None`` trusts the system's
            roots.
        client_cert: PEM certificate of this client, for servers that ask
            for one (mutual TLS, ``--tls-client-ca``).
        client_key: The private key of ``client_cert``.
        server_name: The name to check in the server's certificate when it
            is not the host of the address.

    Example:
        >>> TLS(root_ca="certs/ca.pem").server_name is None
        True
    """

    root_ca: str | bytes | os.PathLike[str] | None = None
    client_cert: str | bytes | os.PathLike[str] | None = None
    client_key: str | bytes | os.PathLike[str] | None = None
    server_name: str | None = None

    def credentials(self) -> grpc.ChannelCredentials:
        """Returns the gRPC channel credentials (reads the files)."""
        if (self.client_cert is None) != (self.client_key is None):
            raise InvalidArgumentError("TLS: client_cert and client_key go together")
        return grpc.ssl_channel_credentials(
            root_certificates=pem_bytes(self.root_ca),
            private_key=pem_bytes(self.client_key),
            certificate_chain=pem_bytes(self.client_cert),
        )

    def portable(self) -> TLS:
        """The same settings with the files' PEM text in place of their paths.

        Example:
            >>> TLS(root_ca="-----BEGIN CERTIFICATE-----...").portable().root_ca[:10]
            b'-----BEGIN'
        """
        return TLS(
            root_ca=pem_bytes(self.root_ca),
            client_cert=pem_bytes(self.client_cert),
            client_key=pem_bytes(self.client_key),
            server_name=self.server_name,
        )


def pem_bytes(p: str | bytes | os.PathLike[str] | None) -> bytes | None:
    """PEM text as bytes: given as such, or read from the file ``p`` names."""
    if p is None or isinstance(p, bytes):
        return p
    if isinstance(p, str) and p.lstrip().startswith("-----BEGIN"):
        return p.encode()
    with open(p, "rb") as f:
        return f.read()


def _tls_of(tls: TLS | str | os.PathLike[str] | bool | None) -> TLS | None:
    """Normalises the ``tls`` argument; ``None`` reads ``$JGYM_TLS_CA``."""
    if tls is None:
        ca = os.environ.get("JGYM_TLS_CA")
        return TLS(root_ca=ca) if ca else None
    if tls is False:
        return None
    if tls is True:
        return TLS()
    if isinstance(tls, TLS):
        return tls
    return TLS(root_ca=tls)


# What a bot's file may be named on the server (server.ValidBotFile).
_BOT_FILE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$")
_UPLOAD_KINDS = {"policy": pb.BOT_KIND_POLICY, "cpp": pb.BOT_KIND_CPP}


def _upload_name(path: str) -> str:
    """The file name an upload is given: the base name, made acceptable."""
    base = os.path.basename(path)
    stem, ext = os.path.splitext(base)
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", stem).lstrip(".-") or "bot"
    return stem[: 64 - len(ext)] + ext


class _Stream:
    """One Stream RPC: a request queue feeding gRPC, responses read in order.

    A reader thread takes the responses from gRPC and queues them, so the
    caller's thread waits on a queue of ours and never inside gRPC: a
    KeyboardInterrupt that lands in gRPC's wait for the next message can
    leave a lock of the call taken, and the close that follows (or gRPC's
    own threads) then waits for it for ever (tests/test_cleanup.py,
    ``test_ctrl_c``, hung 2 times in 80 before this).
    """

    def __init__(
        self, stub: pb_grpc.JgymServiceStub, metadata: Sequence[tuple[str, str]] = ()
    ) -> None:
        self._requests: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._responses: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._call = stub.Stream(self._iter(), metadata=tuple(metadata) or None)
        threading.Thread(target=self._read, name="jgym-stream-reader", daemon=True).start()

    def _iter(self) -> Iterator[pb.StreamRequest]:
        while True:
            req = self._requests.get()
            if req is _END:
                return
            yield req

    def _read(self) -> None:
        """Queues each response, then _END when the stream ends or the error that ended it."""
        try:
            for resp in self._call:
                self._responses.put(resp)
        except BaseException as e:  # handed to the waiting thread
            self._responses.put(e)
        else:
            self._responses.put(_END)

    def send(self, req: pb.StreamRequest) -> None:
        self._requests.put(req)

    def recv(self) -> pb.StreamResponse:
        """The next response; raises what ended the stream (StopIteration at its end)."""
        item = self._responses.get()
        if item is _END:
            self._responses.put(_END)  # every later recv sees the end too
            raise StopIteration
        if isinstance(item, BaseException):
            self._responses.put(item)
            raise item
        resp: pb.StreamResponse = item
        return resp

    def close(self, timeout: float = 2.0) -> None:
        """Half-closes the stream and lets the server end it; cancels it after ``timeout``.

        With answers still unread the server cannot end the stream cleanly:
        pass ``timeout=0`` to cancel at once.
        """
        done = threading.Event()
        self._call.add_done_callback(lambda *_: done.set())
        self._requests.put(_END)
        if not done.wait(timeout):
            self._call.cancel()


class Session:
    """A server session: ``num_envs`` games stepped in batches.

    Made by :meth:`Client.create_session`. Arrays are ``[B, L, ...]``: B envs
    of the request, L learner seats.

    Attributes:
        id: The session id.
        game: The :class:`~jgym.v1.jgym_pb2.GameSpec` of the session's
            configuration.
        num_envs: Number of game instances.
        num_learners: Number of learner seats per game (L).
        batch_size: The server's effective async batch size.
    """

    def __init__(
        self,
        client: Client,
        req: pb.CreateSessionRequest,
        resp: pb.CreateSessionResponse,
    ) -> None:
        self._client = client
        self._request = req
        self.id = resp.session_id
        self.game = resp.game
        self.num_envs = req.num_envs
        self.num_learners = resp.num_learners
        self.batch_size = resp.batch_size
        #: The largest request the server accepts (0: unknown).
        self.max_request_bytes = resp.max_request_bytes
        self.num_slots = int(resp.game.action.shape[0])
        #: The server's local channel (``jgym serve --local-socket``) and
        #: this session's secret there; empty when it offers none
        #: (:class:`jgym.local.LocalChannel`).
        self.local_socket = resp.local_socket
        self.local_secret = resp.local_secret
        self._stream: _Stream | None = None
        #: Counts the streams opened; observation deltas restart with each.
        self.stream_epoch = 0
        self.observation_delta = req.observation_delta
        self._pending = 0
        self._interrupted = False
        self.closed = False

    @property
    def address(self) -> str:
        """The server's address."""
        return self._client.address

    def _send(self, req: pb.StreamRequest) -> None:
        if self.closed:
            raise SessionError(f"session {self.id} is closed")
        if self._interrupted:
            self._recreate(req)
        req.session_id = self.id
        if self._stream is None:
            self._stream = _Stream(self._client.stub, self._client._metadata)
            self.stream_epoch += 1
        self._stream.send(req)
        self._pending += 1

    def send_reset(
        self,
        seed: int | None = None,
        env_ids: Sequence[int] | None = None,
        trace: TraceStart | None = None,
    ) -> None:
        """Queues a reset; its result comes from the next :meth:`recv`.

        Args:
            seed: Env i (of the session) gets seed + i; ``None`` continues
                each env's own seed sequence.
            env_ids: The envs to reset; ``None`` for all.
            trace: Start the envs from a round of a trace instead
                (:class:`TraceStart`); the seed is then the trace's.

        Raises:
            InvalidArgumentError: A seed outside 0..2^31-1.
        """
        seed = check_seed(seed)
        reset = pb.ResetRequest(
            env_ids=[int(i) for i in env_ids or ()],
            seed=0 if seed is None else seed,
            seed_given=seed is not None,
        )
        if trace is not None:
            reset.trace_start.CopyFrom(trace.to_proto())
        self._send(pb.StreamRequest(reset=reset))

    def get_state(self, env_ids: Sequence[int] | None = None) -> list[bytes]:
        """Saves the games of some envs.

        Args:
            env_ids: The envs; ``None`` for all.

        Returns:
            One saved state per env: opaque bytes that :meth:`set_state`
            restores into an env of a session of the same game,
            configuration and seats (of any server of the same version).

        Raises:
            FailedPreconditionError: A seat cannot be saved (a C++ bot), or
                an env has no game.
        """
        self._send(
            pb.StreamRequest(get_state=pb.GetStateRequest(env_ids=[int(i) for i in env_ids or ()]))
        )
        return list(self._recv_response().states)

    def set_state(
        self, states: Sequence[bytes], env_ids: Sequence[int] | None = None
    ) -> pb.StepResult:
        """Restores saved games into some envs, answered as a reset.

        Args:
            states: One state of :meth:`get_state` per env.
            env_ids: The envs; ``None`` for all, in order.

        Raises:
            InvalidArgumentError: A state of another game or setup, or a
                damaged one (the stream ends; the env needs a reset).
        """
        self.send_set_state(states, env_ids)
        return self.recv()

    def send_set_state(self, states: Sequence[bytes], env_ids: Sequence[int] | None = None) -> None:
        """Queues a :meth:`set_state`; its result comes from :meth:`recv`."""
        req = pb.SetStateRequest(
            env_ids=[int(i) for i in env_ids or ()], states=[bytes(x) for x in states]
        )
        self._send(pb.StreamRequest(set_state=req))

    def send_step(
        self,
        actions: np.ndarray[Any, Any],
        order: np.ndarray[Any, Any] | None = None,
        env_ids: Sequence[int] | None = None,
    ) -> None:
        """Queues a step without waiting; its result comes from :meth:`recv`.

        Args:
            actions: Directions, ``[B, L, U]`` or anything of that size
                (e.g. ``[B * L, U]``), any integer dtype; sent as int8.
            order: Optional priorities of the same size; sent as int16.
            env_ids: The envs the actions are for; ``None`` for all.

        Raises:
            InvalidArgumentError: The actions do not have B * L * U elements.
            InvalidActionError: A direction outside ``0..num_actions-1``, or
                not integers (:func:`jgym._batch.check_actions`).
        """
        b = len(env_ids) if env_ids is not None else self.num_envs
        shape = (b, self.num_learners, self.num_slots)
        step = pb.StepRequest(env_ids=env_ids or ())
        acts = check_actions(_reshape(actions, shape, "actions"), shape, self.game.num_actions)
        step.actions.CopyFrom(from_numpy(acts, np.int8))
        if order is not None:
            prio = check_order(_reshape(order, shape, "order"), shape)
            step.action_order.CopyFrom(from_numpy(prio, np.int16))
        self._send(pb.StreamRequest(step=step))

    def send_recv(self) -> None:
        """Queues a wait for envs still running from an async step."""
        self._send(pb.StreamRequest(recv=pb.RecvRequest()))

    def recv(self) -> pb.StepResult:
        """Waits for the answer to the oldest queued request.

        Returns:
            The :class:`~jgym.v1.jgym_pb2.StepResult`.

        Raises:
            JgymError: The server refused the request (the subclass follows
                the gRPC status) or went away.
        """
        return self._recv_response().result

    def _recv_response(self) -> pb.StreamResponse:
        """Waits for the whole answer to the oldest queued request."""
        if self._stream is None or self._pending == 0:
            raise SessionError("recv without a pending request")
        try:
            resp = self._stream.recv()
        except grpc.RpcError as e:
            self._drop_stream()
            raise from_rpc_error(e, f"session {self.id}") from None
        except StopIteration:
            self._drop_stream()
            raise ServerUnavailableError(
                f"session {self.id}: the server ended the stream"
            ) from None
        except BaseException:
            # Interrupted (Ctrl-C) while waiting: gRPC cannot resume the
            # stream, and the server closes a session whose stream is gone.
            self.abandon()
            raise
        self._pending -= 1
        return resp

    def abandon(self) -> None:
        """Gives up the answers still pending (after an interrupt).

        The stream is cancelled, which ends the server's session; the next
        :meth:`reset` (any other request is a :class:`SessionError`) creates
        a new one with the same settings.
        """
        if self._pending or self._stream is not None:
            self._drop_stream()
            self._interrupted = True

    def _recreate(self, req: pb.StreamRequest) -> None:
        """Replaces a session lost to an interrupted wait, on a reset only."""
        if req.WhichOneof("kind") != "reset":
            raise SessionError(
                f"session {self.id} was lost when waiting for it was interrupted: call reset()"
            )
        # The cancelled stream ends the old session, but not at once: close it
        # first, so that its envs are given back before the new one is
        # booked (an interrupt after each of a client's 16 sessions' limit
        # would otherwise refuse the next reset).
        self._close_on_server()
        resp = self._client.call("create session", self._client.stub.CreateSession, self._request)
        self.id = resp.session_id
        self.local_secret = resp.local_secret
        self._interrupted = False

    def _drop_stream(self) -> None:
        if self._stream is not None:
            self._stream.close(timeout=2.0 if self._pending == 0 else 0.0)
        self._stream = None
        self._pending = 0

    def reset(
        self,
        seed: int | None = None,
        env_ids: Sequence[int] | None = None,
        trace: TraceStart | None = None,
    ) -> pb.StepResult:
        """Resets and waits for the first observations; see :meth:`send_reset`."""
        self.send_reset(seed, env_ids, trace)
        return self.recv()

    def step(
        self,
        actions: np.ndarray[Any, Any],
        order: np.ndarray[Any, Any] | None = None,
        env_ids: Sequence[int] | None = None,
    ) -> pb.StepResult:
        """Steps and waits for the result; see :meth:`send_step`."""
        self.send_step(actions, order, env_ids)
        return self.recv()

    def _forsake(self) -> None:
        """Marks the session closed without waiting for anything (the client's finalizer)."""
        self.closed = True
        self._stream = None
        self._pending = 0

    def close(self) -> None:
        """Closes the stream and the server-side session. Idempotent."""
        if self.closed:
            return
        self.closed = True
        self._drop_stream()
        self._client._forget(self)
        self._close_on_server()

    def _close_on_server(self) -> None:
        """Closes the server's session (gone already is fine)."""
        with contextlib.suppress(JgymError):
            self._client.call(
                "close session",
                self._client.stub.CloseSession,
                pb.CloseSessionRequest(session_id=self.id),
                timeout=5.0,
            )


def _reshape(a: Any, shape: tuple[int, ...], what: str) -> np.ndarray[Any, Any]:
    arr = np.asarray(a)
    if arr.size != int(np.prod(shape)):
        raise InvalidArgumentError(
            f"{what}: got shape {arr.shape} ({arr.size} values), want {shape[0] * shape[1]} "
            f"rows of {shape[2]} (envs x learner seats, unit slots)"
        )
    return arr.reshape(shape)


def _close_channel(
    channel: grpc.Channel,
    lease: ServerLease | None,
    owner: int,
    sessions: weakref.WeakSet[Session],
) -> None:
    """A client's finalizer: on close(), garbage collection or at exit.

    At exit it runs from atexit, while gRPC's threads still run. Sessions
    still open are then marked closed without a word to the server (closing
    the channel cancels their streams, and the server ends a session whose
    stream is gone): otherwise the ``__del__`` of a Gymnasium vector env
    would close them later, during the interpreter's finalization, when
    gRPC's daemon threads are frozen and may hold the locks a close waits
    for. A Ctrl-C must always end the program.
    """
    if os.getpid() != owner:
        return  # a forked child: the channel and the server are its parent's
    for s in list(sessions):
        s._forsake()
    channel.close()
    if lease is not None:
        lease.release()


class Client:
    """A connection to one jgym server.

    Seats that name a bot file of this machine (``"policy:runs/snap.onnx"``,
    ``"cpp:bots/AIMine.cc"``) are uploaded to the server (``UploadBot``,
    once per file version) and seated by the name it gives back: the same
    call works against a local and a remote server. A name without a
    folder that is no file here (``"cpp:AIMine.cc"``) is left for the
    server to find in its bots directories.

    Args:
        address: ``host:port`` of a running server; ``None`` starts (or
            shares) a local one, see :mod:`jgym.server`.
        connect_timeout: Seconds to wait for the server to answer.
        token: The token of a server started with ``--tokens`` (default:
            ``$JGYM_TOKEN``, for servers given by address).
        tls: Reach the server over TLS: a :class:`TLS`, the path of the
            CA's PEM file, or ``True`` for the system's roots (default:
            ``$JGYM_TLS_CA`` if set, else plain text).
        check_version: Ask the server for its versions and refuse one that
            speaks another protocol (see :mod:`jgym.version`).

    Raises:
        ServerUnavailableError: Nothing answers at ``address`` in time.
        ServerStartError: The local server could not be started.
        VersionMismatchError: The server speaks another protocol.

    Attributes:
        address: The server's address.
        server: The local server when the client started one, else ``None``.
        version: The server's :class:`~jgym.version.ServerVersion` (``None``
            with ``check_version=False``).
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        connect_timeout: float = 10.0,
        token: str | None = None,
        tls: TLS | str | os.PathLike[str] | bool | None = None,
        check_version: bool = True,
    ) -> None:
        self._lease = shared_server() if address is None else None
        self.server = self._lease.server if self._lease is not None else None
        self.address = address if address is not None else self._lease.server.address  # type: ignore[union-attr]
        if token is None and address is not None:
            token = os.environ.get("JGYM_TOKEN") or None
        self._metadata: tuple[tuple[str, str], ...] = (
            (("authorization", f"Bearer {token}"),) if token else ()
        )
        self._uploads: dict[tuple[str, str, int, int, str], str] = {}
        self._sessions: weakref.WeakSet[Session] = weakref.WeakSet()
        conf = _tls_of(tls) if address is not None else None
        if conf is None:
            self._channel = grpc.insecure_channel(self.address, options=_CHANNEL_OPTIONS)
        else:
            opts: list[tuple[str, Any]] = list(_CHANNEL_OPTIONS)
            if conf.server_name:
                opts.append(("grpc.ssl_target_name_override", conf.server_name))
            self._channel = grpc.secure_channel(self.address, conf.credentials(), options=opts)
        self._finalizer = weakref.finalize(
            self, _close_channel, self._channel, self._lease, os.getpid(), self._sessions
        )
        self.stub = pb_grpc.JgymServiceStub(self._channel)  # type: ignore[no-untyped-call]
        self._lock = threading.Lock()
        try:
            health_check(self._channel, timeout=connect_timeout)
        except grpc.RpcError as e:
            self.close()
            err = explain_unreachable(
                self.address,
                uses_tls=conf is not None,
                root_ca=pem_bytes(conf.root_ca) if conf is not None else None,
                server_name=conf.server_name if conf is not None else None,
                detail=f"{e.details()} within {connect_timeout:g} s",
            )
            err.code = e.code()
            raise err from None
        self.version: ServerVersion | None = None
        if check_version:
            try:
                self.version = self.server_version()
                check(self.version, self.address)
            except BaseException:
                self.close()
                raise

    def server_version(self) -> ServerVersion:
        """Asks the server for its release, protocol and observation versions.

        Raises:
            VersionMismatchError: The server predates the call (jgym before
                0.2.0).
        """
        try:
            resp = self.stub.GetVersion(
                pb.GetVersionRequest(), timeout=30.0, metadata=self._metadata or None
            )
        except grpc.RpcError as e:
            if e.code() == grpc.StatusCode.UNIMPLEMENTED:
                raise VersionMismatchError(
                    f"the server at {self.address} predates the version handshake (jgym "
                    "before 0.2.0, no GetVersion): run the server of this jgym "
                    "(jgym --version, or the binary in this wheel), or install the jgym "
                    "wheel of the server's release",
                    e.code(),
                ) from None
            raise self._explained(from_rpc_error(e, "get version")) from None
        return ServerVersion(
            resp.server_version, resp.protocol_version, dict(resp.observation_versions)
        )

    def call(self, what: str, method: Any, request: Any, timeout: float | None = 60.0) -> Any:
        """Calls a unary RPC, turning gRPC errors into :class:`JgymError`."""
        try:
            return method(request, timeout=timeout, metadata=self._metadata or None)
        except grpc.RpcError as e:
            raise self._explained(from_rpc_error(e, what)) from None

    def _explained(self, err: JgymError) -> JgymError:
        """Says whether a refused call lacked a token or had a wrong one."""
        if isinstance(err, AuthenticationError):
            return explain_auth(err, self.address, sent_token=bool(self._metadata))
        return err

    def upload_bot(self, path: str | os.PathLike[str], kind: str, game: str = "") -> str:
        """Uploads a bot file and returns the seat name the server gives it.

        Args:
            path: An ONNX policy (``kind="policy"``) or a C++ source
                ``AI<Name>.cc`` (``kind="cpp"``) on this machine.
            kind: ``"policy"`` or ``"cpp"``.
            game: The game it plays (default: the server's first).

        Returns:
            A seat name such as ``"policy:@3f2a.../snap.onnx"``.

        Raises:
            InvalidArgumentError: The file cannot be read, or the server
                refused it (a policy that does not load, a source that does
                not compile: the server's message says why).
            ResourceExhaustedError: Over the server's upload limits.
        """
        if kind not in _UPLOAD_KINDS:
            raise InvalidArgumentError(f"kind {kind!r}: want one of {sorted(_UPLOAD_KINDS)}")
        p = os.fspath(path)
        try:
            st = os.stat(p)
            key = (kind, os.path.realpath(p), st.st_mtime_ns, st.st_size, game)
            if key in self._uploads:
                return self._uploads[key]
            with open(p, "rb") as f:
                content = f.read()
        except OSError as e:
            raise InvalidArgumentError(f"bot file {p}: {e.strerror}") from None
        resp = self.call(
            f"upload {p}",
            self.stub.UploadBot,
            pb.UploadBotRequest(
                kind=_UPLOAD_KINDS[kind], name=_upload_name(p), content=content, game=game
            ),
            timeout=300.0,  # a C++ bot is compiled first
        )
        self._uploads[key] = resp.bot
        return str(resp.bot)

    def resolve_seat(self, seat: str | None, game: str = "") -> str:
        """Returns the seat name to send for ``seat``.

        A bot file of this machine is uploaded (see the class); other names
        are kept.

        Raises:
            InvalidArgumentError: A ``prefix:PATH`` seat with a folder in
                PATH names no file here.
        """
        if not seat:
            return ""
        kind, sep, rest = seat.partition(":")
        if not sep or kind not in _UPLOAD_KINDS or rest.startswith("@"):
            return seat
        if os.path.isfile(rest):
            return self.upload_bot(rest, kind, game)
        if not _BOT_FILE.match(rest):
            raise InvalidArgumentError(
                f"bot {seat!r}: no file {rest!r} on this machine (a server seats files of this "
                "machine by upload, and its own bots by file name)"
            )
        return seat

    def list_games(self) -> list[pb.GameSpec]:
        """Returns the specs of the games the server hosts."""
        resp = self.call("list games", self.stub.ListGames, pb.ListGamesRequest())
        return list(resp.games)

    def list_bots(self, game: str = "") -> tuple[list[str], list[str]]:
        """Returns the bot names a seat accepts and the ``prefix:PATH`` prefixes."""
        resp = self.call("list bots", self.stub.ListBots, pb.ListBotsRequest(game=game))
        return list(resp.bots), list(resp.prefixes)

    def create_session(
        self,
        game: str,
        num_envs: int,
        seats: Sequence[str | None],
        *,
        shuffle_seats: bool = False,
        reward_mode: str = "score_delta",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        config: str | os.PathLike[str] = "",
        batch_size: int = 0,
        idle_timeout_seconds: int = 0,
        trace_env0: str = "",
        seed_stride: int = 0,
        observation_delta: bool = True,
        command_order: str = "",
        opponent_order: str = "",
        unit_rewards: bool = False,
        credit_weights: Mapping[str, float] | None = None,
        tensors: Sequence[str] | None = None,
    ) -> Session:
        """Creates a session of ``num_envs`` games.

        Args:
            game: The game id, e.g. ``"Crematoria-v0"``.
            num_envs: Number of games.
            seats: Four entries: ``None`` or ``""`` for a learner seat, else
                a bot name (``"Demo"``, ``"Null"``, ``"cpp:bots/AIMe.cc"``,
                ``"policy:runs/snap.onnx"``: files of this machine are
                uploaded, see the class).
            shuffle_seats: Permute the seats at every reset.
            reward_mode: ``"score_delta"``, ``"relative"`` or ``"rank"``.
            autoreset_mode: How finished games restart.
            config: Configuration text in the kit's format ("" for the
                default), or a path to a configuration file.
            batch_size: Async batch size (0: synchronous).
            idle_timeout_seconds: Close the session when idle this long
                (0: server default).
            trace_env0: Server-side directory for .res traces of env 0.
            seed_stride: After a reset with seed ``s``, env ``i``'s ``k``-th
                game uses ``s + i + k * seed_stride`` (0: ``num_envs``).
            observation_delta: Have the server send each observation as
                its changes since the last one (about a quarter of the bytes
                for Crematoria); :class:`jgym._batch.Decoder` rebuilds the
                arrays. docs/protocol.md has the encoding.
            command_order: The order of a learner's commands when a step
                sends no order tensor: ``"slot"`` (``""``, increasing unit
                id) or one of the game's ``GameSpec.action_orders``
                (``"attacks_first"``).
            opponent_order: The order of the opponents in the observation:
                ``"seat"`` (``""``) or one of ``GameSpec.opponent_orders``
                (``"score"``: the leader is relative seat 1).
            unit_rewards: Answer each step with each learner's per-unit
                credit (``Batch.unit_rewards``, float32 ``[B, L, U]``).
            credit_weights: Weights of the per-unit credit by name
                (``GameSpec.credit_weights``); the others keep their
                defaults.
            tensors: The observation tensors the learners get, by name
                (``GameSpec.observation``, and ``GameSpec.opt_in``'s,
                which only a name brings); the server does not compute the
                others and the session's spec (``Session.game``) lists
                only those kept. ``None`` or empty: all of
                ``GameSpec.observation``. The masks
                actions need (``action_mask``, the game's ``policy_mask``)
                are kept whether named or not.

        Returns:
            The session.

        Raises:
            InvalidArgumentError: The server refused the setup (unknown bot,
                bad configuration, ...), with its message.
        """
        if isinstance(config, os.PathLike):
            config = open(config).read()  # noqa: SIM115
        req = pb.CreateSessionRequest(
            game=game,
            num_envs=num_envs,
            seats=[pb.SeatSpec(bot=self.resolve_seat(s, game)) for s in seats],
            shuffle_seats=shuffle_seats,
            reward_mode=reward_mode_value(reward_mode),
            autoreset_mode=autoreset_mode_value(autoreset_mode),
            config=config,
            batch_size=batch_size,
            idle_timeout_seconds=idle_timeout_seconds,
            trace_env0=trace_env0,
            seed_stride=seed_stride,
            observation_delta=observation_delta,
            action_order=command_order,
            opponent_order=opponent_order,
            unit_rewards=unit_rewards,
            credit_weights=dict(credit_weights or {}),
            tensors=list(tensors or ()),
        )
        resp = self.call("create session", self.stub.CreateSession, req)
        if self.version is not None:
            try:
                check_observation(
                    resp.game.id, resp.game.observation_version, self.version.server, self.address
                )
            except VersionMismatchError:
                self.call(
                    "close session",
                    self.stub.CloseSession,
                    pb.CloseSessionRequest(session_id=resp.session_id),
                )
                raise
        session = Session(self, req, resp)
        with self._lock:
            self._sessions.add(session)
        return session

    def _forget(self, session: Session) -> None:
        with self._lock:
            self._sessions.discard(session)

    def close(self) -> None:
        """Closes the sessions, the channel, and releases the local server."""
        with self._lock:
            sessions = list(self._sessions)
        for s in sessions:
            s.close()
        self._finalizer()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclasses.dataclass(frozen=True)
class TraceStart:
    """A start of games at a round of a trace (``reset(options=...)``).

    With the trace's bytes and its command file, the game is the trace's,
    replayed to ``round`` bit for bit (the server checks the replay gives
    the trace's bytes), then played on by the session's seats. Without
    ``commands`` the position at ``round`` is rebuilt from the trace alone
    with a fresh random generator (the game does not continue as the
    original did, and cannot be saved but at round 0). ``name`` instead
    picks a trace the server's operator offers (``jgym serve
    --start-traces DIR``), by its base name: never a path.
    """

    trace: bytes = b""
    commands: bytes = b""
    name: str = ""
    round: int = 0

    @classmethod
    def from_options(cls, options: dict[str, Any] | None) -> TraceStart | None:
        """The start an options dict asks for, or None.

        Its keys: ``trace``, ``commands``, ``trace_name``, ``round``.
        """
        if not options or (options.get("trace") is None and options.get("trace_name") is None):
            return None
        trace = options.get("trace") or b""
        if isinstance(trace, str):
            raise InvalidArgumentError("options['trace'] is the trace's bytes, not a path")
        return cls(
            trace=bytes(trace),
            commands=bytes(options.get("commands") or b""),
            name=str(options.get("trace_name") or ""),
            round=int(options.get("round", 0)),
        )

    def to_proto(self) -> pb.TraceStart:
        return pb.TraceStart(
            trace=self.trace, commands=self.commands, name=self.name, round=self.round
        )
