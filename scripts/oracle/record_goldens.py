"""Record the golden outcome of every parity case with real PyTorch 2.13.

Usage (an interpreter that has torch 2.13, e.g. the oracle venv)::

    /tmp/oracle/bin/python scripts/oracle/record_goldens.py            # every area
    /tmp/oracle/bin/python scripts/oracle/record_goldens.py ops graph  # only these areas

Each module ``tests/golden_cases/<area>.py`` defines ``CASES`` (dicts with ``name`` and
``code``). Every case runs under torch after ``torch.manual_seed(0)``; its outcome (see
``tests/golden_support.py``) is written with the case's code to ``tests/goldens/<area>.json``.
``tests/test_golden_parity.py`` replays the same code under autograd_lab and compares.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
CASES_DIR = TESTS / "golden_cases"
GOLDENS = TESTS / "goldens"
REQUIRED = "2.13."
FORMAT = "golden-cases-1"


def areas() -> list[str]:
    """The case modules in tests/golden_cases (one goldens file each)."""
    return sorted(p.stem for p in CASES_DIR.glob("*.py") if p.stem != "__init__")


def load_cases(area: str) -> list[dict[str, Any]]:
    """The cases of ``area``; their names must be unique."""
    module = importlib.import_module(f"golden_cases.{area}")
    cases = list(module.CASES)
    names = [c["name"] for c in cases]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise SystemExit(f"{area}: duplicate case names {dupes}")
    return cases


def run_isolated(torch: Any, code: str) -> dict[str, Any]:
    """Run one case in a forked child, so that nothing a case does (or torch's warn-once
    state) leaks into the next one: every case starts from the same fresh process."""
    from golden_support import run_case

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_fd)
        try:
            torch.manual_seed(0)
            text = json.dumps(run_case(torch, code))
        except BaseException as e:  # noqa: BLE001  (reported by the parent)
            text = json.dumps({"runner_error": f"{type(e).__name__}: {e}"})
        with os.fdopen(write_fd, "w") as f:
            f.write(text)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd) as f:
        text = f.read()
    os.waitpid(pid, 0)
    outcome = json.loads(text) if text else {"runner_error": "the case killed its process"}
    if "runner_error" in outcome:
        raise SystemExit(f"could not run a case: {outcome['runner_error']}\n{code}")
    return outcome


def record(torch: Any, area: str) -> tuple[int, int, int]:
    """Run every case of ``area`` on torch and write its goldens: (cases, errors, warned)."""
    out = GOLDENS / f"{area}.json"
    if out.exists():
        old = json.loads(out.read_text())
        if not (isinstance(old, dict) and old.get("format") == FORMAT):
            raise SystemExit(f"{out} exists and is not a golden-cases file; rename the area")
    cases: dict[str, Any] = {}
    errors = warned = 0
    for case in load_cases(area):
        outcome = run_isolated(torch, case["code"])
        errors += outcome["error"] is not None
        warned += bool(outcome["warnings"])
        cases[case["name"]] = {"code": case["code"], "outcome": outcome}
    data = {"format": FORMAT, "torch": torch.__version__, "area": area, "cases": cases}
    GOLDENS.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n")
    return len(cases), errors, warned


def main() -> None:
    """Record the goldens of the areas given (default: all) under torch 2.13."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("areas", nargs="*", help="case modules to record (default: all)")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        raise SystemExit("record_goldens.py needs PyTorch 2.13 (e.g. /tmp/oracle/bin/python)") \
            from None
    if not torch.__version__.startswith(REQUIRED):
        raise SystemExit(f"record_goldens.py needs torch {REQUIRED}x, found {torch.__version__}")
    sys.path.insert(0, str(TESTS))
    torch.set_num_threads(1)  # forked children must not inherit a running thread pool
    # torch imports these lazily on first backward; import them once here, not per child
    importlib.import_module("torch.fx.experimental.symbolic_shapes")
    gc.freeze()  # children then do not copy the parent's heap when the collector runs
    chosen = args.areas or areas()
    unknown = sorted(set(chosen) - set(areas()))
    if unknown:
        raise SystemExit(f"no case module for {unknown}; known: {areas()}")
    total = 0
    for area in chosen:
        n, errors, warned = record(torch, area)
        total += n
        print(f"{area:12s} {n:5d} cases  ({errors} end in an error, {warned} warn)"
              f"  -> tests/goldens/{area}.json")
    print(f"recorded {total} cases with torch {torch.__version__}")


if __name__ == "__main__":
    main()
