"""The registry of exercises (``autograd_lab.teaching.grading``) against the notebooks.

Every check cell of every notebook names a registered exercise with the same grading terms;
no check module exposes a reference implementation; each reference notebook, run cell by
cell, passes every exercise on its own example and on fresh variants, and each student copy
is "unanswered" everywhere (``tests/notebook_checks.py`` runs them in a process of their own).
"""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

from autograd_lab.teaching.grading import EXERCISES, MODULES, STATUSES, Variant, exercise

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
SEEDS = ["3", "41", "2026"]


def _code_cells(path: Path) -> list[dict]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def _src(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_check_cell_is_registered(path):
    registry = EXERCISES[path.stem]
    seen = []
    answer_before = False
    for cell in _code_cells(path):
        tags = cell["metadata"].get("tags", [])
        if "check" not in tags:
            answer_before = answer_before or "### BEGIN SOLUTION" in _src(cell)
            continue
        meta = cell["metadata"]["autograd_lab"]
        ex = registry[meta["exercise"]]
        assert meta["points"] == ex.points and meta["graded"] == ex.graded, meta
        assert meta.get("formative_reason", "") == ex.formative_reason, meta
        assert "### BEGIN SOLUTION" not in _src(cell), "a check cell holds no answer"
        assert answer_before, f"{ex.id}: no answer cell before its check cell"
        answer_before = False
        seen.append(ex.id)
    assert seen == list(registry), (seen, list(registry))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_answer_is_followed_by_its_check(path):
    """A cell with a solution is followed by a check cell before the next solution cell."""
    pending = False
    for cell in _code_cells(path):
        if "check" in cell["metadata"].get("tags", []):
            pending = False
        elif "### BEGIN SOLUTION" in _src(cell):
            pending = pending or True
    assert not pending


def test_registry_shape():
    assert set(EXERCISES) == {p.stem for p in NOTEBOOKS}
    for stem, exercises in EXERCISES.items():
        for ex_id, ex in exercises.items():
            assert ex.notebook == stem and ex.id == ex_id and ex.points >= 1
            assert ex.graded != bool(ex.formative_reason), (stem, ex_id)
            assert callable(ex.collect) and callable(ex.judge)
    with pytest.raises(KeyError, match="unknown notebook"):
        exercise("99_nowhere", "ex1")
    with pytest.raises(KeyError, match="has no exercise 'ex9'"):
        exercise("05_retain_graph_and_accumulation", "ex9")


FORBIDDEN = ["_reference", "_order_of", "reference_losses", "replay_losses", "chunk_loss",
             "accumulated_ratio", "chain_costs", "_reference_count", "chain_names", "_softmax",
             "_chain_to_leaf", "_grad_with", "_forward_difference", "_poly", "RULES"]


@pytest.mark.parametrize("name", MODULES)
def test_no_check_module_exposes_a_reference(name):
    """What a right answer gives is worked out inside the judges: a module offers its checks,
    the registry's two halves, and helpers that build inputs or run the student's code."""
    module = importlib.import_module(f"autograd_lab.teaching.checks.{name}")
    for attr in FORBIDDEN:
        assert not hasattr(module, attr), attr
    for attr, value in vars(module).items():
        if inspect.isfunction(value) and value.__module__ == module.__name__ and \
                not attr.startswith("_"):
            assert attr.startswith(("ex", "check_")), f"{name}.{attr} is not a check"


def test_the_literal_shortcuts_of_the_capstone_and_nb15_are_gone():
    from autograd_lab.teaching.checks import nb15, nb16

    assert getattr(nb16, "_order_of", None) is None
    assert getattr(nb16, "_reference", None) is None
    assert getattr(nb15, "reference_losses", None) is None


def test_every_in_notebook_check_is_tested():
    text = "".join(p.read_text() for p in (ROOT / "tests").glob("test_c*.py"))
    for name in MODULES:
        module = importlib.import_module(f"autograd_lab.teaching.checks.{name}")
        for attr, fn in inspect.getmembers(module, inspect.isfunction):
            if attr.startswith(("ex", "check_")) and fn.__module__ == module.__name__ and \
                    name != "nb00":
                assert f"{name}.{attr}(" in text, f"{name}.{attr}"


def test_every_graded_exercise_is_judged_on_fresh_variants_in_a_test():
    text = "".join(p.read_text() for p in (ROOT / "tests").glob("test_c*.py"))
    for stem, exercises in EXERCISES.items():
        module = "nb" + stem.split("_")[0]
        for ex_id, ex in exercises.items():
            if ex.graded and module != "nb00":
                assert f'passes({module}, "{ex_id}"' in text or (
                    f'"{ex_id}"' in text and f"passes({module}, ex," in text), f"{module} {ex_id}"


def test_collect_never_raises_and_returns_json():
    junk = {"x": object(), "Value": int}
    for exercises in EXERCISES.values():
        for ex in exercises.values():
            for ns in ({}, junk):
                payload = ex.collect(dict(ns), Variant(5, False))
                assert isinstance(payload, dict)
                json.dumps(payload)
                status, message = ex.judge(json.loads(json.dumps(payload)), Variant(5, False))
                assert status in STATUSES and isinstance(message, str)


def _grade(path: Path, *extra: str) -> dict:
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "notebook_checks.py"), str(path),
                        *extra], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_reference_notebook_passes_every_exercise_on_fresh_variants(path):
    graded = _grade(path, *SEEDS)
    assert graded["errors"] == []
    results = graded["results"]
    assert list(results) == list(EXERCISES[path.stem])
    for ex_id, by_variant in results.items():
        assert set(by_variant) == {"fixed", *SEEDS}
        for variant, (status, message) in by_variant.items():
            assert status == "passed", (ex_id, variant, message)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_student_copy_is_unanswered_everywhere(path):
    graded = _grade(path, "--student", SEEDS[0])
    # Run All reaches the end: the capstone's later sections run on reference pieces until the
    # student's pass (nb16.check_engine)
    assert graded["errors"] == []
    results = graded["results"]
    for ex_id, by_variant in results.items():
        for variant, (status, message) in by_variant.items():
            assert status == "unanswered", (ex_id, variant, message)


def test_variants_are_deterministic_and_differ_from_the_notebook():
    from autograd_lab.teaching.checks import nb03

    seen = []
    for v in (Variant(0, True), Variant(9, False), Variant(9, False), Variant(10, False)):
        payload = EXERCISES[nb03.NOTEBOOK]["ex1"].collect(
            {"by_hand": lambda x: x * 1.0}, v)
        seen.append(json.dumps(payload, sort_keys=True))
    assert seen[1] == seen[2] and seen[0] != seen[1] and seen[1] != seen[3]
