"""examples/ppo.py on tiny budgets: train, export, and play the export in Go.

Crematoria trains for two updates (4 games of 12 rounds) and exports ONNX;
then

- a second run of the same command learns the same weights and losses (the
  budget is environment steps, make demo relies on it);
- the export names what Go checks (observation version, slots, the command
  order the env used, attacks first for Crematoria) and uses the
  interpreter's operators; the Go interpreter computes PyTorch's logits on
  recorded observations (``go test ./env/crematoria -run TestMatchesTorch``);
- one game against Riddick is played twice, by PyTorch through the vector
  env (in the env options the export names) and by ``jgym match
  policy:model.onnx`` in Go: the same scores, and another game in slot
  order; the same with the opponents by score.

Every other game trains and plays the same game in Go too (the local
network, and Moria with the convolutional one), Dominator with team
credit, and a run continues from its directory's checkpoint.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import jgym
from jgym.server import find_binary, find_source_tree
from jgym.spec import describe

torch = pytest.importorskip("torch")
onnx = pytest.importorskip("onnx")
jt = pytest.importorskip("jgym.torch")

CLIENT = Path(__file__).resolve().parent.parent
SCRIPT = CLIENT / "examples" / "ppo.py"
ROUNDS = 12
ONNX_TYPES = {"uint8": 2, "float32": 1, "bool": 9}
STRONG = {"Crematoria-v0": "Riddick", "Dominator-v0": "Khan", "Moria-v0": "Balin",
          "Pandemic-v0": "Pasteur"}  # fmt: skip


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


def ppo(run: Path, game: str, *more: str, steps: int = 128) -> subprocess.CompletedProcess[str]:
    """examples/ppo.py with a tiny budget in ``run`` (games of ROUNDS rounds)."""
    cfg = run.parent / f"{game}.cnf"
    if not cfg.exists():
        cfg.write_text(short_config(game))
    env = {k: v for k, v in os.environ.items() if k != "JGYM_QUICK"}
    cmd = [sys.executable, str(SCRIPT), "--game", game, "--num-envs", "4", "--num-steps", "32"]
    cmd += ["--num-minibatches", "2", "--total-timesteps", str(steps), "--eval-every", "0"]
    cmd += ["--eval-games", "4", "--config", str(cfg), "--run-dir", str(run), *more]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600, check=False)


def summary_of(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("crematoria")
    proc = ppo(tmp / "run", "Crematoria-v0")
    s = summary_of(proc)
    run = Path(s["run"])
    for name in ("checkpoint.pt", "model.onnx", "history.json", "learning_curve.png"):
        assert (run / name).exists(), name
    assert s["final_eval"]["games"] == 4 and s["steps"] == 128
    return {"run": run, "argv": proc.args, "summary": s, "tmp": tmp}


def test_the_script_stays_small() -> None:
    """One readable file: at most 500 lines, about 25 flags."""
    text = SCRIPT.read_text()
    assert len(text.splitlines()) <= 500
    flags = re.findall(r'(?m)^    [a-z_]+: [a-z]+ = .*\n    """', text)
    assert 20 <= len(flags) <= 30, len(flags)


def test_init_keeps_the_opponent_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """--init's opponent order (a clone's: its dataset's) is the run's unless the line names one."""
    spec = importlib.util.spec_from_file_location("ppo_script", SCRIPT)
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, script)  # its dataclass looks itself up
    spec.loader.exec_module(script)
    game = SimpleNamespace(unit_reward=SimpleNamespace(name=""), action_orders=["attacks_first"])
    clone = SimpleNamespace(team_value=True, opponent_order="score", command_order="slot")
    for flags, agent, resumed, want in [
        ([], None, False, "seat"),
        (["--opponent-order", "score"], None, False, "score"),
        ([], clone, False, "score"),
        (["--opponent-order", "seat"], clone, False, "seat"),
        (["--opponent-order", "seat"], clone, True, "score"),  # a resumed run keeps its orders
    ]:
        options = script.env_options(script.parse_args(flags), game, agent, resumed)
        assert options["opponent_order"] == want, (flags, agent, resumed)


def test_same_budget_same_policy(trained: dict[str, Any], tmp_path: Path) -> None:
    """Budgeted in env steps, a second run (another directory, a busier machine) learns the same;
    benchmarks/ppo_parity.py's comparison says so, and sees a changed copy."""
    argv = [str(a) for a in trained["argv"]]
    argv[argv.index("--run-dir") + 1] = str(tmp_path / "run")
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
    s = summary_of(proc)
    a = torch.load(trained["run"] / "checkpoint.pt", weights_only=True)["model"]
    b = torch.load(Path(s["run"]) / "checkpoint.pt", weights_only=True)["model"]
    assert a.keys() == b.keys()
    for k in a:
        assert torch.equal(a[k], b[k]), k
    h1 = json.loads((trained["run"] / "history.json").read_text())
    h2 = json.loads((Path(s["run"]) / "history.json").read_text())
    for u1, u2 in zip(h1["updates"], h2["updates"], strict=True):
        assert (u1["pg_loss"], u1["v_loss"], u1["entropy"]) == (
            u2["pg_loss"], u2["v_loss"], u2["entropy"])  # fmt: skip
    assert s["final_eval"]["mean_score"] == trained["summary"]["final_eval"]["mean_score"]
    # benchmarks/ppo_parity.py --same finds them equal, and a changed weight, game and loss not
    spec = importlib.util.spec_from_file_location("ppo_parity", CLIENT / "benchmarks/ppo_parity.py")
    assert spec is not None and spec.loader is not None
    parity = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(parity)
    same = parity.same
    got = same(trained["run"], Path(s["run"]))
    for k in ("weights", "games", "evals", "updates", "onnx_initializers", "onnx_nodes"):
        assert got[k] is True, (k, got)
    assert got["updates_differ"] == {} and got["onnx_inputs_outputs"] is True, got
    changed = tmp_path / "changed"
    shutil.copytree(s["run"], changed)
    ck = torch.load(changed / "checkpoint.pt", weights_only=True)
    first = next(iter(ck["model"]))
    ck["model"][first] = ck["model"][first] + 1e-6
    torch.save(ck, changed / "checkpoint.pt")
    h = json.loads((changed / "history.json").read_text())
    h["games"][-1]["score"] += 1
    h["updates"][0]["pg_loss"] *= 1.5
    (changed / "history.json").write_text(json.dumps(h))
    got = same(trained["run"], changed)
    assert got["weights"] is False and got["games"] is False and got["evals"] is True, got
    assert list(got["updates_differ"]) == ["pg_loss"], got
    assert got["updates_differ"]["pg_loss"].startswith("1 of 1,"), got


def test_metadata(trained: dict[str, Any]) -> None:
    model = onnx.load(str(trained["run"] / "model.onnx"))
    meta = {p.key: p.value for p in model.metadata_props}
    envs = jgym.make_vec(num_envs=1)
    try:
        version = envs.spec_proto.observation_version
    finally:
        envs.close()
    assert meta["observation_version"] == version and model.producer_name == "jgym.torch"
    # Crematoria's first offered order: the env issued the attacks first in
    # training, and so do the Go bot and the C++ player (test_same_game_in_go)
    assert meta["num_slots"] == "80" and meta["action_order"] == "attacks_first"
    assert "opponent_order" not in meta
    assert json.loads(meta["train_args"])["total_timesteps"] == 128
    ops = {n.op_type for n in model.graph.node}
    documented = {s.strip() for s in meta["operators"].split(",")} | {"Identity"}
    assert ops <= documented, ops - documented


def test_go_matches_torch(trained: dict[str, Any]) -> None:
    """Go's interpreter gives PyTorch's logits and decisions on recorded observations."""
    src = find_source_tree()
    if src is None or shutil.which("go") is None:
        pytest.skip("needs the Go source tree and the go command")
    agent = jt.load_agent(trained["run"] / "checkpoint.pt")
    rec = trained["tmp"] / "record"
    rec.mkdir()
    config = (trained["tmp"] / "Crematoria-v0.cnf").read_text()
    envs = jgym.make_vec(num_envs=2, shuffle_seats=True, config=config)
    names = ("board", "units", "globals", "action_mask", "paths", "sun_paths")
    rows: dict[str, list[np.ndarray]] = {n: [] for n in (*names, "logits")}
    try:
        obs, _ = envs.reset(seed=123)
        rng = np.random.default_rng(0)
        for _ in range(ROUNDS - 1):
            with torch.inference_mode():  # the exported graph's function, every slot
                lg = agent.heads_dense(*jt.to_torch(obs, agent.input_names))[0].numpy()
            for n in names:
                rows[n].append(np.array(obs[n]))
            rows["logits"].append(lg)
            # random legal moves make more varied positions than the barely trained policy
            obs, *_ = envs.step(jgym.sample_masked(obs["action_mask"], rng))
    finally:
        envs.close()
    cat = {n: np.concatenate(v) for n, v in rows.items()}
    for n, f in (("board", "board"), ("units", "units"), ("action_mask", "mask"),
                 ("paths", "paths"), ("sun_paths", "sun_paths")):  # fmt: skip
        cat[n].astype(np.uint8).tofile(rec / f"{f}.bin")
    cat["globals"].astype("<f4").tofile(rec / "globals.bin")
    cat["logits"].astype("<f4").tofile(rec / "logits.bin")
    cat["logits"].argmax(-1).astype(np.uint8).tofile(rec / "actions.bin")
    (rec / "meta.json").write_text(json.dumps({"n": len(cat["logits"]), "num_slots": 80}))
    model = str(trained["run"] / "model.onnx")
    env = {**os.environ, "JGYM_POLICY_MODEL": model, "JGYM_POLICY_RECORD": str(rec)}
    proc = subprocess.run(
        ["go", "test", "-count=1", "-v", "-run", "^TestMatchesTorch$", "./env/crematoria"],
        cwd=src, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "SKIP" not in proc.stdout and "0 over" in proc.stdout, proc.stdout


def env_scores(
    agent: Any, game: str, seed: int, seats: tuple[Any, ...], **options: Any
) -> list[int]:
    """Final scores of one game with the greedy policy in seat 0 of the vector env."""
    policy = jt.greedy(agent)
    opts = {**policy.env_options, **options}
    envs = jgym.make_vec(game, num_envs=1, seats=seats, autoreset_mode="Disabled", **opts)
    try:
        obs, _ = envs.reset(seed=seed)
        while True:
            obs, _, terminated, _, info = envs.step(policy(obs))
            if terminated.all():
                return [int(x) for x in info["scores"][0]]
    finally:
        envs.close()


def go_scores(
    model: Path, game: str, seed: int, opponents: tuple[str, ...], *more: str
) -> list[int]:
    """Final scores of ``jgym match policy:MODEL OPPONENTS -s SEED`` (the Go bot, seat 0)."""
    name = game.split("-v", maxsplit=1)[0]
    cmd = [str(find_binary()), "match", "--game", name, f"policy:{model}"]
    proc = subprocess.run(
        [*cmd, *opponents, "-s", str(seed), "-o", os.devnull, *more],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return [int(m) for m in re.findall(r"got score (\d+)", proc.stderr)]


def test_same_game_in_go(trained: dict[str, Any]) -> None:
    """PyTorch through the vector env and the Go bot play the same game.

    A whole default game against Riddick, whose Furyans fight: the env
    issues the commands attacks first (the model's action_order), and the
    same moves in slot order give another game, so the check sees the order.
    """
    agent = jt.load_agent(trained["run"] / "checkpoint.pt")
    assert agent.command_order == "attacks_first"
    game, seed, opp = "Crematoria-v0", 3, ("Riddick", "Demo", "Demo")
    scores = env_scores(agent, game, seed, (None, *opp))
    assert env_scores(agent, game, seed, (None, *opp), command_order="slot") != scores
    assert go_scores(trained["run"] / "model.onnx", game, seed, opp) == scores


def test_opponent_order_same_game_in_go(trained: dict[str, Any], tmp_path: Path) -> None:
    """The same weights seeing the opponents by score play another game, the same in Go."""
    game, seed, opp = "Crematoria-v0", 3, ("Riddick", "Demo", "Demo")
    scores = {}
    for order in ("seat", "score"):
        agent = jt.load_agent(trained["run"] / "checkpoint.pt")
        agent.opponent_order = order
        path = tmp_path / f"{order}.onnx"
        jt.export_onnx(agent, path)
        assert jt.read_onnx(path).env_options()["opponent_order"] == order
        scores[order] = env_scores(agent, game, seed, (None, *opp))
        assert go_scores(path, game, seed, opp) == scores[order], order
    assert scores["seat"] != scores["score"]


NETS = [("Dominator-v0", "local"), ("Pandemic-v0", "local"), ("Moria-v0", "local"),
        ("Moria-v0", "conv:coarse=16")]  # fmt: skip


@pytest.mark.parametrize(("game", "net"), NETS, ids=[f"{g}-{n}" for g, n in NETS])
def test_every_game_trains_and_plays_in_go(game: str, net: str, tmp_path: Path) -> None:
    """The ONNX inputs are the spec's tensors in order; PyTorch and Go play the same game."""
    s = summary_of(ppo(tmp_path / "run", game, "--net", net, steps=256))
    run = Path(s["run"])
    envs = jgym.make_vec(game, num_envs=1)
    try:
        info = describe(envs.spec_proto)
    finally:
        envs.close()
    model = onnx.load(str(run / "model.onnx"))
    got = [
        (i.name, i.type.tensor_type.elem_type, [d.dim_value for d in i.type.tensor_type.shape.dim])
        for i in model.graph.input
    ]
    assert got == [(t.name, ONNX_TYPES[t.dtype.name], [0, *t.shape]) for t in info.tensors]
    (out,) = model.graph.output
    assert [d.dim_value for d in out.type.tensor_type.shape.dim] == [0, info.num_slots,
                                                                      info.num_actions]  # fmt: skip
    agent = jt.load_agent(run / "checkpoint.pt")
    assert str(agent.config) == net
    cfg = tmp_path / f"{game}.cnf"
    opp = (STRONG[game], "Demo", "Demo")
    scores = env_scores(agent, game, 7, (None, *opp), config=cfg.read_text())
    assert go_scores(run / "model.onnx", game, 7, opp, "-i", str(cfg)) == scores


def test_tensors_subset_trains_and_plays_in_go(tmp_path: Path) -> None:
    """--tensors: the network takes the subset, the export says so, the Go bot plays it alike."""
    game = "Crematoria-v0"
    s = summary_of(ppo(tmp_path / "run", game, "--tensors", "units,board,globals"))
    run = Path(s["run"])
    model = onnx.load(str(run / "model.onnx"))
    names = ["board", "units", "globals", "action_mask"]
    assert [i.name for i in model.graph.input] == names
    meta = {p.key: p.value for p in model.metadata_props}
    assert meta["tensors"] == ",".join(names)
    assert jt.read_onnx(run / "model.onnx").env_options()["tensors"] == names
    agent = jt.load_agent(run / "checkpoint.pt")
    assert agent.input_names == names
    cfg = tmp_path / f"{game}.cnf"
    opp = ("Riddick", "Demo", "Demo")
    scores = env_scores(agent, game, 7, (None, *opp), config=cfg.read_text())
    assert go_scores(run / "model.onnx", game, 7, opp, "-i", str(cfg)) == scores


def test_team_credit(tmp_path: Path) -> None:
    """The other credit, the seat's reward, trains a network with one value per seat."""
    s = summary_of(ppo(tmp_path / "run", "Dominator-v0", "--credit", "team"))
    assert s["options"]["unit_rewards"] is False
    ck = torch.load(Path(s["run"]) / "checkpoint.pt", weights_only=True)
    assert ck["network"]["team_value"] is True
    assert ck["model"]["critic.0.weight"].shape[1] == 2 * 64  # the pooled units beside the globals


def test_run_directory_continues(tmp_path: Path) -> None:
    """A run directory with a checkpoint continues: step, Adam, history, league go on."""
    run = tmp_path / "run"
    league = ("--opponents", "league:Demo", "--eval-every", "1", "--eval-games", "4")
    first = summary_of(ppo(run, "Crematoria-v0", *league, "--num-steps", "8", steps=32))
    assert first["updates"] == 1
    ck = torch.load(run / "checkpoint.pt", weights_only=True)
    assert ck["state"]["step"] == 32 and ck["state"]["update"] == 1
    adam = [int(s["step"]) for s in ck["state"]["optimizer"]["state"].values()]
    names = [m["name"] for m in json.loads(ck["state"]["league"])["members"]]
    assert names == ["Demo", "snap_0", "snap_1"]  # the starting policy, then each evaluation's
    second = ppo(run, "Crematoria-v0", *league, "--num-steps", "8", steps=64)
    s2 = summary_of(second)
    assert "resuming" in second.stdout and "at update 1, step 32" in second.stdout
    ck2 = torch.load(run / "checkpoint.pt", weights_only=True)
    assert ck2["state"]["step"] == 64 and s2["updates"] == 2
    assert [int(s["step"]) for s in ck2["state"]["optimizer"]["state"].values()] == [
        2 * a for a in adam
    ]
    hist = json.loads((run / "history.json").read_text())
    assert [u["step"] for u in hist["updates"]] == [32, 64]
    assert [e["step"] for e in hist["evals"]] == [32, 32, 64, 64]  # periodic and final
    names = [m["name"] for m in json.loads(ck2["state"]["league"])["members"]]
    assert names == ["Demo", "snap_0", "snap_1", "snap_2"] and len(hist["ratings"]) == 2


def test_kl_init(trained: dict[str, Any], tmp_path: Path) -> None:
    """--kl-init: from a clone, the warm-up moves the value head alone; then the penalty counts."""
    ck = torch.load(trained["run"] / "checkpoint.pt", weights_only=True)
    ck["network"]["trained"] = "bc"  # a clone's: its value head warms up first
    clone = tmp_path / "clone.pt"
    torch.save(ck, clone)
    s = summary_of(ppo(tmp_path / "warm", "Crematoria-v0", "--init", str(clone), "--kl-init", "1"))
    after = torch.load(Path(s["run"]) / "checkpoint.pt", weights_only=True)["model"]
    moved = {k for k in after if not torch.equal(after[k], ck["model"][k])}
    assert moved and all(k.startswith("critic.") for k in moved), moved
    # a trained policy's start has no warm-up: the penalty is there from the first update
    run = tmp_path / "kl"
    s = summary_of(ppo(run, "Crematoria-v0", "--init", str(trained["run"] / "checkpoint.pt"),
                       "--kl-init", "1"))  # fmt: skip
    hist = json.loads((run / "history.json").read_text())
    assert all(u["kl_init"] > 0 for u in hist["updates"]), hist["updates"]
    after = torch.load(run / "checkpoint.pt", weights_only=True)["model"]
    assert any(not torch.equal(after[k], ck["model"][k]) for k in after if "critic" not in k)
