"""Slide metadata: derived from each notebook's structure, kept by the canonical form and the
student copies (``scripts/course/slides.py``)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
COURSE = REPO / "scripts" / "course"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, COURSE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


slides = _load("slides")
colab = _load("colab_cell")


def _types(nb) -> list[str]:
    return [c.metadata["slideshow"]["slide_type"] for c in nb.cells]


def test_every_reference_notebook_carries_its_slide_metadata():
    r = subprocess.run([sys.executable, str(COURSE / "slides.py"), "--check"],
                       capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stdout + r.stderr


def test_slide_types_follow_the_structure():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook(cells=[
        md("# 99 · Title\n\n**You will learn**"),
        code(colab.CELL),
        code("import autograd_lab as torch"),
        md("## 1 · A section"),
        code("\n".join(f"x{i} = {i}" for i in range(16))),   # 16 lines: long
        code("\n".join(f"x{i} = {i}" for i in range(15))),   # 15 lines: not long
        md("**In words:** the point."),
        md("### A sub-section"),
        md("## Exercises"),
        code("### BEGIN SOLUTION\nn = 3\n### END SOLUTION"),
        md("**Exercise 2 · Something.** Do it."),
        code("check(n)"),
    ])
    assert _types(slides.with_slides(nb)) == [
        "slide", "skip", "-", "slide", "subslide", "-", "fragment", "subslide", "slide", "-",
        "subslide", "-"]
    assert nb.metadata["rise"] == {"scroll": True}


def test_every_cell_gets_a_valid_type_and_the_title_slide_comes_first():
    for path in slides.reference_notebooks():
        nb = slides.with_slides(nbformat.read(path, as_version=4))
        types = _types(nb)
        assert types[0] == "slide", path.name
        assert set(types) <= set(slides.SLIDE_TYPES), path.name
        # the set-up cell is skipped, every section heading opens a slide
        for cell, kind in zip(nb.cells, types):
            if "colab" in cell.metadata.get("tags", []):
                assert kind == "skip", path.name
            if cell.cell_type == "markdown" and cell.source.startswith("## "):
                assert kind == "slide", path.name


def test_an_empty_notebook_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no cells"):
        slides.with_slides(nbformat.v4.new_notebook())
    r = subprocess.run([sys.executable, str(COURSE / "slides.py"), "--check",
                        str(tmp_path / "missing.ipynb")], capture_output=True, text=True)
    assert r.returncode == 2 and "no such notebook" in r.stderr


def test_canonical_form_and_student_copies_keep_the_slide_metadata():
    run_notebooks = _load("run_notebooks")
    students = _load("make_student_notebooks")
    path = next(p for p in slides.reference_notebooks() if p.name.startswith("04_"))
    nb = slides.with_slides(nbformat.read(path, as_version=4))
    want = _types(nb)
    assert _types(run_notebooks.normalize(nb, path.stem)) == want
    copy = students.student_notebook(json.loads(nbformat.writes(nb)))
    assert [c["metadata"]["slideshow"]["slide_type"] for c in copy["cells"]] == want
    assert copy["metadata"]["rise"] == {"scroll": True}
