"""Creating tensors: ``tensor``, ``zeros``, ``arange`` ... with torch's dtype inference."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import _dtype as D
from . import _messages as msg
from ._device import _DEFAULT as _DEFAULT_DEVICE
from ._device import check_cpu
from ._dtype import dtype, from_numpy_dtype, get_default_dtype
from ._fma import fma32, fma64
from .tensor import Tensor, _make


def _check_device(dev: Any) -> None:
    check_cpu(_DEFAULT_DEVICE[0] if dev is None else dev)  # ``torch.set_default_device``


def _finish(arr: np.ndarray, dt: dtype, requires_grad: bool) -> Tensor:
    t = _make(arr, dt, None)
    if requires_grad:
        if not dt.is_floating_point:
            raise RuntimeError(msg.FACTORY_REQUIRES_GRAD)
        t._rg = True
    return t


def _infer(data: Any) -> tuple[np.ndarray, dtype]:
    """numpy array and torch dtype for nested Python data (floats -> default dtype)."""
    if isinstance(data, Tensor):
        return data._data, data.dtype
    if isinstance(data, np.ndarray):
        return data, from_numpy_dtype(data.dtype)
    if isinstance(data, (list, tuple)) and any(isinstance(x, Tensor) for x in _flat(data)):
        data = _untensor(data)
    _check_nested(data)
    arr = np.array(data)
    if arr.dtype == np.uint64 or arr.dtype == object and all(
            isinstance(x, int) for x in arr.reshape(-1)):  # ints beyond 64 bits
        raise ValueError("Overflow when unpacking long long")
    if arr.dtype == object or arr.dtype.kind in "USV":
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")

    if arr.dtype.kind == "f":
        return arr, get_default_dtype()
    if arr.dtype.kind in "iu":
        return arr, D.int64
    if arr.dtype.kind == "b":
        return arr, D.bool_
    if arr.dtype.kind == "c":
        raise TypeError("complex tensors are not supported by autograd_lab")
    return arr, from_numpy_dtype(arr.dtype)


def _check_nested(data: Any) -> None:
    """torch's errors for data it cannot read: ragged lists, strings, other objects."""
    if isinstance(data, (list, tuple)):
        shape = _nested_shape(data, 0)
        _check_shape(data, shape, 0)
        return
    if isinstance(data, str):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if not isinstance(data, (int, float, bool, np.number, np.bool_)):
        raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")


def _nested_shape(data: Any, depth: int) -> list:
    shape = []
    while isinstance(data, (list, tuple)):
        shape.append(len(data))
        if not data:
            break
        data = data[0]
    if isinstance(data, str):
        raise ValueError(f"too many dimensions '{type(data).__name__}'")
    return shape


def _check_shape(data: Any, shape: list, dim: int) -> None:
    if dim == len(shape):
        if isinstance(data, str):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        if not isinstance(data, (int, float, bool, np.number, np.bool_, list, tuple)):
            raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")
        return
    if not isinstance(data, (list, tuple)):
        raise TypeError("not a sequence")
    if len(data) != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got "
                         f"{len(data)})")
    for x in data:
        _check_shape(x, shape, dim + 1)


def _flat(data: Any) -> list:

    out, stack = [], [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        else:
            out.append(x)
    return out


def _untensor(data: Any) -> Any:
    if isinstance(data, Tensor):  # torch reads a tensor inside a list as one number
        if data._data.size != 1:  # torch reads an integer tensor as an index first
            if data.dtype._cat == 1:
                raise TypeError("only integer tensors of a single element can be converted to "
                                "an index")
            raise ValueError("only one element tensors can be converted to Python scalars")
        return data._data.reshape(()).item()
    if isinstance(data, (list, tuple)):
        return [_untensor(x) for x in data]
    return data


def tensor(data: Any, dtype: dtype | None = None, device: Any = None,
           requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data``."""
    _check_device(device)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).", UserWarning, stacklevel=2,
        )
    arr, dt = _infer(data)
    if dtype is not None and dtype._cat == 1 and not isinstance(data, (Tensor, np.ndarray)):
        _check_range(arr, dtype)
    dt = dtype or dt
    with np.errstate(invalid="ignore"):
        return _finish(np.array(arr, dtype=dt.np, copy=True), dt, requires_grad)


def _check_range(arr: np.ndarray, dt: dtype) -> None:
    """Python numbers stored as integers must fit (torch names the dtype as ``int64``)."""
    if arr.size == 0 or arr.dtype.kind == "b":
        return
    lo, hi = arr.min(), arr.max()
    if arr.dtype.kind == "f" and not np.isfinite(arr).all() or not (
            D.fits(lo.item(), dt) and D.fits(hi.item(), dt)):
        raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow")


def as_tensor(data: Any, dtype: dtype | None = None, device: Any = None) -> Tensor:
    """Like ``tensor`` but shares memory with a numpy array (or tensor) when it can."""
    _check_device(device)
    if isinstance(data, Tensor):
        return data if dtype in (None, data.dtype) else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or dtype.np == data.dtype):
        return from_numpy(data)
    arr, dt = _infer(data)
    dt = dtype or dt
    return _make(np.asarray(arr, dtype=dt.np), dt, None)


def from_numpy(arr: np.ndarray) -> Tensor:
    """A tensor sharing ``arr``'s memory: changing one changes the other."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(arr).__name__})")
    return _make(arr, from_numpy_dtype(arr.dtype), None)


def _size(size: tuple, name: str = "empty") -> tuple:
    """A factory's ``*size`` (ints, or one tuple/list) as a shape, with torch's errors."""
    packed = len(size) == 1 and isinstance(size[0], (tuple, list))
    if packed:
        size = tuple(size[0])
    for i, s in enumerate(size):
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            if len(size) == 1 and not packed:
                raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, "
                                f"not {type(s).__name__}")
            raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos "
                            f"{i + 1} with error \"type must be tuple of ints,but got "
                            f"{type(s).__name__}\"")
        if s < 0:
            if name == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"{list(size)}")
    return tuple(int(s) for s in size)


def _size_kwargs(size: tuple, kwargs: dict, name: str) -> tuple:
    """``*size`` given as ``size=`` (``torch.zeros(size=(2, 1))``); other keywords torch
    accepts (``layout``, ``pin_memory``, ``memory_format``) change nothing on the CPU."""
    if "size" in kwargs:
        if size:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        size = (kwargs.pop("size"),)
    for k in kwargs:
        if k not in ("layout", "pin_memory", "memory_format"):
            raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
    return size


def _filled(value: Any, size: tuple, dtype: dtype | None, requires_grad: bool,
            name: str = "empty") -> Tensor:
    dt = dtype or get_default_dtype()
    shape = _size(size, name)
    D.check_fill(value, dt)
    with np.errstate(over="ignore"):
        return _finish(np.full(shape, _stored(value, dt), dtype=dt.np), dt, requires_grad)


def _stored(value: Any, dt: dtype) -> Any:
    """A number as ``dt`` stores it (a negative int in an unsigned type wraps; a float in an
    integer type is truncated)."""
    if isinstance(value, Tensor):
        value = value.item()
    if dt._cat == 1 and isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return np.array(value).astype(dt.np)
    return value


def zeros(*size: Any, dtype: dtype | None = None, device: Any = None,
          requires_grad: bool = False, **kwargs: Any) -> Tensor:
    """A tensor of zeros of the given size."""
    _check_device(device)
    size = _size_kwargs(size, kwargs, "zeros")
    return _filled(0, size, dtype, requires_grad, "zeros")


def ones(*size: Any, dtype: dtype | None = None, device: Any = None,
         requires_grad: bool = False, **kwargs: Any) -> Tensor:
    """A tensor of ones of the given size."""
    _check_device(device)
    size = _size_kwargs(size, kwargs, "ones")
    return _filled(1, size, dtype, requires_grad, "ones")


def empty(*size: Any, dtype: dtype | None = None, device: Any = None,
          requires_grad: bool = False, **kwargs: Any) -> Tensor:
    """A tensor of the given size (zeros here: its values are unspecified in torch)."""
    _check_device(device)
    size = _size_kwargs(size, kwargs, "empty")
    return _filled(0, size, dtype, requires_grad)  # zeros: deterministic notebooks


_UNSET: Any = type("Unset", (), {})()  # an argument not given (None may be given)


def full(size: Any, fill_value: Any = _UNSET, *, dtype: dtype | None = None,
         device: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of the given size filled with ``fill_value`` (dtype inferred from it)."""
    _check_device(device)
    if fill_value is _UNSET:
        raise TypeError('full() missing 1 required positional arguments: "fill_value"')
    check_number_arg("full", "fill_value", 2, fill_value)
    if isinstance(size, int):
        raise TypeError("full(): argument 'size' (position 1) must be tuple of ints, not int")
    for i, s in enumerate(size):
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, but "
                            f"found element of type {type(s).__name__} at pos {i}")
    if isinstance(fill_value, int) and not -2**63 <= fill_value < 2**64:
        raise OverflowError("int too big to convert")
    if dtype is None:
        dtype = D.scalar_dtype(fill_value.item() if isinstance(fill_value, Tensor) else fill_value)
    return _filled(fill_value, tuple(size), dtype, requires_grad)


def check_number_arg(op: str, name: str, position: int | None, v: Any,
                     max_dims: int = 1) -> None:
    """A ``Number`` argument: torch's parser also reads a one-element tensor (of at most
    ``max_dims`` dims) that needs no gradient as one (a tensor that requires grad would lose
    its gradient: refused). ``position`` None: given by keyword, where torch names none."""
    if isinstance(v, Tensor):
        if v._data.size == 1 and v._data.ndim <= max_dims and not v._rg:
            return
    elif isinstance(v, (int, float, complex, bool, np.number, np.bool_)):
        return
    where = "" if position is None else f" (position {position})"
    raise TypeError(f"{op}(): argument '{name}'{where} must be Number, not {type(v).__name__}")


def _like(t: Tensor, value: Any, dtype: dtype | None, requires_grad: bool) -> Tensor:
    dt = dtype or t.dtype
    D.check_fill(value, dt)
    with np.errstate(over="ignore"):
        return _finish(np.full(t._data.shape, _stored(value, dt), dtype=dt.np), dt,
                       requires_grad)


def zeros_like(t: Tensor, *, dtype: dtype | None = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    """Zeros of t's shape (and dtype, unless given)."""
    return _like(t, 0, dtype, requires_grad)


def ones_like(t: Tensor, *, dtype: dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    """Ones of t's shape (and dtype, unless given)."""
    return _like(t, 1, dtype, requires_grad)


def empty_like(t: Tensor, *, dtype: dtype | None = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    """A tensor of t's shape (and dtype, unless given)."""
    return _like(t, 0, dtype, requires_grad)


def full_like(t: Tensor, fill_value: Any, *, dtype: dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    """``fill_value`` in t's shape (and dtype, unless given)."""
    check_number_arg("full_like", "fill_value", 2, fill_value)
    return _like(t, fill_value, dtype, requires_grad)


def arange(start: Any, end: Any = None, step: Any = 1, *, dtype: dtype | None = None,
           device: Any = None, requires_grad: bool = False) -> Tensor:
    """``start, start + step, ...`` below ``end`` (``arange(n)``: 0 to n - 1)."""
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    for name, v, pos in (("end", end, 1), ("start", start, 1), ("step", step, 3)):
        if not isinstance(v, (int, float, np.number, Tensor)):
            raise TypeError(f"arange(): argument '{name}' (position {pos}) must be Number, not "
                            f"{type(v).__name__}")
    is_float = any(isinstance(v, (float, np.floating)) for v in vals)
    dt = dtype or (get_default_dtype() if is_float else D.int64)
    if dt._cat == 0:
        raise msg.not_implemented_for("arange_cpu", dt)
    if not (np.isfinite(vals[0]) and np.isfinite(vals[1])):
        raise RuntimeError(f"unsupported range: {float(vals[0]):g} -> {float(vals[1]):g}")
    if dt._cat == 1:  # integer results: torch steps in integers
        vals = [int(v) for v in vals]
    if vals[2] == 0:
        raise RuntimeError("step must be nonzero")
    if (vals[1] - vals[0]) * vals[2] < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int(np.ceil((vals[1] - vals[0]) / vals[2]))
    arr = (vals[0] + np.arange(max(n, 0), dtype=np.float64) * vals[2]).astype(dt.np)
    return _finish(arr, dt, requires_grad)


def linspace(start: float, end: float, steps: int, *, dtype: dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive (``start`` and
    ``end`` may be 0-d tensors)."""
    if isinstance(steps, Tensor) and steps.dtype._cat == 1 and steps._data.size == 1:
        steps = int(steps._data)
    if not isinstance(steps, (int, np.integer)) or isinstance(steps, bool):
        raise msg.invalid_arguments("linspace", (start, end, steps), *(
            f"({a} start, {b} end, int steps, *, Tensor out = None, torch.dtype dtype = None, "
            "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
            "bool requires_grad = False)"
            for a, b in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"),
                         ("Number", "Number"))))
    bounds = [(n, v) for n, v in (("start", start), ("end", end)) if isinstance(v, Tensor)]
    if any(v._data.ndim for _, v in bounds):
        raise RuntimeError("linspace only supports 0-dimensional start and end tensors, but got "
                           + " and ".join(f"{n} with {v._data.ndim} dimension(s)"
                                          for n, v in bounds) + ".")
    start, end = (v.item() if isinstance(v, Tensor) else v for v in (start, end))
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dt = dtype or get_default_dtype()
    # torch fills the first half from ``start`` and the second half back from ``end``
    if steps == 1:
        arr = np.array([start], dtype=np.float64)
    elif dt.np in (np.float32, np.float64):
        # in the dtype, with the fused multiply-add torch's kernel is compiled to
        fma = fma32 if dt.np == np.float32 else fma64
        lo, hi = dt.np.type(start), dt.np.type(end)
        step = (hi - lo) / dt.np.type(steps - 1)
        i = np.arange(steps, dtype=dt.np)
        half = steps // 2
        arr = np.where(i < half, fma(step, i, np.full(steps, lo)),
                       fma(-step, (steps - 1) - i, np.full(steps, hi)))
    elif dt._cat < 2 and dt.np.kind in "iu":
        # integers: start and end cast to the dtype first (truncated), a double step, each
        # value a fused multiply-add truncated to the dtype
        lo, hi = float(int(start)), float(int(end))
        step = (hi - lo) / (steps - 1)
        i = np.arange(steps, dtype=np.float64)
        half = steps // 2
        arr = np.where(i < half, fma64(step, i, np.full(steps, lo)),
                       fma64(-step, (steps - 1) - i, np.full(steps, hi)))
    else:
        step = (end - start) / (steps - 1)
        i = np.arange(steps, dtype=np.float64)
        half = steps // 2
        arr = np.where(i < half, start + step * i, end - step * (steps - 1 - i))
    return _finish(arr.astype(dt.np), dt, requires_grad)


def eye(n: int, m: int | None = None, *, dtype: dtype | None = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    """The n x m identity matrix (m defaults to n)."""
    dt = dtype or get_default_dtype()
    for name, v in (("n", n), ("m", m)):
        if v is not None and v < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {v}")
    return _finish(np.eye(n, m if m is not None else n, dtype=dt.np), dt, requires_grad)

