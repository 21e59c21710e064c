"""Every script's --help describes every flag (examples, benchmarks, scripts).

A script with a ``parse_args`` (examples/ppo.py, bc.py) is asked through it.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(
    str(p.relative_to(CLIENT))
    for d in ("examples", "benchmarks", "scripts")
    for p in (CLIENT / d).glob("*.py")
)


class ParsedError(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__("parsed")
        self.parser = parser


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_flag_is_described(script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def capture(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        raise ParsedError(self)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", capture)
    monkeypatch.setattr(sys, "argv", [script])
    name = "script_" + Path(script).stem
    spec = importlib.util.spec_from_file_location(name, CLIENT / script)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, mod)
    spec.loader.exec_module(mod)
    with pytest.raises(ParsedError) as got:
        if hasattr(mod, "parse_args"):
            mod.parse_args([])
        else:
            mod.main()
    parser = got.value.parser
    assert parser.description, f"{script}: no description"
    flags = [a for a in parser._actions if not isinstance(a, argparse._HelpAction)]
    assert flags, f"{script}: no flags"
    for a in flags:
        assert a.help and a.help.strip(), f"{script}: {a.option_strings} has no description"
