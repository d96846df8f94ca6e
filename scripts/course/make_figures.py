"""Regenerate figures/*.svg from the package's own drawing code (``make figures``).

    .venv/bin/python scripts/course/make_figures.py [--out figures]

Every figure is drawn from a real graph (and, for the stepper frame, a real backward
pass). The output is deterministic: running the script twice writes identical files
(on one machine: Graphviz and font versions change the coordinates). ``make figures`` then
runs ``embed_figures.py``, which copies them into the notebooks that show them.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import sys
from pathlib import Path
from typing import Any, Callable

if __name__ == "__main__":  # started as a script: import the package from the repository root
    sys.path[0] = str(Path(__file__).resolve().parents[2])

import matplotlib  # noqa: E402

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "autograd_lab"  # stable ids inside the SVG

import autograd_lab as torch  # noqa: E402
from autograd_lab.viz import make_dot, memory_timeline, record_backward, version_view  # noqa: E402


def square_sum() -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """z = sum(x ** 2): the first graph of the course (the loss, and its tensors by name)."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    z = y.sum()
    return z, dict(x=x, y=y, z=z)


def four_leaves() -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """e = a * b + log(d) * c: four leaves, two branches."""
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    c = torch.tensor(4.0, requires_grad=True)
    d = torch.tensor(5.0, requires_grad=True)
    u = a * b
    t = torch.log(d)
    v = t * c
    e = u + v
    return e, dict(a=a, b=b, c=c, d=d, u=u, t=t, v=v, e=e)


def fan_in() -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """``a`` reaches the loss along two paths: its gradients are summed before ``a.grad``."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    u = a * b
    v = u * a
    e = (u + v).sum()
    return e, dict(a=a, b=b, u=u, v=v, e=e)


def svg_of(dot: Any) -> str:
    """A Graphviz graph rendered as SVG text."""
    return dot.pipe(format="svg", encoding="utf-8")


def figures() -> dict[str, Callable[[], str]]:
    """name -> a callable returning the SVG text."""
    out: dict[str, Callable[[], str]] = {}

    def square_grad_fn() -> str:
        z, p = square_sum()
        return svg_of(make_dot(z, dict(x=p["x"]), show_saved=True))

    def square_value() -> str:
        z, p = square_sum()
        return svg_of(make_dot(z, p, view="value"))

    def four_grad_fn() -> str:
        e, p = four_leaves()
        return svg_of(make_dot(e, {k: p[k] for k in "abcde"}))

    def four_value() -> str:
        e, p = four_leaves()
        e.backward()
        return svg_of(make_dot(e, p, view="value"))

    def stepper_frame() -> str:
        e, p = fan_in()
        rec = record_backward(e, params=p)
        i = next(k for k, f in enumerate(rec.frames)
                 if f.kind == "node" and rec.caption_text(k).startswith("AccumulateGrad(a)"))
        return svg_of(rec.frame_dot(i))

    def versions() -> str:
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = a.sigmoid()
        c = (b * 2).sum()
        b.mul_(3)  # in place: SigmoidBackward0 saved b (its result) at version 0
        return svg_of(version_view(c, dict(a=a, b=b, c=c), width=72).dot)

    def memory() -> str:
        def step() -> torch.Tensor:
            x = torch.ones(1000, requires_grad=True)
            y = x.exp()
            z = y * y
            return z.sum()

        gc.collect()
        fig = memory_timeline(step)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
        return buf.getvalue()

    def two_halves() -> str:
        z, p = square_sum()
        return svg_of(make_dot(z, p, view="both", show_saved=True))

    out["square_sum_grad_fn.svg"] = square_grad_fn
    out["square_sum_value.svg"] = square_value
    out["four_leaves_grad_fn.svg"] = four_grad_fn
    out["four_leaves_value.svg"] = four_value
    out["stepper_fan_in.svg"] = stepper_frame
    out["version_stale.svg"] = versions
    out["memory_timeline.svg"] = memory
    out["two_halves.svg"] = two_halves
    return out


def main() -> None:
    """Write every figure into ``--out``."""
    ap = argparse.ArgumentParser(description="Regenerate figures/*.svg")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "figures"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, make in figures().items():
        path = os.path.join(args.out, name)
        text = make()
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        print(f"wrote {os.path.relpath(path)}")


if __name__ == "__main__":
    main()
