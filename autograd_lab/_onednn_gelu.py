"""torch's float32 ``gelu`` and ``gelu_backward`` (``approximate='none'``) replayed: on a
contiguous float32 input of more than one element torch hands both to oneDNN's JIT eltwise
kernels (AVX-512). Their values differ from an exact ``erf`` in the last bits for about one
element in seven.

The forward is a piecewise minimax polynomial of degree 5 in |x|, picked by the exponent and
two leading mantissa bits of |x| (24 pieces; 1 from 5.54 on), evaluated by Horner's rule with
fused multiply-adds: ``gelu(x) = x (1 + sign(x) p(|x|)) / 2``. The derivative is Abramowitz
and Stegun's erf (formula 7.1.26) with oneDNN's own polynomial ``exp``.

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


_IDX_BIAS = np.int32(np.array([0xC21FFFFF], np.uint32).view(np.int32)[0])
_R_BOUND = _bits(0x40B15CEE)[0]
_MINIMAX = np.array([  # coefficients of degree 0 .. 5, 32 pieces each (24 used)
    0xA6F2CB94, 0x32827792, 0x3381CC0C, 0x34523D4A, 0x351AC44D, 0x35F36D88, 0x36EE8229, 0x37B8A3BB,
    0x3867A213, 0x3940033B, 0x3A2A5A1D, 0x3AE35863, 0x3B7828F2, 0x3C08B14B, 0x3C515ED3, 0xBB503236,
    0xBD8D8E5E, 0xBE8ABCD9, 0xBF0C19A2, 0xBECCB328, 0x3E176CED, 0x3F470D99, 0x3F7ABB28, 0x3F800000,
    0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    0x3F4C422A, 0x3F4C421F, 0x3F4C4207, 0x3F4C41CB, 0x3F4C413B, 0x3F4C3FAD, 0x3F4C3A2F, 0x3F4C2D40,
    0x3F4C146A, 0x3F4BC341, 0x3F4AD08C, 0x3F48F8CF, 0x3F45FAC7, 0x3F404E07, 0x3F3B980F, 0x3F48DFF3,
    0x3F78B21B, 0x3FBB0704, 0x40019C32, 0x3FE536D6, 0x3F81331E, 0x3E6C8684, 0x3C98F936, 0x00000000,
    0x3F800000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    0xB62173F4, 0x3735E4CF, 0x37F2FF89, 0x388C23BE, 0x3917535C, 0x39AB2AB0, 0x3A60FADB, 0x3AF9B960,
    0x3B6E5491, 0x3C0A4EC5, 0x3CA5AA8C, 0x3D2138D9, 0x3D8737D4, 0x3DDFB660, 0x3E0F27AB, 0x3D94004B,
    0xBE0EFDEB, 0xBF1D96C3, 0xBF89DB58, 0xBF6D9897, 0xBEF69FB8, 0xBDC4F8A8, 0xBBDE6422, 0x00000000,
    0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    0xBE081A19, 0xBE084570, 0xBE08639B, 0xBE089837, 0xBE08F409, 0xBE09AB95, 0xBE0B66D0, 0xBE0E400A,
    0xBE124DF8, 0xBE1BDE02, 0xBE2F19C9, 0xBE4931BF, 0xBE685FBC, 0xBE89C95F, 0xBE96CBCA, 0xBE8044AA,
    0xBE0550F2, 0x3DCFD6A1, 0x3E94C826, 0x3E79345F, 0x3DECEC91, 0x3CA46568, 0x3AA1E00A, 0x00000000,
    0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    0xBA3D61DB, 0x39F097A3, 0x3A5845DC, 0x3AB1FA35, 0x3B0CEFB8, 0x3B653AB6, 0x3BCAE527, 0x3C221712,
    0x3C6C5840, 0x3CC0A703, 0x3D1DCC19, 0x3D63656D, 0x3D955907, 0x3DBF9910, 0x3DD53F69, 0x3DB7DCEF,
    0x3D639EBE, 0xBA6EDE48, 0xBD22BE69, 0xBD041CF1, 0xBC64F5AB, 0xBB097A32, 0xB8EBF380, 0x00000000,
    0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    0x3CB7D80C, 0x3C9B6050, 0x3C978D11, 0x3C92E850, 0x3C8D058B, 0x3C848454, 0x3C6CD623, 0x3C4C824B,
    0x3C2A7935, 0x3BE0B390, 0x3B0651AC, 0xBB232F53, 0xBBD42FA0, 0xBC2C5366, 0xBC492C9E, 0xBC2A7AA6,
    0xBBD55D04, 0xBA823A76, 0x3B102AA8, 0x3AE25A7E, 0x3A31F792, 0x38B84375, 0x3689BB5A, 0x00000000,
    0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
], np.uint32).view(_F32).reshape(6, 32)


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


def gelu(x: np.ndarray) -> np.ndarray:
    """``gelu(x)`` as oneDNN computes it (x float32)."""
    a = np.abs(x)
    with np.errstate(over="ignore"):  # the index arithmetic wraps as int32 does
        piece = (a.view(np.int32).astype(np.int64) + _IDX_BIAS).astype(np.int32) >> 21
    piece = np.where(a > _R_BOUND, 23, np.clip(piece, 1, 24))
    with np.errstate(invalid="ignore"):
        p = _MINIMAX[5][piece]
        for degree in range(4, -1, -1):
            p = fma32(p, a, _MINIMAX[degree][piece])
        p = np.where(np.signbit(x), -p, p)
        return (x * (p + _F32(1)) * _F32(0.5)).astype(_F32, copy=False)
