"""W5: memory held by a graph. 100 chained relu on 1,000,000 float32 values, sum, backward.

Each relu saves its output for backward, so before backward the graph holds 100
outputs of 4 MB, plus x: 404 MB. Backward frees the saved outputs; once the Python
reference to the chain's end is dropped only x and x.grad remain: 8 MB.

Two readings: autograd_lab's own ``memory_allocated()`` (what the memory notebook
shows), and malloc's bytes in use (glibc ``mallinfo2``), which works for all three
implementations (PyTorch has no CPU ``memory_allocated``).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from ._env import MB, heap_bytes
from .harness import Row, Target, Workload, fed

N = 1_000_000
DEPTH = 100


def make_data(n: int = N) -> np.ndarray:
    return fed(np.random.default_rng(0).standard_normal(n).astype(np.float32))[0]


def _heap() -> float:
    h = heap_bytes()
    return float("nan") if h is None else h


class ReluEngine:
    rewarm = False  # measures memory, not time

    def __init__(self, lib: ModuleType, data: np.ndarray, depth: int = DEPTH,
                 accounting: bool = False) -> None:
        self.lib, self.data, self.depth = lib, data, depth
        self.accounting = accounting  # lib has memory_allocated() for CPU tensors

    def _mem(self) -> float:
        return self.lib.memory_allocated() if self.accounting else float("nan")

    def run(self) -> dict[str, float]:
        heap0, mem0 = _heap(), self._mem()
        x = self.lib.tensor(self.data, requires_grad=True)
        y = x
        for _ in range(self.depth):
            y = y.relu()
        s = y.sum()
        heap1, mem1 = _heap(), self._mem()
        s.backward()
        del y, s
        heap2, mem2 = _heap(), self._mem()
        self.grad = x.grad.numpy().copy()
        del x
        return {"held": (mem1 - mem0) / MB, "live": (mem2 - mem0) / MB,
                "held_heap": (heap1 - heap0) / MB, "live_heap": (heap2 - heap0) / MB}


class ReluNumpy:
    """Forward keeps every output (as torch's relu does); backward frees them as it goes."""

    rewarm = False

    def __init__(self, data: np.ndarray, depth: int = DEPTH) -> None:
        self.data, self.depth = data, depth

    def run(self) -> dict[str, float]:
        heap0 = _heap()
        x = self.data.copy()
        outs = []
        y = x
        for _ in range(self.depth):
            y = np.maximum(y, 0)
            outs.append(y)
        s = y.sum()
        heap1 = _heap()
        del y
        g = np.ones_like(x)
        while outs:
            g = g * (outs.pop() > 0)
        grad = g
        del g, s
        heap2 = _heap()
        self.grad = grad
        del x, grad
        return {"held_heap": (heap1 - heap0) / MB, "live_heap": (heap2 - heap0) / MB}


def w5(al: ModuleType, torch: ModuleType | None, n: int = N, depth: int = DEPTH) -> Workload:
    setups = {"autograd_lab": lambda: ReluEngine(al, make_data(n), depth, accounting=True),
              "numpy": lambda: ReluNumpy(make_data(n), depth)}
    if torch is not None:
        setups["torch"] = lambda: ReluEngine(torch, make_data(n), depth)
    one = n * 4 / MB
    held_lo, held_hi = depth * one, (depth + 1) * one * 1.001
    live_max = 2 * one * 1.0125  # x and x.grad, 8.1 MB at the full size
    return Workload(
        "W5",
        f"W5  memory: {depth} chained relu on {n:,} float32 values, sum().backward(); "
        f"MB = 10^6 bytes",
        setups,
        [
            Row("MB held before backward [memory_allocated]", "held", "MB",
                target=Target("range", held_hi, held_lo,
                              f"{held_lo:.0f} (+x = {(depth + 1) * one:.0f})")),
            Row("MB live after backward  [memory_allocated]", "live", "MB",
                target=Target("max", live_max, text=f"<= {live_max:.1f}")),
            Row("MB held before backward [malloc in use]", "held_heap", "MB"),
            Row("MB live after backward  [malloc in use]", "live_heap", "MB"),
        ],
        max_rounds=3,  # memory readings do not vary from run to run
    )
