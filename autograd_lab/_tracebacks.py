"""Torch fidelity of errors and warnings shown in Jupyter/IPython.

PyTorch's operators are C++: a failing ``y.backward()`` in a notebook shows the student's own
line and then PyTorch's message. Ours are Python, so IPython would also show every engine
frame in between, with the absolute paths of the machine the notebook ran on. When the package
is imported inside IPython, :func:`install` makes the shell:

- format tracebacks without the package's own frames (chained exceptions too), so the last
  frame shown is the user's code and the last line PyTorch's exact message. Tracebacks with no
  package frame (errors of the user's own code) are formatted exactly as before;
- show a warning that the package emits at a notebook cell as ``<cell>:1: UserWarning: ...``
  (as Python shows ``<stdin>:1:`` at its prompt) instead of ``/tmp/ipykernel_<pid>/<hash>.py:1:``,
  the cell's temporary file. (Not its ``In[n]`` number: that differs between a Run All and a
  checker that runs cells one at a time.)

Nothing changes outside IPython, and nothing in the exceptions raised: code that catches them
sees the same type, message and traceback.
"""

from __future__ import annotations

import os
import sys
import types
import warnings
from typing import Any

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_MARK = "_autograd_lab_hides_its_frames"


def in_package(code_file: str) -> bool:
    """Whether a code object's file belongs to this package."""
    return os.path.abspath(code_file).startswith(PACKAGE_DIR)


def has_package_frames(tb: types.TracebackType | None) -> bool:
    while tb is not None:
        if in_package(tb.tb_frame.f_code.co_filename):
            return True
        tb = tb.tb_next
    return False


def without_package_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """A new traceback chain of the same frames minus the package's (None if none is left)."""
    kept = []
    while tb is not None:
        if not in_package(tb.tb_frame.f_code.co_filename):
            kept.append(tb)
        tb = tb.tb_next
    out = None
    for t in reversed(kept):
        out = types.TracebackType(out, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return out


def _chain(value: BaseException | None) -> list[BaseException]:
    """The exception and those it was raised from or during (``__cause__``/``__context__``)."""
    seen: list[BaseException] = []
    todo = [value]
    while todo:
        e = todo.pop()
        if e is None or any(e is s for s in seen):
            continue
        seen.append(e)
        todo += [e.__cause__, e.__context__]
    return seen


def _trim(value: BaseException | None, tb: types.TracebackType | None):
    """``tb`` without package frames; chained exceptions' tracebacks trimmed in place."""
    for e in _chain(value):
        if e is not value and has_package_frames(e.__traceback__):
            e.__traceback__ = without_package_frames(e.__traceback__)
    return without_package_frames(tb)


def _touches_package(value: BaseException | None, tb: types.TracebackType | None) -> bool:
    return has_package_frames(tb) or any(has_package_frames(e.__traceback__)
                                         for e in _chain(value) if e is not value)


def _hide_frames(formatter: Any) -> None:
    """Wrap ``formatter.structured_traceback`` (IPython's ``InteractiveTB``) once."""
    original = formatter.structured_traceback
    if getattr(original, _MARK, False):
        return

    def structured_traceback(etype, evalue, etb=None, tb_offset=None, *args, **kwargs):
        if _touches_package(evalue, etb):
            etb = _trim(evalue, etb)
            if evalue is not None:
                evalue.__traceback__ = etb
        return original(etype, evalue, etb, tb_offset, *args, **kwargs)

    setattr(structured_traceback, _MARK, True)
    formatter.structured_traceback = structured_traceback


def _emitted_by_package() -> bool:
    """Whether the warning being shown now was emitted by a ``warnings.warn`` in the package."""
    f = sys._getframe(2)
    while f is not None and (f.f_code.co_filename == __file__
                             or f.f_globals.get("__name__") in ("warnings", "_py_warnings")):
        f = f.f_back
    return f is not None and in_package(f.f_code.co_filename)


def _name_cells_in_warnings(shell: Any) -> None:
    """Show package warnings located in a cell as ``<cell>:k:`` (wrapped once)."""
    original = warnings.showwarning
    if getattr(original, _MARK, False):
        return

    def showwarning(message, category, filename, lineno, file=None, line=None):
        if not (_emitted_by_package() and shell.compile.format_code_name(filename)):
            return original(message, category, filename, lineno, file, line)
        text = warnings.formatwarning(message, category, filename, lineno, line)
        text = text.replace(f"{filename}:{lineno}:", f"<cell>:{lineno}:", 1)
        stream = sys.stderr if file is None else file
        try:
            stream.write(text)
        except OSError:  # as warnings itself does: a closed stream loses the warning
            pass

    setattr(showwarning, _MARK, True)
    warnings.showwarning = showwarning


def install() -> None:
    """Set up the running IPython shell, if any (idempotent; a no-op outside IPython)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return
    formatter = getattr(shell, "InteractiveTB", None)
    if formatter is not None:
        _hide_frames(formatter)
    if hasattr(shell, "compile") and hasattr(shell.compile, "format_code_name"):
        _name_cells_in_warnings(shell)
