#!/usr/bin/env python3
"""Count and classify the non-test Go files of each game package.

    python3 scripts/game_files.py [--root .] [--files]

For env/crematoria, env/dominator, env/pandemic and env/moria and their
subpackages (a strong bot of more than a few files: env/crematoria/riddick
and env/dominator/khan, whose files are named ``riddick/FILE.go`` and
``khan/FILE.go``): each non-test ``.go`` file's
lines (``wc -l``) and its class, from the file's name by the table CLASSES
below (first match wins; a file no pattern
matches is "other"). Prints one table of lines per class and game, the
lines outside the classes issue 29 lets a game keep (its rules, encoder and
the encoder's C++ twin, trace format, verifier, bots and definition), the
eleven adapter files of issue 29 still present, and the files that exist
in all four games with their similarity (difflib's ratio after the game's
name is replaced by GAME). ``--files`` also lists every file with its class.
benchmarks/notebook/game-packages.md explains the classes and shows a run.
"""

from __future__ import annotations

import argparse
import difflib
import itertools
import re
from pathlib import Path

GAMES = ("crematoria", "dominator", "pandemic", "moria")

# (class, regular expression on the file's name). The classes issue 29
# names are "rules", "encoder", "encoder C++ twin", "trace", "verifier",
# "bots" and "definition"; the others are listed apart.
CLASSES = [
    ("definition", r"def(_gen)?\.go"),
    ("bots", (r"(demo|riddick.*|khan.*|pasteur.*|balin.*|dummyclone)\.go"
              r"|(riddick|khan|pasteur|balin)/[^/]+\.go")),  # and a strong bot's subpackage
    ("encoder", r"(obs|paths|sunpaths)\.go"),
    ("encoder C++ twin", r"cppexport\.go"),
    ("trace", r"(trace|parse_.*)\.go"),
    ("verifier", r"verify.*\.go"),
    ("rules", r"(config|fixed|game|state|round|phases|endround|mapgen|geom|rand"
     r"|d0|place|score|virus|sauron|distmap)\.go"),
    # Not named by the list:
    ("obs/action options", r"opponents\.go"),
    ("credit", r"credit\.go"),
    ("kit runner protocol", r"cppproto\.go"),
    ("package doc", r"doc\.go"),
]
KEPT = {"definition", "bots", "encoder", "encoder C++ twin", "trace", "verifier", "rules"}
ADAPTERS = ("arena.go", "cppbot.go", "orders.go", "bot.go", "cmdfile.go", "envgame.go",
            "dataset.go", "verify.go", "match.go", "policybot.go", "parse.go")


def classify(name: str) -> str:
    for cls, pattern in CLASSES:
        if re.fullmatch(pattern, name):
            return cls
    return "other"


def game_files(root: Path, game: str) -> dict[str, list[str]]:
    """The non-test .go files of the package and its subpackages: name -> lines.

    A file of the package is named by its name (``obs.go``), a file of a
    subpackage by its path below the package (``riddick/map.go``)."""
    base = root / "env" / game
    return {p.relative_to(base).as_posix(): p.read_text().splitlines()
            for p in sorted(base.rglob("*.go")) if not p.name.endswith("_test.go")}


def normalised(lines: list[str], game: str) -> list[str]:
    pat = re.compile(game, re.IGNORECASE)
    return [pat.sub("GAME", line) for line in lines]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=Path("."), help="the repository (default: .)")
    ap.add_argument("--files", action="store_true", help="list every file with its class")
    args = ap.parse_args()
    files = {g: game_files(args.root, g) for g in GAMES}

    classes = [c for c, _ in CLASSES] + ["other"]
    lines = {(g, c): 0 for g in GAMES for c in classes}
    count = {(g, c): 0 for g in GAMES for c in classes}
    for g in GAMES:
        for name, text in files[g].items():
            c = classify(name)
            lines[g, c] += len(text)
            count[g, c] += 1
            if args.files:
                print(f"{g:11} {name:24} {len(text):5}  {c}")
    if args.files:
        print()

    print("Lines (files) of non-test code per class, env/GAME/*.go and its subpackages:\n")
    print(f"| class | {' | '.join(GAMES)} |")
    print("|---|" + "---:|" * len(GAMES))
    for c in classes:
        if any(count[g, c] for g in GAMES):
            kept = "" if c in KEPT else " *"
            print(f"| {c}{kept} | " + " | ".join(f"{lines[g, c]:,} ({count[g, c]})" for g in GAMES) + " |")
    total = {g: sum(lines[g, c] for c in classes) for g in GAMES}
    outside = {g: sum(lines[g, c] for c in classes if c not in KEPT) for g in GAMES}
    print("| all | " + " | ".join(f"{total[g]:,}" for g in GAMES) + " |")
    print("| * outside the issue's list | " + " | ".join(f"**{outside[g]:,}**" for g in GAMES) + " |")
    print()
    for g in GAMES:
        out = [f"{n} {len(t)}" for n, t in files[g].items() if classify(n) not in KEPT]
        print(f"{g}: outside the list: {', '.join(out)}")

    print("\nThe eleven adapter files of issue 29 still present:")
    for g in GAMES:
        left = [a for a in ADAPTERS if a in files[g]]
        n = sum(len(files[g][a]) for a in left)
        print(f"  {g}: {', '.join(left) if left else 'none'} ({n:,} lines)")

    tests = {g: {p.name: len(p.read_text().splitlines())
                 for p in (args.root / "env" / g).glob("*_test.go")} for g in GAMES}
    both = sorted(set.intersection(*(set(t) for t in tests.values())))
    print(f"\nTest files in all four games ({len(both)}): " +
          ", ".join(f"{n} ({'/'.join(str(tests[g][n]) for g in GAMES)})" for n in both))

    common = sorted(set.intersection(*(set(files[g]) for g in GAMES)))
    print(f"\nFiles in all four games: {len(common)}, "
          f"{sum(len(files[g][n]) for g in GAMES for n in common):,} lines in all.")
    print("similarity: difflib.SequenceMatcher ratio of the lines after the game's name is")
    print("replaced by GAME, over the 6 pairs of games: min, mean, max.\n")
    print("| file | class | lines (c, d, p, m) | similarity min, mean, max |")
    print("|---|---|---|---|")
    for n in common:
        ratios = [difflib.SequenceMatcher(None, normalised(files[a][n], a), normalised(files[b][n], b),
                                          autojunk=False).ratio()
                  for a, b in itertools.combinations(GAMES, 2)]
        sizes = ", ".join(str(len(files[g][n])) for g in GAMES)
        print(f"| {n} | {classify(n)} | {sizes} | "
              f"{min(ratios):.2f}, {sum(ratios) / len(ratios):.2f}, {max(ratios):.2f} |")


if __name__ == "__main__":
    main()
