"""Behaviour cloning from traces: jgym.torch's network imitates the moves a dataset records.

The data is a directory ``jgym dataset`` wrote from ``.res`` traces (of
jgym, the course kit or the judge): per seat and round, the observation
and the direction each unit slot moved (docs/learning-from-traces.md).
The network is ``jgym.torch``'s (``--net``, as examples/ppo.py's), built
from the server's description of the game, trained by cross-entropy of
its masked logits on the labels of the seat's own units (the ``units``
column ``mine``), a unit that did not move being labelled "none". A
fraction of the traces is held out, and the accuracy on them is reported
after each epoch. The checkpoint is a ``jgym.torch`` checkpoint of a
cloned policy, so

    python examples/bc.py --game Crematoria --data runs/data --epochs 5 --out bc.pt
    python examples/ppo.py --init bc.pt

starts PPO from the cloned policy (its value head trains alone first).

The network sees the opponents as the dataset's observations label them
(``jgym dataset --opponent-order seat|score``, the manifest's
``opponent_order``); ``--opponent-order`` names the order wanted and
refuses a dataset written in another. The checkpoint records the order
(``opponent_order``, as ppo.py's), so ``ppo.py --init`` keeps it and the
exported ONNX file's ``policy:`` bot and C++ player relabel the opponents
the same way:

    jgym dataset --opponent-order score -o runs/data-score TRACES...
    python examples/bc.py --data runs/data-score --out bc.pt
    python examples/ppo.py --init bc.pt --opponent-order score

A dataset of some of the tensors (``jgym dataset --tensors``, e.g.
Pandemic's opt-in ``expert``, Pasteur's orders) trains a network on
those; its export records them (metadata ``tensors``), so the Go bot and
the exported C++ player compute them:

    jgym dataset --tensors board,units,globals,targets,expert --expert Pasteur -o data-x TRACES
    python examples/bc.py --game pandemic --data data-x --out bc.pt

Labels the network's mask refuses (a move into a cell emptied earlier in
the round, see the doc) are left out of the loss and counted.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from tqdm import tqdm

import jgym
import jgym.torch as jt
from jgym.cli import parse
from jgym.dataset import TraceDataset, open_dataset
from jgym.spec import describe


@dataclass
class Args:
    """Command-line arguments (each field is a ``--flag``)."""

    game: str = "Crematoria-v0"
    """the game: Crematoria, Dominator, Pandemic or Moria (any case, '-v0' optional)"""
    data: str = ""
    """the dataset directory (jgym dataset -o DIR)"""
    epochs: int = 5
    """passes over the training traces"""
    batch_size: int = 64
    """samples (seat-rounds) per gradient step"""
    learning_rate: float = 1e-3
    """Adam's learning rate"""
    holdout: float = 0.2
    """fraction of the traces held out for the accuracy (at least one when there are two or more)"""
    max_batches: int = 0
    """gradient steps per epoch at most (0: the whole training set)"""
    buffer_shards: int = 2
    """shards mixed together when shuffling"""
    seed: int = 1
    """seed of PyTorch, of the split and of the shuffling"""
    threads: int = 2
    """PyTorch CPU threads"""
    out: str = "checkpoint.pt"
    """where to write the checkpoint (examples/ppo.py --init takes it)"""
    net: str = "local"
    """the network, as examples/ppo.py's --net (e.g. 'local:hidden=128')"""
    credit: str = ""
    """the value head PPO will train: 'units' (per slot), 'team' (per seat) or '' (as
    examples/ppo.py's default for the game: units where the server offers it)"""
    bf16: bool = False
    """the local network's per-slot MLP in bfloat16 (jgym.torch.set_bf16)"""
    progress: bool = True
    """show a tqdm progress bar (batches of all epochs)"""
    init: str = ""
    """start from this checkpoint (an earlier bc.py or ppo.py one), as DAgger's later rounds do"""
    opponent_order: str = ""
    """how the network sees the opponents, as examples/ppo.py's --opponent-order ('seat' or
    'score'); '' takes the dataset's (jgym dataset --opponent-order); a dataset written in
    another order is refused"""
    command_order: str = ""
    """the order the clone's commands are issued in when it plays (its ONNX action_order),
    as examples/ppo.py's --command-order: '' is the first the game offers (Moria's
    attacks_first), else 'slot'; with --init, '' keeps the checkpoint's"""


def parse_args(argv: list[str] | None = None) -> Args:
    """Builds the command line from the Args dataclass (``--help`` describes each flag)."""
    args = parse(Args, argv, __doc__.splitlines()[0])
    if os.environ.get("JGYM_QUICK"):  # a smoke test (the docs harness sets it)
        args.epochs = min(args.epochs, 1)
        args.max_batches = min(args.max_batches or 4, 4)
    return args


def game_id(name: str) -> str:
    """The environment id of a game named in any case, with or without ``-v0``."""
    for g in jgym.GAMES:
        if name.lower() in (g.lower(), g.split("-v")[0].lower()):
            return g
    raise SystemExit(f"--game {name}: not one of {', '.join(jgym.GAMES)}")


def build(args: Args, ds: TraceDataset) -> jt.BoardNet:
    """The network: --init's, or --net for the game the server describes (the dataset's tensors)."""
    spec = jt.game_spec(ds.env_id)
    info = describe(spec)
    have = list(ds.observation_names)
    names = [t.name for t in info.tensors]
    if names[: len(have)] == have and len(have) < len(info.tensors):
        # A dataset of an older observation version (a prefix of the
        # game's tensors, e.g. pandemic-obs-1's four): the network reads those.
        tensors = tuple(info.tensors[: len(have)])
        info = dataclasses.replace(info, version=ds.observation_version, tensors=tensors)
    elif have != names:
        # A dataset of some tensors (jgym dataset --tensors), opt-in ones
        # such as Pandemic's expert included: a session asking for them
        # describes them, as ppo.py's --tensors.
        probe = jgym.make_vec(ds.env_id, num_envs=1, opponents=("Null",) * 3, tensors=have)
        info = describe(probe.spec_proto)
        probe.close()
    orders = list(spec.action_orders)
    command = args.command_order or (orders[0] if orders else "slot")
    if args.init:
        agent = jt.load_agent(args.init, info=info)
        if args.command_order:
            agent.command_order = args.command_order
        if agent.opponent_order != ds.opponent_order:  # as ppo.py's --init: the data's order wins
            was, now = agent.opponent_order, ds.opponent_order
            print(f"--init {args.init} saw the opponents by {was}; it continues by {now}")
            agent.opponent_order = ds.opponent_order
    else:
        credit = args.credit or ("units" if spec.unit_reward.name else "team")
        agent = jt.build_agent(
            info,
            args.net,
            team_value=credit == "team",
            command_order=command,
            opponent_order=ds.opponent_order,
        )
    if agent.input_names != list(ds.observation_names):
        have = list(ds.observation_names)
        raise SystemExit(
            f"--data {args.data}: tensors {have}, the network reads {agent.input_names}"
        )
    return agent


def check_order(args: Args, ds: TraceDataset) -> None:
    """Sets ``args.opponent_order`` to the dataset's; refuses a dataset in another order."""
    want = args.opponent_order or ds.opponent_order
    if want != ds.opponent_order:
        raise SystemExit(
            f"--opponent-order {want}: --data {args.data} sees the opponents by "
            f"{ds.opponent_order} (its manifest's opponent_order); write one by {want} with "
            f"jgym dataset --opponent-order {want}"
        )
    args.opponent_order = want


def to_inputs(batch: dict[str, np.ndarray], names: tuple[str, ...]) -> tuple[torch.Tensor, ...]:
    """A batch's observation tensors, in the spec's order, as the network takes them."""
    return tuple(torch.from_numpy(np.ascontiguousarray(batch[n])) for n in names)


def targets(
    batch: dict[str, np.ndarray], logits: torch.Tensor, mine_column: int
) -> tuple[torch.Tensor, torch.Tensor, int]:
    """Labels [B, U] (long), the slots that count (mine, label allowed), the refused count."""
    labels = torch.from_numpy(batch["action"].astype(np.int64))
    mine = torch.from_numpy(batch["units"][..., mine_column] == 1)
    allowed = torch.gather(logits.detach(), -1, labels.unsqueeze(-1)).squeeze(-1) > -1e8
    return labels, mine & allowed, int((mine & ~allowed).sum())


def loss_on(
    agent: jt.BoardNet, batch: dict[str, np.ndarray], names: tuple[str, ...]
) -> tuple[torch.Tensor, dict[str, int]]:
    """Mean cross-entropy over the counted slots of a batch, and its counts."""
    logits, _ = agent.heads(*to_inputs(batch, names))
    labels, valid, refused = targets(batch, logits, agent.mine)
    ce = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), reduction="none")
    w = valid.reshape(-1).float()
    loss = (ce * w).sum() / w.sum().clamp(min=1.0)
    pred = logits.argmax(-1)
    moved = valid & (labels != logits.shape[-1] - 1)
    counts = {
        "slots": int(valid.sum()),
        "correct": int(((pred == labels) & valid).sum()),
        "moves": int(moved.sum()),
        "moves_correct": int(((pred == labels) & moved).sum()),
        "refused": refused,
    }
    return loss, counts


@torch.no_grad()
def evaluate(
    agent: jt.BoardNet, ds: TraceDataset, names: tuple[str, ...], batch_size: int
) -> dict[str, float]:
    """Accuracy on a dataset: over my units' slots, and over the slots that moved."""
    agent.eval()
    tot = {"slots": 0, "correct": 0, "moves": 0, "moves_correct": 0, "refused": 0}
    loss_sum = 0.0
    for batch in ds.batches(batch_size, shuffle=False):
        loss, c = loss_on(agent, batch, names)
        loss_sum += float(loss) * c["slots"]
        for k in tot:
            tot[k] += c[k]
    agent.train()
    return {
        "loss": loss_sum / max(tot["slots"], 1),
        "accuracy": tot["correct"] / max(tot["slots"], 1),
        "move_accuracy": tot["moves_correct"] / max(tot["moves"], 1),
        "slots": tot["slots"],
        "refused": tot["refused"],
    }


def main(args: Args) -> dict[str, Any]:
    """Trains, reports held-out accuracy, writes the checkpoint; returns the summary."""
    args.game = game_id(args.game)
    if not args.data:
        raise SystemExit("--data: give the directory jgym dataset wrote")
    ds = open_dataset(args.data)
    if ds.env_id != args.game:
        raise SystemExit(f"--data {args.data} is a {ds.env_id} dataset, not {args.game}")
    check_order(args, ds)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    train, held = ds.split(args.holdout, seed=args.seed)
    agent = build(args, ds).train()
    jt.set_bf16(agent, args.bf16)
    opt = torch.optim.Adam(agent.parameters(), lr=args.learning_rate)
    names = ds.observation_names
    print(
        f"{ds}: training on {len(train)} samples ({len(train.traces)} traces), held out {len(held)}"
    )
    history: dict[str, list[Any]] = {"loss": [], "epochs": []}
    t0 = time.time()
    seen = 0
    per_epoch = -(-len(train) // args.batch_size)
    if args.max_batches:
        per_epoch = min(per_epoch, args.max_batches)
    bar = tqdm(
        total=args.epochs * per_epoch,
        unit="batch",
        disable=not args.progress,
        dynamic_ncols=True,
    )
    for epoch in range(args.epochs):
        for i, batch in enumerate(
            train.batches(args.batch_size, seed=args.seed + epoch, buffer_shards=args.buffer_shards)
        ):
            if args.max_batches and i >= args.max_batches:
                break
            loss, _ = loss_on(agent, batch, names)
            opt.zero_grad()
            loss.backward()
            opt.step()
            history["loss"].append(loss.item())
            seen += len(batch["action"])
            bar.update(1)
            if i % 20 == 0:
                bar.set_postfix(epoch=epoch + 1, loss=f"{np.mean(history['loss'][-20:]):.3f}")
        ev = evaluate(agent, held, names, 4 * args.batch_size) if len(held) else {}
        recent = history["loss"][-10:]
        row = {
            "epoch": epoch + 1,
            "train_loss": float(np.mean(recent)) if recent else float("nan"),
            **ev,
        }
        history["epochs"].append(row)
        bar.write(json.dumps(row))
    bar.close()
    took = time.time() - t0
    jt.save_checkpoint(args.out, agent, args=dataclasses.asdict(args), trained="bc")
    summary = {
        "out": args.out,
        "samples_per_s": seen / max(took, 1e-9),
        "history": history,
        "held_out": history["epochs"][-1] if history["epochs"] else {},
    }
    print(f"wrote {args.out} ({seen / max(took, 1e-9):.0f} samples/s)")
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main(parse_args())
