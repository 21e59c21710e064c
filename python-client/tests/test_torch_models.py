"""Every shipped model still loads and plays the same games.

tests/fixtures/shipped_games.json holds the final scores of games each
``examples/models/*.onnx`` played as Go's ``policy:`` bot, recorded with the
jgym of commit 918f094 (before jgym.torch, with Dominator's new Khan) and,
for Pandemic's games against Pasteur, of commit ea38081 (before jgym.torch,
with Pandemic's new Pasteur); the recipe policies written by jgym.torch
later with the opt-in ``expert`` tensor (pandemic_recipe.onnx in session
12, dominator_recipe.onnx and moria_recipe.onnx in session 13) with the
jgym of the commit that ships each;
tests/fixtures/record_shipped.py
says how. Here:

- each ``.onnx`` file reads (:func:`jgym.torch.read_onnx`), fits the game
  the server describes, and plays those games again in Go: the same scores;
- each ``.pt`` checkpoint (the older trainer's format) loads into
  jgym.torch's network, built from the server's description, and its greedy
  policy plays the same games through the vector env (PyTorch choosing the
  moves, in the env options its ONNX twin names): the same scores again;
- exported again by jgym.torch, its network plays them in Go too.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

import jgym
from jgym.server import find_binary
from jgym.spec import describe

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")
jt = pytest.importorskip("jgym.torch")

MODELS = Path(__file__).resolve().parent.parent / "examples" / "models"
FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "shipped_games.json").read_text())
ONNX = sorted(FIXTURE)
PT = sorted(p.name for p in MODELS.glob("*.pt"))
#: Who wrote each model, where not the older trainer (train_ppo.py): the
#: recipe's models of examples/ppo.py, exported by jgym.torch.
PRODUCER = {
    name: "jgym.torch"
    for name in (
        "dominator_recipe.onnx",
        "moria_recipe.onnx",
        "pandemic_recipe.onnx",
    )
}


def game_of(name: str) -> str:
    return {g.split("-v")[0].lower(): g for g in jgym.GAMES}[name.split("_", maxsplit=1)[0]]


def go_scores(model: Path, game: str, seed: int, opponents: list[str]) -> list[int]:
    name = game.split("-v", maxsplit=1)[0]
    cmd = [str(find_binary()), "match", "--game", name, f"policy:{model}"]
    proc = subprocess.run(
        [*cmd, *opponents, "-s", str(seed), "-o", os.devnull],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [int(m) for m in re.findall(r"got score (\d+)", proc.stderr)]


def env_scores(policy: Any, game: str, seed: int, opponents: list[str]) -> list[int]:
    """One game with the policy in seat 0 of the vector env (its env_options)."""
    envs = jgym.make_vec(
        game,
        num_envs=1,
        seats=(None, *opponents),
        autoreset_mode="Disabled",
        **policy.env_options,
    )
    try:
        obs, _ = envs.reset(seed=seed)
        while True:
            obs, _, terminated, _, info = envs.step(policy(obs))
            if terminated.all():
                return [int(x) for x in info["scores"][0]]
    finally:
        envs.close()


def test_every_model_has_a_fixture() -> None:
    assert sorted(p.name for p in MODELS.glob("*.onnx")) == ONNX
    assert PT and all(p.replace(".pt", ".onnx") in FIXTURE for p in PT)


@pytest.mark.parametrize("name", ONNX)
def test_onnx_reads_and_plays_the_same_games(name: str) -> None:
    game = game_of(name)
    pol = jt.read_onnx(MODELS / name)
    assert pol.game == game and pol.producer == PRODUCER.get(name, "jgym train_ppo.py")
    # The game as the server lists it (opt-in tensors such as ``expert``
    # among its offers), and a session asking for the policy's tensors.
    pol.check(jt.game_info(game))
    envs = jgym.make_vec(game, num_envs=1, tensors=list(pol.tensors) or None)
    try:
        spec = envs.spec_proto
    finally:
        envs.close()
    pol.check(describe(spec), (list(spec.action_orders), list(spec.opponent_orders)))
    for row in FIXTURE[name]:
        assert go_scores(pol.path, game, row["seed"], row["opponents"]) == row["scores"], row


@pytest.mark.parametrize("name", PT)
def test_checkpoint_loads_and_plays_the_same_games(name: str, tmp_path: Path) -> None:
    game = game_of(name)
    agent, ck = jt.load_checkpoint(MODELS / name)
    twin = jt.read_onnx(MODELS / name.replace(".pt", ".onnx"))
    assert agent.info.id == game and agent.input_names == list(twin.inputs)
    assert (agent.command_order, agent.opponent_order) == (twin.action_order, twin.opponent_order)
    assert ck["network"]["trained"] == "ppo"
    policy = jt.greedy(agent)
    again = tmp_path / name.replace(".pt", ".onnx")
    jt.export_onnx(agent, again)
    assert jt.read_onnx(again).producer == "jgym.torch"
    rows = FIXTURE[twin.path.name]
    for row in (rows[0], rows[-1]):  # against the strong bot, and three Demos
        got = env_scores(policy, game, row["seed"], row["opponents"])
        assert got == row["scores"], row
    # exported again, the same network plays the same game in Go
    row = rows[-1]
    assert go_scores(again, game, row["seed"], row["opponents"]) == row["scores"]


def test_description_must_match_an_old_checkpoint() -> None:
    """An old checkpoint refuses a description that would read its tensors otherwise."""
    import dataclasses

    info = jt.game_info("Moria-v0")
    units = info.tensor("units")
    cols = (*units.columns[:-1], dataclasses.replace(units.columns[-1], scale=1.0))
    other = dataclasses.replace(
        info,
        tensors=tuple(
            dataclasses.replace(t, columns=cols) if t.name == "units" else t for t in info.tensors
        ),
    )
    with pytest.raises(ValueError, match="another unit_scale"):
        jt.load_checkpoint(MODELS / "moria_ppo.pt", info=other)
