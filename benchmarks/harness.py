"""Workload descriptions and the interleaved-rounds timer.

Every implementation of a workload is a ``Runner``: set up once, then each call of
``run()`` performs the workload once and returns its measurements (seconds, MB, ...).
One round runs every implementation once, in an order that rotates from round to
round, so that slow phases of the machine hit all implementations alike; the result
of a measurement is its median over the rounds.

Two kinds of sample (``SAMPLERS``):

* ``steady`` (the headline): the loop a user writes. ``runner.loop_step()`` (else ``run()``) is
  called ``runner.steady_steps`` times back to back: no ``gc.collect()``, no untimed run, the
  collector on, each step's tensors released as a plain loop releases them (a name keeps
  the previous step's value until it is assigned again). The sample is the median over
  the block of each measurement, plus ``mean_<first>`` (the block's mean: collector
  pauses and page faults included), ``cpu`` (the median CPU time of the process per step,
  which other processes on a loaded machine do not inflate) and ``faults`` (minor page
  faults per step).
* ``isolated``: ``gc.collect()`` and one untimed run before the timed runs (warm caches, a
  clean heap). Its measurements are named ``iso_<name>``.
"""

from __future__ import annotations

import gc
import hashlib
import math
import resource
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

IMPLS = ("autograd_lab", "torch", "numpy")


class Runner(Protocol):
    def run(self) -> dict[str, float]: ...


# sha1 of the arrays the most recently built runner was fed (see ``fed``).
_fed_digest: str | None = None


def fed(*arrays: object) -> tuple:
    """Pass a runner's input arrays through here: their digest is recorded.

    Every implementation builds its runner from the same seeded arrays; the digest that each
    worker reports back proves it (``run.py`` prints it and refuses a mismatch).
    """
    global _fed_digest
    h = hashlib.sha1()
    for a in arrays:
        for part in a if isinstance(a, list) else [a]:
            h.update(part.dtype.str.encode() + str(part.shape).encode() + part.tobytes())
    _fed_digest = h.hexdigest()[:12]
    return arrays


def take_fed_digest() -> str | None:
    """The digest recorded since the last call (None when the runner recorded none)."""
    global _fed_digest
    d, _fed_digest = _fed_digest, None
    return d


def timed_run(runner: Runner) -> dict[str, float]:
    """One measurement, taken on warm caches: the median of ``runner.repeat`` runs.

    ``gc.collect()`` first (garbage of the previous run is not charged to this one), then an
    untimed run: a full collection walks the whole heap and evicts the CPU caches, which would
    otherwise be charged to whichever library runs next (torch's 0.5 ms cross-entropy measured
    2-8 ms that way). Short workloads set ``repeat`` so that one slow run cannot decide a
    sample. Runners that measure memory, not time, set ``rewarm = False``.
    """
    gc.collect()
    if getattr(runner, "rewarm", True):
        runner.run()
    runs = [runner.run() for _ in range(getattr(runner, "repeat", 1))]
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def _minor_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def steady_run(runner: Runner) -> dict[str, float]:
    """One steady-state measurement: ``runner.steady_steps`` back-to-back steps (see the
    module docstring); medians over the block, its mean and the page faults per step."""
    step = getattr(runner, "loop_step", None) or runner.run
    n = getattr(runner, "steady_steps", 1)
    cpu, runs = [], []
    f0 = _minor_faults()
    for _ in range(n):
        c0 = time.process_time()
        runs.append(step())
        cpu.append(time.process_time() - c0)
    faults = (_minor_faults() - f0) / n
    out = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    first = next(iter(runs[0]))
    out["mean_" + first] = statistics.fmean(r[first] for r in runs)
    out["cpu"] = statistics.median(cpu)  # this process's CPU time: blind to other processes
    out["faults"] = faults
    return out


def isolated_run(runner: Runner) -> dict[str, float]:
    """``timed_run`` with its measurements named ``iso_<name>``."""
    return {"iso_" + k: v for k, v in timed_run(runner).items()}


SAMPLERS: dict[str, Callable[[Runner], dict[str, float]]] = {
    "steady": steady_run, "isolated": isolated_run, "plain": timed_run,
}


def take_sample(runner: Runner, kind: str) -> dict[str, float]:
    """One sample of ``kind`` (a key of ``SAMPLERS``), here or in the runner's process."""
    remote = getattr(runner, "sample", None)
    return remote(kind) if remote is not None else SAMPLERS[kind](runner)


class RemoteError(RuntimeError):
    """An error raised in a worker process (its text names the original type)."""


@dataclass
class Target:
    """A goal for one table row.

    ``kind``: ``"ratio"`` (autograd_lab / ``Row.ref`` <= ``hi``), ``"max"`` (value <= ``hi``),
    ``"range"`` (``lo`` <= value <= ``hi``) or ``"true"`` (the value is yes).
    """

    kind: str
    hi: float = math.inf
    lo: float = -math.inf
    text: str = ""

    def check(self, value: float | None, ratio: float | None) -> bool | None:
        """True/False, or None when the needed number is missing."""
        if self.kind == "ratio":
            return None if ratio is None else ratio <= self.hi
        if value is None:
            return None
        if self.kind == "true":
            return value >= 1
        return self.lo <= value <= self.hi


@dataclass
class Row:
    """One table row: measurement ``metric`` of every implementation, times ``scale``."""

    label: str
    metric: str
    unit: str
    scale: float = 1.0
    ref: str | None = None  # implementation the ratio compares autograd_lab with
    target: Target | None = None


@dataclass
class Workload:
    key: str
    title: str
    setups: dict[str, Callable[[], Runner]]  # implementation name -> builds its runner
    rows: list[Row]
    max_rounds: int | None = None  # a cap (memory readings do not vary; imports are slow)
    notes: list[str] = field(default_factory=list)
    kinds: tuple[str, ...] = ("plain",)  # samples taken: a key of SAMPLERS each, in order


@dataclass
class Result:
    present: list[str]  # implementations that took part (the others show "-")
    samples: dict[str, dict[str, list[float]]]  # impl -> metric -> one value per round
    errors: dict[str, str]  # impl -> error text (its cells show "err")
    digests: dict[str, str | None] = field(default_factory=dict)  # impl -> inputs' sha1

    def values(self, impl: str, metric: str) -> list[float]:
        return [v for v in self.samples.get(impl, {}).get(metric, []) if not math.isnan(v)]

    def median(self, impl: str, metric: str) -> float | None:
        values = self.values(impl, metric)
        return statistics.median(values) if values else None

    def spread(self, impl: str, metric: str) -> tuple[float, float] | None:
        values = self.values(impl, metric)
        return (min(values), max(values)) if values else None

    def merge(self, other: Result) -> None:
        """Add the samples (and errors) of another pass over the same implementations."""
        for impl, metrics in other.samples.items():
            self.samples.setdefault(impl, {}).update(metrics)
        self.errors.update(other.errors)

    def ratios(self, impl: str, ref: str, metric: str) -> list[float]:
        """``impl / ref`` within each round (both measured moments apart), round by round."""
        a = self.samples.get(impl, {}).get(metric, [])
        b = self.samples.get(ref, {}).get(metric, [])
        return [x / y for x, y in zip(a, b) if y and not (math.isnan(x) or math.isnan(y))]


def measure(w: Workload, rounds: int, warmup: int = 1,
            make_runner: Callable[[str], Runner] | None = None,
            impls: list[str] | None = None, iso_rounds: int | None = None) -> Result:
    """Run every implementation of ``w`` for ``rounds`` interleaved rounds, one pass per
    kind of sample in ``w.kinds`` (the isolated pass: ``iso_rounds`` rounds, default
    ``rounds``). Steady-state rounds come first, so no collection precedes them.

    By default the runners are built here, from ``w.setups``; ``make_runner(impl)`` can
    build them elsewhere (in worker processes).
    """
    if w.max_rounds is not None:
        rounds = min(rounds, w.max_rounds)
    if impls is None:
        impls = [i for i in IMPLS if i in w.setups]
    if make_runner is None:
        make_runner = lambda impl: w.setups[impl]()  # noqa: E731
    samples: dict[str, dict[str, list[float]]] = {}
    errors: dict[str, str] = {}
    runners: dict[str, Runner] = {}
    digests: dict[str, str | None] = {}
    for name in impls:
        try:
            runners[name] = make_runner(name)
            digests[name] = getattr(runners[name], "digest", None) or take_fed_digest()
        except Exception as e:  # reported in the table; the others go on
            errors[name] = _error_text(e)
    names = list(runners)
    for _ in range(warmup):
        for name in names:
            _one(runners, name, None, errors, w.kinds[0])
    for kind in w.kinds:
        n = iso_rounds if kind == "isolated" and iso_rounds is not None else rounds
        for r in range(n):
            k = r % len(names) if names else 0
            for name in names[k:] + names[:k]:
                _one(runners, name, samples.setdefault(name, {}), errors, kind)
    runners.clear()
    gc.collect()
    return Result(impls, samples, errors, digests)


def _error_text(e: BaseException) -> str:
    return str(e) if isinstance(e, RemoteError) else f"{type(e).__name__}: {e}"


def _one(runners: dict[str, Runner], name: str, into: dict[str, list[float]] | None,
         errors: dict[str, str], kind: str = "plain") -> None:
    runner = runners.get(name)
    if runner is None:
        return
    try:
        out = take_sample(runner, kind)
    except Exception as e:
        errors[name] = _error_text(e)
        del runners[name]
        return
    if into is not None:
        for metric, value in out.items():
            into.setdefault(metric, []).append(float(value))


def steady_rows(label: str, metric: str, unit: str, scale: float, ref: str | None,
                target: Target | None, steps: int, parts: list[tuple[str, str]] = (),
                also: str | None = None) -> list[Row]:
    """The rows of a timed workload: the steady-state figure (the target's), the same against
    ``also``, its ``parts``, the block's mean, the page faults per step, and the isolated
    figure beside them (labelled)."""
    rows = [Row(f"steady: {label}, {unit}/step", metric, unit, scale, ref, target)]
    if also is not None:
        rows.append(Row(f"  (the same, against {also})", metric, unit, scale, also))
    rows += [Row(f"  {name}, {unit}", m, unit, scale) for name, m in parts]
    rows += [
        Row(f"  mean of the {steps} steps, {unit}/step", "mean_" + metric, unit, scale, ref),
        Row(f"  CPU time of the process, {unit}/step", "cpu", unit, scale, ref),
        Row("  minor page faults per step", "faults", "n"),
        Row(f"isolated: {label}, {unit}", "iso_" + metric, unit, scale, ref),
    ]
    return rows
