"""The vector environment: many games of one or more servers as one batch.

:class:`JgymVectorEnv` is a :class:`gymnasium.vector.VectorEnv`. Every
learner seat of every game is one sub-environment: with ``num_envs`` games
and L learner seats per game there are ``num_envs * L`` rows, game-major
(row ``g * L + l`` is learner ``l`` of game ``g``). With the default single
learner (three ``Demo`` opponents) rows and games coincide.

Each step is one message per server: the actions go out as one int8 tensor,
and the observations come back as one tensor per name, viewed with
:func:`numpy.frombuffer` (no per-element copy; the arrays are read-only).
With a server on this host that offers the local channel (a server this
package starts does, on Linux), the batches are exchanged in shared memory
instead (:mod:`jgym.local`): same API, same results.
:meth:`JgymVectorEnv.step_async` sends without waiting, so Python can work
while the server steps; :meth:`JgymVectorEnv.step_wait` collects the batch.

Example:
    >>> import jgym
    >>> envs = jgym.make_vec("Crematoria-v0", num_envs=4)  # doctest: +SKIP
    >>> obs, info = envs.reset(seed=7)  # doctest: +SKIP
    >>> obs["board"].shape, obs["action_mask"].shape  # doctest: +SKIP
    ((4, 3, 40, 80), (4, 80, 11))
    >>> envs.metadata["autoreset_mode"]  # doctest: +SKIP
    <AutoresetMode.NEXT_STEP: 'NextStep'>
    >>> envs.close()  # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from jgym._batch import MAX_SEED, Array, Batch, Decoder, check_seed, make_seats, split_action
from jgym._rows import RowAPI
from jgym.client import Client, Session
from jgym.env import RENDER_MODES, check_render_mode, check_tensors
from jgym.errors import InvalidArgumentError, JgymError, SessionError
from jgym.local import SPLIT_MIN_ENVS, SessionLink, exchange
from jgym.render import renderer
from jgym.tensors import action_space, flat_space, flatten, observation_space

__all__ = ["JgymVectorEnv", "make_vec"]


def _split(n: int, k: int) -> list[int]:
    """Splits n envs over k servers as evenly as possible, earlier ones first.

    Example:
        >>> _split(10, 3)
        [4, 3, 3]
    """
    return [n // k + (i < n % k) for i in range(k)]


class JgymVectorEnv(RowAPI, VectorEnv[Any, Any, Any]):
    """Many games served by jgym, as a Gymnasium vector environment.

    Args:
        game: The game id, e.g. ``"Crematoria-v0"``.
        num_envs: Number of games (each has L learner seats, see the module
            docs: the vector env has ``num_envs * L`` sub-environments).
        opponents: Bots in the last seats; the others are learners. Default:
            three ``"Demo"`` (one learner). ``()`` is four-seat self-play.
        learners: Number of learner seats per game (the first seats); the
            others are ``opponents``, or ``"Demo"`` bots.
        seats: Four explicit seats (``None`` for learners), instead of
            ``opponents``.
        shuffle_seats: Permute the seats at every reset (from the seed).
        reward_mode: ``"score_delta"`` (default), ``"relative"`` or ``"rank"``.
        autoreset_mode: A :class:`~gymnasium.vector.AutoresetMode`; declared
            in ``metadata["autoreset_mode"]``.
        config: Configuration text in the kit's format, or a path to one.
        address: ``host:port`` of a running server. Default: start a local
            one.
        addresses: Several servers; the games are split across them in
            order, and game ``g`` plays the same games wherever it runs
            (seeds ``seed + g + k * num_envs``, as on one server).
        action_order: Also take the order of the commands: actions become a
            Dict of ``"action"`` and ``"order"`` (a priority per slot).
        trace_env0: Server-side directory where game 0 of the first server
            writes a ``.res`` trace of each game.
        idle_timeout: Seconds without a request after which a server closes
            the session (0: the server's default, 5 minutes for ``jgym
            serve``); raise it when training pauses long between steps.
        connect_timeout: Seconds to wait for each server.
        token: Token of a server started with ``--tokens`` (default:
            ``$JGYM_TOKEN``).
        tls: TLS to the server: a :class:`jgym.TLS`, the CA's PEM path, or
            ``True`` (default: ``$JGYM_TLS_CA`` if set).
        observation_delta: Receive each observation as its changes since
            the last one (about a quarter of the bytes; the arrays are
            rebuilt here, writable and owned). ``False``: raw tensors,
            returned as read-only views of the message.
        render_mode: ``"rgb_array"`` or ``"ansi"``: :meth:`render` draws
            every sub-environment's board (a tuple, as Gymnasium's own
            vector envs); ``None`` draws nothing.
        flatten_observation: Observations are one float32 ``[num_envs, N]``
            array (the Dict's tensors in key order, ``action_mask`` first;
            :func:`jgym.tensors.flat_space`), for libraries that want a Box.
        command_order: The order of a learner's commands when it gives no
            order: ``"slot"`` (default, increasing unit id) or one the game
            offers (``spec_proto.action_orders``: ``"attacks_first"``); the
            policy trained so records it on export (``action_order``).
        opponent_order: How the observation orders the three opponents:
            ``"seat"`` (default) or one the game offers
            (``spec_proto.opponent_orders``: ``"score"``, the leader first).
        unit_rewards: Also return each learner's per-unit credit of every
            step, ``info["unit_rewards"]`` float32 ``[num_envs, U]``: what
            each of its unit slots earned by the game's scoring (the
            server computes it; docs/training.md).
        credit_weights: Weights of the per-unit credit by name
            (``spec_proto.credit_weights``: e.g. ``{"capture": 5}``).
        tensors: The observation tensors to compute, by name (default:
            all of ``spec_proto.observation``; the game's opt-in tensors,
            ``GameSpec.opt_in`` of ``Client.list_games``, only by name):
            the server skips the others
            (Crematoria's ``paths`` and ``sun_paths`` are most of its
            encoder's cost) and the observation space has only those and
            the masks actions need (``action_mask``, the game's
            ``policy_mask``). A policy trained so records them on export
            (ONNX metadata ``tensors``).
        local: Exchange batches with the server in shared memory (the
            local channel, :mod:`jgym.local`): ``None`` (default) when the
            server is on this host and offers it, else gRPC; ``True``
            requires it; ``False`` always uses gRPC. :attr:`local_sessions`
            says which sessions use it.
        copy: Observations returned over the local channel are copies
            (default, Gymnasium's ``copy=`` convention). ``False`` returns
            read-only views of the shared memory, valid until the next
            :meth:`step`, :meth:`reset` or :meth:`set_state` (which write
            there); over gRPC the arrays are always the caller's.

    The vector environment pickles: the copy connects to the same servers
    (or starts its own local one) with the same options and needs a
    :meth:`reset`.

    Raises:
        InvalidArgumentError: A bad option, or a setup the server refused
            (the message is the server's).
        ServerUnavailableError: A server does not answer.
        ServerStartError: The local server could not be started.
    """

    #: The fewest games of a session whose steps go over the local channel
    #: as two halves in flight (:meth:`jgym.local.LocalChannel.send_step`);
    #: 0 (the default): never.
    split_min_envs: int = SPLIT_MIN_ENVS

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's convention
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": list(RENDER_MODES),
        "render_fps": 8,
    }

    def __init__(
        self,
        game: str = "Crematoria-v0",
        num_envs: int = 1,
        *,
        opponents: Sequence[str] | None = None,
        learners: int | None = None,
        seats: Sequence[str | None] | None = None,
        shuffle_seats: bool = False,
        reward_mode: str = "score_delta",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        config: str | os.PathLike[str] = "",
        address: str | None = None,
        addresses: Sequence[str] | None = None,
        action_order: bool = False,
        trace_env0: str = "",
        idle_timeout: int = 0,
        connect_timeout: float = 10.0,
        observation_delta: bool = True,
        token: str | None = None,
        tls: Any = None,
        render_mode: str | None = None,
        flatten_observation: bool = False,
        command_order: str = "",
        opponent_order: str = "",
        unit_rewards: bool = False,
        credit_weights: Mapping[str, float] | None = None,
        tensors: Sequence[str] | None = None,
        local: bool | None = None,
        copy: bool = True,
    ) -> None:
        self._kwargs = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        game = game.removeprefix("jgym/")
        if num_envs < 1:
            raise InvalidArgumentError(f"num_envs {num_envs}: want at least 1")
        if address is not None and addresses is not None:
            raise InvalidArgumentError("give address or addresses, not both")
        addrs: list[str | None] = list(addresses) if addresses else [address]
        if len(addrs) > num_envs:
            addrs = addrs[:num_envs]
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.game_id = game
        self.seats = make_seats(seats, opponents, learners)
        self.with_order = action_order
        self.render_mode = check_render_mode(render_mode)
        names = check_tensors(tensors, render_mode)
        self.flatten_observation = flatten_observation
        self.closed = False
        self._clients: list[Client] = []
        self._sessions: list[Session] = []
        self._links: list[SessionLink] = []
        self._offsets: list[int] = []
        try:
            offset = 0
            for i, (addr, n) in enumerate(zip(addrs, _split(num_envs, len(addrs)), strict=True)):
                client = Client(addr, connect_timeout=connect_timeout, token=token, tls=tls)
                self._clients.append(client)
                self._sessions.append(
                    client.create_session(
                        game,
                        n,
                        self.seats,
                        shuffle_seats=shuffle_seats,
                        reward_mode=reward_mode,
                        autoreset_mode=self.autoreset_mode,
                        config=config,
                        trace_env0=trace_env0 if i == 0 else "",
                        # every game keeps the seeds it would have on one server
                        seed_stride=num_envs,
                        idle_timeout_seconds=idle_timeout,
                        observation_delta=observation_delta,
                        command_order=command_order,
                        opponent_order=opponent_order,
                        unit_rewards=unit_rewards,
                        credit_weights=credit_weights,
                        tensors=names,
                    )
                )
                self._links.append(SessionLink(self._sessions[-1], addr, local, copy))
                self._offsets.append(offset)
                offset += n
        except BaseException:
            self.close_extras()
            raise
        first = self._sessions[0]
        self.spec_proto = first.game
        self.num_games = num_envs
        self.num_learners = first.num_learners
        self.num_slots = first.num_slots
        self.num_envs = num_envs * self.num_learners
        self.single_dict_observation_space = observation_space(first.game)
        self.single_observation_space = (
            flat_space(self.single_dict_observation_space)
            if flatten_observation
            else self.single_dict_observation_space
        )
        self.single_action_space = action_space(first.game, action_order)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._decoders = [Decoder(s.game, s.num_learners, s) for s in self._sessions]
        self._obs: dict[str, Array] | None = None  # last full batch (partial resets)
        self._info_last: dict[str, Any] | None = None
        self._stepping = False
        self._row_attrs: dict[str, tuple[Any, ...]] = {}
        # Only a render mode needs the game's renderer (a game may have none).
        self._renderer = renderer(self.spec_proto.observation_version) if self.render_mode else None

    # --- pickling ---------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        return {"kwargs": self._kwargs}

    def __setstate__(self, state: dict[str, Any]) -> None:
        kwargs = dict(state["kwargs"])
        self.__init__(kwargs.pop("game"), kwargs.pop("num_envs"), **kwargs)  # type: ignore[misc]

    @property
    def server_pids(self) -> list[int]:
        """The pids of the local servers this environment started (or shares)."""
        return [c.server.pid for c in self._clients if c.server is not None]

    @property
    def local_sessions(self) -> list[bool]:
        """Whether each server's session exchanges batches in shared memory."""
        return [link.channel is not None for link in self._links]

    @property
    def games_per_server(self) -> list[tuple[str, int]]:
        """Each server's address and the number of games it hosts, in game order."""
        return [(c.address, s.num_envs) for c, s in zip(self._clients, self._sessions, strict=True)]

    # --- Gymnasium API ---------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Starts new games in all (or, with ``options["reset_mask"]``, some) envs.

        Args:
            seed: Game ``g`` gets seed ``seed + g``; or a list of one seed
                (or ``None``) per sub-environment, the rows of a game
                sharing one; ``None`` continues each game's own seed
                sequence. Seeds are 0..2^31-1.
            options: ``{"reset_mask": bool array of num_envs}`` resets only
                the masked sub-environments (their games); for
                ``AutoresetMode.DISABLED``.

        Returns:
            The observations (a dict of ``[num_envs, ...]`` arrays, or one
            float32 array with ``flatten_observation``) and info.

        Raises:
            InvalidArgumentError: A bad seed or reset mask.
            SessionError: The environment is closed, or a step is pending.
        """
        if self.closed:
            raise SessionError("reset on a closed environment")
        if self._stepping:
            raise SessionError("reset during step_async: call step_wait first")
        seeds = self._game_seeds(seed)
        games = self._reset_games(options)
        if isinstance(seeds, list):
            if games is not None:
                raise InvalidArgumentError("a list of seeds resets every game: no reset_mask")
            first = next((x for x in seeds if x is not None), None)
            super().reset(seed=first)
            return self._reset_each(seeds)
        super().reset(seed=seeds)
        counts = []
        with self._exchange():
            for s, link, off in zip(self._sessions, self._links, self._offsets, strict=True):
                ids = (
                    None
                    if games is None
                    else [g - off for g in games if off <= g < off + s.num_envs]
                )
                counts.append(0 if ids == [] else 1)
                if ids == []:
                    continue
                link.send_reset(None if seeds is None else seeds + off, ids)
            batches = self._gather(counts)
        return self._out(*self._merge(batches, partial=games is not None))

    def _game_seeds(self, seed: Any) -> int | list[int | None] | None:
        """The reset's seed: one int (game g gets seed + g), None, or one per game.

        A list has one seed (or ``None``) per sub-environment, as Gymnasium's
        vector envs take; the rows of a game (its learner seats) share one.
        """
        if seed is None or isinstance(seed, int | np.integer):
            s = check_seed(seed)
            if s is not None and s + self.num_games - 1 > MAX_SEED:
                raise InvalidArgumentError(
                    f"seed {s}: game {self.num_games - 1} would get {s + self.num_games - 1}, "
                    f"want at most {MAX_SEED}"
                )
            return s
        if not isinstance(seed, list | tuple | np.ndarray):
            raise InvalidArgumentError(
                f"seed {seed!r}: want an int 0..{MAX_SEED} (game g uses seed + g), None, or a "
                f"list of {self.num_envs}"
            )
        rows = [check_seed(x, f"seed[{i}]") for i, x in enumerate(list(seed))]
        if len(rows) != self.num_envs:
            raise InvalidArgumentError(f"seed: got {len(rows)} seeds, want {self.num_envs}")
        L = self.num_learners  # noqa: N806
        per_game = rows[::L]
        for g in range(self.num_games):
            if len(set(rows[g * L : (g + 1) * L])) > 1:
                raise InvalidArgumentError(
                    f"seed: rows {g * L}..{(g + 1) * L - 1} are the learners of game {g} and "
                    "need one seed"
                )
        first = per_game[0]
        if first is not None and all(x == first + g for g, x in enumerate(per_game)):
            return first
        return per_game

    def _reset_each(self, seeds: list[int | None]) -> tuple[Any, dict[str, Any]]:
        """Resets every game with its own seed: a request per run of seeds."""
        counts = []
        with self._exchange():
            for s, link, off in zip(self._sessions, self._links, self._offsets, strict=True):
                # env i of a request seeded b gets (b + i) mod 2^31: group the
                # envs by the b that gives each its seed.
                groups: dict[int | None, list[int]] = {}
                for i in range(s.num_envs):
                    x = seeds[off + i]
                    groups.setdefault(None if x is None else (x - i) % (MAX_SEED + 1), []).append(i)
                for base, ids in groups.items():
                    link.send_reset(base, None if len(ids) == s.num_envs else ids)
                counts.append(len(groups))
            batches = self._gather(counts)
        return self._out(*self._merge(batches, partial=True))

    def _sessions_of(self, games: Sequence[int] | None) -> list[list[int]]:
        """The games (of 0..num_games-1) each session holds, as its env ids."""
        if games is None:
            games = range(self.num_games)
        per: list[list[int]] = [[] for _ in self._sessions]
        for game in games:
            g = int(game)
            if not 0 <= g < self.num_games:
                raise InvalidArgumentError(f"game {g}: want 0..{self.num_games - 1}")
            for j, (s, off) in enumerate(zip(self._sessions, self._offsets, strict=True)):
                if off <= g < off + s.num_envs:
                    per[j].append(g - off)
        return per

    def get_state(self, games: Sequence[int] | None = None) -> list[bytes]:
        """Saves the games in progress (see :meth:`jgym.JgymEnv.get_state`).

        Args:
            games: Game indices (``0..num_games-1``; game ``g`` holds the
                sub-environments ``g*L..g*L+L-1``); ``None`` for all.

        Returns:
            One opaque saved state per game, in the order asked.
        """
        if self._stepping:
            raise SessionError("get_state during step_async: call step_wait first")
        order = list(range(self.num_games)) if games is None else [int(g) for g in games]
        saved: dict[int, bytes] = {}
        for s, off, ids in zip(
            self._sessions, self._offsets, self._sessions_of(order), strict=True
        ):
            if ids:
                for i, st in zip(ids, s.get_state(ids), strict=True):
                    saved[off + i] = st
        return [saved[g] for g in order]

    def set_state(
        self, states: Sequence[bytes], games: Sequence[int] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Restores saved games (see :meth:`get_state`).

        It is answered as a reset of those games: the observations of every
        sub-environment, the others unchanged.
        """
        if self.closed:
            raise SessionError("set_state on a closed environment")
        if self._stepping:
            raise SessionError("set_state during step_async: call step_wait first")
        order = list(range(self.num_games)) if games is None else [int(g) for g in games]
        if len(states) != len(order):
            raise InvalidArgumentError(f"{len(states)} states for {len(order)} games")
        if self._obs is None and len(order) != self.num_games:
            raise SessionError("set_state of some games before the first full reset")
        by_game = {g: bytes(st) for g, st in zip(order, states, strict=True)}
        counts = []
        with self._exchange():
            for s, link, off, ids in zip(
                self._sessions, self._links, self._offsets, self._sessions_of(order), strict=True
            ):
                # Requests of at most half the server's request limit.
                limit = s.max_request_bytes // 2 or 1 << 62
                chunks: list[list[int]] = []
                size = limit
                for i in ids:
                    n = len(by_game[off + i]) + 16
                    if size + n > limit:
                        chunks.append([])
                        size = 0
                    chunks[-1].append(i)
                    size += n
                for chunk in chunks:
                    link.send_set_state([by_game[off + i] for i in chunk], chunk)
                counts.append(len(chunks))
            batches = self._gather(counts)
        partial = len(order) != self.num_games or sum(counts) > 1
        return self._out(*self._merge(batches, partial=partial))

    def _out(self, obs: dict[str, Array], info: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        self._info_last = info
        if self.flatten_observation:
            return flatten(self.single_dict_observation_space, obs, self.num_envs), info
        return obs, info

    def _reset_games(self, options: dict[str, Any] | None) -> list[int] | None:
        if not options or options.get("reset_mask") is None:
            return None
        mask = np.asarray(options["reset_mask"], dtype=bool)
        if mask.shape != (self.num_envs,):
            raise InvalidArgumentError(
                f"reset_mask: got shape {mask.shape}, want ({self.num_envs},)"
            )
        if self._obs is None:
            raise SessionError("reset_mask before the first full reset")
        per_game = mask.reshape(self.num_games, self.num_learners).any(axis=1)
        return [int(g) for g in np.flatnonzero(per_game)]

    def step(self, actions: Any) -> tuple[dict[str, Array], Array, Array, Array, dict[str, Any]]:
        """Plays one round in every game; see :meth:`step_async`."""
        with self._exchange():
            self.step_async(actions)
            return self.step_wait()

    def _exchange(self) -> Any:
        """Requests and answers that an interrupt cannot leave half done.

        See :func:`jgym.local.exchange`: after an interrupt, the pending step
        is forgotten and the next reset starts new sessions.
        """
        return exchange(self._links, self._forget)

    def _forget(self) -> None:
        self._stepping = False

    def step_async(self, actions: Any) -> None:
        """Sends the actions of every sub-environment without waiting.

        Args:
            actions: ``[num_envs, U]`` directions (any integer dtype); with
                ``action_order``, a dict of that under ``"action"`` and
                ``[num_envs, U]`` priorities under ``"order"``.

        Raises:
            InvalidArgumentError: The actions have the wrong size.
            SessionError: A step is already pending.
        """
        if self.closed:
            raise SessionError("step on a closed environment")
        if self._stepping:
            raise SessionError("step_async twice: call step_wait first")
        if self._obs is None:
            raise SessionError("step before reset: call reset() first")
        acts, order = split_action(
            actions,
            (self.num_envs, self.num_slots),
            self.spec_proto.num_actions,
            self.with_order,
            "actions",
        )
        with self._exchange():
            for s, link, off in zip(self._sessions, self._links, self._offsets, strict=True):
                lo, hi = off * self.num_learners, (off + s.num_envs) * self.num_learners
                link.send_step(
                    acts[lo:hi],
                    None if order is None else order[lo:hi],
                    # Halves in flight overlap copying one with stepping the
                    # other; not when a refused half could leave the other
                    # stepped (a finished game with autoreset disabled).
                    halves=0 < self.split_min_envs <= s.num_envs
                    and self.autoreset_mode != AutoresetMode.DISABLED,
                )
            self._stepping = True

    def step_wait(
        self, **kwargs: Any
    ) -> tuple[dict[str, Array], Array, Array, Array, dict[str, Any]]:
        """Waits for the batch sent by :meth:`step_async`.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``;
            rewards are float32, the flags bool, all ``[num_envs]``.
            ``infos`` holds ``scores`` (``[num_envs, 4]``, seat order),
            ``rank``, ``round``, ``seat`` (the learner's seat) and
            ``episode_index``; with ``AutoresetMode.SAME_STEP`` also
            ``final_obs`` and ``final_info`` as Gymnasium's own vector envs.
        """
        with self._exchange():
            if not self._stepping:
                raise SessionError("step_wait without step_async")
            self._stepping = False
            batches = self._gather([1] * len(self._sessions))
        obs, info = self._merge(batches, partial=False)
        if len(batches) == 1:  # one session: its arrays, no concatenation
            b = batches[0][1]
            reward = b.reward.reshape(self.num_envs)
            terminated, truncated = self._rows(b.terminated), self._rows(b.truncated)
        else:
            reward = self._cat([b.reward for _, b in batches]).reshape(self.num_envs)
            terminated = self._per_row([b.terminated for _, b in batches])
            truncated = self._per_row([b.truncated for _, b in batches])
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            self._add_final(batches, info)
            if self.flatten_observation and "final_obs" in info:
                for i in np.flatnonzero(info["_final_obs"]):
                    info["final_obs"][i] = flatten(
                        self.single_dict_observation_space, info["final_obs"][i]
                    )
        if batches[0][1].unit_rewards is not None:
            units = self._cat([b.unit_rewards for _, b in batches])  # type: ignore[misc]
            info["unit_rewards"] = units.reshape(self.num_envs, -1)
            info["_unit_rewards"] = np.ones(self.num_envs, dtype=bool)
        obs_out, info = self._out(obs, info)
        return obs_out, reward, terminated, truncated, info

    def _gather(self, counts: list[int]) -> list[tuple[int, Batch]]:
        """Receives ``counts[j]`` answers from session ``j``.

        Every answer is read even when one is an error, so that no session
        is left with an unread answer; then the first error is raised.
        """
        batches: list[tuple[int, Batch]] = []
        error: JgymError | None = None
        for link, dec, off, n in zip(
            self._links, self._decoders, self._offsets, counts, strict=True
        ):
            for _ in range(n):
                try:
                    batches.append((off, link.recv(dec)))
                except JgymError as e:
                    error = error or e
        if error is not None:
            raise error
        return batches

    def close_extras(self, **kwargs: Any) -> None:
        """Closes the sessions and the connections (stopping a local server). Idempotent.

        Also safe on an env whose constructor failed (nothing opened yet).
        """
        for link in getattr(self, "_links", []):
            link.close()
        for s in getattr(self, "_sessions", []):
            s.close()
        for c in getattr(self, "_clients", []):
            c.close()
        self._links = []
        self._sessions = []
        self._clients = []

    # --- batching ---------------------------------------------------------------

    def _cat(self, parts: list[Array]) -> Array:
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def _per_row(self, parts: list[Array]) -> Array:
        """Per-game values ``[B]`` -> per-row ``[B * L]``."""
        return self._rows(self._cat(parts))

    def _rows(self, a: Array) -> Array:
        """Per-game values ``[B]`` of one part -> per-row ``[B * L]``."""
        return a if self.num_learners == 1 else np.repeat(a, self.num_learners, axis=0)

    def _merge(
        self, batches: list[tuple[int, Batch]], partial: bool
    ) -> tuple[dict[str, Array], dict[str, Any]]:
        n, L = self.num_envs, self.num_learners  # noqa: N806
        if not partial and len(batches) == 1:  # one session: reshapes, no concatenation
            b = batches[0][1]
            obs = {k: v.reshape(n, *v.shape[2:]) for k, v in b.obs.items()}
            self._obs = obs
            info = self._info(
                b.scores,
                b.rank.reshape(n),
                self._rows(b.round),
                b.seat.reshape(n),
                self._rows(b.episode),
            )
            return obs, info
        if not partial:
            obs = {
                k: self._cat([b.obs[k] for _, b in batches]).reshape(
                    n, *batches[0][1].obs[k].shape[2:]
                )
                for k in batches[0][1].obs
            }
            self._obs = obs
            info = self._info(
                self._cat([b.scores for _, b in batches]),
                self._cat([b.rank for _, b in batches]).reshape(n),
                self._per_row([b.round for _, b in batches]),
                self._cat([b.seat for _, b in batches]).reshape(n),
                self._per_row([b.episode for _, b in batches]),
            )
            return obs, info
        # A partial reset: copy the new games' rows into the last batch (or,
        # seed by seed, into a new one).
        if self._obs is None:
            obs = {k: np.zeros((n, *v.shape[2:]), v.dtype) for k, v in batches[0][1].obs.items()}
        else:
            obs = {k: v.copy() for k, v in self._obs.items()}
        for off, b in batches:
            rows = ((off + b.env_ids)[:, None] * L + np.arange(L)).reshape(-1)
            for k, v in b.obs.items():
                obs[k][rows] = v.reshape(len(rows), *v.shape[2:])
        self._obs = obs
        info = self._info(
            np.zeros((self.num_games, 4), np.int32),
            np.zeros(n, np.int32),
            np.zeros(n, np.int32),
            np.zeros(n, np.int32),
            np.zeros(n, np.int32),
        )
        mask = np.zeros(n, bool)
        for off, b in batches:
            rows = ((off + b.env_ids)[:, None] * L + np.arange(L)).reshape(-1)
            mask[rows] = True
            info["scores"][rows] = np.repeat(b.scores, L, axis=0)
            info["rank"][rows] = b.rank.reshape(-1)
            info["round"][rows] = np.repeat(b.round, L)
            info["seat"][rows] = b.seat.reshape(-1)
            info["episode_index"][rows] = np.repeat(b.episode, L)
        for k in ("scores", "rank", "round", "seat", "episode_index"):
            info["_" + k] = mask
        return obs, info

    def _info(
        self, scores: Array, rank: Array, round_: Array, seat: Array, episode: Array
    ) -> dict[str, Any]:
        if self.num_learners > 1:
            scores = np.repeat(scores, self.num_learners, axis=0)
        ones = np.ones(self.num_envs, dtype=bool)
        return {
            "scores": scores,
            "rank": rank,
            "round": round_,
            "seat": seat,
            "episode_index": episode,
            "_scores": ones,
            "_rank": ones,
            "_round": ones,
            "_seat": ones,
            "_episode_index": ones,
        }

    def _add_final(self, batches: list[tuple[int, Batch]], info: dict[str, Any]) -> None:
        """Adds Gymnasium's same-step ``final_obs`` and ``final_info`` entries."""
        n, L = self.num_envs, self.num_learners  # noqa: N806
        final_obs = np.full(n, None, dtype=object)
        mask = np.zeros(n, dtype=bool)
        scores = np.zeros((n, 4), dtype=np.int32)
        for off, b in batches:
            for f, pos in enumerate(b.final_index):
                g = off + int(b.env_ids[pos])
                for learner in range(L):
                    row = g * L + learner
                    final_obs[row] = {k: v[f, learner] for k, v in b.final_obs.items()}
                    scores[row] = b.final_scores[f]
                    mask[row] = True
        if mask.any():
            info["final_obs"] = final_obs
            info["_final_obs"] = mask
            info["final_info"] = {"scores": scores, "_scores": mask}
            info["_final_info"] = mask

    def __repr__(self) -> str:
        where = ", ".join(c.address for c in self._clients) or "closed"
        return f"JgymVectorEnv({self.game_id}, num_envs={self.num_envs}, {where})"


def make_vec(game: str = "Crematoria-v0", num_envs: int = 1, **kwargs: Any) -> JgymVectorEnv:
    """Makes a :class:`JgymVectorEnv`; the options are its constructor's.

    Args:
        game: The game id; ``"jgym/Crematoria-v0"`` is accepted too.
        num_envs: Number of games.
        **kwargs: See :class:`JgymVectorEnv`.

    Returns:
        The vector environment.
    """
    return JgymVectorEnv(game.removeprefix("jgym/"), num_envs, **kwargs)
