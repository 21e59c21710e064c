"""jgym.torch's networks, built from the server's description of each game.

- the description alone builds them: planes, unit scales, the unit's cell,
  wrapping columns and the policy's mask come from ``GameSpec``;
- ``--net local``: PyTorch's training path (the learner's slots only, code
  counts per block, the rollout's kept inputs, the hand-written backward
  passes) gives the exported graph's logits, values and gradients, on
  observations of real games of every game;
- bfloat16, checkpoints (a round trip), the network's shape as text, and
  the rollout's pieces (sampling, reward normalization, phases, lanes).
"""

from __future__ import annotations

import dataclasses
import re
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jgym
from jgym.spec import describe

torch = pytest.importorskip("torch")
jt = pytest.importorskip("jgym.torch")
from jgym.torch.local import BF16_ROWS  # noqa: E402

GAMES = ["Crematoria-v0", "Dominator-v0", "Pandemic-v0", "Moria-v0"]


def random_play(
    game: str, *, num_envs: int, seed: int, rounds: int, every: int
) -> tuple[Any, list[tuple[Any, ...]]]:
    """The game's description and its observations (as the network takes them)
    after every ``every`` rounds of random legal moves against three Demos
    (so that the units spread out)."""
    envs = jgym.make_vec(game, num_envs=num_envs, opponents=("Demo", "Demo", "Demo"))
    try:
        info = describe(envs.spec_proto)
        names = [t.name for t in info.tensors]
        obs, _ = envs.reset(seed=seed)
        batches = []
        rng = np.random.default_rng(seed)
        for t in range(rounds):
            mask = np.asarray(obs[info.policy_mask]).astype(bool)
            obs, *_ = envs.step((rng.random(mask.shape) * mask).argmax(-1).astype(np.int8))
            if t % every == every - 1:
                batches.append(jt.to_torch(obs, names))
    finally:
        envs.close()
    return info, batches


def test_net_config_text() -> None:
    c = jt.NetConfig.parse("local:hidden=128,crop=7")
    assert (c.net, c.hidden, c.crop, c.channels) == ("local", 128, 7, 8)
    assert str(c) == "local:hidden=128,crop=7"
    assert jt.NetConfig.parse(str(c)) == c
    assert jt.NetConfig.parse("conv:dilations=1/2").dilations == (1, 2)
    assert str(jt.NetConfig.parse("conv")) == "conv"
    for bad in ("lstm", "local:width=3", "local:hidden"):
        with pytest.raises(ValueError, match="network"):
            jt.NetConfig.parse(bad)
    # train_ppo.py's flags, in its checkpoints (no --net: the conv network)
    old = {"channels": 8, "coarse": 16, "hidden": 64, "dilations": "1,2,4"}
    assert jt.NetConfig.from_args(old) == jt.NetConfig("conv", coarse=16)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("net", ["local", "conv"])
def test_built_from_description(game: str, net: str) -> None:
    """Each game's network reads its planes and columns as the server describes them."""
    info, (obs,) = random_play(game, num_envs=2, seed=1, rounds=3, every=3)
    agent = jt.build_agent(info, net)
    board, units = info.tensor("board"), info.tensor("units")
    assert [p.kind for p in agent.planes] == [p.kind for p in board.planes]
    assert torch.equal(agent.unit_scale, torch.tensor([c.scale for c in units.columns]))
    assert (agent.row, agent.col, agent.wrap) == (info.unit_row, info.unit_col, info.wrap_columns)
    logits, values = agent.heads(*obs)
    assert logits.shape == (2, info.num_slots, info.num_actions)
    assert values.shape == (2, info.num_slots)
    # masked where the policy's mask says no
    mask = obs[agent.i_mask]
    assert bool((logits[~mask] == -1e9).all()) and bool((logits[mask] > -1e8).all())
    team = jt.build_agent(info, net, team_value=True)
    assert team.heads(*obs)[1].shape == (2,)


def test_undescribed_board_is_refused() -> None:
    envs = jgym.make_vec("Moria-v0", num_envs=1)
    try:
        info = describe(envs.spec_proto)
    finally:
        envs.close()
    board = dataclasses.replace(info.tensor("board"), planes=())
    bare = dataclasses.replace(info, tensors=(board, *info.tensors[1:]))
    with pytest.raises(ValueError, match="describes 0 of 7 board planes"):
        jt.build_agent(bare)


@pytest.mark.parametrize("game", GAMES)
def test_local_net_sparse_equals_dense(game: str) -> None:
    """net local: PyTorch's path (the learner's slots only, code counts per
    block) gives the exported graph's logits and values, on observations of
    real games (the other slots: those of a zero hidden layer in both)."""
    info, batches = random_play(game, num_envs=4, seed=3, rounds=30, every=10)
    # keyed False: the cells read one by one, as for a game of over 7 planes
    for team, keyed in ((False, True), (True, True), (False, False)):
        torch.manual_seed(1)
        agent = jt.build_agent(info, "local", team_value=team)
        agent.keyed = keyed
        with torch.no_grad():
            for p in agent.parameters():  # larger than at initialisation: a stricter test
                p.mul_(3.0)
        for obs_t in batches:
            with torch.no_grad():
                logits, values = agent.heads(*obs_t)
                want_logits, want_values = agent.heads_dense(*obs_t)
            assert (obs_t[agent.i_units][..., agent.mine] == 1).sum() > 0
            # Both sum in float32 in different orders: the tolerance follows
            # the size of the outputs (a missing term would be of that size).
            for got, want in [(logits, want_logits), (values, want_values)]:
                size = max(1.0, float(want[want > -1e8].abs().max()))
                torch.testing.assert_close(got, want, rtol=1e-4, atol=2e-4 * size)


@pytest.mark.parametrize("game", GAMES)
def test_local_net_gradients_equal_dense(game: str) -> None:
    """net local: what PPO trains on (``packed``, with the rollout's
    ``block_inputs``, the distinct cells of ``read_cells`` computed once for
    the whole rollout or per batch, and the hand-written backward passes
    CountsTimes and LookupSum) has the exported graph's gradients."""
    info, (rollout,) = random_play(game, num_envs=6, seed=5, rounds=12, every=12)
    idx = torch.tensor([4, 1, 5, 2])  # a minibatch of the rollout, in another order
    for team, kept in ((False, False), (True, False), (False, True), (True, True)):
        torch.manual_seed(2)
        agent = jt.build_agent(info, "local", team_value=team)
        x = tuple(t[idx] for t in rollout)
        with torch.no_grad():
            pre = agent.block_inputs(x[agent.i_board])
            cells = agent.read_cells(rollout[agent.i_board], rollout[agent.i_units])
            every = agent.block_inputs(rollout[agent.i_board])
            columns = every.flatten(0, 1).ne(0).any(0).nonzero().squeeze(1)
        assert cells is not None and agent.keyed
        assert 0 < len(columns) < every.shape[-1]
        minibatch, kept_columns = None, None
        if kept:
            minibatch, kept_columns = (cells[0], cells[1][idx]), columns
            pre = every[idx][..., columns]
        logits, values, bi, ui = agent.packed(*x, pre=pre, cells=minibatch, columns=kept_columns)
        want_logits, want_values = agent.heads_dense(*x)
        gen = torch.Generator().manual_seed(3)
        w_logits = torch.randn(logits.shape, generator=gen)
        w_values = torch.randn(values.shape, generator=gen)
        legal = logits > -1e8
        params = list(agent.parameters())
        got = torch.autograd.grad(
            (torch.where(legal, logits, 0.0) * w_logits).sum() + (values * w_values).sum(),
            params,
            allow_unused=True,
        )
        dense_values = want_values if team else want_values[bi, ui]
        want = torch.autograd.grad(
            (torch.where(legal, want_logits[bi, ui], 0.0) * w_logits).sum()
            + (dense_values * w_values).sum(),
            params,
            allow_unused=True,
        )
        for (name, _), g, w in zip(agent.named_parameters(), got, want, strict=True):
            assert (g is None) == (w is None), name
            if g is None:
                continue
            assert float(w.abs().max()) > 0 or name.startswith("emb"), name
            size = max(1e-3, float(w.abs().max()))
            torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-4 * size, msg=name)


def test_local_net_bf16() -> None:
    """bfloat16: the per-slot MLP gives float32 outputs near the float32
    network's, for each slot, and gradients for every weight."""
    info, (obs,) = random_play("Crematoria-v0", num_envs=6, seed=7, rounds=20, every=20)
    torch.manual_seed(4)
    agent = jt.build_agent(info)
    with torch.no_grad():
        want_logits, want_values, bi, ui = agent.packed(*obs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a CPU without native bfloat16 is warned of
        jt.set_bf16(agent, True)
    logits, values, bi16, ui16 = agent.packed(*obs)
    assert len(bi) % BF16_ROWS != 0  # the rows were padded
    assert torch.equal(bi, bi16) and torch.equal(ui, ui16)
    assert logits.dtype == values.dtype == torch.float32
    legal = want_logits > -1e8
    assert torch.equal(legal, logits > -1e8)
    for got, want in [(logits[legal], want_logits[legal]), (values, want_values)]:
        size = float(want.abs().max())
        torch.testing.assert_close(got, want, rtol=0.0, atol=0.03 * size)
        assert not torch.equal(got, want)  # it did run in bfloat16
    grads = torch.autograd.grad(logits[legal].sum() + values.sum(), list(agent.parameters()))
    for (name, _), g in zip(agent.named_parameters(), grads, strict=True):
        if name.startswith(("near_in", "far_in", "unit_in", "mid", "unit_out", "critic")):
            assert g.dtype == torch.float32 and float(g.abs().max()) > 0, name
    conv = jt.build_agent(info, "conv")
    with pytest.raises(ValueError, match="only the local network"):
        jt.set_bf16(conv, True)


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    """A checkpoint rebuilds the same network (its description, shape and orders) offline."""
    info, (obs,) = random_play("Crematoria-v0", num_envs=2, seed=2, rounds=2, every=2)
    torch.manual_seed(5)
    agent = jt.build_agent(info, "local:hidden=32", command_order="attacks_first",
                           opponent_order="score")  # fmt: skip
    jt.save_checkpoint(tmp_path / "ck.pt", agent, args={"seed": 5}, trained="bc")
    # no server: the description is in the checkpoint
    back, ck = jt.load_checkpoint(tmp_path / "ck.pt", address="127.0.0.1:1")
    assert (back.command_order, back.opponent_order) == ("attacks_first", "score")
    assert ck["network"]["trained"] == "bc" and ck["args"] == {"seed": 5}
    assert back.info == info and back.config == agent.config
    with torch.no_grad():
        torch.testing.assert_close(back.heads(*obs), agent.eval().heads(*obs), rtol=0, atol=0)


def test_sample_follows_the_softmax() -> None:
    torch.manual_seed(0)
    logits = torch.tensor([[0.0, 1.0, -1e9, 2.0]]).expand(20000, 4)
    action, logp = jt.sample(logits)
    freq = torch.bincount(action, minlength=4).float() / len(action)
    want = torch.softmax(logits[0], -1)
    assert freq[2] == 0
    torch.testing.assert_close(freq, want, rtol=0, atol=0.015)
    torch.testing.assert_close(logp, want.log()[action])


def test_reward_norm() -> None:
    """Rewards keep their sign and proportions; their scale follows the return's."""
    norm = jt.RewardNorm(2, gamma=0.9)
    rng = np.random.default_rng(0)
    out = [norm(rng.normal(50, 10, 2), np.zeros(2, bool)) for _ in range(500)]
    last = np.array(out[-100:])
    assert (last > 0).all() and last.max() <= 10.0
    assert 0.02 < float(np.std(last)) < 1.0  # 10 of 50 a step, a return near 500


def test_phases() -> None:
    phases = jt.Phases()
    with phases("env"):
        time.sleep(0.01)
    s = phases.summary(100)
    assert s["seconds"]["env"] >= 0.01 and s["share"]["env"] == 1.0
    assert s["steps_per_second_without_eval"] == pytest.approx(100 / phases.seconds["env"])
    with pytest.raises(KeyError, match="no phase 'sleep'"):
        phases("sleep")


def test_two_lanes() -> None:
    """Lanes of two: each lane steps its own games; step() gives them all in row order."""
    envs = jgym.make_vec("Moria-v0", num_envs=1)
    config = envs.spec_proto.default_config
    envs.close()
    short = re.sub(r"(?m)^(nb_rounds\s+)\d+", r"\g<1>5", config)
    lanes = jt.Lanes("Moria-v0", 4, seed=3, lanes=2, config=short)
    try:
        assert lanes.lane_rows == [(0, 2), (2, 4)] and lanes.sizes == [2, 2]
        u = describe(lanes.spec).num_slots
        finals = []
        for _ in range(5):
            out = lanes.step(np.full((4, u), 8, np.int8))  # every unit stays
            assert out.obs["units"].shape[0] == 4 and out.slot_done.shape == (4, u)
            finals += out.finals
        assert out.done.all() and out.slot_done.all()
        assert sorted(f.set for f in finals) == [0, 0, 1, 1]
    finally:
        lanes.close()


def test_history(tmp_path: Path) -> None:
    """A run's record: recent games, a JSON round trip (the summary is not kept), a plot."""
    h = jt.History()
    assert np.isnan(h.recent()[0])
    h.add_games(64, [jt.Final(0, (10, 3, 4, 5), 0), jt.Final(1, (1, 9, 2, 3), 2)])
    assert h.recent() == (6.0, 0.5)
    assert h.games[1] == {"step": 64, "set": 1, "score": 2, "best_opponent": 9, "win": False}
    h.evals.append({"step": 64, "win_rate": 0.5, "win_ci95": [0.1, 0.9], "mean_score": 6.0})
    h.ratings.append({"step": 64, "ratings": {"learner": {"mu": 25.0, "sigma": 8.0}}})
    h.summary = {"steps": 64}
    h.save(tmp_path / "history.json")
    back = jt.History.load(tmp_path / "history.json")
    assert (back.games, back.evals, back.ratings, back.summary) == (h.games, h.evals, h.ratings, {})
    assert jt.History.load(tmp_path / "none.json") == jt.History()
    h.plot(tmp_path / "curve.png")
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
