"""examples/recipe.py end to end on a tiny budget.

The stages: games, dataset, BC, DAgger, PPO with the league, finetune
against the strong bot and two Demos, eval, export.

``JGYM_QUICK=1`` shrinks every stage (4 cloned games, a few BC batches,
one DAgger round of 4 games, two PPO updates of 8 envs x 16 rounds, 4-game evaluations, one export
check); PPO plays 12-round games (``--config``) so that training games end
and the league records them. PPO sees the opponents by score
(``--ppo-flags "--opponent-order=score"``), so the datasets and the clones
must too. A second run of the same command finds every stage's output and
resumes instead of redoing it; one asking for the seat view is refused.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import jgym

pytest.importorskip("torch")
pytest.importorskip("onnx")

CLIENT = Path(__file__).resolve().parent.parent
SCRIPT = CLIENT / "examples" / "recipe.py"
ROUNDS = 12


def short_config(game: str, tmp: Path) -> Path:
    """The game's default configuration with ROUNDS rounds, as a file."""
    envs = jgym.make_vec(game, num_envs=1, opponents=("Null", "Null", "Null"))
    try:
        cfg = envs.spec_proto.default_config
    finally:
        envs.close()
    lines = [
        f"nb_rounds {ROUNDS}" if ln.split()[:1] == ["nb_rounds"] else ln for ln in cfg.splitlines()
    ]
    path = tmp / "short.cnf"
    path.write_text("\n".join(lines) + "\n")
    return path


def recipe_cmd(out: Path, cfg: Path, order: str = "score") -> list[str]:
    """The recipe's command line (PPO, so every clone, seeing the opponents in ``order``)."""
    cmd = [sys.executable, str(SCRIPT), "--game", "crematoria", "--out", str(out), "--dagger", "1"]
    return [*cmd, "--ppo-flags", f"--config {cfg} --opponent-order={order}"]


def run_recipe(out: Path, cfg: Path, *more: str) -> str:
    """Runs the recipe's smoke test into ``out`` (the script adds ``_quick``)."""
    env = {**os.environ, "JGYM_QUICK": "1"}
    cmd = [*recipe_cmd(out, cfg), "--ship", "best", *more]
    cmd += ["--finetune-steps", "64", "--finetune-flags", "--clip-coef 0.1"]
    # a sparring partner named (the default, 'auto', takes the game's DummyClone)
    cmd += ["--sparring", "Null"]
    # the final evaluations on seeds of their own
    cmd += ["--eval-seed0", "7001"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900, check=False)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return p.stdout


def test_recipe_tiny(tmp_path: Path) -> None:
    cfg = short_config("Crematoria-v0", tmp_path)
    log = run_recipe(tmp_path / "recipe", cfg)
    out = tmp_path / "recipe_quick"
    s = json.loads((out / "summary.json").read_text())
    stages = ["games", "dataset", "bc", "dagger", "ppo", "finetune", "eval", "select", "export"]
    assert list(s["seconds"]) == stages
    # CPU seconds of each stage's commands (PPO's: the trainer and its server)
    assert list(s["cpu_seconds"]) == list(s["seconds"])
    assert s["cpu_seconds"]["bc"] > 0 and s["cpu_seconds"]["ppo"] > 1.0

    # games and dataset: 4 games of Riddick, its two seats each, 120 rounds
    assert len(list((out / "traces").glob("*.res.gz"))) == 4
    assert s["dataset"]["samples"] == 4 * 2 * 120
    assert s["dataset"]["labels"]["moves"] > 0
    manifest = json.loads((out / "data" / "manifest.json").read_text())
    assert manifest["labels_from"] == "expert:Riddick"
    # --ppo-flags' --opponent-order: the datasets, bc.py and the clones see the opponents by score
    assert manifest["opponent_order"] == "score"
    assert "dataset --game crematoria --opponent-order score" in log
    jt = pytest.importorskip("jgym.torch")

    # BC, one DAgger round (the clone's 4 games, labelled by Riddick), PPO
    # from the last clone against the league
    assert (out / "bc.pt").is_file() and (out / "bc.onnx").is_file()
    assert len(list((out / "dagger1" / "traces").glob("*.res.gz"))) == 4
    dagger = json.loads((out / "dagger1" / "data" / "manifest.json").read_text())
    assert dagger["labels_from"] == "expert:Riddick"
    assert len(dagger["traces"]) == 8  # Riddick's 4 games and the clone's 4
    assert any("bc" in t["names"] for t in dagger["traces"])
    assert (out / "dagger1.pt").is_file() and (out / "dagger1.onnx").is_file()
    assert dagger["opponent_order"] == "score"
    for clone in ("bc", "dagger1"):
        assert jt.read_onnx(out / f"{clone}.onnx").env_options()["opponent_order"] == "score"
    assert jt.read_onnx(out / "ppo" / "model.onnx").env_options()["opponent_order"] == "score"
    hist = json.loads((out / "ppo" / "history.json").read_text())
    assert len(hist["updates"]) == 2
    league = {m["name"]: m for m in s["ppo"]["league"]}
    assert {"Riddick", "Null", "Demo", "snap_0"} <= set(league)
    assert "--opponents league:Riddick,Null,Demo --eval-opponents Riddick,Demo,Demo" in log
    # 12-round games end during training; each is recorded against its table
    assert sum(m["games"] for m in league.values()) > 0
    assert len(hist["games"]) > 0
    rated = hist["ratings"][-1]["ratings"]
    assert {"learner", "Riddick", "Demo"} <= set(rated)
    assert rated["learner"]["games"] > 0
    assert (out / "ppo" / "learning_curve.png").stat().st_size > 0
    assert list((out / "ppo").glob("events.out.tfevents.*"))

    # finetune: from PPO's checkpoint, against Riddick and two Demos only,
    # with its own flags, without the league
    ft_dir = f"--run-dir {out / 'finetune'}"
    (ft,) = [ln for ln in log.splitlines() if ln.startswith("$ ") and ft_dir in ln]
    assert f"--init {out / 'ppo' / 'checkpoint.pt'}" in ft
    assert "--opponents Riddick,Demo,Demo" in ft and "--clip-coef 0.1" in ft
    assert "league:" not in ft
    ft_hist = json.loads((out / "finetune" / "history.json").read_text())
    assert len(ft_hist["updates"]) > 0 and s["finetune"]["steps"] > 0
    assert (out / "finetune" / "model.onnx").is_file()

    # eval: the policies against the three tables, from jgym eval
    ev = json.loads((out / "eval.json").read_text())
    tables = ("Riddick,Demo,Demo", "Riddick,Riddick,Riddick", "Demo,Demo,Demo", "Null,Null,Null")
    who = ("ppo", "finetune", "bc", "dagger1")
    assert set(ev) == {f"{w} vs {t}" for w in who for t in tables}
    assert all(r["games"] == 4 and r["seed0"] == 7001 for r in ev.values())
    assert "-n 4 --seed0 7001 --json" in log

    # export: the C++ player plays as the policy (the check passed, or the recipe failed)
    cc = Path(s["export"]["file"])
    assert cc.is_file() and cc.name == "AICremPPO.cc"

    # select (--ship best): the last clone, PPO's and finetune's policies at
    # the sparring table on seeds of their own; the one chosen is exported
    sel = s["select"]
    assert sel["ship"] == "best" and sel["table"] == "Null,Null,Null"
    assert set(sel["results"]) == {"bc", "dagger1", "ppo", "finetune"}
    assert all(r["games"] == 4 and r["seed0"] == 900_001 for r in sel["results"].values())
    best = max(r["wins"] for r in sel["results"].values())
    assert sel["results"][sel["chosen"]]["wins"] == best
    assert s["export"]["policy"] == sel["chosen"]
    model = {
        "bc": out / "bc.onnx",
        "dagger1": out / "dagger1.onnx",
        "ppo": out / "ppo" / "model.onnx",
    }.get(sel["chosen"], out / "finetune" / "model.onnx")
    assert (out / "shipped.onnx").read_bytes() == model.read_bytes()
    assert f"export-cpp --game crematoria {model}" in log

    assert "traces equal byte for byte" in log

    # Again: nothing is redone, PPO resumes from its checkpoint.
    bc_time = (out / "bc.pt").stat().st_mtime
    log2 = run_recipe(tmp_path / "recipe", cfg)
    s2 = json.loads((out / "summary.json").read_text())
    assert s2["games"]["played_now"] == 0
    # the stages found done keep the time the first run spent on them
    assert s2["cpu_seconds"]["bc"] >= s["cpu_seconds"]["bc"] > 0
    assert s2["seconds"]["bc"] >= s["seconds"]["bc"] > 0
    assert "data is there" in log2 and "dagger1.onnx is there" in log2
    assert (out / "bc.pt").stat().st_mtime == bc_time
    assert "resuming" in log2 and "at update 2" in log2
    assert "jgym eval --game" not in log2  # the same models: the evaluations are kept
    assert len(json.loads((out / "ppo" / "history.json").read_text())["updates"]) == 2
    ft_hist2 = json.loads((out / "finetune" / "history.json").read_text())
    assert len(ft_hist2["updates"]) == len(ft_hist["updates"])

    # A real run refuses the smoke test's directory (and the other way round).
    env = {k: v for k, v in os.environ.items() if k != "JGYM_QUICK"}
    cmd = [sys.executable, str(SCRIPT), "--game", "crematoria", "--out", str(out)]
    assert out.name.endswith("_quick")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert p.returncode != 0 and "was made with JGYM_QUICK" in p.stderr

    # Its clones see the opponents by score: asked for the seat view, it stops.
    quick = {**os.environ, "JGYM_QUICK": "1"}
    cmd = recipe_cmd(tmp_path / "recipe", cfg, order="seat")
    p = subprocess.run(cmd, capture_output=True, text=True, env=quick, timeout=120, check=False)
    assert p.returncode != 0 and "sees the opponents by score" in p.stderr, p.stderr[-2000:]

    # --steps 0 on the same directory: no PPO, and the last clone ships
    log0 = run_recipe(tmp_path / "recipe", cfg, "--steps", "0", "--ship", "last")
    assert "--steps 0: no PPO" in log0
    s0 = json.loads((out / "summary.json").read_text())
    assert s0["select"]["chosen"] == "dagger1" and s0["export"]["policy"] == "dagger1"
    assert (out / "shipped.onnx").read_bytes() == (out / "dagger1.onnx").read_bytes()


def load_recipe(monkeypatch: pytest.MonkeyPatch) -> Any:
    """examples/recipe.py as a module (the examples are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("recipe", SCRIPT)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, mod)  # its dataclass looks its module up
    spec.loader.exec_module(mod)
    return mod


def test_recipe_tensors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--tensors reaches jgym dataset and both PPO stages; a directory keeps its tensors.

    The stages' commands are recorded instead of run (the end-to-end test
    above runs them); bc.py is given no flag, it reads the dataset's tensors.
    """
    rc = load_recipe(monkeypatch)
    monkeypatch.setenv("JGYM_QUICK", "1")
    out = tmp_path / "r"
    argv = ["--game", "pandemic", "--out", str(out), "--sparring", "", "--dagger", "0"]
    argv += ["--finetune-steps", "64"]
    want = "board,units,globals,targets,expert"

    def recipe(*more: str) -> Any:
        r = rc.Recipe(rc.parse(rc.Args, [*argv, *more]))
        ran: list[list[str]] = []

        def run(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
            ran.append([str(c) for c in cmd])
            return subprocess.CompletedProcess(cmd, 0, "", "")

        monkeypatch.setattr(r, "run", run)
        r.ran = ran
        return r

    r = recipe("--tensors", want)
    r.write_dataset(r.out / "data", ["--expert", "Pasteur"])
    for stage in ("ppo", "finetune"):
        (r.out / stage).mkdir()
        (r.out / stage / "history.json").write_text("{}")
    r.ppo()
    r.finetune()
    dataset, ppo, finetune = r.ran
    assert dataset[1] == "dataset" and dataset[-2:] == ["--tensors", want]
    for cmd in (ppo, finetune):
        assert cmd[1].endswith("ppo.py") and cmd[cmd.index("--tensors") + 1] == want
    assert json.loads((r.out / "summary.json").read_text())["tensors"] == want

    # the same directory without --tensors (or with others) is refused
    for other in ([], ["--tensors", "board,units,globals"]):
        with pytest.raises(SystemExit, match="was made with --tensors"):
            recipe(*other)
    # the same tensors written with spaces are the same
    assert recipe("--tensors", want.replace(",", ", ")).tensors == want

    # without --tensors, no stage names any (the game's observation)
    argv[argv.index(str(out))] = str(tmp_path / "all")
    r = recipe()
    r.write_dataset(r.out / "data", ["--expert", "Pasteur"])
    (r.out / "ppo").mkdir()
    (r.out / "ppo" / "history.json").write_text("{}")
    r.ppo()
    assert len(r.ran) == 2 and not any("--tensors" in cmd for cmd in r.ran)
