"""``jgym dataset`` and :mod:`jgym.dataset`: traces become the env's own observations.

For each game a short self-play game is played through the PettingZoo env
(four learner seats, random legal actions) on a server that writes its
trace. The trace goes through ``jgym dataset``, and every sample must equal
what the env returned for that seat and round, tensor for tensor; each
label that is a move must be the action the seat sent for that slot (so
it is legal under the mask the seat saw), and the rewards must be the
env's. Then the reader's batches must cover every sample once.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jgym
from jgym.dataset import open_dataset
from jgym.server import LocalServer, find_binary

GAMES = ["Crematoria-v0", "Dominator-v0", "Pandemic-v0", "Moria-v0"]
ROUNDS = 12

# What a trace does not print but the observation holds, by game: tensor ->
# index of the estimated part (the manifest's "estimated").
ESTIMATED: dict[str, dict[str, Any]] = {
    # damage, turns, immune, masked; plane 5 bits 1, 3, 4 (bits 0 and 2 exact)
    "Pandemic-v0": {"units": (np.s_[:, 5:9], 0), "board": (np.s_[5], 0b00101)},
}


def short_config(game: str, address: str) -> str:
    """The game's default configuration with ROUNDS rounds."""
    envs = jgym.make_vec(game, num_envs=1, opponents=("Null", "Null", "Null"), address=address)
    try:
        cfg = envs.spec_proto.default_config
    finally:
        envs.close()
    out, n = re.subn(r"(?m)^(nb_rounds\s+)\d+", lambda m: f"{m.group(1)}{ROUNDS}", cfg)
    assert n == 1, cfg
    return out


def play(game: str, tmp: Path, seed: int) -> tuple[Path, list[dict[str, Any]]]:
    """Plays a self-play game: its trace, and per round each seat's observation, action, reward."""
    binary = find_binary()
    trace_dir = tmp / "traces"
    trace_dir.mkdir()
    rounds: list[dict[str, Any]] = []
    with LocalServer(binary=binary, args=["--trace-dir", str(trace_dir)]) as server:
        cfg = short_config(game, server.address)
        env = jgym.parallel_env(game, address=server.address, config=cfg, trace_env0=".")
        rng = np.random.default_rng(seed)
        try:
            obs, infos = env.reset(seed=seed)
            seats = [int(infos[a]["seat"]) for a in env.agents]
            assert seats == [0, 1, 2, 3]
            while env.agents:
                actions = {a: jgym.sample_masked(obs[a]["action_mask"], rng) for a in env.agents}
                rec = {
                    "obs": [{k: np.array(v) for k, v in obs[a].items()} for a in env.agents],
                    "action": [actions[a] for a in env.agents],
                }
                obs, rewards, _, _, _ = env.step(actions)
                rec["reward"] = [float(rewards[a]) for a in rec_agents(rewards)]
                rounds.append(rec)
        finally:
            env.close()
    traces = sorted(trace_dir.rglob("*.res"))
    assert len(traces) == 1, traces
    return traces[0], rounds


def rec_agents(rewards: dict[str, float]) -> list[str]:
    return [f"player_{i}" for i in range(4) if f"player_{i}" in rewards]


def make_dataset(trace: Path, out: Path, *extra: str) -> dict[str, Any]:
    proc = subprocess.run(
        [str(find_binary()), "dataset", "-o", str(out), *extra, str(trace)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads((out / "manifest.json").read_text())


@pytest.mark.parametrize("game", GAMES)
def test_dataset_equals_env(game: str, tmp_path: Path) -> None:
    trace, rounds = play(game, tmp_path, seed=7)
    m = make_dataset(trace, tmp_path / "data", "--shard-size", "10")
    assert m["env_id"] == game and m["samples"] == 4 * ROUNDS == len(rounds) * 4
    assert len(m["shards"]) == -(-m["samples"] // 10)
    assert m["labels"]["illegal"] == 0, m["traces"][0].get("illegal")
    ds = open_dataset(tmp_path / "data")
    a = ds.arrays()
    none = ds.none_action
    estimated = ESTIMATED.get(game, {})
    assert bool(m["estimated"]) == bool(estimated)
    moves, hidden, hidden_ok = 0, 0, 0
    for r, rec in enumerate(rounds):
        for seat in range(4):
            i = 4 * r + seat
            assert (a["round"][i], a["seat"][i]) == (r, seat)
            for name in ds.observation_names:
                want = rec["obs"][seat][name]
                got = a[name][i].astype(want.dtype)
                assert got.shape == want.shape, name
                if name in estimated:
                    # Features the trace does not print are compared apart;
                    # the exact bits of a partly estimated plane stay in.
                    sel, exact_bits = estimated[name]
                    hidden += int(np.asarray(want[sel]).size)
                    hidden_ok += int((np.asarray(got[sel]) == np.asarray(want[sel])).sum())
                    want, got = want.copy(), got.copy()
                    want[sel] &= exact_bits
                    got[sel] &= exact_bits
                if not np.array_equal(got, want):
                    bad = np.argwhere(got != want)[:5].tolist()
                    pytest.fail(f"round {r} seat {seat} {name}: differs at {bad}")
            label, sent = a["action"][i].astype(int), rec["action"][seat].astype(int)
            moved = label != none
            moves += int(moved.sum())
            np.testing.assert_array_equal(label[moved], sent[moved], f"round {r} seat {seat}")
            assert a["reward"][i] == pytest.approx(rec["reward"][seat]), (r, seat)
    assert moves > 0
    if estimated:
        print(f"{game}: estimated features equal the env's in {hidden_ok} of {hidden}")
        assert hidden_ok > 0.5 * hidden
    assert m["labels"]["moves"] == moves
    assert a["done"].sum() == 4 and a["done"][-4:].all()


def test_batches_cover_every_sample(tmp_path: Path) -> None:
    trace, _ = play("Crematoria-v0", tmp_path, seed=3)
    make_dataset(trace, tmp_path / "data", "--shard-size", "7", "--seats", "0,2")
    ds = open_dataset(tmp_path / "data")
    assert len(ds) == 2 * ROUNDS
    assert ds.observation_space["board"].shape == (3, 40, 80)
    assert ds.action_space.shape == (80,)
    keys = set()
    sizes = []
    for b in ds.batches(5, seed=1, buffer_shards=2):
        sizes.append(len(b["action"]))
        assert set(b) >= {*ds.observation_names, "action", "reward", "round", "seat"}
        keys |= {(int(r), int(s)) for r, s in zip(b["round"], b["seat"], strict=True)}
    assert sum(sizes) == 2 * ROUNDS and all(s == 5 for s in sizes[:-1])
    assert keys == {(r, s) for r in range(ROUNDS) for s in (0, 2)}
    ordered = [int(r) for b in ds.batches(6, shuffle=False) for r in b["round"]]
    assert ordered == sorted(ordered)
    shuffled = [int(r) for b in ds.batches(6, seed=2) for r in b["round"]]
    assert shuffled != ordered


def test_split_by_trace(tmp_path: Path) -> None:
    trace, _ = play("Crematoria-v0", tmp_path, seed=4)
    make_dataset(trace, tmp_path / "one")
    ds = open_dataset(tmp_path / "one")
    train, held = ds.split(0.5)
    assert len(train) + len(held) == len(ds) and len(held) == 0
    assert all(b["trace"].tolist() == [0] * len(b["trace"]) for b in train.batches(16))


def bc_script_and_config(tmp_path: Path) -> tuple[Path, str, Path]:
    """examples/bc.py, the jgym binary and a short Crematoria configuration in tmp_path."""
    script = Path(__file__).resolve().parent.parent / "examples" / "bc.py"
    if not script.exists():
        pytest.skip("no examples/bc.py (tests run outside the source tree)")
    binary = str(find_binary())
    with LocalServer(binary=find_binary()) as server:
        cfg = tmp_path / "short.cnf"
        cfg.write_text(short_config("Crematoria-v0", server.address))
    return script, binary, cfg


def test_behaviour_cloning(tmp_path: Path) -> None:
    """examples/bc.py: the loss drops in one short epoch, and jgym.torch loads its checkpoint."""
    pytest.importorskip("torch")
    script, binary, cfg = bc_script_and_config(tmp_path)
    traces = []
    for seed in (1, 2, 3):
        out = tmp_path / f"g{seed}.res"
        subprocess.run(
            [
                binary,
                "match",
                "Demo",
                "Demo",
                "Demo",
                "Demo",
                "-s",
                str(seed),
                "-i",
                str(cfg),
                "-o",
                str(out),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        traces.append(str(out))
    proc = subprocess.run(
        [binary, "dataset", "-o", str(tmp_path / "data"), *traces],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ck = tmp_path / "bc.pt"
    argv = [sys.executable, str(script), "--data", str(tmp_path / "data"), "--epochs", "1"]
    argv += ["--batch-size", "8", "--learning-rate", "3e-3", "--holdout", "0.34"]
    argv += ["--threads", "1", "--no-progress", "--out", str(ck)]
    env = {k: v for k, v in os.environ.items() if k != "JGYM_QUICK"}
    for more in ([], ["--bf16"]):  # bfloat16 (the per-slot MLP) learns too
        proc = subprocess.run([*argv, *more], capture_output=True, text=True, env=env,
                              timeout=600, check=False)  # fmt: skip
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        summary = json.loads(proc.stdout.strip().splitlines()[-1])
        losses = summary["history"]["loss"]
        assert len(losses) >= 10
        assert np.mean(losses[-3:]) < np.mean(losses[:3]), losses
        held = summary["held_out"]
        assert held["slots"] > 0 and 0.0 <= held["accuracy"] <= 1.0
    # a jgym.torch checkpoint of a cloned policy, which PPO's --init takes
    jt = pytest.importorskip("jgym.torch")
    agent, saved = jt.load_checkpoint(ck)
    assert saved["network"]["trained"] == "bc" and agent.num_slots == 80
    ds = open_dataset(tmp_path / "data")
    batch = next(ds.batches(4, shuffle=False))
    logits = agent(*jt.to_torch(batch, agent.input_names))
    assert tuple(logits.shape) == (4, 80, 11)


def test_behaviour_cloning_by_score(tmp_path: Path) -> None:
    """A dataset by score: bc.py's clone sees the opponents by score, and Go's policy bot plays it.

    ``jgym dataset --opponent-order score`` records the order, the reader
    exposes it, bc.py takes it (its checkpoint and ONNX metadata say
    ``score``, as ppo.py's), ``jgym eval policy:`` plays the export, and
    bc.py asked for the seat view of that dataset refuses it. The clone
    gives its commands in the game's first order (attacks first), or in
    ``--command-order``'s.
    """
    jt = pytest.importorskip("jgym.torch")
    pytest.importorskip("onnx")
    script, binary, cfg = bc_script_and_config(tmp_path)
    traces = []
    for seed in (1, 2):  # Riddick leads, Null trails: the opponents leave seat order
        out = tmp_path / f"g{seed}.res"
        cmd = [binary, "match", "Null", "Demo", "Riddick", "Demo", "-s", str(seed)]
        subprocess.run([*cmd, "-i", str(cfg), "-o", str(out)], check=True, capture_output=True,
                       timeout=60)  # fmt: skip
        traces.append(str(out))
    data = tmp_path / "data"
    m = make_dataset(Path(traces[0]), data, "--opponent-order", "score", traces[1])
    assert m["opponent_order"] == "score"
    ds = open_dataset(data)
    assert ds.opponent_order == "score" and "opponent_order=score" in repr(ds)
    seat = make_dataset(Path(traces[0]), tmp_path / "seat", traces[1])
    assert seat["opponent_order"] == open_dataset(tmp_path / "seat").opponent_order == "seat"
    del seat["opponent_order"]  # a dataset written before the manifest said: seat order
    (tmp_path / "seat" / "manifest.json").write_text(json.dumps(seat))
    assert open_dataset(tmp_path / "seat").opponent_order == "seat"

    ck = tmp_path / "bc.pt"
    argv = [sys.executable, str(script), "--data", str(data), "--epochs", "1", "--max-batches", "2"]
    argv += ["--batch-size", "8", "--threads", "1", "--no-progress", "--out", str(ck)]
    env = {k: v for k, v in os.environ.items() if k != "JGYM_QUICK"}
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    agent, saved = jt.load_checkpoint(ck)
    assert agent.opponent_order == "score" and saved["network"]["opponent_order"] == "score"
    assert saved["args"]["opponent_order"] == "score"
    onnx = tmp_path / "bc.onnx"
    jt.export_onnx(agent, onnx)
    assert jt.read_onnx(onnx).env_options()["opponent_order"] == "score"
    # the commands in the first order the game offers (Crematoria's attacks first), as ppo.py's
    assert agent.command_order == "attacks_first"
    assert jt.read_onnx(onnx).env_options()["command_order"] == "attacks_first"
    cmd = [binary, "eval", f"policy:{onnx}", "-n", "2", "-i", str(cfg), "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert json.loads(proc.stdout)["games"] == 2

    # --command-order slot: the clone gives its commands in slot order
    ck_slot = tmp_path / "bc_slot.pt"
    argv_slot = [*argv[:-1], str(ck_slot), "--command-order", "slot"]
    proc = subprocess.run(
        argv_slot, capture_output=True, text=True, env=env, timeout=600, check=False
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert jt.load_agent(ck_slot).command_order == "slot"

    # asked for the seat view, bc.py refuses the dataset by score, saying why
    proc = subprocess.run([*argv, "--opponent-order", "seat"], capture_output=True, text=True,
                          env=env, timeout=600, check=False)  # fmt: skip
    assert proc.returncode != 0
    assert "sees the opponents by score" in proc.stderr, proc.stderr[-2000:]
    assert "jgym dataset --opponent-order seat" in proc.stderr


# The games with an opt-in ``expert`` tensor: the env id, the strong bot
# whose orders it holds, the tensors named and the dataset's tensors.
EXPERT_GAMES = {
    "pandemic": ("Pandemic-v0", "Pasteur", "board,units,globals,targets,expert",
                 ("board", "units", "globals", "action_mask", "targets", "expert")),
    "dominator": ("Dominator-v0", "Khan", "board,units,globals,targets,expert",
                  ("board", "units", "globals", "action_mask", "move_mask", "targets", "expert")),
    "moria": ("Moria-v0", "Balin", "board,units,globals,targets,expert",
              ("board", "units", "globals", "action_mask", "targets", "expert")),
}  # fmt: skip


@pytest.mark.parametrize("game", sorted(EXPERT_GAMES))
def test_behaviour_cloning_expert(tmp_path: Path, game: str) -> None:
    """A dataset with the opt-in ``expert`` tensor: bc.py clones it, Go's bot plays it.

    ``jgym dataset --tensors ...,expert`` writes the strong bot's orders
    (Pandemic's Pasteur, Dominator's Khan, Moria's Balin) as a tensor; bc.py builds its
    network on the dataset's tensors (a session that asks for them
    describes ``expert``), the export records them in its metadata
    ``tensors``, and ``jgym eval policy:`` feeds the tensor.
    """
    env_id, bot, tensors, taken = EXPERT_GAMES[game]
    jt = pytest.importorskip("jgym.torch")
    pytest.importorskip("onnx")
    script = Path(__file__).resolve().parent.parent / "examples" / "bc.py"
    if not script.exists():
        pytest.skip("no examples/bc.py (tests run outside the source tree)")
    binary = str(find_binary())
    with LocalServer(binary=find_binary()) as server:
        cfg = tmp_path / "short.cnf"
        cfg.write_text(short_config(env_id, server.address))
    trace = tmp_path / "g.res"
    cmd = [binary, "match", "-g", game, bot, "Demo", bot, "Demo", "-s", "1"]
    subprocess.run([*cmd, "-i", str(cfg), "-o", str(trace)], check=True, capture_output=True,
                   timeout=60)  # fmt: skip
    m = make_dataset(trace, tmp_path / "data", "--tensors", tensors, "--expert", bot)
    assert tuple(t["name"] for t in m["observation"]) == taken
    ds = open_dataset(tmp_path / "data")
    batch = next(ds.batches(8, shuffle=False))
    mine = batch["expert"].any(-1)  # the slots of my units the bot could order
    assert mine.any()
    assert (batch["units"][..., 0][mine] == 1).all()
    assert (batch["expert"].sum(-1)[mine] == 1).all()
    # the labels are the bot's orders, the expert tensor their one-hot
    assert (batch["expert"].argmax(-1)[mine] == batch["action"][mine]).all()

    ck = tmp_path / "bc.pt"
    argv = [sys.executable, str(script), "--game", game, "--data", str(tmp_path / "data")]
    argv += ["--epochs", "1", "--max-batches", "2", "--batch-size", "8", "--threads", "1"]
    argv += ["--no-progress", "--out", str(ck)]
    env = {k: v for k, v in os.environ.items() if k != "JGYM_QUICK"}
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    agent, _ = jt.load_checkpoint(ck)
    assert agent.input_names[-1] == "expert"
    onnx = tmp_path / "bc.onnx"
    jt.export_onnx(agent, onnx)
    assert jt.read_onnx(onnx).tensors == taken
    cmd = [binary, "eval", "-g", game, f"policy:{onnx}", "-n", "1", "-i", str(cfg), "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert json.loads(proc.stdout)["games"] == 1
