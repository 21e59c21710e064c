"""The single-agent environment: one learner seat against bots.

``import jgym`` registers it with Gymnasium as ``jgym/Crematoria-v0``.

Example:
    >>> import gymnasium, jgym
    >>> env = gymnasium.make(
    ...     "jgym/Crematoria-v0", opponents=("Demo", "Demo", "Demo")
    ... )  # doctest: +SKIP
    >>> obs, info = env.reset(seed=1)  # doctest: +SKIP
    >>> sorted(obs)  # doctest: +SKIP
    ['action_mask', 'board', 'globals', 'units']
    >>> action = env.action_space.sample(mask=tuple(obs["action_mask"]))  # doctest: +SKIP
    >>> obs, reward, terminated, truncated, info = env.step(action)  # doctest: +SKIP
    >>> env.close()  # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from jgym._batch import Array, Batch, Decoder, make_seats
from jgym.client import Client, Session
from jgym.errors import InvalidArgumentError, SessionError
from jgym.tensors import action_space, observation_space

__all__ = ["JgymEnv"]


class JgymEnv(gymnasium.Env):
    """One learner seat of a jgym game, as a Gymnasium environment.

    Observations are a dict of the game's tensors for the learner's seat
    (egocentric: the learner is always "me"; see docs/observation.md), with
    the bool ``action_mask`` as int8 0/1. The action is one direction per unit
    slot, ``MultiDiscrete([11] * U)``; slots the learner does not own are
    ignored.

    Args:
        game: The game id, e.g. ``"Crematoria-v0"``.
        opponents: The bots in the other three seats (default three
            ``"Demo"``).
        seat: The learner's seat, 0..3 (the opponents fill the others in
            order).
        shuffle_seats: Permute the seats at every reset instead (from the
            seed); ``info["seat"]`` tells the learner's seat.
        reward_mode: ``"score_delta"`` (default), ``"relative"`` or ``"rank"``.
        config: Configuration text in the kit's format, or a path to one.
        address: ``host:port`` of a running server. Default: start a local
            one.
        action_order: Also take the order of the commands: the action is a
            Dict of ``"action"`` and ``"order"`` (a priority 0..U-1 per slot;
            commands are issued in increasing priority).
        trace_env0: Server-side directory where each game is written as a
            ``.res`` trace.
        render_mode: ``"ansi"`` (the scores and round as text) or ``None``;
            other modes render nothing (gymnasium.make warns about them).
        connect_timeout: Seconds to wait for the server.
        token: Token of a server started with ``--tokens`` (default:
            ``$JGYM_TOKEN``).
        tls: TLS to the server: a :class:`jgym.TLS`, the CA's PEM path, or
            ``True`` (default: ``$JGYM_TLS_CA`` if set).

    Raises:
        InvalidArgumentError: A bad option, or a setup the server refused.
        ServerUnavailableError: The server does not answer.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        game: str = "Crematoria-v0",
        *,
        opponents: Sequence[str] = ("Demo", "Demo", "Demo"),
        seat: int = 0,
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
    ) -> None:
        opps = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(opps) != 3:
            raise InvalidArgumentError(f"opponents: got {len(opps)} bots, want 3")
        if not 0 <= seat < 4:
            raise InvalidArgumentError(f"seat {seat}: want 0..3")
        seats: list[str | None] = list(opps)
        seats.insert(seat, None)
        self.render_mode = render_mode
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
            )
        except BaseException:
            self._client.close()
            raise
        self._decoder = Decoder(self._session.game, 1, self._session)
        self.spec_proto = self._session.game
        self.num_slots = self._session.num_slots
        self.observation_space = observation_space(self._session.game)
        self.action_space = action_space(self._session.game, action_order)
        self._done = True
        self._last: Batch | None = None

    @property
    def server_address(self) -> str:
        """The address of the server the environment plays on."""
        return self._client.address

    @property
    def server_pid(self) -> int | None:
        """The pid of the local server the environment started, if any."""
        return self._client.server.pid if self._client.server is not None else None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Array], dict[str, Any]]:
        """Starts a new game.

        Args:
            seed: The game's seed (the kit's ``-s``); ``None`` continues the
                seed sequence.
            options: Unused.

        Returns:
            The first observation and the info.
        """
        super().reset(seed=seed)
        b = self._decoder.decode(self._session.reset(seed))
        self._done = False
        self._last = b
        return self._obs(b), self._info(b)

    def step(self, action: Any) -> tuple[dict[str, Array], float, bool, bool, dict[str, Any]]:
        """Plays one round.

        Args:
            action: ``U`` directions; with ``action_order``, a dict of that
                under ``"action"`` and ``U`` priorities under ``"order"``.

        Returns:
            ``(observation, reward, terminated, truncated, info)``. ``info``
            has ``scores`` (four, in seat order), ``rank`` (1..4), ``round``,
            and ``seat``.

        Raises:
            SessionError: The game is over (call :meth:`reset`).
            InvalidArgumentError: The action has the wrong shape.
        """
        if self._done:
            raise SessionError("step after the game ended (or before reset): call reset()")
        order = None
        if self.with_order:
            if not isinstance(action, dict) or "action" not in action or "order" not in action:
                raise InvalidArgumentError("action: want a dict of 'action' and 'order'")
            order = self._check(action["order"], "action['order']")
            action = action["action"]
        acts = self._check(action, "action")
        b = self._decoder.decode(self._session.step(acts, order))
        terminated = bool(b.terminated[0])
        self._done = terminated or bool(b.truncated[0])
        self._last = b
        return self._obs(b), float(b.reward[0, 0]), terminated, bool(b.truncated[0]), self._info(b)

    def _check(self, a: Any, what: str) -> Array:
        arr = np.asarray(a)
        if arr.shape != (self.num_slots,):
            raise InvalidArgumentError(f"{what}: got shape {arr.shape}, want ({self.num_slots},)")
        return arr

    @staticmethod
    def _obs(b: Batch) -> dict[str, Array]:
        return {k: v[0, 0] for k, v in b.obs.items()}

    @staticmethod
    def _info(b: Batch) -> dict[str, Any]:
        return {
            "scores": b.scores[0],
            "rank": int(b.rank[0, 0]),
            "round": int(b.round[0]),
            "seat": int(b.seat[0, 0]),
        }

    def render(self) -> str | None:
        """Returns the round, the learner's seat and the scores as text (``"ansi"``)."""
        if self.render_mode != "ansi" or self._last is None:
            return None
        b = self._last
        scores = " ".join(f"{s:5d}" for s in b.scores[0])
        return f"round {int(b.round[0]):4d}  me: seat {int(b.seat[0, 0])}  scores {scores}\n"

    def close(self) -> None:
        """Closes the session and the connection (stopping a local server)."""
        if getattr(self, "_client", None) is not None:
            self._session.close()
            self._client.close()
