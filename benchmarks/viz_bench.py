"""Speed of the backward stepper on a 200-node graph (targets: precompute <= 1 s, step <= 100 ms).

    .venv/bin/python benchmarks/viz_bench.py [--nodes 200] [--repeat 5]

Measured (median of ``--repeat`` runs, a fresh graph each time):

- ``record``: ``record_backward`` -- draw the graph as DOT, run the real backward with
  a listener, index the frames. This is the frames' precomputation.
- ``render``: the one Graphviz run that lays the graph out as SVG (``dot``).
- ``stepper``: building ``BackwardStepper`` (record + render + first frame).
- ``step``: one redraw -- compose the frame's SVG, caption and table and set the three
  ``HTML`` widget values -- mean and worst over every frame, in random order.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

if __name__ == "__main__":  # started as a script: import the package from the repository root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import autograd_lab as torch  # noqa: E402
from autograd_lab.viz import BackwardStepper, build_graph, record_backward  # noqa: E402


def graph(n_nodes: int) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """An MLP-like chain of mul/add/tanh layers with about ``n_nodes`` function nodes."""
    torch.manual_seed(0)
    x = torch.randn(8)
    params: dict[str, torch.Tensor] = {}
    h = x
    layers = max(1, -(-(n_nodes - 1) // 5))  # per layer: 2 AccumulateGrad + Mul, Add, Tanh
    for i in range(layers):
        w = torch.randn(8, requires_grad=True)
        b = torch.randn(8, requires_grad=True)
        params[f"w{i}"], params[f"b{i}"] = w, b
        h = torch.tanh(h * w + b)
    return h.sum(), params


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    loss, params = graph(args.nodes)
    n = len(build_graph(loss, params, max_nodes=None).nodes)
    print(f"graph: {n} function nodes (incl. AccumulateGrad), {len(params)} leaves")

    def record():
        out, p = graph(args.nodes)
        return record_backward(out, params=p)

    t_record = median_time(record, args.repeat)
    rec = record()
    frames = len(rec)

    def render():
        r = record()
        t = time.perf_counter()
        r.svg  # noqa: B018 -- the Graphviz layout
        return time.perf_counter() - t

    t_render = statistics.median(render() for _ in range(args.repeat))

    def stepper():
        out, p = graph(args.nodes)
        return BackwardStepper(out, params=p)

    t_stepper = median_time(stepper, args.repeat)
    s = stepper()
    order = list(range(frames))
    random.Random(0).shuffle(order)
    steps = []
    for i in order:
        t = time.perf_counter()
        s.go(i)
        steps.append(time.perf_counter() - t)
    svg_kb = len(s.graph.value) / 1024

    rows = [
        ("record_backward (precompute frames)", t_record, 1.0),
        ("render the graph once (dot -> SVG)", t_render, None),
        ("BackwardStepper(...) total", t_stepper, None),
        ("step redraw, mean", statistics.mean(steps), 0.1),
        ("step redraw, worst", max(steps), 0.1),
    ]
    print(f"frames: {frames}; frame SVG ~{svg_kb:.0f} KiB\n")
    print(f"{'measure':40} {'seconds':>9}  target")
    for name, value, target in rows:
        verdict = "" if target is None else f"<= {target:g} s  {'ok' if value <= target else 'MISSED'}"
        print(f"{name:40} {value:9.4f}  {verdict}")


if __name__ == "__main__":
    main()
