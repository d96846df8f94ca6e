"""torch's CPU normal-sampling kernels, reproduced bit for bit in numpy.

``normal_`` on a contiguous tensor of 16 or more elements first fills it with uniforms, then
turns each block of 16 into normals by Box-Muller: ``u1 = 1 - data[0:8]``, ``u2 = data[8:16]``,
``data[0:8] = sqrt(-2 log u1) cos(2 pi u2)``, ``data[8:16] = sqrt(-2 log u1) sin(2 pi u2)``,
each then ``* std + mean`` fused; when the size is not a multiple of 16 the last 16 values are
drawn again and redone.

* float32 goes through ``normal_fill_16_AVX2`` (used on AVX2 and AVX-512 machines): the cephes
  ``log256_ps``/``sincos256_ps`` of ``avx_mathfun.h`` in float32, where the compiler fused a
  multiply into the add that follows it -- every Horner step, ``y * z + e * q1`` in the log
  (the ``y * z`` product fused), the last argument-reduction step ``x + y * DP3``, the cosine's
  ``y * z - z / 2`` and the sine's ``y * x + x``.  Each fused step is evaluated in float64,
  where it is exact, and rounded once to float32 (see :func:`_minus_two_log` and
  :func:`_sincos` for the cheaper roundings used where they give the same results).  Every
  such claim is checked by the test suite against torch on all 2**24 uniforms a float32 draw
  can give (the log sees only the first uniform of a pair and the sine and cosine only the
  second, so that covers every input).
* float64 goes through ``normal_fill`` with the C library's ``log``/``cos``/``sin``.
* Smaller or non-contiguous tensors take one double-precision Box-Muller pair per two values
  (``sqrt(-2 log1p(-u2))``, ``2 pi u1``), the second value cached in the generator.

The float32 kernel runs over batches of a few thousand blocks, drawn as they are needed, so
that the draws and the ~100 numpy passes over them stay in the CPU cache.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .._fma import double_rounding_risk, fma32, fma64

_F, _D, _I = np.float32, np.float64, np.int32
_LOG_P = [_F(v) for v in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                          1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                          3.3333331174e-1)]
_LOG_P64 = [_D(p) for p in _LOG_P]
_LOG_Q1, _LOG_Q2 = _F(-2.12194440e-4), _F(0.693359375)
_M2_Q1, _M2_Q2 = _F(-2) * _LOG_Q1, _F(-2) * _LOG_Q2
_SQRTHF_BITS = int(np.array(0.707106781186547524, np.float32).view(np.int32))
_DP = [_F(-0.78515625), _F(-2.4187564849853515625e-4), _F(-3.77489497744594108e-8)]
_SIN_P = [_F(v) for v in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)]
_COS_P = [_F(v) for v in (2.443315711809948e-005, -1.388731625493765e-003,
                          4.166664568298827e-002)]
_FOPI = _F(1.27323954473516)  # 4 / pi
_TWO_PI = _F(2.0 * math.pi)

# -- constants of the float32 kernel in the forms the numpy passes use -------------------------
_MASK24 = _I((1 << 24) - 1)
# (r | 0xff000000) as int32 is (r & 0xffffff) - 2**24 = -N, with u1 = 1 - k / 2**24 = N / 2**24.
_HIGH8 = _I(-(1 << 24))
# bits(u1) = bits(float(-N)) - sign bit - 24 exponent steps; cephes' ix is bits(u1) - SQRTHF
# (int32 arithmetic wraps).
_IX_OFFSET = np.array((1 << 31) + (24 << 23) + _SQRTHF_BITS, np.uint32).view(_I)[()]
_MANT, _SQRTHF, _I23, _I1, _I2, _I30, _I31 = (_I(v) for v in (
    0x7FFFFF, _SQRTHF_BITS, 23, 1, 2, 30, 31))
_ONE, _MINUS_TWO = _F(1), _F(-2)
_THETA_SCALE = _F(_TWO_PI * _F(2.0 ** -24))  # 2 pi (k / 2**24) rounded once = k * this, rounded
# x - j pi/4 in three parts (j = 2k): the first two products and sums are exact, so the whole
# reduction is one float64 sum rounded once -- the fused last step.
_DSUM = _D(2 * sum(float(d) for d in _DP))
# Rounding a float64 to float32 precision in place on its bits: add half a float32 unit and
# drop the bits below.  That rounds ties away from zero instead of to even, which changes no
# result in the steps it is used for (exhaustively checked).
_ROUND_ADD, _ROUND_MASK = np.int64(1 << 28), np.int64(~((1 << 29) - 1))


# The first two steps of each trigonometric polynomial keep their results in one binade
# [2**b, 2**(b + 1)); there, with M = 1.5 * 2**(b + 29), (v + M) - M in float64 rounds v to
# float32's precision, ties to even, as one float32 FMA would.
_M_C1, _M_C2, _M_S1, _M_S2 = (_D(1.5 * 2.0 ** (b + 29)) for b in (-10, -5, -7, -3))
_PM_C1, _PM_C2 = _D(_COS_P[1]) + _M_C1, _D(_COS_P[2]) + _M_C2
_PM_S1, _PM_S2 = _D(_SIN_P[1]) + _M_S1, _D(_SIN_P[2]) + _M_S2
_C_P0, _S_P0, _MINUS_HALF = _D(_COS_P[0]), _D(_SIN_P[0]), _D(-0.5)
_V32 = np.dtype("V32")  # 8 float32: half a block, moved as one item
_BATCH_ROWS = 2048  # blocks of 16 per batch


class _Scratch:
    """Work arrays for ``n`` log/sincos lanes, so that every numpy call writes into memory it
    already has."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.d = [np.empty(n, _D) for _ in range(4)]
        self.f = [np.empty(n, _F) for _ in range(7)]
        self.i = [np.empty(n, _I) for _ in range(3)]
        self.draws = np.empty((2, n // 8, 8), np.uint32)  # de-interleaved u1 and u2 draws
        self.normals = np.empty((2, n), _F)  # cos and sin halves


def _round_bits(bits: np.ndarray) -> None:
    """Round float64 values (viewed as int64 ``bits``) to float32 precision, in place."""
    np.add(bits, _ROUND_ADD, bits)
    np.bitwise_and(bits, _ROUND_MASK, bits)


def _minus_two_log(k: np.ndarray, s: _Scratch) -> np.ndarray:
    """``-2 * log256_ps(1 - (k & 0xffffff) / 2**24)`` for uint32 draws ``k`` (clobbered).

    The steps after the polynomial run on values scaled by -2 (exact, and rounding commutes
    with it), which folds the final ``* -2`` into constants.  Only the sign of a zero
    result differs: ``+0`` where torch has ``-0``.
    """
    mul, add, sub, cp = np.multiply, np.add, np.subtract, np.copyto
    f0, f1, f2, f3 = s.f[:4]
    i0, i1 = s.i[:2]
    x64, z64, buf, e64 = s.d
    bits = buf.view(np.int64)
    i = k.view(_I)
    np.bitwise_or(i, _HIGH8, i)
    cp(f0, i, "unsafe")  # -N exactly
    sub(f0.view(_I), _IX_OFFSET, i0)  # cephes: u1 = m * 2**e, m in [sqrt(1/2), sqrt(2))
    np.right_shift(i0, _I23, i1)  # e
    np.bitwise_and(i0, _MANT, i0)
    add(i0, _SQRTHF, i0)  # bits of m
    x, ef, z, y = f0, f1, f2, f3
    sub(i0.view(_F), _ONE, x)  # x = m - 1, exact
    cp(ef, i1, "unsafe")
    mul(x, x, z)
    cp(x64, x)
    cp(z64, z)
    mul(ef, _M2_Q1, y)
    cp(e64, y)  # -2 * e * q1, rounded
    mul(ef, _M2_Q2, ef)  # -2 * e * q2, exact
    # Horner steps y = fma(y, x, p): exact in float64, then rounded on the bits (ties away
    # from zero; no result changes) -- except the last, which has ties that matter.
    mul(x64, _LOG_P64[0], buf)
    add(buf, _LOG_P64[1], buf)
    _round_bits(bits)
    for p in _LOG_P64[2:-1]:
        mul(buf, x64, buf)
        add(buf, p, buf)
        _round_bits(bits)
    mul(buf, x64, buf)
    add(buf, _LOG_P64[-1], buf)
    cp(y, buf)
    mul(x, _MINUS_TWO, x)  # from here on, values times -2
    mul(y, x, y)  # y * x
    cp(buf, y)
    mul(buf, z64, buf)
    add(buf, e64, buf)
    cp(y, buf)  # fma(y, z, e * q1)
    add(y, z, y)  # y - z / 2
    add(y, x, y)  # x + y
    add(y, ef, y)  # + e * q2
    return y


def _poly2(z64: np.ndarray, p0: float, pm1: float, m1: float, pm2: float, m2: float,
           buf: np.ndarray) -> None:
    """``buf = float32(((p0 z + c1) z + c2) z)`` for float32 values ``z`` held in float64.

    Both polynomial steps stay in one binade, so adding then subtracting a magic constant
    (``pm`` = c + m, then ``m``) rounds each to float32; the last product is rounded on its bits.
    """
    mul, add, sub = np.multiply, np.add, np.subtract
    mul(z64, p0, buf)
    add(buf, pm1, buf)
    sub(buf, m1, buf)
    mul(buf, z64, buf)
    add(buf, pm2, buf)
    sub(buf, m2, buf)
    mul(buf, z64, buf)
    bits = buf.view(np.int64)
    _round_bits(bits)


def _sincos(k: np.ndarray, s: _Scratch, cos: np.ndarray, sin: np.ndarray) -> None:
    """``sincos256_ps(2 pi (k & 0xffffff) / 2**24)`` for uint32 draws ``k`` (clobbered)."""
    mul, add, cp = np.multiply, np.add, np.copyto
    band, bxor, lsh, rsh = np.bitwise_and, np.bitwise_xor, np.left_shift, np.right_shift
    f4, f5, f6 = s.f[4:7]
    i0, i1, i2 = s.i
    x64, z64, buf, b2 = s.d
    i = k.view(_I)
    band(i, _MASK24, i)
    theta = f4
    cp(theta, i, "unsafe")
    mul(theta, _THETA_SCALE, theta)
    mul(theta, _FOPI, f5)
    kk = i0
    cp(kk, f5, "unsafe")  # truncation, as cvttps
    add(kk, _I1, kk)
    rsh(kk, _I1, kk)  # k = j / 2 for the AVX code's even j = (trunc + 1) & ~1
    cp(x64, kk)
    mul(x64, _DSUM, x64)
    cp(buf, theta)
    add(x64, buf, x64)  # theta - j pi/4, exact
    x, z = f5, f6
    cp(x, x64)  # rounded once (ties to even: ties occur here)
    cp(x64, x)
    mul(x, x, z)
    cp(z64, z)
    # cosine polynomial
    _poly2(z64, _C_P0, _PM_C1, _M_C1, _PM_C2, _M_C2, buf)
    mul(buf, z64, buf)
    mul(z64, _MINUS_HALF, b2)
    add(buf, b2, buf)
    yc = f4
    cp(yc, buf)  # fma(y, z, -z / 2)
    add(yc, _ONE, yc)
    # sine polynomial
    _poly2(z64, _S_P0, _PM_S1, _M_S1, _PM_S2, _M_S2, buf)
    mul(buf, x64, buf)
    add(buf, x64, buf)
    ys = f6
    cp(ys, buf)  # fma(y, x, x)
    # Pick the polynomial and set the signs with bit operations, as the AVX code does: for
    # odd k the sine comes from the cosine polynomial and vice versa; the sine is negative for
    # k in {2, 3} and the cosine for k in {1, 2}.
    cb, sb = yc.view(_I), ys.view(_I)
    cos_b, sin_b = cos.view(_I), sin.view(_I)
    odd, swap, flip = i1, i2, i
    lsh(kk, _I31, odd)  # sign bit set for odd k
    rsh(odd, _I31, swap)  # all ones for odd k
    bxor(cb, sb, flip)
    band(flip, swap, flip)  # the bits that swap the two
    band(kk, _I2, swap)
    lsh(swap, _I30, swap)  # sign bit set for k in {2, 3}
    bxor(flip, swap, flip)
    bxor(sb, flip, sin_b)
    bxor(cb, flip, cos_b)
    bxor(cos_b, odd, cos_b)  # the cosine's sign flips for k in {1, 2}


def _scale32(v: np.ndarray, mean: float, std: float, zeros: bool = True) -> None:
    """``v = fma(v, std, mean)`` in float32, in place (``v`` contiguous); ``zeros``: whether
    ``v`` may hold -0.0."""
    m, sd = _F(mean), _F(std)
    if sd == 1 and m == 0 and not zeros:
        return  # v * 1 + 0 is v
    if m == 0 and (sd == 0 or abs(sd) >= 2.0 ** -80):
        # |v| >= 2**-39 or v == 0, so v * std cannot underflow and rounding the product is the
        # fused rounding; adding the zero mean then gives fma's sign of zero
        if sd != 1:
            np.multiply(v, sd, v)
        np.add(v, m, v)
        return
    exact = v.astype(_D)
    np.multiply(exact, _D(sd), exact)
    np.add(exact, _D(m), exact)
    risk = double_rounding_risk(exact)
    if risk.any():
        idx = np.flatnonzero(risk)
        redo = fma32(v.reshape(-1)[idx], sd, m)
        np.copyto(v, exact)
        v.reshape(-1)[idx] = redo
    else:
        np.copyto(v, exact)


def _blocks(r: np.ndarray, out: np.ndarray, s: _Scratch, mean: float, std: float) -> None:
    """``normal_fill_16_AVX2`` on rows of 16 uint32 draws ``r`` into ``out`` (both (rows, 16))."""
    rows = r.shape[0]
    draws = s.draws[:, :rows]
    np.copyto(draws.view(_V32).reshape(2, rows), r.view(_V32).reshape(rows, 2).T)
    n = 8 * rows
    w = s if n == s.n else _scratch_view(s, n)
    radius = _minus_two_log(draws[0].reshape(-1), w)
    np.sqrt(radius, radius)
    zeros = radius.min() == 0
    if zeros:  # u1 == 1: torch's radius is sqrt(-2 * +0) = -0
        radius[radius == 0] = -0.0
    normals = w.normals
    _sincos(draws[1].reshape(-1), w, normals[0], normals[1])
    np.multiply(normals, radius, normals)
    _scale32(normals, mean, std, zeros)
    np.copyto(out.view(_V32).reshape(rows, 2).T, normals.view(_V32).reshape(2, rows))


def _scratch_view(s: _Scratch, n: int) -> _Scratch:
    """The same buffers cut to ``n`` lanes."""
    w = object.__new__(_Scratch)
    w.n, w.d, w.f, w.i = n, [a[:n] for a in s.d], [a[:n] for a in s.f], [a[:n] for a in s.i]
    w.draws, w.normals = s.draws, s.normals.reshape(-1)[:2 * n].reshape(2, n)
    return w


def fill_f32(draw: Callable[[int], np.ndarray], out: np.ndarray, mean: float = 0.0,
             std: float = 1.0) -> None:
    """torch's ``normal_fill`` for float32: ``out`` (flat, contiguous, 16 or more values) gets
    ``normal * std + mean``.

    ``draw(k)`` returns the generator's next ``k`` 32-bit draws.  Every value takes one draw,
    blocks of 16 are transformed, then (when 16 does not divide the size) 16 more draws
    redo the last 16 values.  Batches are drawn as they are needed, so the draws never leave
    the cache.
    """
    n = out.size
    full, extra = divmod(n, 16)
    rows = out[:16 * full].reshape(-1, 16)
    s = _Scratch(8 * min(full + 1, _BATCH_ROWS))
    for a in range(0, full, _BATCH_ROWS):
        part = rows[a:a + _BATCH_ROWS]
        if extra and a + _BATCH_ROWS >= full and part.shape[0] < _BATCH_ROWS:
            # the last batch takes the redone block along: one pass over both
            r = draw(part.size + extra + 16)
            both = np.empty((part.shape[0] + 1, 16), np.uint32)
            both.reshape(-1)[:part.size] = r[:part.size]
            both[-1] = r[-16:]
            res = np.empty(both.shape, _F)
            _blocks(both, res, s, mean, std)
            part[...] = res[:-1]
            out[n - 16:] = res[-1]
            return
        _blocks(draw(part.size).reshape(-1, 16), part, s, mean, std)
    if extra:  # the leftover draws are made, then the last 16 values are redone
        draw(extra)
        _blocks(draw(16).reshape(1, 16), out[n - 16:].reshape(1, 16), s, mean, std)


def _fill_rows(u: np.ndarray, out: np.ndarray) -> None:
    """The float32 block kernel (``* 1 + 0``) on rows of 16 float uniforms ``k / 2**24``."""
    k = np.empty(u.shape, np.uint32)
    np.multiply(u, _F(2.0 ** 24), out=k, casting="unsafe")
    s = _Scratch(8 * min(u.shape[0], _BATCH_ROWS))
    for a in range(0, u.shape[0], _BATCH_ROWS):
        _blocks(k[a:a + _BATCH_ROWS], out[a:a + _BATCH_ROWS], s, 0.0, 1.0)


def _libm(fn: Callable[[float], float], x: np.ndarray) -> np.ndarray:
    """The C library's ``fn`` on each element (numpy's own log differs in the last bit)."""
    return np.fromiter(map(fn, x.ravel().tolist()), np.float64, x.size).reshape(x.shape)


def fill16_f64(u: np.ndarray, out: np.ndarray) -> None:
    """``normal_fill_16`` in double precision (C library log, cos, sin), shapes (blocks, 16)."""
    radius = _libm(math.log, 1.0 - u[:, :8])
    np.multiply(radius, -2.0, radius)
    np.sqrt(radius, radius)
    theta = (2.0 * math.pi) * u[:, 8:]  # numpy's double cos and sin are the C library's
    np.multiply(radius, np.cos(theta), out=out[:, :8])
    np.multiply(radius, np.sin(theta), out=out[:, 8:])


def serial_pairs(u: np.ndarray) -> np.ndarray:
    """Box-Muller pairs ``(r cos t, r sin t)`` from double uniforms ``(u1, u2)`` per row, with
    ``r = sqrt(-2 log1p(-u2))`` and ``t = 2 pi u1`` (the C library's ``log1p``)."""
    r = np.sqrt(-2.0 * _libm(math.log1p, -u[:, 1]))
    theta = (2.0 * math.pi) * u[:, 0]
    return np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1)


def scale(n: np.ndarray, mean: float, std: float) -> np.ndarray:
    """``n * std + mean`` in float64 with one rounding (torch's fused multiply-add)."""
    if (mean, std) == (0.0, 1.0):
        return n + 0.0  # only turns -0.0 into 0.0
    return fma64(n, std, mean)
