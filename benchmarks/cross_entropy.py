"""W6: softmax cross-entropy of 512x1000 float32 logits (mean over the batch), backward.

The steady-state step is the loop a user writes, ``loss = F.cross_entropy(x, y);
loss.backward(); x.grad = None``, step after step; numpy's is the same math written as a
plain numpy loop (fresh arrays every step, each name holding its array until the next step
assigns it).
"""

from __future__ import annotations

import importlib
import time
from types import ModuleType

import numpy as np

from .harness import Target, Workload, fed, steady_rows


def make_data(batch: int = 512, classes: int = 1000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return fed(rng.standard_normal((batch, classes)).astype(np.float32) * 3,
               rng.integers(0, classes, batch).astype(np.int64))


def _cross_entropy(lib: ModuleType) -> object | None:
    try:
        return importlib.import_module(lib.__name__ + ".nn.functional").cross_entropy
    except (ImportError, AttributeError):
        return None


STEADY_STEPS = 30  # back-to-back steps per steady-state sample


class CEEngine:
    """``F.cross_entropy`` when the library has it, else ``-log_softmax(z)[rows, y].mean()``."""

    repeat = 9  # about a millisecond each: a sample is the median of 9 runs
    steady_steps = STEADY_STEPS

    def __init__(self, lib: ModuleType, logits: np.ndarray, targets: np.ndarray,
                 by_hand: bool = False) -> None:
        self.lib = lib
        self.z = lib.tensor(logits, requires_grad=True)
        self.y = lib.tensor(targets)
        self.rows = lib.arange(logits.shape[0])
        self.ce = None if by_hand else _cross_entropy(lib)

    def loss(self) -> object:
        if self.ce is not None:
            return self.ce(self.z, self.y)
        return -self.lib.log_softmax(self.z, dim=1)[self.rows, self.y].mean()

    def run(self) -> dict[str, float]:
        self.z.grad = None
        t0 = time.perf_counter()
        loss = self.loss()
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        # A copy: holding the library's own gradient buffer across runs would make the next
        # run allocate (and page-fault) a fresh 2 MB buffer instead of reusing the freed one.
        self.value, self.grad = float(loss.detach()), self.z.grad.numpy().copy()
        return {"fwd": t1 - t0, "bwd": t2 - t1, "total": t2 - t0}

    def loop_step(self) -> dict[str, float]:
        """One step of ``loss = F.cross_entropy(x, y); loss.backward(); x.grad = None``."""
        t0 = time.perf_counter()
        self.last = self.loss()  # the loop's ``loss`` name: released when reassigned
        t1 = time.perf_counter()
        self.last.backward()
        self.z.grad = None
        t2 = time.perf_counter()
        return {"total": t2 - t0, "fwd": t1 - t0, "bwd": t2 - t1}


class CENumpy:
    repeat = 9
    steady_steps = STEADY_STEPS

    def __init__(self, logits: np.ndarray, targets: np.ndarray) -> None:
        self.z, self.y = logits, targets
        self.rows = np.arange(logits.shape[0])

    def run(self) -> dict[str, float]:
        z, y, rows = self.z, self.y, self.rows
        t0 = time.perf_counter()
        shifted = z - z.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        s = e.sum(axis=1, keepdims=True)
        loss = -(shifted[rows, y] - np.log(s[:, 0])).mean()
        t1 = time.perf_counter()
        g = e / s
        g[rows, y] -= 1
        g /= z.shape[0]
        t2 = time.perf_counter()
        self.value, self.grad = float(loss), g
        return {"fwd": t1 - t0, "bwd": t2 - t1, "total": t2 - t0}

    def loop_step(self) -> dict[str, float]:
        """``run``'s math as a plain loop's body: each array stays alive until the next
        step assigns its name again (attributes play the loop's names)."""
        z, y, rows = self.z, self.y, self.rows
        t0 = time.perf_counter()
        self.shifted = z - z.max(axis=1, keepdims=True)
        self.e = np.exp(self.shifted)
        self.s = self.e.sum(axis=1, keepdims=True)
        self.loss = -(self.shifted[rows, y] - np.log(self.s[:, 0])).mean()
        t1 = time.perf_counter()
        self.g = self.e / self.s
        self.g[rows, y] -= 1
        self.g /= z.shape[0]
        t2 = time.perf_counter()
        return {"total": t2 - t0, "fwd": t1 - t0, "bwd": t2 - t1}


def w6(al: ModuleType, torch: ModuleType | None, by_hand: bool = False, **size: int) -> Workload:
    via = "engine ops by hand" if by_hand or _cross_entropy(al) is None else "F.cross_entropy"
    setups = {"autograd_lab": lambda: CEEngine(al, *make_data(**size), by_hand=by_hand),
              "numpy": lambda: CENumpy(*make_data(**size))}
    if torch is not None:
        setups["torch"] = lambda: CEEngine(torch, *make_data(**size))
    b, k = size.get("batch", 512), size.get("classes", 1000)
    return Workload(
        "W6",
        f"W6  softmax cross-entropy on {b}x{k} float32 logits, forward + backward "
        f"(autograd_lab: {via})",
        setups,
        steady_rows("forward + backward", "total", "ms", 1e3, "numpy",
                    Target("ratio", 1.15, text="<= 1.15x numpy"), STEADY_STEPS,
                    parts=[("forward", "fwd"), ("backward", "bwd")], also="torch"),
        kinds=("steady", "isolated"),
    )
