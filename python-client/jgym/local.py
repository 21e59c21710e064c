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

Two requests may be in flight (each has a slot of its own in the regions
for its env ids, actions and batch information): the server steps the
second while Python reads the first. A step of every env can be sent as
two halves at once (``send_step(..., halves=True)``), answered as one
batch; the vector environment does so, so that copying the first half's
observations overlaps the server's stepping of the second.

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
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

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
_HEADER = struct.Struct("<BBBxIq")  # op, flags, slot, 0, count, seed
_ANSWER = struct.Struct("<B3xII4x")  # status, B (or message length), F
_OP_RESET, _OP_STEP, _OP_RECV, _OP_BYE = 1, 2, 3, 4
_FLAG_SEED, _FLAG_ORDER = 1, 2
_CODES = {c.value[0]: c for c in grpc.StatusCode}

#: The fewest envs whose steps the vector environment sends as two halves
#: in flight, or 0: never (the default; see docs/local.md, "Two requests
#: in flight": on a loaded machine the halves cost CPU and gained nothing).
SPLIT_MIN_ENVS = 0


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


class _SlotOut(NamedTuple):
    """One slot's batch arrays in the output region (views)."""

    ids: Array
    reward: Array
    unit: Array | None
    term: Array
    trunc: Array
    scores: Array
    rank: Array
    seats: Array
    round: Array
    episode: Array
    findex: Array
    fscores: Array


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
        # Each pending request: its slot, and the env ids it holds (None:
        # every env); a request sent as halves is one entry of two parts.
        self._queue: collections.deque[list[tuple[int, Array | None]]] = collections.deque()
        self._head = bytearray(_ANSWER.size)
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
        #: Requests that may be in flight (a server before version 2 of the
        #: layout has one).
        self.slots = int(lay.get("slots", 1))
        in_stride, out_stride = lay.get("in_slot_bytes", 0), lay.get("out_slot_bytes", 0)

        def slot_in(k: int, name: str, dtype: Any, *shape: int) -> Array:
            at = lay["in"][name] + k * in_stride
            return np.frombuffer(self._in, dtype, math.prod(shape), at).reshape(shape)

        self._ids = [slot_in(k, "env_ids", np.int32, n) for k in range(self.slots)]
        self._actions = [slot_in(k, "actions", np.int8, n, L, *act) for k in range(self.slots)]
        self._order = [
            slot_in(k, "action_order", np.int16, n, L, *order) for k in range(self.slots)
        ]
        dtypes = observation_dtypes(game)

        def obs(where: dict[str, int]) -> dict[str, Array]:
            return {
                t.name: np.frombuffer(
                    self._out, dtypes[t.name], n * L * math.prod(t.shape), where[t.name]
                ).reshape(n, L, *t.shape)
                for t in game.observation
            }

        self._obs = obs(lay["observation"])
        self._finals = obs(lay["final_observation"]) if lay.get("final_observation") else {}
        out = lay["out"]

        def slot_out(k: int) -> _SlotOut:
            def arr(name: str, dtype: Any, *shape: int) -> Array:
                at = out[name] + k * out_stride
                return np.frombuffer(self._out, dtype, math.prod(shape), at).reshape(shape)

            u = game.unit_reward.shape
            unit = arr("unit_rewards", np.float32, n, L, *u) if "unit_rewards" in out else None
            return _SlotOut(
                ids=arr("env_ids", np.int32, n),
                reward=arr("reward", np.float32, n, L),
                unit=unit,
                term=arr("terminated", np.bool_, n),
                trunc=arr("truncated", np.bool_, n),
                scores=arr("scores", np.int32, n, 4),
                rank=arr("rank", np.int32, n, L),
                seats=arr("learner_seats", np.int32, n, L),
                round=arr("round", np.int32, n),
                episode=arr("episode", np.int32, n),
                findex=arr("final_index", np.int32, n),
                fscores=arr("final_scores", np.int32, n, 4),
            )

        self._o = [slot_out(k) for k in range(self.slots)]
        self._async = 0 < session.batch_size < n
        self._all = np.arange(n, dtype=np.int32)
        h = n // 2
        self._halves = (self._all[:h], self._all[h:])

    # --- requests -----------------------------------------------------------

    @property
    def pending(self) -> int:
        """Requests sent and not yet received (a step sent as halves is one)."""
        return len(self._queue)

    def _take_slot(self, ids: Array | None) -> int:
        """A free slot for a request of the envs ``ids`` (``None``: every env)."""
        if self.closed:
            raise SessionError(f"session {self.session.id}: the local channel is closed")
        if not self._queue:
            return 0
        held = [part for entry in self._queue for part in entry]
        if len(held) >= self.slots:
            raise SessionError(
                f"the local channel holds {self.slots} requests at a time: recv() first"
            )
        for _, envs in held:
            # Observations are by env: a second request of the same envs
            # would overwrite the first's rows before they are read. An
            # async session's answers hold envs no one can tell in advance.
            if envs is None or ids is None or self._async or np.isin(ids, envs).any():
                raise SessionError(
                    "a request in flight holds some of these envs (or all): recv() first"
                )
        busy = {slot for slot, _ in held}
        return next(k for k in range(self.slots) if k not in busy)

    def _send(self, op: int, flags: int, slot: int, count: int, seed: int = 0) -> None:
        try:
            self._sock.sendall(_HEADER.pack(op, flags, slot, count, seed))
        except OSError as e:
            self.abandon()
            raise ServerUnavailableError(f"local channel: {e}") from None

    def _env_ids(self, env_ids: Sequence[int] | None) -> Array | None:
        if env_ids is None:
            return None
        ids = np.asarray(env_ids, dtype=np.int64)
        if ids.ndim != 1 or len(ids) > self.num_envs:
            raise SessionError(f"{len(ids)} env ids for {self.num_envs} envs")
        return ids

    def _put_ids(self, slot: int, ids: Array | None) -> int:
        if ids is None:
            return 0
        self._ids[slot][: len(ids)] = ids  # range and repeats are the server's to check
        return len(ids)

    def send_reset(self, seed: int | None = None, env_ids: Sequence[int] | None = None) -> None:
        """Queues a reset (as :meth:`jgym.client.Session.send_reset`, no trace starts)."""
        seed = check_seed(seed)
        ids = self._env_ids(env_ids)
        slot = self._take_slot(ids)
        count = self._put_ids(slot, ids)
        flags = _FLAG_SEED if seed is not None else 0
        self._send(_OP_RESET, flags, slot, count, seed or 0)
        self._queue.append([(slot, ids)])

    def send_step(
        self,
        actions: Any,
        order: Any = None,
        env_ids: Sequence[int] | None = None,
        *,
        halves: bool = False,
        checked: bool = False,
    ) -> None:
        """Writes the actions into a free slot and queues a step (as ``Session.send_step``).

        Args:
            actions: ``[B, L, U]`` directions (or as many values in any shape).
            order: The optional priorities, as ``actions``.
            env_ids: The envs to step (``None``: every env, in order).
            halves: A step of every env goes as two requests in flight,
                the first half of the envs and the rest, answered by one
                :meth:`recv` as one batch: copying the first half's
                observations overlaps the server's stepping of the second.
                Nothing else may be pending; a session that has one env,
                one slot or async batches sends one request.
            checked: The actions are int8 (the priorities int16) and were
                checked already (the environments check them first).
        """
        n, L = self.num_envs, self.num_learners  # noqa: N806
        ids = self._env_ids(env_ids)
        b = len(ids) if ids is not None else n
        shape = (b, L, self.num_slots)
        acts = np.asarray(actions)
        if acts.size != math.prod(shape):
            raise SessionError(f"actions: {acts.size} values, want {math.prod(shape)}")
        acts = acts.reshape(shape)
        ords = None if order is None else np.asarray(order).reshape(shape)
        if not checked:
            acts = check_actions(acts, shape, self.session.game.num_actions)
            ords = None if ords is None else check_order(ords, shape)
        flags = 0 if ords is None else _FLAG_ORDER
        if (
            halves
            and ids is None
            and n >= 2
            and self.slots >= 2
            and not self._async
            and not self._queue
            and not self.closed
        ):
            parts: list[tuple[int, Array | None]] = []
            for slot, half in enumerate(self._halves):
                lo, hi = int(half[0]), int(half[-1]) + 1
                self._actions[slot][: hi - lo] = acts[lo:hi]
                if ords is not None:
                    self._order[slot][: hi - lo] = ords[lo:hi]
                self._ids[slot][: hi - lo] = half
                self._send(_OP_STEP, flags, slot, hi - lo)
                parts.append((slot, half))
            self._queue.append(parts)
            return
        slot = self._take_slot(ids)
        self._actions[slot][:b] = acts
        if ords is not None:
            self._order[slot][:b] = ords
        count = self._put_ids(slot, ids)
        self._send(_OP_STEP, flags, slot, count)
        self._queue.append([(slot, ids)])

    def send_recv(self) -> None:
        """Queues a wait for envs still running from an async step."""
        slot = self._take_slot(None)
        self._send(_OP_RECV, 0, slot, 0)
        self._queue.append([(slot, None)])

    def recv(self) -> Batch:
        """Waits for the answer to the oldest queued request.

        Raises:
            JgymError: The server refused the request (the subclass follows
                its gRPC code; the channel stays open) or went away.
        """
        if not self._queue:
            raise SessionError("recv without a pending request")
        entry = self._queue[0]
        if len(entry) == 1:  # one request (all but a step sent as halves)
            slot, ids = entry[0]
            try:
                status, b, f = _ANSWER.unpack(self._read(self._head))
                message = "" if status == 0 else self._read(bytearray(b)).decode("utf-8", "replace")
            except BaseException:
                self.abandon()
                raise
            self._queue.popleft()
            if status != 0:
                raise _error(status, message, f"session {self.session.id}")
            return self._batch(slot, b, f, whole=ids is None)
        got: list[tuple[int, int, int]] = []
        error: JgymError | None = None
        obs: dict[str, Array] | None = None
        try:
            for slot, ids in entry:
                status, b, f = _ANSWER.unpack(self._read(self._head))
                if status != 0:
                    message = self._read(bytearray(b)).decode("utf-8", "replace")
                    error = error or _error(status, message, f"session {self.session.id}")
                    continue
                got.append((slot, b, f))
                if len(entry) > 1 and ids is not None:
                    # A half: its rows now, while the server steps the next.
                    if obs is None:
                        obs = {
                            k: np.empty(v.shape, v.dtype) if self.copy else v
                            for k, v in self._obs.items()
                        }
                    if self.copy:
                        lo, hi = int(ids[0]), int(ids[-1]) + 1
                        for k, v in self._obs.items():
                            obs[k][lo:hi] = v[lo:hi]
        except BaseException:
            self.abandon()
            raise
        self._queue.popleft()
        if error is not None:
            raise error
        if obs is not None:
            return self._joined(got, obs)
        slot, b, f = got[0]
        return self._batch(slot, b, f, whole=entry[0][1] is None)

    def _read(self, buf: bytearray) -> bytearray:
        n = len(buf)
        if n == 0:
            return buf
        got = self._sock.recv_into(buf)  # a header nearly always comes whole
        while got < n:
            # 0 at first: the server hung up (the rest: read after a piece)
            k = self._sock.recv_into(memoryview(buf)[got:]) if got else 0
            if k == 0:
                self.abandon()
                raise ServerUnavailableError(
                    f"session {self.session.id}: the server closed the local channel"
                )
            got += k
        return buf

    def _final(self, o: _SlotOut, ids: Array, f: int) -> tuple[Array, dict[str, Array]]:
        findex = o.findex[:f].copy()
        final = {k: v[ids[findex]] for k, v in self._finals.items()} if f else {}
        return findex, final

    def _batch(self, slot: int, b: int, f: int, whole: bool) -> Batch:
        o = self._o[slot]
        if b == self.num_envs:  # whole arrays: no slices to make
            return self._batch_all(o, f, whole)
        ids = o.ids[:b].copy()
        if whole:
            obs = {k: v.copy() if self.copy else v for k, v in self._obs.items()}
        else:
            obs = {k: v[ids] for k, v in self._obs.items()}  # fancy indexing copies
        findex, final = self._final(o, ids, f)
        return Batch(
            env_ids=ids,
            obs=obs,
            reward=o.reward[:b].copy(),
            terminated=o.term[:b].copy(),
            truncated=o.trunc[:b].copy(),
            scores=o.scores[:b].copy(),
            rank=o.rank[:b].copy(),
            round=o.round[:b].copy(),
            seat=o.seats[:b].copy(),
            episode=o.episode[:b].copy(),
            final_index=findex,
            final_obs=final,
            final_scores=o.fscores[:f].copy(),
            unit_rewards=None if o.unit is None else o.unit[:b].copy(),
        )

    def _batch_all(self, o: _SlotOut, f: int, whole: bool) -> Batch:
        """:meth:`_batch` of every env (``whole``: in order)."""
        ids = o.ids.copy()
        if whole:
            obs = {k: v.copy() if self.copy else v for k, v in self._obs.items()}
        else:
            obs = {k: v[ids] for k, v in self._obs.items()}
        findex, final = self._final(o, ids, f)
        return Batch(
            env_ids=ids,
            obs=obs,
            reward=o.reward.copy(),
            terminated=o.term.copy(),
            truncated=o.trunc.copy(),
            scores=o.scores.copy(),
            rank=o.rank.copy(),
            round=o.round.copy(),
            seat=o.seats.copy(),
            episode=o.episode.copy(),
            final_index=findex,
            final_obs=final,
            final_scores=o.fscores[:f].copy(),
            unit_rewards=None if o.unit is None else o.unit.copy(),
        )

    def _joined(self, got: list[tuple[int, int, int]], obs: dict[str, Array]) -> Batch:
        """The batch of a step sent as halves: every env, in order."""
        parts = [(self._o[slot], b, f) for slot, b, f in got]

        def cat(field: str) -> Array:
            return np.concatenate([getattr(o, field)[:b] for o, b, _ in parts])

        ids = cat("ids")
        findex: list[Array] = []
        finals: list[dict[str, Array]] = []
        at = 0
        for o, b, f in parts:
            fi, fo = self._final(o, o.ids[:b], f)
            findex.append(fi + at)
            finals.append(fo)
            at += b
        final_index = np.concatenate(findex).astype(np.int32)
        final = (
            {k: np.concatenate([fo[k] for fo in finals if fo]) for k in self._finals}
            if len(final_index)
            else {}
        )
        return Batch(
            env_ids=ids,
            obs=obs,
            reward=cat("reward"),
            terminated=cat("term"),
            truncated=cat("trunc"),
            scores=cat("scores"),
            rank=cat("rank"),
            round=cat("round"),
            seat=cat("seats"),
            episode=cat("episode"),
            final_index=final_index,
            final_obs=final,
            final_scores=np.concatenate([o.fscores[:f] for o, _, f in parts]),
            unit_rewards=None if parts[0][0].unit is None else cat("unit"),
        )

    # --- the end ------------------------------------------------------------

    def abandon(self) -> None:
        """Hangs up without a bye: the server closes the session (as a vanished client's)."""
        self._close(bye=False)

    def close(self) -> None:
        """Says bye and hangs up; the session stays open (for gRPC). Idempotent."""
        self._close(bye=not self._queue)

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
        self._queue.clear()
        # Views handed out with copy=False keep a region mapped until they
        # go; the channel's own are dropped here.
        self._o, self._ids, self._actions, self._order = [], [], [], []
        self._obs, self._finals = {}, {}
        for m in (self._in, self._out):
            # A view of the caller's may still map it: unmapped when it goes.
            with contextlib.suppress(BufferError):
                m.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{len(self._queue)} pending"
        return f"<LocalChannel {self.session.id} {self.session.local_socket} {state}>"


class exchange:  # noqa: N801 (used as a function: ``with exchange(links):``)
    """Runs requests and the reading of their answers, never half done.

    A KeyboardInterrupt (or any exception but a :class:`JgymError`
    answer) raised inside, wherever it lands (between sending a request and
    noting it, between two links, before an answer is read), abandons every
    link: their pending answers are dropped and the next reset makes new
    sessions, so that no later call reads the answer of an earlier request;
    then ``abandoned`` is called (the caller forgets what it was waiting for).

    A class rather than a generator-based context manager: it is entered
    several times per step, and a generator costs several calls each time.
    """

    __slots__ = ("_abandoned", "_links")

    def __init__(
        self, links: Sequence[SessionLink], abandoned: Callable[[], None] | None = None
    ) -> None:
        self._links = links
        self._abandoned = abandoned

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None or issubclass(kind, JgymError):
            return
        for link in self._links:
            link.abandon()
        if self._abandoned is not None:
            self._abandoned()


class SessionLink:
    """How one session's requests travel: its local channel, else its gRPC stream.

    Saved states and their restores always go over gRPC; the answers are
    taken from the transport each request went by, in order. A request
    over the channel first takes the answers of those before into
    ``_ready`` (the resets of several seeds); only a step sent as halves
    has two requests in flight.
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
        while self.channel.pending:
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

    def send_step(self, actions: Array, order: Array | None, halves: bool = False) -> None:
        """Queues a step of every env of the session (actions already checked).

        ``halves``: over the channel, as two halves in flight
        (:meth:`LocalChannel.send_step`).
        """
        if self.channel is not None:
            self._free()
            self.channel.send_step(actions, order, halves=halves, checked=True)
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
