"""No server outlives its environments, whatever way Python ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jgym
from jgym.env import JgymEnv


def alive(pid: int) -> bool:
    """Whether pid is a live process (a zombie counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_gone(pid: int, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_close_stops_the_server() -> None:
    env = JgymEnv()
    pid = env.server_pid
    assert pid is not None and alive(pid)
    env.reset(seed=0)
    env.close()
    assert wait_gone(pid)


def test_shared_server_stops_with_the_last_env() -> None:
    a = JgymEnv()
    b = jgym.make_vec("Crematoria-v0", num_envs=2)
    pid = a.server_pid
    assert pid is not None and b.server_pids == [pid]
    a.close()
    assert alive(pid)
    b.close()
    assert wait_gone(pid)


def test_env_made_in_a_short_lived_thread() -> None:
    """PR_SET_PDEATHSIG follows the forking thread: the server must not die with it."""
    made: list[JgymEnv] = []
    t = threading.Thread(target=lambda: made.append(JgymEnv()))
    t.start()
    t.join()
    env = made[0]
    try:
        time.sleep(0.3)
        assert env.server_pid is not None and alive(env.server_pid)
        env.reset(seed=1)
    finally:
        pid = env.server_pid
        env.close()
    assert pid is not None and wait_gone(pid)


@pytest.fixture
def run_child() -> Iterator[Callable[[str], subprocess.Popen[str]]]:
    """Starts Python children running a body after the imports; kills those still running.

    A child left running by a failed test would go on stepping its server
    for ever, on the cores the rest of the suite needs.
    """
    children: list[subprocess.Popen[str]] = []

    def start(body: str) -> subprocess.Popen[str]:
        code = textwrap.dedent(
            """
            import sys, time
            import numpy as np
            import jgym
            """
        ) + textwrap.dedent(body)
        child = subprocess.Popen(
            [sys.executable, "-c", code],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ.copy(),
        )
        children.append(child)
        return child

    yield start
    for child in children:
        if child.poll() is None:
            child.kill()  # its server follows (PR_SET_PDEATHSIG)
            child.wait(10)


def read_pid(child: subprocess.Popen[str]) -> int:
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line, child.stderr.read() if child.stderr else "no output"
    return int(line)


def test_interpreter_exit_without_close(run_child: Callable[[str], subprocess.Popen[str]]) -> None:
    child = run_child(
        """
        envs = jgym.make_vec("Crematoria-v0", num_envs=2)
        envs.reset(seed=0)
        print(envs.server_pids[0], flush=True)
        # exits without envs.close()
        """
    )
    pid = read_pid(child)
    assert child.wait(30) == 0
    assert wait_gone(pid)


def test_python_killed(run_child: Callable[[str], subprocess.Popen[str]]) -> None:
    # An idle server: nothing it writes to its closed log pipe could end it,
    # so only PR_SET_PDEATHSIG can.
    child = run_child(
        """
        server = jgym.LocalServer()
        print(server.pid, flush=True)
        time.sleep(60)
        """
    )
    pid = read_pid(child)
    assert alive(pid)
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    assert wait_gone(pid)


def test_ctrl_c(run_child: Callable[[str], subprocess.Popen[str]]) -> None:
    child = run_child(
        """
        # Python leaves SIGINT ignored when it starts ignored (a test run
        # started in the background by a shell without job control): the
        # handler of an interactive session, as a user at a terminal has.
        import signal
        signal.signal(signal.SIGINT, signal.default_int_handler)
        envs = jgym.make_vec("Crematoria-v0", num_envs=4)
        obs, _ = envs.reset(seed=0)
        print(envs.server_pids[0], flush=True)
        # A child that is still there 20 s on prints where it hangs.
        import faulthandler
        faulthandler.dump_traceback_later(20)
        while True:
            obs, *_ = envs.step(np.full((4, 80), 10))
        """
    )
    pid = read_pid(child)
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    try:
        code = child.wait(30)
    except subprocess.TimeoutExpired:
        child.kill()
        _, err = child.communicate(timeout=10)
        pytest.fail(f"the child did not end within 30 s of SIGINT; its stderr ends:\n{err[-6000:]}")
    assert code != 0
    assert child.stderr is not None and "KeyboardInterrupt" in child.stderr.read()
    assert wait_gone(pid)


@pytest.mark.parametrize("local", [False, True], ids=["grpc", "local"])
def test_an_interrupt_anywhere_leaves_the_env_usable(address: str, local: bool) -> None:
    """A KeyboardInterrupt at any line of jgym's code in a step, a reset or a
    set_state (raised there by a trace function, one line per try) must not
    shift later answers by one: the next reset starts every game afresh."""
    pkg = str(Path(jgym.__file__).parent)
    envs = jgym.make_vec("Crematoria-v0", num_envs=4, address=address, local=local)
    acts = np.full((4, 80), 10)
    try:
        envs.reset(seed=0)
        envs.step(acts)
        saved = envs.get_state()
        for what, call in [
            ("step", lambda: envs.step(acts)),
            ("reset", lambda: envs.reset(seed=5)),
            ("set_state", lambda: envs.set_state(saved)),
        ]:
            k, lines = 0, 0
            while True:
                k += 1
                lines = 0

                def local_trace(frame: Any, event: str, arg: Any, k: int = k) -> Any:
                    nonlocal lines
                    if event == "line":
                        lines += 1
                        if lines == k:
                            raise KeyboardInterrupt
                    return local_trace

                def trace(frame: Any, event: str, arg: Any) -> Any:
                    return local_trace if frame.f_code.co_filename.startswith(pkg) else None

                interrupted = False
                sys.settrace(trace)
                try:
                    call()
                except KeyboardInterrupt:
                    interrupted = True
                finally:
                    sys.settrace(None)
                if not interrupted:
                    break
                _, info = envs.reset(seed=0)
                assert (info["round"] == 0).all(), f"{what}, interrupted at line {k}"
                _, _, _, _, info = envs.step(acts)
                assert (info["round"] == 1).all(), f"{what}, interrupted at line {k}"
            assert k > 10, f"{what}: only {k - 1} lines of jgym's code traced"
    finally:
        envs.close()


def test_interrupted_step_leaves_the_env_usable(address: str) -> None:
    """A KeyboardInterrupt while waiting must not shift later answers by one."""
    import _thread

    envs = jgym.make_vec("Crematoria-v0", num_envs=256, address=address)
    try:
        envs.reset(seed=0)
        timer = threading.Timer(0.005, _thread.interrupt_main)
        timer.start()
        try:
            for _ in range(100):
                envs.step(np.full((256, 80), 10))
        except KeyboardInterrupt:
            pass
        timer.cancel()
        _, info = envs.reset(seed=0)
        assert (info["round"] == 0).all()
        _, _, _, _, info = envs.step(np.full((256, 80), 10))
        assert (info["round"] == 1).all()
    finally:
        envs.close()


def test_exit_leaves_nothing_for_finalization(address: str) -> None:
    """The client's finalizer (atexit) marks its sessions closed.

    A vector env's ``__del__`` then has nothing to say to the server during
    the interpreter's finalization, when gRPC's threads are frozen.
    """
    envs = jgym.make_vec("Crematoria-v0", num_envs=2, address=address)
    envs.reset(seed=0)
    envs.step(np.full((2, 80), 10))
    client, session = envs._clients[0], envs._sessions[0]
    assert not session.closed
    client._finalizer()  # what atexit runs
    assert session.closed
    calls: list[str] = []
    client.stub.CloseSession = lambda *a, **k: calls.append("CloseSession")
    envs.close()
    assert calls == []
