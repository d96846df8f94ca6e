"""The in-place samplers ``uniform_``, ``normal_`` and ``bernoulli_`` (behind the Tensor
methods of the same names and ``nn.init``): torch's in-place checks, values in memory order,
a version bump."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..ops.inplace import check_inplace, check_overlap
from ..tensor import Tensor
from .generator import Generator, _mt
from .kernels import (
    _bernoulli_scalar_values,
    _bernoulli_tensor_values,
    _check_std,
    _fill_uniform,
    _fmt,
    _memory_order,
    _need_float,
    _normal_into,
    _write,
)


def _done(t: Tensor) -> Tensor:
    t._vc[0] += 1
    return t


def uniform_(t: Tensor, a: float = 0.0, b: float = 1.0, *,
             generator: Generator | None = None) -> Tensor:
    """Fill ``t`` with uniform samples on [a, b)."""
    check_inplace(t)
    _need_float(t.dtype, "check_uniform_bounds")
    a, b = float(a), float(b)
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={_fmt(a)} > to={_fmt(b)}")
    check_overlap(t, ())
    _fill_uniform(t._data, _mt(generator), t.dtype, a, b)
    return _done(t)


def normal_(t: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    """Fill ``t`` with samples of N(mean, std**2)."""
    check_inplace(t)
    _check_std(float(std))
    _need_float(t.dtype, "normal_kernel_cpu")
    check_overlap(t, ())
    _normal_into(t._data, float(mean), float(std), _mt(generator))
    return _done(t)


def bernoulli_(t: Tensor, p: Any = 0.5, *, generator: Generator | None = None) -> Tensor:
    """Fill ``t`` with 0/1 samples, 1 with probability ``p`` (a float or a tensor)."""
    check_inplace(t)
    mt = _mt(generator)
    if isinstance(p, Tensor):
        probs = np.broadcast_to(p._data, t.shape)
        order = _memory_order(t._data.shape, t._data.strides)
        flat = np.ascontiguousarray(probs.transpose(order)).reshape(-1)
        _write(t._data, _bernoulli_tensor_values(mt, flat).astype(t._data.dtype))
        return _done(t)
    _write(t._data, _bernoulli_scalar_values(mt, t.numel(), p).astype(t._data.dtype))
    return _done(t)
