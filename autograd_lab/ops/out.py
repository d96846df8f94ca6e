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

from .. import _messages as msg
from .._messages import scalar_name
from .common import STATE, Tensor
from .inplace import repeats_elements, write_into


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
        _warn_resize(out, res, stacklevel + 1)
        out._data = np.zeros(res._data.shape, dtype=out.dtype.np)
    write_into(out, res._data)
    out._vc[0] += 1
    return out


def _warn_resize(out: Tensor, res: Tensor, stacklevel: int) -> None:
    if res._data.shape != out._data.shape:
        if out._data.size:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(out._data.shape)}, which does not match the required output shape "
                f"{list(res._data.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
                "t.resize_(0).", UserWarning, stacklevel=stacklevel + 1)


def with_out(fn: Callable, name: str, check: Callable | None = None) -> Callable:
    """``fn`` accepting ``out=`` (``name`` as torch calls the op in its errors); ``check(out,
    *args)`` raises the op's own errors about ``out`` first and returns the inputs ``out``
    may not share memory with, checked after ``out`` is resized (as torch's kernels do)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, out: Tensor | None = None, **kw: Any) -> Any:
        if out is None:
            return fn(*args, **kw)
        if STATE.enabled and (out._rg or _requires_grad(args, kw)):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires "
                               "grad.")
        inputs = check(out, *args) if check is not None else ()
        res = fn(*args, **kw)
        if inputs:
            try:
                _no_overlap(out, inputs)
            except RuntimeError:
                _warn_resize(out, res, 3)
                raise
        return write_out(out, res)

    return wrapper


# ---- the checks of ops whose kernels write into ``out`` themselves ---------------------------

_TYPE_META = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "float16": "c10::Half"}  # (others: their own names)


def _no_overlap(out: Tensor, inputs: tuple) -> None:
    """torch's assert_no_internal_overlap(out) and assert_no_overlap(out, input) (any shared
    element, not only a partial overlap)."""
    if repeats_elements(out._data):
        raise RuntimeError(msg.INTERNAL_OVERLAP)
    for t in inputs:
        if isinstance(t, Tensor) and t._storage is out._storage and np.shares_memory(
                t._data, out._data):
            raise RuntimeError(msg.PARTIAL_OVERLAP)


def gather_out_check(out: Tensor, x: Tensor, dim: Any = 0, index: Any = None, *a: Any) -> tuple:
    if out.dtype is not x.dtype:
        def name(d: Any) -> str:
            return _TYPE_META.get(d.name, {"float32": "float", "float64": "double"}.get(
                d.name, d.name))
        raise RuntimeError(f"Expected out tensor to have dtype {name(x.dtype)}, but got "
                           f"{name(out.dtype)} instead")
    return (x, index)


def index_select_out_check(out: Tensor, x: Tensor, dim: Any = 0, index: Any = None) -> tuple:
    if out.dtype is not x.dtype:
        raise RuntimeError("index_select(): self and result must have the same scalar type")
    return (x, index)


def cat_out_check(out: Tensor, tensors: Any, *a: Any, **kw: Any) -> tuple:
    """cat: ``out`` may not share memory with an input."""
    return tuple(tensors) if isinstance(tensors, (list, tuple)) else ()


def reduction_out_check(out: Tensor, x: Tensor, *a: Any) -> tuple:
    """amax/amin: ``out`` in the input's dtype."""
    if out.dtype is not x.dtype:
        raise RuntimeError(f"Expected the dtype for input and out to match, but got "
                           f"{scalar_name(x.dtype)} for input's dtype and "
                           f"{scalar_name(out.dtype)} for out's dtype.")
    return ()
