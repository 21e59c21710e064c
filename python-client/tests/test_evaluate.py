"""jgym.evaluate: schedules, policies through the vector env, bots in Go."""

from __future__ import annotations

import numpy as np
import pytest

import jgym
from jgym.evaluate import EvalResult, schedule


def test_schedule_rotates_seats_over_the_same_seeds() -> None:
    games = schedule(12, seed0=5)
    assert len(games) == 12
    for seat in range(4):
        assert sorted(s for s, p in games if p == seat) == [5, 6, 7]
    with pytest.raises(jgym.InvalidArgumentError):
        schedule(10)


def test_result_figures() -> None:
    scores = np.array([[10, 5, 5, 5], [5, 10, 5, 5], [7, 7, 1, 1], [1, 2, 3, 4]])
    r = EvalResult("x", ("a", "b", "c"), np.arange(4), np.array([0, 0, 0, 3]), scores)
    assert (r.wins, r.ties) == (2, 1)  # game 3: seat 3 has the top score alone
    assert r.ranks.tolist() == [1, 2, 1, 1]
    assert r.mean_score == pytest.approx((10 + 5 + 7 + 4) / 4)
    lo, hi = r.win_ci
    assert 0 < lo < 0.5 < hi < 1
    assert "4 games" in str(r)


def test_policy_through_the_vector_env(address: str, short_config: str) -> None:
    rng = np.random.default_rng(0)

    def random_policy(obs: dict[str, np.ndarray]) -> np.ndarray:
        return jgym.sample_masked(obs["action_mask"], rng)

    r = jgym.evaluate(
        random_policy, n_games=8, seed0=3, config=short_config, address=address, verbose=False
    )
    assert r.n_games == 8 and r.scores.shape == (8, 4)
    assert r.seats.tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    assert r.summary()["games"] == 8


def test_bot_in_go() -> None:
    a = jgym.evaluate("Demo", n_games=4, seed0=1, verbose=False)
    b = jgym.evaluate("Demo", n_games=4, seed0=1, verbose=False)
    assert np.array_equal(a.scores, b.scores)  # deterministic
    # Demo among Demos: the same game (seed 1) whichever seat is measured.
    assert all(row.tolist() == a.scores[0].tolist() for row in a.scores)
    assert a.own.tolist() == a.scores[0].tolist()
    with pytest.raises(jgym.InvalidArgumentError):
        jgym.evaluate("policy:/nonexistent.onnx", n_games=4, verbose=False)
