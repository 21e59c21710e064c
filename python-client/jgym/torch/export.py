"""ONNX export of a network's actor, and what an exported file says about itself.

:func:`export_onnx` writes the actor (masked logits) as ONNX opset 17: every
observation tensor the network reads is an input, in the spec's order,
with its name and dtype, batch first; the output is ``logits`` [B, U, A].
Its metadata is what the Go policy bot and ``jgym export-cpp`` check and
follow (docs/export.md):

- ``observation_version``, ``game``, ``num_slots``: the layout trained on;
- ``action_order``: the order of the commands (``slot``, ``attacks_first``),
  the env's ``command_order`` in training;
- ``opponent_order`` (when not ``seat``): how the opponents were labelled
  (``score``), the env's ``opponent_order`` in training;
- ``tensors``: the observation tensors the network takes, comma-separated
  (its inputs): the env's ``tensors`` in training, all of the version's
  or a subset, which the Go bot and the C++ player then encode alone;
- ``preprocessing``, ``operators``, ``network``: for a reader;
- ``train_args``: the trainer's arguments, when given.

:func:`read_onnx` reads those back (:class:`OnnxPolicy`), and
:meth:`OnnxPolicy.env_options` gives the env options a game played by the
file must use, which :meth:`OnnxPolicy.check` holds against a game's
description.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from jgym.spec import GameInfo
from jgym.torch.local import LocalAgent
from jgym.torch.nets import SEAT, SLOT, BoardNet

__all__ = ["OPERATORS", "PRODUCER", "OnnxPolicy", "export_onnx", "read_onnx"]

#: The ONNX operators the exported graphs use (the Go interpreter's).
OPERATORS = (
    "Add, Cast, Concat, Constant, Conv, Gather, GatherElements, Gemm, MatMul, Mul, "
    "ReduceMean, Relu, Reshape, Slice, Transpose, Unsqueeze, Where"
)
#: The producer_name of the files this module writes.
PRODUCER = "jgym.torch"

_TORCH_DTYPES = {"uint8": torch.uint8, "float32": torch.float32, "bool": torch.bool}


def preprocessing(agent: BoardNet) -> str:
    """The one-paragraph summary of the graph's preprocessing (metadata)."""
    info = agent.info
    ins = ", ".join(
        f"{t.name} {t.dtype.name}[B,{','.join(map(str, t.shape))}]" for t in info.tensors
    )
    planes = "; ".join(f"plane {i}: {p}" for i, p in enumerate(agent.planes))
    extra = [info.tensors[i].name for i in agent.i_extra]
    if isinstance(agent, LocalAgent):
        cell = (
            f"float; each unit's row units[...,{agent.row}] and column units[...,{agent.col}] "
            f"index constant tables of the {agent.crop}x{agent.crop} cells and "
            f"{agent.blocks}x{agent.blocks} blocks of {agent.block}x{agent.block} cells around it"
        )
    else:
        cell = (
            f"float, their cell index is units[...,{agent.row}]*{agent.cols}"
            f"+units[...,{agent.col}] (a MatMul with a constant)"
        )
    return (
        f"inputs are the raw {info.version} tensors of one seat, batch first: {ins}. "
        f"Inside the graph: board {planes}; code embeddings and the linear maps are summed per "
        f"cell. Columns {'wrap around' if agent.wrap else 'are zero-padded'}. Units are cast to "
        f"{cell}, their features are scaled by "
        f"({','.join(f'{float(s):g}' for s in agent.unit_scale)})"
        + (f"; {', '.join(extra)} are features of their slot" if extra else "")
        + f". Output: logits float32[B,U,{info.num_actions}], -1e9 where {info.policy_mask} is "
        f"false. Decision: argmax per owned slot (first on ties); commands in "
        f"{agent.command_order} order, None not issued."
    )


def export_onnx(
    agent: BoardNet, path: str | Path, train_args: dict[str, Any] | None = None
) -> None:
    """Writes the network's actor as ONNX with the metadata Go and C++ check (module docs).

    Raises:
        RuntimeError: The export dropped an input the network does not use.
    """
    import onnx  # noqa: PLC0415 (the train extra)

    info = agent.info
    sample = tuple(
        (torch.ones if t.dtype == bool else torch.zeros)(
            1, *t.shape, dtype=_TORCH_DTYPES[t.dtype.name]
        )
        for t in info.tensors
    )
    names = agent.input_names
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    was_training, device = agent.training, next(agent.parameters()).device
    agent.eval().cpu()
    try:
        torch.onnx.export(
            agent,
            sample,
            str(path),
            dynamo=False,
            opset_version=17,
            input_names=names,
            output_names=["logits"],
            dynamic_axes={n: {0: "batch"} for n in [*names, "logits"]},
        )
    finally:
        agent.train(was_training).to(device)
    model = onnx.load(str(path))
    got = [i.name for i in model.graph.input]
    if got != names:
        raise RuntimeError(f"exported inputs {got}, want {names} (an unused input was dropped)")
    meta = {
        "observation_version": info.version,
        "game": info.id,
        "num_slots": str(agent.num_slots),
        "action_order": agent.command_order,
        **({"opponent_order": agent.opponent_order} if agent.opponent_order != SEAT else {}),
        "tensors": ",".join(names),
        "preprocessing": preprocessing(agent),
        "operators": OPERATORS,
        "network": json.dumps(agent.describe()),
    }
    if train_args is not None:
        meta["train_args"] = json.dumps(train_args, default=str)
    onnx.helper.set_model_props(model, meta)
    model.producer_name = PRODUCER
    onnx.save(model, str(path))


@dataclass(frozen=True)
class OnnxPolicy:
    """What an exported policy file says about itself (its metadata and signature).

    Attributes:
        path: The file.
        game: The environment id (``""`` in files that do not say).
        version: The observation layout it was trained on.
        num_slots: Its unit slots.
        inputs: Its input tensors' names, in order.
        action_order: The order of its commands.
        opponent_order: How it sees the opponents.
        tensors: The observation tensors it was trained on (metadata
            ``tensors``; empty in files that do not say: all of them).
        producer: Who wrote it (``jgym.torch``, ``jgym train_ppo.py``...).
        metadata: Every metadata entry.
    """

    path: Path
    game: str
    version: str
    num_slots: int
    inputs: tuple[str, ...]
    action_order: str = SLOT
    opponent_order: str = SEAT
    tensors: tuple[str, ...] = ()
    producer: str = ""
    metadata: dict[str, str] = field(default_factory=dict)

    def env_options(self) -> dict[str, Any]:
        """The options of an env (``jgym.make_vec``) in which this policy sees what it learnt."""
        opts: dict[str, Any] = {
            "command_order": self.action_order,
            "opponent_order": self.opponent_order,
        }
        if self.tensors:
            opts["tensors"] = list(self.tensors)
        return opts

    @property
    def seat(self) -> str:
        """The seat that plays it in Go (``jgym match``, ``jgym.evaluate``)."""
        return f"policy:{self.path}"

    def check(self, info: GameInfo, offered: tuple[list[str], list[str]] | None = None) -> None:
        """Checks that the policy reads this game's tensors.

        ``offered``: the game's action and opponent orders besides the
        defaults (``spec_proto.action_orders``, ``.opponent_orders``).

        Raises:
            ValueError: Another game, unknown inputs, slots or orders.
        """
        if self.game and self.game != info.id:
            raise ValueError(f"{self.path}: a {self.game} policy, not {info.id}")
        # A game's opt-in tensors (GameSpec.opt_in, e.g. the strong bot's
        # orders) are inputs a session asks for by name.
        have = {t.name for t in (*info.tensors, *info.opt_in)}
        if missing := [n for n in self.inputs if n not in have]:
            raise ValueError(f"{self.path}: reads {missing}, which {info.id} does not have")
        if self.num_slots != info.num_slots:
            raise ValueError(
                f"{self.path}: {self.num_slots} unit slots, {info.id} {info.num_slots}"
            )
        if offered is not None:
            acts, opps = offered
            if self.action_order not in (SLOT, *acts):
                raise ValueError(f"{self.path}: action order {self.action_order} not offered")
            if self.opponent_order not in (SEAT, *opps):
                raise ValueError(f"{self.path}: opponent order {self.opponent_order} not offered")


def read_onnx(path: str | Path) -> OnnxPolicy:
    """Reads an exported policy's metadata and inputs (any file this package or train_ppo.py wrote).

    Raises:
        ValueError: The file names no observation version or slots.
    """
    import onnx  # noqa: PLC0415 (the train extra)

    path = Path(path)
    model = onnx.load(str(path), load_external_data=False)
    meta = {p.key: p.value for p in model.metadata_props}
    if "observation_version" not in meta or "num_slots" not in meta:
        raise ValueError(f"{path}: no observation_version or num_slots: not a jgym policy")
    return OnnxPolicy(
        path=path.resolve(),
        game=meta.get("game", ""),
        version=meta["observation_version"],
        num_slots=int(meta["num_slots"]),
        inputs=tuple(i.name for i in model.graph.input),
        action_order=meta.get("action_order") or SLOT,
        opponent_order=meta.get("opponent_order") or SEAT,
        tensors=tuple(t for t in meta.get("tensors", "").split(",") if t),
        producer=model.producer_name,
        metadata=meta,
    )
