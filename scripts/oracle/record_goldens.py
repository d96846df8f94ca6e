"""Record the golden outcome of every case with real PyTorch 2.13.

Usage (``$TORCH_PYTHON``: an interpreter that has torch 2.13, as for ``make goldens``)::

    $TORCH_PYTHON scripts/oracle/record_goldens.py            # every area
    $TORCH_PYTHON scripts/oracle/record_goldens.py ops rng    # only these areas

Each module ``tests/golden_cases/<area>.py`` defines ``CASES`` and (unless its cases are
Python snippets) a ``replay(torch, case)`` function; see ``tests/golden_cases/__init__.py``.
Every case is replayed under torch, in a fresh forked process after ``torch.manual_seed(0)``,
and its outcome is written with the case's inputs to ``tests/goldens/<area>.json``. The tests
replay the same cases with the same function under autograd_lab and compare.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
REQUIRED = "2.13."


def run_isolated(torch: Any, replay: Any, case: dict[str, Any]) -> Any:
    """Replay one case in a forked child, so that nothing a case does (or torch's warn-once
    state) leaks into the next one: every case starts from the same fresh process."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_fd)
        try:
            torch.manual_seed(0)
            text = json.dumps({"outcome": replay(torch, case)})
        except BaseException as e:  # noqa: BLE001  (reported by the parent)
            text = json.dumps({"runner_error": f"{type(e).__name__}: {e}"})
        with os.fdopen(write_fd, "w") as f:
            f.write(text)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd) as f:
        text = f.read()
    os.waitpid(pid, 0)
    result = json.loads(text) if text else {"runner_error": "the case killed its process"}
    if "runner_error" in result:
        raise SystemExit(f"could not run case {case['name']}: {result['runner_error']}")
    return result["outcome"]


def record(torch: Any, area: str) -> int:
    """Replay every case of ``area`` on torch and write its goldens; the number of cases."""
    import golden_cases as G

    out = G.GOLDENS / f"{area}.json"
    if out.exists():
        old = json.loads(out.read_text())
        if not (isinstance(old, dict) and old.get("format") == G.FORMAT):
            raise SystemExit(f"{out} exists and is not a golden-cases file; rename the area")
    replay = G.replay_of(area)
    cases: dict[str, Any] = {}
    for case in G.cases(area):
        cases[case["name"]] = {**G.inputs(case), "outcome": run_isolated(torch, replay, case)}
    data = {"format": G.FORMAT, "torch": torch.__version__, "area": area, "cases": cases}
    G.GOLDENS.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n")
    return len(cases)


def main() -> None:
    """Record the goldens of the areas given (default: all) under torch 2.13."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("areas", nargs="*", help="case modules to record (default: all)")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        raise SystemExit("record_goldens.py needs PyTorch 2.13: run it with $TORCH_PYTHON") \
            from None
    if not torch.__version__.startswith(REQUIRED):
        raise SystemExit(f"record_goldens.py needs torch {REQUIRED}x, found {torch.__version__}")
    sys.path.insert(0, str(TESTS))
    import golden_cases as G

    torch.set_num_threads(1)  # forked children must not inherit a running thread pool
    # torch imports these lazily on first use; import them once here, not per child
    importlib.import_module("torch.fx.experimental.symbolic_shapes")
    warm = torch.zeros(1, requires_grad=True)
    warm.grad = torch.zeros(1)
    torch.optim.SGD([warm], lr=0.1).step()  # an optimizer's first step imports ~800 modules
    gc.freeze()  # children then do not copy the parent's heap when the collector runs
    chosen = args.areas or G.areas()
    unknown = sorted(set(chosen) - set(G.areas()))
    if unknown:
        raise SystemExit(f"no case module for {unknown}; known: {G.areas()}")
    total = 0
    for area in chosen:
        start = time.perf_counter()
        n = record(torch, area)
        total += n
        print(f"{area:12s} {n:5d} cases  {time.perf_counter() - start:6.1f} s"
              f"  -> tests/goldens/{area}.json", flush=True)
    print(f"recorded {total} cases with torch {torch.__version__}")


if __name__ == "__main__":
    main()
