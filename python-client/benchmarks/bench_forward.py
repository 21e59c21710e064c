"""Milliseconds per forward pass of jgym.torch's networks, by PyTorch thread count.

Builds the trainer's networks for a game (``--net``: ``local``, the
default, and ``conv``, with sizes as examples/ppo.py's ``--net``;
untrained: the time does not depend on the weights), takes a real
observation batch from the env (after ``--rounds`` rounds of random legal
moves against three Demos, so that the units have spread out) and times
the policy's forward pass (``agent.heads``, as in the rollout) and, with ``--update``, one training step on the batch
(forward, backward and Adam, as one PPO minibatch: the seat's own slots,
the board's block inputs kept from the rollout) with 1 and with 2
PyTorch threads. The training step reads the batch's distinct cells and
nonzero block columns computed once, as the update does for its epochs.
``--profile N`` prints the N operators of the training step
that take the most time (PyTorch's profiler, by input shape). Run it on
an idle machine and again while another job keeps the cores busy: that is
where the thread count matters (benchmarks/RESULTS.md).

    python benchmarks/bench_forward.py                       # Crematoria, batch 32
    python benchmarks/bench_forward.py --game Moria-v0 --batch 8 --repeat 50
    python benchmarks/bench_forward.py --net "local;conv" --batch 256 --update --threads 1
    python benchmarks/bench_forward.py --net local:crop=7,hidden=128 --batch 256 --update \
        --threads 2 --profile 8
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np
import torch

import jgym
import jgym.torch as jt
from jgym.spec import describe


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line; every flag is described in --help."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="Crematoria-v0", help="the game id (default: Crematoria-v0)")
    p.add_argument("--batch", type=int, default=32, help="observations per pass (default: 32)")
    p.add_argument("--repeat", type=int, default=20, help="timed passes per setting (default: 20)")
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts (default: 1,2)")
    p.add_argument(
        "--net",
        default="local;conv",
        help="';'-separated networks (examples/ppo.py --net; default: local;conv)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=20,
        help="rounds of random legal moves before the batch is taken (default: 20)",
    )
    p.add_argument(
        "--malloc",
        default="keep",
        choices=("keep", "default"),
        help="keep: glibc keeps freed blocks, as examples/ppo.py sets it (keep_freed_memory); "
        "default: glibc's default (default: keep)",
    )
    p.add_argument(
        "--update",
        action="store_true",
        help="also time a training step (forward, backward, Adam) on the batch",
    )
    p.add_argument(
        "--profile",
        type=int,
        default=0,
        help="with --update: print this many operators of the training step, most time first",
    )
    return p.parse_args(argv)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """Prints one line per thread count."""
    args = parse_args(argv)
    if os.environ.get("JGYM_QUICK"):  # the docs harness: a smoke test
        args.repeat = 2
    if args.malloc == "keep":
        jt.keep_freed_memory()
    envs = jgym.make_vec(args.game, num_envs=args.batch, opponents=("Demo", "Demo", "Demo"))
    try:
        obs, _ = envs.reset(seed=1)
        info = describe(envs.spec_proto)
        rng = np.random.default_rng(1)
        for _ in range(args.rounds):
            mask = np.asarray(obs[info.policy_mask]).astype(bool)
            obs, *_ = envs.step((rng.random(mask.shape) * mask).argmax(-1).astype(np.int8))
    finally:
        envs.close()
    names = [t.name for t in info.tensors]
    x = jt.to_torch(obs, names)
    mine_column = info.tensor("units").column("mine")
    mine = float((x[names.index("units")][..., mine_column] == 1).sum())
    print(
        f"{args.game}, batch {args.batch}, {mine / args.batch:.1f} units of the seat per "
        f"observation, {os.cpu_count()} cores, torch {torch.__version__}"
    )
    for net in args.net.split(";"):
        agent = jt.build_agent(info, net)
        weights = sum(p.numel() for p in agent.parameters())
        opt = torch.optim.Adam(agent.parameters(), lr=1e-4)

        with torch.no_grad():
            pre = agent.block_inputs(x[names.index("board")])
            # as the update: the distinct cells and the nonzero block columns, once
            cells = agent.read_cells(x[names.index("board")], x[names.index("units")])
            columns = None
            if pre is not None:
                columns = pre.flatten(0, 1).ne(0).any(0).nonzero().squeeze(1)
                pre = pre[..., columns]

        def train_step(
            agent: Any = agent,
            opt: Any = opt,
            pre: Any = pre,
            cells: Any = cells,
            columns: Any = columns,
        ) -> None:
            # as PPO: my units' slots only, the board's block inputs from the rollout
            logits, value, _, _ = agent.packed(*x, pre=pre, cells=cells, columns=columns)
            loss = -torch.log_softmax(logits, -1)[..., 0].mean() + value.square().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()

        for th in (int(t) for t in args.threads.split(",")):
            torch.set_num_threads(th)
            with torch.inference_mode():
                agent.heads(*x)  # warm up
                t0 = time.perf_counter()
                for _ in range(args.repeat):
                    agent.heads(*x)
                ms = (time.perf_counter() - t0) / args.repeat * 1000
            line = f"{net:<6} ({weights} weights) threads {th}: {ms:8.2f} ms per forward pass"
            if args.update:
                train_step()  # warm up
                t0 = time.perf_counter()
                for _ in range(args.repeat):
                    train_step()
                ms = (time.perf_counter() - t0) / args.repeat * 1000
                line += f", {ms:8.2f} ms per training step"
            print(line)
            if args.update and args.profile:
                with torch.profiler.profile(record_shapes=True) as prof:
                    for _ in range(args.repeat):
                        train_step()
                table = prof.key_averages(group_by_input_shape=True).table(
                    sort_by="self_cpu_time_total", row_limit=args.profile
                )
                print(table)


if __name__ == "__main__":
    main()
