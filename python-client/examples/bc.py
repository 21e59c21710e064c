"""Behaviour cloning from traces: train_ppo.py's network imitates the moves a dataset records.

The data is a directory ``jgym dataset`` wrote from ``.res`` traces (of
jgym, the course kit or the judge): per seat and round, the observation
and the direction each unit slot moved (docs/learning-from-traces.md).
The network is examples/train_ppo.py's (its ``make_agent``, ``Spaces``,
``GAMES``, with the game's defaults), trained by cross-entropy of its
masked logits on the labels of the seat's own units (``units`` column 0),
a unit that did not move being labelled "none". A fraction of the traces
is held out, and the accuracy on them is reported after each epoch. The
checkpoint has train_ppo.py's format (``{"model", "args", "spaces"}``), so

    python examples/bc.py --game Crematoria --data runs/data --epochs 5 --out bc.pt
    python examples/train_ppo.py --init bc.pt

starts PPO from the cloned policy (same game and network flags).

Labels the network's mask refuses (a move into a cell emptied earlier in
the round, see the doc) are left out of the loss and counted.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from tqdm import tqdm

from jgym.cli import parse
from jgym.dataset import TraceDataset, open_dataset

PPO_SCRIPT = Path(__file__).resolve().parent / "train_ppo.py"


def load_ppo() -> ModuleType:
    """Imports examples/train_ppo.py from its file (it is a script, not a module)."""
    if "train_ppo" in sys.modules:
        return sys.modules["train_ppo"]
    spec = importlib.util.spec_from_file_location("train_ppo", PPO_SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_ppo"] = mod
    spec.loader.exec_module(mod)
    return mod


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
    """where to write the checkpoint (train_ppo.py's format: --init takes it)"""
    ppo_flags: str = ""
    """train_ppo.py network flags, e.g. '--hidden 128' (give train_ppo.py the same), and
    '--bf16 true' (the per-slot MLP in bfloat16, as in train_ppo.py)"""
    progress: bool = True
    """show a tqdm progress bar (batches of all epochs)"""
    init: str = ""
    """start from this checkpoint (an earlier bc.py or train_ppo.py one of the same network),
    as DAgger's later iterations do"""


def parse_args(argv: list[str] | None = None) -> Args:
    """Builds the command line from the Args dataclass (``--help`` describes each flag)."""
    args = parse(Args, argv, __doc__.splitlines()[0])
    if os.environ.get("JGYM_QUICK"):  # a smoke test (the docs harness sets it)
        args.epochs = min(args.epochs, 1)
        args.max_batches = min(args.max_batches or 4, 4)
    return args


def ppo_args(ppo: ModuleType, args: Args) -> Any:
    """train_ppo.py's arguments for the game (its defaults, then --ppo-flags)."""
    return ppo.parse_args(["--game", args.game, *args.ppo_flags.split()])


def spaces_of(ppo: ModuleType, ds: TraceDataset) -> Any:
    """The network's Spaces from the dataset's manifest (the env's spec)."""
    m = ds.manifest
    inputs = tuple((t["name"], t["dtype"], tuple(t["shape"])) for t in m["observation"])
    return ppo.Spaces(ds.env_id, ds.observation_version, inputs, ds.num_actions)


def to_inputs(batch: dict[str, np.ndarray], names: tuple[str, ...]) -> tuple[torch.Tensor, ...]:
    """A batch's observation tensors, in the spec's order, as the network takes them."""
    return tuple(torch.from_numpy(np.ascontiguousarray(batch[n])) for n in names)


def targets(
    batch: dict[str, np.ndarray], logits: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, int]:
    """Labels [B, U] (long), the slots that count (mine, label allowed), the refused count."""
    labels = torch.from_numpy(batch["action"].astype(np.int64))
    mine = torch.from_numpy(batch["units"][..., 0] == 1)
    allowed = torch.gather(logits.detach(), -1, labels.unsqueeze(-1)).squeeze(-1) > -1e8
    return labels, mine & allowed, int((mine & ~allowed).sum())


def loss_on(
    agent: Any, batch: dict[str, np.ndarray], names: tuple[str, ...]
) -> tuple[torch.Tensor, dict[str, int]]:
    """Mean cross-entropy over the counted slots of a batch, and its counts."""
    logits, _ = agent.heads(*to_inputs(batch, names))
    labels, valid, refused = targets(batch, logits)
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
    agent: Any, ds: TraceDataset, names: tuple[str, ...], batch_size: int
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
    ppo = load_ppo()
    args.game = ppo.game_id(args.game)
    if not args.data:
        raise SystemExit("--data: give the directory jgym dataset wrote")
    ds = open_dataset(args.data)
    if ds.env_id != args.game:
        raise SystemExit(f"--data {args.data} is a {ds.env_id} dataset, not {args.game}")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    train, held = ds.split(args.holdout, seed=args.seed)
    spaces = spaces_of(ppo, ds)
    pargs = ppo_args(ppo, args)
    init = torch.load(args.init, weights_only=True) if args.init else None
    if init is not None:  # the weights load into their own network only
        ppo.adopt_network(pargs, init["args"], f"--init {args.init}", order=False)
    agent = ppo.make_agent(spaces, dataclasses.asdict(pargs))
    ppo.set_bf16(agent, pargs.bf16)  # --ppo-flags "--bf16 true": as train_ppo.py's
    if init is not None:
        agent.load_state_dict(init["model"])
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
    torch.save(
        {
            "model": agent.state_dict(),
            "args": dataclasses.asdict(pargs),
            "spaces": spaces.to_dict(),
        },
        args.out,
    )
    summary = {
        "out": args.out,
        "samples_per_s": seen / max(took, 1e-9),
        "history": history,
        "held_out": history["epochs"][-1] if history["epochs"] else {},
    }
    print(f"wrote {args.out} ({seen / max(took, 1e-9):.0f} samples/s)")
    return summary


if __name__ == "__main__":
    main(parse_args())
