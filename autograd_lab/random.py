"""Random numbers: a global generator and ``Generator`` objects.

Seeded with ``manual_seed``; every sampler draws from the generator's stream, so
a sequence of calls is reproducible.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._dtype import dtype, get_default_dtype, int64
from .factories import _finish, _size
from .tensor import Tensor, _make


class Generator:
    """A random-number stream (``torch.Generator``)."""

    def __init__(self, device: Any = "cpu") -> None:
        self._seed = 67280421310721
        self._rng = np.random.Generator(np.random.MT19937(self._seed))

    def manual_seed(self, seed: int) -> Generator:
        seed = int(seed)
        self._seed = seed
        self._rng = np.random.Generator(np.random.MT19937(seed & 0xFFFFFFFFFFFFFFFF))
        return self

    def initial_seed(self) -> int:
        return self._seed

    def seed(self) -> int:
        s = int(np.random.SeedSequence().entropy) & 0xFFFFFFFFFFFFFFFF
        self.manual_seed(s)
        return s

    def get_state(self) -> Tensor:
        state = self._rng.bit_generator.state
        key = state["state"]["key"].astype(np.uint32)
        arr = np.concatenate([key.view(np.uint8),
                              np.array([state["state"]["pos"]], dtype=np.int64).view(np.uint8)])
        return _make(arr, _uint8(), None)

    def set_state(self, new_state: Tensor) -> Generator:
        raw = new_state._data
        key = raw[:624 * 4].view(np.uint32)
        pos = int(raw[624 * 4:].view(np.int64)[0])
        bg = np.random.MT19937()
        bg.state = {"bit_generator": "MT19937", "state": {"key": key.copy(), "pos": pos}}
        self._rng = np.random.Generator(bg)
        return self


def _uint8() -> dtype:
    from ._dtype import uint8

    return uint8


default_generator = Generator()


def manual_seed(seed: int) -> Generator:
    """Seed the global generator (``torch.manual_seed``)."""
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    return default_generator.initial_seed()


def seed() -> int:
    return default_generator.seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(state: Tensor) -> None:
    default_generator.set_state(state)


def _gen(generator: Generator | None) -> np.random.Generator:
    return (generator or default_generator)._rng


def _float_dt(dt: dtype | None, name: str) -> dtype:
    dt = dt or get_default_dtype()
    if not dt.is_floating_point:
        raise RuntimeError(f'"{name}" not implemented for \'{dt.name}\'')
    return dt


def rand(*size: Any, generator: Generator | None = None, dtype: dtype | None = None,
         device: Any = None, requires_grad: bool = False) -> Tensor:
    dt = _float_dt(dtype, "check_uniform_bounds")
    arr = _gen(generator).random(_size(size), dtype=np.float64).astype(dt.np)
    return _finish(arr, dt, requires_grad)


def randn(*size: Any, generator: Generator | None = None, dtype: dtype | None = None,
          device: Any = None, requires_grad: bool = False) -> Tensor:
    dt = _float_dt(dtype, "normal_kernel_cpu")
    arr = _gen(generator).standard_normal(_size(size)).astype(dt.np)
    return _finish(arr, dt, requires_grad)


def randint(low: int, high: int | None = None, size: Any = None, *,
            generator: Generator | None = None, dtype: dtype | None = None,
            device: Any = None, requires_grad: bool = False) -> Tensor:
    if high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing 1 required positional arguments: \"size\"")
    dt = dtype or int64
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    arr = _gen(generator).integers(low, high, _size(tuple(size))).astype(dt.np)
    return _finish(arr, dt, requires_grad)


def randperm(n: int, *, generator: Generator | None = None, dtype: dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    dt = dtype or int64
    return _finish(_gen(generator).permutation(n).astype(dt.np), dt, requires_grad)


def rand_like(t: Tensor, *, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    return rand(t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def randn_like(t: Tensor, *, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    return randn(t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def normal(mean: Any = 0.0, std: Any = 1.0, size: Any = None, *,
           generator: Generator | None = None) -> Tensor:
    if size is not None:
        arr = _gen(generator).normal(mean, std, _size(tuple(size)))
        return _finish(arr.astype(get_default_dtype().np), get_default_dtype(), False)
    m = mean._data if isinstance(mean, Tensor) else mean
    s = std._data if isinstance(std, Tensor) else std
    shape = np.broadcast_shapes(np.shape(m), np.shape(s))
    dt = mean.dtype if isinstance(mean, Tensor) else std.dtype
    return _finish((m + s * _gen(generator).standard_normal(shape)).astype(dt.np), dt, False)


def bernoulli(p: Tensor, *, generator: Generator | None = None) -> Tensor:
    arr = (_gen(generator).random(p._data.shape) < p._data).astype(p.dtype.np)
    return _make(arr, p.dtype, None)


# ---- in-place samplers (used by nn.init) -------------------------------------------------

def uniform_(t: Tensor, a: float = 0.0, b: float = 1.0, *,
             generator: Generator | None = None) -> Tensor:
    from .ops.inplace import check_inplace

    check_inplace(t)
    t._data[...] = _gen(generator).uniform(a, b, t._data.shape)
    t._vc[0] += 1
    return t


def normal_(t: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    from .ops.inplace import check_inplace

    check_inplace(t)
    t._data[...] = mean + std * _gen(generator).standard_normal(t._data.shape)
    t._vc[0] += 1
    return t


def bernoulli_(t: Tensor, p: float = 0.5, *, generator: Generator | None = None) -> Tensor:
    from .ops.inplace import check_inplace

    check_inplace(t)
    t._data[...] = _gen(generator).random(t._data.shape) < p
    t._vc[0] += 1
    return t
