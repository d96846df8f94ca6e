"""Make the student notebooks from the reference notebooks (one source, no hand-kept copies).

In a reference notebook, an exercise's answer sits between two marker lines:

    ### BEGIN SOLUTION
    grad_at_3 = x.grad
    ### END SOLUTION

The student copy keeps every assignment's target and replaces its value with
``...`` (which the checks in ``autograd_lab.teaching.exercises`` report as "waiting for
your answer");
other solution lines are dropped. A block whose marker carries a message,

    def backward(self, grad, out, a, b):
        ### BEGIN SOLUTION: write Mul.backward -- one gradient per input
        return grad * b, grad * a
        ### END SOLUTION

becomes, at the marker's indentation, ``raise NotImplementedError("write Mul.backward --
one gradient per input")``: a stub whose checks say "not implemented yet" (the capstone
has students write whole function bodies). Outputs are cleared.

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


def _stub(indent: str, message: str) -> list[str]:
    """The body a student starts from: a NotImplementedError that says what to write."""
    text = message.replace("\\", "\\\\").replace('"', '\\"')
    return [f"{indent}# your code here", f'{indent}raise NotImplementedError("{text}")']


def strip_solution(source: str) -> str:
    """Replace each marked solution block by placeholders for the names it assigns,
    or by a ``NotImplementedError`` stub when its marker carries a message."""
    out: list[str] = []
    inside = stub = False
    for line in source.splitlines():
        stripped = line.strip()
        if stripped == BEGIN or stripped.startswith(BEGIN + ":"):
            inside = True
            message = stripped[len(BEGIN) + 1:].strip()
            stub = bool(message)
            if stub:
                out.extend(_stub(line[: len(line) - len(line.lstrip())], message))
            continue
        if stripped == END:
            inside = False
            continue
        if not inside:
            out.append(line)
            continue
        if stub:
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
