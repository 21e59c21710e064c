"""Rollouts: the games a learner plays, its observations as tensors, its rewards.

- :class:`Lanes`: the vector envs of every opponent set (fixed sets, or a
  :class:`jgym.league.League` seating each set anew), stepped as one batch,
  in one or two lanes (while one lane's games step in the server the policy
  can read the other's observations); what each step returns is a
  :class:`Step`, with the env's reward, the per-unit credit the server
  computed (``unit_rewards``), which slots' episodes ended (a slot's ends
  when its unit stops being mine, or with the game) and the finished games;
- :func:`to_torch`: observations as the network's inputs, on a device;
- :func:`sample`: one action per slot from masked logits;
- :func:`greedy`: the deterministic policy the exported bot plays;
- :class:`RewardNorm`: rewards divided by a running deviation of the return.

The env options that change what a learner sees and does (the order of
its commands, the opponents' order, the per-unit credit) are the
server's: ``command_order``, ``opponent_order``, ``unit_rewards`` and
``credit_weights`` of :func:`jgym.make_vec`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812

import jgym
from jgym.league import League
from jgym.spec import describe
from jgym.tensors import MASK_DTYPE
from jgym.torch.nets import BoardNet

__all__ = ["TRAIN_SEED0", "Final", "Lanes", "RewardNorm", "Step", "greedy", "sample", "to_torch"]

#: The seeds of training games start here; evaluations use small seeds.
TRAIN_SEED0 = 1_000_000

Obs = dict[str, np.ndarray]


def to_torch(
    obs: Mapping[str, Any], names: Sequence[str], device: torch.device | str = "cpu"
) -> tuple[torch.Tensor, ...]:
    """The observation tensors ``names`` (in that order) as the network takes them.

    Bool tensors (masks) arrive as int8 0/1 (``jgym.tensors.MASK_DTYPE``)
    and become bool; the others are copied (the env's arrays are read-only).
    """
    out = []
    for n in names:
        x = np.asarray(obs[n])
        t = torch.from_numpy(x.astype(bool) if x.dtype == MASK_DTYPE else np.array(x))
        out.append(t.to(device))
    return tuple(out)


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


def greedy(agent: BoardNet) -> Callable[[Obs], np.ndarray]:
    """The deterministic policy the exported bot plays: argmax of the masked logits.

    It is to be played in envs made with its ``env_options`` attribute (the
    network's command and opponent orders), as :func:`jgym.evaluate` does.
    """
    device = next(agent.parameters()).device
    names = agent.input_names

    @torch.inference_mode()
    def policy(obs: Obs) -> np.ndarray:
        logits = agent(*to_torch(obs, names, device))
        return np.asarray(logits.argmax(-1).cpu().numpy(), dtype=np.int8)

    policy.__name__ = "ppo"
    policy.env_options = {  # type: ignore[attr-defined]
        "command_order": agent.command_order,
        "opponent_order": agent.opponent_order,
        "tensors": names,
    }
    return policy


class RewardNorm:
    """Divides rewards by a running standard deviation of the discounted return.

    Gymnasium's ``NormalizeReward``, batched: the reward keeps its sign and
    its proportions within the run, only its scale is learned; the result
    is clipped to ``[-clip, clip]``.
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
        return np.asarray(np.clip(r / np.sqrt(self.var + 1e-8), -self.clip, self.clip))


@dataclass(frozen=True)
class Final:
    """A finished game of the learner: its opponent set, the four scores and its seat."""

    set: int
    scores: tuple[int, ...]
    seat: int

    @property
    def score(self) -> int:
        """The learner's score."""
        return self.scores[self.seat]

    @property
    def best_opponent(self) -> int:
        """The best opponent's score."""
        return max(s for j, s in enumerate(self.scores) if j != self.seat)

    @property
    def win(self) -> bool:
        """The learner's score is strictly above every opponent's."""
        return self.score > self.best_opponent


@dataclass
class Step:
    """What one step of a lane's games returns (rows: the lane's games, in order).

    Attributes:
        obs: The next observation (a new game's first for the games that ended).
        reward: The env's reward [N].
        done: The games that ended [N].
        unit_rewards: The per-unit credit [N, U] (``unit_rewards`` envs), else None.
        slot_done: Each slot's episode ended [N, U]: its unit is no longer
            mine after the round (captured, killed), or the game ended.
        finals: The games that ended.
    """

    obs: Obs
    reward: np.ndarray
    done: np.ndarray
    unit_rewards: np.ndarray | None
    slot_done: np.ndarray
    finals: list[Final] = field(default_factory=list)


class Lanes:
    """The vector envs of all opponent sets, stepped together as one batch.

    Without a league each set has fixed opponents (``opponents``: seat sets
    of three; ``"self"`` is the latest snapshot, :meth:`reload`) and
    shuffled seats. With one, there are ``league_sets`` sets, each seated
    by :meth:`League.lineup`; every finished game is recorded in the
    league, and a set whose games all ended is seated anew.

    The sets form ``lanes`` lanes (each about half the games with two; one
    opponent set is then split in two): :meth:`send` a lane's actions, and
    while those games step in the server read the other lane's
    observations; :meth:`receive` waits for a lane. :meth:`step` does both
    for every lane.

    Args:
        game: The environment id.
        num_envs: Games in all.
        seed: The run's seed (its games' seeds follow from it).
        opponents: The seat sets (each three seats), without a league.
        league: The league that seats the tables.
        league_sets: Groups of envs with a league.
        lanes: 1 or 2.
        restart: :attr:`state` of a run being resumed (its seeds go on).
        **env_options: Options of every :func:`jgym.make_vec` (address,
            config, command_order, opponent_order, unit_rewards,
            credit_weights...).
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        seed: int = 1,
        opponents: Sequence[Sequence[str]] = (("Demo", "Demo", "Demo"),),
        league: League | None = None,
        league_sets: int = 4,
        lanes: int = 1,
        restart: Mapping[str, Any] | None = None,
        **env_options: Any,
    ) -> None:
        self.game, self.league, self.options = game, league, env_options
        if league is not None:
            k = max(1, min(league_sets, num_envs))
            self.sets: list[tuple[str, ...]] = [()] * k
        else:
            self.sets = [tuple(s) for s in opponents]
            for s in self.sets:
                if len(s) != 3:
                    raise ValueError(f"opponents: {s} is not three seats")
            if lanes == 2 and len(self.sets) == 1 and num_envs >= 2:
                self.sets *= 2  # two lanes of the same opponents
            k = len(self.sets)
        self.sizes = [num_envs // k + (i < num_envs % k) for i in range(k)]
        # The lanes: sets 0..h-1 and h..k-1 (their rows follow each other).
        h = (k + 1) // 2 if lanes == 2 and k >= 2 else k
        self.lanes = [range(0, h), range(h, k)] if h < k else [range(k)]
        starts = np.cumsum([0, *self.sizes])
        self.lane_rows = [(int(starts[r.start]), int(starts[r.stop])) for r in self.lanes]
        self.envs: list[Any] = [None] * k
        self.obs: list[Obs] = [{}] * k
        self.seat: list[np.ndarray] = [np.zeros(0)] * k  # the learner's seat in each game
        self.tables: list[list[str | None]] = [[] for _ in range(k)]  # league: the seats
        self.seed = seed
        self.games = [0] * k
        self.next_seed = TRAIN_SEED0 + seed * 10_000_000
        if restart:  # a resumed run plays new seeds
            games = [int(g) for g in restart["games"]][:k]
            self.games = games + [0] * (k - len(games))
            self.next_seed = int(restart["next_seed"])
        for i in range(k):
            self._open(i, None)
        env0 = self.envs[0]
        self.spec = env0.spec_proto
        self.mine = describe(self.spec).tensor("units").column("mine")

    @property
    def state(self) -> dict[str, Any]:
        """What a resumed run needs to play new seeds (a checkpoint's)."""
        return {"games": list(self.games), "next_seed": self.next_seed}

    def _open(self, i: int, snapshot: str | None) -> None:
        if self.envs[i] is not None:
            self.envs[i].close()
        seating: dict[str, Any]
        if self.league is not None:
            self.tables[i], _ = self.league.lineup()
            seating = {"seats": self.tables[i], "shuffle_seats": False}
            seed = self.next_seed
            self.next_seed += self.sizes[i]
        else:
            seats = tuple(
                (f"policy:{snapshot}" if snapshot else "Demo") if s == "self" else s
                for s in self.sets[i]
            )
            seating = {"opponents": seats, "shuffle_seats": True}
            # Disjoint seed ranges per set and per reopening.
            seed = TRAIN_SEED0 + self.seed * 10_000_000 + i * 1_000_000 + self.games[i]
            self.games[i] += 10_000
        self.envs[i] = jgym.make_vec(
            self.game,
            num_envs=self.sizes[i],
            **seating,
            autoreset_mode="SameStep",
            **self.options,
        )
        self.obs[i], info = self.envs[i].reset(seed=seed)
        self.seat[i] = np.array(info["seat"])

    def reload(self, snapshot: str) -> None:
        """Re-seats the ``"self"`` opponents with a new snapshot (starts new games there)."""
        for i, s in enumerate(self.sets):
            if "self" in s:
                self._open(i, snapshot)

    def lane_obs(self, lane: int) -> Obs:
        """The current observation of a lane's envs, concatenated."""
        obs = [self.obs[i] for i in self.lanes[lane]]
        return {k: np.concatenate([o[k] for o in obs]) for k in obs[0]}

    def send(self, lane: int, actions: np.ndarray) -> None:
        """Sends the actions [N, U] of a lane's games (its rows) without waiting."""
        lo = 0
        for i in self.lanes[lane]:
            self.envs[i].step_async(actions[lo : lo + self.sizes[i]])
            lo += self.sizes[i]

    def receive(self, lane: int) -> Step:
        """Waits for a lane's games after :meth:`send`."""
        rewards, dones, units, mine_after, finals = [], [], [], [], []
        for i in self.lanes[lane]:
            obs, r, term, trunc, info = self.envs[i].step_wait()
            self.obs[i] = obs
            done = term | trunc
            rewards.append(r)
            dones.append(done)
            if "unit_rewards" in info:
                units.append(np.asarray(info["unit_rewards"], dtype=np.float32))
            # whose units are mine after the round (the final observation of ended games)
            mine = np.asarray(obs["units"])[..., self.mine] == 1
            if "final_info" in info:
                for row in np.flatnonzero(info["_final_obs"]):
                    mine[row] = np.asarray(info["final_obs"][row]["units"])[..., self.mine] == 1
                    # info["seat"] is already the new game's: use the last step's.
                    sc = tuple(int(x) for x in info["final_info"]["scores"][row])
                    seat = int(self.seat[i][row])
                    finals.append(Final(i, sc, seat))
                    if self.league is not None:
                        self.league.record(self.tables[i], list(sc), seat)
            mine_after.append(mine)
            self.seat[i] = np.array(info["seat"])
            if self.league is not None and done.all():
                self._open(i, None)  # a new table for the next games
        done = np.concatenate(dones)
        return Step(
            obs=self.lane_obs(lane),
            reward=np.concatenate(rewards),
            done=done,
            unit_rewards=np.concatenate(units) if units else None,
            slot_done=done[:, None] | ~np.concatenate(mine_after),
            finals=finals,
        )

    def step(self, actions: np.ndarray) -> Step:
        """Steps every lane's games (rows in order) and waits for them all."""
        for j, (lo, hi) in enumerate(self.lane_rows):
            self.send(j, actions[lo:hi])
        steps = [self.receive(j) for j in range(len(self.lanes))]
        if len(steps) == 1:
            return steps[0]
        cat = np.concatenate
        return Step(
            obs={k: cat([s.obs[k] for s in steps]) for k in steps[0].obs},
            reward=cat([s.reward for s in steps]),
            done=cat([s.done for s in steps]),
            unit_rewards=None
            if steps[0].unit_rewards is None
            else cat([s.unit_rewards for s in steps if s.unit_rewards is not None]),
            slot_done=cat([s.slot_done for s in steps]),
            finals=[f for s in steps for f in s.finals],
        )

    def all_obs(self) -> Obs:
        """The current observation of every game, in row order."""
        obs = [self.lane_obs(j) for j in range(len(self.lanes))]
        return {k: np.concatenate([o[k] for o in obs]) for k in obs[0]}

    def close(self) -> None:
        """Closes every vector env."""
        for env in self.envs:
            if env is not None:
                env.close()
