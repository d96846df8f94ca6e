"""Where autograd_lab spends its time in W1 and W2: cProfile of each phase, top functions.

    python benchmarks/profile_engine.py [--top 15] [--sort tottime|cumulative]

Profiles W1's forward and backward and W2's forward and backward separately.
cProfile slows pure-Python code down a few times; read the shares, not the totals.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # started as a script: import the package from the repository root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks import _env  # noqa: E402,I001

_env.single_thread()  # before numpy loads

import argparse  # noqa: E402
import cProfile  # noqa: E402
import io  # noqa: E402
import pstats  # noqa: E402

import autograd_lab as al  # noqa: E402
from benchmarks.scalar_chain import W1_ITERS, W2_NODES  # noqa: E402


def _phases() -> list[tuple[str, object, object]]:
    """(name, build the graph, run backward) for each profiled phase."""
    state: dict = {}

    def w1_fwd() -> None:
        x = al.tensor(0.5, requires_grad=True)
        y = x
        for _ in range(W1_ITERS):
            y = (y * 0.99 + 0.004).relu()
        state["w1"] = y

    def w2_fwd() -> None:
        x = al.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(W2_NODES):
            y = y * 1.0001
        state["w2"] = y

    return [
        (f"W1 forward ({W1_ITERS:,} iterations x 3 ops)", w1_fwd),
        ("W1 backward", lambda: state.pop("w1").backward()),
        (f"W2 forward ({W2_NODES:,} nodes)", w2_fwd),
        ("W2 backward", lambda: state.pop("w2").backward()),
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--sort", default="tottime", choices=("tottime", "cumulative"))
    args = p.parse_args(argv)
    for name, fn in _phases():
        prof = cProfile.Profile()
        prof.runcall(fn)
        buf = io.StringIO()
        stats = pstats.Stats(prof, stream=buf).strip_dirs().sort_stats(args.sort)
        stats.print_stats(args.top)
        text = buf.getvalue()
        print(f"==== {name} ====")
        print(text[text.find("   ncalls"):].rstrip() if "   ncalls" in text else text)
        total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
        print(f"(profiled total {total:.2f} s)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
