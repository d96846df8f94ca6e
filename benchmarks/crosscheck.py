"""An independent second measurement of the figures `run.py` reports.

It shares no code with the harness: plain loops, `time.perf_counter`, the median of many
repetitions after a warm-up, the collector left on. Each library runs in a fresh process of
its own (torch with one thread). Run it right after `run.py` and compare the two tables:

    PYTHONPATH=$PWD /path/to/python-with-torch benchmarks/crosscheck.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

REPS = 200


def median_ms(fn, reps: int = REPS, warmup: int = 20) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def measure(lib_name: str) -> dict[str, float]:
    if lib_name == "torch":
        import torch as lib

        lib.set_num_threads(1)
        assert lib.get_num_threads() == 1
    else:
        import autograd_lab as lib
    F = __import__(lib.__name__ + ".nn.functional", fromlist=["cross_entropy"])
    nn = __import__(lib.__name__ + ".nn", fromlist=["Linear"])
    optim = __import__(lib.__name__ + ".optim", fromlist=["SGD"])
    rng = np.random.default_rng(1)
    out: dict[str, float] = {}

    # Softmax cross-entropy, 512 x 1000 float32, forward + backward.
    z = lib.tensor(rng.standard_normal((512, 1000)).astype(np.float32) * 3, requires_grad=True)
    y = lib.tensor(rng.integers(0, 1000, 512))

    def ce() -> None:
        z.grad = None
        F.cross_entropy(z, y).backward()

    out["cross-entropy 512x1000, fwd+bwd, ms"] = median_ms(ce)

    # One SGD step of a 784-256-10 ReLU MLP, batch 256.
    X = lib.tensor(rng.standard_normal((256, 784)).astype(np.float32))
    t = lib.tensor(rng.integers(0, 10, 256))
    l1, l2 = nn.Linear(784, 256), nn.Linear(256, 10)
    params = [*l1.parameters(), *l2.parameters()]
    with lib.no_grad():
        for p in params:
            p.copy_(lib.tensor(rng.uniform(-0.05, 0.05, tuple(p.shape)).astype(np.float32)))
    opt = optim.SGD(params, lr=0.1)

    def step() -> None:
        opt.zero_grad()
        F.cross_entropy(l2(l1(X).relu()), t).backward()
        opt.step()

    out["MLP SGD step, ms"] = median_ms(step, reps=100)

    # 10,000 scalar iterations of relu(x * 0.99 + 0.004): 30,000 ops, forward then backward.
    x = lib.tensor(0.5, requires_grad=True)
    fwd, bwd = [], []
    for _ in range(7):
        x.grad = None
        t0 = time.perf_counter()
        v = x
        for _ in range(10_000):
            v = (v * 0.99 + 0.004).relu()
        t1 = time.perf_counter()
        v.backward()
        t2 = time.perf_counter()
        fwd.append(t1 - t0)
        bwd.append(t2 - t1)
    out["scalar loop forward, µs/op"] = statistics.median(fwd) / 30_000 * 1e6
    out["scalar loop backward, µs/op"] = statistics.median(bwd) / 30_000 * 1e6
    return out


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--lib":
        for k, v in measure(sys.argv[2]).items():
            print(f"{k}\t{v}")
        return 0
    libs = ["autograd_lab", "torch"]
    results: dict[str, dict[str, float]] = {}
    for lib in libs:
        r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--lib", lib],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{lib}: failed\n{r.stderr[-2000:]}")
            continue
        results[lib] = {k: float(v) for k, v in
                        (line.split("\t") for line in r.stdout.splitlines() if "\t" in line)}
    keys = next(iter(results.values())).keys() if results else []
    print(f"{'':40}{'autograd_lab':>14}{'torch':>10}{'ratio':>9}")
    for k in keys:
        a, t = results.get("autograd_lab", {}).get(k), results.get("torch", {}).get(k)
        ratio = f"{a / t:.2f}x" if a and t else "-"
        print(f"{k:40}{a or float('nan'):14.3f}{t or float('nan'):10.3f}{ratio:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
