"""Benchmarks: autograd_lab against PyTorch (when importable) and hand-written numpy.

    python benchmarks/run.py [--quick] [--only W1,W3] [--json out.json] [--rounds N]

Everything runs on one thread; each implementation in a process of its own.
See benchmarks/README.md for the workloads.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # started as a script: import the package from the repository root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks import _env  # noqa: E402,I001

_env.single_thread()  # before numpy loads

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import autograd_lab  # noqa: E402
from benchmarks import crosscheck, worker  # noqa: E402
from benchmarks.harness import IMPLS, measure  # noqa: E402
from benchmarks.report import fmt, header, summary, table  # noqa: E402
from benchmarks.suite import LOCAL, workloads  # noqa: E402

ROUNDS, QUICK_ROUNDS = 15, 2
ISO_ROUNDS = 7  # rounds of isolated samples (the figure kept beside the steady state)


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


LEGEND = (
    "steady: the loop a user writes, step after step (no gc.collect() or untimed run between\n"
    "  steps, the collector on, each step's tensors released as a plain loop releases them);\n"
    "  a sample is the median over a block of back-to-back steps, and its ratio is taken\n"
    "  within the round. isolated: gc.collect() and an untimed warm run before each sample.\n"
    "  'load' is the 1-minute load average when the workload started and ended.")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help=f"{QUICK_ROUNDS} rounds: a smoke test")
    p.add_argument("--only", help="comma-separated workloads, e.g. W1,W3 (also: import)")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    p.add_argument("--rounds", type=int, help=f"rounds per workload (default {ROUNDS})")
    p.add_argument("--iso-rounds", type=int,
                   help=f"rounds of isolated samples (default {ISO_ROUNDS}, at most --rounds)")
    p.add_argument("--no-torch", action="store_true", help="leave PyTorch out")
    p.add_argument("--by-hand", action="store_true",
                   help="W3/W6: use engine ops even when autograd_lab.nn exists")
    p.add_argument("--in-process", action="store_true",
                   help="run all implementations in this process (for debugging)")
    p.add_argument("--no-crosscheck", action="store_true",
                   help="skip the second measurement (crosscheck.py's plain loops) after the "
                        "table")
    args = p.parse_args(argv)

    has_torch = not args.no_torch and importlib.util.find_spec("torch") is not None
    torch = _env.load_torch() if has_torch and args.in_process else None
    builders = workloads(autograd_lab, torch, args.by_hand, with_torch=has_torch)
    keys = list(builders)
    if args.only:
        by_lower = {k.lower(): k for k in keys}
        wanted = [k.strip() for k in args.only.split(",") if k.strip()]
        unknown = [k for k in wanted if k.lower() not in by_lower]
        if unknown:
            p.error(f"unknown workload(s) {', '.join(unknown)}; choose from {', '.join(keys)}")
        keys = [by_lower[k.lower()] for k in wanted]
    rounds = args.rounds or (QUICK_ROUNDS if args.quick else ROUNDS)
    iso_rounds = min(rounds, args.iso_rounds or ISO_ROUNDS)

    pool: dict[str, worker.Worker] = {}
    notes = []
    if not args.in_process:
        impls = [i for i in IMPLS if i != "torch" or has_torch]
        pool, failed = worker.start(impls, args.by_hand)
        notes += [f"{impl} worker did not start: {err}" for impl, err in failed.items()]
    torch_version = (torch.__version__ if torch is not None else
                     pool["torch"].info["versions"]["torch"] if "torch" in pool else None)
    meta = {
        "python": platform.python_version(), "numpy": np.__version__, "torch": torch_version,
        "autograd_lab": autograd_lab.__version__, "machine": platform.machine(),
        "rounds": rounds, "iso_rounds": iso_rounds, "threads": 1, "processes": "in-process" if args.in_process else
        "one per implementation",
    }
    print(f"autograd_lab benchmarks: python {meta['python']}, numpy {meta['numpy']}, "
          f"torch {torch_version or '- (not importable)'}; one thread; {meta['processes']}; "
          f"median of {rounds} interleaved rounds ({iso_rounds} for isolated figures)")
    env = {impl: wk.info.get("env", {}) for impl, wk in pool.items()}
    if args.in_process:
        env = {"in-process": _env.describe(torch)}
    for impl, e in env.items():
        blas = e.get("blas")
        blas = "; ".join(blas) if isinstance(blas, list) else blas
        threads = (f"; torch threads {e['torch_threads']} (inter-op {e['torch_interop_threads']})"
                   if "torch_threads" in e else "")
        gemm = f"; large float32 products on {e['gemm']}" if "gemm" in e else ""
        print(f"  {impl} process: numpy BLAS {blas or '-'}{threads}{gemm}")
    meta["env"] = env
    for note in notes:
        print("note:", note)
    print(LEGEND)
    print()
    print(header())
    out: list[dict] = []
    all_rows: list[dict] = []
    steady: dict[str, list[dict]] = {}  # rows by workload, for the cross-check
    load0 = _load()
    t_start = time.perf_counter()
    try:
        for key in keys:
            w = builders[key]()
            w_load = _load()
            if args.in_process or key in LOCAL:
                res = measure(w, rounds, iso_rounds=iso_rounds)
            else:
                res = measure(w, rounds, make_runner=lambda impl, k=key: pool[impl].setup(k),
                              impls=[i for i in IMPLS if i in pool], iso_rounds=iso_rounds)
            lines, rows = table(w, res)
            lines.append(f"    load {w_load:.1f} -> {_load():.1f}")
            digests = {d for d in res.digests.values() if d is not None}
            if len(digests) > 1:
                raise SystemExit(f"{key}: the implementations were fed different arrays: "
                                 f"{res.digests}")
            if digests:
                lines.append(f"    every implementation was fed the same arrays "
                             f"(sha1 {digests.pop()})")
            print("\n".join(lines), flush=True)
            all_rows += rows
            steady[w.key] = rows
            out.append({"key": w.key, "title": w.title, "rows": rows, "errors": res.errors,
                        "samples": res.samples, "load": [w_load, _load()]})
    finally:
        for wk in pool.values():
            wk.close()
    print()
    print(summary(all_rows) + f"  ({time.perf_counter() - t_start:.0f} s)")
    meta["load"] = [load0, _load()]
    print(f"machine load (1-minute average) at start {load0:.1f}, at end {meta['load'][1]:.1f}, "
          f"on {os.cpu_count()} CPUs" + (": other processes were competing, timings are noisy"
                                         if max(meta["load"]) > 1.5 else ""))
    if not args.no_crosscheck and not args.quick and any(k in steady for k in ("W1", "W3", "W6")):
        meta["crosscheck"] = _crosscheck(steady, has_torch)
    if args.json:
        Path(args.json).write_text(json.dumps({"meta": meta, "workloads": out}, indent=1))
    return 0


def _crosscheck(steady: dict[str, list[dict]], has_torch: bool) -> dict:
    """Run crosscheck.py's plain loops (fresh processes, after the table) and print their
    table, then each of its figures beside the table's steady figure for the same loop."""
    libs = tuple(lib for lib in crosscheck.LIBS if lib != "torch" or has_torch)
    print(f"\ncross-check (crosscheck.py: plain loops written as a user writes them, a fresh "
          f"process per library, load {_load():.1f}):")
    results, failed = crosscheck.collect(libs)
    for f in failed:
        print("note:", f)
    print("\n".join(crosscheck.table(results)))
    print("\nsteady figure of the table vs the cross-check's, as 'table vs cross-check (gap)'; "
          "a gap over 10% is marked *.\nWall clock, then [CPU time of the process], which "
          "other processes on a loaded machine do not inflate:")
    for key, (wkey, label, cpu_label) in crosscheck.SAME_AS.items():
        rows = steady.get(wkey, [])
        row = next((r for r in rows if r["label"].startswith(label)), None)
        cpu = next((r for r in rows if r["label"].startswith(cpu_label)), None)
        if row is None:
            continue
        cells = []
        for lib in libs:
            cc = results.get(lib, {}).get(key)
            pairs = [(row["values"].get(lib), cc and cc[0])]
            if cpu is not None:
                pairs.append((cpu["values"].get(lib), cc and cc[1]))
            shown = []
            for t, c in pairs:
                if t is None or c is None:
                    shown.append("-")
                    continue
                gap = c / t - 1
                shown.append(f"{fmt(t, '')} vs {fmt(c, '')} ({gap:+.0%}"
                             f"{'*' if round(abs(gap), 3) > 0.10 else ''})")
            cells.append(f"{lib} " + (shown[0] + (f" [{shown[1]}]" if len(shown) > 1 else "")))
        print(f"  {wkey} {key:34} " + "; ".join(cells))
    return {"results": results, "failed": failed}


if __name__ == "__main__":
    sys.exit(main())
