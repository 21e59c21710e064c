"""The root of a clone of the jgym repository, when Python imports it as ``jgym``.

The Python package is ``python-client/jgym``. Python started in the folder
above a clone named ``jgym`` (``git clone ... jgym``) finds the clone itself
first, in the folder it starts from; without this file it would import the
clone as an empty namespace package ``jgym`` (an editable install's finder
comes after that folder), and ``gymnasium.make("jgym/Crematoria-v0")`` would
fail with ``NamespaceNotFound: Namespace jgym not found``.

This file makes ``import jgym`` there import the installed jgym package,
as from any other folder: a wheel, ``pip install ./python-client``, or the
editable install of ``make setup`` (in this Python). Without one it raises
ModuleNotFoundError saying what is wrong and what to do. Imported under
another name, it does nothing. python-client/tests/test_import_shadow.py
checks both cases.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys


def _installed_spec() -> importlib.machinery.ModuleSpec | None:
    """Returns the spec of the jgym package found outside the folder above this clone, or None."""
    clone = os.path.dirname(os.path.abspath(__file__))
    above = os.path.dirname(clone)
    skip = {above, os.path.realpath(above)}

    def elsewhere(entry: object) -> bool:
        if not isinstance(entry, str):
            return False
        p = os.path.abspath(entry or os.curdir)
        return p not in skip and os.path.realpath(p) not in skip

    path = [p for p in sys.path if elsewhere(p)]
    for finder in sys.meta_path:
        if finder is importlib.machinery.PathFinder:
            spec = finder.find_spec("jgym", path)
        else:
            find_spec = getattr(finder, "find_spec", None)
            spec = find_spec("jgym", None) if find_spec is not None else None
        if spec is None or spec.loader is None or not spec.submodule_search_locations:
            continue  # not found here, or another namespace portion
        if spec.origin and os.path.abspath(spec.origin) == os.path.abspath(__file__):
            continue
        return spec
    return None


def _import_installed() -> None:
    """Puts the installed jgym package in sys.modules in place of this module."""
    spec = _installed_spec()
    if spec is None:
        clone = os.path.dirname(os.path.abspath(__file__))
        raise ModuleNotFoundError(
            f"No module named 'jgym': Python found {clone}, a clone of the jgym repository, "
            f"because it was started in the folder above it ({os.path.dirname(clone)}), and this "
            f"Python ({sys.executable}) has no jgym package installed. Install it with "
            f"'pip install {os.path.join(clone, 'python-client')}' (or run 'make setup' in the "
            f"clone and use its .venv/bin/python), or start Python in another folder.",
            name="jgym",
        )
    module = importlib.util.module_from_spec(spec)
    # The import of this module returns what sys.modules holds at its end.
    sys.modules["jgym"] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]


if __name__ == "jgym":
    _import_installed()
