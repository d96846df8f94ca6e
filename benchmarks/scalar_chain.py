"""W1 (scalar op loop) and W2 (100,000-node chain): per-op overhead of recording and backward.

Both start from a 0-d float32 leaf. The numpy version keeps what backward needs
(the relu masks) in a list and walks it in reverse, as an engine would.
"""

from __future__ import annotations

import time
from types import ModuleType

import numpy as np

from .harness import Row, Target, Workload

W1_ITERS = 10_000
W1_OPS = 3  # mul, add, relu
W2_NODES = 100_000
# Steady state: runs back to back (each already 10,000 iterations or 100,000 nodes)
W1_STEADY, W2_STEADY = 3, 2


# ---- W1: x = relu(x * 0.99 + 0.004) ---------------------------------------------------------

class LoopEngine:
    """autograd_lab or torch (same API)."""

    steady_steps = W1_STEADY

    def __init__(self, lib: ModuleType, iters: int = W1_ITERS) -> None:
        self.lib, self.iters = lib, iters
        self.x = lib.tensor(0.5, requires_grad=True)

    def run(self) -> dict[str, float]:
        x = self.x
        x.grad = None
        c0, t0 = time.process_time(), time.perf_counter()
        y = x
        for _ in range(self.iters):
            y = (y * 0.99 + 0.004).relu()
        c1, t1 = time.process_time(), time.perf_counter()
        y.backward()
        c2, t2 = time.process_time(), time.perf_counter()
        self.value, self.grad = float(y.detach()), float(x.grad)
        return {"fwd": t1 - t0, "bwd": t2 - t1, "cpu_fwd": c1 - c0, "cpu_bwd": c2 - c1}


class LoopNumpy:
    steady_steps = W1_STEADY

    def __init__(self, iters: int = W1_ITERS) -> None:
        self.iters = iters
        self.x = np.array(0.5, dtype=np.float32)

    def run(self) -> dict[str, float]:
        a, b = np.float32(0.99), np.float32(0.004)
        c0, t0 = time.process_time(), time.perf_counter()
        y = self.x
        masks = []
        for _ in range(self.iters):
            z = y * a + b
            mask = z > 0
            y = np.where(mask, z, np.float32(0))
            masks.append(mask)
        c1, t1 = time.process_time(), time.perf_counter()
        g = np.ones((), dtype=np.float32)
        while masks:
            g = np.where(masks.pop(), g, np.float32(0)) * a
        c2, t2 = time.process_time(), time.perf_counter()
        self.value, self.grad = float(y), float(g)
        return {"fwd": t1 - t0, "bwd": t2 - t1, "cpu_fwd": c1 - c0, "cpu_bwd": c2 - c1}


def w1(al: ModuleType, torch: ModuleType | None, iters: int = W1_ITERS) -> Workload:
    setups = {"autograd_lab": lambda: LoopEngine(al, iters), "numpy": lambda: LoopNumpy(iters)}
    if torch is not None:
        setups["torch"] = lambda: LoopEngine(torch, iters)
    per_it, per_op = 1e6 / iters, 1e6 / (iters * W1_OPS)
    goal = Target("ratio", 1.0, text="<= 1.0x torch")
    return Workload(
        "W1",
        f"W1  {iters:,} iterations of x = relu(x*0.99 + 0.004) on a 0-d float32 leaf, then "
        f"backward; 1 iteration = {W1_OPS} ops (mul, add, relu)",
        setups,
        [
            Row("steady: forward, µs/op", "fwd", "µs", per_op, "torch", goal),
            Row("steady: backward, µs/op", "bwd", "µs", per_op, "torch", goal),
            Row("  forward, µs/iteration", "fwd", "µs", per_it),
            Row("  backward, µs/iteration", "bwd", "µs", per_it),
            Row("  CPU time, forward, µs/op", "cpu_fwd", "µs", per_op, "torch"),
            Row("  CPU time, backward, µs/op", "cpu_bwd", "µs", per_op, "torch"),
            Row("  minor page faults per run", "faults", "n"),
            Row("isolated: forward, µs/op", "iso_fwd", "µs", per_op, "torch"),
            Row("isolated: backward, µs/op", "iso_bwd", "µs", per_op, "torch"),
        ],
        kinds=("steady", "isolated"),
    )


# ---- W2: x = x * 1.0001, 100,000 times --------------------------------------------------------

class ChainEngine:
    steady_steps = W2_STEADY

    def __init__(self, lib: ModuleType, nodes: int = W2_NODES) -> None:
        self.lib, self.nodes = lib, nodes
        self.x = lib.tensor(1.0, requires_grad=True)

    def run(self) -> dict[str, float]:
        x = self.x
        x.grad = None
        c0, t0 = time.process_time(), time.perf_counter()
        y = x
        for _ in range(self.nodes):
            y = y * 1.0001
        c1, t1 = time.process_time(), time.perf_counter()
        try:
            y.backward()
        except RecursionError:
            return {"ok": 0.0}
        c2, t2 = time.process_time(), time.perf_counter()
        self.value, self.grad = float(y.detach()), float(x.grad)
        del y  # freeing the chain is not timed (but must not crash either)
        return {"ok": 1.0, "fwd": t1 - t0, "bwd": t2 - t1, "cpu_fwd": c1 - c0,
                "cpu_bwd": c2 - c1}


class ChainNumpy:
    """What backward needs of y = x * c is c: a list of the constants, walked in reverse."""

    steady_steps = W2_STEADY

    def __init__(self, nodes: int = W2_NODES) -> None:
        self.nodes = nodes
        self.x = np.array(1.0, dtype=np.float32)

    def run(self) -> dict[str, float]:
        c = np.float32(1.0001)
        c0, t0 = time.process_time(), time.perf_counter()
        y = self.x
        saved = []
        for _ in range(self.nodes):
            y = y * c
            saved.append(c)
        c1, t1 = time.process_time(), time.perf_counter()
        g = np.ones((), dtype=np.float32)
        while saved:
            g = g * saved.pop()
        c2, t2 = time.process_time(), time.perf_counter()
        self.value, self.grad = float(y), float(g)
        return {"ok": 1.0, "fwd": t1 - t0, "bwd": t2 - t1, "cpu_fwd": c1 - c0,
                "cpu_bwd": c2 - c1}


def w2(al: ModuleType, torch: ModuleType | None, nodes: int = W2_NODES) -> Workload:
    setups = {"autograd_lab": lambda: ChainEngine(al, nodes), "numpy": lambda: ChainNumpy(nodes)}
    if torch is not None:
        setups["torch"] = lambda: ChainEngine(torch, nodes)
    per_node = 1e6 / nodes
    goal = Target("ratio", 1.0, text="<= 1.0x torch")
    return Workload(
        "W2",
        f"W2  a {nodes:,}-node chain x = x*1.0001 on a 0-d float32 leaf, then backward",
        setups,
        [
            Row("survives (no RecursionError)", "ok", "bool", target=Target("true", text="yes")),
            Row("steady: forward, µs/node", "fwd", "µs", per_node, "torch", goal),
            Row("steady: backward, µs/node", "bwd", "µs", per_node, "torch", goal),
            Row("  CPU time, forward, µs/node", "cpu_fwd", "µs", per_node, "torch"),
            Row("  CPU time, backward, µs/node", "cpu_bwd", "µs", per_node, "torch"),
            Row("  minor page faults per run", "faults", "n"),
            Row("isolated: forward, µs/node", "iso_fwd", "µs", per_node, "torch"),
            Row("isolated: backward, µs/node", "iso_bwd", "µs", per_node, "torch"),
        ],
        kinds=("steady", "isolated"),
    )
