"""Warnings in a notebook, shown without the paths of the machine that ran it.

Python prints a warning with the file it came from, and anomaly mode's warning carries
the whole traceback of a forward call: in Jupyter, some thirty frames of the kernel's
own code (with the paths of this machine's Python installation) before the few lines
of the notebook that matter. ``shown_warnings()`` catches the warnings of a block and
prints them as Python would, except that a place in a notebook cell is written the way
IPython's own tracebacks write it (``Cell In[5], line 3``), any other file by its name
alone, and the frames outside the notebook's cells are counted instead of listed.

    with shown_warnings():
        with torch.autograd.detect_anomaly():
            loss = model(x)
            loss.backward()
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from contextlib import contextmanager
from typing import Callable, Iterator

__all__ = ["format_warning", "shown_warnings"]

_FRAME = re.compile(r'^  File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>.+)$')


def _ipython_cell_name(filename: str) -> str | None:
    """``Cell In[5]`` when ``filename`` is a cell of the running IPython kernel, else None."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    ip = get_ipython()
    if ip is None:
        return None
    named = ip.compile.format_code_name(filename)
    return None if named is None else " ".join(named)


def _place(filename: str, cell_name: Callable[[str], str | None]) -> tuple[str, bool]:
    """(how to write ``filename``, whether it is a notebook cell)."""
    name = cell_name(filename)
    if name is not None:
        return name, True
    return os.path.basename(filename), False


def _frames(lines: list[str], cell_name: Callable[[str], str | None]) -> list[str]:
    """Traceback lines with cell frames renamed and the other frames counted."""
    out: list[str] = []
    hidden = 0
    i = 0
    while i < len(lines):
        m = _FRAME.match(lines[i])
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        code = i + 1 < len(lines) and lines[i + 1].startswith("    ")
        where, in_cell = _place(m["file"], cell_name)
        if in_cell:
            if hidden:
                out.append(f"  ... {hidden} frame{'s' * (hidden > 1)} outside the notebook's "
                           "cells ...")
                hidden = 0
            out.append(f"  {where}, line {m['line']}, in {m['func']}")
            if code:
                out.append(lines[i + 1])
        else:
            hidden += 1
        i += 2 if code else 1
    if hidden:
        out.append(f"  ... {hidden} frame{'s' * (hidden > 1)} outside the notebook's cells ...")
    return out


def format_warning(w: warnings.WarningMessage,
                   cell_name: Callable[[str], str | None] = _ipython_cell_name) -> str:
    """One caught warning as text: ``<place>: <Category>: <message>``, paths shortened."""
    where, in_cell = _place(w.filename, cell_name)
    place = f"{where}, line {w.lineno}" if in_cell else f"{where}:{w.lineno}"
    first, *rest = str(w.message).split("\n")
    return "\n".join([f"{place}: {w.category.__name__}: {first}", *_frames(rest, cell_name)])


@contextmanager
def shown_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Catch every warning raised in the block and print them (to stderr) when it ends,
    also when it ends with an error -- which then propagates as usual."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield caught
        finally:
            sys.stdout.flush()  # what the block printed comes first, as it happened
            for w in caught:
                print(format_warning(w), file=sys.stderr)
            sys.stderr.flush()
