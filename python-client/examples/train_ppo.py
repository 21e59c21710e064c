"""PPO for every jgym game, CleanRL style: one file, one dataclass of arguments.

Trains a policy for one learner seat against bots (three ``Demo`` by
default) in any of jgym's games (``--game``: Crematoria-v0, the default,
Dominator-v0, Pandemic-v0, Moria-v0), then exports it to ONNX so that it
plays without Python: in Go as the ``policy:PATH`` seat (``jgym match
--game moria policy:model.onnx Demo Demo Demo -s 1``) and, with ``jgym
export-cpp``, in C++.

    python examples/train_ppo.py --time-budget 1800 --export examples/models/crematoria_ppo.onnx
    python examples/train_ppo.py --game moria --total-timesteps 300000 --export moria_ppo.onnx

The network follows from the game's spaces, as the server describes them
(its GameSpec: the observation tensors' names, dtypes and shapes, the number
of actions), and from a small description of the game (``GAMES``): how each
board plane is read (categorical codes, bit flags or scalars), which unit
features are the unit's row and column, whether the columns wrap around,
the scale of each unit feature. For every game (docs/training.md has the
reasons):

- every board cell is turned into features: the sum of a learned embedding
  of each code plane and a linear map of the other planes (flag bytes
  unpacked into their bits, scalars scaled);
- ``--net local`` (the default, ``LocalAgent``): no convolution; each unit
  slot reads the 5x5 cells around its unit and the 3x3 blocks (of 8x8 cells,
  averaged) around its unit's block; off the board is zero, Crematoria's
  columns wrap around;
- ``--net conv`` (``Agent``, the shipped models' network): a thin
  full-resolution map (one residual 3x3 convolution) for what is next to
  each unit, and a stride-2 convolution to a wider half-resolution map with
  residual 3x3 convolutions (dilations 1, 2, 4) for what is farther away;
  each slot gathers the features at its cell in both maps;
- each slot adds its own features (scaled), the game's other per-slot masks
  (Dominator's ``move_mask``) and a projection of the pooled board and the
  globals, and a small MLP shared by all slots gives one logit per action
  (illegal ones masked) and the slot's value.

The local network costs a small fraction of the convolutions' (training
computes only the slots the learner owns): benchmarks/RESULTS.md, "The
trainer at 2,000 env-steps/s".

An action is one direction per unit slot, a product of per-slot
categoricals. Commands are issued in slot order, the environment's default,
which the exported bot reproduces.

Rewards (``--credit``):

- ``team``: the environment's
  reward, by default the change of the seat's score (``--reward-mode``),
  scaled and, with ``--norm-reward``, divided by a running deviation of the
  discounted return. One value per game (a critic over the pooled map and
  the pooled units); every unit of the seat shares the advantage, each with
  its own clipped probability ratio.
- ``units`` (every game's default, a shaping documented in
  docs/training.md): each of my units is its own agent (shared weights),
  credited with what its own move earned (``UNIT_CREDIT``: for Crematoria a
  cave cell for a Pioneer, a gem, a capture for a Furyan; for Dominator,
  Pandemic and Moria see their functions), with its own value and
  advantage; its episode ends when it stops being mine (killed or captured).

Opponents: ``--opponents`` takes seat sets separated by ``;``, each three
comma-separated seats; the environments are split evenly among the sets.
A seat ``self`` is the latest exported snapshot of the learner itself
(``--snapshot-every``), seated as a ``policy:PATH`` bot that the Go server
runs (slower than the scripted bots: one CPU forward pass per round and
seat).

League (``--league Riddick,Demo``): instead of fixed sets, every table's
three opponents are drawn from the league's scripted bots and the
learner's ``--snapshot-every`` snapshots by prioritised fictitious
self-play (``jgym.league``), and ``jgym tournament`` rates the pool and
the learner every ``--rate-every`` updates (TensorBoard, the learning curve).
``--league-anchor Riddick,Demo,Demo`` seats that table as it is in
``--league-anchor-share`` of the lineups (the table the learner is judged at).

Outputs (in ``runs/<run name>/``): TensorBoard logs, ``checkpoint.pt``,
``history.json``, ``learning_curve.png``, ``model.onnx`` and, with
``--export PATH``, a copy of the ONNX file there. ``--run-name NAME
--resume true`` continues a run from its checkpoint (weights, optimizer,
step, league, generators); ``--init`` starts from another run's or
bc.py's weights (``--value-warmup`` then trains the value first).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# PyTorch's OpenMP threads spin-wait for the next parallel region after
# each one: by default 300,000 spins, long enough to stay on a core while
# the trainer waits for the games. The server needs those cores then
# (benchmarks/RESULTS.md, "OpenMP's spin-wait"): spin briefly, then sleep.
# Read when libgomp loads, so before torch; a value in the environment wins.
os.environ.setdefault("GOMP_SPINCOUNT", "5000")

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

import jgym
import jgym.league
from jgym.cli import help_texts
from jgym.tensors import DTYPES, MASK_DTYPE

# Crematoria's constants (its per-unit rewards use them).
ROWS, COLS, DIRS = 40, 80, 11
NONE = 10
OBS_VERSION = "crematoria-obs-1"
# Scale of each units column (docs/observation.md): mine, rel owner, type,
# health, row, col, level, on elevator.
UNIT_SCALE = (1.0, 1 / 3, 1.0, 1 / 100, 1 / 40, 1 / 80, 1.0, 1.0)
# The seeds of training games start here; evaluations use small seeds.
TRAIN_SEED0 = 1_000_000


# --- the games ----------------------------------------------------------------


@dataclass(frozen=True)
class Plane:
    """How the network reads one board plane (one uint8 value per cell).

    ``code``: a learned embedding of each value ``0..n-1``; ``bits``: the
    ``n`` low bits, unpacked, then a linear map; ``scalar``: the value times
    ``scale``, then a linear map.
    """

    kind: str
    n: int = 1
    scale: float = 1.0

    def table(self) -> torch.Tensor | None:
        """The constant table a ``bits`` or ``scalar`` value indexes (None for codes)."""
        if self.kind == "bits":
            return torch.tensor(
                [[(v >> b) & 1 for b in range(self.n)] for v in range(1 << self.n)],
                dtype=torch.float32,
            )
        if self.kind == "scalar":
            return (torch.arange(256, dtype=torch.float32) * self.scale)[:, None]
        return None

    def __str__(self) -> str:
        if self.kind == "code":
            return f"codes 0..{self.n - 1} (embedding)"
        if self.kind == "bits":
            return f"{self.n} flag bits (linear)"
        return f"scalar x {self.scale:g} (linear)"


def code(n: int) -> Plane:
    """A plane of categorical codes 0..n-1."""
    return Plane("code", n)


def bits(n: int) -> Plane:
    """A plane of n bit flags."""
    return Plane("bits", n)


def scalar(scale: float) -> Plane:
    """A plane of quantities, read as value x scale."""
    return Plane("scalar", 1, scale)


@dataclass(frozen=True)
class Game:
    """What the trainer knows of a game beyond its spaces (docs/training.md).

    Attributes:
        planes: How to read each plane of ``board`` (as many as it has).
        unit_scale: The scale of each column of ``units``.
        row: The ``units`` column of the unit's row (to gather the board
            features at its cell).
        col: The ``units`` column of the unit's column.
        wrap: The columns wrap around (the last is next to the first).
        mask: The ``[U, A]`` bool tensor whose false entries get ``-1e9``;
            the game's other bool ``[U, A]`` tensors are features of their slot.
        credit: The default ``--credit``: ``team`` (the env's reward) or
            ``units`` (per-unit credit, ``UNIT_CREDIT``).
        defaults: The game's defaults of other arguments.
    """

    planes: tuple[Plane, ...]
    unit_scale: tuple[float, ...]
    row: int = 4
    col: int = 5
    wrap: bool = False
    mask: str = "action_mask"
    credit: str = "team"
    defaults: dict[str, Any] = field(default_factory=dict)


# Each game's observation layout is documented in docs/observation.md
# (Crematoria) and docs/rules/<game>.md, "Observation and action".
GAMES: dict[str, Game] = {
    "Crematoria-v0": Game(
        # level-0 code, level-1 code (terrain | unit << 3), the flags byte
        planes=(code(128), code(128), bits(7)),
        unit_scale=UNIT_SCALE,
        wrap=True,
        credit="units",
        defaults={"command_order": "attacks_first"},
    ),
    "Dominator-v0": Game(
        # terrain, owner, unit, health %, haunted, threat bits
        planes=(code(2), code(5), code(13), scalar(1 / 100), code(2), bits(4)),
        # mine, rel owner, type, health %, row, col, on board, active witch
        unit_scale=(1.0, 1 / 3, 1 / 2, 1 / 100, 1 / 37, 1 / 37, 1.0, 1.0),
        # Moves the engine keeps but that cannot succeed (into a wall, a unit
        # of mine, a haunted cell) are masked; action_mask is a slot feature.
        mask="move_mask",
        credit="units",
        defaults={"norm_reward": True},
    ),
    "Pandemic-v0": Game(
        # terrain, virus, unit, health, conquest, flags
        planes=(code(4), scalar(1 / 10), code(5), scalar(1 / 100), code(5), bits(5)),
        unit_scale=(
            1.0,  # mine
            1 / 3,  # rel owner
            1 / 100,  # health
            1 / 70,  # row
            1 / 70,  # col
            1 / 5,  # virus damage per round
            1 / 50,  # rounds infected
            1.0,  # immune
            1.0,  # wears a mask
            1 / 3,  # type of its cell
            1 / 10,  # virus of its cell
            1 / 4,  # conquest of its cell
            1 / 4,  # adjacent enemies
        ),
        row=3,
        col=4,
        # A lighter half-resolution map: the exported C++ player must stay
        # well within the judge's 1 s of CPU for a whole 200-round match.
        # Per-unit credits are city and path sizes (up to about 30 a round).
        credit="units",
        defaults={"norm_reward": True, "coarse": 16, "reward_scale": 0.02},
    ),
    "Moria-v0": Game(
        # cell type, owner, treasure, rock hits left, unit, unit health, flags
        planes=(code(5), code(5), code(2), scalar(1 / 5), code(12), scalar(1 / 250), bits(6)),
        # mine, rel owner, type, health, row, col, cell type, distance to
        # the Balrog, others around, allies around
        unit_scale=(1.0, 1 / 3, 1.0, 1 / 100, 1 / 60, 1 / 60, 1 / 4, 1 / 30, 1 / 8, 1 / 8),
        credit="units",
        defaults={"norm_reward": True, "coarse": 16},  # a lighter map, as Pandemic's
    ),
}


def game_id(name: str) -> str:
    """The environment id of a game named in any case, with or without ``-v0``."""
    for g in GAMES:
        if name.lower() in (g.lower(), g.split("-v")[0].lower()):
            return g
    raise SystemExit(f"--game {name}: not one of {', '.join(GAMES)}")


@dataclass(frozen=True)
class Spaces:
    """A game's spaces as the server's GameSpec gives them: what the network is built from.

    Attributes:
        game: The environment id.
        version: The observation layout version (``crematoria-obs-1``, ...).
        inputs: The observation tensors in the spec's order: (name, numpy
            dtype name, shape of one seat).
        num_actions: Choices per unit slot.
    """

    game: str
    version: str
    inputs: tuple[tuple[str, str, tuple[int, ...]], ...]
    num_actions: int

    @classmethod
    def of(cls, spec: Any) -> Spaces:
        """From a session's GameSpec (``JgymVectorEnv.spec_proto``)."""
        return cls(
            spec.id,
            spec.observation_version,
            tuple(
                (t.name, DTYPES[t.dtype].name, tuple(int(d) for d in t.shape))
                for t in spec.observation
            ),
            int(spec.num_actions),
        )

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Spaces:
        """From :meth:`to_dict` (checkpoints)."""
        ins = tuple((n, dt, tuple(s)) for n, dt, s in d["inputs"])
        return cls(d["game"], d["version"], ins, int(d["num_actions"]))

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (what checkpoints store)."""
        return {
            "game": self.game,
            "version": self.version,
            "inputs": [[n, dt, list(s)] for n, dt, s in self.inputs],
            "num_actions": self.num_actions,
        }

    def shape(self, name: str) -> tuple[int, ...]:
        """The shape of one seat's tensor ``name``."""
        for n, _, s in self.inputs:
            if n == name:
                return s
        raise KeyError(f"{self.game} has no observation tensor {name!r}")

    @property
    def num_slots(self) -> int:
        """U, the number of unit slots."""
        return self.shape("units")[0]


# Checkpoints written before the trainer read the spec hold Crematoria's.
CREMATORIA_SPACES = Spaces(
    "Crematoria-v0",
    OBS_VERSION,
    (
        ("board", "uint8", (3, ROWS, COLS)),
        ("units", "uint8", (80, 8)),
        ("globals", "float32", (16,)),
        ("action_mask", "bool", (80, DIRS)),
    ),
    DIRS,
)


@dataclass
class Args:
    """Command-line arguments (``--total-timesteps 100000`` etc.).

    The defaults are Crematoria's; a game's ``Game.defaults`` replace some
    of them for that game (flags given on the command line win).
    """

    game: str = "Crematoria-v0"
    """the game: Crematoria-v0, Dominator-v0, Pandemic-v0 or Moria-v0 (any case, '-v0' optional)"""
    exp_name: str = ""
    """run name prefix (default: <game>_ppo)"""
    seed: int = 1
    """seed of PyTorch and of the training games (game seeds start at 1,000,000)"""
    threads: int = 1
    """PyTorch CPU threads; 1 leaves a core to the jgym server and does not stall when
    the machine is busy (benchmarks/RESULTS.md: 2 threads are about 1.5x faster on an
    idle 2-core machine, and 5x slower per forward pass on a busy one)"""
    total_timesteps: int = 2_000_000
    """environment steps (rounds of one learner seat)"""
    time_budget: float = 0.0
    """stop training after this many seconds (0: no limit), counting the seconds of the
    invocations a resumed run continues (the checkpoint keeps them); the exported model is
    the last one"""
    num_envs: int = 32
    """games stepped together (one learner seat each)"""
    num_steps: int = 32
    """rounds per environment per rollout"""
    opponents: str = "Demo,Demo,Demo"
    """seat sets separated by ';' (each 3 bots; 'self' = the latest snapshot); not with --league"""
    league: str = ""
    """self-play league: its scripted bots, comma-separated (e.g. 'Riddick,Demo'); each game's
    three opponents are drawn from them and the --snapshot-every snapshots by PFSP (jgym.league)"""
    league_snapshots: int = 4
    """--league: most snapshots of the learner kept in the pool (the oldest leave)"""
    league_weighting: str = "hard"
    """--league: PFSP weighting: 'hard' ((1-x)^2, x: learner's win rate), 'variance', 'uniform'"""
    league_anchor: str = ""
    """--league: the table the learner is judged at, three comma-separated bots (e.g.
    'Riddick,Demo,Demo'), seated as it is in --league-anchor-share of the lineups"""
    league_anchor_share: float = 0.5
    """--league: the share of lineups that seat --league-anchor (the rest: PFSP draws)"""
    league_sets: int = 4
    """--league: groups of envs, each with its own table, drawn anew when its games end"""
    rate_every: int = 0
    """--league: updates between TrueSkill ratings of the pool and the learner (jgym tournament);
    0: only at the end"""
    rate_games: int = 24
    """--league: games of each rating tournament"""
    pipeline: bool = False
    """two lanes of envs: one lane's games step in the server while the policy reads the
    other's observations, so the server's work and the trainer's overlap; it does not pay
    on a 2-core machine, where both already use every core (benchmarks/RESULTS.md)"""
    shuffle_seats: bool = True
    """the learner's seat is drawn anew each game"""
    credit: str = ""
    """'team': the env's reward for the seat; 'units': per-unit credit (shaping); '': the game's"""
    command_order: str = "slot"
    """the order of the learner's commands in a round, learnt with and exported (ONNX
    action_order): 'slot' (increasing unit id) or 'attacks_first' (the moves that attack
    another player's unit first; Crematoria's default: its engine runs command k of every
    player before command k+1, and a unit killed earlier loses its own)"""
    opponent_order: str = "seat"
    """how the network sees the three opponents, learnt with and exported (ONNX
    opponent_order): 'seat' (relative index 1, 2, 3 = the next seats in turn) or 'score'
    (Crematoria: 1 = the opponent with the highest score, then the next; the bots reorder
    them before the network reads the observation, docs/observation.md)"""
    reward_mode: str = "score_delta"
    """the env's reward (with --credit units it is only logged)"""
    reward_scale: float = 0.1
    """rewards are multiplied by this before PPO sees them"""
    norm_reward: bool = False
    """team credit: divide rewards by a running std of the discounted return (clipped to +-10)"""
    gem_value: float = 30.0
    """Crematoria, credit units: reward of a Pioneer picking a gem (a cave cell earns 1)"""
    capture_reward: float = 5.0
    """credit units: reward of a unit capturing the rival unit it attacked (Furyan, knight, ...)"""
    steal_reward: float = 0.0
    """Crematoria, credit units: extra reward of a cave cell a Pioneer takes from another group
    (1: the cell counts for what it is to the score difference, +1 to me and -1 to them)"""
    loss_penalty: float = 0.0
    """Crematoria, credit units: penalty of a unit of mine that another group gets (every dead
    unit joins another group: its killer's, or one drawn at random)"""
    address: str = ""
    """a running jgym server (default: start one)"""
    config: str = ""
    """game configuration file (default: the game's default)"""
    # PPO
    learning_rate: float = 6e-4
    """Adam's learning rate"""
    anneal_lr: bool = True
    """the learning rate decreases linearly to 0 over the run"""
    gamma: float = 0.97
    """discount factor"""
    gae_lambda: float = 0.9
    """lambda of generalized advantage estimation"""
    num_minibatches: int = 4
    """minibatches per epoch of an update"""
    update_epochs: int = 2
    """epochs over the rollout per update"""
    norm_adv: bool = True
    """advantages normalized per minibatch"""
    clip_coef: float = 0.2
    """PPO's clipping of the probability ratio"""
    clip_vloss: bool = False
    """clip the value loss as the policy loss"""
    ent_coef: float = 0.01
    """weight of the entropy bonus"""
    vf_coef: float = 0.5
    """weight of the value loss"""
    max_grad_norm: float = 0.5
    """gradients are clipped to this norm"""
    target_kl: float = 0.0
    """stop the epochs of an update early above this KL (0: never)"""
    value_warmup: int = 0
    """the first updates train the value only (the policy is kept): for a policy from --init,
    whose value head is untrained (a behaviour-cloned one)"""
    # network
    net: str = "local"
    """the network: 'local' (each unit reads the cells and blocks around it, LocalAgent: no
    convolution) or 'conv' (convolutions over the board, Agent: the shipped models' before
    2026-11-25, 3 to 11 times slower to train)"""
    channels: int = 8
    """channels of the full-resolution map (local: features per cell)"""
    coarse: int = 24
    """channels of the half-resolution map"""
    hidden: int = 64
    """width of the per-slot MLP"""
    dilations: str = "1,2,4"
    """dilations of the half-resolution convolutions"""
    crop: int = 5
    """local: side of the square of cells each unit reads"""
    block: int = 8
    """local: side of the pooled blocks"""
    blocks: int = 3
    """local: side of the square of blocks each unit reads"""
    # evaluation, snapshots, outputs
    eval_every: int = 20
    """updates between evaluations (0: only at the end)"""
    eval_games: int = 16
    """games of each periodic evaluation (greedy policy)"""
    eval_final_games: int = 32
    """games of the final evaluation"""
    eval_opponents: str = "Demo,Demo,Demo"
    """the three seats the evaluations play against"""
    eval_seed: int = 0
    """first seed of the evaluation games"""
    snapshot_every: int = 0
    """updates between ONNX snapshots for 'self' opponents (0: none)"""
    run_dir: str = "runs"
    """where runs/<run name>/ is written"""
    run_name: str = ""
    """the run's directory name (default: <exp name>__<seed>__<unix time>)"""
    resume: bool = False
    """continue the run in runs/<run name>/ from its checkpoint.pt (weights, optimizer, step,
    league, history); its unfinished games are not resumed, new ones start"""
    export: str = ""
    """also copy the final ONNX model here"""
    init: str = ""
    """start from this checkpoint.pt"""
    progress: bool = True
    """show a tqdm progress bar"""
    bf16: bool = False
    """local network: its per-slot MLP (most of the training's arithmetic) in bfloat16 in the
    rollout and the update: faster where the CPU has AVX512-BF16 or AMX-BF16, several times
    slower where it has not (a warning says so); the weights, the losses and the exported
    model stay float32 (docs/training.md)"""

    @property
    def batch_size(self) -> int:
        """Environment steps per update."""
        return self.num_envs * self.num_steps

    @property
    def desc(self) -> Game:
        """The game's description."""
        return GAMES[game_id(self.game)]

    @property
    def slot_credit(self) -> bool:
        """Per-unit credit (``units``) rather than the seat's reward (``team``)."""
        c = self.credit or self.desc.credit
        if c not in ("team", "units"):
            raise SystemExit(f"--credit {c}: want team or units")
        return c == "units"


def parse_args(argv: list[str] | None = None) -> Args:
    """Builds an argparse parser from the Args dataclass, with the game's defaults."""
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    helps = help_texts(Args)
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        text = helps.get(f.name, f.name.replace("_", " "))
        if "default" not in text:
            text += " (default: %(default)s)"
        if f.type in ("bool", bool):
            p.add_argument(
                flag,
                type=lambda s: s.lower() in ("1", "true", "yes"),
                default=f.default,
                metavar="true|false",
                help=text,
            )
        else:
            typ = {"int": int, "float": float, "str": str}[str(f.type)]
            p.add_argument(flag, type=typ, default=f.default, help=text)
    first, _ = p.parse_known_args(argv)
    game = game_id(first.game)
    p.set_defaults(game=game, exp_name=f"{game.split('-v')[0].lower()}_ppo", **GAMES[game].defaults)
    args = Args(**vars(p.parse_args(argv)))
    args.game = game_id(args.game)
    if os.environ.get("JGYM_QUICK"):
        # A smoke test of the command as written (the docs harness sets it):
        # two small updates (8 games x 16 rounds), at most 20 s, small
        # evaluations and ratings.
        args.num_envs = min(args.num_envs, 8)
        args.num_steps = min(args.num_steps, 16)
        args.num_minibatches = min(args.num_minibatches, 2)
        args.total_timesteps = min(args.total_timesteps, 2 * args.batch_size)
        args.time_budget = min(args.time_budget or 20.0, 20.0)
        args.eval_games = min(args.eval_games, 4)
        args.eval_final_games = min(args.eval_final_games, 4)
        args.rate_games = min(args.rate_games, 4)
    return args


# --- the network --------------------------------------------------------------


def wrap_columns(x: torch.Tensor, p: int) -> torch.Tensor:
    """Pads the last axis (columns) circularly by p on each side."""
    return torch.cat([x[..., -p:], x, x[..., :p]], dim=-1)


def no_pad(x: torch.Tensor, p: int) -> torch.Tensor:
    """Maps whose columns do not wrap: the convolutions pad with zeros themselves."""
    return x


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Linear:
    """Orthogonal initialization, as CleanRL."""
    nn.init.orthogonal_(layer.weight, std)
    if layer.bias is not None:
        nn.init.constant_(layer.bias, bias)
    return layer


class BoardNet(nn.Module):
    """What both networks share: the observation tensors' roles and the cell embedding.

    ``cells(board)`` turns each board cell into ``channels`` features: the
    sum of a learned embedding of each code plane and a linear map of the
    other planes (flag bytes unpacked into their bits, scalars scaled).
    """

    def __init__(self, spaces: Spaces, channels: int, *, team_value: bool) -> None:
        super().__init__()
        game = GAMES[spaces.game]
        c = channels
        self.spaces, self.game = spaces, game
        self.channels, self.num_slots = c, spaces.num_slots
        self.team_value = team_value
        # The order of the commands (--command-order), set by make_agent.
        self.command_order = "slot"
        # How the network sees the opponents (--opponent-order), set by make_agent.
        self.opponent_order = "seat"
        # Training only (--bf16): LocalAgent.packed's per-slot MLP in bfloat16.
        self.bf16 = False
        names = [n for n, _, _ in spaces.inputs]
        planes, rows, cols = spaces.shape("board")
        self.nfeat = nfeat = spaces.shape("units")[1]
        if len(game.planes) != planes or len(game.unit_scale) != nfeat:
            raise ValueError(
                f"{spaces.game}: the description has {len(game.planes)} planes and "
                f"{len(game.unit_scale)} unit features, the spec {planes} and {nfeat}"
            )
        self.rows, self.cols = rows, cols
        self.i_board, self.i_units = names.index("board"), names.index("units")
        self.i_globals, self.i_mask = names.index("globals"), names.index(game.mask)
        # The game's other per-slot bool tensors ([U, K]: Dominator's
        # move_mask, Crematoria's paths) are features of their slot.
        self.i_extra = [
            i
            for i, (n, dt, s) in enumerate(spaces.inputs)
            if i not in (self.i_board, self.i_units, self.i_globals, self.i_mask)
        ]
        for i in self.i_extra:
            _, dt, s = spaces.inputs[i]
            if dt != "bool" or len(s) != 2 or s[0] != self.num_slots:
                raise ValueError(f"{spaces.game}: no use for observation tensor {names[i]!r}")
        self.extra = sum(spaces.inputs[i][2][1] for i in self.i_extra)

        # Cell features: an embedding per code plane, plus a linear map of
        # the other planes read through constant tables.
        self.codes = [i for i, p in enumerate(game.planes) if p.kind == "code"]
        for i in self.codes:
            self.add_module(f"emb{i}", nn.Embedding(game.planes[i].n, c))
        self.tables = [i for i, p in enumerate(game.planes) if p.kind != "code"]
        width = 0
        for i in self.tables:
            t = game.planes[i].table()
            assert t is not None
            self.register_buffer(self.table_name(i), t)
            width += t.shape[1]
        self.flag = nn.Linear(width, c, bias=False) if width else None
        self.register_buffer("unit_scale", torch.tensor(game.unit_scale, dtype=torch.float32))
        self.register_buffer("masked", torch.tensor(-1e9))

    def table_name(self, i: int) -> str:
        """The buffer of plane i's table: ``flag_bits`` for a game's one bits plane."""
        if self.game.planes[i].kind == "scalar":
            return f"scalar{i}"
        return "flag_bits" if sum(p.kind == "bits" for p in self.game.planes) == 1 else f"bits{i}"

    def cells(self, board: torch.Tensor) -> torch.Tensor:
        """Board planes [B,P,H,W] -> cell features [B,H,W,c] (before the ReLU)."""
        b = board.long()
        h: torch.Tensor | None = None
        for i in self.codes:
            e = getattr(self, f"emb{i}")(b[:, i])
            h = e if h is None else h + e
        if self.flag is not None:
            parts = [getattr(self, self.table_name(i))[b[:, i]] for i in self.tables]
            f = self.flag(parts[0] if len(parts) == 1 else torch.cat(parts, -1))
            h = f if h is None else h + f
        assert h is not None
        return h

    def forward(self, *obs: torch.Tensor) -> torch.Tensor:
        """The exported graph: masked logits only."""
        return self.heads(*obs)[0]

    def heads(
        self, *obs: torch.Tensor, pre: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Returns the masked logits [B, U, A] and the values ([B, U] per slot, [B] team).

        ``pre``: :meth:`block_inputs` of the board, if already computed.
        """
        raise NotImplementedError

    def block_inputs(self, board: torch.Tensor) -> torch.Tensor | None:
        """What the network computes from the board alone and can be kept for the update.

        None: nothing (the conv network).
        """
        return None

    def read_cells(
        self, board: torch.Tensor, units: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor] | None:
        """What the network reads of the cells of these boards, kept for the update.

        None: nothing (the conv network).
        """
        return None

    def packed(
        self,
        *obs: torch.Tensor,
        pre: torch.Tensor | None = None,
        cells: tuple[torch.Tensor, torch.Tensor] | None = None,
        columns: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """:meth:`heads` of the slots that are mine (``units`` column 0) only: what PPO trains.

        Returns the masked logits [N, A], the values ([N] per slot, [B]
        team) and the slots, batch and slot indices [N] each (row-major).
        ``cells``: :meth:`read_cells` of these observations (the local
        network), if already computed; ``columns``: the columns of
        :meth:`block_inputs` that ``pre`` holds (default: all).
        """
        logits, values = self.heads(*obs, pre=pre)
        bi, ui = (obs[self.i_units][..., 0] == 1).nonzero(as_tuple=True)
        return logits[bi, ui], (values if self.team_value else values[bi, ui]), bi, ui


class Agent(BoardNet):
    """Actor-critic over a game's observation tensors (see the module docs).

    Inputs are the raw observation tensors in the spec's order (for
    Crematoria board uint8 [B,3,40,80], units uint8 [B,U,8], globals
    float32 [B,16], action_mask bool [B,U,11]). Two resolutions keep it
    cheap on a CPU: a thin full-resolution map for what is next to each
    unit, and a wider half-resolution map for what is farther away.

    Args:
        spaces: The game's spaces.
        channels: Channels of the full-resolution map.
        coarse: Channels of the half-resolution map.
        hidden: Width of the per-slot MLP.
        dilations: Dilations of the half-resolution convolutions.
        team_value: One value per game (``--credit team``) instead of one
            per unit slot.
    """

    def __init__(
        self,
        spaces: Spaces,
        channels: int = 8,
        coarse: int = 24,
        hidden: int = 64,
        dilations: tuple[int, ...] = (1, 2, 4),
        *,
        team_value: bool = False,
    ) -> None:
        super().__init__(spaces, channels, team_value=team_value)
        game, c, k = self.game, channels, coarse
        self.net = "conv"
        self.coarse = k
        self.dilations = tuple(dilations)
        rows, cols, nfeat, extra = self.rows, self.cols, self.nfeat, self.extra
        self.half = ((rows - 1) // 2 + 1, (cols - 1) // 2 + 1)  # the stride-2 map
        self.pad = wrap_columns if game.wrap else no_pad

        def pads(d: int) -> tuple[int, int]:
            return (d, 0) if game.wrap else (d, d)

        self.local = nn.Conv2d(c, c, 3, padding=pads(1))
        self.down = nn.Conv2d(c, k, 3, stride=2, padding=pads(1))
        self.convs = nn.ModuleList(
            nn.Conv2d(k, k, 3, padding=pads(d), dilation=d) for d in self.dilations
        )
        # units @ cell_index = row * cols + col in every channel (exact in float32)
        cell = torch.zeros(nfeat, c)
        cell[game.row], cell[game.col] = cols, 1
        self.register_buffer("cell_index", cell)
        # trunc(units @ half_sel) @ half_index = (row // 2) * half_cols + col // 2
        half = torch.zeros(nfeat, 2)
        half[game.row, 0], half[game.col, 1] = 0.5, 0.5
        self.register_buffer("half_sel", half)
        self.register_buffer("half_index", torch.tensor([[float(self.half[1])] * k, [1.0] * k]))
        g = spaces.shape("globals")[0]
        self.unit_in = layer_init(nn.Linear(c + k + nfeat + extra, hidden))
        self.glob_in = layer_init(nn.Linear(k + g, hidden))
        self.unit_out = layer_init(nn.Linear(hidden, spaces.num_actions), std=0.01)
        # The value of each slot, or (team) of the seat from the pooled map,
        # the globals and the mean of its units' hidden layers.
        self.critic = nn.Sequential(
            layer_init(nn.Linear(2 * hidden if team_value else hidden, hidden)),
            nn.ReLU(),
            layer_init(nn.Linear(hidden, 1), std=1.0),
        )

    def features(self, board: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Board planes -> full-resolution [B,c,H,W] and half-resolution [B,k,H/2,W/2] maps."""
        h = self.cells(board)
        x = F.relu(h).permute(0, 3, 1, 2)
        x = x + F.relu(self.local(self.pad(x, 1)))
        y = F.relu(self.down(self.pad(x, 1)))
        for d, conv in zip(self.dilations, self.convs, strict=True):
            y = y + F.relu(conv(self.pad(y, d)))
        return x, y

    def heads(
        self, *obs: torch.Tensor, pre: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Returns the masked logits [B, U, A] and the values ([B, U] per slot, [B] team)."""
        board, units = obs[self.i_board], obs[self.i_units]
        globals_, mask = obs[self.i_globals], obs[self.i_mask]
        x, y = self.features(board)
        fine = x.permute(0, 2, 3, 1).reshape(-1, self.rows * self.cols, self.channels)
        coarse = y.permute(0, 2, 3, 1).reshape(-1, self.half[0] * self.half[1], self.coarse)
        u = units.float()
        at_cell = torch.gather(fine, 1, (u @ self.cell_index).long())  # [B, U, c]
        half = (u @ self.half_sel).long().float() @ self.half_index
        near = torch.gather(coarse, 1, half.long())  # [B, U, k]
        ctx = torch.cat([y.mean(dim=(2, 3)), globals_], -1)
        slot = [at_cell, near, u * self.unit_scale] + [obs[i].float() for i in self.i_extra]
        z = self.unit_in(torch.cat(slot, -1))
        g = self.glob_in(ctx)
        h = F.relu(z + g.unsqueeze(1))
        logits = torch.where(mask, self.unit_out(h), self.masked)
        if not self.team_value:
            return logits, self.critic(h).squeeze(-1)
        mine = u[..., :1]  # units column 0: the unit is mine
        pooled = (h * mine).sum(1) / mine.sum(1).clamp(min=1.0)
        return logits, self.critic(torch.cat([F.relu(g), pooled], -1)).squeeze(-1)


def crop_tables(size: int, crop: int, stride: int, wrap: bool) -> tuple[torch.Tensor, ...]:
    """Index tables of an egocentric crop along one axis of ``size`` cells.

    For every uint8 coordinate ``x`` (0..255) and every offset ``d`` of the
    crop (``-crop//2..crop//2``): the cell ``x + d`` (``wrap``: modulo
    ``size``), times ``stride``, and whether it is on the board. Coordinates
    beyond the board give cells off the board (index 0, outside), so a
    network that gathers through these tables never reads out of range.
    """
    half = crop // 2
    index = torch.zeros(256, crop)
    inside = torch.zeros(256, crop)
    for x in range(256):
        for j, d in enumerate(range(-half, half + 1)):
            y = x + d
            if x < size and wrap:
                y %= size
            if x < size and 0 <= y < size:
                index[x, j], inside[x, j] = y * stride, 1.0
    return index, inside


class CountsTimes(torch.autograd.Function):
    """``counts @ weight`` for constant counts [N, n] and a learned table [n, c].

    The same product as ``@``, whose backward pass PyTorch computes as
    ``counts.T @ grad`` on a transposed view, three times slower on a CPU
    than ``(grad.T @ counts).T`` (benchmarks/RESULTS.md, the trainer).
    """

    @staticmethod
    def forward(ctx: Any, counts: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        """``counts @ weight``."""
        ctx.save_for_backward(counts)
        return counts @ weight

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[None, torch.Tensor]:
        """The weight's gradient (the counts are constants)."""
        (counts,) = ctx.saved_tensors
        return None, (grad.t() @ counts).t()


class LookupSum(torch.autograd.Function):
    """``weight[index].sum(0)``: the sum of P embedding lookups per item, index [P, M].

    Adds the P lookups in place, without the [P, M, c] intermediate, and its
    backward pass adds each lookup's gradient to its row with ``index_add_``:
    on a CPU several times faster than ``nn.Embedding``'s and deterministic.
    That runs on one thread: with two, ``index_add_`` into a small table was
    several times slower than with one in the profiler (the threads contend
    for the same rows).
    """

    @staticmethod
    def forward(ctx: Any, weight: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        """The [M, c] sums."""
        ctx.save_for_backward(index)
        ctx.rows = weight.shape[0]
        h = weight.index_select(0, index[0])
        for p in range(1, index.shape[0]):
            h += weight.index_select(0, index[p])
        return h

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor, None]:
        """The table's gradient: each lookup's gradient added to its row."""
        (index,) = ctx.saved_tensors
        out = torch.zeros(ctx.rows, grad.shape[1], dtype=grad.dtype)
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            for p in range(index.shape[0]):
                out.index_add_(0, index[p], grad)
            return out, None
        finally:
            torch.set_num_threads(threads)


# LocalAgent.cell_features: when a cell's code and bits planes have at most
# this many combinations of values (Dominator 4,160, Pandemic 3,200, Moria
# 38,400; not Crematoria's 2,097,152), the features of every combination
# are tabulated and each cell looks up one row of the table; otherwise it
# looks up one row per plane (LookupSum).
JOINT_VALUES = 1 << 16

# LocalAgent.packed with --bf16: the slots' rows are padded to a multiple of this.
BF16_ROWS = 512


class LocalAgent(BoardNet):
    """An egocentric actor-critic: each unit slot reads the board around its own cell.

    No convolution runs over the board: the cells are embedded as in
    :class:`Agent` (``cells``), then

    - each slot reads the ``crop x crop`` cells centred on its unit, each
      cell's features after a ReLU (off the board: zeros; Crematoria's
      columns wrap around);
    - the cells' features are averaged over ``block x block`` blocks (two
      matrix products with constant pooling matrices), then a ReLU, and
      each slot reads the ``blocks x blocks`` blocks centred on its unit's;
    - with its own features (scaled), the game's other per-slot masks and a
      projection of the globals and the mean of the blocks, an MLP shared
      by the slots (two layers of ``hidden``) gives one logit per action
      (illegal ones masked) and the slot's value (or, team credit, the
      seat's from the mean of its units').

    Two ways to compute the same function: the exported graph
    (:meth:`heads_dense`, every slot, the same ONNX operators as
    :class:`Agent`'s) and, in PyTorch, :meth:`heads` for the slots the
    learner owns only, embedding only the cells they read and pooling the
    blocks from per-block counts of each code (the mean of a code plane's
    embedding is its histogram times the table). A test checks they agree.

    Args:
        spaces: The game's spaces.
        channels: Features per cell.
        hidden: Width of the per-slot MLP.
        crop: Side of the square of cells each slot reads (odd).
        block: Side of the pooled blocks.
        blocks: Side of the square of blocks each slot reads (odd).
        team_value: One value per game instead of one per unit slot.
    """

    def __init__(
        self,
        spaces: Spaces,
        channels: int = 8,
        hidden: int = 64,
        *,
        crop: int = 5,
        block: int = 8,
        blocks: int = 3,
        team_value: bool = False,
    ) -> None:
        super().__init__(spaces, channels, team_value=team_value)
        if crop % 2 == 0 or blocks % 2 == 0 or block < 1:
            raise ValueError(f"--crop {crop} and --blocks {blocks} must be odd, --block positive")
        game, c = self.game, channels
        self.net = "local"
        self.crop, self.block, self.blocks = crop, block, blocks
        rows, cols, nfeat = self.rows, self.cols, self.nfeat
        hb, wb = -(-rows // block), -(-cols // block)
        self.grid = (hb, wb)
        sel = torch.zeros(nfeat, 2)
        sel[game.row, 0], sel[game.col, 1] = 1.0, 1.0
        self.register_buffer("sel_row", sel[:, :1].clone())
        self.register_buffer("sel_col", sel[:, 1:].clone())
        self.register_buffer("ones", torch.ones(1, c))
        # The fine crop: cell index row * cols + col, per offset.
        for name, (size, stride) in (("row", (rows, cols)), ("col", (cols, 1))):
            index, inside = crop_tables(size, crop, stride, wrap=game.wrap and name == "col")
            self.register_buffer(f"fine_{name}", index)
            self.register_buffer(f"fine_{name}_in", inside)
        # The blocks: pooling matrices (each block's mean) and the crop of
        # blocks around the unit's block, indexed by the unit's cell.
        for name, size, nb in (("row", rows, hb), ("col", cols, wb)):
            pool = torch.zeros(size, nb)
            for x in range(size):
                pool[x, x // block] = 1.0
            self.register_buffer(f"pool_{name}", pool / pool.sum(0).clamp(min=1.0))
            index, inside = crop_tables(nb, blocks, wb if name == "row" else 1,
                                        wrap=game.wrap and name == "col")  # fmt: skip
            of_cell = torch.tensor([min(x // block, 255) for x in range(256)])
            index, inside = index[of_cell], inside[of_cell]
            index[size:], inside[size:] = 0.0, 0.0
            self.register_buffer(f"block_{name}", index)
            self.register_buffer(f"block_{name}_in", inside)
        # For heads: each cell's block, and each block's number of cells.
        cell_block = torch.tensor(
            [(r // block) * wb + cl // block for r in range(rows) for cl in range(cols)]
        )
        self.register_buffer("cell_block", cell_block, persistent=False)
        self.register_buffer("plane_index", torch.arange(len(game.planes)), persistent=False)
        # block_means: the planes counted by value (codes, bits), where each
        # one's values start in the counts, the scalar planes; and where each
        # table plane's columns start in flag's input.
        self.hist_planes = [i for i, p in enumerate(game.planes) if p.kind != "scalar"]
        self.scalar_planes = [i for i, p in enumerate(game.planes) if p.kind == "scalar"]
        offset = self.offsets(self.hist_planes)
        self.register_buffer("hist_offset", offset, persistent=False)
        # cell_features: a cell's values of those planes as one number (mixed
        # radix, the last plane's digit lowest) when there are few combinations
        sizes = [self.num_values(i) for i in self.hist_planes]
        self.joint = int(np.prod(sizes)) <= JOINT_VALUES
        stride = torch.tensor([int(np.prod(sizes[j + 1 :])) for j in range(len(sizes))])
        self.register_buffer("joint_stride", stride, persistent=False)
        # near_features: a cell's uint8 values of every plane as one int64 key
        # (base 256), for up to 7 planes (every game has 3 to 7).
        nplanes = len(game.planes)
        self.keyed = nplanes <= 7
        key_stride = [256 ** (nplanes - 1 - j) for j in range(nplanes)] if self.keyed else [0]
        self.register_buffer("key_stride", torch.tensor(key_stride), persistent=False)
        base = cell_block * offset[-1] + offset[:-1].view(-1, 1)  # [P', H*W]
        self.register_buffer("hist_base", base, persistent=False)
        self.flag_columns: dict[int, int] = {}
        start = 0
        for i in self.tables:
            self.flag_columns[i] = start
            start += game.planes[i].table().shape[1]
        self.register_buffer(
            "block_size",
            torch.bincount(cell_block, minlength=hb * wb).float().unsqueeze(1),
            persistent=False,
        )
        g = spaces.shape("globals")[0]
        self.near_in = layer_init(nn.Linear(crop * crop * c, hidden))
        self.far_in = layer_init(nn.Linear(blocks * blocks * c, hidden, bias=False))
        self.unit_in = layer_init(nn.Linear(nfeat + self.extra, hidden, bias=False))
        self.glob_in = layer_init(nn.Linear(c + g, hidden, bias=False))
        self.mid = layer_init(nn.Linear(hidden, hidden))
        self.unit_out = layer_init(nn.Linear(hidden, spaces.num_actions), std=0.01)
        self.critic = nn.Sequential(
            layer_init(nn.Linear(2 * hidden if team_value else hidden, hidden)),
            nn.ReLU(),
            layer_init(nn.Linear(hidden, 1), std=1.0),
        )

    # -- the exported graph: every slot ------------------------------------------------

    def gather_crop(
        self, maps: torch.Tensor, rr: torch.Tensor, cc: torch.Tensor, kind: str
    ) -> torch.Tensor:
        """Features [B, U, k*k*c] of the crop around each slot from maps [B, N, c].

        ``rr``, ``cc``: [B, U, 1] int64 row and column of each slot's unit.
        """
        u, c = self.num_slots, self.channels
        k = self.crop if kind == "fine" else self.blocks
        rows = getattr(self, f"{kind}_row")[rr].reshape(-1, u, k, 1)
        cols = getattr(self, f"{kind}_col")[cc]  # [B, U, 1, k]
        inside = (
            getattr(self, f"{kind}_row_in")[rr].reshape(-1, u, k, 1)
            * getattr(self, f"{kind}_col_in")[cc]
        )
        index = ((rows + cols).reshape(-1, u * k * k, 1) @ self.ones).long()  # [B, U*k*k, c]
        got = torch.gather(maps, 1, index).reshape(-1, u, k * k, c)
        return (got * inside.reshape(-1, u, k * k, 1)).reshape(-1, u, k * k * c)

    def heads_dense(self, *obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """:meth:`heads` computed for every slot: the exported graph."""
        board, units = obs[self.i_board], obs[self.i_units]
        globals_, mask = obs[self.i_globals], obs[self.i_mask]
        c = self.channels
        h = self.cells(board)  # [B, H, W, c]
        fine = F.relu(h).reshape(-1, self.rows * self.cols, c)
        # block means: [B, c, H, W] @ [W, wb] -> [B, c, wb, H] @ [H, hb] -> [B, hb*wb, c]
        y = h.permute(0, 3, 1, 2) @ self.pool_col
        y = y.transpose(2, 3) @ self.pool_row  # [B, c, wb, hb]
        blocks = F.relu(y.permute(0, 3, 2, 1).reshape(-1, self.grid[0] * self.grid[1], c))
        u = units.float()
        rr, cc = (u @ self.sel_row).long(), (u @ self.sel_col).long()  # [B, U, 1]
        feats = [u * self.unit_scale] + [obs[i].float() for i in self.i_extra]
        g = self.glob_in(torch.cat([blocks.mean(1), globals_], -1))
        # The slots that are not mine get a zero hidden layer, as in heads;
        # their inputs are zeroed first, which an interpreter that skips
        # zeros in its products (jgym's Go one) does not compute.
        mine = u[..., :1]
        z = (
            self.near_in(self.gather_crop(fine, rr, cc, "fine") * mine)
            + self.far_in(self.gather_crop(blocks, rr, cc, "block") * mine)
            + self.unit_in(torch.cat(feats, -1))
        )
        hid = F.relu(self.mid(F.relu(z + g.unsqueeze(1)) * mine)) * mine
        logits = torch.where(mask, self.unit_out(hid), self.masked)
        return logits, self.values(hid, g, u[..., 0])

    def values(self, hid: torch.Tensor, g: torch.Tensor, mine: torch.Tensor) -> torch.Tensor:
        """Per slot [B, U], or (team) the seat's [B] from its units' mean hidden layer."""
        if not self.team_value:
            return self.critic(hid).squeeze(-1)
        m = mine.unsqueeze(-1)
        pooled = (hid * m).sum(1) / m.sum(1).clamp(min=1.0)
        return self.critic(torch.cat([F.relu(g), pooled], -1)).squeeze(-1)

    # -- training: the slots the learner owns only ---------------------------------------

    def heads(
        self, *obs: torch.Tensor, pre: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Returns the masked logits [B, U, A] and the values ([B, U] per slot, [B] team).

        Computed for the slots whose unit is mine (``units`` column 0,
        :meth:`packed`); the others get the logits and value of a zero
        hidden layer, as in :meth:`heads_dense` (their moves are not the
        learner's, and the losses skip them).
        """
        if torch.onnx.is_in_onnx_export():
            return self.heads_dense(*obs)
        logits_mine, values, bi, ui = self.packed(*obs, pre=pre)
        mask = obs[self.i_mask]
        b, u = mask.shape[:2]
        logits = torch.where(mask, self.unit_out.bias, self.masked).index_put((bi, ui), logits_mine)
        if not self.team_value:
            zero = self.critic(torch.zeros(1, self.unit_out.in_features)).reshape(1, 1)
            values = zero.expand(b, u).index_put((bi, ui), values)
        return logits, values

    def packed(
        self,
        *obs: torch.Tensor,
        pre: torch.Tensor | None = None,
        cells: tuple[torch.Tensor, torch.Tensor] | None = None,
        columns: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """:meth:`BoardNet.packed`, embedding only the distinct cells the slots that are mine read.

        The blocks come from per-block counts (:meth:`block_inputs`, or
        ``pre``: only its ``columns`` when given, :meth:`block_means`), the
        cells from :meth:`read_cells` (or ``cells``).
        """
        board, units = obs[self.i_board], obs[self.i_units]
        globals_, mask = obs[self.i_globals], obs[self.i_mask]
        b = board.shape[0]
        if pre is None:
            pre = self.block_inputs(board)
        blocks = F.relu(self.block_means(pre, columns))  # [B, nb, c]
        g = self.glob_in(torch.cat([blocks.mean(1), globals_], -1))
        # The slots that are mine, and what each reads.
        bi, ui = (units[..., 0] == 1).nonzero(as_tuple=True)
        uf = units[bi, ui].float()  # [N, F]
        rr = uf[:, self.game.row].long()
        cc = uf[:, self.game.col].long()
        kb = self.blocks
        near = self.near_features(board, bi, ui, rr, cc, cells=cells)  # [N, crop*crop, c]
        blk = (self.block_row[rr].unsqueeze(2) + self.block_col[cc].unsqueeze(1)).long()
        blk_in = self.block_row_in[rr].unsqueeze(2) * self.block_col_in[cc].unsqueeze(1)
        far = blocks[bi.unsqueeze(1), blk.view(-1, kb * kb)] * blk_in.view(-1, kb * kb, 1)
        feats = [uf * self.unit_scale] + [obs[i][bi, ui].float() for i in self.i_extra]
        # The per-slot MLP, where the time goes: in bfloat16 with --bf16
        # (the products' inputs rounded, their sums and everything else
        # float32). oneDNN compiles a kernel for each new number of rows, so
        # the rows are padded with zeros to a multiple of BF16_ROWS.
        n = len(bi)
        pad = -n % BF16_ROWS if self.bf16 else 0
        x = [near.flatten(1), far.flatten(1), torch.cat(feats, -1), g[bi]]
        if pad:
            x = [F.pad(t, (0, 0, 0, pad)) for t in x]
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.bf16):
            z = self.near_in(x[0]) + self.far_in(x[1]) + self.unit_in(x[2])
            hid = F.relu(self.mid(F.relu(z + x[3])))  # [N + pad, hidden]
            out = self.unit_out(hid)[:n]
            value = None if self.team_value else self.critic(hid)[:n]
            hid = hid[:n]
        logits = torch.where(mask[bi, ui], out.float(), self.masked)
        if value is not None:
            return logits, value.float().squeeze(-1), bi, ui
        hid = hid.float()
        # the seat's value from the mean of its units' hidden layers (none: zeros)
        count = torch.bincount(bi, minlength=b).clamp(min=1).unsqueeze(1).float()
        pooled = torch.zeros(b, hid.shape[1]).index_add(0, bi, hid) / count
        return logits, self.critic(torch.cat([F.relu(g), pooled], -1)).squeeze(-1), bi, ui

    def near_features(
        self,
        board: torch.Tensor,
        bi: torch.Tensor,
        ui: torch.Tensor,
        rr: torch.Tensor,
        cc: torch.Tensor,
        *,
        cells: tuple[torch.Tensor, torch.Tensor] | None = None,
    ) -> torch.Tensor:
        """The features after the ReLU of the crop's cells, [N, k*k, c] (off the board: 0).

        ``bi``, ``ui``: each slot's board and slot, ``rr``, ``cc``: its
        unit's row and column. The features are computed once per distinct
        cell (the values of every plane: one int64 key; a batch holds a few
        thousand distinct cells for hundreds of thousands read), then each
        cell read takes its row (:class:`LookupSum`, one lookup): the same values as
        computing every cell read, which is done only when the keys would
        not fit in an int64 (``keyed`` false: more than 7 planes).
        ``cells``: :meth:`read_cells` of these boards, if already computed
        (the update computes it once for all its epochs).
        """
        kk = self.crop * self.crop
        if cells is not None:
            distinct, index = cells
            inverse = index[bi, ui].long()
        elif not self.keyed:
            codes, inside = self.crop_codes(board, bi, rr, cc)
            return F.relu(self.cell_features(codes)) * inside.unsqueeze(2)
        else:
            distinct, inverse = torch.unique(self.read_keys(board, bi, rr, cc), return_inverse=True)
        codes = (distinct.clamp(min=0).unsqueeze(1) // self.key_stride) % 256
        table = F.relu(self.cell_features(codes)) * (distinct >= 0).unsqueeze(1)
        return LookupSum.apply(table, inverse.view(1, -1)).view(-1, kk, self.channels)

    def crop_codes(
        self, board: torch.Tensor, bi: torch.Tensor, rr: torch.Tensor, cc: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """The values of each slot's crop, [N, k*k, P], and which of its cells are on the board.

        Every plane's value (int64, read from the flat board) of each cell;
        ``inside`` is [N, k*k].
        """
        kk = self.crop * self.crop
        cell = (self.fine_row[rr].unsqueeze(2) + self.fine_col[cc].unsqueeze(1)).long()
        inside = self.fine_row_in[rr].unsqueeze(2) * self.fine_col_in[cc].unsqueeze(1)
        at = (bi.view(-1, 1, 1) * board.shape[1] + self.plane_index) * self.rows * self.cols
        return board.reshape(-1)[at + cell.view(-1, kk, 1)].long(), inside.view(-1, kk)

    def read_keys(
        self, board: torch.Tensor, bi: torch.Tensor, rr: torch.Tensor, cc: torch.Tensor
    ) -> torch.Tensor:
        """The key (every plane's value, base 256) of each cell of each slot's crop, [N, k*k].

        Off the board: -1.
        """
        codes, inside = self.crop_codes(board, bi, rr, cc)
        return (codes * self.key_stride).sum(-1).masked_fill(inside == 0, -1)

    def read_cells(
        self, board: torch.Tensor, units: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor] | None:
        """The distinct cells [C] (keys) the slots that are mine read, and their rows [B, U, k*k].

        What :meth:`near_features` reads of the boards, computed once for
        the update's epochs and minibatches (int32 rows; other slots: 0).
        None when the keys do not fit (``keyed``).
        """
        if not self.keyed:
            return None
        bi, ui = (units[..., 0] == 1).nonzero(as_tuple=True)
        uf = units[bi, ui].long()
        read = self.read_keys(board, bi, uf[:, self.game.row], uf[:, self.game.col])
        distinct, inverse = torch.unique(read, return_inverse=True)
        index = torch.zeros(*units.shape[:2], read.shape[1], dtype=torch.int32)
        index[bi, ui] = inverse.int()
        return distinct, index

    def block_inputs(self, board: torch.Tensor) -> torch.Tensor:
        """What :meth:`block_means` reads of a board: [B, nb, K + S], constants of the board.

        For each block, the number of its cells that hold each value of the
        code and bits planes (K values in all, one scatter for all planes),
        then the sum of each of the S scalar planes (two products with the
        pooling matrices): :meth:`block_means` divides its product by the
        block's size, not these. The trainer computes them once per
        observation, in the rollout, rather than in every epoch of the
        update.
        """
        b, nb = board.shape[0], self.grid[0] * self.grid[1]
        flat = board.flatten(2)  # [B, P, H*W]
        k = int(self.hist_offset[-1])
        # (block, value) of each cell of those planes: [B, P' * H*W]
        idx = flat[:, self.hist_planes].long()
        idx += self.hist_base  # in place: a batch of boards in int64 is large
        idx = idx.view(b, -1)
        ones = torch.ones(1).expand(idx.shape)
        parts = [torch.zeros(b, nb * k).scatter_add_(1, idx, ones).view(b, nb, k)]
        for i in self.scalar_planes:
            x = flat[:, i].float().view(b, 1, self.rows, self.cols)
            y = (x @ self.pool_col).transpose(2, 3) @ self.pool_row  # [B, 1, wb, hb]: means
            parts.append(y.permute(0, 3, 2, 1).reshape(b, nb, 1) * self.block_size)
        return parts[0] if len(parts) == 1 else torch.cat(parts, -1)

    def block_means(self, pre: torch.Tensor, columns: torch.Tensor | None = None) -> torch.Tensor:
        """The mean of :meth:`cells` over each block, [B, nb, c] (before the ReLU).

        From :meth:`block_inputs`: the counts of each value times its
        features (:meth:`value_features`), plus each scalar plane's sum
        times its, over the block's size. No features of every cell are
        built. ``columns``: the
        columns of :meth:`block_inputs` that ``pre`` holds, the others
        being zero in every block (the update keeps the rollout's nonzero
        ones: a few dozen of Crematoria's 384 values occur).
        """
        b, nb, k = pre.shape
        weight = torch.cat([self.value_features(i) for i in self.hist_planes + self.scalar_planes])
        if columns is not None:
            weight = weight[columns]
        return CountsTimes.apply(pre.reshape(b * nb, k), weight).view(b, nb, -1) / self.block_size

    def value_features(self, i: int) -> torch.Tensor:
        """The features of each value of plane i, [n, c] (a scalar plane: of value 1)."""
        plane = self.game.planes[i]
        if plane.kind == "code":
            return getattr(self, f"emb{i}").weight
        assert self.flag is not None
        start = self.flag_columns[i]
        table = getattr(self, self.table_name(i))
        w = self.flag.weight[:, start : start + table.shape[1]]  # [c, width]
        if plane.kind == "scalar":
            return (w * plane.scale).t()  # the table is value x scale
        return table @ w.t()

    def num_values(self, i: int) -> int:
        """The number of values of code or bits plane i."""
        plane = self.game.planes[i]
        return 1 << plane.n if plane.kind == "bits" else plane.n

    def offsets(self, planes: list[int]) -> torch.Tensor:
        """Where each plane's values start when those planes' values are numbered in a row.

        [len(planes) + 1] int64, the last is the number of values in all.
        """
        return torch.tensor([0] + [self.num_values(i) for i in planes]).cumsum(0)

    def cell_features(self, codes: torch.Tensor) -> torch.Tensor:
        """:meth:`cells` of cells given as [..., P] plane values.

        The features of each plane's value (:meth:`value_features`), summed:
        for the code and bits planes one row of the table of every
        combination of their values (``JOINT_VALUES``) or one lookup per
        plane (LookupSum), plus the scalar planes' as a product.
        """
        shape = codes.shape[:-1]
        codes = codes.reshape(-1, codes.shape[-1])
        if self.joint:
            # the features of every combination of values, [J, c], then one row per cell
            table = torch.zeros(1, self.channels)
            for i in self.hist_planes:
                w = self.value_features(i)
                table = (table.unsqueeze(1) + w.unsqueeze(0)).reshape(-1, self.channels)
            idx = (codes[:, self.hist_planes] * self.joint_stride).sum(-1, keepdim=True)
            h = LookupSum.apply(table, idx.t())
        else:
            idx = (codes[:, self.hist_planes] + self.hist_offset[:-1]).t().contiguous()
            weight = torch.cat([self.value_features(i) for i in self.hist_planes])
            h = LookupSum.apply(weight, idx)
        if self.scalar_planes:
            weight = torch.cat([self.value_features(i) for i in self.scalar_planes])
            h = h + codes[:, self.scalar_planes].float() @ weight
        return h.view(*shape, -1)


def make_agent(spaces: Spaces, args: dict[str, Any]) -> BoardNet:
    """The network of a run's arguments (an ``Args`` as a dict; older runs have no ``net``)."""
    game = spaces.game
    credit = args.get("credit") or GAMES[game].credit
    net = args.get("net", "conv")
    order = args.get("command_order", "slot")  # runs before 2026-11-25: slot
    if order not in ("slot", "attacks_first") or (order != "slot" and game not in ATTACKS):
        raise SystemExit(f"--command-order {order}: want slot or, for {', '.join(ATTACKS)}, "
                         "attacks_first")  # fmt: skip
    opp = args.get("opponent_order", "seat")  # runs before 2026-11-29: seat
    if opp != "seat" and opp not in OPPONENT_ORDERS.get(game, {}):
        have = ", ".join(f"{o} ({g})" for g, d in OPPONENT_ORDERS.items() for o in d)
        raise SystemExit(f"--opponent-order {opp}: want seat or one of: {have}")
    agent = build_net(spaces, args, net, credit)
    agent.command_order = order
    agent.opponent_order = opp
    return agent


def build_net(spaces: Spaces, args: dict[str, Any], net: str, credit: str) -> BoardNet:
    """The network ``--net`` of a run's arguments."""
    if net == "local":
        return LocalAgent(
            spaces,
            args["channels"],
            args["hidden"],
            crop=args["crop"],
            block=args["block"],
            blocks=args["blocks"],
            team_value=credit == "team",
        )
    if net != "conv":
        raise SystemExit(f"--net {net}: want conv or local")
    return Agent(
        spaces,
        args["channels"],
        args["coarse"],
        args["hidden"],
        tuple(int(d) for d in args["dilations"].split(",")),
        team_value=credit == "team",
    )


def sample(logits: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Draws one action per slot from masked logits [..., A]; returns it and its log-probability.

    The Gumbel-max draw: the argmax of the logits plus Gumbel noise follows
    the softmax's distribution (masked actions, at -1e9, are never drawn).
    Several times cheaper on a CPU than ``torch.distributions.Categorical``.
    """
    logp = F.log_softmax(logits, -1)
    noise = -torch.log(-torch.log(torch.rand_like(logits).clamp_(min=1e-20)))
    action = (logits + noise).argmax(-1)
    return action, logp.gather(-1, action.unsqueeze(-1)).squeeze(-1)


# Crematoria's board codes (terrain | unit << 3) that name a group: owned
# caves (terrain 3..6), Pioneers (unit 1..4) and Furyans (unit 5..8).
_CODE = np.arange(256)
_TERRAIN, _UNIT = _CODE & 7, _CODE >> 3
_OWNED = (_TERRAIN >= 3) & (_TERRAIN <= 6)
_PIONEER, _FURYAN = (_UNIT >= 1) & (_UNIT <= 4), (_UNIT >= 5) & (_UNIT <= 8)


def crematoria_by_score(obs: Obs) -> Obs:
    """Crematoria's observation with the opponents relabelled by score (``--opponent-order score``).

    Relative index 1 becomes the opponent with the highest score, 2 the
    next and 3 the lowest (ties keep their seat order), in the board's
    codes (owned caves, Pioneers, Furyans), the units' owner column and the
    globals' scores, cells and gems: the transform the Go and C++ bots
    apply to a model with ``opponent_order: score`` (docs/observation.md).
    The other tensors do not name the opponents and are kept.
    """
    g = np.asarray(obs["globals"])
    n = g.shape[0]
    rows = np.arange(n)[:, None]
    order = np.argsort(-g[:, 4:7], axis=1, kind="stable")  # old rel - 1, best first
    new = np.zeros((n, 4), np.int64)
    new[rows, 1 + order] = np.arange(1, 4)
    out = dict(obs)
    board = np.array(obs["board"])
    # The games whose opponents change labels: each one's new code of
    # every byte of board planes 0 and 1 (a table of 256), looked up in
    # one flat table.
    e = np.flatnonzero((new[:, 1:] != np.arange(1, 4)).any(1))
    if len(e):
        m = new[e]
        t = np.where(_OWNED, 3 + m[:, (_TERRAIN - 3).clip(0, 3)], _TERRAIN)
        u = np.where(_PIONEER, 1 + m[:, (_UNIT - 1).clip(0, 3)], _UNIT)
        u = np.where(_FURYAN, 5 + m[:, (_UNIT - 5).clip(0, 3)], u)
        lut = (t | (u << 3)).astype(np.uint8).ravel()  # [len(e) * 256]
        planes = board[e, :2]
        idx = planes.reshape(len(e), -1).astype(np.intp) + (np.arange(len(e)) * 256)[:, None]
        board[e, :2] = np.take(lut, idx).reshape(planes.shape)
    out["board"] = board
    units = np.array(obs["units"])
    units[..., 1] = new[rows, units[..., 1]]
    out["units"] = units
    glob = np.array(g)
    for base in (3, 7, 11):
        glob[rows, base + new] = g[:, base : base + 4]
    out["globals"] = glob
    return out


#: The games' ``--opponent-order`` views besides 'seat' (the env's own).
OPPONENT_ORDERS: dict[str, dict[str, Callable[[Obs], Obs]]] = {
    "Crematoria-v0": {"score": crematoria_by_score}
}


def view(order: str, game: str, obs: Obs) -> Obs:
    """The observation as a network of ``--opponent-order order`` reads it."""
    return obs if order == "seat" else OPPONENT_ORDERS[game][order](obs)


def to_torch(obs: dict[str, np.ndarray]) -> tuple[torch.Tensor, ...]:
    """The vector env's observation dict (in the spec's order) -> the network's inputs.

    Bool tensors (masks) arrive as int8 0/1 (``jgym.tensors.MASK_DTYPE``).
    """
    return tuple(
        torch.from_numpy(np.asarray(x).astype(bool))
        if np.asarray(x).dtype == MASK_DTYPE
        else torch.from_numpy(np.array(x))  # copies: the env's arrays are read-only
        for x in obs.values()
    )


def load_agent(path: str | Path, num_slots: int | None = None) -> BoardNet:
    """Loads a checkpoint.pt written by this script, in eval mode."""
    ck = torch.load(path, weights_only=True)
    spaces = Spaces.from_dict(ck["spaces"]) if "spaces" in ck else CREMATORIA_SPACES
    if num_slots is not None and num_slots != spaces.num_slots:
        raise ValueError(f"{path}: {spaces.num_slots} unit slots, not {num_slots}")
    agent = make_agent(spaces, ck["args"])
    agent.load_state_dict(ck["model"])
    return agent.eval()


def greedy(agent: BoardNet) -> Callable[[dict[str, np.ndarray]], Any]:
    """The deterministic policy the exported bot plays: argmax of the masked logits.

    With ``--command-order attacks_first`` it returns the action and its
    ``action_order`` (``{"action", "order"}``, for envs made with
    ``action_order=True``; ``jgym.evaluate`` reads the policy's
    ``action_order`` attribute).
    """

    @torch.inference_mode()
    def policy(obs: dict[str, np.ndarray]) -> Any:
        act = agent(*to_torch(view(agent.opponent_order, agent.spaces.game, obs))).argmax(-1)
        act = act.numpy().astype(np.int8)
        if agent.command_order == "slot":
            return act
        order = command_priorities(agent.spaces.game, agent.command_order, obs["units"], act)
        return {"action": act, "order": order}

    policy.__name__ = "ppo"
    # jgym.evaluate then opens its envs with action_order
    policy.action_order = agent.command_order != "slot"  # type: ignore[attr-defined]
    return policy


# --- export ---------------------------------------------------------------------

OPERATORS = (
    "Add, Cast, Concat, Constant, Conv, Gather, GatherElements, Gemm, MatMul, Mul, "
    "ReduceMean, Relu, Reshape, Slice, Transpose, Unsqueeze, Where"
)


def preprocessing(agent: BoardNet) -> str:
    """The one-paragraph summary of the graph's preprocessing (metadata)."""
    sp, game = agent.spaces, agent.game
    ins = ", ".join(f"{n} {dt}[B,{','.join(map(str, s))}]" for n, dt, s in sp.inputs)
    planes = "; ".join(f"plane {i}: {p}" for i, p in enumerate(game.planes))
    extra = [sp.inputs[i][0] for i in agent.i_extra]
    return (
        f"inputs are the raw {sp.version} tensors of one seat, batch first: {ins}. "
        f"Inside the graph: board {planes}; code embeddings and the linear maps are summed per "
        f"cell. Columns {'wrap around' if game.wrap else 'are zero-padded'}. Units are cast to "
        + (
            f"float, their cell index is units[...,{game.row}]*{agent.cols}+units[...,{game.col}] "
            "(a MatMul with a constant)"
            if isinstance(agent, Agent)
            else f"float; each unit's row units[...,{game.row}] and column units[...,{game.col}] "
            f"index constant tables of the {agent.crop}x{agent.crop} cells and "
            f"{agent.blocks}x{agent.blocks} blocks of {agent.block}x{agent.block} cells around it"
        )
        + ", their features are scaled by "
        f"({','.join(f'{s:g}' for s in game.unit_scale)})"
        + (f"; {', '.join(extra)} are features of their slot" if extra else "")
        + f". Output: logits float32[B,U,{sp.num_actions}], -1e9 where {game.mask} is false. "
        "Decision: argmax per owned slot (first on ties); commands in slot order, None "
        "not issued."
    )


def export_onnx(agent: BoardNet, path: str | Path, args: Args | None = None) -> None:
    """Writes the actor as ONNX (opset 17) with the metadata Go and C++ check.

    Every observation tensor of the spec is an input, in the spec's order,
    with its name and dtype; the output is ``logits`` [B, U, A].
    """
    import onnx

    sp = agent.spaces
    dt = {"uint8": torch.uint8, "float32": torch.float32, "bool": torch.bool}
    sample = tuple(
        (torch.ones if d == "bool" else torch.zeros)(1, *s, dtype=dt[d]) for _, d, s in sp.inputs
    )
    names = [n for n, _, _ in sp.inputs]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    was_training = agent.training
    agent.eval()
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
    agent.train(was_training)
    model = onnx.load(str(path))
    got = [i.name for i in model.graph.input]
    if got != names:
        raise RuntimeError(f"exported inputs {got}, want {names} (an unused input was dropped)")
    game = agent.game
    meta = {
        "observation_version": sp.version,
        "game": sp.game,
        "num_slots": str(agent.num_slots),
        "action_order": agent.command_order,
        **({"opponent_order": agent.opponent_order} if agent.opponent_order != "seat" else {}),
        "preprocessing": preprocessing(agent),
        "operators": OPERATORS,
        "network": json.dumps(
            {
                "net": agent.net,
                "channels": agent.channels,
                **(
                    {"coarse": agent.coarse, "dilations": list(agent.dilations)}
                    if isinstance(agent, Agent)
                    else {"crop": agent.crop, "block": agent.block, "blocks": agent.blocks}
                ),
                "planes": [dataclasses.asdict(p) for p in game.planes],
                "unit_scale": list(game.unit_scale),
                "row": game.row,
                "col": game.col,
                "wrap": game.wrap,
            }
        ),
    }
    if args is not None:
        # How the run was invoked (--resume) is not part of what was trained:
        # a resumed run that trains no further exports the same file.
        trained = {k: v for k, v in dataclasses.asdict(args).items() if k != "resume"}
        meta["train_args"] = json.dumps(trained)
    onnx.helper.set_model_props(model, meta)
    model.producer_name = "jgym train_ppo.py"
    onnx.save(model, str(path))


# --- per-unit rewards -----------------------------------------------------------

DI = np.array([1, 1, 0, -1, -1, -1, 0, 1, 0, 0, 0])
DJ = np.array([0, 1, 1, 1, 0, -1, -1, -1, 0, 0, 0])
DK = np.array([0, 0, 0, 0, 0, 0, 0, 0, 1, -1, 0])


def unit_rewards(
    board: np.ndarray,
    units: np.ndarray,
    action: np.ndarray,
    after: np.ndarray,
    *,
    gem_value: float,
    capture: float,
    steal: float = 0.0,
    lost: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Credits each of my units with what its own move earned this round.

    A Pioneer that steps onto a cave I do not own earns 1 (the cell), plus
    ``steal`` when another group owned it, onto a gem ``gem_value``; a
    Furyan whose attack captures the unit it targeted earns ``capture``; a
    unit that another group gets (it died: captured, or reborn in a group
    drawn at random) loses ``lost``. The rest of the score change (cells
    lost to others) is nobody's doing and goes unrewarded.

    Args:
        board: The board before the round, [N,3,40,80].
        units: The units before the round, [N,U,8].
        action: The directions played, [N,U].
        after: The units tensor after the round (the final one for ended games).
        gem_value: Reward of a gem.
        capture: Reward of a capture.
        steal: Extra reward of a cell taken from another group.
        lost: Penalty of a unit lost to another group.

    Returns:
        The rewards [N,U] and whether each slot is still mine after the round.
    """
    n, u = action.shape
    mine = units[..., 0] == 1
    mine_after = after[..., 0] == 1
    env = np.arange(n)[:, None].repeat(u, 1)
    r = np.zeros((n, u), dtype=np.float32)
    # Pioneers: the code, before the round, of the cell they are on after it.
    row, col, lvl = (
        after[..., 4].astype(np.int64),
        after[..., 5].astype(np.int64),
        after[..., 6].astype(np.int64),
    )
    moved = (
        mine
        & mine_after
        & (units[..., 2] == 0)
        & ((row != units[..., 4]) | (col != units[..., 5]) | (lvl != units[..., 6]))
    )
    terrain = board[env, lvl, row, col] & 7
    conquered = moved & (lvl == 0) & ((terrain == 1) | (terrain >= 4))
    gem = moved & (lvl == 1) & (terrain == 1)
    r += conquered + gem_value * gem + steal * (conquered & (terrain >= 4))
    r -= lost * (mine & ~mine_after)
    # Furyans: the slot on the targeted cell before the round, captured after it.
    at = np.full((n, 2, ROWS, COLS), -1, dtype=np.int64)
    at[env, units[..., 6], units[..., 4], units[..., 5]] = np.arange(u)[None, :]
    a = action.astype(np.int64)
    ti = units[..., 4] + DI[a]
    tj = (units[..., 5].astype(np.int64) + DJ[a]) % COLS
    tk = units[..., 6] + DK[a]
    ok = mine & (units[..., 2] == 1) & (a < 10) & (ti >= 0) & (ti < ROWS) & (tk >= 0) & (tk < 2)
    target = np.where(ok, at[env, np.clip(tk, 0, 1), np.clip(ti, 0, ROWS - 1), tj], -1)
    hit = target >= 0
    tgt = np.clip(target, 0, u - 1)
    captured = hit & ~mine[env, tgt] & mine_after[env, tgt]
    r += capture * captured
    return r, mine_after


Obs = dict[str, np.ndarray]

# Row and column steps of the directions Bottom, BR, Right, RT, Top, TL,
# Left, LB, None (Dominator, Moria) and Bottom, Right, Top, Left, None
# (Pandemic).
DI8 = np.array([1, 1, 0, -1, -1, -1, 0, 1, 0])
DJ8 = np.array([0, 1, 1, 1, 0, -1, -1, -1, 0])
DI4 = np.array([1, 0, -1, 0, 0])
DJ4 = np.array([0, 1, 0, -1, 0])


def crematoria_credit(
    before: Obs, action: np.ndarray, after: Obs, args: Args
) -> tuple[np.ndarray, np.ndarray]:
    """Crematoria's per-unit credit (``unit_rewards``) from the observation before the round."""
    return unit_rewards(
        before["board"],
        before["units"],
        action,
        after["units"],
        gem_value=args.gem_value,
        capture=args.capture_reward,
        steal=args.steal_reward,
        lost=args.loss_penalty,
    )


def captured(
    units: np.ndarray,
    after: np.ndarray,
    action: np.ndarray,
    *,
    attacker: np.ndarray,
    di: np.ndarray,
    dj: np.ndarray,
    game: Game,
    shape: tuple[int, int],
    on_board: np.ndarray | None = None,
) -> np.ndarray:
    """Which of my ``attacker`` slots moved onto a rival unit that is mine after the round.

    Args:
        units: The units before the round, [N,U,F].
        after: The units after it.
        action: The directions played, [N,U].
        attacker: The slots that may capture (mine, of the right type), [N,U].
        di: Row step of each direction.
        dj: Column step of each direction.
        game: The game's description (the row and column features).
        shape: The board's rows and columns.
        on_board: The slots on the board (default: all).
    """
    n, u = action.shape
    rows, cols = shape
    env = np.arange(n)[:, None].repeat(u, 1)
    row, col = units[..., game.row].astype(np.int64), units[..., game.col].astype(np.int64)
    here = np.ones((n, u), bool) if on_board is None else on_board
    at = np.full((n, rows, cols), -1, dtype=np.int64)
    at[env[here], row[here], col[here]] = np.nonzero(here)[1]
    a = action.astype(np.int64)
    ti, tj = row + di[a], col + dj[a]
    ok = attacker & here & ((di[a] != 0) | (dj[a] != 0))
    ok &= (ti >= 0) & (ti < rows) & (tj >= 0) & (tj < cols)
    target = np.where(ok, at[env, ti.clip(0, rows - 1), tj.clip(0, cols - 1)], -1)
    tgt = target.clip(0, u - 1)
    mine = units[..., 0] == 1
    return (target >= 0) & ~mine[env, tgt] & (after[..., 0] == 1)[env, tgt]


def dominator_credit(
    before: Obs, action: np.ndarray, after: Obs, args: Args
) -> tuple[np.ndarray, np.ndarray]:
    """Dominator: a farmer earns 1 for a cell it paints that was not mine.

    A knight earns ``--capture-reward`` for a rival unit it attacked that
    is mine after the round (captured). Witches earn nothing here.
    """
    board, units, au = before["board"], before["units"], after["units"]
    n, u = action.shape
    env = np.arange(n)[:, None].repeat(u, 1)
    mine, mine_after = units[..., 0] == 1, au[..., 0] == 1
    row, col = au[..., 4].astype(np.int64), au[..., 5].astype(np.int64)
    moved = mine & mine_after & (au[..., 6] == 1) & (units[..., 6] == 1)
    moved &= (row != units[..., 4]) | (col != units[..., 5])
    painted = moved & (units[..., 2] == 0) & (board[env, 1, row, col] != 1)
    game = GAMES["Dominator-v0"]
    knight = mine & (units[..., 2] == 1)
    cap = captured(
        units,
        au,
        action,
        attacker=knight,
        di=DI8,
        dj=DJ8,
        game=game,
        shape=board.shape[2:],
        on_board=units[..., 6] == 1,
    )
    return painted + args.capture_reward * cap, mine_after


def moria_credit(
    before: Obs, action: np.ndarray, after: Obs, args: Args
) -> tuple[np.ndarray, np.ndarray]:
    """Moria: a dwarf earns 1 for a cave it conquers, the treasure's value for a treasure.

    A dwarf also earns ``--capture-reward`` for a rival dwarf or wizard it
    attacked that is mine after the round (captured). Wizards earn
    nothing here.
    """
    board, units, au = before["board"], before["units"], after["units"]
    n, u = action.shape
    env = np.arange(n)[:, None].repeat(u, 1)
    mine, mine_after = units[..., 0] == 1, au[..., 0] == 1
    row, col = au[..., 4].astype(np.int64), au[..., 5].astype(np.int64)
    dwarf = mine & (units[..., 2] == 0)
    moved = dwarf & mine_after & ((row != units[..., 4]) | (col != units[..., 5]))
    cave = moved & (board[env, 0, row, col] == 1)
    conquered = cave & (board[env, 1, row, col] != 1)
    treasure = cave & (board[env, 2, row, col] == 1)
    value = before["globals"][:, 22:23] * 10  # treasure_value / 10
    game = GAMES["Moria-v0"]
    cap = captured(
        units, au, action, attacker=dwarf, di=DI8, dj=DJ8, game=game, shape=board.shape[2:]
    )
    return conquered + value * treasure + args.capture_reward * cap, mine_after


class Regions:
    """Pandemic's cities and paths: 4-connected cells of one type, labelled per board.

    The terrain never changes during a game, so each env's labels are kept
    until its terrain plane does.
    """

    def __init__(self) -> None:
        self.cache: dict[int, tuple[bytes, np.ndarray, np.ndarray]] = {}

    def __call__(self, i: int, terrain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The region of every cell (-1 outside cities and paths) and each region's size."""
        key = terrain.tobytes()
        hit = self.cache.get(i)
        if hit is None or hit[0] != key:
            hit = (key, *self.label(terrain))
            self.cache[i] = hit
        return hit[1], hit[2]

    @staticmethod
    def label(terrain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Labels the cities (terrain 2) and paths (3) by propagating the least cell index."""
        rows, cols = terrain.shape
        big = rows * cols
        t = terrain.astype(np.int64)
        lab = np.where(t >= 2, np.arange(big).reshape(rows, cols), big)
        while True:
            new = lab.copy()
            for axis, step in ((0, 1), (0, -1), (1, 1), (1, -1)):
                nb = np.roll(lab, step, axis)
                same = np.roll(t, step, axis) == t
                if axis == 0:
                    same[0 if step == 1 else -1, :] = False
                else:
                    same[:, 0 if step == 1 else -1] = False
                new = np.where(same & (t >= 2), np.minimum(new, nb), new)
            if np.array_equal(new, lab):
                break
            lab = new
        ids, inv = np.unique(lab, return_inverse=True)
        inv = inv.reshape(rows, cols)
        sizes = np.bincount(inv.ravel())
        if ids[-1] == big:  # the cells of no region
            inv = np.where(lab == big, -1, inv)
        return inv, sizes


REGIONS = Regions()


def pandemic_credit(
    before: Obs, action: np.ndarray, after: Obs, args: Args
) -> tuple[np.ndarray, np.ndarray]:
    """Pandemic: each city or path I own after the round pays its size to my units in it.

    That is the round's score without the connected-components bonus,
    split equally among the units standing in each owned region (a region
    held with none of my units in it pays nobody). A unit also earns
    ``--capture-reward`` for a rival unit it attacked that is mine after
    the round (captured).
    """
    units, au, board = before["units"], after["units"], after["board"]
    n, u = action.shape
    mine, mine_after = units[..., 0] == 1, au[..., 0] == 1
    r = np.zeros((n, u), dtype=np.float32)
    row, col = au[..., 3].astype(np.int64), au[..., 4].astype(np.int64)
    for i in range(n):
        lab, size = REGIONS(i, board[i, 0])
        reg = lab[row[i], col[i]]
        held = mine_after[i] & (reg >= 0) & (board[i, 4, row[i], col[i]] == 1)
        count = np.bincount(reg[held], minlength=len(size))
        r[i, held] = size[reg[held]] / count[reg[held]]
    game = GAMES["Pandemic-v0"]
    shape = before["board"].shape[2:]
    cap = captured(units, au, action, attacker=mine, di=DI4, dj=DJ4, game=game, shape=shape)
    return r + args.capture_reward * cap, mine_after


#: Per-unit credit (``--credit units``) by game: (observation before the
#: round, action, observation after it, args) -> (rewards [N,U], whether
#: each slot is still mine after the round).
UNIT_CREDIT: dict[str, Callable[..., tuple[np.ndarray, np.ndarray]]] = {
    "Crematoria-v0": crematoria_credit,
    "Dominator-v0": dominator_credit,
    "Pandemic-v0": pandemic_credit,
    "Moria-v0": moria_credit,
}


def crematoria_attacks(units: np.ndarray, action: np.ndarray) -> np.ndarray:
    """Which moves [N, U] attack another player's unit (``crematoria.Attacks`` in Go).

    A Furyan of mine whose move's target cell (columns wrapping, Up and
    Down changing the level) holds, at the start of the round, a Pioneer or
    a Furyan (a unit slot) of another player.
    """
    units = np.asarray(units).astype(np.int64)
    n, u = action.shape
    env = np.arange(n)[:, None].repeat(u, 1)
    at = np.full((n, 2, ROWS, COLS), -1, dtype=np.int64)
    alive = units[..., 3] > 0
    at[env[alive], units[..., 6][alive], units[..., 4][alive], units[..., 5][alive]] = np.nonzero(
        alive
    )[1]
    a = action.astype(np.int64)
    ti, tk = units[..., 4] + DI[a], units[..., 6] + DK[a]
    tj = (units[..., 5] + DJ[a]) % COLS
    furyan = (units[..., 0] == 1) & (units[..., 2] == 1) & (a < NONE)
    ok = furyan & (ti >= 0) & (ti < ROWS) & (tk >= 0) & (tk < 2)
    target = np.where(ok, at[env, tk.clip(0, 1), ti.clip(0, ROWS - 1), tj], -1)
    return (target >= 0) & (units[env, target.clip(0, u - 1), 0] != 1)


#: ``--command-order attacks_first`` by game: (units [N,U,F], action [N,U])
#: -> the moves that attack another player's unit; they are issued first.
ATTACKS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "Crematoria-v0": crematoria_attacks,
}


def command_priorities(game: str, order: str, units: np.ndarray, action: np.ndarray) -> np.ndarray:
    """The ``action_order`` tensor [N, U] (int16) of ``--command-order`` for these moves."""
    if order == "slot":
        return np.zeros(action.shape, dtype=np.int16)
    return np.where(ATTACKS[game](units, action), 0, 1).astype(np.int16)


class RewardNorm:
    """Divides rewards by a running standard deviation of the discounted return.

    Gymnasium's ``NormalizeReward``, batched: the reward keeps its sign and
    its proportions within the run (it is still the env's reward), only its
    scale is learned; the result is clipped to ``[-clip, clip]``.
    """

    def __init__(self, n: int, gamma: float, clip: float = 10.0) -> None:
        self.ret = np.zeros(n)
        self.gamma, self.clip = gamma, clip
        self.count, self.mean, self.var = 1e-4, 0.0, 1.0

    def __call__(self, r: np.ndarray, done: np.ndarray) -> np.ndarray:
        """The normalized rewards [N] of one step; done [N] ends the returns."""
        self.ret = self.ret * self.gamma + r
        m, v, k = self.ret.mean(), self.ret.var(), len(self.ret)
        d, tot = m - self.mean, self.count + k
        self.var = (self.var * self.count + v * k + d * d * self.count * k / tot) / tot
        self.mean, self.count = self.mean + d * k / tot, tot
        self.ret[done] = 0.0
        return np.clip(r / np.sqrt(self.var + 1e-8), -self.clip, self.clip)


# --- environments -------------------------------------------------------------


class Envs:
    """The vector envs of all opponent sets, stepped together as one batch.

    Without a league each set has fixed opponents (``--opponents``) and
    shuffled seats. With one (``--league``) there are ``--league-sets``
    sets, each seated by ``League.lineup`` (three opponents drawn by PFSP,
    the learner's seat drawn), every finished game is recorded in the
    league, and a set whose games all ended is seated anew.

    The sets form lanes (``--pipeline``: two, each about half the games;
    one opponent set is then split in two): the trainer sends one lane's
    actions (:meth:`send`), and while those games step in the server it
    reads the other lane's observations; :meth:`receive` waits for a lane.
    """

    def __init__(
        self,
        args: Args,
        snapshot: str | None,
        league: jgym.league.League | None = None,
        restart: dict[str, Any] | None = None,
    ) -> None:
        self.args, self.league = args, league
        if league is not None:
            k = max(1, min(args.league_sets, args.num_envs))
            self.sets: list[tuple[str, ...]] = [()] * k
        else:
            self.sets = [tuple(s.strip() for s in x.split(",")) for x in args.opponents.split(";")]
            for s in self.sets:
                if len(s) != 3:
                    raise SystemExit(f"--opponents: {s} is not three seats")
            if args.pipeline and len(self.sets) == 1 and args.num_envs >= 2:
                self.sets *= 2  # two lanes of the same opponents
            k = len(self.sets)
        self.sizes = [args.num_envs // k + (i < args.num_envs % k) for i in range(k)]
        # The lanes: sets 0..h-1 and h..k-1 (their rows follow each other).
        h = (k + 1) // 2 if args.pipeline and k >= 2 else k
        self.lanes = [range(0, h), range(h, k)] if h < k else [range(k)]
        starts = np.cumsum([0, *self.sizes])
        self.lane_rows = [(int(starts[r.start]), int(starts[r.stop])) for r in self.lanes]
        self.envs: list[Any] = [None] * k
        self.obs: list[dict[str, np.ndarray]] = [{}] * k
        self.seat: list[np.ndarray] = [np.zeros(0)] * k  # the learner's seat in each game
        self.tables: list[list[str | None]] = [[] for _ in range(k)]  # league: the seats
        self.games = [0] * k
        self.next_seed = TRAIN_SEED0 + args.seed * 10_000_000
        if restart:  # a resumed run plays new seeds
            games = [int(g) for g in restart["games"]][:k]
            self.games = games + [0] * (k - len(games))
            self.next_seed = int(restart["next_seed"])
        for i in range(k):
            self._open(i, snapshot)
        self.spaces = Spaces.of(self.envs[0].spec_proto)

    def _seats(self, i: int, snapshot: str | None) -> tuple[str, ...]:
        return tuple(
            (f"policy:{snapshot}" if snapshot else "Demo") if s == "self" else s
            for s in self.sets[i]
        )

    def _open(self, i: int, snapshot: str | None) -> None:
        a = self.args
        if self.envs[i] is not None:
            self.envs[i].close()
        if self.league is not None:
            self.tables[i], _ = self.league.lineup()
            seating: dict[str, Any] = {"seats": self.tables[i], "shuffle_seats": False}
            seed = self.next_seed
            self.next_seed += self.sizes[i]
        else:
            seating = {"opponents": self._seats(i, snapshot), "shuffle_seats": a.shuffle_seats}
            # Disjoint seed ranges per set and per reopening.
            seed = TRAIN_SEED0 + a.seed * 10_000_000 + i * 1_000_000 + self.games[i]
            self.games[i] += 10_000
        self.envs[i] = jgym.make_vec(
            a.game,
            num_envs=self.sizes[i],
            **seating,
            reward_mode=a.reward_mode,
            autoreset_mode="SameStep",
            address=a.address or None,
            config=Path(a.config).read_text() if a.config else "",
            action_order=a.command_order != "slot",
        )
        self.obs[i], info = self.envs[i].reset(seed=seed)
        self.seat[i] = np.array(info["seat"])

    def reload(self, snapshot: str) -> None:
        """Re-seats the 'self' opponents with a new snapshot (starts new games there)."""
        for i, s in enumerate(self.sets):
            if "self" in s:
                self._open(i, snapshot)

    def reset_obs(self) -> dict[str, np.ndarray]:
        """The current observation of all envs, concatenated."""
        return self.concat(range(len(self.envs)))

    def lane_obs(self, lane: int) -> dict[str, np.ndarray]:
        """The current observation of a lane's envs, concatenated."""
        return self.concat(self.lanes[lane])

    def concat(self, sets: range) -> dict[str, np.ndarray]:
        """The current observation of these sets' envs, concatenated."""
        obs = [self.obs[i] for i in sets]
        return {k: np.concatenate([o[k] for o in obs]) for k in obs[0]}

    def send(self, lane: int, actions: np.ndarray) -> None:
        """Sends the actions of a lane's games (its rows) without waiting."""
        lo, a = 0, self.args
        for i in self.lanes[lane]:
            env, obs, n = self.envs[i], self.obs[i], self.sizes[i]
            act = actions[lo : lo + n]
            if a.command_order != "slot":
                order = command_priorities(a.game, a.command_order, obs["units"], act)
                env.step_async({"action": act, "order": order})
            else:
                env.step_async(act)
            lo += n

    def receive(self, lane: int):
        """Waits for a lane's games after :meth:`send`.

        Returns the lane's next observation, the env reward, done, the
        observation after the round (the final one of games that ended) and
        the final scores of ended games as (set, scores, learner seat).
        """
        rewards, dones, afters, finals = [], [], [], []
        for i in self.lanes[lane]:
            env = self.envs[i]
            obs, r, term, trunc, info = env.step_wait()
            self.obs[i] = obs
            rewards.append(r)
            dones.append(term | trunc)
            after = {k: np.array(x) for k, x in obs.items()}
            ended = np.zeros(len(r), bool)
            if "final_info" in info:
                for row in np.flatnonzero(info["_final_obs"]):
                    for k, x in after.items():
                        x[row] = info["final_obs"][row][k]
                    # info["seat"] is already the new game's: use the last step's.
                    sc, seat = info["final_info"]["scores"][row], int(self.seat[i][row])
                    finals.append((i, sc, seat))
                    ended[row] = True
                    if self.league is not None:
                        self.league.record(self.tables[i], [int(x) for x in sc], seat)
            afters.append(after)
            self.seat[i] = np.array(info["seat"])
            if self.league is not None and ended.all():
                self._open(i, None)  # a new table for the next games
        return (
            self.lane_obs(lane),
            np.concatenate(rewards),
            np.concatenate(dones),
            {k: np.concatenate([a[k] for a in afters]) for k in afters[0]},
            finals,
        )

    def close(self) -> None:
        """Closes every vector env."""
        for env in self.envs:
            env.close()


# --- training -----------------------------------------------------------------


class Phases:
    """Wall-clock seconds spent in each phase of training (benchmarks/bench_trainer.py).

    ``with phases("env"): ...`` adds the block's time to ``env``. The
    phases: ``env`` (stepping the games: the server's work and the
    transfer), ``policy`` (the forward pass and sampling of the rollout),
    ``credit`` (rewards: per-unit credit or the env's reward, normalized),
    ``buffers`` (numpy to torch, rollout buffers, bookkeeping of finished
    games), ``gae`` (values of the last step and advantages), ``update``
    (the PPO epochs), ``eval`` (periodic evaluations and snapshots).
    """

    NAMES = ("env", "policy", "credit", "buffers", "gae", "update", "eval")

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(self.NAMES, 0.0)
        self._name = ""
        self._t = 0.0

    def __call__(self, name: str) -> Phases:
        """Names the phase that the next ``with`` block times."""
        self._name = name
        return self

    def __enter__(self) -> None:
        self._t = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.seconds[self._name] += time.perf_counter() - self._t

    def summary(self, steps: int) -> dict[str, Any]:
        """Seconds per phase, their share, and env-steps/s without the evaluations."""
        total = sum(self.seconds.values())
        train = total - self.seconds["eval"]
        return {
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "share": {k: round(v / total, 4) if total else 0.0 for k, v in self.seconds.items()},
            "steps_per_second_without_eval": steps / train if train else 0.0,
        }


def set_bf16(agent: BoardNet, on: bool) -> None:
    """--bf16: the local network's per-slot MLP in bfloat16 (training only).

    Warns where the CPU does not multiply bfloat16 natively.
    """
    if on and not isinstance(agent, LocalAgent):
        raise SystemExit("--bf16: only with --net local")
    if on and not cpu_has_bf16():
        print(
            "warning: --bf16 on a CPU without AVX512-BF16 or AMX-BF16 (per /proc/cpuinfo): "
            "bfloat16 products are emulated there, several times slower"
        )
    agent.bf16 = on


def cpu_has_bf16() -> bool:
    """Whether the CPU multiplies bfloat16 natively (Linux: the flags of /proc/cpuinfo).

    Elsewhere (no /proc/cpuinfo) it answers True: nothing is known.
    """
    try:
        flags = Path("/proc/cpuinfo").read_text().split()
    except OSError:
        return True
    return "avx512_bf16" in flags or "amx_bf16" in flags


def keep_freed_memory() -> bool:
    """Lets glibc's malloc keep the large blocks PyTorch frees, to reuse them.

    By default glibc returns every block above 128 KiB (up to 32 MiB as it
    adapts) to the system when it is freed, so each large temporary tensor
    of a training step comes back as fresh pages that the kernel must fault
    in and zero (benchmarks/RESULTS.md, "Every game at 2,000 env-steps/s",
    measures the training step with and without it). Raising the mmap and
    trim thresholds keeps the freed memory in the heap for the next
    minibatch: the process keeps the memory of its largest step rather than
    returning it in between. Returns whether it applied (glibc only;
    elsewhere nothing changes).
    """
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # <malloc.h>
    return bool(mallopt(m_mmap_threshold, 1 << 30)) and bool(mallopt(m_trim_threshold, 1 << 30))


def main(args: Args) -> dict[str, Any]:
    """Trains, exports, evaluates; returns the summary."""
    from torch.utils.tensorboard import SummaryWriter
    from tqdm import tqdm

    keep_freed_memory()
    args.game = game_id(args.game)
    if not args.exp_name:
        args.exp_name = f"{args.game.split('-v')[0].lower()}_ppo"
    slot_credit = args.slot_credit
    if slot_credit and args.game not in UNIT_CREDIT:
        raise SystemExit(f"--credit units: no per-unit credit for {args.game}")
    run_name = args.run_name or f"{args.exp_name}__{args.seed}__{int(time.time())}"
    run = Path(args.run_dir) / run_name
    resumed = load_resume(run) if args.resume else None
    if resumed:
        adopt_network(args, resumed["args"], "--resume", order=True)
    elif args.init:
        init_args = torch.load(args.init, weights_only=True)["args"]
        adopt_network(args, init_args, f"--init {args.init}", order=False)
    run.mkdir(parents=True, exist_ok=True)
    writer = SummaryWriter(str(run))
    writer.add_text("args", "\n".join(f"{k}: {v}" for k, v in dataclasses.asdict(args).items()))
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    # Reproducible: budgeted by --total-timesteps (no --time-budget), the same
    # seed and --threads give the same policy whatever the machine's load.
    # Every step is synchronous (act, step all envs, then learn); the games'
    # seeds and seats come from --seed; PyTorch's CPU kernels split work by
    # thread count, not by timing.
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)

    league = make_league(args, resumed)
    envs = Envs(args, snapshot=None, league=league, restart=resumed and resumed["envs"])
    obs = envs.reset_obs()
    spaces = envs.spaces
    n, u = args.num_envs, spaces.num_slots
    agent = make_agent(spaces, dataclasses.asdict(args))
    set_bf16(agent, args.bf16)

    def see(obs: Obs) -> Obs:  # the observation as the network reads it (--opponent-order)
        return view(agent.opponent_order, spaces.game, obs)

    if args.init and not resumed:
        agent.load_state_dict(torch.load(args.init, weights_only=True)["model"])
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    if resumed:
        agent.load_state_dict(resumed["model"])
        optimizer.load_state_dict(resumed["optimizer"])
    check_codes(agent, obs)

    T = args.num_steps  # noqa: N806
    names = [name for name, _, _ in spaces.inputs]
    dtypes = {"uint8": torch.uint8, "float32": torch.float32, "bool": torch.bool}
    bufs = [torch.zeros((T, n, *s), dtype=dtypes[d]) for _, d, s in spaces.inputs]
    buf_act = torch.zeros((T, n, u), dtype=torch.long)
    i_board = names.index("board")
    buf_pre: torch.Tensor | None = None  # the network's block_inputs of each observation
    buf_logp = torch.zeros((T, n, u))
    # Credit "units": each of my units is an agent with its own reward,
    # value and advantage (shared weights); a slot's "episode" ends when
    # the unit stops being mine (killed, captured) or the game ends.
    # Credit "team": the seat's reward and value; its units share the
    # advantage.
    per = (T, n, u) if slot_credit else (T, n)
    buf_rew = torch.zeros(per)
    buf_done = torch.zeros(per)  # the (slot's) episode ends with step t
    buf_val = torch.zeros(per)
    norm = RewardNorm(n, args.gamma) if args.norm_reward and not slot_credit else None

    history: dict[str, list] = {"games": [], "evals": [], "updates": [], "ratings": []}
    phases = Phases()
    num_updates = max(1, args.total_timesteps // args.batch_size)
    step, t0, first_update = 0, time.time(), 1
    if resumed:
        history.update(resumed["history"])
        step, first_update = resumed["step"], resumed["update"] + 1
        set_rng_state(resumed["rng"])
        # The time budget counts the earlier invocations' seconds (a checkpoint
        # written before they were kept counts none).
        t0 -= float(resumed.get("seconds", 0.0))
        print(
            f"resuming {run} at update {first_update - 1}, step {step}, "
            f"after {time.time() - t0:.0f} s of training"
        )
    # The steps and seconds of this invocation are step - step_start and
    # time.time() - t_start (t0 also counts the resumed run's earlier ones).
    step_start, t_start = step, time.time()
    lanes = envs.lane_rows  # each lane's rows
    lane_obs = [to_torch(see(envs.lane_obs(j))) for j in range(len(lanes))]
    # With a time budget the bar counts seconds (its end is the budget's),
    # else environment steps (tqdm shows steps/s and the ETA).
    timed = args.time_budget > 0
    bar = tqdm(
        total=round(args.time_budget) if timed else num_updates * args.batch_size,
        initial=min(round(time.time() - t0), round(args.time_budget)) if timed else step,
        unit="s" if timed else "step",
        unit_scale=not timed,
        disable=not args.progress,
        dynamic_ncols=True,
    )
    # The bar's "greedy" is the last evaluation's win rate of the greedy
    # policy (what the final evaluation judges); "train" is the win rate of
    # the sampled policy in the last training games.
    greedy_win = "-"
    snapshot_dir = run / "snapshots"
    recent: list[tuple[float, bool]] = []

    def evaluate_now(games: int, tag: str) -> dict[str, Any]:
        r = jgym.evaluate(
            greedy(agent),
            opponents=args.eval_opponents.split(","),
            n_games=games,
            seed0=args.eval_seed,
            game=args.game,
            address=args.address or None,
            config=Path(args.config).read_text() if args.config else "",
            verbose=False,
        )
        s = {"step": step, "time": time.time() - t0, **r.summary()}
        history["evals"].append(s)
        writer.add_scalar("eval/win_rate", s["win_rate"], step)
        writer.add_scalar("eval/mean_score", s["mean_score"], step)
        writer.add_scalar("eval/mean_rank", s["mean_rank"], step)
        bar.write(f"[{tag}] step {step}: {r}")
        return s

    def save_checkpoint() -> None:
        # Written to a temporary file first: an interrupted write leaves
        # the previous checkpoint whole (--resume reads it).
        tmp = run / "checkpoint.pt.tmp"
        torch.save(
            {
                "model": agent.state_dict(),
                "args": dataclasses.asdict(args),
                "spaces": spaces.to_dict(),
                "state": {
                    "optimizer": optimizer.state_dict(),
                    "step": step,
                    "update": done_updates,
                    # the wall seconds of training so far, all invocations
                    "seconds": time.time() - t0,
                    "league": json.dumps(league.state_dict()) if league else "",
                    "envs": {"games": list(envs.games), "next_seed": envs.next_seed},
                    "rng": rng_state(),
                },
            },
            tmp,
        )
        (run / "history.json").write_text(json.dumps(history, indent=1, default=float))
        tmp.replace(run / "checkpoint.pt")

    def rate_league() -> None:
        """TrueSkill ratings of the pool and the current learner (jgym tournament)."""
        assert league is not None
        path = snapshot_dir / f"learner_{done_updates:05d}.onnx"
        export_onnx(agent, path)
        got = league.rate(
            [("learner", f"policy:{path.resolve()}")],
            game=args.game,
            games=args.rate_games,
            config=args.config,
        )
        path.unlink()
        history["ratings"].append({"step": step, "ratings": got})
        for name, r in got.items():
            writer.add_scalar(f"league/rating/{name}", r["mu"], step)
        top = sorted(got.items(), key=lambda kv: -kv[1]["mu"])
        bar.write(
            f"[ratings] step {step}: "
            + ", ".join(f"{k} {v['mu']:.1f}+-{2 * v['sigma']:.1f}" for k, v in top)
        )

    if league is not None and args.snapshot_every and not resumed:
        # The starting policy (a behaviour-cloned one, say) joins the pool.
        league.add_snapshot(export_snapshot(agent, snapshot_dir, 0), 0)

    done_updates = first_update - 1
    for update in range(first_update, num_updates + 1):
        if args.time_budget and time.time() - t0 > args.time_budget:
            bar.write(f"time budget reached after {done_updates} updates")
            break
        if args.anneal_lr:
            frac = 1.0 - (update - 1.0) / num_updates
            if args.time_budget:
                frac = min(frac, max(0.05, 1.0 - (time.time() - t0) / args.time_budget))
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate

        agent.eval()
        # A software pipeline over the lanes (Envs): at iteration t each lane
        # waits for its games' step t-1, then the policy reads its
        # observations and sends its step t, while the other lane's games
        # step in the server; the credit of step t-1 (every row) follows.
        for t in range(T + 1):
            received = []
            for j, (lo, hi) in enumerate(lanes):
                if t > 0:
                    with phases("env"):
                        received.append(envs.receive(j))
                    with phases("buffers"):
                        lane_obs[j] = to_torch(see(received[-1][0]))
                if t == T:
                    continue
                x = lane_obs[j]
                with phases("buffers"):
                    for buf, xi in zip(bufs, x, strict=True):
                        buf[t, lo:hi] = xi
                with phases("policy"), torch.inference_mode():
                    pre = agent.block_inputs(x[i_board])
                    logits, value = agent.heads(*x, pre=pre)
                    if pre is not None:  # kept for the update (the local network)
                        if buf_pre is None:
                            buf_pre = torch.zeros((T, n, *pre.shape[1:]))
                        buf_pre[t, lo:hi] = pre
                    action, buf_logp[t, lo:hi] = sample(logits)
                    buf_val[t, lo:hi], buf_act[t, lo:hi] = value, action
                with phases("env"):
                    envs.send(j, action.numpy().astype(np.int8))
            if t == 0:
                continue
            step += n
            _, rews, dones, afters, lane_finals = zip(*received, strict=True)
            env_rew, done = np.concatenate(rews), np.concatenate(dones)
            finals = [f for fs in lane_finals for f in fs]
            with phases("credit"):
                if slot_credit:
                    before = {k: b[t - 1].numpy() for k, b in zip(names, bufs, strict=True)}
                    after = {k: np.concatenate([a[k] for a in afters]) for k in afters[0]}
                    act = buf_act[t - 1].numpy().astype(np.int8)
                    r, mine_after = UNIT_CREDIT[args.game](before, act, after, args)
                    buf_rew[t - 1] = torch.from_numpy(r * args.reward_scale)
                    ended = (done[:, None] | ~mine_after).astype(np.float32)
                    buf_done[t - 1] = torch.from_numpy(ended)
                else:
                    r = env_rew.astype(np.float64) * args.reward_scale
                    r = norm(r, done) if norm else r
                    buf_rew[t - 1] = torch.from_numpy(r.astype(np.float32))
                    buf_done[t - 1] = torch.from_numpy(done.astype(np.float32))
            for i, sc, seat in finals:
                own = int(sc[seat])
                best = max(int(x) for j, x in enumerate(sc) if j != seat)
                win = own > best
                recent.append((own, win))
                history["games"].append(
                    {"step": step, "set": i, "score": own, "best_opponent": best, "win": win}
                )
                writer.add_scalar("charts/score", own, step)
                writer.add_scalar("charts/best_opponent_score", best, step)
                writer.add_scalar("charts/win", float(win), step)
        next_obs = tuple(torch.cat(xs) for xs in zip(*lane_obs, strict=True))
        if timed:
            bar.update(round(min(time.time() - t0, args.time_budget)) - bar.n)
        else:
            bar.update(T * n)

        # GAE per unit slot (or per seat); buf_done[t] says whether the
        # episode ends with step t.
        with phases("gae"), torch.inference_mode():
            next_value = agent.heads(*next_obs)[1]
            adv = torch.zeros_like(buf_rew)
            last = torch.zeros_like(buf_rew[0])
            for t in reversed(range(T)):
                nv = next_value if t == T - 1 else buf_val[t + 1]
                nonterminal = 1.0 - buf_done[t]
                delta = buf_rew[t] + args.gamma * nv * nonterminal - buf_val[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                adv[t] = last
            returns = adv + buf_val

        bs = args.batch_size
        flat = [b.reshape(bs, *b.shape[2:]) for b in bufs]
        f_act, f_logp = buf_act.reshape(bs, u), buf_logp.reshape(bs, u)
        f_adv, f_ret = adv.reshape(bs, *per[2:]), returns.reshape(bs, *per[2:])
        f_val = buf_val.reshape(bs, *per[2:])
        agent.train()
        with phases("update"):
            # What the network reads of the boards, once for every epoch: the
            # distinct cells, and the block counts' columns that are not zero.
            with torch.no_grad():
                cells = agent.read_cells(flat[i_board], flat[names.index("units")])
                columns, kept_pre = None, None
                if buf_pre is not None:
                    kept_pre = buf_pre.flatten(0, 1)
                    columns = kept_pre.flatten(0, 1).ne(0).any(0).nonzero().squeeze(1)
                    kept_pre = kept_pre[..., columns]
            mb = bs // args.num_minibatches
            clipfracs, approx_kl = [], torch.tensor(0.0)
            for _epoch in range(args.update_epochs):
                perm = torch.randperm(bs)
                for start in range(0, bs, mb):
                    idx = perm[start : start + mb]
                    # Only the slots that are mine: [N, A] logits, their actions etc.
                    pre = None if kept_pre is None else kept_pre[idx]
                    kept = None if cells is None else (cells[0], cells[1][idx])
                    logits, value, bi, ui = agent.packed(
                        *(f[idx] for f in flat), pre=pre, cells=kept, columns=columns
                    )
                    logp_all = F.log_softmax(logits, -1)
                    logp = logp_all.gather(-1, f_act[idx][bi, ui].unsqueeze(-1)).squeeze(-1)
                    count = max(len(bi), 1)

                    def mean(x: torch.Tensor, count=count) -> torch.Tensor:
                        return x.sum() / count  # over my units

                    entropy = mean(-(logp_all.exp() * logp_all).sum(-1))
                    logratio = logp - f_logp[idx][bi, ui]
                    ratio = logratio.exp()
                    with torch.no_grad():
                        approx_kl = mean((ratio - 1) - logratio)
                        clipfracs.append(
                            mean(((ratio - 1.0).abs() > args.clip_coef).float()).item()
                        )
                    # per slot, or the seat's advantage for each of its units
                    a = f_adv[idx][bi, ui] if slot_credit else f_adv[idx][bi]
                    if args.norm_adv:
                        mu = mean(a)
                        a = (a - mu) / (mean((a - mu) ** 2).sqrt() + 1e-8)
                    pg_loss = mean(
                        torch.max(
                            -a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                        )
                    )
                    # The value loss: over my units (per slot) or over the games (team).
                    vmean = mean if slot_credit else torch.mean
                    old, ret = f_val[idx], f_ret[idx]
                    if slot_credit:
                        old, ret = old[bi, ui], ret[bi, ui]
                    if args.clip_vloss:
                        v_clip = old + (value - old).clamp(-args.clip_coef, args.clip_coef)
                        v_loss = 0.5 * vmean(torch.max((value - ret) ** 2, (v_clip - ret) ** 2))
                    else:
                        v_loss = 0.5 * vmean((value - ret) ** 2)
                    if update <= args.value_warmup:
                        loss = args.vf_coef * v_loss
                    else:
                        loss = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                    optimizer.step()
                if args.target_kl and approx_kl > args.target_kl:
                    break

        done_updates = update
        sps = (step - step_start) / (time.time() - t_start)
        last_games = recent[-64:]
        stats = {
            "step": step,
            "time": time.time() - t0,
            "sps": sps,
            "pg_loss": pg_loss.item(),
            "v_loss": v_loss.item(),
            "entropy": entropy.item(),
            "approx_kl": approx_kl.item(),
            "clipfrac": float(np.mean(clipfracs)),
            "lr": optimizer.param_groups[0]["lr"],
            "score": float(np.mean([s for s, _ in last_games])) if last_games else float("nan"),
            "win_rate": float(np.mean([w for _, w in last_games])) if last_games else float("nan"),
        }
        history["updates"].append(stats)
        for k in ("pg_loss", "v_loss", "entropy", "approx_kl", "clipfrac"):
            writer.add_scalar(f"losses/{k}", stats[k], step)
        writer.add_scalar("charts/learning_rate", stats["lr"], step)
        writer.add_scalar("charts/SPS", sps, step)
        bar.set_postfix(
            greedy=greedy_win,
            train=f"{stats['win_rate']:.2f}",
            score=f"{stats['score']:.0f}",
            ent=f"{stats['entropy']:.2f}",
        )
        with phases("eval"):
            if args.snapshot_every and update % args.snapshot_every == 0:
                snap = export_snapshot(agent, snapshot_dir, update)
                if league is not None:
                    league.add_snapshot(snap, step, f"snap_{update}")
                else:
                    envs.reload(str(snap))
                    lane_obs = [to_torch(see(envs.lane_obs(j))) for j in range(len(lanes))]
            if league is not None:
                for m, w in zip(league.members, league.weights(), strict=True):
                    writer.add_scalar(f"league/learner_win_rate/{m.name}", m.win_rate, step)
                    writer.add_scalar(f"league/weight/{m.name}", w, step)
                if args.rate_every and update % args.rate_every == 0:
                    rate_league()
            if args.eval_every and update % args.eval_every == 0:
                e = evaluate_now(args.eval_games, "eval")
                greedy_win = f"{e['wins']}/{e['games']}"
                save_checkpoint()
    if league is not None and not (args.rate_every and done_updates % args.rate_every == 0):
        with phases("eval"):
            rate_league()
    bar.close()
    envs.close()
    train_time, this_time = time.time() - t0, time.time() - t_start

    save_checkpoint()
    onnx_path = run / "model.onnx"
    export_onnx(agent, onnx_path, args)
    if args.export:
        Path(args.export).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(onnx_path, args.export)
    final = evaluate_now(args.eval_final_games, "final") if args.eval_final_games else None
    summary = {
        "run": str(run),
        "game": args.game,
        "steps": step,
        "updates": done_updates,
        "train_seconds": train_time,
        "sps": (step - step_start) / this_time,
        "phases": phases.summary(step - step_start),
        "final_eval": final,
        "onnx": str(onnx_path),
    }
    if league is not None:
        summary["league"] = league.state_dict()["members"]
        summary["ratings"] = history["ratings"][-1]["ratings"] if history["ratings"] else {}
        print(league.table())
    history["summary"] = summary  # type: ignore[assignment]
    (run / "history.json").write_text(json.dumps(history, indent=1, default=float))
    plot_learning_curve(history, run / "learning_curve.png")
    writer.close()
    print(json.dumps(summary, default=float))
    return summary


def make_league(args: Args, resumed: dict[str, Any] | None) -> jgym.league.League | None:
    """The league of ``--league`` (restored when resuming), or None."""
    if not args.league:
        return None
    if resumed and resumed["league"]:
        return jgym.league.League.from_state_dict(json.loads(resumed["league"]))
    return jgym.league.League(
        args.league.split(","),
        max_snapshots=args.league_snapshots,
        weighting=args.league_weighting,
        anchor=args.league_anchor.split(",") if args.league_anchor else (),
        anchor_share=args.league_anchor_share,
        seed=args.seed,
    )


def export_snapshot(agent: BoardNet, directory: Path, update: int) -> Path:
    """Exports the current policy as ``DIR/update_NNNNN.onnx`` (absolute path)."""
    path = (directory / f"update_{update:05d}.onnx").resolve()
    export_onnx(agent, path)
    return path


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


def load_resume(run: Path) -> dict[str, Any]:
    """What ``--resume`` continues from: run/checkpoint.pt's weights and state, its history."""
    path = run / "checkpoint.pt"
    if not path.is_file():
        raise SystemExit(f"--resume: no {path} (give the --run-name of an earlier run)")
    ck = torch.load(path, weights_only=True)
    if "state" not in ck:
        raise SystemExit(f"--resume: {path} has no training state (an older checkpoint)")
    hist = run / "history.json"
    history = json.loads(hist.read_text()) if hist.is_file() else {}
    history.pop("summary", None)
    return {"model": ck["model"], "args": ck["args"], **ck["state"], "history": history}


#: The arguments that shape the network's weights (and the critic's, ``credit``).
NETWORK_FIELDS = ("net", "channels", "coarse", "hidden", "dilations", "crop", "block", "blocks")
#: Their values in checkpoints written before the field existed.
OLD_VALUES = {"net": "conv", "command_order": "slot", "opponent_order": "seat"}


def adopt_network(args: Any, saved: dict[str, Any], why: str, *, order: bool) -> None:
    """Takes the network arguments of a checkpoint's run (``--init``, ``--resume``).

    Its weights only load into the same network, so the checkpoint's
    network flags win over the command line's (and the game's defaults),
    with a note when they differ; a resumed run also keeps its
    ``--command-order``. Checkpoints written before a field existed have
    its old value (``OLD_VALUES``: the convolutional network, slot order).
    """
    fields = NETWORK_FIELDS + ("credit",) + (("command_order", "opponent_order") if order else ())
    for f in fields:
        if f not in saved and f not in OLD_VALUES:
            continue  # a field the saved network does not use (crop of a conv network)
        want = saved.get(f, OLD_VALUES.get(f))
        if getattr(args, f) != want:
            flag = "--" + f.replace("_", "-")
            print(f"{why}: {flag} {want}, the checkpoint's (not {getattr(args, f)})")
            setattr(args, f, want)


def check_codes(agent: BoardNet, obs: dict[str, np.ndarray]) -> None:
    """Fails early if a board plane holds a value its description does not cover."""
    board = np.asarray(obs["board"])
    for i, p in enumerate(agent.game.planes):
        top = int(board[:, i].max())
        size = p.n if p.kind == "code" else (1 << p.n if p.kind == "bits" else 256)
        if top >= size:
            raise SystemExit(f"{agent.spaces.game}: board plane {i} holds {top}, beyond {p}")


def plot_learning_curve(history: dict[str, Any], path: Path) -> None:
    """Score of the training games and evaluation win rate against env steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rated = history.get("ratings") or []
    fig, axes = plt.subplots(1, 3 if rated else 2, figsize=(16 if rated else 11, 4))
    ax1, ax2 = axes[0], axes[1]
    g = history["games"]
    if g:
        steps = np.array([x["step"] for x in g])
        own = np.array([x["score"] for x in g], dtype=float)
        opp = np.array([x["best_opponent"] for x in g], dtype=float)
        # The games of all envs end together (fixed-length games): average
        # the games that ended at the same step, then smooth over steps.
        at, idx = np.unique(steps, return_inverse=True)
        count = np.bincount(idx)
        k = max(1, len(at) // 25)
        ones = np.ones(k) / k
        ax1.plot(steps, own, ".", alpha=0.2, label="learner (per game)")
        ax1.plot(
            at[k - 1 :],
            np.convolve(np.bincount(idx, own) / count, ones, mode="valid"),
            label="learner (mean)",
        )
        ax1.plot(
            at[k - 1 :],
            np.convolve(np.bincount(idx, opp) / count, ones, mode="valid"),
            label="best opponent (mean)",
        )
    ax1.set_xlabel("environment steps")
    ax1.set_ylabel("final score")
    ax1.set_title("training games")
    ax1.legend()
    e = history["evals"]
    if e:
        ax2.errorbar(
            [x["step"] for x in e],
            [x["win_rate"] for x in e],
            yerr=np.array(
                [
                    [x["win_rate"] - x["win_ci95"][0] for x in e],
                    [x["win_ci95"][1] - x["win_rate"] for x in e],
                ]
            ),
            marker="o",
            capsize=3,
        )
    ax2.set_ylim(0, 1.02)
    ax2.set_xlabel("environment steps")
    ax2.set_ylabel("win rate (greedy, 95% CI)")
    ax2.set_title("evaluation")
    if rated:
        # TrueSkill of the league's members and the learner (jgym tournament);
        # a snapshot appears from the rating after it joined the pool.
        ax3 = axes[2]
        names = sorted({k for r in rated for k in r["ratings"]}, key=lambda k: (k != "learner", k))
        for name in names:
            pts = [(r["step"], r["ratings"][name]) for r in rated if name in r["ratings"]]
            xs = [p for p, _ in pts]
            mu = [x["mu"] for _, x in pts]
            err = [2 * x["sigma"] for _, x in pts]
            kw = {"linewidth": 2.5} if name == "learner" else {"alpha": 0.6}
            ax3.errorbar(xs, mu, yerr=err, marker="o", capsize=2, label=name, **kw)
        ax3.set_xlabel("environment steps")
        ax3.set_ylabel("TrueSkill mu (+- 2 sigma)")
        ax3.set_title("league ratings (jgym tournament)")
        ax3.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    main(parse_args())
