"""W4: ((A @ B) @ C) @ D on 1024x1024 float32 leaves, sum, backward.

Nine matrix products in all (three forward, six backward): this measures how much
the engine adds on top of BLAS when every op is large.
"""

from __future__ import annotations

import time
from types import ModuleType

import numpy as np

from .harness import Target, Workload, fed, steady_rows


def make_mats(n: int = 1024, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    mats = [(rng.standard_normal((n, n)) / np.sqrt(n)).astype(np.float32) for _ in range(4)]
    fed(mats)
    return mats


STEADY_STEPS = 3  # back-to-back runs per steady-state sample


class ChainEngine:
    """autograd_lab or torch; a run clears the gradients first, as a loop's top does."""

    steady_steps = STEADY_STEPS

    def __init__(self, lib: ModuleType, mats: list[np.ndarray]) -> None:
        self.leaves = [lib.tensor(m, requires_grad=True) for m in mats]

    def run(self) -> dict[str, float]:
        a, b, c, d = self.leaves
        for t in self.leaves:
            t.grad = None
        t0 = time.perf_counter()
        out = (a @ b @ c @ d).sum()
        t1 = time.perf_counter()
        out.backward()
        t2 = time.perf_counter()
        self.value = float(out.detach())
        return {"total": t2 - t0, "fwd": t1 - t0, "bwd": t2 - t1}

    def grads(self) -> list[np.ndarray]:
        return [t.grad.numpy() for t in self.leaves]


class ChainNumpy:
    """By hand, as a plain loop's body: each array lives until the next run assigns its name
    again (attributes play the loop's names)."""

    steady_steps = STEADY_STEPS

    def __init__(self, mats: list[np.ndarray]) -> None:
        self.mats = mats

    def run(self) -> dict[str, float]:
        a, b, c, d = self.mats
        t0 = time.perf_counter()
        self.p1 = a @ b
        self.p2 = self.p1 @ c
        self.y = self.p2 @ d
        out = self.y.sum()
        t1 = time.perf_counter()
        self.g = np.ones_like(self.y)
        self.dd = self.p2.T @ self.g
        self.g = self.g @ d.T
        self.dc = self.p1.T @ self.g
        self.g = self.g @ c.T
        self.db = a.T @ self.g
        self.da = self.g @ b.T
        t2 = time.perf_counter()
        self.value, self._grads = float(out), [self.da, self.db, self.dc, self.dd]
        return {"total": t2 - t0, "fwd": t1 - t0, "bwd": t2 - t1}

    def grads(self) -> list[np.ndarray]:
        return self._grads


def w4(al: ModuleType, torch: ModuleType | None, n: int = 1024) -> Workload:
    setups = {"autograd_lab": lambda: ChainEngine(al, make_mats(n)),
              "numpy": lambda: ChainNumpy(make_mats(n))}
    if torch is not None:
        setups["torch"] = lambda: ChainEngine(torch, make_mats(n))
    return Workload(
        "W4",
        f"W4  ((A@B)@C)@D on {n}x{n} float32 leaves, .sum(), backward (9 matmuls)",
        setups,
        steady_rows("forward + backward", "total", "ms", 1e3, "numpy",
                    Target("ratio", 1.05, text="<= 1.05x numpy"), STEADY_STEPS,
                    parts=[("forward", "fwd"), ("backward", "bwd")], also="torch"),
        kinds=("steady", "isolated"),
    )
