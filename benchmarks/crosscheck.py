"""An independent second measurement of the steady-state figures `run.py` reports.

It shares no code with the harness: each loop below is written out as a user writes it
(`loss = F.cross_entropy(x, y); loss.backward(); x.grad = None`, a training step, numpy's
same math with fresh arrays every step), step after step with the collector on; each step
is timed with `time.perf_counter` and the median is printed, with the process's CPU time
per step and its minor page faults per step. Each library runs in a fresh process of its
own, one after the other (torch with one thread), in ``PASSES`` passes of alternating order;
a library's figure is the median over its passes. The ratios are given for the wall clock
and for CPU time (on a loaded machine the libraries, run one after the other, meet different
loads: their CPU times stay comparable). Run it right after `run.py` and compare the two
tables (`run.py` also runs it after its table and prints the two side by side):

    PYTHONPATH=$PWD /path/to/python-with-torch benchmarks/crosscheck.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import resource  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

REPS, WARMUP = 200, 20
PASSES = 2


class Clock:
    """Per-step wall and CPU times and the minor page faults of a loop."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.faults0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt

    def start(self) -> None:
        self.t0, self.c0 = time.perf_counter(), time.process_time()

    def stop(self) -> None:
        self.wall.append(time.perf_counter() - self.t0)
        self.cpu.append(time.process_time() - self.c0)

    def result(self, scale: float = 1e3, per: int = 1) -> tuple[float, float, float]:
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - self.faults0
        return (statistics.median(self.wall) * scale / per,
                statistics.median(self.cpu) * scale / per, faults / len(self.wall))


def ce_data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    return rng.standard_normal((512, 1000)).astype(np.float32) * 3, rng.integers(0, 1000, 512)


def mlp_data() -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(2)
    params = [rng.uniform(-0.05, 0.05, s).astype(np.float32)
              for s in ((256, 784), (256,), (10, 256), (10,))]
    return rng.standard_normal((256, 784)).astype(np.float32), rng.integers(0, 10, 256), params


def measure_numpy() -> dict[str, tuple]:
    out = {}
    z, y = ce_data()
    rows = np.arange(512)
    clock = Clock()
    for i in range(WARMUP + REPS):
        if i == WARMUP:
            clock = Clock()
        clock.start()
        shifted = z - z.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        s = e.sum(axis=1, keepdims=True)
        loss = -(shifted[rows, y] - np.log(s[:, 0])).mean()
        g = e / s
        g[rows, y] -= 1
        g /= 512
        clock.stop()
    out["cross-entropy 512x1000, ms/step"] = clock.result()

    X, t, (w1, b1, w2, b2) = mlp_data()
    rows = np.arange(256)
    for i in range(WARMUP + REPS // 2):
        if i == WARMUP:
            clock = Clock()
        clock.start()
        z1 = X @ w1.T + b1
        h = np.maximum(z1, 0)
        logits = h @ w2.T + b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        s = e.sum(axis=1, keepdims=True)
        loss = -(shifted[rows, t] - np.log(s[:, 0])).mean()
        d = e / s
        d[rows, t] -= 1
        d /= 256
        dh = d @ w2
        dz1 = dh * (z1 > 0)
        gw1, gb1, gw2, gb2 = dz1.T @ X, dz1.sum(axis=0), d.T @ h, d.sum(axis=0)
        w1 -= 0.1 * gw1
        b1 -= 0.1 * gb1
        w2 -= 0.1 * gw2
        b2 -= 0.1 * gb2
        clock.stop()
    out["MLP SGD step, ms/step"] = clock.result()
    del loss
    return out


def measure(lib_name: str) -> dict[str, tuple]:
    if lib_name == "numpy":
        return measure_numpy()
    if lib_name == "torch":
        import torch as lib

        lib.set_num_threads(1)
        assert lib.get_num_threads() == 1
    else:
        import autograd_lab as lib
    F = __import__(lib.__name__ + ".nn.functional", fromlist=["cross_entropy"])
    nn = __import__(lib.__name__ + ".nn", fromlist=["Linear"])
    optim = __import__(lib.__name__ + ".optim", fromlist=["SGD"])
    out: dict[str, tuple] = {}

    zd, yd = ce_data()
    x, y = lib.tensor(zd, requires_grad=True), lib.tensor(yd)
    clock = Clock()
    for i in range(WARMUP + REPS):
        if i == WARMUP:
            clock = Clock()
        clock.start()
        loss = F.cross_entropy(x, y)
        loss.backward()
        x.grad = None
        clock.stop()
    out["cross-entropy 512x1000, ms/step"] = clock.result()

    Xd, td, pd = mlp_data()
    X, t = lib.tensor(Xd), lib.tensor(td)
    l1, l2 = nn.Linear(784, 256), nn.Linear(256, 10)
    params = [l1.weight, l1.bias, l2.weight, l2.bias]
    with lib.no_grad():
        for p, a in zip(params, pd):
            p.copy_(lib.tensor(a))
    opt = optim.SGD(params, lr=0.1)
    for i in range(WARMUP + REPS // 2):
        if i == WARMUP:
            clock = Clock()
        clock.start()
        opt.zero_grad()
        loss = F.cross_entropy(l2(l1(X).relu()), t)
        loss.backward()
        opt.step()
        clock.stop()
    out["MLP SGD step, ms/step"] = clock.result()

    # 10,000 scalar iterations of relu(x * 0.99 + 0.004): 30,000 ops, forward then backward.
    v0 = lib.tensor(0.5, requires_grad=True)
    fwd, bwd = Clock(), Clock()
    for _ in range(7):
        v0.grad = None
        fwd.start()
        v = v0
        for _ in range(10_000):
            v = (v * 0.99 + 0.004).relu()
        fwd.stop()
        bwd.start()
        v.backward()
        bwd.stop()
    out["scalar loop forward, µs/op"] = fwd.result(1e6, 30_000)
    out["scalar loop backward, µs/op"] = bwd.result(1e6, 30_000)
    return out


LIBS = ("autograd_lab", "torch", "numpy")
# run.py's steady rows that measure what each loop here measures:
# (workload, label of the wall-clock row, label of the CPU-time row)
SAME_AS = {
    "cross-entropy 512x1000, ms/step": ("W6", "steady:", "  CPU time of the process"),
    "MLP SGD step, ms/step": ("W3", "steady:", "  CPU time of the process"),
    "scalar loop forward, µs/op": ("W1", "steady: forward, µs/op", "  CPU time, forward"),
    "scalar loop backward, µs/op": ("W1", "steady: backward, µs/op", "  CPU time, backward"),
}


def collect(libs: tuple[str, ...] = LIBS, passes: int = PASSES
            ) -> tuple[dict[str, dict[str, tuple]], list[str]]:
    """Each library's figures (median over ``passes`` fresh processes), and the failures.
    The processes import autograd_lab from this repository."""
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (root, os.environ.get("PYTHONPATH")) if p))
    runs: dict[str, list[dict[str, tuple]]] = {lib: [] for lib in libs}
    failed = []
    for p in range(passes):
        for lib in libs if p % 2 == 0 else libs[::-1]:
            r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--lib", lib],
                               capture_output=True, text=True, env=env)
            if r.returncode != 0:
                failed.append(f"{lib}: failed\n{r.stderr[-2000:]}")
                continue
            runs[lib].append({parts[0]: tuple(map(float, parts[1:])) for parts in
                              (line.split("\t") for line in r.stdout.splitlines() if "\t" in line)})
    results = {lib: {k: tuple(statistics.median(v[k][i] for v in rs) for i in range(3))
                     for k in rs[0]} for lib, rs in runs.items() if rs}
    return results, failed


def table(results: dict[str, dict[str, tuple]], passes: int = PASSES) -> list[str]:
    """The cross-check's table: per loop, each library's figures and the ratios."""
    libs = list(LIBS)
    keys = list(dict.fromkeys(k for res in results.values() for k in res))
    lines = [f"median per step, wall clock [CPU time of the process] {{minor page faults per "
             f"step}}; median of {passes} passes",
             f"{'':34}{'autograd_lab':>24}{'torch':>24}{'numpy':>24}{'vs torch':>13}"
             f"{'vs numpy':>13}"]
    for k in keys:
        cells, vals = [], {}
        for lib in libs:
            v = results.get(lib, {}).get(k)
            if v is None:
                cells.append("-")
                continue
            vals[lib] = v
            cells.append(f"{v[0]:.3f} [{v[1]:.3f}] {{{v[2]:.0f}}}")
        a = vals.get("autograd_lab")
        ratios = [f"{a[0] / vals[r][0]:.2f} [{a[1] / vals[r][1]:.2f}]" if a and r in vals else "-"
                  for r in ("torch", "numpy")]
        lines.append(f"{k:34}" + "".join(f"{c:>24}" for c in cells)
                     + "".join(f"{r:>13}" for r in ratios))
    return lines


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--lib":
        for k, v in measure(sys.argv[2]).items():
            print(k + "\t" + "\t".join(map(str, v)))
        return 0
    load0 = os.getloadavg()[0]
    results, failed = collect()
    for f in failed:
        print(f)
    print("\n".join(table(results)))
    print(f"load (1-minute average) {load0:.1f} at start, {os.getloadavg()[0]:.1f} at end, "
          f"on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
