"""Train, export, and play the exported policy in Go: the same decisions.

``examples/train_ppo.py`` trains for a tiny budget and exports ONNX. The test
then records observations of real games with PyTorch's masked logits and
argmax decisions, and runs the Go interpreter on them
(``go test ./env/crematoria -run TestMatchesTorch``): logits within
1e-4, decisions equal. Last, one short game is played twice, once through
the vector env with PyTorch choosing the moves and once by
``jgym match policy:model.onnx Demo Demo Demo`` in Go: the final scores are
the same, so encoder, network, argmax and command order all agree.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from testhelpers import load_example

import jgym
from jgym.server import find_binary, find_source_tree

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

CLIENT = Path(__file__).resolve().parent.parent
SCRIPT = CLIENT / "examples" / "train_ppo.py"

ROUNDS = 12
CONFIG = f"""Crematoria 1.2
nb_players             4
nb_rounds            {ROUNDS:3d}
nb_furyans             5
nb_pioneers           15
max_nb_necromongers   10
nb_hellhounds          3
nb_elevators          20
gem_value             30
turns_to_land          2
rows                  40
cols                  80

GENERATOR
"""


def load_script() -> ModuleType:
    return load_example("train_ppo")


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not SCRIPT.exists():
        pytest.skip("no examples/train_ppo.py (tests run outside the source tree)")
    tmp = tmp_path_factory.mktemp("train")
    cfg = tmp / "short.cnf"
    cfg.write_text(CONFIG)
    onnx_path = tmp / "model.onnx"
    proc = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--total-timesteps",
            "128",
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
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    run = Path(summary["run"])
    for name in ("checkpoint.pt", "model.onnx", "history.json", "learning_curve.png"):
        assert (run / name).exists(), name
    assert summary["final_eval"]["games"] == 4
    assert onnx_path.exists()
    return {
        "onnx": onnx_path,
        "checkpoint": run / "checkpoint.pt",
        "config": cfg,
        "tmp": tmp,
        "argv": proc.args,
        "history": run / "history.json",
    }


def test_same_budget_same_policy(trained: dict[str, Path], tmp_path: Path) -> None:
    """Budgeted in env steps, a second run (other directory, a busier machine) learns the same.

    make demo relies on it: the same seed and thread count give the same
    weights and the same losses, whatever the load (this second run runs
    while pytest and the first run's server share the CPU).
    """
    argv = [str(a) for a in trained["argv"]]  # type: ignore[union-attr]
    argv[argv.index("--run-dir") + 1] = str(tmp_path / "runs")
    argv[argv.index("--export") + 1] = str(tmp_path / "model.onnx")
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    run = Path(json.loads(proc.stdout.strip().splitlines()[-1])["run"])
    a = torch.load(trained["checkpoint"], weights_only=True)["model"]
    b = torch.load(run / "checkpoint.pt", weights_only=True)["model"]
    assert a.keys() == b.keys()
    for k in a:
        assert torch.equal(a[k], b[k]), k
    h1 = json.loads(trained["history"].read_text())
    h2 = json.loads((run / "history.json").read_text())
    for u1, u2 in zip(h1["updates"], h2["updates"], strict=True):
        assert (u1["pg_loss"], u1["v_loss"], u1["entropy"]) == (
            u2["pg_loss"],
            u2["v_loss"],
            u2["entropy"],
        )
    assert h1["summary"]["final_eval"]["mean_score"] == h2["summary"]["final_eval"]["mean_score"]


def test_metadata(trained: dict[str, Path]) -> None:
    import onnx

    model = onnx.load(str(trained["onnx"]))
    meta = {p.key: p.value for p in model.metadata_props}
    assert meta["observation_version"] == "crematoria-obs-3"
    # Crematoria's default --command-order: the Go bot and the C++ player
    # issue the attacks first, as the env did in training (test_same_game_in_go).
    assert meta["num_slots"] == "80" and meta["action_order"] == "attacks_first"
    ops = {n.op_type for n in model.graph.node}
    documented = {s.strip() for s in meta["operators"].split(",")} | {"Identity"}
    assert ops <= documented, ops - documented


def test_go_matches_torch(trained: dict[str, Path]) -> None:
    src = find_source_tree()
    if src is None or shutil.which("go") is None:
        pytest.skip("needs the Go source tree and the go command")
    mod = load_script()
    agent = mod.load_agent(trained["checkpoint"])
    rec = trained["tmp"] / "record"
    rec.mkdir()
    envs = jgym.make_vec(
        num_envs=2, opponents=("Demo", "Demo", "Demo"), shuffle_seats=True, config=CONFIG
    )
    boards, units, globs, masks, paths, suns, logits = [], [], [], [], [], [], []
    try:
        obs, _ = envs.reset(seed=123)
        rng = np.random.default_rng(0)
        for _ in range(ROUNDS - 1):
            with torch.inference_mode():
                # The exported graph's function on every slot (--net local's
                # PyTorch path computes the seat's own units only;
                # test_train_games.py checks both agree there).
                heads = getattr(agent, "heads_dense", agent.heads)
                lg = heads(*mod.to_torch(obs))[0].numpy()
            boards.append(np.array(obs["board"]))
            units.append(np.array(obs["units"]))
            globs.append(np.array(obs["globals"]))
            masks.append(np.array(obs["action_mask"]).astype(np.uint8))
            paths.append(np.array(obs["paths"]).astype(np.uint8))
            suns.append(np.array(obs["sun_paths"]).astype(np.uint8))
            logits.append(lg)
            # Random legal moves make more varied positions than the
            # barely trained policy.
            obs, *_ = envs.step(jgym.sample_masked(obs["action_mask"], rng))
    finally:
        envs.close()
    lg = np.concatenate(logits)
    np.concatenate(boards).tofile(rec / "board.bin")
    np.concatenate(units).tofile(rec / "units.bin")
    np.concatenate(globs).astype("<f4").tofile(rec / "globals.bin")
    np.concatenate(masks).tofile(rec / "mask.bin")
    np.concatenate(paths).tofile(rec / "paths.bin")
    np.concatenate(suns).tofile(rec / "sun_paths.bin")
    lg.astype("<f4").tofile(rec / "logits.bin")
    lg.argmax(-1).astype(np.uint8).tofile(rec / "actions.bin")
    (rec / "meta.json").write_text(json.dumps({"n": len(lg), "num_slots": 80}))
    env = {**os.environ, "JGYM_POLICY_MODEL": str(trained["onnx"]), "JGYM_POLICY_RECORD": str(rec)}
    proc = subprocess.run(
        ["go", "test", "-count=1", "-v", "-run", "^TestMatchesTorch$", "./env/crematoria"],
        cwd=src,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "SKIP" not in proc.stdout and "0 over" in proc.stdout, proc.stdout


def play_in_env(mod: ModuleType, agent: object, seed: int, seats: tuple, order: bool) -> list[int]:
    """Final scores of one game with the greedy policy in seat 0 of the vector env.

    ``order``: send the policy's ``action_order`` (attacks first) as the
    exported bot issues its commands; else the moves in slot order.
    """
    policy = mod.greedy(agent)
    envs = jgym.make_vec(num_envs=1, seats=seats, autoreset_mode="Disabled", action_order=order)
    try:
        obs, _ = envs.reset(seed=seed)
        while True:
            act = policy(obs)
            obs, _, terminated, _, info = envs.step(act if order else act["action"])
            if terminated.all():
                return [int(x) for x in info["scores"][0]]
    finally:
        envs.close()


def go_match_scores(onnx: Path, seed: int) -> list[int]:
    """Final scores of ``jgym match policy:ONNX Riddick Demo Demo -s SEED`` (the Go bot, seat 0)."""
    proc = subprocess.run(
        [
            *(str(find_binary()), "match", f"policy:{onnx}"),
            *("Riddick", "Demo", "Demo", "-s", str(seed), "-o", os.devnull),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return [int(m) for m in re.findall(r"got score (\d+)", proc.stderr)]


def test_same_game_in_go(trained: dict[str, Path]) -> None:
    """PyTorch through the vector env and the Go bot play the same game.

    A whole default game against Riddick, whose Furyans fight: the bot's
    commands go attacks first (the model's action_order), and the same
    moves in slot order give another game, so the check sees the order.
    """
    mod = load_script()
    agent = mod.load_agent(trained["checkpoint"])
    assert agent.command_order == "attacks_first"
    seed, seats = 3, (None, "Riddick", "Demo", "Demo")
    torch_scores = play_in_env(mod, agent, seed, seats, order=True)
    assert play_in_env(mod, agent, seed, seats, order=False) != torch_scores
    assert go_match_scores(trained["onnx"], seed) == torch_scores


def test_opponents_by_score() -> None:
    """--opponent-order score relabels the opponents by score, ties in seat order."""
    mod = load_script()
    board = np.zeros((2, 3, 40, 80), np.uint8)
    # plane 0: a cave of rel 1 with a Pioneer of rel 2; a cave of rel 3 with a
    # Furyan of rel 1; an unowned cave with a hellhound; plane 1: a Furyan of
    # rel 3 on a gem; plane 2: flags, never relabelled
    board[:, 0, 0, 0] = 4 | (3 << 3)
    board[:, 0, 0, 1] = 6 | (6 << 3)
    board[:, 0, 0, 2] = 1 | (9 << 3)
    board[:, 1, 5, 5] = 1 | (8 << 3)
    board[:, 2, 7, 7] = 0x44
    units = np.zeros((2, 80, 8), np.uint8)
    units[:, :4, 1] = [0, 1, 2, 3]
    units[:, :4, 0] = [1, 0, 0, 0]
    glob = np.zeros((2, 16), np.float32)
    glob[:, 0] = 0.5
    # env 0: rel 3 leads, then rel 1, then rel 2; env 1: rel 2 and 3 tie
    glob[0, 3:7] = [0.7, 0.2, 0.1, 0.9]
    glob[1, 3:7] = [0.7, 0.1, 0.5, 0.5]
    glob[:, 7:11] = glob[:, 3:7] * 10
    glob[:, 11:15] = [1, 2, 3, 4]
    mask = np.ones((2, 80, 11), np.int8)
    obs = {"board": board, "units": units, "globals": glob, "action_mask": mask}
    got = mod.crematoria_by_score(obs)
    # new rel of old rel 0..3: env 0 [0, 2, 3, 1]; env 1 [0, 3, 1, 2]
    new = [[0, 2, 3, 1], [0, 3, 1, 2]]
    for e in range(2):
        n = new[e]
        b = got["board"][e]
        assert b[0, 0, 0] == (3 + n[1]) | ((1 + n[2]) << 3)
        assert b[0, 0, 1] == (3 + n[3]) | ((5 + n[1]) << 3)
        assert b[0, 0, 2] == 1 | (9 << 3) and b[1, 5, 5] == 1 | ((5 + n[3]) << 3)
        assert np.array_equal(b[2], board[e, 2])
        assert list(got["units"][e, :4, 1]) == [n[r] for r in range(4)]
        assert np.array_equal(got["units"][e, :, 0], units[e, :, 0])
        for base in (3, 7, 11):
            for r in range(4):
                assert got["globals"][e, base + n[r]] == glob[e, base + r]
        assert got["globals"][e, 0] == 0.5
    # rel 1 is the leader; the input is not changed; other tensors are kept
    assert (got["globals"][:, 4] >= got["globals"][:, 5:7].max(1)).all()
    assert board[0, 0, 0, 0] == 4 | (3 << 3) and units[0, 1, 1] == 1
    assert got["action_mask"] is mask
    # already ordered: the identity
    again = mod.crematoria_by_score(got)
    for k in ("board", "units", "globals"):
        assert np.array_equal(again[k], got[k])


def test_opponent_order_same_game_in_go(trained: dict[str, Path], tmp_path: Path) -> None:
    """A model of --opponent-order score plays the same game in PyTorch and as Go's policy bot.

    The weights of the trained run, exported once as they are and once with
    the opponents by score: the two play different games against Riddick
    (the view matters), and each plays the same game in the vector env
    (PyTorch, the trainer's view) as in ``jgym match`` (the Go bot's).
    """
    mod = load_script()
    seed, seats = 3, (None, "Riddick", "Demo", "Demo")
    scores = {}
    for order in ("seat", "score"):
        agent = mod.load_agent(trained["checkpoint"])
        agent.opponent_order = order
        onnx_path = tmp_path / f"{order}.onnx"
        mod.export_onnx(agent, onnx_path)
        torch_scores = play_in_env(mod, agent, seed, seats, order=True)
        assert go_match_scores(onnx_path, seed) == torch_scores, order
        scores[order] = torch_scores
    assert scores["seat"] != scores["score"]


def test_opponent_order_only_where_supported() -> None:
    import dataclasses

    mod = load_script()
    args = dataclasses.asdict(mod.Args())
    agent = mod.make_agent(mod.CREMATORIA_SPACES, {**args, "opponent_order": "score"})
    assert agent.opponent_order == "score"
    with pytest.raises(SystemExit, match="--opponent-order rank: want seat or one of: score"):
        mod.make_agent(mod.CREMATORIA_SPACES, {**args, "opponent_order": "rank"})
