"""The scalar ``std::tanh`` of torch's float32 kernels replayed: glibc's ``tanhf`` (the
fdlibm algorithm, glibc up to 2.40, as on the Debian 12 machine the goldens come from), in
float32 numpy arithmetic without fused operations. It is off by an ulp from the correctly
rounded value for about a fifth of inputs.

``tanh(x) = 1 - 2 / (expm1(2|x|) + 2)`` for |x| >= 1, ``-t / (t + 2)`` with
``t = expm1(-2|x|)`` below, 1 from 22 on, x itself below 2^-55; the sign of x. ``expm1``:
``x = k ln 2 + r`` (ln 2 in two parts), a rational approximation of ``expm1(r)`` in
``r^2 / 2`` and a correction ``c`` for the reduction's rounding; ``2^k`` added to the
exponent bits.
"""

from __future__ import annotations

import numpy as np

_F32 = np.float32


def _word(u: int) -> np.float32:
    return np.array([u], np.uint32).view(_F32)[0]


_LN2_HI, _LN2_LO, _INV_LN2 = _word(0x3F317180), _word(0x3717F7D1), _word(0x3FB8AA3B)
_Q = tuple(_word(u) for u in (0xBD088889, 0x3AD00D01, 0xB8A670CD, 0x36867E54, 0xB457EDBB))
_ONE, _HALF, _TWO = _F32(1), _F32(0.5), _F32(2)


def _scale(y: np.ndarray, k: np.ndarray) -> np.ndarray:
    """y * 2^k by adding k to the exponent bits."""
    return (y.view(np.int32) + (k << 23)).astype(np.int32).view(_F32)


def _expm1f(x: np.ndarray) -> np.ndarray:
    """glibc's ``expm1f`` for |x| <= 44 (what ``tanhf`` asks of it)."""
    bits = x.view(np.uint32) & np.uint32(0x7FFFFFFF)
    neg = np.signbit(x)
    reduce = bits > 0x3EB17218  # |x| > ln2 / 2
    near = reduce & (bits < 0x3F851592)  # ... and |x| < 1.5 ln2: k = +-1
    k_far = (_INV_LN2 * x + np.where(neg, -_HALF, _HALF)).astype(np.int32)
    k = np.where(near, np.where(neg, -1, 1), np.where(reduce, k_far, 0)).astype(np.int32)
    t = k.astype(_F32)
    hi = np.where(near, np.where(neg, x + _LN2_HI, x - _LN2_HI), x - t * _LN2_HI)
    lo = np.where(near, np.where(neg, -_LN2_LO, _LN2_LO), t * _LN2_LO)
    r = np.where(reduce, hi - lo, x)
    c = np.where(reduce, (hi - r) - lo, _F32(0))
    hfx = _HALF * r
    hxs = r * hfx
    r1 = _ONE + hxs * (_Q[0] + hxs * (_Q[1] + hxs * (_Q[2] + hxs * (_Q[3] + hxs * _Q[4]))))
    t = _F32(3) - r1 * hfx
    e = hxs * ((r1 - t) / (_F32(6) - r * t))
    k0 = r - (r * e - hxs)
    e = (r * (e - c) - c) - hxs
    km1 = _HALF * (r - e) - _HALF
    kp1 = np.where(r < _F32(-0.25), -_TWO * (e - (r + _HALF)), _ONE + _TWO * (r - e))
    far = _scale(_ONE - (e - r), k) - _ONE  # k <= -2 or k > 56
    kc = np.clip(k, 0, 23)
    below23 = (0x3F800000 - (0x1000000 >> kc)).astype(np.int32).view(_F32)  # 1 - 2^-k
    above23 = ((0x7F - np.clip(k, 23, 127)) << 23).astype(np.int32).view(_F32)  # 2^-k
    mid = _scale(np.where(k < 23, below23 - (e - r), (r - (e + above23)) + _ONE), k)
    out = np.where((k <= -2) | (k > 56), far, mid)
    out = np.where(k == 1, kp1, np.where(k == -1, km1, np.where(k == 0, k0, out)))
    return np.where(bits < 0x33000000, x, out).astype(_F32, copy=False)  # |x| < 2^-25


def tanhf(x: np.ndarray) -> np.ndarray:
    """glibc's float32 ``tanhf`` on ``x`` (any shape), bit for bit."""
    x = np.asarray(x, _F32)
    bits = x.view(np.uint32) & np.uint32(0x7FFFFFFF)
    a = np.minimum(np.abs(x), _F32(22))
    with np.errstate(over="ignore", invalid="ignore"):
        t = _expm1f(_TWO * a)
        big = _ONE - _TWO / (t + _TWO)
        t = _expm1f(-_TWO * a)
        small = -t / (t + _TWO)
        z = np.where(bits >= 0x3F800000, big, small)
        z = np.where(bits < 0x24000000, a * (_ONE + a), z)
        z = np.where(bits >= 0x41B00000, _ONE, z)
        z = np.where(np.signbit(x), -z, z)
        z = np.where(bits == 0, x, z)
        return np.where(np.isnan(x), x, z).astype(_F32, copy=False)
