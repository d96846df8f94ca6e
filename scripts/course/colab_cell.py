"""The standard first code cell of the course notebooks, for Colab and other fresh kernels.

Where ``autograd_lab`` is importable (a clone set up with ``scripts/setup.sh``, Binder) the
cell does nothing and prints nothing. Where it is missing (Google Colab) it installs the
package with pip from the project's repository; Colab already has Graphviz, ipywidgets and
matplotlib.

``AUTOGRAD_LAB_SOURCE`` is the repository's URL from ``course_links.py``, the one place that
names the repository: a fork changes it there and rewrites the cell into the notebooks with
``--write``.

The cell is folded away so that a notebook's first screen is its title and objectives:
JupyterLab hides its code (``jupyter.source_hidden``), Colab shows it as a form with its
``# @title`` (``cellView: form`` and ``display-mode: "form"``).

    python scripts/course/colab_cell.py                   # print the cell
    python scripts/course/colab_cell.py --check notebooks/*.ipynb  # exit 1 unless each has it first
    python scripts/course/colab_cell.py --write notebooks/*.ipynb  # insert or update it
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # loaded as a file by tests too

from course_links import REPOSITORY_URL  # noqa: E402

AUTOGRAD_LAB_SOURCE = REPOSITORY_URL

MARKER = "# Colab and other fresh kernels: install autograd_lab if it is missing"
PIP_REQUIREMENT = f"autograd_lab @ git+{AUTOGRAD_LAB_SOURCE}"
TITLE = '# @title Set-up: installs autograd_lab on Colab, no-op here { display-mode: "form" }'
# Folded in JupyterLab (source hidden) and in Colab (a form showing the title only).
METADATA = {"tags": ["colab"], "cellView": "form", "jupyter": {"source_hidden": True}}

CELL = f"""\
{TITLE}
{MARKER} (no-op here otherwise).
try:
    import autograd_lab  # noqa: F401
except ImportError:
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "pip", "install", "-q",
                    "{PIP_REQUIREMENT}"], check=True)"""


def _source(cell: dict) -> str:
    s = cell.get("source", "")
    return s if isinstance(s, str) else "".join(s)


def first_code_cell(nb: dict) -> tuple[int, dict] | None:
    """(index, cell) of the notebook's first code cell, or None."""
    return next(((i, c) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"), None)


def _folded(metadata: dict) -> dict:
    """``metadata`` with the standard cell's tags and folding added (other keys kept)."""
    out = {**metadata, "cellView": METADATA["cellView"],
           "jupyter": {**metadata.get("jupyter", {}), **METADATA["jupyter"]}}
    out["tags"] = list(dict.fromkeys([*metadata.get("tags", []), *METADATA["tags"]]))
    return out


def has_cell(nb: dict) -> bool:
    """True when the notebook's first code cell is exactly the standard cell, folded."""
    first = first_code_cell(nb)
    return (first is not None and _source(first[1]) == CELL
            and _folded(first[1].get("metadata", {})) == first[1].get("metadata", {}))


def with_cell(nb: dict) -> dict:
    """The notebook with the standard cell first among its code cells (replacing an old one)."""
    first = first_code_cell(nb)
    cell = {"cell_type": "code", "execution_count": None, "metadata": _folded({}),
            "outputs": [], "source": CELL.splitlines(keepends=True)}
    if (nb.get("nbformat"), nb.get("nbformat_minor", 0)) >= (4, 5):  # cell ids from 4.5 on
        cell["id"] = "colab-install"
    if first is not None and MARKER in _source(first[1]):
        i, old = first
        nb["cells"][i] = {**old, "source": cell["source"],
                          "metadata": _folded(old.get("metadata", {}))}
    else:
        at = first[0] if first is not None else len(nb["cells"])
        nb["cells"].insert(at, cell)
    return nb


def main(argv: list[str] | None = None) -> int:
    """Print the cell, or ``--check``/``--write`` it in the notebooks given (1: some lack it)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="report notebooks without the cell")
    mode.add_argument("--write", action="store_true", help="insert or update the cell")
    ap.add_argument("notebooks", nargs="*", type=Path)
    args = ap.parse_args(argv)
    if not (args.check or args.write):
        print(CELL)
        return 0
    missing = []
    for path in args.notebooks:
        nb = json.loads(path.read_text(encoding="utf-8"))
        if has_cell(nb):
            continue
        if args.write:
            path.write_text(json.dumps(with_cell(nb), indent=1, sort_keys=True,
                                       ensure_ascii=False) + "\n",
                            encoding="utf-8")
            print(f"colab_cell: wrote {path}")
        else:
            missing.append(str(path))
    for path in missing:
        print(f"colab_cell: {path}: the first code cell is not the standard Colab cell, folded",
              file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
