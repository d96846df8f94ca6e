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


def test_a_kernel_that_does_not_start_is_started_again() -> None:
    """A kernel that does not answer at start ran none of the notebook: a new one is tried, and
    only ``KERNEL_STARTS`` failures in a row fail the run."""
    from contextlib import contextmanager

    made: list[int] = []

    class Client:
        def __init__(self, fails: bool) -> None:
            self.fails = fails

        @contextmanager
        def setup_kernel(self):  # noqa: ANN202
            if self.fails:
                raise RuntimeError("Kernel didn't respond in 60 seconds")
            yield

    def make(fail_first: int):  # noqa: ANN202
        def client() -> Client:
            made.append(1)
            return Client(len(made) <= fail_first)
        return client

    with rerun_notebooks.started_kernel(make(2)) as client:
        assert not client.fails and len(made) == 3
    made.clear()
    with pytest.raises(RuntimeError, match="didn't respond"):
        with rerun_notebooks.started_kernel(make(rerun_notebooks.KERNEL_STARTS)):
            pass
