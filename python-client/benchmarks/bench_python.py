"""Env-steps per second received in Python, next to the in-process Go figure.

For each number of envs, a :class:`jgym.JgymVectorEnv` (one learner seat,
three ``Demo`` bots, seed 1, full observations) is stepped ``--steps`` times
with the same fixed legal actions as Go's ``BenchmarkStep`` in ``vec/``
(a hash of env, round and slot moved to the next legal direction, computed
once from the reset batch). Right before, vec's ``BenchmarkStep`` (built
once with ``go test -c ./vec/``) runs the same number of batches in process
(``-test.bench '^BenchmarkStep$/^envs=N$' -test.benchtime <steps>x``), so
both figures cover the same rounds of the same games. Each pair is measured
``--repeat`` times and the best of each kept (the machine may be busy with
other work). The CPU time per env-step of the Python and server processes
together does not depend on that load; compare it with the in-process CPU
figure of ``benchmarks/grpcbench``.

    python benchmarks/bench_python.py                 # 1, 16, 64, 256 envs
    python benchmarks/bench_python.py --envs 64,256 --transports local,grpc --stat median
    python benchmarks/bench_python.py --envs 64 --steps 120 --no-go
    python benchmarks/bench_python.py --game Moria-v0     # another game (no Go figure)

vec's ``BenchmarkStep`` plays Crematoria: for another game the Go column is
left out; ``go run ./benchmarks/grpcbench -game GAME`` has its in-process
figures.

``--transports`` picks how Python gets its batches: ``grpc`` (the
default), ``local`` (the local channel's shared memory, docs/local.md), or
both, measured one after the other within each repeat.

With 1 in ``--envs``, one env from Python is also timed step by step:
``gymnasium.make("jgym/Crematoria-v0")`` over each transport, the same
fixed actions, its median step (p50) against the median batch of vec's
benchmark of one env (``p50-us/batch``).

Without ``--address`` a local ``jgym serve`` is started (all cores).
``JGYM_QUICK=1`` (set by the docs harness) shrinks it to a smoke test: the
first two sizes, 10 batches, once.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import jgym
from jgym.cli import parse
from jgym.server import find_source_tree


@dataclass
class Args:
    """Command-line arguments (each field is a ``--flag``)."""

    game: str = "Crematoria-v0"
    """the game's env id"""
    envs: str = "1,16,64,256"
    """comma-separated numbers of envs"""
    steps: int = 120
    """batches per measurement (a default game lasts 120 rounds)"""
    repeat: int = 3
    """measurements per point; the best is kept"""
    address: str = ""
    """host:port of a running jgym server (default: start one)"""
    go: bool = True
    """also run the in-process Go benchmark of vec (--no-go skips it)"""
    raw: bool = False
    """receive raw observations instead of deltas (observation_delta=False)"""
    transports: str = "grpc"
    """comma-separated: grpc, local (the local channel's shared memory)"""
    stat: str = "best"
    """best or median of the repeats"""


def parse_args(argv: list[str] | None = None) -> Args:
    """Builds the command line from the Args dataclass (``--help`` describes each flag)."""
    args = parse(Args, argv, __doc__.splitlines()[0])
    if os.environ.get("JGYM_QUICK"):
        # A smoke test of the command as written (the docs harness sets it).
        args.envs = ",".join(args.envs.split(",")[:2])
        args.steps = min(args.steps, 10)
        args.repeat = 1
    return args


def go_policy(mask: np.ndarray[Any, Any], rounds: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The actions of vec's benchmark policy (vec/pool_test.go ``policy``).

    Args:
        mask: ``[N, U, D]`` action masks (one learner seat).
        rounds: ``[N]`` round numbers.

    Returns:
        ``[N, U]`` int8 directions.
    """
    n, u, dirs = mask.shape
    ids = np.arange(n, dtype=np.uint64)[:, None]
    slots = np.arange(u, dtype=np.uint64)[None, :]
    r = rounds.astype(np.uint64)[:, None]
    m32 = np.uint64(0xFFFFFFFF)
    h = (
        ((ids * np.uint64(2654435761)) & m32)
        ^ ((r * np.uint64(40503)) & m32)
        ^ (slots * np.uint64(97))
    )
    d = (h % np.uint64(dirs)).astype(np.int64)
    for _ in range(dirs):  # move to the next legal direction
        legal = np.take_along_axis(mask, d[..., None], axis=2)[..., 0] != 0
        d = np.where(legal, d, (d + 1) % dirs)
    out: np.ndarray[Any, Any] = d.astype(np.int8)
    return out


@dataclass
class Point:
    """One measurement: env-steps per second and CPU microseconds per env-step."""

    rate: float
    cpu_us: float | None
    p50_us: float | None = None  # the median step (batch), where timed


def _proc_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used so far (Linux)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()  # noqa: SIM115
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_python(
    n: int,
    steps: int,
    address: str,
    server_pid: int | None,
    *,
    delta: bool = True,
    game: str = "Crematoria-v0",
    local: bool = False,
) -> Point:
    """Steps ``n`` envs ``steps`` times through the server.

    The CPU figure adds the Python process's and the server's CPU time (both
    sides of the socket); ``None`` for a server that is not ours.
    """
    envs = jgym.make_vec(game, num_envs=n, address=address, observation_delta=delta, local=local)
    try:
        if envs.local_sessions != [local]:
            raise SystemExit(f"local={local} asked, the session's is {envs.local_sessions}")
        obs, info = envs.reset(seed=1)
        actions = go_policy(obs["action_mask"], info["round"])
        server0 = _proc_cpu(server_pid) if server_pid else None
        cpu0 = time.process_time()
        start = time.perf_counter()
        for _ in range(steps):
            envs.step(actions)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu0
        server1 = _proc_cpu(server_pid) if server_pid else None
    finally:
        envs.close()
    cpu_us = None
    if server0 is not None and server1 is not None:
        cpu_us = (cpu + server1 - server0) / (n * steps) * 1e6
    return Point(n * steps / elapsed, cpu_us)


def bench_one_env(steps: int, address: str, *, local: bool, game: str = "Crematoria-v0") -> float:
    """The median step in microseconds of ``gymnasium.make`` 's env over a transport.

    The actions are fixed from the reset's mask (vec's benchmark policy);
    at most ``steps`` steps, fewer if the game ends first.
    """
    env = gymnasium.make(f"jgym/{game}", address=address, local=local)
    try:
        if (env.unwrapped._link.channel is not None) != local:
            raise SystemExit(f"one env: local={local} asked, not what the session uses")
        obs, info = env.reset(seed=1)
        act = go_policy(obs["action_mask"][None], np.array([info["round"]]))[0]
        took = []
        for _ in range(steps):
            t0 = time.perf_counter_ns()
            _, _, term, trunc, _ = env.step(act)
            took.append(time.perf_counter_ns() - t0)
            if term or trunc:
                break
    finally:
        env.close()
    return float(np.median(took)) / 1e3


def build_go_bench(src: Path, out: Path) -> Path:
    """Compiles vec's benchmark binary once (``go test -c``)."""
    binary = out / "vec.test"
    subprocess.run(["go", "test", "-c", "-o", str(binary), "./vec/"], cwd=src, check=True)
    return binary


def bench_go(binary: Path, src: Path, n: int, steps: int) -> Point | None:
    """Runs vec's BenchmarkStep for n envs in process.

    Its CPU per env-step is the benchmark process's over the timed steps
    only (its ``cpu-us/env-step`` metric).
    """
    cmd = [
        str(binary), "-test.run", "^$", "-test.bench", f"^BenchmarkStep$/^envs={n}$",
        "-test.benchtime", f"{steps}x",
    ]  # fmt: skip
    out = subprocess.run(cmd, cwd=src / "vec", capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.match(r"BenchmarkStep/envs=(\d+)\S*\s.*?([\d.e+]+) env-steps/s", line)
        if m and int(m.group(1)) == n:
            cpu = re.search(r"([\d.e+]+) cpu-us/env-step", line)
            p50 = re.search(r"([\d.e+]+) p50-us/batch", line)
            return Point(
                float(m.group(2)),
                float(cpu.group(1)) if cpu else None,
                float(p50.group(1)) if p50 else None,
            )
    return None


def _load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> None:
    """Measures and prints the table."""
    args = parse_args(argv)
    sizes = [int(s) for s in args.envs.split(",")]
    print(
        f"python {platform.python_version()}, {platform.machine()}, "
        f"{args.game}; {os.cpu_count()} cores; {args.steps} batches per point, "
        f"{args.stat} of {args.repeat}; load average {_load()}"
    )
    if args.go and args.game != "Crematoria-v0":
        print(f"vec's BenchmarkStep plays Crematoria: no Go figure for {args.game}")
        args.go = False
    src = None if not args.go else find_source_tree()
    if args.go and src is None:
        print("no jgym source tree: no Go figures")
    server = None
    address = args.address or None
    if address is None:
        server = jgym.LocalServer()
        address = server.address
    transports = args.transports.split(",")
    if not set(transports) <= {"grpc", "local"} or args.stat not in ("best", "median"):
        raise SystemExit("--transports takes grpc and local; --stat best or median")
    py: dict[tuple[str, int], list[Point]] = {}
    go: dict[int, list[Point]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        go_binary = build_go_bench(src, Path(tmp)) if src is not None else None
        if go_binary is not None:
            print(
                f"Go: {go_binary.name} -test.bench '^BenchmarkStep$/^envs=N$' "
                f"-test.benchtime {args.steps}x   (go test -c ./vec/)"
            )
        try:
            for n in sizes:
                for _ in range(args.repeat):
                    if go_binary is not None and src is not None:
                        g = bench_go(go_binary, src, n, args.steps)
                        if g is not None:
                            go.setdefault(n, []).append(g)
                    for t in transports:
                        p = bench_python(
                            n,
                            args.steps,
                            address,
                            server.pid if server else None,
                            delta=not args.raw,
                            game=args.game,
                            local=t == "local",
                        )
                        if n == 1:
                            p.p50_us = bench_one_env(
                                args.steps, address, local=t == "local", game=args.game
                            )
                        py.setdefault((t, n), []).append(p)
        finally:
            if server is not None:
                server.close()
    print(f"load average after: {_load()}")
    pick = _median if args.stat == "median" else _best_of
    head = f"\n{'envs':>6} {'Go in-process':>14} {'CPU us':>8}"
    for t in transports:
        name = "Python (gRPC)" if t == "grpc" else "Python (local)"
        head += f" {name:>14} {'ratio':>6} {'CPU us':>8} {'CPU ratio':>9}"
    print(head)
    for n in sizes:
        g = pick(go[n]) if n in go else None
        gcpu = g.cpu_us if g else None
        line = f"{n:6d} {_num(g.rate if g else None, 14)} {_num(gcpu, 8, '.1f')}"
        for t in transports:
            p = pick(py[(t, n)])
            rate_ratio = f"{p.rate / g.rate:.2f}" if g else "-"
            cpu_ratio = f"{p.cpu_us / gcpu:.2f}" if gcpu and p.cpu_us else "-"
            line += f" {p.rate:14,.0f} {rate_ratio:>6} {_num(p.cpu_us, 8, '.1f')} {cpu_ratio:>9}"
        print(line)
    if 1 in sizes:
        g = pick(go[1]) if 1 in go else None
        gp50 = g.p50_us if g else None
        line = f"\none env, p50 of a step in us: Go in-process {_num(gp50, 1, '.1f')}"
        for t in transports:
            p50 = pick(py[(t, 1)]).p50_us
            name = "gRPC" if t == "grpc" else "local"
            ratio = f" ({p50 / gp50:.2f}x)" if p50 and gp50 else ""
            line += f"; gymnasium.make ({name}) {_num(p50, 1, '.1f')}{ratio}"
        print(line)
    print(
        f"(env-steps/s: envs x batches per second, the {args.stat} of {args.repeat}; ratio: to the"
        " Go rate. CPU us: user + system per env-step, of the Go benchmark process, or of the"
        " Python and server processes together; CPU ratio: to Go's. One learner seat, three"
        " Demo bots.)"
    )


def _best_of(points: list[Point]) -> Point:
    """The fastest rate, the smallest CPU cost and the smallest p50 of the runs."""
    cpus = [p.cpu_us for p in points if p.cpu_us is not None]
    p50s = [p.p50_us for p in points if p.p50_us is not None]
    return Point(
        max(p.rate for p in points), min(cpus) if cpus else None, min(p50s) if p50s else None
    )


def _median(points: list[Point]) -> Point:
    """The median rate, CPU cost and p50 of the runs."""
    cpus = [p.cpu_us for p in points if p.cpu_us is not None]
    p50s = [p.p50_us for p in points if p.p50_us is not None]
    rate = float(np.median([p.rate for p in points]))
    return Point(
        rate,
        float(np.median(cpus)) if cpus else None,
        float(np.median(p50s)) if p50s else None,
    )


def _num(x: float | None, width: int, fmt: str = ",.0f") -> str:
    return f"{x:{width}{fmt}}" if x is not None else f"{'-':>{width}}"


if __name__ == "__main__":
    main()
