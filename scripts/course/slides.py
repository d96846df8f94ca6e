"""Slide metadata for every course notebook, derived from the notebook's structure.

JupyterLab's RISE (``jupyterlab-rise``) and ``jupyter nbconvert --to slides`` read each cell's
``metadata.slideshow.slide_type``. Nobody sets it by hand: this script derives it, so that a
notebook edited later gets slides that follow its new structure with one ``--write``.

- the first cell (the title and objectives) opens the title slide: ``slide``;
- the Colab set-up cell (``colab_cell.py``) is ``skip``: on a slide it would be one long line;
- each ``##`` section heading starts a ``slide``; a ``###`` heading a ``subslide``;
- an exercise's statement (a markdown cell opening with ``**Exercise``) starts a ``subslide``,
  and so does a long code cell (more than ``LONG_CODE`` lines) so that it gets a screen to itself;
- an "**In words:**" conclusion is a ``fragment``: it appears on the next key press;
- every other cell is ``-`` (it continues the slide it is on).

The notebook's ``metadata.rise`` turns on scrolling (a slide with a graph can be taller than a
projector); everything else in the notebook is left as it is.

    python scripts/course/slides.py --check    # exit 1 when a notebook's metadata is not derived
    python scripts/course/slides.py --write    # set it, then refresh the student copies
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))  # loaded as a file by tests too

from colab_cell import MARKER as COLAB_MARKER  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LONG_CODE = 15  # lines: a code cell longer than this gets a sub-slide of its own
SLIDE_TYPES = ("slide", "subslide", "fragment", "skip", "notes", "-")
RISE = {"scroll": True}
EXERCISE = re.compile(r"^\*\*Exercise\b")


def _source(cell: Any) -> str:
    s = cell.get("source", "")
    return s if isinstance(s, str) else "".join(s)


def _is_colab(cell: Any) -> bool:
    return cell["cell_type"] == "code" and (
        "colab" in cell.get("metadata", {}).get("tags", []) or COLAB_MARKER in _source(cell))


def slide_type(cell: Any, index: int) -> str:
    """The slide type of ``cell``, the ``index``-th cell of its notebook."""
    if _is_colab(cell):
        return "skip"
    if index == 0:
        return "slide"
    text = _source(cell).lstrip()
    if cell["cell_type"] == "markdown":
        if text.startswith("## "):
            return "slide"
        if text.startswith("### ") or EXERCISE.match(text):
            return "subslide"
        if text.startswith("**In words:**"):
            return "fragment"
        return "-"
    if cell["cell_type"] == "code" and len(_source(cell).splitlines()) > LONG_CODE:
        return "subslide"
    return "-"


def with_slides(nb: Any) -> Any:
    """``nb`` (changed in place and returned) with every cell's slide type set."""
    if not nb.cells:
        raise ValueError("a notebook with no cells has no slides")
    for i, cell in enumerate(nb.cells):
        cell.metadata["slideshow"] = {"slide_type": slide_type(cell, i)}
    nb.metadata["rise"] = dict(RISE)
    return nb


def reference_notebooks(folder: Path | None = None) -> list[Path]:
    """The course's reference notebooks (``NN_slug`` and ``NNx_slug``), in order."""
    return sorted((folder or ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))


def _text(nb: Any) -> str:
    """As ``run_notebooks.py`` writes a notebook (its canonical form)."""
    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 if a notebook needs --write")
    mode.add_argument("--write", action="store_true", help="set the slide metadata")
    ap.add_argument("--no-student-copies", action="store_true",
                    help="with --write: do not refresh notebooks/student/ afterwards")
    ap.add_argument("notebooks", nargs="*", type=Path, help="default: every reference notebook")
    args = ap.parse_args(argv)
    paths = args.notebooks or reference_notebooks()
    if not paths:
        print("slides: no notebooks found", file=sys.stderr)
        return 2
    stale = []
    for path in paths:
        if not path.is_file():
            print(f"slides: no such notebook: {path}", file=sys.stderr)
            return 2
        before = path.read_text(encoding="utf-8")
        after = _text(with_slides(nbformat.reads(before, as_version=4)))
        if after != before:
            stale.append(path)
            if args.write:
                path.write_text(after, encoding="utf-8")
    if args.check:
        for path in stale:
            print(f"slides: slide metadata not derived: {path}")
        if stale:
            print("set it with: python scripts/course/slides.py --write")
            return 1
        print(f"slides: {len(paths)} notebooks carry their slide metadata")
        return 0
    print(f"slides: {len(stale)} of {len(paths)} notebooks updated")
    if not args.no_student_copies:
        import make_student_notebooks

        return make_student_notebooks.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
