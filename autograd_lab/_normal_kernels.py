"""torch's CPU normal-sampling kernels, reproduced bit for bit in numpy.

``normal_`` on a contiguous tensor of 16 or more elements first fills it with uniforms, then
turns each block of 16 into normals by Box-Muller: ``u1 = 1 - data[0:8]``, ``u2 = data[8:16]``,
``data[0:8] = sqrt(-2 log u1) cos(2 pi u2)``, ``data[8:16] = sqrt(-2 log u1) sin(2 pi u2)``;
when the size is not a multiple of 16 the last 16 values are drawn again and redone.

* float32 goes through ``normal_fill_16_AVX2`` (used on AVX2 and AVX-512 machines): the cephes
  ``log256_ps``/``sincos256_ps`` of ``avx_mathfun.h`` in float32, where the compiler fused a
  multiply into the add that follows it -- every Horner step, ``y * z + e * q1`` in the log
  (the ``y * z`` product fused), the last argument-reduction step ``x + y * DP3``, the cosine's
  ``y * z - z / 2`` and the sine's ``y * x + x``.  :func:`fill_f32` evaluates each fused step
  in float64 and rounds once to float32: for every one of the 2**24 uniforms a float32 draw can
  take, that float64 sum is exact, so the single rounding is the FMA's (checked exhaustively
  against torch).
* float64 goes through ``normal_fill`` with the C library's ``log``/``cos``/``sin``.
* Smaller or non-contiguous tensors take one double-precision Box-Muller pair per two values
  (``sqrt(-2 log1p(-u2))``, ``2 pi u1``), the second value cached in the generator.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ._fma import fma64

_F = np.float32
_LOG_P = [_F(v) for v in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                          1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                          3.3333331174e-1)]
_LOG_Q1 = _F(-2.12194440e-4)
_LOG_Q2 = _F(0.693359375)
_SQRTHF_BITS = int(np.array(0.707106781186547524, np.float32).view(np.int32))
_DP1, _DP2, _DP3 = _F(-0.78515625), _F(-2.4187564849853515625e-4), _F(-3.77489497744594108e-8)
_SIN_P = [_F(v) for v in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)]
_COS_P = [_F(v) for v in (2.443315711809948e-005, -1.388731625493765e-003,
                          4.166664568298827e-002)]
_FOPI = _F(1.27323954473516)  # 4 / pi
_TWO_PI = _F(2.0 * math.pi)
_CHUNK = 16384  # Box-Muller pairs per batch: keeps the temporaries in cache
_PARALLEL_ROWS = 8192  # blocks of 16 per batch handed to a thread


class _Work:
    """Scratch arrays for one batch, so every numpy call writes into memory it already has."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.f64 = [np.empty(n) for _ in range(4)]
        self.f32 = [np.empty(n, np.float32) for _ in range(12)]
        self.i32 = [np.empty(n, np.int32) for _ in range(5)]
        self.b = np.empty(n, np.bool_)

    def view(self, k: int) -> _Work:
        """The same buffers cut to the first ``k`` elements."""
        w = object.__new__(_Work)
        w.n, w.f64, w.f32 = k, [a[:k] for a in self.f64], [a[:k] for a in self.f32]
        w.i32, w.b = [a[:k] for a in self.i32], self.b[:k]
        return w

    def fma(self, y: np.ndarray, b: np.ndarray | np.float32, c: np.ndarray | float) -> None:
        """``y = fma(y, b, c)`` in float32 (float64 ``b``/``c`` arrays hold float32 values).

        For every input this kernel sees, ``y * b + c`` is exact in float64, so casting the
        float64 result to float32 is the fused operation's single rounding.
        """
        buf = self.f64[0]
        np.copyto(buf, y)
        np.multiply(buf, b, out=buf)
        np.add(buf, c, out=y, casting="unsafe")


def _log256(x: np.ndarray, w: _Work, out: np.ndarray) -> None:
    """``out = log256_ps(x)`` for x in [2**-24, 1] (x is clobbered)."""
    bits = x.view(np.int32)
    mant, e_i = w.i32[0], w.i32[1]
    small = w.b
    np.bitwise_and(bits, 0x007FFFFF, out=mant)
    np.bitwise_or(mant, 0x3F000000, out=mant)  # x = mant * 2**e with mant in [0.5, 1)
    np.less(mant, _SQRTHF_BITS, out=small)
    np.right_shift(bits, 23, out=e_i)
    np.subtract(e_i, small, out=e_i)
    eq1, eq2, z = w.f32[0], w.f32[1], w.f32[2]
    np.subtract(e_i, 126, out=eq1, casting="unsafe")  # e, as float
    np.multiply(eq1, _LOG_Q2, out=eq2)
    np.multiply(eq1, _LOG_Q1, out=eq1)
    m = mant.view(np.float32)
    xm = out  # mant - 1, or 2 mant - 1 where mant < sqrt(1/2) (both exact)
    np.subtract(m, _F(1), out=xm)
    np.multiply(m, small, out=x)
    np.add(xm, x, out=xm)
    np.multiply(xm, xm, out=z)
    x64, y = w.f64[1], w.f32[3]
    np.copyto(x64, xm)
    buf = w.f64[0]
    np.multiply(x64, _LOG_P[0], out=buf)
    np.add(buf, _LOG_P[1], out=y, casting="unsafe")
    for p in _LOG_P[2:]:
        w.fma(y, x64, p)
    np.multiply(y, xm, out=y)
    z64, eq1_64 = w.f64[2], w.f64[3]
    np.copyto(z64, z)
    np.copyto(eq1_64, eq1)
    w.fma(y, z64, eq1_64)
    np.multiply(z, _F(0.5), out=z)
    np.subtract(y, z, out=y)
    np.add(xm, y, out=out)
    np.add(out, eq2, out=out)


def _sincos256(x: np.ndarray, w: _Work, sin: np.ndarray, cos: np.ndarray) -> None:
    """``sincos256_ps`` for x in [0, 2 pi) (x is clobbered)."""
    j, t1, t2 = w.i32[2], w.i32[3], w.i32[4]
    y, z, yc, ys = w.f32[4], w.f32[5], w.f32[6], w.f32[7]
    np.multiply(x, _FOPI, out=y)
    np.copyto(j, y, casting="unsafe")  # truncation, as cvttps
    np.add(j, 1, out=j)
    np.right_shift(j, 1, out=j)  # k: the AVX code's even j = (j + 1) & ~1, halved
    np.copyto(y, j)
    np.multiply(y, _DP1 * 2, out=z)  # k * 2 DP = j * DP exactly; these two are exact products,
    np.add(x, z, out=x)  # so fused or not is the same
    np.multiply(y, _DP2 * 2, out=z)
    np.add(x, z, out=x)
    x64, z64 = w.f64[1], w.f64[2]
    np.copyto(x64, x)
    w.fma(y, _DP3 * 2, x64)
    x = y
    np.multiply(x, x, out=z)
    np.copyto(z64, z)
    np.copyto(x64, x)
    buf = w.f64[0]
    np.multiply(z64, _COS_P[0], out=buf)
    np.add(buf, _COS_P[1], out=yc, casting="unsafe")
    w.fma(yc, z64, _COS_P[2])
    np.multiply(yc, z, out=yc)
    half = w.f64[3]
    np.multiply(z64, -0.5, out=half)  # -(z * 0.5), exact
    w.fma(yc, z64, half)
    np.add(yc, _F(1), out=yc)
    np.multiply(z64, _SIN_P[0], out=buf)
    np.add(buf, _SIN_P[1], out=ys, casting="unsafe")
    w.fma(ys, z64, _SIN_P[2])
    np.multiply(ys, z, out=ys)
    w.fma(ys, x64, x64)
    # Pick the polynomial and set the signs with bit operations, as the AVX code does: for
    # odd k the sine comes from the cosine polynomial and vice versa; the sine is negative for
    # k in {2, 3} and the cosine for k in {1, 2}.
    cb, sb = yc.view(np.int32), ys.view(np.int32)
    sin_b, cos_b = sin.view(np.int32), cos.view(np.int32)
    odd, swap, flip = t1, t2, w.i32[0]
    np.left_shift(j, 31, out=odd)  # sign bit set for odd k
    np.right_shift(odd, 31, out=swap)  # all ones for odd k
    np.bitwise_xor(cb, sb, out=flip)
    np.bitwise_and(flip, swap, out=swap)
    np.bitwise_xor(sb, swap, out=sin_b)
    np.bitwise_xor(cb, swap, out=cos_b)
    np.bitwise_and(j, 2, out=flip)
    np.left_shift(flip, 30, out=flip)  # sign bit set for k in {2, 3}
    np.bitwise_xor(sin_b, flip, out=sin_b)
    np.bitwise_xor(flip, odd, out=flip)  # sign bit set for k in {1, 2}
    np.bitwise_xor(cos_b, flip, out=cos_b)


def _fill_rows(u: np.ndarray, out: np.ndarray) -> None:
    """``normal_fill_16_AVX2`` on each row of 16 uniforms of ``u``, into the rows of ``out``."""
    rows = max(1, _CHUNK // 8)
    work = _Work(min(u.shape[0], rows) * 8)
    for s in range(0, u.shape[0], rows):
        blk = u[s:s + rows]
        k = blk.shape[0] * 8
        w = work if k == work.n else work.view(k)
        a, b = w.f32[9], w.f32[10]
        radius, sin, cos = w.f32[11], w.f32[0], w.f32[1]
        np.subtract(_F(1), blk[:, :8], out=a.reshape(-1, 8))
        _log256(a, w, radius)
        np.multiply(radius, _F(-2), out=radius)
        np.sqrt(radius, out=radius)
        np.multiply(_TWO_PI, blk[:, 8:], out=b.reshape(-1, 8))
        _sincos256(b, w, sin, cos)
        np.multiply(radius.reshape(-1, 8), cos.reshape(-1, 8), out=out[s:s + rows, :8])
        np.multiply(radius.reshape(-1, 8), sin.reshape(-1, 8), out=out[s:s + rows, 8:])


_POOL: dict = {}  # pid -> thread pool; numpy releases the GIL inside each call


def _pool() -> ThreadPoolExecutor:
    """The worker threads, made on first use (and again in a forked child, which has none)."""
    pid = os.getpid()
    if pid not in _POOL:
        _POOL.clear()
        _POOL[pid] = ThreadPoolExecutor(min(4, os.cpu_count() or 1),
                                        thread_name_prefix="normal_fill")
    return _POOL[pid]


def fill_f32(draw: Callable[[int], np.ndarray], out: np.ndarray) -> None:
    """torch's ``normal_fill`` for float32: ``out`` (flat, 16 or more values) gets normals.

    ``draw(k)`` returns the next ``k`` float32 uniforms of the stream.  All ``n`` uniforms are
    drawn, blocks of 16 are transformed, then (when 16 does not divide ``n``) 16 more are drawn
    for the last 16 values.  Large fills hand batches of blocks to threads while the next batch
    is drawn; each block's result does not depend on how the work is split.
    """
    n = out.size
    rows = out[:n - n % 16].reshape(-1, 16)
    batches = range(0, rows.shape[0], _PARALLEL_ROWS)
    if len(batches) < 2 or (os.cpu_count() or 1) < 2:
        _fill_rows(draw(n)[:rows.size].reshape(-1, 16), rows)
    else:
        jobs = []
        for a in batches:  # draw the next batch while the threads work on the previous ones
            part = rows[a:a + _PARALLEL_ROWS]
            jobs.append(_pool().submit(_fill_rows, draw(part.size).reshape(-1, 16), part))
        draw(n % 16)  # drawn, then redone below
        for job in jobs:
            job.result()
    if n % 16:  # the last 16 values are drawn again and redone
        _fill_rows(draw(16).reshape(1, 16), out[n - 16:].reshape(1, 16))


def fill16_f64(u: np.ndarray, out: np.ndarray) -> None:
    """``normal_fill_16`` in double precision (C library log, cos, sin), shapes (blocks, 16)."""
    u1 = (1.0 - u[:, :8]).ravel()
    log = np.frompyfunc(math.log, 1, 1)(u1).astype(np.float64).reshape(-1, 8)  # libm's log
    radius = np.sqrt(-2.0 * log)
    theta = (2.0 * math.pi) * u[:, 8:]
    np.multiply(radius, np.cos(theta), out=out[:, :8])
    np.multiply(radius, np.sin(theta), out=out[:, 8:])


def serial_pairs(u: np.ndarray) -> np.ndarray:
    """Box-Muller pairs ``(r cos t, r sin t)`` from double uniforms ``(u1, u2)`` per row, with
    ``r = sqrt(-2 log1p(-u2))`` and ``t = 2 pi u1`` (the C library's ``log1p``)."""
    log1p = np.frompyfunc(math.log1p, 1, 1)(-u[:, 1]).astype(np.float64)
    r = np.sqrt(-2.0 * log1p)
    theta = (2.0 * math.pi) * u[:, 0]
    return np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1)


def scale(n: np.ndarray, mean: float, std: float) -> np.ndarray:
    """``n * std + mean`` in float64 with one rounding (torch's fused multiply-add)."""
    if (mean, std) == (0.0, 1.0):
        return n + 0.0  # only turns -0.0 into 0.0
    return fma64(n, std, mean)
