"""The registry of the course's exercises, for grading a class's notebooks.

``EXERCISES[notebook][exercise]`` is an ``Exercise``: the notebook's file stem (e.g.
``"05_retain_graph_and_accumulation"``), the exercise id (``"ex1"`` ..., or a capstone part),
its points, whether it is graded (a formative one says why not), and its two halves:

* ``collect(ns, variant) -> dict`` runs in the student's kernel after the student's cells:
  it runs the student's code (functions, training loops ...) on the inputs ``variant``
  describes, records how the answer was reached (backward passes, hooks that fired,
  forbidden calls) and returns JSON data. It never raises: ``{"unanswered": True}`` or
  ``{"error": "..."}`` instead.
* ``judge(payload, variant) -> (status, message)`` runs in the grader's own process and
  recomputes what is expected; ``status`` is passed, failed, unanswered or error.

``Variant(seed, fixed=True)`` are the notebook's own examples (what the in-notebook checks
use); ``Variant(seed, fixed=False)`` draws fresh inputs from ``seed``.

    from autograd_lab.teaching.grading import EXERCISES, Variant
    ex = EXERCISES["07_detach_clone_no_grad"]["ex1"]
    status, message = ex.judge(ex.collect(namespace, Variant(12345, False)), Variant(12345, False))
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable

from .checks._payloads import FIXED, STATUSES, Variant

__all__ = ["EXERCISES", "Exercise", "FIXED", "MODULES", "STATUSES", "Variant", "exercise"]

MODULES = [f"nb{i:02d}" for i in range(18)]  # one check module per notebook


@dataclass(frozen=True)
class Exercise:
    """One exercise of one notebook, as a grader sees it."""

    notebook: str
    id: str
    points: int
    graded: bool
    formative_reason: str
    collect: Callable[[dict, Variant], dict]
    judge: Callable[[dict, Variant], tuple[str, str]]
    title: str = ""


def _build() -> dict[str, dict[str, Exercise]]:
    registry: dict[str, dict[str, Exercise]] = {}
    for name in MODULES:
        module = importlib.import_module(f"{__package__}.checks.{name}")
        stem = module.NOTEBOOK
        registry[stem] = {
            ex_id: Exercise(stem, ex_id, s.points, s.graded, s.formative_reason, s.collect,
                            s.judge, s.title)
            for ex_id, s in module.EXERCISES.items()}
    return registry


EXERCISES: dict[str, dict[str, Exercise]] = _build()


def exercise(notebook: str, exercise_id: str) -> Exercise:
    """The registered exercise, with a clear error for an unknown notebook or id."""
    if notebook not in EXERCISES:
        raise KeyError(f"unknown notebook {notebook!r}; known: {', '.join(EXERCISES)}")
    exercises = EXERCISES[notebook]
    if exercise_id not in exercises:
        raise KeyError(f"notebook {notebook!r} has no exercise {exercise_id!r}; "
                       f"known: {', '.join(exercises)}")
    return exercises[exercise_id]
