"""Workload descriptions and the interleaved-rounds timer.

Every implementation of a workload is a ``Runner``: set up once, then each call of
``run()`` performs the workload once and returns its measurements (seconds, MB, ...).
One round runs every implementation once, in an order that rotates from round to
round, so that slow phases of the machine hit all implementations alike; the result
of a measurement is its median over the rounds.
"""

from __future__ import annotations

import gc
import hashlib
import math
import statistics
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

    def ratios(self, impl: str, ref: str, metric: str) -> list[float]:
        """``impl / ref`` within each round (both measured moments apart), round by round."""
        a = self.samples.get(impl, {}).get(metric, [])
        b = self.samples.get(ref, {}).get(metric, [])
        return [x / y for x, y in zip(a, b) if y and not (math.isnan(x) or math.isnan(y))]


def measure(w: Workload, rounds: int, warmup: int = 1,
            make_runner: Callable[[str], Runner] | None = None,
            impls: list[str] | None = None) -> Result:
    """Run every implementation of ``w`` for ``rounds`` interleaved rounds.

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
            _one(runners, name, None, errors)
    for r in range(rounds):
        k = r % len(names) if names else 0
        for name in names[k:] + names[:k]:
            _one(runners, name, samples.setdefault(name, {}), errors)
    runners.clear()
    gc.collect()
    return Result(impls, samples, errors, digests)


def _error_text(e: BaseException) -> str:
    return str(e) if isinstance(e, RemoteError) else f"{type(e).__name__}: {e}"


def _one(runners: dict[str, Runner], name: str, into: dict[str, list[float]] | None,
         errors: dict[str, str]) -> None:
    runner = runners.get(name)
    if runner is None:
        return
    try:
        out = timed_run(runner)
    except Exception as e:
        errors[name] = _error_text(e)
        del runners[name]
        return
    if into is not None:
        for metric, value in out.items():
            into.setdefault(metric, []).append(float(value))
