"""Shared fixtures: the jgym binary, a server, short games.

The tests find the binary as users do (jgym.server.find_binary). When neither
JGYM_BIN nor a ``jgym`` on PATH is there, the session builds one from the
source tree into a temporary directory once and sets JGYM_BIN, so that
subprocesses (cleanup tests, examples) use it too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from jgym.server import ENV_BIN, LocalServer, find_source_tree

HERE = Path(__file__).resolve().parent
CLIENT = HERE.parent

#: The default configuration with 3 rounds: episodes end after 3 steps.
SHORT_CONFIG = """Crematoria 1.2
nb_players             4
nb_rounds              3
nb_furyans             5
nb_pioneers           15
max_nb_necromongers   10
nb_hellhounds          3
nb_elevators          20
gem_value             30
turns_to_land          2
rows                  40
cols                  80

GENERATOR
"""


_built: list[Path] = []


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get(ENV_BIN) or shutil.which("jgym"):
        return
    src = find_source_tree()
    if src is None:
        return  # find_binary will say what is missing
    out = Path(tempfile.mkdtemp(prefix="jgym-test-bin-"))
    _built.append(out)
    binary = out / "jgym"
    subprocess.run(["go", "build", "-o", str(binary), "./cmd/jgym"], cwd=src, check=True)
    os.environ[ENV_BIN] = str(binary)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    for d in _built:
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def server() -> Iterator[LocalServer]:
    """One local server for the tests that only need an address."""
    with LocalServer() as s:
        yield s


@pytest.fixture(scope="session")
def address(server: LocalServer) -> str:
    """The shared test server's address."""
    return server.address


@pytest.fixture
def short_config() -> str:
    """A configuration whose games last 3 rounds."""
    return SHORT_CONFIG


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """With JGYM_TEST_STRICT=1 (CI sets it), a skipped test fails.

    Some tests skip where their tools are missing (PyTorch for the
    train-and-export test, the source tree for the code-generation check).
    CI installs everything, so there a skip would only hide a failure.
    """
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("JGYM_TEST_STRICT") == "1" and report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped under JGYM_TEST_STRICT=1: {reason}"
