"""Random-number factories: autograd_lab against PyTorch, one thread each.

Run with an interpreter that has torch (autograd_lab alone is timed when torch is missing):

    PYTHONPATH=$PWD /path/to/python-with-torch benchmarks/rng_bench.py [--rounds N]

Each round times every case once for each library, alternating which goes first, so slow
phases of a busy machine hit both alike; the table shows the median over the rounds (ms) and
autograd_lab's time divided by torch's. Both run in this one process: these calls make a
handful of Python objects, so sharing a heap with torch costs autograd_lab nothing here.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # started as a script: import the package from the repository root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks import _env  # noqa: E402,I001

_env.single_thread()  # before numpy loads

import argparse  # noqa: E402
import gc  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import autograd_lab as al  # noqa: E402

N = 1_000_000


def cases(lib: Any) -> dict[str, Callable[[], Any]]:
    """Name -> a call making the same tensor with ``lib`` (torch or autograd_lab)."""
    w = lib.empty(1000, 1000)
    return {
        "rand(1e6)": lambda: lib.rand(N),
        "rand(1e6, float64)": lambda: lib.rand(N, dtype=lib.float64),
        "randn(1e6)": lambda: lib.randn(N),
        "randn(1e6, float64)": lambda: lib.randn(N, dtype=lib.float64),
        "randn(1000)": lambda: lib.randn(1000),
        "normal_(1000x1000, 0, .02)": lambda: w.normal_(0.0, 0.02),
        "uniform_(1000x1000, -.1, .1)": lambda: w.uniform_(-0.1, 0.1),
        "randint(0, 1000, (1e6,))": lambda: lib.randint(0, 1000, (N,)),
        "randperm(100_000)": lambda: lib.randperm(100_000),
        "randperm(1e6)": lambda: lib.randperm(N),
    }


def _time(fn: Callable[[], Any]) -> float:
    gc.collect()
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--only", default="", help="comma-separated substrings of case names")
    args = parser.parse_args()
    torch = _env.load_torch()
    libs = {"autograd_lab": al} | ({"torch": torch} if torch is not None else {})
    table = {name: cases(lib) for name, lib in libs.items()}
    names = [c for c in table["autograd_lab"]
             if not args.only or any(s in c for s in args.only.split(","))]
    samples: dict[tuple[str, str], list[float]] = {(c, lib): [] for c in names for lib in libs}
    for c in names:  # warm-up
        for lib in libs:
            table[lib][c]()
    order = list(libs)
    for r in range(args.rounds):
        for c in names:
            for lib in order if r % 2 == 0 else order[::-1]:
                samples[c, lib].append(_time(table[lib][c]))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"median of {args.rounds} interleaved rounds, one thread each; "
          f"load average {load:.2f} on {os.cpu_count()} cores")
    print(f"{'case':30s} {'torch ms':>9s} {'lab ms':>9s} {'ratio':>7s}")
    for c in names:
        lab = statistics.median(samples[c, "autograd_lab"]) * 1e3
        if torch is None:
            print(f"{c:30s} {'-':>9s} {lab:9.3f} {'-':>7s}")
            continue
        ref = statistics.median(samples[c, "torch"]) * 1e3
        print(f"{c:30s} {ref:9.3f} {lab:9.3f} {lab / ref:6.2f}x")


if __name__ == "__main__":
    main()
