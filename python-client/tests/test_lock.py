"""The lock of make demo's venv (constraints-train.txt) is the fresh cut of the full lock.

scripts/lock_subset.py follows the requirements of jgym[train] through the
installed packages' metadata; these tests run it in the test venv (the full
lock's: make setup) and compare with the file setup-python.sh installs.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

CLIENT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def lock_subset() -> ModuleType:
    path = CLIENT / "scripts" / "lock_subset.py"
    spec = importlib.util.spec_from_file_location("lock_subset_under_test", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def pins(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            out[name.lower().replace("_", "-")] = version
    return out


def test_train_lock_is_fresh(lock_subset: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    rc = lock_subset.main(["--extras", "train", "--check"])
    assert rc == 0, capsys.readouterr().err


def test_train_lock_is_part_of_the_full_lock() -> None:
    full = pins(CLIENT / "constraints.txt")
    train = pins(CLIENT / "constraints-train.txt")
    assert train, "constraints-train.txt pins nothing"
    for name, version in train.items():
        assert full.get(name) == version, f"{name}=={version} is not in constraints.txt"


def test_train_lock_holds_the_demo_and_nothing_of_the_other_extras() -> None:
    train = pins(CLIENT / "constraints-train.txt")
    # jgym's own requirements, the train extra's, and some of theirs.
    for name in (
        "numpy", "grpcio", "protobuf", "gymnasium", "pettingzoo", "torch", "onnx",
        "matplotlib", "stable-baselines3", "sb3-contrib", "tensorboard", "tqdm",
        "sympy", "nvidia-cublas",
    ):  # fmt: skip
        assert name in train, f"{name} missing from constraints-train.txt"
    # the other extras' packages (rllib, video, dev) and Triton (left out of every lock).
    for name in ("ray", "pyarrow", "moviepy", "imageio-ffmpeg", "pytest", "mypy", "supersuit",
                 "grpcio-tools", "triton"):  # fmt: skip
        assert name not in train, f"{name} in constraints-train.txt"


def test_a_venv_that_is_not_the_locks_is_refused(lock_subset: ModuleType) -> None:
    full = lock_subset.read_lock(lock_subset.FULL_LOCK)
    other = dict(full)
    line, version = other["numpy"]
    other["numpy"] = (line.replace(version, "1.99.0"), "1.99.0")
    with pytest.raises(lock_subset.LockError, match="numpy"):
        lock_subset.closure(["train"], other)
    missing = {k: v for k, v in full.items() if k != "filelock"}
    with pytest.raises(lock_subset.LockError, match=r"filelock .* is not in constraints\.txt"):
        lock_subset.closure(["train"], missing)
    with pytest.raises(lock_subset.LockError, match="no extra 'gpu'"):
        lock_subset.closure(["gpu"], full)
