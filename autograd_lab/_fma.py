"""Exact fused multiply-add on numpy arrays: ``round(a * b + c)`` with a single rounding.

torch's CPU kernels are compiled with FMA contraction, so ``x * s + m`` there is rounded once.
numpy has no fma ufunc, so it is built here from exact float64 arithmetic:

* float32: a product of two float32 is exact in float64, so ``s = a * b + c`` in float64 is
  the exact value ``v`` rounded once, and casting ``s`` to float32 rounds ``v`` correctly --
  unless ``s`` landed exactly on a point halfway between two float32 numbers (then the first
  rounding may have created a tie that ``v`` was not), or ``s`` is in float32's subnormal
  range (where the spacing of float32 is not relative).  Those few elements are redone by
  rounding the float64 sum *to odd* (an inexact result gets its last bit forced to 1) before
  the cast: rounding to odd in a format with at least 2p + 2 bits and then to nearest in p
  bits equals one rounding to nearest (53 >= 2 * 24 + 2).
* float64: Boldo and Melquiond's emulation -- exact product and sum by Veltkamp/Dekker and
  Knuth's TwoSum, the two low parts added with rounding to odd, one final rounding to nearest.
"""

from __future__ import annotations

import numpy as np

_ONE = np.uint64(1)
_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp's splitter for binary64
_LOW29 = np.uint64((1 << 29) - 1)  # float64 bits below float32's last mantissa bit
_HALF29 = np.uint64(1 << 28)  # ... holding exactly half a float32 unit: a float32 midpoint
_ABS = np.uint64((1 << 63) - 1)  # all bits but the sign
_TINY32_BITS_M1 = np.uint64(np.float64(2.0 ** -126).view(np.uint64) - 1)  # smallest normal
# float32, as float64 bits, less one


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


def double_rounding_risk(s: np.ndarray) -> np.ndarray:
    """Where casting the float64 ``s`` (contiguous) to float32 may not round the exact value.

    ``s`` is the exact value rounded to float64.  The cast rounds that correctly unless ``s``
    is a float32 midpoint (its 29 bits below float32 precision are ``1000...0``) or lies in
    float32's subnormal range (0 < |s| < 2^-126: its magnitude's bits less one, so that an
    exact zero wraps round to the largest number and is not flagged).
    """
    bits = s.reshape(-1).view(np.uint64)
    risk = np.bitwise_and(bits, _LOW29)
    risk = risk == _HALF29
    small = np.bitwise_and(bits, _ABS)
    small -= _ONE
    risk |= small < _TINY32_BITS_M1
    return risk


def _flat(v: np.ndarray, shape: tuple) -> np.ndarray:
    """``v`` broadcast to ``shape``, flattened (a view when it already has that shape)."""
    if v.shape != shape:
        v = np.broadcast_to(v, shape)
    return v.reshape(-1)


def fma32(a: np.ndarray | float, b: np.ndarray | float, c: np.ndarray | float) -> np.ndarray:
    """float32 ``a * b + c`` rounded once (operands are float32 values)."""
    a64 = np.asarray(a, np.float32).astype(np.float64)
    b64 = np.asarray(b, np.float32).astype(np.float64)
    c32 = np.asarray(c, np.float32)
    s = a64 * b64  # exact: 24 + 24 bits
    if type(s) is np.ndarray and (c32.shape == s.shape or not c32.ndim):
        s += c32  # into the fresh product: one temporary fewer
    else:
        s = s + c32
    out = s.astype(np.float32)
    risk = double_rounding_risk(s)
    if np.count_nonzero(risk):  # (faster than .any() on a bool array)
        idx = np.flatnonzero(risk)
        pick = [_flat(v, s.shape)[idx] for v in (a64, b64, c32)]
        p = pick[0] * pick[1]
        t, err = _two_sum(p, pick[2].astype(np.float64))
        out.reshape(-1)[idx] = _to_odd(t, err).astype(np.float32)
    return out


def fma64(a: np.ndarray | float, b: np.ndarray | float, c: np.ndarray | float) -> np.ndarray:
    """float64 ``a * b + c`` rounded once."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
    ph, pl = _two_prod(a, b)
    sh, sl = _two_sum(c, ph)
    v, w = _two_sum(sl, pl)
    return sh + _to_odd(np.asarray(v), np.asarray(w))
