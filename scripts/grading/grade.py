"""Grade a class's notebooks: ``bash scripts/grade.sh SUBMISSIONS_DIR --out OUT_DIR``.

Submissions are laid out as ``SUBMISSIONS_DIR/<student>/<NN_name>.ipynb``. Writes
``OUT_DIR/grades.csv`` (one row per student, notebook and graded exercise) and
``OUT_DIR/feedback/<student>/<NN_name>.html``. Each notebook runs in its own sandboxed
kernel (see sandbox.py and execute.py); the verdicts are computed here, in the grader's
processes, by the registry's ``judge`` functions on fresh inputs drawn from the seed.
"""

from __future__ import annotations

import argparse
import csv
import difflib
import hashlib
import io
import multiprocessing
import os
import re
import sys
import time
import warnings
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

import nbformat

from autograd_lab.teaching.grading import EXERCISES, Variant

from .execute import Limits, load_reference, run_notebook, sanitise
from .feedback import Verdict, render
from .sandbox import (
    RunDir,
    SandboxUser,
    Scratch,
    kernel_python,
    package_hash,
    sandbox_users,
)

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "autograd_lab"
HEADER = ["student", "notebook", "exercise", "points", "max_points", "status", "message"]


def course_version() -> str:
    """The course's version, from pyproject.toml."""
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M)
    return match.group(1) if match else "0"


def default_seed() -> int:
    """The seed when none is given: from the course version, so a re-run draws the same inputs."""
    digest = hashlib.sha256(f"autograd_lab grading {course_version()}".encode()).hexdigest()
    return int(digest[:8], 16)


def notebook_seed(seed: int, stem: str) -> int:
    """The seed of one notebook's variants (every student gets the same fresh inputs)."""
    return int(hashlib.sha256(f"{seed}:{stem}".encode()).hexdigest()[:8], 16)


def graded(stem: str) -> list[str]:
    """The notebook's graded exercises, in course order."""
    return [k for k, ex in EXERCISES[stem].items() if ex.graded]


def max_points(stem: str) -> int:
    return sum(EXERCISES[stem][k].points for k in graded(stem)) if stem in EXERCISES else 0


@dataclass(frozen=True)
class Task:
    """One notebook of one student (``path`` None: not submitted)."""

    student: str
    stem: str
    path: Path | None


@dataclass
class Result:
    task: Task
    rows: list[list[object]]
    html: str
    seconds: float


def error_row(task: Task, message: str) -> list[object]:
    return [task.student, task.stem, "", 0, max_points(task.stem), "error", message]


# ---- one task, in a worker process ---------------------------------------------------------------

_SLOT: dict[str, object] = {}


def _init_worker(slots: multiprocessing.Queue, users: list, run: RunDir, python: str,
                 limits: Limits, seed: int) -> None:
    slot = slots.get()
    _SLOT.update(user=users[slot], limits=limits, seed=seed, run=run, python=python)


def grade_task(task: Task) -> Result:
    """Run, collect and judge one notebook; the rows and the feedback page."""
    start = time.monotonic()
    user: SandboxUser | None = _SLOT["user"]  # type: ignore[assignment]
    run: RunDir = _SLOT["run"]  # type: ignore[assignment]
    limits: Limits = _SLOT["limits"]  # type: ignore[assignment]
    seed = notebook_seed(int(_SLOT["seed"]), task.stem)  # type: ignore[arg-type]
    assert task.path is not None
    try:
        with warnings.catch_warnings():  # schema nits of a student's file are not errors
            warnings.simplefilter("ignore")
            nb = nbformat.reads(task.path.read_text(encoding="utf-8"), as_version=4)
        if not isinstance(nb.get("cells"), list):
            raise ValueError("it has no list of cells")
    except Exception as e:  # noqa: BLE001 - any unreadable file is one error row
        message = f"the notebook could not be read: {type(e).__name__}: {e}"[:300]
        return Result(task, [error_row(task, message)],
                      render(task.student, task.stem, None, [], {}, message),
                      time.monotonic() - start)
    ids = list(EXERCISES[task.stem])
    scratch = Scratch(run, task.path.parent, user)
    try:
        outcome = run_notebook(nb, load_reference(ROOT / "notebooks", task.stem), task.stem,
                               ids, seed, run, scratch, limits, str(_SLOT["python"]))
        fatal = sanitise(outcome.fatal, scratch)
        variant = Variant(seed, False)
        rows, verdicts = [], []
        for ex_id in ids:
            ex = EXERCISES[task.stem][ex_id]
            if ex_id in outcome.payloads:
                try:
                    status, message = ex.judge(outcome.payloads[ex_id], variant)
                except Exception as e:  # noqa: BLE001 - a crashing judge is reported
                    status = "error"
                    message = f"the grader's check failed: {type(e).__name__}: {e}"
                if status not in ("passed", "failed", "unanswered", "error"):
                    status, message = "error", f"the grader's check gave status {status!r}"
                if status != "passed" and outcome.notes.get(ex_id):
                    message = f"{message} ({outcome.notes[ex_id]})" if message else \
                        outcome.notes[ex_id]
                if outcome.where.get(ex_id) == "end":
                    message = f"{message} [its check cell was missing: checked at the end " \
                              "of the notebook]".lstrip()
            else:
                status, message = "error", f"not graded: {fatal}"
            message = sanitise(" ".join(str(message).split()), scratch)[:500]
            points = ex.points if status == "passed" else 0
            verdicts.append(Verdict(ex_id, ex.title, status, points, ex.points, message,
                                    ex.graded))
            if ex.graded:
                rows.append([task.student, task.stem, ex_id, points, ex.points, status, message])
        banner = f"Grading stopped early: {fatal}" if fatal else ""
        page = render(task.student, task.stem, nb, verdicts, outcome.collect_at, banner)
    finally:
        scratch.close()
    return Result(task, rows, page, time.monotonic() - start)


# ---- the class ---------------------------------------------------------------------------------

def discover(submissions: Path, expect: list[str] | None) -> tuple[list[Task], list[Result]]:
    """Tasks to run, and the rows decided without running anything (unknown names, missing)."""
    students = sorted(p for p in submissions.iterdir() if p.is_dir() and not
                      p.name.startswith("."))
    if not students:
        raise SystemExit(f"grade: no student folder in {submissions} (expected "
                         "SUBMISSIONS_DIR/<student>/<NN_name>.ipynb)")
    found = {s.name: sorted(p for p in s.glob("*.ipynb") if p.is_file()) for s in students}
    wanted = expect or sorted({p.stem for files in found.values() for p in files
                               if p.stem in EXERCISES})
    tasks, decided = [], []
    for student, files in found.items():
        stems = {p.stem: p for p in files}
        for stem in wanted:
            if stem not in stems:
                t = Task(student, stem, None)
                decided.append(Result(t, [error_row(t, f"missing: no {stem}.ipynb was "
                                                       "submitted")], "", 0.0))
        for stem, path in stems.items():
            if stem in EXERCISES:
                tasks.append(Task(student, stem, path))
                continue
            close = difflib.get_close_matches(stem, list(EXERCISES), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            t = Task(student, stem, path)
            decided.append(Result(t, [[student, stem, "", 0, 0, "error",
                                       f"unknown notebook name {stem}.ipynb{hint}"]], "", 0.0))
    return tasks, decided


def order_key(row: list[object]) -> tuple:
    stem, ex_id = str(row[1]), str(row[2])
    ids = list(EXERCISES.get(stem, {}))
    return (str(row[0]), stem, ids.index(ex_id) if ex_id in ids else -1, ex_id)


def write_outputs(out: Path, results: list[Result]) -> Path:
    rows = sorted((r for res in results for r in res.rows), key=order_key)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(rows)
    csv_path = out / "grades.csv"
    csv_path.write_text(buf.getvalue(), encoding="utf-8")
    for res in results:
        if res.html:
            page = out / "feedback" / res.task.student / f"{res.task.stem}.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(res.html, encoding="utf-8")
    return csv_path


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="grade.sh", description=__doc__.splitlines()[0])
    ap.add_argument("submissions", type=Path, help="SUBMISSIONS_DIR/<student>/<NN_name>.ipynb")
    ap.add_argument("--out", type=Path, required=True, help="where grades.csv and feedback/ go")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="notebooks graded at once (default: one per core)")
    ap.add_argument("--seed", type=int, default=None,
                    help="seed of the fresh inputs (default: from the course version)")
    ap.add_argument("--expect", default="",
                    help="comma-separated notebook names every student should submit "
                         "(default: every known name any student submitted)")
    ap.add_argument("--cell-timeout", type=float, default=60.0, help="seconds per cell (60)")
    ap.add_argument("--notebook-timeout", type=float, default=600.0,
                    help="seconds per notebook (600)")
    ap.add_argument("--memory", type=float, default=2.0, help="GiB of memory per kernel (2)")
    ap.add_argument("--user", default=None,
                    help="as root: run every kernel as this existing user instead of one "
                         "agl-graderN user per job")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if not args.submissions.is_dir():
        ap.error(f"{args.submissions} is not a directory")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import autograd_lab

    if Path(autograd_lab.__file__).resolve().parent != PACKAGE:
        raise SystemExit(f"grade: autograd_lab is imported from {autograd_lab.__file__}, not "
                         f"from {PACKAGE}: run scripts/grade.sh (it sets PYTHONPATH)")
    seed = default_seed() if args.seed is None else args.seed
    expect = [s.strip().removesuffix(".ipynb") for s in args.expect.split(",") if s.strip()]
    unknown = [s for s in expect if s not in EXERCISES]
    if unknown:
        raise SystemExit(f"grade: --expect names unknown notebooks: {', '.join(unknown)}")
    tasks, results = discover(args.submissions.resolve(), expect or None)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    limits = Limits(args.cell_timeout, args.notebook_timeout, int(args.memory * 2**30))
    jobs = max(1, min(args.jobs, len(tasks)))
    users = sandbox_users(jobs, args.user)
    before = package_hash(PACKAGE)
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, flush=True))
    who = "as " + ", ".join(sorted({u.name for u in users if u})) if users[0] else \
        "as this user, against a read-only copy of the package"
    say(f"grade: {len(tasks)} notebook(s) of {len({t.student for t in tasks})} student(s), "
        f"{jobs} at a time, {who}; seed {seed}")
    run = RunDir(PACKAGE)
    started = time.monotonic()
    try:
        python = kernel_python(run, users[0])
        if python != sys.executable:
            say(f"grade: kernels run {python} (this interpreter is out of the sandbox "
                "user's reach)")
        ctx = multiprocessing.get_context("fork")
        slots = ctx.Queue()
        for slot in range(jobs):
            slots.put(slot)
        with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_init_worker,
                                 initargs=(slots, users, run, python, limits, seed)) as pool:
            pending = {pool.submit(grade_task, t): t for t in tasks}
            done_count = 0
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    task = pending.pop(fut)
                    try:
                        res = fut.result()
                    except Exception as e:  # noqa: BLE001 - one notebook, not the class
                        message = f"the grader failed on this notebook: {type(e).__name__}: {e}"
                        print(f"grade: {task.student}/{task.stem}: {message}", file=sys.stderr)
                        res = Result(task, [error_row(task, message)], "", 0.0)
                    results.append(res)
                    done_count += 1
                    got = sum(int(r[3]) for r in res.rows)
                    total = sum(int(r[4]) for r in res.rows)
                    say(f"[{done_count}/{len(tasks)}] {task.student}/{task.stem}: "
                        f"{got}/{total} ({res.seconds:.1f} s)")
                    if package_hash(PACKAGE) != before:
                        for f in pending:
                            f.cancel()
                        print(f"grade: error: the package {PACKAGE} changed while "
                              f"{task.student}/{task.stem} (or a notebook graded with it) ran; "
                              "refusing to continue: restore it (git checkout) and grade "
                              "inside a container", file=sys.stderr)
                        return 3
    finally:
        run.close()
    csv_path = write_outputs(out, results)
    say(f"grade: wrote {csv_path} and {out / 'feedback'}/ in {time.monotonic() - started:.1f} s")
    return 0
