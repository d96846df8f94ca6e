"""scripts/grade.sh over a fixture class (tests/fixtures/grading/): every row of grades.csv,
the escaped feedback pages, a re-run giving the same grades, and nothing outside a
submission's folder touched by it (the package, the gradebook, the other submissions)."""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fixtures" / "grading"))
from fixture_class import NB05, Row, build  # noqa: E402

TARGET = ROOT / "autograd_lab" / "teaching" / "checks" / "nb05.py"


def _tree_hash(package: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        h.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _grade(subs: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "AUTOGRAD_LAB_SKIP_SETUP": "1", "AUTOGRAD_LAB_PYTHON": sys.executable}
    return subprocess.run(["bash", str(ROOT / "scripts" / "grade.sh"), str(subs), "--out",
                           str(out), "--jobs", "2", "--cell-timeout", "20",
                           "--expect", NB05, *extra],
                          env=env, capture_output=True, text=True, timeout=1200)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == ["student", "notebook", "exercise", "points", "max_points",
                                     "status", "message"]
        return list(reader)


def _sandbox_processes() -> list[str]:
    """Processes still running as a sandbox user (exited ones waiting to be reaped aside)."""
    import pwd

    uids = {p.pw_uid for p in pwd.getpwall() if p.pw_name.startswith("agl-grader")}
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.stat(f"/proc/{pid}").st_uid not in uids:
                continue
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[0] != "Z":
            found.append(stat.split(")")[0])
    return found


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = tmp_path_factory.mktemp("grading")
    copies = tmp / "student-copies"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "course" /
                                        "make_student_notebooks.py"), "--out", str(copies)],
                   check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    subs, out = tmp / "class", tmp / "out"
    targets = {"package": TARGET, "gradebook": out / "grades.csv",
               "victim": subs / "perfect" / f"{NB05}.ipynb", "marker": tmp / "marker"}
    expected = build(subs, copies, targets)
    victim = targets["victim"].read_bytes()
    before = _tree_hash(ROOT / "autograd_lab")
    done = _grade(subs, out)
    return {"done": done, "expected": expected, "out": out, "subs": subs, "tmp": tmp,
            "before": before, "victim": victim, "targets": targets}


def test_every_row(graded: dict) -> None:
    done = graded["done"]
    assert done.returncode == 0, done.stderr[-3000:]
    rows = _rows(graded["out"] / "grades.csv")
    expected: list[Row] = graded["expected"]
    got = [(r["student"], r["notebook"], r["exercise"]) for r in rows]
    assert sorted(got) == sorted((e.student, e.notebook, e.exercise) for e in expected)
    assert got == sorted(got, key=lambda k: (k[0], k[1])), "rows are grouped and sorted"
    by_key = {(r["student"], r["notebook"], r["exercise"]): r for r in rows}
    wrong = []
    for e in expected:
        r = by_key[(e.student, e.notebook, e.exercise)]
        fields = (int(r["points"]), int(r["max_points"]), r["status"])
        if fields != (e.points, e.max_points, e.status) or \
                not all(w in r["message"] for w in e.message):
            wrong.append(f"{e.student}/{e.notebook}/{e.exercise}: got {fields} "
                         f"{r['message']!r}, expected {(e.points, e.max_points, e.status)} "
                         f"with {e.message}")
    assert not wrong, "\n".join(wrong)
    assert "[" in done.stdout and "grade: wrote" in done.stdout  # progress was printed


def test_class_totals(graded: dict) -> None:
    rows = _rows(graded["out"] / "grades.csv")
    perfect = [r for r in rows if r["student"] == "perfect"]
    blank = [r for r in rows if r["student"] == "blank"]
    assert sum(int(r["points"]) for r in perfect) == sum(int(r["max_points"]) for r in perfect)
    from autograd_lab.teaching.grading import EXERCISES

    assert {r["notebook"] for r in perfect} == {
        stem for stem, exs in EXERCISES.items() if any(ex.graded for ex in exs.values())}
    assert sum(int(r["points"]) for r in blank) == 0


def test_nothing_outside_the_submission_changed(graded: dict) -> None:
    targets = graded["targets"]
    assert _tree_hash(ROOT / "autograd_lab") == graded["before"]
    assert targets["victim"].read_bytes() == graded["victim"]
    assert not targets["marker"].exists()
    rows = _rows(graded["out"] / "grades.csv")  # the gradebook is the grader's, intact
    assert any(r["student"] == "writer" for r in rows)
    if os.geteuid() == 0:
        assert _sandbox_processes() == [], "a submission's process outlived its grading"


def test_feedback_pages_are_escaped(graded: dict) -> None:
    out = graded["out"]
    page = (out / "feedback" / "writer" / f"{NB05}.html").read_text(encoding="utf-8")
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(&#x27;markdown&#x27;)&lt;/script&gt;" in page
    assert "&lt;script&gt;document.title" in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert "6/6" in page
    flood = (out / "feedback" / "flood" / f"{NB05}.html").read_text(encoding="utf-8")
    assert len(flood) < 3_000_000 and "kept only the first 2,000,000 characters" in flood
    tampered = (out / "feedback" / "tampered" / f"{NB05}.html").read_text(encoding="utf-8")
    assert "Score: 3/6" in tampered
    for student in ("perfect", "blank"):
        pages = sorted(p.stem for p in (out / "feedback" / student).glob("*.html"))
        assert len(pages) == len(list((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb")))
    assert not (out / "feedback" / "badjson" / f"{NB05}.html").read_text().count("<script")


def test_a_second_run_gives_the_same_rows(graded: dict) -> None:
    again = graded["tmp"] / "again"
    for student in ("tampered", "writer"):
        shutil.copytree(graded["subs"] / student, again / student)
    done = _grade(again, graded["tmp"] / "out-again")
    assert done.returncode == 0, done.stderr[-3000:]
    first = [r for r in _rows(graded["out"] / "grades.csv")
             if r["student"] in ("tampered", "writer")]
    second = [r for r in _rows(graded["tmp"] / "out-again" / "grades.csv")
              if r["student"] in ("tampered", "writer")]
    assert first == second


def test_where_each_exercise_is_collected() -> None:
    """In place of its check cell; if deleted, before what followed it in the reference; else
    at the end, never before the previous exercise."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from grading.execute import placements
    from nbformat.v4 import new_code_cell, new_markdown_cell

    def check(ex: str):
        return new_code_cell(f"check_{ex}()", metadata={
            "tags": ["check"], "autograd_lab": {"exercise": ex, "points": 1, "graded": True}})

    reference = [new_code_cell("a = 1"), check("ex1"), new_markdown_cell("Exercise 2"),
                 new_code_cell("b = 2"), check("ex2"), new_markdown_cell("Next"),
                 new_code_cell("c = 3"), check("ex3")]
    same = list(reference)
    assert placements(same, reference, ["ex1", "ex2", "ex3"]) == (
        {"ex1": 1, "ex2": 4, "ex3": 7}, dict.fromkeys(["ex1", "ex2", "ex3"], "check cell"))
    edited = [reference[0], new_markdown_cell("my notes"), reference[2], reference[3],
              reference[6]]  # every check cell deleted, and "Next"
    at, how = placements(edited, reference, ["ex1", "ex2", "ex3"])
    assert at == {"ex1": 2, "ex2": 4, "ex3": 5}  # before "Exercise 2", before "c = 3", at the end
    assert how == {"ex1": "anchor", "ex2": "anchor", "ex3": "end"}
    moved = [reference[0], reference[2], reference[3], reference[4], reference[1]]
    at, how = placements(moved, reference, ["ex1", "ex2", "ex3"])
    assert at == {"ex1": 4, "ex2": 5, "ex3": 5}  # ex1's check cell moved last: ex2 after it
