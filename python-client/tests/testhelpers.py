"""Helpers the test modules share (pytest puts this directory on sys.path)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load_example(name: str) -> ModuleType:
    """Imports examples/NAME.py (a script, not a module) under the module name NAME.

    It is registered in ``sys.modules`` first: dataclasses look their module up,
    and a script's dataclass of arguments needs its module.
    """
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
