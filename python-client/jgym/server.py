"""Finding, building, starting and stopping a local ``jgym serve``.

When an environment is made without an address, jgym runs the Go server as a
child process on 127.0.0.1 and stops it when the last environment using it
closes. The binary is looked up in this order (:func:`find_binary`):

1. the ``JGYM_BIN`` environment variable;
2. the binary the wheel carries, ``jgym/bin/jgym`` in this package (the
   server of this package's release);
3. ``jgym`` on ``PATH``;
4. the cache, ``$JGYM_CACHE_DIR/bin/jgym`` (default
   ``~/.cache/jgym/bin/jgym``), unless a jgym source tree is found whose Go
   files are newer;
5. ``go build`` from a jgym source tree into the cache: the tree is
   ``$JGYM_SRC``, else the first directory above this package or above the
   working directory whose ``go.mod`` says ``module jgym``.

The child cannot outlive Python: it runs in its own process group (Ctrl-C in
the terminal reaches Python only, which then stops it), it is stopped by
:meth:`LocalServer.close`, by a :mod:`weakref` finalizer when the object is
collected, and at interpreter exit; and on Linux the kernel kills it if
Python dies without cleaning up (``prctl(PR_SET_PDEATHSIG)``, which the
server sets at start for the process named by ``$JGYM_PARENT_PID``; e.g.
after ``kill -9``).

Example:
    >>> from jgym.server import LocalServer
    >>> with LocalServer() as server:  # doctest: +SKIP
    ...     print(server.address)
    127.0.0.1:41231
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

import grpc

from jgym.errors import BinaryNotFoundError, ServerStartError

__all__ = [
    "PACKAGED_BIN",
    "LocalServer",
    "ServerLease",
    "build_binary",
    "cache_dir",
    "find_binary",
    "find_source_tree",
    "health_check",
    "shared_server",
]

#: Environment variable naming the jgym binary to run.
ENV_BIN = "JGYM_BIN"
#: Environment variable naming a jgym source tree to build from.
ENV_SRC = "JGYM_SRC"
#: Environment variable overriding the cache directory.
ENV_CACHE = "JGYM_CACHE_DIR"
#: The binary a wheel carries (setup.py compiles it into the package).
PACKAGED_BIN = (
    Path(__file__).resolve().parent / "bin" / ("jgym.exe" if sys.platform == "win32" else "jgym")
)

_HEALTH_CHECK = "/grpc.health.v1.Health/Check"
_SERVING = b"\x08\x01"  # grpc.health.v1.HealthCheckResponse{status: SERVING}
# The server announces its address in a log line, plain or JSON.
_ADDR_RE = re.compile(r"(?:127\.0\.0\.1|localhost|\[::1\]):([1-9][0-9]*)")
_SKIP_DIRS = {".git", ".venv", "node_modules", "python-client", "__pycache__", "bin", "testdata"}


def cache_dir() -> Path:
    """Returns the directory where jgym caches the binary it builds.

    Returns:
        ``$JGYM_CACHE_DIR``, else ``$XDG_CACHE_HOME/jgym``, else
        ``~/.cache/jgym``.
    """
    if os.environ.get(ENV_CACHE):
        return Path(os.environ[ENV_CACHE])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "jgym"


def _is_jgym_tree(d: Path) -> bool:
    gomod = d / "go.mod"
    try:
        with gomod.open() as f:
            for line in f:
                words = line.split()
                if words and words[0] == "module":
                    return len(words) > 1 and words[1] == "jgym"
    except OSError:
        return False
    return False


def find_source_tree() -> Path | None:
    """Finds a jgym Go source tree to build the binary from.

    Returns:
        ``$JGYM_SRC`` if set, else the first directory at or above this
        package, then at or above the working directory, whose ``go.mod``
        declares ``module jgym``; ``None`` if there is none.

    Raises:
        BinaryNotFoundError: ``$JGYM_SRC`` is set but is not a jgym tree.
    """
    if os.environ.get(ENV_SRC):
        src = Path(os.environ[ENV_SRC]).expanduser().resolve()
        if not _is_jgym_tree(src):
            raise BinaryNotFoundError(f"{ENV_SRC}={src}: no go.mod with 'module jgym' there")
        return src
    for start in (Path(__file__).resolve().parent, Path.cwd().resolve()):
        for d in (start, *start.parents):
            if _is_jgym_tree(d):
                return d
    return None


def _newest_source_mtime(src: Path) -> float:
    newest = 0.0
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.startswith(".")]
        for name in files:
            if (name.endswith(".go") and not name.endswith("_test.go")) or name in (
                "go.mod",
                "go.sum",
            ):
                with contextlib.suppress(OSError):
                    newest = max(newest, os.stat(os.path.join(root, name)).st_mtime)
    return newest


def build_binary(src: Path, out: Path) -> Path:
    """Builds ``jgym`` from a source tree with ``go build``.

    Concurrent builds into the same ``out`` are serialized with a file lock,
    and the binary is moved into place atomically.

    Args:
        src: A jgym source tree (its ``go.mod`` says ``module jgym``).
        out: Where to write the binary.

    Returns:
        ``out``.

    Raises:
        BinaryNotFoundError: Go is not installed or the build failed.
    """
    go = shutil.which("go")
    if go is None:
        raise BinaryNotFoundError(
            f"no jgym binary, and no Go toolchain to build one from {src}: "
            f"install Go, or set {ENV_BIN} to a jgym binary"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    lock_path = out.with_name(f".{out.name}.lock")
    with lock_path.open("w") as lock:
        _flock(lock)
        try:
            proc = subprocess.run(
                [go, "build", "-o", str(tmp), "./cmd/jgym"],
                cwd=src,
                capture_output=True,
                text=True,
                timeout=900,
                check=False,
            )
        except subprocess.TimeoutExpired as e:
            raise BinaryNotFoundError(f"go build in {src} timed out") from e
        if proc.returncode != 0:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise BinaryNotFoundError(f"go build in {src} failed:\n{proc.stderr.strip()}")
        os.replace(tmp, out)
    return out


def _flock(f: IO[str]) -> None:
    try:
        import fcntl  # noqa: PLC0415 (POSIX only)
    except ImportError:  # pragma: no cover - Windows
        return
    fcntl.flock(f, fcntl.LOCK_EX)


def find_binary(*, build: bool = True) -> Path:
    """Finds (or builds) the ``jgym`` binary, in the order of the module docs.

    Args:
        build: Whether to run ``go build`` when no usable binary exists.

    Returns:
        The path of an executable ``jgym``.

    Raises:
        BinaryNotFoundError: No binary was found and none could be built.
    """
    env_bin = os.environ.get(ENV_BIN)
    if env_bin:
        p = Path(env_bin).expanduser()
        if not (p.is_file() and os.access(p, os.X_OK)):
            raise BinaryNotFoundError(f"{ENV_BIN}={env_bin} is not an executable file")
        return p
    if PACKAGED_BIN.is_file() and os.access(PACKAGED_BIN, os.X_OK):
        return PACKAGED_BIN
    on_path = shutil.which("jgym")
    if on_path and not _is_entry_point(Path(on_path)):
        return Path(on_path)
    cached = cache_dir() / "bin" / "jgym"
    src = find_source_tree()
    usable = cached.is_file() and os.access(cached, os.X_OK)
    if usable and (src is None or _newest_source_mtime(src) <= cached.stat().st_mtime):
        return cached
    if src is not None and build:
        return build_binary(src, cached)
    raise BinaryNotFoundError(
        f"no jgym binary: install a jgym wheel (it carries one), set {ENV_BIN}, put jgym "
        f"on PATH, or set {ENV_SRC} to a jgym source tree (with Go installed) to build one"
    )


def _is_entry_point(p: Path) -> bool:
    """Whether ``p`` is the ``jgym`` script pip writes for :func:`run_binary` (not a binary)."""
    try:
        with p.open("rb") as f:
            head = f.read(512)
    except OSError:
        return False
    return head.startswith(b"#!") and b"run_binary" in head


def run_binary() -> None:
    """The ``jgym`` command a wheel installs: runs the binary with the same arguments."""
    binary = find_binary(build=False)
    args = [str(binary), *sys.argv[1:]]
    if sys.platform == "win32":  # no exec on Windows
        raise SystemExit(subprocess.call(args))
    os.execv(binary, args)


# --- child process management -------------------------------------------------


def _child_env() -> dict[str, str] | None:
    """The server's environment: on Linux it dies with this process.

    The server makes the prctl(PR_SET_PDEATHSIG) call itself, at start, for
    the process named by JGYM_PARENT_PID (cmd/jgym/parent_linux.go). Running
    prctl here between fork and exec (a preexec_fn) would make Python fork
    without vfork, and in a process holding gRPC channels, gRPC's fork
    handlers then run in that child, which could abort before exec (seen in
    a SuperSuit worker process).
    """
    if not sys.platform.startswith("linux"):
        return None
    return {**os.environ, "JGYM_PARENT_PID": str(os.getpid())}


class _Spawner:
    """Starts children from one long-lived thread.

    PR_SET_PDEATHSIG fires when the *thread* that forked the child exits, so a
    server started from a short-lived worker thread would die with it. Calls
    from threads other than the main one are therefore run here.
    """

    _lock = threading.Lock()
    _queue: queue.SimpleQueue[tuple[Callable[[], object], queue.SimpleQueue[object]]] | None = None

    @classmethod
    def run(cls, fn: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
        if threading.current_thread() is threading.main_thread():
            return fn()
        with cls._lock:
            if cls._queue is None:
                cls._queue = queue.SimpleQueue()
                threading.Thread(target=cls._loop, name="jgym-spawner", daemon=True).start()
        reply: queue.SimpleQueue[object] = queue.SimpleQueue()
        cls._queue.put((fn, reply))
        result = reply.get()
        if isinstance(result, BaseException):
            raise result
        assert isinstance(result, subprocess.Popen)
        return result

    @classmethod
    def _loop(cls) -> None:
        assert cls._queue is not None
        while True:
            fn, reply = cls._queue.get()
            try:
                reply.put(fn())
            except BaseException as e:
                reply.put(e)


def _stop_process(proc: subprocess.Popen[bytes], owner: int, timeout: float = 5.0) -> None:
    """Stops a server child and its process group: SIGTERM, then SIGKILL.

    Only in the process that started it (``owner``): a forked child (a
    subprocess vector env, a Ray worker) inherits the object but not the
    server, which goes on serving its parent.
    """
    if os.getpid() != owner:
        return
    pgid = proc.pid  # start_new_session: the child leads its own group
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
            proc.wait()
    # Whatever the server started (C++ bots) goes with it. The log reader
    # thread closes the pipe when it reads its end.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def health_check(channel: grpc.Channel, timeout: float) -> bool:
    """Asks a server whether it is serving (standard gRPC health check).

    Args:
        channel: A channel to the server.
        timeout: Seconds to wait for the answer.

    Returns:
        Whether the server answered SERVING (a server without the health
        service counts as serving when it answers at all).

    Raises:
        grpc.RpcError: The server could not be reached in time.
    """
    check = channel.unary_unary(
        _HEALTH_CHECK,
        request_serializer=lambda b: b,
        response_deserializer=lambda b: b,
    )
    try:
        return bool(check(b"", timeout=timeout, wait_for_ready=True) == _SERVING)
    except grpc.RpcError as e:
        if e.code() == grpc.StatusCode.UNIMPLEMENTED:
            return True
        raise


class LocalServer:
    """A ``jgym serve`` child process listening on 127.0.0.1.

    The server picks a free port and announces it; :attr:`address` is ready
    once the constructor returns (the server answered the gRPC health
    check).

    Args:
        binary: The jgym binary; default: :func:`find_binary`.
        workers: The server's worker goroutines (``--workers``); default: the
            server's own (one per core).
        args: More ``jgym serve`` arguments, e.g. ``("--trace-dir", "/tmp")``.
        startup_timeout: Seconds to wait for the server to answer.
        tls_ca: For a server started with ``--tls-cert``: the PEM file of
            its CA, to check that it answers over TLS.
        local_socket: Offer the local channel (``--local-socket``) on a
            random name of Linux's abstract socket namespace, which leaves
            no file behind however the server ends (default: on Linux);
            :attr:`local_socket` is its name (``@jgym-...``).

    Raises:
        ServerStartError: The server exited or did not answer in time; the
            message ends with its last log lines.
        BinaryNotFoundError: No binary was found and none could be built.

    Example:
        >>> server = LocalServer(workers=2)  # doctest: +SKIP
        >>> server.pid > 0, server.address.startswith("127.0.0.1:")  # doctest: +SKIP
        (True, True)
        >>> server.close()  # doctest: +SKIP
    """

    def __init__(
        self,
        *,
        binary: str | os.PathLike[str] | None = None,
        workers: int | None = None,
        args: Sequence[str] = (),
        startup_timeout: float = 60.0,
        tls_ca: str | os.PathLike[str] | None = None,
        local_socket: bool | None = None,
    ) -> None:
        self.binary = Path(binary) if binary is not None else find_binary()
        self._tls_ca = tls_ca
        cmd = [str(self.binary), "serve", "--addr", "127.0.0.1:0", "--log-format", "json"]
        if workers is not None:
            cmd += ["--workers", str(workers)]
        if local_socket is None:
            local_socket = sys.platform.startswith("linux")
        self.local_socket: str | None = None
        if local_socket:
            self.local_socket = f"@jgym-{os.getpid()}-{secrets.token_hex(8)}"
            cmd += ["--local-socket", self.local_socket]
        cmd += list(args)
        self.command = cmd
        self._log: collections.deque[str] = collections.deque(maxlen=200)
        self._port: queue.SimpleQueue[int | None] = queue.SimpleQueue()
        env = _child_env()

        def spawn() -> subprocess.Popen[bytes]:
            return subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env=env,
                close_fds=True,
            )

        try:
            self._proc = _Spawner.run(spawn)
        except OSError as e:
            raise ServerStartError(f"cannot run {self.binary}: {e}") from e
        self.pid = self._proc.pid
        self._finalizer = weakref.finalize(self, _stop_process, self._proc, os.getpid())
        threading.Thread(
            target=self._read_log, name=f"jgym-serve-{self.pid}-log", daemon=True
        ).start()
        try:
            self.address = self._wait_ready(startup_timeout)
        except BaseException:
            self.close()
            raise

    def _read_log(self) -> None:
        assert self._proc.stdout is not None
        announced = False
        for raw in self._proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip()
            self._log.append(line)
            if not announced:
                m = _ADDR_RE.search(line)
                if m:
                    announced = True
                    self._port.put(int(m.group(1)))
        if not announced:
            self._port.put(None)
        self._proc.stdout.close()

    def _wait_ready(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        try:
            port = self._port.get(timeout=timeout)
        except queue.Empty:
            port = None
        if port is None:
            raise ServerStartError(self._failure("did not announce its address"))
        address = f"127.0.0.1:{port}"
        if self._tls_ca is not None:
            creds = grpc.ssl_channel_credentials(root_certificates=Path(self._tls_ca).read_bytes())
            channel_cm = grpc.secure_channel(address, creds)
        else:
            channel_cm = grpc.insecure_channel(address)
        with channel_cm as channel:
            while True:
                left = deadline - time.monotonic()
                if self._proc.poll() is not None:
                    raise ServerStartError(self._failure("exited"))
                if left <= 0:
                    raise ServerStartError(self._failure(f"did not answer at {address}"))
                try:
                    if health_check(channel, timeout=min(left, 2.0)):
                        return address
                except grpc.RpcError:
                    pass
                time.sleep(0.05)

    def _failure(self, what: str) -> str:
        time.sleep(0.05)  # let the log reader catch the last lines
        code = self._proc.poll()
        status = f" (exit status {code})" if code is not None else ""
        tail = "\n".join(list(self._log)[-20:])
        return f"jgym serve {what}{status}: {' '.join(self.command)}\n{tail}"

    def log_tail(self, n: int = 50) -> list[str]:
        """Returns the last ``n`` lines the server logged."""
        return list(self._log)[-n:]

    def poll(self) -> int | None:
        """Returns the server's exit status, or ``None`` while it runs."""
        return self._proc.poll()

    @property
    def running(self) -> bool:
        """Whether the server process is alive."""
        return self._proc.poll() is None

    def close(self) -> None:
        """Stops the server (SIGTERM, then SIGKILL after 5 s). Idempotent."""
        self._finalizer()

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "running" if self.running else f"exited {self.poll()}"
        return f"<LocalServer pid={self.pid} {getattr(self, 'address', '?')} {state}>"


# --- the shared server --------------------------------------------------------

_shared_lock = threading.Lock()
_shared: LocalServer | None = None
_users: dict[int, int] = {}  # pid of a shared server -> leases held


class ServerLease:
    """A reference to the shared local server; releasing the last one stops it.

    Attributes:
        server: The shared :class:`LocalServer`.
    """

    def __init__(self, server: LocalServer) -> None:
        self.server = server
        self._released = False
        self._pid = os.getpid()

    def release(self) -> None:
        """Gives the lease back; the last release stops the server. Idempotent."""
        global _shared  # noqa: PLW0603 - the process-wide server
        if os.getpid() != self._pid:
            return  # a forked child's copy: the lease is the parent's
        with _shared_lock:
            if self._released:
                return
            self._released = True
            left = _users[self.server.pid] - 1
            _users[self.server.pid] = left
            if left > 0:
                return
            del _users[self.server.pid]
            if _shared is self.server:
                _shared = None
        self.server.close()


def _after_fork_in_child() -> None:
    """A forked child starts its own shared server when it needs one."""
    global _shared, _shared_lock, _users  # noqa: PLW0603 - the process-wide server
    _shared = None
    _users = {}
    _shared_lock = threading.Lock()  # the parent may have held it while forking


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def shared_server() -> ServerLease:
    """Returns a lease on the process's shared local server, starting it if needed.

    Environments made without an address share one server; it stops when the
    last of them releases its lease (and at interpreter exit in any case).

    Returns:
        A lease whose ``server`` is the :class:`LocalServer`; call
        ``release()`` when done.

    Raises:
        ServerStartError: The server could not be started.
    """
    global _shared  # noqa: PLW0603 - the process-wide server
    with _shared_lock:
        if _shared is None or not _shared.running:
            _shared = LocalServer()  # a dead one stays until its leases go
            _users[_shared.pid] = 0
        _users[_shared.pid] += 1
        return ServerLease(_shared)
