"""Command lines from a dataclass of arguments, each flag described by its field's docstring.

The examples and benchmarks keep their arguments in one dataclass (CleanRL's
habit); :func:`parse` turns each field into ``--flag-name`` with the field's
type, default and the docstring written under it as its ``--help`` text
(a bool field is ``--flag`` / ``--no-flag``).

Example:
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Args:
    ...     num_envs: int = 8
    ...     \"\"\"games stepped together\"\"\"
    ...     game: str = "Moria-v0"
    ...     \"\"\"the game to train on\"\"\"
    >>> parse(Args, ["--num-envs", "4"])
    Args(num_envs=4, game='Moria-v0')

``python script.py --help`` then lists ``--num-envs NUM_ENVS  games stepped
together (default: 8)`` (for a class defined in a file, whose source
:func:`help_texts` reads).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import itertools
import textwrap
from typing import Any, TypeVar

__all__ = ["help_texts", "parse"]

T = TypeVar("T")


def help_texts(cls: type) -> dict[str, str]:
    """Returns the docstring written under each field of a dataclass."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):  # no source (e.g. defined in a doctest)
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    out = {}
    for node, nxt in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
            and isinstance(nxt.value.value, str)
        ):
            out[node.target.id] = " ".join(nxt.value.value.split())
    return out


def parse(cls: type[T], argv: list[str] | None = None, description: str = "") -> T:
    """Parses a command line into the dataclass ``cls``.

    Args:
        cls: A dataclass whose fields have defaults.
        argv: The arguments (default: ``sys.argv[1:]``).
        description: The ``--help`` text above the flags (default: the
            first line of the class's module docstring).

    Returns:
        An instance of ``cls``.
    """
    helps = help_texts(cls)
    if not description:
        module = inspect.getmodule(cls)
        doc = (module.__doc__ if module else None) or ""
        description = doc.strip().splitlines()[0] if doc.strip() else ""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        default: Any = f.default
        flag = f"--{f.name.replace('_', '-')}"
        if isinstance(default, bool):  # --flag / --no-flag
            parser.add_argument(
                flag, action=argparse.BooleanOptionalAction, default=default,
                help=helps.get(f.name, " "),
            )  # fmt: skip
            continue
        parser.add_argument(
            flag,
            type=type(default) if default is not None else str,
            default=default,
            metavar=f.name.upper(),
            help=helps.get(f.name, " "),
        )
    return cls(**vars(parser.parse_args(argv)))
