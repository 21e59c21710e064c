"""The multi-agent environment: four learner seats, for self-play.

:class:`JgymParallelEnv` is a :class:`pettingzoo.ParallelEnv` whose agents
are ``"player_0"`` .. ``"player_3"``, learner ``i`` of the table (seat ``i``
unless ``shuffle_seats``; ``info["seat"]`` tells). Every agent observes the
game egocentrically, so one policy can play all four. The legal moves are in
``observation["action_mask"]`` (int8 0/1, ``[U, 11]``), as PettingZoo users
expect, and ``env.action_space(agent).sample(mask=observation["action_mask"])``
draws a legal action.

Example:
    >>> import jgym
    >>> env = jgym.parallel_env("Crematoria-v0")  # doctest: +SKIP
    >>> obs, infos = env.reset(seed=3)  # doctest: +SKIP
    >>> env.agents  # doctest: +SKIP
    ['player_0', 'player_1', 'player_2', 'player_3']
    >>> actions = {
    ...     a: env.action_space(a).sample(mask=obs[a]["action_mask"]) for a in env.agents
    ... }  # doctest: +SKIP
    >>> obs, rewards, terminations, truncations, infos = env.step(actions)  # doctest: +SKIP
    >>> env.close()  # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from jgym._batch import Array, Batch, Decoder, check_seed, make_seats, split_action
from jgym.client import Client, Session
from jgym.env import RENDER_MODES, check_render_mode, check_tensors
from jgym.errors import InvalidArgumentError, SessionError
from jgym.render import BoardRenderer, renderer
from jgym.tensors import action_space, flat_space, flatten, observation_space

__all__ = ["JgymParallelEnv", "parallel_env"]


class JgymParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """A jgym game whose learner seats are PettingZoo agents.

    Args:
        game: The game id, e.g. ``"Crematoria-v0"``.
        seats: Four seats, ``None`` for agents (default: four agents); bots
            by name (e.g. ``[None, "Demo", None, "Demo"]`` for two agents).
        shuffle_seats: Permute the seats at every reset (from the seed).
        reward_mode: ``"score_delta"`` (default), ``"relative"`` or ``"rank"``.
        config: Configuration text in the kit's format, or a path to one.
        address: ``host:port`` of a running server. Default: start a local
            one.
        action_order: Actions are dicts of ``"action"`` and ``"order"``.
        trace_env0: Server-side directory for a ``.res`` trace of each game.
        render_mode: ``"rgb_array"`` (the board as an image, in the
            viewer's colours), ``"ansi"`` (the board as text) or ``None``.
        connect_timeout: Seconds to wait for the server.
        token: Token of a server started with ``--tokens`` (default:
            ``$JGYM_TOKEN``).
        tls: TLS to the server: a :class:`jgym.TLS`, the CA's PEM path, or
            ``True`` (default: ``$JGYM_TLS_CA`` if set).
        tensors: The observation tensors to compute, by name (default:
            all): every agent's observation space has only those and the
            masks actions need, as :class:`~jgym.vector.JgymVectorEnv`'s.

    The global state (:meth:`state`, :attr:`state_space`, for centralised
    critics such as MAPPO's) is the whole game as the first agent sees it:
    its observation without the masks, flattened to float32, then its seat
    one-hot. Every jgym game shows the whole board to every seat, so this
    is the complete state, in one agent's frame for the whole episode.

    The environment pickles: the copy connects to the same server (or
    starts its own) with the same options and needs a :meth:`reset`.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "name": "jgym_crematoria_v0",
        "render_modes": list(RENDER_MODES),
        "render_fps": 8,
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game: str = "Crematoria-v0",
        *,
        seats: Sequence[str | None] = (None, None, None, None),
        shuffle_seats: bool = False,
        reward_mode: str = "score_delta",
        config: str | os.PathLike[str] = "",
        address: str | None = None,
        action_order: bool = False,
        trace_env0: str = "",
        render_mode: str | None = None,
        connect_timeout: float = 10.0,
        token: str | None = None,
        tls: Any = None,
        tensors: Sequence[str] | None = None,
    ) -> None:
        self._kwargs = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        game = game.removeprefix("jgym/")
        self.metadata = {**type(self).metadata, "name": "jgym_" + game.lower().replace("-", "_")}
        self.render_mode = check_render_mode(render_mode)
        names = check_tensors(tensors, render_mode)
        self.game_id = game
        self.with_order = action_order
        self._client = Client(address, connect_timeout=connect_timeout, token=token, tls=tls)
        try:
            self._session: Session = self._client.create_session(
                game,
                1,
                make_seats(seats, None),
                shuffle_seats=shuffle_seats,
                reward_mode=reward_mode,
                autoreset_mode="Disabled",
                config=config,
                trace_env0=trace_env0,
                tensors=names,
            )
        except BaseException:
            self._client.close()
            raise
        n = self._session.num_learners
        self._decoder = Decoder(self._session.game, n, self._session)
        self.num_slots = self._session.num_slots
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        obs_space = observation_space(self._session.game)
        self.observation_spaces = {
            a: observation_space(self._session.game) if i else obs_space
            for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {
            a: action_space(self._session.game, action_order) for a in self.possible_agents
        }
        self._state_keys = [k for k in obs_space if not k.endswith("mask")]
        self._state_dict_space = spaces.Dict({k: obs_space[k] for k in self._state_keys})
        box = flat_space(self._state_dict_space)
        self.state_space = spaces.Box(
            low=np.concatenate([box.low, np.zeros(4, np.float32)]),
            high=np.concatenate([box.high, np.ones(4, np.float32)]),
            dtype=np.float32,
        )
        # Only a render mode needs the game's renderer (a game may have none).
        self._renderer: BoardRenderer | None = (
            renderer(self._session.game.observation_version) if self.render_mode else None
        )
        self._last: Batch | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"kwargs": self._kwargs}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state["kwargs"])  # type: ignore[misc]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Returns the agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Returns the agent's action space (the same object every call)."""
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Starts a new game with every agent alive.

        Args:
            seed: The game's seed, 0..2^31-1; ``None`` continues the seed
                sequence.
            options: Unused.

        Returns:
            Observations and infos by agent.

        Raises:
            InvalidArgumentError: A seed that is no int 0..2^31-1.
            SessionError: The environment is closed.
        """
        seed = check_seed(seed)
        if self._session.closed:
            raise SessionError("reset on a closed environment")
        b = self._decoder.decode(self._session.reset(seed))
        self.agents = list(self.possible_agents)
        self._last = b
        return self._obs(b), self._infos(b)

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Plays one round with every live agent's action.

        Args:
            actions: By agent: ``U`` directions (or, with ``action_order``,
                a dict of ``"action"`` and ``"order"``). Missing agents play
                ``None`` (10) everywhere.

        Returns:
            Observations, rewards, terminations, truncations and infos by
            agent. When the game ends every agent terminates and
            :attr:`agents` becomes empty.

        Raises:
            SessionError: No live agents (call :meth:`reset`).
            InvalidArgumentError: An action for an agent that is not live.
            InvalidActionError: An action of the wrong shape or dtype, or a
                value out of range (the same checks as the single and vector
                environments).
        """
        if not self.agents:
            raise SessionError("step with no live agents: call reset()")
        n, u = len(self.possible_agents), self.num_slots
        acts = np.full((n, u), self._session.game.num_actions - 1, dtype=np.int8)
        order = np.zeros((n, u), dtype=np.int16) if self.with_order else None
        for agent, a in actions.items():
            if agent not in self.agents:
                raise InvalidArgumentError(f"action for {agent!r}, not a live agent")
            i = self.possible_agents.index(agent)
            acts[i], o = split_action(
                a, (u,), self._session.game.num_actions, self.with_order, f"action of {agent}"
            )
            if order is not None and o is not None:
                order[i] = o
        b = self._decoder.decode(self._session.step(acts, order))
        self._last = b
        done = bool(b.terminated[0])
        cut = bool(b.truncated[0])
        obs, infos = self._obs(b), self._infos(b)
        rewards = {a: float(b.reward[0, i]) for i, a in enumerate(self.agents)}
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, cut)
        if done or cut:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def _obs(self, b: Batch) -> dict[str, Any]:
        return {
            a: {k: v[0, i] for k, v in b.obs.items()}
            for i, a in enumerate(self.possible_agents)
            if a in self.agents
        }

    def _infos(self, b: Batch) -> dict[str, Any]:
        return {
            a: {
                "scores": b.scores[0],
                "rank": int(b.rank[0, i]),
                "round": int(b.round[0]),
                "seat": int(b.seat[0, i]),
            }
            for i, a in enumerate(self.possible_agents)
            if a in self.agents
        }

    def state(self) -> Array:
        """The global state: the first agent's observation without masks, and its seat.

        Returns:
            A float32 vector in :attr:`state_space` (see the class).

        Raises:
            SessionError: Before the first reset.
        """
        if self._last is None:
            raise SessionError("state before reset: call reset()")
        b = self._last
        obs = {k: b.obs[k][0, 0] for k in self._state_keys}
        seat = np.zeros(4, np.float32)
        seat[int(b.seat[0, 0])] = 1.0
        return np.concatenate([flatten(self._state_dict_space, obs), seat])

    def render(self) -> Any:
        """Draws the board as the first agent sees it (see :meth:`jgym.JgymEnv.render`).

        Returns:
            An image (``"rgb_array"``), text (``"ansi"``) or ``None``.
        """
        if self.render_mode is None or self._last is None:
            return None
        b = self._last
        obs = {k: v[0, 0] for k, v in b.obs.items()}
        seat = int(b.seat[0, 0])
        assert self._renderer is not None  # made for the render mode
        if self.render_mode == "rgb_array":
            return self._renderer.rgb(obs, seat, b.scores[0])
        return self._renderer.ansi(obs, seat, b.scores[0], int(b.round[0]))

    def close(self) -> None:
        """Closes the session and the connection (stopping a local server). Idempotent."""
        self._session.close()
        self._client.close()

    @property
    def server_pid(self) -> int | None:
        """The pid of the local server the environment started, if any."""
        return self._client.server.pid if self._client.server is not None else None


def parallel_env(game: str = "Crematoria-v0", **kwargs: Any) -> JgymParallelEnv:
    """Makes a :class:`JgymParallelEnv`; the options are its constructor's.

    Args:
        game: The game id; ``"jgym/Crematoria-v0"`` is accepted too.
        **kwargs: See :class:`JgymParallelEnv`.

    Returns:
        The environment.
    """
    return JgymParallelEnv(game.removeprefix("jgym/"), **kwargs)
