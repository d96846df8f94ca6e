"""How 32-bit draws become values, in the order and with the roundings of torch's CPU kernels.

* float32 (and float16) uniform: ``(r & (2**24 - 1)) * 2**-24`` from one draw ``r``; float64:
  the low 53 bits of a 64-bit draw ``(r1 << 32) | r2``, times ``2**-53``; then
  ``u * (to - from) + from`` rounded once (the kernel is compiled with FMA), and a value that
  rounds up to ``to`` becomes ``from``.
* normal: see :mod:`.normal_kernels` (16-value blocks for contiguous tensors of 16 or more
  elements, otherwise double Box-Muller with the second value cached in the generator).
* Bernoulli: ``u < p`` with a float uniform for float32 ``p`` and a double one otherwise.

Non-contiguous tensors are filled in memory order, the order torch's TensorIterator visits.
"""

from __future__ import annotations

import math

import numpy as np

from .._dtype import dtype, float32, float64, from_numpy_dtype
from .._fma import fma32, fma64
from .._messages import scalar_name as _scalar_name
from . import normal_kernels as K
from .mt19937 import MT19937

_MASK24 = np.uint32((1 << 24) - 1)
_MASK21 = np.uint64((1 << 21) - 1)
_BATCH = 1 << 15  # values per batch of draws


# ---- checks and messages shared by the samplers -------------------------------------------

def _dtype_of(arr: np.ndarray) -> dtype:
    return from_numpy_dtype(arr.dtype)


def _need_float(dt: dtype, kernel: str) -> None:
    if not dt.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(dt)}\'')


def _fmt(x: float) -> str:
    """A double as C++ streams print it."""
    return f"{x:g}"


def _check_std(std: float) -> None:
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_fmt(std)}")


# ---- memory order -------------------------------------------------------------------------

def _memory_order(shape: tuple, strides: tuple) -> tuple:
    """Axes from outermost to innermost as TensorIterator walks them (by decreasing stride)."""
    axes = [d for d in range(len(shape))]
    return tuple(sorted(axes, key=lambda d: -abs(strides[d]) if shape[d] > 1 else 0))


def _write(arr: np.ndarray, values: np.ndarray) -> None:
    """Store ``values`` (flat, one per element) into ``arr`` in memory order."""
    if arr.flags.c_contiguous:
        arr.reshape(-1)[...] = values
        return
    order = _memory_order(arr.shape, arr.strides)
    view = arr.transpose(order)
    view[...] = values.reshape(view.shape)


def _empty_like(arr: np.ndarray, np_dtype: np.dtype) -> np.ndarray:
    """``empty_like`` with torch's preserve_format: dense, axes in the same memory order."""
    if arr.flags.c_contiguous or arr.ndim < 2:
        return np.empty(arr.shape, np_dtype)
    order = _memory_order(arr.shape, arr.strides)
    base = np.empty(tuple(arr.shape[d] for d in order), np_dtype)
    return base.transpose(np.argsort(order))


# ---- value kernels (flat arrays in the order torch produces them) --------------------------

def _batches(n: int, size: int = _BATCH) -> range:
    """Starts of the batches a fill of ``n`` values is made in, so that each batch of draws
    and its temporaries stay in the CPU cache."""
    return range(0, n, size)


def _unit_doubles_into(mt: MT19937, out: np.ndarray) -> None:
    """``out`` (flat float64) gets double uniforms: the low 53 bits of ``random64()``, / 2**53."""
    for s in _batches(out.size):
        part = out[s:s + _BATCH]
        r = mt.random(2 * part.size).astype("<u4", copy=False).view("<u8")  # second, first
        hi = r & _MASK21
        hi <<= np.uint64(32)
        r >>= np.uint64(32)
        hi |= r  # (first << 32 | second) & (2**53 - 1)
        np.copyto(part, hi.view(np.int64), casting="unsafe")
        np.multiply(part, 2.0 ** -53, part)


def _unit_uniform_double(mt: MT19937, n: int) -> np.ndarray:
    out = np.empty(n)
    _unit_doubles_into(mt, out)
    return out


def _sum_is_exact(a: np.float32, d: np.float32) -> bool:
    """Whether ``k / 2**24 * d + a`` is exact in float64 for every 24-bit ``k``: the product
    is a multiple of ulp(d) / 2**24 below 2 d, so the sum fits 53 bits when the exponents
    of ``a`` and ``d`` are close."""
    if not (np.isfinite(a) and np.isfinite(d)):
        return False
    if a == 0 or d == 0:
        return True
    return -28 <= math.frexp(float(a))[1] - math.frexp(float(d))[1] <= 4


def _uniform_into(mt: MT19937, out: np.ndarray, dt: dtype, a: float, b: float) -> None:
    """``uniform_`` values into flat contiguous ``out``: ``u * (b - a) + a`` rounded once; a
    result that rounds up to ``b`` becomes ``a``.

    float64 uses 53-bit double uniforms; float32 and float16 use 24-bit float uniforms and
    float arithmetic (float16 rounds the float result at the end).
    """
    if dt is float64:
        _unit_doubles_into(mt, out)
        if (a, b) != (0.0, 1.0):
            out[...] = fma64(out, b - a, a)
            out[out >= b] = a  # keep the range half-open after rounding
        return
    lo32 = np.float32(a)
    d32 = np.float32(b) - lo32  # torch subtracts in float
    lo, hi = dt.np.type(a), dt.np.type(b)
    if dt is float32 and (a, b) == (0.0, 1.0):
        for s in _batches(out.size):
            part = out[s:s + _BATCH]
            r = mt.random(part.size)
            np.bitwise_and(r, _MASK24, r)
            np.copyto(part, r, casting="unsafe")
            np.multiply(part, np.float32(2.0 ** -24), part)  # x * 1 + 0 is x, and x < 1
        return
    if dt is float32 and _sum_is_exact(lo32, d32):
        # the product and the sum are exact in float64: one rounding, the fused one
        scale, shift = np.float64(d32) * 2.0 ** -24, np.float64(lo32)
        top = np.float32(np.float64(_MASK24) * scale + shift)  # the largest value, rounded
        buf = np.empty(min(out.size, _BATCH))
        for s in _batches(out.size):
            part = out[s:s + _BATCH]
            r = mt.random(part.size)
            np.bitwise_and(r, _MASK24, r)
            x = buf[:part.size]
            np.copyto(x, r)
            np.multiply(x, scale, x)
            np.add(x, shift, x)
            np.copyto(part, x)
            if top >= hi:
                np.copyto(part, lo, where=part >= hi)
        return
    for s in _batches(out.size):
        part = out[s:s + _BATCH]
        r = mt.random(part.size)
        np.bitwise_and(r, _MASK24, r)
        x = r.astype(np.float32)
        np.multiply(x, np.float32(2.0 ** -24), x)
        v = fma32(x, d32, lo32).astype(dt.np)
        v[v >= hi] = lo
        part[...] = v


def _fill_uniform(arr: np.ndarray, mt: MT19937, dt: dtype, a: float, b: float) -> None:
    """``arr`` gets ``uniform_`` values in memory order."""
    if arr.flags.c_contiguous:
        _uniform_into(mt, arr.reshape(-1), dt, a, b)
    else:
        _write(arr, _uniform(mt, arr.size, dt, a, b))


def _uniform(mt: MT19937, n: int, dt: dtype, a: float, b: float) -> np.ndarray:
    """``n`` ``uniform_`` values (see :func:`_uniform_into`)."""
    out = np.empty(n, dt.np)
    _uniform_into(mt, out, dt, a, b)
    return out


def _normal_serial(mt: MT19937, n: int, mean: float, std: float) -> np.ndarray:
    """``normal_distribution<double>(mean, std)`` ``n`` times, using and refilling the cache."""
    head = []
    if n and mt.double_normal is not None:
        head, mt.double_normal = [mt.double_normal], None
    m = n - len(head)
    pairs = (m + 1) // 2
    u = _unit_uniform_double(mt, 2 * pairs).reshape(-1, 2)
    vals = K.serial_pairs(u).reshape(-1)
    if m % 2:
        mt.double_normal = float(vals[-1])
    out = np.concatenate([np.array(head, np.float64), vals[:m]])
    return K.scale(out, mean, std)


def _normal_blocks(mt: MT19937, out: np.ndarray, mean: float, std: float) -> None:
    """torch's ``normal_fill`` into ``out`` (flat, contiguous, float32/64, 16 or more values)."""
    if out.dtype == np.float32:
        K.fill_f32(mt.random, out, mean, std)
        return
    n = out.size
    full = n - n % 16
    u = _uniform(mt, n, float64, 0.0, 1.0)
    K.fill16_f64(u[:full].reshape(-1, 16), out[:full].reshape(-1, 16))
    if n % 16:  # the last 16 values are drawn again and redone
        tail = _uniform(mt, 16, float64, 0.0, 1.0)
        K.fill16_f64(tail.reshape(1, 16), out[n - 16:].reshape(1, 16))
    out[...] = K.scale(out, mean, std)


def _normal_half(mt: MT19937, n: int, mean: float, std: float) -> np.ndarray:
    """float16 blocks: whole blocks of 16 float uniforms (the last one cut), float math.

    The draws match torch; the values are float Box-Muller, which torch's vectorised half
    kernel reproduces for most but not all elements.
    """
    blocks = -(-n // 16)
    u = _uniform(mt, 16 * blocks, float32, 0.0, 1.0).reshape(-1, 16).astype(np.float64)
    radius = np.sqrt(-2.0 * np.log(1.0 - u[:, :8])).astype(np.float32)
    theta = (np.float32(2.0 * np.pi) * u[:, 8:].astype(np.float32)).astype(np.float64)
    out = np.concatenate([radius * np.cos(theta).astype(np.float32),
                          radius * np.sin(theta).astype(np.float32)], axis=1).reshape(-1)[:n]
    return fma32(out, np.float32(std), np.float32(mean)).astype(np.float16)


def _normal_into(arr: np.ndarray, mean: float, std: float, mt: MT19937) -> None:
    """Fill a float array as torch's ``normal_`` does: block kernel or serial Box-Muller."""
    n = arr.size
    if n >= 16 and arr.flags.c_contiguous and arr.dtype != np.float16:
        _normal_blocks(mt, arr.reshape(-1), mean, std)
    elif n >= 16 and arr.flags.c_contiguous:
        arr.reshape(-1)[...] = _normal_half(mt, n, mean, std)
    else:
        _write(arr, _normal_serial(mt, n, mean, std).astype(arr.dtype))


def _bernoulli_tensor_values(mt: MT19937, p: np.ndarray) -> np.ndarray:
    """``u < p`` per element of ``p`` (flat, iteration order); float32 p uses float uniforms."""
    if p.dtype not in (np.float32, np.float64):
        raise NotImplementedError("\"bernoulli_tensor_cpu_p_\" not implemented for "
                                  f"'{_scalar_name(_dtype_of(p))}'")
    bad = ~((p >= 0) & (p <= 1))
    count = int(np.argmax(bad)) if bad.any() else p.size
    if p.dtype == np.float64:
        u = _unit_uniform_double(mt, count)
    else:
        u = (mt.random(count) & _MASK24).astype(np.float32) * np.float32(2.0 ** -24)
    if count < p.size:
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                           "this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    return u < p.astype(u.dtype)


def _bernoulli_scalar_values(mt: MT19937, n: int, p: float) -> np.ndarray:
    """``u < p`` with double uniforms, ``n`` times."""
    p = float(p)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_fmt(p)}")
    return _unit_uniform_double(mt, n) < p
