"""torch's float32 ``gelu_backward`` (``approximate='none'``) replayed: on a contiguous float32
input of more than one element torch hands it to oneDNN's JIT eltwise kernel, whose
derivative of gelu is Abramowitz and Stegun's erf (formula 7.1.26) with oneDNN's own
polynomial ``exp``, all in float32 with fused multiply-adds. Its values differ from an exact
``erf`` in the last bits for about one element in seven.

oneDNN's ``exp(x)``: x clamped to [ln FLT_MIN, ln FLT_MAX]; ``n = floor(x log2 e + 1/2)``;
``r = x - n ln 2`` (one fused step); a degree-5 polynomial by Horner's rule; times 2^(n-1),
times 2; 0 where x was below ln FLT_MIN.
"""

from __future__ import annotations

import numpy as np

from ._fma import fma32

_F32 = np.float32


def _bits(*words: int) -> tuple[np.float32, ...]:
    return tuple(np.array(words, np.uint32).view(_F32))


_LOG2E, _LN_MAX, _LN_MIN, _LN2 = _bits(0x3FB8AA3B, 0x42B17218, 0xC2AEAC50, 0x3F317218)
_EXP_POLY = _bits(0x3C07CFCE, 0x3D2B9D0D, 0x3E2AAD40, 0x3EFFFEE3, 0x3F7FFFFB)  # p5 .. p1
_AS_P, _SQRT1_2, _INV_SQRT_PI = _bits(0x3EA7BA05, 0x3F3504F3, 0x3F106EBA)
_AS_POLY = _bits(0x3F87DC22, 0xBFBA00E3, 0x3FB5F0E3, 0xBE91A98E, 0x3E827906)  # a5 .. a1


def applies(x: np.ndarray) -> bool:
    """Whether torch sends gelu's backward on ``x`` to oneDNN (float32, C-contiguous, n > 1)."""
    return x.dtype == _F32 and x.size > 1 and x.flags.c_contiguous


def _exp(x: np.ndarray) -> np.ndarray:
    """oneDNN's float32 exp."""
    below = x < _LN_MIN
    x = np.clip(x, _LN_MIN, _LN_MAX)
    n = np.floor(x * _LOG2E + _F32(0.5))
    r = fma32(-n, _LN2, x)
    scale = ((n - _F32(1)).astype(np.int32) + 127) << 23
    scale = np.where(below, _F32(0), scale.astype(np.int32).view(_F32))
    y = np.full(r.shape, _EXP_POLY[0], _F32)
    for c in (*_EXP_POLY[1:], _F32(1)):
        y = fma32(y, r, c)
    return y * scale * _F32(2)


def gelu_backward(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``g * gelu'(x)`` as oneDNN computes it (x float32)."""
    r = x * _SQRT1_2
    q = _exp(-(r * r))
    t = r * _INV_SQRT_PI * q
    w = _F32(1) / fma32(_AS_P, np.abs(r), _F32(1))
    poly = np.full(w.shape, _AS_POLY[0], _F32)
    for c in _AS_POLY[1:]:
        poly = fma32(poly, w, c)
    erf = fma32(-q * w, poly, _F32(1))
    erf = np.where(np.signbit(r), -erf, erf)
    return (g * fma32(erf, _F32(0.5), t + _F32(0.5))).astype(_F32, copy=False)
