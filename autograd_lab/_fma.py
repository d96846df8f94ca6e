"""Exact fused multiply-add on numpy arrays: ``round(a * b + c)`` with a single rounding.

torch's CPU kernels are compiled with FMA contraction, so ``x * s + m`` there is rounded once.
numpy has no fma ufunc, so it is built here from error-free transformations:

* float32: a product of two float32 is exact in float64; the float64 sum is then rounded *to
  odd* (an inexact result gets its last bit forced to 1) before the cast to float32.  Rounding
  to odd in a format with at least 2p + 2 bits and then to nearest in p bits equals one
  rounding to nearest (53 >= 2 * 24 + 2), so the result is exact.
* float64: Boldo and Melquiond's emulation -- exact product and sum by Veltkamp/Dekker and
  Knuth's TwoSum, the two low parts added with rounding to odd, one final rounding to nearest.
"""

from __future__ import annotations

import numpy as np

_ONE = np.uint64(1)
_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp's splitter for binary64


def _to_odd(s: np.ndarray, err: np.ndarray) -> np.ndarray:
    """``s`` (float64, = round_nearest(v)) moved to round_to_odd(v), where ``v = s + err``."""
    bits = s.view(np.uint64)
    fix = (err != 0) & ((bits & _ONE) == 0)
    if fix.any():
        bits = bits.copy()
        away = (err > 0) == (s > 0)  # exact value lies further from zero than s
        bits[fix & away] += _ONE
        bits[fix & ~away] -= _ONE
    return bits.view(np.float64)


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """s + e == a + b exactly, s = round(a + b)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """p + e == a * b exactly, p = round(a * b) (Dekker, with Veltkamp splitting)."""
    t = a * _SPLIT
    ah = t - (t - a)
    al = a - ah
    t = b * _SPLIT
    bh = t - (t - b)
    bl = b - bh
    p = a * b
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def fma32(a: np.ndarray | float, b: np.ndarray | float, c: np.ndarray | float) -> np.ndarray:
    """float32 ``a * b + c`` rounded once (operands are float32 values)."""
    a, b, c = (np.asarray(v, np.float32).astype(np.float64) for v in (a, b, c))
    p = a * b  # exact: 24 + 24 bits
    s, err = _two_sum(p, np.broadcast_to(c, p.shape))
    return _to_odd(np.asarray(s), np.asarray(err)).astype(np.float32)


def fma64(a: np.ndarray | float, b: np.ndarray | float, c: np.ndarray | float) -> np.ndarray:
    """float64 ``a * b + c`` rounded once."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
    ph, pl = _two_prod(a, b)
    sh, sl = _two_sum(c, ph)
    v, w = _two_sum(sl, pl)
    return sh + _to_odd(np.asarray(v), np.asarray(w))
