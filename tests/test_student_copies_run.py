"""Every student copy runs top to bottom with nothing solved, in a fresh Jupyter kernel.

A student who is stuck on one exercise must still see the rest of the notebook work. The
exercise cells are those whose reference cell holds a solution block (the cells
``scripts/course/make_student_notebooks.py`` strips); their check cells are tagged ``check``.
Cells tagged ``raises-exception`` raise on purpose in the reference notebook too. No other
cell may raise; nor may an unsolved exercise cell or its check (a check answers "waiting for
your answer" / "not implemented yet" instead).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUDENT = sorted((ROOT / "notebooks" / "student").glob("[0-9][0-9]*_*.ipynb"))

sys.path.insert(0, str(ROOT / "scripts" / "course"))
from make_student_notebooks import BEGIN  # noqa: E402
from rerun_notebooks import started_kernel  # noqa: E402


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return src if isinstance(src, str) else "".join(src)


def _kinds(reference: dict) -> list[str]:
    """For each cell: "exercise", "check", "raises" (expected to raise) or "given"."""
    kinds = []
    for cell in reference["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] != "code":
            kinds.append("text")
        elif "raises-exception" in tags:
            kinds.append("raises")
        elif BEGIN in _source(cell):
            kinds.append("exercise")
        elif "check" in tags:
            kinds.append("check")
        else:
            kinds.append("given")
    return kinds


def _errors(cell: dict) -> list[str]:
    return [f"{o.get('ename')}: {o.get('evalue', '')[:300]}" for o in cell.get("outputs", [])
            if o.get("output_type") == "error"]


@pytest.mark.slow
@pytest.mark.parametrize("path", STUDENT, ids=lambda p: p.stem)
def test_student_copy_runs_to_the_end_unsolved(path: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    reference = json.loads((ROOT / "notebooks" / path.name).read_text(encoding="utf-8"))
    nb = nbformat.read(path, as_version=4)
    assert len(nb.cells) == len(reference["cells"]), "the copy is stale: make it again"
    kinds = _kinds(reference)
    with started_kernel(lambda: NotebookClient(
            nb, timeout=600, kernel_name="python3", allow_errors=True,
            resources={"metadata": {"path": str(path.parent)}})) as client:
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
    problems = [f"cell {i} ({kind}): {err}"
                for i, (cell, kind) in enumerate(zip(nb.cells, kinds))
                if kind in ("given", "exercise", "check") for err in _errors(cell)]
    assert not problems, "\n".join(problems)
