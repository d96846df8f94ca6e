"""Every notebook survives Shift+Enter pressed twice: each code cell run again right after itself.

A cell whose second run raises is allowed only when tagged ``rerun-raises`` and explained in the
cell (``scripts/course/rerun_notebooks.py`` says how).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))

_spec = importlib.util.spec_from_file_location("rerun_notebooks",
                                               ROOT / "scripts/course/rerun_notebooks.py")
rerun_notebooks = importlib.util.module_from_spec(_spec)
sys.modules["rerun_notebooks"] = rerun_notebooks  # dataclasses look their module up
_spec.loader.exec_module(rerun_notebooks)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_cell_survives_a_second_run(path: Path) -> None:
    problems = rerun_notebooks.rerun(path)
    assert not problems, "\n".join(map(str, problems))


def test_the_check_finds_a_cell_that_breaks_and_honours_an_explained_tag(tmp_path: Path) -> None:
    import nbformat

    cells = [nbformat.v4.new_code_cell("x = 1"),
             nbformat.v4.new_code_cell("del x"),
             nbformat.v4.new_code_cell("y = 2"),
             nbformat.v4.new_code_cell("# Run twice: y is gone after the first run.\ndel y",
                                       metadata={"tags": ["rerun-raises"]}),
             nbformat.v4.new_code_cell("z = 3", metadata={"tags": ["rerun-raises"]}),
             nbformat.v4.new_code_cell("w = 4\ndel w", metadata={"tags": ["rerun-raises"]}),
             nbformat.v4.new_code_cell("v = 5"),
             nbformat.v4.new_code_cell("del v", metadata={"tags": ["rerun-raises"]})]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    problems = [(p.cell, p.kind) for p in rerun_notebooks.rerun(path)]
    assert problems == [(1, "raises on rerun"), (4, "tagged but reruns cleanly"),
                        (5, "tagged but reruns cleanly"), (7, "tag without explanation")]
