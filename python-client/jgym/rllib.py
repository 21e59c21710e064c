"""RLlib on Ray (new API stack): an RLModule for jgym's observations, with masks, and the envs.

Training across machines: Ray's env runners (on any node) each play games
against one or more jgym servers, and the learner trains the module.

- :func:`register_envs` registers every game with Ray Tune as
  ``"jgym/<Game>-v0"``. The env config takes :class:`~jgym.env.JgymEnv`'s
  options, and ``addresses``: a list of servers, env runner ``i`` (RLlib
  numbers the remote ones from 1; 0 is the driver's) and sub-environment
  ``j`` of it playing on
  ``addresses[((i - 1) * num_envs_per_env_runner + j) % len(addresses)]``,
  so that every server gets games (``address`` for one server; neither:
  each env runner starts a local server). The servers' credentials go in
  the env config too, ``token`` and ``tls`` (a :class:`jgym.TLS` whose
  PEMs are their text, :meth:`jgym.TLS.portable`): Ray's workers do not
  inherit the driver's shell, so ``$JGYM_TOKEN`` and ``$JGYM_TLS_CA`` set
  there do not reach them.
- :class:`JgymRLModule`: a ``TorchRLModule`` with the ``ValueFunctionAPI``
  reading the Dict observation as it is (:class:`jgym.nets.SlotNet`: for
  each unit slot the board cells around it and its features, the whole
  board at a quarter of its resolution), an action head shared by the unit
  slots and a value head; illegal actions get ``FLOAT_MIN`` logits from
  ``action_mask`` in every forward pass (exploration, inference, training),
  so they are never sampled and carry no probability. The action
  distribution is RLlib's ``TorchMultiCategorical`` over the slots.
- :func:`ppo_config`: a ``PPOConfig`` with both, ready to ``build_algo()``.

Example:
    >>> from jgym.rllib import ppo_config  # doctest: +SKIP
    >>> servers = ["10.0.0.5:50051", "10.0.0.6:50051"]
    >>> config = ppo_config("Moria-v0", num_env_runners=2, addresses=servers)  # doctest: +SKIP
    >>> algo = config.build_algo()  # doctest: +SKIP
    >>> algo.train()["env_runners"]["episode_return_mean"]  # doctest: +SKIP

``examples/rllib_ppo.py`` trains with several env runners. Needs the
``[rllib]`` extra (``ray[rllib]``, PyTorch).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import gymnasium
import torch as th
from ray.rllib.core.columns import Columns
from ray.rllib.core.distribution.torch.torch_distribution import TorchMultiCategorical
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.tune.registry import register_env
from torch import nn

import jgym
from jgym.env import JgymEnv
from jgym.nets import SlotNet

__all__ = ["JgymRLModule", "env_creator", "module_spec", "ppo_config", "register_envs"]


def env_creator(game: str) -> Any:
    """Returns the function Ray calls to make a game's env from an env config.

    Args:
        game: The game id, e.g. ``"Moria-v0"``.

    Returns:
        ``creator(env_config) -> JgymEnv``. ``env_config`` holds
        :class:`~jgym.env.JgymEnv`'s options, and may hold ``addresses``
        (see the module docs).
    """

    def create(env_config: Any) -> JgymEnv:
        config = dict(env_config or {})
        addresses = config.pop("addresses", None)
        per_runner = int(config.pop("num_envs_per_env_runner", 1))
        config.pop("num_envs", None)  # RLlib's vector entry point adds it
        if addresses:
            config["address"] = addresses[slot(env_config, per_runner) % len(addresses)]
        return JgymEnv(game, **config)

    return create


#: Envs made so far in this process, by env runner (see :func:`slot`).
_made: dict[int, int] = {}


def slot(env_config: Any, per_runner: int) -> int:
    """The rank of an env among all env runners' envs, from 0.

    RLlib's ``EnvContext`` numbers the remote env runners from 1
    (``worker_index`` 0 is the driver's local one, which samples only with
    no remote runners): env ``j`` of runner ``i`` is
    ``(i - 1) * per_runner + j``, so that ranks 0, 1, ... are all used.
    The new API stack gives every env of a runner the same context
    (``vector_index`` 0), so ``j`` counts the envs this process has made
    for runner ``i``, modulo ``per_runner`` (an env made again after a
    failure keeps its server).

    Example:
        >>> class Ctx(dict):
        ...     worker_index, vector_index = 7, 0
        >>> [slot(Ctx(), 2) for _ in range(3)]  # runner 7: ranks 12 and 13
        [12, 13, 12]
    """
    worker = int(getattr(env_config, "worker_index", 0))
    vector = int(getattr(env_config, "vector_index", 0))
    if vector == 0:
        vector = _made.get(worker, 0) % max(per_runner, 1)
        _made[worker] = _made.get(worker, 0) + 1
    return max(worker - 1, 0) * per_runner + vector


def register_envs(games: Sequence[str] = jgym.GAMES) -> list[str]:
    """Registers games with Ray Tune as ``"jgym/<id>"``; returns the names.

    Call it in the driver: Ray ships the registration to its workers.
    """
    names = []
    for game in games:
        name = f"jgym/{game.removeprefix('jgym/')}"
        register_env(name, env_creator(game.removeprefix("jgym/")))
        names.append(name)
    return names


class JgymRLModule(TorchRLModule, ValueFunctionAPI):
    """A new-API-stack RLModule for a jgym game, with action masks.

    ``model_config`` keys: ``position_columns`` (required: the ``units``
    columns of a unit's row and column,
    :func:`jgym.nets.unit_position_columns`; :func:`module_spec` fills it
    in) and the other options of
    :class:`~jgym.nets.SlotNet`; ``value_hidden`` (64), the value MLP's
    width.
    """

    def setup(self) -> None:
        """Builds the network from the observation and action spaces."""
        space = self.observation_space
        assert isinstance(space, gymnasium.spaces.Dict), "jgym observations are a Dict"
        assert isinstance(self.action_space, gymnasium.spaces.MultiDiscrete)
        cfg: dict[str, Any] = dict(self.model_config or {})  # type: ignore[arg-type]
        hidden = int(cfg.get("value_hidden", 64))
        # RLlib adds its default model settings (vf_share_layers, ...): keep SlotNet's.
        known = inspect.signature(SlotNet).parameters
        self.net = SlotNet(space, **{k: v for k, v in cfg.items() if k in known})
        self.num_actions = int(self.action_space.nvec[0])
        self.pi = nn.Linear(self.net.slot_features, self.num_actions)
        self.vf = nn.Sequential(
            nn.Linear(self.net.slot_features + self.net.global_features, hidden),
            nn.ReLU(),
            nn.Linear(hidden, 1),
        )
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)
        lens = [self.num_actions] * len(self.action_space.nvec)
        self.action_dist_cls = TorchMultiCategorical.get_partial_dist_cls(  # type: ignore[misc]
            space=self.action_space, input_lens=lens
        )

    def _features(self, batch: dict[str, Any]) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        obs = batch[Columns.OBS]
        slots, glob = self.net(obs)
        return slots, glob, obs["action_mask"]

    def _logits(self, slots: th.Tensor, mask: th.Tensor) -> th.Tensor:
        logits = self.pi(slots)  # [B, U, A]
        legal = mask.view(logits.shape).bool()
        masked: th.Tensor = th.where(legal, logits, th.full_like(logits, FLOAT_MIN))
        return masked.flatten(1)

    def _value(self, slots: th.Tensor, glob: th.Tensor) -> th.Tensor:
        v: th.Tensor = self.vf(th.cat([slots.mean(dim=1), glob], dim=1)).squeeze(-1)
        return v

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        slots, _, mask = self._features(batch)
        return {Columns.ACTION_DIST_INPUTS: self._logits(slots, mask)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        slots, glob, mask = self._features(batch)
        return {
            Columns.ACTION_DIST_INPUTS: self._logits(slots, mask),
            Columns.EMBEDDINGS: (slots, glob),
        }

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> th.Tensor:
        """The value of each observation (the ``ValueFunctionAPI``)."""
        if embeddings is None:
            slots, glob, _ = self._features(batch)
        else:
            slots, glob = embeddings
        return self._value(slots, glob)


def module_spec(
    game: str,
    address: str | None = None,
    *,
    token: str | None = None,
    tls: Any = None,
    **model_config: Any,
) -> RLModuleSpec:
    """The ``RLModuleSpec`` of :class:`JgymRLModule` for a game.

    Asks a server (``address`` with its ``token`` and ``tls``, or a local
    one) for the game's spec, for the ``units`` columns of a unit's position.
    """
    from jgym.nets import unit_position_columns  # noqa: PLC0415

    if "position_columns" not in model_config:
        with jgym.Client(address, token=token, tls=tls) as client:
            spec = next(g for g in client.list_games() if g.id == game.removeprefix("jgym/"))
        model_config["position_columns"] = unit_position_columns(spec)
    return RLModuleSpec(module_class=JgymRLModule, model_config=model_config)


def ppo_config(
    game: str = "Moria-v0",
    *,
    num_env_runners: int = 2,
    num_envs_per_env_runner: int = 1,
    addresses: Sequence[str] | None = None,
    env_config: dict[str, Any] | None = None,
    model_config: dict[str, Any] | None = None,
) -> Any:
    """A ``PPOConfig`` for a jgym game: the registered env and :class:`JgymRLModule`.

    Args:
        game: The game id.
        num_env_runners: Ray env runners (processes, on any node of the
            cluster); 0 samples in the driver.
        num_envs_per_env_runner: Games each env runner plays at once.
        addresses: jgym servers; the env runners' games are spread over
            them (module docs). ``None``: each env runner starts a local
            server.
        env_config: More options of :class:`~jgym.env.JgymEnv`
            (``opponents``, ``config``, ``reward_mode``, the servers'
            ``token`` and ``tls``, ...). A ``tls`` given as a path or a
            :class:`jgym.TLS` of paths is sent as the files' text
            (:meth:`jgym.TLS.portable`): env runners on other machines
            need not have the files.
        model_config: Options of :class:`JgymRLModule`.

    Returns:
        The config; change it further (``.training(...)``) and call
        ``build_algo()``.
    """
    from ray.rllib.algorithms.ppo import PPOConfig  # noqa: PLC0415

    game = game.removeprefix("jgym/")
    (name,) = register_envs([game])
    cfg = dict(env_config or {})
    if addresses:
        cfg["addresses"] = list(addresses)
        cfg["num_envs_per_env_runner"] = num_envs_per_env_runner
    if cfg.get("tls") not in (None, False, True):
        tls = cfg["tls"]
        cfg["tls"] = (tls if isinstance(tls, jgym.TLS) else jgym.TLS(root_ca=tls)).portable()
    first = addresses[0] if addresses else cfg.get("address")
    spec = module_spec(
        game, first, token=cfg.get("token"), tls=cfg.get("tls"), **(model_config or {})
    )
    return (
        PPOConfig()  # type: ignore[no-untyped-call]
        .environment(name, env_config=cfg)
        .env_runners(
            num_env_runners=num_env_runners, num_envs_per_env_runner=num_envs_per_env_runner
        )
        .rl_module(rl_module_spec=spec)
    )
