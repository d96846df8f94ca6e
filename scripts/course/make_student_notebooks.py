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

The copies in ``notebooks/student/`` are tracked, and students work in them, so writing them
never destroys a student's work. Each copy records a hash of the cell sources it was made
with (``metadata.autograd_lab.student_copy``). A copy is then

- created where none exists;
- left alone when it already matches the reference notebooks (outputs from running it kept);
- replaced when the course changed and the student did not edit it (its sources still hash
  to the recorded value; running it is not an edit);
- kept when the student edited it and the course changed: the new version is written beside it
  as ``NAME.updated.ipynb`` (its first cell says so), and the student is told.

    python scripts/course/make_student_notebooks.py [--out notebooks/student]
    python scripts/course/make_student_notebooks.py --check   # exit 1 if a tracked copy is stale
"""

from __future__ import annotations

import argparse
import hashlib
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
    """A copy of ``nb`` with the solutions stripped, every output cleared, and the hash of its
    sources recorded (how a later run tells a pristine copy from a student's edited one)."""
    nb = json.loads(json.dumps(nb))
    for cell in nb["cells"]:
        cell.get("metadata", {}).pop("execution", None)  # when the reference last ran
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        if BEGIN in src:
            cell["source"] = strip_solution(src)
        cell["outputs"] = []
        cell["execution_count"] = None
    nb["metadata"].pop("widgets", None)  # saved widget state: no output shows it any more
    nb["metadata"].setdefault("autograd_lab", {})["student_copy"] = {
        "sources_sha256": sources_hash(nb)}
    return nb


def sources_hash(nb: dict) -> str:
    """A hash of what a student can edit: the kind and the source of every cell, in order."""
    cells = [(c.get("cell_type"), "".join(c.get("source", ""))) for c in nb.get("cells", [])]
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode()).hexdigest()


def _recorded_hash(nb: dict) -> str | None:
    return nb.get("metadata", {}).get("autograd_lab", {}).get("student_copy", {}).get(
        "sources_sha256")


def _text(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _read(path: Path) -> dict | None:
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return nb if isinstance(nb, dict) and isinstance(nb.get("cells"), list) else None


def _comparable(nb: dict) -> str:
    """``nb`` without what running it adds (outputs, execution counts), as text."""
    nb = json.loads(json.dumps(nb))
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return _text(nb)


def _pristine(nb: dict) -> bool:
    """True when nobody edited ``nb`` since it was generated."""
    return _recorded_hash(nb) == sources_hash(nb)


def _updated_copy(new: dict, kept: Path) -> dict:
    """The course's new version, opening with a note that points back to the kept copy."""
    new = json.loads(json.dumps(new))
    note = (f"**A newer version of this notebook.** Your own copy, `{kept.name}`, is kept exactly "
            "as you left it. This file is the course's updated version: compare the two and "
            "carry your answers across at your own pace. Running `lab.sh` again never "
            "overwrites either file once you have edited it.")
    new["cells"].insert(0, {"cell_type": "markdown", "metadata": {}, "source": note})
    new["cells"][0]["id"] = "updated-note"
    new["metadata"]["autograd_lab"]["student_copy"] = {"sources_sha256": sources_hash(new)}
    return new


def _beside(path: Path, new: dict) -> Path:
    """Where the new version of an edited copy goes: NAME.updated.ipynb, unless that file was
    edited too (then NAME.updated-2.ipynb, ...)."""
    stem = path.name[: -len(".ipynb")]
    for n in range(1, 1000):
        candidate = path.with_name(f"{stem}.updated{'' if n == 1 else f'-{n}'}.ipynb")
        old = _read(candidate) if candidate.exists() else None
        if not candidate.exists() or (old is not None and _pristine(old)):
            return candidate
        if old is not None and sources_hash(old) == sources_hash(new):
            return candidate
    raise RuntimeError(f"too many updated copies beside {path}")


def sync(reference: Path, target: Path) -> tuple[str, Path | None]:
    """Bring one student copy up to date without losing edits; returns (what happened, where
    the new version went when the student's copy was kept)."""
    new = student_notebook(json.loads(reference.read_text(encoding="utf-8")))
    if not target.exists():
        target.write_text(_text(new), encoding="utf-8")
        return "created", None
    current = _read(target)
    if current is not None and _comparable(current) == _comparable(new):
        return "up to date", None  # outputs from running it are the student's: kept
    if current is not None and _pristine(current):
        target.write_text(_text(new), encoding="utf-8")
        return "updated", None
    if current is not None and _recorded_hash(current) == sources_hash(new):
        return "kept (your edits; the course has not changed)", None
    updated = _updated_copy(new, target)
    where = _beside(target, updated)
    if not where.exists() or where.read_text(encoding="utf-8") != _text(updated):
        where.write_text(_text(updated), encoding="utf-8")
    return "kept (your edits); the course changed", where


def main(argv: list[str] | None = None) -> int:
    """Create or update the student copy of every numbered notebook, keeping students' edits."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default=str(ROOT / "notebooks"))
    ap.add_argument("--out", default=str(ROOT / "notebooks" / "student"))
    ap.add_argument("--check", action="store_true",
                    help="only report copies that differ from what the reference notebooks give")
    args = ap.parse_args(argv)
    src, out = Path(args.src), Path(args.out)
    references = sorted(src.glob("[0-9][0-9]*_*.ipynb"))
    if not references:
        print(f"make_student_notebooks: no notebooks NN_*.ipynb in {src}", file=sys.stderr)
        return 2
    if args.check:
        stale = [p.name for p in references if not (out / p.name).exists() or
                 (out / p.name).read_text(encoding="utf-8")
                 != _text(student_notebook(json.loads(p.read_text(encoding="utf-8"))))]
        extra = sorted({p.name for p in out.glob("*.ipynb")} - {p.name for p in references})
        for name in stale:
            print(f"stale student copy: {out / name}")
        for name in extra:
            print(f"student copy with no reference notebook: {out / name}")
        if stale or extra:
            print("make them again with: python scripts/course/make_student_notebooks.py")
            return 1
        print(f"{len(references)} student copies match their reference notebooks")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for path in references:
        what, beside = sync(path, out / path.name)
        counts[what] = counts.get(what, 0) + 1
        if beside is not None:
            print(f"student copies: {out / path.name} has your edits, so it was kept as it is; "
                  f"the course's new version is beside it: {beside}")
    summary = ", ".join(f"{n} {what}" for what, n in sorted(counts.items()))
    print(f"student copies in {out}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
