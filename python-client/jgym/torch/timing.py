"""Where a trainer's time goes, and two settings of the process that save some.

- :class:`Phases`: wall-clock seconds per phase of training;
- :func:`keep_freed_memory`: glibc keeps the large blocks PyTorch frees;
- :func:`set_bf16`: the local network's per-slot MLP in bfloat16, where the
  CPU multiplies it natively (:func:`cpu_has_bf16`).
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

from jgym.torch.local import LocalAgent
from jgym.torch.nets import BoardNet

__all__ = ["Phases", "cpu_has_bf16", "keep_freed_memory", "set_bf16"]


class Phases:
    """Wall-clock seconds spent in each phase of training.

    ``with phases("env"): ...`` adds the block's time to ``env``. The
    phases: ``env`` (stepping the games: the server's work and the
    transfer), ``policy`` (the forward pass and sampling of the rollout),
    ``credit`` (rewards: the server's per-unit credit or the env's reward,
    normalized), ``buffers`` (numpy to torch, rollout buffers, bookkeeping
    of finished games), ``gae`` (values of the last step and advantages),
    ``update`` (the PPO epochs), ``eval`` (evaluations and snapshots).

    Example:
        >>> phases = Phases()
        >>> with phases("env"):
        ...     pass
        >>> sorted(phases.summary(0))
        ['seconds', 'share', 'steps_per_second_without_eval']
    """

    NAMES = ("env", "policy", "credit", "buffers", "gae", "update", "eval")

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(self.NAMES, 0.0)
        self._name = ""
        self._t = 0.0

    def __call__(self, name: str) -> Phases:
        """Names the phase that the next ``with`` block times."""
        if name not in self.seconds:
            raise KeyError(f"no phase {name!r} (the phases: {', '.join(self.NAMES)})")
        self._name = name
        return self

    def __enter__(self) -> None:
        self._t = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.seconds[self._name] += time.perf_counter() - self._t

    def summary(self, steps: int) -> dict[str, Any]:
        """Seconds per phase, their share, and env-steps/s without the evaluations."""
        total = sum(self.seconds.values())
        train = total - self.seconds["eval"]
        return {
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "share": {k: round(v / total, 4) if total else 0.0 for k, v in self.seconds.items()},
            "steps_per_second_without_eval": steps / train if train else 0.0,
        }


def keep_freed_memory() -> bool:
    """Lets glibc's malloc keep the large blocks PyTorch frees, to reuse them.

    By default glibc returns every block above 128 KiB (up to 32 MiB as it
    adapts) to the system when it is freed, so each large temporary tensor
    of a training step comes back as fresh pages that the kernel must fault
    in and zero. Raising the mmap and trim thresholds keeps the freed memory
    in the heap for the next minibatch: the process keeps the memory of its
    largest step rather than returning it in between. Returns whether it
    applied (glibc only; elsewhere nothing changes).
    """
    import ctypes  # noqa: PLC0415
    import ctypes.util  # noqa: PLC0415

    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # <malloc.h>
    return bool(mallopt(m_mmap_threshold, 1 << 30)) and bool(mallopt(m_trim_threshold, 1 << 30))


def cpu_has_bf16() -> bool:
    """Whether the CPU multiplies bfloat16 natively (Linux: the flags of /proc/cpuinfo).

    Elsewhere (no /proc/cpuinfo) it answers True: nothing is known.
    """
    try:
        flags = Path("/proc/cpuinfo").read_text().split()
    except OSError:
        return True
    return "avx512_bf16" in flags or "amx_bf16" in flags


def set_bf16(agent: BoardNet, on: bool) -> None:
    """The local network's per-slot MLP in bfloat16 (training only; the export stays float32).

    Faster where the CPU has AVX512-BF16 or AMX-BF16, several times slower
    where it has not (a warning says so).

    Raises:
        ValueError: Not the local network.
    """
    if on and not isinstance(agent, LocalAgent):
        raise ValueError("bfloat16: only the local network")
    if on and not cpu_has_bf16():
        warnings.warn(
            "bfloat16 on a CPU without AVX512-BF16 or AMX-BF16 (per /proc/cpuinfo): "
            "its products are emulated there, several times slower",
            stacklevel=2,
        )
    agent.bf16 = on
