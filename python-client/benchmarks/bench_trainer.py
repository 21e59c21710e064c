"""End-to-end env-steps/s of examples/ppo.py, split into the trainer's phases.

Runs the trainer for a fixed number of PPO updates, without evaluations,
for each game given, and prints its env-steps/s and where the time went
(``jgym.torch.Phases``): ``env`` (the games: the server's work and the
transfer), ``policy`` (forward pass and sampling), ``credit`` (rewards),
``buffers`` (numpy to torch, rollout buffers), ``gae``, ``update`` (the PPO
epochs), and the CPU time of the trainer and of the server it starts (user +
system, start-up included) per env-step: on a shared machine the wall-clock
shares move with the neighbours, the CPU much less. benchmarks/README.md
("Trainer") has the figures of this machine.

    python benchmarks/bench_trainer.py                        # Crematoria, 8 updates
    python benchmarks/bench_trainer.py --games Moria-v0,Dominator-v0 --updates 4 --threads 1
    python benchmarks/bench_trainer.py --json out.json        # also write the figures
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

TRAIN = Path(__file__).resolve().parent.parent / "examples" / "ppo.py"
PHASES = ("env", "policy", "credit", "buffers", "gae", "update")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line; every flag is described in --help."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--games", default="Crematoria-v0", help="comma-separated game ids (default: Crematoria-v0)"
    )
    p.add_argument(
        "--updates", type=int, default=8, help="PPO updates to time per game (default: 8)"
    )
    p.add_argument(
        "--num-envs",
        type=int,
        default=32,
        help="games stepped together (ppo.py --num-envs, default: 32)",
    )
    p.add_argument(
        "--num-steps",
        type=int,
        default=32,
        help="rounds per game per update (ppo.py --num-steps, default: 32)",
    )
    p.add_argument(
        "--threads", type=int, default=1, help="PyTorch CPU threads (default: 1, ppo.py's)"
    )
    p.add_argument(
        "--extra", default="", help="more ppo.py flags, one string (e.g. '--net conv:coarse=16')"
    )
    p.add_argument("--json", default="", help="also write the figures to this JSON file")
    return p.parse_args(argv)  # fmt: skip


def run(game: str, args: argparse.Namespace) -> dict:
    """Trains for args.updates updates of game; returns ppo.py's summary."""
    with tempfile.TemporaryDirectory() as tmp:
        steps = args.updates * args.num_envs * args.num_steps
        cmd = [
            sys.executable,
            str(TRAIN),
            "--game", game,
            "--total-timesteps", str(steps),
            "--num-envs", str(args.num_envs),
            "--num-steps", str(args.num_steps),
            "--threads", str(args.threads),
            "--eval-every", "0",
            "--eval-games", "0",
            "--run-dir", tmp,
            *args.extra.split(),
        ]  # fmt: skip
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run(cmd, capture_output=True, text=True, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            raise SystemExit(f"{game}: ppo.py failed:\n{p.stderr[-2000:]}")
        summary = json.loads(p.stdout.strip().splitlines()[-1])
        # ppo.py and the server it started (waited for when its envs close)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        summary["cpu_us_per_step"] = cpu * 1e6 / max(summary["steps"], 1)
        return summary


def main(argv: list[str] | None = None) -> None:
    """Measures each game and prints one line per game, then the phases' shares."""
    args = parse_args(argv)
    if os.environ.get("JGYM_QUICK"):  # the docs harness: a smoke test
        args.updates, args.num_envs, args.num_steps = 1, 4, 8
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, threads {args.threads}, "
          f"{args.num_envs} envs x {args.num_steps} steps x {args.updates} updates")  # fmt: skip
    head = "".join(f"{p:>9}" for p in PHASES)
    print(f"{'game':<15}{'steps/s':>9}{'CPU us':>9}{head}   (share of the time)")
    out = {}
    for game in args.games.split(","):
        s = run(game, args)
        ph = s["phases"]
        out[game] = {"steps": s["steps"], "steps_per_second": s["sps"],
                     "cpu_us_per_step": s["cpu_us_per_step"], **ph}  # fmt: skip
        shares = "".join(f"{ph['share'][p]:>9.1%}" for p in PHASES)
        print(f"{game:<15}{s['sps']:>9.1f}{s['cpu_us_per_step']:>9.0f}{shares}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
