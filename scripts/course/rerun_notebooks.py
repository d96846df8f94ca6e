"""Run each notebook as a student who presses Shift+Enter twice: every code cell, then again.

A fresh kernel per notebook executes each code cell and, right after it, the same cell a second
time. A second run that raises where the first did not is a trap for students, unless the
notebook means it: such a cell is tagged ``rerun-raises`` and says so in a comment in the cell
(a line starting with ``# Run twice:``, or ``# Running this cell again``), which names what
happens. A tagged cell whose second run no longer raises is reported too, so the tags stay true.
Cells tagged ``raises-exception`` fail on purpose and may fail both times.

    python scripts/course/rerun_notebooks.py                 # every reference notebook
    python scripts/course/rerun_notebooks.py notebooks/05_*.ipynb
    python scripts/course/rerun_notebooks.py --json report.json NB...

Exit status 1 when a notebook has a cell that breaks on its second run.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parents[2]
TAG = "rerun-raises"
EXPLAINED = re.compile(r"^\s*#\s*(Run twice:|Running this cell again)", re.MULTILINE)
KERNEL_STARTS = 3  # a kernel that does not answer at start ran none of the notebook


@contextmanager
def started_kernel(make_client: Callable[[], Any]) -> Iterator[Any]:
    """A notebook client (``make_client()``) whose kernel has started. One that does not answer
    in time is a busy machine, not the notebook (none of it ran): a new client and kernel are
    tried, up to ``KERNEL_STARTS`` in all."""
    for attempt in range(1, KERNEL_STARTS + 1):
        client = make_client()
        stack = ExitStack()
        try:
            stack.enter_context(client.setup_kernel())
        except (RuntimeError, TimeoutError):
            if attempt == KERNEL_STARTS:
                raise
            continue
        with stack:
            yield client
        return


@dataclass
class Problem:
    """One cell whose second run does not behave as the notebook says."""

    notebook: str
    cell: int  # index among all cells, as nbformat counts them
    kind: str  # "raises on rerun", "tagged but reruns cleanly", "tag without explanation"
    detail: str

    def __str__(self) -> str:
        return f"{self.notebook} cell {self.cell}: {self.kind}: {self.detail}"


def _error(outputs: list) -> str | None:
    """The first error output as 'Name: message', or None."""
    for out in outputs:
        if out.get("output_type") == "error":
            return f"{out.get('ename')}: {out.get('evalue')}".strip()
    return None


def rerun(path: Path, timeout: int = 600) -> list[Problem]:
    """Execute every code cell of ``path`` twice in a row in one fresh kernel."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    problems: list[Problem] = []
    with started_kernel(lambda: NotebookClient(
            nb, timeout=timeout, kernel_name="python3", allow_errors=True,
            resources={"metadata": {"path": str(path.parent)}})) as client:
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            tags = set(cell.get("metadata", {}).get("tags", []))
            runs = []
            for _ in range(2):
                cell.outputs = []
                try:
                    client.execute_cell(cell, index)
                except CellExecutionError as exc:  # only without allow_errors; kept for safety
                    runs.append(str(exc).splitlines()[-1])
                    continue
                runs.append(_error(cell.outputs))
            first, second = runs
            if "raises-exception" in tags or first is not None:
                continue  # fails on purpose (or the first run already failed: nbval reports it)
            if TAG in tags:
                if second is None:
                    problems.append(Problem(path.name, index, "tagged but reruns cleanly",
                                            f"remove the {TAG!r} tag"))
                elif not EXPLAINED.search(cell.source):
                    problems.append(Problem(path.name, index, "tag without explanation",
                                            "say why in a '# Run twice: ...' comment"))
            elif second is not None:
                problems.append(Problem(path.name, index, "raises on rerun", second[:300]))
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="*", type=Path)
    ap.add_argument("--json", type=Path, help="write the problems found as JSON")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per cell")
    args = ap.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
    found: list[Problem] = []
    for path in paths:
        if not path.exists():
            print(f"rerun_notebooks: no such notebook: {path}", file=sys.stderr)
            return 2
        problems = rerun(path, args.timeout)
        print(f"rerun_notebooks: {path.name}: "
              + (f"{len(problems)} problem(s)" if problems else "every cell survives a second run"),
              flush=True)
        for p in problems:
            print(f"  {p}")
        found += problems
    if args.json:
        args.json.write_text(json.dumps([asdict(p) for p in found], indent=1) + "\n")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
