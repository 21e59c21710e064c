"""train_ppo.py --resume: a run continues from its checkpoint where it stopped.

One PPO update (4 games x 8 rounds), then the same run resumed with a
budget of two: the second invocation starts at update 2 and step 32, does
one more update, Adam's state continues (its step count doubles), the
history keeps both updates and the league (with its snapshot) is the one
saved. The checkpoint keeps the seconds of training, and a time budget
counts them: resumed with a budget they already exceed, the run does no
update. Resuming a run that has no checkpoint is refused with a clear
message.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from testhelpers import load_example

torch = pytest.importorskip("torch")

CLIENT = Path(__file__).resolve().parent.parent
SCRIPT = CLIENT / "examples" / "train_ppo.py"


def train(tmp: Path, steps: int, *more: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "JGYM_QUICK"}
    cmd = [sys.executable, str(SCRIPT), "--num-envs", "4", "--num-steps", "8"]
    cmd += ["--num-minibatches", "2", "--total-timesteps", str(steps), "--eval-every", "0"]
    cmd += ["--eval-final-games", "0", "--progress", "false", "--run-dir", str(tmp)]
    cmd += ["--run-name", "r", "--league", "Demo", "--snapshot-every", "1", "--rate-games", "4"]
    return subprocess.run(
        [*cmd, *more], capture_output=True, text=True, env=env, timeout=600, check=False
    )


def test_resume_continues(tmp_path: Path) -> None:
    first = train(tmp_path, 32)
    assert first.returncode == 0, first.stderr[-2000:]
    run = tmp_path / "r"
    ck = torch.load(run / "checkpoint.pt", weights_only=True)
    assert ck["state"]["step"] == 32 and ck["state"]["update"] == 1
    adam_steps = [int(s["step"]) for s in ck["state"]["optimizer"]["state"].values()]
    league = json.loads(ck["state"]["league"])
    assert [m["name"] for m in league["members"]] == ["Demo", "snap_0", "snap_1"]

    second = train(tmp_path, 64, "--resume", "true")
    assert second.returncode == 0, second.stderr[-2000:]
    assert "resuming" in second.stdout and "at update 1, step 32" in second.stdout
    ck2 = torch.load(run / "checkpoint.pt", weights_only=True)
    assert ck2["state"]["step"] == 64 and ck2["state"]["update"] == 2
    adam2 = [int(s["step"]) for s in ck2["state"]["optimizer"]["state"].values()]
    assert adam2 == [2 * a for a in adam_steps]
    hist = json.loads((run / "history.json").read_text())
    assert [u["step"] for u in hist["updates"]] == [32, 64]
    league2 = json.loads(ck2["state"]["league"])
    assert [m["name"] for m in league2["members"]] == ["Demo", "snap_0", "snap_1", "snap_2"]
    assert len(hist["ratings"]) == 2  # one rating at the end of each invocation

    seconds = float(ck2["state"]["seconds"])
    assert seconds > float(ck["state"]["seconds"]) > 0
    budget = f"{seconds / 2:.3f}"
    third = train(tmp_path, 128, "--resume", "true", "--time-budget", budget)
    assert third.returncode == 0, third.stderr[-2000:]
    assert "time budget reached after 2 updates" in third.stdout + third.stderr
    ck3 = torch.load(run / "checkpoint.pt", weights_only=True)
    assert ck3["state"]["step"] == 64 and float(ck3["state"]["seconds"]) >= seconds

    missing = train(tmp_path / "elsewhere", 32, "--resume", "true")
    assert missing.returncode != 0 and "no " in missing.stderr and "checkpoint.pt" in missing.stderr


def test_checkpoint_network_wins(capsys: pytest.CaptureFixture[str]) -> None:
    """--resume and --init take the checkpoint's network flags (its weights load only
    into its own network); a checkpoint from before --net is the convolutional one, in
    slot order; --init keeps the command line's --command-order."""
    mod = load_example("train_ppo")
    old = {"channels": 8, "coarse": 16, "hidden": 64, "dilations": "1,2,4", "credit": ""}
    args = mod.parse_args(["--hidden", "32"])
    assert (args.net, args.command_order) == ("local", "attacks_first")
    mod.adopt_network(args, old, "--resume", order=True)
    assert (args.net, args.coarse, args.hidden, args.command_order) == ("conv", 16, 64, "slot")
    assert "--resume: --net conv, the checkpoint's (not local)" in capsys.readouterr().out
    args = mod.parse_args([])
    mod.adopt_network(args, {**old, "net": "local", "crop": 7}, "--init x", order=False)
    assert (args.net, args.crop, args.command_order) == ("local", 7, "attacks_first")
