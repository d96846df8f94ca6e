"""Workload descriptions and the interleaved-rounds timer.

Every implementation of a workload is a ``Runner``: set up once, then each call of
``run()`` performs the workload once and returns its measurements (seconds, MB, ...).
One round runs every implementation once, in an order that rotates from round to
round, so that slow phases of the machine hit all implementations alike; the result
of a measurement is its median over the rounds.
"""

from __future__ import annotations

import gc
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

IMPLS = ("autograd_lab", "torch", "numpy")


class Runner(Protocol):
    def run(self) -> dict[str, float]: ...


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

    def median(self, impl: str, metric: str) -> float | None:
        values = [v for v in self.samples.get(impl, {}).get(metric, []) if not math.isnan(v)]
        return statistics.median(values) if values else None


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
    for name in impls:
        try:
            runners[name] = make_runner(name)
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
    return Result(impls, samples, errors)


def _error_text(e: BaseException) -> str:
    return str(e) if isinstance(e, RemoteError) else f"{type(e).__name__}: {e}"


def _one(runners: dict[str, Runner], name: str, into: dict[str, list[float]] | None,
         errors: dict[str, str]) -> None:
    runner = runners.get(name)
    if runner is None:
        return
    gc.collect()  # garbage of the previous run is not charged to this one
    try:
        out = runner.run()
    except Exception as e:
        errors[name] = _error_text(e)
        del runners[name]
        return
    if into is not None:
        for metric, value in out.items():
            into.setdefault(metric, []).append(float(value))
