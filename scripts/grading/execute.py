"""Run one submitted notebook in a sandboxed kernel and collect each exercise's payload.

The submission's check cells (tag ``check``) are not run: in place of each, the grader runs
its own cell, which calls the exercise's ``collect`` (imported by a preamble cell before any
of the student's code) with a variant drawn at grading time. The payload comes back as
display data carrying a token the student's code never saw; nothing else the notebook
prints is read. The verdicts are computed later, in the grader's own process (``judge``).
"""

from __future__ import annotations

import json
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell

from .sandbox import KERNEL_NAME, RunDir, Scratch

MIME = "application/x.autograd-lab-payload+json"
CHECK_TAG = "check"

PREAMBLE = '''\
def __agl_setup(stem, package, mime):
    """The grader's collect functions, imported before any of the student's code."""
    import os
    import sys
    cwd = os.getcwd()
    saved = list(sys.path)
    sys.path[:] = [p for p in sys.path if p not in ("", ".", cwd)]  # not the student's files
    try:
        import autograd_lab
        from autograd_lab.teaching import grading
    finally:
        sys.path[:] = saved
    if not os.path.realpath(autograd_lab.__file__).startswith(os.path.realpath(package) + os.sep):
        raise RuntimeError("autograd_lab was not imported from the grader's copy")
    from IPython.display import publish_display_data
    collects = {k: ex.collect for k, ex in grading.EXERCISES[stem].items()}
    Variant = grading.Variant

    def emit(token, exercise, seed, ns):
        payload = collects[exercise](ns, Variant(seed, False))
        publish_display_data({mime: {"token": token, "payload": payload}})

    return emit


__agl_emit = __agl_setup(@ARGS@)
del __agl_setup
'''


class _Client(NotebookClient):
    """nbclient with a budget for the outputs it keeps (a printing loop can't fill memory)."""

    output_budget = 2_000_000  # characters of output kept per notebook

    def output(self, outs: list[NotebookNode], msg: dict, display_id: str | None,
               cell_index: int) -> NotebookNode | None:
        content = msg.get("content", {})
        data = content.get("data") if isinstance(content, dict) else None
        if isinstance(data, dict) and MIME in data:  # the grader's own payload
            return super().output(outs, msg, display_id, cell_index)
        kept = getattr(self, "_kept", 0)
        self._kept = kept + len(json.dumps(content, default=str))
        if self._kept <= self.output_budget:
            return super().output(outs, msg, display_id, cell_index)
        if kept <= self.output_budget:  # say once where the cut happened
            outs.append(nbformat.v4.new_output(
                "stream", name="stderr",
                text=f"[the grader kept only the first {self.output_budget:,} characters of "
                     "this notebook's output]\n"))
        return None


@dataclass(frozen=True)
class Limits:
    """What one notebook may use."""

    cell_seconds: float = 60.0
    notebook_seconds: float = 600.0
    memory_bytes: int = 2 << 30
    file_bytes: int = 1 << 30
    startup_seconds: float = 60.0


@dataclass
class Outcome:
    """What running one notebook gave."""

    payloads: dict[str, dict] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # an error in the cells before it
    fatal: str = ""  # why the run stopped early ("" when it ran to the end)
    collect_at: dict[str, int] = field(default_factory=dict)  # exercise -> cell index
    where: dict[str, str] = field(default_factory=dict)  # exercise -> how it was placed


def is_check_cell(cell: NotebookNode) -> bool:
    """A cell the submission shows as a check: never run by the grader."""
    tags = cell.get("metadata", {}).get("tags", [])
    return cell.get("cell_type") == "code" and isinstance(tags, list) and CHECK_TAG in tags


def _check_id(cell: NotebookNode) -> str | None:
    meta = cell.get("metadata", {}).get("autograd_lab", {})
    return meta.get("exercise") if is_check_cell(cell) and isinstance(meta, dict) else None


def _source(cell: NotebookNode) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def placements(cells: list[NotebookNode], reference: list[NotebookNode],
               exercise_ids: list[str]) -> tuple[dict[str, int], dict[str, str]]:
    """Where each exercise's collect runs: before the cell at that index (``len(cells)``: at
    the end).

    In place of the submission's own check cell for it; when that cell was deleted, before
    the first cell that follows the check cell in the reference notebook (the next
    exercise's text, say); failing both, at the end of the notebook. Never before the
    previous exercise's collect."""
    own = {}
    for i, cell in enumerate(cells):
        ex_id = _check_id(cell)
        if ex_id is not None and ex_id not in own:
            own[ex_id] = i
    ref_at = {_check_id(c): i for i, c in enumerate(reference) if _check_id(c) is not None}
    at, how, floor = {}, {}, 0
    for ex_id in exercise_ids:
        pos, where = own.get(ex_id), "check cell"
        if pos is None or pos < floor:
            pos, where = None, "end"
            following = [_source(c) for c in reference[ref_at.get(ex_id, len(reference)) + 1:]]
            for text in following[:3]:
                if not text.strip():
                    continue
                hit = next((i for i in range(floor, len(cells)) if _source(cells[i]) == text),
                           None)
                if hit is not None:
                    pos, where = hit, "anchor"
                    break
            if pos is None:
                pos = len(cells)
        at[ex_id], how[ex_id] = pos, where
        floor = pos
    return at, how


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _error_of(cell: NotebookNode) -> tuple[str, str] | None:
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            return str(out.get("ename", "")), _ANSI.sub("", str(out.get("evalue", "")))
    return None


def _payload_of(cell: NotebookNode, token: str) -> dict | None:
    for out in cell.get("outputs", []):
        data = out.get("data", {}) if out.get("output_type") == "display_data" else {}
        item = data.get(MIME)
        if isinstance(item, dict) and item.get("token") == token:
            payload = item.get("payload")
            return payload if isinstance(payload, dict) else {"error": "malformed payload"}
    return None


KERNEL_STARTS = 3  # a kernel that dies before it answers ran none of the student's code
NOT_STARTED = "the kernel could not start"


def run_notebook(nb: NotebookNode, reference: list[NotebookNode], stem: str,
                 exercise_ids: list[str], seed: int, run: RunDir, scratch: Scratch,
                 limits: Limits, python: str) -> Outcome:
    """Execute ``nb`` (in place: its cells get the grader's outputs) and collect payloads.
    A kernel that could not start is started again (a busy machine, not the submission)."""
    for _ in range(KERNEL_STARTS):
        out = _run_once(nb, reference, stem, exercise_ids, seed, run, scratch, limits, python)
        if not out.fatal.startswith(NOT_STARTED):
            break
    return out


def _run_once(nb: NotebookNode, reference: list[NotebookNode], stem: str,
              exercise_ids: list[str], seed: int, run: RunDir, scratch: Scratch,
              limits: Limits, python: str) -> Outcome:
    out = Outcome()
    at, how = placements(nb.cells, reference, exercise_ids)
    out.collect_at, out.where = at, how
    token = secrets.token_hex(16)
    # The async manager: nbclient's timeouts and dead-kernel checks need its non-blocking
    # channels (a blocking client waits forever on a looping or dead kernel).
    km = AsyncKernelManager(kernel_name=KERNEL_NAME,
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=run.kernel_dirs))
    client = _Client(nb, km=km, timeout=limits.cell_seconds, allow_errors=True,
                     startup_timeout=int(limits.startup_seconds),
                     interrupt_on_timeout=False, record_timing=False,
                     extra_arguments=["--HistoryManager.hist_file=:memory:"],
                     resources={"metadata": {"path": str(scratch.work)}})
    env = scratch.kernel_env()
    env["AUTOGRAD_LAB_SANDBOX"] = scratch.launch_settings(python, limits.memory_bytes,
                                                             limits.file_bytes)
    deadline = time.monotonic() + limits.notebook_seconds
    pending = list(exercise_ids)
    last_error = ""

    def run_cell(cell: NotebookNode, index: int, what: str) -> bool:
        """Run one cell; False (and ``out.fatal`` set) when the notebook must stop."""
        left = deadline - time.monotonic()
        if left <= 0:
            out.fatal = f"the notebook went over its {limits.notebook_seconds:g} s limit " \
                        f"before {what}"
            return False
        client.timeout = max(1, int(min(limits.cell_seconds, left)))
        try:
            client.execute_cell(cell, index)
        except CellTimeoutError:
            if left < limits.cell_seconds:
                out.fatal = f"the notebook went over its {limits.notebook_seconds:g} s limit " \
                            f"in {what}"
            else:
                out.fatal = f"{what} ran for more than {limits.cell_seconds:g} s " \
                            "(an endless loop?)"
            return False
        except DeadKernelError:
            out.fatal = f"the kernel died in {what} (os._exit, a crash, or the memory limit)"
            return False
        err = _error_of(cell)
        if err is not None and "MemoryError" in err[0]:
            out.fatal = f"{what} ran out of memory (limit {limits.memory_bytes / 2**30:g} GiB)"
            return False
        return True

    def collect(ex_id: str) -> bool:
        nonlocal last_error
        cell = new_code_cell(f"__agl_emit({token!r}, {ex_id!r}, {seed}, globals())")
        ok = run_cell(cell, -1, f"the grader's check of {ex_id}")
        if not ok:
            return False
        payload = _payload_of(cell, token)
        if payload is None:
            err = _error_of(cell)
            why = f"{err[0]}: {err[1]}" if err else "no result came back"
            payload = {"error": f"the grader's check did not run ({why}); was the notebook's "
                                "grading machinery changed?"}
        out.payloads[ex_id] = payload
        if last_error:
            out.notes[ex_id] = last_error
        last_error = ""
        pending.remove(ex_id)
        return True

    try:
        with client.setup_kernel(env=env):
            args = f"{stem!r}, {str(scratch.package)!r}, {MIME!r}"
            preamble = new_code_cell(PREAMBLE.replace("@ARGS@", args))
            if not run_cell(preamble, -1, "the grader's set-up"):
                return out
            err = _error_of(preamble)
            if err is not None:
                out.fatal = f"the grader's set-up failed: {err[0]}: {err[1]}"
                return out
            for i in range(len(nb.cells) + 1):
                for ex_id in [e for e in exercise_ids if at[e] == i]:
                    if not collect(ex_id):
                        return out
                if i == len(nb.cells):
                    break
                cell = nb.cells[i]
                if cell.get("cell_type") != "code" or is_check_cell(cell):
                    if cell.get("cell_type") == "code":
                        cell["outputs"], cell["execution_count"] = [], None
                    continue
                if not run_cell(cell, i, f"cell {i + 1}"):
                    return out
                err = _error_of(cell)
                tags = cell.get("metadata", {}).get("tags", [])
                if err is not None and "raises-exception" not in tags:  # not the course's own
                    last_error = f"cell {i + 1} raised {err[0]}: {err[1]}"
    except (RuntimeError, TimeoutError) as e:  # the kernel did not start
        if not out.fatal:
            out.fatal = f"{NOT_STARTED}: {e}"
    return out


def sanitise(text: str, scratch: Scratch | None) -> str:
    """A message without what changes between runs: scratch paths, addresses, timings."""
    if scratch is not None:
        text = text.replace(str(scratch.work), "<submission>")
        text = text.replace(str(scratch.package), "<package>").replace(str(scratch.root), "<run>")
    text = re.sub(r"/tmp/agl-grading-\w+(/\w+)?", "<run>", text)
    return re.sub(r"0x[0-9a-fA-F]{6,}", "0x…", text)


def load_reference(notebooks: Path, stem: str) -> list[NotebookNode]:
    """The reference notebook's cells (where each check cell sits)."""
    path = notebooks / f"{stem}.ipynb"
    return list(nbformat.read(path, as_version=4).cells) if path.exists() else []
