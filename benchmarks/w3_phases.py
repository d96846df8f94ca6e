"""W3's step split into its phases, in the loop users write, for each library side by side.

    python benchmarks/w3_phases.py [--rounds 6] [--steps 200]

Times each phase of back-to-back SGD steps of the 784-256-10 MLP (``benchmarks/mlp.py``):
clear the gradients, layer 1, relu, layer 2, cross-entropy, backward, optimizer step. A phase's
figure is its mean over ``--steps`` steps, in the round (of ``--rounds``) whose whole step was
fastest, so the phases add up to it; every library runs in a process of its own, one thread
each, on the same arrays. The numpy floor's phases are its
plain loop's statements grouped the same way. torch is measured when ``$TORCH_PYTHON`` (or this
interpreter) can import it.

The timer calls cost about 0.1 us each.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PHASES = ("zero_grad", "layer 1", "relu", "layer 2", "loss", "backward", "step")


def _measure(lib_name: str, rounds: int, steps: int) -> dict[str, float]:
    """Best-of-rounds mean time of each phase, in ms (run inside the worker process)."""
    import numpy as np

    from benchmarks.mlp import LR, StepNN, make_init

    init = make_init()
    if lib_name == "numpy":
        X, y = init.X, init.y
        params = [a.copy() for a in init.params]
        rows = np.arange(X.shape[0])

        def step(tick: object) -> None:
            w1, b1, w2, b2 = params
            tick("zero_grad")
            z1 = X @ w1.T + b1
            tick("layer 1")
            h = np.maximum(z1, 0)
            tick("relu")
            logits = h @ w2.T + b2
            tick("layer 2")
            shifted = logits - logits.max(axis=1, keepdims=True)
            e = np.exp(shifted)
            s = e.sum(axis=1, keepdims=True)
            step.loss = -(shifted[rows, y] - np.log(s[:, 0])).mean()
            tick("loss")
            d = e / s
            d[rows, y] -= 1
            d /= X.shape[0]
            dz1 = (d @ w2) * (z1 > 0)
            grads = [dz1.T @ X, dz1.sum(axis=0), d.T @ h, d.sum(axis=0)]
            tick("backward")
            for p, g in zip(params, grads):
                p -= LR * g
            tick("step")
    else:
        import importlib

        lib = importlib.import_module(lib_name)
        if lib_name == "torch":
            lib.set_num_threads(1)
        s = StepNN(lib, init)

        def step(tick: object) -> None:
            s.opt.zero_grad()
            tick("zero_grad")
            z1 = s.l1(s.X)
            tick("layer 1")
            h = z1.relu()
            tick("relu")
            logits = s.l2(h)
            tick("layer 2")
            loss = s.F.cross_entropy(logits, s.y)
            tick("loss")
            loss.backward()
            tick("backward")
            s.opt.step()
            tick("step")
            step.loss = loss  # the loop's name keeps the loss until the next step

    best: dict[str, float] = {"whole step": float("inf")}
    totals = dict.fromkeys(PHASES, 0.0)
    last = [0.0]  # when the phase now timed began

    def tick(name: str) -> None:
        now = time.perf_counter()
        totals[name] += now - last[0]
        last[0] = now

    for _ in range(rounds):
        for i in range(steps + 20):  # 20 steps to warm up
            if i == 20:
                totals.update(dict.fromkeys(PHASES, 0.0))
            last[0] = time.perf_counter()
            step(tick)
        round_ms = {k: v / steps * 1e3 for k, v in totals.items()}
        round_ms["whole step"] = sum(round_ms.values())
        if round_ms["whole step"] < best["whole step"]:
            best = round_ms
    return best


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        print(json.dumps(_measure(args.worker, args.rounds, args.steps)))
        return
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1")
    torch_python = os.environ.get("TORCH_PYTHON", sys.executable)
    results = {}
    for lib, python in (("autograd_lab", sys.executable), ("torch", torch_python),
                        ("numpy", sys.executable)):
        run = subprocess.run([python, __file__, "--worker", lib, "--rounds", str(args.rounds),
                              "--steps", str(args.steps)], env=env, capture_output=True,
                             text=True)
        if run.returncode:
            print(f"{lib}: not measured ({run.stderr.strip().splitlines()[-1]})")
            continue
        results[lib] = json.loads(run.stdout)
    libs = list(results)
    print(f"{'phase, ms':<14}" + "".join(f"{lib:>14}" for lib in libs))
    for phase in (*PHASES, "whole step"):
        print(f"{phase:<14}" + "".join(f"{results[lib][phase]:>14.3f}" for lib in libs))


if __name__ == "__main__":
    main()
