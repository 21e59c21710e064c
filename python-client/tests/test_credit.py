"""The env's per-unit credit (``unit_rewards=True``), end to end through the server.

The Go tests (``go test ./env/... -run TestCredit``) check the credit itself
against the trainer's old numpy credit and the score; these check what
Python receives: ``info["unit_rewards"]``'s shape, zeros on the slots the
learner did not own, the weights by name, and, from the observations, that
a Crematoria Pioneer earns the cave it steps onto.
"""

from __future__ import annotations

import numpy as np
import pytest

import jgym


def credit_spec(address: str, game: str) -> dict[str, float]:
    """The game's credit weights and their defaults, as the server lists them."""
    with jgym.Client(address) as c:
        (spec,) = [g for g in c.list_games() if g.id == game]
    return {w.name: w.default for w in spec.credit_weights}


@pytest.mark.parametrize("game", jgym.GAMES)
def test_unit_rewards(address: str, game: str) -> None:
    """Each step credits the learner's slots only; with no shaping nothing is negative."""
    weights = credit_spec(address, game)
    assert weights["capture"] == 5.0
    pure = {name: 0.0 for name in weights if name != "gem_value"}
    envs = jgym.make_vec(game, num_envs=2, address=address, unit_rewards=True, credit_weights=pure)
    rng = np.random.default_rng(0)
    credited = 0
    try:
        obs, _ = envs.reset(seed=11)
        for _ in range(40):
            mine = obs["units"][..., 0] == 1
            obs, reward, _, _, info = envs.step(jgym.sample_masked(obs["action_mask"], rng))
            u = info["unit_rewards"]
            assert u.shape == mine.shape
            assert u.dtype == np.float32
            assert not u[~mine].any(), "a slot the learner did not own earned credit"
            assert (u >= 0).all()
            if game in ("Dominator-v0", "Pandemic-v0"):
                # Their remainder (the land kept; the cities held with no
                # unit on them and the components bonus) is never negative.
                assert (u.sum(axis=1) <= reward + 1e-3).all()
            credited += int(np.count_nonzero(u))
    finally:
        envs.close()
    assert credited > 0


def test_crematoria_pioneer_earns_its_cave(address: str) -> None:
    """A Pioneer of mine that moves onto a cave I did not own earns 1 (steal 0), read from obs."""
    envs = jgym.make_vec("Crematoria-v0", num_envs=2, address=address, unit_rewards=True)
    rng = np.random.default_rng(1)
    checked = 0
    try:
        obs, _ = envs.reset(seed=3)
        for _ in range(40):
            before = obs
            obs, _, _, _, info = envs.step(jgym.sample_masked(before["action_mask"], rng))
            u, a = before["units"].astype(np.int64), obs["units"].astype(np.int64)
            for n, s in zip(
                *np.nonzero((u[..., 0] == 1) & (a[..., 0] == 1) & (u[..., 2] == 0)), strict=True
            ):
                row, col, lvl = a[n, s, 4], a[n, s, 5], a[n, s, 6]
                if (row, col, lvl) == tuple(u[n, s, 4:7]) or lvl != 0:
                    continue
                code = before["board"][n, 0, row, col] & 7  # 1: unowned cave, 4..6: another's
                want = 1.0 if code == 1 or code >= 4 else 0.0
                assert info["unit_rewards"][n, s] == want
                checked += want > 0
    finally:
        envs.close()
    assert checked > 0


def test_unknown_weight_refused(address: str) -> None:
    """A weight the game's credit does not have is refused by name."""
    with pytest.raises(jgym.InvalidArgumentError, match="luck"):
        jgym.make_vec(
            "Moria-v0", num_envs=1, address=address, unit_rewards=True, credit_weights={"luck": 1}
        )
