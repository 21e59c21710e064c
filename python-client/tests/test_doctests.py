"""Runs the docstring examples of the package (those not marked +SKIP)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import jgym

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(jgym.__path__, "jgym.")
    if not m.name.startswith("jgym.v1")
)


#: Modules of the extras, and what they need.
NEEDS = {"jgym.sb3": "sb3_contrib", "jgym.nets": "torch", "jgym.rllib": "ray"}


@pytest.mark.parametrize("name", ["jgym", *MODULES])
def test_doctests(name: str) -> None:
    if name in NEEDS and importlib.util.find_spec(NEEDS[name]) is None:
        pytest.skip(f"{name} needs {NEEDS[name]} (an extra)")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
