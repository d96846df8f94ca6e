"""Shared pieces of the exercise checks: verdicts, conversions and diagnoses of known wrong answers.

A check first rules out "no answer" (``...`` or ``None``), then recognises the plausible wrong
answers of its exercise (the input itself, a wrong sign, a transposed matrix, an alias of a
tensor that is changed later ...) so that its message says what is wrong, not only that it is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...tensor import Tensor
from ..exercises import Feedback, _missing, _report

__all__ = ["PREDICTION", "Feedback", "as_array", "close", "diagnose", "is_tensor", "missing",
           "not_a_function", "right", "shares_memory", "wrong"]


PREDICTION = ("a prediction about the notebook's own example: running the example gives the "
              "answer, so the check is feedback, not a grade")


def missing(name: str, value: Any) -> bool:
    """True (and says so) when ``value`` is the placeholder ``...`` or ``None``."""
    return _missing(name, value)


def not_a_function(name: str, answer: Any, what: str) -> Feedback | None:
    """The verdict for a function-valued answer that is missing or not callable, else None."""
    if missing(name, answer):
        return Feedback(False)
    if not callable(answer):
        return wrong(name, f"{what} must be a function, not a {type(answer).__name__}.")
    return None


def right(name: str) -> Feedback:
    """The verdict for a correct answer."""
    return _report(name, True)


def wrong(name: str, detail: str, hint: str = "") -> Feedback:
    """The verdict for a wrong answer, with what is wrong (``detail``) and a ``hint``."""
    return _report(name, False, detail, hint)


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a tensor of the package."""
    return isinstance(x, Tensor)


def as_array(x: Any) -> np.ndarray | None:
    """``x`` (tensor, number, nested lists of them) as float64; None if not numeric."""
    if isinstance(x, Tensor):
        return np.asarray(x._data, dtype=np.float64)
    if isinstance(x, (str, bytes, dict, set)) or x is None or x is Ellipsis or callable(x):
        return None
    if isinstance(x, (list, tuple)):
        parts = [as_array(v) for v in x]
        if any(p is None for p in parts):
            return None
        try:
            return np.asarray(np.stack(parts) if parts else np.zeros(0), dtype=np.float64)
        except ValueError:
            return None
    try:
        return np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        return None


def close(a: Any, b: Any, rtol: float = 1e-5, atol: float = 1e-6) -> bool:
    """Same shape and equal up to float rounding (``a`` and ``b`` as in ``as_array``)."""
    x, y = as_array(a), as_array(b)
    if x is None or y is None or x.shape != y.shape:
        return False
    return bool(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True))


def shares_memory(a: Any, b: Any) -> bool:
    """Whether two tensors use the same memory (one is a view or a detached alias of the other)."""
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        return False
    return bool(np.shares_memory(a._data, b._data))


def diagnose(got: Any, known: list[tuple[Any, str]], rtol: float = 1e-5,
             atol: float = 1e-6) -> str | None:
    """The message of the first known wrong answer that ``got`` equals, else None."""
    for value, message in known:
        if close(got, value, rtol, atol):
            return message
    return None


def check_value(name: str, got: Any, expected: Any, known: list[tuple[Any, str]] = (), *,
                hint: str = "", rtol: float = 1e-5, atol: float = 1e-6) -> Feedback:
    """``got`` equals ``expected`` (same shape); known wrong answers get their own message."""
    if missing(name, got):
        return Feedback(False)
    g, e = as_array(got), as_array(expected)
    if g is None:
        return wrong(name, f"expected a number or a tensor, got {type(got).__name__}.", hint)
    if g.shape != e.shape:
        extra = (" That is the transposed shape: rows and columns are swapped."
                 if g.ndim == 2 and g.shape == e.shape[::-1] else "")
        return wrong(name, f"expected shape {list(e.shape)}, got {list(g.shape)}.{extra}", hint)
    if np.allclose(g, e, rtol=rtol, atol=atol, equal_nan=True):
        return right(name)
    known = [(-e, "the sign is wrong.")] + list(known)
    if g.ndim == 2 and g.shape[0] == g.shape[1]:
        known.append((e.T, "that is the transpose: rows and columns are swapped."))
    if not np.allclose(e, 0):
        known.append((np.zeros_like(e), "all zeros is not it."))
    msg = diagnose(g, known, rtol, atol)
    if msg:
        return wrong(name, msg, hint)
    shown = np.array2string(g, precision=4) if g.size <= 8 else f"an array of shape {list(g.shape)}"
    return wrong(name, f"your value is {shown}, which is not right.", hint)
