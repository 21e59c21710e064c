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
        "benchmarks/bench_python.py", "--envs", "1,2", "--steps", "5", "--repeat", "1", "--no-go"
    )
    assert "Python (gRPC)" in out


@pytest.mark.skipif(not importlib.util.find_spec("torch"), reason="needs the [train] extra")
def test_bench_forward_profile() -> None:
    """bench_forward.py times a forward pass and a training step of the network
    --extra describes, and --profile prints the step's longest operators."""
    out = run(
        "benchmarks/bench_forward.py",
        *("--net", "local", "--batch", "4", "--rounds", "3", "--repeat", "1", "--threads", "1"),
        *("--update", "--extra", "--crop 3 --hidden 16", "--profile", "3"),
    )
    assert "ms per forward pass" in out and "ms per training step" in out
    assert "Self CPU time total" in out and "Input Shapes" in out
