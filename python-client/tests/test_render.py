"""render_mode="rgb_array" and "ansi" draw every game's board, in the viewer's colours."""

from __future__ import annotations

import numpy as np
import pytest

import jgym
from jgym.errors import InvalidArgumentError
from jgym.render import OWNED, PLAYER, renderer

GAMES = list(jgym.GAMES)


def rgb(c: str) -> tuple[int, int, int]:
    return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)


def colours(img: np.ndarray) -> set[tuple[int, int, int]]:
    return {tuple(int(x) for x in c) for c in np.unique(img.reshape(-1, 3), axis=0)}


@pytest.mark.parametrize("game", GAMES)
def test_rgb_array(game: str, address: str) -> None:
    env = jgym.JgymEnv(game, address=address, render_mode="rgb_array")
    try:
        assert env.render() is None  # before reset
        obs, _ = env.reset(seed=2)
        rng = np.random.default_rng(0)
        for _ in range(40):  # long enough for every game to have owners
            obs, *_ = env.step(jgym.sample_masked(obs["action_mask"], rng))
        img = env.render()
        assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
        assert img.shape[0] % 16 == 0 and img.shape[1] % 16 == 0  # what video encoders want
        seen = colours(img)
        # the four players' unit colours (the score bar, and units on the board)
        assert {rgb(c) for c in PLAYER} <= seen
        # owned cells in the pale tints, in every game after a few rounds
        assert seen & {rgb(c) for c in OWNED}
    finally:
        env.close()


@pytest.mark.parametrize("game", GAMES)
def test_ansi_board(game: str, address: str) -> None:
    env = jgym.JgymEnv(game, address=address, render_mode="ansi")
    try:
        obs, _ = env.reset(seed=2)
        text = env.render()
        lines = text.splitlines()
        rows, cols = obs["board"].shape[1:]
        assert lines[0].startswith(game.split("-", maxsplit=1)[0]) and "scores" in lines[0]
        board = [ln for ln in lines[1:-1] if len(ln) == cols]
        # Crematoria shows both levels and a separator
        assert len(board) >= rows
        assert any(ch in "".join(board) for ch in "0123")  # units of the players
    finally:
        env.close()


def test_seat_colours_are_absolute(address: str) -> None:
    """The learner in seat 2 is drawn in seat 2's colour, though it is "me" (rel 0)."""
    r = renderer("moria-obs-1")
    board = np.zeros((7, 60, 60), np.uint8)
    board[4, 10, 10] = 1  # a dwarf of rel 0 (me)
    for seat in range(4):
        img = r.rgb({"board": board}, seat=seat)
        assert rgb(PLAYER[seat]) in colours(img[16:])  # below the bar
        assert r.ansi({"board": board}, seat=seat).splitlines()[11][10] == "0123"[seat]


def test_vector_and_parallel_render(address: str) -> None:
    envs = jgym.make_vec("Pandemic-v0", num_envs=3, address=address, render_mode="rgb_array")
    par = jgym.parallel_env("Dominator-v0", address=address, render_mode="ansi")
    try:
        envs.reset(seed=1)
        frames = envs.render()
        assert isinstance(frames, tuple) and len(frames) == 3
        assert all(f.shape == frames[0].shape for f in frames)
        assert envs.call("render")[1].shape == frames[1].shape
        par.reset(seed=1)
        assert "Dominator" in par.render()
    finally:
        envs.close()
        par.close()


def test_bad_render_mode(address: str) -> None:
    with pytest.raises(InvalidArgumentError, match="render_mode 'human'"):
        jgym.JgymEnv(address=address, render_mode="human")
