"""The random factories: ``rand``, ``randn``, ``randint``, ``randperm``, ``*_like``,
``normal`` and ``bernoulli``.

Each one checks its arguments with torch's messages, takes the stream of its ``generator``
(the global one by default) and fills a new array through :mod:`.kernels`.

* ``randint``: ``r % (high - low) + low``, with 64-bit draws when ``high - low >= 2**28``.
* ``randperm``: torch's swap shuffle driven by ``r % (n - i)`` (worked out without a loop).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._dtype import dtype, float16, get_default_dtype, int64
from ..factories import _check_device, _finish, _size
from ..node import Node
from ..ops.arithmetic import NotImplementedBackward
from ..ops.record import node_for
from ..tensor import Tensor, _make
from .generator import Generator, _mt
from .kernels import (
    _bernoulli_scalar_values,
    _bernoulli_tensor_values,
    _check_std,
    _empty_like,
    _fill_uniform,
    _need_float,
    _normal_into,
    _uniform_into,
)

_RANDPERM_SMALL = 0xFFFFFFFF // 20  # below this, randperm uses 32-bit draws
_C_NAMES = {"int8": "signed char", "uint8": "unsigned char", "int16": "short int",
            "int32": "int", "int64": "long int", "bool": "bool"}


def _shape(size: tuple, kw: dict, fname: str) -> tuple:
    """The size from ``*size`` or the ``size=`` keyword; other keywords are errors."""
    extra = [k for k in kw if k not in ("size", "layout", "pin_memory")]
    if extra:
        raise TypeError(f"{fname}() got an unexpected keyword argument '{extra[0]}'")
    return _size(size if "size" not in kw else (kw["size"],))


def rand(*size: Any, generator: Generator | None = None, dtype: dtype | None = None,
         device: Any = None, requires_grad: bool = False, **kw: Any) -> Tensor:
    """Uniform samples on [0, 1)."""
    _check_device(device)
    dt = dtype or get_default_dtype()
    shape = _shape(size, kw, "rand")
    _need_float(dt, "check_uniform_bounds")
    arr = np.empty(shape, dt.np)
    _uniform_into(_mt(generator), arr.reshape(-1), dt, 0.0, 1.0)
    return _finish(arr, dt, requires_grad)


def randn(*size: Any, generator: Generator | None = None, dtype: dtype | None = None,
          device: Any = None, requires_grad: bool = False, **kw: Any) -> Tensor:
    """Standard normal samples."""
    _check_device(device)
    dt = dtype or get_default_dtype()
    shape = _shape(size, kw, "randn")
    _need_float(dt, "normal_kernel_cpu")
    arr = np.empty(shape, dt.np)
    _normal_into(arr, 0.0, 1.0, _mt(generator))
    return _finish(arr, dt, requires_grad)


def _randint_signature_error(args: tuple) -> TypeError:
    opts = ("torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)")
    gen = "torch.Generator generator, Tensor out = None"
    got = ", ".join(type(a).__name__ for a in args)
    lines = [f" * ({head}, *, {out}, {opts}\n"
             for head in ("int high, tuple of ints size", "int low, int high, tuple of ints size")
             for out in (gen, "Tensor out = None")]
    return TypeError(f"randint() received an invalid combination of arguments - got ({got}), but "
                     "expected one of:\n" + "".join(lines))


def _float_bounds(low: int, high: int, dt: dtype) -> tuple[int, int]:
    """torch's ``update_from``/``update_to``: pull bounds the float type cannot hold inward."""
    digits = {"float16": 11, "float32": 24, "float64": 53}[dt.name]
    to_minus_1 = int(np.array(high - 1).astype(dt.np))
    if to_minus_1 >= high:
        high = to_minus_1 - (1 << (abs(high - 1).bit_length() - 1 - digits + 1))
    from_plus_1 = int(np.array(low + 1).astype(dt.np))
    if from_plus_1 < low:
        low = from_plus_1 + (1 << (abs(low + 1).bit_length() - 1 - digits + 1))
    if low >= high:
        raise RuntimeError("random_ expects 'from' casted to dtype to be less than 'to' casted "
                           f"to dtype, but got from={low} >= to={high}")
    return low, high


def _check_from_to(low: int, hi_incl: int, dt: dtype) -> None:
    """torch's ``check_from_to_in_range``: an error for integers, a warning for floats."""
    if dt.is_floating_point:
        digits, cname = {"float16": (11, "Half"), "float32": (24, "float"),
                         "float64": (53, "double")}[dt.name]
        for name, v in (("from", low), ("to - 1", hi_incl)):
            if not -(1 << digits) <= v <= 1 << digits:
                warnings.warn(
                    f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {cname} can support discrete uniform distribution only within "
                    "this range. This warning will become an error in version 1.7 release, "
                    "please fix the code in advance", UserWarning, stacklevel=3)
        return
    lo, hi = (0, 1) if dt.name == "bool" else (np.iinfo(dt.np).min, np.iinfo(dt.np).max)
    for name, v in (("from", low), ("to - 1", hi_incl)):
        if not lo <= v <= hi:
            raise RuntimeError(f"{name} is out of bounds for {_C_NAMES[dt.name]}")


def randint(low: Any = None, high: Any = None, size: Any = None, *,
            generator: Generator | None = None, dtype: dtype | None = None,
            device: Any = None, requires_grad: bool = False) -> Tensor:
    """Integers uniform on [low, high): ``r % (high - low) + low``."""
    _check_device(device)
    if low is None and high is not None:  # randint(high=5, size=(3,)): low defaults to 0
        low = 0
    args = tuple(a for a in (low, high, size) if a is not None)
    if size is None and isinstance(high, (tuple, list)):
        low, high, size = 0, low, high
    if high is None or not isinstance(size, (tuple, list)):
        raise _randint_signature_error(args)
    low, high = int(low), int(high)
    dt = dtype or int64
    shape = _size(tuple(size))
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    if dt.is_floating_point:
        low, high = _float_bounds(low, high, dt)
    _check_from_to(low, high - 1, dt)
    n = int(np.prod(shape, dtype=np.int64))
    span = (high - low) & 0xFFFFFFFFFFFFFFFF
    wide = span >= 1 << 28  # 64-bit draws keep the modulo skew small
    mt = _mt(generator)
    if not wide and -(1 << 63) <= low < (1 << 63):
        draws = mt.random(n)
        draws %= np.uint32(span)
        vals = draws.astype(np.int64)
        vals += low  # low <= value < high: no overflow
    else:
        draws = mt.random64(n) if wide else mt.random(n).astype(np.uint64)
        draws %= np.uint64(span)
        draws += np.uint64(low & 0xFFFFFFFFFFFFFFFF)  # wraps like torch's unsigned sum
        vals = draws.view(np.int64)
    return _finish(vals.astype(dt.np, copy=False).reshape(shape), dt, requires_grad)


def _swap_shuffle(draws: np.ndarray, n: int) -> np.ndarray:
    """``arange(n)`` after ``swap(p[i], p[j_i])``, ``j_i = i + draws[i] % (n - i)``, i < n - 1.

    Without the loop: position i is final after step i, and holds what position ``j_i`` held
    just before it -- ``j_i`` itself if no earlier step moved a value there, else the value
    ``W(m)`` that the last such step ``m`` moved, where ``W(k)``, what position k holds just
    before step k, is in turn ``W`` of the last step that moved a value into k (or k).  The
    moves are grouped by target with one sort, and the chains of ``W`` are followed by
    pointer jumping.
    """
    if n <= 1:
        return np.arange(n, dtype=np.int64)
    z = draws % np.arange(n, 1, -1, dtype=np.uint32)
    moved = np.flatnonzero(z)  # steps that swap with a later position
    if not moved.size:
        return np.arange(n, dtype=np.int64)
    key = z[moved].astype(np.int64)
    key += moved
    key <<= 32
    key |= moved
    key.sort()  # by target, then by step
    target, step = (key >> 32).astype(np.int32), key.astype(np.int32)
    first = np.empty(target.size, bool)  # the first move into its target
    first[0] = True
    np.not_equal(target[1:], target[:-1], out=first[1:])
    last = np.empty(target.size, bool)
    last[-1] = True
    last[:-1] = first[1:]
    w = np.arange(n, dtype=np.int32)  # w[k]: a step whose W(...) is W(k), until a root k
    w[target[last]] = step[last]
    while True:
        nxt = w[w]
        if np.array_equal(nxt, w):
            break
        w = nxt
    perm = w.astype(np.int64)  # steps that stay put, and the last position, hold W(k)
    carried = target.astype(np.int64)
    np.copyto(carried[1:], w[step[:-1]], where=~first[1:])
    perm[step] = carried
    return perm


def randperm(n: int, *, generator: Generator | None = None, dtype: dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """A random permutation of 0..n-1, shuffled the way torch does."""
    _check_device(device)
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"randperm(): argument 'n' (position 1) must be int, not "
                        f"{type(n).__name__}")
    n = int(n)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    dt = dtype or int64
    if dt.name == "bool":
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    if dt is float16 and n > 2049:
        raise RuntimeError("n cannot be greater than 2049 for Half type.")
    if not dt.is_floating_point and n > 0 and n - 1 > np.iinfo(dt.np).max:
        ctype = f"{dt.name}_t"
        raise RuntimeError(f"value cannot be converted to type {ctype} without overflow")
    mt = _mt(generator)
    if n < _RANDPERM_SMALL:
        perm = _swap_shuffle(mt.random(max(n - 1, 0)), n)
    else:  # inside-out Fisher-Yates with 64-bit draws
        zs = (mt.random64(n) % np.arange(1, n + 1, dtype=np.uint64)).tolist()
        perm = list(range(n))
        for i, z in enumerate(zs):
            perm[i] = perm[z]
            perm[z] = i
    return _finish(np.asarray(perm, np.int64).astype(dt.np, copy=False), dt, requires_grad)


def rand_like(t: Tensor, *, dtype: dtype | None = None, generator: Generator | None = None,
              device: Any = None, requires_grad: bool = False, layout: Any = None,
              memory_format: Any = None) -> Tensor:
    """Uniform samples shaped (and laid out) like ``t``."""
    _check_device(device)
    dt = dtype or t.dtype
    _need_float(dt, "check_uniform_bounds")
    arr = _empty_like(t._data, dt.np)
    _fill_uniform(arr, _mt(generator), dt, 0.0, 1.0)
    return _finish(arr, dt, requires_grad)


def randn_like(t: Tensor, *, dtype: dtype | None = None, generator: Generator | None = None,
               device: Any = None, requires_grad: bool = False, layout: Any = None,
               memory_format: Any = None) -> Tensor:
    """Standard normal samples shaped (and laid out) like ``t``."""
    _check_device(device)
    dt = dtype or t.dtype
    _need_float(dt, "normal_kernel_cpu")
    arr = _empty_like(t._data, dt.np)
    _normal_into(arr, 0.0, 1.0, _mt(generator))
    return _finish(arr, dt, requires_grad)


class _SampleBackward(Node):
    """A sampling op: torch defines its gradient as zero (no reparameterisation), zeros of
    each input's shape."""

    shapes: tuple = ()

    def backward(self, g: Any) -> Any:
        zeros = [None if nf[0] is None else
                 (g.new_zeros(shape) if isinstance(g, Tensor) else np.zeros(shape, g.dtype))
                 for nf, shape in zip(self.next_functions, self.shapes)]
        return zeros[0] if len(zeros) == 1 else tuple(zeros)


NormalBackward1 = type("NormalBackward1", (_SampleBackward,), {"__module__": __name__})
NormalBackward2 = type("NormalBackward2", (_SampleBackward,), {"__module__": __name__})
NormalBackward3 = type("NormalBackward3", (_SampleBackward,), {"__module__": __name__})
BernoulliBackward0 = type("BernoulliBackward0", (_SampleBackward,), {"__module__": __name__})
BernoulliScalarBackward = type("NotImplemented", (NotImplementedBackward,),
                               {"op": "bernoulli", "__module__": __name__})


def _sampled(arr: np.ndarray, dt: dtype, cls: type[Node], *inputs: Tensor) -> Tensor:
    """The samples ``arr`` as a tensor, with a zero-gradient node when an input requires grad
    (as torch records one)."""
    node = node_for(cls, *inputs)
    if node is not None and issubclass(cls, _SampleBackward):
        node.shapes = tuple(x.shape for x in inputs)
    out = _make(arr, dt, node)
    return out


def normal(mean: Any = 0.0, std: Any = 1.0, size: Any = None, *,
           generator: Generator | None = None, dtype: dtype | None = None,
           device: Any = None, requires_grad: bool = False) -> Tensor:
    """``torch.normal``: N(0, 1) samples, then ``* std + mean`` as torch composes them."""
    _check_device(device)
    mt = _mt(generator)
    mt_t, st_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not mt_t and not st_t:
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got "
                            "(float, float), but expected (Tensor mean, Tensor std), "
                            "(Tensor mean, float std), (float mean, Tensor std) or "
                            "(float mean, float std, tuple of ints size)")
        dt = dtype or get_default_dtype()
        _check_std(float(std))
        arr = np.empty(_size(tuple(size)), dt.np)
        _normal_into(arr, float(mean), float(std), mt)
        return _finish(arr, dt, requires_grad)
    if st_t and bool((std._data < 0).any()):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if mt_t and not st_t:  # normal_(0, std), then + mean
        _check_std(float(std))
        dt = mean.dtype
        arr = np.empty(mean.shape, dt.np)
        _normal_into(arr, 0.0, float(std), mt)
        return _sampled((arr + mean._data).astype(dt.np), dt, NormalBackward1, mean)
    dt = mean.dtype if mt_t else std.dtype  # normal_(0, 1), then * std + mean
    shape = np.broadcast_shapes(mean.shape, std.shape) if mt_t and st_t else std.shape
    arr = np.empty(tuple(shape), dt.np)
    _normal_into(arr, 0.0, 1.0, mt)
    m = mean._data if mt_t else np.asarray(mean, dt.np)
    data = ((arr * std._data).astype(dt.np) + m).astype(dt.np)
    if mt_t:
        return _sampled(data, dt, NormalBackward3, mean, std)
    return _sampled(data, dt, NormalBackward2, std)


def bernoulli(input: Tensor, p: float | None = None, *,
              generator: Generator | None = None) -> Tensor:
    """0/1 samples with probability ``input`` (or ``p`` for every element)."""
    mt = _mt(generator)
    if p is not None:
        arr = np.empty(input.shape, input.dtype.np)
        arr.reshape(-1)[...] = _bernoulli_scalar_values(mt, arr.size, p)
        return _sampled(arr, input.dtype, BernoulliScalarBackward, input)
    vals = _bernoulli_tensor_values(mt, np.ascontiguousarray(input._data).reshape(-1))
    return _sampled(vals.astype(input.dtype.np).reshape(input.shape), input.dtype,
                    BernoulliBackward0, input)
