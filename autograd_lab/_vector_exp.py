"""torch's vectorised float32 ``exp`` replayed: SLEEF's ``expf_u10`` as torch's AVX-512 CPU
kernels run it, in float32 numpy arithmetic with the same fused multiply-adds.

torch's elementwise loops (``cpu_kernel_vec``) run a contiguous stretch in steps of two
vectors (32 float32 on AVX-512) with the vector formula, whose ``exp`` is SLEEF's, and the
last ``n % 32`` elements with the scalar formula, whose ``std::exp`` is libm's (about
correctly rounded: float64 ``exp`` rounded once). ``sigmoid`` and ``silu`` are built so; their
results differ from a correctly rounded ``exp`` in the last bit for about a third of inputs,
which ``1 - y`` in their gradients makes visible.

SLEEF's algorithm (Shibata, "SLEEF Vectorized Math Library"): ``q = rint(d / ln 2)``; the
reduced argument ``s = d - q ln 2`` in two fused steps (ln 2 split in two parts); a degree-6
polynomial by Horner's rule with fused multiply-adds; ``1 + (s*s * u + s)``; scaled by 2^q in
two halves; 0 below -104 and inf above 100.
"""

from __future__ import annotations

import numpy as np

from ._fma import fma32

_F32 = np.float32
_R_LN2 = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HI = _F32(0.693145751953125)
_LN2_LO = _F32(1.428606765330187045e-06)
_POLY = tuple(_F32(c) for c in (
    0.00139304355252534151077271, 0.00833336077630519866943359, 0.0416664853692054748535156,
    0.166666671633720397949219, 0.5))
_POLY0 = _F32(0.000198527617612853646278381)


def _pow2(e: np.ndarray) -> np.ndarray:
    """2**e as float32 (e within float32's normal exponents)."""
    return ((e.astype(np.int32) + 127) << 23).astype(np.int32).view(_F32)


def sleef_expf(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``expf_u10`` on float32 ``d`` (any shape), bit for bit."""
    d = np.asarray(d, _F32)
    with np.errstate(over="ignore", invalid="ignore"):
        q = np.rint(d * _R_LN2).astype(_F32)
        q = np.clip(q, -300, 300)  # NaN and the far ranges are selected below
        q = np.where(np.isnan(q), _F32(0), q).astype(np.int32)
        qf = q.astype(_F32)
        s = fma32(qf, -_LN2_HI, d)
        s = fma32(qf, -_LN2_LO, s)
        u = np.full(s.shape, _POLY0, _F32)
        for c in _POLY:
            u = fma32(u, s, c)
        u = _F32(1) + fma32(s * s, u, s)
        half = q >> 1
        u = u * _pow2(np.clip(half, -126, 127)) * _pow2(np.clip(q - half, -126, 127))
        u = np.where(d < _F32(-104), _F32(0), u)
        u = np.where(d > _F32(100), _F32(np.inf), u)
        return np.where(np.isnan(d), d, u).astype(_F32, copy=False)


def vector_part(a: np.ndarray) -> np.ndarray | None:
    """A boolean mask of the elements of ``a`` torch's loop gives to its vector formula, or
    None where it runs the scalar formula on all of them.

    The loop's step is two 64-byte vectors (32 float32, 16 float64). A contiguous array
    (either order) is one stretch in memory order: all but its last ``n % step`` elements.
    Other layouts run row by row along a unit-stride last dim; anything else element by
    element."""
    n, step = a.size, 128 // a.itemsize
    if n < step:
        return None
    if a.flags.c_contiguous or a.flags.f_contiguous:
        order = "C" if a.flags.c_contiguous else "F"
        mask = np.zeros(n, bool)
        mask[: n - n % step] = True
        return mask.reshape(a.shape, order=order)
    if a.ndim and a.strides[-1] == a.itemsize and a.shape[-1] >= step:
        row = np.zeros(a.shape[-1], bool)
        row[: a.shape[-1] - a.shape[-1] % step] = True
        return np.broadcast_to(row, a.shape)
    return None


def exp_as_kernel(a: np.ndarray, layout: np.ndarray | None = None) -> np.ndarray:
    """float32 ``exp(a)`` as torch's elementwise kernels compute it: SLEEF's on the vector part,
    correctly rounded on the rest (the scalar tail).  ``layout``: the array whose memory
    layout torch's loop follows (the op's input, when ``a`` is computed from it)."""
    with np.errstate(over="ignore"):
        out = np.exp(a.astype(np.float64)).astype(_F32)
    mask = vector_part(a if layout is None else layout)
    if mask is not None:
        out[mask] = sleef_expf(a[mask])
    return out


def sigmoid32(x: np.ndarray) -> np.ndarray:
    """torch's float32 sigmoid kernel: ``1 / (1 + exp(-x))``."""
    one = _F32(1)
    return one / (one + exp_as_kernel(-x, x))


def silu32(x: np.ndarray) -> np.ndarray:
    """torch's float32 silu kernel: ``x / (1 + exp(-x))``."""
    return x / (_F32(1) + exp_as_kernel(-x, x))


def silu_backward32(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """torch's float32 ``silu_backward``: ``g * s * (1 + x * (1 - s))``, ``s = sigmoid(x)``,
    the last factor one fused multiply-add."""
    s = sigmoid32(x)
    return g * s * fma32(x, _F32(1) - s, _F32(1))
