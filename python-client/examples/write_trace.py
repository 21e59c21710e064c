"""Play a game and write its ``.res`` trace, to watch in a viewer.

A trace is the course engine's own record of a game (``.res``), written by
the server, which owns the game state. Two ways to get one:

1. A game played by a Python agent: the session option ``trace_env0`` asks
   the server to write every game of env 0 into a directory it allows
   (``jgym serve --trace-dir DIR``). This script starts such a server and
   plays a random legal agent in seat 0.
2. A game between bots only: ``jgym match P0 P1 P2 P3 -s SEED -o OUT.res``,
   the kit's ``Game`` program. This script falls back to it (with ``Demo`` in
   the agent's seat) when the server does not offer ``trace_env0``.

Then watch it: ``jgym view OUT.res`` (or the course viewer).

    python examples/write_trace.py --out /tmp/game.res --seed 7
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import jgym
from jgym.cli import parse
from jgym.server import LocalServer, find_binary


@dataclass
class Args:
    """Command-line arguments (each field is a ``--flag``)."""

    out: str = "game.res"
    """where to write the trace"""
    seed: int = 1
    """the game's seed (the kit's -s)"""
    opponents: str = "Demo,Demo,Demo"
    """comma-separated bots in seats 1..3"""
    config: str = ""
    """a configuration file in the kit's format (default: the course's)"""


def parse_args(argv: list[str] | None = None) -> Args:
    """Builds the command line from the Args dataclass (``--help`` describes each flag)."""
    return parse(Args, argv, __doc__.splitlines()[0])


def server_writes_traces(binary: Path) -> bool:
    """Whether this jgym serve takes --trace-dir (and so offers trace_env0)."""
    help_text = subprocess.run(
        [str(binary), "serve", "-h"], capture_output=True, text=True, check=False
    )
    return "-trace-dir" in help_text.stdout + help_text.stderr


def play_with_agent(binary: Path, args: Args, out: Path) -> None:
    """Plays a random legal agent in seat 0 on a server that writes traces."""
    opponents = tuple(args.opponents.split(","))
    config = Path(args.config).read_text() if args.config else ""
    with (
        tempfile.TemporaryDirectory() as trace_dir,
        LocalServer(binary=binary, args=["--trace-dir", trace_dir]) as server,
    ):
        # trace_env0 is a folder under the server's --trace-dir: "." is
        # the trace directory itself.
        env = jgym.JgymEnv(
            address=server.address, opponents=opponents, config=config, trace_env0="."
        )
        rng = np.random.default_rng(args.seed)
        try:
            obs, info = env.reset(seed=args.seed)
            done = False
            while not done:
                obs, _, terminated, truncated, info = env.step(
                    jgym.sample_masked(obs["action_mask"], rng)
                )
                done = terminated or truncated
        finally:
            env.close()
        traces = sorted(Path(trace_dir).glob("*.res"))
        if not traces:
            raise SystemExit(f"the server wrote no trace into {trace_dir}")
        shutil.copyfile(traces[-1], out)
    print(f"agent game, seed {args.seed}: final scores {info['scores'].tolist()}")


def play_bots(binary: Path, args: Args, out: Path) -> None:
    """Writes the same seed's game with bots in every seat (jgym match)."""
    players = ["Demo", *args.opponents.split(",")]
    cmd = [str(binary), "match", *players, "-s", str(args.seed), "-o", str(out)]
    if args.config:
        cmd += ["-i", args.config]
    print("this server does not write traces of client games yet (trace_env0);")
    print("writing the bots' game instead:", " ".join(cmd))
    subprocess.run(cmd, check=True)


def main(argv: list[str] | None = None) -> None:
    """Writes the trace and says how to watch it."""
    args = parse_args(argv)
    out = Path(args.out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    binary = find_binary()
    if server_writes_traces(binary):
        play_with_agent(binary, args, out)
    else:
        play_bots(binary, args, out)
    print(f"wrote {out}; watch it with: {binary.name} view {out}")


if __name__ == "__main__":
    main()
