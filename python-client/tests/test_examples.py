"""The examples and the benchmark run, with tiny budgets."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parent.parent


def run(script: str, *args: str, timeout: float = 120) -> str:
    if not (CLIENT / script).exists():
        pytest.skip(f"no {script} (tests run outside the source tree)")
    proc = subprocess.run(
        [sys.executable, str(CLIENT / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_random_agent(tmp_path: Path, short_config: str) -> None:
    cfg = tmp_path / "short.cnf"
    cfg.write_text(short_config)
    out = run("examples/random_agent.py", "--num-envs", "4", "--steps", "7", "--config", str(cfg))
    assert "env-steps/s over 4 envs" in out
    assert "8 games" in out  # two games of 3 rounds per env (the 4th step of each resets)


@pytest.mark.ecosystem
@pytest.mark.skipif(
    not importlib.util.find_spec("supersuit"), reason="needs supersuit (the [dev] extra)"
)
def test_supersuit_example(tmp_path: Path, address: str, short_config: str) -> None:
    """examples/supersuit_vec.py: two 3-round games in two worker processes, 7 steps."""
    cfg = tmp_path / "short.cnf"
    cfg.write_text(short_config)
    out = run(
        "examples/supersuit_vec.py",
        *("--steps", "7", "--copies", "2", "--num-cpus", "2"),
        *("--config", str(cfg), "--address", address),
    )
    assert "over 8 agents (2 games x 4 seats, 2 worker processes)" in out
    assert "16 agent-episodes: mean return" in out  # both games end twice: rounds 3 and 6


def test_write_trace(tmp_path: Path) -> None:
    res = tmp_path / "game.res"
    out = run("examples/write_trace.py", "--out", str(res), "--seed", "2")
    assert res.exists() and res.read_text().startswith("Game")
    assert "wrote" in out


@pytest.mark.skipif(
    not (importlib.util.find_spec("stable_baselines3") and importlib.util.find_spec("torch")),
    reason="needs the [train] extra (stable-baselines3, torch)",
)
def test_sb3_example() -> None:
    out = run(
        "examples/sb3_example.py",
        "--total-timesteps",
        "128",
        "--n-steps",
        "64",
        "--nb-rounds",
        "4",
        timeout=300,
    )
    assert "evaluation game" in out


def test_bench_python() -> None:
    out = run(
        *("benchmarks/bench_python.py", "--envs", "1,2", "--steps", "5", "--repeat", "1"),
        *("--no-go", "--transports", "local,grpc", "--stat", "median"),
    )
    assert "Python (gRPC)" in out and "Python (local)" in out


@pytest.mark.skipif(not importlib.util.find_spec("torch"), reason="needs the [train] extra")
def test_bench_forward_profile() -> None:
    """bench_forward.py times a forward pass and a training step of the network
    --net describes, and --profile prints the step's longest operators."""
    out = run(
        "benchmarks/bench_forward.py",
        *("--net", "local:crop=3,hidden=16", "--batch", "4", "--rounds", "3", "--repeat", "1"),
        *("--threads", "1", "--update", "--profile", "3"),
    )
    assert "ms per forward pass" in out and "ms per training step" in out
    assert "Self CPU time total" in out and "Input Shapes" in out


def test_crematoria_totals(tmp_path: Path) -> None:
    """benchmarks/crematoria_totals.py: each bot's mean cells, gems and
    score over traces; the scores are the ones the engine prints, and the
    games have gems (Riddick picks them), so both terms count."""
    import os
    import re

    from jgym.server import ENV_BIN, find_binary

    jgym = os.environ.get(ENV_BIN) or str(find_binary())
    printed: dict[str, list[int]] = {}
    for seed in (3, 4):
        p = subprocess.run(
            [jgym, "match", "Riddick", "Demo", "Riddick", "Null", "-s", str(seed),
             "-o", str(tmp_path / f"g{seed}.res")],
            capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
        for name, score in re.findall(r"player (\w+) got score (\d+)", p.stdout + p.stderr):
            printed.setdefault(name, []).append(int(score))
    out = run("benchmarks/crematoria_totals.py", str(tmp_path))
    assert out.startswith("2 games")
    rows = {r.split()[0]: r.split()[1:] for r in out.splitlines()[2:]}
    assert set(rows) == {"Riddick", "Demo", "Null"} == set(printed)
    for name, (seats, cells, gems, score) in rows.items():
        assert int(seats) == len(printed[name])
        assert float(score) == pytest.approx(sum(printed[name]) / len(printed[name]), abs=0.05)
        assert float(score) == pytest.approx(float(cells) + 30 * float(gems), abs=0.1)
    assert float(rows["Riddick"][2]) > 0
    (tmp_path / "broken.res").write_text("Game\n\nnot a trace\n")
    proc = subprocess.run(
        [sys.executable, str(CLIENT / "benchmarks/crematoria_totals.py"), str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode != 0 and "broken.res: not a Crematoria trace" in proc.stderr
