"""A league of opponents for self-play: prioritised fictitious self-play and ratings.

A :class:`League` is a pool of opponents for one learner: scripted bots
(``"Demo"``, ``"Riddick"``, any seat name the server takes) and snapshots
of the learner itself (ONNX files, seated as ``"policy:PATH"``). Training
draws the three opponents of each game from the pool with
:meth:`League.lineup`, records the game with :meth:`League.record`, and
every so often rates the whole pool with :meth:`League.rate`.

Sampling is **prioritised fictitious self-play** (PFSP, as AlphaStar's
league): each member is drawn with a weight that grows with how often it
beats the learner. With ``x`` the learner's estimated win rate against a
member (games where its score was strictly above the member's, with one
half game of prior so an unplayed member counts as ``x = 1/2``):

- ``hard`` (the default): ``(1 - x) ** power``; members the learner
  already beats are drawn rarely, the ones it loses to often;
- ``variance``: ``x * (1 - x)``; members of the learner's level;
- ``uniform``: every member alike (plain fictitious self-play).

A floor (``min_weight``, relative to the largest weight) keeps every member
in play, so its win rate keeps being measured as the learner changes.

An **anchor** table (``anchor=("Riddick", "Demo", "Demo")``) is the table
the learner is judged at: a share of the lineups (``anchor_share``) seats
it as it is, the rest are drawn by PFSP. Without it, ``hard`` PFSP hardly
ever draws the weak bots the learner beats, so the tables it is evaluated
at (the strong bot with two Demos, whose units the strong bot captures)
are almost never played in training: measured in benchmarks/RESULTS.md
("The anchor table").
Win rates are exponentially forgetting (``decay`` per recorded game) so
they follow the learner.

Ratings are TrueSkill ratings from ``jgym tournament`` (games of 4 drawn
from the pool, the learner's latest snapshot included), played in the Go
engine. They show the pool's levels on one scale during training: the
trainer (``examples/ppo.py --opponents league:...``) rates the pool at the
end of its run and draws them on its learning curve.

Example:
    >>> lg = League(["Demo", "Null"], seed=0)
    >>> seats, learner = lg.lineup()
    >>> len(seats), seats[learner] is None
    (4, True)
    >>> lg.record(seats, [10, 5, 3, 0], learner)
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from jgym.errors import InvalidArgumentError, JgymError
from jgym.server import find_binary

__all__ = ["WEIGHTINGS", "League", "Member"]

#: The PFSP weightings :class:`League` knows.
WEIGHTINGS = ("hard", "variance", "uniform")


@dataclass
class Member:
    """One opponent of the pool.

    Attributes:
        name: A short name for logs (``"Riddick"``, ``"snap_00040"``).
        seat: What a table seats: a bot name or ``"policy:PATH"``.
        kind: ``"bot"`` (scripted, stays) or ``"snapshot"`` (the learner's
            past self; the oldest leave when the pool is full).
        step: The training step a snapshot was taken at (0 for bots).
        games: Games the learner played against it (decayed).
        wins: Of those, the ones the learner's score was strictly above its own (decayed).
    """

    name: str
    seat: str
    kind: str = "bot"
    step: int = 0
    games: float = 0.0
    wins: float = 0.0

    @property
    def win_rate(self) -> float:
        """The learner's estimated win rate against it (1/2 with no games)."""
        return (self.wins + 0.5) / (self.games + 1.0)


class League:
    """A pool of opponents, drawn by PFSP (see the module docs).

    Args:
        bots: The scripted bots of the pool (seat names, at least one
            unless snapshots are added before the first lineup).
        max_snapshots: Most snapshots kept; adding one more drops the oldest.
        weighting: ``hard``, ``variance`` or ``uniform``.
        power: The exponent of ``hard``.
        min_weight: Every member's weight is at least this fraction of the largest.
        decay: Each recorded game multiplies a member's past counts by this.
        anchor: Three seats (bot names) seated as they are in a share of
            the lineups; its bots join the pool (empty: none).
        anchor_share: The share of lineups that seat the anchor.
        seed: Seed of the draws.
    """

    def __init__(
        self,
        bots: Sequence[str] = ("Demo",),
        *,
        max_snapshots: int = 4,
        weighting: str = "hard",
        power: float = 2.0,
        min_weight: float = 0.05,
        decay: float = 0.99,
        anchor: Sequence[str] = (),
        anchor_share: float = 0.5,
        seed: int = 0,
    ) -> None:
        if weighting not in WEIGHTINGS:
            raise InvalidArgumentError(f"weighting {weighting!r}: want one of {WEIGHTINGS}")
        if max_snapshots < 0 or not 0.0 <= min_weight <= 1.0 or not 0.0 < decay <= 1.0:
            raise InvalidArgumentError(
                "want max_snapshots >= 0, 0 <= min_weight <= 1 and 0 < decay <= 1"
            )
        self.anchor = [a.strip() for a in anchor]
        if self.anchor and (len(self.anchor) != 3 or not all(self.anchor)):
            raise InvalidArgumentError(f"the anchor table wants 3 bot names, got {len(anchor)}")
        if not 0.0 <= anchor_share <= 1.0:
            raise InvalidArgumentError("want 0 <= anchor_share <= 1")
        self.anchor_share = anchor_share if self.anchor else 0.0
        self.members: list[Member] = []
        for name in [*bots, *self.anchor]:
            b = name.strip()
            if not b:
                raise InvalidArgumentError("an empty bot name in the league")
            if all(m.seat != b for m in self.members):
                self.members.append(Member(b, b))
        self.max_snapshots = max_snapshots
        self.weighting, self.power = weighting, power
        self.min_weight, self.decay = min_weight, decay
        self.rng = random.Random(seed)

    # --- the pool ---------------------------------------------------------

    @property
    def snapshots(self) -> list[Member]:
        """The snapshot members, oldest first."""
        return [m for m in self.members if m.kind == "snapshot"]

    def add_snapshot(self, path: str | Path, step: int, name: str | None = None) -> Member:
        """Adds the learner's snapshot (an ONNX file) and drops the oldest beyond the limit.

        Returns the new member (it starts with no games: win rate 1/2).
        """
        if self.max_snapshots == 0:
            raise InvalidArgumentError("this league keeps no snapshots (max_snapshots 0)")
        m = Member(name or f"snap_{step}", f"policy:{path}", "snapshot", step)
        self.members.append(m)
        while len(self.snapshots) > self.max_snapshots:
            self.members.remove(self.snapshots[0])
        return m

    def member(self, seat: str) -> Member | None:
        """The member seated as ``seat``, if any."""
        for m in self.members:
            if m.seat == seat:
                return m
        return None

    # --- sampling ---------------------------------------------------------

    def weights(self) -> list[float]:
        """The PFSP weights of the members, in pool order, summing to 1."""
        if not self.members:
            raise InvalidArgumentError("the league is empty")
        raw = []
        for m in self.members:
            x = m.win_rate
            if self.weighting == "hard":
                raw.append((1.0 - x) ** self.power)
            elif self.weighting == "variance":
                raw.append(x * (1.0 - x))
            else:
                raw.append(1.0)
        top = max(raw)
        floor = self.min_weight * top if top > 0 else 1.0
        w = [max(r, floor) for r in raw]
        s = sum(w)
        return [x / s for x in w]

    def lineup(self) -> tuple[list[str | None], int]:
        """Draws a table: the anchor or three opponents by PFSP, and a seat for the learner.

        Returns the four seats (``None`` for the learner, in the seat drawn
        uniformly) and the learner's seat index.
        """
        if self.anchor and self.rng.random() < self.anchor_share:
            seats: list[str | None] = list(self.anchor)  # bots: always members
            self.rng.shuffle(seats)
        else:
            seats = [m.seat for m in self.rng.choices(self.members, weights=self.weights(), k=3)]
        learner = self.rng.randrange(4)
        seats.insert(learner, None)
        return seats, learner

    def record(self, seats: Sequence[str | None], scores: Sequence[int], learner: int) -> None:
        """Records a finished game: the learner against each member at the table.

        Args:
            seats: The four seats as :meth:`lineup` gave them.
            scores: The final scores, in seat order.
            learner: The learner's seat.
        """
        if len(seats) != 4 or len(scores) != 4 or not 0 <= learner < 4:
            raise InvalidArgumentError("want 4 seats, 4 scores and a learner seat in 0..3")
        for j, s in enumerate(seats):
            if j == learner or s is None:
                continue
            m = self.member(s)
            if m is None:  # a snapshot dropped while its game was played
                continue
            m.games = m.games * self.decay + 1.0
            m.wins = m.wins * self.decay + float(scores[learner] > scores[j])

    # --- ratings ----------------------------------------------------------

    def rate(
        self,
        extra: Sequence[tuple[str, str]] = (),
        *,
        game: str = "Crematoria-v0",
        games: int = 32,
        seed0: int = 1,
        config: str = "",
        workers: int | None = None,
        timeout: float = 3600.0,
    ) -> dict[str, dict[str, float]]:
        """TrueSkill ratings of the pool (and ``extra`` players) by ``jgym tournament``.

        Args:
            extra: More players as ``(name, seat)``: the learner's current
                snapshot, say.
            game: The environment id (``Crematoria-v0``) or game name.
            games: Games of 4 drawn from the pool.
            seed0: Seed of the first game.
            config: A configuration file's path (default: the game's).
            workers: Games played at once (default: the CPU count).
            timeout: Seconds the tournament may take.

        Returns:
            ``{name: {"mu", "sigma", "games", "win_rate", "mean_score"}}``.
        """
        players = [(m.name, m.seat) for m in self.members] + list(extra)
        seats = [s for _, s in players]
        if len(set(seats)) != len(seats):
            raise InvalidArgumentError("two players of the tournament have the same seat")
        if len(players) < 2:
            raise InvalidArgumentError("a tournament needs at least 2 players")
        cmd = [str(find_binary()), "tournament", "--game", game.split("-v", 1)[0].lower()]
        cmd += ["-n", str(games), "--seed0", str(seed0), "--json"]
        if config:
            cmd += ["-i", config]
        if workers:
            cmd += ["-j", str(workers)]
        cmd += seats
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        if p.returncode != 0:
            tail = p.stderr.strip().splitlines()[-3:]
            raise JgymError(f"jgym tournament failed ({p.returncode}): {' | '.join(tail)[:500]}")
        rep = json.loads(p.stdout)
        by_seat = {s: n for n, s in players}
        out: dict[str, dict[str, float]] = {}
        for b in rep["bots"]:
            name = by_seat.get(b["name"], b["name"])
            out[name] = {
                "mu": float(b["mu"]),
                "sigma": float(b["sigma"]),
                "games": float(b["games"]),
                "win_rate": float(b["win_rate"]["value"]),
                "mean_score": float(b["mean_score"]["value"]),
            }
        return out

    # --- state ------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to resume: members, settings and the generator's state."""
        return {
            "members": [asdict(m) for m in self.members],
            "max_snapshots": self.max_snapshots,
            "weighting": self.weighting,
            "power": self.power,
            "min_weight": self.min_weight,
            "decay": self.decay,
            "anchor": self.anchor,
            "anchor_share": self.anchor_share,
            "rng": _jsonable(self.rng.getstate()),
        }

    @classmethod
    def from_state_dict(cls, d: dict[str, Any]) -> League:
        """The league :meth:`state_dict` saved."""
        lg = cls(
            (),
            max_snapshots=int(d["max_snapshots"]),
            weighting=d["weighting"],
            power=float(d["power"]),
            min_weight=float(d["min_weight"]),
            decay=float(d["decay"]),
            anchor=d.get("anchor", ()),  # leagues saved before anchors had none
            anchor_share=float(d.get("anchor_share", 0.5)),
        )
        lg.members = [Member(**m) for m in d["members"]]
        lg.rng.setstate(_tupled(d["rng"]))
        return lg

    def table(self) -> str:
        """One line per member: name, kind, games, win rate, PFSP weight."""
        w = self.weights()
        rows = [
            f"{m.name:<14} {m.kind:<8} games {m.games:7.1f}  learner wins "
            f"{m.win_rate:5.1%}  weight {x:5.1%}"
            for m, x in zip(self.members, w, strict=True)
        ]
        return "\n".join(rows)

    def __repr__(self) -> str:
        names = ", ".join(m.name for m in self.members)
        anchor = f", anchor {','.join(self.anchor)} {self.anchor_share:.0%}" if self.anchor else ""
        return f"League({names}; {self.weighting}, {len(self.snapshots)} snapshots{anchor})"


def _jsonable(x: Any) -> Any:
    return [_jsonable(v) for v in x] if isinstance(x, tuple | list) else x


def _tupled(x: Any) -> Any:
    return tuple(_tupled(v) for v in x) if isinstance(x, list) else x
