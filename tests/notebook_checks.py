"""Run a notebook's code cells in this process and grade each exercise where its check cell stands.

    python tests/notebook_checks.py NOTEBOOK.ipynb [--student] SEED [SEED ...]

prints one JSON object: ``{exercise: {seed: [status, message]}}``, with seed ``fixed`` for the
notebook's own examples, and under ``"errors"`` the cells that raised (a student copy's Run All
must reach the end: only cells tagged ``raises-exception`` may raise). The check cells themselves are skipped, as a grader skips them: the
verdicts come from the registry's ``collect`` and ``judge`` alone.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts" / "course"))
from make_student_notebooks import student_notebook  # noqa: E402

from autograd_lab.teaching.grading import EXERCISES, Variant  # noqa: E402


def _source(cell: dict) -> str:
    src = cell["source"]
    src = src if isinstance(src, str) else "".join(src)
    return "\n".join(line for line in src.splitlines() if not line.lstrip().startswith("%"))


def grade(path: Path, student: bool, seeds: list[int]) -> dict:
    nb = json.loads(path.read_text(encoding="utf-8"))
    if student:
        nb = student_notebook(nb)
    registry = EXERCISES[path.stem]
    ns: dict = {"__name__": "__main__"}
    results: dict = {}
    errors: list[str] = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or "colab" in cell["metadata"].get("tags", []):
            continue
        meta = cell["metadata"].get("autograd_lab")
        if "check" in cell["metadata"].get("tags", []):
            ex = registry[meta["exercise"]]
            variants = [("fixed", Variant(0, True))] + [(str(s), Variant(s, False)) for s in seeds]
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(
                    io.StringIO()):
                results[ex.id] = {name: list(ex.judge(ex.collect(ns, v), v))
                                  for name, v in variants}
            continue
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                exec(compile(_source(cell), f"<{path.stem} cell>", "exec"), ns)  # noqa: S102
            except Exception as e:  # noqa: BLE001 - reported, so that later cells still run
                if "raises-exception" not in cell["metadata"].get("tags", []):
                    errors.append(f"cell {cell.get('id')} raised {e!r}")
    return {"errors": errors, "results": results}


if __name__ == "__main__":
    args = sys.argv[1:]
    student = "--student" in args
    args = [a for a in args if a != "--student"]
    print(json.dumps(grade(Path(args[0]), student, [int(s) for s in args[1:]])))
