"""Make the student notebooks from the reference notebooks (one source, no hand-kept copies).

In a reference notebook, an exercise's answer sits between two marker lines:

    ### BEGIN SOLUTION
    grad_at_3 = x.grad
    ### END SOLUTION

The student copy keeps every assignment's target and replaces its value with
``...`` (which the checks in ``autograd_lab.teaching.exercises`` report as "no answer yet");
other solution lines are dropped. Outputs are cleared.

    python scripts/course/make_student_notebooks.py [--out notebooks/student]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
ASSIGN = re.compile(r"^(\s*)([A-Za-z_][\w\s,]*?)\s*=(?!=)")


def strip_solution(source: str) -> str:
    """Replace each marked solution block by placeholders for the names it assigns."""
    out: list[str] = []
    inside = False
    for line in source.splitlines():
        stripped = line.strip()
        if stripped == BEGIN:
            inside = True
            continue
        if stripped == END:
            inside = False
            continue
        if not inside:
            out.append(line)
            continue
        m = ASSIGN.match(line)
        if m:
            indent, targets = m.group(1), m.group(2).strip()
            n = len([t for t in targets.split(",") if t.strip()])
            value = ", ".join(["..."] * n) if n > 1 else "..."
            out.append(f"{indent}{targets} = {value}  # your code here")
    if inside:
        raise ValueError(f"unterminated {BEGIN!r} block")
    return "\n".join(out)


def student_notebook(nb: dict) -> dict:
    """A copy of ``nb`` with the solutions stripped and every output cleared."""
    nb = json.loads(json.dumps(nb))
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        if BEGIN in src:
            cell["source"] = strip_solution(src)
        cell["outputs"] = []
        cell["execution_count"] = None
    return nb


def main(argv: list[str] | None = None) -> int:
    """Write the student copy of every numbered notebook."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default=str(ROOT / "notebooks"))
    ap.add_argument("--out", default=str(ROOT / "notebooks" / "student"))
    args = ap.parse_args(argv)
    src, out = Path(args.src), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted(src.glob("[0-9][0-9]_*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        (out / path.name).write_text(
            json.dumps(student_notebook(nb), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        count += 1
    print(f"wrote {count} student notebooks to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
