"""Every bad action is refused with the same named error in the single, vector and PettingZoo envs.

The cases of issue 16: int64 values outside the directions (258 is not
played as 2, 2**40 not as 0, 1000 is named as 1000), negative values, NaN
and other floats, bools, wrong shapes and dicts, priorities outside int16;
seeds outside 0..2^31-1 (2**63 and more), lists of seeds; a closed env.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import jgym
from jgym.errors import InvalidActionError, InvalidArgumentError, SessionError

U, A = 80, 11  # Crematoria's unit slots and directions


def single(address: str, **kw: Any) -> tuple[Any, Callable[[Any], Any]]:
    env = jgym.JgymEnv(address=address, **kw)
    env.reset(seed=1)
    return env, env.step


def vector(address: str, **kw: Any) -> tuple[Any, Callable[[Any], Any]]:
    env = jgym.make_vec("Crematoria-v0", num_envs=2, address=address, **kw)
    env.reset(seed=1)

    def step(a: Any) -> Any:
        if isinstance(a, dict):
            return env.step({k: np.stack([np.asarray(v)] * 2) for k, v in a.items()})
        if not isinstance(a, np.ndarray) or a.ndim != 1:
            return env.step(a)  # as it is: the vector env must refuse it itself
        return env.step(np.stack([a, a]))

    return env, step


def parallel(address: str, **kw: Any) -> tuple[Any, Callable[[Any], Any]]:
    env = jgym.parallel_env("Crematoria-v0", address=address, **kw)
    env.reset(seed=1)
    return env, lambda a: env.step({"player_0": a})


KINDS = {"single": single, "vector": vector, "parallel": parallel}


@pytest.fixture(params=list(KINDS))
def stepper(request: pytest.FixtureRequest, address: str) -> Iterator[Callable[[Any], Any]]:
    env, step = KINDS[request.param](address)
    yield step
    env.close()


def none(dtype: Any = np.int64) -> np.ndarray:
    return np.full(U, A - 1, dtype=dtype)


@pytest.mark.parametrize(
    ("value", "dtype", "named"),
    [
        (258, np.int64, "value 258"),  # was cast to int8 first: played as 2
        (2**40, np.int64, "value 1099511627776"),  # played as 0
        (1000, np.int64, "value 1000"),  # the message said "value -24"
        (11, np.int64, "value 11"),
        (-1, np.int64, "value -1"),
        (-129, np.int32, "value -129"),
        (300, np.uint16, "value 300"),
    ],
)
def test_out_of_range(stepper: Callable[[Any], Any], value: int, dtype: Any, named: str) -> None:
    a = none(dtype)
    a[3] = value
    # the vector env names the row too: index (0, 3)
    with pytest.raises(InvalidActionError, match=rf"{named} at index (3|\(0, 3\)).*want 0..10"):
        stepper(a)


@pytest.mark.parametrize(
    "action",
    [
        np.full(U, np.nan),  # the parallel env played it after a numpy warning
        np.full(U, 10.0),  # integral floats too: a float is not a direction
        np.full(U, 10.0, dtype=np.float32),
        np.ones(U, dtype=bool),  # bools were accepted
    ],
    ids=["nan", "float64", "float32", "bool"],
)
def test_not_integers(stepper: Callable[[Any], Any], action: np.ndarray) -> None:
    with pytest.raises(InvalidActionError, match="want integers"):
        stepper(action)


@pytest.mark.parametrize(
    "action",
    [np.zeros(U - 1, np.int64), np.zeros((U, 1), np.int64), [[1, 2], [3]], {"action": none()}],
    ids=["short", "2d", "ragged", "dict"],
)
def test_wrong_shape(stepper: Callable[[Any], Any], action: Any) -> None:
    with pytest.raises(InvalidActionError):
        stepper(action)


def test_errors_are_named_and_invalid_arguments() -> None:
    assert issubclass(InvalidActionError, InvalidArgumentError)
    assert issubclass(InvalidActionError, ValueError)


def test_legal_actions_still_play(stepper: Callable[[Any], Any]) -> None:
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8):
        stepper(none(dtype))
    stepper(none())


@pytest.mark.parametrize("kind", list(KINDS))
def test_order_out_of_int16(kind: str, address: str) -> None:
    env, step = KINDS[kind](address, action_order=True)
    try:
        order = np.zeros(U, np.int64)
        order[5] = 70_000
        with pytest.raises(InvalidActionError, match=r"value 70000 at index (5|\(0, 5\))"):
            step({"action": none(), "order": order})
        with pytest.raises(InvalidActionError, match="want integers"):
            step({"action": none(), "order": np.zeros(U)})
        with pytest.raises(InvalidActionError, match="'action' and 'order'"):
            step(none())
        step({"action": none(), "order": np.arange(U)})
    finally:
        env.close()


def test_session_checks_too(address: str) -> None:
    """The lower-level Session refuses the same actions before they reach the wire."""
    with jgym.Client(address) as client:
        s = client.create_session("Crematoria-v0", 1, ["", "Demo", "Demo", "Demo"])
        s.reset(seed=0)
        with pytest.raises(InvalidActionError, match="value 258"):
            s.step(np.full((1, 1, U), 258))


# --- seeds -----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize(
    ("seed", "named"),
    [(2**63, "9223372036854775808"), (2**64 + 5, "18446744073709551621"), (2**31, "2147483648"),
     (-1, "-1"), ("7", "'7'"), (1.5, "1.5")],
)  # fmt: skip
def test_bad_seed(kind: str, seed: Any, named: str, address: str) -> None:
    env, _ = KINDS[kind](address)
    try:
        with pytest.raises(InvalidArgumentError, match=f"seed {named}"):
            env.reset(seed=seed)
        env.reset(seed=2**31 - 2)  # the env is still usable
    finally:
        env.close()


def test_vector_seed_overflow(address: str) -> None:
    envs = jgym.make_vec("Crematoria-v0", num_envs=3, address=address)
    try:
        with pytest.raises(InvalidArgumentError, match="game 2 would get"):
            envs.reset(seed=2**31 - 2)
    finally:
        envs.close()


def test_vector_list_of_seeds(address: str, short_config: str) -> None:
    """A list of seeds (one per sub-environment) is taken, as Gymnasium's vector envs take it."""
    seeds = [11, 3, 2**31 - 1, 3]
    envs = jgym.make_vec("Crematoria-v0", num_envs=4, address=address, config=short_config)
    try:
        obs, _ = envs.reset(seed=seeds)
        for g, s in enumerate(seeds):
            one = jgym.make_vec("Crematoria-v0", num_envs=1, address=address, config=short_config)
            o, _ = one.reset(seed=s)
            one.close()
            for k in obs:
                np.testing.assert_array_equal(obs[k][g], o[k][0], err_msg=f"game {g} key {k}")
        obs2, _ = envs.reset(seed=[11, 12, 13, 14])  # consecutive: one request
        o3, _ = envs.reset(seed=11)
        np.testing.assert_array_equal(obs2["board"], o3["board"])
        envs.reset(seed=[None, 5, None, 6])
        envs.step(np.full((4, U), A - 1))
        with pytest.raises(InvalidArgumentError, match="want 4"):
            envs.reset(seed=[1, 2])
        with pytest.raises(InvalidArgumentError, match=r"seed\[1\] 9223372036854775808"):
            envs.reset(seed=[1, 2**63, 3, 4])
    finally:
        envs.close()


def test_vector_seeds_per_game_with_learners(address: str) -> None:
    envs = jgym.make_vec("Crematoria-v0", num_envs=2, learners=2, address=address)
    try:
        envs.reset(seed=[4, 4, 9, 9])
        with pytest.raises(InvalidArgumentError, match="learners of game 0"):
            envs.reset(seed=[4, 5, 9, 9])
    finally:
        envs.close()


# --- closed envs -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(KINDS))
def test_reset_after_close(kind: str, address: str) -> None:
    """reset() of a closed vector env raised "zip() argument 2 is longer than argument 1"."""
    env, step = KINDS[kind](address)
    env.close()
    env.close()  # idempotent
    with pytest.raises(SessionError, match="closed"):
        env.reset(seed=1)
    with pytest.raises((SessionError, InvalidArgumentError)):
        step(none())
