"""Torch fidelity: how ``grad_fn._saved_<name>`` shows a saved value.

Backward keeps what it needs in its own normalised form (non-negative axes, arrays); torch
shows the value as the op received it, with a few C++ habits: a negative ``dim`` reads as an
unsigned 64-bit number (``-1`` is ``18446744073709551615``), lists read as tuples, and a
Python number saved in a tensor slot reads as a 0-d tensor.
"""

from __future__ import annotations

from typing import Any

from ._dtype import float64
from .factories import tensor


def shown_dim(dim: Any) -> Any:
    """A dim argument as torch shows it in ``_saved_dim``: as given, negatives as unsigned
    64-bit (``-1`` reads ``18446744073709551615``), lists as tuples."""
    if dim is None:
        return None
    if isinstance(dim, int):
        return dim % 2**64
    return tuple(int(d) % 2**64 for d in dim)


def shown_dims(dim: Any) -> Any:
    """Like ``shown_dim`` for ops whose dim is a list: one int reads as a 1-tuple."""
    return shown_dim((dim,) if isinstance(dim, int) else dim)


def show_saved(node: Any, **values: Any) -> None:
    """Make ``node._saved_<name>`` read ``value`` (backward keeps its normalised copy)."""
    node.__dict__.setdefault("_shown", {}).update(values)


def wrapped_number(v: Any) -> Any:
    """A Python number saved in a tensor slot, read back as torch shows it: a 0-d tensor."""
    return tensor(v, dtype=None) if not isinstance(v, float) else tensor(v, dtype=float64)
