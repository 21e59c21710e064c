"""Training with PyTorch: networks, checkpoints, ONNX export, rollouts (the ``train`` extra).

Everything a trainer of jgym's games needs beside its own loop
(``examples/ppo.py`` is one, ``examples/bc.py`` another):

- :mod:`jgym.torch.nets`, :mod:`jgym.torch.local`: the networks
  (:class:`LocalAgent`, the default, and the convolutional :class:`Agent`),
  built from the server's description of a game (:func:`jgym.spec.describe`)
  by :func:`build_agent`;
- :mod:`jgym.torch.checkpoint`: checkpoints (:func:`save_checkpoint`,
  :func:`load_checkpoint`), those of the older ``train_ppo.py`` too;
- :mod:`jgym.torch.export`: the ONNX export the Go and C++ bots play
  (:func:`export_onnx`) and what a file says about itself (:func:`read_onnx`);
- :mod:`jgym.torch.rollout`: the games a learner plays (:class:`Lanes`), its
  observations as tensors, sampling, the greedy policy, reward normalization;
- :mod:`jgym.torch.history`, :mod:`jgym.torch.timing`: a run's record and
  learning curve, and where its time goes.

The self-play league is :mod:`jgym.league` (it needs no PyTorch).

Example:
    >>> import jgym, jgym.torch  # doctest: +SKIP
    >>> envs = jgym.make_vec("Moria-v0", num_envs=2)  # doctest: +SKIP
    >>> agent = jgym.torch.build_agent(jgym.spec.describe(envs.spec_proto))  # doctest: +SKIP
    >>> obs, _ = envs.reset(seed=1)  # doctest: +SKIP
    >>> agent(*jgym.torch.to_torch(obs, agent.input_names)).shape  # doctest: +SKIP
    torch.Size([2, 100, 9])
"""

from jgym.torch.checkpoint import (
    build_agent,
    game_info,
    game_spec,
    load_agent,
    load_checkpoint,
    rng_state,
    save_checkpoint,
    set_rng_state,
)
from jgym.torch.export import OnnxPolicy, export_onnx, read_onnx
from jgym.torch.history import History
from jgym.torch.local import LocalAgent
from jgym.torch.nets import Agent, BoardNet, NetConfig
from jgym.torch.rollout import Final, Lanes, RewardNorm, Step, greedy, sample, to_torch
from jgym.torch.timing import Phases, cpu_has_bf16, keep_freed_memory, set_bf16

__all__ = [
    "Agent",
    "BoardNet",
    "Final",
    "History",
    "Lanes",
    "LocalAgent",
    "NetConfig",
    "OnnxPolicy",
    "Phases",
    "RewardNorm",
    "Step",
    "build_agent",
    "cpu_has_bf16",
    "export_onnx",
    "game_info",
    "game_spec",
    "greedy",
    "keep_freed_memory",
    "load_agent",
    "load_checkpoint",
    "read_onnx",
    "rng_state",
    "sample",
    "save_checkpoint",
    "set_bf16",
    "set_rng_state",
    "to_torch",
]
