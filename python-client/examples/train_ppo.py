"""PPO for Crematoria, CleanRL style: one file, one dataclass of arguments.

Trains a policy for one learner seat against bots (three ``Demo`` by
default), then exports it to ONNX so that it plays without Python: in Go as
the ``policy:PATH`` seat (``jgym match policy:model.onnx Demo Demo Demo -s 1``)
and, following docs/export.md, in C++.

    python examples/train_ppo.py --time-budget 1800 --export examples/models/crematoria_ppo.onnx

The network (docs/training.md has the reasons):

- every board cell is turned into features: a learned embedding of the
  level-0 code, one of the level-1 code (both levels share the cell's
  row and column, so they are stacked as channels) and a linear map of the
  7 flag bits, unpacked;
- the map wraps horizontally, so each convolution pads the columns
  circularly (concat of the last and first columns) and the rows with zeros;
- a thin full-resolution map (one residual 3x3 convolution) for what is next
  to each unit, and a stride-2 convolution to a wider 20 x 40 map with
  residual 3x3 convolutions (dilations 1, 2, 4) for what is farther away;
- each unit slot gathers the features at its cell in both maps, adds its own
  features (scaled) and a projection of the pooled map and the globals, and
  a small MLP shared by all slots gives 11 logits (illegal directions
  masked) and the slot's value.

An action is one direction per unit slot, a product of per-slot
categoricals. Commands are issued in slot order, the environment's default,
which the exported bot reproduces.

Rewards: each of my units is its own agent (shared weights). It is credited
with what its move earned (``unit_rewards``: a cave cell for a Pioneer, a gem,
a capture for a Furyan), has its own value and advantage, and its episode
ends when it stops being mine (killed or captured). This credit assignment
is what makes 30 minutes of CPU enough to beat the Demo bot.

Opponents: ``--opponents`` takes seat sets separated by ``;``, each three
comma-separated seats; the environments are split evenly among the sets.
A seat ``self`` is the latest exported snapshot of the learner itself
(``--snapshot-every``), seated as a ``policy:PATH`` bot that the Go server
runs (slower than the scripted bots: one CPU forward pass per round and
seat).

Outputs (in ``runs/<run name>/``): TensorBoard logs, ``checkpoint.pt``,
``history.json``, ``learning_curve.png``, ``model.onnx`` and, with
``--export PATH``, a copy of the ONNX file there.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

import jgym

ROWS, COLS, DIRS = 40, 80, 11
NONE = 10
OBS_VERSION = "crematoria-obs-1"
# Scale of each units column (docs/observation.md): mine, rel owner, type,
# health, row, col, level, on elevator.
UNIT_SCALE = (1.0, 1 / 3, 1.0, 1 / 100, 1 / 40, 1 / 80, 1.0, 1.0)
# The seeds of training games start here; evaluations use small seeds.
TRAIN_SEED0 = 1_000_000


@dataclass
class Args:
    """Command-line arguments (``--total-timesteps 100000`` etc.)."""

    exp_name: str = "crematoria_ppo"
    seed: int = 1
    """seed of PyTorch and of the training games (game seeds start at 1,000,000)"""
    threads: int = 2
    """PyTorch CPU threads (1 is faster on a machine busy with other work)"""
    total_timesteps: int = 2_000_000
    """environment steps (rounds of one learner seat)"""
    time_budget: float = 0.0
    """stop training after this many seconds (0: no limit); the exported model is the last one"""
    num_envs: int = 32
    num_steps: int = 32
    """rounds per environment per rollout"""
    opponents: str = "Demo,Demo,Demo"
    """seat sets separated by ';' (each 3 bots; 'self' = the latest snapshot)"""
    shuffle_seats: bool = True
    reward_mode: str = "score_delta"
    """the env's reward (only logged: training uses the per-unit rewards below)"""
    reward_scale: float = 0.1
    gem_value: float = 30.0
    """per-unit reward of a Pioneer picking a gem (a cave cell earns 1)"""
    capture_reward: float = 5.0
    """per-unit reward of a Furyan capturing the unit it attacked"""
    address: str = ""
    """a running jgym server (default: start one)"""
    config: str = ""
    """game configuration file (default: the course's default.cnf)"""
    # PPO
    learning_rate: float = 6e-4
    anneal_lr: bool = True
    gamma: float = 0.97
    gae_lambda: float = 0.9
    num_minibatches: int = 4
    update_epochs: int = 2
    norm_adv: bool = True
    clip_coef: float = 0.2
    clip_vloss: bool = False
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float = 0.0
    """stop the epochs of an update early above this KL (0: never)"""
    # network
    channels: int = 8
    """channels of the full-resolution map"""
    coarse: int = 24
    """channels of the half-resolution map"""
    hidden: int = 64
    dilations: str = "1,2,4"
    """dilations of the half-resolution convolutions"""
    # evaluation, snapshots, outputs
    eval_every: int = 20
    """updates between evaluations (0: only at the end)"""
    eval_games: int = 16
    eval_final_games: int = 32
    eval_opponents: str = "Demo,Demo,Demo"
    eval_seed: int = 0
    snapshot_every: int = 0
    """updates between ONNX snapshots for 'self' opponents (0: none)"""
    run_dir: str = "runs"
    export: str = ""
    """also copy the final ONNX model here"""
    init: str = ""
    """start from this checkpoint.pt"""
    progress: bool = True
    """show a tqdm progress bar"""

    @property
    def batch_size(self) -> int:
        """Environment steps per update."""
        return self.num_envs * self.num_steps


def parse_args() -> Args:
    """Builds an argparse parser from the Args dataclass."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        if f.type in ("bool", bool):
            p.add_argument(
                flag, type=lambda s: s.lower() in ("1", "true", "yes"), default=f.default
            )
        else:
            typ = {"int": int, "float": float, "str": str}[str(f.type)]
            p.add_argument(flag, type=typ, default=f.default)
    return Args(**vars(p.parse_args()))


# --- the network --------------------------------------------------------------


def wrap_columns(x: torch.Tensor, p: int) -> torch.Tensor:
    """Pads the last axis (columns) circularly by p on each side."""
    return torch.cat([x[..., -p:], x, x[..., :p]], dim=-1)


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Linear:
    """Orthogonal initialization, as CleanRL."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class Agent(nn.Module):
    """Actor-critic over the crematoria-obs-1 tensors (see the module docs).

    Inputs are the raw observation tensors: board uint8 [B,3,40,80], units
    uint8 [B,U,8], globals float32 [B,16], action_mask bool [B,U,11].
    Two resolutions keep it cheap on a CPU: a thin full-resolution map for
    what is next to each unit, and a wider half-resolution map (20 x 40)
    for what is farther away.
    """

    def __init__(
        self,
        num_slots: int,
        channels: int = 8,
        coarse: int = 24,
        hidden: int = 64,
        dilations: tuple[int, ...] = (1, 2, 4),
    ) -> None:
        super().__init__()
        c, k = channels, coarse
        self.channels, self.coarse, self.num_slots = c, k, num_slots
        self.dilations = tuple(dilations)
        self.emb0 = nn.Embedding(128, c)  # level-0 cell code: terrain | unit << 3
        self.emb1 = nn.Embedding(128, c)  # level-1 cell code
        bits = torch.tensor(
            [[(v >> b) & 1 for b in range(7)] for v in range(128)], dtype=torch.float32
        )
        self.register_buffer("flag_bits", bits)  # flags byte -> its 7 bits
        self.flag = nn.Linear(7, c, bias=False)
        self.local = nn.Conv2d(c, c, 3, padding=(1, 0))
        self.down = nn.Conv2d(c, k, 3, stride=2, padding=(1, 0))
        self.convs = nn.ModuleList(
            nn.Conv2d(k, k, 3, padding=(d, 0), dilation=d) for d in self.dilations
        )
        self.register_buffer("unit_scale", torch.tensor(UNIT_SCALE))
        # units @ cell_index = row * 80 + col in every channel (exact in float32)
        cell = torch.zeros(8, c)
        cell[4], cell[5] = COLS, 1
        self.register_buffer("cell_index", cell)
        # trunc(units @ half_sel) @ half_index = (row // 2) * 40 + col // 2
        half = torch.zeros(8, 2)
        half[4, 0], half[5, 1] = 0.5, 0.5
        self.register_buffer("half_sel", half)
        self.register_buffer("half_index", torch.tensor([[COLS / 2] * k, [1.0] * k]))
        self.register_buffer("masked", torch.tensor(-1e9))
        self.unit_in = layer_init(nn.Linear(c + k + 8, hidden))
        self.glob_in = layer_init(nn.Linear(k + 16, hidden))
        self.unit_out = layer_init(nn.Linear(hidden, DIRS), std=0.01)
        self.critic = nn.Sequential(
            layer_init(nn.Linear(hidden, hidden)),
            nn.ReLU(),
            layer_init(nn.Linear(hidden, 1), std=1.0),
        )

    def features(self, board: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Board codes -> full-resolution [B,c,40,80] and half-resolution [B,k,20,40] maps."""
        b = board.long()
        h = self.emb0(b[:, 0]) + self.emb1(b[:, 1]) + self.flag(self.flag_bits[b[:, 2]])
        x = F.relu(h).permute(0, 3, 1, 2)
        x = x + F.relu(self.local(wrap_columns(x, 1)))
        y = F.relu(self.down(wrap_columns(x, 1)))
        for d, conv in zip(self.dilations, self.convs, strict=True):
            y = y + F.relu(conv(wrap_columns(y, d)))
        return x, y

    def heads(self, board, units, globals_, mask):
        """Returns the masked logits [B, U, 11] and each unit's value [B, U]."""
        x, y = self.features(board)
        fine = x.permute(0, 2, 3, 1).reshape(-1, ROWS * COLS, self.channels)
        coarse = y.permute(0, 2, 3, 1).reshape(-1, ROWS * COLS // 4, self.coarse)
        u = units.float()
        at_cell = torch.gather(fine, 1, (u @ self.cell_index).long())  # [B, U, c]
        half = (u @ self.half_sel).long().float() @ self.half_index
        near = torch.gather(coarse, 1, half.long())  # [B, U, k]
        ctx = torch.cat([y.mean(dim=(2, 3)), globals_], -1)
        h = F.relu(
            self.unit_in(torch.cat([at_cell, near, u * self.unit_scale], -1))
            + self.glob_in(ctx).unsqueeze(1)
        )
        logits = torch.where(mask, self.unit_out(h), self.masked)
        return logits, self.critic(h).squeeze(-1)

    def forward(self, board, units, globals_, mask):
        """The exported graph: masked logits only."""
        return self.heads(board, units, globals_, mask)[0]


def to_torch(obs: dict[str, np.ndarray]) -> tuple[torch.Tensor, ...]:
    """The vector env's observation dict -> the network's input tensors."""
    return (
        torch.from_numpy(np.array(obs["board"])),  # copies: the env's arrays are read-only
        torch.from_numpy(np.array(obs["units"])),
        torch.from_numpy(np.array(obs["globals"])),
        torch.from_numpy(np.asarray(obs["action_mask"]).astype(bool)),
    )


def load_agent(path: str | Path, num_slots: int = 80) -> Agent:
    """Loads a checkpoint.pt written by this script, in eval mode."""
    ck = torch.load(path, weights_only=True)
    a = ck["args"]
    dil = tuple(int(d) for d in a["dilations"].split(","))
    agent = Agent(num_slots, a["channels"], a["coarse"], a["hidden"], dil)
    agent.load_state_dict(ck["model"])
    return agent.eval()


def greedy(agent: Agent):
    """The deterministic policy the exported bot plays: argmax of the masked logits."""

    @torch.inference_mode()
    def policy(obs: dict[str, np.ndarray]) -> np.ndarray:
        return agent(*to_torch(obs)).argmax(-1).numpy().astype(np.int8)

    policy.__name__ = "ppo"
    return policy


# --- export ---------------------------------------------------------------------

PREPROCESSING = (
    "inputs are the raw crematoria-obs-1 tensors of one seat, batch first: "
    "board uint8[B,3,40,80], units uint8[B,U,8], globals float32[B,16], action_mask bool[B,U,11]. "
    "Inside the graph: board planes 0 and 1 index learned embeddings (Gather), plane 2 indexes a "
    "constant bit table (the 7 flag bits) followed by a linear map; units are cast to float, their "
    "cell index is units[...,4]*80+units[...,5] (a MatMul with a constant), their features are "
    "scaled by (1,1/3,1,1/100,1/40,1/80,1,1). Output: logits float32[B,U,11], -1e9 where the mask "
    "is false. Decision: argmax per owned slot (first on ties); commands in slot order, None "
    "not issued."
)
OPERATORS = (
    "Add, Cast, Concat, Constant, Conv, Gather, GatherElements, Gemm, MatMul, Mul, "
    "ReduceMean, Relu, Reshape, Slice, Transpose, Unsqueeze, Where"
)


def export_onnx(agent: Agent, path: str | Path, args: Args | None = None) -> None:
    """Writes the actor as ONNX (opset 17) with the metadata Go and C++ check."""
    import onnx

    u = agent.num_slots
    sample = (
        torch.zeros(1, 3, ROWS, COLS, dtype=torch.uint8),
        torch.zeros(1, u, 8, dtype=torch.uint8),
        torch.zeros(1, 16, dtype=torch.float32),
        torch.ones(1, u, DIRS, dtype=torch.bool),
    )
    names = ["board", "units", "globals", "action_mask"]
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
    meta = {
        "observation_version": OBS_VERSION,
        "game": "Crematoria-v0",
        "num_slots": str(u),
        "action_order": "slot",
        "preprocessing": PREPROCESSING,
        "operators": OPERATORS,
        "network": json.dumps(
            {"channels": agent.channels, "coarse": agent.coarse, "dilations": list(agent.dilations)}
        ),
    }
    if args is not None:
        meta["train_args"] = json.dumps(dataclasses.asdict(args))
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
) -> tuple[np.ndarray, np.ndarray]:
    """Credits each of my units with what its own move earned this round.

    A Pioneer that steps onto a cave I do not own earns 1 (the cell), onto a
    gem ``gem_value``; a Furyan whose attack captures the unit it targeted
    earns ``capture``. The rest of the score change (cells lost to others,
    respawns) is nobody's doing and goes unrewarded.

    Args:
        board: The board before the round, [N,3,40,80].
        units: The units before the round, [N,U,8].
        action: The directions played, [N,U].
        after: The units tensor after the round (the final one for ended games).
        gem_value: Reward of a gem.
        capture: Reward of a capture.

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
    r += conquered + gem_value * gem
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


# --- environments -------------------------------------------------------------


class Envs:
    """The vector envs of all opponent sets, stepped together as one batch."""

    def __init__(self, args: Args, snapshot: str | None) -> None:
        self.args = args
        self.sets = [tuple(s.strip() for s in x.split(",")) for x in args.opponents.split(";")]
        for s in self.sets:
            if len(s) != 3:
                raise SystemExit(f"--opponents: {s} is not three seats")
        k = len(self.sets)
        self.sizes = [args.num_envs // k + (i < args.num_envs % k) for i in range(k)]
        self.envs: list[Any] = [None] * k
        self.obs: list[dict[str, np.ndarray]] = [{}] * k
        self.seat: list[np.ndarray] = [np.zeros(0)] * k  # the learner's seat in each game
        self.games = [0] * k
        for i in range(k):
            self._open(i, snapshot)

    def _seats(self, i: int, snapshot: str | None) -> tuple[str, ...]:
        return tuple(
            (f"policy:{snapshot}" if snapshot else "Demo") if s == "self" else s
            for s in self.sets[i]
        )

    def _open(self, i: int, snapshot: str | None) -> None:
        a = self.args
        if self.envs[i] is not None:
            self.envs[i].close()
        self.envs[i] = jgym.make_vec(
            num_envs=self.sizes[i],
            opponents=self._seats(i, snapshot),
            shuffle_seats=a.shuffle_seats,
            reward_mode=a.reward_mode,
            autoreset_mode="SameStep",
            address=a.address or None,
            config=Path(a.config).read_text() if a.config else "",
        )
        # Disjoint seed ranges per set and per reopening.
        seed = TRAIN_SEED0 + a.seed * 10_000_000 + i * 1_000_000 + self.games[i]
        self.games[i] += 10_000
        self.obs[i], info = self.envs[i].reset(seed=seed)
        self.seat[i] = np.array(info["seat"])

    def reload(self, snapshot: str) -> None:
        """Re-seats the 'self' opponents with a new snapshot (starts new games there)."""
        for i, s in enumerate(self.sets):
            if "self" in s:
                self._open(i, snapshot)

    def reset_obs(self) -> dict[str, np.ndarray]:
        """The current observation of all envs, concatenated."""
        return {k: np.concatenate([o[k] for o in self.obs]) for k in self.obs[0]}

    def step(self, actions: np.ndarray):
        """Steps every set.

        Returns the next observation, the env reward, done, the units tensor
        after the round (the final one of games that ended) and the final
        scores of ended games as (set, scores, learner seat).
        """
        lo = 0
        for env, n in zip(self.envs, self.sizes, strict=True):
            env.step_async(actions[lo : lo + n])
            lo += n
        rewards, dones, afters, finals = [], [], [], []
        for i, env in enumerate(self.envs):
            obs, r, term, trunc, info = env.step_wait()
            self.obs[i] = obs
            rewards.append(r)
            dones.append(term | trunc)
            after = np.array(obs["units"])
            if "final_info" in info:
                for row in np.flatnonzero(info["_final_obs"]):
                    after[row] = info["final_obs"][row]["units"]
                    # info["seat"] is already the new game's: use the last step's.
                    finals.append((i, info["final_info"]["scores"][row], int(self.seat[i][row])))
            afters.append(after)
            self.seat[i] = np.array(info["seat"])
        return (
            self.reset_obs(),
            np.concatenate(rewards),
            np.concatenate(dones),
            np.concatenate(afters),
            finals,
        )

    def close(self) -> None:
        """Closes every vector env."""
        for env in self.envs:
            env.close()


# --- training -----------------------------------------------------------------


def main(args: Args) -> dict[str, Any]:
    """Trains, exports, evaluates; returns the summary."""
    from torch.utils.tensorboard import SummaryWriter
    from tqdm import tqdm

    run_name = f"{args.exp_name}__{args.seed}__{int(time.time())}"
    run = Path(args.run_dir) / run_name
    run.mkdir(parents=True, exist_ok=True)
    writer = SummaryWriter(str(run))
    writer.add_text("args", "\n".join(f"{k}: {v}" for k, v in dataclasses.asdict(args).items()))
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)

    envs = Envs(args, snapshot=None)
    obs = envs.reset_obs()
    n, u = args.num_envs, obs["units"].shape[1]
    agent = Agent(
        u, args.channels, args.coarse, args.hidden, tuple(int(d) for d in args.dilations.split(","))
    )
    if args.init:
        agent.load_state_dict(torch.load(args.init, weights_only=True)["model"])
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    T = args.num_steps  # noqa: N806
    buf_board = torch.zeros((T, n, 3, ROWS, COLS), dtype=torch.uint8)
    buf_units = torch.zeros((T, n, u, 8), dtype=torch.uint8)
    buf_glob = torch.zeros((T, n, 16))
    buf_mask = torch.zeros((T, n, u, DIRS), dtype=torch.bool)
    buf_act = torch.zeros((T, n, u), dtype=torch.long)
    # Per unit slot: each of my units is an agent with its own reward,
    # value and advantage (shared weights); a slot's "episode" ends when
    # the unit stops being mine (killed, captured) or the game ends.
    buf_logp = torch.zeros((T, n, u))
    buf_rew = torch.zeros((T, n, u))
    buf_done = torch.zeros((T, n, u))  # the slot's episode ends with step t
    buf_val = torch.zeros((T, n, u))
    buf_valid = torch.zeros((T, n, u))  # the slot is mine at step t

    history: dict[str, list] = {"games": [], "evals": [], "updates": []}
    num_updates = max(1, args.total_timesteps // args.batch_size)
    step, t0 = 0, time.time()
    next_obs = to_torch(obs)
    # With a time budget the bar counts seconds (its end is the budget's),
    # else environment steps.
    timed = args.time_budget > 0
    bar = tqdm(
        total=round(args.time_budget) if timed else num_updates * args.batch_size,
        unit="s" if timed else "step",
        disable=not args.progress,
        dynamic_ncols=True,
    )
    snapshot_dir = run / "snapshots"
    recent: list[tuple[float, bool]] = []

    def evaluate_now(games: int, tag: str) -> dict[str, Any]:
        r = jgym.evaluate(
            greedy(agent),
            opponents=args.eval_opponents.split(","),
            n_games=games,
            seed0=args.eval_seed,
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

    done_updates = 0
    for update in range(1, num_updates + 1):
        if args.time_budget and time.time() - t0 > args.time_budget:
            bar.write(f"time budget reached after {done_updates} updates")
            break
        if args.anneal_lr:
            frac = 1.0 - (update - 1.0) / num_updates
            if args.time_budget:
                frac = min(frac, max(0.05, 1.0 - (time.time() - t0) / args.time_budget))
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate

        agent.eval()
        for t in range(T):
            step += n
            b, un, gl, mk = next_obs
            buf_board[t], buf_units[t], buf_glob[t], buf_mask[t] = b, un, gl, mk
            buf_valid[t] = (un[..., 0] == 1).float()
            with torch.inference_mode():
                logits, value = agent.heads(b, un, gl, mk)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
                buf_logp[t] = dist.log_prob(action)
            buf_val[t], buf_act[t] = value, action
            act = action.numpy().astype(np.int8)
            obs, _, done, after, finals = envs.step(act)
            r, mine_after = unit_rewards(
                b.numpy(),
                un.numpy(),
                act,
                after,
                gem_value=args.gem_value,
                capture=args.capture_reward,
            )
            buf_rew[t] = torch.from_numpy(r * args.reward_scale)
            buf_done[t] = torch.from_numpy((done[:, None] | ~mine_after).astype(np.float32))
            next_obs = to_torch(obs)
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
        if timed:
            bar.update(round(min(time.time() - t0, args.time_budget)) - bar.n)
        else:
            bar.update(T * n)

        # GAE per unit slot; buf_done[t] says whether the slot's episode ends with step t.
        with torch.inference_mode():
            next_value = agent.heads(*next_obs)[1]
            adv = torch.zeros_like(buf_rew)
            last = torch.zeros(n, u)
            for t in reversed(range(T)):
                nv = next_value if t == T - 1 else buf_val[t + 1]
                nonterminal = 1.0 - buf_done[t]
                delta = buf_rew[t] + args.gamma * nv * nonterminal - buf_val[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                adv[t] = last
            returns = adv + buf_val

        bs = args.batch_size
        f_board, f_units = buf_board.reshape(bs, 3, ROWS, COLS), buf_units.reshape(bs, u, 8)
        f_glob, f_mask = buf_glob.reshape(bs, 16), buf_mask.reshape(bs, u, DIRS)
        f_act, f_logp = buf_act.reshape(bs, u), buf_logp.reshape(bs, u)
        f_adv, f_ret = adv.reshape(bs, u), returns.reshape(bs, u)
        f_val, f_valid = buf_val.reshape(bs, u), buf_valid.reshape(bs, u)
        agent.train()
        mb = bs // args.num_minibatches
        clipfracs, approx_kl = [], torch.tensor(0.0)
        for _epoch in range(args.update_epochs):
            perm = torch.randperm(bs)
            for start in range(0, bs, mb):
                idx = perm[start : start + mb]
                logits, value = agent.heads(f_board[idx], f_units[idx], f_glob[idx], f_mask[idx])
                logp_all = F.log_softmax(logits, -1)
                logp = logp_all.gather(-1, f_act[idx].unsqueeze(-1)).squeeze(-1)
                valid = f_valid[idx]
                count = valid.sum().clamp(min=1)

                def mean(x: torch.Tensor, valid=valid, count=count) -> torch.Tensor:
                    return (x * valid).sum() / count  # over my units only

                entropy = mean(-(logp_all.exp() * logp_all).sum(-1))
                logratio = logp - f_logp[idx]
                ratio = logratio.exp()
                with torch.no_grad():
                    approx_kl = mean((ratio - 1) - logratio)
                    clipfracs.append(mean(((ratio - 1.0).abs() > args.clip_coef).float()).item())
                a = f_adv[idx]
                if args.norm_adv:
                    mu = mean(a)
                    a = (a - mu) / (mean((a - mu) ** 2).sqrt() + 1e-8)
                pg_loss = mean(
                    torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef))
                )
                if args.clip_vloss:
                    v_clip = f_val[idx] + (value - f_val[idx]).clamp(
                        -args.clip_coef, args.clip_coef
                    )
                    v_loss = 0.5 * mean(
                        torch.max((value - f_ret[idx]) ** 2, (v_clip - f_ret[idx]) ** 2)
                    )
                else:
                    v_loss = 0.5 * mean((value - f_ret[idx]) ** 2)
                loss = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
            if args.target_kl and approx_kl > args.target_kl:
                break

        done_updates = update
        sps = step / (time.time() - t0)
        last = recent[-64:]
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
            "score": float(np.mean([s for s, _ in last])) if last else float("nan"),
            "win_rate": float(np.mean([w for _, w in last])) if last else float("nan"),
        }
        history["updates"].append(stats)
        for k in ("pg_loss", "v_loss", "entropy", "approx_kl", "clipfrac"):
            writer.add_scalar(f"losses/{k}", stats[k], step)
        writer.add_scalar("charts/learning_rate", stats["lr"], step)
        writer.add_scalar("charts/SPS", sps, step)
        bar.set_postfix(
            step=step,
            sps=f"{sps:.0f}",
            score=f"{stats['score']:.0f}",
            win=f"{stats['win_rate']:.2f}",
            ent=f"{stats['entropy']:.2f}",
        )
        if args.snapshot_every and update % args.snapshot_every == 0:
            snap = snapshot_dir / f"update_{update:05d}.onnx"
            export_onnx(agent, snap)
            envs.reload(str(snap))
            next_obs = to_torch(envs.reset_obs())
        if args.eval_every and update % args.eval_every == 0:
            evaluate_now(args.eval_games, "eval")
            torch.save(
                {"model": agent.state_dict(), "args": dataclasses.asdict(args)},
                run / "checkpoint.pt",
            )
    bar.close()
    envs.close()
    train_time = time.time() - t0

    torch.save(
        {"model": agent.state_dict(), "args": dataclasses.asdict(args)}, run / "checkpoint.pt"
    )
    onnx_path = run / "model.onnx"
    export_onnx(agent, onnx_path, args)
    if args.export:
        Path(args.export).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(onnx_path, args.export)
    final = evaluate_now(args.eval_final_games, "final") if args.eval_final_games else None
    summary = {
        "run": str(run),
        "steps": step,
        "updates": done_updates,
        "train_seconds": train_time,
        "sps": step / train_time,
        "final_eval": final,
        "onnx": str(onnx_path),
    }
    history["summary"] = summary  # type: ignore[assignment]
    (run / "history.json").write_text(json.dumps(history, indent=1, default=float))
    plot_learning_curve(history, run / "learning_curve.png")
    writer.close()
    print(json.dumps(summary, default=float))
    return summary


def plot_learning_curve(history: dict[str, Any], path: Path) -> None:
    """Score of the training games and evaluation win rate against env steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
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
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    main(parse_args())
