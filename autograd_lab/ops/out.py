"""``out=`` arguments: ``torch.mul(a, b, out=c)`` computes, then writes into ``c``.

As in torch, this only works outside the graph (no input requiring grad while grad mode
is on), a result of another dtype is cast when it can be, and an ``out`` of another
shape is resized (with torch's deprecation warning unless it was empty).
"""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable

import numpy as np

from .common import STATE, Tensor
from .inplace import write_into


def _requires_grad(args: tuple, kw: dict) -> bool:
    """Whether any tensor argument (or tensor in a list argument) requires grad."""
    for a in (*args, *kw.values()):
        if isinstance(a, Tensor) and a._rg:
            return True
        if isinstance(a, (list, tuple)) and any(isinstance(t, Tensor) and t._rg for t in a):
            return True
    return False


def write_out(out: Tensor, res: Tensor, stacklevel: int = 3) -> Tensor:
    """Write ``res`` into ``out`` (resizing it if needed); bump its version."""
    if res._data.shape != out._data.shape:
        if out._data.size:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(out._data.shape)}, which does not match the required output shape "
                f"{list(res._data.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
                "t.resize_(0).", UserWarning, stacklevel=stacklevel + 1)
        out._data = np.zeros(res._data.shape, dtype=out.dtype.np)
    write_into(out, res._data)
    out._vc[0] += 1
    return out


def with_out(fn: Callable, name: str) -> Callable:
    """``fn`` accepting ``out=`` (``name`` as torch calls the op in its errors)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, out: Tensor | None = None, **kw: Any) -> Any:
        if out is None:
            return fn(*args, **kw)
        if STATE.enabled and (out._rg or _requires_grad(args, kw)):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires "
                               "grad.")
        return write_out(out, fn(*args, **kw))

    return wrapper
