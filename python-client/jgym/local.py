"""The local channel: a session's batches in shared memory (same host only).

A server started with ``jgym serve --local-socket PATH`` answers
``CreateSession`` with the socket's path and a secret of the session. A
client on the server's host connects there, proves with the secret that
the session is its own, and receives two memory regions (memfds passed
over the socket): one it writes its env ids and actions into, one the
server writes each batch into, observations included, where numpy maps
them. Each request and each answer is 16 bytes on the socket; no batch
is encoded, sent or decoded. docs/local.md describes the channel; the
wire is in the server's ``server/local.go``.

One request is in flight at a time (its env ids and actions are in the
region until the server has read them): :meth:`LocalChannel.recv` before
the next send. The vector environment's ``step_async`` still overlaps the
caller's work with the server's step.

The vector environment uses it by itself when the server is local (see
:class:`jgym.JgymVectorEnv`'s ``local``); :class:`LocalChannel` is the
building block.

Lifetimes: the observation arrays of a :class:`~jgym._batch.Batch` from
:meth:`LocalChannel.recv` with ``copy=False`` are views of the shared
region, read-only, and hold an env's rows until that env is next reset or
stepped (for a step of every env: until the next step). With
``copy=True`` (the default) they are the caller's own.
"""

from __future__ import annotations

import collections
import contextlib
import json
import math
import mmap
import os
import socket
import struct
from collections.abc import Sequence
from typing import Any

import grpc
import numpy as np

from jgym._batch import Array, Batch, Decoder, check_actions, check_order, check_seed
from jgym.errors import (
    _BY_CODE,
    InvalidArgumentError,
    JgymError,
    ServerError,
    ServerUnavailableError,
    SessionError,
)
from jgym.tensors import observation_dtypes

__all__ = ["LocalChannel", "SessionLink", "is_local_address"]

_MAGIC = b"JGYMLOC1"
_HEADER = struct.Struct("<BBHIq")  # op, flags, 0, count, seed
_ANSWER = struct.Struct("<B3xII4x")  # status, B (or message length), F
_OP_RESET, _OP_STEP, _OP_RECV, _OP_BYE = 1, 2, 3, 4
_FLAG_SEED, _FLAG_ORDER = 1, 2
_CODES = {c.value[0]: c for c in grpc.StatusCode}


def is_local_address(address: str | None) -> bool:
    """Whether a server address is this host's loopback (or a started server).

    Example:
        >>> is_local_address("127.0.0.1:50051"), is_local_address("localhost:1")
        (True, True)
        >>> is_local_address("[::1]:50051"), is_local_address("gpu7:50051")
        (True, False)
    """
    if address is None:
        return True
    host = address.rsplit(":", 1)[0].strip("[]")
    return host in ("localhost", "::1") or host.startswith("127.")


def _error(status: int, message: str, what: str) -> JgymError:
    code = _CODES.get(status)
    cls = _BY_CODE.get(code, ServerError) if code is not None else ServerError
    return cls(f"{what}: {message}", code)


class LocalChannel:
    """A session's local channel: requests over a Unix socket, batches in shared memory.

    Args:
        session: The :class:`jgym.client.Session` (created over gRPC by a
            server that offers the channel: ``session.local_socket``).
        copy: Observations handed out are copies (default); ``False``
            hands out read-only views of the shared region (see the module
            docs for how long they hold).
        timeout: Seconds to wait for the hello's answer.

    Raises:
        SessionError: The server offers no local channel.
        PermissionDeniedError: The secret is not the session's.
        ResourceExhaustedError: The regions do not fit the server's memory
            budget.
        OSError: The socket cannot be reached (e.g. another host).
    """

    def __init__(self, session: Any, *, copy: bool = True, timeout: float = 10.0) -> None:
        if not session.local_socket:
            raise SessionError(f"session {session.id}: the server offers no local channel")
        self.session = session
        self.copy = copy
        self.num_envs = n = session.num_envs
        self.num_learners = L = session.num_learners  # noqa: N806
        self.num_slots = session.num_slots
        self._pending = 0
        self.closed = False
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        fds: list[int] = []
        try:
            self._sock.settimeout(timeout)
            where = session.local_socket  # "@name": Linux's abstract namespace
            self._sock.connect("\0" + where[1:] if where.startswith("@") else where)
            sid, secret = session.id.encode(), bytes(session.local_secret)
            self._sock.sendall(_MAGIC + bytes([len(sid)]) + sid + bytes([len(secret)]) + secret)
            data, fds, _, _ = socket.recv_fds(self._sock, 1 << 16, 2)
            if len(data) < _ANSWER.size:
                raise ServerUnavailableError("local channel: the server hung up during the hello")
            status, size, _ = _ANSWER.unpack_from(data)
            while len(data) < _ANSWER.size + size:
                more = self._sock.recv(_ANSWER.size + size - len(data))
                if not more:
                    raise ServerUnavailableError("local channel: the hello's answer was cut")
                data += more
            body = data[_ANSWER.size : _ANSWER.size + size]
            if status != 0:
                raise _error(status, body.decode("utf-8", "replace"), "local channel")
            if len(fds) != 2:
                raise ServerError(f"local channel: {len(fds)} descriptors, want 2")
            lay = json.loads(body)
            self._in = mmap.mmap(fds[0], lay["in_bytes"], access=mmap.ACCESS_WRITE)
            self._out = mmap.mmap(fds[1], lay["out_bytes"], access=mmap.ACCESS_READ)
            self._sock.settimeout(None)
        except BaseException:
            self._sock.close()
            raise
        finally:
            for fd in fds:
                os.close(fd)
        game = session.game
        act, order = game.action.shape, game.action_order.shape
        self._ids = np.frombuffer(self._in, np.int32, n, lay["in"]["env_ids"])
        self._actions = np.frombuffer(
            self._in, np.int8, n * L * math.prod(act), lay["in"]["actions"]
        ).reshape(n, L, *act)
        self._order = np.frombuffer(
            self._in, np.int16, n * L * math.prod(order), lay["in"]["action_order"]
        ).reshape(n, L, *order)
        dtypes = observation_dtypes(game)

        def obs(where: dict[str, int]) -> dict[str, Array]:
            return {
                t.name: np.frombuffer(
                    self._out, dtypes[t.name], n * L * math.prod(t.shape), where[t.name]
                ).reshape(n, L, *t.shape)
                for t in game.observation
            }

        self._obs = obs(lay["observation"])
        self._final = obs(lay["final_observation"]) if lay.get("final_observation") else {}
        out = lay["out"]

        def arr(name: str, dtype: Any, *shape: int) -> Array:
            return np.frombuffer(self._out, dtype, math.prod(shape), out[name]).reshape(shape)

        self._o_ids = arr("env_ids", np.int32, n)
        self._o_reward = arr("reward", np.float32, n, L)
        self._o_unit = (
            arr("unit_rewards", np.float32, n, L, *game.unit_reward.shape)
            if "unit_rewards" in out
            else None
        )
        self._o_term = arr("terminated", np.bool_, n)
        self._o_trunc = arr("truncated", np.bool_, n)
        self._o_scores = arr("scores", np.int32, n, 4)
        self._o_rank = arr("rank", np.int32, n, L)
        self._o_seats = arr("learner_seats", np.int32, n, L)
        self._o_round = arr("round", np.int32, n)
        self._o_episode = arr("episode", np.int32, n)
        self._o_findex = arr("final_index", np.int32, n)
        self._o_fscores = arr("final_scores", np.int32, n, 4)
        self._all = np.arange(n, dtype=np.int32)

    # --- requests -----------------------------------------------------------

    def _check_free(self) -> None:
        """One request at a time: its env ids and actions live in the region until read."""
        if self.closed:
            raise SessionError(f"session {self.session.id}: the local channel is closed")
        if self._pending:
            raise SessionError("the local channel holds one request at a time: recv() first")

    def _send(self, op: int, flags: int, count: int, seed: int = 0) -> None:
        try:
            self._sock.sendall(_HEADER.pack(op, flags, 0, count, seed))
        except OSError as e:
            self.abandon()
            raise ServerUnavailableError(f"local channel: {e}") from None
        self._pending += 1

    def _put_ids(self, env_ids: Sequence[int] | None) -> int:
        if env_ids is None:
            return 0
        ids = np.asarray(env_ids, dtype=np.int64)
        if ids.ndim != 1 or len(ids) > self.num_envs:
            raise SessionError(f"{len(ids)} env ids for {self.num_envs} envs")
        self._ids[: len(ids)] = ids  # range and repeats are the server's to check
        return len(ids)

    def send_reset(self, seed: int | None = None, env_ids: Sequence[int] | None = None) -> None:
        """Queues a reset (as :meth:`jgym.client.Session.send_reset`, no trace starts)."""
        seed = check_seed(seed)
        self._check_free()
        count = self._put_ids(env_ids)
        flags = _FLAG_SEED if seed is not None else 0
        self._send(_OP_RESET, flags, count, seed or 0)

    def send_step(
        self,
        actions: Any,
        order: Any = None,
        env_ids: Sequence[int] | None = None,
    ) -> None:
        """Writes the actions into the region and queues a step (as ``Session.send_step``)."""
        self._check_free()
        b = len(env_ids) if env_ids is not None else self.num_envs
        shape = (b, self.num_learners, self.num_slots)
        acts = np.asarray(actions)
        if acts.size != math.prod(shape):
            raise SessionError(f"actions: {acts.size} values, want {math.prod(shape)}")
        self._actions[:b] = check_actions(acts.reshape(shape), shape, self.session.game.num_actions)
        flags = 0
        if order is not None:
            self._order[:b] = check_order(np.asarray(order).reshape(shape), shape)
            flags = _FLAG_ORDER
        count = self._put_ids(env_ids) if env_ids is not None else 0
        self._send(_OP_STEP, flags, count)

    def send_recv(self) -> None:
        """Queues a wait for envs still running from an async step."""
        self._check_free()
        self._send(_OP_RECV, 0, 0)

    def recv(self) -> Batch:
        """Waits for the answer to the oldest queued request.

        Raises:
            JgymError: The server refused the request (the subclass follows
                its gRPC code; the channel stays open) or went away.
        """
        if self._pending == 0:
            raise SessionError("recv without a pending request")
        try:
            head = self._read(_ANSWER.size)
            status, b, f = _ANSWER.unpack(head)
            if status != 0:
                message = self._read(b).decode("utf-8", "replace")
        except BaseException:
            self.abandon()
            raise
        self._pending -= 1
        if status != 0:
            raise _error(status, message, f"session {self.session.id}")
        return self._batch(b, f)

    def _read(self, n: int) -> bytes:
        buf = bytearray(n)
        view, got = memoryview(buf), 0
        while got < n:
            k = self._sock.recv_into(view[got:])
            if k == 0:
                self.abandon()
                raise ServerUnavailableError(
                    f"session {self.session.id}: the server closed the local channel"
                )
            got += k
        return bytes(buf)

    def _batch(self, b: int, f: int) -> Batch:
        ids = self._o_ids[:b].copy()
        whole = b == self.num_envs and bool((ids == self._all).all())
        if whole:
            obs = {k: v.copy() if self.copy else v for k, v in self._obs.items()}
        else:
            obs = {k: v[ids] for k, v in self._obs.items()}  # fancy indexing copies
        findex = self._o_findex[:f].copy()
        final = {k: v[ids[findex]] for k, v in self._final.items()} if f else {}
        return Batch(
            env_ids=ids,
            obs=obs,
            reward=self._o_reward[:b].copy(),
            terminated=self._o_term[:b].copy(),
            truncated=self._o_trunc[:b].copy(),
            scores=self._o_scores[:b].copy(),
            rank=self._o_rank[:b].copy(),
            round=self._o_round[:b].copy(),
            seat=self._o_seats[:b].copy(),
            episode=self._o_episode[:b].copy(),
            final_index=findex,
            final_obs=final,
            final_scores=self._o_fscores[:f].copy(),
            unit_rewards=None if self._o_unit is None else self._o_unit[:b].copy(),
        )

    # --- the end ------------------------------------------------------------

    def abandon(self) -> None:
        """Hangs up without a bye: the server closes the session (as a vanished client's)."""
        self._close(bye=False)

    def close(self) -> None:
        """Says bye and hangs up; the session stays open (for gRPC). Idempotent."""
        self._close(bye=self._pending == 0)

    def _close(self, bye: bool) -> None:
        if self.closed:
            return
        self.closed = True
        if bye:
            try:
                self._sock.sendall(_HEADER.pack(_OP_BYE, 0, 0, 0, 0))
                self._sock.settimeout(5.0)
                self._sock.recv(1)  # the server hangs up once the pool let go
            except OSError:
                pass
        self._sock.close()
        self._pending = 0
        # Views handed out with copy=False keep a region mapped until they
        # go; the channel's own are dropped here.
        for name in [k for k in vars(self) if k.startswith(("_o_", "_obs", "_final", "_ids"))]:
            setattr(self, name, None)
        self._actions = self._order = None  # type: ignore[assignment]
        for m in (self._in, self._out):
            # A view of the caller's may still map it: unmapped when it goes.
            with contextlib.suppress(BufferError):
                m.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{self._pending} pending"
        return f"<LocalChannel {self.session.id} {self.session.local_socket} {state}>"


class SessionLink:
    """How one session's requests travel: its local channel, else its gRPC stream.

    Saved states and their restores always go over gRPC; the answers are
    taken from the transport each request went by, in order. The local
    channel holds one request at a time: a second one (the resets of
    several seeds) first takes the answer of the one before into ``_ready``.
    """

    def __init__(self, session: Any, address: str | None, local: bool | None, copy: bool):
        self.session = session
        self.channel: LocalChannel | None = None
        self._via: collections.deque[bool] = collections.deque()  # True: local
        self._ready: collections.deque[Batch | JgymError] = collections.deque()
        if local is False or (local is None and not is_local_address(address)):
            return
        if not session.local_socket:
            if local:
                raise InvalidArgumentError(
                    f"local=True: the server at {session.address} offers no local channel "
                    "(jgym serve --local-socket PATH)"
                )
            return
        try:
            self.channel = LocalChannel(session, copy=copy)
        except (OSError, JgymError):
            if local:
                raise
            # Not this host's server after all, or no room: gRPC.

    def _free(self) -> None:
        assert self.channel is not None
        if self.channel._pending:
            try:
                self._ready.append(self.channel.recv())
            except JgymError as e:
                self._ready.append(e)

    def send_reset(
        self, seed: int | None, env_ids: Sequence[int] | None, trace: Any = None
    ) -> None:
        """Queues a reset: over the channel, or (a trace start) over gRPC."""
        if self.channel is not None and trace is None:
            self._free()
            self.channel.send_reset(seed, env_ids)
            self._via.append(True)
        else:  # trace starts go over gRPC
            self.session.send_reset(seed, env_ids, trace)
            self._via.append(False)

    def send_step(self, actions: Array, order: Array | None) -> None:
        """Queues a step of every env of the session."""
        if self.channel is not None:
            self._free()
            self.channel.send_step(actions, order)
        else:
            self.session.send_step(actions, order)
        self._via.append(self.channel is not None)

    def send_set_state(self, states: Sequence[bytes], env_ids: Sequence[int] | None) -> None:
        """Queues a restore (over gRPC)."""
        self.session.send_set_state(states, env_ids)
        self._via.append(False)

    def recv(self, dec: Decoder) -> Batch:
        """The answer to the oldest queued request, from where it went."""
        if self._via and self._via.popleft():
            if self._ready:
                got = self._ready.popleft()
                if isinstance(got, JgymError):
                    raise got
                return got
            assert self.channel is not None
            try:
                return self.channel.recv()
            except JgymError:
                raise
            except BaseException:  # Ctrl-C: the channel hung up, the session is gone
                self.abandon()
                raise
        return dec.decode(self.session.recv())

    def abandon(self) -> None:
        """Gives up what is pending; a local channel hangs up, which ends the session."""
        self._via.clear()
        self._ready.clear()
        if self.channel is not None:
            self.channel.abandon()
            self.channel = None
            self.session._interrupted = True  # the next reset makes a new session
        self.session.abandon()

    def close(self) -> None:
        """Says bye on the channel (the session is closed over gRPC by its owner)."""
        if self.channel is not None:
            self.channel.close()
