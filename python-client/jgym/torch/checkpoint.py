"""Networks from a description, checkpoints, and the checkpoints of older trainers.

A checkpoint is a ``torch.save`` dict that :func:`torch.load` reads with
``weights_only=True``:

- ``model``: the network's ``state_dict``;
- ``info``: the game's description (:meth:`jgym.spec.GameInfo.to_dict`),
  what the network was built from;
- ``network``: its shape (:class:`~jgym.torch.nets.NetConfig` as text), its
  value head (``team_value``), the orders it was trained with
  (``command_order``, ``opponent_order``) and who trained it
  (``trained``: ``ppo``, or ``bc`` for a cloned policy whose value head
  never learned);
- ``args``: the trainer's arguments (for the record);
- ``state``, optional: what a resumed run continues from (optimizer, step,
  generators, league...), :func:`save_checkpoint`'s ``state``.

Checkpoints of the older trainer (``examples/train_ppo.py``, before
2026-12) hold ``model``, ``args`` and, since 2026-11, ``spaces`` (the
tensors' names, dtypes and shapes) but no description: :func:`load_agent`
takes the description of the game from the server (:func:`game_info`),
keeps the tensors the checkpoint names, and checks that the network built
from it has the checkpoint's constant tables (plane tables, unit scales),
so a server whose description differs from what the network was trained
with is refused rather than silently misread.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import torch

from jgym.spec import GameInfo, describe
from jgym.torch.local import LocalAgent
from jgym.torch.nets import SEAT, SLOT, Agent, BoardNet, NetConfig
from jgym.v1 import jgym_pb2 as pb

__all__ = [
    "build_agent",
    "game_info",
    "game_spec",
    "load_agent",
    "load_checkpoint",
    "rng_state",
    "save_checkpoint",
    "set_rng_state",
]

#: The game of checkpoints written before they named theirs.
FIRST_GAME = "Crematoria-v0"
#: Their observation version and tensors.
FIRST_VERSION = "crematoria-obs-1"
FIRST_TENSORS = ("board", "units", "globals", "action_mask")


def build_agent(
    info: GameInfo,
    config: NetConfig | str = "local",
    *,
    team_value: bool = False,
    command_order: str = SLOT,
    opponent_order: str = SEAT,
) -> BoardNet:
    """The network ``config`` for a game (``"local"``, ``"conv:coarse=16"``...).

    Args:
        info: The game's description (``jgym.spec.describe(envs.spec_proto)``).
        config: The network's shape.
        team_value: One value per seat (team credit) instead of one per slot.
        command_order: The env's ``command_order`` it trains and plays with.
        opponent_order: The env's ``opponent_order`` it trains and plays with.

    Raises:
        ValueError: A bad configuration, or a game that does not describe its observation.
    """
    cfg = NetConfig.parse(config) if isinstance(config, str) else config
    cls = LocalAgent if cfg.net == "local" else Agent
    return cls(
        info,
        cfg,
        team_value=team_value,
        command_order=command_order or SLOT,
        opponent_order=opponent_order or SEAT,
    )


def game_spec(game: str, address: str | None = None) -> pb.GameSpec:
    """The server's spec of a game (its default configuration): ``ListGames``' answer.

    ``address``: a running server (default: the shared local one).

    Raises:
        KeyError: The server hosts no such game.
    """
    from jgym.client import Client  # noqa: PLC0415 (a server only when asked)

    client = Client(address)
    try:
        for spec in client.list_games():
            if spec.id == game:
                return spec
    finally:
        client.close()
    raise KeyError(f"the server hosts no game {game!r}")


def game_info(game: str, address: str | None = None) -> GameInfo:
    """The server's description of a game (:func:`game_spec`, :func:`jgym.spec.describe`)."""
    return describe(game_spec(game, address))


def save_checkpoint(
    path: str | Path,
    agent: BoardNet,
    *,
    args: dict[str, Any] | None = None,
    trained: str = "ppo",
    state: dict[str, Any] | None = None,
) -> None:
    """Writes a checkpoint (the module docs), atomically: a temporary file, then renamed.

    An interrupted write leaves the previous checkpoint whole.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    ck: dict[str, Any] = {
        "model": agent.state_dict(),
        "info": agent.info.to_dict(),
        "network": {
            "config": str(agent.config),
            "team_value": agent.team_value,
            "command_order": agent.command_order,
            "opponent_order": agent.opponent_order,
            "trained": trained,
        },
        "args": dict(args or {}),
    }
    if state is not None:
        ck["state"] = state
    tmp = path.with_name(path.name + ".tmp")
    torch.save(ck, tmp)
    tmp.replace(path)


def load_checkpoint(
    path: str | Path, *, info: GameInfo | None = None, address: str | None = None
) -> tuple[BoardNet, dict[str, Any]]:
    """Loads a checkpoint of this package or of the older trainer; returns the network and the dict.

    The network is in eval mode. ``info``: the game's description for an
    older checkpoint, which holds none (default: asked of the server at
    ``address``, or of a local one).

    Raises:
        ValueError: The checkpoint's network does not fit the description.
    """
    ck: dict[str, Any] = torch.load(path, weights_only=True)
    if "info" in ck:
        net = ck["network"]
        agent = build_agent(
            GameInfo.from_dict(ck["info"]),
            net["config"],
            team_value=bool(net["team_value"]),
            command_order=net["command_order"],
            opponent_order=net["opponent_order"],
        )
        agent.load_state_dict(ck["model"])
        return agent.eval(), ck
    agent = _old_agent(ck, info, address, str(path))
    agent.load_state_dict(ck["model"])
    ck["network"] = {
        "config": str(agent.config),
        "team_value": agent.team_value,
        "command_order": agent.command_order,
        "opponent_order": agent.opponent_order,
        "trained": "bc" if "ppo_flags" in ck["args"] else "ppo",
    }
    return agent.eval(), ck


def load_agent(
    path: str | Path, *, info: GameInfo | None = None, address: str | None = None
) -> BoardNet:
    """The network of a checkpoint (:func:`load_checkpoint`), in eval mode."""
    return load_checkpoint(path, info=info, address=address)[0]


def _old_agent(
    ck: dict[str, Any], info: GameInfo | None, address: str | None, where: str
) -> BoardNet:
    """The network of an older trainer's checkpoint, from the server's description of its game."""
    spaces = ck.get("spaces")
    game = spaces["game"] if spaces else FIRST_GAME
    current = info if info is not None else game_info(game, address)
    if current.id != game:
        raise ValueError(f"{where}: a {game} checkpoint, not {current.id}")
    names = [n for n, _, _ in spaces["inputs"]] if spaces else list(FIRST_TENSORS)
    tensors = []
    for i, name in enumerate(names):
        t = current.tensor(name)
        if spaces and tuple(spaces["inputs"][i][2]) != t.shape:
            raise ValueError(f"{where}: {name} is {spaces['inputs'][i][2]}, the game's {t.shape}")
        tensors.append(t)
    version = spaces["version"] if spaces else FIRST_VERSION
    old = dataclasses.replace(current, version=version, tensors=tuple(tensors))
    args = ck["args"]
    sd = ck["model"]
    hidden = sd["critic.0.weight"].shape[0]
    agent = build_agent(
        old,
        NetConfig.from_args(args),
        # the seat's critic reads the pooled units beside the globals: twice as wide
        team_value=sd["critic.0.weight"].shape[1] == 2 * hidden,
        command_order=args.get("command_order") or SLOT,
        opponent_order=args.get("opponent_order") or SEAT,
    )
    params = {n for n, _ in agent.named_parameters()}
    for name, buf in agent.state_dict().items():
        if name in params or name not in sd:
            continue
        if sd[name].shape != buf.shape or not torch.allclose(sd[name].float(), buf.float()):
            raise ValueError(
                f"{where}: the server's description of {game} gives another {name} "
                "than the checkpoint's network was trained with"
            )
    return agent


def rng_state() -> dict[str, Any]:
    """The generators' states (torch, numpy, random) as tensors and lists (a checkpoint's)."""
    kind, keys, pos, has_gauss, gauss = np.random.get_state()
    return {
        "torch": torch.get_rng_state(),
        "numpy": [kind, torch.from_numpy(np.asarray(keys, dtype=np.int64)), pos, has_gauss, gauss],
        "random": json.dumps(random.getstate()),
    }


def set_rng_state(st: dict[str, Any]) -> None:
    """Restores :func:`rng_state`."""
    torch.set_rng_state(st["torch"])
    kind, keys, pos, has_gauss, gauss = st["numpy"]
    np.random.set_state((kind, keys.numpy().astype(np.uint32), pos, has_gauss, gauss))
    v, internal, g = json.loads(st["random"])
    random.setstate((v, tuple(internal), g))
