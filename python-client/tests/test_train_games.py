"""One trainer for every game: train, export, and play the export in Go (tiny budgets).

For Dominator, Pandemic and Moria, ``examples/train_ppo.py --game NAME``
trains for two PPO updates (4 games of 12 rounds in parallel, the per-unit
credit the shipped models were trained with) and exports ONNX. Then:

- the ONNX file's inputs are the game's observation tensors (the server's
  GameSpec) in the spec's order, with their names and dtypes (Dominator's
  ``move_mask`` too), its output is ``logits`` [B, U, A] and its metadata
  names the game's observation version;
- one game is played twice, once through the vector env with PyTorch
  choosing the moves (the greedy policy) and once by ``jgym match --game
  NAME policy:model.onnx Demo Demo Demo`` in Go: the final scores are the
  same, so the Go encoder, the network, the argmax and the command order
  all agree with training.

A last test trains Dominator with the other credit (``team``: the env's
reward) for one update. Crematoria's own test is test_train_export.py.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from testhelpers import load_example

import jgym
from jgym.server import find_binary

torch = pytest.importorskip("torch")
onnx = pytest.importorskip("onnx")

CLIENT = Path(__file__).resolve().parent.parent
SCRIPT = CLIENT / "examples" / "train_ppo.py"
ROUNDS = 12
GAMES = ["Dominator-v0", "Pandemic-v0", "Moria-v0"]
ONNX_TYPES = {"uint8": 2, "float32": 1, "bool": 9}


def load_script() -> ModuleType:
    return load_example("train_ppo")


def short_config(game: str) -> str:
    """The game's default configuration with ROUNDS rounds."""
    envs = jgym.make_vec(game, num_envs=1, opponents=("Null", "Null", "Null"))
    try:
        cfg = envs.spec_proto.default_config
    finally:
        envs.close()
    out, n = re.subn(r"(?m)^(nb_rounds\s+)\d+", lambda m: f"{m.group(1)}{ROUNDS}", cfg)
    assert n == 1, cfg
    return out


def train(tmp: Path, game: str, *extra: str) -> dict:
    """Runs the script with a tiny budget; returns its summary (and the paths)."""
    cfg = tmp / "short.cnf"
    cfg.write_text(short_config(game))
    onnx_path = tmp / "model.onnx"
    proc = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--game",
            game,
            "--num-envs",
            "4",
            "--num-steps",
            "32",
            "--num-minibatches",
            "2",
            "--threads",
            "1",
            "--eval-every",
            "0",
            "--eval-final-games",
            "4",
            "--config",
            str(cfg),
            "--run-dir",
            str(tmp / "runs"),
            "--export",
            str(onnx_path),
            "--progress",
            "false",
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["game"] == game
    assert summary["final_eval"]["games"] == 4
    assert onnx_path.exists()
    run = Path(summary["run"])
    net = extra[extra.index("--net") + 1] if "--net" in extra else "conv"
    return {
        **summary,
        "onnx": onnx_path,
        "checkpoint": run / "checkpoint.pt",
        "config": cfg,
        "net": net,
    }


# Every game with the convolutional network; every game (Crematoria too)
# with the egocentric one (--net local), whose exported graph computes every
# slot while PyTorch computes the learner's slots only.
NETS = [(g, "conv") for g in GAMES] + [(g, "local") for g in ["Crematoria-v0", *GAMES]]


@pytest.fixture(scope="module", params=NETS, ids=[f"{g}-{n}" for g, n in NETS])
def trained(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    if not SCRIPT.exists():
        pytest.skip("no examples/train_ppo.py (tests run outside the source tree)")
    game, net = request.param
    tmp = tmp_path_factory.mktemp(f"{game.split('-')[0].lower()}_{net}")
    return train(tmp, game, "--total-timesteps", "256", "--credit", "units", "--net", net)


def meta_of(model: object) -> dict[str, str]:
    return {p.key: p.value for p in model.metadata_props}  # type: ignore[attr-defined]


def test_onnx_signature(trained: dict) -> None:
    """Inputs: the spec's tensors in its order, names and dtypes; logits [B, U, A]."""
    game = trained["game"]
    envs = jgym.make_vec(game, num_envs=1, opponents=("Null", "Null", "Null"))
    try:
        spec = envs.spec_proto
    finally:
        envs.close()
    model = onnx.load(str(trained["onnx"]))
    got = [
        (i.name, i.type.tensor_type.elem_type, [d.dim_value for d in i.type.tensor_type.shape.dim])
        for i in model.graph.input
    ]
    mod = load_script()
    sp = mod.Spaces.of(spec)
    want = [(n, ONNX_TYPES[dt], [0, *s]) for n, dt, s in sp.inputs]  # batch is symbolic
    assert got == want
    if game == "Dominator-v0":
        assert [n for n, *_ in got][-1] == "move_mask"
    assert json.loads(meta_of(model)["network"])["net"] == trained["net"]
    (out,) = model.graph.output
    u, a = sp.num_slots, int(spec.num_actions)
    assert out.name == "logits"
    assert [d.dim_value for d in out.type.tensor_type.shape.dim] == [0, u, a]
    meta = meta_of(model)
    assert meta["observation_version"] == spec.observation_version
    assert meta["game"] == game and meta["num_slots"] == str(u)
    ops = {n.op_type for n in model.graph.node}
    assert ops <= {s.strip() for s in meta["operators"].split(",")} | {"Identity"}


def test_same_game_in_go(trained: dict) -> None:
    """PyTorch through the vector env and the Go policy: seat play the same game."""
    game, seed = trained["game"], 7
    mod = load_script()
    agent = mod.load_agent(trained["checkpoint"])
    config = trained["config"].read_text()
    policy = mod.greedy(agent)
    envs = jgym.make_vec(
        game,
        num_envs=1,
        seats=(None, "Demo", "Demo", "Demo"),
        config=config,
        autoreset_mode="Disabled",
        # Crematoria's commands go attacks first (--command-order), as the bot's
        action_order=policy.action_order,  # type: ignore[attr-defined]
    )
    try:
        obs, _ = envs.reset(seed=seed)
        while True:
            obs, _, terminated, _, info = envs.step(policy(obs))
            if terminated.all():
                break
        torch_scores = [int(x) for x in info["scores"][0]]
    finally:
        envs.close()
    proc = subprocess.run(
        [
            str(find_binary()),
            "match",
            "--game",
            game.split("-v")[0],
            f"policy:{trained['onnx']}",
            "Demo",
            "Demo",
            "Demo",
            "-s",
            str(seed),
            "-i",
            str(trained["config"]),
            "-o",
            os.devnull,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    go_scores = [int(m) for m in re.findall(r"got score (\d+)", proc.stderr)]
    assert go_scores == torch_scores


def test_team_credit(tmp_path: Path) -> None:
    """The other credit, the env's reward for the seat, trains and exports too."""
    if not SCRIPT.exists():
        pytest.skip("no examples/train_ppo.py (tests run outside the source tree)")
    s = train(tmp_path, "Dominator-v0", "--total-timesteps", "128", "--credit", "team")
    ck = torch.load(s["checkpoint"], weights_only=True)
    assert ck["args"]["credit"] == "team" and ck["args"]["norm_reward"]
    assert ck["model"]["critic.0.weight"].shape[1] == 2 * ck["args"]["hidden"]  # the seat's value


def random_play(
    mod: Any, game: str, *, num_envs: int, seed: int, rounds: int, every: int
) -> tuple[Any, list[tuple[torch.Tensor, ...]]]:
    """The game's Spaces and its observations (as the network takes them)
    after every ``every`` rounds of random legal moves against three Demos
    (so that the units spread out)."""
    envs = jgym.make_vec(game, num_envs=num_envs, opponents=("Demo", "Demo", "Demo"))
    try:
        spaces = mod.Spaces.of(envs.spec_proto)
        obs, _ = envs.reset(seed=seed)
        batches = []
        rng = np.random.default_rng(seed)
        for t in range(rounds):
            mask = np.asarray(obs[mod.GAMES[game].mask]).astype(bool)
            obs, *_ = envs.step((rng.random(mask.shape) * mask).argmax(-1).astype(np.int8))
            if t % every == every - 1:
                batches.append(mod.to_torch(obs))
    finally:
        envs.close()
    return spaces, batches


@pytest.mark.parametrize("game", ["Crematoria-v0", *GAMES])
def test_local_net_sparse_equals_dense(game: str) -> None:
    """--net local: PyTorch's path (the learner's slots only, code counts per
    block) gives the exported graph's logits and values, on observations of
    real games (the other slots: those of a zero hidden layer in both)."""
    if not SCRIPT.exists():
        pytest.skip("no examples/train_ppo.py (tests run outside the source tree)")
    mod = load_script()
    spaces, batches = random_play(mod, game, num_envs=4, seed=3, rounds=30, every=10)
    args = {**vars(mod.Args()), **mod.GAMES[game].defaults, "game": game, "net": "local"}
    # keyed False: the cells read one by one, as for a game of over 7 planes
    for credit, keyed in (("units", True), ("team", True), ("units", False)):
        torch.manual_seed(1)
        agent = mod.make_agent(spaces, {**args, "credit": credit})
        agent.keyed = keyed
        with torch.no_grad():
            for p in agent.parameters():  # larger than at initialisation: a stricter test
                p.mul_(3.0)
        for obs_t in batches:
            with torch.no_grad():
                logits, values = agent.heads(*obs_t)
                want_logits, want_values = agent.heads_dense(*obs_t)
            mine = obs_t[agent.i_units][..., 0] == 1
            assert mine.sum() > 0
            # Both sum in float32 in different orders: the tolerance follows
            # the size of the outputs (a missing term would be of that size).
            # every slot: the others' hidden layer is zero in both
            for got, want in [(logits, want_logits), (values, want_values)]:
                size = max(1.0, float(want[want > -1e8].abs().max()))
                torch.testing.assert_close(got, want, rtol=1e-4, atol=2e-4 * size)


@pytest.mark.parametrize("game", ["Crematoria-v0", *GAMES])
def test_local_net_gradients_equal_dense(game: str) -> None:
    """--net local: what PPO trains on (``packed``, with the rollout's
    ``block_inputs``, the distinct cells of ``read_cells`` computed once for
    the whole rollout or per batch, and the hand-written backward passes
    CountsTimes and LookupSum) has the exported graph's gradients,
    for every weight."""
    if not SCRIPT.exists():
        pytest.skip("no examples/train_ppo.py (tests run outside the source tree)")
    mod = load_script()
    spaces, (rollout,) = random_play(mod, game, num_envs=6, seed=5, rounds=12, every=12)
    args = {**vars(mod.Args()), **mod.GAMES[game].defaults, "game": game, "net": "local"}
    # a minibatch of the rollout: 4 of its 6 observations, in another order
    idx = torch.tensor([4, 1, 5, 2])
    for credit, kept in (("units", False), ("team", False), ("units", True), ("team", True)):
        torch.manual_seed(2)
        agent = mod.make_agent(spaces, {**args, "credit": credit})
        x = tuple(t[idx] for t in rollout)
        with torch.no_grad():
            pre = agent.block_inputs(x[agent.i_board])
            cells = agent.read_cells(rollout[agent.i_board], rollout[agent.i_units])
            # as the update keeps them: the rollout's nonzero block-count columns
            every = agent.block_inputs(rollout[agent.i_board])
            columns = every.flatten(0, 1).ne(0).any(0).nonzero().squeeze(1)
        assert cells is not None and agent.keyed  # every game's cells fit in a key
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
        got = torch.autograd.grad(
            (torch.where(legal, logits, 0.0) * w_logits).sum() + (values * w_values).sum(),
            list(agent.parameters()),
            allow_unused=True,
        )
        dense_values = want_values if credit == "team" else want_values[bi, ui]
        want = torch.autograd.grad(
            (torch.where(legal, want_logits[bi, ui], 0.0) * w_logits).sum()
            + (dense_values * w_values).sum(),
            list(agent.parameters()),
            allow_unused=True,
        )
        names = [n for n, _ in agent.named_parameters()]
        for name, g, w in zip(names, got, want, strict=True):
            assert (g is None) == (w is None), name
            if g is None:
                continue
            assert float(w.abs().max()) > 0 or name.startswith("emb"), name
            size = max(1e-3, float(w.abs().max()))
            torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-4 * size, msg=name)


def test_local_net_bf16(tmp_path: Path) -> None:
    """--bf16: the per-slot MLP in bfloat16 gives float32 logits and values
    near the float32 network's, for each slot (the rows padded for oneDNN are
    dropped: a slot's output does not depend on how many rows there are),
    gradients for every weight, and a short training run with it works."""
    if not SCRIPT.exists():
        pytest.skip("no examples/train_ppo.py (tests run outside the source tree)")
    mod = load_script()
    game = "Crematoria-v0"
    spaces, (obs,) = random_play(mod, game, num_envs=6, seed=7, rounds=20, every=20)
    args = {**vars(mod.Args()), **mod.GAMES[game].defaults, "game": game, "net": "local"}
    torch.manual_seed(4)
    agent = mod.make_agent(spaces, args)
    with torch.no_grad():
        want_logits, want_values, bi, ui = agent.packed(*obs)
    agent.bf16 = True
    logits, values, bi16, ui16 = agent.packed(*obs)
    assert len(bi) % mod.BF16_ROWS != 0  # the rows were padded
    assert torch.equal(bi, bi16) and torch.equal(ui, ui16)
    assert logits.dtype == values.dtype == torch.float32
    legal = want_logits > -1e8
    assert torch.equal(legal, logits > -1e8)
    for got, want in [(logits[legal], want_logits[legal]), (values, want_values)]:
        size = float(want.abs().max())
        assert size > 0
        # bfloat16 keeps 8 bits of mantissa: about 0.4% of each product's inputs
        torch.testing.assert_close(got, want, rtol=0.0, atol=0.03 * size)
        assert not torch.equal(got, want)  # it did run in bfloat16
    # one slot alone gives what it gives among all the others
    with torch.no_grad():
        one = tuple(t[bi[:1]] for t in obs)
        logits1, *_ = agent.packed(*one)
    k = int((bi == bi[0]).sum())
    torch.testing.assert_close(logits1, logits[:k].detach(), rtol=0.0, atol=0.03 * size)
    grads = torch.autograd.grad(
        logits[legal].sum() + values.sum(), list(agent.parameters()), allow_unused=True
    )
    names = [n for n, _ in agent.named_parameters()]
    for name, g in zip(names, grads, strict=True):
        if name.startswith(("near_in", "far_in", "unit_in", "mid", "unit_out", "critic")):
            assert g is not None and g.dtype == torch.float32 and float(g.abs().max()) > 0, name
    s = train(
        tmp_path, game, "--total-timesteps", "256", "--net", "local", "--bf16", "true",
        "--num-envs", "4", "--num-steps", "64",
    )  # fmt: skip
    assert s["steps"] == 256


def test_pipeline(tmp_path: Path) -> None:
    """--pipeline true: two lanes of envs, each stepped while the policy reads
    the other's; it trains, and its games come from both lanes' sets."""
    if not SCRIPT.exists():
        pytest.skip("no examples/train_ppo.py (tests run outside the source tree)")
    s = train(
        tmp_path, "Crematoria-v0", "--total-timesteps", "256", "--pipeline", "true",
        "--net", "local", "--num-steps", "64",
    )  # fmt: skip
    history = json.loads((Path(s["run"]) / "history.json").read_text())
    assert {g["set"] for g in history["games"]} == {0, 1}
    # 4 envs (2 per lane) play 64 rounds of games of ROUNDS rounds (short.cnf)
    assert len(history["games"]) == 4 * (64 // ROUNDS)


def test_crematoria_steal_and_loss_credit() -> None:
    """--steal-reward and --loss-penalty (Crematoria's per-unit credit): in
    games of random legal moves against Riddick, each of my Pioneers that
    stays mine and ends the round on a cave another group owned before the
    round (read from the boards before and after, not from its move) gets
    the steal reward on top of the cell, and each unit of mine that another
    group has after the round loses the penalty."""
    if not SCRIPT.exists():
        pytest.skip("no examples/train_ppo.py (tests run outside the source tree)")
    mod = load_script()
    envs = jgym.make_vec("Crematoria-v0", num_envs=4, opponents=("Riddick", "Riddick", "Riddick"))
    stolen_total = lost_total = 0
    try:
        obs, _ = envs.reset(seed=11)
        rng = np.random.default_rng(11)
        for _ in range(80):
            before = {k: np.array(v) for k, v in obs.items()}
            mask = before["action_mask"].astype(bool)
            act = (rng.random(mask.shape) * mask).argmax(-1).astype(np.int8)
            obs, _, term, trunc, _ = envs.step(act)
            after = {k: np.array(v) for k, v in obs.items()}
            if (term | trunc).any():
                break
            base, _ = mod.unit_rewards(
                before["board"], before["units"], act, after["units"], gem_value=30, capture=5
            )
            got, _ = mod.unit_rewards(
                before["board"], before["units"], act, after["units"],
                gem_value=30, capture=5, steal=1.5, lost=2.0,
            )  # fmt: skip
            u0, u1 = before["units"], after["units"]
            env = np.arange(4)[:, None]
            row, col = u1[..., 4].astype(int), u1[..., 5].astype(int)
            owner_before = before["board"][env, 0, row, col] & 7
            owner_after = after["board"][env, 0, row, col] & 7
            stayed = (u0[..., 0] == 1) & (u1[..., 0] == 1)
            stolen = stayed & (u1[..., 2] == 0) & (u1[..., 6] == 0)
            stolen &= (owner_before >= 4) & (owner_after == 3)
            lost = (u0[..., 0] == 1) & (u1[..., 0] != 1)
            np.testing.assert_allclose(got - base, 1.5 * stolen - 2.0 * lost)
            stolen_total += int(stolen.sum())
            lost_total += int(lost.sum())
    finally:
        envs.close()
    assert stolen_total > 0 and lost_total > 0  # the games had both
