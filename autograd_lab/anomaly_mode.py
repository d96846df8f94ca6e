"""Anomaly mode: find the forward operation behind a failing backward.

While ``torch.autograd.detect_anomaly()`` (or ``set_detect_anomaly(True)``) is on:

- every node made records where in the user's code it was made, as torch does, in
  ``grad_fn.metadata['traceback_']`` (``traceback.format_stack`` lines, outermost first);
- when running a node in backward fails, the engine warns ``Error detected in
  XBackward0. Traceback of forward call that caused the error: ...`` before the error
  goes on;
- with ``check_nan`` (the default), a node whose backward returns a nan gradient fails
  with ``Function 'XBackward0' returned nan values in its 0th output.``

When it is off, recording a node costs one flag test (``ANOMALY.enabled``).
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

import numpy as np


class _AnomalyState:
    """The global anomaly mode (read when a node is made: a slot, for speed)."""

    __slots__ = ("enabled", "check_nan", "parent")

    def __init__(self) -> None:
        self.enabled = False
        self.check_nan = True
        self.parent: Any = None  # the node whose backward is running (set by the engine)


ANOMALY = _AnomalyState()

ENABLED_WARNING = (
    "Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
    "enabled for debugging."
)


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on."""
    return ANOMALY.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly detection also fails on nan gradients."""
    return ANOMALY.check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly detection on or off (``check_nan``: also fail on nan gradients)."""
    ANOMALY.enabled = bool(enabled)
    ANOMALY.check_nan = bool(check_nan)


class detect_anomaly:  # noqa: N801
    """Context manager that turns anomaly detection on inside its block (and warns that
    it slows everything down)."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev = ANOMALY.enabled
        self.check_nan = check_nan
        self.prev_check_nan = ANOMALY.check_nan
        warnings.warn(ENABLED_WARNING, UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:  # noqa: N801
    """Turn anomaly detection on or off at once; as a context manager, the previous
    setting comes back on exit."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = ANOMALY.enabled
        self.prev_check_nan = ANOMALY.check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *args: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


# ---- forward: where each node was made -------------------------------------------------------

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
# Parts of the package that are plain Python in torch as well: their frames stay in a traceback
# (``nn.Module.__call__``, ``Function.apply`` ...). The rest is torch's C++ core: hidden.
_PYTHON_LEVEL = tuple(_PACKAGE + d + os.sep for d in ("autograd", "nn", "optim", "teaching", "viz"))


def _in_core(filename: str) -> bool:
    return filename.startswith(_PACKAGE) and not filename.startswith(_PYTHON_LEVEL)


def _user_frame() -> Any:
    """The innermost frame outside the package's core (where the user's code called in)."""
    f = sys._getframe(1)
    while f is not None and _in_core(f.f_code.co_filename):
        f = f.f_back
    return f


def record_forward_trace(node: Any) -> None:
    """Store where ``node`` is being made, as ``node.metadata['traceback_']``; a node made
    by another node's backward (``create_graph``) also keeps that node as ``'parent_'``."""
    meta = node.metadata
    import traceback  # only in anomaly mode: kept out of ``import autograd_lab``

    meta["traceback_"] = traceback.format_stack(_user_frame())
    if ANOMALY.parent is not None:
        meta["parent_"] = ANOMALY.parent


# ---- backward: report the failing node ----------------------------------------------------

def _stacklevel() -> int:
    """The ``stacklevel`` of a warning from here that points at the user's call."""
    level, f = 1, sys._getframe(1)
    while f is not None and _in_core(f.f_code.co_filename):
        f, level = f.f_back, level + 1
    return level


def report_error(node: Any) -> None:
    """torch's warnings when running ``node`` failed: where its forward call was, then where
    each node whose backward made it was (``create_graph``)."""
    level = _stacklevel()
    parent = False
    while node is not None:
        meta = node.__dict__.get("metadata") or {}
        trace = meta.get("traceback_")
        if trace is None:
            text = (f"Error detected in {node.name()}. No forward pass information available. "
                    "Enable detect anomaly during forward pass for more information.")
        elif parent:
            text = (f"\n\nPrevious calculation was induced by {node.name()}. Traceback of "
                    f"forward call that induced the previous calculation:\n{''.join(trace)}")
        else:
            text = (f"Error detected in {node.name()}. Traceback of forward call that caused "
                    f"the error:\n{''.join(trace)}")
        # torch's text ends in its C++ source location, which is left out here
        warnings.warn(text.rstrip("\n"), UserWarning, stacklevel=level)
        node, parent = meta.get("parent_"), True


def check_nan(node: Any, grads: tuple) -> None:
    """torch's error when ``node`` returned a gradient with a nan in it."""
    for i, g in enumerate(grads):
        if g is None:
            continue
        a = g._data if hasattr(g, "_data") else np.asarray(g)
        if a.dtype.kind in "fc" and np.isnan(a).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
