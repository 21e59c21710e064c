"""jgym.league: PFSP weights and draws, game records, snapshots, state, TrueSkill ratings."""

from __future__ import annotations

import collections

import pytest

from jgym.errors import InvalidArgumentError
from jgym.league import League


def play(lg: League, seat: str, wins: int, losses: int) -> None:
    """Records games of the learner (seat 0) against ``seat`` and two seats of no member."""
    for k in range(wins + losses):
        scores = [10, 5, 0, 0] if k < wins else [0, 5, 0, 0]
        lg.record([None, seat, "NotInLeague", "NotInLeague"], scores, 0)


def test_hard_weighting_prefers_who_beats_the_learner() -> None:
    lg = League(["Strong", "Weak"], decay=1.0, min_weight=0.0)
    play(lg, "Strong", 0, 20)  # the learner loses every game to Strong
    play(lg, "Weak", 20, 0)  # and wins every game against Weak
    strong, weak = lg.member("Strong"), lg.member("Weak")
    assert strong is not None and weak is not None
    assert strong.win_rate < 0.05 and weak.win_rate > 0.95
    w = dict(zip([m.name for m in lg.members], lg.weights(), strict=True))
    assert w["Strong"] > 0.99 and w["Weak"] < 0.01
    assert abs(sum(w.values()) - 1.0) < 1e-9


def test_min_weight_keeps_everyone_in_play() -> None:
    lg = League(["Strong", "Weak"], decay=1.0, min_weight=0.1)
    play(lg, "Weak", 50, 0)
    w = lg.weights()
    assert w[1] == pytest.approx(0.1 * w[0])


def test_variance_and_uniform() -> None:
    lg = League(["A", "B", "C"], weighting="variance", decay=1.0, min_weight=0.0)
    play(lg, "A", 10, 10)  # an even match: the largest variance
    play(lg, "B", 19, 1)
    w = lg.weights()
    assert w[0] > w[1]
    assert League(["A", "B", "C"], weighting="uniform").weights() == pytest.approx([1 / 3] * 3)


def test_draws_follow_the_weights() -> None:
    lg = League(["Strong", "Weak"], decay=1.0, min_weight=0.0, seed=3)
    play(lg, "Strong", 1, 9)
    play(lg, "Weak", 9, 1)
    want = lg.weights()[0]
    count: collections.Counter[str] = collections.Counter()
    seats_of_learner: collections.Counter[int] = collections.Counter()
    for _ in range(3000):
        seats, learner = lg.lineup()
        assert len(seats) == 4 and seats[learner] is None and seats.count(None) == 1
        seats_of_learner[learner] += 1
        count.update(s for s in seats if s is not None)
    assert count["Strong"] / 9000 == pytest.approx(want, abs=0.03)
    assert set(seats_of_learner) == {0, 1, 2, 3}
    assert min(seats_of_learner.values()) > 600


def test_record_credits_each_opponent_by_its_own_score() -> None:
    lg = League(["A", "B", "C"], decay=1.0)
    lg.record(["A", None, "B", "C"], [30, 20, 10, 40], 1)  # beats B only
    a, b, c = (lg.member(s) for s in "ABC")
    assert a is not None and b is not None and c is not None
    assert (a.games, a.wins, b.wins, c.wins) == (1.0, 0.0, 1.0, 0.0)
    with pytest.raises(InvalidArgumentError):
        lg.record(["A", None, "B"], [1, 2, 3], 1)


def test_decay_forgets_old_games() -> None:
    lg = League(["A"], decay=0.5)
    play(lg, "A", 10, 0)
    play(lg, "A", 0, 3)  # the learner now loses
    m = lg.member("A")
    assert m is not None and m.win_rate < 0.5


def test_snapshots_replace_the_oldest() -> None:
    lg = League(["Demo"], max_snapshots=2)
    for step in (0, 100, 200):
        lg.add_snapshot(f"/runs/x/update_{step}.onnx", step)
    assert [m.name for m in lg.members] == ["Demo", "snap_100", "snap_200"]
    assert lg.members[1].seat == "policy:/runs/x/update_100.onnx"
    # A game against a member dropped meanwhile is ignored, not an error.
    lg.record([None, "policy:/runs/x/update_0.onnx", "Demo", "Demo"], [1, 0, 0, 0], 0)
    with pytest.raises(InvalidArgumentError):
        League(["Demo"], max_snapshots=0).add_snapshot("x.onnx", 0)


def test_state_round_trip_draws_the_same() -> None:
    lg = League(["A", "B"], seed=7)
    lg.add_snapshot("/tmp/s.onnx", 5)
    play(lg, "A", 3, 4)
    lg.lineup()
    again = League.from_state_dict(lg.state_dict())
    assert [m.name for m in again.members] == [m.name for m in lg.members]
    assert again.weights() == lg.weights()
    assert [again.lineup() for _ in range(20)] == [lg.lineup() for _ in range(20)]


def test_anchor_share_of_lineups() -> None:
    # Riddick beats the learner, Demo never does: hard PFSP alone would
    # hardly ever seat the Demos; the anchor seats Riddick, Demo, Demo in
    # its share of the lineups (any order), the rest are PFSP draws.
    lg = League(["Riddick"], anchor=["Riddick", "Demo", "Demo"], anchor_share=0.25, seed=3)
    assert [m.name for m in lg.members] == ["Riddick", "Demo"]
    play(lg, "Demo", 200, 0)
    play(lg, "Riddick", 0, 200)
    n, anchored = 4000, 0
    for _ in range(n):
        seats, learner = lg.lineup()
        assert seats[learner] is None and len(seats) == 4
        opp = sorted(s for s in seats if s is not None)
        if opp == ["Demo", "Demo", "Riddick"]:
            anchored += 1
    # PFSP draws Riddick, Demo, Demo with probability 3 * w_D^2 * w_R, about 0.7%
    # here (Demo's weight is the 5% floor); the anchor adds 25%.
    w = dict(zip((m.name for m in lg.members), lg.weights(), strict=True))
    want = 0.25 + 0.75 * 3 * w["Demo"] ** 2 * w["Riddick"]
    assert abs(anchored / n - want) < 4 * (want * (1 - want) / n) ** 0.5
    assert 0.22 < anchored / n < 0.29


def test_anchor_round_trip_and_old_states() -> None:
    lg = League(["Riddick"], anchor=["Riddick", "Demo", "Demo"], anchor_share=0.5, seed=1)
    again = League.from_state_dict(lg.state_dict())
    assert [again.lineup() for _ in range(30)] == [lg.lineup() for _ in range(30)]
    old = League(["Riddick", "Demo"], seed=1).state_dict()
    del old["anchor"], old["anchor_share"]  # saved before anchors existed
    restored = League.from_state_dict(old)
    assert restored.anchor == [] and restored.anchor_share == 0.0
    assert "anchor" in repr(lg) and "anchor" not in repr(restored)


def test_bad_settings() -> None:
    with pytest.raises(InvalidArgumentError, match="weighting"):
        League(["Demo"], weighting="elo")
    with pytest.raises(InvalidArgumentError):
        League(["Demo"], decay=0.0)
    with pytest.raises(InvalidArgumentError, match="empty"):
        League([]).weights()
    with pytest.raises(InvalidArgumentError, match="empty bot name"):
        League(["Demo", " "])
    with pytest.raises(InvalidArgumentError, match="anchor table wants 3"):
        League(["Demo"], anchor=["Riddick", "Demo"])
    with pytest.raises(InvalidArgumentError, match="anchor_share"):
        League(["Demo"], anchor=["Demo", "Demo", "Demo"], anchor_share=1.5)


def test_rate_runs_a_tournament() -> None:
    """Demo beats Null in Crematoria: the tournament rates it higher, under our names."""
    lg = League(["Null"])
    got = lg.rate([("demo", "Demo")], games=8, workers=1)
    assert set(got) == {"Null", "demo"}
    assert got["demo"]["mu"] > got["Null"]["mu"]
    assert got["demo"]["mean_score"] > got["Null"]["mean_score"]
    assert all(r["games"] > 0 for r in got.values())
    with pytest.raises(InvalidArgumentError, match="same seat"):
        lg.rate([("again", "Null")])
