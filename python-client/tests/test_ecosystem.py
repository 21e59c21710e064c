"""The ecosystem's own tools on jgym's envs, with tiny budgets (marked ``ecosystem``).

Each test is a row of docs/python.md's table of trainers and wrappers:
SuperSuit's ``concat_vec_envs_v1``, Gymnasium's ``RecordVideo`` and
``AsyncVectorEnv``, SB3's ``SubprocVecEnv``, PettingZoo's API, seed and
state tests, sb3-contrib's ``MaskablePPO`` (examples/sb3_maskable.py) and
RLlib's PPO with masks and several env runners against two servers
(examples/rllib_ppo.py). They run in the default test command; ``-m 'not
ecosystem'`` leaves them out.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from testhelpers import load_example

import jgym

pytestmark = pytest.mark.ecosystem

CLIENT = Path(__file__).resolve().parent.parent
U, A = 80, 11


def needs(*modules: str) -> pytest.MarkDecorator:
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    return pytest.mark.skipif(bool(missing), reason=f"needs {', '.join(missing)} (the extras)")


@needs("supersuit")
def test_supersuit_concat_vec_envs(address: str, short_config: str) -> None:
    """SuperSuit pickles the env into worker processes (it failed: the env held a channel)."""
    import supersuit as ss

    par = jgym.parallel_env("Crematoria-v0", address=address, config=short_config)
    venv = ss.pettingzoo_env_to_vec_env_v1(par)
    envs = ss.concat_vec_envs_v1(venv, 2, num_cpus=2, base_class="gymnasium")
    try:
        obs, _ = envs.reset(seed=1)
        assert obs["board"].shape == (8, 3, 40, 80)  # 2 copies x 4 agents
        rng = np.random.default_rng(0)
        for _ in range(4):  # past the end of a 3-round game
            obs, rew, *_ = envs.step(jgym.sample_masked(obs["action_mask"], rng))
        assert rew.shape == (8,)
    finally:
        envs.close()
        par.close()


@needs("moviepy")
def test_record_video(tmp_path: Path, address: str, short_config: str) -> None:
    from gymnasium.wrappers import RecordVideo

    env = gymnasium.make(
        "jgym/Crematoria-v0", address=address, config=short_config, render_mode="rgb_array"
    )
    env = RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True, disable_logger=True)
    obs, _ = env.reset(seed=1)
    done = False
    while not done:
        obs, _, term, trunc, _ = env.step(env.action_space.sample(mask=obs["action_mask"]))
        done = term or trunc
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


def test_async_vector_env(address: str, short_config: str) -> None:
    """Gymnasium's AsyncVectorEnv runs jgym envs in subprocesses (shared memory, pickled fns)."""
    # "jgym:" imports jgym in the subprocess first (spawn starts a fresh interpreter)
    fns = [
        lambda: gymnasium.make("jgym:jgym/Crematoria-v0", address=address, config=short_config)
        for _ in range(2)
    ]
    envs = gymnasium.vector.AsyncVectorEnv(fns, context="spawn")
    try:
        obs, _ = envs.reset(seed=[3, 4])
        assert obs["board"].shape == (2, 3, 40, 80)
        for _ in range(3):
            obs, *_ = envs.step(jgym.sample_masked(obs["action_mask"], np.random.default_rng(0)))
    finally:
        envs.close()


# The fork cases run in a fresh interpreter, as a training script does:
# it forks its workers before it opens connections itself. This test
# process holds many gRPC channels by then, and a child forked from it can
# hang in gRPC even with its fork support on (grpc/grpc#18075; the CI of
# 2026-11-28 hung so), which docs/python.md tells users.
FORKED = """
import sys
import gymnasium, numpy as np, jgym
address, config = sys.argv[1] or None, sys.argv[2] or None
kw = {"address": address, "config": config} if address else {}
game = sys.argv[3]
fns = [lambda: gymnasium.make("jgym:jgym/" + game, **kw) for _ in range(2)]
envs = gymnasium.vector.AsyncVectorEnv(fns, context="fork")
try:
    obs, _ = envs.reset(seed=[3, 4])
    for _ in range(3):
        obs, *_ = envs.step(jgym.sample_masked(obs["action_mask"], np.random.default_rng(0)))
    print("shape", obs["board"].shape)
finally:
    envs.close()
"""


def run_forked(*args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", FORKED, *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


def test_async_vector_env_fork(address: str, short_config: str) -> None:
    """AsyncVectorEnv with fork, the workers connecting to a running server."""
    assert "shape (2, 3, 40, 80)" in run_forked(address, short_config, "Crematoria-v0")


def test_async_vector_env_local_servers() -> None:
    """Without an address, each forked subprocess starts (and stops) its own server."""
    assert "shape (2, 6, 70, 70)" in run_forked("", "", "Pandemic-v0")


@needs("stable_baselines3")
def test_sb3_subproc_vec_env(address: str, short_config: str) -> None:
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    venv = make_vec_env(
        "jgym:jgym/Dominator-v0", n_envs=2, vec_env_cls=SubprocVecEnv,
        env_kwargs={"address": address}, seed=1,
    )  # fmt: skip
    try:
        obs = venv.reset()
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.shape == (2, 128 * 9)
        venv.step_async(jgym.sample_masked(obs["action_mask"], np.random.default_rng(0)))
        venv.step_wait()
    finally:
        venv.close()


@pytest.mark.parametrize("game", jgym.GAMES)
def test_pettingzoo_tests(game: str, address: str) -> None:
    from pettingzoo.test import parallel_api_test, parallel_seed_test
    from pettingzoo.test.state_test import state_test
    from pettingzoo.utils.conversions import parallel_to_aec

    env = jgym.parallel_env(game, address=address)
    parallel_api_test(env, num_cycles=5)
    env.close()
    parallel_seed_test(lambda: jgym.parallel_env(game, address=address), num_cycles=5)
    par = jgym.parallel_env(game, address=address)
    aec = parallel_to_aec(jgym.parallel_env(game, address=address))
    state_test(aec, par, num_cycles=3)
    par.close()
    aec.close()


@needs("sb3_contrib", "torch")
@pytest.mark.parametrize("game", ["Moria-v0", "Crematoria-v0"])
def test_sb3_maskable_ppo(game: str, address: str) -> None:
    """examples/sb3_maskable.py: MaskablePPO with jgym.sb3's extractor, trains and evaluates."""
    example = load_example("sb3_maskable")
    summary = example.main(  # type: ignore[attr-defined]
        ["--game", game, "--total-timesteps", "64", "--num-envs", "2", "--n-steps", "16",
         "--batch-size", "16", "--n-epochs", "1", "--nb-rounds", "4", "--eval-games", "4",
         "--address", address]
    )  # fmt: skip
    assert summary["steps"] >= 64 and 0.0 <= summary["win_rate"] <= 1.0


@needs("ray", "torch")
def test_rllib_ppo_one_iteration() -> None:
    """examples/rllib_ppo.py: one PPO iteration, two env runners on two servers, masks applied."""
    example = load_example("rllib_ppo")
    (it,) = example.main(  # type: ignore[attr-defined]
        ["--iterations", "1", "--num-env-runners", "2", "--servers", "2",
         "--train-batch-size", "64", "--minibatch-size", "32", "--num-epochs", "1",
         "--nb-rounds", "4"]
    )  # fmt: skip
    assert it["steps"] >= 64
    assert it["legal"] == 1.0  # the module never samples a masked move
