"""The games jgym hosts, generated from their Go definitions: do not edit.

Written by `make generate` (go test ./cmd/jgym -run TestGeneratedPython -update)
from the registry of cmd/jgym/games.go; the test fails when it is stale.
"""

from __future__ import annotations

__all__ = ["GAMES", "NAMES", "OBSERVATION_VERSIONS", "STRONG_BOTS"]

#: The games this package registers with Gymnasium, as ``jgym/<id>``.
GAMES = ("Crematoria-v0", "Dominator-v0", "Pandemic-v0", "Moria-v0")

#: Each game's name (its traces and configuration files begin with it).
NAMES = {
    "Crematoria-v0": "Crematoria",
    "Dominator-v0": "Dominator",
    "Pandemic-v0": "Pandemic",
    "Moria-v0": "Moria",
}

#: The observation layout of each game this package knows.
OBSERVATION_VERSIONS = {
    "Crematoria-v0": "crematoria-obs-3",
    "Dominator-v0": "dominator-obs-2",
    "Pandemic-v0": "pandemic-obs-2",
    "Moria-v0": "moria-obs-2",
}

#: Each game's strong scripted bot.
STRONG_BOTS = {
    "Crematoria-v0": "Riddick",
    "Dominator-v0": "Khan",
    "Pandemic-v0": "Pasteur",
    "Moria-v0": "Balin",
}
