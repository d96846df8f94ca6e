"""Checks for notebook 14 · Anomaly detection.

The safe square root is run by the check itself on inputs of its own (negative, zero
and positive), so an answer is judged by its values *and* by the gradients it gives.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...factories import tensor
from ...tensor import Tensor
from ..exercises import Feedback, check_equal, check_true
from ._common import missing, not_a_function

__all__ = ["check_culprit", "check_message", "check_safe_sqrt"]

WHERE_SQRT_MESSAGE = "Function 'SqrtBackward0' returned nan values in its 0th output."


def check_message(message: Any) -> Feedback:
    """Exercise 1: the message of the error anomaly mode raises for the ``where`` trap."""
    name = "the anomaly error's message"
    if missing(name, message):
        return Feedback(False)
    if isinstance(message, BaseException):
        return check_true(name, False, hint="store the message, str(e), not the exception itself")
    if not isinstance(message, str):
        return check_true(name, False, hint=f"expected the text of the error, str(e), not a "
                                             f"{type(message).__name__}")
    return check_equal(name, message, WHERE_SQRT_MESSAGE,
                       hint="run the forward *and* backward inside detect_anomaly(); catch the "
                            "RuntimeError as e and store str(e)")


def check_safe_sqrt(safe_sqrt: Any) -> Feedback:
    """Exercise 2: sqrt(x) for x > 0 and 0 otherwise, with finite gradients everywhere."""
    name = "safe_sqrt: the right values and finite gradients"
    if (fb := not_a_function(name, safe_sqrt, "safe_sqrt")) is not None:
        return fb
    points = [-1.0, 0.0, 0.25, 4.0]
    x = tensor(points, requires_grad=True)
    try:
        y = safe_sqrt(x)
        if y is Ellipsis:
            return check_true(name, ...)
        if not isinstance(y, Tensor):
            return check_true(name, False, hint=f"safe_sqrt must return a Tensor, not "
                                                 f"{type(y).__name__}")
        if not y.requires_grad:
            return check_true(name, False, hint="the result must stay in the graph: no detach(), "
                                                 "no no_grad()")
        y.sum().backward()
    except Exception as e:  # noqa: BLE001 - a failing answer is feedback, not a crash
        return check_true(name, False, hint=f"safe_sqrt raised {type(e).__name__}: {e}")
    values = np.asarray(y.tolist(), dtype=np.float64)
    want = np.array([math.sqrt(v) if v > 0 else 0.0 for v in points])
    if values.shape != want.shape or not np.allclose(values, want, atol=1e-5):
        return check_true(name, False, hint=f"at x = {points} the values should be {want.tolist()}"
                                             f", got {values.tolist()}")
    grads = np.asarray(x.grad.tolist(), dtype=np.float64) if x.grad is not None else None
    if grads is None or not np.all(np.isfinite(grads)):
        return check_true(name, False, hint=f"gradients at x = {points}: {grads}: a masked-out "
                                             "branch still runs backward (0 · inf = nan); make "
                                             "the input of sqrt safe, not only its output")
    want_grads = np.array([0.5 / math.sqrt(v) if v > 0 else 0.0 for v in points])
    ok = np.allclose(grads[2:], want_grads[2:], rtol=1e-4) and grads[0] == 0.0
    return check_true(name, ok, hint=f"the gradient should be 1 / (2 sqrt(x)) where x > 0 and 0 "
                                     f"where x < 0; got {grads.tolist()}")


def check_culprit(node_name: Any, function_name: Any) -> Feedback:
    """Exercise 3: the node that returned nan, and the function of the cell that made it."""
    a = check_equal("the node that returned nan", node_name, "MulBackward0",
                    hint="the error names it: Function '...' returned nan values; the sqrt's "
                         "infinite gradient only becomes nan one node further on")
    b = check_equal("the function that made it", function_name, "features",
                    hint="the last frames of the forward traceback show where that node was made")
    return Feedback(bool(a) and bool(b))
