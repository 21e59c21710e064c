"""Stable-Baselines3 on jgym: a batched VecEnv, a board extractor and a masked slot policy.

Three pieces, for SB3 and sb3-contrib's ``MaskablePPO`` (the ``[train]``
extra); any jgym game:

- :class:`JgymSB3VecEnv`: a ``stable_baselines3`` ``VecEnv`` over one
  :class:`~jgym.vector.JgymVectorEnv` (one gRPC message per step for all
  envs, instead of one per env with SB3's ``DummyVecEnv``), with
  ``action_masks()`` for ``MaskablePPO``;
- :class:`BoardExtractor`: a features extractor for jgym's Dict
  observations (:class:`jgym.nets.SlotNet`: for every unit slot the
  embedded board cells around it and its own row of ``units``, and the
  whole board at a quarter of its resolution);
- :class:`SlotPolicy`: ``MaskablePPO``'s multi-input policy whose action
  head is shared by all unit slots (one small linear map from a slot's
  features to its logits), so what one unit learns every unit knows.

Example:
    >>> from sb3_contrib import MaskablePPO  # doctest: +SKIP
    >>> venv = JgymSB3VecEnv("Moria-v0", num_envs=8)  # doctest: +SKIP
    >>> model = MaskablePPO(SlotPolicy, venv, policy_kwargs=policy_kwargs(venv))  # doctest: +SKIP
    >>> model.learn(10_000)  # doctest: +SKIP

``examples/sb3_maskable.py`` trains and evaluates one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import VecEnv
from torch import nn

from jgym.nets import SlotNet, unit_position_columns
from jgym.vector import JgymVectorEnv, make_vec

__all__ = [
    "BoardExtractor",
    "JgymSB3VecEnv",
    "SlotHead",
    "SlotPolicy",
    "policy_kwargs",
]


def policy_kwargs(env: Any, **overrides: Any) -> dict[str, Any]:
    """Returns ``policy_kwargs`` for :class:`SlotPolicy` on a jgym env.

    Args:
        env: A :class:`JgymSB3VecEnv`, :class:`~jgym.vector.JgymVectorEnv`
            or :class:`~jgym.env.JgymEnv` (for its game's spec).
        **overrides: Keyword arguments of :class:`BoardExtractor`.
    """
    venv = env.venv if isinstance(env, JgymSB3VecEnv) else env
    spec = venv.unwrapped.spec_proto if hasattr(venv, "unwrapped") else venv.spec_proto
    kwargs = {"position_columns": unit_position_columns(spec), **overrides}
    return {"features_extractor_kwargs": kwargs}


class JgymSB3VecEnv(VecEnv):
    """An SB3 ``VecEnv`` over one batched :class:`~jgym.vector.JgymVectorEnv`.

    Finished games restart in the same step (SB3's convention): the final
    observation is in ``infos[i]["terminal_observation"]``, the final
    scores in ``infos[i]["scores"]``. ``action_masks()`` (and
    ``env_method("action_masks")``) give ``MaskablePPO`` the flat boolean
    masks, ``[num_envs, U * num_actions]``.

    Args:
        game: The game id, e.g. ``"Moria-v0"``.
        num_envs: Number of games (one learner seat each unless ``opponents``
            says otherwise).
        seed: Seed of the first reset (game ``g`` uses ``seed + g``).
        **kwargs: Options of :class:`~jgym.vector.JgymVectorEnv`
            (``opponents``, ``address``, ``config``, ...).
    """

    def __init__(
        self, game: str = "Crematoria-v0", num_envs: int = 8, seed: int = 0, **kwargs: Any
    ) -> None:
        self.venv: JgymVectorEnv = make_vec(game, num_envs, autoreset_mode="SameStep", **kwargs)
        super().__init__(
            self.venv.num_envs, self.venv.single_observation_space, self.venv.single_action_space
        )
        self._seed: int | None = seed
        self._obs: dict[str, np.ndarray[Any, Any]] | None = None
        self.render_mode = self.venv.render_mode

    def reset(self) -> dict[str, np.ndarray[Any, Any]]:
        """Resets every game (seeded on the first call, see ``seed()``)."""
        obs, _ = self.venv.reset(seed=self._seed)
        self._seed = None
        self._obs = obs
        out: dict[str, np.ndarray[Any, Any]] = obs
        return out

    def step_async(self, actions: np.ndarray[Any, Any]) -> None:
        """Sends the actions of every env."""
        self.venv.step_async(actions)

    def step_wait(self) -> tuple[Any, np.ndarray[Any, Any], np.ndarray[Any, Any], list[Any]]:
        """Waits for the step; see the class for the infos."""
        obs, reward, term, trunc, info = self.venv.step_wait()
        self._obs = obs
        dones = term | trunc
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        final = info.get("final_obs")
        final_scores = info.get("final_info", {}).get("scores")
        for i in np.flatnonzero(dones):
            infos[i]["TimeLimit.truncated"] = bool(trunc[i] and not term[i])
            if final is not None and final[i] is not None:
                infos[i]["terminal_observation"] = final[i]
            if final_scores is not None:
                infos[i]["scores"] = final_scores[i]
                infos[i]["seat"] = int(info["seat"][i])
        return obs, reward, dones, infos

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal actions of every env, flat: ``[num_envs, U * num_actions]`` bool."""
        assert self._obs is not None, "reset first"
        return self._obs["action_mask"].reshape(self.num_envs, -1).astype(bool)

    def close(self) -> None:
        """Closes the vector env (and a local server it started)."""
        self.venv.close()

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """Returns an attribute of each env (see :meth:`JgymVectorEnv.get_attr`)."""
        values = self.venv.get_attr(attr_name)
        return [values[i] for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Sets an attribute of each env (see :meth:`JgymVectorEnv.set_attr`)."""
        values = list(self.venv.get_attr(attr_name)) if indices is not None else []
        if indices is None:
            self.venv.set_attr(attr_name, value)
            return
        for i in self._indices(indices):
            values[i] = value
        self.venv.set_attr(attr_name, values)

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        """Calls a method of each env; ``action_masks`` gives each env's mask."""
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        values = self.venv.call(method_name, *args, **kwargs)
        return [values[i] for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        """No env is wrapped (the rows are games of one batch)."""
        return [False] * len(self._indices(indices))

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seeds the next reset: game ``g`` gets ``seed + g``."""
        self._seed = seed
        return [None if seed is None else seed + g for g in range(self.num_envs)]

    def get_images(self) -> Sequence[np.ndarray[Any, Any] | None]:
        """Each env's board image (needs ``render_mode="rgb_array"``)."""
        return list(self.venv.call("render"))


class BoardExtractor(BaseFeaturesExtractor):
    """SB3's features extractor for jgym observations: :class:`~jgym.nets.SlotNet`.

    The output is ``[U * slot_features]`` slot features then
    ``global_features``: :class:`SlotPolicy` reads them back as slots.

    Args:
        observation_space: A jgym observation space.
        **kwargs: Options of :class:`~jgym.nets.SlotNet` (``position_columns``
            from :func:`policy_kwargs`).
    """

    def __init__(self, observation_space: spaces.Dict, **kwargs: Any) -> None:
        net = SlotNet(observation_space, **kwargs)
        super().__init__(observation_space, net.num_slots * net.slot_features + net.global_features)
        self.net = net
        self.num_slots: int = net.num_slots
        self.slot_features: int = net.slot_features

    def forward(self, obs: dict[str, th.Tensor]) -> th.Tensor:
        """Slot features then global features, ``[B, U * slot_features + global]``."""
        slots, glob = self.net(obs)
        out: th.Tensor = th.cat([slots.flatten(1), glob], dim=1)
        return out


class SlotHead(nn.Module):
    """The action head shared by all unit slots: a slot's features to its logits."""

    def __init__(self, num_slots: int, slot_features: int, num_actions: int) -> None:
        super().__init__()
        self.num_slots, self.slot_features = num_slots, slot_features
        self.linear = nn.Linear(slot_features, num_actions)

    def forward(self, latent: th.Tensor) -> th.Tensor:
        """``[B, U * F + G]`` features to ``[B, U * num_actions]`` logits."""
        slots = latent[:, : self.num_slots * self.slot_features]
        slots = slots.view(latent.shape[0], self.num_slots, self.slot_features)
        logits: th.Tensor = self.linear(slots).flatten(1)
        return logits


class SlotPolicy(MaskableMultiInputActorCriticPolicy):
    """``MaskablePPO``'s multi-input policy with :class:`BoardExtractor` and :class:`SlotHead`.

    The policy's latent is the extractor's output itself (``net_arch`` pi
    is empty), so the action head sees each slot's features; the value
    has an MLP over the whole. Use it with :func:`policy_kwargs`.
    """

    def __init__(self, observation_space: spaces.Dict, action_space: spaces.Space[Any],
                 lr_schedule: Any, **kwargs: Any) -> None:  # fmt: skip
        kwargs.setdefault("features_extractor_class", BoardExtractor)
        kwargs.setdefault("net_arch", {"pi": [], "vf": [64]})
        kwargs.setdefault("normalize_images", False)  # the board holds codes, not pixels
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        ext = self.features_extractor
        space = self.action_space
        assert isinstance(ext, BoardExtractor) and isinstance(space, spaces.MultiDiscrete)
        self.action_net = SlotHead(ext.num_slots, ext.slot_features, int(space.nvec[0]))
        if self.ortho_init:
            self.action_net.apply(lambda m: self.init_weights(m, gain=0.01))
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )  # type: ignore[call-arg]
