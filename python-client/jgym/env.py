"""The single-agent environment: one learner seat against bots.

``import jgym`` registers it with Gymnasium as ``jgym/<Game>-v0`` for every
game of :data:`jgym.GAMES`.

Example:
    >>> import gymnasium, jgym
    >>> env = gymnasium.make(
    ...     "jgym/Crematoria-v0", opponents=("Demo", "Demo", "Demo")
    ... )  # doctest: +SKIP
    >>> obs, info = env.reset(seed=1)  # doctest: +SKIP
    >>> sorted(obs)  # doctest: +SKIP
    ['action_mask', 'board', 'globals', 'units']
    >>> action = env.action_space.sample(mask=obs["action_mask"])  # doctest: +SKIP
    >>> obs, reward, terminated, truncated, info = env.step(action)  # doctest: +SKIP
    >>> env.close()  # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium

from jgym._batch import Array, Batch, Decoder, check_seed, make_seats, split_action
from jgym.client import Client, Session, TraceStart
from jgym.errors import InvalidArgumentError, SessionError
from jgym.local import SessionLink, exchange
from jgym.render import BoardRenderer, renderer
from jgym.tensors import action_space, flat_space, flatten, observation_space

__all__ = ["RENDER_MODES", "JgymEnv"]

#: The render modes of every jgym environment: a board image per game in
#: the viewer's colours, or the board as text (:mod:`jgym.render`).
RENDER_MODES = ("ansi", "rgb_array")


def check_render_mode(mode: str | None) -> str | None:
    """Returns ``mode`` if jgym renders it.

    Raises:
        InvalidArgumentError: Another mode (``"human"``: record ``rgb_array``
            frames with ``gymnasium.wrappers.RecordVideo``, or watch a
            ``.res`` trace with ``jgym view``).
    """
    if mode is not None and mode not in RENDER_MODES:
        raise InvalidArgumentError(
            f"render_mode {mode!r}: want one of {list(RENDER_MODES)} or None (for a window, "
            "record rgb_array frames with gymnasium.wrappers.RecordVideo or watch a "
            "trace with jgym view)"
        )
    return mode


def check_tensors(tensors: Sequence[str] | None, render_mode: str | None) -> list[str]:
    """Returns the names of a ``tensors=`` option as a list (empty: all).

    Raises:
        InvalidArgumentError: A single string instead of a sequence of
            names, a name that is no string, or a subset without
            ``board`` with a render mode (the renderers draw the board).
    """
    if tensors is None:
        return []
    if isinstance(tensors, str) or not all(isinstance(t, str) for t in tensors):
        raise InvalidArgumentError(f"tensors {tensors!r}: want a sequence of tensor names")
    names = list(tensors)
    if names and render_mode is not None and "board" not in names:
        raise InvalidArgumentError("tensors: a render mode needs the board tensor")
    return names


class JgymEnv(gymnasium.Env[Any, Any]):
    """One learner seat of a jgym game, as a Gymnasium environment.

    Observations are a dict of the game's tensors for the learner's seat
    (egocentric: the learner is always "me"; see docs/observation.md), with
    the bool ``action_mask`` as int8 0/1; with ``flatten_observation`` one
    float32 vector instead. The action is one direction per unit slot,
    ``MultiDiscrete([num_actions] * U)``; slots the learner does not own are
    ignored.

    The environment pickles (``pickle``, ``cloudpickle``): the copy connects
    to the same server, or starts its own local one, with the same options;
    it has no game until its first :meth:`reset`. So subprocess vector envs
    (Gymnasium's ``AsyncVectorEnv``, SB3's ``SubprocVecEnv``, SuperSuit) and
    Ray workers can carry it.

    Args:
        game: The game id, e.g. ``"Crematoria-v0"`` (:data:`jgym.GAMES`).
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
        render_mode: ``"rgb_array"`` (the board as an image, in the viewer's
            colours), ``"ansi"`` (the board as text) or ``None``.
        flatten_observation: Observations are one float32 vector (a
            ``Box``), the Dict's tensors one after the other in key order
            (``action_mask`` first; :func:`jgym.tensors.flat_space`), for
            libraries that want a Box.
        connect_timeout: Seconds to wait for the server.
        token: Token of a server started with ``--tokens`` (default:
            ``$JGYM_TOKEN``).
        tls: TLS to the server: a :class:`jgym.TLS`, the CA's PEM path, or
            ``True`` (default: ``$JGYM_TLS_CA`` if set).
        command_order: ``"slot"`` (default) or an order the game offers
            (``"attacks_first"``), as :class:`~jgym.vector.JgymVectorEnv`.
        opponent_order: ``"seat"`` (default) or ``"score"``, as the
            vector env.
        unit_rewards: Also return the learner's per-unit credit of every
            step, ``info["unit_rewards"]`` float32 ``[U]``.
        credit_weights: Weights of the per-unit credit by name.
        tensors: The observation tensors to compute, by name (default:
            all): the observation space has only those and the masks
            actions need (``action_mask``, the game's ``policy_mask``),
            as the vector env.
        local: Exchange the game's steps with the server in shared memory
            (the local channel, docs/local.md): ``None`` (default) when the
            server is on this host and offers it, ``True`` requires it,
            ``False`` uses gRPC. Observations are the caller's own either
            way.

    Raises:
        InvalidArgumentError: A bad option, or a setup the server refused.
        ServerUnavailableError: The server does not answer.
        VersionMismatchError: The server speaks another protocol.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 8}  # noqa: RUF012

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
        flatten_observation: bool = False,
        connect_timeout: float = 10.0,
        token: str | None = None,
        tls: Any = None,
        command_order: str = "",
        opponent_order: str = "",
        unit_rewards: bool = False,
        credit_weights: Mapping[str, float] | None = None,
        tensors: Sequence[str] | None = None,
        local: bool | None = None,
    ) -> None:
        self._kwargs = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        game = game.removeprefix("jgym/")
        opps = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(opps) != 3:
            raise InvalidArgumentError(f"opponents: got {len(opps)} bots, want 3")
        if not 0 <= seat < 4:
            raise InvalidArgumentError(f"seat {seat}: want 0..3")
        seats: list[str | None] = list(opps)
        seats.insert(seat, None)
        self.render_mode = check_render_mode(render_mode)
        names = check_tensors(tensors, render_mode)
        self.game_id = game
        self.with_order = action_order
        self.flatten_observation = flatten_observation
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
                command_order=command_order,
                opponent_order=opponent_order,
                unit_rewards=unit_rewards,
                credit_weights=credit_weights,
                tensors=names,
            )
        except BaseException:
            self._client.close()
            raise
        try:
            self._link = SessionLink(self._session, address, local, copy=True)
        except BaseException:
            self._client.close()
            raise
        self._decoder = Decoder(self._session.game, 1, self._session)
        self.spec_proto = self._session.game
        self.num_slots = self._session.num_slots
        self.dict_observation_space = observation_space(self._session.game)
        self.observation_space = (
            flat_space(self.dict_observation_space)
            if flatten_observation
            else self.dict_observation_space
        )
        self.action_space = action_space(self._session.game, action_order)
        # Only a render mode needs the game's renderer (a game may have none).
        self._renderer: BoardRenderer | None = (
            renderer(self.spec_proto.observation_version) if self.render_mode else None
        )
        self._done = True
        self._last: Batch | None = None

    # --- pickling ---------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        return {"kwargs": self._kwargs}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state["kwargs"])  # type: ignore[misc]

    # --- the server ------------------------------------------------------------------

    @property
    def server_address(self) -> str:
        """The address of the server the environment plays on."""
        return self._client.address

    @property
    def server_pid(self) -> int | None:
        """The pid of the local server the environment started, if any."""
        return self._client.server.pid if self._client.server is not None else None

    # --- Gymnasium API -----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Starts a new game.

        Args:
            seed: The game's seed, 0..2^31-1 (the kit's ``-s``); ``None``
                continues the seed sequence.
            options: ``{"trace": bytes, "commands": bytes, "round": k}``
                starts from round ``k`` of a trace (its ``.res`` bytes and
                its command file's), or ``{"trace_name": NAME, "round":
                k}`` from a trace the server offers (``jgym serve
                --start-traces``); the seed is then the trace's.

        Returns:
            The first observation and the info.

        Raises:
            InvalidArgumentError: A seed that is no int 0..2^31-1, or a
                trace start the server refuses.
            SessionError: The environment is closed.
        """
        seed = check_seed(seed)
        if self._session.closed:
            raise SessionError("reset on a closed environment")
        super().reset(seed=seed)
        start = TraceStart.from_options(options)
        with exchange([self._link]):
            self._link.send_reset(seed, None, start)
            b = self._link.recv(self._decoder)
        self._done = False
        self._last = b
        return self._obs(b), self._info(b)

    def get_state(self) -> bytes:
        """Saves the game in progress.

        Returns:
            Opaque bytes (the game's seed, seating and command lists, a few
            bytes per command) that :meth:`set_state` restores into an
            environment of the same game, configuration and seats: the
            game then continues exactly as it would have from here.

        Raises:
            FailedPreconditionError: A seat cannot be saved (a C++ bot),
                or no game was started.
        """
        return self._session.get_state()[0]

    def set_state(self, state: bytes) -> tuple[Any, dict[str, Any]]:
        """Restores a saved game (see :meth:`get_state`).

        Returns:
            The observation and the info at the saved round, as a reset.

        Raises:
            InvalidArgumentError: A state of another game or setup, or a
                damaged one; the environment then needs a reset.
        """
        if self._session.closed:
            raise SessionError("set_state on a closed environment")
        with exchange([self._link]):
            self._link.send_set_state([state], None)
            b = self._link.recv(self._decoder)
        self._done = False
        self._last = b
        return self._obs(b), self._info(b)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Plays one round.

        Args:
            action: ``U`` directions, integers ``0..num_actions-1``; with
                ``action_order``, a dict of that under ``"action"`` and ``U``
                priorities under ``"order"``.

        Returns:
            ``(observation, reward, terminated, truncated, info)``. ``info``
            has ``scores`` (four, in seat order), ``rank`` (1..4), ``round``,
            and ``seat``.

        Raises:
            SessionError: The game is over (call :meth:`reset`).
            InvalidActionError: The action has the wrong shape or dtype, or
                a value out of range (the same checks as the vector and
                PettingZoo environments).
        """
        if self._done:
            raise SessionError("step after the game ended (or before reset): call reset()")
        acts, order = split_action(
            action, (self.num_slots,), self.spec_proto.num_actions, self.with_order, "action"
        )
        with exchange([self._link]):
            self._link.send_step(acts, order)
            b = self._link.recv(self._decoder)
        terminated = bool(b.terminated[0])
        self._done = terminated or bool(b.truncated[0])
        self._last = b
        return self._obs(b), float(b.reward[0, 0]), terminated, bool(b.truncated[0]), self._info(b)

    def action_masks(self) -> Array:
        """The legal actions of the last observation, flat: ``[U * num_actions]`` bool.

        The form sb3-contrib's ``MaskablePPO`` asks for.
        """
        if self._last is None:
            raise SessionError("action_masks before reset: call reset()")
        mask: Array = self._last.obs["action_mask"][0, 0].reshape(-1).astype(bool)
        return mask

    def _obs(self, b: Batch) -> Any:
        obs = {k: v[0, 0] for k, v in b.obs.items()}
        if self.flatten_observation:
            return flatten(self.dict_observation_space, obs)
        return obs

    @staticmethod
    def _info(b: Batch) -> dict[str, Any]:
        info = {
            "scores": b.scores[0],
            "rank": int(b.rank[0, 0]),
            "round": int(b.round[0]),
            "seat": int(b.seat[0, 0]),
        }
        if b.unit_rewards is not None:
            info["unit_rewards"] = b.unit_rewards[0, 0]
        return info

    def render(self) -> Any:
        """Draws the board the learner sees.

        Returns:
            With ``render_mode="rgb_array"`` a ``uint8 [height, width, 3]``
            image (the viewer's colours, a score bar on top); with
            ``"ansi"`` the board as text, with the round and scores; else
            ``None``. Before the first reset: ``None``.
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
        if getattr(self, "_client", None) is not None:
            self._link.close()
            self._session.close()
            self._client.close()
