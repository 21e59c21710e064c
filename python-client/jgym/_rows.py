"""The per-row side of the vector env: pictures, masks and Gymnasium's attribute API.

A jgym vector env's sub-environments are the rows of one batch on a
server, not objects: :class:`RowAPI` answers ``render``, ``action_masks``,
``get_attr``, ``set_attr`` and ``call`` row by row from the last batch and
from what the vector env shares (:class:`jgym.vector.JgymVectorEnv` mixes
it in).
"""

from __future__ import annotations

from typing import Any

from jgym._batch import Array
from jgym.client import Client
from jgym.env import check_render_mode
from jgym.errors import InvalidArgumentError, SessionError
from jgym.render import BoardRenderer, renderer

__all__ = ["RowAPI"]


class RowAPI:
    """Row-by-row answers for a vector env (see the module)."""

    num_envs: int
    num_learners: int
    render_mode: str | None
    _obs: dict[str, Array] | None
    _info_last: dict[str, Any] | None
    _renderer: BoardRenderer | None
    spec_proto: Any  # the game's GameSpec (jgym.vector.JgymVectorEnv)
    _clients: list[Client]
    _offsets: list[int]
    _row_attrs: dict[str, tuple[Any, ...]]

    def render(self) -> tuple[Any, ...] | None:
        """Draws every sub-environment's board (see :meth:`jgym.JgymEnv.render`).

        Returns:
            A tuple of ``num_envs`` images (``"rgb_array"``) or texts
            (``"ansi"``), as Gymnasium's own vector envs; ``None`` without a
            render mode or before the first reset.
        """
        if self.render_mode is None or self._obs is None:
            return None
        return tuple(self._render_row(i) for i in range(self.num_envs))

    def _render_row(self, i: int) -> Any:
        assert self._obs is not None and self._info_last is not None
        obs = {k: v[i] for k, v in self._obs.items()}
        info = self._info_last
        seat = int(info["seat"][i])
        assert self._renderer is not None  # made for the render mode
        if self.render_mode == "rgb_array":
            return self._renderer.rgb(obs, seat, info["scores"][i])
        return self._renderer.ansi(obs, seat, info["scores"][i], int(info["round"][i]))

    def action_masks(self) -> Array:
        """The legal actions of the last observations: ``[num_envs, U * num_actions]`` bool."""
        if self._obs is None:
            raise SessionError("action_masks before reset: call reset()")
        return self._obs["action_mask"].reshape(self.num_envs, -1).astype(bool)

    #: What a sub-environment (one row) reports through :meth:`get_attr` and
    #: :meth:`call`, besides the settings all rows share.
    ROW_ATTRIBUTES = ("seat", "scores", "rank", "round", "episode_index", "server_address")
    #: What :meth:`call` runs per row.
    ROW_METHODS = ("render", "action_masks")
    _SHARED = {  # noqa: RUF012 - the attribute a row reports for a vector attribute
        "observation_space": "single_observation_space",
        "action_space": "single_action_space",
    }

    def _row_value(self, name: str, i: int) -> Any:
        if name in self._row_attrs:
            return self._row_attrs[name][i]
        if name in ("seat", "scores", "rank", "round", "episode_index"):
            if self._info_last is None:
                raise SessionError(f"{name} before reset: call reset()")
            v = self._info_last[name][i]
            return v if name == "scores" else int(v)
        if name == "server_address":
            g = i // self.num_learners
            j = max(k for k, off in enumerate(self._offsets) if off <= g)
            return self._clients[j].address
        name = self._SHARED.get(name, name)
        if not hasattr(self, name):
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")
        return getattr(self, name)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Returns an attribute of every sub-environment, as Gymnasium's vector API.

        A row reports its own ``seat``, ``scores``, ``rank``, ``round``,
        ``episode_index`` and ``server_address``, what :meth:`set_attr`
        gave it, and otherwise the setting all rows share (``render_mode``,
        ``game_id``, ``spec``, ``metadata``; ``observation_space`` and
        ``action_space`` are the single ones).

        Raises:
            AttributeError: No such attribute.
        """
        return tuple(self._row_value(name, i) for i in range(self.num_envs))

    def set_attr(self, name: str, values: Any) -> None:
        """Sets an attribute of every sub-environment, as Gymnasium's vector API.

        Args:
            name: The attribute. ``render_mode`` is shared by all rows (the
                values must agree); other names are kept per row and
                returned by :meth:`get_attr` (the rows are games of a batch
                on a server: there is no object per row to set them on).
            values: One value per sub-environment, or one for all.

        Raises:
            InvalidArgumentError: Not ``num_envs`` values, or rows that
                disagree on a shared setting, or a row-level name
                (``seat``, ``scores``, ...) that the games decide.
        """
        if not isinstance(values, list | tuple):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise InvalidArgumentError(
                f"set_attr {name}: got {len(values)} values, want {self.num_envs}"
            )
        if name in self.ROW_ATTRIBUTES or name in self.ROW_METHODS:
            raise InvalidArgumentError(f"set_attr {name}: the games decide it")
        if name == "render_mode":
            if any(v != values[0] for v in values):
                raise InvalidArgumentError("set_attr render_mode: all rows share one")
            self.render_mode = check_render_mode(values[0])
            if self.render_mode and self._renderer is None:  # the game's, made on first use
                self._renderer = renderer(self.spec_proto.observation_version)
            return
        self._row_attrs[name] = tuple(values)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Calls a method of every sub-environment (or gets an attribute), as Gymnasium's.

        ``render`` gives each row's picture (the same as :meth:`render`),
        ``action_masks`` each row's flat mask; a non-callable name is
        :meth:`get_attr`.

        Raises:
            AttributeError: No such method or attribute.
            InvalidArgumentError: A method of the whole batch (``step``,
                ``reset``, ...), which has no per-row form.
        """
        if name == "render":
            if self.render_mode is None or self._obs is None:
                return (None,) * self.num_envs
            return tuple(self._render_row(i) for i in range(self.num_envs))
        if name == "action_masks":
            return tuple(self.action_masks())
        values = self.get_attr(name)
        if any(callable(v) for v in values):
            raise InvalidArgumentError(
                f"call {name}: a method of the whole batch, not of a row (rows have "
                f"{list(self.ROW_METHODS)}); call envs.{name}() itself"
            )
        return values
